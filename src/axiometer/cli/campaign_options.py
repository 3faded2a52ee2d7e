"""The campaign input of ``score``, ``compare``, ``unanimity`` and ``meta``: qrels, runs, grades,
metrics, priors, and the positional form ``QRELS RUN [RUN ...] ['MEASURES' ...]``
(:func:`add_campaign_options`); reading them (:func:`campaign_inputs`), scoring them
(:func:`campaign_scores`), and ``--prior`` (:func:`prior_argument`).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import os
import stat
import sys
import warnings
from collections.abc import Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from axiometer.core import AxiometerError, InputError, cut
from axiometer.grades import DEFAULT_MAPPING, GRADE_MAPPINGS
from axiometer.progress import Progress
from axiometer.readers import QRELS_FORMATS, read_qrels, read_run

__all__ = ["EXAMPLE_PACKAGE", "EXAMPLE_FOLDER", "EXAMPLE_QRELS", "split_measures", "add_campaign_options",
           "example_files", "example_note", "prior_argument", "Campaign", "campaign_inputs", "campaign_scores"]

#: The bundled example (``axiometer score --example``): a package resource folder.
EXAMPLE_PACKAGE = "axiometer"
EXAMPLE_FOLDER = "data/example"
EXAMPLE_QRELS = "qrels.evall.tsv"


def split_measures(text: str) -> list[str]:
    """The metric specs of a measures string, ir_measures' ``'nDCG@10 P@5 AP'``: split on
    whitespace outside parentheses, so ``'RBU(p=0.8, e=0.05)@10 NRG(base=nDCG@10)'`` gives two."""
    specs: list[str] = []
    spec, depth = "", 0
    for char in text:
        if char.isspace() and depth == 0:
            if spec:
                specs.append(spec)
            spec = ""
            continue
        spec += char
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
    if spec:  # the last, or an unbalanced '(' to the end: the spec parser will say what is wrong
        specs.append(spec)
    return specs


class _Measures(argparse.Action):
    """``--metric SPEC``: every spec of a measures string (:func:`split_measures`), appended."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        # Nothing but spaces: kept whole, so that the spec parser says it is empty.
        setattr(namespace, self.dest, [*getattr(namespace, self.dest), *(split_measures(values) or [values])])


_TWO_QRELS = ("--qrels {option} and the first positional file {positional} both name the qrels: give "
              "QRELS RUN..., or --qrels with the runs as --run or --runs")


