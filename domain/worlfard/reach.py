"""What can reach a unit's parameters, so the greedy bot scores a simulated position without a
field for every unit in it.

``evaluate`` reads every unit's STR, VIT, AGI and DEF, and the bot evaluates a new position for
every option it simulates: building each position's field was most of its time. Yet an option
changes a few things, and a unit's parameters follow only from what reaches it, as
``field.Field`` applies W-14: its printed card and W-7.3 (its own tower's top card); the stored
effects on it; its own tower's lasting skill (by the tower's top, height, stored HT effects, the
lines around it and the facing tower, which gate it, W-Q13); the Long Spells that give it
something; and the lasting skills of units that give it something — which a negation elsewhere
may switch off, so a unit such a skill reaches is keyed by every lasting source on the field.
``Reach`` keeps each unit's parameters by such a key and asks ``field.stat`` only for a key not
seen before. What a key holds is a superset of what the field reads for that unit, so equal
keys give equal parameters (the tests compare it with the field on every unit of played and
simulated positions).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from kifu.domain.core.memo import Memo

from .cards import CardDef, definition
from .field import keeper_bonus, stat, touched
from .state import Effect, Side, State, TableSpell, Tower, Unit
from .vocabulary import LINES

Stats = tuple[int, int, int, int]       # STR, VIT, AGI, DEF as ``profile`` gives them

# whom a lasting skill's ops give parameters, skills or negations (``Field._recipients``)
SELF, OWN, ENEMY, TARGETS = 1, 2, 4, 8
_WHO = {"self": SELF, "own_units": OWN, "enemy_units": ENEMY, "target": TARGETS}
_GIVING = frozenset({"add", "set", "grant", "negate"})     # the ops a field applies to units


class Lasting(NamedTuple):
    """Which lasting skills (W-14.1) a printed card has, by where they work: what ``Field`` reads."""

    stage: int      # from the stage: whom its ops reach (SELF | OWN | ENEMY bits; 0: nobody)
    table: int      # from a table spot (a Long Spell): whom (TARGETS | OWN | ENEMY)
    keeper: bool    # from a tower top: reaching its keeper (anything but the facing tower)
    front: bool     # from a tower top: changing the facing tower's HT
    lines: bool     # from a tower top: gated by the lines around it (a keeper standing, elements)


_LASTING: Memo[str, Lasting] = Memo("worlfard.greedy_lasting", bound=4096)


def lasting(d: CardDef) -> Lasting:
    found = _LASTING.get(d.name)
    if found is None:
        statics = [sk for sk in d.skill if sk.static]
        tower = [sk for sk in statics if sk.zone == "tower"]
        found = _LASTING.put(d.name, Lasting(
            stage=_whom([sk for sk in statics if sk.zone == "stage"]),
            table=_whom([sk for sk in statics if sk.zone == "table"]),
            keeper=any(op.who != "front_tower" for sk in tower for op in sk.ops),
            front=any(op.who == "front_tower" for sk in tower for op in sk.ops),
            lines=any(sk.condition is not None and (sk.condition.keeper or sk.condition.element_lines is not None
                                                    or sk.condition.souls_at_least is not None
                                                    or sk.condition.opponent_has is not None) for sk in tower)))
    return found


def _whom(skills: list[Any]) -> int:
    """Whom ``skills``' ops reach (an unknown ``who``: both sides and the targets)."""
    bits = 0
    for sk in skills:
        for op in sk.ops:
            if op.op in _GIVING and op.stat != "HT":
                bits |= _WHO.get(op.who, SELF | OWN | ENEMY | TARGETS)
    return bits


_Source = tuple[int, int, "str | None", int]                    # line, card, status, whom
_Spell = tuple[int, int, tuple[int, ...], bool, int, int]       # line, card, targets, waiting, since, whom
_Top = tuple[int, int, int, Lasting]                            # line, top card, height, what it does


