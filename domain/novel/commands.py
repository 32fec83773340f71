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


class Cmd(msgspec.Struct, frozen=True, tag=True, forbid_unknown_fields=True, omit_defaults=True):
    """A seat's decision as submitted: read from clients and files, so unknown fields are refused; tagged by class name.

    Subclasses repeat ``frozen`` (for the type checker) and ``kw_only`` (msgspec does not inherit it)."""


class Pick(Cmd, frozen=True, kw_only=True):
    """Choose ``card`` from the deck for this turn: a character (no target: it goes to its 配置),
    equipment (``target``: own character on the field), magic face up (``target`` as the card
    says, 0 for none) or face down (``face_down``: its target is chosen when it is revealed)."""

    card: CardId
    target: CardId = 0
    face_down: bool = False


class Reveal(Cmd, frozen=True, kw_only=True):
    """Turn one of one's face-down magic face up this turn (no cost, N-Q6), with its target."""

    card: CardId
    target: CardId = 0


class Done(Cmd, frozen=True, kw_only=True):
    """Nothing more to choose this phase."""


class Act(Cmd, frozen=True, kw_only=True):
    """Skill phase (N-6.5): the character of the highlighted AGI group that acts now, and its target."""

    card: CardId
    target: CardId


Command = Union[Pick, Reveal, Done, Act]
