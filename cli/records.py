"""Commands over records and the store: why, audit, verify, export, import, matches, rules."""
from __future__ import annotations

import json
from pathlib import Path

import click
import msgspec
from rich.table import Table
from rich.text import Text

from domain.core.errors import KifuError, Malformed
from domain.core.match import Match
from domain.core.record import first_broken_link
from domain.core.ruleset import find_ruleset, ruleset_names
from projections.audit import audit as readjudicate
from projections.causes import explain
from projections.recordfile import read_record, write_record
from projections.timeline import Timeline

from . import render
from .context import Kifu, pass_kifu


@click.command()
@click.argument("source", metavar="FILE|MATCH_ID")
@click.argument("seq", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the chain as JSON.")
@pass_kifu
def why(kifu: Kifu, source: str, seq: int, as_json: bool) -> None:
    """Explain event SEQ: its causes back to the player decision, each with its clause."""
    ruleset, header, envelopes = kifu.load(source)
    if not 1 <= seq <= len(envelopes):
        raise click.BadParameter(f"seq {seq} is outside 1..{len(envelopes)}", param_hint="SEQ")
    chain = explain(ruleset, envelopes, seq)
    if as_json:
        click.echo(msgspec.json.encode(chain).decode())
        return
    con = render.console()
    names = ruleset.card_names(Timeline(ruleset, header, envelopes).final) if ruleset.card_names else None
    for depth, link in enumerate(chain):
        env = envelopes[link.seq - 1]
        prefix = "   " * depth + ("└─ " if depth else "")
        con.print(Text(prefix) + render.event_line(env, names))
        if link.clause:
            title = f"{link.clause} {link.clause_title}".strip()
            con.print(Text("   " * depth + "   " + title + (f": {link.clause_text}" if link.clause_text else ""),
                           style="green"))
    last = chain[-1]
    if last.kind == "decision":
        con.print(f"⇐ decided by seat {last.seat} at #{last.seq}")
    else:
        con.print(f"⇐ started by {last.kind} event #{last.seq}")


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print results as JSON.")
def audit(files: tuple[str, ...], as_json: bool) -> None:
    """Re-adjudicate records with today's engine; exit 1 if any diverges, 2 if any is unreadable."""
    paths: list[Path] = []
    for f in files:
        p = Path(f)
        paths.extend(sorted(p.rglob("*.kifu.jsonl*")) if p.is_dir() else [p])
    results = []
    worst = 0
    con = render.console()
    for path in paths:
        try:
            record = read_record(path)
        except KifuError as exc:
            results.append({"file": str(path), "status": "unreadable", "error": str(exc)})
            worst = max(worst, 2)
            continue
        result = readjudicate(record.ruleset, record.header, record.envelopes)
        entry = {"file": str(path), "status": "clean" if result.clean else "diverged",
                 "events": result.events, "decisions": result.decisions, "notes": list(result.notes)}
        if result.divergence is not None:
            entry["divergence"] = msgspec.to_builtins(result.divergence)
            worst = max(worst, 1)
        results.append(entry)
    if as_json:
        click.echo(json.dumps(results, ensure_ascii=False, indent=1))
    else:
        for r in results:
            if r["status"] == "clean":
                con.print(f"[green]clean[/]     {r['file']}: {r['events']} events, {r['decisions']} decisions re-adjudicated")
            elif r["status"] == "unreadable":
                con.print(f"[red]unreadable[/] {r['file']}: {r['error']}")
            else:
                d = r["divergence"]
                con.print(f"[red]diverged[/]  {r['file']}: first difference at seq {d['seq']}"
                          f" (clause {d.get('clause') or '-'}): {d['reason']}")
                if d.get("recorded") is not None:
                    con.print(f"    recorded: {json.dumps(d['recorded'], ensure_ascii=False)}")
                if d.get("produced") is not None:
                    con.print(f"    today:    {json.dumps(d['produced'], ensure_ascii=False)}")
            for note in r.get("notes", []):
                con.print(f"    note: {note}", style="dim")
    if worst:
        raise SystemExit(worst)


@click.command()
@click.argument("file", type=click.Path())
def verify(file: str) -> None:
    """Check a record's hash chain; an edited line is reported by its seq (exit 1)."""
    record = read_record(file)
    broken = first_broken_link(record.header, record.envelopes)
    if broken is not None:
        click.echo(f"{file}: hash chain broken at seq {broken}: that event (or the header, if seq 1) "
                   "was changed after recording", err=True)
        raise SystemExit(1)
    click.echo(f"{file}: ok, {len(record.envelopes)} events, hash chain intact")


@click.command()
@click.argument("match_id")
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Default: MATCH_ID.kifu.jsonl")
@pass_kifu
def export(kifu: Kifu, match_id: str, out: str | None) -> None:
    """Write a stored match to a portable .kifu.jsonl record."""
    match = kifu.store.load(match_id)
    path = out or f"{match_id}.kifu.jsonl"
    size = write_record(path, match.header, match.envelopes)
    click.echo(f"{path}: {len(match.envelopes)} events, {size} bytes")


@click.command("import")
@click.argument("file", type=click.Path())
@pass_kifu
def import_(kifu: Kifu, file: str) -> None:
    """Store a .kifu.jsonl record (its hash chain must be intact)."""
    record = read_record(file)
    broken = first_broken_link(record.header, record.envelopes)
    if broken is not None:
        raise Malformed(f"hash chain broken at seq {broken}; refusing to import an edited record", file)
    match = Match.fold(record.ruleset, record.header, record.envelopes)
    kifu.store.create(match)
    click.echo(f"imported match {record.header.match_id} ({len(record.envelopes)} events)")


@click.command()
@pass_kifu
def matches(kifu: Kifu) -> None:
    """List stored matches."""
    rows = kifu.store.list_matches()
    table = Table("match id", "ruleset", "players", "events", "status")
    for row in rows:
        table.add_row(row.match_id, row.ruleset, " vs ".join(row.players), str(row.seq),
                      row.outcome.describe() if row.outcome else "in progress")
    render.console().print(table)
    if not rows:
        click.echo("no matches stored yet: try `kifu play worlfard --seed 7`")


@click.command()
@click.argument("ruleset", type=click.Choice(ruleset_names(), case_sensitive=False))
@click.argument("clause", required=False)
def rules(ruleset: str, clause: str | None) -> None:
    """Print a ruleset's rules reference, or one CLAUSE of it."""
    reference = find_ruleset(ruleset).clauses()
    entries = list(reference.values())
    if clause:
        key = clause.upper()
        entries = [e for e in entries if e.id.upper() == key or e.id.upper().startswith(key + ".")]
        if not entries:
            raise click.BadParameter(f"no clause {clause!r} in {ruleset}", param_hint="CLAUSE")
    con = render.console()
    for e in entries:
        con.print(f"[bold green]{e.id}[/] [bold]{e.title}[/]")
        con.print(f"  {e.text}")
        if e.original:
            con.print(f"  [dim]{e.original}[/]")
        if e.interpretation:
            con.print(f"  [yellow]interpretation:[/] {e.interpretation}")
        if e.implemented_in:
            con.print(f"  [cyan]implemented in:[/] {e.implemented_in}")
