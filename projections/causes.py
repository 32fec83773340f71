"""Why did this happen? The chain of causes from an event back to the player decision.

Each link also carries the values its ruling used, derived without knowing any ruleset:

- from the event itself: its fields, split into what identifies the subject (seat, line, card),
  the inputs, and the result (the last of ``RESULTS`` it declares), e.g. STR 5, DEF 1 → amount 4;
- from the judge's view of the state just before the ruling (what the rules looked at when they
  made it — a reaction may have changed things since its cause): every card the event names, or
  the match's context names (an attacker, a defender), where it stood and its values there (a
  unit's STR, VIT, AGI, DEF, damage), and each named seat's part.
"""
from __future__ import annotations

from typing import Any, Iterator

import msgspec

from domain.core.envelope import Envelope
from domain.core.ruleset import ClauseEntry, Ruleset

from .timeline import Timeline

# A field with one of these names says what the ruling is about, not a value it used.
SUBJECT = frozenset({"type", "seat", "line", "card"})
# The outcome of a ruling; when an event declares several, the last one is the result.
RESULTS = ("amount", "generated", "height", "indexes", "life")


class CardAt(msgspec.Struct, frozen=True, kw_only=True):
    """A card the ruling looked at: where it stood (view path, positions from 1) and its values."""

    card: int
    name: str
    where: str
    values: dict[str, Any] = {}


class Ruling(msgspec.Struct, frozen=True, kw_only=True):
    subject: dict[str, Any] = {}
    inputs: dict[str, Any] = {}
    results: dict[str, Any] = {}
    at: int = 0                          # the state looked at: after event ``at`` (just before the ruling)
    cards: tuple[CardAt, ...] = ()
    seats: dict[str, dict[str, Any]] = {}

    def formula(self) -> str:
        """``STR 5, DEF 1 → amount 4``: the inputs, then the result."""
        ins = ", ".join(f"{k} {_short(v)}" for k, v in self.inputs.items())
        outs = ", ".join(f"{k} {_short(v)}" for k, v in self.results.items())
        if ins and outs:
            return f"{ins} → {outs}"
        return ins or (f"→ {outs}" if outs else "")


