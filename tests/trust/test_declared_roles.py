"""Redaction by declaration (issue 14): every int an event can carry is either declared (a card,
a target, a seat, a place, an amount, a seq) or read by the ruleset's catch-all ``card_refs``,
or it was reviewed and names no card. A new event kind with an undeclared int fails here, so it
cannot leak by omission; and what is declared is scrubbed whatever the event kind."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest

from kifu.domain.core.roles import CardId, TargetRef, roles_of
from kifu.domain.core.ruleset import find_ruleset, ruleset_names
from kifu.domain.core.visibility import scrub

# Reviewed: these event fields hold ints that never name a card (turn numbers, AGI values,
# magic categories, bids). Anything not here must be declared with a role from kifu.domain.core.roles.
REVIEWED: dict[str, set[str]] = {
    "alteil": {"TurnBegan.turn", "TieChoice.agi", "ActorNamed.agi"},
    "masters": {"TurnBegan.turn"},
    "novel": {"PhaseBegun.turn", "MagicResolved.category", "OrderFixed.category", "GroupLit.agi"},
    "reigeki": {"TurnBegan.turn"},
    "secretbid": {"PrizeWon.bid", "PrizeWon.other", "PrizeDiscarded.bid"},
}
PROBE = 1234     # a card id no ruleset's catch-all could mistake for anything else


def _holds_ints(t: Any) -> bool:
    if isinstance(t, mi.Metadata):
        return _holds_ints(t.type)
    if isinstance(t, mi.IntType):
        return True
    if isinstance(t, (mi.VarTupleType, mi.ListType, mi.SetType, mi.FrozenSetType)):
        return _holds_ints(t.item_type)
    if isinstance(t, mi.TupleType):
        return any(_holds_ints(i) for i in t.item_types)
    if isinstance(t, mi.DictType):
        return _holds_ints(t.value_type)
    if isinstance(t, mi.UnionType):
        return any(_holds_ints(m) for m in t.types)
    return False


def _structs(t: Any) -> Iterator[type]:
    if isinstance(t, mi.Metadata):
        yield from _structs(t.type)
    elif isinstance(t, mi.StructType):
        yield t.cls
    elif isinstance(t, (mi.VarTupleType, mi.ListType, mi.SetType, mi.FrozenSetType)):
        yield from _structs(t.item_type)
    elif isinstance(t, mi.TupleType):
        for i in t.item_types:
            yield from _structs(i)
    elif isinstance(t, mi.DictType):
        yield from _structs(t.value_type)
    elif isinstance(t, mi.UnionType):
        for m in t.types:
            yield from _structs(m)


def undeclared(kinds: tuple[type, ...]) -> set[str]:
    """``Struct.field`` for every field holding ints without a role, in these types and every
    struct nested in them (a trigger inside an event, a choice inside that)."""
    out: set[str] = set()
    todo, seen = list(kinds), set()
    while todo:
        kind = todo.pop()
        if kind in seen:
            continue
        seen.add(kind)
        declared = {f.name for f in roles_of(kind)}
        info = mi.type_info(kind)
        if not isinstance(info, mi.StructType):
            continue
        for f in info.fields:
            if f.name not in declared and _holds_ints(f.type):
                out.add(f"{kind.__name__}.{f.name}")
            todo.extend(_structs(f.type))
    return out


def event_kinds(name: str) -> tuple[type, ...]:
    rules = find_ruleset(name)
    return tuple(getattr(rules.decider.event_type, "__args__", (rules.decider.event_type,)))


def has_catch_all(name: str) -> bool:
    """The ruleset reads every undeclared int as (possibly) a card id."""
    return PROBE in find_ruleset(name).visibility.card_refs(PROBE)


@pytest.mark.parametrize("name", ruleset_names())
def test_every_int_an_event_carries_is_declared_or_read_as_a_card(name: str) -> None:
    if has_catch_all(name):
        return    # WORLFARD: its undeclared ints are read as cards (see the next test)
    missing = undeclared(event_kinds(name)) - REVIEWED.get(name, set())
    assert not missing, (f"{name}: declare these fields' roles (CardId, TargetRef, SeatNo, Place, Amount, "
                         f"SeqRef) or, if they can never name a card, review them into REVIEWED: {sorted(missing)}")


class Fresh(msgspec.Struct, frozen=True):
    """A new event kind nobody taught redaction about."""
    card: CardId
    targets: tuple[TargetRef, ...]
    count: int
    nested: tuple[tuple[int, ...], ...] = ()


def test_the_guard_sees_an_undeclared_int_in_a_new_event_kind() -> None:
    assert undeclared((Fresh,)) == {"Fresh.count", "Fresh.nested"}


@pytest.mark.parametrize("name", ruleset_names())
def test_a_new_event_kind_is_scrubbed_by_what_it_declares(name: str) -> None:
    rules = find_ruleset(name)
    event = Fresh(card=PROBE, targets=(PROBE, PROBE * 10 + 3, 7), count=PROBE, nested=((PROBE,),))
    seen = scrub(event, {PROBE}, rules.visibility.card_refs)
    assert seen.card == 0 and seen.targets == (0, 0, 7)        # declared: hidden whatever the kind
    if has_catch_all(name):                                    # undeclared: the catch-all reads it as a card
        assert seen.count == 0 and seen.nested == ((0,),)
    assert scrub(event, {999}, rules.visibility.card_refs) is event       # nothing hidden: nothing changes


def test_worlfard_targets_and_options_are_declared_not_only_caught() -> None:
    """The issue's leaks (召喚術師's options, 連鎖の魔導書's targets) are typed fields now: the core
    redacts them by their role, without the ruleset's catch-all."""
    from kifu.domain.worlfard import events as ev
    from kifu.domain.worlfard.state import Choice, TableSpell, Trigger

    for kind in (ev.SpellCast, ev.SpellPlaced, ev.SkillActivated, ev.TargetsChosen, ev.TriggerResolves,
                 ev.SkillResolved, TableSpell):
        assert {f.name: f.role for f in roles_of(kind)}["targets"] == "target", kind
    assert {f.name: f.role for f in roles_of(Choice)}["options"] == "option"
    choice = ev.ChoiceAwaited(choice=Choice(seat=1, trigger=Trigger(seat=1, card=1001, skill=0),
                                            options=(10481, 10483, 1002)))
    seen = scrub(choice, {1048}, lambda value: ())
    assert seen.choice.options == (1002,)      # left out, not zeroed: the number counts no hidden card
