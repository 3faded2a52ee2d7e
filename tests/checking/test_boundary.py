"""Parameter boundaries (definitions §3): bisection to 1e-6, closed forms, honest sides.

The reference values are derived here by hand and computed independently of
the engine (numpy's polynomial roots), never copied from its output.
"""

from __future__ import annotations

from fractions import Fraction
import math

import numpy as np
import pytest
import sympy

import axiometer
from axiometer.axioms import get
from axiometer.checking.boundary import (WIDTH, CellProbe, ParamRange, declared_range, locate,
                                         probe_values, shortest_between)
from axiometer.checking.budget import QUICK, Budget
from axiometer.core import InputError
from axiometer.metrics.resolve import resolve
from axiometer.runner.table import run_table
from axiometer.metrics import parse
from axiometer.reports.numbers import boundary_value
from axiometer.results import Certain, RootForm, Side, record
from tests.checking import HALF, harmonic_sum, in_bracket, increasing_sum


def _real_root_in(coefficients: list[float], low: float, high: float) -> float:
    """The one real root of a polynomial in ``(low, high)`` (numpy, independent of sympy)."""
    roots = [r.real for r in np.roots(coefficients) if abs(r.imag) < 1e-12 and low < r.real < high]
    assert len(roots) == 1, roots
    return roots[0]


#: CloseTh for a geometric discount: a_m = one relevant document then 2m - 1 non-relevant ones,
#: b_m = m non-relevant then m relevant, every relevant one worth rc. With Q = sum_i r_i g^(i-1)
#: (RBP without its constant factor 1 - p), Q(b_m) > Q(a_m) iff rc (g^m + ... + g^(2m-1)) > rc,
#: i.e. g^m (1 - g^m) > 1 - g. For m = 2 this is g^2 (1 + g) > 1 after dividing by 1 - g > 0:
#: g^3 + g^2 - 1 > 0, whose one real root is about 0.7549. m = 1 needs g > 1; larger m need larger
#: g (g^m (1 - g^m) <= 1/4 < 1 - g below g = 3/4, and at the m = 2 root g^3 (1 - g^3) < 1 - g), so
#: the verdict is violated below that root and witness above it.
GEOMETRIC_ROOT = _real_root_in([1, 1, 0, -1], 0, 1)


def geometric(ranking, topic, g=0.8):
    """Q = sum_i r(d_i) g^(i-1): a metric author's discounted gain with a float parameter."""
    return sum(topic.r(d) * g ** i for i, d in enumerate(ranking))


def _cell(result, constraint):
    return next(c for c in result.cells if c.constraint == constraint)


def test_a_hand_built_metric_is_located_to_1e_6_without_a_closed_form():
    """A user function with a float parameter gets the bisection (no closed form: its formula is opaque)."""
    resolved = resolve(geometric, params={"g": (0.5, 0.99)})
    result = run_table([resolved], ["CloseTh"], jobs=1, budget=QUICK)
    (boundary,) = _cell(result, "CloseTh").boundaries
    assert boundary.param == "g"
    low, high = (Fraction(v) for v in boundary.bracket)
    assert high - low <= WIDTH
    assert low <= Fraction(GEOMETRIC_ROOT) <= high
    assert abs(boundary.value - GEOMETRIC_ROOT) <= 1e-6
    assert (boundary.below, boundary.above) == ("violated", "witness")
    assert boundary.closed_form is None and boundary.agrees is None


def test_rbp_closeth_boundary_has_its_closed_form_and_honest_sides():
    result = run_table([resolve("RBP", params={"p": (0.5, 0.99)})], ["CloseTh"], jobs=1)
    (boundary,) = _cell(result, "CloseTh").boundaries
    assert abs(boundary.value - GEOMETRIC_ROOT) <= 1e-6  # RBP = (1 - p) x the geometric sum
    assert boundary.closed_form == "root of p**3 + p**2 - 1"
    assert boundary.agrees is True
    assert (boundary.below, boundary.above) == ("violated", "witness")
    # Both sides were decided by concrete cases: the whole grid of m at every probe below,
    # a witness pair (m, rc) at every probe above.
    assert boundary.certain is Certain.BOTH
    # The decisive case ties at the root, and CloseTh's relation is strict: the root is violated.
    assert boundary.at_value is Side.BELOW
    # The closed form names its value as an equation's root (the report says "is the root of").
    assert boundary.root_form is RootForm.IMPLICIT
    # The witness side is proved at every probe: the witness m holds for every rc in (0, 1/10].
    assert boundary.evidence_above is not None and boundary.evidence_above.strength == "proved"


