"""Scoring throughput: axiometer's batched numpy path against ranx and trec_eval.

Run from the repository root (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/scoring.py                 # 50 topics x 50 runs x depth 1000
    .venv/bin/python benchmarks/scoring.py --quick         # a smoke run in seconds
    .venv/bin/python benchmarks/scoring.py --end-to-end    # 100 run files: CLI vs trec_eval, ir_measures

``--end-to-end`` times what a user runs, files to means, instead of the kernels: it writes the
campaign (default 50 topics x 100 runs x depth 1000, 5 M run lines) as TREC files in a temporary
directory (:func:`axiometer.generators.campaign.write_trec`, seed ``--seed``: qrels with each
document's largest grade, one run file per system), then, in the same run, ``--repeat`` times
each (the best kept, peak RSS of that attempt):

- ``axiometer``: ``python -m axiometer score --qrels Q --runs DIR --metric nDCG@10 --metric AP``, a
  subprocess (interpreter start and imports included); wall time and peak RSS (GNU time's ``%M``
  when installed, else ``os.wait4`` through a small forking launcher);
  ``--compare-with SRC`` adds the same command run on another checkout's ``src`` (a worktree at
  an older commit: before and after in one sitting);
- ``trec_eval``: built from its public source (``git clone`` of ``--trec-eval-source``, then
  ``make``; the binary is cached under ``~/.cache/axiometer-bench``), one process per run file
  as a user runs it (``trec_eval -m ndcg_cut.10 -m map qrels run``), wall times summed, peak =
  the largest process; if it cannot be cloned or built, ``pytrec_eval`` scores the files in one
  process instead, and the output says so;
- ``ir_measures``: ``ir_measures.iter_calc`` over each run file (read by ``read_trec_run``), in
  one process that reads the qrels once.

The means of every run are compared with axiometer's (``--format json``, full precision; an
untimed second run): the table prints the largest difference per measure. trec_eval prints 4
decimals, so it agrees within 5e-5; the others within 1e-9.

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
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import warnings

import numpy as np
from tabulate import tabulate

from axiometer.generators.campaign import Campaign, generate_campaign, write_trec
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


# -- end to end: files to means, axiometer's CLI beside trec_eval and ir_measures -----------------

#: The measures of the end-to-end campaign: axiometer spec -> (trec_eval measure, its output name,
#: ir_measures name).
END_TO_END = {"nDCG@10": ("ndcg_cut.10", "ndcg_cut_10", "nDCG@10"), "AP": ("map", "map", "AP")}

TREC_EVAL_SOURCE = "https://github.com/usnistgov/trec_eval"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "axiometer-bench"

#: trec_eval prints 4 decimals: its means agree within half a unit of the last one.
TREC_EVAL_AGREEMENT = 5e-5 + 1e-12


@dataclass
class Timing:
    """One tool's end-to-end figures: wall seconds, peak RSS in MB, per-run means by measure."""

    tool: str
    seconds: float
    peak_mb: float
    means: dict[str, dict[str, float]]


def _gnu_time() -> str | None:
    """GNU time's path, if installed: it measures a command's own peak RSS."""
    path = shutil.which("time") or ("/usr/bin/time" if Path("/usr/bin/time").exists() else None)
    if path is None:
        return None
    try:
        probe = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return path if "GNU" in probe.stdout + probe.stderr else None


GNU_TIME = _gnu_time()

#: How peak RSS is measured (printed under the table).
PEAK_NOTE = ("peak MB: the process's own maximum resident set size, measured by GNU time (%M)"
             if GNU_TIME else
             "peak MB: os.wait4's ru_maxrss of a child forked by a small launcher (GNU time not "
             "found); Linux counts the launcher's ~10 MB into it, so small tools read high")

#: Forks the command and reports its rusage: a child of this (large) benchmark process would
#: inherit the benchmark's resident size as its high-water mark (Linux keeps it across exec).
LAUNCHER = ("import os, sys\n"
            "pid = os.fork()\n"
            "if pid == 0:\n"
            "    os.execvp(sys.argv[1], sys.argv[1:])\n"
            "_, status, usage = os.wait4(pid, 0)\n"
            "sys.stderr.write('\\nAXIOMETER-BENCH-MAXRSS %d\\n' % usage.ru_maxrss)\n"
            "sys.exit(os.waitstatus_to_exitcode(status))\n")


