"""Commands over records and the store: why, audit, verify, export, import, matches, rules."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import msgspec
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.text import Text

from kifu.domain.core.commit import ChoiceRevealed, SeedRevealed
from kifu.domain.core.errors import Malformed
from kifu.domain.core.record import first_broken_link, first_broken_seal
from kifu.projections.bulk import FileAudit, audit_many
from kifu.projections.causes import Link
from kifu.projections.causes import why as why_of
from kifu.projections.recordfile import find_records, match_bytes, read_record, stray_files
from kifu.projections.timeline import Timeline
from kifu.tools.clause_index import clauses_of, coverage_report, source_lines

from . import output, render
from .context import Kifu, pass_kifu
from .names import RulesetName, offered, unknown_name
from .output import OutPath
from .render import plural
from .tui.model import integrity


@click.command()
@click.argument("source", metavar="FILE|MATCH_ID")
@click.argument("seq", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the chain as JSON.")
@pass_kifu
def why(kifu: Kifu, source: str, seq: int, as_json: bool) -> None:
    """Explain event SEQ: its causes back to the player decision, each with its clause, and the
    declaration the ruling resolves (the skill activated, the attack, the sealed pick) and who made it."""
    ruleset, header, envelopes = kifu.load(source)
    if not 1 <= seq <= len(envelopes):
        raise click.BadParameter(f"seq {seq} is outside 1..{len(envelopes)}", param_hint="SEQ")
    timeline = Timeline(ruleset, header, envelopes)
    both = why_of(ruleset, envelopes, seq, timeline)
    warning = integrity(timeline)
    if warning:          # what follows may be edited values: say so first, on stderr for scripts too
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        click.echo(msgspec.json.encode(both).decode())
        return
    con = render.console()
    if warning:
        con.print(Text(warning, style="bold white on red"))
    names = ruleset.presentation.card_names(timeline.final) if ruleset.presentation.card_names else None
    _print_chain(con, both.chain, envelopes, names, ruleset.command_from_builtins)
    last = both.chain[-1]
    if last.kind == "decision":
        con.print(f"⇐ decided by seat {last.seat} at #{last.seq}")
    else:
        con.print(f"⇐ started by {last.kind} event #{last.seq}")
    if not both.declaration:
        return
    head = both.declaration[0]
    if head.seq == last.seq:
        con.print(f"⇐ resolves #{head.seq}, declared by seat {both.declared_by}: the decision above")
        return
    con.print(f"⇐ resolves #{head.seq}, declared by seat {both.declared_by}:")
    _print_chain(con, both.declaration, envelopes, names, ruleset.command_from_builtins)


def _print_chain(con: Any, chain: tuple[Link, ...], envelopes: list[Any], names: Any, command: Any = None) -> None:
    """One chain, each link under the one it explains, with its clause and its ruling's values."""
    for depth, link in enumerate(chain):
        env = envelopes[link.seq - 1]
        prefix = "   " * depth + ("└─ " if depth else "")
        indent = "   " * depth + "   "
        con.print(Text(prefix) + render.event_line(env, names, command=command))
        if link.clause:
            title = f"{link.clause} {link.clause_title}".strip()
            body = render.clause_body(link.clause_title, link.clause_text).strip()
            first, *more = body.splitlines() or [""]
            con.print(Text(indent + title + (f": {first}" if first else ""), style="green"))
            for line in more:   # a clause's list items stay under it, indented
                con.print(Text(indent + "  " + line, style="green"))
        if link.ruling is not None:
            _print_ruling(con, link.ruling, indent)


def _print_ruling(con: Any, ruling: Any, indent: str) -> None:
    """The values the ruling used: its formula, then the cards and seats as they stood at its cause."""
    for line in render.ruling_lines(ruling, indent):
        con.print(line)


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print one JSON result per record (a list), for CI.")
@click.option("--rerecord", is_flag=True,
              help="Rewrite diverging records by re-running their decisions with today's engine (after an "
                   "intended rules change); prints what changed; records with refused decisions are left alone.")
