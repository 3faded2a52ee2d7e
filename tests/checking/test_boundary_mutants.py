"""Mutation gaps of :mod:`axiometer.checking.boundary` (issue 14): closed forms with logarithmic
coefficients, run in the test process (the four-metric test of test_boundary.py runs them in
workers, where the mutation tool cannot see them), and the sides of a boundary.

alpha-DCG (single aspect, no cutoff) keeps the algebra short:
``alpha-DCG(d) = sum_i r_i (1 - alpha)^c_i / log2(i + 1)`` with ``c_i`` the relevant documents
above ``i``. Every reference root below is derived by hand and computed with ``math``/numpy,
independently of sympy and of the engine.
"""

from __future__ import annotations

import math
from dataclasses import replace
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
from axiometer.metrics import adapt, parse
from axiometer.results import Check, Counterexample, TopicRecord, record_topic

#: Small budgets: a boundary of alpha-DCG takes a fraction of a second.
SMALL = Budget(cases=20, small_scope=60, horizon=64)


def _located(name: str, constraint: str, budget: Budget = SMALL):
    metric, oracle = parse(name), get(constraint)
    probe = CellProbe(metric, oracle, "alpha", mode=None, budget=budget, seed=0)
    return locate(metric, oracle, declared_range(metric, "alpha"), probe)


def _in_bracket(boundary, value: float) -> None:
    low, high = (Fraction(v) for v in boundary.bracket)
    assert high - low <= WIDTH
    assert float(low) - 1e-9 <= value <= float(high) + 1e-9
    assert abs(boundary.value - value) <= 1e-9 and abs(boundary.closed_value - value) <= 1e-9
    assert boundary.agrees is True and boundary.note == ""


def test_a_pri_boundary_linear_in_alpha_prints_in_alpha():
    # The counterexample the search finds: a = (d1, d2, d3) with r = (0, 1/10, 1/50), b = a with
    # positions 1 and 3 swapped. Q(b) - Q(a) = 1/50 + (1/10)(1 - alpha)/log2(3)
    #   - [(1/10)/log2(3) + (1/50)(1 - alpha)/2] = (1 + alpha - 10 alpha/log2(3)) / 100,
    # times 100 ln 3: ln 3 + alpha (ln 3 - 10 ln 2), zero at alpha = ln 3 / (10 ln 2 - ln 3).
    (boundary,) = _located("alpha_DCG", "Pri")
    root = math.log(3) / (10 * math.log(2) - math.log(3))  # 0.18834...
    _in_bracket(boundary, root)
    assert boundary.closed_form == "root of alpha*(-10*log(2) + log(3)) + log(3) = 0"
    assert (boundary.below, boundary.above) == ("satisfied", "violated")
    # The root is irrational, so it is not probed: Pri's relation Q(b) > Q(a) is strict and fails
    # at the tie, so the boundary value belongs to the violated side. Only that side was decided
    # by a concrete case.
    assert boundary.at_value == "above" and boundary.certain == "above"
    assert boundary.case == "the counterexample at alpha_DCG(alpha=0.188349)"
    assert boundary.counterexample is not None and boundary.counterexample.b == ("d3", "d2", "d1")


def test_a_closeth_boundary_quadratic_in_one_minus_alpha_prints_in_y():
    # CloseTh at k = 6 (window mode): m <= 3. a_3 = one relevant document then 5 others,
    # b_3 = 3 others then 3 relevant ones, each worth rc. With y = 1 - alpha:
    # Q(b_3) - Q(a_3) = rc [1/log2(5) + y/log2(6) + y^2/log2(7) - 1]; positive at y = 1 (1.17 - 1),
    # negative at y = 0, so one root in (0, 1). Times ln 5 ln 6 ln 7 / rc, with ln 6 = ln 2 + ln 3:
    # y^2 (ln2 + ln3) ln2 ln5 + y ln2 ln5 ln7 + ln2 (ln2 + ln3) ln7 - (ln2 + ln3) ln5 ln7 = 0,
    # shorter in y than in alpha, so it prints in y.
    (boundary,) = _located("alpha_DCG@6", "CloseTh")
    a, b, c = 1 / math.log2(7), 1 / math.log2(6), 1 / math.log2(5) - 1
    y = (-b + math.sqrt(b * b - 4 * a * c)) / (2 * a)
    _in_bracket(boundary, 1 - y)  # alpha = 0.16709...
    assert boundary.closed_form == (
        "root of y**2*(log(2) + log(3))*log(2)*log(5) + y*log(2)*log(5)*log(7) - log(3)*log(5)*log(7)"
        " - log(2)*log(5)*log(7) + log(2)**2*log(7) + log(2)*log(3)*log(7) = 0, y = 1 - alpha")
    assert boundary.case == "m = 3, rc = 1/100"
    assert (boundary.below, boundary.above) == ("witness", "violated")
    assert boundary.certain == "both" and boundary.at_value == "above"


