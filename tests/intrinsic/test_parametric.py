"""Parametric analysis (definitions §4): exceptional and interval values, exactly.

Every expected value is worked out by hand in a comment; the classifier
(:func:`axiometer.intrinsic.classify.classify`) is used as an independent
cross-check at chosen parameter values, never as the source of an expected value.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
import sympy

from axiometer.intrinsic import parametric
from axiometer.intrinsic.classify import classify
from axiometer.intrinsic.parametric import MAX_OUTPUTS, ParametricError, analyse, symbolic_score
from axiometer.core import Topic
from axiometer.generators.domains import rankings, sets
from axiometer.metrics import parse, wrap
from axiometer.metrics.arithmetic import SYMBOLIC
from axiometer.metrics.rbp import RBP
from axiometer.metrics.rbu import RBU

GOLDEN = (sympy.sqrt(5) - 1) / 2


def same(text: str, expected: Any) -> bool:
    """The exact value written as ``text`` equals ``expected``, proved by sympy."""
    return sympy.simplify(sympy.sympify(text) - expected) == 0


# -- RBP on binary rankings of length 3 -----------------------------------------

def test_rbp_binary_length_3_exceptional_value_is_the_golden_ratio_conjugate():
    # RBP(b1 b2 b3) = (1 - p)(b1 + b2 p + b3 p^2); two sequences tie iff
    # b1 - c1 + (b2 - c2) p + (b3 - c3) p^2 = 0 for p in (0, 1). With
    # differences in {-1, 0, 1}, leading 1 - p - p^2 = 0 is the only case with a
    # root in (0, 1): (1, 0, 0) vs (0, 1, 1), p = (sqrt(5) - 1)/2 ≈ 0.618034
    # (1 - p = 0 and 1 - p^2 = 0 give p = 1, outside; 1 + p - p^2 has no root in (0, 1);
    # p - p^2 = 0 gives p = 0 or 1; with d1 = 0 the rest is p(d2 + d3 p), root -d2/d3 = 1).
    result = analyse(RBP(), "p", rankings(3))
    assert result.parameter == "p" and result.range == "(0, 1)"
    assert result.size == 8 and result.distinct_expressions == 8
    assert len(result.exceptional) == 1
    exact, decimal, a, b = result.exceptional[0]
    assert same(exact, GOLDEN)
    assert decimal == pytest.approx(0.6180339887498949, abs=1e-15)
    assert {a, b} == {"(1, 0, 0)", "(0, 1, 1)"}
    assert result.always_tied == ()
    assert "metric for every p in (0, 1) except {" in result.summary
    assert "0.618034" in result.summary and "sqrt(5)" in result.summary


def test_rbp_binary_length_3_interval_only_at_one_half():
    # Below the golden value the order is the binary order 000 < 001 < ... < 111.
    # Up to the factor (1 - p), consecutive gaps are p^2 (000->001), p - p^2
    # (001->010), p^2 (010->011), 1 - p - p^2 (011->100), ... Equal gaps:
    # p^2 = p - p^2 -> p = 1/2; p^2 = 1 - p - p^2 -> 2p^2 + p - 1 = (2p - 1)(p + 1) = 0 -> p = 1/2.
    # Above it (011 > 100) the gap 100 - 011 is negative in binary order, and
    # the new order's gaps have no common root in (0.618, 1). So: only p = 1/2.
    result = analyse(RBP(), "p", rankings(3))
    assert result.interval_analysed
    assert result.interval == (("1/2", 0.5),)
    assert result.interval_ranges == ()
    assert result.summary.endswith("; interval only at p = 1/2")


def test_classify_agrees_with_the_parametric_analysis_for_rbp():
    domain = rankings(3)
    # p = 1/2: RBP = 0.b1b2b3 in binary, the values j/8: injective and equally spaced.
    assert classify(RBP(p=0.5), domain).category == "interval/metric"
    # Inside each sub-range, injective but not equally spaced.
    assert classify(RBP(p=0.3), domain).category == "ordinal/metric"
    assert classify(RBP(p=0.8), domain).category == "ordinal/metric"

    # At the golden value itself (irrational, so given exactly): the tie (1,0,0) = (0,1,1).
    def exact(ranking: Sequence[str], topic: Topic) -> sympy.Expr:
        return (1 - GOLDEN) * sum(GOLDEN ** i * topic.r(d) for i, d in enumerate(ranking))

    # The float pass runs at 0.618034 (1e-6 off): widen the screen so near-ties go to ``exact``.
    at_golden = classify(RBP(p=0.618034), domain, exact=exact, tolerance=1e-4)
    assert at_golden.category == "ordinal/pseudometric"
    tie = at_golden.property("metric").counterexample
    assert {r.label for r in tie} == {"(1, 0, 0)", "(0, 1, 1)"}


def test_rbp_graded_length_2_interval_at_one_third():
    # RBP = (1 - p)(g1 + g2 p), g in {0, 1/2, 1}. Ties: g1 - h1 = p (h2 - g2) with
    # differences in {±1/2, ±1}: only p = 1/2 is in (0, 1) (1/2 = p * 1). The first pair
    # in domain order: (0, 1) [index 2] vs (1/2, 0) [index 3]: 1/2 + 0 = 0 + 1 * p at p = 1/2.
    # At p = 1/3, with a = 2 g1, b = 2 g2 in {0, 1, 2}: RBP = (2/3)(a/2 + b/6) = (3a + b)/9,
    # the nine values 0/9 .. 8/9: equally spaced.
    result = analyse(RBP(), "p", rankings(2, grades=(0, 0.5, 1)))
    assert result.distinct_expressions == 9
    assert [(e[0], e[2], e[3]) for e in result.exceptional] == [("1/2", "(0, 1)", "(1/2, 0)")]
    assert result.interval == (("1/3", pytest.approx(1 / 3)),)
    assert result.summary == "metric for every p in (0, 1) except {1/2}; interval only at p = 1/3"
    # classify reads the float 1/3 as 3333333333333333/10^16, so p = 1/3 is given exactly.
    third = sympy.Rational(1, 3)
    at_third = classify(RBP(p=1 / 3), rankings(2, grades=(0, 0.5, 1)), tolerance=1e-6,
                        exact=lambda r, t: (1 - third) * sum(
                            third ** i * sympy.Rational(str(t.r(d))) for i, d in enumerate(r)))
    assert at_third.category == "interval/metric"


# -- RBU: the effort e and the patience p ------------------------------------------

def test_rbu_effort_on_rankings_up_to_length_1():
    # RBU(p = 1/2) = sum_i p^i (gain_i - e): () -> 0, (0,) -> -e/2, (1,) -> (1 - e)/2.
    # e in [0, inf). Ties: 0 = -e/2 at e = 0 (() vs (0,)); 0 = (1 - e)/2 at e = 1
    # (() vs (1,)); -e/2 = (1 - e)/2 never.
    # Interval: on (0, 1) the order is -e/2 < 0 < (1-e)/2, gaps e/2 and (1-e)/2: equal at e = 1/2;
    # on (1, inf) it is -e/2 < (1-e)/2 < 0, gaps 1/2 and (e-1)/2: equal at e = 2.
    result = analyse(RBU(p=0.5), "e", rankings(1, lengths="upto"))
    assert result.range == "[0, inf)"
    assert [(e[0], e[2], e[3]) for e in result.exceptional] == [("0", "()", "(0,)"), ("1", "()", "(1,)")]
    assert [v[0] for v in result.interval] == ["1/2", "2"]
    assert result.summary == "metric for every e in [0, inf) except {0, 1}; interval only at e = 1/2, 2"
    domain = rankings(1, lengths="upto")
    assert classify(RBU(p=0.5, e=0.5), domain).category == "interval/metric"   # -1/4, 0, 1/4
    assert classify(RBU(p=0.5, e=2), domain).category == "interval/metric"     # -1, -1/2, 0
    assert classify(RBU(p=0.5, e=1), domain).category == "ordinal/pseudometric"  # 0 = (1-1)/2
    assert classify(RBU(p=0.5, e=0.25), domain).category == "ordinal/metric"   # -1/8, 0, 3/8


def test_rbu_effort_closed_end_and_interval_throughout():
    # RBU(p = 1/2) on rankings of length exactly 1: (0,) -> -e/2, (1,) -> (1 - e)/2, always
    # 1/2 apart: no tie for any e, and two values are always equally spaced, so interval on
    # the open sub-range (0, inf) and at the closed end e = 0 (values 0 and 1/2).
    result = analyse(RBU(p=0.5), "e", rankings(1))
    assert result.exceptional == () and result.always_tied == ()
    assert result.interval_ranges == ("(0, inf)",)
    assert result.interval == (("0", 0.0),)
    assert result.summary == "metric for every e in [0, inf); interval for every e in (0, inf) and at 0"


def test_rbu_effort_on_rankings_up_to_length_2_is_never_a_metric():
    # Binary, one aspect: once a relevant document is seen the cascade gains nothing more,
    # so (1, 0) and (1, 1) both score 1/2 - 3e/4 for every e. The other expressions:
    # () 0, (0,) -e/2, (1,) 1/2 - e/2, (0, 0) -3e/4, (0, 1) 1/4 - 3e/4. Roots in [0, inf):
    # 0 (() vs (0,)), 1/3 (0 = 1/4 - 3e/4), 2/3 (0 = 1/2 - 3e/4, () vs (1, 0)),
    # 1 (() vs (1,)), 2 (-e/2 = 1/2 - 3e/4, (0,) vs (1, 0)).
    result = analyse(RBU(p=0.5), "e", rankings(2, lengths="upto"))
    assert result.always_tied == ("(1, 0)", "(1, 1)")
    assert result.distinct_expressions == 6
    assert [(e[0], e[2], e[3]) for e in result.exceptional] == [
        ("0", "()", "(0,)"), ("1/3", "()", "(0, 1)"), ("2/3", "()", "(1, 0)"),
        ("1", "()", "(1,)"), ("2", "(0,)", "(1, 0)")]
    assert not result.interval_analysed and result.interval == ()
    assert result.summary.startswith("never a metric on this domain: (1, 0) and (1, 1) tie")
    assert classify(RBU(p=0.5, e=0.1), rankings(2, lengths="upto")).category == "ordinal/pseudometric"


def test_rbu_patience_on_binary_rankings_of_length_2():
    # RBU(e = 0) = p^(first relevant position): (0,0) 0, (0,1) p^2, (1,0) = (1,1) = p.
    # So (1, 0) and (1, 1) tie for every p; p = p^2 has no root in (0, 1).
    result = analyse(RBU(e=0), "p", rankings(2))
    assert result.always_tied == ("(1, 0)", "(1, 1)")
    assert result.exceptional == ()
    assert result.distinct_expressions == 3


# -- symbolic evaluation ------------------------------------------------------------

def test_symbolic_score_is_the_rbp_polynomial():
    # RBP of (1, 0, 1) = (1 - p)(1 + p^2).
    p = sympy.Symbol("p", real=True)
    topic = Topic.single({"a": 1, "b": 0, "c": 1})
    expr = symbolic_score(RBP(), "p", p, ["a", "b", "c"], topic)
    assert sympy.expand(expr - (1 - p) * (1 + p ** 2)) == 0
    assert SYMBOLIC.num(0.8) == sympy.Rational(4, 5)
    assert SYMBOLIC.num(p) is p


def test_result_is_plain_data():
    result = analyse(RBP(), "p", rankings(2))
    # (1 - p)(b1 + b2 p): 0, p, 1, 1 + p (times 1 - p) never tie in (0, 1).
    assert result.exceptional == ()
    assert result.summary.startswith("metric for every p in (0, 1)")
    assert json.loads(json.dumps(result.to_dict()))["parameter"] == "p"


# -- errors ---------------------------------------------------------------------------

def test_metric_without_numeric_parameter_is_a_clear_error():
    with pytest.raises(ParametricError, match="no numeric parameter to analyse"):
        analyse(parse("P@5"), None, rankings(2))


def test_unknown_parameter_and_wrapped_function_are_errors():
    with pytest.raises(ParametricError, match=r"no numeric parameter 'q'.*numeric parameters: p"):
        analyse(RBP(), "q", rankings(2))
    with pytest.raises(ParametricError, match="several numeric parameters"):
        analyse(RBU(), None, rankings(2))
    metric = wrap(lambda ranking, topic: 0.0, name="zero")
    with pytest.raises(ParametricError, match="built-in metric"):
        analyse(metric, None, rankings(2))


def test_domain_limits():
    with pytest.raises(ParametricError, match=f"1024 outputs, more than .* limit of {MAX_OUTPUTS}"):
        analyse(RBP(), "p", rankings(10))
    with pytest.raises(ParametricError, match="contingency counts"):
        analyse(RBP(), "p", sets(N=4, R=2))


def test_non_rational_scores_are_refused_clearly():
    # alpha-nDCG's ideal ranking is built by comparing gains that depend on alpha.
    with pytest.raises(ParametricError, match="alpha_nDCG: the formula cannot be evaluated with a symbolic alpha"):
        analyse(parse("alpha_nDCG@2"), "alpha", rankings(2))
    # A score with a logarithm in its coefficients (as a log2 discount would give).
    p = sympy.Symbol("p", real=True)
    with pytest.raises(ParametricError, match="non-rational coefficients"):
        parametric._as_fraction(p / sympy.log(3, 2), p, "here")
    with pytest.raises(ParametricError, match="not a rational function"):
        parametric._as_fraction(sympy.log(p), p, "here")
