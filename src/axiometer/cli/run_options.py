"""The run options of ``table`` and ``check`` (``plot`` shares the run): what to check, how
hard, where to write (:func:`add_run_options`), and running the table with them (:func:`run_checks`).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import sys
from collections.abc import Callable
from typing import Any

from axiometer.core import cut
from axiometer.progress import Progress

__all__ = ["add_run_options", "run_checks", "jobs_count", "capped_jobs", "JOBS_PER_CORE", "unlocatable_notes"]

#: ``--jobs`` is capped at this many worker processes per core, with a note. The checks are
#: CPU-bound: processes beyond the cores only wait their turn, while each holds its own copy of
#: numpy and the metrics (~100 MB). Four per core still covers supervised workers that sit out a
#: slow metric's alarm. ``--jobs 100000`` used to start processes until it was stopped.
JOBS_PER_CORE = 4


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by ``table`` and ``check``: what to check, how hard, and where to write."""
    parser.add_argument("--constraints", metavar="ID", nargs="+", default=None,
                        help="constraint or property ids such as Pri DeepTh PriorMono (default: "
                             "the ten constraints, with the relative properties first for a "
                             "relative metric)")
    parser.add_argument("--quick", action="store_true",
                        help="a small budget and small grids (the default setting plus each "
                             "parameter's extremes)")
    parser.add_argument("--no-proofs", action="store_true",
                        help="keep the search's verdicts: do not prove satisfied constraints for "
                             "every real relevance value (proofs are on by default; docs/proofs.md)")
    parser.add_argument("--prove-every-setting", action="store_true",
                        help="decide case structures at every grid setting, not only each metric's "
                             "default setting (slower: seconds per setting and constraint)")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="the seed every check's random search derives from (default: 0)")
    parser.add_argument("--mode", choices=("window", "truncate"), default=None,
                        help="cutoff mode for every constraint (default: window for the universal "
                             "constraints, truncate for DeepTh/CloseTh)")
    parser.add_argument("--jobs", type=jobs_count, default=None, metavar="N",
                        help=f"worker processes (default: all cores; 1: one at a time; at most "
                             f"{JOBS_PER_CORE} per core)")
    parser.add_argument("--executor", metavar="URL", default=None,
                        help="run the checks on a Dask cluster instead of local processes: "
                             "dask://HOST:PORT, the scheduler's address (pip install 'axiometer[dask]'; "
                             "same result as the local run; docs/distributed.md)")
    parser.add_argument("--case-seconds", type=positive(float), default=None, metavar="S",
                        help="time limit of one evaluation of a metric that is not a built-in "
                             "(default: 2)")
    parser.add_argument("--worker-mb", type=positive(int), default=None, metavar="MB",
                        help="memory a supervised worker checking such a metric may add (default: 1024)")
    parser.add_argument("--in-process", action="store_true",
                        help="check a metric that is not a built-in in this process instead of "
                             "supervised workers (to debug it; then sys.exit, os._exit, crashes and "
                             "hangs past the alarm are not contained)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the full report to FILE (every counterexample, witness and "
                             "explanation, in any format)")
    parser.add_argument("--details", action="store_true",
                        help="text and markdown: after the matrix and its legend, print every "
                             "counterexample, witness and explanation (always in a file written "
                             "with -o)")
    parser.add_argument("--boundaries", action="store_true",
                        help="locate, for every parameter-dependent cell, the exact parameter "
                             "values where its verdict changes (over each numeric parameter's "
                             "declared range; bisection to 1e-6 and a closed form where sympy finds "
                             "one); slower: seconds to minutes per metric")


