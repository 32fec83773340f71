"""The portable record ``.kifu.jsonl``: a header line, then one chained envelope per line.

Pure bytes in, structs out: file handling belongs to the callers. Gzip-compressed records are
read transparently. Errors name the line and field, never a traceback.

Format versions (``Header.format``) are the layout of the record, independent of any ruleset's
rules version (docs/record-format.md). Formats 1 and 2 are read as they are written (``NATIVE``):
a format-1 record keeps its header's ``format``, and the core re-runs, digests, chains and
encodes it as format 1 (SplitMix64, salts kept in seals, struct digests at every decision, every
line with its ``kind``), so its bytes, chain, end mark and signature stay valid. Format 2 leaves
``kind`` out of rule events' lines (``envelope_line``).

A record in a format older than 1 is upcast on read, line by line, by the upcasters registered
under the format they read (``UPCASTERS[n]`` turns format n into n + 1) up to format 1. Its hash
chain is checked as written, then re-derived for the upcast lines: a break in the old chain stays
a break at the same seq. A newer or unknown format fails with a message saying which formats this
Kifu reads.
"""
from __future__ import annotations

import hashlib
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple

import msgspec

from kifu.domain.version import FORMAT_VERSION

from .commit import ChoiceRevealed, ChoiceSealed, SeedRevealed, commitment, opens, seed_commitment
from .endmark import EndMark, decode_end, end_bytes, is_end
from .envelope import COMPACT_FORMAT, RULE_KIND, Envelope, canonical, envelope_line, genesis, link
from .errors import Malformed
from .header import Header, header_bytes
from .notes import Note, decode_note, note_bytes, split_notes
from .rng import KEYED_FORMAT, match_key, seal_salt
from .ruleset import Ruleset, find_ruleset

_header_decoder = msgspec.json.Decoder(Header)
_raw_decoder = msgspec.json.Decoder()

RawLine = dict[str, Any]


class Upcaster(NamedTuple):
    """Turns the decoded lines of a record in format ``source`` into format ``source + 1``."""

    source: int
    header: Callable[[RawLine], RawLine]
    envelope: Callable[[RawLine], RawLine] | None = None
    what: str = ""


UPCASTERS: dict[int, Upcaster] = {}
OLDEST_NATIVE = 1          # formats OLDEST_NATIVE..FORMAT_VERSION are read as written; older ones upcast to it
NATIVE = tuple(range(OLDEST_NATIVE, FORMAT_VERSION + 1))


def register_upcaster(upcaster: Upcaster) -> Upcaster:
    if upcaster.source >= OLDEST_NATIVE:
        raise ValueError(f"an upcaster reads an older format than {OLDEST_NATIVE}, not {upcaster.source}")
    UPCASTERS[upcaster.source] = upcaster
    return upcaster


def readable_formats() -> list[int]:
    """The formats read as written and every older one with a chain of upcasters up to them."""
    out = list(NATIVE)
    while out[0] - 1 in UPCASTERS:
        out.insert(0, out[0] - 1)
    return out


def _renamed(line: RawLine, renames: dict[str, str]) -> RawLine:
    return {renames.get(key, key): value for key, value in line.items()}


def _format0_header(line: RawLine) -> RawLine:
    return {**_renamed(line, {"rules": "rules_version", "engine": "engine_version"}), "format": 1}


def _format0_envelope(line: RawLine) -> RawLine:
    return _renamed(line, {"clause_id": "clause"})


# Format 0 (Kifu before 0.1): the header said "rules" and "engine" where format 1 says
# "rules_version" and "engine_version", and each envelope cited its clause as "clause_id".
register_upcaster(Upcaster(0, _format0_header, _format0_envelope,
                           'format 0: header "rules"/"engine", envelope "clause_id"'))


def _check_format(raw: RawLine, where: str) -> int:
    fmt = raw.get("format")
    readable = readable_formats()
    span = f"{readable[0]}..{readable[-1]}" if len(readable) > 1 else str(readable[0])
    if not isinstance(fmt, int) or isinstance(fmt, bool):
        raise Malformed(f"record format {fmt!r} is not a format number (this Kifu reads formats {span})", where)
    if fmt > FORMAT_VERSION:
        raise Malformed(f"record format {fmt} is newer than this Kifu reads (formats {span}); "
                        "a newer Kifu wrote it: upgrade Kifu to read it", where)
    if fmt not in readable:
        raise Malformed(f"record format {fmt} is unknown (this Kifu reads formats {span})", where)
    return fmt


