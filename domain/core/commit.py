"""Sealed decisions and the committed seed: events the core writes for every ruleset.

**Sealed decisions.** Where both seats choose in secret (novel's select phase, alteil's
influence reveal) a ruleset says so with its ``sealed(state)`` hook. The core then records each
awaited seat's choice as ``ChoiceSealed``: a commitment (BLAKE2b of the canonical command and a
128-bit salt drawn from the match's derived randomness). The plain choice and salt ride along in
the judge's record (so a restarted service can reveal them) and are stripped by the core from
every other seat's events, stream and record. When every awaited seat has sealed, the core
writes one ``ChoiceRevealed`` per seat (choice and salt, citing the seal as its cause) and runs
the ruleset's ``decide`` on each revealed command, in seat order. ``verify`` and ``audit`` check
that every reveal opens its commitment.

**The committed seed.** A served match's seed is drawn by the service; the header keeps only
``seed_commitment`` for the seats (BLAKE2b of the seed and a 128-bit nonce), and when the match
ends the core writes ``SeedRevealed`` (seed and nonce) so either player can recompute every
shuffle and check it was fixed before the first decision.

**Prepared positions.** ``PositionPrepared`` holds a whole state (scenarios, forks): only the
judge sees it.
"""
from __future__ import annotations

import hashlib
from typing import Any, Generic, TypeVar

import msgspec

from .clauses import implements
from .envelope import canonical

S = TypeVar("S")

SEAL_CLAUSE = "K-seal"          # the core's clause ids: not a game's, so they never collide
REVEAL_CLAUSE = "K-reveal"
SEED_CLAUSE = "K-seed"
PREPARED_CLAUSE = "K-prepared"

CORE_CLAUSES = {
    SEAL_CLAUSE: ("Sealed decision", "Both seats choose in secret: each choice is recorded as a commitment "
                  "(a digest of the choice and a 128-bit salt) until every awaited seat has chosen."),
    REVEAL_CLAUSE: ("Reveal", "Once every awaited seat has sealed its choice, each choice is revealed with its "
                    "salt; it must open the commitment recorded earlier, and what the rules do with it follows."),
    SEED_CLAUSE: ("Seed reveal", "The match seed, committed to in the header before play, is revealed when the "
                  "match ends, so every shuffle can be recomputed and checked."),
    PREPARED_CLAUSE: ("Prepared position", "A match that starts from a given position (a scenario or a fork) "
                      "records that whole position first; only the judge sees it."),
}

class ChoiceSealed(msgspec.Struct, frozen=True, tag=True, omit_defaults=True, kw_only=True):
    seat: int
    commitment: str
    choice: Any = None                   # the command (as JSON values): judge and chooser only
    salt: str | None = None


class ChoiceRevealed(msgspec.Struct, frozen=True, tag=True, omit_defaults=True, kw_only=True):
    seat: int
    choice: Any
    salt: str


class SeedRevealed(msgspec.Struct, frozen=True, tag=True, omit_defaults=True, kw_only=True):
    seed: int
    nonce: str


class PositionPrepared(msgspec.Struct, Generic[S], frozen=True, tag=True, omit_defaults=True, kw_only=True):
    """A prepared position (a scenario or a fork): the whole state, taken as it is."""

    state: S


CORE_EVENTS = (ChoiceSealed, ChoiceRevealed, SeedRevealed, PositionPrepared)


def commitment(choice: Any, salt: str) -> str:
    """The digest a sealed choice is known by until its reveal: of its canonical JSON and the salt."""
    return hashlib.blake2b(b"kifu-seal\0" + bytes.fromhex(salt) + b"\0" + canonical(choice),
                           digest_size=32).hexdigest()


@implements("K-seal")
def seal(command: Any, salt: str) -> ChoiceSealed:
    choice = msgspec.to_builtins(command)
    return ChoiceSealed(seat=0, commitment=commitment(choice, salt), choice=choice, salt=salt)


@implements("K-reveal")
def opens(sealed: ChoiceSealed, revealed: ChoiceRevealed) -> bool:
    """Does the reveal open the commitment (same seat, same digest of choice and salt)?"""
    try:
        return sealed.seat == revealed.seat and commitment(revealed.choice, revealed.salt) == sealed.commitment
    except ValueError:          # a salt that is not hex opens nothing
        return False


@implements("K-seed")
def seed_commitment(seed: int, nonce: str) -> str:
    return hashlib.blake2b(b"kifu-seed\0" + str(seed).encode() + b"\0" + bytes.fromhex(nonce),
                           digest_size=32).hexdigest()


def redact_sealed(event: Any, seat: int | None) -> Any:
    """The core's part of redaction: another seat's sealed choice shows only its commitment."""
    if seat is not None and isinstance(event, ChoiceSealed) and event.seat != seat and event.choice is not None:
        return ChoiceSealed(seat=event.seat, commitment=event.commitment)
    return event