def run_checks(args: argparse.Namespace, metrics: list[Any] | None) -> Any:
    """Run the table with a progress bar on stderr (shown after a few seconds on a terminal)."""
    # Imported here: the runner loads the metrics, numpy, sympy and hypothesis.
    from axiometer.runner import run_table

    from axiometer.checking import run_budget

    args.jobs = capped_jobs(args.jobs)
    if getattr(args, "boundaries", False):
        for note in unlocatable_notes(metrics or []):
            print(note, file=sys.stderr)
    budget = run_budget(args.quick)
    # `plot region|boundaries` share this run without the limit options: the defaults.
    if getattr(args, "case_seconds", None) is not None:
        budget = dataclasses.replace(budget, case_seconds=args.case_seconds)
    if getattr(args, "worker_mb", None) is not None:
        budget = dataclasses.replace(budget, worker_mb=args.worker_mb)
    if getattr(args, "no_proofs", False):
        budget = dataclasses.replace(budget, proof_docs=0)
    elif getattr(args, "prove_every_setting", False):
        budget = dataclasses.replace(budget, proof_every_setting=True)
    if not getattr(args, "no_proofs", False) and (getattr(args, "details", False)
                                                   or getattr(args, "format", None) == "json"):
        budget = dataclasses.replace(budget, proof_formulas=True)  # shown, or carried for another solver
    url = getattr(args, "executor", None)
    with contextlib.ExitStack() as stack:
        executor = None
        if url is not None:
            from axiometer.runner.executors import open_executor

            executor = stack.enter_context(open_executor(url))
        progress = Progress(sys.stderr)
        try:
            return run_table(metrics, args.constraints, row_set=getattr(args, "row_set", "sigir2018"),
                             seed=args.seed, budget=budget, quick=args.quick, mode=args.mode,
                             jobs=args.jobs, progress=progress.update,
                             boundaries=getattr(args, "boundaries", False),
                             isolate=not getattr(args, "in_process", False), executor=executor)
        finally:
            progress.close()


def unlocatable_notes(metrics: list[Any]) -> list[str]:
    """For ``--boundaries``: one note per metric author's metric with no parameter range to locate
    boundaries over, saying how to give one (issue 27: the option used to do nothing, silently).

    A built-in declares its parameters' ranges; a function's keyword parameters have none until
    ``--param NAME=LOW..HIGH`` gives one for a run or ``@axiometer.parameters`` declares it once.
    """
    from axiometer.checking.boundary import declared_range
    from axiometer.metrics.base import BuiltinMetric, FunctionMetric
    from axiometer.metrics.resolve import Resolved

    notes = []
    for resolved in metrics:
        if (not isinstance(resolved, Resolved) or resolved.scores == "set"
                or isinstance(resolved.metric, BuiltinMetric) or resolved.ranges):
            continue
        metric = resolved.ranking_metric()
        if any(declared_range(metric, p.name) for p in metric.param_info if p.name not in resolved.fixed):
            continue
        keywords = _numeric_keywords(metric.function) if isinstance(metric, FunctionMetric) else []
        if isinstance(metric, FunctionMetric) and not keywords:
            notes.append(f"note: --boundaries: {resolved.name} has no numeric keyword parameter, so its "
                         "verdicts cannot change along one: there is no boundary to locate")
            continue
        name = keywords[0] if keywords else "NAME"
        declare = (f", or declare it once in your module with @axiometer.parameters({name}=(LOW, HIGH))"
                   if isinstance(metric, FunctionMetric) else ", or declare it in the object's param_info")
        notes.append(f"note: --boundaries: {resolved.name} declares no range for "
                     f"{', '.join(keywords) or 'its parameters'}, so no boundary is located. Give one "
                     f"for this run with --param {name}=LOW..HIGH{declare} (docs/boundaries.md)")
    return notes


def _numeric_keywords(function: Callable[..., Any]) -> list[str]:
    """A function's keyword parameters whose default is a number (those a boundary can lie along)."""
    import inspect

    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in parameters if isinstance(p.default, (int, float)) and not isinstance(p.default, bool)]


def positive(number: type) -> Callable[[str], Any]:
    """An argparse type: a ``number`` (int or float) greater than 0."""
    def read(text: str) -> Any:
        try:
            value = number(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {cut(text, 40)!r}") from None
        if not value > 0 or value != value or value == float("inf"):
            raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {cut(text, 40)!r}")
        return value
    read.__name__ = number.__name__
    return read


def jobs_count(text: str) -> int:
    """An argparse type for ``--jobs``: a whole number of at least 1 (``0``, ``-2``, ``1.5`` and
    ``many`` are usage errors naming the value)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number of worker processes: {cut(text, 40)!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 worker process, got {cut(text, 40)!r}")
    return value


def capped_jobs(jobs: int | None) -> int | None:
    """``--jobs`` held to :data:`JOBS_PER_CORE` times the cores, with a note on stderr when it is
    above that (``None``, the default of all cores, stays ``None``)."""
    cores = os.cpu_count() or 1
    most = JOBS_PER_CORE * cores
    if jobs is None or jobs <= most:
        return jobs
    print(f"axiometer: note: --jobs {jobs} is more than {JOBS_PER_CORE} worker processes per core "
          f"({cores} cores here); using {most}", file=sys.stderr)
    return most
