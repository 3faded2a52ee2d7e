"""Where a parameter's boundary lies, exactly (issue 14): the built-ins' exact roots and the rational
root probed, the exact and numerical roots of a sign change and which side owns a root, a normalised
metric's ideal decided at the bracket, and the closed form, bisection and decisive cases on cases
built by hand.
"""

from __future__ import annotations

import dataclasses

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy

from axiometer.axioms import get
from axiometer.checking.boundary import (_LONGEST_FORM, _SIMPLIFY_OPS, WIDTH, CellProbe, ParamRange, _bisect,
                                         _closed_form, _decisive_cases, _exact_root, _form, _log_form, _root_in,
                                         _side_of_root, _sign, _topic, declared_range, locate, probe_values)
from axiometer.checking.budget import Budget
from axiometer.core import Topic
from axiometer.metrics import parse
from axiometer.results import Counterexample, RootForm, TopicRecord, record_topic
from tests.checking import in_bracket, probed_check

#: RBP's DeepTh "boundary" is made by the horizon: the search's grid of n stops at H, so for p near 1
#: D(n) <= 0 up to H. These tests pin down the closed-form machinery on that search-made boundary;
#: with proofs (the default) DeepTh is proved for every n and the boundary is gone (test_prove.py).
SEARCH_ONLY_16 = Budget(cases=10, small_scope=10, horizon=16, proof_docs=0)


# -- built-ins: exact roots, the rational root probed, no closed form -------------------------------------

def _located_at(name: str, constraint: str, param: str, budget: Budget):
    metric, oracle = parse(name), get(constraint)
    probe = CellProbe(metric, oracle, param, mode=None, budget=budget, seed=0)
    return locate(metric, oracle, declared_range(metric, param), probe)


#: RBP's DeepTh pair: Q(a_n) = (1 - p) rc, Q(b_n) = (1 - p) rc (p^n + ... + p^(2n-1)), so D(n) > 0
#: iff p^n (1 - p^n) < 1 - p, i.e. (dividing by 1 - p) p^n + ... + p^(2n-1) < 1. DeepTh is violated
#: iff D <= 0 at the grid's end n = H: for p above the root of p^H + ... + p^(2H-1) = 1.
def _rbp_deepth_root(horizon: int) -> float:
    coefficients = [1] * horizon + [0] * horizon  # p^(2H-1) .. p^H, then p^(H-1) .. p^0
    coefficients[-1] = -1
    (root,) = [r.real for r in np.roots(coefficients) if abs(r.imag) < 1e-9 and 0 < r.real < 1]
    return root


def test_rbp_deepth_has_an_irreducible_polynomial_root():
    (boundary,) = _located_at("RBP", "DeepTh", "p", SEARCH_ONLY_16)
    in_bracket(boundary, _rbp_deepth_root(16))  # 0.88267...
    assert boundary.closed_form == "root of " + " + ".join(f"p**{i}" for i in range(31, 15, -1)) + " - 1"
    assert boundary.case == "n = 16, rc = 1/100"
    # Witness below (D > 0 to the horizon: no case shows "every n from N on"), violated above; the
    # relation is strict, so the tie at the root is violated.
    assert (boundary.below, boundary.above, boundary.certain, boundary.at_value) == \
        ("witness", "violated", "above", "above")


def test_a_long_irreducible_polynomial_prints_as_its_degree():
    # H = 32: p^32 + ... + p^63 = 1, 64 documents (still scored symbolically); its 33 terms are
    # longer than the 160 characters printed.
    (boundary,) = _located_at("RBP", "DeepTh", "p", dataclasses.replace(SEARCH_ONLY_16, horizon=32))
    in_bracket(boundary, _rbp_deepth_root(32))  # 0.92479...
    assert boundary.closed_form == "root of a degree-63 polynomial with rational coefficients"


