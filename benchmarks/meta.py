"""How long ``axiometer meta`` takes on a TREC-sized campaign, end to end and phase by phase.

Run from the repository root (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/meta.py            # 100 runs x 50 topics x depth 1000 (~1 min)
    .venv/bin/python benchmarks/meta.py --quick    # 20 runs x 10 topics x depth 200: a smoke run

The campaign is the one ``benchmarks/compare.py`` times the randomization
tests on: :func:`axiometer.generators.campaign.generate_campaign` (seeded;
TREC 2014 Web diversity shaped: 1-7 aspects a topic, grades 0-4) written as
TREC files (diversity qrels and one run file per system) in a temporary
directory. Two measurements:

1. **end to end**: the command a user types, ``axiometer meta QRELS --runs
   DIR`` with four metrics (default ``nDCG@10 P@10 AP ERR_IA@20``), in a
   subprocess, wall-clock: interpreter start, reading the files, scoring,
   MU, discriminative power (all pairs, Fisher's randomization test with
   10,000 permutations), stability (R = 1000 samples of half the topics),
   Kendall's tau-b and tau-AP, and writing the report. Best of ``--repeat``.
2. **phases**, in this process: reading the qrels and runs, then
   :func:`axiometer.meta.meta_evaluate` with its own per-phase clock
   (``MetaResult.seconds``), once.

The aim (issue 12) is the whole ``meta`` under 60 s on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import scipy

from axiometer.generators.campaign import generate_campaign, write_trec
from axiometer.meta import meta_evaluate
from axiometer.readers import read_qrels, read_run

#: The four metrics timed by default: three ad hoc ones trec_eval computes and one intent-aware one.
METRICS = ("nDCG@10", "P@10", "AP", "ERR_IA@20")
#: What the end-to-end time must stay under (issue 12).
AIM_SECONDS = 60.0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--metrics", nargs="+", default=list(METRICS), metavar="SPEC")
    parser.add_argument("--permutations", type=int, default=10_000)
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=1, help="end-to-end runs; the best is kept")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="10 topics x 20 runs x depth 200")
    args = parser.parse_args(argv)
    if args.quick:
        args.topics, args.runs, args.depth = 10, 20, 200

    pairs = args.runs * (args.runs - 1) // 2
    print(f"axiometer meta benchmark: {args.runs} runs x {args.topics} topics x depth {args.depth} "
          f"({pairs:,} run pairs), {len(args.metrics)} metrics ({' '.join(args.metrics)}), "
          f"{args.permutations:,} permutations, {args.trials:,} stability trials; Python "
          f"{platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"{os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as directory:
        clock = time.perf_counter()
        campaign = generate_campaign(args.topics, args.runs, args.depth, seed=args.seed)
        files = write_trec(campaign, directory)
        print(f"campaign generated and written as TREC files: {time.perf_counter() - clock:.1f} s "
              f"(not timed below)")
        command = [str(Path(sys.executable).parent / "axiometer"), "meta", str(files.diversity_qrels),
                   "--runs", str(Path(directory) / "runs"), "--permutations", str(args.permutations),
                   "--trials", str(args.trials), "--seed", str(args.seed), "--format", "json",
                   "-o", str(Path(directory) / "report.json")]
        for spec in args.metrics:
            command += ["--metric", spec]
        times = []
        for _ in range(max(1, args.repeat)):
            clock = time.perf_counter()
            subprocess.run(command, check=True)
            times.append(time.perf_counter() - clock)
        whole = min(times)
        verdict = "under" if whole < AIM_SECONDS else "OVER"
        print(f"\nend to end (axiometer meta in a subprocess, best of {len(times)}): {whole:.1f} s, "
              f"{verdict} the {AIM_SECONDS:.0f} s aim")

        clock = time.perf_counter()
        qrels = read_qrels(files.diversity_qrels)
        runs = [read_run(path) for path in files.runs.values()]
        reading = time.perf_counter() - clock
        clock = time.perf_counter()
        result = meta_evaluate(qrels, runs, args.metrics, permutations=args.permutations,
                               trials=args.trials, seed=args.seed)
        evaluating = time.perf_counter() - clock
    print("\nphases (in this process):")
    rows = [("read qrels and runs", reading), *result.seconds.items()]
    width = max(len(name) for name, _ in rows)
    for name, seconds in rows:
        print(f"  {name:<{width}}  {seconds:6.2f} s")
    print(f"  {'total':<{width}}  {reading + evaluating:6.2f} s")
    print("\nper metric: pairs significant at 0.05 / 0.01, stability")
    for m in result.per_metric:
        print(f"  {m.metric:<12} {m.power.count(0.05):>5} / {m.power.count(0.01):>5} of {m.power.pairs}, "
              f"{m.stability.value:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
