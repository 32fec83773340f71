"""``kifu``: the root group. Every Kifu error becomes a one-line message and a non-zero exit."""
from __future__ import annotations

import sys

import click

from domain.core.errors import Conflict, Illegal, KifuError, Malformed

from .context import Kifu
from . import bench, cards, client, loadtest, play, records, replay, selfplay, serve, stats, viewer, whatif


EXIT_CODES = {Malformed: 2, Illegal: 3, Conflict: 4}


class KifuFailure(click.ClickException):
    """A Kifu error shown as one line, with an exit code by kind (2 malformed, 3 illegal, 4 conflict)."""

    def __init__(self, error: KifuError) -> None:
        super().__init__(str(error))
        self.exit_code = next((c for t, c in EXIT_CODES.items() if isinstance(error, t)), 1)

    def show(self, file: object = None) -> None:
        click.echo(f"error: {self.message}", err=True)


class KifuGroup(click.Group):
    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except KifuError as exc:
            raise KifuFailure(exc) from None


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
                whatif.fork, whatif.diff, stats.stats, bench.bench, selfplay.selfplay, cards.cards, viewer.viewer):
    cli.add_command(command)


def main() -> None:
    try:
        cli(prog_name="kifu")
    except BrokenPipeError:
        sys.exit(0)