def _upcast(line: RawLine, fmt: int, part: str) -> RawLine:
    for source in range(fmt, OLDEST_NATIVE):
        step = getattr(UPCASTERS[source], part)
        if step is not None:
            line = step(line)
    return line


def source_format(data: bytes) -> int | None:
    """The format a record was written in (before upcasting), or None if it has no readable header.

    ``data``: the record, or its header line."""
    first = data.split(b"\n", 1)[0] if data[:2] != b"\x1f\x8b" else (_lines(data)[:1] or [b""])[0]
    try:
        raw = _raw_decoder.decode(first)
    except (msgspec.DecodeError, RecursionError):
        return None
    fmt = raw.get("format") if isinstance(raw, dict) else None
    return fmt if isinstance(fmt, int) else None


def encode_record(header: Header, envelopes: Iterable[Envelope[Any]], end: EndMark | None = None,
                  notes: Iterable[Note] = ()) -> bytes:
    """The record's bytes; ``notes`` (``kifu.domain.core.notes``) as its notes section after the end
    mark (or after the last event of an unfinished record), outside the hash chain."""
    fmt = header.format
    lines = [header_bytes(header)]
    lines.extend(envelope_line(env, fmt) for env in envelopes)
    if end is not None:
        lines.append(end_bytes(end))
    lines.extend(note_bytes(note) for note in notes)
    return b"\n".join(lines) + b"\n"


class Limits(NamedTuple):
    """Hard bounds on reading a record, so a hostile one is refused in bounded time and memory.

    ``line``: bytes in one line (a 10,000-event WORLFARD record's longest is a few KiB);
    ``total``: bytes of the whole record once decompressed; ``depth``: JSON nesting. The
    environment overrides them (``KIFU_MAX_LINE``, ``KIFU_MAX_RECORD``, ``KIFU_MAX_DEPTH``): the
    reader of a file passes its environment to ``from_env`` (the rules never read it)."""

    line: int = 1 << 20
    total: int = 64 << 20
    depth: int = 64

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Limits:
        base = cls()

        def value(name: str, default: int) -> int:
            raw = env.get(name, "")
            return int(raw) if raw.isascii() and raw.isdigit() and int(raw) > 0 else default

        return cls(value("KIFU_MAX_LINE", base.line), value("KIFU_MAX_RECORD", base.total),
                   value("KIFU_MAX_DEPTH", base.depth))


READ_CHUNK = 1 << 16
_GZIP_MAGIC = b"\x1f\x8b"


def decompressed(chunks: Iterable[bytes], limits: Limits, source: str) -> Iterator[bytes]:
    """The bytes of a record, gunzipped on the fly when they start with the gzip magic, never
    more than ``limits.total`` of them (no whole-file decompression in memory)."""
    it = iter(chunks)
    first = b""
    for first in it:
        if first:
            break
    if first[:2] != _GZIP_MAGIC:
        total = len(first)
        if total > limits.total:
            raise Malformed(_too_big(limits), source)
        yield first
        for chunk in it:
            total += len(chunk)
            if total > limits.total:
                raise Malformed(_too_big(limits), source)
            yield chunk
        return
    total = 0
    inflate = zlib.decompressobj(wbits=31)
    pending = first
    pending_member = True          # the current gzip member has been fed and has not ended
    try:
        while True:
            while pending:
                pending_member = True
                out = inflate.decompress(pending, READ_CHUNK)
                pending = inflate.unconsumed_tail
                if inflate.eof:            # one gzip member ends: another may follow
                    rest = inflate.unused_data
                    pending_member = False
                    inflate = zlib.decompressobj(wbits=31)
                    pending = rest if rest[:2] == _GZIP_MAGIC or not rest else b""
                    if rest and rest[:2] != _GZIP_MAGIC and rest.strip(b"\0"):
                        raise Malformed("not a readable gzip file (bytes after the compressed data)", source)
                total += len(out)
                if total > limits.total:
                    raise Malformed(_too_big(limits), source)
                if out:
                    yield out
            nxt = next(it, None)
            if nxt is None:
                break
            pending = nxt
    except zlib.error as exc:
        raise Malformed(f"not a readable gzip file ({exc})", source) from None
    if not inflate.eof and (pending_member or total == 0):
        raise Malformed("not a readable gzip file (it ends early: the file was cut)", source)


