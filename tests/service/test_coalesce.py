"""A response's head and body leave in one write; a head alone is not held past the loop's turn."""
from __future__ import annotations

import asyncio
from typing import Any

from kifu.service.coalesce import CoalescingTransport

HEAD = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n"


class Recorder:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 1) if name == "peername" else default


def test_head_and_body_sent_in_one_turn_go_out_in_one_write() -> None:
    async def go() -> list[bytes]:
        raw = Recorder()
        t = CoalescingTransport(raw, asyncio.get_running_loop())  # type: ignore[arg-type]
        t.write(HEAD)
        t.write(b"{}")
        await asyncio.sleep(0)
        return raw.writes

    assert asyncio.run(go()) == [HEAD + b"{}"]


def test_a_head_without_a_body_in_its_turn_goes_out_at_the_end_of_the_turn() -> None:
    async def go() -> tuple[list[bytes], list[bytes]]:
        raw = Recorder()
        t = CoalescingTransport(raw, asyncio.get_running_loop())  # type: ignore[arg-type]
        t.write(HEAD)
        before = list(raw.writes)
        await asyncio.sleep(0)
        t.write(b"data: 1\n\n")        # a stream's first event, later
        return before, raw.writes

    before, after = asyncio.run(go())
    assert before == [] and after == [HEAD, b"data: 1\n\n"]


def test_closing_sends_a_held_head_first_and_other_calls_reach_the_transport() -> None:
    async def go() -> Recorder:
        raw = Recorder()
        t = CoalescingTransport(raw, asyncio.get_running_loop())  # type: ignore[arg-type]
        assert t.get_extra_info("peername") == ("127.0.0.1", 1)
        t.write(HEAD)
        t.close()
        await asyncio.sleep(0)
        return raw

    raw = asyncio.run(go())
    assert raw.writes == [HEAD] and raw.closed
