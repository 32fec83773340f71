"""An event in words: every field by the role its type declares, nested values included.

One reading for every renderer (the terminal's event lines, the stepper, the web viewer's fields,
a picture's caption), so a card shows the same everywhere:

- a card field shows the card's name and id (``火球#44``); a card the reader may not see is
  ``?``; a card field naming no card is ``—`` at the top of an event and left out inside a
  nested value (``trigger=(seat=1 card=墓守#1049 skill=0 line=5)``);
- a nested Struct (a trigger, a choice) is described the same way in parentheses, leaving out
  fields at their defaults; a sealed or revealed choice (the core's ``choice``, recorded as JSON
  values) is read back as the ruleset's command and described by its roles
  (``choice=(Pick card=火球#44 face_down=True)``);
- a long value (a whole prepared state) is summarised.

Whether a card id 0 is "hidden" or "none" is known only by comparing with the judge's copy of
the event: callers that have it pass it as ``original``; the judge's own copy is its own
original (0 is then "none"); a seat's stream with no judge's copy passes ``UNKNOWN`` (0 is ``?``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import msgspec

from kifu.domain.core.commit import ChoiceRevealed, ChoiceSealed
from kifu.domain.core.judging import is_judge
from kifu.domain.core.judging import words as judge_words
from kifu.domain.core.roles import HIDDEN, roles_of, target_cards

NONE = "—"                  # a card field that names no card
HIDDEN_MARK = "?"           # a card the reader may not see
SHOWN_CARDS = 8             # a longer list of cards (a shuffled deck) is cut after this many
LONG_VALUE = 80             # a list or dict longer than this is summarised
LONG_NESTED = 240           # a nested struct longer than this (a whole prepared state) is summarised
LONG_HEX = 16               # a digest or salt longer than this shows its first 12 characters
UNKNOWN: Any = object()     # no judge's copy to compare with: a card id 0 may be hidden or none

Names = Callable[[int], str]
Command = Callable[[Any], Any]     # JSON values -> the ruleset's command (raises on anything else)


class Field(NamedTuple):
    """One field of an event in words: its wire key, its text, its role, the cards it names."""

    key: str
    text: str
    role: str
    cards: tuple[int, ...] = ()


class Words:
    """Describes events with one ruleset's card names (``names``) and commands (``command``)."""

    def __init__(self, names: Names | None = None, command: Command | None = None) -> None:
        self.names = names
        self.command = command

    # -- one card ---------------------------------------------------------------------------------
    def card(self, value: Any, original: Any = None) -> str:
        """``火球#44``; ``?`` for a card hidden from the reader; ``—`` for no card."""
        if value is None:
            return NONE if original is None or original is UNKNOWN else HIDDEN_MARK
        if not isinstance(value, int) or isinstance(value, bool):
            return str(value)
        if value == HIDDEN:
            if original is UNKNOWN or (isinstance(original, int) and original != HIDDEN):
                return HIDDEN_MARK
            return NONE
        if self.names is None:
            return str(value)
        try:
            return f"{self.names(value)}#{value}"
        except (IndexError, KeyError, TypeError, ValueError):
            return str(value)

    def named(self, value: Any) -> bool:
        """Does this int name a card the catalogue knows (a target may be a seat or a place)?"""
        if self.names is None or not isinstance(value, int) or isinstance(value, bool) or value == HIDDEN:
            return False
        try:
            return bool(self.names(value))
        except (IndexError, KeyError, TypeError, ValueError):
            return False

    # -- a whole event ----------------------------------------------------------------------------
    def line(self, event: Any, original: Any = None) -> str:
        """``TypeName key=value …``; a judge's act reads as a sentence (who, what, about which seq)."""
        if is_judge(event):
            return judge_words(event)
        if not isinstance(event, msgspec.Struct):
            raw = msgspec.to_builtins(event)
            return _value(raw) if not isinstance(raw, dict) else _plain(raw)
        kind = type(event).__struct_config__.tag or type(event).__name__
        return f"{kind} " + " ".join(f"{f.key}={f.text}" for f in self.fields(event, original))

    def fields(self, event: Any, original: Any = None) -> list[Field]:
        """The top-level fields of ``event`` in words (a field at its default None is left out)."""
        return self._fields(event, event if original is None else original, nested=False)

    def cards(self, event: Any) -> list[int]:
        """Every card id the event names, nested values included, hidden ones left out."""
        return list(dict.fromkeys(c for f in self.fields(event, UNKNOWN) for c in f.cards))

    def _fields(self, obj: Any, original: Any, *, nested: bool) -> list[Field]:
        roles = {f.name: f.role for f in roles_of(type(obj))}
        out = []
        for field in msgspec.structs.fields(obj):
            name = field.name
            value = getattr(obj, name)
            was = UNKNOWN if original is UNKNOWN else getattr(original, name, value)
            role = roles.get(name, "")
            at_default = field.default is not msgspec.NODEFAULT and _equal(value, field.default)
            if role == "card":
                described = self._card_field(value, was, nested=nested)
                if described is None:
                    continue
                text, cards = described
            elif role in ("target", "option") and self.names is not None:
                if nested and at_default:
                    continue
                text, cards = self._targets(value, was)
            elif name == "choice" and isinstance(obj, (ChoiceSealed, ChoiceRevealed)):
                if value is None and (was is None or was is UNKNOWN):
                    continue            # another seat's sealed choice, as the stream sends it
                text, cards = self._choice(value, was)
            elif isinstance(value, msgspec.Struct):
                if nested and at_default:
                    continue
                text, cards = self._nested(value, was)
            elif isinstance(value, (tuple, list)) and value and all(isinstance(v, msgspec.Struct) for v in value):
                if nested and at_default:
                    continue
                items = [self._nested(v, w) for v, w in zip(value, _items(was, len(value)), strict=True)]
                text = "[" + ", ".join(t for t, _ in items) + "]"
                cards = tuple(c for _, cs in items for c in cs)
                if len(text) > LONG_NESTED:
                    text = f"[… {len(value)} items]"
            else:
                if at_default and (nested or field.default is None):
                    continue
                text, cards = _text(value), ()
            out.append(Field(field.encode_name, text, role, cards))
        return out

    def _card_field(self, value: Any, was: Any, *, nested: bool) -> tuple[str, tuple[int, ...]] | None:
        if isinstance(value, (list, tuple)):
            olds = _items(was, len(value))
            shown = [self.card(v, o) for v, o in zip(value, olds, strict=True)]
            more = f", … {len(shown)} cards" if len(shown) > SHOWN_CARDS else ""
            cards = tuple(v for v in value if isinstance(v, int) and v != HIDDEN)
            return "[" + ", ".join(shown[:SHOWN_CARDS]) + more + "]", cards
        text = self.card(value, was)
        if nested and text == NONE:
            return None          # a nested card field naming no card is left out
        return text, ((value,) if isinstance(value, int) and not isinstance(value, bool) and value != HIDDEN else ())

    def _targets(self, value: Any, was: Any) -> tuple[str, tuple[int, ...]]:
        """A target or option: a card's name where the int (or the card packed in it) is one."""
        def one(v: Any, o: Any) -> tuple[str, tuple[int, ...]]:
            if not isinstance(v, int) or isinstance(v, bool):
                return _text(v), ()
            if v == HIDDEN:
                return self.card(v, o), ()
            for card in target_cards(v):
                if card > 9 and self.named(card):
                    place = f"@{v - card * 10}" if card != v else ""
                    return self.card(card) + place, (card,)
            return str(v), ()
        if isinstance(value, (list, tuple)):
            items = [one(v, o) for v, o in zip(value, _items(was, len(value)), strict=True)]
            more = f", … {len(items)} items" if len(items) > SHOWN_CARDS else ""
            return ("[" + ", ".join(t for t, _ in items[:SHOWN_CARDS]) + more + "]",
                    tuple(c for _, cs in items for c in cs))
        return one(value, was)

    def _nested(self, value: Any, was: Any) -> tuple[str, tuple[int, ...]]:
        fields = self._fields(value, was, nested=True)
        tag = type(value).__struct_config__.tag
        inner = " ".join(f"{f.key}={f.text}" for f in fields)
        text = f"({tag} {inner})" if isinstance(tag, str) and inner else f"({tag or inner})"
        cards = tuple(c for f in fields for c in f.cards)
        return (text if len(text) <= LONG_NESTED else "(…)"), cards

    def _choice(self, value: Any, was: Any) -> tuple[str, tuple[int, ...]]:
        """A sealed or revealed choice: the ruleset's command, described by its roles."""
        if value is None:
            return HIDDEN_MARK, ()       # the judge's copy has it: hidden from this reader
        command = None
        if self.command is not None:
            try:
                command = self.command(value)
            except (msgspec.ValidationError, TypeError, ValueError):
                command = None
        if not isinstance(command, msgspec.Struct):
            return _text(value), ()
        old = UNKNOWN
        if was is not UNKNOWN and self.command is not None:
            try:
                old = self.command(was)
            except (msgspec.ValidationError, TypeError, ValueError):
                old = UNKNOWN
        return self._nested(command, old)