def test_a_decisive_case_too_long_to_score_symbolically_leaves_the_bisection_alone():
    # At H = 64 the pair has 128 documents, more than SYMBOLIC_DOCS = 64: no closed form, and the
    # boundary says so (a built-in is expected to have one).
    (boundary,) = _located_at("RBP", "DeepTh", "p", dataclasses.replace(SEARCH_ONLY_16, horizon=64))
    root = _rbp_deepth_root(64)  # 0.95382...
    low, high = (Fraction(v) for v in boundary.bracket)
    assert high - low <= WIDTH and float(low) <= root <= float(high)
    assert boundary.value == float((low + high) / 2)
    assert (boundary.closed_form, boundary.closed_value, boundary.agrees, boundary.at_value) == \
        (None, None, None, None)
    assert boundary.note == ("no closed form: the decisive case's score difference has no root sympy finds "
                             "in the bracket")


def test_a_rational_root_is_probed_and_sat_holds_at_the_tie():
    # EU(alpha, e) = sum_i (sum_t r (1 - alpha)^c - e) / (1 + log2 i). The Sat counterexample
    # appends x (relevant, 1) to a = (d1) with r(d1) = rmax = 1/2 on the same aspect:
    # Q(b) - Q(a) = ((1 - alpha) - e) / 2, and Sat's Q(a) >= Q(b) holds iff alpha >= 1 - e = 19/20
    # at e = 0.05. The root is rational, so it is probed: it belongs to the witness side.
    (boundary,) = _located_at("EU(e=0.05)", "Sat", "alpha", Budget(cases=20, small_scope=60))
    assert boundary.value == 0.95 and boundary.closed_form == "19/20" and boundary.agrees is True
    assert boundary.bracket == ("0.949999", "0.95")
    assert (boundary.below, boundary.above, boundary.certain, boundary.at_value) == \
        ("violated", "witness", "below", "above")
    assert boundary.case == "the counterexample at EU(alpha=0.949999,e=0.05) (rmax = 1/2)"


#: NRBP(d) = sum_i beta^(i-1) sum_t r(d_i, t) (1 - alpha)^c(i, t). The Pri counterexample the search
#: finds: a = (d1, d2, d3) with r = (0, 1/10, 1/50), b = a with positions 1 and 3 swapped.
#: Q(a) = beta/10 + beta^2 (1 - alpha)/50 (d3 repeats the aspect), Q(b) = 1/50 + beta (1 - alpha)/10,
#: so 50 (Q(b) - Q(a)) = 1 - 5 alpha beta - beta^2 (1 - alpha): Pri holds below its root.

def test_a_quadratic_root_prints_as_radicals():
    # alpha = 1/2: 1 - 5 beta/2 - beta^2/2 = 0, i.e. beta^2 + 5 beta - 2 = 0: beta = (-5 + sqrt 33)/2.
    (boundary,) = _located_at("NRBP(alpha=0.5)", "Pri", "beta", Budget(cases=20, small_scope=100))
    in_bracket(boundary, (-5 + math.sqrt(33)) / 2)  # 0.37228...
    assert boundary.closed_form == "-5/2 + sqrt(33)/2"
    assert (boundary.below, boundary.above, boundary.certain, boundary.at_value) == \
        ("satisfied", "violated", "above", "above")


def test_a_rational_root_is_probed_at_its_exact_value():
    # beta = 1/2: 1 - 5 alpha/2 - (1 - alpha)/4 = 3/4 - 9 alpha/4 = 0 at alpha = 1/3, which no float
    # or short decimal holds: the probe there checks NRBP at alpha = Fraction(1, 3) itself, where the
    # case ties and strict Pri fails, so 1/3 belongs to the violated side.
    metric, oracle = parse("NRBP(beta=0.5)"), get("Pri")
    probe = CellProbe(metric, oracle, "alpha", mode=None, budget=Budget(cases=20, small_scope=100), seed=0)
    (boundary,) = locate(metric, oracle, declared_range(metric, "alpha"), probe)
    assert boundary.closed_form == "1/3" and boundary.value == 1 / 3 and boundary.agrees is True
    assert boundary.bracket == ("0.333333", "0.333334")
    assert (boundary.below, boundary.above, boundary.at_value) == ("satisfied", "violated", "above")
    at_root = probe.searched[Fraction(1, 3)]
    assert at_root.verdict == "violated" and dict(at_root.params)["alpha"] == Fraction(1, 3)


