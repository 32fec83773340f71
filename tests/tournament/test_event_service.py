"""The event service on a store: best-of-three games created as needed, results read from signed
end marks, every match created with the registered lists and the event in its header."""
from __future__ import annotations

from typing import Any

from kifu.domain.core.driver import LocalTable, drive
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.core.signing import new_signer
from kifu.service.event_api import CreateEvent
from kifu.service.events import EventService
from kifu.service.matches import MatchService
from kifu.service.tokens import TokenStore
from kifu.store import MatchStore
from kifu.store.clock import utc_now


def _play(store: MatchStore, match_id: str, seed: int) -> None:
    match = store.load(match_id)
    rules = match.ruleset

    def submit(m: Any, seat: int, command: Any, basis: int) -> list[Any]:
        envelopes, state = m.decide(seat, command, basis, received=utc_now())
        store.append(m.header.match_id, m.seq, envelopes, outcome=rules.decider.outcome(state))
        m.accept(envelopes, state)
        return list(envelopes)

    drive(LocalTable(match, submit), {s: rules.content.bots["random"](seed * 2 + s) for s in (1, 2)})


def test_best_of_three_from_signed_end_marks() -> None:
    store = MatchStore.open("memory")
    tokens = TokenStore.open(store.config)
    service = EventService(store, tokens, MatchService(store, tokens, signer=new_signer("house")))
    service.create(CreateEvent(name="bo3", ruleset="reigeki", rounds=1, best_of=3))
    rules = find_ruleset("reigeki")
    for player, deck in (("ann", "hakurei"), ("bob", "mima")):
        service.register("bo3", player, rules.content.load_deck(deck), deck)
    paired = service.pair("bo3")
    assert len(paired.games) == 1 and paired.games[0].tokens is not None
    seed = 0
    while True:
        state = service.load("bo3")
        for game in state.rounds[0].tables[0].games:
            if store.summary(game.match_id).status != "over":
                seed += 1
                _play(store, game.match_id, seed)
        collected = service.collect("bo3")
        if collected.recorded:
            break
        assert len(collected.games) == 1       # the next game of the best-of-three
    table = collected.recorded[0]
    assert table.signed and table.wins is not None and max(table.wins) == 2 and len(table.games) in (2, 3)
    first = service.load("bo3").rounds[0].tables[0]
    games = first.games
    other = "bob" if first.seat1 == "ann" else "ann"
    assert [g.seat1 for g in games] == [first.seat1, other, first.seat1][:len(games)]     # seats alternate
    for g in games:
        header = store.header(g.match_id)
        assert (header.event, header.round, header.table) == ("bo3", "1", "1")
        assert header.players[0] == g.seat1
    tokens.close()
    store.close()
