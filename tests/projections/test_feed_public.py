"""The public feed's redaction and delay (kifu.projections.feed): a spectator sees at most what
each seat sees, of every event and every position, in every ruleset; the cut runs N decisions or
N seconds behind the match."""
from __future__ import annotations

from typing import Any

import msgspec
import pytest

from kifu.domain.core.bot import RandomBot, Seen
from kifu.domain.core.commit import ChoiceSealed
from kifu.domain.core.envelope import Envelope
from kifu.domain.core.match import Match
from kifu.domain.core.roles import HIDDEN
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.core.visibility import SeatStream, seat_view
from kifu.projections.feed import Delay, PublicStream, next_release, public_cut, public_view

RULESETS = ["worlfard", "reigeki", "masters", "alteil", "novel", "secretbid"]


def played(name: str, decisions: int = 120, seed: int = 3) -> Match:
    rules = find_ruleset(name)
    presets = rules.content.presets()
    match = Match.create(rules, match_id="00000000-0000-4000-8000-000000000009", seed=seed,
                         decks=[rules.content.load_deck(p) for p in presets[:2]], players=("a", "b"),
                         date="2026-11-28T10:00:00Z")
    bots = {1: RandomBot(seed), 2: RandomBot(seed + 1)}
    for n in range(decisions):
        if match.outcome is not None:
            break
        seat = min(match.awaiting)
        match.submit(seat, bots[seat].choose(Seen(seat, match.legal(seat))), received=f"2026-11-28T10:{n // 60:02d}:"
                     f"{n % 60:02d}Z")
    return match


def at_most(public: Any, seen: Any, own: int | None = None) -> bool:
    """``public`` shows nothing ``seen`` does not: equal, or hidden (HIDDEN, None, empty) where they
    differ. ``own``: a view's part about this seat (``"seat": own``) is not compared, since a seat
    knows more of its own side (its picks: a smaller deck count) than anyone else; the public's
    part about that side is compared with the other seat's view instead."""
    if public == seen or public in (HIDDEN, None, "", [], (), {}):
        return True
    if isinstance(public, dict) and isinstance(seen, dict):
        if own is not None and public.get("seat") == own == seen.get("seat"):
            return True
        return set(public) <= set(seen) and all(at_most(v, seen[k], own) for k, v in public.items())
    if isinstance(public, (list, tuple)) and isinstance(seen, (list, tuple)) and len(public) == len(seen):
        return all(at_most(a, b, own) for a, b in zip(public, seen, strict=True))
    return False


@pytest.mark.parametrize("name", RULESETS)
def test_the_public_sees_at_most_what_each_seat_sees(name: str) -> None:
    match = played(name)
    rules = match.ruleset
    start = rules.decider.initial_state(match.header)
    public = PublicStream(rules, start).redact(match.envelopes)
    for seat in (1, 2):
        own = SeatStream(rules, start, seat).redact(match.envelopes)
        for p, s in zip(public, own, strict=True):
            assert at_most(msgspec.to_builtins(p), msgspec.to_builtins(s)), (seat, p, s)
    for env in public:
        assert not env.chain and env.digest is None
        if isinstance(env.event, ChoiceSealed):
            assert env.event.choice is None and not env.event.salt
    state = start
    from kifu.domain.core.match import record_evolve
    evolve = record_evolve(rules)
    for i, env in enumerate(match.envelopes):
        state = evolve(state, env.event)
        if i % 7 == 0 or i == len(match.envelopes) - 1:
            shown = msgspec.to_builtins(public_view(rules, state))
            for seat in (1, 2):
                seen = msgspec.to_builtins(seat_view(rules, state, seat))
                assert at_most({k: v for k, v in shown.items() if k not in ("viewer", "seat")}, seen, seat), \
                    (seat, env.seq, shown, seen)
            rules.presentation.layout(public_view(rules, state))     # and it draws


def test_a_sealed_choice_never_reaches_the_public_before_it_is_revealed() -> None:
    match = played("secretbid")
    public = PublicStream(match.ruleset, match.ruleset.decider.initial_state(match.header)).redact(match.envelopes)
    sealed = [e for e in match.envelopes if isinstance(e.event, ChoiceSealed)]
    assert sealed and all(e.event.choice is not None for e in sealed)      # the judge's record has them
    assert all(e.event.choice is None for e in public if isinstance(e.event, ChoiceSealed))


def test_delay_parsing() -> None:
    assert Delay.parse("10d") == Delay(decisions=10) and Delay.parse("30s") == Delay(seconds=30.0)
    assert Delay.parse("2 decisions") == Delay(decisions=2) and Delay.parse("0") == Delay()
    assert Delay.parse("1.5s").describe() == "1.5 seconds" and Delay.parse("1d").describe() == "1 decision"
    for bad in ("10", "x", "1.5d", "-3s", "10m"):
        with pytest.raises(ValueError, match="delay"):
            Delay.parse(bad)


def envs() -> list[Envelope[Any]]:
    kinds = ["rule", "decision", "rule", "decision", "decision", "rule", "decision"]
    return [Envelope(seq=i + 1, kind=k, event={}, seat=1 if k == "decision" else None,     # type: ignore[arg-type]
                     received=f"2026-11-28T10:{(i + 1) // 6:02d}:{10 * (i + 1) % 60:02d}Z" if k == "decision" else None)
            for i, k in enumerate(kinds)]


def test_the_cut_runs_n_decisions_behind_and_shows_all_once_over() -> None:
    e = envs()          # decisions at seqs 2, 4, 5, 7
    assert public_cut(e, Delay(decisions=1), 0, over=False) == 6
    assert public_cut(e, Delay(decisions=2), 0, over=False) == 4
    assert public_cut(e, Delay(decisions=4), 0, over=False) == 1
    assert public_cut(e, Delay(decisions=9), 0, over=False) == 1      # setup only
    assert public_cut(e, Delay(decisions=2), 0, over=True) == 7
    assert public_cut(e, Delay(), 0, over=False) == 7


def test_the_cut_runs_n_seconds_behind_even_after_the_end() -> None:
    from kifu.projections.clocks import stamp

    e = envs()
    at = stamp("2026-11-28T10:00:50Z") or 0.0         # decisions at 20, 40, 50 and 70 s (seqs 2, 4, 5, 7)
    assert public_cut(e, Delay(seconds=30), at - 0.5, over=False) == 1
    assert public_cut(e, Delay(seconds=30), at, over=False) == 3     # seq 2 is 30 s old: public
    assert public_cut(e, Delay(seconds=30), at + 20, over=False) == 4
    assert public_cut(e, Delay(seconds=30), at, over=True) == 3      # over: still 30 s behind
    assert public_cut(e, Delay(seconds=30), at + 50, over=True) == 7
    assert next_release(e, Delay(seconds=30), 3) == (stamp("2026-11-28T10:00:40Z") or 0) + 30
    assert next_release(e, Delay(seconds=30), 7) is None
    assert next_release(e, Delay(decisions=3), 3) is None
