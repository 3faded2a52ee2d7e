"""Fujii & Ishikawa's U(x): a hand-computed value, each policy on each way the
log is undefined (a relevant document no other system retrieves, one x does
not retrieve, an empty context), float vs exact, and the spec string."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, strategies as st

from axiometer.core import Context, InputError, Topic
from axiometer.metrics import parse
from axiometer.metrics.arithmetic import EXACT, exact_to_float
from axiometer.metrics.base import UndefinedScore
from axiometer.metrics.fujii import FujiiU, _read_probability
from tests.metrics.agreement import TOLERANCE
from tests.strategies import diversity_cases

EPS = 1e-6
# a, b relevant; c judged non-relevant.
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0})
CONTEXT = Context((("b", "a", "c"), ("a",)))
# P(a|y1) = (3 - 2 + 1)/3 = 2/3, P(a|y2) = 1/1 -> P(a) = (2/3 + 1)/2 = 5/6.
# P(b|y1) = 3/3 = 1,   P(b|y2) = 0   -> P(b) = 1/2.


def test_hand_computed():
    # x = (a, b, c, d), N = 4: P(a|x) = 4/4 = 1, P(b|x) = 3/4.
    # U = log2(1 / (5/6)) + log2((3/4) / (1/2)) = log2(6/5) + log2(3/2) = log2(9/5).
    x = ("a", "b", "c", "d")
    for policy in ("error", "skip", "epsilon"):
        metric = FujiiU(policy=policy)
        assert sympy.simplify(metric.exact(x, TOPIC, CONTEXT) - sympy.log(sympy.Rational(9, 5), 2)) == 0
        assert metric.score(x, TOPIC, CONTEXT) == pytest.approx(math.log2(1.8), abs=1e-15)
    # Non-relevant c contributes nothing; a topic without relevant documents gives 0 (empty sum).
    assert FujiiU().exact(x, Topic.single({"c": 0}), CONTEXT) == 0


def test_cutoff_cuts_every_list():
    # @2: x = (b, a) -> P(b|x) = 1, P(a|x) = 1/2.  y1 = (b, a) -> P(b|y1) = 1, P(a|y1) = 1/2;
    # y2 = (a,) -> P(a|y2) = 1.  P(a) = 3/4, P(b) = 1/2.
    # U = log2((1/2)/(3/4)) + log2(1/(1/2)) = log2(2/3) + 1 = log2(4/3).
    value = FujiiU(2).score(("b", "a", "c"), TOPIC, CONTEXT)
    assert value == pytest.approx(math.log2(4 / 3), abs=1e-15)


# e is relevant and retrieved by x alone: P(d) = 0 for e.
TOPIC_E = Topic.single({"a": 1, "b": 1, "c": 0, "e": 1})
X_E = ("a", "b", "e", "c")  # N = 4: P(a|x) = 1, P(b|x) = 3/4, P(e|x) = 2/4


def test_document_no_other_system_retrieves():
    with pytest.raises(UndefinedScore) as error:
        FujiiU().score(X_E, TOPIC_E, CONTEXT)
    message = str(error.value)
    assert "'e'" in message and "P(d) = 0" in message and "no other system retrieves it" in message
    assert "P(d|x) = 0" not in message and "\n" not in message
    # skip: e's term is left out -> log2(6/5) + log2((3/4)/(1/2)) = log2(9/5).
    assert FujiiU(policy="skip").score(X_E, TOPIC_E, CONTEXT) == pytest.approx(math.log2(1.8), abs=1e-15)
    # epsilon: P(e) = eps -> log2(9/5) + log2((1/2)/1e-6) = log2(9/5) + log2(500000).
    want = math.log2(1.8) + math.log2(500000)
    assert FujiiU(policy="epsilon").score(X_E, TOPIC_E, CONTEXT) == pytest.approx(want, abs=1e-12)
    assert FujiiU(policy="epsilon", epsilon=0.25).score(X_E, TOPIC_E, CONTEXT) == pytest.approx(
        math.log2(1.8) + 1, abs=1e-15)  # log2((1/2)/(1/4)) = 1


def test_document_x_does_not_retrieve():
    x = ("a", "c")  # N = 2: P(a|x) = 1, P(b|x) = 0 while P(b) = 1/2.
    with pytest.raises(UndefinedScore) as error:
        FujiiU().exact(x, TOPIC, CONTEXT)
    message = str(error.value)
    assert "'b'" in message and "P(d|x) = 0" in message and "P(d) = 0" not in message
    # skip: log2(1/(5/6)) = log2(6/5).
    assert FujiiU(policy="skip").score(x, TOPIC, CONTEXT) == pytest.approx(math.log2(1.2), abs=1e-15)
    # epsilon: log2(6/5) + log2(1e-6 / (1/2)) = log2(6/5) + log2(2e-6).
    want = math.log2(1.2) + math.log2(2e-6)
    metric = FujiiU(policy="epsilon")
    assert metric.score(x, TOPIC, CONTEXT) == pytest.approx(want, abs=1e-12)
    assert exact_to_float(metric.exact(x, TOPIC, CONTEXT)) == pytest.approx(want, abs=1e-12)


def test_document_nobody_retrieves():
    topic = Topic.single({"a": 1, "b": Fraction(1, 2), "f": 1})
    x = ("a", "b", "c", "d")
    # f: P(f|x) = 0 and P(f) = 0.  error names both; epsilon gives log2(eps/eps) = 0; skip drops it.
    with pytest.raises(UndefinedScore) as error:
        FujiiU().score(x, topic, CONTEXT)
    assert "'f'" in str(error.value) and "P(d|x) = 0" in str(error.value) and "P(d) = 0" in str(error.value)
    for policy in ("skip", "epsilon"):
        assert FujiiU(policy=policy).score(x, topic, CONTEXT) == pytest.approx(math.log2(1.8), abs=1e-15)


def test_empty_context():
    x = ("a", "b", "c", "d")
    with pytest.raises(UndefinedScore) as error:
        FujiiU().score(x, TOPIC, Context())
    assert "the context of other systems is empty" in str(error.value)
    # skip: every term is undefined -> the empty sum 0.
    assert FujiiU(policy="skip").exact(x, TOPIC, Context()) == 0
    # epsilon: log2(1/eps) + log2((3/4)/eps) = log2(1e6) + log2(750000).
    want = math.log2(1e6) + math.log2(750000)
    assert FujiiU(policy="epsilon").score(x, TOPIC, Context()) == pytest.approx(want, abs=1e-12)


@st.composite
def relative_cases(draw):
    topic, rankings = draw(diversity_cases(max_rankings=5))
    return topic, rankings[0], Context(tuple(rankings[1:]))


@given(relative_cases(), st.sampled_from(["error", "skip", "epsilon"]),
       st.sampled_from([1e-6, 0.5, Fraction(1, 3)]), st.sampled_from([None, 1, 3, 10]))
def test_finite_or_undefined_and_float_matches_exact(case, policy, epsilon, k):
    topic, x, context = case
    metric = FujiiU(k, policy=policy, epsilon=epsilon)
    try:
        score = metric.score(x, topic, context)
    except UndefinedScore:
        assert policy == "error"  # the other policies are defined everywhere
        with pytest.raises(UndefinedScore):
            metric.exact(x, topic, context)
        return
    assert math.isfinite(score)
    assert abs(score - exact_to_float(metric.exact(x, topic, context))) <= TOLERANCE


def test_no_bounds_and_no_reversion():
    assert FujiiU().stated_bounds() == () and FujiiU().reversions() == ()
    assert FujiiU().needs.context and not FujiiU().needs.graded


@pytest.mark.parametrize("spec, name", [
    ("FujiiU", "FujiiU"),
    ("FujiiU(policy='error')", "FujiiU"),
    ("FujiiU(policy='skip')", "FujiiU(policy='skip')"),
    ("FujiiU(policy='skip',epsilon=0.1)@300", "FujiiU(policy='skip')@300"),  # epsilon is inert
    ("FujiiU(policy='epsilon')", "FujiiU(policy='epsilon',epsilon=1e-06)"),
    ("FujiiU(policy='epsilon',epsilon=1/4)@5", "FujiiU(policy='epsilon',epsilon=0.25)@5"),
])
def test_spec_round_trip(spec, name):
    metric = parse(spec)
    assert metric.name == name
    assert parse(metric.name).name == metric.name


@pytest.mark.parametrize("spec, fragment", [
    ("FujiiU(policy='smooth')", "policy='smooth' must be one of 'error', 'skip', 'epsilon'"),
    ("FujiiU(epsilon=0)", "epsilon=0 is outside its range, float in (0, 1)"),
    ("FujiiU(epsilon=1)", "epsilon=1 is outside its range"),
    ("FujiiU(base=1)", "unknown parameter 'base'"),
])
def test_bad_parameters_are_clear_errors(spec, fragment):
    with pytest.raises(InputError) as error:
        parse(spec)
    assert fragment in str(error.value) and "\n" not in str(error.value)


# Fujii & Ishikawa's U(x) (LREC 2000), issue 14: the undefined term's whole message for each
# zero probability, P(d|y) at the ends of a list, and the name under each policy.

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
