"""``axiometer compare``: every run against every other, with significance tests and intervals."""

from __future__ import annotations

import argparse
import sys

from axiometer.cli.campaign_options import add_campaign_options, campaign_scores

from axiometer.cli.output import text_width, write
from axiometer.core import AxiometerError
from axiometer.progress import Progress
from axiometer.reports.render import formats_of

#: The metric compared when no --metric is given.
DEFAULT_METRIC = "nDCG@10"

_TESTS = ("randomization", "t", "wilcoxon")  # axiometer.significance.TESTS, without loading numpy
_FORMATS = formats_of("compare")  # the report formats, listed once (loads no numpy)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Declare ``compare`` and its options."""
    parser = subparsers.add_parser(
        "compare", help="compare runs: means with bootstrap intervals, and significance tests for every pair",
        description="Score the runs (as 'score' does: a topic missing from a run scores 0) and compare "
                    "every pair of runs on each metric with Fisher's randomization test, the paired "
                    "t-test and the Wilcoxon signed-rank test (two-sided), with Holm-Bonferroni across "
                    "the pairs of each metric and Cohen's d_z; each run's mean gets a bootstrap "
                    "percentile interval. The table marks each mean with the runs it is significantly "
                    f"better than, by the --test chosen. Without --metric: {DEFAULT_METRIC}.")
    add_campaign_options(parser, "compare the runs of the bundled example (3 TREC 2014 Web topics, 3 runs)")
    tests = parser.add_argument_group("tests")
    tests.add_argument("--test", choices=_TESTS, default="randomization",
                       help="the test whose p-values mark the table (default: randomization; the "
                            "pairs table and JSON hold all three)")
    tests.add_argument("--permutations", type=int, default=10_000, metavar="N",
                       help="sign patterns drawn by the randomization test (default: 10000); when the "
                            "T topics have no more than N patterns (2^T <= N), all are enumerated and "
                            "the p-value is exact")
    tests.add_argument("--alpha", type=float, default=0.05, metavar="A",
                       help="significance level: a pair is significant when its p-value is at most A "
                            "(default: 0.05)")
    tests.add_argument("--correction", choices=("holm", "none"), default="holm",
                       help="adjust the p-values across the pairs of each metric (default: holm)")
    tests.add_argument("--resamples", type=int, default=10_000, metavar="N",
                       help="bootstrap resamples of the topics for each interval (default: 10000)")
    tests.add_argument("--seed", type=int, default=0, metavar="N",
                       help="seed of the permutations and the resamples (default: 0)")
    output = parser.add_argument_group("output")
    output.add_argument("--format", choices=_FORMATS, default="text", help="report format (default: text)")
    output.add_argument("--digits", type=int, default=4, metavar="N",
                        help="decimals of the means and intervals (default: 4; JSON keeps every digit)")
    output.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    parser.set_defaults(command=run, parser=parser)


def _check(args: argparse.Namespace) -> None:
    """Settings out of range: one error line each."""
    if args.permutations < 1:
        raise AxiometerError(f"--permutations must be at least 1, got {args.permutations}")
    if args.resamples < 1:
        raise AxiometerError(f"--resamples must be at least 1, got {args.resamples}")
    if not 0 < args.alpha < 1:
        raise AxiometerError(f"--alpha must lie strictly between 0 and 1, got {args.alpha:g}")
    if not 0 <= args.digits <= 12:
        raise AxiometerError(f"--digits must lie between 0 and 12, got {args.digits}")


def run(args: argparse.Namespace) -> int:
    """Score the campaign, compare its runs and write the report; returns the exit status."""
    _check(args)
    specs = args.metric or [DEFAULT_METRIC]
    result = campaign_scores(args, specs, per_topic=True)
    if len(result.runs) < 2:
        raise AxiometerError(f"compare needs at least 2 runs, got {len(result.runs)} ({', '.join(result.runs)})")
    if len(result.topics) < 2:
        raise AxiometerError(f"compare needs at least 2 qrels topics (the topics are the paired samples), "
                             f"got {len(result.topics)}")
    # Imported here: significance loads numpy and scipy, which argument errors need not wait for.
    from axiometer.reports.compare import format_comparison
    from axiometer.significance import compare

    with Progress(sys.stderr) as progress:
        comparison = compare(result, test=args.test, alpha=args.alpha, correction=args.correction,
                             permutations=args.permutations, resamples=args.resamples, seed=args.seed,
                             progress=progress.update)
    write(format_comparison(comparison, args.format, digits=args.digits, width=text_width(args)), args.output)
    return 0
