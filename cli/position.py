"""``kifu position``: a recorded position as text (the ruleset's notation), to read, copy, or start
a match from (``kifu play RULESET --position``, ``kifu fork SOURCE --position``)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from kifu.domain.core import position as notation
from kifu.domain.core.ruleset import Ruleset
from kifu.projections.timeline import Timeline

from .context import Kifu, pass_kifu

F = TypeVar("F", bound=Callable[..., Any])


@click.command()
@click.argument("source", metavar="FILE|MATCH_ID")
@click.option("--at", "at", type=int, default=None, help="The position after event SEQ (default: the last).")
@click.option("--seat", type=click.IntRange(1, 2), default=None,
              help="Only what this seat may see (hidden parts as ?; such a text does not parse back).")
@pass_kifu
def position(kifu: Kifu, source: str, at: int | None, seat: int | None) -> None:
    """Print the position of a record or stored match in its ruleset's notation (docs/positions.md)."""
    ruleset, header, envelopes = kifu.load(source)
    seq = len(envelopes) if at is None else at
    if not 0 <= seq <= len(envelopes):
        raise click.BadParameter(f"seq {seq} is outside 0..{len(envelopes)}", param_hint="--at")
    state = Timeline(ruleset, header, envelopes).state_at(seq)
    click.echo(notation.to_text(ruleset, state, seat))


def position_option() -> Callable[[F], F]:
    """The ``--position TEXT`` option of ``play`` and ``fork``."""
    return click.option("--position", "position_text", metavar="TEXT", default=None,
                        help="Start from this position (the text `kifu position` prints, judge's form).")


def read_position(ruleset: Ruleset[Any, Any, Any], text: str) -> tuple[Any, str]:
    """The state a ``--position`` writes and its text as the header keeps it (the notation's own
    form of that state); ``BadPosition`` (exit 2) before anything is stored. ``@FILE`` reads the
    text from that file (``@-`` from standard input)."""
    if text.startswith("@"):
        with click.open_file(text[1:], encoding="utf-8") as f:
            text = f.read()
    state = notation.parse(ruleset, text)
    notation.playable(ruleset, state)
    return state, notation.to_text(ruleset, state)
