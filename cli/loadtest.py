"""``kifu loadtest``: bot matches through the API, timed, then every one audited from its record."""
from __future__ import annotations

import click
import msgspec

from . import render
from .names import RulesetName


@click.command()
@click.option("--server", required=True, metavar="URL", help="The service, e.g. http://127.0.0.1:8080")
@click.option("--matches", "count", default=10, show_default=True, type=click.IntRange(1, 10_000))
@click.option("--concurrency", default=4, show_default=True, type=click.IntRange(1, 256),
              help="Matches played at the same time (one worker thread each).")
@click.option("--rate", default=None, type=click.FloatRange(min=0.1), metavar="DECISIONS/S",
              help="Open loop: send decisions at this total rate, spread over the concurrent matches, and "
                   "time each from its scheduled send (latency at a given load). Without it: closed loop, "
                   "each match sends as soon as it is answered (saturation throughput).")
@click.option("--processes", default=1, show_default=True, type=click.IntRange(1, 32),
              help="Load generator processes sharing the matches (each has its own interpreter lock).")
@click.option("--server-pid", "server_pids", multiple=True, type=click.IntRange(1), metavar="PID",
              help="A service process on this machine (repeatable; its worker processes are included): "
                   "report its CPU time per decision.")
@click.option("--ruleset", default="worlfard", show_default=True, type=RulesetName())
@click.option("--seed", default=1, show_default=True, type=int, help="Seed of the first match (then +1 each).")
@click.option("--max-decisions", default=5000, show_default=True, type=click.IntRange(1),
              help="Stop a match after this many decisions.")
@click.option("--deadline", default=600.0, show_default=True, type=click.FloatRange(1),
              help="Stop taking decisions after this many seconds.")
@click.option("--cross-host", default=None, metavar="URL",
              help="Another service host on the same database: watch every match's live stream there and "
                   "report how long a decision sent to --server takes to reach it (p50/p99).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--compare", "baseline", metavar="FILE", default=None,
              help="A saved `kifu loadtest --json` report: print decisions/s and latencies against it.")
def loadtest(server: str, count: int, concurrency: int, rate: float | None, processes: int,
             server_pids: tuple[int, ...], ruleset: str, seed: int, max_decisions: int,
             deadline: float, cross_host: str | None, as_json: bool, baseline: str | None) -> None:
    """Drive bot matches through the service; report decisions/s and latency; audit every match.

    Exit 1 if any match failed or does not audit clean."""
    from kifu.service.loadtest import loadtest as run
    from kifu.tools.bench_compare import LOAD_FLOOR, compare, load_points, read_report

    from .bench import show_comparison

    base = read_report(baseline) if baseline else None
    missing = [pid for pid in server_pids if not _alive(pid)]
    if missing:
        raise click.BadParameter(f"no process {missing[0]} on this machine", param_hint="--server-pid")

    con = render.console()
    done = [0]

    def progress(r: object) -> None:
        done[0] += 1
        if not as_json and con.is_terminal:
            con.print(f"\r  {done[0]}/{count} matches played", end="")

    report = run(server, matches=count, concurrency=concurrency, ruleset=ruleset, seed=seed,
                 max_decisions=max_decisions, deadline=deadline, rate=rate, processes=processes,
                 server_pids=server_pids, cross_host=cross_host, progress=progress)
    if as_json:
        click.echo(msgspec.json.encode(report).decode())
    else:
        lat, views, trip = report.latency_ms, report.view_latency_ms, report.round_trip_ms
        con.print()
        if report.mode == "open":
            con.print(f"open loop: {report.rate:g} decisions/s offered over {report.concurrency} matches "
                      f"({report.processes} load process{'es' if report.processes > 1 else ''})")
        else:
            con.print(f"closed loop (saturation): {report.concurrency} matches each sending as soon as answered "
                      f"({report.processes} load process{'es' if report.processes > 1 else ''})")
        con.print(f"{report.matches} matches, concurrency {report.concurrency}: {report.decisions} decisions "
                  f"in {report.seconds:.2f}s = [bold]{report.decisions_per_s:.0f} decisions/s[/]")
        what = "from its scheduled send" if report.mode == "open" else "round trip"
        con.print(f"decision latency ms ({what}): p50 {lat.p50}  p95 {lat.p95}  p99 [bold]{lat.p99}[/]  max {lat.max}")
        if report.mode == "open" and trip is not None:
            con.print(f"decision round trip ms: p50 {trip.p50}  p95 {trip.p95}  p99 {trip.p99}  max {trip.max}")
        con.print(f"view latency ms:     p50 {views.p50}  p95 {views.p95}  p99 {views.p99}  max {views.max}")
        con.print(f"conflicts (409): {report.conflicts}; finished: {report.finished}/{report.played}; "
                  f"audited clean: [bold]{report.clean}/{report.played}[/]"
                  + (f" ({report.matches - report.played} not started before the deadline)"
                     if report.played < report.matches else ""))
        cross, after = report.cross_host_ms, report.cross_host_after_ms
        if cross is not None and after is not None:
            con.print(f"cross-host ms (sent to {report.server}, streamed by {report.cross_host}): p50 {cross.p50}  "
                      f"p95 {cross.p95}  p99 [bold]{cross.p99}[/]  max {cross.max}; after A's answer: p50 {after.p50}  "
                      f"p99 {after.p99}; never delivered: {report.cross_host_missed}")
        cpu = f"; the service used {report.server_cpu_ms} ms" if server_pids else ""
        con.print(f"{report.load}; the load generator used {report.client_cpu_ms} ms of CPU per decision{cpu}",
                  style="dim")
        for r in report.runs:
            if r.error or (r.match_id and r.audit != "clean"):
                con.print(f"  [red]{r.match_id or '(not created)'}[/] seed {r.seed}: {r.error or ''} audit {r.audit}")
        if base is not None and baseline is not None:
            show_comparison(compare(load_points(base), load_points(msgspec.to_builtins(report)), LOAD_FLOOR),
                            baseline, base.get("load"))
    if not report.ok:
        raise SystemExit(1)


def _alive(pid: int) -> bool:
    import os

    return os.path.exists(f"/proc/{pid}")
