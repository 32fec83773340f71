"""Names a user types (a ruleset, a preset, a bot, a filter value): checked against what exists,
with a "did you mean" when one is close, the same way for every command."""
from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from typing import Any

import click

from kifu.domain.core.ruleset import offered_rulesets


def suggestion(value: str, known: Iterable[str]) -> str | None:
    """The known name closest to ``value`` (case aside), if one is close enough to be a typo."""
    names = list(known)
    folded = {name.casefold(): name for name in names}
    close = difflib.get_close_matches(value.casefold(), list(folded), n=1, cutoff=0.6)
    return folded[close[0]] if close else None


def unknown_name(value: str, known: Iterable[str], what: str) -> str:
    """``no ruleset 'worlfar' (did you mean 'worlfard'?); rulesets: …`` in one line."""
    names = sorted(known)
    guess = suggestion(value, names)
    hint = f" (did you mean {guess!r}?)" if guess else ""
    shown = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
    return f"no {what} {value!r}{hint}; {what}s: {shown or 'none'}"


def offered() -> list[str]:
    """The rulesets this user may choose (the test ruleset only with KIFU_TEST_RULESETS=1)."""
    return offered_rulesets(os.environ)


class RulesetName(click.ParamType[str]):
    """A ruleset a user names: one offered here, case aside, else "did you mean" (exit 2)."""

    name = "ruleset"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "RULESET"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value).strip().lower()
        names = offered()
        if text not in names:
            self.fail(unknown_name(str(value), names, "ruleset"), param, ctx)
        return text
