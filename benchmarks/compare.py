"""Pairwise significance tests: axiometer's randomization test, vectorised over pairs, beside ranx.

Run from the repository root (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/compare.py            # 100 runs x 50 topics x depth 1000 (~1 min)
    .venv/bin/python benchmarks/compare.py --quick    # a smoke run in seconds

On a synthetic campaign (:func:`axiometer.generators.campaign.generate_campaign`,
seeded) it scores nDCG@10 per run and topic, then times:

- **axiometer**: :func:`axiometer.significance.randomization_test` on all
  ``runs (runs - 1) / 2`` pairs (4,950 for 100 runs) with ``--permutations``
  sign patterns (10,000), best of ``--repeat``; beside it the paired t-test,
  the Wilcoxon test, the bootstrap intervals and the whole
  :func:`~axiometer.significance.compare_matrices` (what ``axiometer
  compare`` computes after scoring);
- **ranx**: ``ranx.compare(..., stat_test="fisher", n_permutations=...)`` on
  the first ``--ranx-runs`` runs (ranx's numba kernels; JIT compilation is
  done by a warm-up call before timing), and ranx's test function alone once
  per unordered pair of those runs. ranx takes about 20 ms a pair, so all
  4,950 pairs would take minutes: its time is extrapolated linearly in the
  number of pairs (each pair's test costs the same: same topics, same
  permutations), and the script says so. ``ranx.compare`` tests every
  ordered pair, so each pair twice; the per-pair line counts one test a pair.

The same per-topic values feed both: ranx's nDCG@10 is checked against
axiometer's (max |Δ| printed), and on the subset axiometer's p-values are
compared with ranx's (two Monte-Carlo estimates of the same p-value: they
must agree within 4 standard errors of a proportion with that many
permutations, plus ranx's and axiometer's different count conventions, c/N
against (c + 1)/(N + 1)). With ``--cli`` the whole ``axiometer compare``
command also runs on the campaign written as TREC files (reading, scoring,
every test, the JSON report).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import sys
import tempfile
import time
import warnings
from importlib import metadata
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from axiometer.generators.campaign import generate_campaign, write_trec
from axiometer.metrics import parse
from axiometer.metrics.base import RankingBatch
from axiometer.significance import (
    all_pairs,
    bootstrap_ci,
    compare_matrices,
    paired_t_test,
    randomization_test,
    wilcoxon_test,
)


def timed(function: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """The best and the median of ``repeat`` timings of ``function()``, and its last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times), result


