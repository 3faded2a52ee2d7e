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
import math
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from importlib import resources
from pathlib import Path

from axiometer import __version__
from axiometer.core import AxiometerError, InputError
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

def _add_campaign_options(parser: argparse.ArgumentParser, example_help: str) -> argparse._ArgumentGroup:
    """The input options of ``score`` and ``unanimity``: qrels, runs, grades, metrics, priors."""
    source = parser.add_argument_group("input")
    source.add_argument("--qrels", metavar="FILE", help="judgments: TREC, TREC diversity or EvALL")
    source.add_argument("--run", metavar="FILE", action="append", default=[],
                        help="a TREC run (qid Q0 docno rank score tag); repeat for several runs")
    source.add_argument("--runs", metavar="DIR", default=None,
                        help="a campaign: every file in DIR (sorted by name; hidden files skipped) "
                             "is a TREC run")
    source.add_argument("--example", action="store_true", help=example_help)
    source.add_argument("--qrels-format", choices=QRELS_FORMATS, default=None,
                        help="the qrels format (default: detected from the file)")
    source.add_argument("--grades", choices=GRADE_MAPPINGS, default=DEFAULT_MAPPING,
                        help=f"grade-to-relevance mapping (default: {DEFAULT_MAPPING})")
    source.add_argument("--gmax", type=int, metavar="N", default=None,
                        help="the grade scale's maximum for linear/err (default: the largest grade "
                             "in the qrels)")
    parser.add_argument("--metric", metavar="SPEC", action="append", default=[],
                        help="a metric spec such as 'nDCG@10', 'RBP(p=0.9)' or 'NRG(base=nDCG@10)'; "
                             "repeat for several")
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


def _add_score(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "score", help="score TREC runs against qrels with one or more metrics",
        description="Score runs against qrels: the mean of each metric over the qrels topics "
                    "(a topic missing from a run scores 0; run topics absent from the qrels "
                    "are ignored). Without --metric, the 20 metrics of the SIGIR 2018 table. "
                    "Relative metrics (NRG, rareness, Fujii's U) are scored against other runs "
                    "chosen by --prior, side by side with the others, with Kendall's tau-b "
                    "between the orderings.")
    _add_campaign_options(parser, "score the bundled example (3 TREC 2014 Web topics, 3 runs)")
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


def _run_files(directory: str) -> list[str]:
    """Every run file of a campaign directory, sorted by name (hidden files skipped)."""
    path = Path(directory)
    if not path.exists():
        raise InputError("no such directory", source=directory)
    if not path.is_dir():
        raise InputError("not a directory (give run files with --run)", source=directory)
    files = sorted(str(p) for p in path.iterdir() if p.is_file() and not p.name.startswith("."))
    if not files:
        raise InputError("no run files in the directory", source=directory)
    return files


def _read_runs(paths: Sequence[str | Path], progress: Progress, what: str) -> list:
    runs = []
    for done, path in enumerate(paths, 1):
        runs.append(read_run(path))
        progress.update(what, done, len(paths))
    return runs


def _prior_argument(values: list[str] | None, progress: Progress):
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
    return _read_runs(paths, progress, "reading prior runs")


def _campaign_scores(args: argparse.Namespace, specs: Sequence[str], per_topic: bool):
    """Read the qrels, the runs and the priors named by the options and score them."""
    from axiometer.scoring import read_groups, run_labels, score_runs

    if args.example and (args.qrels or args.run or args.runs):
        args.parser.error("--example scores the bundled files; do not give --qrels, --run or --runs "
                          "with it")
    if not args.example and not (args.qrels and (args.run or args.runs)):
        args.parser.error("give --qrels FILE and runs (--run FILE or --runs DIR), or --example")
    if args.groups and args.prior != ["best-per-group"]:
        raise AxiometerError("--groups only matters with --prior best-per-group")
    with contextlib.ExitStack() as stack:
        if args.example:
            qrels_path, run_paths = stack.enter_context(_example_files())
        else:  # as typed, for error messages
            qrels_path = args.qrels
            run_paths = list(args.run) + (_run_files(args.runs) if args.runs else [])
        qrels = read_qrels(qrels_path, args.qrels_format, args.grades, args.gmax)
        progress = Progress(sys.stderr)
        try:
            runs = _read_runs(run_paths, progress, "reading runs")
            prior = _prior_argument(args.prior, progress)
            groups = read_groups(args.groups, run_labels(runs)) if args.groups else None
            return score_runs(qrels, runs, specs, per_topic=per_topic,
                              progress=lambda done, total: progress.update("scoring", done, total),
                              prior=prior, groups=groups, best_by=args.best_by)
        finally:
            progress.close()


