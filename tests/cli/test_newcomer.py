"""The command line a newcomer trusts (issue 30): outputs that never clobber, one-line errors
from every command on every bad input, Ctrl-C that says so, resumed seats that stay who they
were, records within import's limits, and listings that check their filters."""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.record import first_broken_link
from kifu.projections.recordfile import read_record
from kifu.service.app import create_app
from kifu.service.server import BackgroundServer

BIN = Path(sys.executable).parent


def invoke(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=input, env=env)
    return result.exit_code, result.stdout, result.stderr


def one_line_error(code: int, err: str, want: int = 2) -> None:
    assert code == want, err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, Path]:
    """A store with one finished match, its id and its record."""
    folder = tmp_path_factory.mktemp("newcomer")
    db, out = str(folder / "k.db"), folder / "m.kifu.jsonl"
    code, text, err = invoke("--db", db, "play", "worlfard", "--seed", "7", "-q", "--out", str(out))
    assert code == 0, err
    return db, read_record(out).header.match_id, out


# -- output paths ---------------------------------------------------------------------------------
def test_a_fifo_is_written_through_never_replaced(stored: tuple[str, str, Path], tmp_path: Path) -> None:
    db, mid, _ = stored
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    code, _, err = invoke("--db", db, "export", mid, "--out", str(fifo))
    reader.join(timeout=30)
    assert code == 0, err
    assert stat.S_ISFIFO(fifo.lstat().st_mode)                 # still a fifo, not a regular file
    assert got and got[0].startswith(b'{"kifu":"match"') and mid.encode() in got[0]


def test_a_symlink_is_followed_to_its_target(stored: tuple[str, str, Path], tmp_path: Path) -> None:
    db, mid, _ = stored
    target, link = tmp_path / "target.kifu.jsonl", tmp_path / "link.kifu.jsonl"
    target.write_text("old\n")
    link.symlink_to(target.name)
    assert invoke("--db", db, "export", mid, "--out", str(link))[0] == 0
    assert link.is_symlink() and read_record(target).header.match_id == mid


def test_a_regular_file_is_replaced_atomically_keeping_its_mode(stored: tuple[str, str, Path], tmp_path: Path) -> None:
    db, mid, _ = stored
    out = tmp_path / "m.kifu.jsonl"
    out.write_text("old\n")
    out.chmod(0o640)
    assert invoke("--db", db, "export", mid, "--out", str(out))[0] == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640 and read_record(out).header.match_id == mid
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.kifu.jsonl"]      # no temp file left behind


@pytest.mark.parametrize("args", [
    ["export", "{mid}", "--out", "-"],
    ["export", "{mid}", "--html", "-"],
    ["replay", "{record}", "--at", "5", "--svg", "-"],
    ["play", "worlfard", "--seed", "1", "-q", "--out", "-"],
])
def test_dash_is_stdout_and_the_messages_go_to_stderr(stored: tuple[str, str, Path], args: list[str]) -> None:
    db, mid, record = stored
    code, out, err = invoke("--db", db, *[a.format(mid=mid, record=record) for a in args])
    assert code == 0, err
    assert out.startswith(("{\"kifu\":\"match\"", "<!doctype html", "<!DOCTYPE html", "<svg")), out[:80]
    assert not Path("-").exists()


OUTPUTS = [
    ["export", "{mid}", "--out", "{bad}"],
    ["export", "{mid}", "--html", "{bad}"],
    ["replay", "{record}", "--at", "5", "--svg", "{bad}"],
    ["replay", "{record}", "--at", "5", "--png", "{bad}"],
    ["play", "worlfard", "--seed", "1", "-q", "--out", "{bad}"],
    ["fork", "{record}", "--at", "40", "-q", "--out", "{bad}"],
    ["keys", "new", "ann", "--out", "{bad}"],
    ["keys", "sign", "{record}", "--key", "{record}", "--out", "{bad}"],
    ["client", "record", "--server", "http://127.0.0.1:1", "--match", "x", "--token", "t", "--out", "{bad}"],
]


