"""``axiometer table``: check metrics against the constraints, the SIGIR 2018 table."""

from __future__ import annotations

import argparse

from axiometer.cli.output import EXIT_INTERRUPTED, report_layout, write

from axiometer.cli.params import PARAM_HELP, param_options

from axiometer.cli.run_options import add_run_options, run_checks

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
                    "parameter grid; with --rows relative, the relative (novelty) metrics against "
                    "the relative properties and the ten constraints (under generated contexts).")
    parser.add_argument("--rows", dest="row_set", choices=("sigir2018", "relative"), default="sigir2018",
                        help="which rows and columns by default: the SIGIR 2018 table, or the "
                             "relative metrics (NRG, rareness, Fujii's U) with the properties Rev, "
                             "Rarity, PriorSens, PriorMono, Bounded, Unique, Finite")
    # The option's former name, kept so that users' commands still run.
    parser.add_argument("--family", dest="row_set", choices=("sigir2018", "relative"), help=argparse.SUPPRESS)
    parser.add_argument("--metrics", metavar="SPEC", nargs="+", default=None,
                        help="metric specs such as 'P@10' 'RBP' 'RBP(p=0.5)' (parameters written in "
                             "a spec are fixed, the others vary over their grid), references "
                             "'mymodule:my_metric', or 'ir_measures:nDCG@10'")
    parser.add_argument("--param", metavar="[FAMILY.]NAME=V|V1,V2,...|LOW..HIGH", action="append",
                        default=[], help=PARAM_HELP + "; applies to every metric declaring NAME, or with "
                        "FAMILY.NAME (RBP.p) to that family's metrics only")
    add_run_options(parser)
    from axiometer.reports.render import formats_of  # the report formats, listed once

    parser.add_argument("--format", choices=formats_of("table"), default="text",
                        help="report format (default: text)")
    parser.add_argument("--compare", choices=COMPARE_TABLES, default=None,
                        help="compare with a published table and explain every difference")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Check the table and write it; returns the exit status (130 when interrupted)."""
    from axiometer.axioms.published import compare_with_published
    from axiometer.reports.table import format_table

    if args.compare and args.row_set != "sigir2018":
        args.parser.error(f"--compare {args.compare} compares the sigir2018 family's table")
    # Built-in specs, module:attr references and ir_measures:MEASURE, as `check` takes them:
    # the runner resolves each.
    result = run_checks(args, _with_params(args.metrics, param_options(args.param, qualified=True),
                                           args.row_set))
    comparison = compare_with_published(result, args.compare) if args.compare else None
    details, width = report_layout(args)
    write(format_table(result, args.format, comparison, details=details, width=width), args.output)
    return EXIT_INTERRUPTED if result.interrupted else 0


def _with_params(metrics: list[str] | None, params: dict[str, object], row_set: str) -> list | None:
    """The table's metrics, each resolved with the ``--param`` values it declares.

    ``NAME=...`` applies to every metric declaring ``NAME``, ``FAMILY.NAME=...``
    to that family only; a parameter no metric declares is an error.
    """
    from axiometer.core import InputError
    from axiometer.metrics.resolve import resolve, with_params
    from axiometer.runner.table import ROW_SETS

    if not params:
        return metrics
    specs = metrics if metrics is not None else [spec for _, spec in ROW_SETS[row_set]]
    used: set[str] = set()
    resolved = []
    for spec in specs:
        plain = resolve(spec)
        metric = plain.ranking_metric()
        declared = {p.name for p in metric.param_info}
        family_name = metric.family
        mine = {}
        for key, value in params.items():
            owner, _, name = key.rpartition(".")
            if name in declared and owner in ("", family_name) and name not in plain.fixed:
                mine[name] = value
                used.add(key)
        if mine:  # a built-in's spec is not read again: its parameters join the spec as read
            resolved.append(with_params(plain, mine) if plain.parsed is not None else resolve(spec, params=mine))
        else:
            resolved.append(plain)
    unused = [key for key in params if key not in used]
    if unused:
        raise InputError(f"no metric of the table declares parameter {unused[0]!r} (or it is fixed "
                         "in a spec)", source="--param")
    return resolved
