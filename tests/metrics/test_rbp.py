"""RBP(p): hand-computed values, parameter validation, edge cases, float vs
exact, the batched path, and the spec string."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from axiometer.core import InputError, Topic, ValidationError
from axiometer.metrics import RankingBatch, parse
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
