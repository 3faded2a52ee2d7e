"""bpref: hand-computed values, edge cases, float vs exact vs batch, spec."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.bpref import Bpref
from tests.metrics.agreement import assert_evaluations_agree
from tests.strategies import diversity_cases

# R = 2 (a, b); Nn = 3 judged non-relevant (c, n, m), so the divisor is min(3, 2) = 2.
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 3), "c": 0, "n": 0, "m": 0})


def test_hand_computed():
    # a: judged non-relevant above = 1 (c; u is unjudged) -> 1 - 1/2 = 1/2;
    # b: 3 above, capped at R = 2 -> 1 - 2/2 = 0.  bpref = (1/2 + 0) / 2 = 1/4.
    assert Bpref().exact(["c", "u", "a", "n", "m", "b"], TOPIC) == Fraction(1, 4)
    assert Bpref().score(["c", "u", "a", "n", "m", "b"], TOPIC) == 0.25
    # a: 1; b: 1 - 1/2 -> (1 + 1/2) / 2 = 3/4.
    assert Bpref().exact(["a", "c", "b"], TOPIC) == Fraction(3, 4)
    # b is not retrieved: (1 + 0) / 2 = 1/2; unjudged documents cost nothing.
    assert Bpref().exact(["u", "v", "a"], TOPIC) == Fraction(1, 2)


def test_edge_cases():
    assert Bpref().exact([], TOPIC) == 0
    no_relevant = Topic.single({"a": 0, "b": 0})
    assert Bpref().exact(["a", "b"], no_relevant) == 0  # R = 0 -> 0
    assert list(Bpref().score_batch(RankingBatch.from_rankings([["a", "b"], []], no_relevant))) == [0, 0]
    # Nn = 0: no judged non-relevant document can be above, every retrieved relevant one scores 1.
    all_relevant = Topic.single({"a": 1, "b": 1})
    assert Bpref().exact(["u", "a"], all_relevant) == Fraction(1, 2)
    assert list(Bpref().score_batch(RankingBatch.from_rankings([["u", "a"], []], all_relevant))) \
        == [0.5, 0.0]


def test_spec_round_trip():
    metric = parse("bpref")
    assert isinstance(metric, Bpref) and metric.name == "bpref"
    with pytest.raises(Exception, match="no cutoff"):
        parse("bpref@10")


@given(diversity_cases())
def test_float_matches_exact_and_batch(case):
    topic, rankings = case
    assert_evaluations_agree(Bpref(), topic, rankings)
