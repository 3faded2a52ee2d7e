"""RBP(p): hand-computed values (exact, float and batched, with and without a cutoff), parameter
validation, edge cases, float vs exact, the browsing model's declared parts, and the spec string."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from axiometer.core import InputError, Topic, ValidationError
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.arithmetic import EXACT
from axiometer.metrics.rbp import RBP
from tests.metrics.agreement import assert_evaluations_agree
from tests.strategies import diversity_cases

TOPIC = Topic.single({"a": Fraction(1, 2), "b": Fraction(1, 4), "c": 0})


def test_hand_computed():
    # p = 1/2, [b, c, a]: (1 - 1/2) (1/4 + 1/2 * 0 + 1/4 * 1/2) = 1/2 * 3/8 = 3/16.
    assert RBP(p=0.5).exact(["b", "c", "a"], TOPIC) == Fraction(3, 16)
    assert RBP(p=0.5).score(["b", "c", "a"], TOPIC) == pytest.approx(0.1875, abs=1e-15)
    # p = 0.8 (read exactly as 4/5), [u, a]: 1/5 * 4/5 * 1/2 = 2/25.
    assert RBP().exact(["u", "a"], TOPIC) == Fraction(2, 25)
    # A cutoff truncates, no renormalisation: RBP(p=1/2)@2 of [b, c, a] = 1/2 * 1/4 = 1/8.
    assert RBP(2, p=0.5).exact(["b", "c", "a"], TOPIC) == Fraction(1, 8)
    # p = 3/4, [a, b]: (1/4)(1/2 + 3/4 * 1/4) = (1/4)(11/16) = 11/64.
    assert RBP(p=0.75).exact(["a", "b"], TOPIC) == Fraction(11, 64)


def test_the_batched_path_gives_the_hand_computed_values():
    # The values of test_hand_computed, and [a, b] at p = 1/2: (1/2)(1/2 + 1/2 * 1/4) = 5/16, the same
    # @2; at p = 3/4 [b, c, a]: (1/4)(1/4 + 0 + 9/16 * 1/2) = 17/128.
    batch = RankingBatch.from_rankings([["b", "c", "a"], ["a", "b"], []], TOPIC)
    assert RBP(p=0.5).score_batch(batch).tolist() == pytest.approx([3 / 16, 5 / 16, 0.0], abs=1e-15)
    assert RBP(2, p=0.5).score_batch(batch).tolist() == pytest.approx([1 / 8, 5 / 16, 0.0], abs=1e-15)
    assert RBP(p=0.75).score_batch(batch).tolist() == pytest.approx([17 / 128, 11 / 64, 0.0], abs=1e-15)


def test_parameter():
    assert RBP().p == 0.8 and RBP.param_info[0].grid == (0.8, 0.9, 0.99)
    for bad in (0, 1, 1.5, -0.1):
        with pytest.raises(ValidationError, match="outside its range"):
            RBP(p=bad)
    with pytest.raises(InputError, match="p"):
        parse("RBP(p=1)")
    assert RBP(p=Fraction(1, 3)).exact(["a"], TOPIC) == Fraction(2, 3) * Fraction(1, 2)


def test_edge_cases():
    assert RBP().exact([], TOPIC) == 0 and RBP().score([], TOPIC) == 0.0
    assert RBP().exact(["c", "u"], TOPIC) == 0
    assert RBP(100, p=0.5).exact(["b", "c", "a"], TOPIC) == Fraction(3, 16)  # k > n
    batch = RankingBatch.from_rankings([[], ["b", "c", "a"]], TOPIC)
    assert list(RBP(p=0.5).score_batch(batch)) == [0.0, 0.1875]


@pytest.mark.parametrize("spec", ["RBP(p=0.8)", "RBP(p=0.99)", "RBP(p=0.9)@10", "RBP(p=0.5)"])
def test_spec_round_trip(spec):
    metric = parse(spec)
    assert isinstance(metric, RBP)
    assert metric.name == spec and parse(metric.name).name == spec
    assert parse("RBP").name == "RBP(p=0.8)"


@given(diversity_cases(), st.sampled_from([0.5, 0.8, 0.9, 0.99]), st.sampled_from([None, 1, 3, 10]))
def test_float_matches_exact_and_batch(case, p, k):
    topic, rankings = case
    metric = RBP(k, p=p)
    assert_evaluations_agree(metric, topic, rankings)


def test_browsing_model_declares_its_parts():
    model = RBP(3, p=0.75).browsing_model()
    assert model.name == "RBP(p=0.75)@3" and model.depth == 3 and model.unit_range and model.graded
    assert model.normaliser(EXACT) == Fraction(1, 4)
    assert [model.seen(i, EXACT) for i in (1, 3, 4)] == [1, Fraction(9, 16), 0]
    assert model.score(["c", "b"], TOPIC, EXACT) == Fraction(3, 64)  # (1/4)(3/4)(1/4)
