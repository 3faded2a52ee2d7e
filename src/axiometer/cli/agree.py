"""``axiometer agree IMPL SPEC``: does an implementation compute a built-in metric, and under which convention."""

from __future__ import annotations

import argparse
import math
import textwrap

from axiometer.cli.output import text_width, write
from axiometer.core import AxiometerError
from axiometer.limits import DEFAULT_CASE_SECONDS
from axiometer.reports.render import formats_of

#: The engine's defaults (:data:`axiometer.agreement.agree.DEFAULT_QUERIES` and ``DEFAULT_TOLERANCE``),
#: without loading hypothesis for every command's parser; a test keeps them equal.
DEFAULT_QUERIES = 300
DEFAULT_TOLERANCE = 1e-9

#: Exit status when the implementation differs from the reference or a property fails.
EXIT_DIFFERS = 1

#: ``agree --help`` after the options: IMPL's forms and the exit statuses.
EPILOG = """\
IMPL, the implementation under test, in one of these forms:
  module:function                your function, imported from the current directory first, either
                                 per query: fn(grades: dict[str, int], scores: dict[str, float])
                                            -> float
                                 or batch:  fn(qrels: dict[str, dict[str, int]],
                                               run: dict[str, dict[str, float]]) -> dict[str, float]
                                 (the form is detected; --form query|batch says which)
  pytrec_eval:MEASURE            trec_eval's code: pytrec_eval:recip_rank, pytrec_eval:ndcg_cut_10
  ir_measures:MEASURE            ir_measures, with the provider it picks: ir_measures:nDCG@10
  ir_measures/PROVIDER:MEASURE   one ir_measures provider: ir_measures/pytrec_eval:RR
  ranx:METRIC                    ranx (its first call compiles for a while): ranx:ndcg@10
SPEC, the reference: a built-in metric of one grade per document (nDCG@10, AP, RR, P@5, ERR@10,
RBP, bpref, ...).

examples:
  axiometer agree mymetrics:ndcg nDCG@10
  axiometer agree mymetrics:ndcg nDCG@10 --convention ideal=run
  axiometer agree ir_measures/pytrec_eval:RR RR --queries 1000 --format json

exit status: 0 when it agrees (outright or under a convention) and every property holds; 1 when it
differs or a property fails; 2 for bad input (one line on stderr).
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Declare ``agree`` and its options."""
    from axiometer.agreement.conventions import AXES  # light: what every command loads, and numpy

    parser = subparsers.add_parser(
        "agree", help="differential testing: does an implementation compute a built-in metric?",
        description=textwrap.fill(
                    "Compare an implementation of a metric with axiometer's built-in as the exact "
                    "reference, on hand-written awkward queries and generated ones (seeded, so a run "
                    "repeats). Where they disagree, every convention implementations are known to "
                    "differ on (tie-breaking, float32 scores, gains, queries without a relevant "
                    "document, cutoffs) is searched: the verdict is 'agrees', 'agrees under' the "
                    "convention named, or 'differs' (a bug), with a minimal case shrunk by hypothesis. "
                    "Properties every implementation must have (values in range, defined on empty "
                    "input, the same value under renaming and reordering, determinism) are checked on "
                    "the same queries.", 79),
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("implementation", metavar="IMPL", help="the implementation under test (forms below)")
    parser.add_argument("spec", metavar="SPEC", help="the built-in metric it should compute (nDCG@10, AP, RR, ...)")
    parser.add_argument("--queries", type=int, default=DEFAULT_QUERIES, metavar="N",
                        help=f"queries to generate, after the hand-written ones (default: {DEFAULT_QUERIES})")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="seed of the generated queries (default: 0)")
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE, metavar="T",
                        help=f"largest |implementation - reference| that agrees (default: {DEFAULT_TOLERANCE:g})")
    parser.add_argument("--convention", action="append", default=[], metavar="AXIS=VALUE",
                        help="assume this value of an axis instead of searching it (repeatable): "
                             + "; ".join(f"{axis.name}={'|'.join(axis.values)}" for axis in AXES)
                             + " (ideal=run, an nDCG-like metric's ideal ranking from the run's documents, "
                               "is never searched: ask for it)")
    parser.add_argument("--form", choices=("query", "batch"), default=None,
                        help="a module:function's form, per query or batch (default: detected)")
    parser.add_argument("--case-seconds", type=float, default=DEFAULT_CASE_SECONDS, metavar="S",
                        help=f"a module:function's time limit per query (default: {DEFAULT_CASE_SECONDS:g}; 0: "
                             "none); past it the run stops with one error line naming the query (a peer's "
                             "measure has no limit: its first call may compile)")
    output = parser.add_argument_group("output")
    output.add_argument("--format", choices=formats_of("agree"), default="text", help="report format (default: text)")
    output.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    parser.set_defaults(command=run, parser=parser)


def _check(args: argparse.Namespace) -> dict[str, str]:
    """Settings out of range: one error line each, before any work; the conventions pinned."""
    from axiometer.agreement.conventions import parse_conventions

    if args.queries < 1:
        raise AxiometerError(f"--queries must be at least 1, got {args.queries}")
    if not math.isfinite(args.tolerance) or args.tolerance < 0:
        raise AxiometerError(f"--tolerance must be a finite number, 0 or more, got {args.tolerance:g}")
    if not math.isfinite(args.case_seconds) or args.case_seconds < 0:
        raise AxiometerError(f"--case-seconds must be a finite number of seconds, 0 or more, got {args.case_seconds:g}")
    return parse_conventions(args.convention)


def run(args: argparse.Namespace) -> int:
    """Compare the implementation with the reference and write the report; returns the exit status."""
    conventions = _check(args)
    # Imported here: the engine loads hypothesis, which argument errors need not wait for.
    from axiometer.agreement.agree import agree, reference_metric
    from axiometer.reports.agreement import format_agreement

    reference_metric(args.spec)  # a SPEC that is no reference fails before IMPL is imported
    result = agree(args.implementation, args.spec, queries=args.queries, seed=args.seed,
                   tolerance=args.tolerance, conventions=conventions or None, form=args.form,
                   case_seconds=args.case_seconds or None)
    write(format_agreement(result, args.format, width=text_width(args)), args.output)
    return 0 if result.ok else EXIT_DIFFERS
