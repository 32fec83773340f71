"""Pictures of a board (``kifu replay … --svg/--png``, issue 29): owners as colours and tags, names
and row labels whole, counters never cut, the event's cards marked, ``?`` (hidden) apart from ``—``
(none). Read from the SVG's own text."""
from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.layout import Cell, Counter, Face, Grid, Layout, SeatPanel, Zone
from kifu.projections.picture import MARKED_C, MAX_CARDS, SEAT_C, picture_of, svg
from kifu.projections.recordfile import read_record
from kifu.projections.timeline import Timeline

REPLAYS = Path(__file__).resolve().parents[2] / "replays"


def texts(doc: str) -> list[str]:
    return [unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", doc)]


def picture(ruleset: str, name: str, seq: int, seat: int | None = None) -> tuple[str, Timeline]:
    rec = read_record(REPLAYS / ruleset / name)
    timeline = Timeline(rec.ruleset, rec.header, rec.envelopes)
    return picture_of(timeline, seq, seat), timeline


def whole(name: str, doc: str) -> bool:
    """The name is drawn whole: on one line, over lines (wrapped), or keyed under the picture."""
    drawn = "".join(texts(doc)).replace("…", "")
    return name in drawn or name.replace(" ", "") in drawn.replace(" ", "")


def test_masters_pieces_show_their_owner_by_colour_and_tag() -> None:
    doc, _ = picture("masters", "bot-arcane-court-vs-last-hour-s1.kifu.jsonl", 200)
    shown = texts(doc)
    assert "[1]" in shown and "[2]" in shown               # the tags on the shared board's pieces
    assert f'fill="{SEAT_C[1]}"' in doc and f'fill="{SEAT_C[2]}"' in doc


def test_every_card_name_and_row_label_is_drawn_whole_in_every_ruleset() -> None:
    for ruleset in ("alteil", "masters", "novel", "reigeki", "worlfard"):
        name = sorted(p.name for p in (REPLAYS / ruleset).glob("bot-*.kifu.jsonl"))[0]
        rec = read_record(REPLAYS / ruleset / name)
        timeline = Timeline(rec.ruleset, rec.header, rec.envelopes)
        for seq in (timeline.last_seq // 3, timeline.last_seq * 2 // 3):
            doc = picture_of(timeline, seq, None)
            layout = rec.ruleset.presentation.layout(rec.ruleset.decider.view(timeline.state_at(seq), None))
            for part in [p for panel in layout.seats for p in panel.parts] + list(layout.board):
                drawn = part.cards[-1:] if isinstance(part, Zone) and part.show == "top" else \
                    part.cards[:MAX_CARDS] if isinstance(part, Zone) and part.show == "cards" else ()
                for face in drawn:
                    assert face.hidden or whole(face.name, doc), (ruleset, seq, face.name)
                if isinstance(part, Grid):
                    for face in (f for cell in part.cells for f in cell.cards):
                        assert face.hidden or whole(face.name, doc), (ruleset, seq, face.name)
                    for label in part.row_labels:
                        assert whole(label, doc), (ruleset, label)
                if isinstance(part, Counter):
                    assert f"{part.label} {part.value}" in "".join(texts(doc)), (ruleset, part.label)


def test_a_name_too_long_for_its_card_is_wrapped_or_keyed_never_cut() -> None:
    long = "とても長い名前の魔法少女・霧雨魔理沙・Ex・特別版の大きな札"
    cell = Cell(row=1, col=1, cards=(Face(id=7, name=long),))
    layout = Layout(ruleset="t", seats=(SeatPanel(seat=1, parts=(
        Grid(id="g", label="field", rows=1, cols=6, cells=(cell,), row_labels=("前衛 front row",)),
        Counter(id="a", label="influence Lifes (リフェス)", value=1),
        Counter(id="b", label="influence Lotia (ローティア)", value=2),
        Counter(id="c", label="influence Gouen (ゴウエン)", value=3),
        Counter(id="d", label="influence Falkau (ファルカウ)", value=4),
        Counter(id="e", label="battlefield", value="6/6"), Counter(id="f", label="dead units", value="0/7"))),))
    doc = svg(layout)
    shown = texts(doc)
    assert any(t.startswith("*1 ") and long in t for t in shown)      # the key under the picture
    assert whole("前衛 front row", doc)
    for counter in ("influence Falkau (ファルカウ) 4", "dead units 0/7"):
        assert counter in "".join(shown)


def test_the_cards_the_event_names_are_marked() -> None:
    # Acted 旅の剣士#112 → 雷神ライデン#1
    doc, _ = picture("novel", "bot-earth-wind-vs-earth-wind-s1.kifu.jsonl", 57)
    marked = re.findall(r'class="marked" data-card="(\d+)"', doc)
    assert sorted(marked) == ["1", "112"] and MARKED_C in doc


def test_hidden_is_a_question_mark_and_none_a_dash() -> None:
    name = "bot-arcane-court-vs-last-hour-s1.kifu.jsonl"
    rec = read_record(REPLAYS / "masters" / name)
    seq = next(env.seq for env in rec.envelopes                 # a combat with no defender, found in the record
               if type(env.event).__name__ == "CombatDamage" and env.event.defender == 0)
    doc, _ = picture("masters", name, seq)
    assert any("defender=—" in t for t in texts(doc))         # no defender: not "?"
    parts = (Zone(id="hand", label="hand", cards=(Face(),)), Zone(id="grave", label="grave"))
    hidden = Layout(ruleset="t", seats=(SeatPanel(seat=1, parts=parts),))
    shown = texts(svg(hidden))
    assert "?" in shown and "—" in shown and "face down" not in shown


def test_replay_writes_the_svg(tmp_path: Path) -> None:
    out = tmp_path / "b.svg"
    record = REPLAYS / "masters" / "bot-arcane-court-vs-last-hour-s1.kifu.jsonl"
    result = CliRunner().invoke(cli, ["replay", str(record), "--at", "320", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    assert "[2]" in texts(out.read_text())
