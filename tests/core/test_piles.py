"""The core's pile operations (``kifu.domain.core.piles``): each on a run's list (changed in place,
a deck kept top last) makes the same cards as the tuple operation on a tuple, step after step."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.domain.core import piles

cards = st.lists(st.integers(1, 30), max_size=12).map(tuple)


@given(deck=cards, more=cards, n=st.integers(0, 14))
def test_a_loose_deck_changes_as_its_tuple(deck: tuple[int, ...], more: tuple[int, ...], n: int) -> None:
    def loose() -> piles.LooseDeck:
        return piles.LooseDeck(reversed(deck))

    for tupled, changed in ((piles.dropped(deck, n), piles.dropped(loose(), n)),
                            (piles.under(more, deck), piles.under(more, loose())),
                            (piles.renewed(deck, more), piles.renewed(loose(), more))):
        assert type(changed) is piles.LooseDeck and tuple(reversed(changed)) == tupled


@given(pile=cards, more=cards, n=st.integers(0, 14), data=st.data())
def test_a_loose_pile_changes_as_its_tuple(pile: tuple[int, ...], more: tuple[int, ...], n: int,
                                           data: st.DataObject) -> None:
    pairs = [(piles.chopped(pile, n), piles.chopped(piles.Loose(pile), n)),
             (piles.plus(pile, more), piles.plus(piles.Loose(pile), more)),
             (piles.without_any(pile, more), piles.without_any(piles.Loose(pile), more))]
    if pile:
        card = data.draw(st.sampled_from(pile))
        pairs.append((piles.without(pile, card), piles.without(piles.Loose(pile), card)))
    for tupled, changed in pairs:
        assert type(tupled) is tuple and type(changed) is piles.Loose and tuple(changed) == tupled


pile_steps = st.lists(st.one_of(
    st.tuples(st.just("dropped"), st.integers(0, 3)), st.tuples(st.just("at_bottom"), cards),
    st.tuples(st.just("renewed"), cards), st.tuples(st.just("plus"), cards),
    st.tuples(st.just("without_any"), cards), st.tuples(st.just("emptied"), st.just(0))), max_size=12)


@settings(max_examples=200, deadline=None)
@given(deck=cards, hand=cards, todo=pile_steps)
def test_a_runs_piles_change_as_the_tuples_do(deck: tuple[int, ...], hand: tuple[int, ...], todo: list[Any]) -> None:
    """Each ``piles`` function on a run's list (changed in place, the deck kept top last) and on a
    tuple (the old tuple operation): the same cards after every step."""
    deck_t: piles.Deck = deck
    deck_l: piles.Deck = piles.loose_deck(deck)
    hand_t: piles.Pile = hand
    hand_l: piles.Pile = piles.Loose(hand)
    for step, arg in todo:
        was_deck, was_hand = deck_l, hand_l
        if step == "dropped":
            deck_t, deck_l = piles.dropped(deck_t, arg), piles.dropped(deck_l, arg)
        elif step == "at_bottom":
            deck_t, deck_l = piles.at_bottom(deck_t, arg), piles.at_bottom(deck_l, arg)
        elif step == "renewed":
            deck_t, deck_l = piles.renewed(deck_t, arg), piles.renewed(deck_l, arg)
        elif step == "plus":
            hand_t, hand_l = piles.plus(hand_t, arg), piles.plus(hand_l, arg)
        elif step == "without_any":
            hand_t, hand_l = piles.without_any(hand_t, arg), piles.without_any(hand_l, arg)
        else:
            hand_t, hand_l = piles.emptied(hand_t), piles.emptied(hand_l)
        assert deck_l is was_deck and hand_l is was_hand
        assert type(deck_t) is tuple and type(hand_t) is tuple
        assert piles.frozen_deck(deck_l) == deck_t and tuple(hand_l) == hand_t