def test_a_boundarys_sides_are_members_its_json_their_strings_and_its_root_form_stays_out():
    result = run_table([resolve("RBP", params={"p": (0.5, 0.99)})], ["CloseTh"], jobs=1)
    (boundary,) = _cell(result, "CloseTh").boundaries
    written = record(boundary)
    assert (written["certain"], written["at_value"]) == ("both", "below")
    assert type(written["certain"]) is str and type(written["at_value"]) is str
    assert "root_form" not in written


def test_a_cutoff_keeps_the_deciding_m_or_removes_every_witness():
    """With k = 10 (truncate mode) m = 2 keeps both relevant documents (2m <= k): the same root.
    With k = 3, b_2 keeps one relevant document at rank 3: Q(b_2) > Q(a_2) needs p^2 > 1, and
    m = 1 needs p > 1; larger m have fewer relevant documents within k: never a witness, so the
    verdict never changes and there is no boundary."""
    at_ten = run_table([resolve("RBP@10", params={"p": (0.5, 0.99)})], ["CloseTh"], jobs=1)
    (boundary,) = _cell(at_ten, "CloseTh").boundaries
    assert abs(boundary.value - GEOMETRIC_ROOT) <= 1e-6
    at_three = run_table([resolve("RBP@3", params={"p": (0.5, 0.99)})], ["CloseTh"], jobs=1)
    cell = _cell(at_three, "CloseTh")
    assert {c.verdict for c in cell.checks} == {"violated"}
    assert cell.boundaries == ()


def test_a_verdict_that_never_changes_has_no_boundary():
    # RBP satisfies Pri at every p: ranking a more relevant document higher always gains.
    resolved = resolve("RBP", params={"p": (0.1, 0.99)})
    result = run_table([resolved], ["Pri"], jobs=1, budget=QUICK, boundaries=True)
    cell = _cell(result, "Pri")
    assert {c.verdict for c in cell.checks} == {"satisfied"}
    assert cell.boundaries == ()
    # locate itself, over the whole declared range, finds nothing to bisect.
    metric = resolved.metric
    probe = CellProbe(metric, get("Pri"), "p", mode=None, budget=QUICK, seed=0)
    assert locate(metric, get("Pri"), declared_range(metric, "p"), probe) == ()


def test_nrbp_two_parameters_trace_a_curve_with_exact_rational_points():
    """NRBP's CloseTh at alpha: the curve of alpha's boundary over beta's grid. At beta = 0.8 the
    decisive m = 2 difference is linear in alpha: an exact rational root, checked by probing it."""
    result = run_table(["NRBP"], ["CloseTh"], jobs=1, boundaries=True)
    cell = _cell(result, "CloseTh")
    (curve,) = cell.curves
    assert (curve.param, curve.over) == ("alpha", "beta")
    points = dict(curve.points)
    assert set(points) >= {0.8, 0.9, 0.99}
    for beta, boundaries in points.items():
        for boundary in boundaries:
            assert boundary.agrees is True
            if boundary.closed_form is not None and "/" in boundary.closed_form \
                    and "root" not in boundary.closed_form:
                assert boundary.at_value in ("below", "above")  # probed at the exact root
    assert any(b.closed_form and "root" not in b.closed_form for bs in points.values() for b in bs)


#: The issue's command: ``axiometer table --boundaries --metrics 'alpha_nDCG@10' NRBP EU RBP``.
FOUR = ["alpha_nDCG@10", "NRBP", "EU", "RBP"]


# 150 random cases per setting, the budget these tests were written at: they test where the
# boundaries are and how they are told, and the default budget's tenfold search made the fixture a
# third of the engine's test time (and of each mutant's in benchmarks/mutation.py). The probes below
# check at the same budget, as the engine did. Without proofs (proof_docs=0): proving each probe's
# holding side made the fixture six minutes of the suite's time in CI, and proofs of a boundary's
# side are pinned on their own (tests/reports/test_proofs.py, tests/checking/test_prove*.py).
FOUR_BUDGET = Budget(cases=150, proof_docs=0)


