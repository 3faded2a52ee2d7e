"""ERR and ERR@k: hand-computed values, edge cases, float vs exact, the
batched path, and the spec string."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st
import numpy as np

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.err import ERR, err, err_batch
from axiometer.metrics.arithmetic import EXACT
from tests.metrics.agreement import assert_evaluations_agree
from tests.strategies import diversity_cases

TOPIC = Topic.single({"a": Fraction(1, 2), "b": Fraction(1, 4), "c": 0, "s": 1})


def test_hand_computed():
    # [b, c, a]: 1/1 * 1/4 + 1/2 * 0 + 1/3 * 1/2 * (1 - 1/4) = 1/4 + 1/8 = 3/8.
    assert ERR().exact(["b", "c", "a"], TOPIC) == Fraction(3, 8)
    assert ERR().score(["b", "c", "a"], TOPIC) == pytest.approx(0.375, abs=1e-15)
    # ERR@2 of the same ranking stops before a: 1/4.
    assert ERR(2).exact(["b", "c", "a"], TOPIC) == Fraction(1, 4)
    # r = 1 stops every user: nothing after s counts. [s, a] -> 1.
    assert ERR().exact(["s", "a"], TOPIC) == 1


def test_graded_single_aspect_view():
    # r(d) = max_t r(d, t) = 3/4; ERR([u, d]) = 1/2 * 3/4 = 3/8.
    topic = Topic({"d": {"x": Fraction(1, 4), "y": Fraction(3, 4)}})
    assert ERR().exact(["u", "d"], topic) == Fraction(3, 8)


def test_edge_cases():
    assert ERR().exact([], TOPIC) == 0 and ERR(5).score([], TOPIC) == 0.0
    assert ERR().exact(["c", "u"], Topic.single({"c": 0})) == 0
    assert ERR(100).exact(["b", "c", "a"], TOPIC) == Fraction(3, 8)  # k > n
    batch = RankingBatch.from_rankings([[], ["a"], ["b", "c", "a"]], TOPIC)
    assert list(ERR(1).score_batch(batch)) == [0.0, 0.5, 0.25]


@pytest.mark.parametrize("spec", ["ERR", "ERR@10", "ERR@20"])
def test_spec_round_trip(spec):
    metric = parse(spec)
    assert isinstance(metric, ERR)
    assert metric.name == spec and parse(metric.name).name == spec


@given(diversity_cases(), st.sampled_from([None, 1, 3, 10, 30]))
def test_float_matches_exact_and_batch(case, k):
    topic, rankings = case
    metric = ERR(k)
    assert_evaluations_agree(metric, topic, rankings)


# ERR (issue 14): the cascade by hand, scalar and batched, at depths 1, 2 and 3 (the batched
# survival product starts at rank 2).

EDGE_TOPIC = Topic.single({"a": Fraction(1, 2), "b": Fraction(1, 4), "c": 1, "n": 0})


def test_err_by_hand():
    # [a, b, c]: 1/2 + (1/2)(1/4)/2 + (1/2)(3/4)(1)/3 = 1/2 + 1/16 + 1/8 = 11/16.
    assert err([Fraction(1, 2), Fraction(1, 4), Fraction(1)], EXACT) == Fraction(11, 16)
    assert ERR().exact(["a", "b", "c"], EDGE_TOPIC) == Fraction(11, 16)
    # A zero gain stops no one: [n, a]: (1/2)/2 = 1/4; [c, a]: 1 (everyone stopped at c).
    assert ERR().exact(["n", "a"], EDGE_TOPIC) == Fraction(1, 4)
    assert ERR().exact(["c", "a"], EDGE_TOPIC) == 1
    assert ERR(2).exact(["a", "b", "c"], EDGE_TOPIC) == Fraction(9, 16)  # 1/2 + 1/16


def test_err_batch_by_hand():
    relevances = np.array([[0.5, 0.25, 1.0], [0.0, 0.5, 0.0], [1.0, 1.0, 1.0]])
    assert err_batch(relevances).tolist() == pytest.approx([11 / 16, 1 / 4, 1.0], abs=1e-15)
    assert err_batch(np.array([[0.5, 0.5]])).tolist() == pytest.approx([0.5 + 0.125], abs=1e-15)
    assert err_batch(np.array([[0.5], [0.0]])).tolist() == [0.5, 0.0]
    assert err_batch(np.zeros((2, 0))).tolist() == [0.0, 0.0]
    batch = RankingBatch.from_rankings([["a", "b", "c"], ["n", "a"], ["c", "a"], []], EDGE_TOPIC)
    assert ERR().score_batch(batch).tolist() == pytest.approx([11 / 16, 1 / 4, 1.0, 0.0], abs=1e-15)
    assert ERR(2).score_batch(batch).tolist() == pytest.approx([9 / 16, 1 / 4, 1.0, 0.0], abs=1e-15)
