"""What applies on the field right now: every unit's parameters and skills, every tower's HT.

Computed once per state (states are immutable, so the answer is cached by identity):
- stored effects (from triggers and spells), ordered by the seq that made them;
- "keeps giving" static skills of towers (top card only, HT-gated, W-2.5/W-7.2), Long Spells on
  the table and units on the stage, which last only while their source and conditions hold
  (W-14.1) and are recomputed whenever anything changes (W-14.2);
- the element effect of a keeper's tower (W-7.3).
Parameters layer as W-14.3 says: set-base effects first (the latest wins), then add/subtract;
STR, VIT and AGI never go below 0 (W-2.3). Negation and curse remove skills (W-14.6, W-9.4).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from kifu.domain.core.clauses import implements
from kifu.domain.core.memo import ByIdentity, Memo, PerThread, Slot

from .cards import CardDef, catalog, definition
from .skills import Op, Skill, keyword_matches
from .state import State, TableSpell, Unit
from .vocabulary import LINES, Status, card_id

STATS = ("STR", "VIT", "AGI", "DEF")


@dataclass(frozen=True)
class Profile:
    """A unit as it is now: parameters after every effect, and the skills it has."""

    card: int
    STR: int
    VIT: int
    AGI: int
    DEF: int
    keywords: frozenset[str]
    negated: frozenset[str]       # skill names negated ("*" = all, as by curse)

    def has(self, pattern: str) -> bool:
        return any(keyword_matches(k, pattern) for k in self.keywords)

    def skill_active(self, name: str) -> bool:
        return "*" not in self.negated and name not in self.negated


class _Acc:
    """What applies to one unit, gathered before its profile is built."""

    __slots__ = ("sets", "adds", "grants", "negates")

    def __init__(self) -> None:
        self.sets: list[tuple[int, str, int]] = []
        self.adds: dict[str, int] = {}
        self.grants: set[str] = set()
        self.negates: set[str] = set()

    def apply(self, ts: int, op: Op | str, stat: str | None, value: int, skill: str | None) -> None:
        kind = op if isinstance(op, str) else op.op
        if kind == "set" and stat:
            self.sets.append((ts, stat, value))
        elif kind == "add" and stat:
            self.adds[stat] = self.adds.get(stat, 0) + value
        elif kind == "grant" and skill:
            self.grants.add(skill)
        elif kind == "negate" and skill:
            self.negates.add(skill)


class Field:
    """Profiles of every unit and the modified HT of every tower, for one state."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.units: dict[tuple[int, int], Profile] = {}
        self.ht: dict[tuple[int, int], int] = {}
        self._acc: dict[int, _Acc] = {}
        self._negated: dict[int, set[str]] = {}
        self._compute()

    def unit(self, seat: int, line: int) -> Profile | None:
        """The profile of the unit on (seat, line), built on first request."""
        p = self.units.get((seat, line))
        if p is None:
            unit = self.state.sides[seat - 1].stage[line - 1]
            if unit is None:
                return None
            p = self.units[(seat, line)] = self._profile(unit.card, seat, line, self._acc[unit.card],
                                                          self._negated[unit.card])
        return p

    def value(self, seat: int, line: int, name: str) -> int:
        """One parameter of the unit on (seat, line), as its profile has it, without building the
        profile (its keywords and negations) when only the number is wanted."""
        p = self.units.get((seat, line))
        if p is not None:
            printed: int = getattr(p, name)
            return printed
        unit = self.state.sides[seat - 1].stage[line - 1]
        assert unit is not None, f"no unit of seat {seat} on line {line}"
        a = self._acc[unit.card]
        value: int = getattr(_defn(self.state, unit.card), name)
        for _, stat, v in sorted(a.sets, key=lambda s: s[0]):   # W-14.3: latest set wins
            if stat == name:
                value = v
        value += a.adds.get(name, 0)
        if name == "VIT":
            value += keeper_bonus(self.state, seat, line, unit.card)
        return value if name == "DEF" else max(0, value)

    @implements("W-7.2", "W-Q13")
    def _compute(self) -> None:
        state = self.state
        acc: dict[int, _Acc] = {}
        ht_base: dict[tuple[int, int], int] = {}
        ht_static: dict[tuple[int, int], int] = {}
        where: dict[int, tuple[int, int]] = {}
        cursed: list[int] = []
        for seat, side in enumerate(state.sides, 1):
            for i, unit in enumerate(side.stage):
                if unit is not None:
                    where[unit.card] = (seat, i + 1)
                    acc[unit.card] = _Acc()
                    if unit.status == Status.CURSE:
                        cursed.append(unit.card)
            for i, tower in enumerate(side.towers):
                ht_base[(seat, i + 1)] = len(tower.cards)
        statics = _static_cards(state.names)
        # stored effects
        for eff in state.effects:
            if eff.target >= 1000:
                a = acc.get(eff.target)
                if a is not None:
                    a.apply(eff.id, eff.op, eff.stat, eff.value, eff.skill)
            elif eff.target >= 10 and eff.stat == "HT" and eff.op == "add":
                key = (eff.target // 10, eff.target % 10)
                ht_base[key] = ht_base.get(key, 0) + eff.value
        # curse and stored negations decide which units' own skills work
        negated: dict[int, set[str]] = {card: set(a.negates) for card, a in acc.items()}
        for card in cursed:
            negated[card].add("*")
        # static tower skills: top card only, gated by the HT (W-Q13). Skills that change a tower's
        # HT read the HT with stored modifiers only (two facing towers cannot chase each other);
        # the other tower skills read the HT those skills leave.
        tower_skills = [(seat, i + 1, skill) for seat, side in enumerate(state.sides, 1)
                        for i, tower in enumerate(side.towers)
                        if tower.cards and tower.cards[-1] in statics for skill in statics[tower.cards[-1]][0]]
        for seat, line, skill in tower_skills:
            if self._tower_condition(skill, seat, line, ht_base):
                for op in skill.ops:
                    if op.who == "front_tower" and op.stat == "HT":
                        key = (3 - seat, line)
                        ht_static[key] = ht_static.get(key, 0) + op.value
        ht_now = {key: h + ht_static.get(key, 0) for key, h in ht_base.items()}
        for seat, line, skill in tower_skills:
            keeper = state.sides[seat - 1].stage[line - 1]
            if keeper is not None and self._tower_condition(skill, seat, line, ht_now):
                for op in skill.ops:
                    if op.who == "keeper":
                        acc[keeper.card].apply(0, op, op.stat, op.value, op.skill)
        # Long Spells on the table
        for seat, side in enumerate(state.sides, 1):
            for spell in side.table:
                if spell is None or spell.waiting or spell.card not in statics:
                    continue
                for skill in statics[spell.card][1]:
                    for op in skill.ops:
                        for card in self._recipients(op, seat, None, spell.targets, where, negated):
                            acc[card].apply(spell.since, op, op.stat, op.value, op.skill)
        _merge_negations(acc, negated)   # negations kept up by towers and Long Spells count too (W-14.6)
        # static skills of units on the stage (a negated or cursed source gives nothing)
        for card, (seat, _line) in list(where.items()):
            if card not in statics:
                continue
            for skill in statics[card][2]:
                if skill.condition is not None or not _active(negated[card], skill):
                    continue
                for op in skill.ops:
                    for target in self._recipients(op, seat, card, (), where, negated):
                        acc[target].apply(0, op, op.stat, op.value, op.skill)
        _merge_negations(acc, negated)
        for key, h in ht_base.items():
            self.ht[key] = max(0, h + ht_static.get(key, 0))
        self._acc, self._negated = acc, negated

    def _tower_condition(self, skill: Skill, seat: int, line: int, ht: dict[tuple[int, int], int]) -> bool:
        return _tower_condition(self.state, skill, seat, line, ht.get((seat, line), 0))

    def _recipients(self, op: Op, seat: int, source: int | None, targets: tuple[int, ...],
                    where: dict[int, tuple[int, int]], negated: dict[int, set[str]]) -> list[int]:
        if op.op not in ("add", "set", "grant", "negate") or op.stat == "HT":
            return []
        match op.who:
            case "self":
                return [source] if source is not None and source in where else []
            case "target":
                return [c for c in targets if c in where]
            case "own_units" | "enemy_units":
                side = seat if op.who == "own_units" else 3 - seat
                out = []
                for card, (s, _) in where.items():
                    if s == side and (op.family is None or op.family in _defn(self.state, card).families):
                        out.append(card)
                return out
        return []

    def _profile(self, card: int, seat: int, line: int, a: _Acc, negated: set[str]) -> Profile:
        d = _defn(self.state, card)
        values = {"STR": d.STR, "VIT": d.VIT, "AGI": d.AGI, "DEF": d.DEF}
        for _, stat, value in sorted(a.sets, key=lambda s: s[0]):   # W-14.3: latest set wins
            values[stat] = value
        for stat, value in a.adds.items():
            if stat in values:
                values[stat] += value
        values["VIT"] += keeper_bonus(self.state, seat, line, card)
        keywords = set(d.keywords()) | a.grants
        if "*" in negated:
            keywords = set()
        else:
            keywords -= negated
        return Profile(card=card, STR=max(0, values["STR"]), VIT=max(0, values["VIT"]),
                       AGI=max(0, values["AGI"]), DEF=values["DEF"],
                       keywords=frozenset(keywords), negated=frozenset(negated))


_defn = definition


def _statics(d: CardDef, zone: str) -> tuple[Skill, ...]:
    """``d``'s lasting skills that work from ``zone``, in printed order (per card)."""
    key = (d.name, zone)
    found = _STATICS.get(key)
    if found is None:
        found = _STATICS[key] = tuple(skill for skill in d.skill if skill.zone == zone and skill.static)
    return found


_STATICS: Memo[tuple[str, str], tuple[Skill, ...]] = Memo("worlfard.statics", bound=4096)
Statics = tuple[tuple[Skill, ...], tuple[Skill, ...], tuple[Skill, ...]]


def _statics_of(names: tuple[tuple[str, ...], ...]) -> dict[int, Statics]:
    """The cards of a match that have lasting skills, by card id: those that work from a tower,
    a table and the stage, in printed order."""
    defs = catalog()
    table = {}
    for seat, seat_names in enumerate(names):
        for index, name in enumerate(seat_names):
            d = defs[name]
            zones = (_statics(d, "tower"), _statics(d, "table"), _statics(d, "stage"))
            if any(zones):
                table[card_id(seat + 1, index)] = zones
    return table


# worked out once per match: all its states share ``names``
_static_cards = ByIdentity("worlfard.static_cards", _statics_of, bound=64)


def _merge_negations(acc: dict[int, _Acc], negated: dict[int, set[str]]) -> None:
    for card, a in acc.items():
        negated[card] |= a.negates


def _active(negated: set[str], skill: Skill) -> bool:
    return "*" not in negated and not (skill.keyword and skill.keyword in negated)


@implements("W-Q13")
def _tower_condition(state: State, skill: Skill, seat: int, line: int, ht: int) -> bool:
    """Whether the tower skill ``skill`` of (seat, line) works at HT ``ht`` (W-Q13)."""
    cond = skill.condition
    if cond is None:
        return True
    height = max(0, ht)
    if cond.ht_min is not None and height < cond.ht_min:
        return False
    if cond.ht_max is not None and height > cond.ht_max:
        return False
    side = state.sides[seat - 1]
    if cond.keeper and side.stage[line - 1] is None:
        return False
    if cond.element_lines:
        for n in (line - 1, line, line + 1):
            if 1 <= n <= LINES and not _line_has_element(state, seat, n, cond.element_lines):
                return False
    return True


@implements("W-14.4")
def _line_has_element(state: State, seat: int, line: int, element: str) -> bool:
    """A line "has" an element when a card on any of its spots has it (W-14.4)."""
    side = state.sides[seat - 1]
    unit = side.stage[line - 1]
    if unit is not None and element in _defn(state, unit.card).elements:
        return True
    tower = side.towers[line - 1]
    if tower.top is not None and element in _defn(state, tower.top).elements:
        return True
    spell = side.table[line - 1]
    return spell is not None and element in _defn(state, spell.card).elements


@implements("W-7.3")
def keeper_bonus(state: State, seat: int, line: int, unit_card: int) -> int:
    """W-7.3: a keeper that has its tower's element gets [VIT+1] while it stays there."""
    top = state.sides[seat - 1].towers[line - 1].top
    if top is None:
        return 0
    tower_elements = _defn(state, top).elements
    return 1 if any(e in tower_elements for e in _defn(state, unit_card).elements) else 0


@dataclass(frozen=True)
class _Meta:
    """Which lasting skills a printed card has, by where they work, and the parameters (HT
    included) any of them changes (looked up once per card)."""

    stage: bool
    tower: bool
    table: bool
    stats: frozenset[str]


_META: Memo[str, _Meta] = Memo("worlfard.meta", bound=4096)


def _meta(d: CardDef) -> _Meta:
    m = _META.get(d.name)
    if m is None:
        zones = {sk.zone for sk in d.skill if sk.static}
        stats = frozenset(mark for sk in d.skill if sk.static for op in sk.ops
                          for mark in _marks(op.op, op.stat, op.skill))
        m = _META[d.name] = _Meta(stage="stage" in zones, tower="tower" in zones, table="table" in zones,
                                  stats=stats)
    return m


def _marks(op: str, stat: str | None, skill: str | None) -> tuple[str, ...]:
    """What one stored effect or lasting op may change, as ``_touched`` lists it."""
    marks = (stat,) if stat else ()
    if op == "negate":
        return marks + ((_NEGATE_ALL,) if skill == "*" else (_NEGATES,))
    return marks + (_GRANTS,) if op == "grant" else marks


def tower_skills(d: CardDef) -> bool:
    """Whether ``d`` has a lasting skill that works from the top of a tower."""
    return _meta(d).tower


def touched(state: State) -> frozenset[str]:
    """``_touched``, for a reader of all four parameters at once (``reach``): a parameter outside
    it is the printed one, with W-7.3 on VIT and ``stat``'s floor."""
    return _touched(state)


def _touched(state: State) -> frozenset[str]:
    """The parameters (STR, VIT, AGI, DEF, HT) something on the field may change now, and
    ``_NEGATE_ALL`` if something may negate every skill ("*", as curse does; no card does so
    far), ``_NEGATES`` and ``_GRANTS`` if something may negate or grant a named skill: a stored effect,
    or a lasting skill of a unit, a tower's top card or a table spell — a superset of what ``Field``
    applies. A parameter outside it is the printed one (W-7.3 aside)."""
    try:
        k: _Kept = _KEPT.local.value      # (``_kept()`` written out: this runs at every stat read)
    except AttributeError:
        k = _kept()
    if state is k.state:        # the state just asked about, asked again (half the calls)
        return k.last
    s1, s2 = state.sides
    last = k.source
    if state.effects is last[0] and s1.stage is last[1] and s2.stage is last[2] and s1.towers is last[3] \
            and s2.towers is last[4] and s1.table is last[5] and s2.table is last[6] and state.names is last[7]:
        # a new state with the same effects and rows as the one last worked out (a phase, a
        # hand or a soul changed): what they may change is the same
        k.state = state
        return k.last
    effects = state.effects
    same = state.names is last[7]       # the marks composed last may stand (same match, ...)
    if effects is not k.effects:   # (the tuple is shared by identity until an effect comes or goes)
        marks = frozenset([mark for e in effects for mark in _marks(e.op, e.stat, e.skill)])
        same = same and marks == k.effects_marks
        k.effects_marks, k.effects = marks, effects
    marking = _marking(state.names)
    rows, rows_found = k.rows, k.rows_found
    if marking:
        if marking is not k.rows_marking:      # another match: its rows are its own
            k.rows_marking = marking
            rows[:] = [None] * 6
        # a move, a tower set or a cast changes one row of one side: the other rows' marks are
        # kept, and most changes touch no marked card (then the composed marks stand too)
        for slot, row in enumerate((s1.stage, s2.stage, s1.towers, s2.towers, s1.table, s2.table)):
            if row is not rows[slot]:
                rows[slot] = row
                found = _row_marks(row, slot, marking)
                if found != rows_found[slot]:      # (equal units and spells read the same)
                    rows_found[slot] = found
                    same = False
    if not same:
        touched = k.effects_marks
        spells: list[tuple[int, TableSpell, frozenset[str]]] = []
        units: list[tuple[int, Unit, frozenset[str]]] = []
        if marking:
            for slot, (marks, entries) in enumerate(rows_found):
                if marks:
                    touched = touched | marks
                    if entries:
                        (units if slot < 2 else spells).extend(entries)
        k.last, k.spells, k.units = touched, spells, units
    k.state = state
    k.source = (effects, s1.stage, s2.stage, s1.towers, s2.towers, s1.table, s2.table, state.names)
    return k.last


class _Kept:
    """What ``_touched`` and ``stat`` last worked out, and from which objects (kept alive here, so
    no other object can take their ids). One per thread: the service decides and answers on
    several threads, and a thread must never read another's half-written answer."""

    __slots__ = ("state", "last", "source", "effects", "effects_marks", "spells", "units", "rows_marking",
                 "rows", "rows_found", "values", "values_from")

    def __init__(self) -> None:
        self.state: State | None = None
        self.last: frozenset[str] = frozenset()
        self.source: tuple[object, ...] = (None,) * 8     # what ``last`` was worked out from
        self.effects: object = None
        self.effects_marks: frozenset[str] = frozenset()
        self.spells: list[tuple[int, TableSpell, frozenset[str]]] = []
        self.units: list[tuple[int, Unit, frozenset[str]]] = []
        self.rows_marking: object = None                  # the match ``rows`` belong to
        self.rows: list[object] = [None] * 6
        self.rows_found: list[tuple[frozenset[str], tuple[Any, ...]]] = [(frozenset(), ())] * 6
        # ``_value`` reads only the effects, the six rows and the match's cards: its answers are
        # kept while ``_touched`` answers from the same ones (a third of the calls)
        self.values: dict[tuple[int, int, int, str], int | None] = {}
        self.values_from: object = None


_KEPT = PerThread("worlfard.field_kept", _Kept)


def _kept() -> _Kept:
    try:
        kept: _Kept = _KEPT.local.value
        return kept
    except AttributeError:
        return _KEPT.get()


def _row_marks(row: tuple[Any, ...], slot: int,
               marking: dict[int, frozenset[str]]) -> tuple[frozenset[str], tuple[Any, ...]]:
    """What the marked cards of one row (slot: stage 1, stage 2, towers 1, towers 2, table 1,
    table 2) may change, and its marked units or spells with their seat (a tower's top card
    only)."""
    get = marking.get
    marks: frozenset[str] = frozenset()
    entries = []
    if slot in (2, 3):
        for tower in row:
            if tower.cards and (m := get(tower.cards[-1])) is not None:
                marks = marks | m
    else:
        for item in row:
            if item is not None and (m := get(item.card)) is not None:
                marks = marks | m
                entries.append((1 + slot % 2, item, m))
    return marks, tuple(entries)


def _marked(state: State) -> tuple[list[tuple[int, TableSpell, frozenset[str]]],
                                  list[tuple[int, Unit, frozenset[str]]]]:
    """The table spells and stage units of ``state`` that have a lasting skill, with their seat
    and marks, seat 1 first (found by ``_touched``'s pass over the spots, so not looked for twice)."""
    _touched(state)
    k = _kept()
    return k.spells, k.units


def _marking_of(names: tuple[tuple[str, ...], ...]) -> dict[int, frozenset[str]]:
    """The cards of a match that have a lasting skill, by card id, with what it may change
    (``_Meta.stats``)."""
    defs = catalog()
    return {card_id(seat + 1, index): stats for seat, seat_names in enumerate(names)
            for index, name in enumerate(seat_names) if (stats := _meta(defs[name]).stats)}


# worked out once per match: all its states share ``names``
_marking = ByIdentity("worlfard.marking", _marking_of, bound=64)


_NEGATE_ALL = "negate *"
_NEGATES = "negate"            # a named skill (防衛, 神速, …)
_GRANTS = "grant"
_SKILL_MARKS = frozenset({_NEGATE_ALL, _NEGATES, _GRANTS})


@implements("W-9.4", "W-14.6")
def all_negated(state: State, seat: int, line: int) -> bool:
    """Whether every skill of the unit on (seat, line) is negated ("*", as by curse, W-9.4), as
    ``profile`` says: without building a field unless the unit is cursed or something on the
    field negates every skill (negating one named skill, as 防衛 or 神速, is not all of them)."""
    unit = state.sides[seat - 1].stage[line - 1]
    assert unit is not None, f"no unit of seat {seat} on line {line}"
    if unit.status == Status.CURSE:
        return True
    if _NEGATE_ALL not in _touched(state):   # only curse and a negation of "*" negate every skill
        return False
    return "*" in profile(state, seat, line).negated


def keywords(state: State, seat: int, line: int) -> frozenset[str]:
    """The skills the unit on (seat, line) has, as ``profile`` gives them: its printed ones
    when it is not cursed and nothing on the field grants or negates a skill, else those that
    reach that one unit (``_skills``), so no whole field is built for them."""
    unit = state.sides[seat - 1].stage[line - 1]
    assert unit is not None, f"no unit of seat {seat} on line {line}"
    if unit.status != Status.CURSE:
        if _SKILL_MARKS.isdisjoint(_touched(state)):
            return printed_keywords(_defn(state, unit.card))
        found = _skills(state, seat, line, unit.card)
        if found is not None:
            return found
    return profile(state, seat, line).keywords


def _skills(state: State, seat: int, line: int, card: int) -> frozenset[str] | None:
    """The skills of the unit ``card`` (not cursed) on (seat, line) as ``Field`` gives them, from
    what reaches that one unit: grants and negations stored on it, from its own tower's lasting
    skill (gated by that tower's HT) and from table Long Spells. None when an unconditioned
    lasting skill of a unit may grant or negate one of its skills (that source's own negation
    needs the whole field)."""
    grants: set[str] = set()
    negates: set[str] = set()
    for e in state.effects:
        if e.target == card and e.skill:
            if e.op == "grant":
                grants.add(e.skill)
            elif e.op == "negate":
                negates.add(e.skill)
    marking = _marking(state.names)
    statics = _static_cards(state.names)
    cards = state.sides[seat - 1].towers[line - 1].cards
    if cards and not _SKILL_MARKS.isdisjoint(marking.get(cards[-1], ())):
        for skill in statics[cards[-1]][0]:
            ops = [op for op in skill.ops if op.who == "keeper" and op.skill and op.op in _SKILL_OPS]
            if ops and _tower_condition(state, skill, seat, line, tower_heights(state, seat)[line - 1]):
                for op in ops:
                    (grants if op.op == "grant" else negates).add(cast(str, op.skill))
    spells, units = _marked(state)
    for source_seat, spell, marks in spells:
        if not spell.waiting and not _SKILL_MARKS.isdisjoint(marks):
            for skill in statics[spell.card][1]:
                for op in skill.ops:
                    if op.skill and op.op in _SKILL_OPS and \
                            _reaches(state, op, source_seat, None, spell.targets, seat, card):
                        (grants if op.op == "grant" else negates).add(op.skill)
    for source_seat, unit, marks in units:
        if not _SKILL_MARKS.isdisjoint(marks):
            for skill in statics[unit.card][2]:
                if skill.condition is None:
                    for op in skill.ops:
                        if op.op in _SKILL_OPS and _reaches(state, op, source_seat, unit.card, (), seat, card):
                            return None
    printed = printed_keywords(_defn(state, card))
    if not grants and not negates:
        return printed
    if "*" in negates:
        return frozenset()
    return frozenset((printed | grants) - negates)


_SKILL_OPS = ("grant", "negate")


def has(state: State, seat: int, line: int, pattern: str) -> bool:
    """``Profile.has`` for the unit on (seat, line), read as ``keywords`` reads its skills. A
    pattern without ``*`` matches a skill only exactly (``keyword_matches``): one set lookup."""
    found = keywords(state, seat, line)
    if pattern[-1:] != "*":
        return pattern in found
    return any(keyword_matches(k, pattern) for k in found)


_KEYWORDS: Memo[str, frozenset[str]] = Memo("worlfard.keywords", bound=4096)


def printed_keywords(d: CardDef) -> frozenset[str]:
    """``d``'s printed keyword skills as a set (worked out once per card)."""
    found = _KEYWORDS.get(d.name)
    if found is None:
        found = _KEYWORDS[d.name] = frozenset(d.keywords())
    return found


def stat(state: State, seat: int, line: int, name: str) -> int:
    """One parameter of the unit on (seat, line), as ``profile`` gives it: read off the printed
    card with the effects that reach that unit (``_value``), so no whole field is built for it
    unless a unit's lasting skill may reach it (whether its source is negated is the field's work)."""
    unit = state.sides[seat - 1].stage[line - 1]
    assert unit is not None, f"no unit of seat {seat} on line {line}"
    try:
        k: _Kept = _KEPT.local.value      # (``_touched``'s first answer read inline: this runs at every stat read)
    except AttributeError:
        k = _kept()
    if name in (k.last if state is k.state else _touched(state)):
        values = k.values
        if k.values_from is not k.source:     # the effects or a row changed since
            values.clear()
            k.values_from = k.source
        key = (seat, line, unit.card, name)
        found = values.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            found = values[key] = _value(state, seat, line, unit.card, name)
        if found is None:
            return field_of(state).value(seat, line, name)
        value: int = found
    else:
        value = getattr(_defn(state, unit.card), name)
    if name == "VIT":
        value += keeper_bonus(state, seat, line, unit.card)
    return value if name == "DEF" else max(0, value)


_UNKNOWN: Any = object()   # a sentinel, compared by identity only


@implements("W-14.3")
def _value(state: State, seat: int, line: int, card: int, name: str) -> int | None:
    """Parameter ``name`` of the unit ``card`` on (seat, line) as ``Field`` layers it (W-14.3),
    before W-7.3 and the floor, from what reaches that one unit: stored effects on it, its own
    tower's lasting skill (gated by that tower's HT) and table Long Spells. None when an
    unconditioned lasting skill of a unit may reach it: whether that source is negated (by a
    tower, a Long Spell or a stored effect) needs the whole field."""
    sets: list[tuple[int, int]] = []
    add = 0
    for e in state.effects:
        if e.target == card and e.stat == name:
            if e.op == "set":
                sets.append((e.id, e.value))
            elif e.op == "add":
                add += e.value
    marking = _marking(state.names)
    statics = _static_cards(state.names)
    cards = state.sides[seat - 1].towers[line - 1].cards
    if cards and name in marking.get(cards[-1], ()):
        for skill in statics[cards[-1]][0]:
            ops = [op for op in skill.ops if op.who == "keeper" and op.stat == name]
            if ops and _tower_condition(state, skill, seat, line, tower_heights(state, seat)[line - 1]):
                for op in ops:
                    if op.op == "set":
                        sets.append((0, op.value))
                    elif op.op == "add":
                        add += op.value
    spells, units = _marked(state)
    for source_seat, spell, marks in spells:
        if not spell.waiting and name in marks:
            for skill in statics[spell.card][1]:
                for op in skill.ops:
                    if op.stat == name and _reaches(state, op, source_seat, None, spell.targets, seat, card):
                        if op.op == "set":
                            sets.append((spell.since, op.value))
                        elif op.op == "add":
                            add += op.value
    for source_seat, unit, marks in units:
        if name in marks:
            for skill in statics[unit.card][2]:
                if skill.condition is None:
                    for op in skill.ops:
                        if op.stat == name and _reaches(state, op, source_seat, unit.card, (), seat, card):
                            return None
    value: int = getattr(_defn(state, card), name)
    if sets:
        sets.sort(key=_first)     # W-14.3: the latest set wins (stable, as Field sorts them)
        value = sets[-1][1]
    return value + add


def _first(pair: tuple[int, int]) -> int:
    return pair[0]


def _reaches(state: State, op: Op, source_seat: int, source: int | None, targets: tuple[int, ...],
             seat: int, card: int) -> bool:
    """Whether ``Field._recipients`` gives ``op`` (from a source of ``source_seat``: the unit
    ``source``, or a spell with ``targets``) to the unit ``card`` of ``seat``."""
    match op.who:
        case "self":
            return source == card
        case "target":
            return card in targets
        case "own_units" | "enemy_units":
            if (seat == source_seat) != (op.who == "own_units"):
                return False
            return op.family is None or op.family in _defn(state, card).families
    return False


def _plain(state: State) -> bool:
    """True when nothing on the field modifies anything: no stored effect, no lasting skill on a
    unit, a tower's top card or a table, and no cursed unit — printed values (plus W-7.3) hold."""
    if state.effects:
        return False
    for seat in (1, 2):
        side = state.sides[seat - 1]
        for unit in side.stage:
            if unit is not None and (unit.status == Status.CURSE or _meta(_defn(state, unit.card)).stage):
                return False
        for tower in side.towers:
            if tower.cards and _meta(_defn(state, tower.cards[-1])).tower:
                return False
        for spell in side.table:
            if spell is not None and _meta(_defn(state, spell.card)).table:
                return False
    return True


def _printed(state: State, seat: int, line: int) -> Profile:
    unit = state.sides[seat - 1].stage[line - 1]
    assert unit is not None, f"no unit of seat {seat} on line {line}"
    d = _defn(state, unit.card)
    return Profile(card=unit.card, STR=max(0, d.STR), VIT=max(0, d.VIT + keeper_bonus(state, seat, line, unit.card)),
                   AGI=max(0, d.AGI), DEF=d.DEF, keywords=frozenset(d.keywords()), negated=frozenset())


# by state: a few states are asked about at a time (the one decided on, the one just made)
_is_plain = ByIdentity("worlfard.plain", _plain, bound=4)


def _shape(state: State) -> tuple[tuple[object, ...], tuple[tuple[object, ...], ...]]:
    """What a field is computed from: the parts shared by identity (effects, card names), which
    card with which status stands on each stage spot, each tower's top card and height, and each
    table spell's card, targets and timing. Damage, readiness (a tower broken to pay included),
    hands, decks and the phase do not change it, so states that differ only there share one field."""
    s1, s2 = state.sides
    shared = (state.names, state.effects)
    stage = (tuple(None if u is None else (u.card, u.status) for u in s1.stage + s2.stage),
             tuple((t.cards[-1], len(t.cards)) if t.cards else None for t in s1.towers + s2.towers),
             tuple(None if t is None else (t.card, t.waiting, t.since, t.targets) for t in s1.table + s2.table))
    return shared, stage


# by what a field is computed from: the ids of the shared parts (the entry keeps them alive, so
# the ids stay theirs) and the stage, tower tops and table spells. Small on purpose: 64 fields
# recompute fewer of them, but the garbage collector then walks what they keep alive (greedy
# self-play +1.4 % instructions against 8)
_shapes: Memo[tuple[tuple[int, ...], Any], tuple[tuple[object, ...], Field]] = Memo("worlfard.field_shapes", bound=8)


def _field_for(state: State) -> Field:
    shared, stage = _shape(state)
    key = (tuple(map(id, shared)), stage)
    hit = _shapes.get(key)
    if hit is None:
        hit = _shapes.put(key, (shared, Field(state)))
    return hit[1]


# the field for ``state``: reused while the parts it is computed from are unchanged
field_of = ByIdentity("worlfard.field", _field_for, bound=4)


def profile(state: State, seat: int, line: int) -> Profile:
    last = _is_plain.last           # asked of the same state over and over: the last answer, read inline
    if last[1] if last[0] is state else _is_plain(state):
        return _printed(state, seat, line)
    seen = field_of.last
    f = seen[1] if seen[0] is state else field_of(state)
    p = f.unit(seat, line)
    assert p is not None, f"no unit of seat {seat} on line {line}"
    return p


def tower_heights(state: State, seat: int) -> tuple[int, ...]:
    """Every tower's HT for ``seat``, line 1 first, as ``Field.ht`` has them: worked out from the
    towers alone (no field), since only stored HT effects and the facing tower's lasting skill
    change a tower's HT (the payer asks for them at almost every decision, on a new state)."""
    towers = state.sides[seat - 1].towers
    front_towers = state.sides[2 - seat].towers
    slot = _heights[seat - 1]
    last = slot.value
    if last[0] is towers and last[1] is front_towers and last[2] is state.effects and last[3] is state.names:
        kept: tuple[int, ...] = last[4]   # the same rows as last asked (kept only when no front tower changes HT)
        return kept
    heights = [len(t.cards) for t in towers]
    changed = False
    fronting = False
    for e in state.effects:
        if e.stat == "HT" and e.op == "add" and 10 <= e.target < 1000:
            changed = True
            if e.target // 10 == seat:
                heights[e.target % 10 - 1] += e.value
    last = _marking.last
    marking = last[1] if last[0] is state.names else _marking(state.names)
    for i, front in enumerate(front_towers):
        cards = front.cards
        if cards and "HT" in marking.get(cards[-1], ()):
            changed = fronting = True
            line = i + 1
            for skill in _static_cards(state.names)[cards[-1]][0]:
                if _tower_condition(state, skill, 3 - seat, line, _stored_ht(state, 3 - seat, line)):
                    for op in skill.ops:
                        if op.who == "front_tower" and op.stat == "HT":
                            heights[i] += op.value
    found = tuple([h if h > 0 else 0 for h in heights]) if changed else tuple(heights)
    # a front tower's skill may hang on the front stage and table (its condition): not kept then
    slot.value = _NO_HEIGHTS if fronting else (towers, front_towers, state.effects, state.names, found)
    return found


# per seat: the rows and the heights ``tower_heights`` last worked out from them (one tuple, the rows
# kept alive with it so their ids stay their own); each decision changes one row of one side, so
# the payer often asks again
_NO_HEIGHTS: tuple[Any, ...] = (None,) * 5
_heights = (Slot("worlfard.tower_heights.1", _NO_HEIGHTS), Slot("worlfard.tower_heights.2", _NO_HEIGHTS))


def _stored_ht(state: State, seat: int, line: int) -> int:
    """A tower's HT with stored effects only (what its own HT-changing skill is gated by)."""
    height = len(state.sides[seat - 1].towers[line - 1].cards)
    key = seat * 10 + line
    for e in state.effects:
        if e.target == key and e.stat == "HT" and e.op == "add":
            height += e.value
    return height


@implements("W-7.5", "W-Q13")
def tower_height(state: State, seat: int, line: int) -> int:
    """HT as modified by effects, floored at 0 (W-7.5, W-Q13)."""
    if "HT" not in _touched(state):
        return state.sides[seat - 1].towers[line - 1].height
    return tower_heights(state, seat)[line - 1]
