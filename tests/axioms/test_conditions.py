"""The diversity constraints' condition predicates (conditions.py), one hand-built case per clause.

Each test starts from a case that meets every condition of its constraint (SIGIR 2018, Eqs. 6-10;
definitions §3) and breaks exactly one, so each clause of the predicate is pinned: the predicate is
what the generator tests trust to say "this is a case of the constraint" (issue 14).
"""

from __future__ import annotations

from fractions import Fraction

from axiometer.axioms.constraints.conditions import (aspect_diversity_case, aspect_relevance_case,
                                                     monotonic_redundancy_case, no_overlap,
                                                     redundancy_case, saturation_case)
from axiometer.core import Topic
from axiometer.generators.case import Case, Scope

TENTH, TWENTIETH, HALF = Fraction(1, 10), Fraction(1, 20), Fraction(1, 2)
BALANCED2 = {"A": HALF, "B": HALF}


def case(topic, a, b, changed):
    return Case(topic, tuple(a), tuple(b), tuple(changed), "")


# -- no overlap -------------------------------------------------------------------------------

def test_no_overlap_is_broken_by_one_document_relevant_to_two_aspects():
    assert no_overlap(Topic({"d1": {"A": HALF}, "d2": {"B": 1}}, BALANCED2))
    # d2 is relevant to A and B (1/2 each): two aspects, not "at most one".
    assert not no_overlap(Topic({"d1": {"A": HALF}, "d2": {"A": HALF, "B": HALF}}, BALANCED2))


# -- AspDiv (Eq. 6): d_i replaced by a new d' that dominates it ---------------------------------

# x at position 2 is replaced by y: r(y) = (1/10, 1/10) >= r(x) = (1/10, 0), > on B; values <= rho.
ASPDIV = Topic({"p": {"A": TENTH}, "x": {"A": TENTH}, "y": {"A": TENTH, "B": TENTH},
                "z": {"B": TENTH}, "n": {}}, BALANCED2)


def test_aspect_diversity_case_accepts_a_replacement_that_dominates():
    assert aspect_diversity_case(case(ASPDIV, "pxn", "pyn", [2]), Scope())
    # "no later document touches a raised aspect": n (later) is not relevant to B.
    assert aspect_diversity_case(case(ASPDIV, "pxn", "pyn", [2]), Scope(later_untouched=True))


def test_aspect_diversity_case_rejects_a_replacement_outside_the_window_or_misdeclared():
    assert not aspect_diversity_case(case(ASPDIV, "pxn", "pyn", [2]), Scope(max_position=1))
    assert not aspect_diversity_case(case(ASPDIV, "pxn", "pyn", [1]), Scope())  # changed is not (2,)


def test_aspect_diversity_case_needs_exactly_one_new_document():
    # Two positions differ (x -> y, n -> z), though y dominates x: not one replacement.
    assert not aspect_diversity_case(case(ASPDIV, "xn", "yz", [1]), Scope())
    # b replaces p by y, which a already holds at position 3 (r(y) dominates r(p)): d' must be new.
    assert not aspect_diversity_case(case(ASPDIV, "pzy", "yzy", [1]), Scope())


def test_aspect_diversity_case_needs_domination_on_every_aspect_and_a_gain_on_one():
    # z = (0, 1/10) against x = (1/10, 0): better on B, worse on A.
    assert not aspect_diversity_case(case(ASPDIV, "pxn", "pzn", [2]), Scope())
    # p = (1/10, 0) against x = (1/10, 0): equal everywhere, no gain.
    topic = Topic({"q": {"A": TENTH}, "x": {"A": TENTH}, "n": {}}, BALANCED2)
    assert not aspect_diversity_case(case(topic, "nx", "nq", [2]), Scope())


def test_aspect_diversity_case_later_untouched_reading_rejects_a_later_document_on_a_raised_aspect():
    # y raises B (0 -> 1/10); z (after position 2) is relevant to B with 1/10.
    c = case(ASPDIV, "pxz", "pyz", [2])
    assert aspect_diversity_case(c, Scope())
    assert not aspect_diversity_case(c, Scope(later_untouched=True))


def test_aspect_diversity_case_needs_relevance_contribution():
    topic = Topic({"x": {"A": TENTH}, "y": {"A": HALF}}, BALANCED2)  # r(y, A) = 1/2 > rho
    assert not aspect_diversity_case(case(topic, "x", "y", [1]), Scope())
    assert aspect_diversity_case(case(topic, "x", "y", [1]), Scope(rho=HALF))


