"""R-precision (issue 14, mutation survivors of metrics/r_precision.py): hand-computed values with
relevance levels and short rankings, batched too."""

from __future__ import annotations

from fractions import Fraction

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.r_precision import RPrecision

# R = 2 (a, b); grades: b (1/2) 1, a (1) 2.
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "n": 0})
RANKINGS = [["n", "a", "u", "b"], ["b", "a"], ["n"], []]


def test_r_precision_by_hand():
    # R = 2: [n, a, ...] 1/2; [b, a] 1; [n] 0; [] 0. At rel = 2 (R = 1): [a, n] 1, [n, a] 0.
    assert [RPrecision().exact(r, TOPIC) for r in RANKINGS] == [Fraction(1, 2), 1, 0, 0]
    assert parse("Rprec(rel=2)").exact(["a", "n"], TOPIC) == 1
    assert parse("Rprec(rel=2)").exact(["n", "a"], TOPIC) == 0
    batch = RankingBatch.from_rankings(RANKINGS, TOPIC)
    assert RPrecision().score_batch(batch).tolist() == [0.5, 1.0, 0.0, 0.0]
