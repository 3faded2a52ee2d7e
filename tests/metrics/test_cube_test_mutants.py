"""The Cube Test (Luo et al., CIKM 2013; linear-time form of Amigó et al., SIGIR 2018), issue 14:
saturation at exactly 1 with unequal aspect weights, repeats counted past saturation, and the
batched saturation test on both of its paths (int64 units; exact fractions past 2^40)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch
from axiometer.metrics.cube_test import CubeTest, _exact_values, _open_aspects

F = Fraction
# w(x) = 1/4, w(y) = 3/4.
TOPIC = Topic({"a": {"x": F(1, 2), "y": 1}, "b": {"x": F(1, 2)}, "c": {"x": F(1, 2), "y": F(1, 2)}},
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
    assert metric.exact(["a", "b", "c"], TOPIC) == F(29, 32)
    assert metric.exact(["b", "c", "a"], TOPIC) == F(15, 32)
    assert batch(metric, TOPIC, [["a", "b", "c"], ["b", "c", "a"], ["b"]]) == pytest.approx(
        [29 / 32, 15 / 32, 1 / 8], abs=1e-15)
    # @2 of [b, c, a]: 1/8 + 7/32 = 11/32.
    assert CubeTest(2, alpha=0.5).exact(["b", "c", "a"], TOPIC) == F(11, 32)
    assert batch(CubeTest(2, alpha=0.5), TOPIC, [["b", "c", "a"]]) == pytest.approx([11 / 32], abs=1e-15)


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
