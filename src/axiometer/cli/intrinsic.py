"""``axiometer intrinsic``: classify a metric on a domain (Giner's pseudometric, metric, interval scale)."""

from __future__ import annotations

import argparse

from axiometer.cli.output import text_width, write
from axiometer.core import AxiometerError

#: The comparison tables ``intrinsic --table`` knows (see ``axiometer.intrinsic.giner``).
INTRINSIC_TABLES = ("giner",)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Declare ``intrinsic`` and its options."""
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
    from axiometer.reports.render import formats_of  # the report formats, listed once

    single = formats_of("intrinsic")  # a table (--table) may have more: LaTeX
    parser.add_argument("--format", choices=(*single, *(f for f in formats_of("giner") if f not in single)),
                        default="text", help="report format (default: text; latex: --table only)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    parser.set_defaults(command=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Classify the metric on the domain, or print ``--table``; returns the exit status."""
    if args.table:
        if args.spec or args.domain or args.param:
            raise AxiometerError("--table prints a whole table; do not give SPEC, --domain or --param with it")
        from axiometer.intrinsic.giner import run_giner
        from axiometer.reports.giner import format_giner

        write(format_giner(run_giner(), args.format, width=text_width(args)), args.output)
        return 0
    if not args.spec or not args.domain:
        raise AxiometerError("give SPEC and --domain DOMAIN (or --table giner)")
    from axiometer.reports.render import formats_of

    if args.format not in formats_of("intrinsic"):
        raise AxiometerError(f"--format {args.format} is for --table; one metric's report is "
                             + ", ".join(formats_of("intrinsic")))
    if args.tolerance is not None and not args.tolerance > 0:
        raise AxiometerError(f"--tolerance must be positive, got {args.tolerance:g}")
    from axiometer.core import InputError
    from axiometer.generators.domain_spec import parse_domain
    from axiometer.generators.domains import RankingsDomain, SetsDomain, UsersDomain
    from axiometer.intrinsic.classify import classify
    from axiometer.metrics.resolve import resolve
    from axiometer.metrics.set_based import ContingencyMeasure, UserMeasure
    from axiometer.reports.intrinsic import format_intrinsic, format_parametric

    # A ranking metric or a set measure: a built-in spec, 'module:attr' or 'ir_measures:MEASURE'.
    metric = resolve(args.spec).metric
    domain = parse_domain(args.domain)
    # Each kind of measure scores one kind of output: contingency counts, a user's
    # known/unknown relevant documents, or rankings.
    needed: type[SetsDomain | UsersDomain | RankingsDomain]
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
        from axiometer.intrinsic.parametric import analyse

        parametric = analyse(metric, args.param, domain)
    if args.format == "html":  # one page: the classification, its picture, the parametric analysis
        from axiometer.reports.intrinsic import intrinsic_html, parametric_sentences

        report = intrinsic_html(result, parametric, parametric_sentences(parametric) if parametric else ())
    elif args.format == "json":
        import dataclasses
        import json

        data = dataclasses.asdict(result)
        if parametric is not None:
            data["parametric"] = json.loads(format_parametric(parametric, "json"))
        report = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    else:
        report = format_intrinsic(result, args.format, width=text_width(args))
        if parametric is not None:
            report += "\n" + format_parametric(parametric, args.format, width=text_width(args))
    write(report, args.output)
    return 0