def _items(was: Any, n: int) -> list[Any]:
    if isinstance(was, (list, tuple)) and len(was) == n:
        return list(was)
    return [UNKNOWN] * n


def _equal(value: Any, default: Any) -> bool:
    try:
        return bool(value == default) and type(value) is type(default)
    except (TypeError, ValueError):
        return False


def _text(value: Any) -> str:
    raw = msgspec.to_builtins(value)
    if isinstance(raw, str) and len(raw) > LONG_HEX and all(c in "0123456789abcdef" for c in raw):
        return raw[:12] + "…"       # a commitment or a salt: its head tells it apart
    text = _value(raw)
    if len(text) > LONG_VALUE and isinstance(raw, (dict, list)):
        return "{…}" if isinstance(raw, dict) else f"[… {len(raw)} items]"
    return text


def _value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "(" + " ".join(f"{k}={_value(v)}" for k, v in value.items()) + ")"
    return str(value)


def _plain(raw: dict[str, Any]) -> str:
    kind = raw.pop("type", "")
    return (f"{kind} " if kind else "") + " ".join(f"{k}={_value(v)}" for k, v in raw.items())


def words_of(ruleset: Any, state: Any) -> Words:
    """The words of one ruleset's match: card names read from ``state`` (the final one knows
    every card), sealed choices read as the ruleset's commands."""
    presentation = ruleset.presentation
    names = presentation.card_names(state) if presentation.card_names else None
    return Words(names, ruleset.command_from_builtins)
