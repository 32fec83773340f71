"""Events in words (issue 30): card ids named inside nested values too, ``?`` for a card hidden
from the reader and ``—`` for none, never a bare id; a seat's words never name a hidden card."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from kifu.cli.tui.model import Position
from kifu.domain.core.commit import ChoiceRevealed, ChoiceSealed
from kifu.domain.core.match import record_evolve
from kifu.domain.core.roles import HIDDEN, roles_of
from kifu.domain.core.ruleset import Ruleset, ruleset_names
from kifu.domain.core.visibility import hidden_cards, redacted
from kifu.projections.recordfile import read_record
from kifu.projections.timeline import Timeline
from kifu.projections.viewdata import ViewSource
from kifu.projections.words import words_of

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
GAMES = [n for n in ruleset_names() if (REPLAYS / n).is_dir()]


def corpus(name: str) -> list[Path]:
    """The ruleset's scenario records and its two shortest bot matches (every event kind they hold)."""
    files = sorted((REPLAYS / name).glob("*.kifu.jsonl"))
    bots = sorted((f for f in files if f.name.startswith("bot-")), key=lambda f: f.stat().st_size)[:2]
    return [f for f in files if not f.name.startswith("bot-")] + bots


def card_ints(obj: Any, rules: Ruleset[Any, Any, Any]) -> Iterator[int]:
    """Every card id an event holds by its declared roles, read independently of the words:
    nested structs and the core's sealed choices (read as the ruleset's command) included."""
    if isinstance(obj, (ChoiceSealed, ChoiceRevealed)):
        if isinstance(obj.choice, dict):
            yield from card_ints(rules.command_from_builtins(obj.choice), rules)
        return
    roles = {f.name: f.role for f in roles_of(type(obj))}
    for name in obj.__struct_fields__:
        value = getattr(obj, name)
        if roles.get(name) == "card":
            yield from (v for v in (value if isinstance(value, (list, tuple)) else (value,))
                        if isinstance(v, int) and not isinstance(v, bool) and v != HIDDEN)
        elif isinstance(value, msgspec.Struct):
            yield from card_ints(value, rules)
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, msgspec.Struct):
                    yield from card_ints(item, rules)


@pytest.mark.parametrize("name", GAMES)
def test_no_bare_card_id_is_printed_in_any_ruleset(name: str) -> None:
    """Over corpus records: every card an event names (nested too) reads ``name#id``, and no
    card-role field prints a number alone."""
    checked = 0
    for path in corpus(name):
        rec = read_record(path)
        words = words_of(rec.ruleset, Timeline(rec.ruleset, rec.header, rec.envelopes).final)
        for env in rec.envelopes:
            if type(env.event).__name__ == "PositionPrepared":
                continue
            line = words.line(env.event)
            for card in card_ints(env.event, rec.ruleset):
                if len(list(card_ints(env.event, rec.ruleset))) > 8:
                    break           # a long list (a shuffled deck) shows its first cards only
                assert re.search(rf"[^\s=(\[,]#{card}\b", line), (path.name, env.seq, card, line)
                checked += 1
            assert not re.search(r"\b(card|cards|choice)=\(?\[?\d", line), (path.name, env.seq, line)
    assert checked


def first_event(envelopes: Any, kind: str, holds: Callable[[Any], bool]) -> Any:
    """The first envelope of an event of type ``kind`` for which ``holds`` is true (found in the
    record, so a re-recorded corpus moves the seq, not the test)."""
    return next(env for env in envelopes if type(env.event).__name__ == kind and holds(env.event))


def test_a_trigger_names_its_card_and_leaves_out_what_names_nothing() -> None:
    rec = read_record(REPLAYS / "worlfard" / "bot-dawn-dusk-vs-dawn-dusk-s2.kifu.jsonl")
    env = first_event(rec.envelopes, "SkillTriggered",     # a trigger with a line, no other, no spell line
                      lambda e: e.trigger.line and not e.trigger.other and not e.trigger.spell_line)
    t = env.event.trigger
    timeline = Timeline(rec.ruleset, rec.header, rec.envelopes)
    pos = Position(timeline)
    pos.go(env.seq)
    line = pos.event_lines(before=0)[-1].plain
    names = words_of(rec.ruleset, timeline.final).names
    assert names is not None
    name = names(t.card)
    assert name and not str(name).isdigit()
    assert (f"trigger=(seat={t.seat} card={name}#{t.card} skill={t.skill} line={t.line}) "
            f"when={env.event.when}") in line
    assert "other=" not in line and "spell_line" not in line


