"""alpha-DCG / alpha-nDCG helpers (Clarke et al., SIGIR 2008; ndeval's greedy ideal), issue 14:
weighted novelty gains on both paths, a zero grade is not a repeat, the greedy ideal's graded
incremental update with alpha != 1/2 (so ``alpha`` and ``1 - alpha`` cannot be swapped), its
limit, and the normaliser cut at the metric's cutoff, scalar and batched."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy

from axiometer.core import Topic
from axiometer.metrics import RankingBatch
from axiometer.metrics.alpha_ndcg import (AlphaDCG, AlphaNDCG, batch_novelty_gains,
                                          greedy_ideal_documents, greedy_ideal_gains,
                                          ideal_gains, novelty_gains)
from axiometer.metrics.arithmetic import EXACT, FLOAT

L3 = math.log2(3)

# One aspect x, graded: b 1, a 1/2, c 1/3; n judged non-relevant.
GRADED = Topic.single({"a": Fraction(1, 2), "b": 1, "c": Fraction(1, 3), "n": 0})


def batch(metric, topic, rankings):
    return metric.score_batch(RankingBatch.from_rankings(rankings, topic)).tolist()


def test_novelty_gains_weighted_and_a_zero_grade_is_no_repeat():
    half = Fraction(1, 2)
    vectors = [[1, 1], [1, 0], [0, half]]
    # alpha = 1/2: [1 + 1, x repeated once 1/2, y repeated once (1/2)(1/2) = 1/4].
    assert novelty_gains(vectors, half, EXACT) == [2, half, Fraction(1, 4)]
    # Weights 1/4, 3/4: [1/4 + 3/4, (1/4)(1/2), (3/4)(1/4)] = [1, 1/8, 3/16].
    weights = [Fraction(1, 4), Fraction(3, 4)]
    assert novelty_gains(vectors, half, EXACT, weights) == [1, Fraction(1, 8), Fraction(3, 16)]
    gains = np.array([[[1.0, 1.0], [1.0, 0.0], [0.0, 0.5]]])
    assert batch_novelty_gains(gains, 0.5).tolist() == [[2.0, 0.5, 0.25]]
    assert batch_novelty_gains(gains, 0.5, np.array([0.25, 0.75])).tolist() == [[1.0, 0.125, 0.1875]]
    # x graded 0 at rank 1 is not a relevant document above rank 2: x is fresh there.
    assert novelty_gains([[0, 1], [1, 0]], half, EXACT) == [1, 1]
    assert batch_novelty_gains(np.array([[[0.0, 1.0], [1.0, 0.0]]]), 0.5).tolist() == [[1.0, 1.0]]


def test_greedy_ideal_graded_update_and_limit():
    # alpha = 1/4, keep 3/4. Start: b 1, a 1/2, c 1/3 -> b (1).
    # Then a 1/2 * 3/4 = 3/8, c 1/3 * 3/4 = 1/4 -> a (3/8). Then c 1/3 * (3/4)^2 = 3/16.
    quarter = Fraction(1, 4)
    assert greedy_ideal_gains(GRADED, quarter) == (1, Fraction(3, 8), Fraction(3, 16))
    assert greedy_ideal_documents(GRADED, quarter) == ("b", "a", "c")
    assert greedy_ideal_gains(GRADED, quarter, 2) == (1, Fraction(3, 8))
    assert greedy_ideal_documents(GRADED, quarter, 1) == ("b",)
    assert ideal_gains(GRADED, 0.25, 2, EXACT) == [1, Fraction(3, 8)]
    assert ideal_gains(GRADED, 0.25, None, FLOAT) == [1.0, 0.375, 0.1875]


def test_greedy_ideal_over_two_aspects_ties_and_factors():
    # a {x}, b {x}, c {y: 1/2}, alpha = 1/2: a and b tie at 1 -> b (larger id); then a 1/2 and
    # c 1/2 tie -> c; then a 1/2 (x's factor 1/2, unchanged by c).
    topic = Topic({"a": {"x": 1}, "b": {"x": 1}, "c": {"y": Fraction(1, 2)}, "n": {"x": 0}})
    assert greedy_ideal_documents(topic, Fraction(1, 2)) == ("b", "c", "a")
    assert greedy_ideal_gains(topic, Fraction(1, 2)) == (1, Fraction(1, 2), Fraction(1, 2))


def test_alpha_ndcg_normalises_by_the_ideal_cut_at_k():
    metric = AlphaNDCG(2, alpha=0.25)
    # [c, a]: c 1/3; a 1/2 * 3/4 = 3/8.  DCG@2 = 1/3 + (3/8)/log2 3.
    # Ideal@2 (b, a): 1 + (3/8)/log2 3.
    l3 = sympy.log(3, 2)
    want = (sympy.Rational(1, 3) + sympy.Rational(3, 8) / l3) / (1 + sympy.Rational(3, 8) / l3)
    assert sympy.simplify(metric.exact(["c", "a", "b"], GRADED) - want) == 0
    value = (1 / 3 + 0.375 / L3) / (1 + 0.375 / L3)
    assert metric.score(["c", "a", "b"], GRADED) == pytest.approx(value, abs=1e-15)
    # @1: c 1/3 over b's 1.
    assert AlphaNDCG(1, alpha=0.25).exact(["c", "a"], GRADED) == Fraction(1, 3)
    got = batch(AlphaNDCG(1, alpha=0.25), GRADED, [["c", "a"], ["b"], ["n", "b"], []])
    assert got == pytest.approx([1 / 3, 1.0, 0.0, 0.0], abs=1e-15)
    got = batch(metric, GRADED, [["c", "a", "b"], ["b", "a"]])
    assert got == pytest.approx([value, 1.0], abs=1e-15)
    # alpha-DCG@2 of [c, a] batched: 1/3 + (3/8)/log2 3.
    assert batch(AlphaDCG(2, alpha=0.25), GRADED, [["c", "a", "b"]]) == pytest.approx(
        [1 / 3 + 0.375 / L3], abs=1e-15)


def test_no_relevant_document_scores_zero_on_both_paths():
    topic = Topic({"a": {"x": 0}, "b": {"y": 0}})
    for metric in (AlphaNDCG(), AlphaNDCG(3)):
        assert metric.exact(["a", "b"], topic) == 0
        assert batch(metric, topic, [["a", "b"], []]) == [0.0, 0.0]
