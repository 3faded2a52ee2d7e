"""Rnorm and Pnorm: hand-computed values, the missing-relevant convention,
edge cases, float vs exact vs batch, spec."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import given

from axiometer.core import Topic, ValidationError
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.normalised_recall import Pnorm, Rnorm
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
