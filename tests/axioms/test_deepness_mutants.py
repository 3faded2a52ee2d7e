"""Deep's condition predicate (deepness.py), on hand-built cases (SIGIR 2018, Eq. 2).

Single aspect, values 0 and 1/10 (within rho). The base ranking has r(d_i) = r(d_j) < r(d_{i+1}) =
r(d_{j+1}) with j >= i + 2; b swaps (i, i+1), a swaps (j, j+1). Each test breaks one clause.
"""

from __future__ import annotations

from fractions import Fraction

from axiometer.axioms.constraints.deepness import deepness_conditions
from axiometer.core import Topic
from axiometer.generators.case import Case, Scope

TOPIC = Topic.single({"r1": Fraction(1, 10), "r2": Fraction(1, 10), "n1": 0, "n2": 0, "n3": 0, "n4": 0})


def case(a, b, changed):
    return Case(TOPIC, tuple(a), tuple(b), tuple(changed), "")


def test_the_paper_shape_is_a_deep_case():
    # base (n1, r1, n2, n3, r2): i = 1, j = 4; a swaps 4 and 5, b swaps 1 and 2.
    assert deepness_conditions(case(["n1", "r1", "n2", "r2", "n3"], ["r1", "n1", "n2", "n3", "r2"],
                                    [1, 2, 4, 5]), Scope())


def test_swaps_must_be_of_neighbours():
    # base (n1, n2, r1, n3, r2): b swaps positions 1 and 3 (not neighbours), a swaps 4 and 5;
    # r at 1 and 4 is 0, at 3 and 5 is 1/10, so only i + 1 = 3 breaks the shape.
    assert not deepness_conditions(case(["n1", "n2", "r1", "r2", "n3"], ["r1", "n2", "n1", "n3", "r2"],
                                        [1, 3, 4, 5]), Scope())


def test_the_swap_near_the_top_must_be_b_s():
    # base (n1, r1, n2, r2): the pair at 1-2 is swapped in a, the pair at 3-4 in b (i = 3, j = 1).
    assert not deepness_conditions(case(["r1", "n1", "n2", "r2"], ["n1", "r1", "r2", "n2"],
                                        [3, 4, 1, 2]), Scope())
    # The same rankings declared the right way round are a Deep case with a and b exchanged.
    assert deepness_conditions(case(["n1", "r1", "r2", "n2"], ["r1", "n1", "n2", "r2"], [1, 2, 3, 4]), Scope())


def test_swapping_equally_relevant_documents_is_no_deep_case():
    # All four r = 0: r(d_i) = r(d_j) = r(d_{i+1}) = r(d_{j+1}), not <.
    assert not deepness_conditions(case(["n1", "n2", "n4", "n3"], ["n2", "n1", "n3", "n4"], [1, 2, 3, 4]),
                                   Scope())