def _score(args: argparse.Namespace) -> int:
    # Imported here, not at the top: the metrics load numpy and sympy, which
    # `axiometer --help` and the other commands' argument errors need not wait for.
    from axiometer.metrics import TABLE_ROWS

    specs = args.metric or [spec for _, spec in TABLE_ROWS]
    result = _campaign_scores(args, specs, args.per_topic)
    _write(format_scores(result, args.format, per_topic=args.per_topic), args.output)
    return 0


# -- unanimity -----------------------------------------------------------------

#: ``unanimity --example``: the generated campaign's shape (topics, runs, depth).
EXAMPLE_CAMPAIGN = (10, 12, 100)


def _add_unanimity(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "unanimity", help="Metric Unanimity: how often each metric agrees with unanimous improvements",
        description="Metric Unanimity (Amigo et al., SIGIR 2018, section 6.1) of each metric against "
                    "all the others: MU(m) = log2(P(m_ij, M_ij) / (P(m_ij) P(M_ij))) over ordered "
                    "pairs of system outputs for the same topic, pooled over topics; ties in m count "
                    "1/2. Scores come from --qrels and runs (scored per topic like 'score'), from "
                    "--scores (score's JSON with --per-topic) or from --example (a generated campaign). "
                    "Without --metric, the 20 metrics of the SIGIR 2018 table.")
    topics, runs, depth = EXAMPLE_CAMPAIGN
    _add_campaign_options(parser, f"a generated campaign ({topics} topics, {runs} runs, depth "
                                  f"{depth}; see --seed)")
    parser.add_argument("--scores", metavar="FILE", default=None,
                        help="per-topic scores: the JSON of 'axiometer score --per-topic --format json'")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="the generated campaign's seed (--example; default: 0)")
    output = parser.add_argument_group("output")
    output.add_argument("--format", choices=REPORT_FORMATS, default="text",
                        help="report format (default: text)")
    output.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    parser.set_defaults(command=_unanimity, parser=parser)


def _scores_file(path: str, metrics: Sequence[str]) -> dict[str, dict[str, list[float]]]:
    """``metric -> topic -> [value per run]`` from score's per-topic JSON."""
    import json
    import math

    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", source=path) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", source=path) from None
    try:
        records = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"not JSON: {error.msg}", source=path, line=error.lineno) from None
    if not isinstance(records, list):
        raise InputError("expected the list of records written by 'axiometer score --format json'",
                         source=path)
    values: dict[tuple[str, str, str], float] = {}
    runs: dict[str, None] = {}
    topics: dict[str, None] = {}
    names: dict[str, None] = {}
    for number, record in enumerate(records, 1):
        if not isinstance(record, dict) or "topic" not in record:
            continue  # means, priors, Kendall's tau
        try:
            key = (str(record["run"]), str(record["topic"]), str(record["metric"]))
            value = record["value"]
        except KeyError as error:
            raise InputError(f"record {number} lacks {error.args[0]!r}", source=path) from None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise InputError(f"record {number}: value must be a finite number", source=path,
                             token=str(value))
        values[key] = float(value)
        runs[key[0]] = topics[key[1]] = names[key[2]] = None
    if not values:
        raise InputError("no per-topic records (write them with 'axiometer score --per-topic "
                         "--format json')", source=path)
    chosen = list(metrics) or list(names)
    table = {}
    for metric in chosen:
        if metric not in names:
            raise InputError(f"no scores for metric {metric!r} (the file has: {', '.join(names)})",
                             source=path)
        table[metric] = {}
        for topic in topics:
            row = [values.get((run, topic, metric)) for run in runs]
            if None in row:
                raise InputError(f"no {metric} score of run {list(runs)[row.index(None)]!r} on topic "
                                 f"{topic!r}", source=path)
            table[metric][topic] = row
    return table


def _example_scores(args: argparse.Namespace, specs: Sequence[str]):
    from axiometer.generators.campaign import generate_campaign
    from axiometer.readers import Qrels, Run
    from axiometer.scoring import score_runs

    n_topics, n_runs, depth = EXAMPLE_CAMPAIGN
    campaign = generate_campaign(topics=n_topics, runs=n_runs, depth=depth, seed=args.seed,
                                 mapping=args.grades)
    weights = {qid: dict(zip(t.aspects, t.weights)) for qid, t in campaign.topics.items()}
    qrels = Qrels(campaign.topics, campaign.grades, weights, "trec-diversity", "<generated>",
                  campaign.mapping)
    runs = [Run(tag, rankings, f"<generated {tag}>") for tag, rankings in campaign.runs.items()]
    prior = _prior_argument(args.prior, Progress(sys.stderr))
    return score_runs(qrels, runs, specs, per_topic=True, prior=prior, best_by=args.best_by)


