"""The reigeki rules reference (data/rules.toml) through the core's ``RulesReference``."""
from __future__ import annotations

from kifu.domain.core.reference import RulesReference

REFERENCE = RulesReference("kifu.domain.reigeki", "R")
clauses = REFERENCE.clauses
