"""What proofs cost and cover: the default table with proofs and without, in one run (issue 26).

Run from the repository root (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/proofs.py              # the full default table, both ways
    .venv/bin/python benchmarks/proofs.py --quick      # the --quick table, both ways

It runs :func:`axiometer.runner.run_table` (what ``axiometer table`` runs) twice
with the same seed and jobs: with the default budget (proofs on) and with
``proof_docs = 0`` (``--no-proofs``), and prints

- the wall and CPU seconds of each and their ratio (the issue's goal: at
  most 2);
- the holding cells (satisfied or witness, not projected) and how many are
  proved (the reports' ``ᵖ``: the cell's default setting is proved; the
  goal: at least three quarters), by constraint;
- every holding cell that is not proved, with the reason its checks give;
- the cells whose proofs took longest (``Check.proof_seconds`` summed over
  the cell's grid), and the verdicts proofs changed (a search's
  "satisfied" refuted by z3, a horizon's violation turned witness).

Nothing here asserts a time: the figures are for reading.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import sys
import time
from collections import Counter
from typing import Any

from tabulate import tabulate

from axiometer.checking import QUICK, Budget
from axiometer.reports.table.proofs import proved
from axiometer.results import Cell, TableResult, Verdict
from axiometer.runner import run_table


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed_table(budget: Budget, quick: bool, jobs: int, seed: int) -> tuple[float, float, TableResult]:
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = run_table(seed=seed, budget=budget, quick=quick, jobs=jobs)
    return time.perf_counter() - wall, cpu_seconds() - cpu, result


def holding(cell: Cell) -> bool:
    return cell.verdict in (Verdict.SATISFIED, Verdict.WITNESS) and not cell.projected


def why_not(cell: Cell) -> str:
    default = cell.default_check
    reason = default.unproved if default is not None else None
    return (reason or "no proof tried (no structures for this constraint yet)")[:110]


def coverage(result: TableResult) -> None:
    cells = [cell for cell in result.cells if holding(cell)]
    done = [cell for cell in cells if proved(cell)]
    print(f"holding cells (satisfied or witness, not projected): {len(cells)}; proved: {len(done)} "
          f"({len(done) / max(1, len(cells)):.0%})")
    total, good = Counter(cell.constraint for cell in cells), Counter(cell.constraint for cell in done)
    print(tabulate([(c, total[c], good[c]) for c in total], headers=("constraint", "holding", "proved")))
    missing = [(cell.metric, cell.constraint, why_not(cell)) for cell in cells if not proved(cell)]
    if missing:
        print("\nholding cells not proved, and why:")
        print(tabulate(missing, headers=("metric", "constraint", "reason")))


def slowest(result: TableResult, top: int) -> None:
    costs = sorted(((sum(check.proof_seconds or 0 for check in cell.checks), cell.metric, cell.constraint,
                     len(cell.checks)) for cell in result.cells), reverse=True)[:top]
    print(f"\nslowest proofs (seconds summed over the cell's grid settings), top {top}:")
    print(tabulate(costs, headers=("proof s", "metric", "constraint", "settings"), floatfmt=".2f"))


def changed(with_proofs: TableResult, without: TableResult) -> None:
    before = {(cell.metric, cell.constraint): cell for cell in without.cells}
    rows = [(cell.metric, cell.constraint, before[(cell.metric, cell.constraint)].verdict, cell.verdict)
            for cell in with_proofs.cells
            if (cell.metric, cell.constraint) in before
            and before[(cell.metric, cell.constraint)].verdict != cell.verdict]
    print("\ncells whose verdict the proofs changed:" if rows else "\nno cell's verdict changed")
    if rows:
        print(tabulate(rows, headers=("metric", "constraint", "searched", "with proofs")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the --quick table instead of the full one")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args(argv)
    budget = QUICK if args.quick else Budget()
    print(f"{'--quick' if args.quick else 'full default'} table, jobs {args.jobs}, seed {args.seed}, "
          f"load average {os.getloadavg()[0]:.2f}")
    runs: dict[str, Any] = {}
    for name, run_budget in (("without proofs", dataclasses.replace(budget, proof_docs=0)),
                             ("with proofs", budget)):
        runs[name] = timed_table(run_budget, args.quick, args.jobs, args.seed)
    rows = [(name, wall, cpu) for name, (wall, cpu, _) in runs.items()]
    print(tabulate(rows, headers=("table", "wall s", "CPU s"), floatfmt=".1f"))
    base, proofs = runs["without proofs"], runs["with proofs"]
    print(f"with proofs / without: wall {proofs[0] / base[0]:.2f}x, CPU {proofs[1] / base[1]:.2f}x "
          f"(load average now {os.getloadavg()[0]:.2f})\n")
    coverage(proofs[2])
    slowest(proofs[2], args.top)
    changed(proofs[2], base[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
