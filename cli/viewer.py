"""``kifu viewer MATCH_ID``: links to the web viewer for a match stored without tokens (imported, played).

A match created through the service got its tokens then (shown once); a match stored by
``kifu import`` or ``kifu play`` has none, so a judge could not open it in the viewer. This
issues that match's tokens (once: a match that has tokens keeps them) and prints the links.
``--reissue`` replaces a match's tokens when its links were lost or leaked: the old links stop
working (in a running service within seconds), and the token table notes the reissue.
The match may be given by an unambiguous prefix of its id, as everywhere in the CLI.
"""
from __future__ import annotations

import click

from kifu.domain.core.errors import KifuError
from kifu.service.tokens import TokenStore
from kifu.store import resolve
from kifu.store.clock import utc_now

from .context import Kifu, pass_kifu


class HasTokens(KifuError):
    """The match already has tokens (the service issued them at creation)."""


@click.command()
@click.argument("match_id")
@click.option("--server", default="http://127.0.0.1:8080", show_default=True, help="Where `kifu serve` listens.")
@click.option("--at", "seq", type=int, default=0, help="Open at this event.")
@click.option("--reissue", is_flag=True,
              help="Replace the match's tokens (lost or leaked links): the old links stop working; "
                   "the reissue is noted.")
@pass_kifu
def viewer(kifu: Kifu, match_id: str, server: str, seq: int, reissue: bool) -> None:
    """Issue a stored match's tokens and print its viewer links (judge, seat 1, seat 2)."""
    match_id = kifu.resolve(match_id)     # an id or an unambiguous prefix; unknown: a one-line error naming it
    tokens = TokenStore.open(resolve(kifu.db))
    note = ""
    try:
        if tokens.has_tokens(match_id) and not reissue:
            raise HasTokens(f"match {match_id} already has tokens (issued when the service created it, "
                            f"or by an earlier kifu viewer); open "
                            f"{server.rstrip('/')}/matches/{match_id}/viewer and give one of those, "
                            "or give --reissue to replace them (the old links stop working)")
        if tokens.has_tokens(match_id):
            issued = tokens.reissue(match_id, utc_now())
            note = tokens.reissued(match_id)
        else:
            issued = tokens.issue(match_id)
    finally:
        tokens.close()
    if note:
        click.echo(f"reissued the tokens of match {match_id} ({note}): the old links no longer work")
    base = f"{server.rstrip('/')}/matches/{match_id}/viewer#seq={seq}"
    click.echo(f"viewer of match {match_id} (serve it with: kifu serve); each link holds its token, keep them private:")
    for role, label in (("judge", "judge "), ("seat1", "seat 1"), ("seat2", "seat 2")):
        click.echo(f"{label}: {base}&token={issued[role]}")
