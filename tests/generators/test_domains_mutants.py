"""Domains of outputs (axiometer.generators.domains): the edges the main tests leave open.

- the argument checks, each a whole one-line message naming the argument;
- the R filter with several non-zero grades and with no grade 0 (where grade index 0 is relevant);
- ``sets`` with both ``size`` and ``nonrel``; ``R = N``; zero counts;
- ``RankingsDomain.batch`` equal, array by array, to ``RankingBatch.from_rankings`` (the batch its
  docstring says it is equivalent to);
- ``outputs`` validates its rankings and iterates in the order given.

Every size is counted by hand in a comment.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from axiometer.core import Ranking, Topic, ValidationError
from axiometer.generators.domains import outputs, rankings, sets, users
from axiometer.metrics import RankingBatch


def _raises(message, build, *args, **kwargs):
    with pytest.raises(ValidationError) as info:
        build(*args, **kwargs)
    assert str(info.value) == message


# -- rankings ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, message", [
    ({"n": -1}, "rankings: n must be a non-negative integer, got -1"),
    ({"n": 1.5}, "rankings: n must be a non-negative integer, got 1.5"),
    ({"n": True}, "rankings: n must be a non-negative integer, got True"),
    ({"n": 2, "grades": ()}, "rankings: at least one grade is needed"),
    ({"n": 2, "grades": (0, Fraction(3, 2))}, "rankings: grade 3/2 is outside [0, 1]"),
    ({"n": 2, "R": -1}, "rankings: R must be a non-negative integer, got -1"),
    ({"n": 2, "R": 1.5}, "rankings: R must be a non-negative integer, got 1.5"),
    ({"n": 2, "R": True}, "rankings: R must be a non-negative integer, got True"),
    ({"n": 2, "grades": (0,), "R": 1}, "rankings: R > 0 needs a non-zero grade"),
    # 2^32 outputs: refused before anything is allocated.
    ({"n": 32}, "rankings: 2^32 outputs is too many to enumerate"),
    ({"n": 20, "grades": (0, Fraction(1, 2), 1)}, "rankings: 3^20 outputs is too many to enumerate"),
])
def test_rankings_rejects(kwargs, message):
    _raises(message, rankings, **kwargs)


def test_rankings_zero_counts_are_allowed():
    # R = 0 with a relevant grade: no relevant document, so only (0, 0) is realisable.
    d = rankings(2, R=0)
    assert (d.size, d.per_grade, d.topic.R, d.label(0)) == (1, 0, 0, "(0, 0)")
    assert d.name == "rankings(n=2, grades={0,1}, lengths=exact, R=0)"
    # Only grade 0 and R = 0: 1^2 = 1 sequence, no document per non-zero grade.
    d = rankings(2, grades=(0,), R=0)
    assert (d.size, d.per_grade, d.topic.R) == (1, 0, 0)
    assert d.topic.documents == ("0#1", "0#2")  # n judged non-relevant documents


def test_rankings_of_128_outputs_are_all_enumerated():
    # 2^7 = 128 binary sequences, all distinct, first (0,...,0) and last (1,...,1).
    d = rankings(7)
    labels = {d.label(i) for i in range(d.size)}
    assert d.size == len(labels) == 128
    assert d.grade_sequence(127) == (1,) * 7


def test_R_filter_applies_to_every_non_zero_grade():
    # R = 2 over the non-zero grades {1/2, 1}: one document of each. Of the 3^2 = 9 sequences,
    # (1/2, 1/2) and (1, 1) need two documents of one grade: 7 are left.
    d = rankings(2, grades=(0, Fraction(1, 2), 1), R=2)
    labels = [d.label(i) for i in range(d.size)]
    assert labels == ["(0, 0)", "(0, 1/2)", "(0, 1)", "(1/2, 0)", "(1/2, 1)", "(1, 0)", "(1, 1/2)"]


def test_R_filter_ignores_the_columns_past_a_ranking_s_end():
    # No grade 0: grade index 0 is 1/2, the value the unused columns of a short row hold.
    # R = 2: one document of 1/2 and one of 1. Lengths 0..2: () ; (1/2,), (1,) ; and of the four
    # pairs only (1/2, 1), (1, 1/2): 5 outputs, (1/2,) among them.
    d = rankings(2, grades=(Fraction(1, 2), 1), lengths="upto", R=2)
    assert [d.label(i) for i in range(d.size)] == ["()", "(1/2,)", "(1,)", "(1/2, 1)", "(1, 1/2)"]


def test_domain_topics_are_named_domain():
    assert rankings(1).topic.topic_id == "domain"
    assert sets(2, 1).topic.topic_id == "domain"
    assert users(1, 1).topic.topic_id == "domain"


def test_more_than_128_grades_are_enumerated_by_index():
    # 200 grades i/199: rankings(n=1) has 200 outputs, output i being the i-th grade. (The rows were
    # int8: index 128 wrapped to -128 and output 128 read as grade 72/199.)
    grades = [Fraction(i, 199) for i in range(200)]
    d = rankings(1, grades=grades)
    assert [d.grade_sequence(i) for i in range(d.size)] == [(g,) for g in grades]


@pytest.mark.parametrize("lengths", ["exact", "upto"])
def test_batch_is_the_from_rankings_batch(lengths):
    # Grades without 0 make index 0 relevant, so a wrong valid mask or length would show.
    d = rankings(2, grades=(Fraction(1, 2), 1), lengths=lengths)
    reference = RankingBatch.from_rankings([r for r, _ in d], d.topic, depth=2)
    for start, stop in ((0, None), (1, 3)):
        batch = d.batch(start, stop)
        assert batch.topic is d.topic
        assert batch.lengths.dtype == np.int64
        assert np.array_equal(batch.lengths, reference.lengths[start:stop])
        assert np.array_equal(batch.judged, reference.judged[start:stop])
        assert np.array_equal(batch.gains, reference.gains[start:stop])


# -- sets and users ----------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, message", [
    ({"N": -1, "R": 0}, "sets: N must be a non-negative integer, got -1"),
    ({"N": 1.5, "R": 0}, "sets: N must be a non-negative integer, got 1.5"),
    ({"N": 2, "R": -1}, "sets: R must be a non-negative integer, got -1"),
    ({"N": 2, "R": 1, "size": -1}, "sets: size must be a non-negative integer, got -1"),
    ({"N": 2, "R": 1, "size": True}, "sets: size must be a non-negative integer, got True"),
    ({"N": 2, "R": 1, "nonrel": -1}, "sets: nonrel must be a non-negative integer, got -1"),
    ({"N": 2, "R": 3}, "sets: R=3 exceeds N=2"),
])
def test_sets_rejects(kwargs, message):
    _raises(message, sets, **kwargs)


def test_sets_edges():
    # R = N = 2: TP in 0..2, FP = 0: 3 sets.
    assert [sets(2, 2).label(i) for i in range(3)] == ["(TP=0, FP=0)", "(TP=1, FP=0)", "(TP=2, FP=0)"]
    # size=2 and nonrel=1 together: TP + FP = 2 and FP = 1 -> only (1, 1).
    d = sets(5, 2, size=2, nonrel=1)
    assert d.name == "sets(N=5, R=2, size=2, nonrel=1)"
    assert [d.label(i) for i in range(d.size)] == ["(TP=1, FP=1)"]
    # nonrel alone is named; N = 0 is one empty set.
    assert sets(3, 1, nonrel=0).name == "sets(N=3, R=1, nonrel=0)"
    assert sets(0, 0).size == 1


@pytest.mark.parametrize("kwargs, message", [
    ({"U": 1.5, "unknown": 1}, "users: U must be a non-negative integer, got 1.5"),
    ({"U": 1, "unknown": -1}, "users: unknown must be a non-negative integer, got -1"),
    ({"U": 1, "unknown": 1, "wanted": -1, "examined": 2}, "users: wanted must be a non-negative integer, got -1"),
    ({"U": 1, "unknown": 1, "examined": -1}, "users: examined must be a non-negative integer, got -1"),
    ({"U": 1, "unknown": 1, "wanted": 2},
     "users: wanted needs examined (the most documents examined), e.g. users(U=5, unknown=5, wanted=1, examined=6)"),
])
def test_users_rejects(kwargs, message):
    _raises(message, users, **kwargs)


def test_users_zero_counts():
    # U = unknown = 0: the one output (Rk=0, Ru=0); wanted = 0 with examined 0..1: 2 outputs.
    assert [users(0, 0).label(i) for i in range(1)] == ["(Rk=0, Ru=0)"]
    assert users(0, 0).size == 1
    d = users(0, 0, wanted=0, examined=1)
    assert [d.label(i) for i in range(d.size)] == ["(Rk=0, Ru=0, wanted=0, examined=0)",
                                                   "(Rk=0, Ru=0, wanted=0, examined=1)"]


# -- outputs -------------------------------------------------------------------------------------


def test_outputs_validates_and_iterates_in_order():
    topic = Topic.single({"a": 1, "b": 0}, topic_id="q1")
    d = outputs([(["a", "b"], topic), (("b",), topic)])
    assert list(d) == [(Ranking(["a", "b"]), topic), (Ranking(["b"]), topic)]
    assert all(type(ranking) is Ranking for ranking, _ in d)
    with pytest.raises(ValidationError, match="'a'"):
        outputs([(["a", "a"], topic)])  # "rankings are validated": a duplicate document
