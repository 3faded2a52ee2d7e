"""``agree`` against the peers: generated comparisons per second, and the wall time of a default run.

Run from the repository root (needs the test extra: ``pip install -e '.[test]'``)::

    .venv/bin/python benchmarks/agree.py              # 300 generated queries, as agree's default
    .venv/bin/python benchmarks/agree.py --queries 1000

For each implementation of nDCG@10 (trec_eval through pytrec_eval, the same
through ir_measures, ranx, and a plain Python function written right) it
prints, in one run on the same queries:

- **comparisons/s**: generated queries compared per second in agree's first
  pass: the implementation's values (a batch call where it has one) and the
  reference's under every convention still alive;
- **implementation/s** and **reference/s**: the two halves of that pass alone;
- **agree s**: the wall time of a whole default ``agree`` (generation, the
  pass, the convention search, shrinking a case, the properties);
- **first call s**: the implementation's first call, which for ranx includes
  numba loading or compiling its code (minutes on a fresh machine, seconds
  once cached), kept out of the other columns.

Nothing is asserted: the figures are for reading (``docs/agree.md`` quotes them).
"""

from __future__ import annotations

import argparse
import math
import time

from tabulate import tabulate

from axiometer.agreement.agree import _generated, _Reference, _survivors, agree
from axiometer.agreement.conventions import conventions_for
from axiometer.agreement.generation import awkward_queries
from axiometer.agreement.implementations import load_implementation
from axiometer.metrics.resolve import resolve

SPEC = "nDCG@10"


def python_ndcg_at_10(grades: dict[str, int], scores: dict[str, float]) -> float:
    """nDCG@10 written right, in plain Python: the comparison's floor for a per-query function."""
    ranked = sorted(scores, key=lambda d: (scores[d], d), reverse=True)[:10]
    dcg = sum(max(grades.get(d, 0), 0) / math.log2(i + 2) for i, d in enumerate(ranked))
    best = sorted((max(g, 0) for g in grades.values()), reverse=True)[:10]
    ideal = sum(g / math.log2(i + 2) for i, g in enumerate(best))
    return dcg / ideal if ideal else 0.0


IMPLEMENTATIONS = (("pytrec_eval:ndcg_cut_10", "pytrec_eval:ndcg_cut_10"),
                   ("ir_measures/pytrec_eval:nDCG@10", "ir_measures/pytrec_eval:nDCG@10"),
                   ("ranx:ndcg@10", "ranx:ndcg@10"),
                   ("python function (per query)", python_ndcg_at_10))


def _row(label: str, ref: object, queries: int) -> list[object]:
    metric = resolve(SPEC).metric
    impl = load_implementation(ref)
    started = time.perf_counter()
    impl.values(awkward_queries(10)[:1])
    first = time.perf_counter() - started
    found = awkward_queries(10) + _generated(queries, 0, 10)
    started = time.perf_counter()
    values = impl.values(found)
    implementation = time.perf_counter() - started
    started = time.perf_counter()
    _survivors(_Reference(metric, 1e-9), conventions_for(metric), found, values)
    reference = time.perf_counter() - started
    started = time.perf_counter()
    result = agree(ref, SPEC, queries=queries)
    whole = time.perf_counter() - started
    return [label, round(len(found) / (implementation + reference)), round(len(found) / implementation),
            round(len(found) / reference), f"{whole:.1f}", f"{first:.2f}", result.agree.value]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=300, help="generated queries (default: 300)")
    args = parser.parse_args()
    rows = [_row(label, ref, args.queries) for label, ref in IMPLEMENTATIONS]
    print(f"agree against {SPEC}: {args.queries} generated queries (+ the hand-written ones), seed 0")
    print(tabulate(rows, headers=["implementation", "comparisons/s", "implementation/s", "reference/s",
                                  "agree s", "first call s", "verdict"], disable_numparse=True))


if __name__ == "__main__":
    main()
