from fractions import Fraction

import pytest

from axiometer.core import ValidationError
from axiometer.grades import grade_to_relevance, ranking_from_scores, topic_from_grades


def test_mappings():
    assert grade_to_relevance(2, "linear", 4) == Fraction(1, 2)
    assert grade_to_relevance(2, "err", 4) == Fraction(3, 16)  # (2^2 - 1) / 2^4
    assert grade_to_relevance(1, "binary", 4) == 1
    assert grade_to_relevance(-2, "err", 4) == 0  # spam grade: judged non-relevant
    with pytest.raises(ValidationError):
        grade_to_relevance(5, "linear", 4)
    with pytest.raises(ValidationError, match="unknown grade mapping"):
        topic_from_grades("q", {"d": {"1": 1}}, mapping="log")


def test_err_aspect_uses_each_aspects_largest_grade():
    grades = {"a": {"1": 1, "2": 3}, "b": {"1": 2}, "c": {"2": 1}}
    topic = topic_from_grades("q", grades, mapping="err-aspect")
    assert topic.r("a", "1") == Fraction(1, 4)   # gmax(1) = 2: (2 - 1) / 4
    assert topic.r("a", "2") == Fraction(7, 8)   # gmax(2) = 3: (8 - 1) / 8
    assert topic.r("b", "1") == Fraction(3, 4)
    err = topic_from_grades("q", grades, mapping="err")  # gmax = 3 for all aspects
    assert err.r("a", "1") == Fraction(1, 8)


def test_ties_broken_like_trec_eval():
    ranking = ranking_from_scores([("d1", 1.0), ("d3", 2.0), ("d2", 1.0), ("d0", 3.0)])
    assert ranking == ("d0", "d3", "d2", "d1")  # score desc, then docno desc
