"""AP (issue 14, mutation survivors of metrics/average_precision.py): hand-computed values with
cutoffs, relevance levels and unjudged documents, batched too."""

from __future__ import annotations

from fractions import Fraction

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.average_precision import AveragePrecision

# R = 2 (a, b); grades: b (1/2) 1, a (1) 2.
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "n": 0})
RANKINGS = [["n", "a", "u", "b"], ["b", "a"], ["n"], []]


def test_average_precision_by_hand():
    # [n, a, u, b]: (1/2 + 2/4)/2 = 1/2; @2: (1/2)/2 = 1/4. [b, a]: (1 + 1)/2 = 1.
    assert [AveragePrecision().exact(r, TOPIC) for r in RANKINGS] == [Fraction(1, 2), 1, 0, 0]
    assert AveragePrecision(2).exact(RANKINGS[0], TOPIC) == Fraction(1, 4)
    assert parse("AP(rel=2)").exact(RANKINGS[0], TOPIC) == Fraction(1, 2)  # R = 1: a at rank 2
    batch = RankingBatch.from_rankings(RANKINGS, TOPIC)
    assert AveragePrecision().score_batch(batch).tolist() == [0.5, 1.0, 0.0, 0.0]
    assert AveragePrecision(2).score_batch(batch).tolist() == [0.25, 1.0, 0.0, 0.0]
    assert AveragePrecision(1).score_batch(batch).tolist() == [0.0, 0.5, 0.0, 0.0]

