"""Deciding ``Q(x)`` versus ``Q(y)`` without trusting rounding (definitions §5).

The float pass screens: a difference larger than :data:`SCREEN` (relative)
cannot come from float64 rounding of these formulas, so its sign is taken.
A smaller difference is re-decided exactly when the metric offers ``exact``
(``Fraction`` compared directly; a sympy expression evaluated to many digits
and, if still indistinguishable from 0, simplified to an exact zero). A
float-only metric's near-ties are decided with an explicit tolerance, which
the report states.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Sequence

import sympy

from axiometer.core import Context, Topic
from axiometer.metrics.base import Metric

__all__ = ["ScoreComparison", "compare", "decide_sign", "exact_sign", "evaluate", "SCREEN",
           "DEFAULT_TOLERANCE"]

#: Relative gap above which the float sign is trusted.
SCREEN = 1e-9
#: Ties within this (relative) gap count as equal for float-only metrics.
DEFAULT_TOLERANCE = 1e-9


@dataclass(frozen=True)
class ScoreComparison:
    """``sign`` of ``Q(y) - Q(x)``, both float scores, and whether an exact evaluation decided it."""

    sign: int
    qx: float
    qy: float
    exact: bool


def evaluate(metric: Metric, ranking: Sequence[str], topic: Topic, context: Context | None = None) -> float:
    """The metric's float score: a finite real number, which every metric's ``score`` checks
    itself, once (:func:`~axiometer.metrics.base.score_value`).

    A metric author's metric reaches here behind :mod:`axiometer.checking.guard`,
    which also checks determinism, mutation and time; a built-in is trusted.
    """
    return metric.score(ranking, topic, context) if context is not None else metric.score(ranking, topic)


def exact_sign(value: Any) -> int:
    """The sign of an exact value: a ``Fraction``/int, or a sympy expression."""
    if isinstance(value, (Fraction, int)):
        return (value > 0) - (value < 0)
    expr = sympy.sympify(value)
    if expr.is_Rational:  # sympy comparisons give sympy booleans, which do not subtract
        return int(expr.p > 0) - int(expr.p < 0)
    approx = sympy.N(expr, 60)
    if abs(approx) > sympy.Float("1e-45", 60):
        return 1 if approx > 0 else -1
    # Indistinguishable from zero at 60 digits: prove it exactly.
    if sympy.simplify(sympy.expand_log(expr, force=True)) == 0 or expr.equals(0):
        return 0
    approx = sympy.N(expr, 200)  # not provably zero: a very small but real difference
    return 0 if approx == 0 else (1 if approx > 0 else -1)


_SAME = object()


def compare(metric: Metric, topic: Topic, x: Sequence[str], y: Sequence[str],
            tolerance: float = DEFAULT_TOLERANCE, context: Context | None = None,
            context_y: Any = _SAME) -> ScoreComparison:
    """Decide the sign of ``Q(y) - Q(x)``; raises :class:`MetricError` if the metric misbehaves.

    A relative metric scores ``x`` in ``context`` and ``y`` in ``context_y``
    (default: the same context).
    """
    if context_y is _SAME:
        context_y = context
    qx = evaluate(metric, x, topic, context)
    qy = evaluate(metric, y, topic, context_y)
    exact_diff: Callable[[], Any] | None = None
    scorer = metric.exact
    if scorer is not None:
        def exact_diff() -> Any:
            return scorer(y, topic, context_y) - scorer(x, topic, context)
    sign, exact = decide_sign(qx, qy, exact_diff, tolerance)
    return ScoreComparison(sign, qx, qy, exact)


def decide_sign(qx: float, qy: float, exact_diff: Callable[[], Any] | None,
                tolerance: float = DEFAULT_TOLERANCE) -> tuple[int, bool]:
    """Sign of ``qy - qx`` and whether it was decided exactly.

    A gap above :data:`SCREEN` (relative) is taken from the floats; a smaller
    one is re-decided by ``exact_diff()`` (the exact ``qy - qx``) when there is
    one, and otherwise counts as a tie within ``tolerance`` (a float-only
    metric's ties are decided by its stated tolerance alone, wider or
    narrower). Serves two values that need not come from one metric too (a
    reverted metric and its base, a score and a stated bound).
    """
    diff = qy - qx
    scale = max(1.0, abs(qx), abs(qy))
    screen = SCREEN if exact_diff is not None else tolerance
    if abs(diff) > screen * scale:
        return (1 if diff > 0 else -1), False
    if exact_diff is not None:
        return exact_sign(exact_diff()), True
    return 0, False