class Link(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    kind: str
    seat: int | None
    clause: str | None
    clause_title: str = ""
    clause_text: str = ""
    event: Any
    values: dict[str, Any] = {}
    ruling: Ruling | None = None


def cause_chain(envelopes: list[Envelope[Any]], seq: int) -> list[Envelope[Any]]:
    """From ``seq`` back through each cause to the decision (or setup) that started it."""
    chain: list[Envelope[Any]] = []
    current: int | None = seq
    seen: set[int] = set()
    while current is not None and 1 <= current <= len(envelopes) and current not in seen:
        seen.add(current)
        env = envelopes[current - 1]
        chain.append(env)
        if env.kind == "decision":
            break
        current = env.cause
    return chain


def explain(ruleset: Ruleset[Any, Any, Any], envelopes: list[Envelope[Any]], seq: int,
            timeline: Timeline | None = None) -> list[Link]:
    """The chain with each clause's text from the ruleset's rules reference; with a ``timeline``,
    each link also carries its ``ruling`` (the values it used)."""
    reference: dict[str, ClauseEntry] = ruleset.clauses()
    out = []
    for env in cause_chain(envelopes, seq):
        entry = reference.get(env.clause or "")
        event = msgspec.to_builtins(env.event)
        values = {k: v for k, v in event.items() if k != "type"} if isinstance(event, dict) else {}
        out.append(Link(seq=env.seq, kind=env.kind, seat=env.seat, clause=env.clause,
                        clause_title=entry.title if entry else "", clause_text=entry.text if entry else "",
                        event=event, values=values,
                        ruling=ruling_of(timeline, env) if timeline is not None else None))
    return out


def ruling_of(timeline: Timeline, env: Envelope[Any]) -> Ruling:
    """The values ``env``'s ruling used: its own fields and the state just before it."""
    subject, inputs, results = _split(env.event)
    at = env.seq - 1
    view = timeline.ruleset.view(timeline.state_at(at), None)
    wanted = [*_card_ids(env.event, top=True), *_context_cards(view)]
    found = _cards_in(view)
    cards = tuple(found[c] for c in dict.fromkeys(wanted) if c in found)
    seats = {}
    for name in ("seat", *(k for k in subject if k.endswith("_seat"))):
        number = subject.get(name)
        part = _part_of_seat(view, number) if isinstance(number, int) else None
        if part is not None:
            seats[str(number)] = part
    return Ruling(subject=subject, inputs=inputs, results=results, at=at, cards=cards, seats=seats)


# -- the event's own fields -----------------------------------------------------------------------
def _split(event: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    if not isinstance(event, msgspec.Struct):
        return {}, {}, {}
    values = {f.name: msgspec.to_builtins(getattr(event, f.name)) for f in msgspec.structs.fields(event)}
    results_present = [k for k in values if k in RESULTS]
    result = results_present[-1:] if results_present else []
    subject = {k: v for k, v in values.items() if k in SUBJECT or k.endswith(("_card", "_seat"))}
    results = {k: values[k] for k in result}
    inputs = {k: v for k, v in values.items() if k not in subject and k not in results}
    return subject, inputs, results


def _card_ids(value: Any, top: bool = False, name: str = "") -> Iterator[int]:
    """Card ids an event names: its fields called ``card``, ``*_card`` or ``cards``."""
    if isinstance(value, msgspec.Struct):
        for f in msgspec.structs.fields(value):
            yield from _card_ids(getattr(value, f.name), name=f.name)
    elif name == "card" or name.endswith("_card"):
        if isinstance(value, int) and not isinstance(value, bool):
            yield value
    elif name == "cards" and isinstance(value, (tuple, list)):
        yield from (v for v in value if isinstance(v, int))


def _context_cards(view: Any) -> Iterator[int]:
    """Cards the match's context names outside the zones (e.g. the combat's attacker and defender)."""
    if not isinstance(view, msgspec.Struct):
        return
    for f in msgspec.structs.fields(view):
        value = getattr(view, f.name)
        if isinstance(value, msgspec.Struct) and not _is_card_ref(value):
            yield from _card_ids(value)


# -- the judge's view -----------------------------------------------------------------------------
def _is_card_ref(value: Any) -> bool:
    return (isinstance(value, msgspec.Struct) and isinstance(getattr(value, "id", None), int)
            and isinstance(getattr(value, "name", None), str))


def _scalars(struct: Any, skip: str = "") -> dict[str, Any]:
    out = {}
    for f in msgspec.structs.fields(struct):
        value = getattr(struct, f.name)
        if f.name != skip and value is not None and isinstance(value, (int, str, float, bool)):
            out[f.name] = value.value if hasattr(value, "value") else value
    return out


def _walk(value: Any, path: str, owner: Any, field: str) -> Iterator[tuple[Any, str, Any, str]]:
    """(node, path, owning struct or None, field name) for every struct in the view."""
    if isinstance(value, msgspec.Struct):
        yield value, path, owner, field
        for f in msgspec.structs.fields(value):
            yield from _walk(getattr(value, f.name), f"{path}.{f.name}" if path else f.name, value, f.name)
    elif isinstance(value, (tuple, list)):
        for i, item in enumerate(value, start=1):
            yield from _walk(item, f"{path}[{i}]", None, "")


def _cards_in(view: Any) -> dict[int, CardAt]:
    found: dict[int, CardAt] = {}
    for node, path, owner, field in _walk(view, "", None, ""):
        if _is_card_ref(node) and node.id not in found:
            values = _scalars(owner, skip=field) if owner is not None else {}
            where = path.rsplit(".", 1)[0] if owner is not None else path
            found[node.id] = CardAt(card=node.id, name=node.name, where=where, values=values)
    return found


def _part_of_seat(view: Any, seat: int) -> dict[str, Any] | None:
    for node, _, _, _ in _walk(view, "", None, ""):
        if node is not view and getattr(node, "seat", None) == seat and not _is_card_ref(node):
            return _scalars(node)
    return None


def _short(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)