def scored(ranking: Sequence[str]) -> dict[str, float]:
    """Strictly decreasing scores, so ranx ranks exactly ``ranking``."""
    n = len(ranking)
    return {doc: float(n - i) for i, doc in enumerate(ranking)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--permutations", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3, help="timings of axiometer's tests (best and median)")
    parser.add_argument("--ranx-runs", type=int, default=10,
                        help="runs given to ranx.compare (their pairs are timed, then extrapolated)")
    parser.add_argument("--ranx-threads", type=int, default=0, help="numba threads for ranx (0: all cores)")
    parser.add_argument("--cli", action=argparse.BooleanOptionalAction, default=True,
                        help="also time the whole 'axiometer compare' command on the campaign's files")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="20 runs x 20 topics x depth 100, 1,000 permutations")
    args = parser.parse_args(argv)
    if args.quick:
        args.runs, args.topics, args.depth, args.permutations, args.repeat = 20, 20, 100, 1_000, 1
        args.ranx_runs = min(args.ranx_runs, 5)

    import numba
    import ranx
    from ranx.statistical_tests import fisher_randomization_test

    warnings.filterwarnings("ignore", category=numba.NumbaTypeSafetyWarning)
    threads = args.ranx_threads or numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(threads)
    pairs = all_pairs(args.runs)
    print(f"{platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}, "
          f"ranx {metadata.version('ranx')}, scipy {metadata.version('scipy')}, {os.cpu_count()} cores; "
          f"ranx on {threads} numba thread(s)")
    print(f"campaign: {args.runs} runs x {args.topics} topics x depth {args.depth} (seed {args.seed}); "
          f"{len(pairs):,} pairs; {args.permutations:,} permutations")

    start = time.perf_counter()
    campaign = generate_campaign(topics=args.topics, runs=args.runs, depth=args.depth, seed=args.seed,
                                 mapping="linear")
    metric = parse("nDCG@10")
    matrix = np.array([metric.score_batch(RankingBatch.from_rankings(campaign.rankings(qid), campaign.topics[qid]))
                       for qid in campaign.qids]).T          # runs x topics
    print(f"generated and scored nDCG@10 per run and topic in {time.perf_counter() - start:.1f} s")

    # -- axiometer ------------------------------------------------------------------------
    print("\naxiometer (numpy; BLAS for the sign-flip product):")
    rows = []
    best, median, p_ours = timed(lambda: randomization_test(matrix, permutations=args.permutations,
                                                            seed=args.seed), args.repeat)
    ours_seconds = best
    rows.append(("randomization test, all pairs", best, median))
    for name, function in (("paired t-test, all pairs", lambda: paired_t_test(matrix)),
                           ("Wilcoxon signed-rank, all pairs", lambda: wilcoxon_test(matrix)),
                           ("bootstrap intervals, all runs", lambda: bootstrap_ci(matrix, 10_000, seed=args.seed))):
        best, median, _ = timed(function, args.repeat)
        rows.append((name, best, median))
    runs = tuple(campaign.run_tags)
    best, median, _ = timed(lambda: compare_matrices({"nDCG@10": matrix}, runs, campaign.qids,
                                                     permutations=args.permutations, seed=args.seed),
                            args.repeat)
    rows.append(("compare_matrices (all of the above, Holm)", best, median))
    for name, best, median in rows:
        print(f"  {name:<42} best {best:7.3f} s   median {median:7.3f} s")
    print(f"  randomization test: {ours_seconds / len(pairs) * 1e6:.1f} µs a pair")

    # -- ranx --------------------------------------------------------------------------------
    k = min(args.ranx_runs, args.runs)
    subset_pairs = all_pairs(k)
    qrels_dict = {qid: {doc: max(per.values()) for doc, per in table.items()}
                  for qid, table in campaign.grades.items()}
    qrels = ranx.Qrels.from_dict(qrels_dict)
    ranx_runs = []
    for tag in runs[:k]:
        run = ranx.Run.from_dict({qid: scored(ranking) for qid, ranking in campaign.runs[tag].items()})
        run.name = tag
        ranx_runs.append(run)
    ranx.compare(qrels, ranx_runs[:2], ["ndcg@10"], stat_test="fisher", n_permutations=10,
                 max_p=0.05)                                   # numba JIT, outside the timings
    ranx_matrix = np.array([ranx.evaluate(qrels, run, "ndcg@10", return_mean=False) for run in ranx_runs])
    print(f"\nranx (numba) on the first {k} runs ({len(subset_pairs):,} pairs):")
    print(f"  max |Δ| per-topic nDCG@10, ranx vs axiometer: {np.max(np.abs(ranx_matrix - matrix[:k])):.2e}")
    start = time.perf_counter()
    report = ranx.compare(qrels, ranx_runs, ["ndcg@10"], stat_test="fisher",
                          n_permutations=args.permutations, max_p=0.05)
    compare_seconds = time.perf_counter() - start
    start = time.perf_counter()
    for i, j in subset_pairs:
        fisher_randomization_test(ranx_matrix[i], ranx_matrix[j], args.permutations, 0.05, 42)
    test_seconds = time.perf_counter() - start
    per_compare = compare_seconds / len(subset_pairs)
    per_test = test_seconds / len(subset_pairs)
    how = "measured" if k == args.runs else f"extrapolated from {len(subset_pairs)} pairs"
    print(f"  ranx.compare (tests each pair twice):   {compare_seconds:7.2f} s = {per_compare * 1e3:.1f} ms a pair"
          f" -> {per_compare * len(pairs):8.1f} s for {len(pairs):,} pairs ({how})")
    print(f"  ranx's test once per pair:              {test_seconds:7.2f} s = {per_test * 1e3:.1f} ms a pair"
          f" -> {per_test * len(pairs):8.1f} s for {len(pairs):,} pairs ({how})")
    print(f"\naxiometer's randomization test over all {len(pairs):,} pairs: {ours_seconds:.3f} s; "
          f"{per_compare * len(pairs) / ours_seconds:,.0f}x faster than ranx.compare, "
          f"{per_test * len(pairs) / ours_seconds:,.0f}x faster than ranx's test once per pair")

    # -- agreement on the subset ------------------------------------------------------------------
    ours_on_ranx = randomization_test(ranx_matrix, subset_pairs, permutations=args.permutations, seed=args.seed)
    reported = np.array([report.comparisons[runs[i], runs[j]]["ndcg@10"]["p_value"] for i, j in subset_pairs])
    worst = 0.0
    for p, q in zip(ours_on_ranx, reported):
        middle = min(max((p + q) / 2, 1 / args.permutations), 1 - 1 / args.permutations)
        bound = 2 * 4 * math.sqrt(middle * (1 - middle) / args.permutations) + 2 / args.permutations
        worst = max(worst, abs(p - q) / bound)
    print(f"p-values on the {len(subset_pairs):,} pairs, axiometer vs ranx.compare: max |Δp| "
          f"{np.max(np.abs(ours_on_ranx - reported)):.4f} ({worst:.2f} of the Monte-Carlo bound)")
    status = 0 if worst <= 1 else 1
    if status:
        print("DISAGREE: a p-value differs from ranx's by more than the Monte-Carlo bound")

    # -- the command ------------------------------------------------------------------------
    if args.cli:
        from axiometer.cli import main as axiometer

        with tempfile.TemporaryDirectory() as directory:
            files = write_trec(campaign, directory)
            start = time.perf_counter()
            code = axiometer(["compare", "--qrels", str(files.qrels), "--runs", str(files.runs[runs[0]].parent),
                              "--metric", "nDCG@10", "--grades", "linear", "--permutations",
                              str(args.permutations), "--format", "json", "-o", os.devnull])
            seconds = time.perf_counter() - start
        print(f"\n'axiometer compare' on the TREC files (read, score nDCG@10, every test, JSON): "
              f"{seconds:.1f} s (exit {code})")
        status = status or code
    return status


if __name__ == "__main__":
    sys.exit(main())