@pytest.mark.parametrize("args", OUTPUTS, ids=lambda a: " ".join(a[:2]))
@pytest.mark.parametrize("bad", ["nodir/x.out", "adir", "afile/x.out"])
def test_every_output_refuses_a_bad_path_in_one_line_before_any_work(stored: tuple[str, str, Path], tmp_path: Path,
                                                                     args: list[str], bad: str) -> None:
    """A missing folder, a folder given as a file, a file given as a folder: exit 2, one line,
    nothing played or stored, no folder created."""
    db, mid, record = stored
    (tmp_path / "adir").mkdir()
    (tmp_path / "afile").write_text("")
    before = json.loads(invoke("--db", db, "matches", "--json")[1])
    filled = [a.format(mid=mid, record=record, bad=str(tmp_path / bad)) for a in args]
    code, _, err = invoke("--db", db, *filled)
    one_line_error(code, err)
    assert "does not exist" in err or "is a folder" in err or "is not a folder" in err
    assert not (tmp_path / "nodir").exists()
    assert json.loads(invoke("--db", db, "matches", "--json")[1]) == before


def test_selfplay_out_dir_must_exist(tmp_path: Path) -> None:
    code, _, err = invoke("selfplay", "worlfard", "--seeds", "1", "--out-dir", str(tmp_path / "nodir"))
    one_line_error(code, err)
    assert not (tmp_path / "nodir").exists()


def test_a_failed_out_after_the_match_is_stored_says_where_and_how_to_export(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "k.db")

    def full_disk(path: object, data: bytes) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("kifu.cli.output.write_file", full_disk)
    code, _, err = invoke("--db", db, "play", "worlfard", "--seed", "2", "-q", "--out", str(tmp_path / "m.kifu.jsonl"))
    one_line_error(code, err)
    mid = json.loads(invoke("--db", db, "matches", "--json")[1])[0]["match_id"]
    assert "No space left" in err and f"stored as {mid}" in err and f"export {mid} --out FILE" in err