def test_a_long_closed_form_prints_as_its_degree_in_y():
    # CloseTh at k = 10: the deciding m = 5 gives rc [sum_{j=0..4} y^j / log2(7 + j) - 1], a
    # degree-4 polynomial in y = 1 - alpha whose printed coefficients exceed the print limit.
    (boundary,) = _located("alpha_DCG@10", "CloseTh")
    coefficients = [1 / math.log2(7 + j) for j in range(4, -1, -1)]
    coefficients[-1] -= 1
    (y,) = [r.real for r in np.roots(coefficients) if abs(r.imag) < 1e-12 and 0 < r.real < 1]
    _in_bracket(boundary, 1 - y)  # alpha = 0.25117...
    assert boundary.closed_form == ("root of a degree-4 polynomial in y = 1 - alpha with logarithmic "
                                    "coefficients")
    assert boundary.case == "m = 5, rc = 1/100"


# -- the sides of a boundary: planted metrics that switch at s = 1/2 ------------------------------------
#
# Each metric scores with the harmonic discount ``sum_i r_i / i`` on one side of s = 1/2 and
# otherwise with an increasing weight ``sum_i r_i i``, nothing (0), or by raising. The harmonic
# discount satisfies Pri (moving a more relevant document up gains), is DeepTh-positive from n = 1
# on (Q(a_n) = rc > rc (1/(n+1) + ... + 1/(2n)) = Q(b_n), a sum below ln 2) and so never has
# Q(b_m) > Q(a_m) for CloseTh; the increasing weight breaks Pri; a constant ties every DeepTh pair.

HALF = Fraction(1, 2)
SWITCH = Budget(cases=20, small_scope=40, horizon=16)


def _harmonic(ranking, topic) -> Fraction:
    return sum((Fraction(topic.r(d)) / i for i, d in enumerate(ranking, 1)), Fraction(0))


def _increasing(ranking, topic) -> Fraction:
    return sum((Fraction(topic.r(d)) * i for i, d in enumerate(ranking, 1)), Fraction(0))


def harmonic_above_half(ranking, topic, s=0.8):
    return _harmonic(ranking, topic) if Fraction(s) > HALF else _increasing(ranking, topic)


def harmonic_or_nothing(ranking, topic, s=0.8):
    return _harmonic(ranking, topic) if Fraction(s) > HALF else Fraction(0)


def harmonic_then_raises(ranking, topic, s=0.2):
    if Fraction(s) > HALF:
        raise ValueError("undefined above s = 1/2")
    return _harmonic(ranking, topic)


def undefined_between(ranking, topic, s=0.2):
    """Harmonic up to s = 1/2, undefined on (1/2, 0.58), increasing weights from 0.58 on."""
    if Fraction(s) <= HALF:
        return _harmonic(ranking, topic)
    if Fraction(s) < Fraction("0.58"):
        raise ValueError("undefined between 1/2 and 0.58")
    return _increasing(ranking, topic)


def _boundary(function, constraint: str, calls: list | None = None):
    from axiometer.metrics.resolve import resolve
    metric = resolve(function, params={"s": (0, 1)}).metric
    oracle = get(constraint)
    cell = CellProbe(metric, oracle, "s", mode=None, budget=SWITCH, seed=0)

    def probe(value):  # a plain function: no memory of counterexamples, so locate makes one pass
        result = cell(value)
        if calls is not None:
            calls.append((value, result.verdict))
        return result

    (boundary,) = locate(metric, oracle, ParamRange("s", Fraction(0), Fraction(1)), probe)
    return boundary


def _at_half(boundary) -> None:
    # s = 1/2 itself is a probe (the middle subdivision of [0, 1]) and belongs to the lower side;
    # the bisection narrows the bracket above it to one step of the sixth decimal.
    assert boundary.param == "s" and boundary.fixed == ()
    assert boundary.bracket == ("0.5", "0.500001")
    assert boundary.value == float(Fraction("0.5000005"))
    # A metric author's metric has no closed form: the bisection stands alone, and says nothing else.
    assert (boundary.closed_form, boundary.closed_value, boundary.agrees, boundary.at_value) == \
        (None, None, None, None)
    assert boundary.note == "" and boundary.case == ""


