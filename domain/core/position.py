"""Positions as text: a compact, versioned notation of a whole state, as FEN is for chess.

Every ruleset gets one, with its ``Notation`` group (``kifu.domain.core.notation``): the core writes
the State struct in a small bracket syntax and the ruleset adds what only it knows: the version
string, and the checks that refuse an impossible position (an unknown card, cards not conserved,
a broken invariant). ``docs/positions.md`` describes the syntax and shows each game's text.

The text (the judge's form) is a first line ``<version> await:<seats>`` and then the state's
fields, ``name:value`` one per line, the fields left at their default left out::

    worlfard-pos/1 await:1
    turn:3
    sides:[
      {life:20 deck:?[1007 1003] hand:?[1001] ...}
      ...]

A value is an integer, a word (bare when it reads as one, else quoted as in JSON), ``true``,
``false``, ``~`` (none), ``[`` values ``]`` or ``{`` ``name:value`` pairs ``}``; whitespace
between values is free, so a position pastes as one line too. ``?`` before a value marks it as
hidden from at least one seat (from the ruleset's ``mask``): the judge's form shows it, a seat's
form (``to_text(ruleset, state, seat)``) prints ``?`` in its place (``?*N`` for N hidden values in
a row) and is a report only: it does not parse back, since what it hides is gone.

``parse`` reads the judge's form back to an equal state: the ``await`` seats are checked against
the state's own, so an edit that changes whose decision it is must say so.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterator
from enum import Enum
from functools import cache
from typing import Any

import msgspec

from .notation import BadPosition
from .ruleset import Ruleset

NONE, TRUE, FALSE, HIDDEN_MARK = "~", "true", "false", "?"
_BARE = re.compile(r"[^\s{}\[\]:\"?~*#,]+")
_NUMBER = re.compile(r"-?\d+")
_TOKEN = re.compile(r"\s*(?:(?P<punct>[{}\[\]:?*])|(?P<string>\"(?:[^\"\\]|\\.)*\")|(?P<word>[^\s{}\[\]:\"?*]+))")
_WIDTH = 120          # a list of structs longer than this is written on lines of this width


def version(ruleset: Ruleset[Any, Any, Any]) -> str:
    return ruleset.notation.version or f"{ruleset.name}-pos/1"


# -- writing -----------------------------------------------------------------------------------------------
def to_text(ruleset: Ruleset[Any, Any, Any], state: Any, seat: int | None = None) -> str:
    """The position's text: the judge's (``seat`` None: everything, hidden parts marked ``?``), or
    what ``seat`` may see (hidden parts shown as ``?``; not parseable)."""
    judge = _builtins(state)
    mask = ruleset.visibility.mask
    masks = [_builtins(mask(state, s)) for s in (1, 2)] if mask else []
    if seat is not None and mask:
        shown = masks[seat - 1]
        masks = [shown]
    else:
        shown = judge
    awaited = sorted(ruleset.decider.awaiting(state))
    lines = [f"{version(ruleset)} await:{_seats(awaited)}"]
    for name, value in judge.items():
        if name in shown:
            lines.append(f"{name}:{_write(value, [m.get(name, _GONE) for m in masks], seat is not None, 0)}")
    return "\n".join(lines)


_GONE = object()


def _builtins(value: Any) -> Any:
    """The state as dicts, lists and atoms, each struct's fields in declaration order with those at
    their default left out (whether or not the struct omits them when encoded): the text of a
    state says only what differs from a fresh one."""
    if isinstance(value, msgspec.Struct):
        config = value.__struct_config__
        out: dict[str, Any] = {config.tag_field: config.tag} if config.tag_field else {}
        for info in _fields(type(value)):
            item = getattr(value, info.name)
            default = info.default if info.default is not msgspec.NODEFAULT else \
                info.default_factory() if info.default_factory is not msgspec.NODEFAULT else _GONE
            if default is _GONE or item != default:
                out[info.encode_name] = _builtins(item)
        return out
    if isinstance(value, (tuple, list)):
        return [_builtins(v) for v in value]
    if isinstance(value, dict):
        return {_builtins(k): _builtins(v) for k, v in value.items()}
    if isinstance(value, Enum):
        return value.value
    return value


@cache
def _fields(struct: type) -> tuple[msgspec.structs.FieldInfo, ...]:
    return msgspec.structs.fields(struct)


def _seats(awaited: list[int]) -> str:
    return str(awaited[0]) if len(awaited) == 1 else "[" + " ".join(map(str, awaited)) + "]"


def _hidden(value: Any, masks: list[Any]) -> bool:
    return any(m is _GONE or m != value for m in masks)


def _write(value: Any, masks: list[Any], seat_form: bool, depth: int) -> str:
    return _part(value, masks, seat_form, depth)[0]


def _part(value: Any, masks: list[Any], seat_form: bool, depth: int) -> tuple[str, bool]:
    """``value`` (the judge's) against what each seat's mask shows there, and whether it is hidden
    whole: where they part, the value is hidden; a container where only some parts are hidden is
    written part by part, one whose every part is hidden is marked once."""
    if not _hidden(value, masks):
        return _plain(value, depth), False
    if isinstance(value, dict) and all(isinstance(m, dict) and set(m) == set(value) for m in masks):
        pairs = [f"{_atom(k)}:{_write(v, [m[k] for m in masks], seat_form, depth + 1)}" for k, v in value.items()]
        return "{" + " ".join(pairs) + "}", False
    if isinstance(value, list) and value and all(isinstance(m, list) and len(m) == len(value) for m in masks):
        parts = [_part(v, [m[i] for m in masks], seat_form, depth + 1) for i, v in enumerate(value)]
        if not all(whole for _, whole in parts):
            return _list([text for text, _ in parts], depth), False
    if seat_form:
        return _unseen(value, masks[0]), True
    return HIDDEN_MARK + _plain(value, depth), True


def _unseen(judge: Any, seen: Any) -> str:
    """What a seat's form prints for a value hidden from it: ``?`` for a hidden value, ``?*N`` for a
    list of N hidden ones, ``?`` and what the seat is shown where the mask changes its shape."""
    if isinstance(judge, list) and isinstance(seen, list) and len(judge) == len(seen):
        return f"[{HIDDEN_MARK}*{len(judge)}]" if len(judge) > 1 else f"[{HIDDEN_MARK}]"
    if not isinstance(judge, (list, dict)) and not isinstance(seen, (list, dict)):
        return HIDDEN_MARK
    return HIDDEN_MARK + _plain(seen, 0)


def _plain(value: Any, depth: int) -> str:
    if isinstance(value, dict):
        return "{" + " ".join(f"{_atom(k)}:{_plain(v, depth + 1)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return _list([_plain(v, depth + 1) for v in value], depth)
    return _atom(value)


def _list(items: list[str], depth: int) -> str:
    """Elements space-separated, a run of equal atoms as ``atom*N``; a long list of structs at the
    top goes on lines of its own, as many elements a line as fit in ``_WIDTH``."""
    items = _runs(items)
    if depth == 0 and sum(len(i) + 1 for i in items) > _WIDTH and any(i.startswith(("{", "?{")) for i in items):
        lines: list[str] = []
        for item in items:
            if lines and len(lines[-1]) + 1 + len(item) <= _WIDTH:
                lines[-1] += " " + item
            else:
                lines.append("  " + item)
        return "[\n" + "\n".join(lines) + "\n]"
    return "[" + " ".join(items) + "]"


def _runs(items: list[str]) -> list[str]:
    out: list[str] = []
    count = 0
    for i, item in enumerate(items):
        count += 1
        if i + 1 < len(items) and items[i + 1] == item and item[0] not in "[{":
            continue
        out.append(f"{item}*{count}" if count > 1 else item)
        count = 0
    return out


def _atom(value: Any) -> str:
    if value is None:
        return NONE
    if value is True:
        return TRUE
    if value is False:
        return FALSE
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        bare = _BARE.fullmatch(value) and not _NUMBER.fullmatch(value) and value not in (TRUE, FALSE)
        return value if bare else json.dumps(value, ensure_ascii=False)
    raise TypeError(f"a position holds no {type(value).__name__} ({value!r})")


# -- reading -----------------------------------------------------------------------------------------------
def parse(ruleset: Ruleset[Any, Any, Any], text: str) -> Any:
    """The state a judge's position text writes, or ``BadPosition`` saying what is wrong with it."""
    tokens = _Tokens(text)
    head = tokens.next("the notation's version")
    if head != version(ruleset):
        raise BadPosition(f"not a {version(ruleset)} position (it starts {head!r})")
    fields: dict[str, Any] = {}
    awaited: Any = None
    while not tokens.done():
        name = tokens.word("a field name")
        tokens.expect(":")
        value = tokens.value()
        if name == "await":
            awaited = value
        elif name in fields:
            raise BadPosition(f"field {name!r} is given twice")
        else:
            fields[name] = value
    if awaited is None:
        raise BadPosition("no await:<seats> (whose decision it is) after the version")
    try:
        state = msgspec.convert(fields, ruleset.decider.state_type)
    except msgspec.ValidationError as exc:
        raise BadPosition(f"bad field: {_where(exc)}") from None
    _known_fields(fields, state, "")
    ruleset.notation.check(state)
    said = sorted(awaited) if isinstance(awaited, list) else [awaited]
    found = sorted(ruleset.decider.awaiting(state))
    if said != found:
        raise BadPosition(f"await:{_seats(said)} but the position awaits {_seats(found) if found else 'nobody'}")
    return state


def _where(exc: msgspec.ValidationError) -> str:
    """msgspec's message, with its ``$`` path read as the field it names."""
    message, _, path = str(exc).partition(" - at `$.")
    return f"{message} (at {path.rstrip('`')})" if path else message


def playable(ruleset: Ruleset[Any, Any, Any], state: Any) -> None:
    """A position a match can start from: not over, and every awaited seat has a decision to take
    (a position taken inside a decision's consequences, where the rules are not at rest, has none)."""
    outcome = ruleset.decider.outcome(state)
    if outcome is not None:
        raise BadPosition(f"the match is over there ({outcome.describe()}): nothing to play from it")
    for seat in sorted(ruleset.decider.awaiting(state)):
        if not ruleset.decider.legal(state, seat):
            raise BadPosition(f"seat {seat} is awaited but has no legal decision there "
                              "(the rules are not at rest: take the position after the decision)")


def _known_fields(raw: Any, value: Any, path: str) -> None:
    """No field the State structs do not have (msgspec's convert would drop it unsaid)."""
    if isinstance(raw, dict) and isinstance(value, msgspec.Struct):
        config = value.__struct_config__
        allowed = set(value.__struct_fields__) | ({config.tag_field} if config.tag_field else set())
        for key, item in raw.items():
            if key not in allowed:
                raise BadPosition(f"bad field: {type(value).__name__} has no field {key!r} (at {path or 'top'})")
            _known_fields(item, getattr(value, key, None), f"{path}.{key}" if path else key)
    elif isinstance(raw, list) and isinstance(value, tuple):
        for i, (r, v) in enumerate(zip(raw, value, strict=False)):
            _known_fields(r, v, f"{path}[{i}]")


class _Tokens:
    """The text as a stream of tokens: punctuation, quoted strings and words."""

    def __init__(self, text: str) -> None:
        self._items = list(self._scan(text))
        self._at = 0

    @staticmethod
    def _scan(text: str) -> Iterator[tuple[str, str]]:
        at, end = 0, len(text.rstrip())
        while at < end:
            found = _TOKEN.match(text, at)
            if found is None or found.end() == at:
                raise BadPosition(f"cannot read {text[at:at + 20].strip()!r} (character {at + 1})")
            kind = found.lastgroup or "word"
            yield kind, found.group(kind)
            at = found.end()

    def done(self) -> bool:
        return self._at >= len(self._items)

    def _take(self, what: str) -> tuple[str, str]:
        if self.done():
            raise BadPosition(f"the text ends where {what} was due")
        item = self._items[self._at]
        self._at += 1
        return item

    def next(self, what: str) -> str:
        return self._take(what)[1]

    def word(self, what: str) -> str:
        kind, text = self._take(what)
        if kind != "word":
            raise BadPosition(f"{what} was due, not {text!r}")
        return text

    def expect(self, punct: str) -> None:
        kind, text = self._take(repr(punct))
        if text != punct or kind != "punct":
            raise BadPosition(f"{punct!r} was due, not {text!r}")

    def _peek(self) -> str | None:
        return None if self.done() else self._items[self._at][1]

    def value(self) -> Any:
        kind, text = self._take("a value")
        if kind == "string":
            return json.loads(text)
        if kind == "word":
            return _word(text)
        if text == HIDDEN_MARK:
            return self.value()
        if text == "[":
            items: list[Any] = []
            while self._peek() != "]":
                if self._peek() == "*" and items:
                    self._at += 1
                    count = _word(self.next("a count after '*'"))
                    if not isinstance(count, int) or count < 2:
                        raise BadPosition(f"'*' takes a count of 2 or more, not {count!r}")
                    items.extend([items[-1]] * (count - 1))
                else:
                    items.append(self.value())
            self._at += 1
            return items
        if text == "{":
            pairs: dict[str, Any] = {}
            while self._peek() != "}":
                key = self.value()
                self.expect(":")
                pairs[key] = self.value()
            self._at += 1
            return pairs
        raise BadPosition(f"a value was due, not {text!r}")


def _word(text: str) -> Any:
    if _NUMBER.fullmatch(text):
        return int(text)
    return {NONE: None, TRUE: True, FALSE: False}.get(text, text)
