"""Bots that choose among ``legal`` decisions.

``RandomBot`` proves any legal play is playable (and, across many matches, plays every card).
``GreedyBot`` makes recorded matches look like real play: it prefers lethal attacks and
favourable trades, and weighs main-phase actions by simulating them with ``decide`` (pure) and
scoring the position, which also favours payments that waste the least.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from kifu.domain.core.bot import Seen
from kifu.domain.core.draft import Draft
from kifu.domain.core.errors import KifuError
from kifu.domain.core.options import Options
from kifu.domain.core.rng import Rng

from . import commands as c
from .cards import definition
from .checks import keep_quiet, quiet
from .combat import combat_damage
from .decide import decide
from .evolve import evolve
from .field import keeper_bonus, profile, stat, tower_skills
from .reach import Reach
from .state import State
from .vocabulary import Phase

# the decisions ``GreedyBot._score`` weighs by a rule of thumb (a tower set only when no tower skill
# is involved); it simulates every other
_RULED = frozenset({c.SetTower, c.Target, c.Block, c.Evade, c.NoDefense, c.Attack, c.Proceed, c.Mulligan,
                    c.ChooseOrder})


def _unpaid(cmd: Any) -> Any:
    """The action a paid decision takes, whatever pays for it — and for a spell, whichever free
    table spot it is cast onto (the spot changes what it costs, which the payment scores)."""
    if type(cmd) is c.Cast:
        return replace(cmd, towers=(), souls=(), line=0)
    return replace(cmd, towers=(), souls=())


# ``evaluate``'s weights that the unsimulated scores (a payment's cost, a tower set) reuse
HAND = 0.6            # a card in hand
SOUL = 0.5            # a soul
TOWER_CARD = 0.5      # a card in a tower (its height)
READY_TOWER = 0.4     # a tower with cards, not broken: what breaking it to pay loses
ACTING = 0.05         # any action over passing, all else equal


def _spent(cmd: Any) -> float:
    """What ``evaluate`` loses to a payment: each broken tower and each spent soul."""
    return READY_TOWER * len(cmd.towers) + SOUL * len(cmd.souls)


def _quiet_towers(state: State, seat: int) -> bool:
    """Whether no top card of ``seat``'s towers has a lasting tower skill."""
    return not any(t.cards and tower_skills(definition(state, t.cards[-1])) for t in state.sides[seat - 1].towers)


def tower_set_score(state: State, seat: int, card: int, line: int, quiet: bool | None = None) -> float | None:
    """What setting ``card`` on tower ``line`` moves ``evaluate`` by, worked out without simulating
    it — or None where a simulation is needed. With no lasting tower skill on the seat's towers or
    in the card, a tower set changes the hand, that tower and, for a keeper on the line, its VIT+1
    for sharing the top card's element (W-7.3): unless losing that +1 would destroy the keeper.
    ``quiet``: ``_quiet_towers(state, seat)``, if known (it is the same for every card and line)."""
    if tower_skills(definition(state, card)) or not (_quiet_towers(state, seat) if quiet is None else quiet):
        return None
    side = state.sides[seat - 1]
    tower = side.towers[line - 1]
    # a card leaves the hand, the tower grows
    score = -HAND + TOWER_CARD + (READY_TOWER if not tower.cards else 0.0) + ACTING
    keeper = side.stage[line - 1]
    if keeper is None:
        return score
    elements = definition(state, keeper.card).elements
    after = 1 if any(e in definition(state, card).elements for e in elements) else 0
    change = after - keeper_bonus(state, seat, line, keeper.card)
    if change >= 0:
        return score + change
    return score - 1 if stat(state, seat, line, "VIT") - keeper.damage > 1 else None


def _actions(options: list[Any]) -> tuple[list[int], int]:
    """Each option's action (``_unpaid``) as a number, the actions numbered in the order they first
    come (-1: not a paid decision), and how many actions there are. An action is keyed by its
    fields, not by a command with the payment taken out: making and hashing one per option was
    ~3 M instructions a match (the tests check the fields read are every field but those)."""
    numbers: dict[Any, int] = {}
    number, summon, cast, activate = numbers.setdefault, c.Summon, c.Cast, c.Activate
    acts: list[int] = []
    add = acts.append
    for cmd in options:     # (``_unpaid``'s fields as a tuple: every field but the payment, and a cast's spot)
        kind = cmd.__class__
        if kind is summon:
            add(number((kind, cmd.card, cmd.line, cmd.heart, cmd.heart_soul), len(numbers)))
        elif kind is cast:
            add(number((kind, cmd.card, cmd.targets, cmd.heart, cmd.heart_soul), len(numbers)))
        elif kind is activate:
            add(number((kind, cmd.card, cmd.skill, cmd.targets), len(numbers)))
        else:
            add(-1)
    return acts, len(numbers)


