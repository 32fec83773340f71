"""The yardstick ``kifu bench`` measures self-play against: python-chess random games, timed in the same run.

A random chess game is the plainest rules-engine workload in Python: list the legal moves, pick
one at random, push it, ask whether the game is over; python-chess (``pip install -e '.[bench]'``,
which ``make setup`` does) is the reference engine the house style holds up. A ply is one
decision, so Kifu's decisions per CPU second over these plies per CPU second, timed in turns in
one process on one core, is a ratio the machine's load mostly cancels out of.

The import is optional: without python-chess the bench leaves the yardstick figures out and says so.
"""
from __future__ import annotations

import importlib
import random
import time
from types import ModuleType

GAMES = 20          # per repeat, as many as Kifu's self-play matches (a random game is ~350 plies)
SEED = 25


def chess_module() -> ModuleType | None:
    """python-chess when installed, else None."""
    try:
        return importlib.import_module("chess")
    except ImportError:
        return None


def random_games(chess: ModuleType, games: int, seed: int = SEED) -> tuple[int, float, float]:
    """``games`` random games from the start position: (plies, wall seconds, CPU seconds).

    Each ply lists the legal moves, picks one with a seeded ``random.Random`` and pushes it; a
    game ends when ``Board.is_game_over()`` says so (mate, stalemate, insufficient material, the
    75-move rule or fivefold repetition)."""
    rng = random.Random(seed)
    choice = rng.choice
    plies = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(games):
        board = chess.Board()
        push, over, legal = board.push, board.is_game_over, board.legal_moves
        while not over():
            push(choice(list(legal)))
            plies += 1
    return plies, time.perf_counter() - t0, time.process_time() - c0
