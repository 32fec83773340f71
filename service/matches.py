"""The match application service: what the HTTP layer calls, with no HTTP in it.

Each method is a few lines: authenticate, load, decide, save, and shape what the caller may see.
Seats get events through the ruleset's ``redact`` and views through its ``view``; the judge
gets everything. Blocking (database) calls: the web layer runs these in worker threads.
"""
from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from typing import Any, cast

import msgspec

from kifu.domain.core.commit import seed_commitment
from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import KifuError, Malformed, UnknownMatch, UnknownRuleset
from kifu.domain.core.judging import IPG, PenaltyList, act_of
from kifu.domain.core.match import Match
from kifu.domain.core.notes import Note, for_role, make
from kifu.domain.core.record import encode_record
from kifu.domain.core.ruleset import Ruleset, find_ruleset
from kifu.domain.core.signing import Signer, closing_mark, sign_note
from kifu.domain.core.visibility import SeatStream, hidden_cards, redacted, scrub, seat_view
from kifu.store import MatchStore
from kifu.store.clock import utc_now
from kifu.store.notes import NoteStore

from . import api
from .tokens import TokenStore, seat_of

EVENTS_PAGE = 1000
EVENTS_PAGE_MAX = 5000

Caller = int | None  # a seat, or None for the judge




class Unauthorized(KifuError):
    """No token, or a token that is no token of this match (HTTP 401)."""


class Forbidden(KifuError):
    """A valid token asking for what its role may not do or see (HTTP 403)."""