def test_a_violated_side_below_a_searched_one_is_the_certain_check():
    boundary = _boundary(harmonic_above_half, "Pri")
    _at_half(boundary)
    assert (boundary.below, boundary.above, boundary.certain) == ("violated", "satisfied", "below")
    assert boundary.counterexample is not None and boundary.evidence_above is not None


def test_a_deepth_witness_is_not_a_concrete_case():
    # DeepTh's witness N says D(n) > 0 on the grid's stretch [N, H]; the constraint speaks of every
    # n from N on, which no grid shows: only the violated side (a tie at the grid's end) is certain.
    boundary = _boundary(harmonic_or_nothing, "DeepTh")
    _at_half(boundary)
    assert (boundary.below, boundary.above, boundary.certain) == ("violated", "witness", "below")


def test_an_error_is_not_a_concrete_case_even_for_closeth():
    boundary = _boundary(harmonic_then_raises, "CloseTh")
    _at_half(boundary)
    assert (boundary.below, boundary.above, boundary.certain) == ("violated", "error", "below")


def test_two_searched_sides_are_neither_certain():
    boundary = _boundary(harmonic_then_raises, "Pri")
    _at_half(boundary)
    assert (boundary.below, boundary.above, boundary.certain) == ("satisfied", "error", "neither")
    assert boundary.counterexample is None  # neither side is violated
    # The searched side carries what its verdict rests on; an error rests on nothing searched.
    assert boundary.evidence_below.strength in ("exhaustive", "searched") and boundary.evidence_above is None


def test_a_third_verdict_inside_the_bracket_replaces_the_upper_check():
    # The first probes put satisfied at 0.5 and violated at the next probe up (0.62); the
    # bisection's first middle, 0.56, is an error: a third verdict, so the change lies below it and
    # the upper side restarts from that error. The bracket ends between satisfied and error, and
    # the boundary rests on the probes at the bracket's two verdicts: the satisfied one at 0.5 and
    # the errors, not the violated probe at 0.62.
    calls: list = []
    boundary = _boundary(undefined_between, "Pri", calls)
    _at_half(boundary)
    assert (boundary.below, boundary.above, boundary.certain) == ("satisfied", "error", "neither")
    first = len(probe_values(ParamRange("s", Fraction(0), Fraction(1))))
    initial, bisection = dict(calls[:first]), calls[first:]
    assert (initial[HALF], initial[Fraction("0.62")]) == ("satisfied", "violated")
    assert bisection[0] == (Fraction("0.56"), "error")
    # Every later middle lies above 0.5 as well (the bracket's low end never moves): all errors.
    assert {verdict for _, verdict in bisection} == {"error"}
    assert boundary.probes == 1 + len(bisection)


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
    (boundary,) = _located_at("RBP", "DeepTh", "p", Budget(cases=10, small_scope=10, horizon=16))
    _in_bracket(boundary, _rbp_deepth_root(16))  # 0.88267...
    assert boundary.closed_form == "root of " + " + ".join(f"p**{i}" for i in range(31, 15, -1)) + " - 1"
    assert boundary.case == "n = 16, rc = 1/100"
    # Witness below (D > 0 to the horizon: no case shows "every n from N on"), violated above; the
    # relation is strict, so the tie at the root is violated.
    assert (boundary.below, boundary.above, boundary.certain, boundary.at_value) == \
        ("witness", "violated", "above", "above")


def test_a_long_irreducible_polynomial_prints_as_its_degree():
    # H = 32: p^32 + ... + p^63 = 1, 64 documents (still scored symbolically); its 33 terms are
    # longer than the 160 characters printed.
    (boundary,) = _located_at("RBP", "DeepTh", "p", Budget(cases=10, small_scope=10, horizon=32))
    _in_bracket(boundary, _rbp_deepth_root(32))  # 0.92479...
    assert boundary.closed_form == "root of a degree-63 polynomial with rational coefficients"


def test_a_decisive_case_too_long_to_score_symbolically_leaves_the_bisection_alone():
    # At H = 64 the pair has 128 documents, more than SYMBOLIC_DOCS = 64: no closed form, and the
    # boundary says so (a built-in is expected to have one).
    (boundary,) = _located_at("RBP", "DeepTh", "p", Budget(cases=10, small_scope=10, horizon=64))
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
    _in_bracket(boundary, (-5 + math.sqrt(33)) / 2)  # 0.37228...
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


# -- CellProbe: a cell's checks along one parameter, with a memory of counterexamples -----------------

def long_rankings_reversed(ranking, topic, s=0.8):
    """Harmonic below 5 documents, increasing weights from 5 on: Pri fails only on long rankings."""
    weight = (lambda i: Fraction(1, i)) if len(ranking) < 5 else (lambda i: i)
    return sum((Fraction(topic.r(d)) * weight(i) for i, d in enumerate(ranking, 1)), Fraction(0))


