"""The match store: matches as eventsourcing streams (SQLite file, PostgreSQL, or in memory).

The only package under ``domain`` that does I/O or imports eventsourcing; everything it raises
is a Kifu error (``Conflict``, ``UnknownMatch``, ``Malformed``, ``StoreError``).
"""
from .config import StoreConfig, resolve
from .errors import MatchExists, StoreError
from .index import MatchSummary
from .mapper import EVENT_TOPIC_PREFIX, HEADER_TOPIC, KifuMapper
from .store import MatchStore, Notice

__all__ = ["EVENT_TOPIC_PREFIX", "HEADER_TOPIC", "KifuMapper", "MatchExists", "MatchStore", "MatchSummary",
           "Notice", "StoreConfig", "StoreError", "resolve"]
