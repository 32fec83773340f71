"""``kifu``: the root group. Every Kifu error becomes a one-line message and a non-zero exit."""
from __future__ import annotations

import sys
from typing import Any

import click

from kifu.domain.core.errors import Conflict, Illegal, InvalidDeck, KifuError, Malformed, UnknownMatch, UnknownRuleset
from kifu.projections.fork import ForkError
from kifu.store.errors import BadStoreAddress

from . import (
    bench,
    cards,
    client,
    dossier,
    event,
    judge,
    keys,
    loadtest,
    notes,
    play,
    position,
    records,
    replay,
    selfplay,
    serve,
    stats,
    viewer,
    whatif,
)
from .context import Interrupted, Kifu, ctrl_c
from .output import CannotWrite

USAGE = 2          # click's usage errors (an unknown option, a bad --at) exit 2 like malformed input
INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a process stopped by Ctrl-C


class KifuFailure(click.ClickException):
    """A Kifu error shown as one line; the exit code is the class's, by kind (click's ``exit_code``
    is a class variable): 1, or 2 malformed, 3 illegal, 4 conflict."""

    def show(self, file: object = None) -> None:
        click.echo(f"error: {self.message}", err=True)


class MalformedFailure(KifuFailure):
    exit_code = 2


class IllegalFailure(KifuFailure):
    exit_code = 3


class ConflictFailure(KifuFailure):
    exit_code = 4


class InterruptedFailure(KifuFailure):
    exit_code = INTERRUPTED


# The README's table: 2 usage or malformed input (a bad path, name, deck, --db address, an unknown
# match or ruleset); 3 an illegal decision; 4 a conflict; 130 Ctrl-C; anything else 1.
FAILURES: dict[type[Exception], type[KifuFailure]] = {
    Malformed: MalformedFailure, ForkError: MalformedFailure, InvalidDeck: MalformedFailure,
    UnknownRuleset: MalformedFailure, UnknownMatch: MalformedFailure, CannotWrite: MalformedFailure,
    BadStoreAddress: MalformedFailure, Illegal: IllegalFailure, Conflict: ConflictFailure,
    Interrupted: InterruptedFailure}
EXIT_CODES = {kind: failure.exit_code for kind, failure in FAILURES.items()}


def failure(error: KifuError) -> KifuFailure:
    """The click exception that shows ``error`` and exits with its kind's code."""
    kind = next((f for t, f in FAILURES.items() if isinstance(error, t)), KifuFailure)
    return kind(str(error))


class KifuGroup(click.Group):
    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except KifuError as exc:
            raise failure(exc) from None

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        """Click's own errors as one line too: ``error: kifu replay: …`` (no usage block)."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as exc:
            where = f"{exc.ctx.command_path}: " if exc.ctx is not None else ""
            click.echo(f"error: {where}{exc.format_message()} (see --help)", err=True)
            sys.exit(USAGE)
        except click.ClickException as exc:
            click.echo(f"error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except (click.Abort, EOFError, KeyboardInterrupt) as exc:
            if ctrl_c(exc):
                click.echo("error: interrupted", err=True)
                sys.exit(INTERRUPTED)
            click.echo("error: aborted (no more input)", err=True)
            sys.exit(1)
        except OSError as exc:     # a path the user gave that the system refused: one line, never a traceback
            where = f"{exc.filename}: " if exc.filename else ""
            click.echo(f"error: {where}{exc.strerror or exc}", err=True)
            sys.exit(USAGE if exc.filename else 1)
        sys.exit(code if isinstance(code, int) else 0)


def _set_db(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    """``--db`` after the command name (``kifu play --db memory …``) sets the same store as before it."""
    if value is not None:
        kifu = ctx.find_object(Kifu)
        if kifu is not None:
            kifu.db = value


def _db_option() -> click.Option:
    return click.Option(["--db"], default=None, metavar="PATH|URL", expose_value=False, callback=_set_db,
                        is_eager=True, help="Match store: SQLite file, postgresql:// URL, or 'memory'.")


@click.group(cls=KifuGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", envvar="KIFU_DB", default=None, metavar="PATH|URL",
              help="Match store: an SQLite file (default ./kifu.db), a postgresql:// URL, or 'memory'.")
@click.version_option(package_name="kifu")
@click.pass_context
def cli(ctx: click.Context, db: str | None) -> None:
    """Kifu: record, replay and audit tactical trading-card-game matches."""
    kifu = Kifu(db)
    ctx.obj = kifu
    ctx.call_on_close(kifu.close)


for command in (play.play, replay.replay, records.why, records.audit, records.verify, records.export,
                records.import_, records.matches, records.rules, serve.serve, client.client, loadtest.loadtest,
                whatif.legal, whatif.fork, whatif.diff, stats.stats, bench.bench, selfplay.selfplay, cards.cards,
                viewer.viewer, keys.keys, position.position, notes.annotate, notes.notes,
                dossier.dossier, event.event, judge.judge, judge.penalties):
    cli.add_command(command)
    targets = command.commands.values() if isinstance(command, click.Group) else (command,)
    for target in (command, *targets):
        if not any("--db" in p.opts for p in target.params):
            target.params.append(_db_option())


def main() -> None:
    try:
        cli(prog_name="kifu")
    except BrokenPipeError:
        sys.exit(0)


if __name__ == "__main__":
    main()
