"""A long match for the benchmark (the ``long_match`` hook): the same rules from a position where
random play keeps going toward the turn limit (N-4.3) — six characters a side at 100 times their
HP, and decks of the presets' equipment and magic in triple (plus shields, so a card can always be
played: N-4.2), without the multiplying magic (HP halved, ATK doubled turn after turn)."""
from __future__ import annotations

from typing import Any

from .cards import card
from .decks import load, preset_names
from .state import Card, Side, State

HP_FACTOR = 100
COPIES = 3
SHIELDS = 600


def long_match(seed: int) -> tuple[list[Any], State]:
    names = preset_names()
    decks = [load(names[seed % len(names)]), load(names[(seed + 1) % len(names)])]
    cards: list[Card] = []
    sides = []
    for seat, deck in enumerate(decks, start=1):
        rows: dict[str, list[int]] = {"front": [], "back": []}
        characters = [n for n in dict.fromkeys(deck.cards) if card(n).kind == "character"]
        for i in range(6):
            d = card(characters[i % len(characters)])
            row = "front" if len(rows["front"]) < 3 else "back"
            cid = len(cards) + 1
            rows[row].append(cid)
            hp = d.hp * HP_FACTOR
            cards.append(Card(id=cid, owner=seat, name=d.name, zone=row, hp=hp, max_hp=hp, atk=d.atk, def_=d.def_,
                              agi=d.agi, rng=d.rng + 2, summoned=0))
        rest = [n for n in deck.cards if card(n).kind != "character" and card(n).effect not in ("hp_mul", "mul")
                ] * COPIES + ["鉄の盾"] * SHIELDS
        for name in rest:
            d = card(name)
            cards.append(Card(id=len(cards) + 1, owner=seat, name=name))
        sides.append(Side(seat=seat, front=tuple(rows["front"]), back=tuple(rows["back"])))
    return decks, State(turn=1, phase="select", cards=tuple(cards), sides=(sides[0], sides[1]))
