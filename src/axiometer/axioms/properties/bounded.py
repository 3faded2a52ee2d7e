"""Property Bounded: the ranges the papers state hold.

Claims, per metric (:meth:`~axiometer.metrics.relative.RelativeMetric.stated_bounds`),
e.g. Türkmen et al., ECIR 2023, section 2: rarity ``R(d) in [0, (S-1)/S]``;
``P@K_rare in [0, 2)`` for ``alpha <= 1``, with the stated maximum
``2(S-1)/S`` at ``alpha = 1``; section 5: ``R'(d)`` and ``P'@K`` in ``[0, 1]``;
normalised NRG in ``[0, 1]`` (Clarke et al. 2024, Eq. 1). For quantity
``"score"`` the metric's value must lie in the range at ``S = |context| + 1``
systems; for ``"rarity"`` every value of ``rarities()`` must. One search per
claim; the small scope starts at the extremes (all-relevant rankings filling
the cutoff, retrieved by nobody else or by everybody). A value outside the
range is a counterexample to the paper, decided exactly.

Search coverage (tested in tests/generators/test_search_coverage.py with a cutoff of 3, random search and
small scope): the extremes first, all-relevant rankings of ``k`` and ``k + 1`` documents retrieved
by nobody else and by every other system, for 1..4 systems; then the empty context; an empty
prior ranking; the evaluated ranking itself as a prior; a document only another system retrieves;
the empty evaluated ranking; a relevant document the others do not retrieve; three other systems;
a prior longer than the cutoff.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from typing import Any

from axiometer.results import Outcome
from axiometer.metrics.decide import evaluate
from axiometer.axioms.properties.base import Property, counterexample, decide_sign
from axiometer.generators.case import Case, Scope, ScopeItem
from axiometer.generators.relative import extreme_small_scope, relative_cases, relative_small_scope
from axiometer.metrics import Metric, is_exact_capable
from axiometer.metrics.arithmetic import EXACT

__all__ = ["BOUNDED", "range_text"]


def range_text(bound: Any, S: int, symbol: str = "Q") -> str:
    """The claim's range at ``S`` systems, e.g. ``0 <= Q <= 1``."""
    left = "" if bound.low is None else f"{bound.low(S)} {'<' if bound.low_open else '<='} "
    right = "" if bound.high is None else f" {'<' if bound.high_open else '<='} {bound.high(S)}"
    return f"{left}{symbol}{right}"


def _applies(metric: Metric) -> str | None:
    return None if metric.stated_bounds() else "the metric states no bounds"


def _values(metric: Any, bound: Any, case: Case) -> list[tuple[str | None, float, Any]]:
    """(document or None, float value, exact-value thunk or None) for each value the claim bounds.

    ``metric``: a :class:`~axiometer.metrics.Metric` that, for a rarity bound, also has
    ``rarities`` (a rareness metric, or a metric author's object adapted), hence ``Any``."""
    if bound.quantity == "rarity":
        rarities = metric.rarities(list(case.a), case.topic, case.context, EXACT)
        return [(doc, float(value), lambda value=value: value) for doc, value in rarities.items()]
    q = evaluate(metric, case.a, case.topic, case.context)
    exact = (lambda: metric.exact(case.a, case.topic, case.context)) if is_exact_capable(metric) else None
    return [(None, q, exact)]


def _judge(metric: Metric, bound: Any, case: Case, tolerance: float) -> Outcome:
    assert case.context is not None  # the relative cases always carry the other systems
    S = len(case.context) + 1
    for doc, value, exact_value in _values(metric, bound, case):
        for side, limit_of, is_open in (("low", bound.low, bound.low_open), ("high", bound.high, bound.high_open)):
            if limit_of is None:
                continue
            limit = limit_of(S)
            thunk = (lambda e=exact_value, b=limit: e() - b) if exact_value is not None else None
            sign, exact = decide_sign(float(limit), value, thunk, tolerance)  # sign of value - limit
            if side == "high":
                sign = -sign
            if sign > 0 or (sign == 0 and not is_open):
                continue
            symbol = "Q" if doc is None else f"R({doc})"
            extra: tuple[tuple[str, str], ...] = (("S", str(S)), ("claim", bound.claim), ("side", side))
            if doc is not None:
                extra += (("document", doc),)
            return Outcome(False, counterexample(
                case, value, value, f"{range_text(bound, S, symbol)} (S = {S}): {bound.claim}",
                exact=exact, note=f"{case.note}; {symbol} = {value:.6g} breaks the stated "
                                  f"{'minimum' if side == 'low' else 'maximum'} {limit}",
                extra=extra))
    return Outcome(True)


def _small_scope(scope: Scope) -> Iterator[ScopeItem]:
    """The extremes, then any binary ranking in the small contexts (marked by length: the marks
    stay true, every extreme case comes before them)."""
    return chain(extreme_small_scope(scope), relative_small_scope(scope))


BOUNDED = Property(
    id="Bounded",
    name="Stated bounds",
    wording="The metric (or its rarity) stays in the range its paper states, e.g. R(d) in "
            "[0, (S-1)/S], P@K_rare in [0, 2) with maximum 2(S-1)/S, P'@K and normalised NRG in [0, 1].",
    source="Türkmen et al., ECIR 2023, sections 2 and 5; Clarke et al. (NRG), 2024, Eq. 1",
    form="unary",
    applies=_applies,
    judge=_judge,
    strategy=relative_cases,
    small_scope=_small_scope,
    claims=lambda metric: tuple(metric.stated_bounds()),
    describe=lambda bound: bound.claim,
    relation="low <= Q <= high",
    meaning="A metric that violates it leaves the range its paper states, so its scores cannot "
            "be read on that scale.",
    expectation="should score within the range the metric's paper states",
    conditions=("relative metric", "states bounds"),
    construction="one ranking a in a context of 0 to 3 other systems, the extremes first: "
                 "all-relevant rankings filling the cutoff, retrieved by nobody else or by "
                 "everybody.",
    example_metrics=("RareAP(alpha=0.5)@10", "RareP(alpha=0.5)@10"),
)