@click.option("--jobs", "-j", type=click.IntRange(1), default=None, help="Worker processes (default: all cores).")
@click.option("--verbose", "-v", is_flag=True, help="List clean records in the summary too.")
def audit(files: tuple[str, ...], as_json: bool, rerecord: bool, jobs: int | None, verbose: bool) -> None:
    """Re-adjudicate records (files or directories) with today's engine.

    Exit 0 if all are clean (or were re-recorded), 1 if any diverges, 2 if any is unreadable,
    3 if today's engine fails on one. A record without an end mark is said to be so ("no end
    mark: in progress or cut at seq N"): clean rulings, but nothing says the record is whole."""
    paths = find_records(files)
    _say_strays(files)
    if not paths:
        raise click.UsageError(f"no .kifu.jsonl records under {', '.join(files)}")
    progress = Progress(SpinnerColumn(), TextColumn("[bold]auditing[/]"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), TextColumn("{task.description}"),
                        console=Console(stderr=True), transient=True)
    progress.disable = as_json or len(paths) < 2 or not progress.console.is_terminal
    with progress:
        task = progress.add_task("", total=len(paths))
        results = audit_many(paths, jobs=jobs, rerecord=rerecord,
                             done=lambda r: progress.update(task, advance=1, description=Path(r.file).name))
    worst = max((EXIT_STATUS[r.status] for r in results), default=0)
    if as_json:
        click.echo(json.dumps([r.to_json() for r in results], ensure_ascii=False, indent=1))
    else:
        con = render.console()
        for r in results:
            _print_audit(con, r, brief=len(results) > 1)
        if len(results) > 1:
            _print_summary(con, results, verbose)
    if worst:
        raise SystemExit(worst)


def _say_strays(paths: tuple[str, ...]) -> None:
    """A folder's ``*.jsonl`` files that are not records are named, never skipped silently."""
    strays = stray_files(paths)
    if strays:
        shown = ", ".join(str(p) for p in strays[:3]) + (", …" if len(strays) > 3 else "")
        click.echo(f"note: {plural(len(strays), 'file')} not named *.kifu.jsonl left out: {shown}", err=True)


EXIT_STATUS = {"clean": 0, "rerecorded": 0, "diverged": 1, "unreadable": 2, "crashed": 3}


def _print_audit(con: Any, r: FileAudit, brief: bool) -> None:
    """One record's result; a clean one is a single line (none when there are many)."""
    if r.status == "clean":
        if not brief:
            con.print(f"[green]clean[/]     {escape(r.file)}: {r.events} events, {r.decisions} decisions re-adjudicated"
                      + (f", {r.probes} probes refused as expected" if r.probes else ""))
    elif r.status in ("unreadable", "crashed"):
        con.print(f"[red]{r.status}[/] {escape(r.file)}: {escape(r.error)}", highlight=False)
    else:
        d = r.divergence
        assert d is not None
        verb = "[yellow]re-recorded[/]" if r.status == "rerecorded" else "[red]diverged[/] "
        con.print(f"{verb} {escape(r.file)}: first difference at seq {d.seq} (clause {d.clause or '-'}): "
                  f"{escape(d.reason)}")
        if d.recorded is not None:
            con.print(f"    recorded: {json.dumps(d.recorded, ensure_ascii=False)}", markup=False)
        if d.produced is not None:
            con.print(f"    today:    {json.dumps(d.produced, ensure_ascii=False)}", markup=False)
        for change in r.changes:
            con.print(f"    changed: {change}", markup=False)
        if r.refused is not None:
            con.print(f"    [red]left alone[/]: at seq {r.refused.seq} (clause {r.refused.clause or '-'}): "
                      f"{escape(r.refused.reason)}")
    if r.status != "clean" or not brief:
        for note in r.notes:
            con.print(f"    note: {note}", style="dim", markup=False)


