"""Deep (Deepness, SIGIR 2018 Eq. 2): a correct swap of neighbours counts more early on.

Base ranking with ``r(d_i) = r(d_j) = x < y = r(d_{i+1}) = r(d_{j+1})``,
``j >= i+2``; ``b`` swaps ``(i, i+1)``, ``a`` swaps ``(j, j+1)``; ``Q(b) > Q(a)``.
For ``Q = sum w(m) r(d_m)``: ``Q(b) - Q(a) = (y - x)(w(i) - w(i+1) - w(j) + w(j+1))``,
so the verdict follows from the steps of ``w``:

- ``w(m) = 1/m``: steps ``1/(m(m+1))`` shrink, Deep holds;
- ``w(m) = 1000 - m``: equal steps, every case ties, Deep fails (Pri holds: a
  metric can be top-heavy without being "deep");
- ``w(m) = 1000 - m^2``: steps ``2m+1`` grow, ``Q(b) < Q(a)``.

Built-ins with the paper's verdict (section 4): nDCG@k, ERR@k, RBP satisfy
Deep; P@k, RR, AP do not.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.axioms import CONSTRAINT_IDS, get
from axiometer.checking import Budget, check
from axiometer.metrics.decide import exact_sign
from axiometer.axioms.constraints.deepness import deepness_conditions
from axiometer.core import Ranking, Topic
from axiometer.generators.case import Case, Scope, cases_of
from axiometer.generators.relevance import deepness_small_scope
from axiometer.metrics import parse
from tests.axioms import Positional, harmonic, linear, replay

DEEP = get("Deep")
# These tests pin the search's verdicts (against the paper, and on metrics built to satisfy or violate
# the constraint); proofs of the same cells are tested in tests/proofs, tests/checking/test_prove*.py
# and through the tables (tests/cli/test_table.py, tests/reports/test_browser.py), so the search runs
# here without them.
BUDGET = Budget(cases=60, small_scope=200, seconds=10, proof_docs=0)


def test_registered_in_the_papers_order():
    ids = list(CONSTRAINT_IDS)
    assert ids.index("Pri") < ids.index("Deep") < ids.index("DeepTh")
    assert DEEP.form == "universal" and DEEP.relation.text == "Q(b) > Q(a)"
    assert DEEP.default_mode == "window" and DEEP.group == "relevance"


def test_the_condition_predicate_rejects_what_is_not_a_deep_case():
    case = next(iter(cases_of(deepness_small_scope(Scope()))))
    scope = Scope()
    assert deepness_conditions(case, scope)
    swapped_back = Case(case.topic, case.b, case.a, case.changed, case.note)  # a and b exchanged
    assert not deepness_conditions(swapped_back, scope)
    adjacent = Case(case.topic, case.a, case.b, (1, 2, 2, 3), case.note)
    assert not deepness_conditions(adjacent, scope)
    outside = Scope(max_position=3)
    assert not deepness_conditions(case, outside)
    assert not deepness_conditions(case, Scope(rho=Fraction(1, 100)))  # r = 1/10 > rho
    not_a_swap = Case(case.topic, Ranking(reversed(case.a)), case.b, case.changed, case.note)
    assert not deepness_conditions(not_a_swap, scope)


def test_shrinking_convex_metric_satisfies():
    result = check(harmonic(), DEEP, budget=BUDGET, seed=2)
    assert result.verdict == "satisfied" and result.cases > 0 and result.small_scope > 0


def test_equal_steps_tie_and_violate_though_priority_holds():
    metric = linear()
    assert check(metric, get("Pri"), budget=BUDGET, seed=2).verdict == "satisfied"
    result = check(metric, DEEP, budget=BUDGET, seed=2)
    assert result.verdict == "violated"
    qa, qb = replay(metric, result.counterexample)
    assert qa == qb and result.counterexample.decided == "exact"


def test_growing_steps_violate_with_the_wrong_sign():
    metric = Positional("concave", lambda m: Fraction(1000 - m * m))
    result = check(metric, DEEP, budget=BUDGET, seed=2)
    qa, qb = replay(metric, result.counterexample)
    assert result.verdict == "violated" and qb < qa


@pytest.mark.parametrize("spec", ["nDCG@10", "ERR@10", "RBP(p=0.8)", "RBP(p=0.9)", "RBU(p=0.8,e=0.05)@10"])
def test_paper_satisfied(spec):
    assert check(parse(spec), DEEP, budget=BUDGET, seed=1).verdict == "satisfied"


@pytest.mark.parametrize("spec", ["P@10", "RR", "AP"])
def test_paper_violated(spec):
    metric = parse(spec)
    result = check(metric, DEEP, budget=BUDGET, seed=1)
    assert result.verdict == "violated"
    qa, qb = replay(metric, result.counterexample)
    assert not qb > qa


def test_precision_counterexample_shrinks_to_four_documents():
    result = check(parse("P@10"), DEEP, budget=Budget(cases=200, small_scope=0, seconds=10), seed=4)
    ce = result.counterexample
    assert result.verdict == "violated" and ce is not None
    assert (ce.b, ce.a) == (("d2", "d1", "d3", "d4"), ("d1", "d2", "d4", "d3"))


def test_later_documents_cannot_change_a_deep_verdict():
    # Deep declares no "later documents untouched" reading because both swaps are of
    # neighbours: the tail after j+1 scores the same in a and b. Checked on metrics whose
    # later gains depend on earlier documents (cascade, redundancy, saturation; exact, rational).
    assert DEEP.readings == ()
    scope = Scope()
    for spec in ("ERR@10", "NRBP(alpha=0.5,beta=0.5)", "CT(alpha=0.5)@10", "RBU(p=0.8,e=0.05)@10"):
        metric = parse(spec)
        for case in cases_of(deepness_small_scope(scope)):
            j1 = case.changed[3]
            if len(case.a) == j1:
                continue
            head_a, head_b = case.a[:j1], case.b[:j1]
            full = metric.exact(case.b, case.topic) - metric.exact(case.a, case.topic)
            head = metric.exact(head_b, case.topic) - metric.exact(head_a, case.topic)
            assert exact_sign(full - head) == 0, (spec, case.note)
    result = check(harmonic(), DEEP, budget=BUDGET, seed=2, scope_changes={"later_untouched": True})
    assert result.verdict == "satisfied"


# Deep's condition predicate (deepness.py), on hand-built cases (SIGIR 2018, Eq. 2).
#
# Single aspect, values 0 and 1/10 (within rho). The base ranking has r(d_i) = r(d_j) < r(d_{i+1}) =
# r(d_{j+1}) with j >= i + 2; b swaps (i, i+1), a swaps (j, j+1). Each test breaks one clause.

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
