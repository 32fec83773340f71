"""The regression corpus maker every ruleset shares: ``replays/<ruleset>/make.py`` is only its data.

A ruleset's corpus is (1) bot matches over every ordered pair of its preset decks and (2) ruling
scenarios: a match started from a position the scenario builds (usually a prepared position,
recorded as one setup event), a few decisions (``Step``), decisions the engine must refuse
(``Refused``, kept beside the record as probes), and a ``check`` that the record shows the
ruling — generation fails if today's engine does not, so a changed ruling is caught here too.
Everything is deterministic: ``--check`` regenerates in memory and lists what would change.
"""
from __future__ import annotations

import argparse
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any

import msgspec

from kifu.domain.core.driver import drive
from kifu.domain.core.errors import Illegal
from kifu.domain.core.match import Match
from kifu.domain.core.record import encode_record
from kifu.domain.core.ruleset import Ruleset
from kifu.domain.core.signing import closing_mark
from kifu.projections.probes import Probe, encode_probes, probes_path

PLAYERS = ("alice", "bruno", "chiyo", "dmitri")
ANY_SEAT = 0            # a step for whichever seat the rules await (the setup's coin decides who)
MAX_DECISIONS = 20_000

Labels = dict[str, int]              # a scenario's names for the cards it placed -> card ids
Cmd = Callable[[Labels], Any]        # a command, built once the labels are known


@dataclass(frozen=True)
class Step:
    seat: int
    command: Cmd


@dataclass(frozen=True)
class Refused:
    seat: int
    command: Cmd
    clause: str
    why: str


@dataclass(frozen=True)
class Scenario:
    """``name`` starts with the clause it shows (``R-5.3-guard-cancels-the-attack``)."""

    name: str
    ruling: str
    build: Callable[[Any], None]
    steps: tuple[Step | Refused, ...]
    check: Callable[[list[Any], Labels], bool]
    prepared: bool = True


Start = Callable[[Scenario, int], tuple[Match, Labels]]   # (scenario, seed) -> its match and labels
Settle = Callable[[Match], None]                        # decisions nobody in a scenario cares about


def match_id(ruleset: str, name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"kifu:replays/{ruleset}/{name}"))


# -- bot matches ----------------------------------------------------------------------------------
def bot_match(rules: Ruleset[Any, Any, Any], first: str, second: str, seed: int, index: int,
              bot: str = "random") -> tuple[str, Match]:
    name = f"bot-{first}-vs-{second}-s{seed}"
    match_seed = 1000 * index + seed
    players = (PLAYERS[index % 4], PLAYERS[(index + 1 + seed) % 4])
    if players[0] == players[1]:
        players = (players[0], PLAYERS[(index + 2) % 4])
    match = Match.create(rules, match_id=match_id(rules.name, name), seed=match_seed, players=players,
                         decks=[rules.content.load_deck(first), rules.content.load_deck(second)])
    drive(match, {seat: rules.content.bots[bot](match_seed * 2 + seat) for seat in (1, 2)}, limit=MAX_DECISIONS)
    return name, match


def bot_matches(rules: Ruleset[Any, Any, Any], seeds: Sequence[int] = (1, 2), bot: str = "random",
                presets: Sequence[str] | None = None) -> list[tuple[str, Match]]:
    """One match per ordered pair of presets and seed (``presets`` default: all of them)."""
    names = list(presets) if presets is not None else rules.content.presets()
    pairs = list(product(names, names))
    return [bot_match(rules, a, b, seed, index, bot) for index, (a, b) in enumerate(pairs) for seed in seeds]