def _too_big(limits: Limits) -> str:
    return f"the record is larger than {limits.total} bytes (decompressed); set KIFU_MAX_RECORD to read it"


def record_lines(chunks: Iterable[bytes], source: str = "record", limits: Limits | None = None) -> list[bytes]:
    """The non-blank lines of a record read from ``chunks``, within ``limits`` (line length,
    decompressed size, nesting depth; the defaults without them); raises ``Malformed`` naming the
    line otherwise."""
    limits = limits or Limits()
    lines: list[bytes] = []
    tail = b""
    number = 0
    for chunk in decompressed(chunks, limits, source):
        if not chunk.strip() and not tail.strip():   # a run of blank lines costs nothing (a gzip of newlines)
            tail = b""
            continue
        parts = (tail + chunk if tail else chunk).split(b"\n")
        tail = parts.pop()
        for line in filter(None, parts):
            if line.strip():
                number += 1
                _check_line(line, number, limits, source)
                lines.append(line)
        if len(tail) > limits.line:
            raise Malformed(f"longer than {limits.line} bytes (set KIFU_MAX_LINE to read it)",
                            f"{source}: line {number + 1}")
    if tail.strip():
        _check_line(tail, number + 1, limits, source)
        lines.append(tail)
    return lines


_BRACKETS = bytes(range(256)).translate(None, b"[]{}")


def _check_line(line: bytes, number: int, limits: Limits, source: str) -> None:
    if len(line) > limits.line:
        raise Malformed(f"longer than {limits.line} bytes (set KIFU_MAX_LINE to read it)", f"{source}: line {number}")
    try:
        line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Malformed(f"not UTF-8 (byte {exc.start})", f"{source}: line {number}") from None
    opened = line.count(b"[") + line.count(b"{")
    if opened > limits.depth and _depth(line) > limits.depth:
        raise Malformed(f"JSON nested deeper than {limits.depth}", f"{source}: line {number}")


def _depth(line: bytes) -> int:
    """The deepest nesting of a JSON line, strings left out."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in line.translate(None, _BRACKETS) if b'"' not in line else line:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > deepest:
                deepest = depth
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _lines(data: bytes, source: str = "record") -> list[bytes]:
    return record_lines((data[i:i + READ_CHUNK] for i in range(0, len(data), READ_CHUNK)), source)


def decode_header(line: bytes, where: str = "line 1") -> Header:
    try:
        raw = _raw_decoder.decode(line)
    except msgspec.DecodeError as exc:
        raise Malformed(f"header is not JSON ({exc})", where) from None
    except RecursionError:
        raise Malformed("header: JSON nested too deeply", where) from None
    if not isinstance(raw, dict) or raw.get("kifu") != "match":
        raise Malformed('not a Kifu record (the header has no "kifu": "match")', where)
    fmt = _check_format(raw, where)
    if fmt < OLDEST_NATIVE:
        raw = _upcast(raw, fmt, "header")
    try:
        return msgspec.convert(raw, Header)
    except msgspec.ValidationError as exc:
        raise Malformed(f"header: {exc}", where) from None
    except RecursionError:
        raise Malformed("header: JSON nested too deeply", where) from None


def decode_record(data: bytes, source: str = "record") -> tuple[Header, list[Envelope[Any]], Ruleset[Any, Any, Any]]:
    """Parse a whole record; raises ``Malformed`` naming the line of the first bad envelope."""
    header, envelopes, ruleset, _ = decode_lines(_lines(data, source), source)
    return header, envelopes, ruleset


def decode_lines(lines: list[bytes], source: str = "record"
                 ) -> tuple[Header, list[Envelope[Any]], Ruleset[Any, Any, Any], EndMark | None]:
    """Parse a record's lines (``record_lines``): header, envelopes, ruleset and its end mark, if any.
    A notes section at its end (``kifu.domain.core.notes``) is left out: ``decode_notes`` reads it."""
    if not lines:
        raise Malformed("empty file", source)
    lines, _ = split_notes(lines)
    header = decode_header(lines[0], f"{source}: line 1")
    ruleset = find_ruleset(header.ruleset)
    end = None
    if len(lines) > 1 and is_end(lines[-1]):
        end = decode_end(lines[-1], f"{source}: line {len(lines)}")
        lines = lines[:-1]
    fmt = source_format(lines[0])
    if fmt is not None and fmt < OLDEST_NATIVE:
        return (header, _upcast_envelopes(header, lines, fmt, ruleset, source), ruleset, end)
    decoder = ruleset.envelope_decoder()
    compact = header.format >= COMPACT_FORMAT
    envelopes: list[Envelope[Any]] = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            env = _decode_compact(decoder, ruleset, line) if compact else decoder.decode(line)
        except msgspec.ValidationError as exc:
            raise Malformed(f"event does not match the {ruleset.name} schema: {exc}",
                            f"{source}: line {number}") from None
        except msgspec.DecodeError as exc:
            raise Malformed(f"not JSON ({exc})", f"{source}: line {number}") from None
        except RecursionError:
            raise Malformed("JSON nested too deeply", f"{source}: line {number}") from None
        _check_seq(env.seq, len(envelopes) + 1, f"{source}: line {number}")
        envelopes.append(env)
    return header, envelopes, ruleset, end


def decode_notes(lines: list[bytes], source: str = "record") -> list[Note]:
    """The notes section of a record's lines (``record_lines``), each note checked."""
    kept, notes = split_notes(lines)
    return [decode_note(line, f"{source}: line {number}") for number, line in enumerate(notes, start=len(kept) + 1)]


