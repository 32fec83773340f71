"""Signed records: Ed25519 keys (``cryptography``), the signature on a record's end mark, trust.

A key file is the private key as PKCS#8 PEM (``kifu keys new``); its public half travels as one
line ``NAME BASE64`` — the form a trusted-keys file lists, one key per line (``#`` comments).
This module works on their bytes and text; reading the files (and ``$KIFU_SIGNING_KEY``) is
``kifu.store.keys``'s. ``check`` tells a record's state: unsigned, signed by a key (trusted or
not), cut, or broken.
"""
from __future__ import annotations

import base64
import hashlib
from typing import Any, NamedTuple

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .endmark import EndMark, signed_bytes
from .envelope import Envelope
from .errors import Malformed
from .header import Header
from .notes import Note
from .notes import signed_bytes as note_signed_bytes
from .ruleset import Outcome


class Signer(NamedTuple):
    name: str
    key: Ed25519PrivateKey

    @property
    def public(self) -> str:
        return public_b64(self.key.public_key())


def public_b64(key: Ed25519PublicKey) -> str:
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return base64.b64encode(raw).decode()


def fingerprint(public: str) -> str:
    """A short, stable name for a public key (SHA-256 of its raw bytes, 16 hex digits)."""
    return hashlib.sha256(base64.b64decode(public)).hexdigest()[:16]


def new_signer(name: str) -> Signer:
    return Signer(name, Ed25519PrivateKey.generate())


def private_pem(signer: Signer) -> bytes:
    """The key file: PKCS#8 PEM with the signer's name on a comment line before it."""
    pem = signer.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                   serialization.NoEncryption())
    return f"# kifu signing key: {signer.name}\n".encode() + pem


def signer_from_pem(data: bytes, name: str, where: str) -> Signer:
    """The signer in a key file's bytes (``private_pem``): its name from the comment line, else
    ``name``; ``where`` names the file in errors."""
    first = data.split(b"\n", 1)[0]
    if first.startswith(b"# kifu signing key: "):
        name = first.removeprefix(b"# kifu signing key: ").decode("utf-8", "replace").strip() or name
    try:
        key = serialization.load_pem_private_key(data[data.find(b"-----BEGIN"):], password=None)
    except (ValueError, TypeError) as exc:
        raise Malformed(f"not an unencrypted PEM private key ({exc})", where) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise Malformed("not an Ed25519 key", where)
    return Signer(name, key)


def parse_public(text: str, where: str) -> tuple[str, str]:
    """``NAME BASE64`` (or just ``BASE64``) -> (name, base64 key); checks it is an Ed25519 key."""
    parts = text.strip().split()
    if not parts or len(parts) > 2:
        raise Malformed("a public key is 'NAME BASE64' (as `kifu keys new` prints it)", where)
    b64 = parts[-1]
    name = parts[0] if len(parts) == 2 else fingerprint_or(b64, where)
    try:
        raw = base64.b64decode(b64, validate=True)
        Ed25519PublicKey.from_public_bytes(raw)
    except (ValueError, TypeError):
        raise Malformed(f"{b64[:20]!r} is not a base64 Ed25519 public key", where) from None
    return name, b64


def fingerprint_or(b64: str, where: str) -> str:
    try:
        return f"key {fingerprint(b64)}"
    except (ValueError, TypeError):
        raise Malformed(f"{b64[:20]!r} is not a base64 Ed25519 public key", where) from None


def parse_trusted(text: str, where: str) -> dict[str, str]:
    """A trusted-keys file's text: one ``NAME BASE64`` per line -> {base64 key: name}."""
    out: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            name, b64 = parse_public(line, f"{where}: line {number}")
            out[b64] = name
    return out


def end_mark(header: Header, envelopes: list[Envelope[Any]], outcome: str, signer: Signer | None) -> EndMark:
    """The end mark of a finished match's record, signed by ``signer`` when there is one."""
    last = envelopes[-1].chain if envelopes else ""
    mark = EndMark(match_id=header.match_id, events=len(envelopes), chain=last, outcome=outcome)
    if signer is None:
        return mark
    mark = msgspec.structs.replace(mark, signer=signer.name, key=signer.public)
    return msgspec.structs.replace(mark, signature=base64.b64encode(signer.key.sign(signed_bytes(mark))).decode())


def closing_mark(header: Header, envelopes: list[Envelope[Any]], outcome: Outcome | None,
                 signer: Signer | None) -> EndMark | None:
    """What every writer of a record (the service, export, play --out, fork, selfplay) puts after
    the last link: a finished match's end mark, signed when there is a key, so a record cut at a
    decision boundary fails verify; None while the match goes on (an ongoing match has no end)."""
    return end_mark(header, envelopes, outcome.describe(), signer) if outcome is not None else None


