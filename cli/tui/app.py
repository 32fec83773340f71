"""The full-screen replay stepper on Textual: board, events and clause panes that fit 80×24.

The board pane draws the ruleset's layout (``kifu.cli.render``), so every ruleset steps the same
way; a board taller than its pane scrolls inside it and the other panes stay put. A record
whose chain or commitments do not verify gets a red banner on every screen."""
from __future__ import annotations

from typing import Any, ClassVar, cast

from rich.console import Group
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from .keys import KEYS, help_lines
from .model import Position
from .notes import Annotations, annotation_line

SPEEDS = (1, 2, 4, 8, 16, 32, 64)      # autoplay, events per second
WIDE = 140                             # from this width the panes sit beside the board


class Board(VerticalScroll, can_focus=False):
    """The board pane: scrolls when the layout is taller than the pane (PgUp/PgDn)."""


class JumpInput(Input):
    """The jump prompt: Enter jumps, Esc or Ctrl-C cancels (and never quits the replay)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel", show=False),
                                             Binding("ctrl+c", "cancel", "cancel", show=False, priority=True)]

    def action_cancel(self) -> None:
        cast(ReplayApp, self.app).cancel_jump()


class Help(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark,enter", "dismiss", "close")]
    DEFAULT_CSS = """
    Help { align: center middle; }
    Help > Static { width: auto; max-width: 78; height: auto; max-height: 22; border: round $accent;
                    padding: 0 1; background: $surface; }
    """

    def compose(self) -> ComposeResult:
        body = Static(Text("\n".join(help_lines())))
        body.border_title = "kifu replay keys · Esc closes"
        yield body


class ReplayApp(App[None]):
    """``kifu replay`` on a terminal."""

    TITLE = "kifu replay"
    AUTO_FOCUS = None                   # keys go to the stepper; only the jump prompt takes focus
    CSS = """
    Screen { layout: vertical; }
    #banner { background: red; color: white; text-style: bold; height: auto; display: none; }
    #banner.shown { display: block; }
    #main { height: 1fr; layout: vertical; }
    #board { height: 1fr; }
    #board-status { dock: top; background: $boost; }
    #side { height: 9; layout: vertical; }
    #events { height: 5; border-top: solid $accent; border-title-color: $text-muted; }
    #info { height: 4; border-top: solid $accent; border-title-color: $text-muted; }
    #events > Static, #info > Static { width: 100%; }
    #events-body { text-wrap: nowrap; text-overflow: ellipsis; }
    .wide #events-body { text-wrap: wrap; }
    #status { height: 1; background: $panel; }
    #notes { height: auto; max-height: 3; background: $boost; display: none; }
    #jump { height: 3; display: none; }
    #jump.shown { display: block; }
    .wide #main { layout: horizontal; }
    .wide #board { width: 1fr; height: 100%; }
    .wide #side { width: 1fr; min-width: 64; max-width: 120; height: 100%; }
    .wide #events { height: 1fr; }
    .wide #info { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(keys, action, what, show=False) for keys, _, action, what in KEYS if action),
        Binding("pageup", "scroll_board(-1)", show=False), Binding("pagedown", "scroll_board(1)", show=False),
        Binding("tab", "focus_card(1)", show=False, priority=True),
        Binding("shift+tab", "focus_card(-1)", show=False, priority=True),
    ]

    def __init__(self, position: Position, annotations: Annotations | None = None) -> None:
        super().__init__()
        self.position = position
        self.annotations = annotations or Annotations()   # notes and variations: cli/tui/notes.py
        self.pane = "clause"            # what the info pane shows: clause, card or why
        self.speed = 2                  # index into SPEEDS
        self.playing: Any = None        # the autoplay timer

    # -- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="banner")
        with Container(id="main"):
            with Board(id="board"):
                yield Static(id="board-status")
                for i in range(4):          # seat panels and the shared board, in drawing order
                    yield Static(id=f"board-part-{i}", classes="part")
            with Container(id="side"):
                with VerticalScroll(id="events", can_focus=False):
                    yield Static(id="events-body")
                with VerticalScroll(id="info", can_focus=False):
                    yield Static(id="info-body")
        yield JumpInput(id="jump", placeholder=f"jump to seq 0..{self.position.last} (Enter; Esc cancels)",
                        type="integer")
        yield Static(id="notes")
        yield Static(id="status")

    def on_mount(self) -> None:
        banner = self.query_one("#banner", Static)
        if self.position.warning:
            banner.update(self.position.warning)
            banner.add_class("shown")
        self._wide(self.size.width)
        self.refresh_panes()

    def on_resize(self, event: Any) -> None:
        """A new size redraws every pane at once (not at the next key): the split, the events'
        cut, the board's scroll."""
        self._wide(event.size.width)
        self.refresh_panes()

    def _wide(self, width: int) -> None:
        self.screen.set_class(width >= WIDE, "wide")

    def refresh_panes(self) -> None:
        pos = self.position
        parts, status = pos.board_parts()
        self.query_one("#board-status", Static).update(status)
        focus_seat = pos.seat_in_focus()
        target = None
        for i in range(4):
            widget = self.query_one(f"#board-part-{i}", Static)
            if i < len(parts):
                seat, group = parts[i]
                widget.update(group)
                widget.display = True
                if seat is not None and seat == focus_seat:
                    target = widget
            else:
                widget.display = False
        if target is not None:     # the panel of the seat this event concerns stays in view, with the
            # shared board above it where there is room (scrolled no further than needed)
            self.call_after_refresh(self.query_one("#board", Board).scroll_to_widget, target, animate=False)
        wide = self.screen.has_class("wide")
        lines = pos.event_lines(before=3 if not wide else 20)
        if not wide:       # one line per event, the current one last and whole (wrapped, not cut)
            for line in lines[:-1]:
                line.no_wrap, line.overflow = True, "ellipsis"
        self.query_one("#events-body", Static).update(Group(*lines))
        events_pane = self.query_one("#events", VerticalScroll)
        events_pane.border_title = "events · " + pos.clock().plain
        self.call_after_refresh(events_pane.scroll_end, animate=False)
        info = self.query_one("#info")
        if self.pane == "card":
            info.border_title, body = "card text (c: back to the clause; Tab: next card)", pos.card_text()
        elif self.pane == "why":
            info.border_title, body = "why (w: back to the clause)", pos.why()
        else:
            info.border_title, body = "clause", pos.clause()
        self.query_one("#info-body", Static).update(body)
        noted = annotation_line(self.annotations, pos.seq)
        notes = self.query_one("#notes", Static)
        notes.update(noted)
        notes.display = bool(noted.plain)
        status = pos.status()
        if self.playing is not None:
            status.append(f" · autoplay {SPEEDS[self.speed]}/s", style="bold")
        status.append(" · ? help · q quit", style="dim")
        self.query_one("#status", Static).update(status)

    # -- actions ---------------------------------------------------------------------------------
    def _moved(self) -> None:
        self.refresh_panes()

    def action_step(self, n: int) -> None:
        self.position.step(n)
        self._moved()

    def action_decision(self, n: int) -> None:
        self.position.decision(n)
        self._moved()

    def action_turn(self, n: int) -> None:
        self.position.turn(n)
        self._moved()

    def action_first(self) -> None:
        self.position.go(0)
        self._moved()

    def action_last(self) -> None:
        self.position.go(self.position.last)
        self._moved()

    def action_seat(self) -> None:
        self.position.toggle_seat()
        self._moved()

    def action_focus_card(self, n: int) -> None:   # (not action_focus: App's own, by widget id)
        self.position.move_focus(n)
        self.pane = "card"
        self._moved()

    def action_pane(self, pane: str) -> None:
        self.pane = "clause" if self.pane == pane else pane
        self._moved()

    def action_zones(self) -> None:
        self.position.toggle_zones()
        self._moved()

    def action_scroll_board(self, n: int) -> None:
        board = self.query_one("#board", Board)
        board.scroll_page_down() if n > 0 else board.scroll_page_up()

    def action_help(self) -> None:
        self.push_screen(Help())

    def action_jump(self) -> None:
        self._stop()
        jump = self.query_one("#jump", JumpInput)
        jump.value = ""
        jump.add_class("shown")
        jump.focus()

    def cancel_jump(self) -> None:
        jump = self.query_one("#jump", JumpInput)
        jump.remove_class("shown")
        jump.value = ""
        self.set_focus(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.cancel_jump()
        if text.lstrip("-").isdigit():
            self.position.go(int(text))
            self._moved()

    def action_autoplay(self) -> None:
        if self.playing is None:
            self._start()
        else:
            self._stop()
        self.refresh_panes()

    def action_speed(self, n: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + n))
        if self.playing is not None:
            self._stop()
            self._start()
        self.refresh_panes()

    def _start(self) -> None:
        self.playing = self.set_interval(1 / SPEEDS[self.speed], self._tick)

    def _stop(self) -> None:
        if self.playing is not None:
            self.playing.stop()
            self.playing = None

    def _tick(self) -> None:
        if self.position.seq >= self.position.last:
            self._stop()
        else:
            self.position.step(1)
        self.refresh_panes()