class Reach:
    """One bot's memo of unit parameters by what reaches them (one match at a time: card ids name
    cards within a match). Bounded: emptied whole when full, as the rules' caches are."""

    BOUND = 4096

    def __init__(self) -> None:
        self._names: object = None
        self._stats: dict[tuple[Any, ...], Stats] = {}
        self._rows: dict[int, tuple[object, Any]] = {}        # id(row) -> (row, its lasting part)
        self._parts: dict[Any, int] = {}                      # what reaches a unit -> a number
        self._canon: dict[Any, Any] = {}                      # a row's lasting part -> one object of it
        self._cards: dict[int, Lasting] = {}                  # card id -> ``lasting`` of it
        self._bonus: dict[tuple[int, int], int] = {}          # (unit, top card) -> W-7.3's VIT bonus
        self._contexts: dict[tuple[int, ...], Any] = {}       # ids of the parts and effects -> ``_context``
        self._sides: dict[tuple[int, int, int], tuple[Side, tuple[Effect, ...], float]] = {}   # ``side_value``
        self._effects: tuple[Effect, ...] | None = None
        self._on: dict[int, tuple[Effect, ...]] = {}          # the stored effects on each unit and tower
        # the position asked about last, and what reaches its units
        self._state: State | None = None
        self._sources: tuple[tuple[_Source, ...], tuple[_Source, ...]] = ((), ())
        self._spells: tuple[tuple[_Spell, ...], tuple[_Spell, ...]] = ((), ())
        self._towers: tuple[tuple[_Top, ...], tuple[_Top, ...]] = ((), ())
        self._given = (0, 0, 0)    # per seat (index 1, 2): whether a unit's lasting skill reaches its units
        self._selves: frozenset[int] = frozenset()     # units whose lasting skill reaches themselves
        self._whole = 0            # a number for all the lasting sources (0: not worked out yet)
        self._seat_keys = (0, 0, 0)    # per seat: ``_seat_key`` (0: not worked out yet)
        self._spelled = (0, 0, 0)  # per seat: a number for the Long Spells that reach all its units
        self._targeting: list[tuple[int, _Spell]] = []      # the Long Spells that reach their targets
        self._targets: tuple[object, dict[int, int]] = (None, {})    # ``_targeting`` -> card -> ``_targeted``
        self._keepers: tuple[dict[int, int], ...] = ({}, {}, {})   # per seat: line -> a number for its tower

    def stats(self, state: State, seat: int, line: int, unit: Unit) -> Stats:
        """``unit``'s (on ``seat``'s ``line``) STR, VIT, AGI, DEF: ``field.stat``'s."""
        if state is not self._state:
            self._position(state)
        card = unit.card
        cards = state.sides[seat - 1].towers[line - 1].cards
        # the tower's top card counts for W-7.3 alone here (a top with a lasting skill is in the
        # keeper's or the whole key): whether it shares an element with the unit
        bonus = self._bonus.get((card, cards[-1] if cards else 0))
        if bonus is None:
            bonus = self._bonus[(card, cards[-1] if cards else 0)] = keeper_bonus(state, seat, line, card)
        if self._given[seat] or card in self._selves:
            whole = self._whole or self._whole_key(state)
            key: tuple[Any, ...] = (whole, seat, line, card, bonus, self._on.get(card, ()))
        else:
            key = (seat, card, bonus, self._on.get(card, ()), self._keepers[seat].get(line, 0), self._spelled[seat],
                   self._targeted(card) if self._targeting else 0)
        found = self._stats.get(key)
        if found is None:
            found = self._stats[key] = _four(state, seat, line, card, bonus)
        return found

    def side_value(self, state: State, seat: int, value: Callable[[State, int, Reach], float]) -> float:
        """``value(state, seat, self)``, kept: a count worked out from ``seat``'s side and its units'
        parameters (read through ``stats``) alone, so kept by that side (the object: positions share
        the sides an option leaves as they were), the stored effects and what reaches its units."""
        if state is not self._state:
            self._position(state)
        side, effects = state.sides[seat - 1], state.effects
        key = (id(side), self._seat_keys[seat] or self._seat_key(state, seat), id(effects))
        hit = self._sides.get(key)
        if hit is not None and hit[0] is side and hit[1] is effects:
            return hit[2]
        found = value(state, seat, self)
        self._sides[key] = (side, effects, found)
        return found

    def _seat_key(self, state: State, seat: int) -> int:
        """A number for what reaches ``seat``'s units in this position, besides their side and the
        stored effects: all that ``stats`` keys them by."""
        found = self._seat_keys[seat]
        if not found:
            whole = self._whole or self._whole_key(state) if self._given[seat] or self._selves else 0
            found = self._number(("seat", seat, whole, self._given[seat], self._selves, self._spelled[seat],
                                  tuple(self._targeting), tuple(self._keepers[seat].items())))
            self._seat_keys = (0, found, self._seat_keys[2]) if seat == 1 else (0, self._seat_keys[1], found)
        return found

    def _position(self, state: State) -> None:
        if state.names is not self._names or len(self._stats) >= self.BOUND or len(self._parts) >= self.BOUND \
                or len(self._rows) >= self.BOUND or len(self._sides) >= self.BOUND \
                or len(self._contexts) >= self.BOUND:
            self._names = state.names
            self._stats.clear()
            self._rows.clear()
            self._parts.clear()
            self._canon.clear()
            self._cards.clear()
            self._bonus.clear()
            self._sides.clear()
            self._contexts.clear()
        effects = state.effects
        if effects is not self._effects:
            on: dict[int, tuple[Effect, ...]] = {}
            for e in effects:
                on[e.target] = (*on.get(e.target, ()), e)
            self._effects, self._on = effects, on
        s1, s2 = state.sides
        rows = self._rows
        parts = []
        reading: tuple[tuple[Any, Callable[[Reach, State, Any], Any]], ...] = (
            (s1.stage, _sources), (s2.stage, _sources), (s1.table, _spells), (s2.table, _spells),
            (s1.towers, _towers), (s2.towers, _towers))
        for row, part in reading:
            hit = rows.get(id(row))
            if hit is None or hit[0] is not row:
                found = part(self, state, row)
                hit = rows[id(row)] = (row, self._canon.setdefault(found, found))
            parts.append(hit[1])
        # what the lasting parts (equal ones are one object) and the stored effects make of the
        # units' keys, kept for the next position with the same: most options leave them as they were
        key = (id(parts[0]), id(parts[1]), id(parts[2]), id(parts[3]), id(parts[4]), id(parts[5]), id(effects))
        context = self._contexts.get(key)
        if context is None or context[0] is not effects:
            context = self._context(state, parts)
            if context is None:       # (a tower gated by the lines around it: keyed by them, not kept)
                context = self._context(state, parts, kept=False)
            else:
                self._contexts[key] = context
        (_, self._sources, self._spells, self._towers, self._given, self._selves, self._spelled, self._targeting,
         self._keepers, self._seat_keys) = context
        self._state, self._whole = state, 0

    def _context(self, state: State, parts: list[Any], kept: bool = True) -> Any:
        """``_position``'s reading of the lasting parts (``kept``: None if it hangs on more)."""
        sources, spells, towers = (parts[0], parts[1]), (parts[2], parts[3]), (parts[4], parts[5])
        given = [0, 0, 0]
        selves = []
        for seat in (1, 2):
            for _, card, _, whom in sources[seat - 1]:
                if whom & OWN:
                    given[seat] = 1
                if whom & ENEMY:
                    given[3 - seat] = 1
                if whom & SELF:
                    selves.append(card)
        # for the units no unit's lasting skill reaches: the Long Spells reaching every unit of a
        # side, those reaching the units they target, and the towers whose lasting skill reaches
        # their keeper (each as a number: keys stay small)
        spelled, targeting = [0, 0, 0], []
        if spells[0] or spells[1]:
            for seat in (1, 2):
                reaching = tuple([(owner, spell) for owner in (1, 2) for spell in spells[owner - 1]
                                  if spell[5] & (OWN if owner == seat else ENEMY)])
                spelled[seat] = self._number(reaching) if reaching else 0
            targeting = [(owner, spell) for owner in (1, 2) for spell in spells[owner - 1] if spell[5] & TARGETS]
        keepers: list[dict[int, int]] = [{}, {}, {}]
        if towers[0] or towers[1]:
            self._towers = towers
            for seat in (1, 2):
                for line, top, height, how in towers[seat - 1]:
                    if how.keeper:
                        if kept and (how.lines or any(at == line and how2.front and how2.lines
                                                      for at, _, _, how2 in towers[2 - seat])):
                            return None
                        keepers[seat][line] = self._number(self._tower(state, seat, line, top, height, how))
        # ``_seat_key`` of a seat whose units no unit's lasting skill reaches: the context's alone
        seat_keys = [0, 0, 0]
        if not selves:
            targeted = tuple(targeting)
            for seat in (1, 2):
                if not given[seat]:
                    seat_keys[seat] = self._number(("seat", seat, 0, 0, frozenset(), spelled[seat], targeted,
                                                    tuple(keepers[seat].items())))
        return (state.effects, sources, spells, towers, (0, given[1], given[2]), frozenset(selves),
                (0, spelled[1], spelled[2]), targeting, (keepers[0], keepers[1], keepers[2]),
                (0, seat_keys[1], seat_keys[2]))

    def _whole_key(self, state: State) -> int:
        """A number for every lasting source of the position: what a unit that a unit's lasting
        skill reaches is keyed by (whether that skill works hangs on negations from anywhere)."""
        reaching = []        # the towers whose lasting skill can reach a unit, and what gates them
        for seat in (1, 2):
            facing = {top[0] for top in self._towers[2 - seat]}
            for line, top, height, how in self._towers[seat - 1]:
                if how.keeper or (how.front and line in facing):
                    reaching.append((seat, line, top, height, self._on.get(seat * 10 + line, ()),
                                     _around(state.sides[seat - 1], line) if how.lines else ()))
        on = self._on
        watched = tuple([on.get(card, ()) for row in self._sources for _, card, _, _ in row])
        self._whole = self._number(("whole", self._sources, self._spells, tuple(reaching), watched))
        return self._whole

    def _tower(self, state: State, seat: int, line: int, top: int, height: int, how: Lasting) -> tuple[Any, ...]:
        """What of ``seat``'s tower on ``line`` (its top's lasting skill reaching its keeper) can
        change what it gives: all that gates it (the HT with its stored effects, the lines around
        it, a facing tower changing that HT, and what gates that)."""
        facing: tuple[Any, ...] = ()
        for at, top2, height2, how2 in self._towers[2 - seat]:
            if at == line and how2.front:
                facing = (top2, height2, self._on.get((3 - seat) * 10 + line, ()),
                          _around(state.sides[2 - seat], line) if how2.lines else ())
        return (line, top, height, self._on.get(seat * 10 + line, ()),
                _around(state.sides[seat - 1], line) if how.lines else (), facing)

    def _targeted(self, card: int) -> int:
        """A number for the Long Spells that target the unit ``card`` (and give their targets something)."""
        kept = self._targets
        if kept[0] is not self._targeting:     # (kept per context: its list is one object)
            kept = self._targets = (self._targeting, {})
        found = kept[1].get(card)
        if found is None:
            reaching = tuple([(owner, spell) for owner, spell in self._targeting if card in spell[2]])
            found = kept[1][card] = self._number(reaching) if reaching else 0
        return found

    def _number(self, part: Any) -> int:
        """A number for ``part``: equal parts, equal numbers (while the memo is kept)."""
        number = self._parts.get(part)
        if number is None:
            number = self._parts[part] = len(self._parts) + 1
        return number

    def _how(self, state: State, card: int) -> Lasting:
        """``lasting`` of the card ``card`` (by id, for this match)."""
        found = self._cards.get(card)
        if found is None:
            found = self._cards[card] = lasting(definition(state, card))
        return found


