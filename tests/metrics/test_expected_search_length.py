"""Expected search length: hand-computed values, the final weak level past
the ranking, edge cases, float vs exact vs batch, spec."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.expected_search_length import ExpectedSearchLength as ESL
from tests.metrics.agreement import assert_evaluations_agree
from tests.strategies import diversity_cases

# R = 2 (a, b); judged non-relevant c, n; u, v unjudged.
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0, "n": 0})


def test_strict_ranking_hand_computed():
    # s = 1: c and u (unjudged counts as non-relevant) come before a -> 2.
    assert ESL().exact(["c", "u", "a"], TOPIC) == 2
    assert ESL().score(["c", "u", "a"], TOPIC) == 2.0
    # s = 2: c before a, n before b -> 2.
    assert ESL(s=2).exact(["c", "a", "n", "b"], TOPIC) == 2


def test_final_weak_level_hand_computed():
    # s = 2, ranking [c, a]: j = 1 (c); unretrieved level: r = 1 (b), i = 1 (n), s' = 1:
    # 1 + 1 * 1 / (1 + 1) = 3/2.
    assert ESL(s=2).exact(["c", "a"], TOPIC) == Fraction(3, 2)
    # s = 3 > R = 2 is capped at 2: the same 3/2.
    assert ESL(s=3).exact(["c", "a"], TOPIC) == Fraction(3, 2)
    # Empty ranking, s = 1: one level of r = 2, i = 2: 2 * 1 / 3 = 2/3 (Cooper's formula).
    assert ESL().exact([], TOPIC) == Fraction(2, 3)


def test_edge_cases():
    no_relevant = Topic.single({"a": 0, "b": 0})
    assert ESL().exact(["a", "b"], no_relevant) == 0  # R = 0 -> 0
    assert list(ESL().score_batch(RankingBatch.from_rankings([["a", "b"], []], no_relevant))) == [0, 0]
    # s = 2. [c, u, a]: j = 2, level r = 1 (b), i = 1 (n), s' = 1: 2 + 1/2 = 5/2.
    # [c, a]: 3/2 (above). []: j = 0, level r = 2, i = 2, s' = 2: 2 * 2 / 3 = 4/3.
    # [a, b]: no non-relevant document before b: 0.
    batch = RankingBatch.from_rankings([["c", "u", "a"], ["c", "a"], [], ["a", "b"]], TOPIC)
    assert list(ESL(s=2).score_batch(batch)) == pytest.approx([2.5, 1.5, 4 / 3, 0.0], abs=1e-15)
    assert ESL(s=2).exact([], TOPIC) == Fraction(4, 3)
    empty = RankingBatch.from_rankings([[]], TOPIC)  # depth 0
    assert list(ESL().score_batch(empty)) == pytest.approx([2 / 3], abs=1e-15)
    with pytest.raises(Exception, match="s"):
        ESL(s=0)


@pytest.mark.parametrize("spec, name", [("ESL", "ESL(s=1)"), ("ESL(s=3)", "ESL(s=3)")])
def test_spec_round_trip(spec, name):
    metric = parse(spec)
    assert metric.name == name and parse(metric.name).name == name
    with pytest.raises(Exception, match="no cutoff"):
        parse("ESL@10")


@given(diversity_cases(), st.integers(1, 4))
def test_float_matches_exact_and_batch(case, s):
    topic, rankings = case
    assert_evaluations_agree(ESL(s=s), topic, rankings)


# ESL (issue 14): unjudged documents in the ranking and the final weak level, relevance levels, and
# the batched path by hand.

def test_unjudged_documents_count_above_but_not_in_the_final_level():
    # s = 1, [u, c]: j = 2 (u, c); level: r = 2 (a, b), i = 2 judged non-relevant - 1 retrieved (c) = 1,
    # s' = 1: 2 + 1 * 1 / 3 = 7/3.
    assert ESL().exact(["u", "c"], TOPIC) == Fraction(7, 3)
    # s = 2, [a, u, v]: found 1; j = 2 (u, v); level: r = 1 (b), i = 2 (c, n), s' = 1: 2 + 2/2 = 3.
    assert ESL(s=2).exact(["a", "u", "v"], TOPIC) == 3
    # s = 2, [u, a, c, b]: non-relevant u and c before b: 2.
    assert ESL(s=2).exact(["u", "a", "c", "b"], TOPIC) == 2
    rankings = [["u", "c"], ["a", "u", "v"], ["u", "a", "c", "b"], ["b"], ["n", "c", "u"]]
    # [b], s = 2: j = 0, r = 1 (a), i = 2, s' = 1: 2/2 = 1. [n, c, u], s = 2: j = 3, r = 2, i = 0: 3.
    batch = RankingBatch.from_rankings(rankings, TOPIC)
    # [u, c], s = 2: j = 2, r = 2, i = 1, s' = 2: 2 + 1 * 2 / 3 = 8/3.
    assert [ESL(s=2).exact(r, TOPIC) for r in rankings] == [Fraction(8, 3), 3, 2, 1, 3]
    assert ESL(s=2).score_batch(batch).tolist() == pytest.approx([8 / 3, 3.0, 2.0, 1.0, 3.0], abs=1e-15)
    # s = 1: [u, c] 7/3, [a, ...] 0, [u, a, ...] 1, [b] 0, [n, c, u]: j = 3, r = 2, i = 0: 3.
    assert ESL().score_batch(batch).tolist() == pytest.approx([7 / 3, 0.0, 1.0, 0.0, 3.0], abs=1e-15)


def test_relevance_level_two():
    # At rel = 2 only a is relevant (R = 1); b counts as non-relevant.
    metric = parse("ESL(rel=2)")
    assert metric.exact(["b", "c", "a"], TOPIC) == 2
    # [b]: j = 1; level: r = 1 (a), i = 3 (b, c, n not relevant at 2) - 1 retrieved = 2, s' = 1: 1 + 2/2 = 2.
    assert metric.exact(["b"], TOPIC) == 2
    with pytest.raises(NotImplementedError):
        metric.score_batch(RankingBatch.from_rankings([["b"]], TOPIC))
