"""``axiometer meta``: the seed papers' meta-evaluation of metrics on a campaign of runs."""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

from axiometer.cli.campaign_options import add_campaign_options, campaign_inputs, campaign_limits

from axiometer.cli.output import text_width, write
from axiometer.core import InputError

#: The most points a tau curve may have (a typo in a step should not score thousands of metrics).
MAX_CURVE_POINTS = 101

# The choices, written out so that building the parser does not import numpy and the metrics
# (`axiometer --help` stays fast); tests/cli/test_meta.py keeps them equal to axiometer.meta's.
TESTS = ("randomization", "t", "wilcoxon")
CORRECTIONS = ("none", "holm")
SCENARIOS = ("graded", "weights", "truncate", "truncate50")
DEFAULT_PERMUTATIONS = 10_000
DEFAULT_TRIALS = 1000


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Declare ``meta`` and its options."""
    from axiometer.reports.meta import REPORT_FORMATS

    parser = subparsers.add_parser(
        "meta", help="meta-evaluate metrics on a campaign: MU, discriminative power, stability, tau",
        description="The seed papers' meta-evaluation of metrics on a campaign of runs. Per metric: Metric "
                    "Unanimity against the other metrics (Amigo et al., SIGIR 2018, section 6.1), "
                    "discriminative power, the number and share of run pairs significantly different at 95% "
                    "and 99% (Turkmen et al. 2023, section 4.3), and stability under samples of half the "
                    "topics (section 4.4); between metrics, Kendall's tau-b and tau-AP of their run orderings; "
                    "optionally a tau-versus-parameter curve (Turkmen et al., Fig. 2) and the campaign changed "
                    "by SIGIR 2018's simulated scenarios (section 6.3) first. Without --metric, the 20 metrics "
                    "of the SIGIR 2018 table.")
    add_campaign_options(parser, "the bundled example (3 TREC 2014 Web topics, 3 runs)")
    analysis = parser.add_argument_group("analysis")
    analysis.add_argument("--test", choices=TESTS, default="randomization",
                          help="the paired test of discriminative power (default: randomization, Fisher's "
                               "randomization test)")
    analysis.add_argument("--permutations", type=int, default=DEFAULT_PERMUTATIONS, metavar="N",
                          help=f"random sign flips of the randomization test (default: {DEFAULT_PERMUTATIONS})")
    analysis.add_argument("--correction", choices=CORRECTIONS, default="none",
                          help="adjust each metric's p-values across its run pairs (default: none, each pair "
                               "tested on its own)")
    analysis.add_argument("--trials", type=int, default=DEFAULT_TRIALS, metavar="R",
                          help=f"stability's trials, each drawing half the topics (default: {DEFAULT_TRIALS})")
    analysis.add_argument("--seed", type=int, default=0, metavar="N",
                          help="seeds the scenarios, the randomization test and the topic samples (default: 0)")
    analysis.add_argument("--simulate", choices=SCENARIOS, action="append", default=[], metavar="SCENARIO",
                          help="change the campaign first (SIGIR 2018, section 6.3): graded (each relevance r "
                               "-> uniform in [0, r]), weights (random aspect weights summing to 1), truncate "
                               "(each ranking cut at a uniform length in 0..|d|), truncate50 (in 0..50); "
                               "repeat to apply several, in the order given")
    curve = parser.add_argument_group("tau curve")
    curve.add_argument("--tau-curve", nargs=2, metavar=("SPEC", "PARAM=VALUES"), default=None,
                       help="Kendall's tau between --against and SPEC with one parameter swept: "
                            "'RareP@100' alpha=0..1:0.1 (LOW..HIGH:STEP, both ends included) or "
                            "alpha=0,0.5,1 (a list)")
    curve.add_argument("--against", metavar="SPEC", default=None,
                       help="the curve's reference metric, e.g. P@100 (needed with --tau-curve)")
    curve.add_argument("--plot", metavar="FILE", default=None,
                       help="draw the tau curve to FILE (.png or .svg)")
    output = parser.add_argument_group("output")
    output.add_argument("--format", choices=REPORT_FORMATS, default="text", help="report format (default: text)")
    output.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    parser.set_defaults(command=run, parser=parser)


def _number(text: str, option: str) -> Fraction:
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise InputError(f"not a number: {text.strip()!r}", source=option, token=text) from None


def _plain(value: Fraction) -> int | float:
    """A swept value as the metric takes it: an int when whole (``alpha=0``), else the nearest float."""
    return int(value) if value.denominator == 1 else float(value)


def sweep_values(text: str) -> tuple[str, tuple[int | float, ...]]:
    """``alpha=0..1:0.1`` -> ``("alpha", (0, 0.1, ..., 1))``; ``alpha=0,0.5,1`` -> the list.

    Steps are exact (decimals are read as fractions), so ``0.3`` is 0.3, not
    0.30000000000000004, and the high end is reached when a whole number of steps lands on it.
    """
    option = "--tau-curve"
    name, equals, values = text.partition("=")
    name = name.strip()
    if not equals or not name.isidentifier() or not values.strip():
        raise InputError("expected PARAM=LOW..HIGH:STEP or PARAM=V1,V2,...", source=option, token=text)
    if ".." in values:
        span, colon, step_text = values.partition(":")
        low_text, _, high_text = span.partition("..")
        if not colon:
            raise InputError(f"a range needs a step: {name}=LOW..HIGH:STEP (e.g. {name}=0..1:0.1)",
                             source=option, token=text)
        low, high, step = (_number(t, option) for t in (low_text, high_text, step_text))
        if not low < high or not step > 0:
            raise InputError(f"the range of {name} needs LOW < HIGH and STEP > 0", source=option, token=text)
        count = int((high - low) / step) + 1
        if count > MAX_CURVE_POINTS:
            raise InputError(f"{count} points; a curve takes at most {MAX_CURVE_POINTS}", source=option, token=text)
        points = tuple(_plain(low + i * step) for i in range(count))
    else:
        points = tuple(_plain(_number(v, option)) for v in values.split(","))
        if len(points) > MAX_CURVE_POINTS:
            raise InputError(f"{len(points)} points; a curve takes at most {MAX_CURVE_POINTS}", source=option,
                             token=text)
    if len(set(points)) != len(points):
        raise InputError(f"a value of {name} is given twice", source=option, token=text)
    return name, points


def run(args: argparse.Namespace) -> int:
    """Meta-evaluate the metrics and write the report; returns the exit status."""
    from axiometer.meta import Sweep, meta_evaluate
    from axiometer.metrics import TABLE_ROWS
    from axiometer.progress import Progress
    from axiometer.reports.meta import format_meta

    if args.trials < 1:
        args.parser.error("--trials must be at least 1")
    if args.permutations < 1:
        args.parser.error("--permutations must be at least 1")
    if args.plot and not args.tau_curve:
        args.parser.error("--plot draws the tau curve: give --tau-curve SPEC PARAM=VALUES with it")
    if (args.tau_curve is None) != (args.against is None):
        args.parser.error("--tau-curve and --against go together (the curve's metric and its reference)")
    sweep = None
    if args.tau_curve:
        spec, values = args.tau_curve
        param, points = sweep_values(values)
        sweep = Sweep(spec, param, points, args.against)
    if args.plot:
        from axiometer.reports.plots import PICTURE_FORMATS

        if not args.plot.lower().endswith(PICTURE_FORMATS):
            raise InputError(f"the picture format is chosen by the suffix: {' or '.join(PICTURE_FORMATS)}",
                             source="--plot", token=args.plot)
    specs = args.metric or [spec for _, spec in TABLE_ROWS]
    campaign = campaign_inputs(args)
    qrels, runs, prior, groups, source = (campaign.qrels, campaign.runs, campaign.prior, campaign.groups,
                                          campaign.source)
    progress = Progress(sys.stderr)
    try:
        result = meta_evaluate(qrels, runs, specs, test=args.test, permutations=args.permutations,
                               correction=args.correction, trials=args.trials, seed=args.seed,
                               scenarios=args.simulate, sweep=sweep, prior=prior, groups=groups,
                               best_by=args.best_by, grades=args.grades, gmax=args.gmax,
                               limits=campaign_limits(args), progress=progress.update)
    finally:
        progress.close()
    if args.plot and result.curve is not None:
        from axiometer.reports.plots import save, tau_curve_figure

        save(tau_curve_figure(result.curve), args.plot)
    write(format_meta(result, args.format, source, width=text_width(args)), args.output)
    return 0