class Verdict(NamedTuple):
    ok: bool
    text: str            # "unsigned", "signed by ann (key …)", or what is wrong


def no_end_mark(envelopes: list[Envelope[Any]]) -> str:
    """What a record without an end mark is: nothing tells an ongoing match from a finished one's
    copy cut short (or a signed record's prefix), so it is never reported whole."""
    return f"no end mark: in progress or cut at seq {len(envelopes)}"


def check(header: Header, envelopes: list[Envelope[Any]], mark: EndMark | None,
          trusted: dict[str, str] | None = None, in_progress: bool = False) -> Verdict:
    """A record's end and signature. ``trusted`` (base64 key -> name): when given, only a
    signature by one of those keys is accepted (an unsigned record is then refused). A record
    without an end mark is refused unless ``in_progress`` says an unfinished one is expected
    (and never when a trusted signature is required: only an end mark is signed)."""
    if mark is None:
        if trusted is not None:
            return Verdict(False, f"{no_end_mark(envelopes)}, but a trusted signature was required "
                                  "(only a finished record's end mark is signed)")
        if in_progress:
            return Verdict(True, f"{no_end_mark(envelopes)} (read as in progress: nothing vouches for its end)")
        return Verdict(False, f"{no_end_mark(envelopes)} (give --in-progress to read an unfinished record)")
    if mark.match_id != header.match_id:
        return Verdict(False, f"the end mark is for match {mark.match_id[:40]}, not {header.match_id}")
    if len(envelopes) < mark.events:
        return Verdict(False, f"record ends at seq {len(envelopes)} of {mark.events}: it was cut")
    if len(envelopes) > mark.events:
        return Verdict(False, f"record goes on past its end mark at seq {mark.events} (to seq {len(envelopes)})")
    if (envelopes[-1].chain if envelopes else "") != mark.chain:
        return Verdict(False, f"the end mark does not match the chain at seq {mark.events}")
    if not mark.signature:
        if trusted is not None:
            return Verdict(False, "unsigned, but a trusted signature was required")
        return Verdict(True, f"unsigned (ends at seq {mark.events})")
    try:
        public = Ed25519PublicKey.from_public_bytes(base64.b64decode(mark.key, validate=True))
        public.verify(base64.b64decode(mark.signature, validate=True), signed_bytes(mark))
    except (InvalidSignature, ValueError, TypeError):
        return Verdict(False, f"the signature of {mark.signer or 'its signer'!r} does not verify: the record "
                              "or its end mark was changed after signing")
    who = f"{mark.signer[:64]!r} (key {fingerprint(mark.key)})"
    if trusted is None:
        return Verdict(True, f"signed by {who}, a key not checked against any trusted key (give --key or --trusted)")
    if mark.key not in trusted:
        return Verdict(False, f"signed by {who}, which is not a trusted key")
    return Verdict(True, f"signed by {trusted[mark.key]!r} (key {fingerprint(mark.key)}), a trusted key; "
                         f"ends at seq {mark.events}")


def sign_note(note: Note, signer: Signer) -> Note:
    """``note`` signed by ``signer`` (its number, given when stored, is outside the signature)."""
    note = msgspec.structs.replace(note, signer=signer.name, key=signer.public, signature="")
    return msgspec.structs.replace(note, signature=base64.b64encode(signer.key.sign(note_signed_bytes(note))).decode())


def check_note(note: Note, trusted: dict[str, str] | None = None) -> Verdict:
    """A note's signature: unsigned (ok unless ``trusted`` keys are required), signed by a key, or broken."""
    if not note.signature:
        return Verdict(trusted is None,
                       "unsigned" if trusted is None else "unsigned, but a trusted signature was required")
    try:
        public = Ed25519PublicKey.from_public_bytes(base64.b64decode(note.key, validate=True))
        public.verify(base64.b64decode(note.signature, validate=True), note_signed_bytes(note))
    except (InvalidSignature, ValueError, TypeError):
        return Verdict(False, f"note {note.number}: the signature of {note.signer[:64] or 'its signer'!r} does not "
                              "verify: the note was changed after signing")
    if trusted is not None and note.key not in trusted:
        return Verdict(False, f"note {note.number}: signed by {note.signer[:64]!r}, not a trusted key")
    return Verdict(True, f"signed by {note.signer[:64]!r} (key {fingerprint(note.key)})")
