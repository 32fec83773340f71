"""The decisions of the novel ruleset. All of them are sealed (secret, simultaneous: N-5.2.1, N-6.5).

Select phase command shape (N-5.2.1 "最大6コスト分まで…選択する"): one card per sealed choice
(``Pick``), a face-down magic turned up at no cost (``Reveal``, N-Q6) or ``Done``. Each round
both seats seal one choice; the rounds repeat until both are done, and only then is anything
summoned. ``legal`` stays small: one ``Pick`` per card *kind* left in the deck and per target,
not an enumeration of every subset worth ≤ 6 cost. The other seat never learns a pick before
the summon (``view.redact`` hides the opened choice from it).
"""
from __future__ import annotations

from typing import Union

import msgspec

from kifu.domain.core.roles import CardId

_opts = dict(frozen=True, tag=True, forbid_unknown_fields=True, omit_defaults=True, kw_only=True)


class Pick(msgspec.Struct, **_opts):  # type: ignore[misc]
    """Choose ``card`` from the deck for this turn: a character (no target: it goes to its 配置),
    equipment (``target``: own character on the field), magic face up (``target`` as the card
    says, 0 for none) or face down (``face_down``: its target is chosen when it is revealed)."""

    card: CardId
    target: CardId = 0
    face_down: bool = False


class Reveal(msgspec.Struct, **_opts):  # type: ignore[misc]
    """Turn one of one's face-down magic face up this turn (no cost, N-Q6), with its target."""

    card: CardId
    target: CardId = 0


class Done(msgspec.Struct, **_opts):  # type: ignore[misc]
    """Nothing more to choose this phase."""


class Act(msgspec.Struct, **_opts):  # type: ignore[misc]
    """Skill phase (N-6.5): the character of the highlighted AGI group that acts now, and its target."""

    card: CardId
    target: CardId


Command = Union[Pick, Reveal, Done, Act]
