"""What the web viewer draws, as JSON-ready data: a match as one seat (or the judge) may see it.

The viewer knows no game. It gets the record's envelopes already redacted for the viewer
(``kifu.domain.core.visibility``) and described by the roles of their fields, the ruleset's
``Layout`` at any seq (through ``Timeline``), the clause texts and the card catalogue. The
"why" of an event is the cause chain of ``kifu.projections.causes``, with the values each ruling
used read from the *viewer's* layout just before it, so a seat's why never names a card the
seat could not see; "declared" is the declaration the ruling resolves (its second chain), found
in the same redacted envelopes.

The same data feeds the served page (one frame per request) and the exported page (every
frame inlined, each distinct layout part stored once: consecutive layouts share most parts).
"""
from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import msgspec

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.header import Header
from kifu.domain.core.judging import is_judge
from kifu.domain.core.judging import words as judge_words
from kifu.domain.core.layout import Counter, Layout
from kifu.domain.core.match import record_evolve
from kifu.domain.core.record import first_broken_link, first_broken_seal
from kifu.domain.core.roles import HIDDEN, PACK, roles_of
from kifu.domain.core.ruleset import Ruleset
from kifu.domain.core.visibility import SeatStream, seat_view

from .causes import _cards_in, _split, cause_chain, declaration_chain, declarer
from .clocks import DecisionTime, clocks_of, decision_times
from .timeline import Timeline
from .words import UNKNOWN, words_of

LAYOUTS_KEPT = 256        # layouts a source remembers (stepping back and forth, why's "before" states)
LONG_VALUE = 80           # a nested value (a whole prepared state) longer than this is summarised


def viewer_name(seat: int | None) -> str:
    return "judge" if seat is None else f"seat {seat}"


