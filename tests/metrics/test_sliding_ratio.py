"""Sliding ratio and modified sliding ratio: hand-computed values, edge cases,
float vs exact vs batch, spec."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.sliding_ratio import ModifiedSlidingRatio, SlidingRatio
from tests.metrics.agreement import assert_evaluations_agree
from tests.strategies import diversity_cases
from tests.metrics.two_gains import check

# Ideal gains: 1, 1/2, 1/4 (c is judged non-relevant).
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0, "e": Fraction(1, 4)})
RANKING = ["b", "c", "a"]


def test_sliding_ratio_hand_computed():
    # SR@2: cg(2) = 1/2 + 0 = 1/2; cg*(2) = 1 + 1/2 = 3/2 -> 1/3.
    assert SlidingRatio(2).exact(RANKING, TOPIC) == Fraction(1, 3)
    # SR@3: (1/2 + 0 + 1) / (1 + 1/2 + 1/4) = (3/2) / (7/4) = 6/7.
    assert SlidingRatio(3).exact(RANKING, TOPIC) == Fraction(6, 7)
    assert SlidingRatio(3).score(RANKING, TOPIC) == pytest.approx(6 / 7, abs=1e-15)
    # SR@10 on a 3-document ranking: ideal has 3 gains too: (3/2) / (7/4) = 6/7.
    assert SlidingRatio(10).exact(RANKING, TOPIC) == Fraction(6, 7)


def test_modified_sliding_ratio_hand_computed():
    # MSR@2: (1/2 / 1 + 0 / 2) / (1 / 1 + (1/2) / 2) = (1/2) / (5/4) = 2/5.
    assert ModifiedSlidingRatio(2).exact(RANKING, TOPIC) == Fraction(2, 5)
    # MSR@3: (1/2 + 0 + 1/3) / (1 + 1/4 + (1/4)/3) = (5/6) / (4/3) = 5/8.
    assert ModifiedSlidingRatio(3).exact(RANKING, TOPIC) == Fraction(5, 8)
    assert ModifiedSlidingRatio(3).score(RANKING, TOPIC) == pytest.approx(5 / 8, abs=1e-15)


@pytest.mark.parametrize("cls", [SlidingRatio, ModifiedSlidingRatio])
def test_edge_cases(cls):
    assert cls(5).exact([], TOPIC) == 0
    no_relevant = Topic.single({"a": 0, "b": 0})
    assert cls(5).exact(["a", "b"], no_relevant) == 0  # zero ideal -> 0
    batch = RankingBatch.from_rankings([["a", "b"], []], no_relevant)
    assert list(cls(5).score_batch(batch)) == [0.0, 0.0]
    assert cls(3).exact(["a", "b", "e"], TOPIC) == 1  # the ideal itself


@pytest.mark.parametrize("spec, name", [("SR@5", "SR@5"), ("SR", "SR@10"), ("MSR@3", "MSR@3"),
                                        ("MSR", "MSR@10")])
def test_spec_round_trip(spec, name):
    metric = parse(spec)
    assert metric.name == name and parse(metric.name).name == name


@given(diversity_cases(), st.sampled_from([1, 2, 3, 10, 30]))
def test_float_matches_exact_and_batch(case, k):
    topic, rankings = case
    assert_evaluations_agree(SlidingRatio(k), topic, rankings)
    assert_evaluations_agree(ModifiedSlidingRatio(k), topic, rankings)


# SR and MSR (issue 14): hand-computed values, an ideal of exactly 1, scalar and batched.

def test_sliding_ratios_by_hand():
    # SR@2 [b, n, a]: (1/2)/(3/2) = 1/3; SR@3: (3/2)/(3/2) = 1. [a, b]: 1.
    check(SlidingRatio(2), [Fraction(1, 3), 1, 0, 0])
    check(SlidingRatio(3), [1, 1, 0, 0])
    # MSR@3 [b, n, a]: (1/2 + 1/3)/(1 + 1/4) = 2/3. MSR@1: (1/2)/1 and 1.
    check(ModifiedSlidingRatio(3), [Fraction(2, 3), 1, 0, 0])
    check(ModifiedSlidingRatio(1), [Fraction(1, 2), 1, 0, 0])


def test_an_ideal_of_exactly_one_is_not_zero():
    topic = Topic.single({"a": 1, "n": 0})  # SR@1 and MSR@1 ideal: 1
    batch = RankingBatch.from_rankings([["a"], ["n", "a"]], topic)
    assert SlidingRatio(1).score_batch(batch).tolist() == [1.0, 0.0]
    assert SlidingRatio(2).score_batch(batch).tolist() == [1.0, 1.0]
    assert ModifiedSlidingRatio(2).score_batch(batch).tolist() == [1.0, 0.5]
    assert ModifiedSlidingRatio(2).exact(["n", "a"], topic) == Fraction(1, 2)
