"""The WORLFARD draft type: the core ``Draft`` over our state and events."""
from __future__ import annotations

from kifu.domain.core.draft import Draft

from .events import Event
from .state import State

WDraft = Draft[State, Event]
