"""One namespace: the distribution installs the package ``kifu`` and nothing else.

The top-level folders are the user's (domain/, projections/, cli/, store/, service/, tools/);
pyproject.toml maps each into ``kifu`` with ``package-dir`` and lists every sub-package, so a
folder added without its line would silently be left out of the wheel.
"""
from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def _packages_on_disk() -> set[str]:
    found = set()
    for name, folder in SETUPTOOLS["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            found.add(".".join((name, *rel.parts)))
    return found


def test_every_package_folder_is_listed_in_pyproject() -> None:
    assert _packages_on_disk() == set(SETUPTOOLS["packages"])


def test_every_part_maps_into_the_kifu_namespace() -> None:
    assert all(name.startswith("kifu.") for name in SETUPTOOLS["package-dir"])
    assert all(name.startswith("kifu.") for name in SETUPTOOLS["packages"])
    for group in ("scripts", "entry-points"):
        text = repr(PYPROJECT["project"][group])
        assert "'domain." not in text and "'projections." not in text and "'cli." not in text


@pytest.mark.slow
def test_the_wheel_installs_kifu_alone(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("kifu-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")} == {"kifu"}
    assert any(n.startswith("kifu/domain/worlfard/data/decks/") for n in names)
    assert "kifu/service/viewer_assets/viewer.js" in names
