"""``axiometer axioms [ID]``: what each constraint and property means, with a worked example.

Without an id, every axiom's id, name and plain meaning. With one (any case:
``closeth``), the full definition and a worked example: one concrete case,
scored by the built-in metric that satisfies the axiom and the one that
violates it, as the axiom declares them (``example_metrics``). The case is
the first one of the axiom's exhaustive small scope on which the two metrics
disagree — for DeepTh and CloseTh, the first grid point ``n`` with
``rc = 1/10``; for Sat, the largest ``rmax`` candidate that has one. Each
metric's relation on the case is decided exactly (:mod:`axiometer.metrics.decide`).
The text comes from :mod:`axiometer.reports.axioms`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from axiometer.cli.output import write
from axiometer.core import InputError
from axiometer.reports.axioms import WIDTH, AxiomPage, ExampleScore, WorkedExample, axiom_page, axioms_list
from axiometer.reports.numbers import terminal_width

if TYPE_CHECKING:
    from axiometer.axioms import Constraint, Property
    from axiometer.core import Context, Topic
    from axiometer.generators.case import Case
    from axiometer.metrics.base import Metric

# The axioms, metrics and generators (numpy, sympy, hypothesis) are imported where used, so that
# 'axiometer --help' and the other commands do not pay for them.

__all__ = ["add_parser", "run", "page", "worked_example", "EXAMPLE_RC", "MAX_CASES"]

#: The threshold constraints' worked example uses this rc (the largest tried, definitions §3.5).
EXAMPLE_RC = Fraction(1, 10)

#: At most this many small-scope cases are tried for a case on which the example metrics disagree.
MAX_CASES = 5000


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Declare ``axioms`` and its options."""
    parser = subparsers.add_parser(
        "axioms", help="what each constraint and property means; one in full with a worked example",
        description="Without ID: every constraint and property with its name and what a user loses "
                    "when a metric violates it. With ID (e.g. CloseTh, any case): its full definition "
                    "(relation, conditions, how a case is built, cutoff mode, source) and a worked "
                    "example scored by a built-in metric that satisfies it and one that violates it.")
    parser.add_argument("id", nargs="?", default=None, metavar="ID",
                        help="a constraint or property id, e.g. Pri, CloseTh, PriorMono")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="report format (default: text)")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    parser.set_defaults(command=run, parser=parser)


def _width(output: str | None) -> int:
    """The terminal's width when writing to one (at most :data:`WIDTH`), else :data:`WIDTH`."""
    if output is None and sys.stdout.isatty():
        return max(40, min(WIDTH, terminal_width()))
    return WIDTH


def run(args: argparse.Namespace) -> int:
    """Print the list, or one axiom's page; returns the exit status."""
    from axiometer.axioms import get, oracles, unknown

    width = _width(args.output)
    if args.id is None:
        write(axioms_list([page(o, example=False) for o in oracles()], args.format, width), args.output)
        return 0
    try:
        oracle = get(args.id)
    except KeyError:
        raise InputError(unknown(args.id, "axiom")) from None
    write(axiom_page(page(oracle), args.format, width), args.output)
    return 0


def page(oracle: Constraint | Property, example: bool = True) -> AxiomPage:
    """Everything the page says about ``oracle``; ``example=False`` skips the worked example."""
    from axiometer.axioms.oracle import CONDITIONS

    info = oracle.info()
    return AxiomPage(
        info=info, group=oracle.group, form=oracle.form, wording=oracle.wording,
        construction=getattr(oracle, "construction", "") or "not described",
        conditions=tuple((name, CONDITIONS.get(name, "")) for name in info.conditions),
        default_mode=oracle.default_mode, example=worked_example(oracle) if example else None)


# -- the worked example ----------------------------------------------------------------------------------

def _exact(metric: Metric, ranking: Any, topic: Topic, context: Context | None) -> Any:
    """The metric's exact value (a float for a metric without exact arithmetic; ``None``: undefined)."""
    from axiometer.metrics import is_exact_capable
    from axiometer.metrics.base import UndefinedScore

    try:
        if is_exact_capable(metric):
            return metric.exact(ranking, topic, context)
        return metric.score(ranking, topic, context)
    except UndefinedScore:
        return None


def _observed(sign: int, a_first: bool) -> str:
    """How ``Q(b)`` compares with ``Q(a)`` given the sign of ``Q(b) - Q(a)``, written as the relation is."""
    if a_first:
        return {1: "Q(a) < Q(b)", 0: "Q(a) = Q(b)", -1: "Q(a) > Q(b)"}[sign]
    return {1: "Q(b) > Q(a)", 0: "Q(b) = Q(a)", -1: "Q(b) < Q(a)"}[sign]