#: Four non-relevant documents, then d5 with r = 1/10; b moves d5 to the top. With increasing
#: weights Q(a) = 5/10 > Q(b) = 1/10: a Pri violation no search of up to 3 documents meets.
FIVE = Counterexample(topic=TopicRecord(aspects=("*",), weights=("1",),
                                        judgments=tuple((f"d{i}", ("0",)) for i in range(1, 5))
                                        + (("d5", ("1/10",)),)),
                      a=("d1", "d2", "d3", "d4", "d5"), b=("d5", "d2", "d3", "d4", "d1"), score_a=0.5,
                      score_b=0.1, relation="Q(b) > Q(a)", note="b = a with positions 1 and 5 swapped",
                      decided="exact")
TINY = Budget(cases=1, small_scope=30)


def _long_probe(constraint: str = "Pri") -> CellProbe:
    from axiometer.metrics.resolve import resolve
    metric = resolve(long_rankings_reversed, params={"s": (0, 1)}).metric
    return CellProbe(metric, get(constraint), "s", mode=None, budget=TINY, seed=0)


def test_a_counterexample_found_elsewhere_is_re_decided_at_every_value():
    probe = _long_probe()
    searched = probe(Fraction(1, 2))
    assert searched.verdict == "satisfied" and probe.learned == 0  # 30 cases of up to 3 documents
    probe.learn(FIVE)
    assert probe.learned == 1
    redecided = probe(Fraction(1, 2))  # the search is not run again; the known case decides
    assert redecided.verdict == "violated" and redecided.evidence is None
    assert redecided.counterexample.a == FIVE.a and redecided.counterexample.b == FIVE.b
    assert redecided.counterexample.note == FIVE.note  # how b was built, as the case said
    assert redecided.note.endswith("a counterexample found at another value of s, re-decided here")
    assert probe.searched[Fraction(1, 2)] is searched  # the search's own result is kept as it was


def test_only_a_universal_constraints_plain_counterexample_is_remembered():
    # A threshold constraint's verdict is no "for every case": one case found elsewhere decides nothing.
    probe = _long_probe("DeepTh")
    probe.learn(FIVE)
    assert probe.learned == 0
    # A relative metric's counterexample holds only under its context: not re-decided elsewhere.
    probe = _long_probe()
    probe.learn(replace(FIVE, context_a=(("x",),)))
    assert probe.learned == 0


def test_a_violated_probe_teaches_the_others():
    probe = _long_probe()
    probe.budget = Budget(cases=50, small_scope=400)  # enough to reach 5 documents
    assert probe(Fraction(1, 5)).verdict == "violated" and probe.learned == 1
    probe.budget = TINY
    assert probe(Fraction(4, 5)).verdict == "violated"  # the search alone would say satisfied


def test_probe_values_reach_the_metric_as_ints_short_decimals_or_exact_fractions():
    probe = _long_probe()
    values = {v: dict(probe(v).params)["s"] for v in (Fraction(1), Fraction(4, 5), Fraction(3, 19))}
    assert values == {Fraction(1): 1, Fraction(4, 5): 0.8, Fraction(3, 19): Fraction(3, 19)}
    assert type(values[Fraction(1)]) is int and type(values[Fraction(4, 5)]) is float


# -- ranges and probes ----------------------------------------------------------------------------------

def test_a_range_must_be_increasing_one_line():
    import pytest
    from axiometer.core import InputError
    with pytest.raises(InputError) as error:
        ParamRange("p", Fraction(9, 10), Fraction(1, 2))
    assert str(error.value) == "the range of p must have low < high, got 0.9..0.5"
    with pytest.raises(InputError, match="got 0.5..0.5"):
        ParamRange("p", Fraction(1, 2), Fraction(1, 2))


def test_a_range_contains_its_closed_ends_only():
    closed_low = ParamRange("p", Fraction(0), Fraction(1), low_open=False, high_open=True)
    assert [closed_low.contains(v) for v in (-0.1, 0, 0.5, 1, 1.5)] == [False, True, True, False, False]
    open_low = ParamRange("p", Fraction(0), Fraction(1), low_open=True, high_open=False)
    assert [open_low.contains(v) for v in (-0.1, 0, 0.5, 1, 1.5)] == [False, False, True, True, False]
    # An open end is probed a thousandth of the range's width inside it.
    assert ParamRange("e", Fraction(0), Fraction(2), high_open=True).ends() == (Fraction(0), Fraction(1998, 1000))
    assert ParamRange("a", Fraction(1, 2), Fraction(1), low_open=True).ends() == (Fraction(1001, 2000), Fraction(1))


