"""RBP (issue 14, mutation survivors of metrics/rbp.py): hand-computed values with a cutoff, the
batched path, and the browsing model's declared parts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch
from axiometer.metrics.arithmetic import EXACT
from axiometer.metrics.rbp import RBP

TOPIC = Topic.single({"a": Fraction(1, 2), "b": 1, "n": 0})


def test_rbp_by_hand():
    # p = 1/2, [b, n, a]: (1/2)(1 + 0 + (1/4)(1/2)) = 9/16; @2: (1/2)(1) = 1/2.
    assert RBP(p=0.5).exact(["b", "n", "a"], TOPIC) == Fraction(9, 16)
    assert RBP(2, p=0.5).exact(["b", "n", "a"], TOPIC) == Fraction(1, 2)
    # p = 3/4, [a, b]: (1/4)(1/2 + 3/4) = 5/16.
    assert RBP(p=0.75).exact(["a", "b"], TOPIC) == Fraction(5, 16)
    batch = RankingBatch.from_rankings([["b", "n", "a"], ["a", "b"], []], TOPIC)
    assert RBP(p=0.5).score_batch(batch).tolist() == pytest.approx([9 / 16, 1 / 2, 0.0], abs=1e-15)
    assert RBP(2, p=0.5).score_batch(batch).tolist() == pytest.approx([1 / 2, 1 / 2, 0.0], abs=1e-15)
    assert RBP(p=0.75).score_batch(batch).tolist() == pytest.approx([0.25 + 0.75 ** 2 / 8, 5 / 16, 0.0],
                                                                    abs=1e-15)


def test_browsing_model_declares_its_parts():
    model = RBP(3, p=0.75).browsing_model()
    assert model.name == "RBP(p=0.75)@3" and model.depth == 3 and model.unit_range and model.graded
    assert model.normaliser(EXACT) == Fraction(1, 4)
    assert [model.seen(i, EXACT) for i in (1, 3, 4)] == [1, Fraction(9, 16), 0]
    assert model.score(["n", "b"], TOPIC, EXACT) == Fraction(3, 16)  # (1/4)(3/4)
