"""S-Recall@k and S-RR@100%: hand-computed values, the coverable-aspect rule,
edge cases, float vs exact, the batched path and spec strings."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from axiometer.core import Topic, ValidationError
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.subtopic_recall import SubtopicReciprocalRank, SubtopicRecall
from axiometer.metrics.subtopic_recall import coverable_aspects, covered_aspects
from tests.metrics.agreement import assert_float_matches_exact, assert_batch_matches_score
from tests.strategies import diversity_cases

# Aspects w, x, y, z. Nothing is relevant to w (only judged 0): coverable are x, y, z.
TOPIC = Topic({"a": {"x": 1, "y": 0}, "b": {"y": Fraction(1, 2)}, "c": {"x": Fraction(1, 4)},
               "d": {"z": Fraction(1, 100)}, "n": {"w": 0}})


def test_hand_computed_recall():
    ranking = ["a", "c", "b", "d"]
    # top 2 = a, c cover {x}: 1/3;  top 3 adds b (y): 2/3;  top 4 adds d (z): 3/3.
    assert SubtopicRecall(2).exact(ranking, TOPIC) == Fraction(1, 3)
    assert SubtopicRecall(3).exact(ranking, TOPIC) == Fraction(2, 3)
    assert SubtopicRecall(4).exact(ranking, TOPIC) == 1
    # Unjudged and non-relevant documents cover nothing; any r > 0 covers (d: 1/100).
    assert SubtopicRecall(10).exact(["u", "n", "d"], TOPIC) == Fraction(1, 3)


def test_hand_computed_reciprocal_rank():
    # [a, c, b, d]: x at 1, y at 3, z at 4 -> all three covered at rank 4 -> 1/4.
    assert SubtopicReciprocalRank().exact(["a", "c", "b", "d"], TOPIC) == Fraction(1, 4)
    # [d, b, a]: z, y, x -> rank 3.
    assert SubtopicReciprocalRank().exact(["d", "b", "a"], TOPIC) == Fraction(1, 3)
    # Never covers z.
    assert SubtopicReciprocalRank().exact(["a", "b"], TOPIC) == 0


def test_aspects_without_relevant_documents_do_not_count():
    # |T| = 4 would cap recall at 3/4 and make S-RR 0 for every ranking of this topic.
    assert SubtopicRecall(4).exact(["a", "b", "d"], TOPIC) == 1
    assert SubtopicReciprocalRank().exact(["a", "b", "d"], TOPIC) == Fraction(1, 3)


def test_edge_cases():
    for metric in (SubtopicRecall(5), SubtopicReciprocalRank()):
        assert metric.exact([], TOPIC) == 0
        assert metric.exact(["a", "b"], Topic({"a": {"x": 0}, "b": {"y": 0}})) == 0
    single = Topic.single({"a": 1, "b": 0})
    assert SubtopicRecall(1).exact(["b", "a"], single) == 0
    assert SubtopicRecall(2).exact(["b", "a"], single) == 1
    assert SubtopicReciprocalRank().exact(["b", "a"], single) == Fraction(1, 2)
    assert SubtopicRecall().cutoff == 10
    with pytest.raises(ValidationError):
        SubtopicReciprocalRank(cutoff=5)


@pytest.mark.parametrize("spec", ["StRecall", "StRecall@5", "StRecall@20", "SRR"])
def test_spec_round_trip(spec):
    metric = parse(spec)
    assert isinstance(metric, (SubtopicRecall, SubtopicReciprocalRank))
    assert parse(metric.name).name == metric.name


@given(diversity_cases())
def test_recall_and_reciprocal_rank_agree(data):
    """S-RR > 0 exactly when the whole ranking reaches S-Recall 1; S-Recall grows with k."""
    topic, rankings = data
    for ranking in rankings:
        full = SubtopicRecall(max(len(ranking), 1)).exact(ranking, topic)
        srr = SubtopicReciprocalRank().exact(ranking, topic)
        assert (srr > 0) == (full == 1)
        if srr > 0:
            first = int(1 / srr)
            assert SubtopicRecall(first).exact(ranking, topic) == 1
            assert first == 1 or SubtopicRecall(first - 1).exact(ranking, topic) < 1
        values = [SubtopicRecall(k).exact(ranking, topic) for k in range(1, len(ranking) + 2)]
        assert values == sorted(values)


@given(diversity_cases(), st.integers(1, 30))
def test_float_matches_exact(data, k):
    topic, rankings = data
    for metric in (SubtopicRecall(k), SubtopicReciprocalRank()):
        assert_float_matches_exact(metric, topic, rankings)


@given(diversity_cases(), st.integers(1, 30))
def test_batch_matches_score(data, k):
    topic, rankings = data
    for metric in (SubtopicRecall(k), SubtopicReciprocalRank()):
        assert_batch_matches_score(metric, topic, rankings)


# S-Recall@k and S-RR@100% (Zhai, Cohen & Lafferty, SIGIR 2003), issue 14: an aspect without a
# relevant document is not coverable, graded relevance covers, on both paths; empty batches.

# x, y coverable (a, b); z judged but never relevant.
EDGE_TOPIC = Topic({"a": {"x": 1, "z": 0}, "b": {"y": Fraction(1, 2)}, "n": {"x": 0, "y": 0, "z": 0}})


def batch(metric, topic, rankings):
    return metric.score_batch(RankingBatch.from_rankings(rankings, topic)).tolist()


def test_coverable_and_covered():
    assert coverable_aspects(EDGE_TOPIC) == {0, 1}
    assert covered_aspects(["n", "a"], EDGE_TOPIC) == {0}
    assert covered_aspects(["b", "u"], EDGE_TOPIC) == {1}


def test_both_metrics_on_both_paths():
    rankings = [["a", "n", "b"], ["b", "a"], ["a"], ["n"], []]
    # S-RR: all of {x, y} first at 3, 2; never; never; never.
    srr = SubtopicReciprocalRank()
    assert [srr.exact(r, EDGE_TOPIC) for r in rankings] == [Fraction(1, 3), Fraction(1, 2), 0, 0, 0]
    assert batch(srr, EDGE_TOPIC, rankings) == pytest.approx([1 / 3, 1 / 2, 0, 0, 0], abs=1e-15)
    # S-Recall@2: {x}, {x, y}, {x}, {}, {} of 2.
    recall = SubtopicRecall(2)
    assert [recall.exact(r, EDGE_TOPIC) for r in rankings] == [Fraction(1, 2), 1, Fraction(1, 2), 0, 0]
    assert batch(recall, EDGE_TOPIC, rankings) == pytest.approx([0.5, 1, 0.5, 0, 0], abs=1e-15)


def test_empty_batches_and_no_coverable_aspect():
    assert batch(SubtopicReciprocalRank(), EDGE_TOPIC, [[], []]) == [0.0, 0.0]
    none = Topic({"a": {"x": 0}})
    assert batch(SubtopicReciprocalRank(), none, [["a"]]) == [0.0]
    assert batch(SubtopicRecall(1), none, [["a"]]) == [0.0]
    assert SubtopicReciprocalRank().exact(["a"], none) == 0
