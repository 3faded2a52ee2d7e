"""The ``axiometer`` command line.

Each command lives in two small functions: ``_add_<command>(subparsers)``
declares its options and ``_<command>(args)`` runs it, returning the exit
status. New commands register in :data:`_COMMANDS`.

Every :class:`~axiometer.core.AxiometerError` (a bad spec string, a bad file
line, a duplicate document) ends the program with one line on stderr,
``axiometer: error: <where>: <problem>``, and exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from importlib import resources
from pathlib import Path

from axiometer import __version__
from axiometer.core import AxiometerError
from axiometer.grades import DEFAULT_MAPPING, GRADE_MAPPINGS
from axiometer.progress import Progress
from axiometer.readers import QRELS_FORMATS, read_qrels, read_run
from axiometer.reports.scores import REPORT_FORMATS, format_scores

__all__ = ["main", "Progress"]

#: Exit status of a usage or input error (argparse's convention).
EXIT_ERROR = 2

#: The bundled example (``axiometer score --example``): a package resource folder.
EXAMPLE_PACKAGE = "axiometer"
EXAMPLE_FOLDER = "data/example"
EXAMPLE_QRELS = "qrels.evall.tsv"


# -- score ---------------------------------------------------------------------

def _add_score(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score", help="score TREC runs against qrels with one or more metrics",
        description="Score runs against qrels: the mean of each metric over the qrels topics "
                    "(a topic missing from a run scores 0; run topics absent from the qrels "
                    "are ignored). Without --metric, the 20 metrics of the SIGIR 2018 table.")
    source = parser.add_argument_group("input")
    source.add_argument("--qrels", metavar="FILE", help="judgments: TREC, TREC diversity or EvALL")
    source.add_argument("--run", metavar="FILE", action="append", default=[],
                        help="a TREC run (qid Q0 docno rank score tag); repeat for several runs")
    source.add_argument("--example", action="store_true",
                        help="score the bundled example (3 TREC 2014 Web topics, 3 runs)")
    source.add_argument("--qrels-format", choices=QRELS_FORMATS, default=None,
                        help="the qrels format (default: detected from the file)")
    source.add_argument("--grades", choices=GRADE_MAPPINGS, default=DEFAULT_MAPPING,
                        help=f"grade-to-relevance mapping (default: {DEFAULT_MAPPING})")
    source.add_argument("--gmax", type=int, metavar="N", default=None,
                        help="the grade scale's maximum for linear/err (default: the largest grade "
                             "in the qrels)")
    parser.add_argument("--metric", metavar="SPEC", action="append", default=[],
                        help="a metric spec such as 'nDCG@10' or 'RBP(p=0.9)'; repeat for several")
    output = parser.add_argument_group("output")
    output.add_argument("--per-topic", action="store_true", help="also list every topic's values")
    output.add_argument("--format", choices=REPORT_FORMATS, default="text",
                        help="report format (default: text)")
    output.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    parser.set_defaults(command=_score, parser=parser)


@contextlib.contextmanager
def _example_files() -> Iterator[tuple[Path, list[Path]]]:
    """The bundled example's qrels and runs, as real paths."""
    folder = resources.files(EXAMPLE_PACKAGE) / EXAMPLE_FOLDER
    with resources.as_file(folder) as path:
        path = Path(path)
        yield path / EXAMPLE_QRELS, sorted(path.glob("*.run"))


def _score(args: argparse.Namespace) -> int:
    # Imported here, not at the top: the metrics load numpy and sympy, which
    # `axiometer --help` and the other commands' argument errors need not wait for.
    from axiometer.metrics import TABLE_ROWS
    from axiometer.scoring import score_runs

    if args.example and (args.qrels or args.run):
        args.parser.error("--example scores the bundled files; do not give --qrels or --run with it")
    if not args.example and not (args.qrels and args.run):
        args.parser.error("give --qrels FILE and at least one --run FILE (or --example)")
    specs = args.metric or [spec for _, spec in TABLE_ROWS]
    with contextlib.ExitStack() as stack:
        if args.example:
            qrels_path, run_paths = stack.enter_context(_example_files())
        else:
            qrels_path, run_paths = args.qrels, args.run  # as typed, for error messages
        qrels = read_qrels(qrels_path, args.qrels_format, args.grades, args.gmax)
        progress = Progress(sys.stderr)
        try:
            runs = []
            for done, path in enumerate(run_paths, 1):
                runs.append(read_run(path))
                progress.update("reading runs", done, len(run_paths))
            result = score_runs(qrels, runs, specs, per_topic=args.per_topic,
                                progress=lambda done, total: progress.update("scoring", done, total))
        finally:
            progress.close()
    report = format_scores(result, args.format, per_topic=args.per_topic)
    if args.output:
        Path(args.output).write_text(report, encoding="utf-8")
    else:
        sys.stdout.write(report)
    return 0


# -- table and check -----------------------------------------------------------

#: The exit status of a run stopped by Ctrl-C (128 + SIGINT), also when a partial table is printed.
EXIT_INTERRUPTED = 130

