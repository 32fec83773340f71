"""``kifu serve``: the match service on uvicorn, on the same store as every other command."""
from __future__ import annotations

import asyncio
import logging
import socket

import click

from .context import Kifu, pass_kifu


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option("--db", default=None, metavar="PATH|URL",
              help="Match store (overrides the global --db): SQLite file, postgresql:// URL, or 'memory'.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Service processes; more than one wants PostgreSQL (SQLite serialises writes).")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
@click.option("--no-access-log", is_flag=True, help="Do not log each request (tokens are never logged either way).")
@pass_kifu
def serve(kifu: Kifu, host: str, port: int, db: str | None, workers: int, log_level: str, no_access_log: bool) -> None:
    """Serve matches over HTTP: two seats play, judges read (OpenAPI at /schema)."""
    from kifu.service.server import serve as run

    target = db or kifu.db
    _port_free(host, port)
    logging.getLogger("uvicorn.error").addFilter(_StreamsClosed())
    click.echo(f"kifu: serving on http://{host}:{port} (OpenAPI at /schema); Ctrl-C stops", err=True)
    try:
        run(target, host, port, workers=workers, log_level=log_level, access_log=not no_access_log)
    except SystemExit as exc:     # uvicorn exits 3 when it cannot start: that is not an illegal decision
        if exc.code not in (0, None):
            raise click.ClickException(f"the service could not start on {host}:{port} (see the log above)") from None
    except KeyboardInterrupt:
        pass


class _StreamsClosed(logging.Filter):
    """Ctrl-C with a live stream open: uvicorn cancels the stream after its grace period and logs
    the cancellation as a traceback. It is the expected end of a stream, said in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, asyncio.CancelledError):
            record.msg, record.args, record.exc_info, record.exc_text = (
                "a live stream was closed by the shutdown", (), None, None)
            record.levelno, record.levelname = logging.INFO, "INFO"
        elif (record.levelno >= logging.ERROR and str(record.msg).startswith("Cancel ")
              and "graceful" in str(record.msg)):
            record.msg = "closing %s live stream(s) at shutdown"
            record.args = record.args[:1] if isinstance(record.args, tuple) else record.args
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def _port_free(host: str, port: int) -> None:
    """A service that cannot start says why in one line and exits 1 (not uvicorn's 3)."""
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise click.ClickException(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