# -- scenarios ------------------------------------------------------------------------------------
def run_scenario(s: Scenario, seed: int, start: Start,
                 settle: Settle = lambda match: None) -> tuple[Match, list[Probe]]:
    match, labels = start(s, seed)
    probes = []
    for step in s.steps:
        settle(match)
        command = step.command(labels)
        if isinstance(step, Refused):
            try:
                match.decide(step.seat, command)
            except Illegal as exc:
                if exc.clause != step.clause:
                    raise AssertionError(f"{s.name}: {command!r} refused citing {exc.clause}, not {step.clause}: "
                                         f"{exc.reason}") from None
            else:
                raise AssertionError(f"{s.name}: today's engine accepts {command!r}; expected {step.clause}")
            probes.append(Probe(after=match.seq, seat=step.seat, illegal=step.clause, why=step.why,
                                command=msgspec.to_builtins(command)))
            continue
        seat = step.seat
        if seat == ANY_SEAT:
            awaited = sorted(match.awaiting)
            seat = awaited[0] if awaited else 0
        if seat not in match.awaiting:
            raise AssertionError(f"{s.name}: seat {seat} cannot decide {command!r}: the rules await "
                                 f"{sorted(match.awaiting)}")
        match.submit(seat, command)
    settle(match)
    if not s.check(match.envelopes, labels):
        raise AssertionError(f"{s.name}: today's engine does not show the ruling: {s.ruling}")
    return match, probes


def scenarios(table: Sequence[Scenario], prefixes: list[str], start: Start,
              settle: Settle = lambda match: None) -> list[tuple[str, Match, list[Probe]]]:
    out = []
    for index, s in enumerate(table, start=1):
        if prefixes and not any(s.name.startswith(p) for p in prefixes):
            continue
        match, probes = run_scenario(s, 100 + index, start, settle)
        out.append((s.name, match, probes))
    return out


# -- what a check looks for -----------------------------------------------------------------------
def events_of(envelopes: list[Any], kind: type) -> list[Any]:
    return [e.event for e in envelopes if isinstance(e.event, kind)]


def one(envelopes: list[Any], kind: type, **fields: Any) -> bool:
    """Some event of ``kind`` has all these field values."""
    return any(all(getattr(e, k) == v for k, v in fields.items()) for e in events_of(envelopes, kind))


def none(envelopes: list[Any], kind: type, **fields: Any) -> bool:
    return not one(envelopes, kind, **fields)


def cited(envelopes: list[Any], clause: str, kind: type | None = None) -> bool:
    return any(e.clause == clause and (kind is None or isinstance(e.event, kind)) for e in envelopes)


# -- writing --------------------------------------------------------------------------------------
Made = list[tuple[str, Match, list[Probe]]]


def files_for(name: str, match: Match, probes: list[Probe], into: Path) -> dict[Path, bytes | None]:
    record = into / f"{name}.kifu.jsonl"
    end = closing_mark(match.header, match.envelopes, match.outcome, None)   # a finished match's, unsigned
    return {record: encode_record(match.header, match.envelopes, end),
            probes_path(record): encode_probes(probes) if probes else None}


def write(made: Made, into: Path, check: bool = False) -> list[str]:
    """Write (or with ``check``, only compare) the files; returns a line per file that changed."""
    changes = []
    for name, match, probes in made:
        for path, data in files_for(name, match, probes, into).items():
            old = path.read_bytes() if path.exists() else None
            if old == data:
                continue
            verb = "would change" if check else "wrote" if data else "removed"
            what = f" ({match.seq} events, {match.outcome.describe() if match.outcome else 'in progress'})" \
                if data and path.name.endswith(".jsonl") else ""
            changes.append(f"{verb} {path.name}{what}")
            if not check:
                if data is None:
                    path.unlink()
                else:
                    path.write_bytes(data)
    return changes


def main(argv: list[str] | None, *, here: Path, doc: str, bots: Callable[[], list[tuple[str, Match]]],
         scenarios: Callable[[list[str]], Made]) -> int:
    """The command line of a ``make.py``: ``[bots] [SCENARIO-PREFIX …] [--check]``."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("only", nargs="*", help="'bots', or scenario name prefixes (default: everything)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file would change")
    args = parser.parse_args(argv)
    want_bots = not args.only or "bots" in args.only
    prefixes = [p for p in args.only if p != "bots"]
    made: Made = []
    if want_bots:
        made.extend((name, m, []) for name, m in bots())
    if prefixes or not args.only:
        made.extend(scenarios(prefixes))
    changes = write(made, here, check=args.check)
    for line in changes:
        print(line)
    print(f"{len(made)} records, {len(changes)} files {'would change' if args.check else 'changed'}")
    return 1 if args.check and changes else 0
