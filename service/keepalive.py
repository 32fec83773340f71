"""A ``KifuClient`` whose plain calls go over one ``http.client`` keep-alive connection.

For the load generator, whose CPU shares the machine with the service it measures: httpx spent
about half of the load test's CPU per decision on its own machinery (URL merging, cookies,
auth and redirect handling, h11's event objects) — measured with py-spy on `kifu loadtest`.
The standard library's HTTP/1.1 client does one ``sendall`` and one buffered read per call.
Answers, errors and streams mean exactly what they mean for ``KifuClient`` (streams still go
through httpx). One instance per thread, like ``KifuClient``'s pool in the load test.
"""
from __future__ import annotations

import http.client
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx
import msgspec

from .client import KifuClient, Unreachable, error_of


class Answer:
    """The two things ``KifuClient``'s callers read from an answer."""

    __slots__ = ("status_code", "content")

    def __init__(self, status_code: int, content: bytes) -> None:
        self.status_code = status_code
        self.content = content


class KeepAliveClient(KifuClient):
    def __init__(self, server: str, token: str | None = None) -> None:
        super().__init__(server, token)
        parts = urlsplit(self.server)
        if parts.scheme not in ("http", "https"):
            raise Unreachable(server, "the server URL must start with http:// or https://")
        kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        self._conn = kind(parts.hostname or "127.0.0.1", parts.port, timeout=30.0)
        self._prefix = parts.path.rstrip("/")

    def close(self) -> None:
        self._conn.close()
        super().close()

    def _call(self, method: str, path: str, *, token: str | None = None, body: Any = None,
              params: dict[str, Any] | None = None, match_id: str = "", expected: int = -1) -> Any:
        content = None if body is None else msgspec.json.encode(body)
        headers = {"User-Agent": "kifu-client", **self._headers(token)}
        if content is not None:
            headers["Content-Type"] = "application/json"
        target = self._prefix + path + (f"?{urlencode(params)}" if params else "")
        status, data = self._round_trip(method, target, content, headers)
        if status >= 400:
            raise error_of(httpx.Response(status, content=data), match_id, expected)
        return Answer(status, data)

    def _round_trip(self, method: str, target: str, content: bytes | None,
                    headers: dict[str, str]) -> tuple[int, bytes]:
        """One request; a keep-alive connection the server closed meanwhile is reopened once
        (only when nothing of the answer came back, so no request is applied twice unknowingly:
        the service refuses a repeated decision as stale anyway)."""
        for attempt in (1, 2):
            try:
                self._conn.request(method, target, body=content, headers=headers)
                response = self._conn.getresponse()
                return response.status, response.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as exc:
                self._conn.close()
                if attempt == 2:
                    raise Unreachable(self.server, str(exc) or type(exc).__name__) from None
            except (OSError, http.client.HTTPException) as exc:
                self._conn.close()
                raise Unreachable(self.server, str(exc) or type(exc).__name__) from None
        raise AssertionError("unreachable")