class MatchService:
    def __init__(self, store: MatchStore, tokens: TokenStore, *,
                 on_change: Callable[[str], None] | None = None, signer: Signer | None = None,
                 rulesets: list[str] | None = None, notes: NoteStore | None = None,
                 penalties: PenaltyList = IPG) -> None:
        self.store = store
        self.notes = notes or NoteStore.open(store.config)
        self.penalties = penalties   # the list a judge's penalty must come from
        self.rulesets = rulesets     # the rulesets matches may be created in (None: every one registered)
        self.tokens = tokens
        self.signer = signer   # signs the end mark of a finished match's record
        self.on_change = on_change or (lambda match_id: None)
        # a match created for a tournament plays its registered lists (kifu.service.events sets this)
        self.deck_check: Callable[[api.CreateMatch, list[Any]], None] | None = None

    # -- who is asking -------------------------------------------------------------------------
    def caller(self, match_id: str, token: str | None) -> Caller:
        """The seat (or None: judge) ``token`` acts for on ``match_id``; an unknown match is 404."""
        if not token:
            raise Unauthorized("this needs a token of the match: send 'Authorization: Bearer <token>'")
        role = self.tokens.role_of(match_id, token)
        if role is None:
            self.store.summary(match_id)  # UnknownMatch (404) when there is no such match at all
            raise Unauthorized(f"the token is not a token of match {match_id}")
        return seat_of(role)

    @staticmethod
    def judge_only(caller: Caller, what: str) -> None:
        if caller is not None:
            raise Forbidden(f"{what} is for the judge token only; seat {caller} may not see it")

    # -- creating ------------------------------------------------------------------------------
    def create(self, request: api.CreateMatch) -> api.MatchCreated:
        if self.rulesets is not None and request.ruleset.strip().lower() not in self.rulesets:
            raise UnknownRuleset(request.ruleset, self.rulesets)
        rules = find_ruleset(request.ruleset)
        specs = request.decks or tuple(rules.content.presets()[:2])
        if len(specs) != 2:
            raise Malformed(f"ruleset {rules.name} has no two preset decks; give decks", "decks")
        decks = [self._deck(rules, spec, seat) for seat, spec in enumerate(specs, start=1)]
        if self.deck_check is not None:
            self.deck_check(request, decks)
        seed = int.from_bytes(os.urandom(8), "big") >> 1          # drawn here: no creator chooses it
        nonce = os.urandom(16).hex()
        match = Match.create(rules, match_id=str(uuid.uuid4()), seed=seed, decks=decks, players=request.players,
                             seed_commitment=seed_commitment(seed, nonce), seed_nonce=nonce,
                             event=request.event, round=request.round, table=request.table, date=utc_now())
        issued = self.tokens.issue(match.header.match_id)   # first: a match never exists without its tokens
        self.store.create(match)
        self.on_change(match.header.match_id)
        return api.MatchCreated(match_id=match.header.match_id, ruleset=rules.name, players=match.header.players,
                                seq=match.seq, awaiting=sorted(match.awaiting), tokens=api.MatchTokens(**issued),
                                seed_commitment=match.header.seed_commitment)

    @staticmethod
    def _deck(rules: Ruleset[Any, Any, Any], spec: Any, seat: int) -> Any:
        if isinstance(spec, str):  # only preset names: a client never makes the service read a file
            presets = rules.content.presets()
            if spec not in presets:
                raise Malformed(f"no preset deck {spec!r}; presets: {', '.join(presets)}", f"decks[{seat - 1}]")
            return rules.content.load_deck(spec)
        return spec  # a deck list: Match.create has the ruleset validate it

    # -- reading -------------------------------------------------------------------------------
    def list(self) -> api.MatchList:
        return api.MatchList(matches=[api.MatchInfo(match_id=m.match_id, ruleset=m.ruleset, players=m.players,
                                                    seq=m.seq, status=m.status, outcome=m.outcome)
                                      for m in self.store.list_matches()])

    def info(self, match_id: str) -> api.MatchInfo:
        m = self.store.summary(match_id)
        return api.MatchInfo(match_id=m.match_id, ruleset=m.ruleset, players=m.players, seq=m.seq,
                             status=m.status, outcome=m.outcome,
                             seed_commitment=self.store.header(match_id).seed_commitment)

    def view(self, match_id: str, caller: Caller, position: bool = False) -> api.SeatView:
        return self.seat_view(self.store.load(match_id), caller, position)

    @staticmethod
    def seat_view(match: Match, caller: Caller, position: bool = False) -> api.SeatView:
        rules = match.ruleset
        awaiting = match.awaiting
        legal_for = caller if caller is not None else (next(iter(awaiting)) if len(awaiting) == 1 else None)
        view = seat_view(rules, match.state, caller)
        masked = None
        hiding = rules.visibility
        if position and caller is not None and hiding.mask is not None:
            masked = scrub(hiding.mask(match.state, caller), hidden_cards(rules, match.state, caller), hiding.card_refs)
        elif position and caller is None:
            masked = match.state
        return api.SeatView(match_id=match.header.match_id, ruleset=rules.name, players=match.header.players,
                            seat=caller, seq=match.seq, awaiting=sorted(awaiting), outcome=match.outcome,
                            view=view, layout=rules.presentation.layout(view), position=masked,
                            legal=match.legal(legal_for) if legal_for is not None and legal_for in awaiting else [])

    def events(self, match_id: str, caller: Caller, after: int = 0, limit: int = EVENTS_PAGE) -> api.EventsPage:
        limit = max(1, min(limit, EVENTS_PAGE_MAX))
        match = self.store.load(match_id)   # the states before each event: the scrub needs them
        page = redacted(match.ruleset, match.ruleset.decider.initial_state(match.header), match.envelopes, caller,
                        after, limit)
        return api.EventsPage(match_id=match_id, after=after, events=list(page),
                              more=len(match.envelopes) > after + limit)

    def record(self, match_id: str, caller: Caller) -> bytes:
        self.judge_only(caller, "the full record")
        match = self.store.load(match_id)
        return encode_record(match.header, match.envelopes,
                             closing_mark(match.header, match.envelopes, match.outcome, self.signer))

    # -- notes ---------------------------------------------------------------------------------
    @staticmethod
    def _role(caller: Caller) -> str:
        return "judge" if caller is None else f"seat{caller}"

    def list_notes(self, match_id: str, caller: Caller) -> api.NoteList:
        """The notes ``caller`` may see (``kifu.domain.core.notes.visible_to``); a seat's without chain links."""
        self.store.summary(match_id)            # UnknownMatch for an unknown id
        shown = for_role(self.notes.notes(match_id), self._role(caller))
        return api.NoteList(match_id=match_id, notes=[self._out(n, caller) for n in shown])

    def add_note(self, match_id: str, caller: Caller, body: api.NewNote) -> api.NoteOut:
        """A note by the judge or a seat, on an event the match has; signed by the service's key.
        A seat's note is never public: it may speak of the seat's own hidden cards."""
        if caller is not None and body.public:
            raise Forbidden("a seat's note is seen by its seat and the judge only; it cannot be public")
        match = self.store.load(match_id)
        if body.variation:
            try:
                fork = self.store.header(body.variation)
            except (UnknownMatch, ValueError):
                raise Malformed(f"no stored match {body.variation[:80]!r}", "variation") from None
            if fork.forked_from != match_id:
                raise Malformed(f"match {body.variation} was not forked from {match_id}", "variation")
        author = body.author or ("judge" if caller is None else match.header.players[caller - 1])
        note = make(match.header, match.envelopes, body.seq, author=author, at=utc_now(), text=body.text,
                    glyph=body.glyph, arrows=body.arrows, variation=body.variation, role=self._role(caller),
                    public=body.public)
        if self.signer is not None:
            note = sign_note(note, self.signer)
        return self._out(self.notes.add(note), caller)

    @staticmethod
    def _out(note: Note, caller: Caller) -> api.NoteOut:
        raw = msgspec.to_builtins(note)
        if caller is not None:
            raw["chain"] = ""
        return msgspec.convert(raw, api.NoteOut)


    # -- judging -------------------------------------------------------------------------------
    def judge(self, match_id: str, caller: Caller, body: api.JudgeAct) -> api.JudgeRecorded:
        """A judge's act, recorded in the match's stream (judge token only); refused: nothing stored."""
        if caller is not None:
            raise Forbidden(f"a judge's act is for the judge token only; seat {caller} may not record one")
        given = msgspec.structs.asdict(body)
        verb = given.pop("act")
        match, envelopes = self.store.judge(match_id, act_of(verb, given), time=utc_now(), penalties=self.penalties)
        self.on_change(match_id)
        return api.JudgeRecorded(match_id=match_id, seq=match.seq, awaiting=sorted(match.awaiting),
                                 outcome=match.outcome, events=list(envelopes))

    # -- deciding ------------------------------------------------------------------------------
    def decide(self, match_id: str, caller: Caller, decision: api.Decision) -> api.DecisionResult:
        """Stale ``seq``: ``Conflict``; illegal: ``Illegal`` (its clause); nothing stored for either."""
        if caller is None:
            raise Forbidden("the judge token takes no decisions; use a seat's token")
        rules = find_ruleset(self.store.header(match_id).ruleset)
        seq = cast(int, decision.seq)   # whole: the app made a JSON 5.0 the int 5 (app._decision)
        try:
            command = msgspec.convert(decision.command, rules.decider.command_type)
        except msgspec.ValidationError as exc:
            raise Malformed(f"not a {rules.name} command: {exc}", "command") from None

        def reply(match: Match, envelopes: list[Envelope[Any]], before: Any) -> api.DecisionResult:
            # the events since decision.seq (ours, and any that landed before it), from the match
            # the decision left: no second read or fold of the store. Usually the decision was
            # based on decision.seq, so redaction starts from the state it was made on; only when
            # another seat's decision landed in between is the match folded from its start.
            awaiting = match.awaiting
            basis = match.seq - len(envelopes)
            if basis == seq:
                events = SeatStream(rules, before, caller).redact(match.envelopes[basis:])
            else:
                start = rules.decider.initial_state(match.header)
                events = redacted(rules, start, match.envelopes, caller, seq)
            return api.DecisionResult(
                match_id=match_id, seq=match.seq, awaiting=sorted(awaiting), outcome=match.outcome,
                events=events, legal=match.legal(caller) if caller in awaiting else [])

        result = self.store.submit_then(match_id, caller, command, seq, reply, received=utc_now())
        self.on_change(match_id)
        return result
