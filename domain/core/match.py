"""A match in memory: header, envelopes and current state, driven through a ruleset. Pure.

This is the one path every front end uses (CLI, store, service, audit): decide a command on the
current state, number, chain and seal the events, fold them in.
"""
from __future__ import annotations

from typing import Any, Iterable

import msgspec

from .draft import Draft, seal
from .envelope import Envelope, genesis, link, canonical, state_digest
from .errors import Illegal, MatchOver, NotYourDecision
from .header import Header
from .rng import Rng
from .ruleset import Outcome, Ruleset


class Match:
    __slots__ = ("ruleset", "header", "state", "envelopes", "head")

    def __init__(self, ruleset: Ruleset[Any, Any, Any], header: Header, state: Any,
                 envelopes: list[Envelope[Any]], head: str) -> None:
        self.ruleset = ruleset
        self.header = header
        self.state = state
        self.envelopes = envelopes
        self.head = head

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def create(cls, ruleset: Ruleset[Any, Any, Any], *, match_id: str, seed: int,
               decks: list[Any], players: tuple[str, str], start: Any = None,
               forked_from: str | None = None, forked_at: int | None = None) -> "Match":
        """Validate decks, write the header and run the setup (shuffles, hearts, coin)."""
        decks = ruleset.normalize_decks(list(decks))
        header = Header(match_id=match_id, ruleset=ruleset.name, rules_version=ruleset.rules_version,
                        card_set=ruleset.card_set_digest(), seed=seed, players=players,
                        decks=tuple(decks), start=start, forked_from=forked_from, forked_at=forked_at)
        return cls.start(ruleset, header)

    @classmethod
    def start(cls, ruleset: Ruleset[Any, Any, Any], header: Header) -> "Match":
        """Run the setup of ``header`` through today's engine (also how an audit starts)."""
        match = cls(ruleset, header, ruleset.initial_state(header), [], genesis(canonical(header)))
        draft: Draft[Any, Any] = Draft(match.state, 1, Rng.for_seq(header.seed, 0), ruleset.evolve)
        ruleset.begin(header, match.state, draft)
        match._append(seal(draft.envelopes, state_digest(draft.state)), draft.state)
        return match

    @classmethod
    def empty(cls, ruleset: Ruleset[Any, Any, Any], header: Header) -> "Match":
        return cls(ruleset, header, ruleset.initial_state(header), [], genesis(canonical(header)))

    @classmethod
    def fold(cls, ruleset: Ruleset[Any, Any, Any], header: Header,
             envelopes: Iterable[Envelope[Any]]) -> "Match":
        """Rebuild from stored events by folding only: no decide, no randomness."""
        match = cls.empty(ruleset, header)
        evolve = ruleset.evolve
        state = match.state
        head = match.head
        out = match.envelopes
        for env in envelopes:
            state = evolve(state, env.event)
            head = env.chain or head
            out.append(env)
        match.state, match.head = state, head
        return match

    # -- reading ------------------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return len(self.envelopes)

    @property
    def awaiting(self) -> int | None:
        return self.ruleset.awaiting(self.state)

    @property
    def outcome(self) -> Outcome | None:
        return self.ruleset.outcome(self.state)

    def legal(self, seat: int) -> list[Any]:
        return self.ruleset.legal(self.state, seat)

    # -- deciding -----------------------------------------------------------------------------
    def decide(self, seat: int, command: Any) -> tuple[list[Envelope[Any]], Any]:
        """The events ``command`` by ``seat`` would add (chained, sealed) and the state after them.

        Changes nothing: the store saves the events first and only then calls ``extend``."""
        outcome = self.outcome
        if outcome is not None:
            raise MatchOver(self.header.match_id, outcome.describe())
        waiting = self.awaiting
        if waiting != seat:
            clause = self.ruleset.waiting_clause(self.state) if self.ruleset.waiting_clause else ""
            raise NotYourDecision(clause or self.ruleset.decide_clause or "turn",
                                  f"seat {seat} may not decide now; the rules wait for seat {waiting}")
        next_seq = self.seq + 1
        draft: Draft[Any, Any] = Draft(self.state, next_seq, Rng.for_seq(self.header.seed, next_seq),
                                       self.ruleset.evolve)
        self.ruleset.decide(self.state, seat, command, draft)
        if not draft.envelopes:
            raise Illegal(self.ruleset.decide_clause or "?", f"{command!r} had no effect")
        envelopes = seal(draft.envelopes, state_digest(draft.state))
        return self._chain(envelopes), draft.state

    def submit(self, seat: int, command: Any) -> list[Envelope[Any]]:
        envelopes, state = self.decide(seat, command)
        self.accept(envelopes, state)
        return envelopes

    def accept(self, envelopes: list[Envelope[Any]], state: Any) -> None:
        """Take in what ``decide`` produced (after the store saved it) without folding twice."""
        self.envelopes.extend(envelopes)
        self.state = state
        self.head = envelopes[-1].chain

    def _chain(self, envelopes: list[Envelope[Any]]) -> list[Envelope[Any]]:
        head = self.head
        out = []
        for env in envelopes:
            head = link(head, env)
            out.append(msgspec.structs.replace(env, chain=head))
        return out

    def _append(self, envelopes: list[Envelope[Any]], state: Any) -> None:
        chained = self._chain(envelopes)
        self.envelopes.extend(chained)
        self.state = state
        if chained:
            self.head = chained[-1].chain

    def extend(self, envelopes: list[Envelope[Any]]) -> None:
        """Fold already-decided (stored) envelopes in, as the store does after a save."""
        evolve = self.ruleset.evolve
        state = self.state
        for env in envelopes:
            state = evolve(state, env.event)
        self.envelopes.extend(envelopes)
        self.state = state
        if envelopes:
            self.head = envelopes[-1].chain
