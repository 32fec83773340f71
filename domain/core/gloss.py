"""English glosses of a ruleset's cards: the seed's text stays the card, the gloss helps a reader.

Each ruleset package may ship ``gloss.toml``, one table per card name as the catalogue spells it::

    ["炎の剣士"]
    name = "Flame Swordsman"
    text = "When this unit enters the field, deal 1 damage to a unit."

``with_gloss`` fills ``CardRow.name_en`` and ``CardRow.gloss`` from it; a card the file does not
name keeps empty glosses (the completeness test per ruleset says which are missing).
"""
from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files

import msgspec

from .catalogue import Catalogue

GLOSS_FILE = "gloss.toml"


class Gloss(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str = ""
    text: str = ""


@cache
def glosses(package: str) -> dict[str, Gloss]:
    """The glosses a ruleset package ships, by card name (empty when it ships none)."""
    resource = files(package) / GLOSS_FILE
    if not resource.is_file():
        return {}
    raw = tomllib.loads(resource.read_text(encoding="utf-8"))
    return msgspec.convert(raw, dict[str, Gloss])


def with_gloss(catalogue: Catalogue, package: str) -> Catalogue:
    """The catalogue with each row's English name and gloss from ``package``'s ``gloss.toml``."""
    found = glosses(package)
    if not found:
        return catalogue
    rows = tuple(msgspec.structs.replace(row, name_en=g.name, gloss=g.text) if (g := found.get(row.name)) else row
                 for row in catalogue.rows)
    return msgspec.structs.replace(catalogue, rows=rows)
