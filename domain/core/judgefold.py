"""The folds of the judge events for one ruleset: what ``Match`` adds to the game's ``evolve``.

Apart from ``judged`` (which writes acts on a ``Match``) so the match module needs nothing of it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .judging import RESULT_CLAUSE, JudgeBackup, JudgeResult, Refused, judge_folds, termination
from .ruleset import Outcome, Ruleset


def judge_outcome(event: JudgeResult) -> Outcome:
    """The outcome a judge's result gives: the other seat wins a game loss; a draw has no winner."""
    winner = 3 - event.seat if event.result == "game loss" and event.seat in (1, 2) else None
    return Outcome(termination=termination(event), winner=winner, clause=RESULT_CLAUSE)


def _cannot_end(state: Any, outcome: Outcome) -> Any:
    raise Refused("result", "this ruleset does not say how a judge's result ends its state (Judging.end)")


def judge_cases(ruleset: Ruleset[Any, Any, Any]) -> dict[type, Callable[[Any, Any], Any]]:
    """The folds of the judge events for ``ruleset`` (its backup's state type, its ``Judging.end``)."""
    end = ruleset.judging.ender(ruleset.decider.state_type) or _cannot_end
    return judge_folds(end, judge_outcome)


def moves_bases(event: Any) -> bool:
    """Does this act change the state under the seats' feet (a pending decision becomes stale)?"""
    return isinstance(event, (JudgeBackup, JudgeResult))


