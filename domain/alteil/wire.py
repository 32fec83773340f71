"""Reading records back: a work-around for the core's sealed-choice decoding, kept in this package.

The core's ``ChoiceSealed.choice`` is typed ``msgspec.Raw | None``; msgspec (0.22) cannot decode
a ``Raw`` inside a union ("Expected `null`, got `object`"), so a judge's record of a match with a
sealed decision (A-4.5's opening influence) could not be read back by ``kifu replay``, ``audit``
or the store. Until the core types it differently, this ruleset decodes ``ChoiceSealed`` through
a wire twin whose ``choice`` is a plain ``Raw`` and hands the core its own ``ChoiceSealed``.
Everything else goes through the core's ``Ruleset`` methods unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

import msgspec
from msgspec.structs import replace

from domain.core.commit import CORE_EVENTS, ChoiceSealed, PositionPrepared
from domain.core.envelope import Envelope
from domain.core.ruleset import Ruleset, _union_members


class _SealedWire(msgspec.Struct, tag="ChoiceSealed", frozen=True, kw_only=True, omit_defaults=True):
    seat: int
    commitment: str
    choice: msgspec.Raw = msgspec.Raw(b"")
    salt: str | None = None


def _core(event: Any) -> Any:
    if type(event) is _SealedWire:
        choice = event.choice if bytes(event.choice) else None
        return ChoiceSealed(seat=event.seat, commitment=event.commitment, choice=choice, salt=event.salt)
    return event


class _EnvelopeDecoder:
    __slots__ = ("_decoder",)

    def __init__(self, rules: Ruleset[Any, Any, Any]) -> None:
        core = tuple(_SealedWire if e is ChoiceSealed else PositionPrepared[rules.state_type] if e is PositionPrepared
                     else e for e in CORE_EVENTS)
        members = _union_members(rules.event_type) + core
        self._decoder = msgspec.json.Decoder(Envelope[Union[members]])  # type: ignore[valid-type]

    def decode(self, raw: bytes) -> Envelope[Any]:
        env = self._decoder.decode(raw)
        return replace(env, event=_core(env.event)) if type(env.event) is _SealedWire else env


@dataclass(frozen=True)
class AlteilRuleset(Ruleset[Any, Any, Any]):
    """The core's ``Ruleset`` with sealed choices decodable (see the module docstring)."""

    def envelope_decoder(self) -> Any:
        dec = self._decoders.get("envelope")
        if dec is None:
            dec = self._decoders["envelope"] = _EnvelopeDecoder(self)
        return dec

    def envelope_converter(self, raw: Any) -> Envelope[Any]:
        """From builtins (the service's JSON): a sealed or revealed choice is a JSON object there,
        which ``msgspec.convert`` cannot turn into ``Raw``; it is re-encoded as the canonical bytes."""
        event = raw.get("event") if isinstance(raw, dict) else None
        if isinstance(event, dict) and event.get("type") in ("ChoiceSealed", "ChoiceRevealed") \
                and event.get("choice") is not None:
            choice = event["choice"]
            as_raw = msgspec.Raw(choice if isinstance(choice, bytes) else
                                 choice.encode() if isinstance(choice, str) else msgspec.json.encode(choice))
            if event["type"] == "ChoiceRevealed":
                stripped = {**raw, "event": {**event, "choice": None}}
                env = msgspec.convert({**stripped, "event": {"type": "ChoiceSealed", "seat": event["seat"],
                                                              "commitment": ""}}, Envelope[self.record_event_type])
                from domain.core.commit import ChoiceRevealed
                return replace(env, event=ChoiceRevealed(seat=event["seat"], choice=as_raw, salt=event["salt"]))
            env = msgspec.convert({**raw, "event": {k: v for k, v in event.items() if k != "choice"}},
                                  Envelope[self.record_event_type])
            return replace(env, event=replace(env.event, choice=as_raw))
        return msgspec.convert(raw, Envelope[self.record_event_type])
