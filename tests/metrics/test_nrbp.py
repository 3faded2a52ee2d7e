"""NRBP and nNRBP: hand-computed values, the greedy-ideal normalisation, edge
cases, float vs exact, the batched path and spec strings."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from axiometer.core import Topic, ValidationError
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.nrbp import NNRBP, NRBP
from tests.metrics.agreement import assert_float_matches_exact, assert_batch_matches_score
from tests.strategies import diversity_cases

# x, y unweighted; a covers both, b covers x, c covers y (binary).
TOPIC = Topic({"a": {"x": 1, "y": 1}, "b": {"x": 1}, "c": {"y": 1}, "n": {"x": 0}})


def test_hand_computed():
    # [b, a, c], alpha = beta = 1/2: gains 1 (b: x fresh), 3/2 (a: x seen, y fresh), 1/2 (c: y seen)
    # NRBP = 1 + (1/2)(3/2) + (1/4)(1/2) = 15/8.
    assert NRBP(alpha=0.5, beta=0.5).exact(["b", "a", "c"], TOPIC) == Fraction(15, 8)
    # Greedy ideal gains 2, 1/2, 1/2: 2 + 1/4 + 1/8 = 19/8, so nNRBP = 15/19.
    assert NNRBP(alpha=0.5, beta=0.5).exact(["b", "a", "c"], TOPIC) == Fraction(15, 19)
    # Cutoff 2: NRBP@2 = 1 + 3/4 = 7/4; ideal@2 = 2 + 1/4 = 9/4 -> 7/9.
    assert NRBP(2).exact(["b", "a", "c"], TOPIC) == Fraction(7, 4)
    assert NNRBP(2).exact(["b", "a", "c"], TOPIC) == Fraction(7, 9)
    # alpha = 1/4, beta = 4/5, [a, u, b]: 2 + (4/5)^2 (3/4) = 2 + 12/25 = 62/25.
    assert NRBP(alpha=0.25, beta=0.8).exact(["a", "u", "b"], TOPIC) == Fraction(62, 25)
    assert NRBP(alpha=0.25, beta=0.8).score(["a", "u", "b"], TOPIC) == pytest.approx(2.48, abs=1e-15)


def test_edge_cases():
    for metric in (NRBP(), NNRBP(), NNRBP(3)):
        assert metric.exact([], TOPIC) == 0
        assert metric.exact(["n", "u"], TOPIC) == 0
        assert metric.exact(["a"], Topic({"a": {"x": 0}, "b": {"y": 0}})) == 0
    # Single aspect, graded: [a, b] = 1/2 + beta (1-alpha) 1/4 = 1/2 + 1/16 = 9/16.
    single = Topic.single({"a": Fraction(1, 2), "b": Fraction(1, 4)})
    assert NRBP().exact(["a", "b"], single) == Fraction(9, 16)
    assert NNRBP().exact(["a", "b"], single) == 1
    with pytest.raises(ValidationError):
        NRBP(beta=1.0)


@given(diversity_cases(max_aspects=1), st.sampled_from([0.5, 0.8, 0.99]))
def test_alpha_zero_single_aspect_is_rank_biased_sum(data, beta):
    """Without redundancy penalty on one aspect, NRBP = sum_i beta^(i-1) r(d_i)."""
    topic, rankings = data
    for ranking in rankings:
        expected = sum(Fraction(str(beta)) ** i * Fraction(topic.r(d)) for i, d in enumerate(ranking))
        assert NRBP(alpha=0, beta=beta).exact(ranking, topic) == expected


@pytest.mark.parametrize("spec", ["NRBP", "NRBP(alpha=0.5,beta=0.5)", "nNRBP(alpha=0.1,beta=0.99)",
                                  "nNRBP@20"])
def test_spec_round_trip(spec):
    metric = parse(spec)
    assert isinstance(metric, (NRBP, NNRBP))
    assert parse(metric.name).name == metric.name


@given(diversity_cases(), st.sampled_from([None, 1, 5]), st.sampled_from([0.1, 0.5, 0.75]),
       st.sampled_from([0.5, 0.8, 0.99]))
def test_float_matches_exact(data, k, alpha, beta):
    topic, rankings = data
    for metric in (NRBP(k, alpha=alpha, beta=beta), NNRBP(k, alpha=alpha, beta=beta)):
        assert_float_matches_exact(metric, topic, rankings)


@given(diversity_cases(), st.sampled_from([None, 1, 5, 30]), st.sampled_from([0.0, 0.1, 0.5, 0.75]),
       st.sampled_from([0.5, 0.8, 0.99]))
def test_batch_matches_score(data, k, alpha, beta):
    topic, rankings = data
    for metric in (NRBP(k, alpha=alpha, beta=beta), NNRBP(k, alpha=alpha, beta=beta)):
        assert_batch_matches_score(metric, topic, rankings)


# NRBP / nNRBP (Clarke, Kolla & Vechtomova, ICTIR 2009; ndeval), issue 14: the greedy ideal cut
# at the cutoff, on the scalar and batched paths, with graded relevance and alpha != 1/2.

F = Fraction
# One aspect, graded: b 1, a 1/2, c 1/3. Greedy ideal at alpha = 1/4: b 1, a 3/8, c 3/16.
GRADED = Topic.single({"a": F(1, 2), "b": 1, "c": F(1, 3), "n": 0})


def batch(metric, topic, rankings):
    return metric.score_batch(RankingBatch.from_rankings(rankings, topic)).tolist()


def test_nnrbp_ideal_is_cut_at_k():
    # beta = 1/2, @2. [c, a]: 1/3 + (1/2)(1/2)(3/4) = 1/3 + 3/16 = 25/48.
    # Ideal@2: 1 + (1/2)(3/8) = 19/16.  nNRBP@2 = (25/48)(16/19) = 25/57.
    metric = NNRBP(2, alpha=0.25, beta=0.5)
    assert NRBP(2, alpha=0.25, beta=0.5).exact(["c", "a", "b"], GRADED) == F(25, 48)
    assert metric.exact(["c", "a", "b"], GRADED) == F(25, 57)
    # Without a cutoff: run 25/48 + (1/4)(1)(3/4)^2 = 25/48 + 9/64 = 127/192;
    # ideal 19/16 + (1/4)(3/16) = 79/64.  (127/192)/(79/64) = 127/237.
    assert NNRBP(alpha=0.25, beta=0.5).exact(["c", "a", "b"], GRADED) == F(127, 237)
    assert batch(metric, GRADED, [["c", "a", "b"], ["b", "a"], ["n"]]) == pytest.approx(
        [25 / 57, 1.0, 0.0], abs=1e-15)
    assert batch(NNRBP(alpha=0.25, beta=0.5), GRADED, [["c", "a", "b"]]) == pytest.approx(
        [127 / 237], abs=1e-15)
    assert batch(NRBP(2, alpha=0.25, beta=0.5), GRADED, [["c", "a", "b"]]) == pytest.approx(
        [25 / 48], abs=1e-15)


def test_no_relevant_document_batched():
    topic = Topic({"a": {"x": 0}, "b": {"y": 0}})
    assert batch(NNRBP(), topic, [["a", "b"], []]) == [0.0, 0.0]
    assert batch(NNRBP(1), topic, [["a"]]) == [0.0]
