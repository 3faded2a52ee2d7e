"""Domains of outputs (definitions §4): enumeration sizes and order, names,
document naming by grade, the R setting, and the batched path equal to
scoring ranking by ranking."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from axiometer.core import Ranking, Topic, ValidationError
from axiometer.generators.domains import outputs, rankings, sets, users
from axiometer.metrics.set_based import Contingency
from axiometer.metrics import RankingBatch, parse


def test_sizes_and_names():
    # 2^4 binary sequences of length 4; R = 4 relevant documents (n of the one non-zero grade).
    d = rankings(4)
    assert d.size == 16 and d.name == "rankings(n=4, grades={0,1}, lengths=exact, R=4)"
    # Up to length 3 over three grades: 1 + 3 + 9 + 27 = 40; R = 3 * 2 non-zero grades = 6.
    d = rankings(3, grades=(0, 0.5, 1), lengths="upto")
    assert d.size == 40 and d.name == "rankings(n=3, grades={0,1/2,1}, lengths=upto, R=6)"
    assert d.topic.R == 6
    assert rankings(0).size == 1 and rankings(0).label(0) == "()"


def test_order_is_length_then_lexicographic():
    d = rankings(2, lengths="upto")
    labels = [d.label(i) for i in range(d.size)]
    assert labels == ["()", "(0,)", "(1,)", "(0, 0)", "(0, 1)", "(1, 0)", "(1, 1)"]
    assert d.grade_sequence(5) == (Fraction(1), Fraction(0))


def test_documents_are_named_by_grade():
    d = rankings(3, grades=(0, Fraction(1, 2), 1))
    # Grade indices (2, 1, 2) = (1, 1/2, 1): index 2*9 + 1*3 + 2 = 23.
    ranking, topic = d.output(23)
    assert d.label(23) == "(1, 1/2, 1)"
    assert ranking == Ranking(["1#1", "1/2#1", "1#2"])
    assert topic.r("1/2#1") == Fraction(1, 2) and topic.r("1#2") == 1 and topic.r("0#1") == 0
    assert topic.is_judged("0#1")  # zero-grade documents are judged non-relevant
    # Relabelling numbers each grade's documents from the other end (3 of each grade).
    assert d.ranking(23, relabel=True) == Ranking(["1#3", "1/2#3", "1#2"])


def test_R_setting():
    # R = 10 > n: the topic has relevant documents the ranking cannot all retrieve.
    d = rankings(3, R=10)
    assert d.size == 8 and d.topic.R == 10 and d.name.endswith("R=10)")
    # R = 2 < n: (1, 1, 1) needs three relevant documents, so it is left out: 8 - 1 = 7.
    d = rankings(3, R=2)
    assert d.size == 7 and "(1, 1, 1)" not in [d.label(i) for i in range(d.size)]
    with pytest.raises(ValidationError, match="multiple"):
        rankings(2, grades=(0, 0.5, 1), R=3)
    with pytest.raises(ValidationError, match="lengths"):
        rankings(2, lengths="some")
    with pytest.raises(ValidationError, match="outside"):
        rankings(2, grades=(0, 2))


@pytest.mark.parametrize("spec", ["nDCG", "AP", "RBP(p=0.8)", "P@2", "DCG@3", "ERR"])
@pytest.mark.parametrize("lengths", ["exact", "upto"])
def test_batch_equals_from_rankings_and_per_ranking(spec, lengths):
    metric = parse(spec)
    d = rankings(3, grades=(0, 0.5, 1), lengths=lengths)
    items = list(d)
    batched = metric.score_batch(d.batch())
    reference = metric.score_batch(RankingBatch.from_rankings([r for r, _ in items], d.topic))
    one_by_one = np.array([metric.score(r, t) for r, t in items])
    assert np.allclose(batched, one_by_one, rtol=0, atol=1e-12)
    assert np.allclose(batched, reference, rtol=0, atol=1e-12)
    # A slice of rows is the same outputs.
    assert np.allclose(metric.score_batch(d.batch(5, 9)), one_by_one[5:9], rtol=0, atol=1e-12)


def test_user_outputs():
    topic = Topic.single({"a": 1, "b": 0}, topic_id="q1")
    d = outputs([(["a", "b"], topic), (("b",), topic)], name="two")
    assert d.size == 2 and d.name == "two" and d.output(1) == (Ranking(["b"]), topic)
    assert d.label(0) == "[a, b] on topic 'q1'"
    assert outputs([(["a"], topic)]).name == "outputs(1 given)"


def test_sets_domain():
    # N = 20, R = 5: TP in 0..5, FP in 0..15: 6 * 16 = 96 count pairs.
    assert sets(20, 5).size == 96 and sets(20, 5).name == "sets(N=20, R=5)"
    # size = 8: TP = 0..5 with FP = 8 - TP (FP <= 15 always): 6 sets, smaller TP first.
    d = sets(20, 5, size=8)
    assert d.name == "sets(N=20, R=5, size=8)"
    assert [d.label(i) for i in range(d.size)] == [f"(TP={t}, FP={8 - t})" for t in range(6)]
    assert d.counts(2) == Contingency(2, 6, 3, 9)  # FN = 5 - 2, TN = 15 - 6
    # nonrel = 0: FP = 0, TP = 0..5.
    assert sets(20, 5, nonrel=0).size == 6
    # Order: by size, then TP: (0,0); (0,1), (1,0); (0,2), (1,1)...
    d = sets(3, 1)
    assert [d.label(i) for i in range(4)] == ["(TP=0, FP=0)", "(TP=0, FP=1)", "(TP=1, FP=0)",
                                              "(TP=0, FP=2)"]
    ranking, topic = d.output(4)  # (TP=1, FP=1)
    assert ranking == Ranking(["1#1", "0#1"]) and topic.R == 1 and len(topic.documents) == 3
    with pytest.raises(ValidationError, match="exceeds"):
        sets(3, 4)


def test_relabelling_stays_within_the_judged_documents_when_R_is_below_n():
    # R = 2 < n = 4: two relevant documents but four judged non-relevant ones; relabelled
    # ids must still name judged documents (grade 0 numbers down from 4, not from 2).
    domain = rankings(4, R=2)
    for index in range(domain.size):
        for doc in domain.ranking(index, relabel=True):
            assert domain.topic.is_judged(doc), (index, doc)


# -- users(...): Korfhage's user counts -------------------------------------------
def test_users_domain_enumerates_rk_then_ru():
    from axiometer.generators.domains import users
    from axiometer.metrics.set_based import UserCounts

    # Rk in 0..2, Ru in 0..1: (2 + 1)(1 + 1) = 6 outputs, ordered by Rk then Ru.
    d = users(2, 1)
    assert d.size == 6 and d.name == "users(U=2, unknown=1)"
    assert [d.label(i) for i in range(6)] == ["(Rk=0, Ru=0)", "(Rk=0, Ru=1)", "(Rk=1, Ru=0)",
                                              "(Rk=1, Ru=1)", "(Rk=2, Ru=0)", "(Rk=2, Ru=1)"]
    assert d.counts(3) == UserCounts(U=2, Rk=1, Ru=1)
    ranking, topic = d.output(5)  # two known and one new relevant document retrieved
    assert list(ranking) == ["known#1", "known#2", "new#1"] and topic.R == 3


def test_users_domain_with_recall_effort():
    from axiometer.generators.domains import users
    from axiometer.metrics.set_based import UserCounts

    # examined in wanted..E = 2..4 (3 values) crossed with Rk in 0..1, Ru in 0..1: 2 * 2 * 3 = 12.
    d = users(1, 1, wanted=2, examined=4)
    assert d.size == 12 and d.name == "users(U=1, unknown=1, wanted=2, examined=4)"
    assert d.counts(0) == UserCounts(1, 0, 0, wanted=2, examined=2)
    assert d.counts(2) == UserCounts(1, 0, 0, wanted=2, examined=4)
    assert d.counts(11) == UserCounts(1, 1, 1, wanted=2, examined=4)
    assert d.label(1) == "(Rk=0, Ru=0, wanted=2, examined=3)"
    assert users(1, 1, examined=1).counts(0).wanted == 1  # wanted defaults to 1 with examined


@pytest.mark.parametrize("kwargs, message", [
    ({"U": -1, "unknown": 1}, "U must be"),
    ({"U": 1, "unknown": 1, "wanted": 2}, "wanted needs examined"),
    ({"U": 1, "unknown": 1, "wanted": 3, "examined": 2}, "below wanted"),
])
def test_users_domain_rejects_bad_counts(kwargs, message):
    from axiometer.generators.domains import users

    with pytest.raises(ValidationError, match=message):
        users(**kwargs)


def test_users_domain_strings():
    from axiometer.core import InputError
    from axiometer.generators.domain_spec import parse_domain

    assert parse_domain("users(U=5,unknown=5)").size == 36  # 6 * 6
    assert parse_domain("users(U=2, unknown=1, examined=3)").name == \
        "users(U=2, unknown=1, wanted=1, examined=3)"
    with pytest.raises(InputError, match="users needs unknown; e.g. users"):
        parse_domain("users(U=5)")
    with pytest.raises(InputError, match="unknown parameter 'N' of users"):
        parse_domain("users(U=5,unknown=1,N=3)")
    with pytest.raises(InputError, match="below wanted"):
        parse_domain("users(U=5,unknown=1,wanted=4,examined=3)")


# Domains of outputs (axiometer.generators.domains): the edges the main tests leave open.
#
# - the argument checks, each a whole one-line message naming the argument;
# - the R filter with several non-zero grades and with no grade 0 (where grade index 0 is relevant);
# - ``sets`` with both ``size`` and ``nonrel``; ``R = N``; zero counts;
# - ``RankingsDomain.batch`` equal, array by array, to ``RankingBatch.from_rankings`` (the batch its
#   docstring says it is equivalent to);
# - ``outputs`` validates its rankings and iterates in the order given.
#
# Every size is counted by hand in a comment.

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