# -- Red (Eq. 7): binary rc < 1, balanced, no overlap; P covers t more often than t' --------------

RED = Topic({"p": {"A": HALF}, "x": {"A": HALF}, "y": {"B": HALF}, "n": {}}, BALANCED2)


def test_redundancy_case_accepts_the_paper_shape():
    # P = (p) covers A once, B never; x on A, y on B; rc = 1/2.
    assert redundancy_case(case(RED, "px", "py", [2]), Scope())


def test_redundancy_case_needs_a_common_prefix_and_a_declared_last_position():
    assert not redundancy_case(case(RED, "px", "ny", [2]), Scope())      # prefixes p and n differ
    assert not redundancy_case(case(RED, "", "", []), Scope())           # nothing ranked
    assert not redundancy_case(case(RED, "px", "py", [1, 2]), Scope())   # changed is not (2,)
    assert not redundancy_case(case(RED, "px", "pp", [2]), Scope())      # y = p is already in a
    assert not redundancy_case(case(RED, "px", "py", [2]), Scope(max_position=1))


def test_redundancy_case_needs_binary_balanced_and_no_overlap():
    graded = Topic({"p": {"A": HALF}, "x": {"A": TENTH}, "y": {"B": HALF}}, BALANCED2)
    unbalanced = Topic({"p": {"A": HALF}, "x": {"A": HALF}, "y": {"B": HALF}},
                       {"A": Fraction(1, 3), "B": Fraction(2, 3)})
    overlap = Topic({"p": {"A": HALF, "B": HALF}, "q": {"A": HALF}, "x": {"A": HALF}, "y": {"B": HALF}},
                    BALANCED2)
    assert not redundancy_case(case(graded, "px", "py", [2]), Scope())
    assert not redundancy_case(case(unbalanced, "px", "py", [2]), Scope())
    # p covers A and B; q covers A: A twice, B once, so only the overlap breaks the case.
    assert not redundancy_case(case(overlap, "pqx", "pqy", [3]), Scope())


def test_redundancy_case_needs_x_and_y_on_different_single_aspects_and_rc_below_one():
    assert not redundancy_case(case(RED, "px", "pn", [2]), Scope())   # y = n relevant to nothing
    assert not redundancy_case(case(RED, "pn", "py", [2]), Scope())   # x = n relevant to nothing
    same = Topic({"p": {"A": HALF}, "x": {"A": HALF}, "y": {"A": HALF}}, BALANCED2)
    assert not redundancy_case(case(same, "px", "py", [2]), Scope())  # x and y both on A
    rc1 = Topic({"p": {"A": 1}, "x": {"A": 1}, "y": {"B": 1}}, BALANCED2)
    assert not redundancy_case(case(rc1, "px", "py", [2]), Scope())   # rc = 1, not < 1


def test_redundancy_case_needs_the_prefix_to_cover_t_strictly_more_often():
    topic = Topic({"p": {"A": HALF}, "q": {"B": HALF}, "x": {"A": HALF}, "y": {"B": HALF}}, BALANCED2)
    assert not redundancy_case(case(topic, "pqx", "pqy", [3]), Scope())  # A once, B once
    assert redundancy_case(case(topic, "pqy", "pqx", [3]), Scope()) is False  # B once, A once


def test_redundancy_case_values_within_rho_reading():
    assert not redundancy_case(case(RED, "px", "py", [2]), Scope(values_within_rho=True))  # rc = 1/2 > 1/10
    assert redundancy_case(case(RED, "px", "py", [2]), Scope(values_within_rho=True, rho=HALF))


# -- MRed (Eq. 8): P non-empty with r(d, t) > r(d, t') on every d; x on t, y on t', equal values ----

MRED = Topic({"p": {"A": TENTH, "B": TWENTIETH}, "x": {"A": TWENTIETH}, "y": {"B": TWENTIETH}, "n": {}},
             BALANCED2)


def test_monotonic_redundancy_case_accepts_the_paper_shape():
    assert monotonic_redundancy_case(case(MRED, "px", "py", [2]), Scope())


