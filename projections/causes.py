"""Why did this happen? The chain of causes from an event back to the player decision, and the
declaration that ruling resolves (the skill on the stack, the attack, the sealed pick and its reveal).

The cause chain stops at the last decision, which is often not the one the ruling answers: a
skill resolves when the opponent passes priority, combat damage follows the defender's "no
defence". The ruleset names the declaration (``Presentation.declaration``, see
``kifu.domain.core.declared``); its own cause chain follows it (a pick's reveal and seal).

Each link also carries the values its ruling used, derived without knowing any ruleset:

- from the event itself, by the roles its fields declare (``kifu.domain.core.roles``): what the
  ruling is about (seats, cards, places), its results (amounts) and the other values, its inputs,
  e.g. STR 5, DEF 1 → amount 4;
- from the judge's layout of the state just before the ruling (what the rules looked at when
  they made it — a reaction may have changed things since its cause): every card the event
  names, where it stood and its values there, and each named seat's counters.
"""
from __future__ import annotations

from typing import Any

import msgspec

from kifu.domain.core.commit import CORE_EVENTS
from kifu.domain.core.envelope import DECISION, Envelope
from kifu.domain.core.layout import Counter, Layout, faces
from kifu.domain.core.roles import roles_of
from kifu.domain.core.ruleset import ClauseEntry, Ruleset
from kifu.domain.core.visibility import seat_view

from .timeline import Timeline
from .words import Words


class CardAt(msgspec.Struct, frozen=True, kw_only=True):
    """A card the ruling looked at: where it stood (view path, positions from 1) and its values."""

    card: int
    name: str
    where: str
    values: dict[str, Any] = {}          # "stats" and "marks" as the layout shows them


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


class Why(msgspec.Struct, frozen=True, kw_only=True):
    """Both chains of one event: its causes back to the decision that set it off, and the
    declaration the ruling resolves followed by that declaration's own causes."""

    seq: int
    chain: tuple[Link, ...]
    declaration: tuple[Link, ...] = ()
    declared_by: int | None = None       # the seat that made the declaration


def declaration_chain(ruleset: Ruleset[Any, Any, Any], envelopes: list[Envelope[Any]],
                      seq: int) -> list[Envelope[Any]]:
    """The declaration the ruling at ``seq`` resolves, then its causes; empty for a ruling that
    setup started. The ruleset's hook is asked for each link of the cause chain, nearest first;
    without an answer, a decision made in answer to another (its ``cause``) resolves that one,
    and any other decision is its own declaration."""
    chain = cause_chain(envelopes, seq)
    seen = {env.seq for env in chain}
    for env in chain:
        found = ruleset.presentation.declaration(envelopes, env.seq)
        if found is not None and found not in seen and 1 <= found < env.seq:
            return cause_chain(envelopes, found)
    end = chain[-1]
    if end.kind != DECISION:
        return []
    if end.cause is not None and 1 <= end.cause < end.seq:
        return cause_chain(envelopes, end.cause)
    return [end]


def declarer(chain: list[Envelope[Any]]) -> int | None:
    """The seat that made the declaration: the decision its chain ends at, else its own seat."""
    decisions = [env.seat for env in chain if env.kind == DECISION]
    return decisions[-1] if decisions else (chain[0].seat if chain else None)


def why(ruleset: Ruleset[Any, Any, Any], envelopes: list[Envelope[Any]], seq: int,
        timeline: Timeline | None = None) -> Why:
    """Both chains of event ``seq`` (see ``explain``)."""
    declared = declaration_chain(ruleset, envelopes, seq)
    return Why(seq=seq, chain=tuple(explain(ruleset, envelopes, seq, timeline)),
               declaration=tuple(links(ruleset, declared, timeline)), declared_by=declarer(declared))


def explain(ruleset: Ruleset[Any, Any, Any], envelopes: list[Envelope[Any]], seq: int,
            timeline: Timeline | None = None) -> list[Link]:
    """The chain with each clause's text from the ruleset's rules reference; with a ``timeline``,
    each link also carries its ``ruling`` (the values it used)."""
    return links(ruleset, cause_chain(envelopes, seq), timeline)


def links(ruleset: Ruleset[Any, Any, Any], chain: list[Envelope[Any]], timeline: Timeline | None = None) -> list[Link]:
    """Each envelope of a chain as a link with its clause's text (and its ruling, given a timeline)."""
    reference: dict[str, ClauseEntry] = ruleset.content.clauses()
    out = []
    for env in chain:
        entry = reference.get(env.clause or "")
        event = msgspec.to_builtins(env.event)
        values = {k: v for k, v in event.items() if k != "type"} if isinstance(event, dict) else {}
        out.append(Link(seq=env.seq, kind=env.kind, seat=env.seat, clause=env.clause,
                        clause_title=entry.title if entry else "", clause_text=entry.text if entry else "",
                        event=event, values=values,
                        # a judge's act is its own words (event_line): no formula of values, no whole backup state
                        ruling=ruling_of(timeline, env) if timeline is not None and env.kind != "judge" else None))
    return out


def ruling_of(timeline: Timeline, env: Envelope[Any], seat: int | None = None) -> Ruling:
    """The values ``env``'s ruling used: its own fields and the state just before it; ``seat``:
    as that seat saw that state (``env`` then is the seat's copy of the event)."""
    subject, inputs, results = _split(env.event)
    at = env.seq - 1
    rules = timeline.ruleset
    layout = rules.presentation.layout(seat_view(rules, timeline.state_at(at), seat))
    found = _cards_in(layout)
    cards = tuple(found[c] for c in Words().cards(env.event) if c in found)
    seats = {}
    for f in roles_of(type(env.event)):
        number = getattr(env.event, f.name, None)
        if f.role == "seat" and isinstance(number, int):
            panel = layout.panel(number)
            if panel is not None:
                seats[str(number)] = {p.label: p.value for p in panel.parts if isinstance(p, Counter)}
    return Ruling(subject=subject, inputs=inputs, results=results, at=at, cards=cards, seats=seats)


def _split(event: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The event's fields by role: subject (seats, cards, places), results (amounts), inputs."""
    if not isinstance(event, msgspec.Struct) or isinstance(event, CORE_EVENTS):
        return {}, {}, {}         # a seal, a reveal, the seed: the core's records, no ruling's values
    raw = {f.name: msgspec.to_builtins(getattr(event, f.name)) for f in msgspec.structs.fields(event)}
    roles = {f.name: f.role for f in roles_of(type(event))}
    subject = {k: v for k, v in raw.items() if roles.get(k) in ("seat", "card", "place")}
    results = {k: v for k, v in raw.items() if roles.get(k) == "amount"}
    inputs = {k: v for k, v in raw.items() if k not in subject and k not in results}
    return subject, inputs, results


def _cards_in(layout: Layout) -> dict[int, CardAt]:
    found: dict[int, CardAt] = {}
    for where, face in faces(layout):
        if face.id and face.id not in found:
            values: dict[str, Any] = {}
            if face.stats:
                values["stats"] = face.stats
            if face.marks:
                values["marks"] = list(face.marks)
            found[face.id] = CardAt(card=face.id, name=face.name or "?", where=where, values=values)
    return found


def _short(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)
