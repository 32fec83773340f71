"""``table.with_card`` and ``table.unmarked`` keep a private list and index set between calls;
whatever order they are called in, from whichever tuple (the last made, an older one, another
match's), each must give exactly what copying the tuple would."""
from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.domain.novel.state import Card
from kifu.domain.novel.table import unmarked, with_card

replace = msgspec.structs.replace


def copied(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    out = list(cards)
    out[card.id - 1] = card
    return tuple(out)


def cleared(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(replace(c, acted=False, stunned=False) if (c.acted or c.stunned) else c for c in cards)


steps = st.lists(st.tuples(st.sampled_from(("card", "turn", "older", "other")), st.integers(1, 6), st.booleans(),
                           st.booleans(), st.integers(0, 9)), max_size=60)


@settings(max_examples=200, deadline=None)
@given(steps=steps, acted=st.lists(st.booleans(), min_size=6, max_size=6))
def test_each_result_is_what_copying_gives(steps, acted):
    start = tuple(Card(id=i, owner=1, name=f"c{i}", acted=a) for i, a in zip(range(1, 7), acted, strict=True))
    other = tuple(Card(id=i, owner=2, name=f"o{i}") for i in range(1, 7))
    history = [start]
    for kind, cid, is_acted, stunned, hp in steps:
        base = history[-1]
        if kind == "older":
            base = history[len(history) // 2]
        if kind == "other":
            assert with_card(other, replace(other[cid - 1], hp=hp)) == copied(other, replace(other[cid - 1], hp=hp))
            continue
        if kind == "turn":
            got, want = unmarked(base), cleared(base)
        else:
            card = replace(base[cid - 1], acted=is_acted, stunned=stunned, hp=hp)
            got, want = with_card(base, card), copied(base, card)
        assert got == want and type(got) is tuple
        assert all(got[i] is base[i] for i in range(6) if i != cid - 1 and not base[i].acted | base[i].stunned)
        history.append(got)
    assert history[0] == start          # nothing made before was changed afterwards
