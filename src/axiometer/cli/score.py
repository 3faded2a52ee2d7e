"""``axiometer score``: score TREC runs against qrels with one or more metrics."""

from __future__ import annotations

import argparse

from axiometer.cli.options import add_campaign_options, campaign_scores, write
from axiometer.reports.scores import REPORT_FORMATS, format_scores


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Declare ``score`` and its options."""
    parser = subparsers.add_parser(
        "score", help="score TREC runs against qrels with one or more metrics",
        description="Score runs against qrels: the mean of each metric over the qrels topics "
                    "(a topic missing from a run scores 0; run topics absent from the qrels "
                    "are ignored). Without --metric, the 20 metrics of the SIGIR 2018 table. "
                    "Relative metrics (NRG, rareness, Fujii's U) are scored against other runs "
                    "chosen by --prior, side by side with the others, with Kendall's tau-b "
                    "between the orderings.")
    add_campaign_options(parser, "score the bundled example (3 TREC 2014 Web topics, 3 runs)")
    output = parser.add_argument_group("output")
    output.add_argument("--per-topic", action="store_true", help="also list every topic's values")
    output.add_argument("--format", choices=REPORT_FORMATS, default="text",
                        help="report format (default: text)")
    output.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Score the campaign and write the report; returns the exit status."""
    # Imported here, not at the top: the metrics load numpy and sympy, which
    # `axiometer --help` and the other commands' argument errors need not wait for.
    from axiometer.metrics import TABLE_ROWS

    specs = args.metric or [spec for _, spec in TABLE_ROWS]
    result = campaign_scores(args, specs, args.per_topic)
    write(format_scores(result, args.format, per_topic=args.per_topic), args.output)
    return 0
