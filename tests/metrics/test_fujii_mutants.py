"""Fujii & Ishikawa's U(x) (LREC 2000), issue 14: the undefined term's whole message for each
zero probability, P(d|y) at the ends of a list, and the name under each policy."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import Context, Topic
from axiometer.metrics.arithmetic import EXACT
from axiometer.metrics.base import UndefinedScore
from axiometer.metrics.fujii import FujiiU, _read_probability

TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0})
ADVICE = "; use policy='skip' or policy='epsilon'"


def _message(ranking, topic, context, metric=None):
    with pytest.raises(UndefinedScore) as error:
        (metric or FujiiU()).exact(ranking, topic, context)
    return str(error.value)


def test_undefined_messages_name_the_document_and_each_zero_probability():
    # b: x does not retrieve it, the context does.
    assert _message(("a",), TOPIC, Context((("b", "a"),))) == (
        "FujiiU: log(P(d|x)/P(d)) is undefined for relevant document 'b': "
        "P(d|x) = 0 (the evaluated ranking does not retrieve it)" + ADVICE)
    # b: x retrieves it, no other system does.
    assert _message(("a", "b"), TOPIC, Context((("a",),))) == (
        "FujiiU: log(P(d|x)/P(d)) is undefined for relevant document 'b': "
        "P(d) = 0 (no other system retrieves it)" + ADVICE)
    # a: both zero; the context is empty.
    assert _message(("c",), TOPIC, Context(), FujiiU(3)) == (
        "FujiiU@3: log(P(d|x)/P(d)) is undefined for relevant document 'a': "
        "P(d|x) = 0 (the evaluated ranking does not retrieve it) and "
        "P(d) = 0 (the context of other systems is empty)" + ADVICE)


def test_read_probability_at_the_ends_of_a_list():
    ranking = ("p", "q", "r", "s")
    # (N - rank + 1)/N: first 4/4, last 1/4, absent 0.
    assert _read_probability(ranking, "p", EXACT) == 1
    assert _read_probability(ranking, "q", EXACT) == Fraction(3, 4)
    assert _read_probability(ranking, "s", EXACT) == Fraction(1, 4)
    assert _read_probability(ranking, "z", EXACT) == 0
    assert _read_probability((), "z", EXACT) == 0


def test_names_under_each_policy():
    assert FujiiU().name == "FujiiU"
    assert FujiiU(5, epsilon=0.25).name == "FujiiU@5"  # epsilon is inert under 'error'
    assert FujiiU(policy="skip", epsilon=0.25).name == "FujiiU(policy='skip')"
    assert FujiiU(policy="epsilon").name == "FujiiU(policy='epsilon',epsilon=1e-06)"


def test_skip_leaves_out_one_term_and_goes_on():
    # Relevant a, b in that order. x = (b,): P(a|x) = 0 -> a's term skipped;
    # P(b|x) = 1, P(b) = P(b|(a, b)) = (2 - 2 + 1)/2 = 1/2 -> log2(1/(1/2)) = 1.
    topic = Topic.single({"a": 1, "b": 1})
    assert topic.relevant == ("a", "b")
    assert FujiiU(policy="skip").exact(("b",), topic, Context((("a", "b"),))) == 1
    assert FujiiU(policy="skip").score(("b",), topic, Context((("a", "b"),))) == 1.0
