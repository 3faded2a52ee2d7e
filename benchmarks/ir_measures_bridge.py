"""The ir_measures bridge next to the built-ins: matrices cell by cell, with timings.

Run from the repository root (needs the test extra: ``pip install -e '.[test]'``)::

    .venv/bin/python benchmarks/ir_measures_bridge.py            # default budget, ten constraints
    .venv/bin/python benchmarks/ir_measures_bridge.py --quick    # the quick budget

For each pair (``nDCG@10``, ``P@10``, ``AP``, ``RR``, ``nDCG``, ``AP@10``, ``Rprec``, ``bpref``
by default; ``--pairs``)
it runs :func:`axiometer.runner.run_table` on the built-in spec string and on
:func:`axiometer.metrics.ir_measures_bridge.ir_measures_metric` of the same
measure, with the same seed, budget and constraints (``jobs = 1``, so the
times are CPU-bound and comparable), then prints one line per constraint:
both verdicts, whether they agree, and each side's cases checked. It also
times one ``score`` call of each (the per-call overhead that decides a
check's time). Nothing is asserted; the figures are for reading
(``docs/ir-measures.md`` reports and explains them).
"""

from __future__ import annotations

import argparse
import time

from tabulate import tabulate

from axiometer.axioms import CONSTRAINT_IDS
from axiometer.checking import QUICK, Budget
from axiometer.core import Ranking, Topic
from axiometer.metrics import parse
from axiometer.metrics.ir_measures_bridge import ir_measures_metric
from axiometer.runner import run_table

#: (built-in spec, ir_measures measure).
PAIRS = (("nDCG@10", "nDCG@10"), ("P@10", "P@10"), ("AP", "AP"), ("RR", "RR"), ("nDCG", "nDCG"),
         ("AP@10", "AP@10"), ("Rprec", "Rprec"), ("bpref", "Bpref"))


def _cases(cell) -> int:
    return sum(c.cases + getattr(c, "small_scope", 0) for c in cell.checks)


def per_call(metric, repeat: int = 2000) -> float:
    """Seconds per ``score`` call on a 10-document ranking (best of three)."""
    topic = Topic.single({f"d{i}": (i % 4) / 10 for i in range(1, 13)})
    ranking = Ranking([f"d{i}" for i in (3, 1, 7, 2, 9, 11, 4, 5, 8, 6)])
    metric.score(ranking, topic)  # builds the bridge's per-topic evaluator once
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            metric.score(ranking, topic)
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the quick budget")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pairs", nargs="*", default=None,
                        help="built-in specs that are also ir_measures names (default: see PAIRS)")
    parser.add_argument("--constraints", nargs="*", default=list(CONSTRAINT_IDS))
    args = parser.parse_args()
    budget = QUICK if args.quick else Budget()
    pairs = [(p, p) for p in args.pairs] if args.pairs else PAIRS
    print(f"budget: {budget.describe()}; seed {args.seed}; jobs 1")
    disagreements = 0
    for builtin_spec, measure in pairs:
        bridge = ir_measures_metric(measure)
        builtin = parse(builtin_spec)
        start = time.process_time()
        ours = run_table([builtin_spec], args.constraints, seed=args.seed, budget=budget, jobs=1)
        ours_s = time.process_time() - start
        start = time.process_time()
        theirs = run_table([bridge], args.constraints, seed=args.seed, budget=budget, jobs=1)
        theirs_s = time.process_time() - start
        rows = []
        for a, b in zip(ours.cells, theirs.cells):
            same = a.verdict == b.verdict
            disagreements += not same
            rows.append((a.constraint, a.verdict, b.verdict, "yes" if same else "NO",
                         _cases(a), _cases(b)))
        print(f"\n{builtin_spec} vs {bridge.name}: built-in {ours_s:.1f} s CPU,"
              f" bridge {theirs_s:.1f} s CPU; per score call: built-in"
              f" {per_call(builtin) * 1e6:.1f} us, bridge {per_call(bridge) * 1e6:.1f} us")
        print(tabulate(rows, headers=("constraint", "built-in", "bridge", "same", "cases (built-in)",
                                      "cases (bridge)")))
    print(f"\ncells that differ: {disagreements}")


if __name__ == "__main__":
    main()