# -- the exact and numerical roots, and which side owns a root -----------------------------------

X = sympy.Symbol("x")
W = Fraction(1, 10**6)  # the window _root_in widens [low, high] by


@pytest.mark.parametrize("side", ["low", "high"])
def test_a_root_counts_only_within_a_millionth_of_the_bracket(side):
    """The root of a rational difference in [low - 1e-6, high + 1e-6], found exactly; just outside
    the widened bracket, none."""
    low, high = Fraction(1, 2), Fraction(3, 5)
    edge = low - W if side == "low" else high + W
    step = Fraction(1, 10**12) * (1 if side == "low" else -1)
    inside, outside = edge + step, edge - step
    for root, found in ((inside, True), (outside, False)):
        difference = X - sympy.Rational(root.numerator, root.denominator)
        result = _root_in(difference, X, low, high)
        assert (result is not None) is found, (side, root)
        if found:
            assert result[2] == sympy.Rational(root.numerator, root.denominator)


def test_a_logarithmic_difference_with_its_root_on_the_widened_edge_has_no_root():
    """The numerical branch wants a sign change between the widened edges: a difference that is
    exactly 0 at one of them has none (its root is reported by the neighbouring bracket)."""
    low, high = Fraction(1, 2) + W, Fraction(3, 4)
    at_low = (X - sympy.Rational(1, 2)) * sympy.log(2)          # 0 at low - 1e-6
    at_high = (X - sympy.Rational(3, 4) - sympy.Rational(1, 10**6)) * sympy.log(3)  # 0 at high + 1e-6
    assert _root_in(at_low, X, low, high) is None
    assert _root_in(at_high, X, low, high) is None
    inside = (X - sympy.Rational(2, 3)) * sympy.log(2)
    text, form, value = _root_in(inside, X, low, high)
    assert form is RootForm.IMPLICIT
    assert abs(value - sympy.Rational(2, 3)) < sympy.Rational(1, 10**15)


@pytest.mark.parametrize("factor, left, right, expected", [
    (X**2 - 2, Fraction(141, 100), Fraction(142, 100), sympy.sqrt(2)),     # the larger of two roots
    (X**2 - 2, Fraction(-142, 100), Fraction(-141, 100), -sympy.sqrt(2)),  # the smaller
    (X**2 - 3 * X + 1, Fraction(261, 100), Fraction(262, 100), (3 + sympy.sqrt(5)) / 2),
    (X**2 - 3 * X + 1, Fraction(38, 100), Fraction(39, 100), (3 - sympy.sqrt(5)) / 2),
    (X**3 - 2, Fraction(125, 100), Fraction(127, 100), sympy.CRootOf(X**3 - 2, 0)),
])
def test_the_exact_root_is_the_one_in_its_isolating_interval(factor, left, right, expected):
    root = _exact_root(sympy.Poly(factor, X), X, sympy.Rational(left.numerator, left.denominator),
                       sympy.Rational(right.numerator, right.denominator))
    assert sympy.simplify(root - expected) == 0


@pytest.mark.parametrize("at_root, expected", [("satisfied", "below"), ("violated", "above"), ("error", None)])
def test_a_rational_root_is_given_to_the_side_whose_verdict_it_has(at_root, expected):
    low, high = (Fraction(1, 4), probed_check("satisfied")), (Fraction(3, 4), probed_check("violated"))
    probed = []

    def probe(value):
        probed.append(value)
        return probed_check(at_root)

    assert _side_of_root(get("Pri"), sympy.Rational(1, 2), low, high, probe) == expected
    assert probed == [Fraction(1, 2)]


