"""The alteil rules reference (data/rules.toml), with where each clause is declared and tested."""
from __future__ import annotations

from kifu.domain.core.reference import RulesReference

REFERENCE = RulesReference("kifu.domain.alteil", "A")
clauses = REFERENCE.clauses
