"""``axiometer metrics [NAME]``: every metric family, or one in full.

Without NAME, every registered family (the metrics ``score``, ``check`` and
``table`` take, and the set-based measures ``intrinsic`` takes), grouped by
kind, each with its spec syntax, parameters (defaults and declared ranges)
and source. With NAME (a family's name in any case, ``ndcg``, or a spec,
``'RBP(p=0.5)@10'``, whose family is shown), the family's formula line,
cutoff rule, what it reads, every parameter with its paper's grid, the
docstring's notes and the source. An unknown name is one error line with a
suggestion. :mod:`axiometer.reports.metric_list` reads the registry and
formats; this module only wires.
"""

from __future__ import annotations

import argparse

from axiometer.cli.output import text_width, write

__all__ = ["add_parser", "run", "WIDEST"]

#: The text is laid out for the terminal's width, but no wider than this.
WIDEST = 120


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Declare ``metrics`` and its options."""
    parser = subparsers.add_parser(
        "metrics", help="every metric family with its spec syntax, parameters and source; one in full",
        description="Without NAME: every metric family, grouped by kind (single-aspect, intent-aware, "
                    "novelty/diversity, relative, set-based), with its spec syntax (whether a cutoff "
                    "@k may follow), its parameters with defaults and ranges, and its source. With "
                    "NAME (any case, e.g. ndcg; a spec such as 'RBP(p=0.5)' shows its family): the "
                    "family's formula, cutoff, parameters with the paper's grids, notes and source.")
    parser.add_argument("name", nargs="?", default=None, metavar="NAME",
                        help="a metric family (e.g. nDCG, rbp, alpha_nDCG) or a spec string")
    parser.add_argument("--format", choices=("text", "markdown", "json"), default="text",
                        help="report format (default: text)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Print the list, or one family's page; returns the exit status."""
    from axiometer.metrics.registry import read_spec
    from axiometer.reports.metric_list import family_entry, format_family, format_metric_list, metric_list

    width = max(60, min(WIDEST, text_width(args)))
    if args.name is None:
        write(format_metric_list(metric_list(), args.format, width), args.output)
    else:
        write(format_family(family_entry(read_spec(args.name).family), args.format, width), args.output)
    return 0
