"""uvicorn's httptools protocol with each response's head and body sent in one write.

uvicorn writes a response's status line and headers when the application sends
``http.response.start``, then the body on ``http.response.body``: two ``send`` system calls
and two TCP segments (the sockets have Nagle off) for every small JSON answer, and the client
wakes twice. Profiling the service under ``kifu loadtest`` put a sixth of its CPU inside those
writes. Here the transport holds a header block until the end of the event loop's current
turn: the body the application sends in the same turn goes out with it in one ``send``; a
head with no body in that turn (a stream waiting for its first event) goes out alone at the
end of the turn, so nothing waits longer than one turn.
"""
from __future__ import annotations

import asyncio
from typing import Any, cast

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class CoalescingTransport:
    """A transport proxy: a write that ends a header block waits for the rest of this turn."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._held: list[bytes] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._held:
            self._held.append(bytes(data))
            self.flush()
        elif data[-4:] == b"\r\n\r\n" and data[:5] == b"HTTP/":
            self._held.append(bytes(data))
            self._loop.call_soon(self.flush)
        else:
            self._transport.write(data)

    def flush(self) -> None:
        if self._held:
            data, self._held = b"".join(self._held), []
            if not self._transport.is_closing():
                self._transport.write(data)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def write_eof(self) -> None:
        self.flush()
        self._transport.write_eof()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class CoalescingHttpTools(HttpToolsProtocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvicorn hands its protocols an asyncio.Transport; the proxy stands in for one by delegation
        proxy = CoalescingTransport(cast(asyncio.Transport, transport), self.loop)
        super().connection_made(cast(asyncio.Transport, proxy))
