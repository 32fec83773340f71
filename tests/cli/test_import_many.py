"""`kifu import` takes many files and folders: one transaction per record, a summary, a refused
record named on stderr while the others go in, and a second run changing nothing."""
from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from kifu.cli.main import cli

CORPUS = Path(__file__).resolve().parents[2] / "replays"


def test_a_folder_of_records_is_imported_each_once_and_a_bad_one_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    picked = (sorted((CORPUS / "reigeki").glob("R-*.kifu.jsonl"))[:3]
              + sorted((CORPUS / "novel").glob("N-*.kifu.jsonl"))[:2])
    for path in picked:
        shutil.copy(path, folder / path.name)
    (folder / "broken.kifu.jsonl").write_text('{"kifu": "match", "format": 1}\\n')
    db = str(tmp_path / "k.db")
    runner = CliRunner()
    first = runner.invoke(cli, ["--db", db, "import", "--in-progress", str(folder)])   # ruling scenarios: unfinished
    assert first.exit_code == 2
    assert "6 records: 5 imported, 0 already stored, 1 refused" in first.stdout
    assert "broken.kifu.jsonl: refused" in first.stderr
    again = runner.invoke(cli, ["--db", db, "import", "--in-progress", *(str(folder / p.name) for p in picked)])
    assert again.exit_code == 0 and "5 records: 0 imported, 5 already stored, 0 refused" in again.stdout
    listed = runner.invoke(cli, ["--db", db, "matches", "--json"])
    assert listed.exit_code == 0 and listed.stdout.count('"match_id"') == 5
