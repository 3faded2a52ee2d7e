"""How long ``axiometer table`` takes: the full default table and ``--quick``.

Run from the repository root (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/table.py             # full default budget, then --quick
    .venv/bin/python benchmarks/table.py --quick     # --quick only (about a minute)

For each variant it calls the runner (:func:`axiometer.runner.run_table`, what
``axiometer table`` runs) three ways:

1. the whole table with ``jobs = all`` (``os.cpu_count()``, or ``--jobs``);
2. the whole table with ``jobs = 1``, and whether its result equals (1)'s
   (``TableResult.to_dict()``: same seed, same result whatever ``jobs`` is);
3. cell by cell, ``jobs = 1``: one ``run_table`` call per (row, constraint),
   with the row's metric passed as an object so that its parameters vary over
   the same grid as in the table. This gives each cell's time (its grid
   checks, and for a violated cell the other cutoff mode and the explanation,
   as the runner does them) and its rate: cases checked per CPU second, where
   cases are the cell's ``Check.cases + Check.small_scope`` summed over its
   grid (the extra checks behind an explanation are not counted as cases, so
   a violated cell's rate is a lower bound; the ``explain s`` column times
   :func:`axiometer.checking.explain.explain` alone on the slowest cells).

4. a cProfile of a ``jobs = 1`` whole-table run, read for where the random
   search's CPU goes: evaluating the metric (``compare`` called from the
   constraints' judgments: float scores and exact re-decisions of near-ties),
   drawing cases (``CaseStrategy.sample``) and the rest (small-scope
   enumeration, shrinking, bookkeeping); ``--no-shares`` skips it.

Both wall and CPU seconds are printed: CPU time (this process plus the pool's
workers, from ``resource.getrusage``) does not depend on what else the
machine runs as much as wall time does. The load average before and after is
printed so a noisy run is visible. Nothing here asserts a time: the figures
are for reading (issue 15's goals on 2 cores: the full table under 15 s wall,
``--quick`` under 3 s, the median cell at least 10,000 cases per CPU second,
evaluation at least half of the random search's CPU).

``--profile FILE`` writes a cProfile of a ``jobs = 1`` whole-table run of the
last variant and prints its top functions by cumulative and by own time.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import resource
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabulate import tabulate

from axiometer.axioms import CONSTRAINTS, get
from axiometer.checking import QUICK, Budget, check
from axiometer.checking.explain import explain
from axiometer.metrics import TABLE_ROWS, parse
from axiometer.results import TableResult

try:
    from axiometer.runner import run_table
except ImportError as error:  # the runner lands in parallel with this script
    sys.exit(f"benchmarks/table.py needs axiometer.runner.run_table: {error}")


@dataclass(frozen=True)
class Timing:
    """Wall and CPU seconds of one call (CPU: this process and its reaped children)."""

    wall: float
    cpu: float


def timed(action: Callable[[], Any]) -> tuple[Timing, Any]:
    """Run ``action`` once; its wall time and CPU time (self + children, e.g. pool workers)."""
    def cpu_now() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    cpu_start, wall_start = cpu_now(), time.perf_counter()
    result = action()
    return Timing(time.perf_counter() - wall_start, cpu_now() - cpu_start), result


@dataclass(frozen=True)
class CellTiming:
    row: str
    spec: str
    constraint: str
    verdict: str
    settings: int
    cases: int
    timing: Timing
    explained: bool

    @property
    def rate(self) -> float:
        return self.cases / self.timing.cpu if self.timing.cpu > 0 else float("inf")


def table_cases(result: TableResult) -> int:
    """Cases checked in a table: ``cases + small_scope`` over every check of every cell."""
    return sum(c.cases + c.small_scope for cell in result.cells for c in cell.checks)


def time_cells(quick: bool, seed: int) -> list[CellTiming]:
    """Every cell on its own (``jobs = 1``), in table order."""
    cells = []
    for title, spec in TABLE_ROWS:
        metric = parse(spec)  # an object, not the string: its parameters vary as in the table
        for constraint in CONSTRAINTS:
            timing, result = timed(lambda: run_table([metric], [constraint.id], seed=seed, quick=quick, jobs=1))
            cell = result.cells[0]
            cells.append(CellTiming(title, spec, constraint.id, cell.verdict, len(cell.checks),
                                    sum(c.cases + c.small_scope for c in cell.checks), timing,
                                    cell.explanation is not None or cell.verdict == "violated"))
    return cells


def time_explanation(cell: CellTiming, quick: bool, seed: int) -> float | None:
    """CPU seconds of :func:`explain` alone for a violated cell's default check (as the runner calls it)."""
    if cell.verdict != "violated":
        return None
    budget = QUICK if quick else Budget()
    metric, constraint = parse(cell.spec), get(cell.constraint)
    violated = check(metric, constraint, budget=budget, seed=seed)
    start = time.process_time()
    explain(metric, constraint, violated, budget=budget, seed=seed)
    return time.process_time() - start


