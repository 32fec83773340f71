"""Reading a record in chunks: where the reads fall never changes the lines (issue 14's streaming reader)."""
from __future__ import annotations

from kifu.domain.core.record import record_lines


def test_a_chunk_of_only_newlines_ends_the_line_before_it() -> None:
    """A read that returns only the newline of a part line ends that line: it is not glued to the next."""
    assert record_lines([b'{"a":1}', b"\n", b'{"b":2}\n']) == [b'{"a":1}', b'{"b":2}']
    assert record_lines([b'{"a":1}', b"\n\n\n", b'{"b":2}']) == [b'{"a":1}', b'{"b":2}']


def test_any_split_of_a_record_into_chunks_reads_the_same_lines() -> None:
    data = b'{"kifu":"match"}\n\n{"seq":1}\n{"seq":2}\n\n\n{"seq":3}\n'
    whole = record_lines([data])
    assert whole == [b'{"kifu":"match"}', b'{"seq":1}', b'{"seq":2}', b'{"seq":3}']
    for size in range(1, len(data) + 1):
        chunks = [data[i:i + size] for i in range(0, len(data), size)]
        assert record_lines(chunks) == whole, size
