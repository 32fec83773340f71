"""kifu why: the values a ruling used, from the event's fields and the judge's view at its cause."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.projections.recordfile import read_record


def test_combat_damage_shows_str_def_and_the_units_at_the_cause(fresh: list[Path]) -> None:
    path = next(p for p in fresh if p.name.startswith("W-12.6-negative-def-increases-damage"))
    record = read_record(path)
    hound = record.header.start["sides"][0]["stage"][1]["card"]           # seat 1 line 2
    hit = next(e for e in record.envelopes if type(e.event).__name__ == "CombatDamage" and e.event.card == hound)
    result = CliRunner().invoke(cli, ["why", str(path), str(hit.seq), "--json"])
    assert result.exit_code == 0, result.output
    link = json.loads(result.output)["chain"][0]
    ruling = link["ruling"]
    assert ruling["inputs"] == {"STR": 2, "DEF": -1} and ruling["results"] == {"amount": 3}
    assert ruling["subject"] == {"seat": 1, "line": 2, "card": hound}
    assert ruling["at"] == hit.seq - 1
    cards = {c["name"]: c for c in ruling["cards"]}
    assert cards["炎獄の番犬"]["values"]["stats"] == "S4 V3 A2 D-1"       # as the judge's layout showed it
    assert cards["炎獄の番犬"]["where"] == "seat 1 field stage line 2"
    assert ruling["seats"]["1"]["life"] == 12
    text = CliRunner().invoke(cli, ["why", str(path), str(hit.seq)], terminal_width=200).output
    assert "ruling: STR 2, DEF -1 → amount 3" in text
    assert f"after #{hit.seq - 1}: 炎獄の番犬#{hound} at seat 1 field stage line 2" in text


def test_a_decision_is_looked_at_just_before_it(fresh: list[Path]) -> None:
    path = next(p for p in fresh if p.name.startswith("W-6.4-redundant-tower-rejected"))
    record = read_record(path)
    paid = next(e for e in record.envelopes if type(e.event).__name__ == "CostPaid")
    chain = json.loads(CliRunner().invoke(cli, ["why", str(path), str(paid.seq), "--json"]).output)["chain"]
    assert chain[0]["ruling"]["results"] == {"generated": 3} and chain[0]["ruling"]["inputs"]["cost"] == 3
    decision = chain[-1]
    assert decision["kind"] == "decision" and decision["ruling"]["at"] == decision["seq"] - 1
    assert decision["ruling"]["cards"][0]["where"].startswith("seat 1 hand")