class _Qrels(argparse.Action):
    """``--qrels FILE``, refused when a positional QRELS was given too (in either order)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if getattr(namespace, "positional_qrels", None) is not None:
            parser.error(_TWO_QRELS.format(option=values, positional=namespace.positional_qrels))
        setattr(namespace, self.dest, values)


class _Positionals(argparse.Action):
    """``QRELS RUN [RUN ...] ['MEASURES' ...]``: ir_measures' order.

    The arguments after the last one that names an existing path are measures (each split by
    :func:`split_measures` and added to ``--metric``); of the others, the first is the qrels
    (``--qrels``, which must not be given too) and the rest are runs (added to ``--run``).
    """

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        files = list(values)
        measures: list[str] = []
        while files and not os.path.exists(files[-1]):
            measures.insert(0, files.pop())
        for text in measures:
            specs = split_measures(text) or [text]
            for spec in specs:
                _check_positional_measure(parser, text, spec)
            namespace.metric = [*namespace.metric, *specs]
        if not files:
            return
        qrels, *runs = files
        if namespace.qrels is not None:
            parser.error(_TWO_QRELS.format(option=namespace.qrels, positional=qrels))
        namespace.qrels = namespace.positional_qrels = qrels
        namespace.run = [*namespace.run, *runs]


def _check_positional_measure(parser: argparse.ArgumentParser, text: str, spec: str) -> None:
    """A positional that names no file is read as measures: if it is not even a spec, say both
    (a mistyped run file would otherwise be reported as a bad metric spec)."""
    from axiometer.metrics.spec import parse_spec  # the spec grammar alone: no metric is loaded

    if ":" in spec:  # a reference, module:attr or ir_measures:NAME, resolved later
        return
    try:
        parse_spec(spec)
    except InputError as error:
        parser.error(f"{cut(text, 80)!r} is no file, and not a measure either ({error.problem})")


def _add_limit_options(parser: argparse.ArgumentParser) -> None:
    """How a metric that is not built in is contained while it scores (as ``check`` contains it)."""
    from axiometer.cli.run_options import positive

    group = parser.add_argument_group(
        "metrics that are not built in (each scores in a supervised worker: an exception, exit, "
        "crash, hang or runaway memory is one error line naming the topic and ranking)")
    group.add_argument("--case-seconds", type=positive(float), default=None, metavar="S",
                       help="time limit of one evaluation of such a metric (default: 2)")
    group.add_argument("--worker-mb", type=positive(int), default=None, metavar="MB",
                       help="memory the worker scoring such a metric may add (default: 1024)")
    group.add_argument("--in-process", action="store_true",
                       help="score such a metric in this process instead (to debug it; then "
                            "os._exit, crashes and hangs past the alarm are not contained)")


def campaign_limits(args: argparse.Namespace) -> Any:
    """The :class:`~axiometer.runner.contained.Limits` the options give."""
    from axiometer.limits import Limits

    default = Limits()
    return Limits(case_seconds=args.case_seconds or default.case_seconds,
                  worker_mb=args.worker_mb or default.worker_mb, isolate=not args.in_process)


def add_campaign_options(parser: argparse.ArgumentParser, example_help: str) -> argparse._ArgumentGroup:
    """The input options of the campaign commands (``score``, ``unanimity``): qrels, runs, grades,
    metrics, priors, and the positional form ``QRELS RUN [RUN ...] ['MEASURES' ...]``."""
    source = parser.add_argument_group("input")
    source.add_argument("inputs", nargs="*", metavar="QRELS RUN MEASURES", action=_Positionals,
                        help="ir_measures' form, QRELS RUN [RUN ...] ['MEASURES' ...]: the "
                             "arguments after the last existing file are measures ('nDCG@10 P@5 "
                             "AP', one string or several), the first file is the qrels, the others "
                             "runs; they add to --run, --runs and --metric (not with --qrels). "
                             "Give them together, all before or all after the options")
    source.add_argument("--qrels", metavar="FILE", action=_Qrels,
                        help="judgments: TREC, TREC diversity or EvALL")
    source.add_argument("--run", metavar="FILE", action="append", default=[],
                        help="a TREC run (qid Q0 docno rank score tag); repeat for several runs")
    source.add_argument("--runs", metavar="DIR", default=None,
                        help="a campaign: every file in DIR (sorted by name; hidden files skipped) "
                             "is a TREC run")
    source.add_argument("--example", action="store_true", help=example_help)
    source.add_argument("--qrels-format", choices=QRELS_FORMATS, default=None,
                        help="the qrels format (default: detected from the file)")
    source.add_argument("--grades", choices=GRADE_MAPPINGS, default=None,
                        help="read every metric's grades with this mapping (default: each metric "
                             "as its reference implementation does: trec_eval's for P, RR, AP, "
                             "R-precision, bpref, DCG, nDCG; ndeval's for its measures; ERR's, "
                             "RBU's; see docs/conventions.md)")
    source.add_argument("--gmax", type=int, metavar="N", default=None,
                        help="the grade scale's maximum for linear/err (default: the largest grade "
                             "in the qrels; at most 100)")
    source.add_argument("--allow-empty", action="store_true",
                        help="score a run that shares no topic with the qrels (every score 0) "
                             "instead of stopping with an error")
    parser.add_argument("--metric", metavar="SPEC", action=_Measures, default=[],
                        help="a metric spec such as 'nDCG@10', 'RBP(p=0.9)' or 'NRG(base=nDCG@10)', "
                             "or a reference 'mymodule:my_metric' or 'ir_measures:nDCG@10' (as "
                             "'check' takes them); several separated by spaces ('nDCG@10 P@5'; "
                             "spaces inside parentheses do not separate), or repeat the option")
    _add_limit_options(parser)
    relative = parser.add_argument_group("relative metrics (those scored against other runs)")
    relative.add_argument("--prior", metavar="PRIOR", nargs="+", default=None,
                          help="each run's context: 'all-others' (default with several runs), "
                               "'best-per-group', or prior run FILEs/DIRs (not scored themselves)")
    relative.add_argument("--groups", metavar="FILE", default=None,
                          help="best-per-group: lines 'run_tag group' (default: groups from the run "
                               "tags: the part before the first '_' or '-', else the tag without "
                               "trailing digits)")
    relative.add_argument("--best-by", metavar="SPEC", default=None,
                          help="best-per-group: the metric whose mean picks each group's best run "
                               "(default: the first non-relative --metric, else nDCG@10)")
    return source


@contextlib.contextmanager
def example_files() -> Iterator[tuple[Path, list[Path]]]:
    """The bundled example's qrels and runs, as real paths."""
    folder = resources.files(EXAMPLE_PACKAGE) / EXAMPLE_FOLDER
    with resources.as_file(folder) as path:
        path = Path(path)
        yield path / EXAMPLE_QRELS, sorted(path.glob("*.run"))


