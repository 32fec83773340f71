"""kifu why reaches the declaration a ruling resolves, in every ruleset, on corpus records: the
skill on the stack, the attack, the sealed pick and its reveal, and the seat that declared it."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.projections.causes import cause_chain
from kifu.projections.recordfile import read_record
from kifu.projections.viewdata import ViewSource

REPLAYS = Path(__file__).resolve().parents[2] / "replays"


def why_json(path: Path, seq: int) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["why", str(path), str(seq), "--json"])
    assert result.exit_code == 0, result.output
    found: dict[str, Any] = json.loads(result.output)
    return found


def kinds(record: Any, links: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(link["seq"], type(record.envelopes[link["seq"] - 1].event).__name__) for link in links]


def first_ruling(ruleset: str, kind: str, through: str) -> tuple[Path, Any, int]:
    """The first corpus record of ``ruleset`` with an event ``kind`` whose cause chain passes an
    event ``through`` (the kind of decision the cause chain stops at)."""
    for path in sorted((REPLAYS / ruleset).glob("bot-*.kifu.jsonl")):
        record = read_record(path)
        for env in record.envelopes:
            if type(env.event).__name__ == kind:
                chain = cause_chain(record.envelopes, env.seq)
                if any(type(e.event).__name__ == through for e in chain[1:]):
                    return path, record, env.seq
    raise AssertionError(f"no {kind} through {through} in replays/{ruleset}")


def test_M_2_2_a_resolved_skill_reaches_the_activation_that_stacked_it() -> None:
    path = REPLAYS / "masters" / "M-2.1-the-opponent-responds-between-two-declarations.kifu.jsonl"
    record = read_record(path)
    why = why_json(path, 16)                                   # the damage of the first skill declared
    assert kinds(record, why["chain"]) == [(16, "PieceDamaged"), (15, "Resolved"), (14, "PriorityPassed")]
    assert why["chain"][-1]["seat"] == 2                       # the pass that let it resolve
    assert kinds(record, why["declaration"]) == [(2, "SkillActivated")]
    assert why["declared_by"] == 1
    # last in, first out: each resolution answers its own activation, not merely the latest one
    assert [why_json(path, s)["declaration"][0]["seq"] for s in (7, 11, 15)] == [4, 3, 2]
    text = CliRunner().invoke(cli, ["why", str(path), "16"], terminal_width=200).output
    assert "⇐ decided by seat 2 at #14" in text and "⇐ resolves #2, declared by seat 1:" in text


def test_M_8_5_combat_damage_reaches_the_attacking_move() -> None:
    path, record, seq = first_ruling("masters", "CombatDamage", "PriorityPassed")
    why = why_json(path, seq)
    head = record.envelopes[why["declaration"][0]["seq"] - 1]
    assert type(head.event).__name__ == "AttackMoved" and head.kind == "decision"
    assert why["declared_by"] == head.seat == head.event.seat


def test_N_5_2_1_magic_damage_reaches_the_sealed_pick_and_its_reveal() -> None:
    path, record, seq = first_ruling("novel", "HpChanged", "MagicResolved")
    why = why_json(path, seq)
    assert type(record.envelopes[why["chain"][-1]["seq"] - 1].event).__name__ == "ChoiceSealed"
    declared = kinds(record, why["declaration"])
    assert [k for _, k in declared] == ["Picked", "ChoiceRevealed", "ChoiceSealed"]
    magic = next(record.envelopes[link["seq"] - 1].event for link in why["chain"]
                 if type(record.envelopes[link["seq"] - 1].event).__name__ == "MagicResolved")
    pick = record.envelopes[declared[0][0] - 1].event
    assert (pick.seat, pick.card) == (magic.seat, magic.card) and why["declared_by"] == magic.seat


def test_N_3_2_equipment_reaches_the_pick_not_the_done_seal() -> None:
    path = REPLAYS / "novel" / "N-6.2-equipment-stays-attached-in-the-graveyard.kifu.jsonl"
    record = read_record(path)
    why = why_json(path, 15)
    assert kinds(record, why["chain"])[-1] == (9, "ChoiceSealed")          # seat 1's "done"
    assert kinds(record, why["declaration"]) == [(6, "Picked"), (4, "ChoiceRevealed"), (2, "ChoiceSealed")]
    assert why["declared_by"] == 1


def test_W_12_6_combat_damage_reaches_the_attack_not_the_defence() -> None:
    path, record, seq = first_ruling("worlfard", "CombatDamage", "NoDefenseDeclared")
    why = why_json(path, seq)
    end = record.envelopes[why["chain"][-1]["seq"] - 1]
    head = record.envelopes[why["declaration"][0]["seq"] - 1]
    assert type(head.event).__name__ == "AttackDeclared"
    assert why["declared_by"] == head.seat != end.seat                    # the attacker, not the defender


def test_R_8_6_a_guarded_battle_reaches_the_attack_declaration() -> None:
    path, record, seq = first_ruling("reigeki", "BattleResolved", "Guarded")
    why = why_json(path, seq)
    end = record.envelopes[why["chain"][-1]["seq"] - 1]
    head = record.envelopes[why["declaration"][0]["seq"] - 1]
    assert type(end.event).__name__ in ("Guarded", "Burst")
    assert type(head.event).__name__ == "AttackDeclared"
    assert why["declared_by"] == head.event.seat != end.seat


def test_A_8_1_damage_reaches_the_attack_that_is_its_own_declaration() -> None:
    path, record, seq = first_ruling("alteil", "DamageDealt", "Attacked")
    why = why_json(path, seq)
    assert why["declaration"][0]["seq"] == why["chain"][-1]["seq"]
    assert why["declared_by"] == record.envelopes[why["chain"][-1]["seq"] - 1].seat


def test_a_setup_ruling_declares_nothing() -> None:
    path = REPLAYS / "masters" / "M-2.1-the-opponent-responds-between-two-declarations.kifu.jsonl"
    why = why_json(path, 1)
    assert why["declaration"] == [] and why["declared_by"] is None


def test_the_viewer_frame_carries_the_declaration() -> None:
    record = read_record(REPLAYS / "masters" / "M-2.1-the-opponent-responds-between-two-declarations.kifu.jsonl")
    judge = ViewSource(record.ruleset, record.header, record.envelopes, None)
    frame = judge.frame(16)
    assert [link["seq"] for link in frame["why"]] == [16, 15, 14]
    assert frame["declared"]["by"] == 1 and [link["seq"] for link in frame["declared"]["links"]] == [2]
    assert frame["declared"]["links"][0]["at"] == 1


def test_a_seat_is_not_shown_a_hidden_pick_as_the_declaration() -> None:
    """Seen by seat 2, seat 1's pick hides its card: the equipment's why names no pick of a hidden
    card (it could be any), only what seat 2 saw decide it."""
    record = read_record(REPLAYS / "novel" / "N-6.2-equipment-stays-attached-in-the-graveyard.kifu.jsonl")
    judge = ViewSource(record.ruleset, record.header, record.envelopes, None)
    seat = ViewSource(record.ruleset, record.header, record.envelopes, 2, timeline=judge.timeline, turns=judge.turns)
    assert [link["seq"] for link in judge.declared(15)["links"]] == [6, 4, 2]
    assert all(link["seq"] != 6 for link in seat.declared(15)["links"])
