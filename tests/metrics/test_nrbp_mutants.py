"""NRBP / nNRBP (Clarke, Kolla & Vechtomova, ICTIR 2009; ndeval), issue 14: the greedy ideal cut
at the cutoff, on the scalar and batched paths, with graded relevance and alpha != 1/2."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch
from axiometer.metrics.nrbp import NNRBP, NRBP

F = Fraction
# One aspect, graded: b 1, a 1/2, c 1/3. Greedy ideal at alpha = 1/4: b 1, a 3/8, c 3/16.
GRADED = Topic.single({"a": F(1, 2), "b": 1, "c": F(1, 3), "n": 0})


def batch(metric, topic, rankings):
    return metric.score_batch(RankingBatch.from_rankings(rankings, topic)).tolist()


def test_nnrbp_ideal_is_cut_at_k():
    # beta = 1/2, @2. [c, a]: 1/3 + (1/2)(1/2)(3/4) = 1/3 + 3/16 = 25/48.
    # Ideal@2: 1 + (1/2)(3/8) = 19/16.  nNRBP@2 = (25/48)(16/19) = 25/57.
    metric = NNRBP(2, alpha=0.25, beta=0.5)
    assert NRBP(2, alpha=0.25, beta=0.5).exact(["c", "a", "b"], GRADED) == F(25, 48)
    assert metric.exact(["c", "a", "b"], GRADED) == F(25, 57)
    # Without a cutoff: run 25/48 + (1/4)(1)(3/4)^2 = 25/48 + 9/64 = 127/192;
    # ideal 19/16 + (1/4)(3/16) = 79/64.  (127/192)/(79/64) = 127/237.
    assert NNRBP(alpha=0.25, beta=0.5).exact(["c", "a", "b"], GRADED) == F(127, 237)
    assert batch(metric, GRADED, [["c", "a", "b"], ["b", "a"], ["n"]]) == pytest.approx(
        [25 / 57, 1.0, 0.0], abs=1e-15)
    assert batch(NNRBP(alpha=0.25, beta=0.5), GRADED, [["c", "a", "b"]]) == pytest.approx(
        [127 / 237], abs=1e-15)
    assert batch(NRBP(2, alpha=0.25, beta=0.5), GRADED, [["c", "a", "b"]]) == pytest.approx(
        [25 / 48], abs=1e-15)


def test_no_relevant_document_batched():
    topic = Topic({"a": {"x": 0}, "b": {"y": 0}})
    assert batch(NNRBP(), topic, [["a", "b"], []]) == [0.0, 0.0]
    assert batch(NNRBP(1), topic, [["a"]]) == [0.0]
