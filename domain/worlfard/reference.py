"""The WORLFARD rules reference: every clause id with its text, loaded from data/rules.toml."""
from __future__ import annotations

from kifu.domain.core.reference import RulesReference

REFERENCE = RulesReference("kifu.domain.worlfard", "W")
clauses = REFERENCE.clauses
