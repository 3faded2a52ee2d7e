"""Campaign scoring of NRG: the vectorised ``score_systems`` against the per-ranking loop.

Run from the repository root (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/relative.py            # 50 topics x 100 runs x depth 1000
    .venv/bin/python benchmarks/relative.py --quick    # a smoke run in seconds

On a synthetic campaign (:func:`axiometer.generators.campaign.generate_campaign`)
every run is scored with every other run as its prior set (the NRG paper's
Fig. 1b). For each NRG-family spec of ``axiometer.metrics.RELATIVE_ROWS`` it
times:

- ``vectorised``: ``metric.score_systems(topic, rankings, priors)``, one call
  per topic (what campaign scoring calls);
- ``loop``: ``metric.score(ranking, topic, Context(others))`` one ranking at a
  time (what ``RelativeMetric.score_systems`` does by default), on a subset of
  ``--loop-rankings`` rankings, extrapolated to the whole campaign, and the
  largest difference from the vectorised values on that subset;

and, as the baseline of an absolute metric, plain ``nDCG@10`` batched
(``RankingBatch.from_rankings`` + ``score_batch``, building included).
Throughput is ranked documents in the input (``topics x runs x depth``) per
second; the best of ``--repeat`` timings is kept.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from collections.abc import Sequence

import numpy as np
from tabulate import tabulate

from axiometer.core import Context
from axiometer.generators.campaign import generate_campaign
from axiometer.metrics import RELATIVE_ROWS, parse
from axiometer.metrics.base import RankingBatch
from scoring import best_time, difference, rate  # the sibling benchmark (this directory is on sys.path)

#: The specs timed here: the NRG family's rows of the relative matrix.
NRG_FAMILIES = ("NRG", "Unique")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3, help="timings per measurement; the best is kept")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--loop-rankings", type=int, default=200,
                        help="rankings scored one by one with metric.score (the loop column)")
    parser.add_argument("--quick", action="store_true", help="10 topics x 20 runs x depth 200, 1 repeat")
    args = parser.parse_args(argv)
    if args.quick:
        args.topics, args.runs, args.depth, args.repeat, args.loop_rankings = 10, 20, 200, 1, 40
    repeat = max(1, args.repeat)

    print(f"axiometer relative benchmark: {args.topics} topics x {args.runs} runs x depth "
          f"{args.depth}, prior set = all other runs, best of {repeat}; Python "
          f"{platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} cores")
    seconds, campaign = best_time(lambda: generate_campaign(
        args.topics, args.runs, args.depth, seed=args.seed), 1)
    documents = sum(len(r) for per_topic in campaign.runs.values() for r in per_topic.values())
    rankings = {qid: campaign.rankings(qid) for qid in campaign.qids}
    n_runs = len(campaign.runs)
    priors = [[j for j in range(n_runs) if j != i] for i in range(n_runs)]
    print(f"campaign generation: {seconds:.2f} s ({documents:,} ranked documents)")

    def vectorised(metric):
        return [metric.score_systems(campaign.topics[qid], rankings[qid], priors) for qid in campaign.qids]

    # Loop subset: run 1 of every topic, then run 2, ...
    subset = [(qid, s) for s in range(n_runs) for qid in campaign.qids][: max(0, args.loop_rankings)]

    def loop(metric):
        return [metric.score(rankings[qid][s], campaign.topics[qid],
                             Context(tuple(rankings[qid][j] for j in priors[s])))
                for qid, s in subset]

    rows, total = [], 0.0
    for title, spec in RELATIVE_ROWS:
        if not spec.startswith(NRG_FAMILIES):
            continue
        metric = parse(spec)
        fast_seconds, fast = best_time(lambda: vectorised(metric), repeat)  # noqa: B023 (called at once)
        total += fast_seconds
        row = [title, spec, f"{fast_seconds:.3f}", rate(documents, fast_seconds)]
        if subset:
            loop_seconds, slow = best_time(lambda: loop(metric), 1)  # noqa: B023
            extrapolated = loop_seconds * len(campaign.qids) * n_runs / len(subset)
            qindex = {qid: i for i, qid in enumerate(campaign.qids)}
            diff = difference(np.array(slow), np.array([fast[qindex[q]][s] for q, s in subset]))
            row += [f"{extrapolated:.2f}", rate(documents, extrapolated),
                    f"{extrapolated / fast_seconds:.0f}x", diff]
        else:
            row += ["-", "-", "-", "-"]
        rows.append(row)

    ndcg = parse("nDCG@10")
    plain_seconds, _ = best_time(lambda: [
        ndcg.score_batch(RankingBatch.from_rankings(rankings[qid], campaign.topics[qid]))
        for qid in campaign.qids], repeat)
    rows.append(["nDCG@k (absolute)", "nDCG@10", f"{plain_seconds:.3f}", rate(documents, plain_seconds),
                 "", "", "", ""])

    headers = ["metric", "spec", "vectorised s", "vectorised docs/s", "loop s (extrap.)",
               "loop docs/s", "speed-up", "max|Δ| loop"]
    print()
    print(tabulate(rows, headers=headers, disable_numparse=True))
    print(f"\nloop: metric.score on {len(subset)} rankings, each with its {n_runs - 1} prior rankings, "
          f"extrapolated linearly to all {len(campaign.qids) * n_runs} (run, topic) pairs")
    print("nDCG@10 row: batch building + score_batch, the absolute baseline")
    print(f"all {len(rows) - 1} NRG-family specs, vectorised: {total:.3f} s")
    disagreements = [row for row in rows if "DISAGREE" in row[-1]]
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
