"""Rnorm and Pnorm (issue 14, mutation survivors of metrics/normalised_recall.py): rankings that
exactly fill the collection, R = N, relevance levels, and the messages naming what does not fit."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from axiometer.core import Topic, ValidationError
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.decide import exact_sign
from axiometer.metrics.normalised_recall import Pnorm, Rnorm, relevant_ranks

# R = 2 (a, b); grades: b (1/2) 1, a (1) 2.
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0})


def log2(x):
    return sympy.log(x, 2)


def test_relevant_ranks_complete_the_ranking_at_the_end():
    assert relevant_ranks(["c", "a"], TOPIC, 5, "m") == [2, 5]  # level 1 by default: b missing -> rank 5
    assert relevant_ranks([], TOPIC, 5, "m") == [4, 5]
    assert relevant_ranks(["c", "a"], TOPIC, 5, "m", level=2) == [2]  # only a at level 2
    # A ranking that exactly fills the collection: 4 documents + 1 missing = N = 5.
    assert relevant_ranks(["c", "x", "y", "a"], TOPIC, 5, "m") == [4, 5]


def test_rnorm_and_pnorm_by_hand_scalar_and_batched():
    rankings = [["c", "a"], ["a", "b"], [], ["c", "x", "y", "a"]]
    # N = 5, R = 2, ideal ranks 1, 2 (sum 3, log2 of product 1).
    # [c, a] -> ranks 2, 5: Rnorm = 1 - (7 - 3)/(2 * 3) = 1/3; Pnorm = 1 - (log2 10 - 1)/log2 10.
    # [a, b] -> 1, 2: 1 and 1. [] and [c, x, y, a] -> 4, 5: Rnorm = 1 - 6/6 = 0; Pnorm = 1 - (log2 20 - 1)/log2 10 = 0.
    assert [Rnorm(N=5).exact(r, TOPIC) for r in rankings] == [Fraction(1, 3), 1, 0, 0]
    pnorm = [Pnorm(N=5).exact(r, TOPIC) for r in rankings]
    assert exact_sign(pnorm[0] - (1 - (log2(10) - 1) / log2(10))) == 0
    assert [exact_sign(v - w) for v, w in zip(pnorm[1:], (1, 0, 0))] == [0, 0, 0]
    batch = RankingBatch.from_rankings(rankings, TOPIC)
    assert Rnorm(N=5).score_batch(batch).tolist() == pytest.approx([1 / 3, 1.0, 0.0, 0.0], abs=1e-12)
    p0 = 1 - (sympy.N(log2(10)) - 1) / sympy.N(log2(10))
    assert Pnorm(N=5).score_batch(batch).tolist() == pytest.approx([float(p0), 1.0, 0.0, 0.0], abs=1e-12)


def test_every_document_relevant_scores_one():
    everything = Topic.single({"a": 1, "b": 1})  # R = N = 2
    for metric in (Rnorm(N=2), Pnorm(N=2)):
        assert metric.exact(["b", "a"], everything) == 1 and metric.exact([], everything) == 1
        assert metric.score_batch(RankingBatch.from_rankings([["b", "a"], ["a"]], everything)).tolist() == [1, 1]


def test_relevance_level_two():
    # At rel = 2 only a is relevant: R = 1, N = 4. [c, b, a] -> rank 3: Rnorm = 1 - (3 - 1)/(1 * 3) = 1/3.
    assert parse("Rnorm(N=4,rel=2)").exact(["c", "b", "a"], TOPIC) == Fraction(1, 3)
    # Pnorm = 1 - (log2 3 - 0)/log2 4 = 1 - log2(3)/2.
    assert exact_sign(parse("Pnorm(N=4,rel=2)").exact(["c", "b", "a"], TOPIC) - (1 - log2(3) / 2)) == 0


def test_what_does_not_fit_is_said_in_full():
    with pytest.raises(ValidationError) as error:
        Rnorm(N=5).exact(["c", "x", "y", "z", "a"], TOPIC)  # 5 documents + 1 missing > 5
    assert str(error.value) == ("Rnorm(N=5): a ranking of 5 documents missing 1 of the topic's 2 relevant "
                                "ones does not fit a collection of N=5 documents")
    with pytest.raises(ValidationError) as error:
        Pnorm(N=5).score_batch(RankingBatch.from_rankings([["a"], ["c", "x", "y", "z", "a"]], TOPIC))
    assert str(error.value) == ("Pnorm(N=5): some ranking does not fit a collection of N=5 documents "
                                "with the topic's 2 relevant ones")
    with pytest.raises(ValidationError) as error:
        Rnorm(N=1).score_batch(RankingBatch.from_rankings([[]], TOPIC))  # R = 2 > N = 1
    assert str(error.value) == ("Rnorm(N=1): some ranking does not fit a collection of N=1 documents "
                                "with the topic's 2 relevant ones")


def test_exact_rnorm_stays_exact_for_a_huge_collection():
    # N = 10^16 + 1: the empty ranking puts a, b at ranks N - 1, N (the worst ranks): Rnorm = 1 - (2N - 1 - 3)
    # / (2 (N - 2)) = 0 exactly; sums of ranks beyond 2^53 must not go through floats.
    N = 10 ** 16 + 1
    assert Rnorm(N=N).exact([], TOPIC) == 0
    # [a]: ranks 1, N: 1 - (N + 1 - 3)/(2 (N - 2)) = 1/2.
    assert Rnorm(N=N).exact(["a"], TOPIC) == Fraction(1, 2)