def test_declared_ranges_of_built_ins():
    from axiometer.checking.boundary import ParamRange as R
    assert declared_range(parse("RBP"), "p") == R("p", Fraction(0), Fraction(1), True, True)
    assert declared_range(parse("EU"), "alpha") == R("alpha", Fraction(0), Fraction(1), False, True)
    # EU's effort has no upper bound: twice the largest grid value, 2 x 0.5.
    assert declared_range(parse("EU"), "e") == R("e", Fraction(0), Fraction(1), False, False)
    # Not numeric, not varied by the checks, or not a parameter at all: no range.
    assert declared_range(parse("RBU@10"), "form") is None
    assert declared_range(parse("P@10"), "rel") is None
    assert declared_range(parse("RBP"), "q") is None
    assert declared_range(parse("NRG"), "base") is None  # a string without choices, varied by no check
    assert declared_range(adapt(object()), "p") is None  # an object declaring no parameters at all


def test_declared_ranges_without_bounds_come_from_the_grid():
    from axiometer.metrics import wrap
    from axiometer.metrics.base import Param
    # No low: the grid's smallest value minus 1; no high: twice its largest. A bound that is not
    # given cannot be open.
    def scored(ranking, topic, **params):
        return _harmonic(ranking, topic)

    gridded = wrap(scored, "g", params={"g": 0.5}, param_info=[
        Param("g", float, 0.5, "a weight", low_open=True, high_open=True, grid=(0.2, 0.6))])
    assert declared_range(gridded, "g") == ParamRange("g", Fraction(-4, 5), Fraction(6, 5))
    bare = wrap(scored, "b", params={"b": 0}, param_info=[Param("b", int, 0, "a shift")])
    assert declared_range(bare, "b") == ParamRange("b", Fraction(-1), Fraction(1))
    capped = wrap(scored, "c", params={"c": 2}, param_info=[
        Param("c", int, 2, "a count", high=10, low_open=True, high_open=True, grid=(2, 4))])
    assert declared_range(capped, "c") == ParamRange("c", Fraction(1), Fraction(10), False, True)


def test_probes_of_a_closed_range():
    # [0, 1]: the ends and the shortest decimal within 1/32 of each i/8 (rounding half to even on
    # ties: 0.125 -> 0.12, 0.375 -> 0.38), plus the given values inside the range.
    span = ParamRange("p", Fraction(0), Fraction(1))
    assert probe_values(span, (0.3, 1.2, 0)) == tuple(Fraction(v) for v in (
        "0", "0.12", "0.25", "0.3", "0.38", "0.5", "0.62", "0.75", "0.88", "1"))


@pytest.mark.parametrize("low, high, middle", [
    ("0", "1", "0.5"),
    ("0.1", "0.2", "0.15"),      # middle half [0.125, 0.175]: 0.2 (one digit) lies outside
    ("0", "1/3", "0.2"),         # middle half [1/12, 1/4]
    ("3", "7", "5"),
    ("0.754877", "0.754879", "0.754878"),
    ("0.6", "2.2", "1"),         # middle half [1, 1.8]: its lower end itself, an integer
    ("-0.2", "1.4", "1"),        # middle half [0.2, 1]: its upper end itself
    ("0.85", "1.55", "1.2"),     # middle half [1.025, 1.375]: 1 lies outside (inside the middle 3/5)
])
def test_the_shortest_decimal_in_the_middle_half(low, high, middle):
    from axiometer.checking.boundary import shortest_between
    assert shortest_between(Fraction(low), Fraction(high)) == Fraction(middle)


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
    _in_bracket(boundary, 1 - y)  # alpha = 0.18247...
    assert boundary.closed_form == "root of a score difference with logarithmic coefficients"
    assert boundary.case == "m = 12, rc = 1/100"


def test_a_log_form_is_written_out_up_to_its_length_and_size_limits():
    """_log_form writes the equation while it fits: at most _LONGEST_FORM characters (a form of
    exactly 160 is written), at most _SIMPLIFY_OPS operations (a numerator of exactly 200 is
    expanded and, too long to print, told by its degree); past them, a summary."""
    alpha = sympy.Symbol("alpha")
    at_limit = alpha * sympy.log(2) - sympy.Integer(10**144 + 7)  # its form: 160 characters
    text = _log_form(at_limit, alpha)
    assert text == f"root of {sympy.sstr(at_limit)} = 0" and len(sympy.sstr(at_limit)) == _LONGEST_FORM
    past = alpha * sympy.log(2) - sympy.Integer(10**145 + 7)
    assert _log_form(past, alpha) == ("root of a degree-1 polynomial in y = 1 - alpha with "
                                      "logarithmic coefficients")

    def series(terms: int) -> sympy.Expr:
        return sum(sympy.log(m + 2) * alpha**m for m in range(terms))

    assert sympy.count_ops(series(51)) == _SIMPLIFY_OPS
    assert _log_form(series(51), alpha).startswith("root of a degree-50 polynomial in y = 1 - alpha")
    assert _log_form(series(52), alpha) == "root of a score difference with logarithmic coefficients"


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
            assert result[1] == sympy.Rational(root.numerator, root.denominator)