def matrix(cells: list[CellTiming]) -> str:
    """CPU seconds per cell, rows x constraints, with row and column totals."""
    ids = [c.id for c in CONSTRAINTS]
    by = {(c.row, c.constraint): c for c in cells}
    rows = []
    for title, _ in TABLE_ROWS:
        seconds = [by[title, i].timing.cpu for i in ids]
        rows.append([title, *(f"{s:.2f}" for s in seconds), f"{sum(seconds):.1f}"])
    totals = [sum(by[t, i].timing.cpu for t, _ in TABLE_ROWS) for i in ids]
    rows.append(["total", *(f"{s:.1f}" for s in totals), f"{sum(totals):.1f}"])
    return tabulate(rows, headers=["CPU s", *ids, "total"], disable_numparse=True, stralign="right")


def rate_matrix(cells: list[CellTiming]) -> str:
    """Cases checked per CPU second per cell, rows x constraints (threshold cells: grid points)."""
    ids = [c.id for c in CONSTRAINTS]
    by = {(c.row, c.constraint): c for c in cells}
    rows = [[title, *(f"{by[title, i].rate / 1000:,.1f}" if by[title, i].cases else "-" for i in ids)]
            for title, _ in TABLE_ROWS]
    return tabulate(rows, headers=["k cases/CPU s", *ids], disable_numparse=True, stralign="right")


