"""S-Recall@k and S-RR@100% (Zhai, Cohen & Lafferty, SIGIR 2003), issue 14: an aspect without a
relevant document is not coverable, graded relevance covers, on both paths; empty batches."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch
from axiometer.metrics.subtopic_recall import (SubtopicRecall, SubtopicReciprocalRank,
                                               coverable_aspects, covered_aspects)

# x, y coverable (a, b); z judged but never relevant.
TOPIC = Topic({"a": {"x": 1, "z": 0}, "b": {"y": Fraction(1, 2)}, "n": {"x": 0, "y": 0, "z": 0}})


def batch(metric, topic, rankings):
    return metric.score_batch(RankingBatch.from_rankings(rankings, topic)).tolist()


def test_coverable_and_covered():
    assert coverable_aspects(TOPIC) == {0, 1}
    assert covered_aspects(["n", "a"], TOPIC) == {0}
    assert covered_aspects(["b", "u"], TOPIC) == {1}


def test_both_metrics_on_both_paths():
    rankings = [["a", "n", "b"], ["b", "a"], ["a"], ["n"], []]
    # S-RR: all of {x, y} first at 3, 2; never; never; never.
    srr = SubtopicReciprocalRank()
    assert [srr.exact(r, TOPIC) for r in rankings] == [Fraction(1, 3), Fraction(1, 2), 0, 0, 0]
    assert batch(srr, TOPIC, rankings) == pytest.approx([1 / 3, 1 / 2, 0, 0, 0], abs=1e-15)
    # S-Recall@2: {x}, {x, y}, {x}, {}, {} of 2.
    recall = SubtopicRecall(2)
    assert [recall.exact(r, TOPIC) for r in rankings] == [Fraction(1, 2), 1, Fraction(1, 2), 0, 0]
    assert batch(recall, TOPIC, rankings) == pytest.approx([0.5, 1, 0.5, 0, 0], abs=1e-15)


def test_empty_batches_and_no_coverable_aspect():
    assert batch(SubtopicReciprocalRank(), TOPIC, [[], []]) == [0.0, 0.0]
    none = Topic({"a": {"x": 0}})
    assert batch(SubtopicReciprocalRank(), none, [["a"]]) == [0.0]
    assert batch(SubtopicRecall(1), none, [["a"]]) == [0.0]
    assert SubtopicReciprocalRank().exact(["a"], none) == 0
