"""Every ruleset with a mask says which cards a seat may not see (``Visibility.hidden_cards``); the
core derives nothing from the mask (issue 24: a mask also zeroes numbers that are not cards, and
novel's zeroed totals were read as card ids, scrubbing a seat's own picks from its own stream).
At every event of random matches, for both seats, the hook must name exactly the cards the mask
hides: the card ids it replaces by HIDDEN, or (novel, whose ids follow the public deck lists)
the cards it blanks."""
from __future__ import annotations

from typing import Any

import msgspec
import pytest

from kifu.domain.core.match import record_evolve
from kifu.domain.core.roles import HIDDEN
from kifu.domain.core.ruleset import find_ruleset, ruleset_names
from kifu.domain.core.visibility import hidden_cards
from kifu.tools.bench_work import play, preset_pairs

MASKED = [n for n in ruleset_names() if find_ruleset(n).visibility.mask is not None]


def zeroed_by_mask(judge: Any, masked: Any, out: set[int]) -> None:
    """The ints of ``judge`` that ``masked`` replaced by HIDDEN at the same place."""
    if judge is masked or isinstance(judge, bool):
        return
    if isinstance(judge, int):
        if masked == HIDDEN and judge != HIDDEN and not isinstance(masked, bool):
            out.add(judge)
    elif isinstance(judge, msgspec.Struct):
        if type(masked) is type(judge):
            for name in judge.__struct_fields__:
                zeroed_by_mask(getattr(judge, name), getattr(masked, name), out)
    elif isinstance(judge, (tuple, list)) and isinstance(masked, (tuple, list)) and len(masked) == len(judge):
        for a, b in zip(judge, masked, strict=True):
            zeroed_by_mask(a, b, out)


def hidden_by_mask(name: str, state: Any, masked: Any) -> set[int]:
    if name == "novel":      # ids are public; what the mask hides is which card an id is
        return {c.id for c in masked.cards if not c.name}
    out: set[int] = set()
    zeroed_by_mask(state, masked, out)
    return out


def test_every_ruleset_with_a_mask_declares_the_hook() -> None:
    assert MASKED and all(find_ruleset(n).visibility.hidden_cards is not None for n in MASKED)


@pytest.mark.parametrize("name", MASKED)
@pytest.mark.parametrize("seed", [3, 11])
def test_the_hook_names_what_the_mask_hides_at_every_event(name: str, seed: int) -> None:
    ruleset = find_ruleset(name)
    mask = ruleset.visibility.mask
    assert mask is not None
    pairs = preset_pairs(ruleset)
    match, _ = play(ruleset, seed, pairs[seed % len(pairs)])
    fold = record_evolve(ruleset)
    state = ruleset.decider.initial_state(match.header)
    hid_some = False
    for env in match.envelopes:
        state = fold(state, env.event)
        for seat in (1, 2):
            hook, derived = hidden_cards(ruleset, state, seat), hidden_by_mask(name, state, mask(state, seat))
            assert set(hook) == derived, (env.seq, seat, set(hook) ^ derived)
            hid_some = hid_some or bool(derived)
    assert hid_some     # the decks at least were hidden at some point: the comparison meant something
