"""AP and AP@k: hand-computed values, edge cases, float vs exact, the batched
path, and the spec string."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.average_precision import AveragePrecision
from tests.metrics.agreement import assert_evaluations_agree
from tests.strategies import diversity_cases

# R = 2 (a and b); c is judged non-relevant.
TOPIC = Topic.single({"a": Fraction(1, 2), "b": Fraction(1, 8), "c": 0})


def test_hand_computed():
    ranking = ["u", "a", "c", "b"]
    # Relevant at ranks 2 (P@2 = 1/2) and 4 (P@4 = 2/4): AP = (1/2 + 1/2) / R = 1 / 2.
    assert AveragePrecision().exact(ranking, TOPIC) == Fraction(1, 2)
    assert AveragePrecision().score(ranking, TOPIC) == pytest.approx(0.5, abs=1e-15)
    # AP@3 keeps R = 2 in the denominator (trec_eval map_cut): (1/2) / 2 = 1/4.
    assert AveragePrecision(3).exact(ranking, TOPIC) == Fraction(1, 4)
    # A relevant document the ranking misses still counts in R: [a] -> 1 / 2.
    assert AveragePrecision().exact(["a"], TOPIC) == Fraction(1, 2)


def test_edge_cases():
    assert AveragePrecision().exact([], TOPIC) == 0
    no_relevant = Topic.single({"a": 0, "b": 0})
    assert AveragePrecision().exact(["a", "b"], no_relevant) == 0  # R = 0 -> 0
    assert AveragePrecision().score(["a", "b"], no_relevant) == 0.0
    batch = RankingBatch.from_rankings([["a", "b"], []], no_relevant)
    assert list(AveragePrecision().score_batch(batch)) == [0.0, 0.0]
    assert AveragePrecision(100).exact(["b", "a"], TOPIC) == 1  # k > n
    assert list(AveragePrecision(100).score_batch(
        RankingBatch.from_rankings([["b", "a"], []], TOPIC))) == [1.0, 0.0]


@pytest.mark.parametrize("spec", ["AP", "AP@10", "AP@1000"])
def test_spec_round_trip(spec):
    metric = parse(spec)
    assert isinstance(metric, AveragePrecision)
    assert metric.name == spec and parse(metric.name).name == spec


@given(diversity_cases(), st.sampled_from([None, 1, 3, 10, 30]))
def test_float_matches_exact_and_batch(case, k):
    topic, rankings = case
    metric = AveragePrecision(k)
    assert_evaluations_agree(metric, topic, rankings)


def test_batch_on_many_long_rankings():
    # The batched path handles thousands of rankings at depth 1000 at once.
    rng = np.random.default_rng(7)
    docs = [f"d{i}" for i in range(1500)]
    topic = Topic.single({d: Fraction(int(g), 4) for d, g in zip(docs, rng.integers(0, 5, 1500))})
    rankings = [list(rng.permutation(docs)[:1000]) for _ in range(20)]
    metric = AveragePrecision()
    batched = metric.score_batch(RankingBatch.from_rankings(rankings, topic))
    for got, ranking in zip(batched, rankings):
        assert abs(got - metric.score(ranking, topic)) <= 1e-12


# AP (issue 14): hand-computed values with cutoffs, relevance levels and unjudged documents, batched
# too.

# R = 2 (a, b); grades: b (1/2) 1, a (1) 2.
EDGE_TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "n": 0})
RANKINGS = [["n", "a", "u", "b"], ["b", "a"], ["n"], []]


def test_average_precision_by_hand():
    # [n, a, u, b]: (1/2 + 2/4)/2 = 1/2; @2: (1/2)/2 = 1/4. [b, a]: (1 + 1)/2 = 1.
    assert [AveragePrecision().exact(r, EDGE_TOPIC) for r in RANKINGS] == [Fraction(1, 2), 1, 0, 0]
    assert AveragePrecision(2).exact(RANKINGS[0], EDGE_TOPIC) == Fraction(1, 4)
    assert parse("AP(rel=2)").exact(RANKINGS[0], EDGE_TOPIC) == Fraction(1, 2)  # R = 1: a at rank 2
    batch = RankingBatch.from_rankings(RANKINGS, EDGE_TOPIC)
    assert AveragePrecision().score_batch(batch).tolist() == [0.5, 1.0, 0.0, 0.0]
    assert AveragePrecision(2).score_batch(batch).tolist() == [0.25, 1.0, 0.0, 0.0]
    assert AveragePrecision(1).score_batch(batch).tolist() == [0.0, 0.5, 0.0, 0.0]
