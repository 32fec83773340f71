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
@click.option("--feature", "featured", multiple=True, metavar="MATCH_ID|all",
              help="Show this match on the public feed (/feed): repeatable; 'all' features every match. "
                   "A full id may name a match not created yet.")
@click.option("--delay", default="0", show_default=True, metavar="Nd|Ns",
              help="How far the feed runs behind: N decisions (10d) or N seconds (30s).")
@click.option("--broadcast-token", default=None, envvar="KIFU_BROADCAST_TOKEN", metavar="TOKEN",
              help="Serve the feed only to holders of this token (default: to anyone).")
@click.option("--round-minutes", default=None, type=click.FloatRange(min=1), metavar="M",
              help="An event round's length: the feed shows each round's match with its round timer "
                   "(from the match's creation, plus the judge's time extensions).")
@pass_kifu
def serve(kifu: Kifu, host: str, port: int, db: str | None, workers: int, log_level: str, no_access_log: bool,
          featured: tuple[str, ...], delay: str, broadcast_token: str | None, round_minutes: float | None) -> None:
    """Serve matches over HTTP: two seats play, judges read (OpenAPI at /schema), spectators
    watch the featured matches on a delayed public feed (/feed)."""
    from kifu.projections.feed import Delay
    from kifu.service.feed import FeedConfig
    from kifu.service.server import serve as run

    target = db or kifu.db
    try:
        wait = Delay.parse(delay)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--delay") from None
    if featured and not (wait.decisions or wait.seconds):
        raise click.BadParameter("a featured match needs a delay (10d or 30s): a live public feed would show "
                                 "a player what the opponent does as it happens", param_hint="--delay")
    feed = FeedConfig(featured=tuple(_featured(kifu, target, f) for f in featured), delay=wait,
                      token=broadcast_token or None, round_minutes=round_minutes) if featured else None
    _port_free(host, port)
    logging.getLogger("uvicorn.error").addFilter(_StreamsClosed())
    click.echo(f"kifu: serving on http://{host}:{port} (OpenAPI at /schema); Ctrl-C stops", err=True)
    try:
        run(target, host, port, workers=workers, log_level=log_level, access_log=not no_access_log, feed=feed)
    except SystemExit as exc:     # uvicorn exits 3 when it cannot start: that is not an illegal decision
        if exc.code not in (0, None):
            raise click.ClickException(f"the service could not start on {host}:{port} (see the log above)") from None
    except KeyboardInterrupt:
        pass


def _featured(kifu: Kifu, db: str | None, match_id: str) -> str:
    """``all``, a full match id (which may not exist yet: an event's next round), or the
    unambiguous start of a stored one's."""
    import uuid

    from kifu.service.feed import ALL

    if match_id.strip().lower() == ALL:
        return ALL
    try:
        return str(uuid.UUID(match_id))
    except ValueError:
        pass
    kifu.db = db
    try:
        return kifu.resolve(match_id)
    finally:
        kifu.close()


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
