"""Why did this happen? The chain of causes from an event back to the player decision."""
from __future__ import annotations

from typing import Any

import msgspec

from domain.core.envelope import Envelope
from domain.core.ruleset import ClauseEntry, Ruleset


class Link(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    kind: str
    seat: int | None
    clause: str | None
    clause_title: str = ""
    clause_text: str = ""
    event: Any
    values: dict[str, Any] = {}


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


def explain(ruleset: Ruleset[Any, Any, Any], envelopes: list[Envelope[Any]], seq: int) -> list[Link]:
    """The chain with each clause's text from the ruleset's rules reference."""
    reference: dict[str, ClauseEntry] = ruleset.clauses()
    out = []
    for env in cause_chain(envelopes, seq):
        entry = reference.get(env.clause or "")
        event = msgspec.to_builtins(env.event)
        values = {k: v for k, v in event.items() if k != "type"} if isinstance(event, dict) else {}
        out.append(Link(seq=env.seq, kind=env.kind, seat=env.seat, clause=env.clause,
                        clause_title=entry.title if entry else "", clause_text=entry.text if entry else "",
                        event=event, values=values))
    return out