def test_a_logarithmic_difference_with_its_root_on_the_widened_edge_has_no_root():
    """The numerical branch wants a sign change between the widened edges: a difference that is
    exactly 0 at one of them has none (its root is reported by the neighbouring bracket)."""
    low, high = Fraction(1, 2) + W, Fraction(3, 4)
    at_low = (X - sympy.Rational(1, 2)) * sympy.log(2)          # 0 at low - 1e-6
    at_high = (X - sympy.Rational(3, 4) - sympy.Rational(1, 10**6)) * sympy.log(3)  # 0 at high + 1e-6
    assert _root_in(at_low, X, low, high) is None
    assert _root_in(at_high, X, low, high) is None
    inside = (X - sympy.Rational(2, 3)) * sympy.log(2)
    text, value = _root_in(inside, X, low, high)
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


def _check(verdict: str, counterexample: Counterexample | None = None, curve=(), metric: str = "m",
           note: str = "") -> Check:
    """A cell's check as a probe would return it (only what the boundary code reads is set)."""
    return Check(constraint="c", metric=metric, params=(), verdict=verdict, mode="window",
                 counterexample=counterexample, curve=curve, note=note)


@pytest.mark.parametrize("at_root, expected", [("satisfied", "below"), ("violated", "above"), ("error", None)])
def test_a_rational_root_is_given_to_the_side_whose_verdict_it_has(at_root, expected):
    low, high = (Fraction(1, 4), _check("satisfied")), (Fraction(3, 4), _check("violated"))
    probed = []

    def probe(value):
        probed.append(value)
        return _check(at_root)

    assert _side_of_root(get("Pri"), sympy.Rational(1, 2), low, high, probe) == expected
    assert probed == [Fraction(1, 2)]


@pytest.mark.parametrize("oracle, violated_side, expected", [
    ("Pri", "below", "below"), ("Pri", "above", "above"),      # strict: the tie fails, with the violated side
    ("DeepTh", "below", "below"),                             # a threshold rule: strict too
    ("Sat", "below", "above"), ("Sat", "above", "below"),     # Sat's >= holds at the tie
])
def test_an_irrational_root_goes_to_the_side_the_tie_belongs_to(oracle, violated_side, expected):
    verdicts = ("violated", "satisfied") if violated_side == "below" else ("satisfied", "violated")
    low, high = (Fraction(1, 4), _check(verdicts[0])), (Fraction(3, 4), _check(verdicts[1]))
    assert _side_of_root(get(oracle), sympy.sqrt(2) / 2, low, high, lambda v: pytest.fail("no probe")) == expected
    both = (Fraction(1, 4), _check("violated")), (Fraction(3, 4), _check("violated"))
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
    assert _form(factor, X, sympy.CRootOf(X**3 - 2, 0)) == "root of x**3 - 2"
    assert _form(sympy.Poly(X**2 - 2, X), X, sympy.sqrt(2)) == "sqrt(2)"  # degree 2: radicals


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
    _in_bracket(boundary, 1 - y)  # 0.25117...
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
    low = (Fraction("0.749999"), _check("violated", case))
    high = (Fraction("0.75"), _check("satisfied"))
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
    low = (Fraction("0.261859"), _check("violated", case, metric="alpha_DCG(alpha=0.261859)"))
    high = (Fraction("0.26186"), _check("witness"))
    span = ParamRange("alpha", Fraction(0), Fraction(1))
    boundary = _bisect(metric, get("Sat"), span, _no_probe, low, high, (("k", "10"),))
    _in_bracket(boundary, root)
    assert (boundary.below, boundary.above, boundary.at_value) == ("violated", "witness", "above")
    assert boundary.fixed == (("k", "10"),) and boundary.counterexample == case
    assert boundary.case == "the counterexample at alpha_DCG(alpha=0.261859)"


#: RBP, a = (d1, x), b = (x, d2) with r(d2) = 1: Q(b) - Q(a) = (1 - p)(p - r(d1)), zero at p = r(d1).
def _rbp_root_at(r: Fraction) -> Counterexample:
    return _recorded({"d1": str(r), "d2": "1"}, ("d1", "x"), ("x", "d2"))


