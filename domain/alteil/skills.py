"""The one interpreter of the card vocabulary (data/cards.toml), and the rules every effect shares:
damage and death (A-8), soul power gained, paid and reduced (A-10), draws (A-Q7), losses (A-1)."""
from __future__ import annotations

from kifu.domain.core.clauses import implements
from kifu.domain.core.draft import Draft

from . import events as ev
from .cards import Skill
from .state import State
from .stats import hp
from .vocabulary import DEATHS_TO_LOSE, other, owner

D = Draft[State, ev.Event]


def lose(draft: D, seat: int, reason: str, clause: str, cause: int | None) -> None:
    if draft.state.outcome is None:
        draft.rule(clause, cause, ev.PlayerLost(seat=seat, reason=reason), seat=seat)


@implements("A-1.3", "A-Q7", "A-C10")
def draw(draft: D, seat: int, n: int, clause: str, cause: int | None, compulsory: bool) -> None:
    """A compulsory draw from an empty deck loses (A-1.3); an effect's draw just draws less (A-Q7)."""
    deck = draft.state.side(seat).deck
    if len(deck) < n and compulsory:
        draft.rule("A-1.3", cause, ev.DrawFailed(seat=seat), seat=seat)
        lose(draft, seat, "deck-out", "A-1.3", cause)
        return
    if deck[:n]:
        draft.rule(clause, cause, ev.CardsDrawn(seat=seat, cards=deck[:n]), seat=seat)


@implements("A-10.1", "A-Q7")
def gain_soul(draft: D, seat: int, n: int, clause: str, cause: int | None) -> None:
    """A-10.1: one card at a time from the deck top to the soul pile; an empty deck gives less (A-Q7)."""
    if n <= 0:
        return
    deck = draft.state.side(seat).deck
    draft.rule(clause, cause, ev.SoulGained(seat=seat, cards=deck[:n], wanted=n), seat=seat)


@implements("A-10.2", "A-C10")
def pay_soul(draft: D, seat: int, n: int, clause: str, cause: int | None) -> None:
    """A-10.2: paying moves cards one at a time from the soul pile to the deck top."""
    if n <= 0:
        return
    soul = draft.state.side(seat).soul
    draft.rule(clause, cause, ev.SoulPaid(seat=seat, cards=tuple(reversed(soul[len(soul) - n:])), amount=n), seat=seat)


@implements("A-10.3")
def reduce_soul(draft: D, seat: int, n: int, cause: int | None) -> None:
    """A-10.3: a reduction also sends cards to the deck top, but it is not a payment."""
    soul = draft.state.side(seat).soul
    n = min(n, len(soul))
    draft.rule("A-10.3", cause, ev.SoulReduced(seat=seat, cards=tuple(reversed(soul[len(soul) - n:])), amount=n),
               seat=seat)


@implements("A-8.1", "A-8.2")
def deal(draft: D, card: int, amount: int, clause: str, cause: int | None) -> None:
    """A-8.1 damage accumulates; A-8.2 at total ≥ HP the unit dies."""
    seat = owner(card)
    u = draft.state.side(seat).unit(card)
    if u is None or draft.state.outcome is not None:
        return
    total = u.damage + amount
    hit = draft.rule(clause, cause, ev.DamageDealt(seat=seat, card=card, amount=amount, total=total), seat=seat)
    if total >= hp(draft.state, u):
        die(draft, card, hit)


@implements("A-1.2", "A-8.2", "A-C8")
def die(draft: D, card: int, cause: int | None) -> None:
    """A-8.2: to the cemetery, and its owner gains soul power equal to its printed LV; A-1.2 at 7 deaths."""
    seat = owner(card)
    data = draft.state.data(card)
    died = draft.rule("A-8.2", cause, ev.UnitDied(seat=seat, card=card), seat=seat)
    gain_soul(draft, seat, data.lv if data else 0, "A-8.2", died)
    if len(draft.state.side(seat).cemetery) >= DEATHS_TO_LOSE:
        lose(draft, seat, "deaths", "A-1.2", died)


@implements("A-9.2", "A-Q7", "A-Q12")
def apply(draft: D, seat: int, source: int, skill: Skill, target: int, clause: str, cause: int | None) -> None:
    """Run one skill's effect for ``seat`` (its source card is ``source``)."""
    state = draft.state
    if state.outcome is not None:
        return
    opp = other(seat)
    kind = skill.effect
    if kind == "damage":
        deal(draft, target, skill.amount, clause, cause)
    elif kind == "damage_all":
        for u in state.side(opp).units:
            deal(draft, u.card, skill.amount, clause, cause)
    elif kind == "heal":
        healed = state.side(owner(target)).unit(target) if target else None
        if healed is not None:
            draft.rule("A-Q12", cause, ev.Healed(seat=owner(target), card=target,
                                                 amount=min(skill.amount, healed.damage)),
                       seat=owner(target))
    elif kind == "buff":
        if skill.target == "allies":
            cards = tuple(u.card for u in state.side(seat).units)
        elif skill.target == "self":
            cards = (source,) if state.side(seat).unit(source) else ()
        else:
            cards = (target,) if target and state.side(seat).unit(target) else ()
        for card in cards:
            draft.rule(clause, cause, ev.Modified(seat=seat, card=card, stat=skill.stat, amount=skill.amount),
                       seat=seat)
    elif kind == "gain_soul":
        gain_soul(draft, seat, skill.amount, clause, cause)
    elif kind == "reduce_soul":
        reduce_soul(draft, opp, skill.amount, cause)
    elif kind == "discard_influence":
        if target in state.side(opp).influence:
            draft.rule("A-9.2", cause, ev.InfluenceDiscarded(seat=opp, card=target), seat=opp)
    elif kind == "draw":
        draw(draft, seat, skill.amount, "A-Q7", cause, compulsory=False)
    else:  # pragma: no cover - the card file is validated by the tests
        raise ValueError(f"unknown effect {kind!r}")