def test_a_sealed_pick_reads_as_the_rulesets_command_with_card_names() -> None:
    rec = read_record(REPLAYS / "novel" / "N-4.2-no-playable-card-loses.kifu.jsonl")
    pos = Position(Timeline(rec.ruleset, rec.header, rec.envelopes))
    pos.go(3)
    lines = [t.plain for t in pos.event_lines()]
    assert any("choice=(Pick card=火球#44 face_down=True)" in line for line in lines), lines
    assert any("choice=(Pick card=鉄の盾#181 target=火の衛兵#119)" in line for line in lines), lines
    assert not any("type Pick" in line or "card 44" in line for line in lines)


def test_hidden_is_a_question_mark_and_none_is_a_dash() -> None:
    rec = read_record(REPLAYS / "novel" / "N-4.2-no-playable-card-loses.kifu.jsonl")
    pos = Position(Timeline(rec.ruleset, rec.header, rec.envelopes), seat=2)
    pos.go(4)
    lines = {t.plain.split()[0]: t.plain for t in pos.event_lines()}
    assert "choice=?" in lines["#2"] and "火球" not in lines["#2"]       # seat 1's pick, hidden from seat 2
    assert "choice=(Pick card=鉄の盾#181" in lines["#3"]                  # its own
    rec = read_record(REPLAYS / "masters" / "bot-arcane-court-vs-last-hour-s1.kifu.jsonl")
    pos = Position(Timeline(rec.ruleset, rec.header, rec.envelopes))
    env = first_event(rec.envelopes, "CombatDamage", lambda e: e.defender == 0)
    pos.go(env.seq)
    assert "defender=— " in pos.event_lines(before=0)[-1].plain             # no defender: not "?"


@pytest.mark.parametrize("name", GAMES)
def test_a_seats_words_never_name_a_hidden_card_nested_values_included(name: str) -> None:
    """Each seat's stream in words (the stepper's and the viewer's): every card named, nested
    values and sealed choices included, is one the seat could see before or after the event."""
    path = corpus(name)[-1]
    rec = read_record(path)
    rules = rec.ruleset
    words = words_of(rules, Timeline(rules, rec.header, rec.envelopes).final)
    initial = rules.decider.initial_state(rec.header)
    evolve = record_evolve(rules)
    named = 0
    for seat in (1, 2):
        stream = redacted(rules, initial, rec.envelopes, seat)
        state = initial
        for env, seen in zip(rec.envelopes, stream, strict=True):
            before, state = state, evolve(state, env.event)
            if isinstance(env.event, ChoiceRevealed) or type(env.event).__name__ == "PositionPrepared":
                continue        # a reveal shows what the next events make public, by design (K-reveal)
            secret = hidden_cards(rules, before, seat) & hidden_cards(rules, state, seat)
            cards = words.cards(seen.event)
            assert not secret & set(cards), (path.name, seat, env.seq, words.line(seen.event, env.event))
            assert not secret & set(card_ints(seen.event, rules))
            named += len(cards)
    assert named


def test_the_why_panel_names_only_the_cards_the_event_names() -> None:
    """novel: ``seat=1`` was read as card 1 (雷神ライデン) in the why panel's cards."""
    rec = read_record(REPLAYS / "novel" / "bot-earth-wind-vs-earth-wind-s1.kifu.jsonl")
    source = ViewSource(rec.ruleset, rec.header, rec.envelopes, None)
    words = source.words
    wrong = 0
    for env in rec.envelopes:
        for link in source.why(env.seq):
            event = rec.envelopes[link["seq"] - 1].event
            allowed = set(words.cards(event))
            wrong += sum(card["card"] not in allowed for card in link.get("cards", []))
    assert wrong == 0