class RandomBot:
    """Uniform over legal decisions, but proceeding less eagerly so matches look like play."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, seen: Seen) -> Any:
        legal, rng = seen.legal, self.rng
        if isinstance(legal, Options):   # the actions are the span between the passive ends
            head, count = legal.head, len(legal) - legal.tail - legal.head
            if count > 0 and rng.below(4) != 0:
                return legal[head + rng.below(count)]     # = rng.choice(legal.actions())
            return legal[rng.below(len(legal))]
        actions = [cmd for cmd in legal if not isinstance(cmd, (c.Proceed, c.Pass, c.Decline))]
        if actions and rng.below(4) != 0:
            return rng.choice(actions)
        return rng.choice(legal)


def evaluate(state: State, seat: int, reach: Reach | None = None) -> float:
    """A material count from ``seat``'s side: life and ready hearts, units, cards, cost sources.

    ``reach``: where units' parameters and sides' counts are kept between positions (a bot keeps
    one; see ``Reach``)."""
    if state.outcome is not None:
        return 0.0 if state.outcome.winner is None else (1000.0 if state.outcome.winner == seat else -1000.0)
    if reach is None:
        reach = Reach()
    return reach.side_value(state, seat, _side_value) - reach.side_value(state, 3 - seat, _side_value)


def _side_value(state: State, seat: int, reach: Reach) -> float:
    """``evaluate``'s count of one side, read from that side and its units' parameters alone.
    (Loops for the sums it wrote as generators: each float is added in the same order.)"""
    side = state.sides[seat - 1]
    hearts = 0
    for h in side.hearts:
        if not h.broken:
            hearts += 1
    value = side.life * 1.5 + hearts * 1.2
    for i, unit in enumerate(side.stage):
        if unit is not None:
            STR, VIT, AGI, DEF = reach.stats(state, seat, i + 1, unit)
            value += 2.0 + STR * 1.2 + max(0, VIT - unit.damage) + AGI * 0.4 + DEF * 0.5
    value += len(side.hand) * HAND + len(side.soul) * SOUL
    height, ready = 0, 0.0
    for t in side.towers:
        height += len(t.cards)
        if t.cards and not t.broken:
            ready += READY_TOWER
    value += height * TOWER_CARD + ready
    table = 0.0
    for spell in side.table:
        if spell is not None:
            table += 1.5
    value += table
    return value


class GreedyBot:
    """One-ply greedy play with combat heuristics; deterministic given its seed.

    Options that differ only in how they are paid (and a spell's, in which free table spot it
    takes) are one action: it is simulated once (with its first option) and each payment is then
    scored by what it spends — a broken tower and a spent soul are what ``evaluate`` counts of a
    payment — so every payment is weighed without simulating each. A tower set is scored without
    simulating it where no tower skill is involved (``tower_set_score``)."""

    MAX_SIMULATED = 40        # actions simulated per decision at most (thinned evenly beyond that)

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)
        self._base: tuple[State, int, float] | None = None   # (position, seat, its own score)
        self._reach = Reach()
        self._quiet: tuple[State, int, bool] | None = None   # (position, seat, ``_quiet_towers``)

    def choose(self, seen: Seen) -> Any:
        """Scores each option on the seat's masked position (what it may know), never the judge's."""
        legal = seen.legal
        if len(legal) == 1:
            return legal[0]
        state, seat = seen.position, seen.seat
        settled = quiet()          # (put back at the end: the simulations' states are no match's)
        options = list(legal)      # (``legal`` may build each option when read: built once here)
        acts, count = _actions(options)
        befores: list[float | None] = [None] * count    # each action's simulated score before paying
        scored = []
        score = self._score
        for i in self._kept(acts, count):
            act = acts[i]
            if act < 0:
                scored.append((score(options[i], state, seat), i))
                continue
            cmd = options[i]
            spent = _spent(cmd)
            before = befores[act]
            if before is None:
                before = befores[act] = score(cmd, state, seat) + spent
            scored.append((before - spent, i))
        keep_quiet(settled)
        best = max(s for s, _ in scored)
        ties = [i for s, i in scored if s >= best - 1e-9]
        return options[self.rng.choice(ties)]

    def _kept(self, acts: list[int], count: int) -> Sequence[int]:
        """The options scored, given each option's action number (``_actions``): every option of at
        most ``MAX_SIMULATED`` actions; beyond that, actions are thinned evenly (every payment of a
        kept action stays) and every non-payment decision is kept."""
        if count <= self.MAX_SIMULATED:
            return range(len(acts))
        step = count / self.MAX_SIMULATED
        kept = {int(i * step) for i in range(self.MAX_SIMULATED)}
        return [i for i, act in enumerate(acts) if act < 0 or act in kept]

    def _score(self, cmd: Any, state: State, seat: int) -> float:
        if cmd.__class__ not in _RULED:
            return self._simulate(cmd, state, seat)
        match cmd:
            case c.SetTower(card=card, line=line) if (known := self._tower_set(state, seat, card, line)) is not None:
                return known
            case c.Target(line=line):
                return self._target_value(state, seat, line)
            case c.Block(line=line):
                return self._block_value(state, seat, line)
            case c.Evade():
                return 0.5
            case c.NoDefense():
                return 0.0
            case c.Attack(line=line):
                return 1.0 + self._stats(state, seat, line)[0]
            case c.Proceed(to=to):
                if state.phase == Phase.MAIN1 and to == "battle":
                    return 0.8 if self._has_attacker(state, seat) else -0.5
                return -0.2 if to != "end" else -0.3
            case c.Mulligan(redraw=redraw):
                return -0.1 if redraw else 0.0
            case c.ChooseOrder(go_first=go_first):
                return 0.1 if go_first else 0.0
        return self._simulate(cmd, state, seat)

    def _simulate(self, cmd: Any, state: State, seat: int) -> float:
        draft: Draft[State, Any] = Draft(state, 1, Rng(0), evolve)
        try:
            decide(state, seat, cmd, draft)
        except (KifuError, AssertionError, LookupError):
            return -1e6     # (a hidden card the simulation would need to know: not an option it can weigh)
        if self._base is None or self._base[0] is not state or self._base[1] != seat:
            # once per position, if a simulation needs it
            self._base = (state, seat, evaluate(state, seat, self._reach))
        return evaluate(draft.state, seat, self._reach) - self._base[2] + ACTING

    def _tower_set(self, state: State, seat: int, card: int, line: int) -> float | None:
        """``tower_set_score``, with whether the seat's towers are quiet worked out once a decision."""
        quiet = self._quiet
        if quiet is None or quiet[0] is not state or quiet[1] != seat:
            quiet = self._quiet = (state, seat, _quiet_towers(state, seat))
        return tower_set_score(state, seat, card, line, quiet[2])

    def _stats(self, state: State, seat: int, line: int) -> tuple[int, int, int, int]:
        """STR, VIT, AGI, DEF of the unit on (seat, line), as ``profile`` has them (kept by ``Reach``)."""
        unit = state.sides[seat - 1].stage[line - 1]
        assert unit is not None, f"no unit of seat {seat} on line {line}"
        return self._reach.stats(state, seat, line, unit)

    def _has_attacker(self, state: State, seat: int) -> bool:
        for i, unit in enumerate(state.side(seat).stage):
            if unit is not None and not unit.broken and unit.status is None and self._stats(state, seat, i + 1)[2] >= 1:
                return True
        return False

    def _target_value(self, state: State, seat: int, line: int) -> float:
        combat = state.combat
        assert combat is not None
        a = profile(state, seat, combat.attacker)
        foe = state.side(3 - seat)
        occupant = foe.stage[line - 1]
        if occupant is None:
            ready_hearts = sum(1 for h in foe.hearts if not h.broken)
            lethal = a.STR - ready_hearts >= foe.life
            return 100.0 if lethal else 2.0 + a.STR * 0.5
        d = profile(state, 3 - seat, line)
        kills = combat_damage(a.STR, d.DEF) >= d.VIT - occupant.damage
        dies = combat_damage(d.STR, a.DEF) >= a.VIT
        return (4.0 + d.STR if kills else 0.0) - (3.0 + a.STR if dies else 0.0)

    def _block_value(self, state: State, seat: int, line: int) -> float:
        combat = state.combat
        assert combat is not None
        a = profile(state, 3 - seat, combat.attacker) if state.side(3 - seat).stage[combat.attacker - 1] else None
        if a is None:
            return 0.0
        b = profile(state, seat, line)
        blocker = state.side(seat).stage[line - 1]
        damage = blocker.damage if blocker is not None else 0
        survives = combat_damage(a.STR, b.DEF) < b.VIT - damage
        kills = combat_damage(b.STR, a.DEF) >= a.VIT
        return ((3.0 if kills else 0.0) + (1.0 if survives else -2.0)
                + (a.STR * 0.3 if state.side(seat).life <= a.STR else 0))
