"""Precise error types, so every caller (CLI, service, tests) can say exactly what went wrong."""
from __future__ import annotations


class KifuError(Exception):
    """Base of every error Kifu reports to a user; never shown as a traceback."""


class Malformed(KifuError):
    """Input that cannot be decoded: bad JSON, wrong types, unknown fields, a broken file."""

    def __init__(self, what: str, where: str | None = None) -> None:
        self.what = what
        self.where = where
        super().__init__(f"{where}: {what}" if where else what)


class Illegal(KifuError):
    """A well-formed decision the rules forbid now; names the clause that forbids it."""

    def __init__(self, clause: str, reason: str) -> None:
        self.clause = clause
        self.reason = reason
        super().__init__(f"illegal ({clause}): {reason}")


class NotYourDecision(Illegal):
    """The seat submitting is not the one the rules are waiting for."""


class Conflict(KifuError):
    """A decision based on a stale version of the match: someone else's decision landed first."""

    def __init__(self, match_id: str, expected: int, actual: int) -> None:
        self.match_id = match_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"conflict on match {match_id}: decision was based on seq {expected}, "
            f"but the match is at seq {actual}"
        )


class UnknownMatch(KifuError):
    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        super().__init__(f"unknown match: {match_id}")


class UnknownRuleset(KifuError):
    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(f"unknown ruleset {name!r}; known: {', '.join(known)}")


class MatchOver(KifuError):
    def __init__(self, match_id: str, outcome: str) -> None:
        super().__init__(f"match {match_id} is over ({outcome}); no more decisions are taken")


class InvalidDeck(KifuError):
    """A deck that breaks deck-construction rules or names cards that do not exist."""

    def __init__(self, clause: str, reason: str, where: str | None = None) -> None:
        self.clause = clause
        self.reason = reason
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}invalid deck ({clause}): {reason}")
