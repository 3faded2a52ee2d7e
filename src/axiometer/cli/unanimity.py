"""``axiometer unanimity``: Metric Unanimity, how often each metric agrees with unanimous improvements."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from axiometer.cli.campaign_options import add_campaign_options, campaign_limits, campaign_scores, prior_argument

from axiometer.cli.output import text_width, write
from axiometer.core import AxiometerError, InputError
from axiometer.progress import Progress
from axiometer.reports.render import formats_of

#: ``unanimity --example``: the generated campaign's shape (topics, runs, depth).
EXAMPLE_CAMPAIGN = (10, 12, 100)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Declare ``unanimity`` and its options."""
    parser = subparsers.add_parser(
        "unanimity", help="Metric Unanimity: how often each metric agrees with unanimous improvements",
        description="Metric Unanimity (Amigo et al., SIGIR 2018, section 6.1) of each metric against "
                    "all the others: MU(m) = log2(P(m_ij, M_ij) / (P(m_ij) P(M_ij))) over ordered "
                    "pairs of system outputs for the same topic, pooled over topics; ties in m count "
                    "1/2. Scores come from --qrels and runs (scored per topic like 'score'), from "
                    "--scores (score's JSON with --per-topic) or from --example (a generated campaign). "
                    "Without --metric, the 20 metrics of the SIGIR 2018 table.")
    topics, runs, depth = EXAMPLE_CAMPAIGN
    add_campaign_options(parser, f"a generated campaign ({topics} topics, {runs} runs, depth "
                                 f"{depth}; see --seed)")
    parser.add_argument("--scores", metavar="FILE", default=None,
                        help="per-topic scores: the JSON of 'axiometer score --per-topic --format json'")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="the generated campaign's seed (--example; default: 0)")
    output = parser.add_argument_group("output")
    output.add_argument("--format", choices=formats_of("unanimity"), default="text",
                        help="report format (default: text)")
    output.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    parser.set_defaults(command=run, parser=parser)


def _scores_file(path: str, metrics: Sequence[str]) -> dict[str, dict[str, list[float]]]:
    """``metric -> topic -> [value per run]`` from score's per-topic JSON."""
    import json
    import math

    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", source=path) from None
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", source=path) from None
    try:
        records = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"not JSON: {error.msg}", source=path, line=error.lineno) from None
    if not isinstance(records, list):
        raise InputError("expected the list of records written by 'axiometer score --format json'",
                         source=path)
    values: dict[tuple[str, str, str], float] = {}
    runs: dict[str, None] = {}
    topics: dict[str, None] = {}
    names: dict[str, None] = {}
    for number, record in enumerate(records, 1):
        if not isinstance(record, dict) or "topic" not in record:
            continue  # means, priors, Kendall's tau
        try:
            key = (str(record["run"]), str(record["topic"]), str(record["metric"]))
            value = record["value"]
        except KeyError as error:
            raise InputError(f"record {number} lacks {error.args[0]!r}", source=path) from None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise InputError(f"record {number}: value must be a finite number", source=path,
                             token=str(value))
        values[key] = float(value)
        runs[key[0]] = topics[key[1]] = names[key[2]] = None
    if not values:
        raise InputError("no per-topic records (write them with 'axiometer score --per-topic "
                         "--format json')", source=path)
    chosen = list(metrics) or list(names)
    table: dict[str, dict[str, list[float]]] = {}
    for metric in chosen:
        if metric not in names:
            raise InputError(f"no scores for metric {metric!r} (the file has: {', '.join(names)})",
                             source=path)
        table[metric] = {}
        for topic in topics:
            row = [values.get((run, topic, metric)) for run in runs]
            if None in row:
                raise InputError(f"no {metric} score of run {list(runs)[row.index(None)]!r} on topic "
                                 f"{topic!r}", source=path)
            table[metric][topic] = [v for v in row if v is not None]  # none is: checked above
    return table


def _example_scores(args: argparse.Namespace, specs: Sequence[str]):
    from axiometer.generators.campaign import generate_campaign
    from axiometer.grades import DEFAULT_MAPPING
    from axiometer.readers import Qrels, Run
    from axiometer.scoring import score_runs

    n_topics, n_runs, depth = EXAMPLE_CAMPAIGN
    campaign = generate_campaign(topics=n_topics, runs=n_runs, depth=depth, seed=args.seed,
                                 mapping=args.grades or DEFAULT_MAPPING)
    weights = {qid: dict(zip(t.aspects, t.weights)) for qid, t in campaign.topics.items()}
    qrels = Qrels(campaign.topics, campaign.grades, weights, "trec-diversity", "<generated>",
                  campaign.mapping)
    runs = [Run(tag, rankings, f"<generated {tag}>") for tag, rankings in campaign.runs.items()]
    prior = prior_argument(args.prior, Progress(sys.stderr))
    return score_runs(qrels, runs, specs, per_topic=True, prior=prior, best_by=args.best_by,
                      grades=args.grades, limits=campaign_limits(args))


def run(args: argparse.Namespace) -> int:
    """Compute each metric's unanimity and write the report; returns the exit status."""
    from axiometer.metrics import TABLE_ROWS
    from axiometer.reports.unanimity import format_unanimity
    from axiometer.unanimity import metric_unanimity

    if args.scores:
        if args.example or args.qrels or args.run or args.runs or args.prior:
            args.parser.error("--scores reads computed scores; do not give --example, --qrels, "
                              "--run, --runs or --prior with it")
        scores = _scores_file(args.scores, args.metric)
        source = args.scores
    else:
        specs = args.metric or [spec for _, spec in TABLE_ROWS]
        if args.example:
            if args.qrels or args.run or args.runs:
                args.parser.error("--example generates its campaign; do not give --qrels, --run or "
                                  "--runs with it")
            if args.groups:
                raise AxiometerError("--groups names run files; --example has generated runs")
            scores = _example_scores(args, specs)
            topics, runs, depth = EXAMPLE_CAMPAIGN
            source = (f"a generated campaign (seed {args.seed}: {topics} topics, {runs} runs, "
                      f"depth {depth})")
        else:
            scores = campaign_scores(args, specs, per_topic=True)
            source = f"{len(scores.runs)} runs on {len(scores.topics)} topics of {args.qrels}"
    write(format_unanimity(metric_unanimity(scores), args.format, source, width=text_width(args)),
          args.output)
    return 0
