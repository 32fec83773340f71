"""A match in memory: header, envelopes and current state, driven through a ruleset. Pure.

This is the one path every front end uses (CLI, store, service, audit): decide a command on the
current state, number, chain and seal the events, fold them in. It also keeps what the core
itself owns across rulesets:

- which seats are awaited and, per seat, the seq its pending decision is based on (``since``):
  a decision is stale only when *that seat's* basis moved, so two seats choosing at once both
  land, in either order;
- sealed decisions (``commit.py``): each awaited seat's secret choice is recorded as a
  commitment, and revealed once every awaited seat has chosen;
- the committed seed, revealed when the match ends;
- the record's format (``Header.format``): format 2 draws from the keyed generator, derives
  seal salts instead of writing them, and digests the ruleset's canonical state at checkpoints;
  format 1 (records written before it, re-run by an audit) draws from SplitMix64, keeps each
  salt in its seal and digests the State struct at every decision.

A match played in memory whose record is read once, at the end (self-play, the bench), may
``seal_later``: its decisions' digests and chain links are then worked out when the record is
first read (``envelopes``, ``head``) by folding those decisions once more — the same bytes as
sealing each decision as it is taken, without paying for it on every decision of the play.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

from .clauses import implements
from .commit import (
    REVEAL_CLAUSE,
    SEAL_CLAUSE,
    SEED_CLAUSE,
    ChoiceRevealed,
    ChoiceSealed,
    PositionPrepared,
    SeedRevealed,
    seal,
)
from .draft import Draft
from .draft import seal as stamp_digest
from .envelope import DECISION, JUDGE, Envelope, chained, checkpoint, digest_of, genesis, link, state_digest
from .errors import Conflict, Illegal, MatchOver, NotYourDecision
from .header import Header, header_bytes
from .judgefold import judge_cases, moves_bases
from .rng import KEYED_FORMAT, Draws, Rng, for_decision, match_key, seal_salt
from .ruleset import Outcome, Ruleset

NOBODY: frozenset[int] = frozenset()


def record_evolve(ruleset: Ruleset[Any, Any, Any]) -> Callable[[Any, Any], Any]:
    """The ruleset's ``evolve`` extended to the core's events (built once per ruleset)."""
    return ruleset.memo("record_evolve", lambda: _record_evolve(ruleset))


def _record_evolve(ruleset: Ruleset[Any, Any, Any]) -> Callable[[Any, Any], Any]:
    evolve = ruleset.decider.evolve
    # one lookup per event (every event of every record comes here): the core's own events, and the
    # ruleset's where it declares its cases; anything else goes to its evolve
    cases = {**(ruleset.speedups.evolve_cases or {}), **_CORE_FOLDS, **judge_cases(ruleset)}.get

    def fold(state: Any, event: Any) -> Any:
        case = cases(type(event))
        return evolve(state, event) if case is None else case(state, event)

    return fold


_SEALING = frozenset((ChoiceSealed, ChoiceRevealed))   # the events that open and close a seat's seal

# the core's own events: a reveal and the seed change nothing; a prepared position replaces the state
_CORE_FOLDS: dict[type, Callable[[Any, Any], Any]] = {
    ChoiceRevealed: lambda state, event: state,
    SeedRevealed: lambda state, event: state,
    PositionPrepared: lambda state, event: event.state,
}


def command_of(ruleset: Ruleset[Any, Any, Any], event: Any) -> Any:
    """The command a decision event records: a seal's sealed choice, or the ruleset's own mapping."""
    if isinstance(event, ChoiceSealed):
        try:
            return None if event.choice is None else ruleset.command_from_builtins(event.choice)
        except msgspec.ValidationError:
            return None           # not one of the ruleset's commands: nothing to re-run
    return ruleset.decider.command_of(event)


def _digester(ruleset: Ruleset[Any, Any, Any], fmt: int) -> Callable[[Any], str]:
    """The state digest of a record of format ``fmt``: format 1's of the State struct, format 2's of
    the ruleset's canonical encoding (``Decider.canonical_state``)."""
    if fmt < KEYED_FORMAT:
        return state_digest
    encode = ruleset.decider.canonical_state
    return lambda state: digest_of(encode(state))


def state_digest_for(ruleset: Ruleset[Any, Any, Any], fmt: int, state: Any) -> str:
    """The digest a record of format ``fmt`` writes for ``state``."""
    return _digester(ruleset, fmt)(state)


