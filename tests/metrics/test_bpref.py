"""bpref: hand-computed values, edge cases, float vs exact vs batch, spec."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.bpref import Bpref, judged_nonrelevant
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


# bpref (issue 14): min(n, R) / min(Nn, R) by hand when Nn > R, Nn < R and Nn = 0, unjudged
# documents skipped, scalar and batched.

def check(topic, rankings, want):
    assert [Bpref().exact(r, topic) for r in rankings] == want
    batch = RankingBatch.from_rankings(rankings, topic)
    assert Bpref().score_batch(batch).tolist() == pytest.approx([float(w) for w in want], abs=1e-15)


def test_more_judged_non_relevant_than_relevant():
    # R = 2 (a, b), Nn = 3 (n, m, o): divisor min(3, 2) = 2.
    topic = Topic.single({"a": 1, "b": Fraction(1, 2), "n": 0, "m": 0, "o": 0})
    assert judged_nonrelevant(topic) == 3
    # [a, n, u, b, m, o]: a 1; b: 1 - 1/2 (u unjudged, skipped) -> (3/2)/2 = 3/4.
    # [n, m, o, a]: a: 1 - min(3, 2)/2 = 0 -> 0. [n, a, m, b]: a 1/2, b 0 -> 1/4. []: 0.
    check(topic, [["a", "n", "u", "b", "m", "o"], ["n", "m", "o", "a"], ["n", "a", "m", "b"], []],
          [Fraction(3, 4), 0, Fraction(1, 4), 0])


def test_fewer_judged_non_relevant_than_relevant():
    # R = 3 (a, b, c), Nn = 1 (n): divisor min(1, 3) = 1. [a, n, b]: a 1, b 1 - 1/1 = 0 -> 1/3.
    topic = Topic.single({"a": 1, "b": Fraction(1, 2), "c": Fraction(1, 4), "n": 0})
    check(topic, [["a", "n", "b"], ["c", "u", "b"]], [Fraction(1, 3), Fraction(2, 3)])


def test_no_judged_non_relevant_document():
    # Nn = 0: no term is ever penalised (and nothing is divided by 0). [u, a] -> 1/2; [b, u, a] -> 1.
    topic = Topic.single({"a": 1, "b": 1})
    check(topic, [["u", "a"], ["b", "u", "a"]], [Fraction(1, 2), 1])


def test_relevance_level_two():
    # Grades: b, c (1/2) 1, a (1) 2. At rel = 2: R = 1 (a), Nn = 3 (b, c, n); divisor min(3, 1) = 1.
    topic = Topic.single({"a": 1, "b": Fraction(1, 2), "c": Fraction(1, 2), "n": 0})
    assert judged_nonrelevant(topic, 2) == 3 and judged_nonrelevant(topic, 1) == 1
    assert parse("bpref(rel=2)").exact(["b", "a"], topic) == 0  # a: 1 - min(1, 1)/1
    assert parse("bpref(rel=2)").exact(["a", "b"], topic) == 1


def test_relevance_level_two_counts_lower_grades_as_judged_non_relevant():
    # At rel = 2: R = 2 (a, a2), Nn = 3 (b, c and n, all below grade 2); divisor min(3, 2) = 2.
    # [b, a]: a has b (judged, not relevant at level 2) above: 1 - 1/2; a2 missing: (1/2)/2 = 1/4.
    topic = Topic.single({"a": 1, "a2": 1, "b": Fraction(1, 2), "c": Fraction(1, 2), "n": 0})
    assert parse("bpref(rel=2)").exact(["b", "a"], topic) == Fraction(1, 4)
    assert parse("bpref(rel=2)").exact(["b", "c", "n", "a", "a2"], topic) == 0  # min(3, 2)/2 = 1 each