@pytest.mark.parametrize("oracle, violated_side, expected", [
    ("Pri", "below", "below"), ("Pri", "above", "above"),      # strict: the tie fails, with the violated side
    ("DeepTh", "below", "below"),                             # a threshold rule: strict too
    ("Sat", "below", "above"), ("Sat", "above", "below"),     # Sat's >= holds at the tie
])
def test_an_irrational_root_goes_to_the_side_the_tie_belongs_to(oracle, violated_side, expected):
    verdicts = ("violated", "satisfied") if violated_side == "below" else ("satisfied", "violated")
    low, high = (Fraction(1, 4), probed_check(verdicts[0])), (Fraction(3, 4), probed_check(verdicts[1]))
    assert _side_of_root(get(oracle), sympy.sqrt(2) / 2, low, high, lambda v: pytest.fail("no probe")) == expected
    both = (Fraction(1, 4), probed_check("violated")), (Fraction(3, 4), probed_check("violated"))
    assert _side_of_root(get(oracle), sympy.sqrt(2) / 2, *both, lambda v: None) is None


def test_a_recorded_topic_comes_back_with_its_aspect_weights():
    topic = Topic({"a": {"x": Fraction(1, 2), "y": 1}, "b": {"x": 0, "y": Fraction(1, 3)}},
                  {"x": Fraction(1, 4), "y": Fraction(3, 4)})
    again = _topic(record_topic(topic))
    assert again == topic and tuple(again.weights) == (Fraction(1, 4), Fraction(3, 4))


def test_a_long_form_that_is_no_polynomial_in_y_is_told_in_words():
    """Past 160 characters, a form whose y-version is not a polynomial (here exponentials of the
    parameter) is summarised without a degree."""
    alpha = sympy.Symbol("alpha")
    numerator = sum(sympy.log(m + 2) * sympy.exp(m * alpha) for m in range(1, 9))
    assert len(sympy.sstr(numerator)) > _LONGEST_FORM and sympy.count_ops(numerator) <= _SIMPLIFY_OPS
    assert _log_form(numerator, alpha) == "root of a score difference with logarithmic coefficients"


def test_probes_step_evenly_across_a_range_that_does_not_start_at_zero():
    """The ends, and one short decimal near each eighth of the way: 1/2 + i (2/5)/8."""
    span = ParamRange("p", Fraction(1, 2), Fraction(9, 10))
    values = probe_values(span)
    assert len(values) == 9 and values[0] == Fraction(1, 2) and values[-1] == Fraction(9, 10)
    step = Fraction(2, 5) / 8
    for i, value in enumerate(values[1:-1], 1):
        assert abs(value - (Fraction(1, 2) + i * step)) <= step / 4


def test_sign():
    assert [_sign(v) for v in (-0.5, 0.0, 0.5, 2.0)] == [-1, 0, 1, 1]


def test_a_root_of_degree_three_prints_its_primitive_polynomial_with_a_positive_lead():
    factor = sympy.Poly(-2 * X**3 + 4, X)  # root 2**(1/3): printed as the primitive x**3 - 2
    assert _form(factor, X, sympy.CRootOf(X**3 - 2, 0)) == ("root of x**3 - 2", RootForm.IMPLICIT)
    assert _form(sympy.Poly(X**2 - 2, X), X, sympy.sqrt(2)) == ("sqrt(2)", RootForm.EXPLICIT)  # degree 2: radicals


# -- a normalised metric: the ideal's order is decided at the bracket ---------------------------------

