"""The documentation's examples, run: every command of the console sessions of README.md and of
every page under docs/ is executed in a scratch folder and its output compared with the lines the
page shows (``…`` stands for whatever varies: a whole line on its own, part of a line inside one),
so no page can drift again.

Shell blocks that are procedures rather than examples (set-up, regenerating the corpus, the
whole test suite, measurements) are listed in ``NOT_RUN`` with the reason."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kifu.service.app import create_app
from kifu.service.server import BackgroundServer

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BIN = Path(sys.executable).parent
NOT_RUN = {
    "make demo": "the quick start is what CI's set-up does",
    "make test": "the whole suite (CI runs it)",
    "make.py": "regenerates the corpus in place (its --check runs in tests/toolkit)",
    "--rerecord replays/": "rewrites the corpus in place",
    "python -m pytest": "the whole suite (CI runs it)",
    "kifu event": "the event's sequence needs a served store: tests/cli/test_event_run.py runs it",
    "kifu serve": "starts the service and stays (test_readme_service_session runs one in a thread)",
    "kifu bench": "measures for minutes (tests/bench runs its --quick smoke)",
    "kifu loadtest": "measures a running service (tests/service drives the load generator)",
    "valgrind": "counts instructions for minutes (docs/performance.md's figures)",
    "tests.viewer.figures": "measures the viewer in chromium for minutes (tests/viewer tests the page)",
}
EXITS = {"kifu diff": (0, 1)}     # diff exits 1 when the records differ, as diff(1) does
SLOW = ("kifu import", "kifu stats", "kifu audit replays/")


class Step:
    def __init__(self, command: str, expected: list[str]) -> None:
        self.command = re.sub(r"\s{2,}#\s.*$", "", command).strip()    # the README's trailing comments
        self.expected = expected


def blocks() -> list[tuple[str, list[Step]]]:
    """Every console session (``$ `` prompts and their output) and every runnable shell block, of
    every page, each named by its page and its place there."""
    return [block for page in PAGES for block in page_blocks(page)]


def page_blocks(page: Path) -> list[tuple[str, list[Step]]]:
    out = []
    name = page.relative_to(ROOT).as_posix()
    text = page.read_text("utf-8")
    for number, (lang, body) in enumerate(re.findall(r"^```(\w*)\n(.*?)^```", text, re.S | re.M)):
        lines = body.splitlines()
        if lang in ("console", "") and lines and lines[0].startswith("$ "):
            steps: list[Step] = []
            for line in lines:
                if line.startswith("$ "):
                    steps.append(Step(line[2:], []))
                else:
                    steps[-1].expected.append(line.rstrip())
            out.append((f"{name}-block{number}-{lang or 'text'}", steps))
        elif lang == "sh":
            steps = [Step(line, []) for line in lines if line.strip() and not line.startswith("#")]
            out.append((f"{name}-block{number}-sh", steps))
    return out


def _skipped(step: Step) -> str | None:
    return next((why for key, why in NOT_RUN.items() if key in step.command), None)


def matches(expected: list[str], actual: list[str]) -> str | None:
    """None if ``actual`` shows ``expected`` (``…`` lines skip any lines; ``…`` inside a line
    matches any text); else what is missing."""
    at, free = 0, False
    for want in expected:
        if want.strip() == "…":
            free = True
            continue
        pattern = re.compile(".*".join(re.escape(part) for part in want.split("…")))
        while at < len(actual) and not pattern.fullmatch(actual[at]):
            if not free:
                return f"expected {want!r}, got {actual[at]!r}"
            at += 1
        if at >= len(actual):
            return f"expected {want!r}; the output ended"
        at, free = at + 1, False
    return None


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    (tmp_path / "replays").symlink_to(ROOT / "replays")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "bin").symlink_to(BIN)
    return tmp_path


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIFU_")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT)
    env["COLUMNS"] = "80"
    return env


def run(step: str, cwd: Path, prelude: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    script = "\n".join([*prelude, step])
    return subprocess.run(["bash", "-c", script], cwd=cwd, env=_env(), capture_output=True, text=True,
                          timeout=600, **kwargs)   # type: ignore[call-overload]


def _params() -> list[object]:
    return list(_each())


def _each() -> Iterator[object]:
    for name, steps in blocks():
        service = any("--server" in s.command for s in steps)
        slow = any(key in s.command for s in steps for key in SLOW)
        marks = [pytest.mark.slow] if slow else []
        if not service:
            yield pytest.param(steps, id=name, marks=marks)


@pytest.mark.parametrize("steps", _params())
def test_readme_session(steps: list[Step], scratch: Path) -> None:
    prelude: list[str] = []
    for step in steps:
        if _skipped(step):
            continue
        if re.fullmatch(r"\w+=(\S+|\$\(.*\))", step.command):     # NAME=value, NAME=$(command)
            prelude.append(step.command)
            continue
        done = run(step.command, scratch, prelude)
        allowed = next((codes for key, codes in EXITS.items() if step.command.startswith(key)), (0,))
        assert done.returncode in allowed, f"$ {step.command}\n{done.stdout}{done.stderr}"
        if step.expected:
            problem = matches(step.expected, done.stdout.splitlines())
            assert problem is None, f"$ {step.command}\n{problem}\n--- output:\n{done.stdout}"


def test_readme_service_session(scratch: Path) -> None:
    """The two-terminals session against a real server: the human seat is shown its board and
    prompt once (then a bot stands in for it), the judge watches, records and audits."""
    (name, steps), = [(n, s) for n, s in blocks() if any("client create" in x.command for x in s)]
    with BackgroundServer(create_app("memory", environ={}), grace=0.2) as server:
        values: dict[str, str] = {}
        background: list[subprocess.Popen[str]] = []
        human: tuple[str, subprocess.Popen[str]] | None = None

        def fill(command: str) -> str:
            command = command.replace("http://127.0.0.1:8080", server.url)
            for key, value in values.items():
                command = command.replace(key, value)
            return command

        for step in steps:
            command = fill(step.command)
            if "client create" in command:
                done = run(command, scratch, [])
                assert done.returncode == 0, done.stderr
                expected = [line.replace("5d0e…", "…") for line in step.expected]   # an id, whatever it is
                assert matches(expected, done.stdout.splitlines()) is None, done.stdout
                values["5d0e…"] = re.search(r"^match (\S+)", done.stdout, re.M).group(1)
                for seat in ("seat 1", "seat 2", "judge"):
                    values[f"<{seat} token>"] = re.search(rf"^{seat} token:\s+(\S+)", done.stdout, re.M).group(1)
            elif "--bot" not in command and re.search(r"kifu client --server", command):     # the human seat
                human = (command, subprocess.Popen(["bash", "-c", command], cwd=scratch, env=_env(), text=True,
                                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                                   stderr=subprocess.PIPE))
            elif re.search(r"kifu client --server", command):                                   # a bot seat
                background.append(subprocess.Popen(["bash", "-c", command + " -q"], cwd=scratch, env=_env(),
                                                   text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
                if human is not None:   # its first prompt meets the end of its input: a bot stands in
                    shown, err = human[1].communicate(timeout=120)
                    assert "your " in shown and "hand (" in shown, shown + err
                    background.append(subprocess.Popen(["bash", "-c", human[0] + " --bot random --seed 1 -q"],
                                                       cwd=scratch, env=_env(), text=True,
                                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE))
                    human = None
            else:
                done = run(command, scratch, [])
                assert done.returncode == 0, f"$ {command}\n{done.stdout}{done.stderr}"
                if step.expected:
                    assert matches(step.expected, done.stdout.splitlines()) is None, done.stdout
        for proc in background:
            out, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, err


def test_the_matcher_reads_ellipses() -> None:
    assert matches(["a …", "…", "z"], ["a b", "x", "y", "z"]) is None
    assert matches(["a", "z"], ["a", "x", "z"]) is not None
    assert matches(["a"], []) is not None


# -- the pages' claims, beyond their examples ------------------------------------------------------
def test_the_exit_code_table_is_the_code() -> None:
    """docs/cli.md's table lists exactly the codes the CLI exits with, each error kind's code among them."""
    from kifu.cli.main import EXIT_CODES, INTERRUPTED, USAGE

    page = (ROOT / "docs" / "cli.md").read_text("utf-8")
    table = page.split("## Errors and exit codes", 1)[1].split("\n## ", 1)[0]
    listed = {int(code) for code in re.findall(r"^\| (\d+) \|", table, re.M)}
    assert listed == {1, 2, 3, 4, 130}
    assert set(EXIT_CODES.values()) | {USAGE, INTERRUPTED} <= listed


def test_the_coverage_each_game_page_claims_is_what_rules_prints() -> None:
    from kifu.domain.core.ruleset import find_ruleset

    claims = [(m.group(1), int(m.group(2))) for page in (ROOT / "docs" / "games").glob("*.md")
              for m in re.finditer(r"`kifu rules (\w+) --coverage`: (\d+) clauses", page.read_text("utf-8"))]
    assert claims
    for ruleset, count in claims:
        assert len(find_ruleset(ruleset).content.clauses()) == count, ruleset


def test_the_plugin_failure_example_quotes_the_record() -> None:
    """docs/regression.md shows a divergence at seq 22 of a corpus record: its recorded fields are the file's."""
    import json

    page = (ROOT / "docs" / "regression.md").read_text("utf-8")
    shown = re.search(r"^(replays/\S+\.kifu\.jsonl): first divergence at seq (\d+)", page, re.M)
    assert shown is not None
    record, seq = ROOT / shown.group(1), int(shown.group(2))
    line = json.loads(record.read_text("utf-8").splitlines()[seq])
    line.setdefault("kind", "rule")          # record format 2 leaves a rule event's kind out
    recorded = re.search(r"recorded: (\{.*), …\}", page).group(1) + "}"
    assert json.loads(recorded) == {k: line[k] for k in json.loads(recorded)}


def test_default_decks_are_the_first_two_presets_in_alphabetical_order(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kifu.cli.main import cli
    from kifu.domain.core.ruleset import find_ruleset
    from kifu.projections.recordfile import read_record

    out = tmp_path / "m.kifu.jsonl"
    played = CliRunner().invoke(cli, ["--db", "memory", "play", "worlfard", "--seed", "1", "-q", "--out", str(out)])
    assert played.exit_code == 0, played.output
    presets = find_ruleset("worlfard").content.presets()
    names = [deck["name"] if isinstance(deck, dict) else deck.name for deck in read_record(out).header.decks]
    assert names == sorted(presets)[:2]
    assert "first two of the ruleset's presets in alphabetical order" in (ROOT / "docs" / "cli.md").read_text("utf-8")
