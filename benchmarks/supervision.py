"""What supervising a metric author's metric costs: the README's metric checked in supervised
workers (the default) and in process (``--in-process``), in the same run.

Run from the repository root (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/supervision.py             # 5 rounds
    .venv/bin/python benchmarks/supervision.py --rounds 9

It writes the README's ``mymodule.py`` into a temporary directory and times,
there, the command a metric author types, ``axiometer check mymodule:my_metric``
(default budget), with default jobs and with ``--jobs 1``, each with and
without ``--in-process``; the variants alternate within a round so that a
busy machine slows them alike. It prints each variant's median and the
ratio supervised / in-process, and checks that both give the same verdicts
(the supervision must change nothing but where the metric runs). No
assertion is made on time: the figures are the point.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MODULE = '''\
def my_metric(ranking, topic):
    """Reciprocal-rank discounted gain: the sum of r(d_i) / i."""
    return sum(topic.r(d) / i for i, d in enumerate(ranking, start=1))
'''

VARIANTS = {
    "default jobs, supervised": [],
    "default jobs, --in-process": ["--in-process"],
    "--jobs 1, supervised": ["--jobs", "1"],
    "--jobs 1, --in-process": ["--jobs", "1", "--in-process"],
}


def _timed(directory: str, extra: list[str]) -> tuple[float, dict[str, str]]:
    command = [sys.executable, "-m", "axiometer", "check", "mymodule:my_metric", "--format", "json", *extra]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=directory, capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    verdicts = {cell["constraint"]: cell["verdict"] for cell in json.loads(done.stdout)["cells"]}
    return seconds, verdicts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, {args.rounds} rounds")
    times: dict[str, list[float]] = {name: [] for name in VARIANTS}
    verdicts: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as directory:
        Path(directory, "mymodule.py").write_text(MODULE)
        for _ in range(args.rounds):
            for name, extra in VARIANTS.items():
                seconds, verdicts[name] = _timed(directory, extra)
                times[name].append(seconds)
    medians = {name: statistics.median(values) for name, values in times.items()}
    for name, median in medians.items():
        spread = f"{min(times[name]):.2f}–{max(times[name]):.2f}"
        print(f"  {name:<28} median {median:5.2f} s  (range {spread} s)")
    for jobs in ("default jobs", "--jobs 1"):
        ratio = medians[f"{jobs}, supervised"] / medians[f"{jobs}, --in-process"]
        print(f"{jobs}: supervised / in-process = {ratio:.2f}")
    same = len({json.dumps(v, sort_keys=True) for v in verdicts.values()}) == 1
    print("verdicts identical in every variant:", same)
    if not same:
        sys.exit("the supervised and in-process runs disagree: " + json.dumps(verdicts))


if __name__ == "__main__":
    main()