def report_variant(name: str, quick: bool, jobs: int, seed: int, top: int, per_cell: bool,
                   shares: bool = True) -> dict[str, float]:
    print(f"\n== {name} ({'QUICK budget, small grids' if quick else 'default budget, full grids'}) ==")
    budget = QUICK if quick else Budget()
    print(f"budget: {budget.describe()}")
    parallel, result_all = timed(lambda: run_table(seed=seed, quick=quick, jobs=jobs))
    serial, result_one = timed(lambda: run_table(seed=seed, quick=quick, jobs=1))
    same = result_all.to_dict() == result_one.to_dict()
    checks = sum(len(cell.checks) for cell in result_all.cells)
    cases = table_cases(result_all)
    print(tabulate([
        [f"jobs={jobs}", f"{parallel.wall:.1f}", f"{parallel.cpu:.1f}", checks, cases,
         f"{cases / parallel.wall:,.0f}"],
        ["jobs=1", f"{serial.wall:.1f}", f"{serial.cpu:.1f}", checks, cases, f"{cases / serial.wall:,.0f}"],
    ], headers=["whole table", "wall s", "CPU s", "checks", "cases", "cases/wall s"], disable_numparse=True,
        stralign="right"))
    print(f"speed-up jobs={jobs} over jobs=1: {serial.wall / parallel.wall:.2f}x wall; "
          f"same result (to_dict): {'yes' if same else 'NO'}; "
          f"violated cells: {sum(c.verdict == 'violated' for c in result_all.cells)} of {len(result_all.cells)}; "
          f"explained: {sum(c.explanation is not None for c in result_all.cells)}")
    figures = {"parallel": parallel.wall, "serial": serial.wall}
    if shares:
        print_shares(search_shares(quick, seed))
    if not per_cell:
        return figures
    cells = time_cells(quick, seed)
    total_cpu = sum(c.timing.cpu for c in cells)
    print(f"\ncell by cell (jobs=1): {total_cpu:.1f} CPU s, {sum(c.timing.wall for c in cells):.1f} wall s")
    print(matrix(cells))
    rates = sorted(c.rate for c in cells if c.cases)
    print(f"\ncases per CPU second per cell: median {statistics.median(rates):,.0f}, "
          f"lowest {rates[0]:,.0f}, highest {rates[-1]:,.0f}")
    # A violated cell stops at its first counterexample (often the first small-scope case) and
    # then spends its time on the other cutoff mode and the explanation, whose cases are not
    # counted: its rate measures that fixed work, not the search. The cells whose verdict rests
    # on their whole search (satisfied, witness) measure evidence per second.
    searched = sorted(c.rate for c in cells if c.cases and c.verdict in ("satisfied", "witness"))
    if searched:
        print(f"cells whose verdict rests on the whole search (satisfied, witness; {len(searched)}): "
              f"median {statistics.median(searched):,.0f}, lowest {searched[0]:,.0f}")
    print(rate_matrix(cells))
    slowest = sorted(cells, key=lambda c: c.timing.cpu, reverse=True)[:top]
    share = sum(c.timing.cpu for c in slowest) / total_cpu if total_cpu else 0.0
    print(f"\nslowest {len(slowest)} cells ({share:.0%} of the CPU time):")
    rows = []
    for c in slowest:
        explain_s = time_explanation(c, quick, seed)
        rows.append([c.row, c.constraint, c.verdict, c.settings, c.cases, f"{c.timing.cpu:.2f}",
                     f"{c.rate:,.0f}", "-" if explain_s is None else f"{explain_s:.2f}"])
    print(tabulate(rows, headers=["row", "constraint", "verdict", "settings", "cases", "CPU s", "cases/s",
                                  "explain s"], disable_numparse=True, stralign="right"))
    return figures


def _function(stats: pstats.Stats, filename_end: str, name: str) -> tuple[Any, Any] | None:
    """The pstats key and entry of the function ``name`` defined in a file ending with ``filename_end``."""
    for key, entry in stats.stats.items():  # type: ignore[attr-defined]
        if key[2] == name and key[0].replace(os.sep, "/").endswith(filename_end):
            return key, entry
    return None


def search_shares(quick: bool, seed: int) -> dict[str, float]:
    """Where the random search's CPU goes, from a cProfile of a ``jobs = 1`` whole-table run.

    - ``search``: the cumulative time of :func:`axiometer.checking.search.search_cases` (the
      small scope, the random draws, the judgments, shrinking), every check of the table;
    - ``evaluation``: the time in :func:`axiometer.metrics.decide.compare` called from the
      constraints' judgments (every caller but the threshold procedure, which is not a search):
      the metric's float scores and the exact re-decision of near-ties, both evaluating the metric;
    - ``drawing``: the time in the random draws that build cases (``CaseStrategy.sample``);
    - ``table``: the profiled run's total, for the threshold constraints and the runner's share.

    Profiling slows Python code down, not uniformly; the shares are what it measures.
    """
    profiler = cProfile.Profile()
    profiler.runcall(run_table, seed=seed, quick=quick, jobs=1)
    stats = pstats.Stats(profiler)
    search = _function(stats, "axiometer/checking/search.py", "search_cases")
    compare = _function(stats, "axiometer/metrics/decide.py", "compare")
    sample = _function(stats, "axiometer/generators/draw.py", "sample")
    if search is None or compare is None:
        raise SystemExit("benchmarks/table.py: search_cases or compare not found in the profile")
    evaluation = sum(ct for caller, (_, _, _, ct) in compare[1][4].items()
                     if "axiometer/axioms/" in caller[0].replace(os.sep, "/")
                     and not caller[0].endswith("threshold.py"))
    # CaseStrategy.sample is reached through BoundStrategy.sample: count the outer one once.
    drawing = 0.0
    if sample is not None:
        drawing = sum(ct for caller, (_, _, _, ct) in sample[1][4].items() if caller[2] != "sample")
    return {"search": search[1][3], "evaluation": evaluation, "drawing": drawing,
            "table": stats.total_tt}  # type: ignore[attr-defined]


