"""Parameter boundaries (definitions §3): bisection to 1e-6, closed forms, honest sides.

The reference values are derived here by hand and computed independently of
the engine (numpy's polynomial roots), never copied from its output.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import axiometer
from axiometer.axioms import get
from axiometer.checking.boundary import (WIDTH, CellProbe, ParamRange, declared_range, locate,
                                         probe_values, shortest_between)
from axiometer.checking.budget import QUICK, Budget
from axiometer.core import InputError
from axiometer.metrics.resolve import resolve
from axiometer.runner.table import run_table


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
    assert boundary.certain == "both"
    # The decisive case ties at the root, and CloseTh's relation is strict: the root is violated.
    assert boundary.at_value == "below"
    assert boundary.evidence_above is not None and boundary.evidence_above.strength == "exhaustive"


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
# check at the same budget, as the engine did.
FOUR_BUDGET = Budget(cases=150)


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