class ViewSource:
    """One record as ``seat`` (None: the judge) may see it; built once, asked for any seq."""

    def __init__(self, ruleset: Ruleset[Any, Any, Any], header: Header, envelopes: list[Envelope[Any]],
                 seat: int | None, *, timeline: Timeline | None = None, turns: list[int] | None = None) -> None:
        self.ruleset = ruleset
        self.header = header
        self.seat = seat
        self.timeline = timeline or Timeline(ruleset, header, envelopes)
        # the core's scrub too; the judge sees the record as it is
        self._stream = None if seat is None else SeatStream(ruleset, ruleset.decider.initial_state(header), seat)
        self.seen = list(envelopes) if self._stream is None else self._stream.redact(envelopes)
        self.turns = turns if turns is not None else turns_of(ruleset, header, envelopes)
        self._layouts: dict[int, Layout] = {}
        self._spent = False
        self._timed(envelopes)
        self._settle()

    def _timed(self, envelopes: list[Envelope[Any]]) -> None:
        """Each decision's time (``kifu.projections.clocks``): stamps are no secret of either seat."""
        self.times: list[DecisionTime] = decision_times(self.header, envelopes)
        self._seconds = {t.seq: t.seconds for t in self.times if t.seconds is not None}

    def _settle(self) -> None:
        final = self.timeline.final
        self.words = words_of(self.ruleset, final)
        self.outcome = self.ruleset.decider.outcome(final)

    def extended(self, timeline: Timeline, turns: list[int]) -> ViewSource:
        """This view on ``timeline``, the same match grown by a few events (live): only those are
        redacted for the seat; this one stays as it was for a request still reading it."""
        if self._spent:     # its seat stream moved on with the view grown from it
            raise RuntimeError("extend the latest view of a match, not one it grew from")
        grown = copy.copy(self)
        new = timeline.envelopes[len(self.seen):]
        grown.timeline, grown.turns = timeline, turns
        grown.seen = [*self.seen, *(new if self._stream is None else self._stream.redact(new))]
        self._spent = True
        grown._layouts = dict(self._layouts)     # a seq's layout never changes as the match grows
        grown._timed(timeline.envelopes)
        grown._settle()
        return grown

    @property
    def last_seq(self) -> int:
        return self.timeline.last_seq

    # -- the match as a whole ---------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        """Everything the page needs once: who, the clause texts, the catalogue, the roles."""
        rules = self.ruleset
        catalogue = rules.content.catalogue()
        reference = rules.content.clauses()
        clauses = {cid: {"title": c.title, "text": c.text, "original": c.original} for cid, c in reference.items()}
        return {
            "match_id": self.header.match_id,
            "ruleset": rules.name,
            "rules_version": rules.rules_version,
            "players": list(self.header.players),
            "viewer": self.seat,
            "last_seq": self.last_seq,
            "outcome": self.outcome.describe() if self.outcome else "",
            "clocks": self.clocks(),
            "clauses": clauses,
            "catalogue": {"columns": msgspec.to_builtins(catalogue.columns),
                          "rows": msgspec.to_builtins(catalogue.rows)},
            "glossary": glossary(catalogue.rows, reference),
            "header": header_info(self.header, self.seat),
        }

    def events(self, after: int = 0) -> list[dict[str, Any]]:
        """The envelopes after ``after`` as the viewer may see them, each field with its role, and
        each decision with the seconds it took (``took``, where the record has the stamps)."""
        out = []
        for env in self.seen[after:]:
            event = self.describe(env, self.turns[env.seq] if env.seq < len(self.turns) else 0)
            seconds = self._seconds.get(env.seq)
            if seconds is not None:
                event["took"] = round(seconds, 3)
            out.append(event)
        return out

    def describe(self, env: Envelope[Any], turn: int) -> dict[str, Any]:
        """One envelope in words (``kifu.projections.words``): each field ``[key, text, role]``,
        nested values and sealed choices with card names, and every card it names."""
        event = env.event
        kind = type(event).__struct_config__.tag if isinstance(event, msgspec.Struct) else None
        whole = self.timeline.envelopes
        original = whole[env.seq - 1].event if self.seat is not None and 1 <= env.seq <= len(whole) else None
        described = self.words.fields(event, original) if isinstance(event, msgspec.Struct) else []
        fields = [[f.key, f.text, f.role] for f in described]
        cards = list(dict.fromkeys(c for f in described for c in f.cards))
        out: dict[str, Any] = {"seq": env.seq, "kind": env.kind, "type": kind if isinstance(kind, str) else
                               type(event).__name__, "fields": fields, "turn": turn}
        if is_judge(event):      # a judge's act in words (a backup's whole state is not listed field by field)
            out["words"] = judge_words(event)
            out["fields"] = [f for f in fields if f[0] != "state"]
        arrow = arrow_of(event)
        if arrow is not None:
            out["arrow"] = arrow
        for key in ("seat", "clause", "cause"):
            value = getattr(env, key)
            if value is not None:
                out[key] = value
        if cards:
            out["cards"] = cards
        return out

    def clocks(self, upto: int | None = None) -> dict[str, dict[str, Any]]:
        """Each seat's clock up to ``upto`` (all: None): decisions timed, total, median and longest
        seconds, keyed "1" and "2"; ``{}`` when the record has no stamps."""
        if not self._seconds:
            return {}
        return {str(seat): msgspec.to_builtins(clock) for seat, clock in clocks_of(self.times, upto).items()}

    def card_label(self, card: Any) -> str:
        return self.words.card(card, UNKNOWN)

    # -- one position -----------------------------------------------------------------------------
    def layout(self, seq: int) -> Layout:
        seq = max(0, min(seq, self.last_seq))
        found = self._layouts.get(seq)
        if found is None:
            rules = self.ruleset
            found = self.timeline.labelled(rules.presentation.layout(seat_view(rules, self.timeline.state_at(seq),
                                                                               self.seat)), seq)
            if len(self._layouts) >= LAYOUTS_KEPT:
                self._layouts.pop(next(iter(self._layouts)))
            self._layouts[seq] = found
        return found

    def why(self, seq: int) -> list[dict[str, Any]]:
        """The cause chain of ``seq`` (``causes.cause_chain``), each link with its clause and the
        values its ruling used, read from the viewer's own layout just before it."""
        if not 1 <= seq <= self.last_seq:
            return []
        return [self._link(env) for env in cause_chain(self.seen, seq)]

    def declared(self, seq: int) -> dict[str, Any]:
        """The declaration ``seq``'s ruling resolves, then its causes (``causes.declaration_chain``),
        and the seat that declared it: ``{}`` when there is none (setup)."""
        if not 1 <= seq <= self.last_seq:
            return {}
        chain = declaration_chain(self.ruleset, self.seen, seq)
        if not chain:
            return {}
        return {"by": declarer(chain), "links": [self._link(env) for env in chain]}

    def _link(self, env: Envelope[Any]) -> dict[str, Any]:
        """One link: the values its ruling used, read from the viewer's layout just before it."""
        _, inputs, results = _split(env.event)
        before = self.layout(env.seq - 1)
        found = _cards_in(before)
        # the cards the event names (by their roles, nested values too): never a seat or a place
        cards = [msgspec.to_builtins(found[c]) for c in self.words.cards(env.event) if c in found]
        seats = {}
        for f in roles_of(type(env.event)):
            number = getattr(env.event, f.name, None)
            panel = before.panel(number) if f.role == "seat" and isinstance(number, int) else None
            if panel is not None:
                seats[str(number)] = {p.label: p.value for p in panel.parts if isinstance(p, Counter)}
        link: dict[str, Any] = {"seq": env.seq, "at": env.seq - 1}   # the page has the event and clause
        for key, values in (("inputs", inputs), ("results", results)):
            if values:
                link[key] = {k: _short(v) for k, v in values.items()}
        if cards:
            link["cards"] = cards
        if seats:
            link["seats"] = seats
        return link

    def frame(self, seq: int) -> dict[str, Any]:
        seq = max(0, min(seq, self.last_seq))
        return {"seq": seq, "layout": msgspec.to_builtins(self.layout(seq)), "why": self.why(seq),
                "declared": self.declared(seq), "clocks": self.clocks(seq)}

    # -- everything, for a page with no server behind it -----------------------------------------
    def bundle(self, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
        """Meta, events and every frame; each distinct layout part is stored once in ``parts``
        and frames name parts by index (a 2,000-event match shares most parts between seqs)."""
        parts: list[Any] = []
        index: dict[str, int] = {}

        def intern(part: Any) -> int:
            key = json.dumps(part, sort_keys=True, ensure_ascii=False)
            if key not in index:
                index[key] = len(parts)
                parts.append(part)
            return index[key]

        frames = []
        for seq in range(self.last_seq + 1):
            frame = self.frame(seq)
            layout = frame["layout"]
            layout["board"] = [intern(p) for p in layout.get("board", [])]
            for panel in layout.get("seats", []):
                panel["parts"] = [intern(p) for p in panel.get("parts", [])]
            frames.append(frame)
            if progress is not None:
                progress(seq)
        return {"meta": self.meta(), "events": self.events(), "parts": parts, "frames": frames}


TERM = re.compile(r"[『【〔「\[{〈《]([^』】〕」\]}〉》]{1,24})[』】〕」\]}〉》]")
KEY_CUT = re.compile(r"[:：+\-−=＝0-9０-９*＊/]")
SENTENCE = re.compile(r"(?<=[.;:])\s+|\n+")
GLOSS_CHARS = 220


def glossary(rows: Any, clauses: dict[str, Any]) -> dict[str, list[dict[str, str]]]:
    """An English gloss of each card's text, from the rules reference: for every bracketed term of
    the seed's notation in the text (『強襲:1』, 【ユニット1体】, [AGI+2]), the first clause whose
    English text names it, with the sentence that does. Cards are data in the seed's language;
    the clauses are where Kifu says in English what the notation means."""
    out: dict[str, list[dict[str, str]]] = {}
    found: dict[str, dict[str, str] | None] = {}
    for row in rows:
        notes = []
        for term in dict.fromkeys(TERM.findall(row.text)):
            key = KEY_CUT.split(term)[0].strip()
            if len(key) < 2 or key.isascii():      # [AGI+2] is English already
                continue
            if key not in found:
                found[key] = None
                best = 0
                for cid, clause in clauses.items():   # the clause naming it in its title, else quoting it, else any
                    score = (3 if key in clause.title else 2 if f"『{key}" in clause.text
                             else 1 if key in clause.text else 0)
                    if score > best:
                        best = score
                        sentence = next((s for s in SENTENCE.split(clause.text) if key in s), clause.text).strip()
                        found[key] = {"clause": cid, "title": clause.title, "text": sentence[:GLOSS_CHARS]}
            gloss = found[key]
            if gloss is not None:
                notes.append({"term": term, **gloss})
        if notes:
            out[row.name] = notes
    return out


def header_info(header: Header, seat: int | None) -> dict[str, Any]:
    """What a judge expects at the top of the page: the tournament's event, round, table and date,
    the players, who sat at each seat, and the decks (a seat sees its own list only)."""
    decks = []
    for number, deck in enumerate(header.decks, start=1):
        if seat is None or seat == number:
            decks.append({"seat": number, "deck": msgspec.to_builtins(deck)})
    out: dict[str, Any] = {"players": list(header.players), "decks": decks}
    for key in ("event", "round", "table", "date", "forked_from", "forked_at"):
        value = getattr(header, key, None)
        if value is not None:
            out[key] = value
    if header.seats is not None:
        out["seats"] = list(header.seats)
    return out


def verification(header: Header, envelopes: list[Envelope[Any]], end: Any = None, *, signer: str | None = None,
                 finished: bool | None = None, file: bool = False) -> dict[str, Any]:
    """The badge the page shows: ``{"ok", "text", "detail"}``. The hash chain and every commitment
    are checked (``kifu verify``'s checks); a record file's end mark and signature with
    ``signing.check`` (``end``); a served match is vouched for by the service's own key
    (``signer``: the name its records are signed with), unsigned without one. ``file``: the
    envelopes are a record file's, which must end with its end mark once the match is over."""
    from kifu.domain.core.signing import check, no_end_mark

    broken = first_broken_link(header, envelopes)
    if broken is not None:
        return {"ok": False, "text": "does not verify",
                "detail": f"hash chain broken at seq {broken}: that event was changed after recording"}
    done = end is not None if finished is None else finished
    sealed = first_broken_seal(header, envelopes, finished=done and end is not None)
    if sealed is not None:
        return {"ok": False, "text": "does not verify", "detail": f"commitment broken at seq {sealed[0]}: {sealed[1]}"}
    if end is not None:
        verdict = check(header, envelopes, end)
        if not verdict.ok:
            return {"ok": False, "text": "does not verify", "detail": verdict.text}
        name = getattr(end, "signer", None) if getattr(end, "signature", None) else None
        return {"ok": True, "text": f"verified · signed by {name}" if name else "verified · unsigned",
                "detail": f"hash chain intact, {len(envelopes)} events; {verdict.text}"}
    if done and end is None and signer is None and finished is True and file:
        return {"ok": False, "text": "does not verify", "detail": no_end_mark(envelopes)}
    if not done:
        return {"ok": True, "text": "verified so far · in progress",
                "detail": f"hash chain intact to seq {len(envelopes)}; no end mark yet (the match goes on)"}
    return {"ok": True, "text": f"verified · signed by {signer}" if signer else "verified · unsigned",
            "detail": f"hash chain intact, {len(envelopes)} events, every commitment opens"
                      + (f"; the service signs its record as {signer!r}" if signer else "; the service has no key")}


def turns_of(ruleset: Ruleset[Any, Any, Any], header: Header, envelopes: list[Envelope[Any]]) -> list[int]:
    """The turn after each seq (index 0: before the first event), for the timeline's turn marks."""
    state = ruleset.decider.initial_state(header)
    return [ruleset.presentation.turn(state), *turns_after(ruleset, state, envelopes)]


def turns_after(ruleset: Ruleset[Any, Any, Any], state: Any, envelopes: list[Envelope[Any]]) -> list[int]:
    """The turn after each of ``envelopes``, folded on from ``state`` (a live match's new events)."""
    evolve = record_evolve(ruleset)
    turns = []
    for env in envelopes:
        state = evolve(state, env.event)
        turns.append(ruleset.presentation.turn(state))
    return turns


def _short(value: Any) -> Any:
    if isinstance(value, (dict, list, tuple)) and len(json.dumps(value, ensure_ascii=False)) > LONG_VALUE:
        return "{…}" if isinstance(value, dict) else f"[… {len(value)}]"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    return value


def arrow_of(event: Any) -> list[int] | None:
    """Who → whom, for the page's arrow: the event's first single card, then its next single card
    or target (a target may pack a card with a place: both ids); None when it names no pair."""
    if not isinstance(event, msgspec.Struct):
        return None
    roles = {f.key or f.name: f.role for f in roles_of(type(event))}
    raw = msgspec.to_builtins(event)
    arrow: list[tuple[int, str]] = []
    for key, value in raw.items():
        role = roles.get(key, "")
        if role in ("card", "target") and isinstance(value, int) and value != HIDDEN and (arrow or role == "card"):
            arrow.append((value, role))
            if len(arrow) == 2:
                break
    if len(arrow) < 2 or arrow[0][0] == arrow[1][0]:
        return None
    (source, _), (target, role) = arrow
    return [source, target] if role == "card" else [source, target, target // PACK]
