"""The stepper's notes line: the notes on the current event and the variations that leave it.

Kept apart from the stepper's panes (``model``/``app``): the app shows this one line, above its
status line, only where the record has notes or forks."""
from __future__ import annotations

from collections.abc import Sequence

import msgspec
from rich.text import Text

from kifu.domain.core.notes import Note
from kifu.projections.annotations import Variation, note_line


class Annotations(msgspec.Struct, frozen=True):
    notes: tuple[Note, ...] = ()
    variations: tuple[Variation, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.notes or self.variations)


def annotation_line(annotations: Annotations, seq: int) -> Text:
    """``✎ #12 ?! ann: … · ⑂ variation <id>``: the notes on ``seq`` and the forks leaving it ("" if none)."""
    parts: Sequence[str] = [note_line(n) for n in annotations.notes if n.seq == seq]
    forks = [f"⑂ variation {v.match_id[:8]}" for v in annotations.variations if v.at == seq]
    text = Text()
    if parts:
        text.append("✎ ", style="bold yellow")
        text.append(" · ".join(parts))
    if forks:
        text.append((" · " if parts else "") + " · ".join(forks), style="cyan")
    return text