def _print_summary(con: Any, results: list[FileAudit], verbose: bool) -> None:
    counts = {status: sum(1 for r in results if r.status == status) for status in EXIT_STATUS}
    rows = []
    for r in results:
        if r.status == "clean" and not verbose:
            continue
        d = r.divergence
        first = (f"#{d.seq} {d.clause or '-'}: {d.reason}" if d is not None else r.error or "")
        style = {"clean": "green", "rerecorded": "yellow"}.get(r.status, "red")
        rows.append((Text(r.status, style=style), r.file, str(r.events) if r.events else "", first))
    if rows:
        render.show_table(con, ("status", "record", "events", "first divergence"), rows, title="audit summary")
    open_ended = sum(1 for r in results if r.status not in ("unreadable", "crashed") and not r.end_mark)
    unfinished = f"; {open_ended} with no end mark: in progress or cut" if open_ended else ""
    con.print(" · ".join(f"{n} {status}" for status, n in counts.items() if n or status == "clean")
              + f" ({plural(len(results), 'record')}{unfinished})")


def _accepted_keys(keys: tuple[str, ...], trusted: str | None, environ: Any = None) -> dict[str, str] | None:
    """The keys a record must be signed by (base64 -> name): ``--key``s and a ``--trusted`` file,
    else (``environ`` given: import) the trusted-keys file ``$KIFU_TRUSTED_KEYS`` names; None
    when nothing is required."""
    from kifu.domain.core.signing import parse_public
    from kifu.projections.intake import TRUSTED_KEYS_VAR
    from kifu.store.keys import load_trusted

    configured: str | None = environ.get(TRUSTED_KEYS_VAR) if environ is not None else None
    path = trusted or configured
    if not (keys or path):
        return None
    accepted = load_trusted(path) if path else {}
    for text in keys:
        name, b64 = parse_public(text, "--key")
        accepted[b64] = name
    return accepted


_KEY_HELP = "A public key the record must be signed by (as `kifu keys new` prints it); repeatable."
_TRUSTED_HELP = "A trusted-keys file: one 'NAME BASE64' per line; the record must be signed by one of them."
_IN_PROGRESS_HELP = ("Accept a record without an end mark (an ongoing match); without it such a record is refused "
                     "as 'in progress or cut'.")


@click.command()
@click.argument("file", type=click.Path())
@click.option("--key", "keys", multiple=True, metavar="'NAME BASE64'|BASE64", help=_KEY_HELP)
@click.option("--trusted", type=click.Path(dir_okay=False), default=None, help=_TRUSTED_HELP)
@click.option("--in-progress", is_flag=True, help=_IN_PROGRESS_HELP)
def verify(file: str, keys: tuple[str, ...], trusted: str | None, in_progress: bool) -> None:
    """Check a record's hash chain, its commitments (every sealed choice, and a served match's
    seed, which its finished record must reveal), its judges' acts (each signed act's signature)
    and its end mark and signature; an edited line
    or a reveal that does not open its commitment is reported by its seq, a cut record as
    "record ends at seq N of M" (exit 1). A record without an end mark is "no end mark: in
    progress or cut at seq N" (exit 1 unless --in-progress): a finished record's prefix is never
    ok. Without --key or --trusted a signature is checked but no signer is trusted; an unsigned
    finished record verifies as "unsigned"."""
    from kifu.domain.core.judged import acts_line, first_bad_act
    from kifu.domain.core.signing import check

    accepted = _accepted_keys(keys, trusted)
    record = read_record(file)
    broken = first_broken_link(record.header, record.envelopes)
    if broken is not None:
        click.echo(f"{file}: hash chain broken at seq {broken}: that event (or the header, if seq 1) "
                   "was changed after recording", err=True)
        raise SystemExit(1)
    sealed = first_broken_seal(record.header, record.envelopes, finished=record.end is not None)
    if sealed is not None:
        seq, reason = sealed
        click.echo(f"{file}: commitment broken at seq {seq}: {reason}", err=True)
        raise SystemExit(1)
    acted = first_bad_act(record.header, record.envelopes)
    if acted is not None:
        seq, reason = acted
        click.echo(f"{file}: judge's act broken at seq {seq}: {reason}", err=True)
        raise SystemExit(1)
    verdict = check(record.header, record.envelopes, record.end, accepted, in_progress)
    if not verdict.ok:
        click.echo(f"{file}: {verdict.text}", err=True)
        raise SystemExit(1)
    reveals = sum(1 for env in record.envelopes if isinstance(env.event, (ChoiceRevealed, SeedRevealed)))
    opened = f", {reveals} reveals open their commitments" if reveals else ""
    noted = _check_notes(file, record)
    opened += acts_line(record.envelopes)
    if record.end is None:      # never "ok": nothing vouches for where an unfinished record ends
        click.echo(f"{file}: {len(record.envelopes)} events, hash chain intact{opened}; {verdict.text}{noted}")
        return
    click.echo(f"{file}: ok, {len(record.envelopes)} events, hash chain intact{opened}; {verdict.text}{noted}")


