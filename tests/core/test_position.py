"""The position notation's syntax and each ruleset's checks: what parses, what is refused and how
the refusal reads (``kifu.domain.core.position``, issue 25)."""
from __future__ import annotations

import re
from typing import Any

import pytest

from kifu.domain.core import position
from kifu.domain.core.match import Match
from kifu.domain.core.notation import BadPosition
from kifu.domain.core.ruleset import Ruleset, find_ruleset

RULESETS = ("worlfard", "masters", "reigeki", "alteil", "novel")


def midgame(name: str, decisions: int = 40) -> tuple[Ruleset[Any, Any, Any], Any]:
    ruleset = find_ruleset(name)
    decks = [ruleset.content.load_deck(p) for p in ruleset.content.presets()[:2]]
    match = Match.create(ruleset, match_id="m", seed=11, decks=decks, players=("a", "b"))
    for i in range(decisions):
        if match.outcome is not None:
            break
        seat = min(match.awaiting)
        options = ruleset.decider.legal(match.state, seat)
        match.submit(seat, options[(i * 7) % len(options)])
    return ruleset, match.state


@pytest.mark.parametrize("name", RULESETS)
def test_the_text_pasted_as_one_line_parses_to_the_same_state(name: str) -> None:
    ruleset, state = midgame(name)
    text = position.to_text(ruleset, state)
    assert position.parse(ruleset, " ".join(text.split())) == state


@pytest.mark.parametrize("name", RULESETS)
def test_the_seat_form_writes_no_value_hidden_from_that_seat(name: str) -> None:
    ruleset, state = midgame(name)
    judge = position.to_text(ruleset, state)
    for seat in (1, 2):
        text = position.to_text(ruleset, state, seat)
        assert "?" in text and text != judge
        masked = position.to_text(ruleset, ruleset.visibility.mask(state, seat), seat)   # type: ignore[misc]
        assert text.splitlines()[0] == masked.splitlines()[0]
        hidden = ruleset.visibility.hidden_cards
        if hidden is not None:      # no card the seat may not see is written in its form (card ids of
            # four digits: smaller ones, masters' and reigeki's, read like any count, seq or square)
            words = set(re.findall(r"-?\d+", text))
            assert not {str(c) for c in hidden(state, seat) if c >= 1000} & words


@pytest.mark.parametrize("name", RULESETS)
def test_a_card_written_twice_is_refused_as_not_conserved(name: str) -> None:
    ruleset, state = midgame(name)
    text = position.to_text(ruleset, state)
    if name == "novel":         # novel's cards are one numbered list: a number written twice
        bad = re.sub(r"\{id:2 ", "{id:1 ", text, count=1)
        says = "card 1 stands at place 2"
    else:
        first = re.search(r"deck:\?\[(\d+)", text)
        assert first is not None
        bad = text.replace("deck:?[", f"deck:?[{first.group(1)} ", 1)
        says = f"cards not conserved: card {first.group(1)} is in two places"
    with pytest.raises(BadPosition, match=re.escape(says)):
        position.parse(ruleset, bad)


@pytest.mark.parametrize("name", ["worlfard", "masters", "alteil"])
def test_a_card_name_the_set_lacks_is_refused_as_unknown(name: str) -> None:
    ruleset, state = midgame(name)
    text = position.to_text(ruleset, state)
    bad = text.replace("names:[[", "names:[[NoSuchCard ", 1)
    with pytest.raises(BadPosition, match="unknown card 'NoSuchCard'"):
        position.parse(ruleset, bad)


def test_an_unknown_reigeki_key_and_a_novel_card_name_are_refused() -> None:
    ruleset, state = midgame("reigeki")
    with pytest.raises(BadPosition, match="unknown card 'NoSuchCard'"):
        position.parse(ruleset, position.to_text(ruleset, state).replace('keys:[""', 'keys:["" NoSuchCard', 1))
    ruleset, state = midgame("novel")
    with pytest.raises(BadPosition, match="unknown card 'NoSuchCard'"):
        position.parse(ruleset, re.sub(r"name:[^ }]+", "name:NoSuchCard", position.to_text(ruleset, state), count=1))


@pytest.mark.parametrize(("text", "says"), [
    ("", "the text ends where the notation's version was due"),
    ("chess-pos/1 await:1", "not a worlfard-pos/1 position (it starts 'chess-pos/1')"),
    ("worlfard-pos/1 turn:1", "no await:<seats>"),
    ("worlfard-pos/1 await:1 turn:1 turn:2", "field 'turn' is given twice"),
    ("worlfard-pos/1 await:1 names:[a*1]", "'*' takes a count of 2 or more"),
    ("worlfard-pos/1 await:1 turn:\"unclosed", "cannot read"),
    ("worlfard-pos/1 await:1 sides:[]", "bad field: Expected `array` of length 2"),
    ("worlfard-pos/1 await:1 :", "a field name was due"),
])
def test_malformed_text_is_refused_with_what_is_wrong(text: str, says: str) -> None:
    with pytest.raises(BadPosition, match=re.escape(says)):
        position.parse(find_ruleset("worlfard"), text)


def test_words_that_read_as_other_values_are_quoted_and_read_back_as_words() -> None:
    ruleset, state = midgame("worlfard", 0)
    names = ("12", "true", "~", "a b", "", "x:y", "x?y", "x*2", "-3")
    state = type(state)(**{**{f: getattr(state, f) for f in state.__struct_fields__},
                          "names": (names + state.names[0][len(names):], state.names[1])})
    text = position.to_text(ruleset, state)
    assert '"12" "true" "~" "a b" "" "x:y" "x?y" "x*2" "-3"' in text
    with pytest.raises(BadPosition, match="unknown card '12'"):     # parsed as words, then refused by name
        position.parse(ruleset, text)


def test_novel_refuses_a_row_listing_a_card_that_is_not_there() -> None:
    ruleset, state = midgame("novel")
    text = position.to_text(ruleset, state)
    bad = re.sub(r"front:\[(\d+)", r"front:[\1 81", text, count=1)
    with pytest.raises(BadPosition, match="cards not conserved: card 81 is listed on seat 1's front"):
        position.parse(ruleset, bad)


def test_a_ruleset_without_a_notation_group_gets_the_default_one() -> None:
    """secretbid gives no ``Notation``: its text is ``secretbid-pos/1`` and reads back unchecked."""
    ruleset = find_ruleset("secretbid")
    decks = [ruleset.content.load_deck(p) for p in ruleset.content.presets()[:2]]
    match = Match.create(ruleset, match_id="m", seed=3, decks=decks, players=("a", "b"))
    while match.outcome is None:
        seat = min(match.awaiting)
        match.submit(seat, ruleset.decider.legal(match.state, seat)[0])
        text = position.to_text(ruleset, match.state)
        assert text.startswith("secretbid-pos/1 await:")
        assert position.parse(ruleset, text) == match.state
