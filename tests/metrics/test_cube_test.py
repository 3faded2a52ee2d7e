"""CT@k: a hand-computed value, exact saturation, edge cases, float vs exact,
the batched path and spec strings."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st
import numpy as np

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.cube_test import CubeTest, _exact_values, _open_aspects
from tests.metrics.agreement import assert_float_matches_exact, assert_batch_matches_score
from tests.strategies import diversity_cases

# w(x) = 1/4, w(y) = 3/4.
TOPIC = Topic({"a": {"x": Fraction(1, 2), "y": 1}, "b": {"x": Fraction(1, 2)},
               "c": {"x": 1, "y": Fraction(1, 2)}},
              {"x": Fraction(1, 4), "y": Fraction(3, 4)})


def test_hand_computed():
    # [a, b, c], alpha = 1/2:
    #   1 a: x open (0 < 1): (1/4)(1/2) = 1/8;  y open: (3/4)(1) = 3/4;  (7/8) / 1 = 7/8
    #        filled x = 1/2, y = 1
    #   2 b: x open (1/2 < 1): (1/4)(1/2)(1/2)^1 = 1/16;  / 2 = 1/32;  filled x = 1
    #   3 c: x and y are full (1 >= 1): 0
    # CT@3 = 7/8 + 1/32 = 29/32.
    assert CubeTest(3, alpha=0.5).exact(["a", "b", "c"], TOPIC) == Fraction(29, 32)
    assert CubeTest(3, alpha=0.5).score(["a", "b", "c"], TOPIC) == pytest.approx(29 / 32, abs=1e-15)
    # [c, u, a] @3: c: (1/4)(1) + (3/4)(1/2) = 5/8;  u: 0;  a: x full (1), y open (1/2):
    # (3/4)(1)(1/2) / 3 = 1/8.  Total 3/4.
    assert CubeTest(3, alpha=0.5).exact(["c", "u", "a"], TOPIC) == Fraction(3, 4)


def test_saturation_is_decided_exactly():
    # Ten documents of r = 1/10 fill the aspect exactly (a float sum stops at 0.999...),
    # so the eleventh adds nothing: CT@11 (alpha = 0) = sum_{i=1}^{10} (1/10) / i = H_10 / 10.
    topic = Topic.single({f"d{i:02d}": Fraction(1, 10) for i in range(11)})
    ranking = [f"d{i:02d}" for i in range(11)]
    expected = sum(Fraction(1, 10 * i) for i in range(1, 11))
    metric = CubeTest(11, alpha=0)
    assert metric.exact(ranking, topic) == expected
    assert metric.score(ranking, topic) == pytest.approx(float(expected), abs=1e-15)
    batch = RankingBatch.from_rankings([ranking, ranking[:10]], topic)
    assert list(metric.score_batch(batch)) == pytest.approx([float(expected)] * 2, abs=1e-15)


def test_batch_saturation_with_a_large_common_denominator():
    # Denominators whose lcm exceeds 2^40 take the batched path's exact fallback.
    primes = [1_000_003, 1_000_033, 1_000_037]
    values = {f"d{i}": Fraction(p - 1, p) for i, p in enumerate(primes)}
    values["e"] = Fraction(1, 2)
    topic = Topic.single(values)
    metric = CubeTest(4, alpha=0.5)
    rankings = [["d0", "d1", "e", "d2"], ["e", "d2"], []]
    got = metric.score_batch(RankingBatch.from_rankings(rankings, topic))
    for value, ranking in zip(got, rankings):
        assert abs(value - float(metric.exact(ranking, topic))) <= 1e-12


def test_edge_cases():
    metric = CubeTest(5)
    assert metric.exact([], TOPIC) == 0
    assert metric.exact(["u", "v"], TOPIC) == 0
    assert metric.exact(["a"], Topic({"a": {"x": 0}, "b": {"y": 0}})) == 0
    # Single aspect, alpha = 1/2: [a, b] with r = 1/2 each: 1/2 + (1/2)(1/2)/2 = 5/8.
    single = Topic.single({"a": Fraction(1, 2), "b": Fraction(1, 2), "c": 1})
    assert CubeTest(alpha=0.5).exact(["a", "b", "c"], single) == Fraction(5, 8)
    assert CubeTest().cutoff == 10


@pytest.mark.parametrize("spec", ["CT", "CT(alpha=0.5)@10", "CT(alpha=0.1)@5"])
def test_spec_round_trip(spec):
    metric = parse(spec)
    assert isinstance(metric, CubeTest)
    assert parse(metric.name).name == metric.name


@given(diversity_cases(), st.sampled_from([1, 3, 10, 30]), st.sampled_from([0.0, 0.1, 0.5]))
def test_float_matches_exact(data, k, alpha):
    topic, rankings = data
    metric = CubeTest(k, alpha=alpha)
    assert_float_matches_exact(metric, topic, rankings)


@given(diversity_cases(), st.sampled_from([1, 3, 10, 30]), st.sampled_from([0.0, 0.1, 0.5]))
def test_batch_matches_score(data, k, alpha):
    topic, rankings = data
    metric = CubeTest(k, alpha=alpha)
    assert_batch_matches_score(metric, topic, rankings)


# The Cube Test (Luo et al., CIKM 2013; linear-time form of Amigó et al., SIGIR 2018), issue 14:
# saturation at exactly 1 with unequal aspect weights, repeats counted past saturation, and the
# batched saturation test on both of its paths (int64 units; exact fractions past 2^40).

F = Fraction
# w(x) = 1/4, w(y) = 3/4.
EDGE_TOPIC = Topic({"a": {"x": F(1, 2), "y": 1}, "b": {"x": F(1, 2)}, "c": {"x": F(1, 2), "y": F(1, 2)}},
              {"x": F(1, 4), "y": F(3, 4)})


def batch(metric, topic, rankings):
    return metric.score_batch(RankingBatch.from_rankings(rankings, topic)).tolist()


def test_hand_computed_with_weights_and_saturation():
    # alpha = 1/2, [a, b, c]:
    #   1 a: x (1/4)(1/2) = 1/8, y (3/4)(1) = 3/4             -> 7/8 / 1;  filled x 1/2, y 1
    #   2 b: x (1/4)(1/2)(1/2) = 1/16                          -> 1/16 / 2;  filled x 1
    #   3 c: x and y saturated (filled = 1, not < 1)           -> 0
    #   CT = 7/8 + 1/32 = 29/32.
    # [b, c, a]:
    #   1 b: x 1/8                                             -> 1/8
    #   2 c: x (1/4)(1/2)(1/2) = 1/16, y (3/4)(1/2) = 3/8      -> 7/16 / 2 = 7/32;  x full, y 1/2
    #   3 a: x saturated; y (3/4)(1)(1/2) = 3/8                -> 3/8 / 3 = 1/8
    #   CT = 1/8 + 7/32 + 1/8 = 15/32.
    metric = CubeTest(3, alpha=0.5)
    assert metric.exact(["a", "b", "c"], EDGE_TOPIC) == F(29, 32)
    assert metric.exact(["b", "c", "a"], EDGE_TOPIC) == F(15, 32)
    assert batch(metric, EDGE_TOPIC, [["a", "b", "c"], ["b", "c", "a"], ["b"]]) == pytest.approx(
        [29 / 32, 15 / 32, 1 / 8], abs=1e-15)
    # @2 of [b, c, a]: 1/8 + 7/32 = 11/32.
    assert CubeTest(2, alpha=0.5).exact(["b", "c", "a"], EDGE_TOPIC) == F(11, 32)
    assert batch(CubeTest(2, alpha=0.5), EDGE_TOPIC, [["b", "c", "a"]]) == pytest.approx([11 / 32], abs=1e-15)


def test_open_aspects_at_exactly_one_in_units():
    # One aspect, gains 1/2, 1/2, 1/2: gathered before each 0, 1/2, 1 -> open, open, closed.
    topic = Topic.single({"a": F(1, 2), "b": F(1, 2), "c": F(1, 2)})
    assert _exact_values(topic) == ({0.5: F(1, 2)}, 2)
    gains = np.array([[[0.5], [0.5], [0.5]]])
    assert _open_aspects(gains, topic)[0, :, 0].tolist() == [True, True, False]


def test_open_aspects_past_the_int64_denominator():
    # D > 2^40: the exact fallback. a + b = 1 exactly (float a + b need not be).
    D = 2 ** 41 + 1
    a, b = F(2 ** 40, D), F(2 ** 40 + 1, D)
    topic = Topic.single({"a": a, "b": b, "c": F(1, 2)})
    lookup, denominator = _exact_values(topic)
    assert denominator == 2 * D and lookup[float(a)] == a
    gains = np.array([[[float(a)], [float(b)], [0.5]], [[0.5], [float(a)], [0.0]],
                      [[0.0], [float(a)], [float(b)]]])
    # Gathered before: [0, a, 1] -> open, open, closed; [0, 1/2, 1/2 + a] -> all open;
    # an unjudged document (0, no grade of the topic) gathers nothing: [0, 0, a] -> all open.
    assert _open_aspects(gains, topic)[:, :, 0].tolist() == [
        [True, True, False], [True, True, True], [True, True, True]]
    # CT@3, alpha = 0: a + b/2 (c saturated).
    metric = CubeTest(3, alpha=0)
    assert metric.exact(["a", "b", "c"], topic) == a + b / 2
    assert batch(metric, topic, [["a", "b", "c"]]) == pytest.approx([float(a + b / 2)], abs=1e-15)


def test_a_third_repeat_is_discounted_twice():
    # One aspect, alpha = 1/2, three documents of r = 1/4 (never saturated: 3/4 < 1):
    #   1/4 / 1 + (1/4)(1/2) / 2 + (1/4)(1/2)^2 / 3 = 1/4 + 1/16 + 1/48 = 1/3.
    topic = Topic.single({"a": F(1, 4), "b": F(1, 4), "c": F(1, 4)})
    metric = CubeTest(3, alpha=0.5)
    assert metric.exact(["a", "b", "c"], topic) == F(1, 3)
    assert batch(metric, topic, [["a", "b", "c"]]) == pytest.approx([1 / 3], abs=1e-15)
