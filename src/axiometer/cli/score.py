"""``axiometer score``: score TREC runs against qrels with one or more metrics."""

from __future__ import annotations

import argparse
import textwrap

from axiometer.cli.campaign_options import add_campaign_options, campaign_scores

from axiometer.cli.output import write
from axiometer.reports.scores import SCORE_FORMATS, format_scores


#: ``score --help`` after the options: the input forms, as a user of ir_measures or trec_eval types them.
EXAMPLES = """\
inputs, in either form, or both (positional runs and measures add to --run and --metric):
  axiometer score qrels.txt a.run b.run 'nDCG@10 P@5 AP'     ir_measures' order
  axiometer score qrels.txt a.run nDCG@10 P@5 'RBP(p=0.9)'   measures as separate arguments
  axiometer score --qrels qrels.txt --run a.run --metric 'nDCG@10 P@5'
  axiometer score --qrels qrels.txt --runs runs/ --metric nDCG@10 --metric AP
The arguments after the last one naming an existing file are measures; the first file is
the qrels (then --qrels is an error), the others are runs. A measures string is split on
spaces outside parentheses: 'RBU(p=0.8, e=0.05)@10 NRG(base=nDCG@10)' is two metrics.
Give the positional arguments together (all before or all after the options), and not
right after --prior, which takes several values.

trec_eval's output:
  axiometer score qrels.txt a.run 'P@5 AP' --format trec --per-topic
prints 'measure<TAB>topic<TAB>value' lines as trec_eval -c does (trec_eval -q -c with
--per-topic): the name padded to 22 columns, 4 decimals, our spec names (nDCG@10, not
ndcg_cut_10); each run's block ends with its 'runid', 'num_q' and 'all' lines.
A run line with more than 6 columns is read from its first 6, as trec_eval reads it (a
note on stderr counts such lines).
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Declare ``score`` and its options."""
    parser = subparsers.add_parser(
        "score", help="score TREC runs against qrels with one or more metrics",
        description=textwrap.fill(
            "Score runs against qrels: the mean of each metric over the qrels topics (a topic "
            "missing from a run scores 0; run topics absent from the qrels are ignored). Without "
            "measures, the 20 metrics of the SIGIR 2018 table. Relative metrics (NRG, rareness, "
            "Fujii's U) are scored against other runs chosen by --prior, side by side with the "
            "others, with Kendall's tau-b between the orderings.", 79),
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_campaign_options(parser, "score the bundled example (3 TREC 2014 Web topics, 3 runs)")
    output = parser.add_argument_group("output")
    output.add_argument("--per-topic", action="store_true",
                        help="also list every topic's values (with --format trec: trec_eval's -q)")
    output.add_argument("--format", choices=SCORE_FORMATS, default="text",
                        help="report format (default: text; trec: trec_eval's lines)")
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
