"""Rnorm and Pnorm: hand-computed values, the missing-relevant convention,
edge cases, float vs exact vs batch, spec."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given

from axiometer.core import Topic, ValidationError
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.normalised_recall import Pnorm, Rnorm, relevant_ranks
from axiometer.metrics.decide import exact_sign
from tests.metrics.agreement import assert_evaluations_agree
from tests.strategies import diversity_cases

# R = 2 (a, b); collection of N = 10 documents.
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0})


def log2(x: int) -> sympy.Expr:
    return sympy.log(x, 2)


def test_rnorm_hand_computed():
    # Relevant at ranks 2 and 4: (2 + 4) - (1 + 2) = 3; R (N - R) = 2 * 8 = 16 -> 1 - 3/16 = 13/16.
    assert Rnorm(N=10).exact(["c", "a", "u", "b"], TOPIC) == Fraction(13, 16)
    assert Rnorm(N=10).score(["c", "a", "u", "b"], TOPIC) == 13 / 16
    # b is missing: placed last, rank 10: (1 + 10) - 3 = 8 -> 1 - 8/16 = 1/2.
    assert Rnorm(N=10).exact(["a"], TOPIC) == Fraction(1, 2)
    # Empty ranking: both at the end, ranks 9 and 10: 19 - 3 = 16 -> 0 (the worst).
    assert Rnorm(N=10).exact([], TOPIC) == 0
    assert Rnorm(N=10).exact(["b", "a"], TOPIC) == 1


def test_pnorm_hand_computed():
    # Ranks 2, 4: log2(2 * 4) - log2(1 * 2) = 2; log2(10! / (8! 2!)) = log2(45).
    value = Pnorm(N=10).exact(["c", "a", "u", "b"], TOPIC)
    assert sympy.simplify(value - (1 - 2 / log2(45))) == 0
    assert Pnorm(N=10).score(["c", "a", "u", "b"], TOPIC) == pytest.approx(1 - 2 / 5.491853096329675,
                                                                           abs=1e-14)
    # b missing -> rank 10: log2(10) - log2(2) = log2(5) -> 1 - log2(5) / log2(45).
    assert sympy.simplify(Pnorm(N=10).exact(["a"], TOPIC) - (1 - log2(5) / log2(45))) == 0
    # Ranks 9, 10: log2(90 / 2) = log2(45) -> 0; ideal -> 1.
    assert Pnorm(N=10).exact([], TOPIC) == 0
    assert Pnorm(N=10).exact(["a", "b"], TOPIC) == 1


@pytest.mark.parametrize("cls", [Rnorm, Pnorm])
def test_edge_cases(cls):
    no_relevant = Topic.single({"a": 0, "b": 0})
    assert cls(N=5).exact(["a", "b"], no_relevant) == 0  # R = 0 -> 0
    assert list(cls(N=5).score_batch(RankingBatch.from_rankings([["a", "b"], []], no_relevant))) == [0, 0]
    everything = Topic.single({"a": 1, "b": 1})  # R = N: every ranking is perfect
    assert cls(N=2).exact(["b"], everything) == 1
    assert list(cls(N=2).score_batch(RankingBatch.from_rankings([["b"], []], everything))) == [1, 1]
    # 9 retrieved + b missing = 11 documents > N = 10: the ranking contradicts N.
    too_long = ["a"] + [f"u{i}" for i in range(9)]
    with pytest.raises(ValidationError, match="N=10"):
        cls(N=10).score(too_long, TOPIC)
    with pytest.raises(ValidationError, match="N=10"):
        cls(N=10).score_batch(RankingBatch.from_rankings([too_long], TOPIC))
    with pytest.raises(ValidationError, match="N=1"):
        cls(N=1).score([], TOPIC)  # R = 2 > N


@pytest.mark.parametrize("spec, name", [("Rnorm(N=100)", "Rnorm(N=100)"), ("Pnorm(N=7)", "Pnorm(N=7)"),
                                        ("Rnorm", "Rnorm(N=20)")])
def test_spec_round_trip(spec, name):
    metric = parse(spec)
    assert metric.name == name and parse(metric.name).name == name
    with pytest.raises(Exception):
        parse("Rnorm(N=0)")
    with pytest.raises(Exception):
        parse("Pnorm(N=10)@5")


@given(diversity_cases())
def test_float_matches_exact_and_batch(case):
    topic, rankings = case
    docs = set(topic.documents).union(*map(set, rankings))
    for N in (len(docs), len(docs) + 7):
        assert_evaluations_agree(Rnorm(N=N), topic, rankings)
        assert_evaluations_agree(Pnorm(N=N), topic, rankings)


# Rnorm and Pnorm (issue 14): rankings that exactly fill the collection, R = N, relevance levels,
# and the messages naming what does not fit.

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
