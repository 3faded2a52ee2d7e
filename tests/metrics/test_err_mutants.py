"""ERR (issue 14, mutation survivors of metrics/err.py): the cascade by hand, scalar and batched,
at depths 1, 2 and 3 (the batched survival product starts at rank 2)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch
from axiometer.metrics.arithmetic import EXACT
from axiometer.metrics.err import ERR, err, err_batch

TOPIC = Topic.single({"a": Fraction(1, 2), "b": Fraction(1, 4), "c": 1, "n": 0})


def test_err_by_hand():
    # [a, b, c]: 1/2 + (1/2)(1/4)/2 + (1/2)(3/4)(1)/3 = 1/2 + 1/16 + 1/8 = 11/16.
    assert err([Fraction(1, 2), Fraction(1, 4), Fraction(1)], EXACT) == Fraction(11, 16)
    assert ERR().exact(["a", "b", "c"], TOPIC) == Fraction(11, 16)
    # A zero gain stops no one: [n, a]: (1/2)/2 = 1/4; [c, a]: 1 (everyone stopped at c).
    assert ERR().exact(["n", "a"], TOPIC) == Fraction(1, 4)
    assert ERR().exact(["c", "a"], TOPIC) == 1
    assert ERR(2).exact(["a", "b", "c"], TOPIC) == Fraction(9, 16)  # 1/2 + 1/16


def test_err_batch_by_hand():
    relevances = np.array([[0.5, 0.25, 1.0], [0.0, 0.5, 0.0], [1.0, 1.0, 1.0]])
    assert err_batch(relevances).tolist() == pytest.approx([11 / 16, 1 / 4, 1.0], abs=1e-15)
    assert err_batch(np.array([[0.5, 0.5]])).tolist() == pytest.approx([0.5 + 0.125], abs=1e-15)
    assert err_batch(np.array([[0.5], [0.0]])).tolist() == [0.5, 0.0]
    assert err_batch(np.zeros((2, 0))).tolist() == [0.0, 0.0]
    batch = RankingBatch.from_rankings([["a", "b", "c"], ["n", "a"], ["c", "a"], []], TOPIC)
    assert ERR().score_batch(batch).tolist() == pytest.approx([11 / 16, 1 / 4, 1.0, 0.0], abs=1e-15)
    assert ERR(2).score_batch(batch).tolist() == pytest.approx([9 / 16, 1 / 4, 1.0, 0.0], abs=1e-15)
