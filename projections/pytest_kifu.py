"""pytest plugin (entry point ``kifu``): recorded matches as regression tests.

Every ``*.kifu.jsonl`` (or ``.kifu.jsonl.gz``) under the configured paths is collected as one
test item that re-adjudicates it with today's engine (and checks its probes, if it has any).
A failure shows the first diverging event in both versions, with its clause.

Configure the paths with the ini option ``kifu_replays`` (default: ``replays`` beside the ini
file) or ``--kifu-replays PATH`` (repeatable). When pytest runs its configured ``testpaths``
(no paths on the command line), those directories are collected too; ``-p no:kifu`` turns the
plugin off.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from kifu.domain.core.errors import KifuError
from kifu.domain.core.ruleset import find_ruleset

from .bulk import FileAudit, audit_path
from .probes import probes_path
from .recordfile import is_record

if TYPE_CHECKING:   # pytest exports no name for what repr_failure may return
    from _pytest._code.code import TerminalRepr


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("kifu", "Kifu recorded matches")
    group.addoption("--kifu-replays", action="append", default=None, metavar="PATH",
                    help="Collect every .kifu.jsonl under PATH as a re-adjudication test (repeatable; "
                         "default: the kifu_replays ini option, else ./replays).")
    parser.addini("kifu_replays", type="paths", default=[],
                  help="Directories whose .kifu.jsonl records are re-adjudicated as tests (default: replays).")


def _roots(config: pytest.Config) -> list[Path]:
    given = config.getoption("kifu_replays")
    if given:
        return [Path(p).resolve() for p in given]
    configured = config.getini("kifu_replays")
    if configured:
        return [Path(p).resolve() for p in configured]
    base = config.inipath.parent if config.inipath else config.rootpath
    return [(base / "replays").resolve()]


def _under(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def pytest_configure(config: pytest.Config) -> None:
    roots = _roots(config)
    config.stash[_ROOTS] = roots
    if config.args_source != pytest.Config.ArgsSource.ARGS or config.getoption("kifu_replays"):
        given = [Path(a.split("::")[0]).resolve() for a in config.args]
        for root in roots:
            if root.is_dir() and not any(_under(root, g) for g in given):
                config.args.append(str(root))


_ROOTS = pytest.StashKey[list[Path]]()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if not is_record(file_path):
        return None
    config = parent.config
    path = file_path.resolve()
    explicit = any(Path(a.split("::")[0]).resolve() == path for a in config.args)
    if explicit or any(_under(path, root) for root in config.stash.get(_ROOTS, [])):
        return KifuRecordFile.from_parent(parent, path=file_path)
    return None


class KifuRecordFile(pytest.File):
    def collect(self) -> Any:
        yield KifuRecordItem.from_parent(self, name="readjudicate")


class RecordDiverged(Exception):
    def __init__(self, result: FileAudit) -> None:
        super().__init__(result.file)
        self.result = result


class KifuRecordItem(pytest.Item):
    def runtest(self) -> None:
        result = audit_path(str(self.path))
        if result.status != "clean":
            raise RecordDiverged(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, RecordDiverged):
            return describe(excinfo.value.result)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"{self.path.name}: re-adjudicate"


def describe(result: FileAudit) -> str:
    """The failure as a judge reads it: where, which clause, both versions of the event."""
    if result.status == "unreadable":
        return f"{result.file}: unreadable: {result.error}"
    d = result.divergence
    assert d is not None
    title = _clause_title(result.ruleset, d.clause)
    lines = [f"{result.file}: first divergence at seq {d.seq}, clause {d.clause or '-'}"
             + (f" ({title})" if title else ""), f"  {d.reason}"]
    for label, value in (("recorded", d.recorded), ("today   ", d.produced)):
        if value is not None:
            lines.append(f"  {label}: {json.dumps(value, ensure_ascii=False)}")
    lines.extend(f"  note: {n}" for n in result.notes)
    edited = _edited_at(result.file)
    if edited is not None:   # --rerecord refuses an edited record: do not suggest it
        lines.append(f"  the record was edited after recording (its hash chain breaks at seq {edited}): restore it "
                     "from version control, or regenerate it with its corpus script (make.py)")
    elif result.probe_failed:
        lines.append(f"  if the change is intended: update or remove the probe in {probes_path(result.file)}")
    else:
        lines.append(f"  if the change is intended: kifu audit --rerecord {result.file}")
    return "\n".join(lines)


def _edited_at(file: str) -> int | None:
    from kifu.domain.core.record import first_broken_link

    from .recordfile import read_record

    try:
        record = read_record(file)
    except Exception:   # unreadable records are described as such above
        return None
    return first_broken_link(record.header, record.envelopes)


def _clause_title(ruleset: str, clause: str | None) -> str:
    if not clause or not ruleset:
        return ""
    try:
        entry = find_ruleset(ruleset).content.clauses().get(clause)
    except KifuError:
        return ""
    return entry.title if entry else ""
