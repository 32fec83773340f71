"""The tournament application service: load the event's stream, decide, store; create its matches.

Used by the HTTP routes (``/events``, the organiser's token) and by ``kifu event`` on a local
store alike. An event's stream lives in the match store (``MatchStore.append_entries``) under a
UUID derived from its name; its organiser token is kept like a match's judge token
(``kifu_tokens``, key ``event:NAME``). Every match it creates goes through ``MatchService.create``
with the registered lists, so the deck check (``check_decks``) runs on every one of them.
"""
from __future__ import annotations

import uuid
from typing import Any

from kifu.domain.core.errors import Conflict, Illegal, Malformed
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.core.signing import check, closing_mark
from kifu.domain.tournament import decide, evolve, fold
from kifu.domain.tournament import events as ev
from kifu.domain.tournament.decide import decided
from kifu.domain.tournament.decklists import builtins, commitment, differences
from kifu.domain.tournament.standings import Standings, standings
from kifu.domain.tournament.state import State, TableState
from kifu.store import MatchStore
from kifu.store.clock import utc_now

from . import api
from . import event_api as wire
from .matches import MatchService, Unauthorized
from .tokens import TokenStore

NAMESPACE = uuid.UUID("6b1f0e5c-4a0e-4f57-9d55-6b6966750001")   # event streams: uuid5(NAMESPACE, name)
ATTEMPTS = 8
MAX_GAMES = 9           # a top-cut table that keeps drawing: the organiser steps in


class UnknownEvent(Malformed):
    def __init__(self, name: str) -> None:
        super().__init__(f"unknown event {name!r} (kifu event new makes one)")


def stream_of(name: str) -> uuid.UUID:
    return uuid.uuid5(NAMESPACE, f"kifu.event/{name}")


def token_key(name: str) -> str:
    return f"event:{name}"


