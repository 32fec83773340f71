"""``kifu dossier``: one self-contained HTML page about one event, for an appeal or a report."""
from __future__ import annotations

from typing import Any

import click

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import KifuError
from kifu.domain.core.notes import header_link, stale
from kifu.domain.core.record import first_broken_link, first_broken_seal
from kifu.domain.core.signing import check, check_note, closing_mark
from kifu.projections.annotations import near
from kifu.projections.causes import why as why_of
from kifu.projections.diff import Side
from kifu.projections.diff import diff as compare
from kifu.projections.dossier import Check, Dossier, Variation, cited, html, judge_events
from kifu.projections.recordfile import read_record
from kifu.projections.timeline import Timeline

from . import output
from .context import Kifu, pass_kifu
from .notes import is_file, load_annotated, variations_of
from .output import OutPath
from .render import describe_event, plural


def checks_of(record: Any, end: Any, stored: bool) -> tuple[Check, ...]:
    """Chain, commitments, end mark and signer, notes: as ``kifu verify`` tells them."""
    header, envelopes = record.header, record.envelopes
    broken = first_broken_link(header, envelopes)
    out = [Check("hash chain", broken is None,
                 f"intact over {len(envelopes)} events" if broken is None else f"broken at seq {broken}")]
    sealed = first_broken_seal(header, envelopes, finished=end is not None)
    out.append(Check("commitments", sealed is None, "every reveal opens its commitment" if sealed is None
                     else f"broken at seq {sealed[0]}: {sealed[1]}"))
    verdict = check(header, envelopes, end, None, in_progress=end is None)
    said = verdict.text + (" (the end mark an export of the stored match writes)" if stored and end else "")
    out.append(Check("end mark and signer", verdict.ok, said))
    if record.notes:
        link = header_link(header)
        bad = [n.number for n in record.notes if not check_note(n).ok or stale(n, link, envelopes)]
        out.append(Check("notes (outside the chain)", not bad,
                         f"{plural(len(record.notes), 'note')}, signatures and links sound" if not bad
                         else f"note {', '.join(map(str, bad))}: signature or link does not hold"))
    return tuple(out)


@click.command()
@click.argument("source", metavar="FILE|MATCH_ID")
@click.argument("seq", type=click.IntRange(1))
@click.option("--out", type=OutPath(), required=True, help="The HTML file to write (- for stdout).")
@click.option("--span", type=click.IntRange(0), default=10, show_default=True,
              help="Judge events, notes and variations within this many events of SEQ are included.")
@pass_kifu
def dossier(kifu: Kifu, source: str, seq: int, out: str, span: int) -> None:
    """Write a ruling dossier for event SEQ: one HTML page that needs no network (it opens from
    file://): the record's verification, its header, the board before and after the event, the
    event and both why chains with the values each ruling used, the clause text in English and
    in the seed's original, judge events and notes near it, and the variations leaving a position
    near it, each with its diff."""
    from kifu.projections.picture import picture_of  # the drawing only where a page is made

    record = load_annotated(kifu, source)
    header, envelopes, ruleset = record.header, record.envelopes, record.ruleset
    if not 1 <= seq <= len(envelopes):
        raise click.BadParameter(f"seq {seq} is outside 1..{len(envelopes)}", param_hint="SEQ")
    output.check(out)
    timeline = Timeline(ruleset, header, envelopes)
    if record.file is not None:
        end = read_record(record.file).end
    else:
        end = closing_mark(header, envelopes, ruleset.decider.outcome(timeline.final), kifu.signer)
    names = ruleset.presentation.card_names(timeline.final) if ruleset.presentation.card_names else None

    def words(env: Envelope[Any]) -> str:
        return describe_event(env.event, names)

    both = why_of(ruleset, envelopes, seq, timeline)
    said = {link.seq: words(envelopes[link.seq - 1]) for link in (*both.chain, *both.declaration)}
    env = envelopes[seq - 1]
    variations = []
    for found in variations_of(kifu, record):
        if found.at is None or abs(found.at - seq) > span:
            continue
        variations.append(_variation(kifu, found, Side(source, ruleset, header, envelopes)))
    page = html(Dossier(
        header=header, seq=seq, event=words(env), kind=env.kind, seat=env.seat,
        checks=checks_of(record, end, stored=record.file is None),
        before=picture_of(timeline, seq - 1, None), after=picture_of(timeline, seq, None),
        why=both, words=said, clauses=cited(both, env.clause, ruleset.content.clauses()),
        judge=judge_events(envelopes, seq, span, words),
        notes=tuple(n for n in record.notes if n in near(record.notes, seq, span) or n.seq == 0),
        variations=tuple(variations), source=record.file or f"stored match in {kifu.store.where}"))
    body = page.encode()
    output.write_out(out, body)
    output.quiet_echo(out, f"{out}: the dossier of #{seq} ({len(body)} bytes; it opens offline, from file://)")


def _variation(kifu: Kifu, found: Any, origin: Side) -> Variation:
    """A fork with its diff against the origin, when its record is at hand (a file or the store)."""
    where = found.where or "store"
    try:
        if where != "store" and is_file(where):
            fork = read_record(where)
            side = Side(where, fork.ruleset, fork.header, fork.envelopes)
        else:
            ruleset, header, envelopes = kifu.load(found.match_id)
            side = Side(found.match_id, ruleset, header, envelopes)
    except (KifuError, click.ClickException, OSError) as exc:  # not at hand: said on the page, not fatal
        return Variation(match_id=found.match_id, at=found.at, where=where,
                         why_not=f"its record is not at hand ({exc})")
    return Variation(match_id=found.match_id, at=found.at, where=where, diff=compare(origin, side))