def test_a_closed_form_root_outside_the_bracket_leaves_the_bisections_value():
    # The root 19/20 is within a millionth of the bracket's upper end (so it is found) but 1.25e-6
    # from its middle: the bisection's value stands, and the boundary says why.
    low = (Fraction("0.9499983"), _check("violated", _rbp_root_at(Fraction(19, 20))))
    high = (Fraction("0.9499992"), _check("satisfied"))
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
    low = (Fraction(1, 10**6) - Fraction(1, 10**9), _check("violated", _rbp_root_at(root)))
    high = (Fraction(1, 10**6) + Fraction(1, 10**9), _check("satisfied"))
    boundary = _bisect(parse("RBP"), get("Pri"), ParamRange("p", Fraction(0), Fraction(1)),
                       lambda value: _check("violated"), low, high, ())
    assert boundary.closed_value - float(Fraction(1, 10**6)) == float(WIDTH)
    assert boundary.agrees is True and boundary.value == 2e-6 and boundary.at_value == "below"


def test_a_decisive_case_too_long_is_passed_over_for_the_next():
    """DeepTh's pair at n = 40 has 80 documents, more than SYMBOLIC_DOCS: the engine goes on to the
    next decisive case (the counterexample, whose root 19/20 lies in the bracket)."""
    low = (Fraction("0.949999"), _check("violated", _rbp_root_at(Fraction(19, 20)), curve=(("1", ((40, 0.5),)),)))
    high = (Fraction("0.95"), _check("witness", curve=(("1", ((40, -0.5),)),)))
    cases = [case for *_, case in _decisive_cases(get("DeepTh"), low[1], high[1])]
    assert cases == ["n = 40, rc = 1", "the counterexample at m"]
    assert _closed_form(parse("RBP"), get("DeepTh"), "p", low, high)[::2] == ("19/20", "the counterexample at m")


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
    low = (Fraction("0.949999"), _check("violated", _rbp_root_at(Fraction(19, 20)), curve=(("1", ((3, 0.5),)),)))
    high = (Fraction("0.95"), _check("witness", curve=(("1", ((3, -0.5),)),)))
    assert _closed_form(parse("RBP"), get("DeepTh"), "p", low, high)[::2] == ("19/20", "the counterexample at m")
    assert len(calls) == 2


def test_the_decisive_cases_are_the_grid_points_whose_sign_changes():
    """Only an (rc, n) on both sides' curves with different signs there: an rc or an n the other
    side did not reach is no change, and neither is a sign kept."""
    low = _check("violated", curve=(("1", ((1, 0.5), (2, -0.1), (3, 0.2))), ("1/2", ((1, 0.2),))))
    high = _check("witness", curve=(("1", ((1, 0.5), (2, 0.3))),))
    assert [case for *_, case in _decisive_cases(get("CloseTh"), low, high)] == ["m = 2, rc = 1"]


def test_a_threshold_counterexample_is_named_by_its_grid_point_without_its_signs():
    case = _recorded({"d1": "1"}, ("d1",), ("x", "d1"),
                     extra=(("rc", "1"), ("n", "3"), ("signs", "n=1..3: +")))
    (*_, text), = _decisive_cases(get("DeepTh"), _check("violated", case, metric="RBP(p=0.9)"), _check("witness"))
    assert text == "the counterexample at RBP(p=0.9) (rc = 1, n = 3)"


# -- locate: the values probed first, and another pass only after learning something ----------------------

class _StepProbe:
    """Violated below 1/2, satisfied from 1/2 on; ``learns`` on its first call if asked to."""

    def __init__(self, learned: int = 0, learns: bool = False):
        self.learned, self.learns, self.calls = learned, learns, []

    def __call__(self, value: Fraction) -> Check:
        if self.learns and not self.calls:
            self.learned += 1
        self.calls.append(value)
        return _check("violated" if value < HALF else "satisfied")


def _first_pass(probe: _StepProbe) -> list[Fraction]:
    return list(probe_values(ParamRange("s", Fraction(0), Fraction(1)), [Fraction("0.123")]))


def test_locate_probes_the_given_values_first():
    probe = _StepProbe()
    (boundary,) = locate(object(), get("Pri"), ParamRange("s", Fraction(0), Fraction(1)), probe,
                         given=[Fraction("0.123"), Fraction(7)])  # 7 lies outside the range: not probed
    first = _first_pass(probe)
    assert Fraction("0.123") in first and probe.calls[:len(first)] == first
    assert Fraction(7) not in probe.calls and boundary.bracket == ("0.499999", "0.5")


