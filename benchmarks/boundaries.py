"""The cost of locating parameter boundaries, against the table without them, in one run.

Run from the repository root (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/boundaries.py            # the issue's four metrics
    .venv/bin/python benchmarks/boundaries.py --jobs 4

For the metrics (default ``alpha_nDCG@10 NRBP EU RBP``, the ten constraints),
it times ``run_table`` without boundaries (the default ``table``) and with
``boundaries=True`` (``axiometer table --boundaries``), and prints per row the
parameter-dependent cells, their boundaries and the checks spent locating
them (probes). No assertion is made on time: the figures are the point.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from axiometer.reports.numbers import number
from axiometer.runner.table import run_table

METRICS = ("alpha_nDCG@10", "NRBP", "EU", "RBP")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--metrics", nargs="+", default=list(METRICS))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, --jobs {args.jobs}")
    start = time.perf_counter()
    plain = run_table(args.metrics, jobs=args.jobs)
    plain_seconds = time.perf_counter() - start
    start = time.perf_counter()
    located = run_table(args.metrics, jobs=args.jobs, boundaries=True)
    located_seconds = time.perf_counter() - start
    print(f"table without boundaries: {plain_seconds:6.1f} s ({len(plain.cells)} cells)")
    print(f"table --boundaries:       {located_seconds:6.1f} s "
          f"({located_seconds / plain_seconds:.1f}x the table without)")
    probes = 0
    for cell in located.cells:
        found = list(cell.boundaries) + [b for curve in cell.curves for _, bs in curve.points for b in bs]
        if not found and len({c.verdict for c in cell.checks}) < 2:
            continue
        probes += sum(b.probes for b in found)
        values = "; ".join(f"{b.param} = {number(b.value)}"
                           + (f" ({b.closed_form})" if b.closed_form and b.closed_form != number(b.value) else "")
                           for b in cell.boundaries) or "none along one parameter"
        curves = f", curve points {sum(len(bs) for c in cell.curves for _, bs in c.points)}" if cell.curves else ""
        print(f"  {cell.row} x {cell.constraint}: {values}{curves}")
    print(f"checks spent bisecting: {probes}")


if __name__ == "__main__":
    main()