def _pair_score(spec: str, verdict: str, metric: Metric, case: Case, required: str,
                holds: Callable[[int], bool]) -> ExampleScore:
    """A metric on a two-ranking case: ``Q(a)``, ``Q(b)``, and ``holds(sign of Q(b) - Q(a))``."""
    from axiometer.metrics.decide import DEFAULT_TOLERANCE, compare

    comparison = compare(metric, case.topic, case.a, case.b, DEFAULT_TOLERANCE, case.context, case.context_of_b)
    values = (("Q(a)", _exact(metric, case.a, case.topic, case.context)),
              ("Q(b)", _exact(metric, case.b, case.topic, case.context_of_b)))
    return ExampleScore(spec, verdict, values, required, bool(holds(comparison.sign)),
                        _observed(comparison.sign, required.startswith("Q(a)")))


def _unary_score(prop: Property, spec: str, verdict: str, metric: Metric, case: Case) -> ExampleScore:
    """A metric on a unary property's case: its score of ``a`` and each claim judged (Rev, Bounded, ...)."""
    from axiometer.axioms.properties.base import relative_window
    from axiometer.axioms.properties.bounded import range_text
    from axiometer.axioms.properties.unique import unique_contributions
    from axiometer.core import Context
    from axiometer.metrics.decide import DEFAULT_TOLERANCE

    values: list[tuple[str, Any]] = [("Q(a)", _exact(metric, case.a, case.topic, case.context))]
    assert case.context is not None  # a relative property's case has its context of other systems
    failed = None
    claims = prop.claims(metric)
    for claim in claims:
        outcome = prop.judge(metric, claim, case, DEFAULT_TOLERANCE)
        if hasattr(claim, "base") and hasattr(claim, "metric"):  # a reversion: both metrics' values
            context = Context() if claim.context == "empty" else case.context
            values += [(f"{claim.metric.name}(a)", _exact(claim.metric, case.a, case.topic, context)),
                       (f"{claim.base.name}(a)", _exact(claim.base, case.a, case.topic, None))]
        if not outcome.holds and failed is None:
            failed = outcome.counterexample
    if prop.id == "Unique":
        count = unique_contributions(tuple(case.a), case.topic, case.context, relative_window(metric))
        values.append(("unique relevant contributions", count))
    if failed is not None:
        return ExampleScore(spec, verdict, tuple(values), failed.relation, False)
    if prop.id == "Bounded":
        systems = len(case.context) + 1
        required = "; ".join(range_text(b, systems, "Q" if b.quantity == "score" else "R(d)")
                             + f" (S = {systems})" for b in claims)
    else:
        required = "; ".join(prop.describe(c) for c in claims if prop.describe(c)) or prop.relation
    return ExampleScore(spec, verdict, tuple(values), required, True)


def _score(oracle: Constraint | Property, spec: str, verdict: str, metric: Metric, case: Case,
           required: str, holds: Callable[[int], bool] | None) -> ExampleScore:
    """A metric on a case: a property's own judge decides; a constraint's relation reads the sign."""
    from axiometer.axioms.properties.base import Property
    from axiometer.metrics.decide import DEFAULT_TOLERANCE

    if isinstance(oracle, Property) and oracle.form == "unary":
        return _unary_score(oracle, spec, verdict, metric, case)
    if isinstance(oracle, Property):
        outcome = oracle.judge(metric, None, case, DEFAULT_TOLERANCE)
        score = _pair_score(spec, verdict, metric, case, required, lambda sign: True)
        return ExampleScore(score.metric, verdict, score.values, required, outcome.holds, score.observed)
    assert holds is not None
    return _pair_score(spec, verdict, metric, case, required, holds)


