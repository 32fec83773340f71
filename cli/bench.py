"""``kifu bench``: run the benchmark (``kifu.tools.bench``) and print its figures."""
from __future__ import annotations

import click
import msgspec
from rich.console import Console
from rich.text import Text

from kifu.tools.bench import Report, fmt, run
from kifu.tools.bench_compare import BENCH_FLOOR, Change, bench_points, compare, read_report

from . import render
from .names import RulesetName


@click.command()
@click.option("--quick", is_flag=True, help="A smoke run in under 30 s (CI); its figures are only indicative.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--ruleset", default="worlfard", show_default=True, type=RulesetName(),
              help="Which ruleset's matches to measure.")
@click.option("--compare", "baseline", metavar="FILE", default=None,
              help="A saved `kifu bench --json` report: print each figure against it, marking the ones "
                   "that moved by more than their noise.")
def bench(quick: bool, as_json: bool, ruleset: str, baseline: str | None) -> None:
    """Measure self-play, fold, seek, store, audit, size and memory against their targets."""
    base = read_report(baseline) if baseline else None   # a bad baseline fails before the run, not after
    err = Console(stderr=True)
    status = None
    if not as_json and err.is_terminal:
        status = err.status("benchmark")
        status.start()

    def progress(what: str) -> None:
        if status is not None:
            status.update(f"benchmark: {what}…")

    try:
        report = run(quick=quick, progress=progress, ruleset_name=ruleset)
    finally:
        if status is not None:
            status.stop()
    if as_json:
        click.echo(msgspec.json.format(msgspec.json.encode(report)).decode())
        return
    show(report)
    if base is not None and baseline is not None:
        now = bench_points(msgspec.to_builtins(report))
        show_comparison(compare(bench_points(base), now, BENCH_FLOOR), baseline, base.get("machine", {}).get("load"))
        then = base.get("machine", {}).get("python")
        if then and then != report.machine.python:    # a different interpreter build moves every figure
            render.console().print(f"[yellow]the baseline ran on Python {then}; this run on {report.machine.python}[/]")


def show_comparison(changes: list[Change], baseline: str, load: str | None) -> None:
    """The figures against a saved run; those that moved past their noise are marked."""
    con = render.console()
    con.print(f"[bold]against {baseline}[/]" + (f" [dim]({load})[/]" if load else ""))
    style = {"worse": Text("worse", "red"), "better": Text("better", "green"), "same": "within noise", "—": ""}
    render.show_table(con, ("figure", "baseline", "now", "change", "noise", "verdict"),
                      [(c.label, fmt(c.base), fmt(c.now), f"{(c.ratio - 1) * 100:+.1f}%", f"±{c.noise * 100:.0f}%",
                        style[c.verdict]) for c in changes])
    worse = [c.label for c in changes if c.verdict == "worse"]
    if worse:
        con.print(f"[red]worse than the baseline by more than their noise:[/] {', '.join(worse)}")


def show(report: Report) -> None:
    con = render.console()
    m = report.machine
    con.print(f"[bold]kifu bench {report.ruleset}[/] ({report.mode}, {report.seconds:.0f} s) · {m.cpu} · "
              f"nproc {m.nproc} · Python {m.python} · {m.platform}")
    con.print(f"{m.pinned}; {m.load}; scratch files in {m.scratch}", style="dim")
    notes: list[str] = []
    rows = []
    for f in report.figures:
        met = "—" if f.met is None else (Text("met", "green") if f.met else Text("not met", "red"))
        label = Text(f.label)
        if f.note:
            notes.append(f.note)
            label.append(f" ({len(notes)})", "dim")
        rows.append((label, fmt(f.median), f"{fmt(f.min)}–{fmt(f.max)}" if f.samples > 1 else "",
                     f.unit, str(f.target) if f.target else "report", met))
    render.show_table(con, ("figure", "median", "min–max", "unit", "target", "met"), rows)
    for number, note in enumerate(notes, start=1):
        con.print(f"({number}) {note}", style="dim")
    for name, text in report.workloads.items():
        con.print(f"[bold]{name}:[/] {text}", style="dim")
    missed = [f.label for f in report.figures if f.met is False]
    targets = sum(1 for f in report.figures if f.met is not None)
    said = f"targets: {targets - len(missed)} of {targets} met"
    con.print(said + (f"; not met: {', '.join(missed)}" if missed else ""), style="red" if missed else "green")
    if report.mode == "quick":
        con.print("quick run: few repeats and small workloads; the figures are indicative only", style="yellow")
