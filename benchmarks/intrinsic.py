"""Intrinsic classification throughput: batched scoring against a per-ranking Python loop.

Run from the repository root (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/intrinsic.py                 # n = 12, 16, 20
    .venv/bin/python benchmarks/intrinsic.py --n 12 16       # a quicker run

For nDCG, AP and RBP(p=0.8) on binary ``rankings(n)`` (all ``2^n`` grade
sequences, R = n), it times:

- ``classify``: :func:`axiometer.intrinsic.classify.classify` end to end
  (batched ``score_batch`` over the domain's grade array, relabelling check,
  injectivity and interval screens, exact re-decision of near-ties);
- ``exact``: the part of ``classify`` spent in exact evaluations (the
  metric's own ``exact``, Fraction or sympy, passed in as ``exact=`` through
  a timing wrapper; the exact comparisons themselves are not included);
- ``batch``: :func:`axiometer.intrinsic.classify.score_domain` alone, the
  vectorised scoring;
- ``loop``: ``metric.score(ranking, topic)`` on each output of the domain,
  building each ``(ranking, topic)`` with ``domain.output(i)`` — the per-ranking
  Python path. For large domains (``--loop-limit``, default 65536 outputs) the
  loop runs on an evenly spaced sample and the rate is extrapolated to the
  whole domain; the table says so (``sampled``).

Each time is the best of ``--repeat`` runs (default 3), except ``exact``,
taken from the first ``classify`` run. Rates are outputs (rankings) per second; ``speed-up`` is the loop's time for
the whole domain over ``classify``'s, and over ``batch``'s. No assertion is
made on time.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from axiometer.intrinsic.classify import classify, score_domain
from axiometer.generators.domains import RankingsDomain, rankings
from axiometer.metrics import parse

METRICS = ("nDCG", "AP", "RBP(p=0.8)")


class TimedExact:
    """The metric's exact evaluation, counting calls and the time they take."""

    def __init__(self, metric: Any) -> None:
        self.metric, self.calls, self.seconds = metric, 0, 0.0

    def __call__(self, ranking: Sequence[str], topic: Any) -> Any:
        start = time.perf_counter()
        try:
            return self.metric.exact(ranking, topic)
        finally:
            self.seconds += time.perf_counter() - start
            self.calls += 1


def loop_time(metric: Any, domain: RankingsDomain, limit: int) -> tuple[float, int]:
    """Seconds for ``metric.score`` on every output (extrapolated from a sample above ``limit``)."""
    size = domain.size
    indices = range(size) if size <= limit else np.linspace(0, size - 1, limit).astype(int).tolist()
    pairs = [domain.output(i) for i in indices]  # build outside the timing, as the batch is
    start = time.perf_counter()
    for ranking, topic in pairs:
        metric.score(ranking, topic)
    seconds = time.perf_counter() - start
    return seconds * size / len(pairs), len(pairs)


def best(repeat: int, action: Any) -> tuple[float, Any]:
    """The shortest of ``repeat`` timings of ``action()``, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return min(times), result


def run(ns: Sequence[int], loop_limit: int, repeat: int = 3) -> list[dict[str, Any]]:
    rows = []
    for n in ns:
        start = time.perf_counter()
        domain = rankings(n)
        build = time.perf_counter() - start
        for spec in METRICS:
            metric = parse(spec)
            batch, _ = best(repeat, lambda: score_domain(metric, domain))
            timed = TimedExact(metric)
            start = time.perf_counter()
            result = classify(metric, domain, exact=timed)  # once: the exact time is this run's
            whole = time.perf_counter() - start
            whole = min(whole, best(repeat - 1, lambda: classify(metric, domain))[0]) if repeat > 1 else whole
            loop, sampled = min(loop_time(metric, domain, loop_limit) for _ in range(repeat))
            rows.append(dict(n=n, metric=metric.name, size=domain.size, build=build, classify=whole,
                             batch=batch, exact=timed.seconds, exact_calls=timed.calls, loop=loop,
                             sampled=sampled, category=result.category))
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    header = ("n", "metric", "outputs", "classify/s", "batch/s", "loop/s", "speed-up (classify)",
              "speed-up (batch)", "exact s (calls)", "loop", "category")
    lines = [header]
    for r in rows:
        lines.append((str(r["n"]), r["metric"], f"{r['size']:,}",
                      f"{r['size'] / r['classify']:,.0f}", f"{r['size'] / r['batch']:,.0f}",
                      f"{r['size'] / r['loop']:,.0f}", f"{r['loop'] / r['classify']:,.1f}x",
                      f"{r['loop'] / r['batch']:,.1f}x", f"{r['exact']:.3f} ({r['exact_calls']})",
                      "all" if r["sampled"] == r["size"] else f"sampled {r['sampled']:,}, extrapolated",
                      r["category"]))
    widths = [max(len(line[j]) for line in lines) for j in range(len(header))]
    out = ["| " + " | ".join(c.ljust(w) for c, w in zip(line, widths)) + " |" for line in lines]
    out.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[12, 16, 20], help="ranking lengths (binary)")
    parser.add_argument("--loop-limit", type=int, default=65536,
                        help="largest per-ranking loop run in full; above it, a sample of this size")
    parser.add_argument("--repeat", type=int, default=3, help="timings per measurement; the best is kept")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} CPUs, "
          f"{platform.machine()}")
    rows = run(args.n, args.loop_limit, args.repeat)
    for n in args.n:
        build = next(r["build"] for r in rows if r["n"] == n)
        print(f"rankings({n}): domain built in {build:.3f} s")
    print(table(rows))


if __name__ == "__main__":
    main()