class Match:
    __slots__ = ("ruleset", "decider", "_options", "header", "_state",
                 "_awaited", "_envelopes", "_head", "_since", "_seals", "_tracked",
                 "_evolve", "_later", "_open", "_fmt", "_key", "_digest")

    def __init__(self, ruleset: Ruleset[Any, Any, Any], header: Header, state: Any,
                 envelopes: list[Envelope[Any]], head: str | None = None) -> None:
        """``head``: the chain link of the last envelope; None before any, the header's hash, worked
        out when first asked for (a record read from the store ends on a link of its own, and a
        prepared position's header is tens of KB to encode again)."""
        self.ruleset = ruleset
        self.decider = ruleset.decider                        # the game's functions, bound once
        self._options = ruleset.speedups.options or ruleset.decider.legal
        self.header = header
        self._state = state
        self._awaited: frozenset[int] | None = None       # awaiting, kept until the state changes
        self._envelopes = envelopes
        self._head = head
        self._since: dict[int, int] = {}                       # seat -> seq its pending decision is based on
        self._seals: dict[int, tuple[int, ChoiceSealed]] = {}  # seat -> (seq, seal) not yet revealed
        self._tracked = True                                   # _since and _seals are up to date
        self._evolve = record_evolve(ruleset)
        self._later = False                                    # seal_later: digests and links when read
        self._open: tuple[int, Any, list[int]] | None = None   # unsealed: (first index, state before it,
        #                                                        index of each decision's last envelope)
        self._fmt = header.format
        keyed = header.format >= KEYED_FORMAT
        self._key = match_key(header.seed, header.seed_nonce) if keyed else b""
        self._digest = _digester(ruleset, header.format)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def create(cls, ruleset: Ruleset[Any, Any, Any], *, match_id: str, seed: int,
               decks: list[Any], players: tuple[str, str], start: Any = None,
               forked_from: str | None = None, forked_at: int | None = None,
               seed_commitment: str | None = None, seed_nonce: str | None = None,
               position: str | None = None, seats: tuple[str, str] | None = None,
               forked_chain: str | None = None, **tournament: str | None) -> Match:
        """Validate decks, write the header and run the setup (shuffles, hearts, coin).

        ``position``: the text of ``start`` when a person gave it (the header keeps it as given);
        ``tournament``: the header's optional event, round, table and date; ``seats``: who decides
        at each seat ("human" or a bot's name), where the creator knows."""
        decks = ruleset.content.normalize_decks(list(decks))
        header = Header(match_id=match_id, ruleset=ruleset.name, rules_version=ruleset.rules_version,
                        card_set=ruleset.content.card_set_digest(), seed=seed, players=players,
                        decks=tuple(decks), start=start, forked_from=forked_from, forked_at=forked_at,
                        seed_commitment=seed_commitment, seed_nonce=seed_nonce, position=position, seats=seats,
                        forked_chain=forked_chain, event=tournament.get("event"), round=tournament.get("round"),
                        table=tournament.get("table"), date=tournament.get("date"))
        return cls.start(ruleset, header)

    @classmethod
    @implements("K-prepared")
    def start(cls, ruleset: Ruleset[Any, Any, Any], header: Header) -> Match:
        """Run the setup of ``header`` through today's engine (also how an audit starts)."""
        match = cls.empty(ruleset, header)
        draft: Draft[Any, Any] = Draft(match.state, 1, match.draws(0), match._evolve)
        decider = ruleset.decider
        if header.start is not None:
            start = msgspec.convert(header.start, decider.state_type) if isinstance(header.start, dict) \
                else header.start
            draft.setup(decider.prepared_clause, PositionPrepared(state=start))
        else:
            decider.begin(header, match.state, draft)
        envelopes = stamp_digest(draft.envelopes, match._digest(draft.state))
        match._absorb(match._chain(envelopes), draft.state, NOBODY)
        return match

    @classmethod
    def empty(cls, ruleset: Ruleset[Any, Any, Any], header: Header) -> Match:
        return cls(ruleset, header, ruleset.decider.initial_state(header), [])

    @classmethod
    def fold(cls, ruleset: Ruleset[Any, Any, Any], header: Header,
             envelopes: Iterable[Envelope[Any]]) -> Match:
        """Rebuild from stored events by folding only: no decide, no randomness."""
        match = cls.empty(ruleset, header)
        match._tracked = False     # bases and seals wait until a decision needs them (``_track``)
        match.extend(list(envelopes))
        return match

    def draws(self, seq: int) -> Draws:
        """The generator of the decision starting at ``seq`` (the setup's at 0), for the record's format."""
        return for_decision(self._fmt, self.header.seed, self._key, seq)

    def salt(self, seq: int, seat: int) -> str:
        """Format 2: the salt of ``seat``'s seal at ``seq``, derived from the match key (never written
        before its reveal)."""
        return seal_salt(self._key, seq, seat)

    def _checkpoint(self, first: int, last: int, state: Any) -> bool:
        """Is the decision spanning ``first``..``last`` digested? Every one in format 1."""
        return self._fmt < KEYED_FORMAT or checkpoint(first, last, self.decider.outcome(state) is not None)

    def seal_later(self) -> Match:
        """Seal the decisions submitted from now on when the record is first read, not one by one."""
        self._later = True
        return self

    # -- reading ------------------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return len(self._envelopes)

    @property
    def envelopes(self) -> list[Envelope[Any]]:
        """The record's envelopes, every one sealed (digest on each decision's last, chained)."""
        if self._open is not None:
            self._seal_open()
        return self._envelopes

    @envelopes.setter
    def envelopes(self, envelopes: list[Envelope[Any]]) -> None:
        self._seal_open()
        self._envelopes = envelopes

    @property
    def head(self) -> str:
        """The chain link of the last envelope (the header's hash before any)."""
        if self._open is not None:
            self._seal_open()
        if self._head is None:
            self._head = genesis(header_bytes(self.header))
        return self._head

    @head.setter
    def head(self, head: str) -> None:
        self._head = head

    def _seal_open(self) -> None:
        """Digest and chain the decisions ``seal_later`` left open, folding them once more."""
        if self._open is None:
            return
        start, state, ends = self._open
        self._open = None
        envelopes, evolve, head, fmt = self._envelopes, self._evolve, self.head, self._fmt
        last = set(ends)
        first = start
        for index in range(start, len(envelopes)):
            env = envelopes[index]
            state = evolve(state, env.event)
            if index in last:
                if self._checkpoint(envelopes[first].seq, env.seq, state):
                    env = msgspec.structs.replace(env, digest=self._digest(state))
                first = index + 1
            head = link(head, env, fmt)
            envelopes[index] = msgspec.structs.replace(env, chain=head)
        self._head = head

    @property
    def state(self) -> Any:
        return self._state

    @state.setter
    def state(self, state: Any) -> None:
        self._state = state
        self._awaited = None

    @property
    def awaiting(self) -> frozenset[int]:
        """The seats the rules wait for now (none once the match is over)."""
        awaited = self._awaited
        if awaited is None:
            state = self._state
            rules = self.decider
            awaited = self._awaited = NOBODY if rules.outcome(state) is not None else rules.awaiting(state)
        return awaited

    @property
    def deciding(self) -> int | None:
        """The seat the rules await when exactly one is (WORLFARD: always); None for none or several."""
        awaited = self.awaiting
        return next(iter(awaited)) if len(awaited) == 1 else None

    @property
    def outcome(self) -> Outcome | None:
        return self.decider.outcome(self._state)

    def legal(self, seat: int) -> list[Any]:
        return self.decider.legal(self.state, seat)

    def options(self, seat: int) -> Sequence[Any]:
        """``legal`` as bots are shown it: the ruleset's ``options`` (each built when read) where it has them."""
        return self._options(self._state, seat)

    def basis(self, seat: int) -> int:
        """The seq ``seat``'s pending decision is based on: a decision based on an older seq is stale."""
        if not self._tracked:
            self._track()
        return self._since.get(seat, len(self._envelopes))

    # -- deciding -----------------------------------------------------------------------------
    def decide(self, seat: int, command: Any, basis: int | None = None,
               received: str | None = None, by: str | None = None) -> tuple[list[Envelope[Any]], Any]:
        """The events ``command`` by ``seat`` would add (chained, sealed) and the state after them.

        ``basis``: the seq the decision was made at (a client's view); stale -> ``Conflict``.
        Changes nothing: the store saves the events first and only then calls ``accept``."""
        self._check(seat, basis)
        return self._stamped(self._decided(seat, command, received, by))

    def _check(self, seat: int, basis: int | None) -> None:
        """Refuse a decision when the match is over, the basis is stale or it is not ``seat``'s turn."""
        rules = self.decider
        waiting = self.awaiting      # nobody once the match is over: an awaited seat needs no outcome check
        if seat not in waiting:
            outcome = rules.outcome(self._state)
            if outcome is not None:
                raise MatchOver(self.header.match_id, outcome.describe())
        if basis is not None and not self.basis(seat) <= basis <= len(self._envelopes):
            raise Conflict(self.header.match_id, basis, self.seq)   # decided on a view that moved on
        if seat not in waiting:
            clause = rules.waiting_clause(self.state) if rules.waiting_clause else ""
            who = " and ".join(f"seat {s}" for s in sorted(waiting)) or "nobody"
            raise NotYourDecision(clause or rules.decide_clause or "turn",
                                  f"seat {seat} may not decide now; the rules wait for {who}")

    @implements("K-seed")
    def _decided(self, seat: int, command: Any, received: str | None,
                 by: str | None = None) -> tuple[list[Envelope[Any]], Any]:
        """The events of a decision checked to be this seat's, not yet digested or chained."""
        rules = self.decider
        next_seq = len(self._envelopes) + 1
        draft: Draft[Any, Any] = Draft(self._state, next_seq, None, self._evolve, self.draws)
        if rules.sealed(self._state):
            self._seal(seat, command, draft)
        else:
            rules.decide(self._state, seat, command, draft)
        if not draft.envelopes:
            raise Illegal(rules.decide_clause or "?", f"{command!r} had no effect")
        if self.header.seed_nonce is not None and rules.outcome(draft.state) is not None:
            draft.rule(SEED_CLAUSE, next_seq, SeedRevealed(seed=self.header.seed, nonce=self.header.seed_nonce))
        envelopes = draft.envelopes
        if received is not None:   # the time is an input, like the command: decide reads no clock
            envelopes[0] = msgspec.structs.replace(envelopes[0], received=received)
        if by is not None:         # so is who took it, when not the header's seat (a takeover)
            envelopes[0] = msgspec.structs.replace(envelopes[0], by=by)
        return envelopes, draft.state

    def _stamped(self, decided: tuple[list[Envelope[Any]], Any]) -> tuple[list[Envelope[Any]], Any]:
        """A decision's events sealed: the state digest on the last (at a checkpoint), each chained."""
        envelopes, state = decided
        if envelopes and self._checkpoint(envelopes[0].seq, envelopes[-1].seq, state):
            stamp_digest(envelopes, self._digest(state))
        return self._chain(envelopes), state

    @implements("K-seal", "K-reveal")
    def _seal(self, seat: int, command: Any, draft: Draft[Any, Any]) -> None:
        """Record a secret choice as its commitment; reveal every seal once nobody is left choosing."""
        rules = self.decider
        if command not in rules.legal(self.state, seat):
            # the ruleset's own decide says which clause forbids it (on a scratch draft, thrown away)
            scratch: Draft[Any, Any] = Draft(self.state, draft.next_seq, Rng(0), self._evolve)
            rules.decide(self.state, seat, command, scratch)
            clause = rules.waiting_clause(self.state) if rules.waiting_clause else ""
            raise Illegal(clause or SEAL_CLAUSE, f"{command!r} is not one of seat {seat}'s choices now")
        keyed = self._fmt >= KEYED_FORMAT
        if keyed:     # format 2: the salt is derived again at the reveal, written nowhere before it
            sealed = msgspec.structs.replace(seal(command, self.salt(draft.next_seq, seat)), seat=seat, salt=None)
        else:         # format 1: two draws of the decision's generator, kept in the judge's copy
            drawn = f"{draft.rng.next_u64():016x}{draft.rng.next_u64():016x}"
            sealed = msgspec.structs.replace(seal(command, drawn), seat=seat)
        seq = draft.decision(seat, sealed, SEAL_CLAUSE)
        pending = {**self.seals, seat: (seq, sealed)}
        if rules.awaiting(draft.state):
            return
        reveals = {}
        for chooser in sorted(pending):          # all at once: every choice is open before any is applied
            seal_seq, chosen = pending[chooser]
            opened = self.salt(seal_seq, chooser) if keyed else chosen.salt
            assert chosen.choice is not None and opened is not None
            revealed = ChoiceRevealed(seat=chooser, choice=chosen.choice, salt=opened)
            reveals[chooser] = draft.rule(REVEAL_CLAUSE, seal_seq, revealed, seat=chooser)
        for chooser, reveal_seq in reveals.items():
            draft.revealing = reveal_seq
            rules.decide(draft.state, chooser, self.ruleset.command_from_builtins(pending[chooser][1].choice), draft)
        draft.revealing = None

    def submit(self, seat: int, command: Any, basis: int | None = None,
               received: str | None = None, by: str | None = None) -> list[Envelope[Any]]:
        """Decide and take the events in; under ``seal_later`` they are returned unsealed."""
        if not self._later:
            envelopes, state = self.decide(seat, command, basis, received, by)
            self.accept(envelopes, state)
            return envelopes
        self._check(seat, basis)
        envelopes, state = self._decided(seat, command, received, by)
        if self._open is None:
            self._open = (len(self._envelopes), self._state, [])
        self._open[2].append(len(self._envelopes) + len(envelopes) - 1)
        self.accept(envelopes, state)
        return envelopes

    def accept(self, envelopes: list[Envelope[Any]], state: Any) -> None:
        """Take in what ``decide`` produced (after the store saved it) without folding twice."""
        self._absorb(envelopes, state, self.awaiting)

    def extend(self, envelopes: list[Envelope[Any]]) -> None:
        """Fold already-decided (stored) envelopes in, as the store does after a save.

        A match read from the store (``fold``) only folds: the seats' bases and open seals are
        worked out when a decision first needs them (``_track``), so reading a match (a replay, an
        audit, the bench's fold) never pays for them. A match already tracked (the service's cached
        match catching up on another process's decisions) moves them along with the new events
        instead, so its next decision does not fold the whole record again."""
        if not envelopes:
            return
        if self._open is not None:
            self._seal_open()
        if self._tracked:
            self._absorb_groups(envelopes, self._state, self.awaiting)
            return
        evolve, run = self._evolve, self.ruleset.speedups.evolve_run
        state = self._state
        if run is not None:
            state = run(state, [env.event for env in envelopes], evolve)
        else:
            for env in envelopes:
                state = evolve(state, env.event)
        self._envelopes.extend(envelopes)
        self.state = state
        self.head = envelopes[-1].chain or self.head

    @property
    def since(self) -> dict[int, int]:
        self._track()
        return self._since

    @property
    def seals(self) -> dict[int, tuple[int, ChoiceSealed]]:
        self._track()
        return self._seals

    def _track(self) -> None:
        """Work out each seat's basis and the open seals by folding the record once more, with the
        rules at rest at each decision's start."""
        if self._tracked:
            return
        envelopes, final = self.envelopes, (self._state, self.head)
        self.envelopes, self._state, self._awaited = [], self.decider.initial_state(self.header), None
        self._since, self._seals, self._tracked = {}, {}, True
        self._absorb_groups(envelopes, self._state, NOBODY)
        self.state, self.head = final

    def _absorb_groups(self, envelopes: list[Envelope[Any]], state: Any, before: frozenset[int]) -> None:
        """Fold ``envelopes`` from ``state``, absorbing them a decision's events at a time."""
        evolve = self._evolve
        group: list[Envelope[Any]] = []
        for env in envelopes:
            if env.kind is DECISION or env.kind == DECISION or env.kind == JUDGE:   # a judge's act: its own group
                if group:
                    self._absorb(group, state, before)
                    before = self.awaiting
                    group = []
            state = evolve(state, env.event)
            group.append(env)
        if group:
            self._absorb(group, state, before)

    def _absorb(self, envelopes: list[Envelope[Any]], state: Any, before: frozenset[int]) -> None:
        """Append one decision's (or the setup's) events and move the seats' bases."""
        mine = self._envelopes
        mine.extend(envelopes)
        self._state, self._awaited = state, None
        if not envelopes:
            return
        self._head = envelopes[-1].chain or self._head     # (no chain yet under seal_later)
        if not self._tracked:
            return                # worked out from the whole record when a decision needs it
        first = envelopes[0]
        if type(first.event) is ChoiceSealed:   # seals and reveals only ever follow a seal (``_seal``)
            seals = self._seals
            for env in envelopes:
                kind = type(env.event)
                if kind in _SEALING:
                    event = env.event
                    if kind is ChoiceSealed:
                        seals[event.seat] = (env.seq, event)
                    else:
                        seals.pop(event.seat, None)
        decided_by = first.seat if first.kind == DECISION else None
        after = self.awaiting
        since = self._since
        if first.kind == JUDGE and moves_bases(first.event):   # a backup: every pending decision is stale
            since.clear()
            before = NOBODY
        for seat in tuple(since):
            if seat not in after:
                del since[seat]
        for seat in after:
            if seat == decided_by or seat not in before or seat not in since:
                since[seat] = len(mine)

    def _chain(self, envelopes: list[Envelope[Any]]) -> list[Envelope[Any]]:
        return chained(self.head, envelopes, self._fmt)