def run_child(command: Sequence[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Run ``command``; its wall seconds, its own peak RSS in MB and its standard output."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "rss"
        if GNU_TIME:
            wrapped = [GNU_TIME, "-f", "%M", "-o", str(report), *command]
        else:
            wrapped = [sys.executable, "-S", "-c", LAUNCHER, *command]
        start = time.perf_counter()
        done = subprocess.run(wrapped, capture_output=True, env=env)
        seconds = time.perf_counter() - start
        if done.returncode:
            raise RuntimeError(f"{command[0]} exited with {done.returncode}: "
                               f"{done.stderr.decode(errors='replace')[-500:]}")
        if GNU_TIME:
            kilobytes = float(report.read_text().split()[-1])
        else:
            kilobytes = float(done.stderr.decode().rsplit("AXIOMETER-BENCH-MAXRSS", 1)[1].split()[0])
        return seconds, kilobytes / 1024, done.stdout.decode()


def trec_eval_binary(source: str) -> tuple[Path | None, str]:
    """The cached trec_eval binary, built from ``source`` (a git URL or a local clone) if needed;
    ``None`` and why when it cannot be."""
    binary, origin = CACHE / "trec_eval", CACHE / "trec_eval.source"
    if binary.exists():
        built_from = origin.read_text().strip() if origin.exists() else "an unrecorded source"
        return binary, f"trec_eval: the cached build {binary}, from {built_from} (delete it to rebuild)"
    checkout = CACHE / "trec_eval-src"
    try:
        CACHE.mkdir(parents=True, exist_ok=True)
        if checkout.exists():
            shutil.rmtree(checkout)
        subprocess.run(["git", "clone", "--quiet", "--depth", "1", source, str(checkout)], check=True,
                       capture_output=True, timeout=300)
        subprocess.run(["make", "-C", str(checkout)], check=True, capture_output=True, timeout=600)
        shutil.copy2(checkout / "trec_eval", binary)
        commit = subprocess.run(["git", "-C", str(checkout), "log", "-1", "--format=%h %cs"],
                                capture_output=True, text=True).stdout.strip()
        origin.write_text(f"{source} at {commit}\n")
    except (OSError, subprocess.SubprocessError) as error:
        detail = getattr(error, "stderr", b"") or b""
        reason = detail.decode(errors="replace").strip().splitlines()[-1:] or [str(error)]
        return None, f"could not build trec_eval from {source}: {reason[0]}"
    return binary, f"trec_eval built from {source} (now cached: {binary})"


def axiometer_timing(label: str, src: str | None, qrels: Path, runs: Path) -> Timing:
    """The CLI as a user types it (timed), then its means as JSON (untimed, full precision)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    command = [sys.executable, "-m", "axiometer", "score", "--qrels", str(qrels), "--runs", str(runs)]
    for spec in END_TO_END:
        command += ["--metric", spec]
    seconds, peak, _ = run_child(command, env)
    _, _, out = run_child(command + ["--format", "json"], env)
    means: dict[str, dict[str, float]] = {spec: {} for spec in END_TO_END}
    for record in json.loads(out):
        means[record["metric"]][record["run"]] = record["value"]
    return Timing(label, seconds, peak, means)


def trec_eval_timing(binary: Path, qrels: Path, files: list[Path]) -> Timing:
    """One trec_eval process per run file, wall times summed, the largest peak."""
    seconds, peak = 0.0, 0.0
    means: dict[str, dict[str, float]] = {spec: {} for spec in END_TO_END}
    names = {name: spec for spec, (_, name, _) in END_TO_END.items()}
    for path in files:
        command = [str(binary)]
        for measure, _, _ in END_TO_END.values():
            command += ["-m", measure]
        took, rss, out = run_child(command + [str(qrels), str(path)])
        seconds, peak = seconds + took, max(peak, rss)
        for line in out.splitlines():
            name, _, value = line.split()
            if name in names:
                means[names[name]][path.stem] = float(value)
    return Timing("trec_eval (C), 1 process per file", seconds, peak, means)


#: The child scripts of the Python peers: read the qrels once, then every run file; print means.
IR_MEASURES_SCRIPT = """
import json, sys, ir_measures
qrels = list(ir_measures.read_trec_qrels(sys.argv[1]))
topics = {q.query_id for q in qrels}
measures = {name: ir_measures.parse_measure(name) for name in sys.argv[2].split()}
means = {name: {} for name in measures}
for path in sys.argv[3:]:
    sums = {name: 0.0 for name in measures}
    for m in ir_measures.iter_calc(list(measures.values()), qrels, ir_measures.read_trec_run(path)):
        sums[str(m.measure)] += m.value
    for name in measures:
        means[name][path.rsplit('/', 1)[-1].rsplit('.', 1)[0]] = sums[name] / len(topics)
print(json.dumps(means))
"""

PYTREC_EVAL_SCRIPT = """
import json, sys, pytrec_eval
with open(sys.argv[1]) as f:
    qrels = pytrec_eval.parse_qrel(f)
names = sys.argv[2].split()
evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(names))
means = {}
for path in sys.argv[3:]:
    with open(path) as f:
        per_topic = evaluator.evaluate(pytrec_eval.parse_run(f))
    tag = path.rsplit('/', 1)[-1].rsplit('.', 1)[0]
    for name in names:
        key = name.replace('.', '_')
        means.setdefault(key, {})[tag] = sum(v[key] for v in per_topic.values()) / len(qrels)
print(json.dumps(means))
"""


def python_peer_timing(tool: str, script: str, names: str, qrels: Path, files: list[Path],
                       key: dict[str, str]) -> Timing:
    """A Python peer in one child process: wall time, peak RSS and the means it printed."""
    seconds, peak, out = run_child([sys.executable, "-c", script, str(qrels), names,
                                    *map(str, files)])
    printed = json.loads(out)
    return Timing(tool, seconds, peak, {spec: printed[name] for spec, name in key.items()})


def agreement(timing: Timing, reference: Timing, tolerance: float) -> str:
    """The largest difference from axiometer's means, per measure; ``DISAGREE`` beyond ``tolerance``."""
    parts, worst = [], 0.0
    for spec, values in reference.means.items():
        theirs = timing.means.get(spec, {})
        if set(theirs) != set(values):
            return f"runs differ ({len(theirs)} vs {len(values)})  DISAGREE"
        gap = max((abs(theirs[run] - value) for run, value in values.items()), default=0.0)
        worst = max(worst, gap)
        parts.append(f"{spec} {gap:.1e}")
    verdict = "yes" if worst <= tolerance else "DISAGREE"
    return f"{verdict} ({', '.join(parts)})"


def end_to_end(args: argparse.Namespace) -> int:
    """The ``--end-to-end`` table; exit status 1 if any tool's means disagree with axiometer's."""
    runs = args.runs or 100
    print(f"axiometer end-to-end scoring benchmark: {args.topics} topics x {runs} runs x depth "
          f"{args.depth} (seed {args.seed}), measures {', '.join(END_TO_END)}, best of {args.repeat}; "
          f"Python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} cores")
    binary, how = trec_eval_binary(args.trec_eval_source)
    with tempfile.TemporaryDirectory(prefix="axiometer-e2e-") as folder:
        start = time.perf_counter()
        files = write_trec(generate_campaign(args.topics, runs, args.depth, seed=args.seed,
                                             mapping="linear"), folder)
        run_files = sorted(files.runs.values())
        size = sum(p.stat().st_size for p in run_files)
        lines = sum(1 for p in run_files for _ in p.open("rb"))
        print(f"campaign written in {time.perf_counter() - start:.1f} s: {len(run_files)} run files, "
              f"{lines:,} lines, {size / 1e6:.0f} MB; qrels {files.qrels.stat().st_size / 1e6:.1f} MB")
        print(how)
        runs_dir = files.qrels.parent / "runs"
        contenders: list[tuple[Callable[[], Timing], float]] = [
            (lambda: axiometer_timing("axiometer score (this checkout)", None, files.qrels, runs_dir),
             AGREEMENT)]
        for src in args.compare_with:
            contenders.append((lambda src=src: axiometer_timing(f"axiometer score ({src})", src,
                                                                files.qrels, runs_dir), AGREEMENT))
        if binary is not None:
            contenders.append((lambda: trec_eval_timing(binary, files.qrels, run_files),
                               TREC_EVAL_AGREEMENT))
        else:
            print("trec_eval fallback: pytrec_eval (trec_eval's code as a Python extension), all files "
                  "in one process, not one process per file")
            measures = " ".join(m for m, _, _ in END_TO_END.values())
            contenders.append((lambda: python_peer_timing(
                "pytrec_eval (fallback), 1 process", PYTREC_EVAL_SCRIPT, measures, files.qrels,
                run_files, {spec: name for spec, (_, name, _) in END_TO_END.items()}), AGREEMENT))
        contenders.append((lambda: python_peer_timing(
            "ir_measures iter_calc, 1 process", IR_MEASURES_SCRIPT,
            " ".join(n for _, _, n in END_TO_END.values()), files.qrels, run_files,
            {spec: name for spec, (_, _, name) in END_TO_END.items()}), AGREEMENT))
        best: list[Timing | None] = [None] * len(contenders)
        for _ in range(max(1, args.repeat)):  # interleaved, so that load changes hit every tool alike
            for i, (measure, _) in enumerate(contenders):
                timing = measure()
                if best[i] is None or timing.seconds < best[i].seconds:
                    best[i] = timing
    reference = best[0]
    rows = [[t.tool, f"{t.seconds:.2f}", f"{t.peak_mb:.0f}", agreement(t, reference, tolerance)]
            for t, (_, tolerance) in zip(best, contenders)]
    print()
    print(tabulate(rows, headers=["tool", "wall s", "peak MB", "values agree (max |Δ| of the means)"],
                   disable_numparse=True))
    print(f"\naxiometer: interpreter start, imports, reading and scoring included; trec_eval: the sum "
          f"of {len(run_files)} processes' wall times, peak = the largest process; {PEAK_NOTE}")
    return 1 if any("DISAGREE" in row[-1] for row in rows) else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--runs", type=int, default=None, help="runs (default 50; 100 with --end-to-end)")
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=None,
                        help="timings per measurement; the best is kept (default 5; 3 with --end-to-end)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--python-rankings", type=int, default=20,
                        help="rankings scored one by one with metric.score (per-ranking column)")
    parser.add_argument("--ranx-threads", type=int, default=1,
                        help="numba threads for ranx (0 = all cores); axiometer's path is single-threaded")
    parser.add_argument("--no-peers", action="store_true", help="skip ranx and pytrec_eval")
    parser.add_argument("--quick", action="store_true",
                        help="10 topics x 10 runs x depth 200, 2 repeats: a smoke run")
    e2e = parser.add_argument_group("end to end (files to means, see the module docstring)")
    e2e.add_argument("--end-to-end", action="store_true",
                     help="time `axiometer score` on run files beside trec_eval and ir_measures")
    e2e.add_argument("--trec-eval-source", default=TREC_EVAL_SOURCE, metavar="URL_OR_DIR",
                     help=f"where to clone trec_eval from (default {TREC_EVAL_SOURCE})")
    e2e.add_argument("--compare-with", action="append", default=[], metavar="SRC",
                     help="also time the CLI of another checkout's src directory (repeatable)")
    args = parser.parse_args(argv)
    # ranx's kernels cast doc-id hashes (uint64 -> int64) and numba warns on every compile.
    warnings.filterwarnings("ignore", message="unsafe cast from uint64 to int64")
    if args.quick:
        args.topics, args.runs, args.depth, args.repeat = 10, 10, 200, 2
    if args.repeat is None:
        args.repeat = 3 if args.end_to_end else 5
    if args.end_to_end:
        return end_to_end(args)
    args.runs = args.runs or 50
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
