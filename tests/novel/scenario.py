"""Build novel positions by hand and play sealed choices through the real Match (core path)."""
from __future__ import annotations

from typing import Any

import msgspec

from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.novel import events as ev
from kifu.domain.novel.cards import card
from kifu.domain.novel.commands import Act, Done, Pick, Reveal
from kifu.domain.novel.state import Card, Side, State

RULES = find_ruleset("novel")
replace = msgspec.structs.replace


def new_match(seed: int = 1, decks: tuple[str, str] = ("tide-flame", "storm-ice")) -> Match:
    return Match.create(RULES, match_id=f"t{seed}", seed=seed, decks=[RULES.content.load_deck(d) for d in decks],
                        players=("p1", "p2"))


def position(*, front1=(), back1=(), front2=(), back2=(), deck1=("旅の剣士",), deck2=("旅の剣士",),
             magic1=(), magic2=(), grave1=(), grave2=(), turn: int = 2, phase: str = "select",
             new: tuple[str, ...] = ()) -> State:
    """Cards by name per zone; ids are given in the order: seat 1 front, back, magic, grave, deck;
    then seat 2. ``magic`` entries are (name, face_down). Cards on the field were summoned in turn 0,
    except those named in ``new`` (summoned this turn)."""
    cards: list[Card] = []
    sides = []
    for seat, (front, back, magic, grave, deck) in ((1, (front1, back1, magic1, grave1, deck1)),
                                                    (2, (front2, back2, magic2, grave2, deck2))):
        rows: dict[str, list[int]] = {"front": [], "back": [], "magic": []}

        def add(name: str, zone: str, seat: int = seat, **kw: Any) -> int:
            d = card(name)
            cid = len(cards) + 1
            summoned = turn if name in new else (0 if zone != "deck" else -1)
            cards.append(Card(id=cid, owner=seat, name=name, zone=zone, hp=d.hp, max_hp=d.hp, atk=d.atk,
                              def_=d.def_, agi=d.agi, rng=d.rng, summoned=summoned, **kw))
            return cid
        for n in front:
            rows["front"].append(add(n, "front"))
        for n in back:
            rows["back"].append(add(n, "back"))
        for n, down in magic:
            rows["magic"].append(add(n, "magic", face_down=down))
        for n in grave:
            cid = add(n, "grave")
            cards[cid - 1] = replace(cards[cid - 1], hp=0)
        for n in deck:
            add(n, "deck")
        sides.append(Side(seat=seat, front=tuple(rows["front"]), back=tuple(rows["back"]),
                          magic=tuple(rows["magic"])))
    return State(turn=turn, phase=phase, cards=tuple(cards), sides=tuple(sides))  # type: ignore[arg-type]


def start(state: State, seed: int = 1) -> Match:
    return Match.create(RULES, match_id="scenario", seed=seed, decks=[RULES.content.load_deck("tide-flame"),
                                                                      RULES.content.load_deck("storm-ice")],
                        players=("p1", "p2"), start=state)


def ids(state: State, name: str, seat: int | None = None, zone: str | None = None) -> list[int]:
    return [c.id for c in state.cards if c.name == name and (seat is None or c.owner == seat)
            and (zone is None or c.zone == zone)]


def one(state: State, name: str, seat: int | None = None, zone: str | None = None) -> int:
    found = ids(state, name, seat, zone)
    assert found, f"no {name} (seat {seat}, zone {zone})"
    return found[0]


def submit(m: Match, seat: int, command: Any) -> list[Any]:
    return [e.event for e in m.submit(seat, command)]


def select(m: Match, picks1: list[Any], picks2: list[Any]) -> list[Any]:
    """Play one select phase: each seat's choices in sealed rounds, then Done."""
    out: list[Any] = []
    p1, p2 = list(picks1) + [Done()], list(picks2) + [Done()]
    while m.outcome is None and m.state.phase in ("select", "first") and (p1 or p2):
        for seat, queue in ((1, p1), (2, p2)):
            if seat in m.awaiting and queue and m.state.phase in ("select", "first"):
                out += submit(m, seat, queue.pop(0))
    return out


def events_of(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


__all__ = ["Act", "Done", "Pick", "Reveal", "ev", "RULES", "position", "start", "one", "ids", "submit",
           "select", "events_of", "new_match", "replace"]
