"""A judge's acts over HTTP (issue 27): ``POST /matches/{id}/judge`` with the judge token records a
call, a ruling, a backup and a penalty in the match's own stream; the finished record verifies
and audits clean, the seats' streams show the acts and nothing hidden, and every refusal is one
problem+json answer with nothing stored."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from httpplay import RULES, Player, bearer, create

from kifu.cli.main import cli
from kifu.domain.core.roles import HIDDEN
from kifu.projections.recordfile import read_record


def judge(client: Any, created: dict[str, Any], token: str | None = None, **body: Any) -> Any:
    return client.post(f"/matches/{created['match_id']}/judge", json={"judge": "hana", **body},
                       headers=bearer(token or created["tokens"]["judge"]))


def decision_seqs(client: Any, created: dict[str, Any]) -> list[int]:
    page = client.get(f"/matches/{created['match_id']}/events", params={"limit": 5000},
                      headers=bearer(created["tokens"]["judge"])).json()
    return [e["seq"] for e in page["events"] if e.get("kind", "rule") == "decision"]


def seq_of(client: Any, created: dict[str, Any]) -> int:
    return int(client.get(f"/matches/{created['match_id']}").json()["seq"])


def test_K_backup_a_served_match_with_judge_acts_verifies_audits_and_masks(api: Any, tmp_path: Path) -> None:
    created = create(api)
    player = Player(api, created, seed=2)
    player.play(12)
    at = seq_of(api, created)
    call = judge(api, created, act="call", seat=1, at=at, question="was the attack declared before the pass?")
    assert call.status_code == 200, call.text
    call_seq = call.json()["events"][0]["seq"]
    ruling = judge(api, created, act="ruling", call=call_seq, clause="W-1.1", text="it was", decision="upheld")
    assert ruling.status_code == 200, ruling.text
    to = decision_seqs(api, created)[-3]
    backup = judge(api, created, act="backup", to=to, reason="a card was drawn twice")
    assert backup.status_code == 200, backup.text
    (backed,) = backup.json()["events"]
    assert backed["kind"] == "judge" and backed["clause"] == "K-backup" and backed["event"]["reshuffled"]
    penalty = judge(api, created, act="penalty", seat=2, infraction="Looking at Extra Cards", penalty="Warning")
    assert penalty.status_code == 200, penalty.text
    assert penalty.json()["events"][0]["event"]["time"]          # stamped by the service

    for seat in (1, 2):
        page = api.get(f"/matches/{created['match_id']}/events", params={"limit": 5000},
                       headers=bearer(created["tokens"][f"seat{seat}"])).json()
        acts = [e for e in page["events"] if e.get("kind", "rule") == "judge"]
        assert [a["event"]["type"] for a in acts] == ["JudgeCall", "JudgeRuling", "JudgeBackup", "JudgePenalty"]
        state = acts[2]["event"]["state"]
        for side in state["sides"]:                                  # the reshuffled order reaches no seat
            assert set(side.get("deck", [])) <= {HIDDEN}
        assert set(state["sides"][2 - seat].get("hand", [])) <= {HIDDEN}
        assert all("chain" not in a and "digest" not in a for a in acts)

    player.play(5000)                                                # the match goes on to its end
    path = tmp_path / "judged.kifu.jsonl"
    path.write_bytes(player.record())
    assert len(read_record(path).envelopes) > at
    runner = CliRunner()
    verified = runner.invoke(cli, ["verify", str(path)])
    assert verified.exit_code == 0 and "4 judge acts" in verified.output, verified.output
    audited = runner.invoke(cli, ["audit", str(path)])
    assert audited.exit_code == 0 and "clean" in audited.output, audited.output


@pytest.mark.parametrize(("body", "status", "says"), [
    ({"act": "backup", "to": 2}, 422, "is not a decision point"),
    ({"act": "ruling", "call": 1, "clause": "W-99.9", "text": "x", "decision": "upheld"}, 422, "is not a judge call"),
    ({"act": "penalty", "seat": 3, "infraction": "Slow Play", "penalty": "Warning"}, 422, "seat 3 is no seat"),
    ({"act": "penalty", "seat": 1, "infraction": "Slow Play", "penalty": "Red Card"}, 422, "not a penalty"),
    ({"act": "call", "seat": 1, "at": 9999, "question": "?"}, 400, "not in the record"),
    ({"act": "call", "seat": 1, "at": 1, "question": "?", "minutes": 3}, 400, "takes no minutes"),
    ({"act": "result", "result": "draw"}, 400, "not a result"),
])
def test_K_call_refusals_are_problems_and_store_nothing(api: Any, body: dict[str, Any], status: int,
                                                        says: str) -> None:
    created = create(api)
    Player(api, created, seed=2).play(4)
    before = seq_of(api, created)
    answer = judge(api, created, **body)
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert says in answer.json()["detail"]
    assert seq_of(api, created) == before


def test_K_ruling_refused_for_an_unknown_clause_and_for_a_seat_token(api: Any) -> None:
    created = create(api)
    Player(api, created, seed=2).play(3)
    call = judge(api, created, act="call", seat=2, at=3, question="?").json()["events"][0]["seq"]
    unknown = judge(api, created, act="ruling", call=call, clause="W-99.9", text="x", decision="changed")
    assert unknown.status_code == 422 and unknown.json()["clause"] == "K-ruling"
    assert "unknown clause id 'W-99.9'" in unknown.json()["detail"]
    seat = judge(api, created, token=created["tokens"]["seat1"], act="call", seat=1, at=1, question="?")
    assert seat.status_code == 403


def test_K_result_over_http_ends_the_match(api: Any) -> None:
    created = create(api)
    Player(api, created, seed=2).play(3)
    ended = judge(api, created, act="result", result="game loss", seat=2, reason="no show after the break")
    assert ended.status_code == 200, ended.text
    assert ended.json()["outcome"]["winner"] == 1 and ended.json()["awaiting"] == []
    assert [e["event"]["type"] for e in ended.json()["events"]] == ["JudgeResult", "SeedRevealed"]
    again = judge(api, created, act="call", seat=1, at=1, question="?")
    assert again.status_code == 409
    assert RULES.name == "worlfard"


def test_K_penalty_signed_by_the_judge_is_checked_by_the_service(api: Any) -> None:
    from kifu.domain.core.judged import sign
    from kifu.domain.core.judging import act_of
    from kifu.domain.core.signing import new_signer

    created = create(api)
    Player(api, created, seed=2).play(3)
    hana = new_signer("hana")
    fields = {"judge": "hana", "seat": 2, "infraction": "Slow Play", "penalty": "Warning", "signer": "hana",
              "key": hana.public}
    signed = sign(created["match_id"], act_of("penalty", fields), hana)
    body = {"act": "penalty", **fields, "signature": signed.signature}
    recorded = api.post(f"/matches/{created['match_id']}/judge", json=body,
                        headers=bearer(created["tokens"]["judge"]))
    assert recorded.status_code == 200, recorded.text
    assert recorded.json()["events"][0]["event"]["signature"] == signed.signature
    forged = api.post(f"/matches/{created['match_id']}/judge", json={**body, "seat": 1},
                      headers=bearer(created["tokens"]["judge"]))
    assert forged.status_code == 422 and "does not verify" in forged.json()["detail"]
    record = Player(api, created).record().decode()
    assert '"type":"JudgePenalty"' in record and record.count('"signature"') == 1