def _check_notes(file: str, record: Any) -> str:
    """The notes section, outside the chain: counted; a note whose signature fails, or that is
    pinned to an event this record does not have (its chain link differs), fails verify (exit 1)."""
    from kifu.domain.core.notes import header_link, stale
    from kifu.domain.core.signing import check_note

    if not record.notes:
        return ""
    link = header_link(record.header)
    for note in record.notes:
        verdict = check_note(note)
        if not verdict.ok:
            click.echo(f"{file}: {verdict.text}", err=True)
            raise SystemExit(1)
        if stale(note, link, record.envelopes):
            click.echo(f"{file}: note {note.number} is pinned to another event than this record's #{note.seq} "
                       "(its chain link differs): it was written on another record", err=True)
            raise SystemExit(1)
    signed = sum(1 for n in record.notes if n.signature)
    return (f"; {plural(len(record.notes), 'note')} after the end, outside the chain"
            + (f" ({signed} signed)" if signed else ""))


@click.command()
@click.argument("match_id")
@click.option("--out", type=OutPath(), default=None, help="Default: MATCH_ID.kifu.jsonl; - for stdout.")
@click.option("--html", type=OutPath(), default=None,
              help="Write the viewer page instead: one self-contained HTML file (MATCH_ID may be a record file; "
                   "- for stdout).")
@click.option("--seat", type=click.IntRange(1, 2), default=None, help="With --html: only what this seat could see.")
@click.option("--notes", "with_notes", is_flag=True,
              help="Add the match's notes after the end mark (outside the chain: the signature is unchanged).")
@pass_kifu
def export(kifu: Kifu, match_id: str, out: str | None, html: str | None, seat: int | None, with_notes: bool) -> None:
    """Write a stored match to a portable .kifu.jsonl record (or, with --html, a viewer page)."""
    if html is not None:
        from .web import export_html

        return export_html(kifu, match_id, html, seat)
    match = kifu.existing.load(kifu.resolve(match_id))
    path = out or f"{match.header.match_id}.kifu.jsonl"
    output.check(path)
    notes = kifu.notes.notes(match.header.match_id) if with_notes else []
    data = match_bytes(path, match, kifu.signer, notes)
    output.write_out(path, data)
    said_notes = f", {plural(len(notes), 'note')}" if with_notes else ""
    output.quiet_echo(path, f"{path}: {plural(len(match.envelopes), 'event')}{said_notes}, {len(data)} bytes")


@click.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(), metavar="FILE|DIR…")
@click.option("--key", "keys", multiple=True, metavar="'NAME BASE64'|BASE64",
              help="Store only records signed by this public key (repeatable; with --trusted, by any of them).")