def test_alpha_ndcg_boundary_decides_its_ideal_ranking_at_the_bracket():
    """alpha-nDCG@10's CloseTh boundary. The longest pair inside the window is m = 5 (2m = k): with
    y = 1 - alpha, Q(a_5) = rc and Q(b_5) = rc sum_{j<5} y^j / log2(j + 7), both over the same ideal,
    so CloseTh's witness (Q(b) > Q(a)) holds iff sum_{j<5} y^j / log2(j + 7) > 1, i.e. below the root.
    The greedy ideal is an order the symbolic score has to pick at some alpha: the engine picks it
    at the bracket's middle (without a value to pick at there would be no closed form)."""
    (boundary,) = _located_at("alpha_nDCG@10", "CloseTh", "alpha", Budget(cases=20, small_scope=60, horizon=8))
    coefficients = [1 / math.log2(j + 7) for j in range(5)]
    coefficients[0] -= 1
    (y,) = [r.real for r in np.roots(coefficients[::-1]) if abs(r.imag) < 1e-12 and 0 < r.real < 1]
    in_bracket(boundary, 1 - y)  # 0.25117...
    assert boundary.case == "m = 5, rc = 1/100"
    assert boundary.closed_form == ("root of a degree-4 polynomial in y = 1 - alpha with logarithmic "
                                    "coefficients")
    assert (boundary.below, boundary.above) == ("witness", "violated")
    # The value reported is the double nearest the root (mpmath at 40 digits, apart from the engine).
    with mpmath.workdps(40):
        exact = 1 - mpmath.findroot(lambda v: sum(v**j / mpmath.log(j + 7, 2) for j in range(5)) - 1, 0.75)
    assert boundary.closed_value == boundary.value == float(exact)


# -- _closed_form, _bisect and _decisive_cases on cases built by hand -----------------------------------

def _recorded(judgments: dict[str, str], a: tuple[str, ...], b: tuple[str, ...], relation: str = "Q(b) > Q(a)",
              extra: tuple[tuple[str, str], ...] = ()) -> Counterexample:
    """A single-aspect counterexample (exact strings), as a check would record it."""
    topic = TopicRecord(aspects=("*",), weights=("1",),
                        judgments=tuple((doc, (r,)) for doc, r in judgments.items()))
    return Counterexample(topic=topic, a=a, b=b, score_a=0.0, score_b=0.0, relation=relation, note="",
                          decided="exact", extra=extra)


def _no_probe(value):
    pytest.fail(f"a bracket already 1e-6 wide is not probed again ({value})")


def test_a_metric_needing_a_context_gets_no_closed_form():
    """FujiiU scores a ranking against prior rankings; a case recorded without them is no case of
    the metric. Its symbolic score does exist (with epsilon for every zero probability: Q(d1, d2)
    = -1 - 2 log2 eps, Q(x, d1, y) = log2(2/3) - log2 eps, a difference log2(4 eps / 3) zero at
    eps = 3/4), so only the guard keeps the engine from reporting that root as the boundary."""
    metric = parse("FujiiU(policy='epsilon')")
    case = _recorded({"d1": "1", "d2": "1/2"}, ("d1", "d2"), ("x", "d1", "y"))
    low = (Fraction("0.749999"), probed_check("violated", case))
    high = (Fraction("0.75"), probed_check("satisfied"))
    epsilon = sympy.Symbol("epsilon", real=True)
    from axiometer.metrics.symbolic import symbolic_score
    difference = (symbolic_score(metric, "epsilon", epsilon, case.b, _topic(case.topic))
                  - symbolic_score(metric, "epsilon", epsilon, case.a, _topic(case.topic)))
    assert _root_in(difference, epsilon, *(v for v, _ in (low, high))) is not None  # the root is there
    assert _closed_form(metric, get("Pri"), "epsilon", low, high) is None


def test_sats_irrational_root_belongs_to_the_side_its_tie_holds_on():
    """alpha-DCG, a = (d1), b = (x, d2, d3), every r = 1: Q(a) = 1, Q(b) = 1/log2(3) + (1 - alpha)/2,
    so Sat's Q(a) >= Q(b) holds from alpha = 2/log2(3) - 1 (irrational) on, ties there, and holds
    at the tie: the value belongs to the witness side, above. The other parameters' values are kept."""
    metric, root = parse("alpha_DCG"), 2 / math.log2(3) - 1  # 0.26185...
    case = _recorded({"d1": "1", "d2": "1", "d3": "1"}, ("d1",), ("x", "d2", "d3"), "Q(a) >= Q(b)")
    low = (Fraction("0.261859"), probed_check("violated", case, metric="alpha_DCG(alpha=0.261859)"))
    high = (Fraction("0.26186"), probed_check("witness"))
    span = ParamRange("alpha", Fraction(0), Fraction(1))
    boundary = _bisect(metric, get("Sat"), span, _no_probe, low, high, (("k", "10"),))
    in_bracket(boundary, root)
    assert (boundary.below, boundary.above, boundary.at_value) == ("violated", "witness", "above")
    assert boundary.fixed == (("k", "10"),) and boundary.counterexample == case
    assert boundary.case == "the counterexample at alpha_DCG(alpha=0.261859)"