def _unanimity(args: argparse.Namespace) -> int:
    from axiometer.metrics import TABLE_ROWS
    from axiometer.reports.unanimity import format_unanimity
    from axiometer.unanimity import metric_unanimity

    if args.scores:
        if args.example or args.qrels or args.run or args.runs or args.prior:
            args.parser.error("--scores reads computed scores; do not give --example, --qrels, "
                              "--run, --runs or --prior with it")
        scores = _scores_file(args.scores, args.metric)
        source = args.scores
    else:
        specs = args.metric or [spec for _, spec in TABLE_ROWS]
        if args.example:
            if args.qrels or args.run or args.runs:
                args.parser.error("--example generates its campaign; do not give --qrels, --run or "
                                  "--runs with it")
            if args.groups:
                raise AxiometerError("--groups names run files; --example has generated runs")
            scores = _example_scores(args, specs)
            topics, runs, depth = EXAMPLE_CAMPAIGN
            source = (f"a generated campaign (seed {args.seed}: {topics} topics, {runs} runs, "
                      f"depth {depth})")
        else:
            scores = _campaign_scores(args, specs, per_topic=True)
            source = f"{len(scores.runs)} runs on {len(scores.topics)} topics of {args.qrels}"
    _write(format_unanimity(metric_unanimity(scores), args.format, source), args.output)
    return 0


# -- table and check -----------------------------------------------------------

#: The exit status of a run stopped by Ctrl-C (128 + SIGINT), also when a partial table is printed.
EXIT_INTERRUPTED = 130