#: The published tables ``--compare`` knows (see :mod:`axiometer.axioms.published`).
COMPARE_TABLES = ("amigo2018",)


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by ``table`` and ``check``: what to check, how hard, and where to write."""
    parser.add_argument("--constraints", metavar="ID", nargs="+", default=None,
                        help="constraint ids such as Pri DeepTh CloseTh (default: all ten)")
    parser.add_argument("--quick", action="store_true",
                        help="a small budget and small grids (the default setting plus each "
                             "parameter's extremes)")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="the seed every check's random search derives from (default: 0)")
    parser.add_argument("--mode", choices=("window", "truncate"), default=None,
                        help="cutoff mode for every constraint (default: window for the universal "
                             "constraints, truncate for DeepTh/CloseTh)")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="worker processes (default: all cores; 1 runs in this process)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")


def _add_table(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "table", help="check metrics against the constraints: the SIGIR 2018 table",
        description="Check every metric against every constraint over its parameter grid and "
                    "print the matrix, with counterexamples and witnesses. Without --metrics, the "
                    "20 metrics of the SIGIR 2018 table (Amigó et al.), each over the paper's "
                    "parameter grid.")
    parser.add_argument("--metrics", metavar="SPEC", nargs="+", default=None,
                        help="metric specs such as 'P@10' 'RBP' 'RBP(p=0.5)'; parameters written in "
                             "a spec are fixed, the others vary over their grid")
    _add_run_options(parser)
    from_reports = ("text", "markdown", "latex", "html", "json")  # reports.table.REPORT_FORMATS
    parser.add_argument("--format", choices=from_reports, default="text",
                        help="report format (default: text)")
    parser.add_argument("--compare", choices=COMPARE_TABLES, default=None,
                        help="compare with a published table and explain every difference")
    parser.set_defaults(command=_table, parser=parser)


def _add_check(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check", help="check one metric against the constraints, with counterexamples",
        description="Check one metric against the constraints over its parameter grid and print "
                    "each verdict with its counterexample (topic, rankings a and b, both scores, "
                    "the relation) or witness.")
    parser.add_argument("spec", metavar="SPEC", help="a metric spec such as 'RBP(p=0.5)' or 'nDCG@10'")
    _add_run_options(parser)
    parser.add_argument("--format", choices=("text", "markdown", "json"), default="text",
                        help="report format (default: text)")
    parser.set_defaults(command=_check, parser=parser)


def _run_checks(args: argparse.Namespace, metrics: list[str] | None):
    """Run the table with a progress bar on stderr (shown after a few seconds on a terminal)."""
    # Imported here: the runner loads the metrics, numpy, sympy and hypothesis.
    from axiometer.runner import run_table

    if args.jobs is not None and args.jobs < 1:
        args.parser.error("--jobs must be at least 1")
    progress = Progress(sys.stderr)
    try:
        return run_table(metrics, args.constraints, seed=args.seed, quick=args.quick, mode=args.mode,
                         jobs=args.jobs, progress=lambda done, total: progress.update("checking", done, total))
    finally:
        progress.close()


def _write(report: str, output: str | None) -> None:
    if output:
        Path(output).write_text(report, encoding="utf-8")
    else:
        sys.stdout.write(report)


def _table(args: argparse.Namespace) -> int:
    from axiometer.axioms.published import compare_with_published
    from axiometer.reports.table import format_table

    result = _run_checks(args, args.metrics)
    comparison = compare_with_published(result, args.compare) if args.compare else None
    _write(format_table(result, args.format, comparison), args.output)
    return EXIT_INTERRUPTED if result.interrupted else 0


def _check(args: argparse.Namespace) -> int:
    from axiometer.reports.table import format_check

    result = _run_checks(args, [args.spec])
    _write(format_check(result, args.format), args.output)
    return EXIT_INTERRUPTED if result.interrupted else 0


# -- intrinsic -----------------------------------------------------------------

#: The comparison tables ``intrinsic --table`` knows (see ``axiometer.axioms.giner``).
INTRINSIC_TABLES = ("giner",)


def _add_intrinsic(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "intrinsic", help="classify a metric on a domain: Giner's pseudometric, metric, interval scale",
        description="Classify one metric on a finite domain of outputs (SPEC section 4): "
                    "ordinal/pseudometric, ordinal/metric or interval/metric, with the domain's size, "
                    "distinct values, largest collision class and a counterexample for each property "
                    "the metric lacks. Ties and gaps are decided exactly for built-in metrics.")
    parser.add_argument("spec", metavar="SPEC", nargs="?", default=None,
                        help="a ranking metric spec ('RBP(p=0.5)', 'AP') or a set measure "
                             "('recall', 'F(beta=2)')")
    parser.add_argument("--domain", metavar="DOMAIN", default=None,
                        help="e.g. 'rankings(n=4,grades=2)', 'rankings(n=3,grades={0,1/2,1},"
                             "lengths=upto,R=4)', 'sets(N=20,R=5,size=8)', 'sets(N=20,R=5,nonrel=0)'")
    parser.add_argument("--param", metavar="NAME", default=None,
                        help="also analyse how the classification changes with parameter NAME")
    parser.add_argument("--tolerance", type=float, metavar="X", default=None,
                        help="tie band (relative) for float-only decisions, or a wider screen of "
                             "candidates re-decided exactly")
    parser.add_argument("--table", choices=INTRINSIC_TABLES, default=None,
                        help="print a comparison table instead (SPEC and --domain not needed)")
    parser.add_argument("--format", choices=("text", "markdown", "json"), default="text",
                        help="report format (default: text)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    parser.set_defaults(command=_intrinsic, parser=parser)


def _optional_module(name: str, what: str):
    """Import ``name`` (written by another part of issue 4), or fail with a clear error."""
    import importlib

    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name and name.startswith(error.name):
            raise AxiometerError(f"{what} not available (module {name} is missing)") from None
        raise


def _intrinsic_metric(spec: str):
    """A set measure when the spec names one of ``SET_MEASURES``, else a ranking metric (``parse``)."""
    from axiometer.core import InputError, ValidationError
    from axiometer.metrics import parse
    from axiometer.metrics.set_based import SET_MEASURES, set_measure
    from axiometer.metrics.spec import parse_spec

    parsed = parse_spec(spec)
    if parsed.family not in SET_MEASURES:
        return parse(spec)
    if parsed.cutoff is not None:
        raise InputError(f"a set measure takes no cutoff '@{parsed.cutoff}'", source=f"metric {spec!r}")
    try:
        return set_measure(parsed.family, **parsed.params)
    except ValidationError as error:
        raise InputError(str(error), source=f"metric {spec!r}") from None


def _intrinsic(args: argparse.Namespace) -> int:
    if args.table:
        if args.spec or args.domain or args.param:
            raise AxiometerError("--table prints a whole table; do not give SPEC, --domain or --param with it")
        giner = _optional_module("axiometer.axioms.giner", "Giner table")
        giner_report = _optional_module("axiometer.reports.giner", "Giner table report")
        _write(giner_report.format_giner(giner.run_giner(), args.format), args.output)
        return 0
    if not args.spec or not args.domain:
        raise AxiometerError("give SPEC and --domain DOMAIN (or --table giner)")
    if args.tolerance is not None and not args.tolerance > 0:
        raise AxiometerError(f"--tolerance must be positive, got {args.tolerance:g}")
    from axiometer.axioms.intrinsic import classify
    from axiometer.core import InputError
    from axiometer.generators.domain_spec import parse_domain
    from axiometer.generators.domains import RankingsDomain, SetsDomain, UsersDomain
    from axiometer.metrics.set_based import ContingencyMeasure, UserMeasure
    from axiometer.reports.intrinsic import format_intrinsic, format_parametric

    metric = _intrinsic_metric(args.spec)
    domain = parse_domain(args.domain)
    # Each kind of measure scores one kind of output: contingency counts, a user's
    # known/unknown relevant documents, or rankings.
    if isinstance(metric, ContingencyMeasure):
        needed, kind = SetsDomain, "sets(...)"
    elif isinstance(metric, UserMeasure):
        needed, kind = UsersDomain, "users(...)"
    else:
        needed, kind = RankingsDomain, "rankings(...)"
    if not isinstance(domain, needed):
        raise InputError(f"{metric.name} needs a {kind} domain; got {domain.name}",
                         source=f"metric {args.spec!r}")
    result = classify(metric, domain, tolerance=args.tolerance)
    parametric = None
    if args.param:
        analysis = _optional_module("axiometer.axioms.parametric", "parametric analysis")
        parametric = analysis.analyse(metric, args.param, domain)
    if args.format == "json":
        import dataclasses
        import json

        data = dataclasses.asdict(result)
        if parametric is not None:
            data["parametric"] = json.loads(format_parametric(parametric, "json"))
        report = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    else:
        report = format_intrinsic(result, args.format)
        if parametric is not None:
            report += "\n" + format_parametric(parametric, args.format)
    _write(report, args.output)
    return 0


# -- the program ---------------------------------------------------------------

#: Every command's ``_add_<command>``; later commands (table, check, intrinsic) join here.
_COMMANDS: tuple[Callable[[argparse._SubParsersAction], None], ...] = (_add_score, _add_table, _add_check,
                                                                        _add_intrinsic)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="axiometer",
        description="Check information-retrieval evaluation metrics against formal axioms.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for add in _COMMANDS:
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "command"):
        parser.print_help(sys.stderr)
        return EXIT_ERROR
    try:
        return args.command(args)
    except AxiometerError as error:
        return _fail(str(error))
    except OSError as error:  # writing -o FILE, reading an unreadable example
        where = f"{error.filename}: " if error.filename else ""
        return _fail(f"{where}{error.strerror or error}")
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


def _fail(message: str) -> int:
    one_line = " ".join(message.split())
    print(f"axiometer: error: {one_line}", file=sys.stderr)
    return EXIT_ERROR
