"""Our msgspec mapper for eventsourcing: one match = one stream of canonical JSON rows.

eventsourcing 9.5 would store a class path (``module:Class``) as each row's topic and the event
object's attribute dict as its state; both would freeze our module layout into the database. Instead every row's
topic is a stable tag and its state is exactly the line the portable record holds
(``kifu.domain.core.envelope.canonical``):

- originator_version 0: the match ``Header``, topic ``kifu.header/1``;
- originator_version N: the ``Envelope`` with ``seq`` N, topic ``kifu.event/<ruleset>``;
- a tournament's stream (``MatchStore.append_entries``): originator_version N is its ``Entry`` N, topic
  ``kifu.tournament/1``.

The ``/1`` is the layout of the header row, not the record format (the header carries that).
The ruleset in event topics lets a notification reader decode a row without its header.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple
from uuid import UUID

import msgspec
from eventsourcing.persistence import (
    Cipher,
    Compressor,
    Mapper,
    StoredEvent,
    Transcoder,
)

from kifu.domain.core.envelope import Envelope, canonical
from kifu.domain.core.errors import Malformed
from kifu.domain.core.header import Header
from kifu.domain.core.record import decode_header
from kifu.domain.core.ruleset import Ruleset, find_ruleset
from kifu.domain.tournament.events import Entry

HEADER_TOPIC = "kifu.header/1"
EVENT_TOPIC_PREFIX = "kifu.event/"
TOURNAMENT_TOPIC = "kifu.tournament/1"
HEADER_VERSION = 0  # the header's originator_version; envelope seq N is version N

RulesetLookup = Callable[[str], Ruleset[Any, Any, Any]]


_entry_decoder = msgspec.json.Decoder(Entry)


def event_topic(ruleset: str) -> str:
    return EVENT_TOPIC_PREFIX + ruleset


def _decode(decoder: msgspec.json.Decoder[Any], data: bytes, what: str, stored: StoredEvent) -> Any:
    try:
        return decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise Malformed(f"{what} does not match its schema: {exc}", _where(stored)) from None
    except msgspec.DecodeError as exc:
        raise Malformed(f"{what} is not JSON ({exc})", _where(stored)) from None


def _where(stored: StoredEvent) -> str:
    return f"match {stored.originator_id} row {stored.originator_version}"


class StreamItem(NamedTuple):
    """One row of a match stream, as eventsourcing's mapper protocol sees a "domain event"."""

    originator_id: UUID
    originator_version: int
    payload: Header | Envelope[Any] | Entry
    ruleset: str  # names the event topic; unused for the header and a tournament's entries


class NoTranscoder(Transcoder):
    """The mapper encodes with msgspec itself; this only satisfies ``Mapper.__init__``."""

    def encode(self, obj: Any) -> bytes:
        return obj if isinstance(obj, bytes) else canonical(obj)

    def decode(self, data: bytes) -> Any:
        return data


class KifuMapper(Mapper[UUID]):
    """Maps ``StreamItem`` <-> ``StoredEvent``; decoders are built once per topic and reused.

    Constructible the way eventsourcing's factory does it (``MAPPER_TOPIC``), so an
    eventsourcing ``Application`` could read the same rows; ``rulesets`` defaults to the registry.
    """

    def __init__(self, transcoder: Transcoder | None = None, compressor: Compressor | None = None,
                 cipher: Cipher | None = None, *, rulesets: RulesetLookup = find_ruleset) -> None:
        super().__init__(transcoder or NoTranscoder(), compressor=compressor, cipher=cipher)
        self._rulesets = rulesets
        self._decoders: dict[str, tuple[msgspec.json.Decoder[Any], str]] = {}  # topic -> (decoder, ruleset)

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        item: StreamItem = domain_event
        payload = item.payload
        topic = HEADER_TOPIC if isinstance(payload, Header) else \
            TOURNAMENT_TOPIC if isinstance(payload, Entry) else event_topic(item.ruleset)
        state = canonical(payload)
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return StoredEvent(originator_id=item.originator_id, originator_version=item.originator_version,
                           topic=topic, state=state)

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        return self.decode(stored_event)

    def decode(self, stored: StoredEvent) -> StreamItem:
        """The row as a ``StreamItem``; a row that does not decode is ``Malformed`` naming it."""
        data = stored.state
        if self.cipher:
            data = self.cipher.decrypt(data)
        if self.compressor:
            data = self.compressor.decompress(data)
        topic = stored.topic
        version = stored.originator_version
        originator_id = stored.originator_id
        if not isinstance(originator_id, UUID):
            originator_id = UUID(originator_id)
        if topic == HEADER_TOPIC:  # the record's own reader: format checks and upcasts in one place
            header = decode_header(data, _where(stored))
            return StreamItem(originator_id, version, header, header.ruleset)
        if topic == TOURNAMENT_TOPIC:
            entry = _decode(_entry_decoder, data, "the tournament event", stored)
            if entry.seq != version:
                raise Malformed(f"entry seq {entry.seq} stored at version {version}", _where(stored))
            return StreamItem(originator_id, version, entry, "")
        found = self._decoders.get(topic)
        decoder, ruleset = found if found is not None else self._decoder(topic, stored)
        envelope = _decode(decoder, data, f"the {ruleset} event", stored)
        if envelope.seq != version:
            raise Malformed(f"envelope seq {envelope.seq} stored at version {version}", _where(stored))
        return StreamItem(originator_id, version, envelope, ruleset)

    def _decoder(self, topic: str, stored: StoredEvent) -> tuple[msgspec.json.Decoder[Any], str]:
        if not topic.startswith(EVENT_TOPIC_PREFIX):
            raise Malformed(f"unknown topic {topic!r}: not written by Kifu's store", _where(stored))
        ruleset = topic[len(EVENT_TOPIC_PREFIX):]
        found = self._decoders[topic] = (self._rulesets(ruleset).envelope_decoder(), ruleset)  # or UnknownRuleset
        return found
