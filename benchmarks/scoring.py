"""Scoring throughput: axiometer's batched numpy path against ranx and trec_eval.

Run from the repository root (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/scoring.py            # 50 topics x 50 runs x depth 1000
    .venv/bin/python benchmarks/scoring.py --quick    # a smoke run in seconds

On a synthetic campaign (:func:`axiometer.generators.campaign.generate_campaign`)
it times, for each of the 20 table metrics (``axiometer.metrics.TABLE_ROWS``):

- ``batch``: ``metric.score_batch`` over one :class:`RankingBatch` per topic
  (all runs' rankings of that topic); batches are built once, before timing,
  and their building time is reported on its own line;
- ``per-ranking``: ``metric.score`` (the pure-Python formula) on a small
  subset of rankings, for a sense of the batched path's speed-up;

and, for the four metrics trec_eval and ranx share with axiometer (P@10, RR,
AP, nDCG@10), the same campaign scored by ``ranx`` (numba; JIT compilation is
excluded by a warm-up call, and the conversion of its ``Qrels``/``Run`` to
typed lists is reported on its own line, as axiometer's batch building is)
and by ``pytrec_eval`` (trec_eval in C++; its timing includes reading the
Python run dicts, which it cannot do apart). Every value is compared, per run
and topic, with axiometer's batched value; the maximum absolute difference is
printed so the timing is known to compare like with like.

Throughput is ranked documents in the input per second: ``topics x runs x
depth`` divided by the best of ``--repeat`` timings. Topics use the ``linear``
grade mapping (``r = grade / gmax``), under which axiometer's nDCG is
trec_eval's and ranx's (gain = grade; the ratio is scale-free). Timings do not
depend on the mapping.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import warnings

import numpy as np
from tabulate import tabulate

from axiometer.generators.campaign import Campaign, generate_campaign
from axiometer.metrics import TABLE_ROWS, parse
from axiometer.metrics.base import RankingBatch

#: spec -> (ranx metric, trec_eval measure for pytrec_eval, key in its output).
SHARED: dict[str, tuple[str, str, str]] = {
    "P@10": ("precision@10", "P.10", "P_10"),
    "RR": ("mrr", "recip_rank", "recip_rank"),
    "AP": ("map", "map", "map"),
    "nDCG@10": ("ndcg@10", "ndcg_cut.10", "ndcg_cut_10"),
}

#: Values must agree to this (preamble: the project's agreement tolerance).
AGREEMENT = 1e-9


def best_time(action: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs of ``action`` (garbage collection off while timing)."""
    best, result = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            result = action()
            elapsed = time.perf_counter() - start
        finally:
            gc.enable()
        best = min(best, elapsed)
    return best, result


def rate(documents: int, seconds: float) -> str:
    """Documents per second, compactly (``12.3M``)."""
    if seconds <= 0 or not np.isfinite(seconds):
        return "-"
    value = documents / seconds
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g}{unit}"
    return f"{value:.3g}"


def difference(a: np.ndarray, b: np.ndarray) -> str:
    worst = float(np.max(np.abs(a - b))) if a.size else 0.0
    flag = "" if worst <= AGREEMENT else "  DISAGREE"
    return f"{worst:.1e}{flag}"


def build_batches(campaign: Campaign) -> list[RankingBatch]:
    """One batch per topic, its rows in run order."""
    return [RankingBatch.from_rankings(campaign.rankings(qid), campaign.topics[qid])
            for qid in campaign.qids]


def scored(ranking: Sequence[str]) -> dict[str, float]:
    """Strictly decreasing scores, so every tool ranks exactly ``ranking``."""
    n = len(ranking)
    return {doc: float(n - i) for i, doc in enumerate(ranking)}


