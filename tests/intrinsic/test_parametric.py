"""Parametric analysis (definitions §4): exceptional and interval values, exactly.

Every expected value is worked out by hand in a comment; the classifier
(:func:`axiometer.intrinsic.classify.classify`) is used as an independent
cross-check at chosen parameter values, never as the source of an expected value.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from fractions import Fraction as F

import pytest
import sympy

from axiometer.intrinsic import classify as intrinsic, parametric
from axiometer.intrinsic.classify import classify
from axiometer.intrinsic.parametric import MAX_OUTPUTS, ParametricError, analyse, symbolic_score
from axiometer.core import Topic
from axiometer.generators.domains import outputs, rankings, sets
from axiometer.metrics import BuiltinMetric, Needs, parse, wrap
from axiometer.metrics.arithmetic import SYMBOLIC
from axiometer.metrics.rbp import RBP
from axiometer.metrics.rbu import RBU
from tests.intrinsic import TOPIC6
from axiometer.metrics.base import Param
from axiometer.intrinsic.parametric import numeric_param

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


# The parametric analysis of metrics of our own, on hand-computed cases (issue 14): sub-ranges and
# their orders, exceptional values, open and closed ends, poles, and the refusals' messages.

def _param_metric(table, **declared):
    """A built-in metric of one parameter ``x``: output [d] scores ``table[d](A, x)`` (range as declared)."""

    class Table(BuiltinMetric):
        family = "Line"
        title = "Line"
        param_info = (Param("x", float, declared.pop("default", 1.5), "the varying score", **declared),)
        needs = Needs(aspects=False, graded=True)

        def compute(self, ranking, topic, A, context=None):
            return table[ranking[0]](A, self.x)

    return Table()


#: [a] 0, [b] x, [c] 1.
_LINE = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x), "c": lambda A, x: A.num(1)}


def _line(**declared):
    """A built-in metric of one parameter ``x`` scoring [a] 0, [b] x, [c] 1 (range as declared)."""
    return _param_metric(_LINE, **declared)


_ABC = outputs([([d], TOPIC6) for d in "abc"], name="abc")


def test_parametric_analysis_over_an_unbounded_parameter():
    # [a] 0, [b] x, [c] 1. Ties: 0 = x at x = 0 ([a], [b]); x = 1 at x = 1 ([b], [c]).
    # Equal gaps on each sub-range, by the order there:
    #   (-inf, 0): x < 0 < 1, gaps -x and 1: x = -1;
    #   (0, 1):    0 < x < 1, gaps x and 1 - x: x = 1/2;
    #   (1, inf):  0 < 1 < x, gaps 1 and x - 1: x = 2.
    result = analyse(_line(), None, _ABC)
    assert result.metric == "Line(x=x)" and result.parameter == "x"
    assert result.range == "(-inf, inf)" and result.size == 3 and result.distinct_expressions == 3
    assert result.exceptional == (("0", 0.0, "[a]", "[b]"), ("1", 1.0, "[b]", "[c]"))
    assert result.always_tied == () and result.interval_analysed
    assert result.interval == (("-1", -1.0), ("1/2", 0.5), ("2", 2.0)) and result.interval_ranges == ()
    assert result.summary == "metric for every x in (-inf, inf) except {0, 1}; interval only at x = -1, 1/2, 2"
    # interval=False: the ties only.
    ties_only = analyse(_line(), "x", _ABC, interval=False)
    assert ties_only.exceptional == result.exceptional and not ties_only.interval_analysed
    assert ties_only.interval == () and ties_only.summary == "metric for every x in (-inf, inf) except {0, 1}"


@pytest.mark.parametrize("declared, text, exceptional, interval", [
    # [1, 3]: the tie x = 1 is at the closed low end; on (1, 3) the order 0 < 1 < x has equal
    # gaps at x = 2; the closed end 3 gives 0, 1, 3 (gaps 1, 2): not interval.
    ({"low": 1, "high": 3}, "[1, 3]", ["1"], ["2"]),
    # [1, 2]: x = 2 is not inside (1, 2) but is the closed high end: 0, 1, 2, equally spaced.
    ({"low": 1, "high": 2}, "[1, 2]", ["1"], ["2"]),
    # [1, 2): the same end, open: no interval value at all.
    ({"low": 1, "high": 2, "high_open": True}, "[1, 2)", ["1"], []),
    # (0, 2]: the tie at 0 is outside the open end; on (0, 1) the gaps x, 1 - x are equal
    # at 1/2; the closed end 2 is interval.
    ({"low": 0, "high": 2, "low_open": True}, "(0, 2]", ["1"], ["1/2", "2"]),
    # [0, 2]: the tie at 0 counts (closed end), so the end 0 (0, 0, 1: a tie) is not interval.
    ({"low": 0, "high": 2}, "[0, 2]", ["0", "1"], ["1/2", "2"]),
    # [0, 1]: both ties are at closed ends and count; the ends (a tie each) are not interval.
    ({"low": 0, "high": 1, "default": 0.5}, "[0, 1]", ["0", "1"], ["1/2"]),
    # [1/2, 2] (a float end, read exactly): the closed end 1/2 gives 0, 1/2, 1: interval.
    ({"low": 0.5, "high": 2, "default": 1}, "[1/2, 2]", ["1"], ["1/2", "2"]),
    # (-inf, 1/4]: ties at 0 only; x = -1 on (-inf, 0); on (0, 1/4) the root 1/2 is outside;
    # the end 1/4 gives 0, 1/4, 1: gaps 1/4 and 3/4, not interval.
    ({"high": 0.25, "default": 0}, "(-inf, 1/4]", ["0"], ["-1"]),
    # (2, inf): no tie; 0 < 1 < x has equal gaps only at x = 2, not inside.
    ({"low": 2, "low_open": True, "default": 3}, "(2, inf)", [], []),
])
def test_parametric_analysis_reads_open_and_closed_ends(declared, text, exceptional, interval):
    result = analyse(_line(**declared), "x", _ABC)
    assert result.range == text
    assert [e[0] for e in result.exceptional] == exceptional
    assert [v[0] for v in result.interval] == interval
    assert result.summary.startswith(f"metric for every x in {text}")


def test_parametric_error_messages_name_the_metric():
    # A plain function (not even wrapped) has no name: the error names its repr.
    def plain(ranking, topic):
        return 0.0

    with pytest.raises(ParametricError) as error:
        numeric_param(plain, None)
    assert str(error.value) == (f"{plain!r}: parametric analysis needs a built-in metric, whose formula "
                                "can be evaluated with a symbolic parameter; a wrapped function cannot")
    with pytest.raises(ParametricError) as error:
        numeric_param(RBU(), None)
    assert str(error.value) == "RBU(p=0.8,e=0.05) has several numeric parameters (p, e): say which"
    with pytest.raises(ParametricError) as error:
        numeric_param(RBP(), "e")
    assert str(error.value) == "RBP(p=0.8) has no numeric parameter 'e' (numeric parameters: p)"
    with pytest.raises(ParametricError) as error:
        numeric_param(parse("P@5"), None)
    assert str(error.value) == "P@5 has no numeric parameter to analyse"
    # The only numeric parameter is picked when none is named; a named one is found among several.
    assert numeric_param(RBP(), None).name == "p"
    assert numeric_param(RBU(), "e").name == "e" and numeric_param(RBU(), "p").name == "p"


def test_a_score_with_logarithmic_coefficients_is_refused_with_the_whole_message():
    p = sympy.Symbol("p", real=True)
    with pytest.raises(ParametricError) as error:
        parametric._as_fraction(p / sympy.log(3), p, "M on (1, 0)")
    assert str(error.value) == (
        "M on (1, 0): the score p/log(3) has non-rational coefficients (e.g. logarithms); parametric "
        "analysis handles rational functions of the parameter with rational coefficients")
    with pytest.raises(ParametricError) as error:
        parametric._as_fraction(sympy.log(p), p, "M on (1, 0)")
    assert str(error.value) == "M on (1, 0): the score log(p) is not a rational function of p"


def test_parametric_sub_ranges_without_ties_and_with_two_values():
    # [a] 0, [b] x^2 + 1: never tied (x^2 + 1 > 0), two values: interval for every x.
    never = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x) * A.num(x) + A.num(1)}
    result = analyse(_param_metric(never), "x", _ABC_AB)
    assert result.exceptional == () and result.interval_ranges == ("(-inf, inf)",)
    assert result.domain == "ab" and result.size == 2
    assert result.summary == "metric for every x in (-inf, inf); interval for every x in (-inf, inf)"
    # [a] 0, [b] x: tied at 0; on each side two values; on [-1, 1] the closed ends are
    # interval too (two distinct values: 0, -1 and 0, 1).
    two = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x)}
    result = analyse(_param_metric(two), "x", _ABC_AB)
    assert result.interval_ranges == ("(-inf, 0)", "(0, inf)")
    assert result.summary == ("metric for every x in (-inf, inf) except {0}; interval for every x in "
                              "(-inf, 0) and (0, inf)")
    result = analyse(_param_metric(two, low=-1, high=1, default=0.5), "x", _ABC_AB)
    assert result.interval_ranges == ("(-1, 0)", "(0, 1)")
    assert result.interval == (("-1", -1.0), ("1", 1.0))
    assert result.summary == ("metric for every x in [-1, 1] except {0}; interval for every x in "
                              "(-1, 0) and (0, 1) and at -1, 1")


_ABC_AB = outputs([([d], TOPIC6) for d in "ab"], name="ab")


def test_parametric_sub_range_reads_the_order_of_rational_functions():
    # [a] 0, [b] 1/x, [c] 1 on (0, inf): [b] and [c] tie at x = 1.
    # (0, 1): 0 < 1 < 1/x, gaps 1 and 1/x - 1: equal at x = 1/2;
    # (1, inf): 0 < 1/x < 1, gaps 1/x and 1 - 1/x: equal at x = 2.
    inverse = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(1) / A.num(x), "c": lambda A, x: A.num(1)}
    result = analyse(_param_metric(inverse, low=0, low_open=True), "x", _ABC)
    assert result.exceptional == (("1", 1.0, "[b]", "[c]"),)
    assert result.interval == (("1/2", 0.5), ("2", 2.0))


def test_parametric_sample_point_is_strictly_inside_its_sub_range():
    # [a] 0, [b] 1/2, [c] x: ties at x = 0 ([a], [c]) and x = 1/2 ([b], [c]).
    # On (0, 1/2) the order is 0 < x < 1/2, gaps x and 1/2 - x: equal at x = 1/4. (A sample
    # point at the end 1/2 would see [b] and [c] tied and read the order 0, 1/2, x instead.)
    # On (1/2, inf): 0 < 1/2 < x, gaps 1/2 and x - 1/2: equal at x = 1; (-inf, 0): x < 0 < 1/2,
    # gaps -x and 1/2: x = -1/2.
    table = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(F(1, 2)), "c": lambda A, x: A.num(x)}
    result = analyse(_param_metric(table), "x", _ABC)
    assert [e[0] for e in result.exceptional] == ["0", "1/2"]
    assert [v[0] for v in result.interval] == ["-1/2", "1/4", "1"]


def test_a_root_of_equal_gaps_at_a_tie_is_not_an_interval_value():
    # [a] 0, [b] x, [c] x^2 + x on (0, inf): the ties (at 0, -1) are outside the open range.
    # Order 0 < x < x^2 + x, gaps x and x^2: equal at x = 1 (values 0, 1, 2) and at x = 0,
    # which is not inside (0, inf): only 1.
    table = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x),
             "c": lambda A, x: A.num(x) * A.num(x) + A.num(x)}
    result = analyse(_param_metric(table, low=0, low_open=True), "x", _ABC)
    assert result.exceptional == () and result.interval == (("1", 1.0),)


def test_exceptional_values_are_sorted_by_value_even_when_close():
    # [a] 0, [b] x - r2, [c] x - r1 with r1 = 1/2 < r2 = 1/2 + 10^-20: ties at r2 ([a], [b],
    # found first) and r1 ([a], [c]); [b] - [c] is the constant r1 - r2. Listed in order: r1, r2.
    r1, r2 = F(1, 2), F(1, 2) + F(1, 10 ** 20)
    table = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x) - A.num(r2),
             "c": lambda A, x: A.num(x) - A.num(r1)}
    result = analyse(_param_metric(table), "x", _ABC)
    assert [(e[0], e[2], e[3]) for e in result.exceptional] == [
        ("1/2", "[a]", "[c]"), (f"{r2.numerator}/{r2.denominator}", "[a]", "[b]")]


def test_parametric_refusals_say_why():
    # A score with a second symbol.
    other = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x) + sympy.Symbol("y")}
    with pytest.raises(ParametricError) as error:
        analyse(_param_metric(other), "x", _ABC_AB)
    assert str(error.value) == "Line(x=x) on [b]: score has other symbols {y}"
    # A score with a logarithm among its coefficients, named by the metric and the output.
    logarithmic = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x) * sympy.log(3)}
    with pytest.raises(ParametricError) as error:
        analyse(_param_metric(logarithmic), "x", _ABC_AB)
    assert str(error.value).startswith("Line(x=x) on [b]: the score x*log(3) has non-rational coefficients")
    # A metric with a name (not a built-in) is refused by that name, not by its repr.
    class Named:
        name = "mine"

        def score(self, ranking, topic):
            return 0.0

    with pytest.raises(ParametricError) as error:
        analyse(Named(), None, rankings(2))
    assert str(error.value).startswith("mine: parametric analysis needs a built-in metric")
    with pytest.raises(ParametricError) as error:
        analyse(parse("RareP(alpha=0.5)@3"), "alpha", rankings(2))
    assert str(error.value) == ("RareP(alpha=0.5)@3 scores against other systems (a context): parametric "
                                "analysis needs a metric of one output")
    with pytest.raises(ParametricError) as error:
        analyse(RBP(), "p", sets(N=4, R=2))
    assert str(error.value) == ("parametric analysis scores rankings; sets(N=4, R=2) is a domain of "
                                "contingency counts")
    # The limit counts outputs: 8 outputs pass a limit of 8, not one of 7.
    assert analyse(RBP(), "p", rankings(3), max_outputs=8).size == 8
    with pytest.raises(ParametricError) as error:
        analyse(RBP(), "p", rankings(3), max_outputs=7)
    assert str(error.value) == (
        "rankings(n=3, grades={0,1}, lengths=exact, R=3) has 8 outputs, more than the parametric "
        "analysis's limit of 7 (all pairs of distinct score expressions are compared); use a smaller "
        "domain or raise max_outputs")


def test_the_analysed_metric_is_named_with_the_parameter_as_a_symbol():
    # RBU's other numeric parameter keeps its value, the analysed one is written as itself, a
    # string option at its default (form='paper') is left out, the cutoff is kept.
    assert analyse(RBU(p=0.5, cutoff=2), "e", rankings(1)).metric == "RBU(p=0.5,e=e)@2"
    assert analyse(RBU(p=0.5, form="reference"), "e", rankings(1)).metric == "RBU(p=0.5,e=e,form='reference')"
    assert analyse(RBP(p=0.5), "p", rankings(1)).metric == "RBP(p=p)"
    # A parameter not shown at its default leaves no parentheses at all.
    assert analyse(_line(shown_at_default=False), "x", _ABC).metric == "Line"


def test_the_golden_exceptional_value_is_written_as_one_fraction():
    # RBP on binary length 3: the tie 1 = p + p^2 at p = (sqrt(5) - 1)/2, written over one
    # denominator (as the module docstring shows it), not as -1/2 + sqrt(5)/2.
    (value,) = analyse(RBP(), "p", rankings(3)).exceptional
    assert value[0] == "(-1 + sqrt(5))/2"


def test_a_pole_shared_by_two_scores_is_not_a_tie():
    # [a] 1/x, [b] 4 - 1/x on (0, inf): equal where 2/x = 4, x = 1/2. Written over the common
    # denominator the difference is x (2 - 4x) / x^2: its factor x is the pole, not a tie, and the
    # factor 2x - 1 after it still gives the tie.
    table = {"a": lambda A, x: A.num(1) / A.num(x), "b": lambda A, x: A.num(4) - A.num(1) / A.num(x)}
    result = analyse(_param_metric(table, low=0, low_open=True), "x", _ABC_AB)
    assert result.exceptional == (("1/2", 0.5, "[a]", "[b]"),)
    assert result.interval_ranges == ("(0, 1/2)", "(1/2, inf)")


def test_identically_equal_gaps_make_every_sub_range_interval():
    # [a] 0, [b] x, [c] 2x: all three tie at 0; on either side the gaps are x, x (or -x, -x),
    # equal for every x: interval on both sub-ranges.
    table = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x), "c": lambda A, x: A.num(2) * A.num(x)}
    result = analyse(_param_metric(table), "x", _ABC)
    assert [e[0] for e in result.exceptional] == ["0"]
    assert result.interval_ranges == ("(-inf, 0)", "(0, inf)") and result.interval == ()


def test_a_pole_at_the_sample_point_is_no_crash():
    # [a] 1 + 1/x, [b] 2 + 1/x: never tied (they differ by 1), undefined at x = 0. The sub-range
    # (-inf, inf) has no tie, so its sample point is 0, where both scores are 1/0.
    table = {"a": lambda A, x: A.num(1) + A.num(1) / A.num(x), "b": lambda A, x: A.num(2) + A.num(1) / A.num(x)}
    result = analyse(_param_metric(table), "x", _ABC_AB)
    assert result.exceptional == ()
    # The pole splits the range: each side is sampled away from it (it raised TypeError there).
    assert result.interval_ranges == ("(-inf, 0)", "(0, inf)")