@pytest.fixture(scope="module")
def four_with_boundaries():
    return run_table(FOUR, jobs=2, boundaries=True, budget=FOUR_BUDGET)


def test_every_parameter_dependent_cell_of_the_four_metrics_has_a_boundary(four_with_boundaries):
    # The cells whose grid verdicts differ at the default budget. alpha-nDCG x Pri and EU x Pri are
    # not among them: the random search finds counterexamples at alpha = 0.1 too (relevances 1/10
    # and 1/50, 1/100), so their grids are uniformly violated. A grid check re-decided with a
    # counterexample found while bisecting can make more grids uniform, so the cells with
    # boundaries include the dependent ones and may be more.
    dependent = [c for c in four_with_boundaries.cells if len({ch.verdict for ch in c.checks}) > 1]
    with_boundaries = [c for c in four_with_boundaries.cells if c.boundaries or c.curves]
    assert {(c.row, c.constraint) for c in dependent} >= {
        ("alpha_nDCG@10", "CloseTh"), ("NRBP", "Pri"), ("NRBP", "CloseTh"), ("EU", "CloseTh"),
        ("EU", "Sat"), ("RBP", "CloseTh")}
    assert {id(c) for c in dependent} <= {id(c) for c in with_boundaries}
    for cell in dependent + with_boundaries:
        located = list(cell.boundaries) + [b for curve in cell.curves for _, bs in curve.points for b in bs]
        assert located, f"{cell.row} x {cell.constraint} has no boundary"
        for boundary in located:
            assert Fraction(boundary.bracket[1]) - Fraction(boundary.bracket[0]) <= WIDTH
            assert boundary.agrees is not False, boundary


def test_boundaries_reproduce_their_verdicts_at_plus_minus_1e_4(four_with_boundaries):
    """Every boundary (and every point of every curve) of the four metrics: the cell evaluated just
    below and just above the value gives the reported verdicts. The cell is evaluated as the
    engine does (a check, with every counterexample known for the cell re-decided: those found at
    the grid's values and the one the boundary reports for its violated side)."""
    checked = 0
    for cell in four_with_boundaries.cells:
        base = resolve(cell.row).metric
        located = [(dict(b.fixed), b) for b in cell.boundaries]
        located += [({curve.over: over}, b) for curve in cell.curves for over, bs in curve.points for b in bs]
        for others, boundary in located:
            metric = base.replace(**others) if others else base
            probe = CellProbe(metric, get(cell.constraint), boundary.param, mode=None, budget=FOUR_BUDGET, seed=0)
            for check in cell.checks:
                if all(dict(check.params).get(k) == v for k, v in others.items()):
                    probe(Fraction(str(dict(check.params)[boundary.param])))  # learn the grid's cases
            if boundary.counterexample is not None:
                probe.learn(boundary.counterexample)
            below = probe(Fraction(boundary.value) - Fraction(1, 10**4)).verdict
            above = probe(Fraction(boundary.value) + Fraction(1, 10**4)).verdict
            assert (below, above) == (boundary.below, boundary.above), (cell.row, cell.constraint, others)
            checked += 1
    assert checked >= 20


def test_probes_are_short_decimals_inside_the_range():
    span = ParamRange("p", Fraction(0), Fraction(1), low_open=True, high_open=True)
    values = probe_values(span, (0.8, 0.9, 1.5))
    assert values[0] == Fraction(1, 1000) and values[-1] == Fraction(999, 1000)
    assert Fraction(4, 5) in values and Fraction(3, 2) not in values
    middle = shortest_between(Fraction("0.754877"), Fraction("0.754879"))
    assert middle == Fraction("0.754878")


