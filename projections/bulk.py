"""Auditing many records: one result per file, on all cores, optionally re-recording.

``audit_path`` is the whole job for one file (read, re-adjudicate, check probes, re-record);
it runs in worker processes, so it takes and returns plain picklable values.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Literal

import msgspec

from kifu.domain.core.errors import KifuError
from kifu.domain.core.match import Match
from kifu.domain.core.notes import header_link, stale
from kifu.domain.core.signing import closing_mark, no_end_mark

from .audit import Divergence, audit
from .probes import check_probes, load_probes
from .recordfile import read_record, write_record
from .rerecord import rerecord as rerun

Status = Literal["clean", "diverged", "unreadable", "rerecorded", "crashed"]


class FileAudit(msgspec.Struct, frozen=True, kw_only=True):
    file: str
    status: Status
    ruleset: str = ""
    match_id: str = ""
    events: int = 0
    decisions: int = 0
    probes: int = 0
    divergence: Divergence | None = None      # the first one, before any re-recording
    probe_failed: bool = False                # the divergence is a probe's, not the record's
    notes: tuple[str, ...] = ()
    error: str = ""
    changes: tuple[str, ...] = ()             # what re-recording changed
    refused: Divergence | None = None         # why re-recording left the file alone
    end_mark: bool = False                    # the record ends with its end mark (a finished match)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "status": self.status}
        if self.status in ("unreadable", "crashed"):
            out["error"] = self.error
            return out
        out.update(ruleset=self.ruleset, match_id=self.match_id, events=self.events, decisions=self.decisions,
                   probes=self.probes, end_mark=self.end_mark, notes=list(self.notes))
        for key in ("divergence", "refused"):
            value = getattr(self, key)
            if value is not None:
                out[key] = msgspec.to_builtins(value)
        if self.probe_failed:
            out["probe_failed"] = True
        if self.changes:
            out["changes"] = list(self.changes)
        return out


def audit_path(path: str, rerecord: bool = False) -> FileAudit:
    """Re-adjudicate one record file (and its probes); with ``rerecord``, rewrite it if its rulings
    changed and today's engine still takes all its decisions."""
    try:
        record = read_record(path)
        probes = load_probes(path)
        result = audit(record.ruleset, record.header, record.envelopes)
        divergence = result.divergence
        probe_failed = False
        if divergence is None and probes:
            divergence = check_probes(record.ruleset, record.header, record.envelopes, probes)
            probe_failed = divergence is not None
    except KifuError as exc:
        return FileAudit(file=path, status="unreadable", error=str(exc))
    notes = list(result.notes)
    if record.end is None:     # a clean audit says the rulings hold, not that the record is whole
        notes.insert(0, no_end_mark(record.envelopes))
    if record.source_format is not None and record.source_format != record.header.format:
        notes.append(f"written in record format {record.source_format}, read as format {record.header.format}")
    base = FileAudit(file=path, status="clean" if divergence is None else "diverged", ruleset=record.header.ruleset,
                     match_id=result.match_id,
                     events=result.events, decisions=result.decisions, probes=len(probes), divergence=divergence,
                     probe_failed=probe_failed, notes=tuple(notes), end_mark=record.end is not None)
    if not rerecord or result.clean:
        return base
    redo = rerun(record.ruleset, record.header, record.envelopes)
    if redo.status != "rewritten" or redo.header is None or redo.envelopes is None:
        return msgspec.structs.replace(base, refused=redo.refused)
    # a finished match's record ends with an end mark for its new last link (unsigned: the old
    # signature covered the old events); an unfinished one (a ruling scenario) stays without
    end = closing_mark(redo.header, redo.envelopes, Match.fold(record.ruleset, redo.header, redo.envelopes).outcome,
                       None)
    link = header_link(redo.header)    # notes whose event's link still holds stay; the others noted a changed event
    write_record(path, redo.header, redo.envelopes, end,
                 [n for n in record.notes if not stale(n, link, redo.envelopes)])
    after = check_probes(record.ruleset, redo.header, redo.envelopes, probes) if probes else None
    changes = redo.changes + ((f"a probe fails after re-recording: {after.reason}",) if after else ())
    return msgspec.structs.replace(base, status="rerecorded" if after is None else "diverged", changes=changes,
                                   refused=after)


def _audit_or_report(path: str, rerecord: bool) -> FileAudit:
    """``audit_path``, with an engine that fails on a record reported as that record's result
    instead of ending the whole run."""
    try:
        return audit_path(path, rerecord)
    except Exception as exc:   # noqa: BLE001 - a bug in today's engine, shown per record
        return FileAudit(file=path, status="crashed", error=f"today's engine failed on it: {type(exc).__name__}: {exc}")


def audit_many(paths: list[Path], *, jobs: int | None = None, rerecord: bool = False,
               done: Callable[[FileAudit], None] | None = None) -> list[FileAudit]:
    """``audit_path`` over every path, on ``jobs`` processes (default: all cores); results in the
    order of ``paths``; ``done`` is called as each one finishes (for a progress bar)."""
    names = [str(p) for p in paths]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(names)))
    results: dict[str, FileAudit] = {}
    if jobs == 1:
        for name in names:
            results[name] = _audit_or_report(name, rerecord)
            if done:
                done(results[name])
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(_audit_or_report, name, rerecord): name for name in names}
            for future in as_completed(futures):
                result = future.result()
                results[futures[future]] = result
                if done:
                    done(result)
    return [results[name] for name in names]