def example_note(qrels: Path, runs: list[Path]) -> str:
    """Where ``--example``'s files are (issue 27: a newcomer could not find them), on two lines."""
    return (f"the bundled example, in {qrels.parent}{os.sep}:\n"
            f"  qrels {qrels.name}; runs {', '.join(run.name for run in runs)}")


def _run_files(directory: str) -> list[str]:
    """Every run file of a campaign directory, sorted by name: its regular files (a symbolic link to
    one included). Every other entry is named in a note with why it is not read (issue 29)."""
    path = Path(directory)
    if not path.exists():
        raise InputError("no such directory", source=directory)
    if not path.is_dir():
        raise InputError("not a directory (give run files with --run)", source=directory)
    entries = sorted(path.iterdir())
    reasons = [(p, _not_a_run(p)) for p in entries]   # one stat per entry
    skipped = [(p.name, reason) for p, reason in reasons if reason]
    files = [str(p) for p, reason in reasons if not reason]
    if skipped:  # said, not silently dropped: runs are the regular files directly in the directory
        named = ", ".join(f"{name}: {reason}" for name, reason in skipped[:5])
        print(f"axiometer: note: --runs {directory}: skipped {len(skipped)} entr"
              f"{'y' if len(skipped) == 1 else 'ies'} ({named}{', ...' if len(skipped) > 5 else ''}); "
              "runs are the regular files directly in it", file=sys.stderr)
    if not files:
        raise InputError("no run files in the directory", source=directory)
    return files


def _not_a_run(entry: Path) -> str:
    """Why a directory entry is not read as a run ("" when it is: a regular file, or a link to one)."""
    if entry.name.startswith("."):
        return "hidden"
    try:
        mode = entry.stat().st_mode
    except OSError as error:  # a link to nothing, a loop of links, no permission
        return "a broken symbolic link" if entry.is_symlink() and error.errno == errno.ENOENT \
            else f"unreadable ({error.strerror or error})"
    if stat.S_ISDIR(mode):
        return "a subdirectory"
    return "" if stat.S_ISREG(mode) else "not a regular file (a FIFO, socket or device)"


def _refuse_disjoint(qrels, runs, allowed: bool) -> None:
    """A run sharing no topic with the qrels would score 0 everywhere: an error, unless allowed."""
    if allowed:
        return
    for run in runs:
        if run.rankings and not set(run.rankings) & set(qrels.topics):
            shown = ", ".join(list(run.rankings)[:3]) + (", ..." if len(run.rankings) > 3 else "")
            raise InputError(f"shares no topic with the qrels {qrels.source} (run topics: {shown}): "
                             "every score would be 0; check the files, or give --allow-empty",
                             source=run.source)


def _read_runs(paths: Sequence[str | Path], progress: Progress, what: str,
               compact: bool = False) -> list[Any]:
    """The runs read (``compact``: kept as byte arrays, see :func:`read_run`), with what the reader
    warned about (extra columns) said as notes once the progress bar of the phase is closed."""
    runs: list[Any] = []
    notes: list[str] = []
    for done, path in enumerate(paths, 1):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UserWarning)  # each file says its own
            runs.append(read_run(path, compact=compact))
        notes.extend(str(warning.message) for warning in caught)
        progress.update(what, done, len(paths))
    for note in notes:
        print(f"axiometer: note: {note}", file=sys.stderr)
    return runs


