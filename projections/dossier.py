"""A ruling dossier: one self-contained HTML page about one event of a record, for an appeal.

It holds what a head judge needs without Kifu or a network: whether the record is intact
(chain, commitments, end mark, signer), its header, the board before and after the event (inline
SVG from ``kifu.projections.picture``), the event and both why chains with the values each
ruling used (``kifu.projections.causes``), the text of every clause cited, in English and in the
seed's original, judge events and notes near it, and the variations (forks) that leave a
position near it, each with its diff. No script, no external resource: its content security
policy forbids every load, so the page works from ``file://`` and asks nothing of any server.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

import msgspec

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.header import Header
from kifu.domain.core.notes import Note
from kifu.domain.core.ruleset import ClauseEntry

from .annotations import note_line
from .causes import Link, Why
from .diff import Diff

JUDGE_KINDS: tuple[str, ...] = ("judge",)    # the envelope kind of judge events (calls, rulings, penalties…)
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
STYLE = """
body{font:15px/1.45 'Noto Sans','DejaVu Sans',sans-serif;color:#1b1f24;margin:24px auto;max-width:1100px;padding:0 16px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;border-bottom:1px solid #c9ced6;padding-bottom:2px;margin-top:26px}
table{border-collapse:collapse}td,th{border:1px solid #c9ced6;padding:3px 8px;text-align:left;vertical-align:top}
.ok{color:#0a6b2d;font-weight:700}.bad{color:#a31515;font-weight:700}.dim{color:#5b6470}
.chain li{margin:4px 0}.clause{color:#0a6b2d}.ruling{font-weight:700}.values{color:#0b5cad}
.ja{font-family:'Noto Sans CJK JP','Noto Sans JP',sans-serif;color:#4f5863}
.boards{display:flex;flex-wrap:wrap;gap:12px}.boards figure{margin:0;flex:1 1 520px}
.boards svg{width:100%;height:auto;border:1px solid #c9ced6}.event{font-weight:700;font-size:16px}
code{background:#f3f4f6;padding:0 3px}
"""


class Check(msgspec.Struct, frozen=True):
    what: str
    ok: bool
    text: str


class Variation(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    at: int | None
    where: str
    diff: Diff | None = None
    why_not: str = ""               # said when no diff could be made (the fork's record is not at hand)


class Dossier(msgspec.Struct, frozen=True, kw_only=True):
    header: Header
    seq: int
    event: str                       # the event in words
    kind: str
    seat: int | None
    checks: tuple[Check, ...]
    before: str                      # SVG of the board before the event (after seq - 1)
    after: str                       # SVG of the board after it
    why: Why
    words: dict[int, str]            # each chain link's event in words, by seq
    clauses: tuple[ClauseEntry, ...]
    judge: tuple[tuple[int, str], ...] = ()     # judge events near it: (seq, in words)
    notes: tuple[Note, ...] = ()
    variations: tuple[Variation, ...] = ()
    source: str = ""


def judge_events(envelopes: Sequence[Envelope[Any]], seq: int, span: int,
                 words: Callable[[Envelope[Any]], str]) -> tuple[tuple[int, str], ...]:
    """Events of kind "judge" within ``span`` of ``seq``, or about ``seq`` (their ``at``)."""
    out: list[tuple[int, str]] = []
    for env in envelopes:
        if env.kind not in JUDGE_KINDS:
            continue
        about = getattr(env.event, "at", None)
        if abs(env.seq - seq) <= span or about == seq:
            out.append((env.seq, words(env)))
    return tuple(out)


def cited(why: Why, own: str | None, reference: dict[str, ClauseEntry]) -> tuple[ClauseEntry, ...]:
    """Every clause the event and its chains cite, once, in the order met."""
    ids = [own] + [link.clause for link in (*why.chain, *why.declaration)]
    return tuple(reference[c] for c in dict.fromkeys(i for i in ids if i) if c in reference)


def _e(value: Any) -> str:
    return escape(str(value), quote=True)


def _value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(v) for v in value)
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _chain(links: tuple[Link, ...], words: dict[int, str]) -> str:
    items = []
    for link in links:
        parts = [f'<span class="event">#{link.seq}</span> {_e(link.kind)}'
                 + (f" · seat {link.seat}" if link.seat else "") + f" · {_e(words.get(link.seq, ''))}"]
        if link.clause:
            parts.append(f'<div class="clause">{_e(link.clause)} {_e(link.clause_title)}</div>')
        ruling = link.ruling
        if ruling is not None:
            formula = ruling.formula()
            if formula:
                parts.append(f'<div class="ruling">ruling: {_e(formula)}</div>')
            for card in ruling.cards:
                values = " ".join(f"{k} {_value(v)}" for k, v in card.values.items())
                parts.append(f'<div class="values">after #{ruling.at}: {_e(card.name)}#{card.card} at '
                             f'{_e(card.where)}{": " + _e(values) if values else ""}</div>')
            for seat, part in ruling.seats.items():
                values = " ".join(f"{k} {_value(v)}" for k, v in part.items() if k != "seat")
                parts.append(f'<div class="values">after #{ruling.at}: seat {_e(seat)}: {_e(values)}</div>')
        items.append("<li>" + "".join(parts) + "</li>")
    return '<ol class="chain">' + "".join(items) + "</ol>"


def _diff(v: Variation) -> str:
    if v.diff is None:
        return f'<p class="dim">{_e(v.why_not or "no diff")}</p>'
    d = v.diff
    rows = [f"<p>{_e(d.relation)}; {d.common} events agree"]
    if d.parting is not None:
        part = d.parting
        rows[0] += f", then they part at A #{part.a_seq} / B #{part.b_seq} ({_e(', '.join(part.differ))})"
    rows[0] += "</p>"
    if d.boards_part is not None:
        rows.append(f"<p>boards first differ after {d.boards_part.decisions} decisions</p>")
    differing = [r for r in d.outcome if r.differs]
    if differing:
        rows.append("<table><tr><th>at the end</th><th>this record</th><th>variation</th></tr>"
                    + "".join(f"<tr><td>{_e(r.what)}</td><td>{_e(r.a)}</td><td>{_e(r.b)}</td></tr>" for r in differing)
                    + "</table>")
    else:
        rows.append("<p>the same at the end</p>")
    return "".join(rows)


def html(d: Dossier) -> str:
    """The page (a whole HTML document, UTF-8)."""
    h = d.header
    title = f"Ruling dossier: {h.ruleset} match {h.match_id}, event #{d.seq}"
    checks = "".join(f'<tr><td>{_e(c.what)}</td><td class="{"ok" if c.ok else "bad"}">'
                     f'{"ok" if c.ok else "FAILED"}</td><td>{_e(c.text)}</td></tr>' for c in d.checks)
    fields = [("match", h.match_id), ("ruleset", f"{h.ruleset} (rules {h.rules_version}, engine {h.engine_version})"),
              ("players", " vs ".join(h.players)), ("date", h.date or ""), ("event", h.event or ""),
              ("round", h.round or ""), ("table", h.table or ""), ("seed commitment", h.seed_commitment or ""),
              ("forked from", f"{h.forked_from} at #{h.forked_at}" if h.forked_from else ""),
              ("record", d.source)]
    header = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in fields if v)
    who = f" by seat {d.why.declared_by}" if d.why.declared_by else ""
    declaration = (f"<h3>The declaration it resolves{who}</h3>" + _chain(d.why.declaration, d.words)
                   if d.why.declaration else "<p class=\"dim\">no declaration: setup started it</p>")
    clauses = "".join(
        f'<div class="clause-entry"><h3 class="clause">{_e(c.id)} {_e(c.title)}</h3><p>{_e(c.text)}</p>'
        + (f'<p class="ja" lang="ja">{_e(c.original)}</p>' if c.original else "")
        + (f"<p><em>interpretation:</em> {_e(c.interpretation)}</p>" if c.interpretation else "")
        + "</div>" for c in d.clauses) or '<p class="dim">no clause cited</p>'
    judge = ("<ul>" + "".join(f"<li>#{s} {_e(w)}</li>" for s, w in d.judge) + "</ul>") if d.judge else \
        '<p class="dim">no judge events near this event</p>'
    notes = ("<ul>" + "".join(f'<li><span class="dim">{n.number}.</span> {_e(note_line(n))} '
                              f'<span class="dim">{_e(n.at)}{" · signed by " + _e(n.signer) if n.signature else ""}'
                              "</span></li>" for n in d.notes) + "</ul>") if d.notes else \
        '<p class="dim">no notes near this event</p>'
    variations = "".join(f"<h3>match {_e(v.match_id)}, after #{v.at} <span class=\"dim\">({_e(v.where)})</span></h3>"
                         + _diff(v) for v in d.variations) \
        or '<p class="dim">no variation leaves a position near it</p>'
    seat = f" · seat {d.seat}" if d.seat else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title><style>{STYLE}</style></head>
<body>
<h1>{_e(title)}</h1>
<p class="event" id="event">#{d.seq} {_e(d.kind)}{seat} · {_e(d.event)}</p>
<h2 id="verification">Verification</h2><table>{checks}</table>
<h2 id="header">Match</h2><table>{header}</table>
<h2 id="boards">The board before and after</h2>
<div class="boards"><figure><figcaption>before (after #{d.seq - 1})</figcaption>{d.before}</figure>
<figure><figcaption>after #{d.seq}</figcaption>{d.after}</figure></div>
<h2 id="why">Why: the causes back to the decision</h2>{_chain(d.why.chain, d.words)}
{declaration}
<h2 id="clauses">The clauses cited</h2>{clauses}
<h2 id="judge">Judge events near it</h2>{judge}
<h2 id="notes">Notes near it</h2>{notes}
<h2 id="variations">Variations</h2>{variations}
<p class="dim">Made by Kifu from the record alone; it loads nothing and runs no script.</p>
</body></html>
"""