#: RBP, a = (d1, x), b = (x, d2) with r(d2) = 1: Q(b) - Q(a) = (1 - p)(p - r(d1)), zero at p = r(d1).
def _rbp_root_at(r: Fraction) -> Counterexample:
    return _recorded({"d1": str(r), "d2": "1"}, ("d1", "x"), ("x", "d2"))


def test_a_closed_form_root_outside_the_bracket_leaves_the_bisections_value():
    # The root 19/20 is within a millionth of the bracket's upper end (so it is found) but 1.25e-6
    # from its middle: the bisection's value stands, and the boundary says why.
    low = (Fraction("0.9499983"), probed_check("violated", _rbp_root_at(Fraction(19, 20))))
    high = (Fraction("0.9499992"), probed_check("satisfied"))
    boundary = _bisect(parse("RBP"), get("Pri"), ParamRange("p", Fraction(0), Fraction(1)), _no_probe,
                       low, high, ())
    assert (boundary.closed_form, boundary.closed_value, boundary.agrees) == ("19/20", 0.95, False)
    assert boundary.value == float(Fraction("0.94999875")) and boundary.at_value is None
    assert boundary.note == ("the closed form's root 0.95 lies outside the bisection's bracket: the "
                             "bisection's value is reported")


def test_a_closed_form_exactly_a_width_from_the_middle_agrees():
    """Agreement is |closed - middle| <= 1e-6, the end included. The middle is 1e-6 and the root is
    the double 2e-6 = 2 x float(1e-6), so the float difference is float(1e-6) exactly."""
    root = Fraction(2e-6)
    low = (Fraction(1, 10**6) - Fraction(1, 10**9), probed_check("violated", _rbp_root_at(root)))
    high = (Fraction(1, 10**6) + Fraction(1, 10**9), probed_check("satisfied"))
    boundary = _bisect(parse("RBP"), get("Pri"), ParamRange("p", Fraction(0), Fraction(1)),
                       lambda value: probed_check("violated"), low, high, ())
    assert boundary.closed_value - float(Fraction(1, 10**6)) == float(WIDTH)
    assert boundary.agrees is True and boundary.value == 2e-6 and boundary.at_value == "below"


def test_a_decisive_case_too_long_is_passed_over_for_the_next():
    """DeepTh's pair at n = 40 has 80 documents, more than SYMBOLIC_DOCS: the engine goes on to the
    next decisive case (the counterexample, whose root 19/20 lies in the bracket)."""
    low = (Fraction("0.949999"), probed_check("violated", _rbp_root_at(Fraction(19, 20)), curve=(("1", ((40, 0.5),)),)))
    high = (Fraction("0.95"), probed_check("witness", curve=(("1", ((40, -0.5),)),)))
    cases = [case for *_, case in _decisive_cases(get("DeepTh"), low[1], high[1])]
    assert cases == ["n = 40, rc = 1", "the counterexample at m"]
    assert _closed_form(parse("RBP"), get("DeepTh"), "p", low, high)[::3] == ("19/20", "the counterexample at m")


def test_a_decisive_case_sympy_fails_on_is_passed_over_for_the_next(monkeypatch):
    """sympy may fail on one case (an arithmetic or value error inside its solvers): that case gives
    no closed form, and the next one is tried."""
    import axiometer.checking.boundary as boundary_module
    calls, root_in = [], boundary_module._root_in

    def failing_first(*arguments):
        calls.append(arguments)
        if len(calls) == 1:
            raise ArithmeticError("sympy could not isolate the root")
        return root_in(*arguments)

    monkeypatch.setattr(boundary_module, "_root_in", failing_first)
    low = (Fraction("0.949999"), probed_check("violated", _rbp_root_at(Fraction(19, 20)), curve=(("1", ((3, 0.5),)),)))
    high = (Fraction("0.95"), probed_check("witness", curve=(("1", ((3, -0.5),)),)))
    assert _closed_form(parse("RBP"), get("DeepTh"), "p", low, high)[::3] == ("19/20", "the counterexample at m")
    assert len(calls) == 2


