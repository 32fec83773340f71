"""Build every msgspec type the service decodes before more than one thread can touch them.

msgspec (0.22) computes a Struct type's decoding info the first time a decoder or ``convert``
needs it. Two threads doing that for the same types at the same moment, while one of them
already decodes, crash the process (a segmentation fault: measured 23 crashes in 30 cold runs
of six threads decoding envelopes; none once the decoder had been built first). The service
decodes in worker threads from its first request on, so it runs this once at startup, before
uvicorn accepts connections; the load test does the same before starting its workers.
"""
from __future__ import annotations

import uuid
from types import GenericAlias
from typing import Any

import msgspec

from kifu.domain.core.envelope import canonical
from kifu.domain.core.header import header_bytes
from kifu.domain.core.match import Match
from kifu.domain.core.record import decode_header
from kifu.domain.core.ruleset import find_ruleset, ruleset_names


def warm_rulesets() -> None:
    """Every ruleset's decoders, and one short setup decoded and converted through them."""
    for name in ruleset_names():
        rules = find_ruleset(name)
        envelopes = rules.envelope_decoder()
        rules.command_decoder()
        presets = rules.content.presets()
        if len(presets) < 1:
            continue
        match = Match.create(rules, match_id=str(uuid.uuid4()), seed=1,
                             decks=[rules.content.load_deck(presets[0]), rules.content.load_deck(presets[-1])],
                             players=("a", "b"))
        decode_header(header_bytes(match.header))
        for env in match.envelopes:
            envelopes.decode(canonical(env))
            rules.envelope_converter(msgspec.to_builtins(env))
        for seat in match.awaiting:
            for command in match.legal(seat):
                msgspec.convert(msgspec.to_builtins(command), rules.decider.command_type)
            msgspec.convert(msgspec.to_builtins(match.legal(seat)), GenericAlias(list, rules.decider.command_type))
            msgspec.to_builtins(rules.presentation.layout(rules.decider.view(match.state, seat)))


def warm_signatures(handlers: list[Any]) -> None:
    """Litestar converts each request's parameters into the handler's signature model (a Struct)."""
    for handler in handlers:
        model = getattr(handler, "signature_model", None)
        if model is None:
            continue
        try:
            msgspec.convert({}, model, strict=False)
        except (msgspec.ValidationError, TypeError):
            pass