def test_monotonic_redundancy_case_rejects_outside_the_window_and_an_empty_prefix():
    assert not monotonic_redundancy_case(case(MRED, "px", "py", [2]), Scope(max_position=1))
    assert not monotonic_redundancy_case(case(MRED, "x", "y", [1]), Scope())  # P empty


def test_monotonic_redundancy_case_needs_balanced_two_aspects_and_contribution():
    unbalanced = Topic({"p": {"A": TENTH, "B": TWENTIETH}, "x": {"A": TWENTIETH}, "y": {"B": TWENTIETH}},
                       {"A": Fraction(1, 3), "B": Fraction(2, 3)})
    assert not monotonic_redundancy_case(case(unbalanced, "px", "py", [2]), Scope())
    assert not monotonic_redundancy_case(case(MRED, "px", "py", [2]), Scope(rho=TWENTIETH))  # r(p, A) > rho


def test_monotonic_redundancy_case_needs_x_and_y_on_one_aspect_each():
    assert not monotonic_redundancy_case(case(MRED, "px", "pn", [2]), Scope())  # y relevant to nothing
    assert not monotonic_redundancy_case(case(MRED, "pn", "py", [2]), Scope())  # x relevant to nothing


def test_monotonic_redundancy_case_needs_equal_values_of_x_and_y():
    # r(x, A) = 1/20 but r(y, B) = 1/10: Eq. 8 asks r(x, t) = r(y, t').
    topic = Topic({"p": {"A": TENTH, "B": TWENTIETH}, "x": {"A": TWENTIETH}, "y": {"B": TENTH}}, BALANCED2)
    assert not monotonic_redundancy_case(case(topic, "px", "py", [2]), Scope())


def test_monotonic_redundancy_case_needs_the_prefix_strictly_on_t():
    # p = (1/20, 1/20): r(p, A) = r(p, B), not >; q = (1/20, 1/10): r(q, A) < r(q, B).
    for p in ({"A": TWENTIETH, "B": TWENTIETH}, {"A": TWENTIETH, "B": TENTH}):
        topic = Topic({"p": p, "x": {"A": TWENTIETH}, "y": {"B": TWENTIETH}}, BALANCED2)
        assert not monotonic_redundancy_case(case(topic, "px", "py", [2]), Scope()), p


# -- Sat (Eq. 9): a ends with d_n at rmax on t; b = a + x, x relevant to t only -------------------

SAT = Topic({"p": {"B": TENTH}, "last": {"A": 1}, "x": {"A": TENTH}, "z": {"B": TENTH}, "q": {"A": HALF},
             "n": {}, "m": {}}, BALANCED2)


def test_saturation_case_accepts_the_paper_shape_with_the_default_rmax_one():
    assert saturation_case(case(SAT, ["p", "last"], ["p", "last", "x"], [3]), Scope())
    # rmax = 1/2: d_n = q has r(q, A) = 1/2.
    assert saturation_case(case(SAT, ["p", "q"], ["p", "q", "x"], [3]), Scope(rmax=HALF))
    assert not saturation_case(case(SAT, ["p", "q"], ["p", "q", "x"], [3]), Scope())  # 1/2 is not rmax 1


def test_saturation_case_needs_b_to_extend_a_by_one_new_document():
    assert not saturation_case(case(SAT, [], ["x"], [1]), Scope())                          # a empty
    assert not saturation_case(case(SAT, ["p", "last"], ["z", "last", "x"], [3]), Scope())  # prefix differs
    assert not saturation_case(case(SAT, ["x", "last"], ["x", "last", "x"], [3]), Scope())  # x already in a


def test_saturation_case_rejects_outside_the_window_a_misdeclared_change_and_overlap():
    c = case(SAT, ["p", "last"], ["p", "last", "x"], [3])
    assert not saturation_case(c, Scope(max_position=2))
    assert not saturation_case(case(SAT, ["p", "last"], ["p", "last", "x"], [2]), Scope())
    overlap = Topic({"p": {"A": TENTH, "B": TENTH}, "last": {"A": 1}, "x": {"A": TENTH}}, BALANCED2)
    assert not saturation_case(case(overlap, ["p", "last"], ["p", "last", "x"], [3]), Scope())