# -- one error convention ---------------------------------------------------------------------------
COMMANDS = [
    ["replay", "{src}"], ["why", "{src}", "3"], ["export", "{src}"], ["fork", "{src}", "--at", "3"],
    ["diff", "{src}", "{src}"], ["viewer", "{src}"], ["play", "--resume", "{src}"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
@pytest.mark.parametrize("src", ["nodir/x.kifu.jsonl", "adir", "e7", "00000000"])
def test_every_command_refuses_a_bad_source_in_one_line(stored: tuple[str, str, Path], tmp_path: Path,
                                                        args: list[str], src: str) -> None:
    """A missing file, a directory as a file, a prefix too short, an unknown id: exit 2, one line."""
    db, _, _ = stored
    (tmp_path / "adir").mkdir()
    source = str(tmp_path / src) if "/" in src or src == "adir" else src
    code, _, err = invoke("--db", db, *[a.format(src=source) for a in args])
    one_line_error(code, err)


@pytest.mark.parametrize("command", [["matches"], ["export", "abcd"], ["stats"], ["play", "worlfard", "-q"],
                                     ["replay", "abcd"], ["import", "x.kifu.jsonl"], ["viewer", "abcd"]])
@pytest.mark.parametrize("db, says", [
    ("nodir/k.db", "folder"), ("mem", "give 'memory'"), ("k.bd", "must end in .db or .sqlite"),
    ("adir", "is a folder"), ("mysql://u@h/d", "unsupported database URL"),
])
def test_every_command_refuses_a_bad_db_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    command: list[str], db: str, says: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    code, _, err = invoke("--db", db, *command)
    one_line_error(code, err)
    assert says in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adir"]     # nothing created


def test_a_mistyped_store_path_is_refused_when_reading(stored: tuple[str, str, Path], tmp_path: Path) -> None:
    code, _, err = invoke("--db", str(tmp_path / "typo.db"), "matches")
    one_line_error(code, err)
    assert "no such store" in err and not (tmp_path / "typo.db").exists()


def test_exit_codes_follow_the_readme(stored: tuple[str, str, Path], tmp_path: Path) -> None:
    """2: a bad preset (with a suggestion), a ruleset no one knows in a record's header (replay,
    verify, audit alike), a record whose id another stored match holds; 3: an illegal --then."""
    db, mid, record = stored
    code, _, err = invoke("--db", "memory", "play", "worlfard", "--deck", "dawn-dus")
    one_line_error(code, err)
    assert "did you mean 'dawn-dusk'" in err
    alien = tmp_path / "alien.kifu.jsonl"
    alien.write_text(record.read_text("utf-8").replace('"ruleset":"worlfard"', '"ruleset":"nosuch"', 1), "utf-8")
    for command in (["replay", str(alien), "--at", "1"], ["verify", str(alien)]):
        one_line_error(*invoke(*command)[::2])
    assert invoke("audit", str(alien))[0] == 2
    other = tmp_path / "other.kifu.jsonl"
    assert invoke("--db", "memory", "play", "worlfard", "--seed", "8", "-q", "--out", str(other))[0] == 0
    forged = other.read_text("utf-8").replace(read_record(other).header.match_id, mid)
    (tmp_path / "forged.kifu.jsonl").write_text(forged, "utf-8")
    code, _, err = invoke("--db", db, "import", str(tmp_path / "forged.kifu.jsonl"))
    assert code == 2 and "choose another id" not in err, err
    code, _, err = invoke("fork", str(record), "--at", "40", "--then", '{"type":"Attack","line":9}')
    assert code in (2, 3) and err.startswith("error: "), err


@pytest.mark.parametrize("typed, meant", [("plya", "play"), ("worlfar", "worlfard")])
def test_did_you_mean_for_commands_and_rulesets(typed: str, meant: str) -> None:
    args = [typed] if typed == "plya" else ["play", typed]
    code, _, err = invoke("--db", "memory", *args)
    one_line_error(code, err)
    assert meant in err


def test_a_card_can_be_chosen_by_name_at_the_human_prompt() -> None:
    """The README says cards are chosen by name: typing one (case aside) picks it; a near miss
    gets "did you mean"."""
    result = CliRunner().invoke(cli, ["--db", "memory", "play", "worlfard", "--seed", "3", "--p1", "human"],
                                input="1\n1\n1\n")
    shown = result.output[result.output.rindex("choose the card:"):]
    name = shown.splitlines()[1].split()[1]
    typo = name[:-1] + ("x" if not name.endswith("x") else "y")
    result = CliRunner().invoke(cli, ["--db", "memory", "play", "worlfard", "--seed", "3", "--p1", "human"],
                                input=f"1\n1\n1\n{typo}\n{name}\n")
    after = result.output[result.output.rindex("choose the card:"):]
    assert f"did you mean {name!r}" in after
    assert "give a number" not in after.split(f"did you mean {name!r}")[1].split("seat 1, your")[1]


# -- Ctrl-C ---------------------------------------------------------------------------------------
def test_ctrl_c_exits_130_saying_interrupted(monkeypatch: pytest.MonkeyPatch, stored: tuple[str, str, Path]) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("kifu.cli.records.audit_many", interrupted)
    code, _, err = invoke("audit", str(stored[2]))
    assert code == 130 and err.strip() == "error: interrupted"


def test_ctrl_c_in_a_human_game_says_the_match_and_how_to_resume(tmp_path: Path) -> None:
    """A real SIGINT at the prompt: exit 130, the match id, the --resume command; resuming with
    no --p1 keeps seat 1 human (it is asked again), and a bot told to take over is recorded."""
    db = str(tmp_path / "k.db")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([str(BIN / "kifu"), "--db", db, "play", "worlfard", "--seed", "3", "--p1", "human"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None and proc.stdin is not None
    seen = b""
    while b"your decision" not in seen and b"your choice" not in seen:    # the prompt ends no line
        chunk = os.read(proc.stdout.fileno(), 4096)
        assert chunk, "the game ended before its first prompt"
        seen += chunk
    proc.stdin.write("1\n")
    proc.stdin.flush()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    mid = json.loads(invoke("--db", db, "matches", "--json")[1])[0]["match_id"]
    assert "interrupted" in err and f"kifu --db {db} play --resume {mid}" in err and "Traceback" not in err
    # resumed without --p1: seat 1 is still a person (asked; input ends at once)
    code, out, err = invoke("--db", db, "play", "--resume", mid, input="")
    assert code == 1 and "seat 1, your" in out and f"play --resume {mid}" in err
    # a bot told to take over plays on, and each decision it takes says so
    code, _, err = invoke("--db", db, "play", "--resume", mid[:8], "--p1", "greedy", "-q",
                          "--out", str(tmp_path / "m.kifu.jsonl"))
    assert code == 0, err
    record = read_record(tmp_path / "m.kifu.jsonl")
    assert record.header.seats == ("human", "random") and record.header.players == ("human", "random")
    by = {(e.seat, e.by) for e in record.envelopes if e.kind == "decision"}
    assert (1, "greedy") in by and all(b is None for s, b in by if s == 2)
    assert first_broken_link(record.header, record.envelopes) is None
    assert invoke("audit", str(tmp_path / "m.kifu.jsonl"))[0] == 0


# -- limits ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, flag", [
    (["--name", ""], "--name"), (["--name", "a" * 65], "--name"), (["--name", "ann", "--name", "b" * 65], "--name"),
    (["--event", "e" * 129], "--event"),
])
def test_play_refuses_up_front_what_import_would_refuse(tmp_path: Path, args: list[str], flag: str) -> None:
    db = str(tmp_path / "k.db")
    code, out, err = invoke("--db", db, "play", "worlfard", "--seed", "1", "-q", *args)
    one_line_error(code, err)
    assert flag in err and "stored as" not in out
    assert not Path(db).exists() or json.loads(invoke("--db", db, "matches", "--json")[1]) == []


# -- test rulesets ----------------------------------------------------------------------------------
def test_the_test_ruleset_is_offered_only_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KIFU_TEST_RULESETS", raising=False)
    code, _, err = invoke("--db", "memory", "play", "secretbid", "-q")
    one_line_error(code, err)
    assert "secretbid" in err and "alteil" in err
    with BackgroundServer(create_app("memory", environ={}), grace=0.2) as server:
        names = [r["name"] for r in httpx.get(f"{server.url}/rulesets").json()["rulesets"]]
        refused = httpx.post(f"{server.url}/matches", json={"ruleset": "secretbid"})
    assert "secretbid" not in names and "worlfard" in names and refused.status_code in (400, 404, 422)
    with BackgroundServer(create_app("memory", environ={"KIFU_TEST_RULESETS": "1"}), grace=0.2) as server:
        names = [r["name"] for r in httpx.get(f"{server.url}/rulesets").json()["rulesets"]]
    assert "secretbid" in names
    monkeypatch.setenv("KIFU_TEST_RULESETS", "1")
    assert invoke("--db", "memory", "play", "secretbid", "--seed", "1", "-q")[0] == 0


# -- listings ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("flag, typed, meant", [("--ruleset", "worlfar", "worlfard"),
                                                ("--event", "Sprng Open", "Spring Open"), ("--round", "9", None)])