def _four(state: State, seat: int, line: int, card: int, bonus: int) -> Stats:
    """``field.stat``'s STR, VIT, AGI, DEF of the unit ``card`` on (seat, line), W-7.3's ``bonus``
    given: a parameter nothing on the field may change is read off the printed card (``stat``'s
    own shortcut), so ``stat`` is asked only for the others."""
    changed = touched(state)
    d = definition(state, card)
    return (stat(state, seat, line, "STR") if "STR" in changed else max(0, d.STR),
            stat(state, seat, line, "VIT") if "VIT" in changed else max(0, d.VIT + bonus),
            stat(state, seat, line, "AGI") if "AGI" in changed else max(0, d.AGI),
            stat(state, seat, line, "DEF") if "DEF" in changed else d.DEF)


def _sources(reach: Reach, state: State, row: tuple[Unit | None, ...]) -> tuple[_Source, ...]:
    """The stage's units whose lasting skill reaches a unit (a curse negates it: the status counts)."""
    out = []
    cards = reach._cards
    for i, u in enumerate(row):
        if u is not None and (whom := (cards.get(u.card) or reach._how(state, u.card)).stage):
            out.append((i + 1, u.card, u.status, whom))
    return tuple(out)


def _spells(reach: Reach, state: State, row: tuple[TableSpell | None, ...]) -> tuple[_Spell, ...]:
    """The table's Long Spells whose lasting skill reaches a unit, as ``Field`` reads them."""
    out = []
    cards = reach._cards
    for i, s in enumerate(row):
        if s is not None and (whom := (cards.get(s.card) or reach._how(state, s.card)).table):
            out.append((i + 1, s.card, s.targets, s.waiting, s.since, whom))
    return tuple(out)


def _towers(reach: Reach, state: State, row: tuple[Tower, ...]) -> tuple[_Top, ...]:
    """The towers whose top card has a lasting tower skill: (line, top, height, what it does)."""
    out = []
    cards = reach._cards
    for i, t in enumerate(row):
        if t.cards:
            top = t.cards[-1]
            how = cards.get(top) or reach._how(state, top)
            if how.keeper or how.front:
                out.append((i + 1, top, len(t.cards), how))
    return tuple(out)


def _around(side: Any, line: int) -> tuple[tuple[int, int, int], ...]:
    """Every card on the spots of ``line`` and its neighbours (a keeper standing, the lines'
    elements: what gates a tower skill)."""
    out = []
    for n in range(max(1, line - 1), min(LINES, line + 1) + 1):
        unit, tower, spell = side.stage[n - 1], side.towers[n - 1], side.table[n - 1]
        out.append((0 if unit is None else unit.card, tower.cards[-1] if tower.cards else 0,
                    0 if spell is None else spell.card))
    return tuple(out)