class Peers:
    """ranx and pytrec_eval fed the campaign: qrels = each document's largest grade."""

    def __init__(self, campaign: Campaign, ranx_threads: int) -> None:
        import numba
        import pytrec_eval
        import ranx

        self.campaign = campaign
        self.ranx = ranx
        self.pytrec_eval = pytrec_eval
        self.threads = ranx_threads or numba.config.NUMBA_NUM_THREADS
        numba.set_num_threads(self.threads)
        self.qrels = {qid: {doc: max(per.values()) for doc, per in table.items()}
                      for qid, table in campaign.grades.items()}
        self.run_dicts = [{qid: scored(ranking) for qid, ranking in per_topic.items()}
                          for per_topic in campaign.runs.values()]
        # Qrels and every Run list topics in campaign order, so the typed
        # lists line up query by query.
        qrels = ranx.Qrels.from_dict(self.qrels)
        runs = [ranx.Run.from_dict(run) for run in self.run_dicts]
        self.conversion_seconds, (self.qrels_typed, self.runs_typed) = best_time(
            lambda: (qrels.to_typed_list(), [run.to_typed_list() for run in runs]), 1)

    def ranx_scores(self, metric: str) -> np.ndarray:
        """``(runs, topics)`` per-query values from ranx's numba kernels.

        This is ``ranx.evaluate``'s own path (parse the name, call the kernel)
        without its bookkeeping: ``evaluate`` on typed lists with
        ``return_mean=False`` and one metric with a cutoff raises
        ``KeyError`` (ranx 0.3.21; see benchmarks/README.md).
        """
        kernel = self.ranx_kernel(metric)
        return np.array([kernel(self.qrels_typed, run) for run in self.runs_typed])

    def ranx_kernel(self, metric: str) -> Callable[[Any, Any], np.ndarray]:
        from ranx.meta.evaluate import extract_metric_and_params
        from ranx.metrics import metric_switch

        name, k, relevance_level = extract_metric_and_params(metric)
        function = metric_switch(name)
        return lambda qrels, run: function(qrels, run, k, relevance_level)

    def trec_eval_scores(self, measure: str, key: str) -> np.ndarray:
        evaluator = self.pytrec_eval.RelevanceEvaluator(self.qrels, {measure})
        qids = self.campaign.qids
        results = [evaluator.evaluate(run) for run in self.run_dicts]
        return np.array([[per_run[qid][key] for qid in qids] for per_run in results])

    def warm_up(self) -> None:
        """Compile every ranx kernel we time (numba JIT), outside the timings."""
        for ranx_metric, _, _ in SHARED.values():
            self.ranx_kernel(ranx_metric)(self.qrels_typed, self.runs_typed[0])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5, help="timings per measurement; the best is kept")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--python-rankings", type=int, default=20,
                        help="rankings scored one by one with metric.score (per-ranking column)")
    parser.add_argument("--ranx-threads", type=int, default=1,
                        help="numba threads for ranx (0 = all cores); axiometer's path is single-threaded")
    parser.add_argument("--no-peers", action="store_true", help="skip ranx and pytrec_eval")
    parser.add_argument("--quick", action="store_true",
                        help="10 topics x 10 runs x depth 200, 2 repeats: a smoke run")
    args = parser.parse_args(argv)
    # ranx's kernels cast doc-id hashes (uint64 -> int64) and numba warns on every compile.
    warnings.filterwarnings("ignore", message="unsafe cast from uint64 to int64")
    if args.quick:
        args.topics, args.runs, args.depth, args.repeat = 10, 10, 200, 2
    repeat = max(1, args.repeat)

    print(f"axiometer scoring benchmark: {args.topics} topics x {args.runs} runs x depth "
          f"{args.depth}, best of {repeat}; Python {platform.python_version()}, numpy "
          f"{np.__version__}, {os.cpu_count()} cores")
    seconds, campaign = best_time(lambda: generate_campaign(
        args.topics, args.runs, args.depth, seed=args.seed, mapping="linear"), 1)
    documents = sum(len(r) for per_topic in campaign.runs.values() for r in per_topic.values())
    print(f"campaign generation: {seconds:.2f} s ({documents:,} ranked documents)")
    build_seconds, batches = best_time(lambda: build_batches(campaign), repeat)
    print(f"axiometer batch building (RankingBatch.from_rankings, once per topic, shared by "
          f"every metric; not in the columns below): {build_seconds:.3f} s, "
          f"{rate(documents, build_seconds)} docs/s")

    peers = None
    if not args.no_peers:
        try:
            peers = Peers(campaign, args.ranx_threads)
        except ImportError as missing:
            print(f"peers skipped: {missing} (install the test extra: pip install -e '.[test]')")
        else:
            peers.warm_up()
            print(f"ranx Qrels/Run -> typed lists (not in the ranx column): "
                  f"{peers.conversion_seconds:.3f} s; ranx on {peers.threads} numba thread(s), "
                  f"JIT compilation excluded (warm-up call before timing)")

    # The per-ranking subset: topic by topic (single- and multi-aspect ones), run by run.
    subset = [(t, s) for s in range(len(campaign.runs)) for t in range(len(batches))]
    subset = subset[: max(0, args.python_rankings)]
    subset_documents = sum(int(batches[t].lengths[s]) for t, s in subset)
    rankings = [campaign.rankings(qid) for qid in campaign.qids]

    rows, notes = [], []
    total_batch_seconds = 0.0
    shared_seconds = {"axiometer": 0.0, "ranx": 0.0, "trec_eval": 0.0}
    for title, spec in TABLE_ROWS:
        try:
            metric = parse(spec)
            batch_seconds, values = best_time(lambda: [metric.score_batch(b) for b in batches], repeat)
        except NotImplementedError:
            notes.append(f"{title} ({spec}): no batched path (score_batch not implemented)")
            continue
        except (ImportError, AttributeError) as error:
            notes.append(f"{title} ({spec}): not implemented yet ({type(error).__name__}: {error})")
            continue
        total_batch_seconds += batch_seconds
        batched = np.array(values).T  # (runs, topics)
        if subset:
            python_seconds, one_by_one = best_time(lambda: [
                metric.score(rankings[t][s], batches[t].topic) for t, s in subset], 1)
            python_rate = rate(subset_documents, python_seconds)
            python_diff = difference(np.array(one_by_one),
                                     np.array([batched[s, t] for t, s in subset]))
        else:
            python_rate = python_diff = "-"
        row = [title, spec, rate(documents, batch_seconds), python_rate, python_diff]
        if peers is not None and spec in SHARED:
            ranx_metric, measure, key = SHARED[spec]
            ranx_seconds, ranx_values = best_time(lambda: peers.ranx_scores(ranx_metric), repeat)
            trec_seconds, trec_values = best_time(lambda: peers.trec_eval_scores(measure, key), repeat)
            shared_seconds["axiometer"] += batch_seconds
            shared_seconds["ranx"] += ranx_seconds
            shared_seconds["trec_eval"] += trec_seconds
            row += [rate(documents, ranx_seconds), rate(documents, trec_seconds),
                    f"{ranx_seconds / batch_seconds:.2f}",
                    difference(batched, ranx_values), difference(batched, trec_values)]
        else:
            row += ["", "", "", "", ""]
        rows.append(row)

    headers = ["metric", "spec", "batch docs/s", "per-ranking docs/s", "max|batch-score|",
               "ranx docs/s", "trec_eval docs/s", "speed vs ranx", "max|Δ| ranx",
               "max|Δ| trec_eval"]
    print()
    print(tabulate(rows, headers=headers, disable_numparse=True))
    print(f"\nper-ranking column: metric.score on {len(subset)} rankings ({subset_documents:,} "
          f"documents); speed vs ranx = ranx seconds / axiometer batch seconds "
          f"(> 1: axiometer faster; >= 0.5: within 2x)")
    print(f"all {len(rows)} metrics, batched: {total_batch_seconds:.3f} s, plus "
          f"{build_seconds:.3f} s building the batches once")
    if peers is not None and shared_seconds["ranx"]:
        print(f"end to end on the {len(SHARED)} shared metrics (preparation + scoring): axiometer "
              f"{build_seconds + shared_seconds['axiometer']:.3f} s, ranx "
              f"{peers.conversion_seconds + shared_seconds['ranx']:.3f} s (typed lists + kernels), "
              f"trec_eval {shared_seconds['trec_eval']:.3f} s")
    for note in notes:
        print("skipped:", note)
    disagreements = [row for row in rows if any("DISAGREE" in str(cell) for cell in row)]
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
