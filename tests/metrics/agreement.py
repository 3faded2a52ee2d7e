"""The one check every built-in metric must pass: its three evaluations agree.

``score`` (float64), ``exact`` (Fraction or sympy, converted to the nearest
float) and ``score_batch`` (numpy, all rankings at once) are three
implementations of one formula; they must agree within ``1e-12``.
"""

from __future__ import annotations

from collections.abc import Sequence

from axiometer.core import Topic
from axiometer.metrics import BuiltinMetric, RankingBatch
from axiometer.metrics.arithmetic import exact_to_float

TOLERANCE = 1e-12


def assert_float_matches_exact(metric: BuiltinMetric, topic: Topic,
                               rankings: Sequence[Sequence[str]]) -> list[float]:
    """``score`` and ``exact`` agree on every ranking; return the float scores."""
    scores = [metric.score(ranking, topic) for ranking in rankings]
    for ranking, score in zip(rankings, scores):
        exact = exact_to_float(metric.exact(ranking, topic))
        assert abs(score - exact) <= TOLERANCE, (metric.name, ranking, score, exact)
    return scores


def assert_batch_matches_score(metric: BuiltinMetric, topic: Topic,
                               rankings: Sequence[Sequence[str]]) -> None:
    """``score_batch`` over all rankings at once agrees with ``score`` one by one."""
    batched = metric.score_batch(RankingBatch.from_rankings(rankings, topic))
    assert batched.shape == (len(rankings),)
    for ranking, got in zip(rankings, batched):
        want = metric.score(ranking, topic)
        assert abs(got - want) <= TOLERANCE, (metric.name, ranking, got, want)


def assert_evaluations_agree(metric: BuiltinMetric, topic: Topic,
                             rankings: Sequence[Sequence[str]]) -> None:
    """All three evaluations agree."""
    assert_float_matches_exact(metric, topic, rankings)
    assert_batch_matches_score(metric, topic, rankings)