def test_matches_filters_are_checked_against_what_is_stored(tmp_path: Path, flag: str, typed: str,
                                                            meant: str | None) -> None:
    db = str(tmp_path / "k.db")
    assert invoke("--db", db, "play", "worlfard", "--seed", "1", "-q", "--event", "Spring Open", "--round", "1")[0] == 0
    code, _, err = invoke("--db", db, "matches", flag, typed)
    one_line_error(code, err)
    assert meant is None or f"did you mean {meant!r}" in err
    assert invoke("--db", db, "matches", "--ruleset", "reigeki")[0] == 0      # known, nothing stored: fine


@pytest.mark.parametrize("args", [
    ["audit", "{bad}", "{record}"],
    ["selfplay", "worlfard", "--seeds", "2"],
    ["stats"],
    ["diff", "{record}", "{other}"],
])
def test_piped_tables_are_tab_separated_never_boxed(stored: tuple[str, str, Path], tmp_path: Path,
                                                    args: list[str]) -> None:
    db, _, record = stored
    bad = tmp_path / "bad.kifu.jsonl"
    bad.write_text("{}\n")
    other = tmp_path / "other.kifu.jsonl"
    assert invoke("--db", "memory", "play", "worlfard", "--seed", "8", "-q", "--out", str(other))[0] == 0
    code, out, err = invoke("--db", db, *[a.format(record=record, bad=bad, other=other) for a in args])
    assert code in (0, 1, 2), err
    assert not any(c in out for c in "┃━┏│─╇┡"), out
    assert any("\t" in line for line in out.splitlines()), out


