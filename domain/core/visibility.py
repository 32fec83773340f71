"""What a seat may see of an event: the core's part of redaction, then the ruleset's, then the scrub.

The core's part holds for every ruleset: a seat gets no ``chain`` or ``digest`` (both hash
unredacted content, so trying the few candidate cards against them would reveal a hidden one),
another seat's sealed choice shows only its commitment, and a prepared position (a whole state)
is shown as the ruleset's ``mask`` of it for that seat. The ruleset's ``redact`` then hides its
own events' hidden cards.

**The scrub** makes redaction complete by construction. Given the state before and after an
event, every int of the event (nested structs and lists included) that is not declared as a
seat, place, amount or seq (``kifu.domain.core.roles``) and that names a card the seat may see in
neither state becomes ``HIDDEN``: a field declared ``CardId`` is a card id and one declared
``TargetRef`` (a target or an option) names a card itself or packed with a place, whatever event
kind it is on; one declared ``OptionRef`` (an option of a pending choice) is dropped instead, so
that the options' number counts no hidden card; an undeclared int names what the ruleset's
``card_refs`` decodes from it (by default none). A ruleset declares its card fields;
``tests/trust/test_declared_roles.py`` fails on an event field that holds ints and is neither
declared nor reviewed, so a new event kind cannot leak by omission.
Which cards a seat may not see, every ruleset with a ``mask`` declares (``Visibility.hidden_cards``):
there is no default read off the mask, since a mask also zeroes numbers that are not cards (a
spent total, a count) and a card id equal to one would be scrubbed from the seat's own stream.
Views and prepared positions are scrubbed the same way.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Set
from typing import Any

import msgspec
from msgspec.structs import replace

from .commit import ChoiceSealed, PositionPrepared, redact_sealed
from .envelope import JUDGE, Envelope
from .judging import JudgeBackup
from .match import record_evolve
from .memo import Memo
from .roles import HIDDEN, roles_of, target_cards
from .ruleset import Ruleset

_CORE = (ChoiceSealed,)
_NOT_CARDS = frozenset({"seat", "place", "amount", "seq"})
_NOTHING: frozenset[int] = frozenset()


def redact(ruleset: Ruleset[Any, Any, Any], envelope: Envelope[Any], seat: int | None,
           hidden: Set[int] | None = None) -> Envelope[Any]:
    """``envelope`` as ``seat`` may see it (``None``, the judge, sees everything).

    ``hidden``: the cards the seat may see neither before nor after the event (``SeatStream``
    computes it); every reference to one of them is scrubbed."""
    if seat is None:
        return envelope
    envelope = replace(envelope, chain="", digest=None) if envelope.chain or envelope.digest else envelope
    event = envelope.event
    if isinstance(event, ChoiceSealed):
        return replace(envelope, event=redact_sealed(event, seat))
    if isinstance(event, PositionPrepared):
        mask = ruleset.visibility.mask
        if mask is None:
            return replace(envelope, event=PositionPrepared(state=ruleset.decider.initial_state(None)))
        masked = scrub(mask(event.state, seat), hidden_cards(ruleset, event.state, seat), ruleset.visibility.card_refs)
        return replace(envelope, event=PositionPrepared(state=masked))
    if envelope.kind == JUDGE:       # a judge's act is the table's: only a backup's state holds anything hidden
        if isinstance(event, JudgeBackup):
            return replace(envelope, event=replace(event, state=masked_state(ruleset, event.state, seat)))
        return envelope
    envelope = ruleset.visibility.redact(envelope, seat)
    if hidden:
        scrubbed = scrub(envelope.event, hidden, ruleset.visibility.card_refs)
        if scrubbed is not envelope.event:
            envelope = replace(envelope, event=scrubbed)
    return envelope


def masked_state(ruleset: Ruleset[Any, Any, Any], state: Any, seat: int) -> Any:
    """A whole state (a prepared position, a judge's backup) as ``seat`` may know it: the ruleset's
    mask of it, scrubbed (a game without a mask hides nothing)."""
    mask = ruleset.visibility.mask
    if mask is None:
        return state
    return scrub(mask(state, seat), hidden_cards(ruleset, state, seat), ruleset.visibility.card_refs)


# -- which cards a seat may not see -------------------------------------------------------------
def hidden_cards(ruleset: Ruleset[Any, Any, Any], state: Any, seat: int) -> Set[int]:
    """The card ids ``seat`` may not see in ``state``, as the ruleset declares them (a ruleset
    without a ``mask`` hides nothing; ``find_ruleset`` refuses a mask without this hook)."""
    declared = ruleset.visibility.hidden_cards
    return _NOTHING if declared is None else declared(state, seat)


# -- the scrub ----------------------------------------------------------------------------------
_plan_cache: Memo[type, tuple[tuple[str, str], ...]] = Memo("core.scrub_plans", bound=1024)   # by struct type


def _plan(kind: type[msgspec.Struct]) -> tuple[tuple[str, str], ...]:
    """(field, role) for every field of a struct type that may name a card: declared cards
    (``card``), declared targets and options (``target``: a card, maybe packed with a place),
    and undeclared fields (role ``""``: the ruleset's ``card_refs`` decides what their ints name)."""
    plan = _plan_cache.get(kind)
    if plan is None:
        roles = {f.name: f.role for f in roles_of(kind)}
        plan = _plan_cache.put(kind, tuple((name, roles.get(name, "")) for name in kind.__struct_fields__
                                         if roles.get(name) not in _NOT_CARDS))
    return plan


def scrub(value: Any, hidden: Set[int], refs: Callable[[int], Iterable[int]], role: str = "") -> Any:
    """``value`` with every int that names a card in ``hidden`` replaced by ``HIDDEN`` (the same
    object when nothing changed). An int under a field declared ``CardId`` is a card id; under a
    field declared ``TargetRef`` it names a card itself or packed with a place (``target_cards``);
    any other int names the cards ``refs`` decodes from it (by default none)."""
    if isinstance(value, bool) or value is None or isinstance(value, (str, float, bytes)):
        return value
    if isinstance(value, int):
        if value == HIDDEN:
            return value
        if role == "card":
            return HIDDEN if value in hidden else value
        named = target_cards(value) if role in ("target", "option") else refs(value)
        return HIDDEN if any(r in hidden for r in named) else value
    if isinstance(value, msgspec.Struct):
        changes = {}
        for name, field_role in _plan(type(value)):
            old = getattr(value, name)
            new = scrub(old, hidden, refs, field_role)
            if new is not old:
                changes[name] = new
        return replace(value, **changes) if changes else value
    if isinstance(value, (tuple, list)):
        if role == "option":     # an option the seat may not see is left out, not shown as HIDDEN
            kept = [v for v in value if not isinstance(v, int) or isinstance(v, bool)
                    or not any(c in hidden for c in target_cards(v))]
            if len(kept) != len(value):
                return tuple(kept) if isinstance(value, tuple) else kept
            return value
        items = [scrub(v, hidden, refs, role) for v in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return tuple(items) if isinstance(value, tuple) else items
    if isinstance(value, dict):
        changed = {k: scrub(v, hidden, refs, role) for k, v in value.items()}
        return changed if any(changed[k] is not value[k] for k in value) else value
    return value


def seat_view(ruleset: Ruleset[Any, Any, Any], state: Any, seat: int | None) -> Any:
    """The ruleset's view for ``seat``, scrubbed of any card the seat may not see."""
    view = ruleset.decider.view(state, seat)
    if seat is None:
        return view
    hidden = hidden_cards(ruleset, state, seat)
    return scrub(view, hidden, ruleset.visibility.card_refs) if hidden else view


class SeatStream:
    """Redacts a match's envelopes in order for one seat, keeping the state before and after each
    (a card may be named by an event if the seat could see it on either side of it)."""

    def __init__(self, ruleset: Ruleset[Any, Any, Any], initial: Any, seat: int | None) -> None:
        self.ruleset = ruleset
        self.seat = seat
        self.state = initial
        self._evolve = record_evolve(ruleset)
        self._hidden: Set[int] | None = None   # of self.state, once computed

    def skip(self, envelopes: Iterable[Envelope[Any]]) -> None:
        """Fold envelopes the seat already has (or does not ask for) without redacting them."""
        evolve = self._evolve
        state = self.state
        for env in envelopes:
            state = evolve(state, env.event)
        if state is not self.state:
            self.state, self._hidden = state, None

    def redact(self, envelopes: Iterable[Envelope[Any]]) -> list[Envelope[Any]]:
        if self.seat is None:
            envs = list(envelopes)
            self.skip(envs)
            return envs
        out = []
        rules, seat = self.ruleset, self.seat
        for env in envelopes:
            before = self._hidden if self._hidden is not None else hidden_cards(rules, self.state, seat)
            self.state = self._evolve(self.state, env.event)
            after = self._hidden = hidden_cards(rules, self.state, seat)
            both = before & after if before and after else _NOTHING
            out.append(redact(rules, env, seat, both))
        return out


def redact_between(ruleset: Ruleset[Any, Any, Any], envelope: Envelope[Any], seat: int | None,
                   before: Any, after: Any) -> Envelope[Any]:
    """One ``envelope`` as ``seat`` may see it, given the states before and after it: what
    ``SeatStream`` sends, for a reader that seeks (a stepper) instead of streaming in order."""
    if seat is None:
        return envelope
    hidden_before, hidden_after = hidden_cards(ruleset, before, seat), hidden_cards(ruleset, after, seat)
    both = hidden_before & hidden_after if hidden_before and hidden_after else _NOTHING
    return redact(ruleset, envelope, seat, both)


def redacted(ruleset: Ruleset[Any, Any, Any], initial: Any, envelopes: list[Envelope[Any]], seat: int | None,
             after: int = 0, limit: int | None = None) -> list[Envelope[Any]]:
    """``envelopes[after:after+limit]`` as ``seat`` may see them, the earlier ones folded first."""
    if seat is None:
        return envelopes[after:] if limit is None else envelopes[after:after + limit]
    stream = SeatStream(ruleset, initial, seat)
    stream.skip(envelopes[:after])
    return stream.redact(envelopes[after:] if limit is None else envelopes[after:after + limit])