def _decode_compact(decoder: msgspec.json.Decoder[Any], ruleset: Ruleset[Any, Any, Any], line: bytes) -> Any:
    """A format-2 line, whose ``kind`` is left out for rule events: put back where it was left out
    (right after the seq that opens every line Kifu writes), else decoded as JSON and filled in."""
    if line.startswith(b'{"seq":'):
        comma = line.find(b",", 7)
        if line.startswith(b',"event":', comma):
            line = line[:comma] + RULE_KIND + line[comma:]
        try:
            return decoder.decode(line)
        except msgspec.ValidationError:
            pass           # not as Kifu writes it: read it as JSON below
    raw = _raw_decoder.decode(line)
    if isinstance(raw, dict) and "kind" not in raw:
        raw["kind"] = "rule"
    return ruleset.envelope_converter(raw)


def _check_seq(seq: int, expected: int, where: str) -> None:
    if seq != expected:
        raise Malformed(f"seq {seq} where seq {expected} was expected", where)


def _raw_link(previous: str, line: RawLine) -> str:
    """``envelope.link`` over a line as written (what formats 0 and 1 chained)."""
    body = canonical({k: v for k, v in line.items() if k != "chain"})
    return hashlib.blake2b(previous.encode() + body, digest_size=16).hexdigest()


def _upcast_envelopes(header: Header, lines: list[bytes], fmt: int, ruleset: Ruleset[Any, Any, Any],
                      source: str) -> list[Envelope[Any]]:
    """Envelopes of an older-format record: checked against their own chain, upcast, re-chained."""
    old_head = genesis(lines[0])
    new_head = genesis(header_bytes(header))
    intact = True
    envelopes: list[Envelope[Any]] = []
    for number, line in enumerate(lines[1:], start=2):
        where = f"{source}: line {number}"
        try:
            raw = _raw_decoder.decode(line)
        except msgspec.DecodeError as exc:
            raise Malformed(f"not JSON ({exc})", where) from None
        if not isinstance(raw, dict):
            raise Malformed("an event line is a JSON object", where)
        old_head = _raw_link(old_head, raw)
        intact = intact and raw.get("chain") == old_head
        try:
            env = ruleset.envelope_converter(_upcast(raw, fmt, "envelope"))
        except msgspec.ValidationError as exc:
            raise Malformed(f"event does not match the {ruleset.name} schema (format {fmt}, upcast): {exc}",
                            where) from None
        _check_seq(env.seq, len(envelopes) + 1, where)
        if intact:  # past the first broken link the old chain values stay, and stay broken
            new_head = link(new_head, env, header.format)
            env = msgspec.structs.replace(env, chain=new_head)
        envelopes.append(env)
    return envelopes


def first_broken_link(header: Header, envelopes: list[Envelope[Any]]) -> int | None:
    """The seq of the first envelope whose chain hash does not match, or None if intact."""
    head = genesis(header_bytes(header))
    fmt = header.format
    for env in envelopes:
        head = link(head, env, fmt)
        if env.chain != head:
            return env.seq
    return None