def print_shares(shares: dict[str, float]) -> None:
    search = shares["search"]
    rest = search - shares["evaluation"] - shares["drawing"]
    print(f"\nprofile (cProfile, jobs=1, whole table): {shares['table']:.1f} s profiled, "
          f"of which the random search {search:.1f} s ({search / shares['table']:.0%})")
    print(tabulate([
        ["evaluating the metric (compare: float scores, exact near-ties)", f"{shares['evaluation']:.1f}",
         f"{shares['evaluation'] / search:.0%}"],
        ["drawing cases (CaseStrategy.sample)", f"{shares['drawing']:.1f}", f"{shares['drawing'] / search:.0%}"],
        ["the rest (small-scope enumeration, shrinking, bookkeeping)", f"{rest:.1f}", f"{rest / search:.0%}"],
    ], headers=["random search", "s", "share"], disable_numparse=True, stralign="right"))
    print(f"evaluation / random search = {shares['evaluation'] / search:.2f} (the issue asks >= 0.5); "
          f"evaluation / drawing = {shares['evaluation'] / max(shares['drawing'], 1e-9):.2f}")


def profile(quick: bool, seed: int, path: str, lines: int) -> None:
    """cProfile of a ``jobs = 1`` whole-table run: where the time goes."""
    profiler = cProfile.Profile()
    profiler.runcall(run_table, seed=seed, quick=quick, jobs=1)
    profiler.dump_stats(path)
    print(f"\n== profile ({'--quick' if quick else 'full'}, jobs=1) written to {path} ==")
    stats = pstats.Stats(profiler).strip_dirs()
    for key in ("cumulative", "tottime"):
        print(f"\n-- top {lines} by {key} --")
        stats.sort_stats(key).print_stats(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="only the --quick table")
    parser.add_argument("--full", action="store_true", help="only the full default table")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="the 'all' side (default: cpu count)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top", type=int, default=12, help="slowest cells to list")
    parser.add_argument("--no-cells", action="store_true", help="skip the cell-by-cell pass")
    parser.add_argument("--no-shares", action="store_true", help="skip the profiled run (evaluation vs drawing)")
    parser.add_argument("--profile", metavar="FILE", help="also cProfile a jobs=1 run of the last variant")
    parser.add_argument("--profile-lines", type=int, default=25)
    args = parser.parse_args(argv)

    variants = [("--quick", True)] if args.quick else [("full", False)] if args.full else \
        [("full", False), ("--quick", True)]
    load = os.getloadavg()
    print(f"axiometer table benchmark: python {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"jobs=all means {args.jobs}, seed {args.seed}, "
          f"{len(TABLE_ROWS)} rows x {len(CONSTRAINTS)} constraints")
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    summary = []
    for name, quick in variants:
        figures = report_variant(name, quick, args.jobs, args.seed, args.top, not args.no_cells,
                                 not args.no_shares)
        goal = 3.0 if quick else 15.0  # issue 15 (issue 7's were 10 and 60)
        summary.append([name, f"{figures['parallel']:.1f}", f"{figures['serial']:.1f}", f"< {goal:g}",
                        "met" if figures["parallel"] < goal else "not met"])
    load = os.getloadavg()
    print(f"\nload average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(tabulate(summary, headers=["table", f"wall s jobs={args.jobs}", "wall s jobs=1", "goal", ""],
                   disable_numparse=True))
    if args.profile:
        profile(variants[-1][1], args.seed, args.profile, args.profile_lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
