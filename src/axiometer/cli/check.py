"""``axiometer check``: check one metric against the constraints, with counterexamples."""

from __future__ import annotations

import argparse

from axiometer.cli.output import EXIT_INTERRUPTED, report_layout, write

from axiometer.cli.params import PARAM_HELP, param_options

from axiometer.cli.run_options import add_run_options, run_checks


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Declare ``check`` and its options."""
    parser = subparsers.add_parser(
        "check", help="check one metric against the constraints, with counterexamples",
        description="Check one metric against the constraints over its parameter grid and print "
                    "a verdict per constraint with what each constraint means; --details (or -o "
                    "FILE) adds each counterexample (topic, rankings a and b, both scores, the "
                    "relation) and witness. The metric is a built-in spec, your own function or "
                    "metric object as 'package.module:name' (imported from the current directory "
                    "first, like pytest), or 'ir_measures:MEASURE'.")
    parser.add_argument("spec", metavar="REF",
                        help="a metric spec such as 'RBP(p=0.5)' or 'nDCG@10'; 'mymodule:my_metric' "
                             "(a function f(ranking, topic[, context][, **params]) -> float or a "
                             "metric object); or 'ir_measures:nDCG@10'")
    parser.add_argument("--param", metavar="NAME=V|V1,V2,...|LOW..HIGH", action="append", default=[],
                        help=PARAM_HELP)
    parser.add_argument("--cutoff", type=int, metavar="K", default=None,
                        help="the metric's cutoff k (a function receives it as its k or cutoff "
                             "argument, or sees ranking[:k])")
    add_run_options(parser)
    from axiometer.reports.render import formats_of  # the report formats, listed once

    parser.add_argument("--format", choices=formats_of("check"), default="text",
                        help="report format (default: text)")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Check the metric and write the report; returns the exit status (130 when interrupted)."""
    from axiometer.metrics.resolve import resolve
    from axiometer.reports.table import format_check

    if args.cutoff is not None and args.cutoff < 1:
        args.parser.error("--cutoff must be a positive integer")
    resolved = resolve(args.spec, params=param_options(args.param), cutoff=args.cutoff)
    result = run_checks(args, [resolved])
    details, width = report_layout(args)
    write(format_check(result, args.format, details=details, width=width), args.output)
    return EXIT_INTERRUPTED if result.interrupted else 0