def seal_key(header: Header, envelopes: list[Envelope[Any]]) -> bytes | None:
    """Format 2: the match key every salt derives from, where the record lets a reader know it: from
    the revealed seed (``SeedRevealed``), else from the header when it commits to no seed (a local
    match) or holds the seed and nonce its commitment opens (a served match's judge copy); None for a
    seat's copy before the reveal."""
    for env in reversed(envelopes):
        if isinstance(env.event, SeedRevealed):
            try:
                return match_key(env.event.seed, env.event.nonce)
            except ValueError:         # a nonce that is not hex keys nothing
                return None
    if header.seed_commitment is None:
        return match_key(header.seed, None)
    if header.seed_nonce is not None:
        try:
            if seed_commitment(header.seed, header.seed_nonce) == header.seed_commitment:
                return match_key(header.seed, header.seed_nonce)
        except ValueError:
            return None
    return None


def first_broken_seal(header: Header, envelopes: list[Envelope[Any]],
                      finished: bool = False) -> tuple[int, str] | None:
    """The first reveal that does not open its commitment (seq, why), or None.

    Format 1: a ``ChoiceSealed``'s judge copy (its choice and salt) must open its own commitment.
    Format 2: a seal carries no salt; where the key is known (``seal_key``) every salt is derived
    again and the judge copy's choice must open the commitment with it, and a reveal's salt must be
    the derived one. Both: a ``ChoiceRevealed`` must open the ``ChoiceSealed`` it cites as its cause
    (same seat, digest of choice and salt, the judge copy's choice); a ``SeedRevealed`` must open
    the header's ``seed_commitment`` and be the seed the match was played with. ``finished`` (the
    record has its end mark): a served match (its header commits to a seed) must have revealed its
    seed."""
    revealed_seed = False
    keyed = header.format >= KEYED_FORMAT
    key = seal_key(header, envelopes) if keyed else None
    for env in envelopes:
        event = env.event
        if isinstance(event, ChoiceSealed):
            broken = _broken_judge_copy(env.seq, event, key, keyed)
            if broken is not None:
                return env.seq, broken
        elif isinstance(event, ChoiceRevealed):
            sealed = envelopes[env.cause - 1].event if env.cause and 0 < env.cause <= len(envelopes) else None
            if not isinstance(sealed, ChoiceSealed):
                return env.seq, f"the reveal of seat {event.seat} cites no sealed choice (cause {env.cause})"
            if not opens(sealed, event):
                return env.seq, (f"the reveal of seat {event.seat} does not open the commitment sealed at "
                                 f"#{env.cause}")
            if key is not None and env.cause is not None and event.salt != seal_salt(key, env.cause, event.seat):
                return env.seq, (f"the reveal of seat {event.seat} carries a salt the match key does not derive "
                                 f"for the seal at #{env.cause}")
            if sealed.choice is not None and canonical(sealed.choice) != canonical(event.choice):
                return env.seq, (f"the reveal of seat {event.seat} is not the choice sealed at #{env.cause} "
                                 "(the judge's copy)")
        elif isinstance(event, SeedRevealed):
            revealed_seed = True
            if header.seed_commitment is None:
                return env.seq, "a seed is revealed but the header committed to none"
            try:
                opened = seed_commitment(event.seed, event.nonce) == header.seed_commitment
            except ValueError:       # a nonce that is not hex opens nothing
                opened = False
            if not opened:
                return env.seq, "the revealed seed does not open the header's seed commitment"
            if event.seed != header.seed:
                return env.seq, "the revealed seed is not the seed the match was played with"
    if finished and header.seed_commitment is not None and not revealed_seed:
        return len(envelopes), ("the match is over but its seed was never revealed: the header's seed "
                                "commitment is not opened (a SeedRevealed event is missing)")
    return None


def _broken_judge_copy(seq: int, event: ChoiceSealed, key: bytes | None, keyed: bool) -> str | None:
    """Why a seal's judge copy does not open its own commitment, or None (also None for a copy
    without its choice, which has nothing to open)."""
    if keyed and event.salt is not None:
        return f"seat {event.seat}'s sealed choice carries a salt: record format 2 writes none before the reveal"
    salt = event.salt if not keyed else (seal_salt(key, seq, event.seat) if key is not None else None)
    if event.choice is None or salt is None:
        return None
    try:
        own = commitment(event.choice, salt) == event.commitment
    except ValueError:       # a salt that is not hex opens nothing
        own = False
    if own:
        return None
    return (f"seat {event.seat}'s sealed choice (the judge's copy) does not open its own commitment: "
            f"its choice{'' if keyed else ' or salt'} was changed")
