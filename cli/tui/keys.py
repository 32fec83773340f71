"""The stepper's keys, one table: the app binds them, ``?`` and ``kifu replay --help`` list them.

Each row: the Textual key names, how the help spells them, the app action, what it does."""
from __future__ import annotations

KEYS: tuple[tuple[str, str, str, str], ...] = (
    ("n,right,space", "n → Space", "step(1)", "next event"),
    ("p,left", "p ←", "step(-1)", "previous event"),
    ("N,right_square_bracket,down", "N ] ↓", "decision(1)", "next player decision"),
    ("P,left_square_bracket,up", "P [ ↑", "decision(-1)", "previous player decision"),
    ("t", "t", "turn(1)", "next turn"),
    ("T", "T", "turn(-1)", "start of this turn, then the previous one"),
    ("g,colon", "g :", "jump", "jump to a seq (type it, Enter; Esc cancels)"),
    ("0,home", "0 Home", "first", "before the first event"),
    ("G,dollar_sign,end", "G $ End", "last", "the last event"),
    ("s", "s", "seat", "view: judge → seat 1 → seat 2 (what that seat could see)"),
    ("a", "a", "autoplay", "autoplay on/off"),
    ("plus,equals_sign", "+", "speed(1)", "autoplay faster"),
    ("minus", "-", "speed(-1)", "autoplay slower"),
    ("tab", "Tab", "focus_card(1)", "focus the next card on the board (shows its text)"),
    ("shift+tab", "Shift-Tab", "focus_card(-1)", "focus the previous card"),
    ("c", "c", "pane('card')", "card text of the focused card (default: the event's card)"),
    ("w", "w", "pane('why')", "why: the causes back to the decision, with the ruling's values"),
    ("z", "z", "zones", "every zone in full (the whole graveyard, a deck's order) or compact"),
    ("pageup,pagedown", "PgUp PgDn", "", "scroll the board"),
    ("question_mark", "?", "help", "this help"),
    ("q,ctrl+c", "q Ctrl-C", "quit", "quit"),
)


def help_lines() -> list[str]:
    width = max(len(k[1]) for k in KEYS)
    return [f"{shown:<{width}}  {what}" for _, shown, _, what in KEYS]
