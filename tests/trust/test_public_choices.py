"""The rules reference says where the rules make a choice public (issue 14): the targets a
WORLFARD spell declares on cast, and in every ruleset whose events name cards chosen from a
hidden zone (a hand, a face-down 霊力 zone) the clause that makes that choice public says so,
as `kifu rules` prints it; and what it says holds: a seat sees those fields unscrubbed."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.core.visibility import redact

PUBLIC = {"worlfard": ["W-10.4"], "reigeki": ["R-7.3", "R-8.3"], "masters": ["M-3.3", "M-4.3"],
          "alteil": ["A-2.5", "A-5.6"], "novel": ["N-5.2.1"]}


@pytest.mark.parametrize("ruleset,clause", [(r, c) for r, cs in PUBLIC.items() for c in cs])
def test_kifu_rules_says_where_a_choice_is_made_public(ruleset: str, clause: str) -> None:
    shown = CliRunner().invoke(cli, ["rules", ruleset, clause])
    assert shown.exit_code == 0 and "Public:" in shown.output, shown.output
    listed = json.loads(CliRunner().invoke(cli, ["rules", ruleset, "--json"]).output)
    (entry,) = [e for e in listed if e["id"] == clause]
    assert "Public:" in entry["interpretation"]


def test_worlfard_targets_declared_on_cast_are_public_and_said_so() -> None:
    text = CliRunner().invoke(cli, ["rules", "worlfard", "W-10.4"]).output
    assert "targets are declared as it is cast" in text and "hidden card (0)" in text
    from kifu.domain.core.envelope import Envelope
    from kifu.domain.worlfard import events as ev

    rules = find_ruleset("worlfard")
    cast = Envelope(seq=9, kind="decision", seat=1, clause="W-10.1", cause=None,
                    event=ev.SpellCast(seat=1, card=1040, line=2, cost=2, targets=(2005, 10123)))
    seen = redact(rules, cast, 2, hidden=frozenset({1012}))       # 1012: a card in seat 1's hand
    assert seen.event.targets == (2005, 0)        # the public target stays, the hand card does not
