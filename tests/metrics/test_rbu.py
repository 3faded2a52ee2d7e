"""RBU@k: hand-computed values of both forms, the (1-p)/p relation between
them, the effort term, the p -> 1 limit, edge cases, float vs exact, the
batched path and spec strings."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from axiometer.core import Topic, ValidationError, to_fraction
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.rbu import RBU
from tests.metrics.agreement import assert_float_matches_exact, assert_batch_matches_score
from tests.strategies import diversity_cases

# w(x) = 1/4, w(y) = 3/4.
TOPIC = Topic({"a": {"x": Fraction(1, 2), "y": Fraction(1, 2)}, "b": {"x": Fraction(1, 2)},
               "c": {"y": 1}},
              {"x": Fraction(1, 4), "y": Fraction(3, 4)})
RANKING = ["a", "b", "u", "c"]


def test_hand_computed_paper_form():
    # p = 4/5, e = 1/20, [a, b, u, c]:
    #   1 a: (1/4)(1/2) + (3/4)(1/2) = 1/2;           p^1 (1/2 - 1/20)   = (4/5)(9/20)      = 9/25
    #        unsatisfied x = 1/2, y = 1/2
    #   2 b: (1/4)(1/2)(1/2) = 1/16;                  p^2 (1/16 - 1/20)  = (16/25)(1/80)    = 1/125
    #   3 u: 0;                                       p^3 (0 - 1/20)     = -(64/125)/20     = -16/625
    #   4 c: (3/4)(1)(1/2) = 3/8;                     p^4 (3/8 - 1/20)   = (256/625)(13/40) = 416/3125
    # RBU = (1125 + 25 - 80 + 416) / 3125 = 1486/3125.
    assert RBU(p=0.8, e=0.05).exact(RANKING, TOPIC) == Fraction(1486, 3125)
    assert RBU(p=0.8, e=0.05).score(RANKING, TOPIC) == pytest.approx(0.47552, abs=1e-15)
    # @2: 9/25 + 1/125 = 46/125.
    assert RBU(2, p=0.8, e=0.05).exact(RANKING, TOPIC) == Fraction(46, 125)


def test_hand_computed_reference_form():
    # (1-p) sum_t w(t) sum_i p^(i-1) r(d_i,t) prod_{j<i}(1 - r(d_j,t)):
    #   x: 1/2 + (4/5)(1/2)(1/2) = 7/10;   y: 1/2 + (4/5)^3 (1)(1/2) = 189/250
    #   (1/5) ((1/4)(7/10) + (3/4)(189/250)) = (1/5)(742/1000) = 742/5000
    # effort: e (1-p) (1 + 4/5 + 16/25 + 64/125) = (1/20)(1/5)(369/125) = 369/12500
    # RBU_ref = 1855/12500 - 369/12500 = 1486/12500 = 743/6250  (= paper * (1-p)/p = 1486/3125 / 4).
    assert RBU(p=0.8, e=0.05, form="reference").exact(RANKING, TOPIC) == Fraction(743, 6250)


@given(diversity_cases(), st.sampled_from([None, 1, 3, 10]), st.sampled_from([0.5, 0.8, 0.99]),
       st.sampled_from([0.0, 0.03, 0.1]))
def test_reference_is_paper_times_constant(data, k, p, e):
    topic, rankings = data
    factor = (1 - to_fraction(p)) / to_fraction(p)
    for ranking in rankings:
        paper = RBU(k, p=p, e=e).exact(ranking, topic)
        assert RBU(k, p=p, e=e, form="reference").exact(ranking, topic) == paper * factor


@given(diversity_cases(), st.sampled_from([0.8, 0.9]), st.sampled_from([0.001, 0.5]))
def test_effort_is_linear(data, p, e):
    """RBU(e) = RBU(0) - e sum_{i<=n} p^i: the effort depends on the length only."""
    topic, rankings = data
    p_exact = to_fraction(p)
    for ranking in rankings:
        paid = sum(p_exact ** i for i in range(1, len(ranking) + 1))
        assert RBU(p=p, e=e).exact(ranking, topic) == RBU(p=p, e=0).exact(ranking, topic) - to_fraction(e) * paid


@given(diversity_cases(max_docs=6))
def test_patience_one_limit_telescopes(data):
    """e = 0, p -> 1: sum_i r_i prod_{j<i}(1 - r_j) telescopes to 1 - prod_i (1 - r_i) per aspect."""
    topic, rankings = data
    p = Fraction(10**9 - 1, 10**9)
    for ranking in rankings:
        limit = sum(Fraction(w) * (1 - _product(1 - Fraction(topic.r(d, t)) for d in ranking))
                    for t, w in zip(topic.aspects, topic.weights))
        assert abs(RBU(p=p, e=0).exact(ranking, topic) - limit) <= Fraction(len(ranking), 10**9)


def _product(values) -> Fraction:
    result = Fraction(1)
    for v in values:
        result *= v
    return result


def test_edge_cases():
    for form in ("paper", "reference"):
        metric = RBU(p=0.8, e=0.05, form=form)
        assert metric.exact([], TOPIC) == 0
        assert RBU(p=0.8, e=0, form=form).exact(["a"], Topic({"a": {"x": 0}, "b": {"y": 0}})) == 0
    # No relevant document: only effort. Paper: -(1/20)(4/5 + 16/25) = -9/125.
    assert RBU(p=0.8, e=0.05).exact(["u", "v"], TOPIC) == Fraction(-9, 125)
    # Single aspect, e = 0, p = 1/2: [a, b] with r = 1/2: (1/2)(1/2) + (1/4)(1/2)(1/2) = 5/16.
    single = Topic.single({"a": Fraction(1, 2), "b": Fraction(1, 2)})
    assert RBU(p=0.5, e=0).exact(["a", "b"], single) == Fraction(5, 16)
    for bad in ({"p": 1.0}, {"p": 0.0}, {"e": -0.1}, {"form": "java"}):
        with pytest.raises(ValidationError):
            RBU(**bad)


@pytest.mark.parametrize("spec", ["RBU", "RBU(p=0.8,e=0.05)@10", "RBU(p=0.99,e=0.05)@20",
                                  "RBU(p=0.8,e=0.03,form='reference')", "RBU(form=reference)"])
def test_spec_round_trip(spec):
    metric = parse(spec)
    assert isinstance(metric, RBU)
    assert parse(metric.name).name == metric.name


@given(diversity_cases(), st.sampled_from([None, 1, 5, 30]), st.sampled_from([0.5, 0.8, 0.99]),
       st.sampled_from([0.0, 0.05, 0.5]), st.sampled_from(["paper", "reference"]))
def test_float_matches_exact(data, k, p, e, form):
    topic, rankings = data
    metric = RBU(k, p=p, e=e, form=form)
    assert_float_matches_exact(metric, topic, rankings)


@given(diversity_cases(), st.sampled_from([None, 1, 5, 30]), st.sampled_from([0.5, 0.8, 0.99]),
       st.sampled_from([0.0, 0.05, 0.5]), st.sampled_from(["paper", "reference"]))
def test_batch_matches_score(data, k, p, e, form):
    topic, rankings = data
    metric = RBU(k, p=p, e=e, form=form)
    assert_batch_matches_score(metric, topic, rankings)


# RBU (Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018), issue 14: both forms batched, with
# rankings of different lengths (effort is paid only where a document is) and a cutoff.

def batch(metric, rankings):
    return metric.score_batch(RankingBatch.from_rankings(rankings, TOPIC)).tolist()


def test_both_forms_batched_over_unequal_lengths():
    # p = 4/5, e = 1/20. Paper form (test_rbu): [a, b, u, c] = 1486/3125; [a] = (4/5)(1/2 - 1/20)
    # = 9/25; [] = 0. Reference = paper * (1-p)/p = paper / 4: 743/6250, 9/100, 0.
    rankings = [["a", "b", "u", "c"], ["a"], []]
    paper, reference = RBU(p=0.8, e=0.05), RBU(p=0.8, e=0.05, form="reference")
    assert paper.exact(["a"], TOPIC) == Fraction(9, 25)
    assert reference.exact(["a"], TOPIC) == Fraction(9, 100)
    assert batch(paper, rankings) == pytest.approx([1486 / 3125, 9 / 25, 0.0], abs=1e-15)
    assert batch(reference, rankings) == pytest.approx([743 / 6250, 9 / 100, 0.0], abs=1e-15)
    # @2: paper 9/25 + (16/25)(1/16 - 1/20) = 46/125; reference 46/500.
    assert RBU(2, p=0.8, e=0.05, form="reference").exact(rankings[0], TOPIC) == Fraction(46, 500)
    assert batch(RBU(2, p=0.8, e=0.05), rankings) == pytest.approx([46 / 125, 9 / 25, 0.0], abs=1e-15)
    assert batch(RBU(2, p=0.8, e=0.05, form="reference"), rankings) == pytest.approx(
        [46 / 500, 9 / 100, 0.0], abs=1e-15)