def _cases(oracle: Constraint | Property,
           metrics: list[Metric]) -> Iterator[tuple[str, Case, str, Callable[[int], bool] | None]]:
    """``(title, case, relation required of it, holds(sign))`` for the candidate cases, in order
    (``holds`` is ``None`` for a property, whose own judge decides)."""
    from axiometer.axioms.constraints.saturation import RMAX_CANDIDATES
    from axiometer.axioms.constraints.threshold import ThresholdConstraint, threshold_grid
    from axiometer.axioms.properties.base import Property, relative_window
    from axiometer.generators.case import Case, Scope, cases_of

    if isinstance(oracle, ThresholdConstraint):
        rule = oracle.threshold
        assert rule is not None
        positive = rule.rule == "eventually positive"  # DeepTh: Q(a_n) > Q(b_n); CloseTh: Q(b_m) > Q(a_m)
        for n in threshold_grid(32):
            topic, a, b = rule.build(n, EXAMPLE_RC)
            yield (f"the pair at {rule.symbol} = {n} with rc = {EXAMPLE_RC}",
                   Case(topic, a, b, (), f"a = a_{n}: one relevant document, then {2 * n - 1} "
                                         f"non-relevant; b = b_{n}: {n} non-relevant, then {n} relevant"),
                   "Q(a) > Q(b)" if positive else "Q(b) > Q(a)",
                   (lambda sign: sign < 0) if positive else (lambda sign: sign > 0))
        return
    if isinstance(oracle, Property):
        windows = [w for w in (relative_window(m) for m in metrics) if w is not None]
        scope = Scope(max_position=min(windows) if windows else None)
        assert oracle.small_scope is not None
        for number, case in enumerate(cases_of(oracle.small_scope(scope)), 1):
            yield f"case {number} of the small scope", case, oracle.relation, None
        return
    cutoffs = [c for c in (m.cutoff for m in metrics) if c is not None]
    window = min(cutoffs) if cutoffs and oracle.default_mode == "window" else None
    scope = Scope(max_position=window)
    assert oracle.small_scope is not None
    relation = oracle.relation
    scopes = [(f" (rmax = {rmax})", scope.with_(rmax=rmax)) for rmax in RMAX_CANDIDATES] \
        if oracle.form == "saturation" else [("", scope)]
    for suffix, each in scopes:
        for number, case in enumerate(cases_of(oracle.small_scope(each)), 1):
            yield f"case {number} of the small scope{suffix}", case, relation.text, relation.holds


def worked_example(oracle: Constraint | Property) -> WorkedExample | None:
    """The first candidate case on which the satisfying metric's relation holds and the violating one's
    fails (with no violating metric: the first case the satisfying one scores above zero); ``None``
    when the axiom declares no example metrics or no case within :data:`MAX_CASES` separates them."""
    from axiometer.metrics.base import UndefinedScore
    from axiometer.metrics.resolve import resolve
    from axiometer.results import record_topic

    declared = getattr(oracle, "example_metrics", None)
    if not declared:
        return None
    chosen = [(spec, verdict, resolve(spec).ranking_metric())
              for spec, verdict in zip(declared, ("satisfies", "violates")) if spec is not None]
    for number, (title, case, required, holds) in enumerate(_cases(oracle, [m for _, _, m in chosen])):
        if number >= MAX_CASES:
            break
        try:
            scores = tuple(_score(oracle, spec, verdict, metric, case, required, holds)
                           for spec, verdict, metric in chosen)
        except UndefinedScore:
            continue  # a score undefined outside Finite: not this axiom's case
        first = scores[0]
        if not first.holds or any(s.holds for s in scores[1:]):
            continue
        if len(scores) == 1 and not any(v not in (0, None) for _, v in first.values):
            continue  # no violating metric: show a case where the score is not trivially 0
        unary = oracle.group == "relative" and oracle.form == "unary"
        return WorkedExample(
            title=f"{title}, on which {' and '.join(s.metric for s in scores)} "
                  f"{'disagree' if len(scores) > 1 else 'scores above zero'}",
            topic=record_topic(case.topic), a=tuple(case.a), b=tuple(case.b), note=case.note,
            scores=scores, unary=unary,
            contexts=_contexts(case, unary=unary),
            remark=_remark(oracle, declared))
    return None


def _contexts(case: Case, unary: bool) -> tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]:
    """The other systems' rankings, labelled by the ranking they score (none without a context)."""
    from axiometer.results import context_record

    if case.context is None:
        return ()
    first = context_record(case.context) or ()
    if unary:
        return (("for a", first),)
    if case.context_b is None:
        return (("for a and b", first),)
    return (("for a", first), ("for b", context_record(case.context_b) or ()))


def _remark(oracle: Constraint | Property, declared: tuple[str, str | None]) -> str:
    """What the reader should know besides the case: one grid point, one rmax, no violating built-in."""
    parts = []
    if oracle.form == "threshold":
        parts.append("This is one grid point: the verdict reads the sign of D along the whole grid, for "
                     "every rc (definitions §3.5).")
    if oracle.form == "saturation":
        parts.append("The verdict is a witness when some rmax candidate has no failing case "
                     "(definitions §3.6).")
    if oracle.group == "relative" and oracle.form == "existential":
        parts.append("One case that changes the score is a witness; the violating metric changes it "
                     "on no searched case.")
    if declared[1] is None:
        parts.append(f"No built-in metric violates {oracle.id}; the others are n/a (they make no "
                     "such claim).")
    return " ".join(parts)
