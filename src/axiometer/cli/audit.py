"""``axiometer audit``: every installed peer measure that corresponds to a built-in, against the reference."""

from __future__ import annotations

import argparse
import shlex
import sys

from axiometer.cli.agree import DEFAULT_QUERIES
from axiometer.cli.output import text_width, write
from axiometer.core import AxiometerError
from axiometer.progress import Progress
from axiometer.reports.render import formats_of

#: The peers the audit knows (:data:`axiometer.agreement.audit.PROVIDERS`, without loading hypothesis).
PROVIDERS = ("ir_measures", "ranx")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Declare ``audit`` and its options."""
    parser = subparsers.add_parser(
        "audit", help="run 'agree' on every installed peer measure that corresponds to a built-in",
        description="Audit the peers: each measure of ir_measures (through every provider installed: "
                    "pytrec_eval, msmarco, ranx, ...) and of ranx that corresponds to a built-in metric is "
                    "compared with the built-in as 'agree' compares an implementation. The report has one "
                    "row per measure (verdict, minimal case, failing properties) and a write-up of each "
                    "that differs, fails a property or cannot be run; its Markdown is docs/peer-audit.md. "
                    "Exit status 0 when the audit ran (a peer's disagreement is a finding, not a failure), "
                    "2 for bad input. Each measure takes seconds; progress is shown on stderr.")
    parser.add_argument("--provider", nargs="+", action="extend", choices=PROVIDERS, default=[], metavar="P",
                        help=f"audit only these peers ({', '.join(PROVIDERS)}; default: every installed one)")
    parser.add_argument("--metric", nargs="+", action="extend", default=[], metavar="SPEC",
                        help="audit only the measures that correspond to these built-ins (RR, P@5, nDCG@10, ...)")
    parser.add_argument("--queries", type=int, default=DEFAULT_QUERIES, metavar="N",
                        help=f"queries to generate per measure (default: {DEFAULT_QUERIES})")
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the generated queries (default: 0)")
    output = parser.add_argument_group("output")
    output.add_argument("--format", choices=formats_of("audit"), default="text", help="report format (default: text)")
    output.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    parser.set_defaults(command=run, parser=parser)


def regenerate(args: argparse.Namespace) -> str:
    """The command line that writes this audit's page: the options that chose its rows and queries, then
    ``--format markdown -o docs/peer-audit.md`` (or the file given, when it is Markdown)."""
    words = ["axiometer", "audit"]
    if args.provider:
        words += ["--provider", *args.provider]
    if args.metric:
        words += ["--metric", *args.metric]
    if args.queries != DEFAULT_QUERIES:
        words += ["--queries", str(args.queries)]
    if args.seed:
        words += ["--seed", str(args.seed)]
    target = args.output if args.output and args.format == "markdown" else "docs/peer-audit.md"
    return shlex.join([*words, "--format", "markdown", "-o", target])


def _builtins(specs: list[str]) -> list[str]:
    """The built-ins of the audit's correspondences that ``specs`` name (``rr`` and ``RR`` alike; ``RBP``
    as the audit spells it); one error line for a metric no peer measure corresponds to."""
    from axiometer.agreement.agree import reference_metric
    from axiometer.agreement.audit import CORRESPONDENCES

    covered = {reference_metric(b).name: b for pairs in CORRESPONDENCES.values() for _, b in pairs}
    chosen = []
    for spec in specs:
        name = reference_metric(spec).name
        if name not in covered:
            raise AxiometerError(f"--metric {spec}: no peer measure corresponds to {name}; the audit covers "
                                 + ", ".join(covered.values()))
        chosen.append(covered[name])
    return chosen


def run(args: argparse.Namespace) -> int:
    """Audit the peers and write the report; returns the exit status (0: it ran)."""
    if args.queries < 1:
        raise AxiometerError(f"--queries must be at least 1, got {args.queries}")
    # Imported here: the engine loads hypothesis, which argument errors need not wait for.
    from axiometer.agreement.audit import audit, audit_rows
    from axiometer.reports.agreement import format_audit

    providers, metrics = args.provider or None, _builtins(args.metric) or None
    if not audit_rows(providers, metrics):
        wanted = f" that corresponds to {', '.join(metrics)}" if metrics else ""
        raise AxiometerError(f"nothing to audit: no installed peer ({', '.join(args.provider or PROVIDERS)}) has "
                             f"a measure{wanted}; pip install 'axiometer[test]' installs the peers")
    with Progress(sys.stderr) as progress:
        result = audit(providers, metrics, queries=args.queries, seed=args.seed,
                       progress=lambda done, total, row: progress.update("auditing", done, total))
    write(format_audit(result, args.format, width=text_width(args), command=regenerate(args)), args.output)
    return 0
