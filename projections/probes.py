"""Probes: decisions a record expects today's engine to refuse, kept beside it.

A record holds only what was accepted; a ruling that *forbids* something (a redundant tower in a
payment, W-6.4) leaves no event. ``NAME.probes.json`` next to ``NAME.kifu.jsonl`` lists such
decisions: after event ``after``, seat ``seat`` submits ``command`` and the engine must refuse it
citing clause ``illegal``. The audit checks them once the record itself re-adjudicates clean.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import Illegal, KifuError, Malformed
from kifu.domain.core.header import Header
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import Ruleset

from .audit import Divergence

SUFFIX = ".probes.json"


class Probe(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    after: int
    seat: int
    command: dict[str, Any]
    illegal: str
    why: str = ""


class ProbeFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    probes: tuple[Probe, ...]


def probes_path(record: str | Path) -> Path:
    p = Path(record)
    stem = p.name.removesuffix(".gz").removesuffix(".kifu.jsonl")
    return p.with_name(stem + SUFFIX)


def load_probes(record: str | Path) -> tuple[Probe, ...]:
    path = probes_path(record)
    if not path.is_file():
        return ()
    try:
        return msgspec.json.decode(path.read_bytes(), type=ProbeFile).probes
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise Malformed(f"probes: {exc}", str(path)) from None


def encode_probes(probes: list[Probe]) -> bytes:
    return msgspec.json.format(msgspec.json.encode(ProbeFile(probes=tuple(probes))), indent=1) + b"\n"


def check_probes(ruleset: Ruleset[Any, Any, Any], header: Header, envelopes: list[Envelope[Any]],
                 probes: tuple[Probe, ...]) -> Divergence | None:
    """The first probe today's engine does not refuse as expected, as a divergence."""
    for probe in probes:
        expected = f"refused citing {probe.illegal}" + (f" ({probe.why})" if probe.why else "")
        if not 0 <= probe.after <= len(envelopes):
            raise Malformed(f"probe after #{probe.after}: the record has {len(envelopes)} events")
        try:
            command = msgspec.convert(probe.command, ruleset.decider.command_type)
        except msgspec.ValidationError as exc:
            raise Malformed(f"probe after #{probe.after}: not a {ruleset.name} command: {exc}") from None
        match = Match.fold(ruleset, header, envelopes[:probe.after])
        recorded = {"after": probe.after, "seat": probe.seat, "command": probe.command, "expected": expected}
        try:
            produced, _ = match.decide(probe.seat, command)
        except Illegal as exc:
            if exc.clause == probe.illegal:
                continue
            return Divergence(seq=probe.after + 1, clause=probe.illegal, recorded=recorded,
                              produced={"refused": exc.clause, "reason": exc.reason},
                              reason=f"today's engine refuses this probe citing {exc.clause}, not {probe.illegal}")
        except KifuError as exc:
            return Divergence(seq=probe.after + 1, clause=probe.illegal, recorded=recorded,
                              produced={"error": str(exc)}, reason=f"the probe cannot be tried: {exc}")
        first = msgspec.to_builtins(produced[0]) if produced else None
        return Divergence(seq=probe.after + 1, clause=probe.illegal, recorded=recorded, produced=first,
                          reason=f"today's engine accepts a decision the record expects to be {expected}")
    return None
