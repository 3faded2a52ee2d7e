"""``axiometer table``: check metrics against the constraints, the SIGIR 2018 table."""

from __future__ import annotations

import argparse

from axiometer.cli.options import EXIT_INTERRUPTED, add_run_options, report_layout, run_checks, write

#: The published tables ``--compare`` knows (see :mod:`axiometer.axioms.published`).
COMPARE_TABLES = ("amigo2018",)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Declare ``table`` and its options."""
    parser = subparsers.add_parser(
        "table", help="check metrics against the constraints: the SIGIR 2018 table",
        description="Check every metric against every constraint over its parameter grid and "
                    "print the matrix with its legend (and, with --compare, every difference from the "
                    "published table); --details or -o FILE adds every counterexample, witness and "
                    "explanation. Without --metrics, the "
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
    add_run_options(parser)
    from_reports = ("text", "markdown", "latex", "html", "json")  # reports.table.REPORT_FORMATS
    parser.add_argument("--format", choices=from_reports, default="text",
                        help="report format (default: text)")
    parser.add_argument("--compare", choices=COMPARE_TABLES, default=None,
                        help="compare with a published table and explain every difference")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Check the table and write it; returns the exit status (130 when interrupted)."""
    from axiometer.axioms.published import compare_with_published
    from axiometer.reports.table import format_table

    if args.compare and args.family != "sigir2018":
        args.parser.error(f"--compare {args.compare} compares the sigir2018 family's table")
    # Built-in specs, module:attr references and ir_measures:MEASURE, as `check` takes them:
    # the runner resolves each.
    result = run_checks(args, args.metrics)
    comparison = compare_with_published(result, args.compare) if args.compare else None
    details, width = report_layout(args)
    write(format_table(result, args.format, comparison, details=details, width=width), args.output)
    return EXIT_INTERRUPTED if result.interrupted else 0
