"""The WORLFARD rules reference: every clause id with its text, loaded from data/rules.toml."""
from __future__ import annotations

from domain.core.reference import RulesReference

REFERENCE = RulesReference("domain.worlfard", "W")
clauses = REFERENCE.clauses