def test_the_decisive_cases_are_the_grid_points_whose_sign_changes():
    """Only an (rc, n) on both sides' curves with different signs there: an rc or an n the other
    side did not reach is no change, and neither is a sign kept."""
    low = probed_check("violated", curve=(("1", ((1, 0.5), (2, -0.1), (3, 0.2))), ("1/2", ((1, 0.2),))))
    high = probed_check("witness", curve=(("1", ((1, 0.5), (2, 0.3))),))
    assert [case for *_, case in _decisive_cases(get("CloseTh"), low, high)] == ["m = 2, rc = 1"]


def test_a_threshold_counterexample_is_named_by_its_grid_point_without_its_signs():
    case = _recorded({"d1": "1"}, ("d1",), ("x", "d1"),
                     extra=(("rc", "1"), ("n", "3"), ("signs", "n=1..3: +")))
    (*_, text), = _decisive_cases(get("DeepTh"), probed_check("violated", case, metric="RBP(p=0.9)"), probed_check("witness"))
    assert text == "the counterexample at RBP(p=0.9) (rc = 1, n = 3)"


def test_a_closed_form_of_exactly_the_longest_length_is_printed():
    """x**3 + A x + B with A, B even and B not divisible by 4 is irreducible (Eisenstein at 2); with
    74-digit A and B it prints in exactly 160 characters, the longest form written out."""
    a, b = 2 * 10**73 + 2, 2 * 10**73 + 6  # B = 2 (10**73 + 3): twice an odd number
    factor = sympy.Poly(X**3 + a * X + b, X)
    text = sympy.sstr(factor.as_expr())
    assert len(text) == _LONGEST_FORM == 160
    assert _form(factor, X, sympy.CRootOf(factor.as_expr(), 0)) == (f"root of {text}", RootForm.IMPLICIT)
    longer = sympy.Poly(X**3 + 10 * a * X + b, X)  # one character more
    assert _form(longer, X, sympy.CRootOf(longer.as_expr(), 0)) == \
        ("root of a degree-3 polynomial with rational coefficients", RootForm.IMPLICIT)


def test_a_closed_form_too_large_to_print_is_named_only():
    # EU's CloseTh pair: a_m and b_m both have 2m documents, so the efforts cancel and, with
    # disc(i) = 1/(1 + log2 i) and y = 1 - alpha, Q(b_m) - Q(a_m) = rc [sum_{j<m} y^j disc(m+1+j) - 1].
    # The deciding m here is 12: a degree-11 polynomial in y with logarithmic coefficients, whose
    # expression is past the size printed (200 operations).
    (boundary,) = _located_at("EU(e=0.05)", "CloseTh", "alpha", Budget(cases=10, small_scope=10, horizon=32))

    def gain(m: int, y: float) -> float:
        return sum(y ** j / (1 + math.log2(m + 1 + j)) for j in range(m)) - 1

    coefficients = [1 / (1 + math.log2(13 + j)) for j in range(11, -1, -1)]
    coefficients[-1] -= 1
    (y,) = [r.real for r in np.roots(coefficients) if abs(r.imag) < 1e-9 and 0 < r.real < 1]
    # m = 12 decides: at its root every other m of the grid 1..32 stays below (no witness there).
    assert max(gain(m, y) for m in range(1, 33) if m != 12) < 0
    in_bracket(boundary, 1 - y)  # alpha = 0.18247...
    assert boundary.closed_form == "root of a score difference with logarithmic coefficients"
    assert boundary.case == "m = 12, rc = 1/100"