class EventService:
    def __init__(self, store: MatchStore, tokens: TokenStore, matches: MatchService) -> None:
        self.store = store
        self.tokens = tokens
        self.matches = matches
        matches.deck_check = self.check_decks

    # -- who is asking -------------------------------------------------------------------------
    def organiser(self, name: str, token: str | None) -> None:
        """The organiser's token (the one ``create`` returned), or 401."""
        if not token:
            raise Unauthorized("this needs the event's organiser token: send 'Authorization: Bearer <token>'")
        if self.tokens.role_of(token_key(name), token) != "judge":
            self.load(name)       # an unknown event is 404-like (UnknownEvent) before the token is wrong
            raise Unauthorized(f"the token is not the organiser token of event {name}")

    # -- the stream ----------------------------------------------------------------------------
    def load(self, name: str) -> State:
        state = fold(e.event for e in self.store.entries(stream_of(name)))
        if state.created is None:
            raise UnknownEvent(name)
        return state

    def _apply(self, name: str, command: Any) -> State:
        """Decide ``command`` on the stored event and store its events (decided again when
        another writer's entries landed first); the state after them."""
        for _ in range(ATTEMPTS):
            entries = self.store.entries(stream_of(name))
            state = fold(e.event for e in entries)
            seq = len(entries)
            new: list[ev.Event] = []
            for event in decide(state, command):
                new.append(event)
                state = evolve(state, event)
            at = utc_now()
            rows = [ev.Entry(seq=seq + i, event=e, at=at) for i, e in enumerate(new, start=1)]
            try:
                self.store.append_entries(stream_of(name), rows)
            except Conflict:
                continue
            return state
        raise Illegal("E-busy", f"event {name}: too many writers at once; try again")

    # -- commands ------------------------------------------------------------------------------
    def create(self, request: wire.CreateEvent) -> wire.EventCreated:
        rules = find_ruleset(request.ruleset)
        if self.matches.rulesets is not None and rules.name not in self.matches.rulesets:
            raise Malformed(f"ruleset {rules.name} is not offered here")
        self._apply(request.name, ev.Create(name=request.name, ruleset=rules.name, rounds=request.rounds,
                                            top_cut=request.top_cut, best_of=request.best_of))
        issued = self.tokens.issue(token_key(request.name))
        return wire.EventCreated(name=request.name, ruleset=rules.name, organiser_token=issued["judge"])

    def register(self, name: str, player: str, deck: Any, deck_name: str, *, judge: str | None = None,
                 reason: str | None = None) -> wire.PlayerInfo:
        """``deck``: a deck struct or list; the ruleset validates it here (``InvalidDeck``)."""
        state = self.load(name)
        assert state.created is not None
        rules = find_ruleset(state.created.ruleset)
        valid = rules.content.normalize_decks([deck, deck])[0]
        state = self._apply(name, ev.Register(player=player, deck_name=deck_name, deck=builtins(valid), judge=judge,
                                              reason=reason))
        return _player(state, state.players[player.strip()], True)

    def pair(self, name: str) -> wire.Paired:
        state = self._apply(name, ev.Pair())
        rnd = state.rounds[-1]
        games = [self._start(name, state, rnd.number, t) for t in rnd.tables if t.seat2 is not None]
        state = self.load(name)
        rnd = state.rounds[-1]
        return wire.Paired(round=rnd.number, stage=rnd.stage, tables=[_table(t) for t in rnd.tables], games=games)

    def _start(self, name: str, state: State, round_number: int, table: TableState) -> wire.GameInfo:
        """Create the table's next game (a match with the registered lists) and record it."""
        assert table.seat2 is not None and state.created is not None
        game = len(table.games) + 1
        first, second = (table.seat1, table.seat2) if game % 2 else (table.seat2, table.seat1)
        decks = (state.players[first].deck, state.players[second].deck)
        created = self.matches.create(api.CreateMatch(ruleset=state.created.ruleset, decks=decks,
                                                      players=(first, second), event=name, round=str(round_number),
                                                      table=str(table.table)))
        self._apply(name, ev.StartGame(round=round_number, table=table.table, match_id=created.match_id))
        return wire.GameInfo(round=round_number, table=table.table, game=game, match_id=created.match_id,
                             players=(first, second), tokens=created.tokens)

    def collect(self, name: str) -> wire.Collected:
        """Read the end marks of the current round's games: record each decided table's result,
        start the next game where a best-of needs one."""
        state = self.load(name)
        if not state.rounds:
            raise Illegal("E-pair", f"event {name} has no round paired yet")
        rnd = state.rounds[-1]
        recorded, games, still = [], [], []
        for table in rnd.tables:
            if table.done or not table.games:
                continue
            winners: list[str | None] = []
            signed = True
            over = True
            for game in table.games:
                result = self._result(game.match_id)
                if result is None:
                    over = False
                    break
                winners.append(result[0])
                signed = signed and result[1]
            if not over:
                still.append(table.table)
                continue
            if decided(state, rnd.number, table, tuple(winners)):
                state = self._apply(name, ev.Record(round=rnd.number, table=table.table, winners=tuple(winners),
                                                    games=tuple(g.match_id for g in table.games), signed=signed))
                found = state.table(rnd.number, table.table)
                assert found is not None
                recorded.append(_table(found))
            elif len(table.games) >= MAX_GAMES:
                raise Illegal("E-result", f"table {table.table}: {MAX_GAMES} games without a winner; a judge "
                              "decides (kifu event correct-result)")
            else:
                games.append(self._start(name, state, rnd.number, table))
                still.append(table.table)
                state = self.load(name)
        return wire.Collected(round=rnd.number, recorded=recorded, games=games, open=still)

    def _result(self, match_id: str) -> tuple[str | None, bool] | None:
        """The game's winner (None: a draw) from its end mark, and whether the mark is signed;
        None while the match goes on."""
        match = self.store.load(match_id)
        mark = closing_mark(match.header, match.envelopes, match.outcome, self.matches.signer)
        if mark is None or match.outcome is None:
            return None
        verdict = check(match.header, match.envelopes, mark)
        if not verdict.ok:
            raise Illegal("E-result", f"match {match_id}: its end mark does not verify ({verdict.text})")
        winner = match.outcome.winner
        return (None if winner is None else match.header.players[winner - 1]), bool(mark.signature)

    def correct(self, name: str, request: wire.Correction) -> wire.TableInfo:
        state = self._apply(name, ev.Correct(round=request.round, table=request.table, wins=request.wins,
                                             draws=request.draws, judge=request.judge, reason=request.reason))
        found = state.table(request.round, request.table)
        assert found is not None
        return _table(found)

    def drop(self, name: str, player: str) -> wire.PlayerInfo:
        state = self._apply(name, ev.Drop(player=player))
        return _player(state, state.players[player], True)

    def publish(self, name: str) -> wire.EventInfo:
        self._apply(name, ev.Publish())
        return self.info(name, organiser=True)

    # -- reading -------------------------------------------------------------------------------
    def info(self, name: str, *, organiser: bool = False) -> wire.EventInfo:
        s = self.load(name)
        assert s.created is not None
        c = s.created
        return wire.EventInfo(name=c.name, ruleset=c.ruleset, rounds=s.swiss_rounds, top_cut=c.top_cut,
                              best_of=c.best_of, spec=c.spec, locked=s.locked, published=s.published,
                              players=[_player(s, p, organiser) for p in s.players.values()],
                              pairings=[wire.RoundInfo(round=r.number, stage=r.stage,
                                                       tables=[_table(t) for t in r.tables]) for r in s.rounds])

    def standings(self, name: str, upto: int | None = None) -> Standings:
        return standings(self.load(name), upto)

    def state(self, name: str) -> State:
        return self.load(name)

    def ruleset_of(self, name: str) -> str:
        created = self.load(name).created
        assert created is not None
        return created.ruleset

    # -- the deck check ------------------------------------------------------------------------
    def check_decks(self, request: api.CreateMatch, decks: list[Any]) -> None:
        """A match created for an event plays the registered lists: a deck that differs from its
        player's commitment is refused with the difference named (``E-deck-check``)."""
        if request.event is None:
            return
        entries = self.store.entries(stream_of(request.event))
        if not entries:
            return     # an event this service does not run: metadata only
        state = fold(e.event for e in entries)
        assert state.created is not None
        rules = find_ruleset(request.ruleset)
        if rules.name != state.created.ruleset:
            raise Illegal("E-deck-check", f"event {request.event} is played in {state.created.ruleset}, "
                          f"not {rules.name}")
        valid = rules.content.normalize_decks(list(decks))
        for seat, (player, deck) in enumerate(zip(request.players, valid, strict=True), start=1):
            registered = state.players.get(player)
            if registered is None:
                raise Illegal("E-deck-check", f"seat {seat}: {player} is not registered in event {request.event}")
            if commitment(deck) != registered.commitment:
                diff = differences(registered.deck, deck)
                raise Illegal("E-deck-check", f"seat {seat}: {player}'s deck is not the list registered for event "
                              f"{request.event} (commitment {registered.commitment[:12]}): "
                              + "; ".join(diff[:6]) + (f"; and {len(diff) - 6} more" if len(diff) > 6 else ""))


def _table(t: TableState) -> wire.TableInfo:
    return wire.TableInfo(table=t.table, seat1=t.seat1, seat2=t.seat2, games=[g.match_id for g in t.games],
                          wins=None if t.wins is None else list(t.wins), draws=t.draws, signed=t.signed,
                          corrected=t.corrected)


def _player(state: State, p: Any, organiser: bool) -> wire.PlayerInfo:
    shown = organiser or state.published is not None or p.name in state.published_players
    return wire.PlayerInfo(player=p.name, deck_name=p.deck_name if shown else None, commitment=p.commitment,
                           deck=p.deck if shown else None, dropped_after=p.dropped_after, missed=p.missed)


__all__ = ["EventService", "UnknownEvent", "stream_of"]
