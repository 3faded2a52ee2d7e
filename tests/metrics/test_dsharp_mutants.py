"""D#-nDCG (Sakai & Song, SIGIR 2011), issue 14: the global gain's aspect weights, the ideal
cut at k, gamma against 1 - gamma, on both paths, and a topic without relevant documents."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch
from axiometer.metrics.arithmetic import EXACT
from axiometer.metrics.dsharp import DSharpNDCG, global_gain

F = Fraction
# w(x) = 3/4, w(y) = 1/4. GG: a 3/4, b 1/4, c 3/8.
TOPIC = Topic({"a": {"x": 1}, "b": {"y": 1}, "c": {"x": F(1, 2)}, "n": {"x": 0, "y": 0}},
              {"x": F(3, 4), "y": F(1, 4)})


def batch(metric, topic, rankings):
    return metric.score_batch(RankingBatch.from_rankings(rankings, topic)).tolist()


def test_global_gain():
    assert global_gain([F(1, 2), 1], [F(3, 4), F(1, 4)], EXACT) == F(5, 8)
    assert global_gain([0, F(1, 3)], [F(3, 4), F(1, 4)], EXACT) == F(1, 12)


def test_hand_computed_at_one_with_unequal_gamma():
    # @1, gamma = 1/5. [b]: S-Recall@1 = 1/2 (y of x, y); D-nDCG@1 = (1/4)/(3/4) = 1/3.
    #   1/5 * 1/2 + 4/5 * 1/3 = 1/10 + 4/15 = 11/30.
    # [c]: recall 1/2, D-nDCG 1/2: 1/10 + 2/5 = 1/2.   [a]: 1/10 + 4/5 = 9/10.   [n]: 0.
    metric = DSharpNDCG(1, gamma=0.2)
    assert metric.exact(["b", "a"], TOPIC) == F(11, 30)
    assert metric.exact(["c"], TOPIC) == F(1, 2)
    assert metric.exact(["a"], TOPIC) == F(9, 10)
    assert batch(metric, TOPIC, [["b", "a"], ["c"], ["a"], ["n"], []]) == pytest.approx(
        [11 / 30, 0.5, 0.9, 0.0, 0.0], abs=1e-15)


def test_no_relevant_document():
    topic = Topic({"a": {"x": 0}, "b": {"y": 0}})
    for metric in (DSharpNDCG(), DSharpNDCG(2, gamma=0)):
        assert metric.exact(["a", "b"], topic) == 0
        assert batch(metric, topic, [["a", "b"], []]) == [0.0, 0.0]
