"""What a seat may see of an event: the core's part of redaction, then the ruleset's.

The core's part holds for every ruleset: a seat gets no ``chain`` or ``digest`` (both hash
unredacted content, so trying the few candidate cards against them would reveal a hidden one),
another seat's sealed choice shows only its commitment, and a prepared position (a whole state)
is shown as the ruleset's ``mask`` of it for that seat. The ruleset's ``redact`` then hides its
own events' hidden cards.
"""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from .commit import ChoiceSealed, PositionPrepared, redact_sealed
from .envelope import Envelope
from .ruleset import Ruleset

_CORE = (ChoiceSealed,)


def redact(ruleset: Ruleset[Any, Any, Any], envelope: Envelope[Any], seat: int | None) -> Envelope[Any]:
    """``envelope`` as ``seat`` may see it (``None``, the judge, sees everything)."""
    if seat is None:
        return envelope
    envelope = replace(envelope, chain="", digest=None) if envelope.chain or envelope.digest else envelope
    event = envelope.event
    if isinstance(event, ChoiceSealed):
        return replace(envelope, event=redact_sealed(event, seat))
    if isinstance(event, PositionPrepared):
        masked = ruleset.mask(event.state, seat) if ruleset.mask is not None else ruleset.initial_state(None)
        return replace(envelope, event=PositionPrepared(state=masked))
    return ruleset.redact(envelope, seat)
