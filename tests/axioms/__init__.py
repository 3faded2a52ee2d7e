"""Tests of the constraint engine, and hand-built metrics that satisfy or
violate a constraint on purpose.

:class:`Positional` is the test workhorse: ``Q(d) = sum_{i<=min(k,n)} w(i) r(d_i)
- e * min(k, n)`` with a chosen weight function ``w`` and effort ``e``, exact
(``Fraction``) and float like a built-in. Which constraints it satisfies
follows from ``w`` by a line of algebra (given in each test), independently of
the checker. :func:`replay` re-evaluates a reported counterexample from its
text form, so a test can confirm the counterexample is real.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, Sequence

from axiometer.core import Context, Topic
from axiometer.metrics import BuiltinMetric, Needs
from axiometer.metrics.arithmetic import Arithmetic
from axiometer.results import Counterexample, TopicRecord

__all__ = ["Positional", "harmonic", "uniform", "linear", "geometric", "topic_from_record", "replay"]


class Positional(BuiltinMetric):
    """``Q(d) = sum_{i<=min(k,n)} w(i) r(d_i) - e * min(k, n)`` (graded, single-aspect view)."""

    family = "Positional"
    title = "Positional"
    needs = Needs(aspects=False, graded=True)

    def __init__(self, label: str, weight: Callable[[int], Fraction], effort: Fraction = Fraction(0),
                 cutoff: int | None = None) -> None:
        super().__init__(cutoff)
        self.weight, self.effort = weight, effort
        self.name = label if cutoff is None else f"{label}@{cutoff}"

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Any:
        seen = self.window(ranking)
        total = A.zero
        for i, d in enumerate(seen, 1):
            total = total + A.num(self.weight(i)) * A.num(topic.r(d))
        return total - A.num(self.effort) * len(seen)


def harmonic(effort: Fraction = Fraction(0), cutoff: int | None = None) -> Positional:
    """``w(i) = 1/i``: strictly decreasing and strictly convex."""
    return Positional("harmonic" if not effort else f"harmonic-e{effort}", lambda i: Fraction(1, i),
                      effort, cutoff)


def uniform(cutoff: int | None = None) -> Positional:
    """``w(i) = 1``: the sum of relevance, blind to order."""
    return Positional("uniform", lambda i: Fraction(1), cutoff=cutoff)


def linear(cutoff: int | None = None) -> Positional:
    """``w(i) = 1000 - i``: strictly decreasing with equal steps (top-heavy by the same amount everywhere)."""
    return Positional("linear", lambda i: Fraction(1000 - i), cutoff=cutoff)


def geometric(base: int, cutoff: int | None = None) -> Positional:
    """``w(i) = base^-i``."""
    return Positional(f"geometric{base}", lambda i: Fraction(1, base ** i), cutoff=cutoff)


def topic_from_record(record: TopicRecord) -> Topic:
    """Rebuild a topic from its text form (exact values)."""
    judgments = {d: {t: Fraction(v) for t, v in zip(record.aspects, values)}
                 for d, values in record.judgments}
    return Topic(judgments, {t: Fraction(w) for t, w in zip(record.aspects, record.weights)})


def replay(metric: Any, counterexample: Counterexample) -> tuple[Any, Any]:
    """``(Q(a), Q(b))`` recomputed from the counterexample's text, exactly when the metric can."""
    topic = topic_from_record(counterexample.topic)
    if getattr(metric, "exact_available", False):
        return metric.exact(counterexample.a, topic), metric.exact(counterexample.b, topic)
    return metric.score(counterexample.a, topic), metric.score(counterexample.b, topic)


# -- diversity test metrics: aspect-weighted sums with harmonic position discount ----------------

def weighted_sum(ranking, topic) -> Fraction:
    """``sum_i (1/i) sum_t w(t) r(d_i, t)``: every aspect's relevance counts, nothing is discounted."""
    return sum((Fraction(1, i) * w * r for i, d in enumerate(ranking, 1)
                for w, r in zip(topic.weights, topic.vector(d))), Fraction(0))


def halving(ranking, topic) -> Fraction:
    """``sum_i (1/i) sum_t w(t) r(d_i, t) (1/2)^c(i, t)``: each earlier relevant document halves
    an aspect's gain (redundancy by count only, as alpha-nDCG with alpha = 1/2)."""
    seen = [0] * len(topic.aspects)
    total = Fraction(0)
    for i, d in enumerate(ranking, 1):
        for t, (w, r) in enumerate(zip(topic.weights, topic.vector(d))):
            total += Fraction(1, i) * w * r / 2 ** seen[t]
            seen[t] += r > 0
    return total


def cascade(ranking, topic) -> Fraction:
    """``sum_i (1/i) sum_t w(t) r(d_i, t) prod_{j<i} (1 - r(d_j, t))``: graded redundancy (ERR-IA's)."""
    unsatisfied = [Fraction(1)] * len(topic.aspects)
    total = Fraction(0)
    for i, d in enumerate(ranking, 1):
        for t, (w, r) in enumerate(zip(topic.weights, topic.vector(d))):
            total += Fraction(1, i) * w * r * unsatisfied[t]
            unsatisfied[t] *= 1 - r
    return total