#: The published tables ``--compare`` knows (see :mod:`axiometer.axioms.published`).
COMPARE_TABLES = ("amigo2018",)


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by ``table`` and ``check``: what to check, how hard, and where to write."""
    parser.add_argument("--constraints", metavar="ID", nargs="+", default=None,
                        help="constraint or property ids such as Pri DeepTh PriorMono (default: "
                             "the ten constraints, with the relative properties first for a "
                             "relative metric)")
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
                    "parameter grid; with --family relative, the relative (novelty) metrics against "
                    "the relative properties and the ten constraints (under generated contexts).")
    parser.add_argument("--family", choices=("sigir2018", "relative"), default="sigir2018",
                        help="which rows and columns by default: the SIGIR 2018 table, or the "
                             "relative metrics (NRG, rareness, Fujii's U) with the properties Rev, "
                             "Rarity, PriorSens, PriorMono, Bounded, Unique, Finite")
    parser.add_argument("--metrics", metavar="SPEC", nargs="+", default=None,
                        help="metric specs such as 'P@10' 'RBP' 'RBP(p=0.5)' (parameters written in "
                             "a spec are fixed, the others vary over their grid), references "
                             "'mymodule:my_metric', or 'ir_measures:nDCG@10'")
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
                    "the relation) or witness. The metric is a built-in spec, your own function or "
                    "metric object as 'package.module:name' (imported from the current directory "
                    "first, like pytest), or 'ir_measures:MEASURE'.")
    parser.add_argument("spec", metavar="REF",
                        help="a metric spec such as 'RBP(p=0.5)' or 'nDCG@10'; 'mymodule:my_metric' "
                             "(a function f(ranking, topic[, context][, **params]) -> float or a "
                             "metric object); or 'ir_measures:nDCG@10'")
    parser.add_argument("--param", metavar="NAME=V1,V2,...", action="append", default=[],
                        help="a parameter's value, or with several values its grid (numbers are read "
                             "as int, decimal or fraction such as 1/2, anything else as a string); "
                             "repeat for several parameters")
    parser.add_argument("--cutoff", type=int, metavar="K", default=None,
                        help="the metric's cutoff k (a function receives it as its k or cutoff "
                             "argument, or sees ranking[:k])")
    _add_run_options(parser)
    parser.add_argument("--format", choices=("text", "markdown", "json"), default="text",
                        help="report format (default: text)")
    parser.set_defaults(command=_check, parser=parser)


def _param_value(text: str) -> int | float | Fraction | str:
    """One ``--param`` value: an int, a decimal, a fraction ``a/b``, else the text (quotes removed)."""
    text = text.strip()
    for read in (int, _fraction_text, float):
        try:
            value = read(text)
        except (ValueError, ZeroDivisionError):
            continue
        if not isinstance(value, float) or math.isfinite(value):
            return value
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _fraction_text(text: str) -> Fraction:
    if "/" not in text:
        raise ValueError(text)
    return Fraction(text)


def _param_options(options: Sequence[str]) -> dict[str, object]:
    """``--param p=0.5`` fixes p; ``--param p=0.1,0.5,0.9`` gives p a grid (a list)."""
    params: dict[str, object] = {}
    for option in options:
        name, equals, values = option.partition("=")
        name = name.strip()
        if not equals or not name.isidentifier():
            raise InputError("expected NAME=VALUE or NAME=V1,V2,...", source="--param", token=option)
        if name in params:
            raise InputError(f"parameter {name} is given twice", source="--param", token=option)
        parts = [_param_value(v) for v in values.split(",")]
        if any(p == "" for p in parts):
            raise InputError(f"parameter {name} has an empty value", source="--param", token=option)
        params[name] = parts if len(parts) > 1 else parts[0]
    return params


def _run_checks(args: argparse.Namespace, metrics: list | None,
                grids: Mapping[str, Sequence[object]] | None = None):
    """Run the table with a progress bar on stderr (shown after a few seconds on a terminal)."""
    # Imported here: the runner loads the metrics, numpy, sympy and hypothesis.
    from axiometer.runner import run_table

    if args.jobs is not None and args.jobs < 1:
        args.parser.error("--jobs must be at least 1")
    progress = Progress(sys.stderr)
    try:
        return run_table(metrics, args.constraints, family=getattr(args, "family", "sigir2018"),
                         seed=args.seed, quick=args.quick, mode=args.mode, jobs=args.jobs, grids=grids,
                         progress=lambda done, total: progress.update("checking", done, total))
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

    if args.compare and args.family != "sigir2018":
        args.parser.error(f"--compare {args.compare} compares the sigir2018 family's table")
    metrics = None
    if args.metrics is not None:
        # Built-in specs, module:attr references and ir_measures:MEASURE, as `check` takes them.
        from axiometer.loading import load

        metrics = [load(ref).entry for ref in args.metrics]
    result = _run_checks(args, metrics)
    comparison = compare_with_published(result, args.compare) if args.compare else None
    _write(format_table(result, args.format, comparison), args.output)
    return EXIT_INTERRUPTED if result.interrupted else 0


def _check(args: argparse.Namespace) -> int:
    from axiometer.loading import load
    from axiometer.reports.table import format_check

    if args.cutoff is not None and args.cutoff < 1:
        args.parser.error("--cutoff must be a positive integer")
    loaded = load(args.spec, params=_param_options(args.param), cutoff=args.cutoff)
    result = _run_checks(args, [loaded.entry], loaded.grids)
    _write(format_check(result, args.format), args.output)
    return EXIT_INTERRUPTED if result.interrupted else 0


# -- intrinsic -----------------------------------------------------------------

#: The comparison tables ``intrinsic --table`` knows (see ``axiometer.intrinsic.giner``).
INTRINSIC_TABLES = ("giner",)


def _add_intrinsic(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "intrinsic", help="classify a metric on a domain: Giner's pseudometric, metric, interval scale",
        description="Classify one metric on a finite domain of outputs (definitions §4): "
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
    """A set measure when the spec names one of ``SET_MEASURES``, else a ranking metric: a built-in
    spec, a ``module:attr`` reference or ``ir_measures:MEASURE`` (as ``check`` takes them)."""
    from axiometer.core import InputError, ValidationError
    from axiometer.loading import resolve_metric
    from axiometer.metrics.set_based import SET_MEASURES, set_measure
    from axiometer.metrics.spec import parse_spec

    if ":" in spec:
        return resolve_metric(spec)
    parsed = parse_spec(spec)
    if parsed.family not in SET_MEASURES:
        return resolve_metric(spec)
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
        giner = _optional_module("axiometer.intrinsic.giner", "Giner table")
        giner_report = _optional_module("axiometer.reports.giner", "Giner table report")
        _write(giner_report.format_giner(giner.run_giner(), args.format), args.output)
        return 0
    if not args.spec or not args.domain:
        raise AxiometerError("give SPEC and --domain DOMAIN (or --table giner)")
    if args.tolerance is not None and not args.tolerance > 0:
        raise AxiometerError(f"--tolerance must be positive, got {args.tolerance:g}")
    from axiometer.intrinsic.classify import classify
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
        analysis = _optional_module("axiometer.intrinsic.parametric", "parametric analysis")
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
_COMMANDS: tuple[Callable[[argparse._SubParsersAction], None], ...] = (
    _add_score, _add_table, _add_check, _add_intrinsic, _add_unanimity)


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