def test_bad_ranges_are_one_line_errors():
    with pytest.raises(InputError, match="low < high"):
        resolve("RBP", params={"p": (0.9, 0.5)})
    with pytest.raises(InputError, match="two numbers"):
        resolve("RBP", params={"p": (0.5, 0.7, 0.9)})
    with pytest.raises(InputError, match="p=1.5"):
        resolve("RBP", params={"p": (0.5, 1.5)})
    # An end at an open bound of the declared range is allowed (probed just inside).
    assert resolve("RBP", params={"p": (0, 1)}).ranges == {"RBP.p": (0, 1)}


def test_api_check_takes_a_range():
    result = axiometer.check("RBP", params={"p": (0.5, 0.99)}, constraints=["CloseTh"])
    cell = next(c for c in result.cells if c.constraint == "CloseTh")
    assert len(cell.boundaries) == 1


# Closed forms with logarithmic coefficients, run in the test process (the four-metric test above
# runs them in workers, where the mutation tool cannot see them), and the sides of a boundary
# (issue 14).
#
# alpha-DCG (single aspect, no cutoff) keeps the algebra short:
# ``alpha-DCG(d) = sum_i r_i (1 - alpha)^c_i / log2(i + 1)`` with ``c_i`` the relevant documents
# above ``i``. Every reference root below is derived by hand and computed with ``math``/numpy,
# independently of sympy and of the engine.

#: Small budgets: a boundary of alpha-DCG takes a fraction of a second.
SMALL = Budget(cases=20, small_scope=60, horizon=64)


def _located(name: str, constraint: str, budget: Budget = SMALL):
    metric, oracle = parse(name), get(constraint)
    probe = CellProbe(metric, oracle, "alpha", mode=None, budget=budget, seed=0)
    return locate(metric, oracle, declared_range(metric, "alpha"), probe)


def test_a_pri_boundary_linear_in_alpha_prints_in_alpha():
    # The counterexample the search finds: a = (d1, d2, d3) with r = (0, 1/10, 1/50), b = a with
    # positions 1 and 3 swapped. Q(b) - Q(a) = 1/50 + (1/10)(1 - alpha)/log2(3)
    #   - [(1/10)/log2(3) + (1/50)(1 - alpha)/2] = (1 + alpha - 10 alpha/log2(3)) / 100,
    # times 100 ln 3: ln 3 + alpha (ln 3 - 10 ln 2), zero at alpha = ln 3 / (10 ln 2 - ln 3).
    (boundary,) = _located("alpha_DCG", "Pri")
    root = math.log(3) / (10 * math.log(2) - math.log(3))  # 0.18834...
    in_bracket(boundary, root)
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
    in_bracket(boundary, 1 - y)  # alpha = 0.16709...
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
    in_bracket(boundary, 1 - y)  # alpha = 0.25117...
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

SWITCH = Budget(cases=20, small_scope=40, horizon=16)


def harmonic_above_half(ranking, topic, s=0.8):
    return harmonic_sum(ranking, topic) if Fraction(s) > HALF else increasing_sum(ranking, topic)


def harmonic_or_nothing(ranking, topic, s=0.8):
    return harmonic_sum(ranking, topic) if Fraction(s) > HALF else Fraction(0)


def harmonic_then_raises(ranking, topic, s=0.2):
    if Fraction(s) > HALF:
        raise ValueError("undefined above s = 1/2")
    return harmonic_sum(ranking, topic)


def undefined_between(ranking, topic, s=0.2):
    """Harmonic up to s = 1/2, undefined on (1/2, 0.58), increasing weights from 0.58 on."""
    if Fraction(s) <= HALF:
        return harmonic_sum(ranking, topic)
    if Fraction(s) < Fraction("0.58"):
        raise ValueError("undefined between 1/2 and 0.58")
    return increasing_sum(ranking, topic)


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
    # the bisection narrows the bracket above it to one step of the sixth decimal, then until both
    # ends round alike to 6 significant digits: the upper end comes down to at most 0.5000005.
    assert boundary.param == "s" and boundary.fixed == ()
    low, high = (Fraction(end) for end in boundary.bracket)
    assert low == Fraction(1, 2) and Fraction(1, 2) < high <= Fraction("0.5000005")
    assert boundary.value == float((low + high) / 2)
    # ... so the value prints as 0.5, not as the 1e-6 bracket's midpoint 0.500001.
    assert boundary_value(boundary) == "0.5"
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