def prior_argument(values: list[str] | None, progress: Progress, compact: bool = False):
    """``--prior``: a mode name, or the runs read from the given files and directories."""
    from axiometer.scoring import PRIOR_MODES

    if values is None:
        return None
    modes = [v for v in values if v in PRIOR_MODES]
    if modes:
        if len(values) > 1:
            raise AxiometerError(f"--prior {modes[0]} takes no run files with it")
        return modes[0]
    paths: list[str] = []
    for value in values:
        paths.extend(_run_files(value) if Path(value).is_dir() else [value])
    return _read_runs(paths, progress, "reading prior runs", compact)


@dataclasses.dataclass(frozen=True)
class Campaign:
    """The qrels, runs, prior and groups the campaign options name, read but not scored;
    ``source`` says where they came from (``"the bundled example"`` or the qrels path)."""

    qrels: Any
    runs: list[Any]
    prior: Any
    groups: Any
    source: str


def campaign_inputs(args: argparse.Namespace, compact: bool = False) -> Campaign:
    """Read what the campaign options (:func:`add_campaign_options`) name, without scoring it
    (``meta --simulate`` transforms the campaign first). ``compact``: runs keep their rankings as
    byte arrays (``read_run(..., compact=True)``) and the qrels their judgments as columns
    (``read_qrels(..., compact=True)``), which scoring reads without a Python string per document
    or a topic kept per grade mapping: a tenth of the memory."""
    from axiometer.scoring import read_groups, run_labels

    if args.example and (args.qrels or args.run or args.runs):
        args.parser.error("--example scores the bundled files; do not give --qrels, --run or --runs "
                          "(or positional QRELS RUN...) with it")
    if not args.example and not (args.qrels and (args.run or args.runs)):
        args.parser.error("give the qrels and runs (QRELS RUN [RUN ...], or --qrels FILE with --run "
                          "FILE or --runs DIR), or --example")
    if args.groups and args.prior != ["best-per-group"]:
        raise AxiometerError("--groups only matters with --prior best-per-group")
    with contextlib.ExitStack() as stack:
        if args.example:
            qrels_path, run_paths = stack.enter_context(example_files())
            # Where the files are, so a newcomer can read them and score their own the same way:
            # said after a successful run (cli.main prints closing_notes).
            args.closing_notes = [*getattr(args, "closing_notes", []), example_note(qrels_path, run_paths)]
        else:  # as typed, for error messages
            qrels_path = args.qrels
            run_paths = list(args.run) + (_run_files(args.runs) if args.runs else [])
        # Read with one mapping; scoring reads each metric's own (or --grades) from the grades.
        qrels = read_qrels(qrels_path, args.qrels_format, args.grades or DEFAULT_MAPPING, args.gmax,
                           compact=compact)
        progress = Progress(sys.stderr)
        try:
            runs = _read_runs(run_paths, progress, "reading runs", compact)
            _refuse_disjoint(qrels, runs, getattr(args, "allow_empty", False))
            prior = prior_argument(args.prior, progress, compact)
            groups = read_groups(args.groups, run_labels(runs)) if args.groups else None
        finally:
            progress.close()
    return Campaign(qrels, runs, prior, groups, "the bundled example" if args.example else str(args.qrels))


def campaign_scores(args: argparse.Namespace, specs: Sequence[str], per_topic: bool):
    """Read the qrels, the runs and the priors named by the options and score them."""
    from axiometer.scoring import score_runs

    campaign = campaign_inputs(args, compact=True)
    progress = Progress(sys.stderr)
    try:
        return score_runs(campaign.qrels, campaign.runs, specs, per_topic=per_topic,
                          progress=progress.update,
                          prior=campaign.prior, groups=campaign.groups, best_by=args.best_by,
                          grades=args.grades, gmax=args.gmax, limits=campaign_limits(args))
    finally:
        progress.close()