def test_counts_agree_between_commands(stored: tuple[str, str, Path], tmp_path: Path) -> None:
    """fork's decisions are diff's; client record's events are verify's; plurals agree."""
    _, _, record = stored
    out = tmp_path / "f.kifu.jsonl"
    code, text, err = invoke("--db", "memory", "fork", str(record), "--at", "44", "--out", str(out), "-q")
    assert code == 0, err
    forked = int(text.split(" decisions")[0].rsplit(" ", 1)[1])
    shown = json.loads(invoke("diff", str(record), str(out), "--json")[1])
    assert shown["b"]["decisions"] == forked
    with BackgroundServer(create_app("memory", environ={}), grace=0.2) as server:
        created = json.loads(invoke("client", "create", "--server", server.url, "--json")[1])
        for seat in ("seat1", "seat2"):
            threading.Thread(target=invoke, args=("client", "--server", server.url, "--match", created["match_id"],
                                                  "--token", created["tokens"][seat], "--bot", "random", "-q"),
                             daemon=True).start()
        for _ in range(600):
            if httpx.get(f"{server.url}/matches/{created['match_id']}").json().get("outcome"):
                break
            threading.Event().wait(0.1)
        got = tmp_path / "served.kifu.jsonl"
        code, said, err = invoke("client", "record", "--server", server.url, "--match", created["match_id"],
                                 "--token", created["tokens"]["judge"], "--out", str(got))
    assert code == 0, err
    verified = invoke("verify", str(got))[1]
    events = said.split(": ", 1)[1].split(" events")[0]
    assert f"ok, {events} events" in verified


def test_plurals_agree_with_their_counts() -> None:
    from kifu.cli.render import plural

    assert [plural(1, "reveal"), plural(2, "reveal"), plural(1, "match"), plural(3, "match")] == \
        ["1 reveal", "2 reveals", "1 match", "3 matches"]


def test_a_folder_import_names_the_jsonl_files_it_leaves_out(stored: tuple[str, str, Path], tmp_path: Path) -> None:
    (tmp_path / "notes.jsonl").write_text("{}\n")
    (tmp_path / "m.kifu.jsonl").write_bytes(stored[2].read_bytes())
    code, _, err = invoke("--db", str(tmp_path / "k.db"), "import", str(tmp_path))
    assert code == 0 and "notes.jsonl" in err and "left out" in err, err


def test_diff_refuses_two_rulesets(stored: tuple[str, str, Path], tmp_path: Path) -> None:
    other = tmp_path / "r.kifu.jsonl"
    assert invoke("--db", "memory", "play", "reigeki", "--seed", "1", "-q", "--out", str(other))[0] == 0
    code, _, err = invoke("diff", str(stored[2]), str(other))
    one_line_error(code, err)
    assert "worlfard" in err and "reigeki" in err


def test_ctrl_c_at_a_client_seat_says_how_to_take_it_again(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr("kifu.domain.core.driver.drive", interrupted)
    with BackgroundServer(create_app("memory", environ={}), grace=0.2) as server:
        created = json.loads(invoke("client", "create", "--server", server.url, "--json")[1])
        code, _, err = invoke("client", "--server", server.url, "--match", created["match_id"],
                              "--token", created["tokens"]["seat1"], "--bot", "random", "-q")
    assert code == 130 and "interrupted" in err and f"--match {created['match_id']}" in err, err
    assert len(err.strip().splitlines()) == 1