@click.option("--trusted", type=click.Path(dir_okay=False), default=None,
              help="A trusted-keys file; store only records signed by one of its keys. Default: the file "
                   "$KIFU_TRUSTED_KEYS names, if set (an organiser's requirement).")
@click.option("--in-progress", is_flag=True, help="Also store records without an end mark (ongoing matches).")
@pass_kifu
def import_(kifu: Kifu, paths: tuple[str, ...], keys: tuple[str, ...], trusted: str | None,
            in_progress: bool) -> None:
    """Store .kifu.jsonl records (files, and every record under a folder), one transaction each:
    read within the limits, sizes capped, chain, commitments and end mark intact, re-adjudicated
    clean by today's engine (as `kifu audit`), and, with --key/--trusted or $KIFU_TRUSTED_KEYS,
    signed by a trusted key. A record without an end mark is refused unless --in-progress. A
    record already stored as it is changes nothing; a refused one is named with its reason on
    stderr and the others go on (exit 2 if any was)."""
    import os

    from kifu.domain.core.errors import KifuError
    from kifu.projections.intake import admit, describe, same_match
    from kifu.store.errors import MatchExists

    accepted = _accepted_keys(keys, trusted, os.environ)
    files = find_records(paths)
    _say_strays(paths)
    if not files:
        raise Malformed("no .kifu.jsonl records there", ", ".join(paths))

    def one(file: Path) -> str:
        record = read_record(file)
        match = admit(record, str(file), accepted, in_progress)
        _admit_notes(record, str(file))
        try:
            kifu.store.create(match)
        except MatchExists:
            if same_match(kifu.store.load(match.header.match_id), record):
                added = _keep_notes(kifu, record)
                if added:
                    return f"match {record.header.match_id} is already stored, as in this record: {added} kept"
                return f"match {record.header.match_id} is already stored, as in this record: nothing to do"
            raise Malformed(f"a different match is stored under id {match.header.match_id}: "
                            "refused (the stored one is kept)", str(file)) from None
        added = _keep_notes(kifu, record)
        signed = f", {record.end.signer or 'signed'}'s signature trusted" if accepted is not None and record.end else ""
        return (f"imported match {record.header.match_id} ({len(record.envelopes)} events, re-adjudicated clean, "
                f"{describe(match)}{signed}{', ' + added if added else ''})")

    if len(files) == 1:
        click.echo(one(files[0]))
        return
    counts = {"imported": 0, "unchanged": 0, "refused": 0}
    con = render.console()
    columns = (SpinnerColumn(), TextColumn("importing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True, disable=not con.is_terminal) as bar:
        task = bar.add_task("import", total=len(files))
        for file in files:
            try:
                said = one(file)
                counts["unchanged" if " is already stored, " in said else "imported"] += 1
            except KifuError as exc:
                counts["refused"] += 1
                click.echo(f"{file}: refused: {exc}", err=True)
            bar.advance(task)
    click.echo(f"{len(files)} records: {counts['imported']} imported, {counts['unchanged']} already stored, "
               f"{counts['refused']} refused")
    if counts["refused"]:
        raise SystemExit(2)


def _admit_notes(record: Any, where: str) -> None:
    """A record's notes must be of its match, pinned to its events, their signatures sound."""
    from kifu.domain.core.notes import header_link, stale
    from kifu.domain.core.signing import check_note

    link = header_link(record.header)
    for note in record.notes:
        verdict = check_note(note)
        if not verdict.ok:
            raise Malformed(verdict.text, where)
        if note.match_id != record.header.match_id or stale(note, link, record.envelopes):
            raise Malformed(f"note {note.number} is not a note on this record's events", where)


def _keep_notes(kifu: Kifu, record: Any) -> str:
    """Store the record's notes the store does not have yet (the same note, whatever its number,
    is kept once); says how many were kept."""
    from kifu.domain.core.notes import signed_bytes

    if not record.notes:
        return ""
    have = {signed_bytes(n) for n in kifu.notes.notes(record.header.match_id)}
    added = 0
    for note in record.notes:
        if signed_bytes(note) not in have:
            kifu.notes.add(note)
            have.add(signed_bytes(note))
            added += 1
    return f"{plural(added, 'note')} kept" if added else ""


MATCH_FIELDS = ("match_id", "date", "ruleset", "players", "decks", "turns", "events", "status", "result",
                "event", "round", "table")


def _deck_name(deck: Any) -> str:
    raw = msgspec.to_builtins(deck)
    return str(raw.get("name", "?")) if isinstance(raw, dict) else str(raw)


def match_row(kifu: Kifu, row: Any) -> dict[str, Any]:
    """One stored match as ``kifu matches`` lists it: header metadata, turns, result."""
    match = kifu.store.load(row.match_id)
    header = match.header
    return {"match_id": row.match_id, "date": header.date or "", "ruleset": row.ruleset,
            "players": list(header.players), "decks": [_deck_name(d) for d in header.decks],
            "turns": int(match.ruleset.presentation.turn(match.state) or 0), "events": row.seq, "status": row.status,
            "result": row.outcome.describe() if row.outcome else "in progress",
            "event": header.event or "", "round": header.round or "", "table": header.table or ""}


def _check_filters(kifu: Kifu, stored: list[Any], given: dict[str, str | None]) -> None:
    """A filter value that no stored match has is a typo, refused with "did you mean" (exit 2),
    not an empty listing; a ruleset may also be any Kifu knows (nothing of it stored yet)."""
    if not stored or not any(given.values()):
        return
    rulesets = {r.ruleset for r in stored}
    ruleset = given["--ruleset"]
    if ruleset is not None and ruleset not in rulesets | set(offered()):
        raise click.BadParameter(unknown_name(ruleset, rulesets | set(offered()), "ruleset"), param_hint="--ruleset")
    for flag, field in (("--event", "event"), ("--round", "round")):
        value = given[flag]
        if value is None:
            continue
        values = {getattr(kifu.store.header(r.match_id), field) or "" for r in stored} - {""}
        if value not in values:
            said = unknown_name(value, values, field).replace(f"no {field} ", f"no stored match has {field} ", 1)
            raise click.BadParameter(said, param_hint=flag)


@click.command()
@click.option("--event", default=None, help="Only matches of this event.")
@click.option("--round", "round_", default=None, help="Only matches of this round.")
@click.option("--status", type=click.Choice(["ongoing", "over"]), default=None,
              help="Only ongoing or finished matches.")
@click.option("--ruleset", default=None, help="Only matches of this ruleset.")
@click.option("--json", "as_json", is_flag=True, help="One JSON list, for scripts.")
@pass_kifu
def matches(kifu: Kifu, event: str | None, round_: str | None, status: str | None, ruleset: str | None,
            as_json: bool) -> None:
    """List stored matches: full id, date, ruleset, players, decks, turns and result.

    On a terminal a table; piped, tab-separated values with a header line (whole ids, one
    match per line); --json for scripts. Any command takes an unambiguous prefix of an id."""
    def wanted(r: Any) -> bool:        # header filters before any match is loaded (folded)
        if (status is not None and r.status != status) or (ruleset is not None and r.ruleset != ruleset):
            return False
        if event is None and round_ is None:
            return True
        header = kifu.store.header(r.match_id)
        return (event is None or (header.event or "") == event) and (round_ is None or (header.round or "") == round_)

    stored = kifu.existing.list_matches()
    _check_filters(kifu, stored, {"--ruleset": ruleset, "--event": event, "--round": round_})
    listed = [match_row(kifu, r) for r in stored if wanted(r)]
    if as_json:
        click.echo(json.dumps(listed, ensure_ascii=False))
        return
    con = render.console()
    if not con.is_terminal:
        click.echo("\t".join(MATCH_FIELDS))
        for m in listed:
            values = (m[f] for f in MATCH_FIELDS)
            click.echo("\t".join(" vs ".join(v) if isinstance(v, list) else str(v) for v in values))
        return
    if not listed:
        click.echo("no stored match fits these filters" if stored else
                   "no matches stored yet: try `kifu play worlfard --seed 7`")
        return
    for m in listed:     # two lines a match: legible at 80 columns, the id always whole
        date = m["date"][:16].replace("T", " ") or "—"
        con.print(Text.assemble((m["match_id"], "bold"), f"  {date:<16}  {m['ruleset']:<9} {m['turns']:>4} turns"))
        who = " vs ".join(f"{p} ({d})" for p, d in zip(m["players"], m["decks"], strict=True))
        where = " ".join(x for x in (m["event"], f"round {m['round']}" if m["round"] else "",
                                     f"table {m['table']}" if m["table"] else "") if x)
        con.print(Text.assemble("  ", (m["result"], "green" if m["status"] == "over" else "yellow"),
                                (f" · {who}" + (f" · {where}" if where else ""), "dim")))


@click.command()
@click.argument("ruleset", type=RulesetName())
@click.argument("clause", required=False)
@click.option("--coverage", is_flag=True,
              help="Count the clauses declared on code and tested by name; list those lacking either.")
@click.option("--json", "as_json", is_flag=True, help="The clauses (or the coverage) as JSON.")
def rules(ruleset: str, clause: str | None, coverage: bool, as_json: bool) -> None:
    """Print a ruleset's rules reference, or one CLAUSE of it (where it is declared, its tests)."""
    if coverage:
        _coverage(ruleset, as_json)
        return
    entries = list(clauses_of(ruleset)().values())
    if clause:
        key = clause.upper()
        entries = [e for e in entries if e.id.upper() == key or e.id.upper().startswith(key + ".")]
        if not entries:
            raise click.BadParameter(f"no clause {clause!r} in {ruleset}", param_hint="CLAUSE")
    if as_json:
        click.echo(json.dumps([msgspec.to_builtins(e) for e in entries], ensure_ascii=False))
        return
    con = render.console()
    lines = source_lines(ruleset) if clause else {}
    for e in entries:
        con.print(f"[bold green]{e.id}[/] [bold]{e.title}[/]")
        con.print(f"  {escape(render.clause_body(e.title, e.text))}")
        if e.original:
            con.print(f"  [dim]{e.original}[/]")
        if e.interpretation:
            con.print(f"  [yellow]interpretation:[/] {e.interpretation}")
        if e.implemented_in:
            places = [f"{w} ({lines[w]})" if w in lines else w for w in e.implemented_in]
            con.print(f"  [cyan]declared on:[/] {escape(', '.join(places))}")
        if e.tested_in:
            shown = e.tested_in if clause else e.tested_in[:1]
            more = f" (+{len(e.tested_in) - len(shown)} more)" if len(shown) < len(e.tested_in) else ""
            con.print(f"  [cyan]tested by:[/] {escape(', '.join(shown))}{more}")


def _coverage(ruleset: str, as_json: bool) -> None:
    report = coverage_report(ruleset)
    if as_json:
        click.echo(json.dumps(msgspec.to_builtins(report), ensure_ascii=False))
        return
    total = report.clauses
    click.echo(f"{ruleset}: {total} clauses ({len(report.headings)} headings count through their sub-clauses)")
    click.echo(f"  declared on code   {report.declared}/{total}")
    click.echo(f"  tested by name     {report.tested}/{total}")
    mentioned = report.mentioned_only
    silent = [c for c in report.not_declared if c not in mentioned]
    if mentioned:
        click.echo("not declared, only mentioned in text: "
                   + ", ".join(f"{c} ({' '.join(files)})" for c, files in mentioned.items()))
    if silent:
        click.echo("not declared, not mentioned: " + ", ".join(silent))
    if report.not_tested:
        click.echo("not tested by name: " + ", ".join(report.not_tested))