@pytest.mark.parametrize("learned, learns, passes", [(0, False, 1), (3, False, 1), (0, True, 2), (3, True, 2)])
def test_locate_passes_again_only_after_a_probe_learned_a_case(learned, learns, passes):
    probe = _StepProbe(learned, learns)
    locate(object(), get("Pri"), ParamRange("s", Fraction(0), Fraction(1)), probe, given=[Fraction("0.123")])
    first = _first_pass(probe)
    assert [v for v in probe.calls if v == Fraction("0.123")] == [Fraction("0.123")] * passes
    assert probe.calls[:len(first)] == first


def test_probes_start_at_the_ranges_low_end_not_before_it():
    """The subdivisions are the seven inner eighths: none near the low end itself, where a short
    decimal just above it (0.13 next to 0.127) would be one more probe than the range asked for."""
    values = probe_values(ParamRange("p", Fraction("0.127"), Fraction("0.927")))
    assert len(values) == 9 and Fraction("0.13") not in values
    assert values[:2] == (Fraction("0.127"), Fraction("0.23"))


def test_a_closed_form_of_exactly_the_longest_length_is_printed():
    """x**3 + A x + B with A, B even and B not divisible by 4 is irreducible (Eisenstein at 2); with
    74-digit A and B it prints in exactly 160 characters, the longest form written out."""
    a, b = 2 * 10**73 + 2, 2 * 10**73 + 6  # B = 2 (10**73 + 3): twice an odd number
    factor = sympy.Poly(X**3 + a * X + b, X)
    text = sympy.sstr(factor.as_expr())
    assert len(text) == _LONGEST_FORM == 160
    assert _form(factor, X, sympy.CRootOf(factor.as_expr(), 0)) == f"root of {text}"
    longer = sympy.Poly(X**3 + 10 * a * X + b, X)  # one character more
    assert _form(longer, X, sympy.CRootOf(longer.as_expr(), 0)) == \
        "root of a degree-3 polynomial with rational coefficients"


# -- CellProbe: its checks in the cell's mode and seed; what re-deciding a known case keeps ----------------

def test_a_probes_checks_run_in_the_cells_mode():
    for mode in ("window", "truncate"):
        probe = CellProbe(parse("RBP@4"), get("DeepTh"), "p", mode=mode, budget=Budget(horizon=8), seed=0)
        assert probe(HALF).mode == mode


def test_a_probes_checks_use_the_cells_seed():
    """The random search's case count depends on the seed (22 cases at seed 7, 28 at seed 0, for the
    violation of five documents): the probe's check is the cell's, seed included."""
    from axiometer.checking import check
    budget = Budget(cases=50, small_scope=30)
    probe = _long_probe()
    probe.budget = budget
    probe.seed = 7
    at_seven = check(probe.metric.replace(s=0.5), get("Pri"), budget=budget, seed=7)
    at_zero = check(probe.metric.replace(s=0.5), get("Pri"), budget=budget, seed=0)
    assert at_seven.cases != at_zero.cases  # the seed shows
    assert probe(HALF).cases == at_seven.cases


def test_a_re_decided_result_keeps_the_searchs_note_first():
    probe = _long_probe()
    probe.learn(FIVE)
    redecided = probe._with_known(probe.metric.replace(s=0.5), _check("satisfied", note="time budget (1 s) reached"))
    assert redecided.verdict == "violated"
    assert redecided.note == ("time budget (1 s) reached; a counterexample found at another value of s, "
                              "re-decided here")


def test_only_a_satisfied_result_is_re_decided():
    probe = _long_probe()
    probe.learn(FIVE)
    violated = _check("violated", FIVE)
    assert probe._with_known(probe.metric.replace(s=0.5), violated) is violated


def slow_on_five(ranking, topic, s=0.5):
    """Increasing weights (Pri fails on FIVE), but a second per ranking of five documents or more."""
    if len(ranking) >= 5:
        import time
        time.sleep(1)
    return _increasing(ranking, topic)


def test_a_known_case_the_metric_takes_too_long_on_overturns_nothing():
    """Re-deciding a known case runs the metric under the case time limit: past it, the case decides
    nothing (no counterexample, a timeout), and the searched result stands."""
    from axiometer.metrics.resolve import resolve
    metric = resolve(slow_on_five, params={"s": (0, 1)}).metric
    probe = CellProbe(metric, get("Pri"), "s", mode=None, budget=Budget(cases=1, small_scope=30, case_seconds=0.05),
                      seed=0)
    probe.learn(FIVE)
    searched = _check("satisfied")
    assert probe._with_known(metric.replace(s=0.5), searched) is searched
