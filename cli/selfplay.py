"""``kifu selfplay``: many bot matches in memory, with results and card coverage."""
from __future__ import annotations

import itertools
import json
import os
import time
import uuid
from collections import Counter
from pathlib import Path

import click
import msgspec

from kifu.domain.core.driver import drive
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.projections.recordfile import write_match
from kifu.store.keys import signer_from

from . import decks as deck_spec
from . import render
from .names import RulesetName, unknown_name
from .output import OutPath


def _seed_range(text: str) -> range:
    try:
        if "-" in text:
            lo, hi = text.split("-", 1)
            return range(int(lo), int(hi) + 1)
        return range(int(text))
    except ValueError:
        raise click.BadParameter(f"{text!r}: give a count (200) or a range (1-200)", param_hint="--seeds") from None


@click.command()
@click.argument("ruleset", type=RulesetName())
@click.option("--p1", default="random", show_default=True, help="Bot for seat 1.")
@click.option("--p2", default="random", show_default=True, help="Bot for seat 2.")
@click.option("--seeds", default="20", show_default=True, help="How many seeds (N) or which (A-B).")
@click.option("--deck", "decks", multiple=True, help="Decks to rotate through (default: every preset).")
@click.option("--out-dir", type=OutPath(folder=True), default=None,
              help="Write each record into this folder (it must exist).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
def selfplay(ruleset: str, p1: str, p2: str, seeds: str, decks: tuple[str, ...], out_dir: str | None,
             as_json: bool) -> None:
    """Play one bot match per seed, the ordered deck pairings taken in rotation (seed i plays
    pairing i mod P); print results, how many pairings were played, and which cards were played."""
    rules = find_ruleset(ruleset)
    bots = rules.content.bots
    for kind, flag in ((p1, "--p1"), (p2, "--p2")):
        if kind not in bots:
            raise click.BadParameter(unknown_name(kind, bots, "bot"), param_hint=flag)
    names = list(decks) or rules.content.presets()
    lists = {n: deck_spec.plain(rules, n) for n in names}
    pairs = list(itertools.product(names, names))
    results: Counter[str] = Counter()
    played: Counter[str] = Counter()
    events = decisions = 0
    started = time.perf_counter()
    span = _seed_range(seeds)
    signer = signer_from(os.environ) if out_dir else None
    with render.console().status("playing…") if render.console().is_terminal else _Null():
        for i, seed in enumerate(span):
            d1, d2 = pairs[i % len(pairs)]
            match = Match.create(rules, match_id=str(uuid.uuid4()), seed=seed, decks=[lists[d1], lists[d2]],
                                 players=(p1, p2))
            decisions += drive(match, {1: bots[p1](seed * 2 + 1), 2: bots[p2](seed * 2 + 2)})
            events += match.seq
            outcome = match.outcome
            assert outcome is not None
            winner = outcome.winner
            results["draw" if winner is None else f"seat {winner} ({p1 if winner == 1 else p2})"] += 1
            for env in match.envelopes:
                name = rules.presentation.played(match.state, env.event)
                if name:
                    played[name] += 1
            if out_dir:
                write_match(Path(out_dir) / f"{ruleset}-{seed}-{d1}-{d2}.kifu.jsonl", match, signer)
    elapsed = time.perf_counter() - started
    n = len(span)
    in_decks = {row.name for row in rules.content.catalogue().rows} & {name for deck in lists.values()
                                                               for name in _names(msgspec.to_builtins(deck))}
    never = sorted(in_decks - set(played))
    covered = min(n, len(pairs))
    if as_json:
        click.echo(json.dumps({
            "ruleset": rules.name, "p1": p1, "p2": p2, "matches": n, "results": dict(sorted(results.items())),
            "decisions": decisions, "events_per_match": round(events / max(1, n), 1), "seconds": round(elapsed, 3),
            "matches_per_second": round(n / elapsed, 2), "pairings": {"played": covered, "total": len(pairs)},
            "coverage": {"played": len(in_decks) - len(never), "cards": len(in_decks), "never": never}},
            ensure_ascii=False))
        return
    con = render.console()
    render.show_table(con, ("matches", "results", "decisions", "events/match", "seconds", "matches/s"),
                      [(str(n), ", ".join(f"{k}: {v}" for k, v in sorted(results.items())), str(decisions),
                        f"{events / max(1, n):.0f}", f"{elapsed:.1f}", f"{n / elapsed:.1f}")])
    con.print(f"deck pairings: {covered} of {len(pairs)} ordered pairings played, one match per seed in rotation"
              + ("" if covered == len(pairs) else f" (give at least {len(pairs)} seeds for all)"))
    con.print(f"card coverage: {len(in_decks) - len(never)}/{len(in_decks)} cards in these decks were played"
              + (f"; never played: {', '.join(never)}" if never else ""))


def _names(raw: object) -> set[str]:
    """Every string in a deck list (names, however the ruleset's deck struct holds them)."""
    if isinstance(raw, str):
        return {raw}
    if isinstance(raw, dict):
        return set().union(*(_names(k) | _names(v) for k, v in raw.items())) if raw else set()
    if isinstance(raw, (list, tuple)):
        return set().union(*(_names(v) for v in raw)) if raw else set()
    return set()


class _Null:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None