def test_saturation_case_needs_d_n_at_rmax_and_x_on_its_aspect():
    assert not saturation_case(case(SAT, ["p", "n"], ["p", "n", "x"], [3]), Scope())        # d_n not relevant
    assert not saturation_case(case(SAT, ["p", "n"], ["p", "n", "m"], [3]), Scope())        # nor x: both r = 0
    assert not saturation_case(case(SAT, ["p", "last"], ["p", "last", "z"], [3]), Scope())  # x on B, d_n on A
    assert not saturation_case(case(SAT, ["p", "last"], ["p", "last", "n"], [3]), Scope())  # x not relevant


def test_saturation_case_values_within_rho_reading_spares_only_rmax():
    c = case(SAT, ["p", "last"], ["p", "last", "x"], [3])
    # q (unranked, judged) has 1/2 > rho = 1/10; d_n = last at 1 is the one value allowed above rho.
    assert not saturation_case(c, Scope(values_within_rho=True))
    assert saturation_case(c, Scope(values_within_rho=True, rho=HALF))


# -- AspRel (Eq. 10): x on t replaced by y on t', same value, w(t') > w(t); nobody else on t, t' ----

WEIGHTS3 = {"A": Fraction(1, 6), "B": Fraction(1, 3), "C": HALF}
ASPREL = Topic({"x": {"A": HALF}, "y": {"B": HALF}, "c": {"C": 1}, "n": {}}, WEIGHTS3)


def test_aspect_relevance_case_accepts_the_paper_shape():
    assert aspect_relevance_case(case(ASPREL, "cxn", "cyn", [2]), Scope())


def test_aspect_relevance_case_rejects_outside_the_window_a_misdeclared_change_and_overlap():
    assert not aspect_relevance_case(case(ASPREL, "cxn", "cyn", [2]), Scope(max_position=1))
    assert not aspect_relevance_case(case(ASPREL, "cxn", "cyn", [1]), Scope())
    overlap = Topic({"x": {"A": HALF}, "y": {"B": HALF}, "c": {"C": 1, "D": 1}},
                    {**{"A": Fraction(1, 8), "B": Fraction(1, 4)}, "C": Fraction(3, 8), "D": Fraction(1, 4)})
    assert not aspect_relevance_case(case(overlap, "cxn", "cyn", [2]), Scope())


def test_aspect_relevance_case_needs_x_and_y_on_one_aspect_each():
    assert not aspect_relevance_case(case(ASPREL, "cx", "cn", [2]), Scope())  # y relevant to nothing
    assert not aspect_relevance_case(case(ASPREL, "cn", "cy", [2]), Scope())  # x relevant to nothing


def test_aspect_relevance_case_needs_equal_values_and_a_heavier_aspect():
    unequal = Topic({"x": {"A": HALF}, "y": {"B": TENTH}}, WEIGHTS3)   # r(y, B) = 1/10 != 1/2
    assert not aspect_relevance_case(case(unequal, "x", "y", [1]), Scope())
    lighter = Topic({"x": {"B": HALF}, "y": {"A": HALF}}, WEIGHTS3)    # w(A) = 1/6 < w(B) = 1/3
    assert not aspect_relevance_case(case(lighter, "x", "y", [1]), Scope())
    equal = Topic({"x": {"A": HALF}, "y": {"B": HALF}}, BALANCED2)     # w(B) = w(A)
    assert not aspect_relevance_case(case(equal, "x", "y", [1]), Scope())


def test_aspect_relevance_case_no_other_document_on_t_or_t_prime_even_unranked():
    # o is judged but not ranked; relevant to A (t) or to B (t') with 1/2.
    for on in ("A", "B"):
        topic = Topic({"x": {"A": HALF}, "y": {"B": HALF}, "o": {on: HALF}}, WEIGHTS3)
        assert not aspect_relevance_case(case(topic, "x", "y", [1]), Scope()), on
        assert not aspect_relevance_case(case(topic, "ox", "oy", [2]), Scope()), on
    topic = Topic({"x": {"A": HALF}, "y": {"B": HALF}, "o": {"C": HALF}}, WEIGHTS3)
    assert aspect_relevance_case(case(topic, "x", "y", [1]), Scope())


def test_aspect_relevance_case_values_within_rho_reading():
    assert not aspect_relevance_case(case(ASPREL, "cxn", "cyn", [2]), Scope(values_within_rho=True))
    assert aspect_relevance_case(case(ASPREL, "cxn", "cyn", [2]), Scope(values_within_rho=True, rho=1))
