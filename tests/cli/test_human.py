"""A human seat: choices narrowed card → place → payment, names instead of ids, card text on request."""
from __future__ import annotations

import re
from typing import Any

from click.testing import CliRunner
from rich.console import Console

from kifu.cli.client import _say_conflicts
from kifu.cli.main import cli


def _play_as_human(answers: list[str]) -> str:
    result = CliRunner().invoke(cli, ["--db", "memory", "play", "worlfard", "--seed", "3", "--p1", "human"],
                                input="\n".join(answers) + "\n")
    return result.output


def test_a_long_list_is_narrowed_by_kind_then_card_with_names_and_card_text() -> None:
    # 1: go first; 1: keep the hand; then the main phase: kind → card; ?1 shows the card's text
    out = _play_as_human(["1", "1", "1", "?1", "1", "1"])
    assert "choose the decision:" in out and "choose the card:" in out
    first_card = re.search(r"choose the card:\n\s+1 (\S+)\s+\(\d+ decisions\)", out)
    assert first_card is not None
    name = first_card.group(1)
    assert f"{name}: " in out                      # ?1 printed the card's text from the catalogue
    listed = out[out.index("choose the card:"):]
    assert not re.search(r"card=?\s*\d{4}\b", listed)      # never a bare instance id
    assert max(len(re.findall(r"^\s+\d+ ", block, re.M)) for block in out.split("seat 1, your")) <= 12


def test_a_lost_race_is_said_before_the_new_position() -> None:
    class Table:
        conflicts, seq = 0, 41

        def submit(self, seat: int, command: Any) -> list[Any]:
            self.conflicts += 1
            self.seq = 44
            return []

    table = Table()
    con = Console(record=True, width=200)
    _say_conflicts(table, con)
    table.submit(1, object())
    text = con.export_text()
    assert "conflict" in text and "event 44" in text and "not taken" in text
