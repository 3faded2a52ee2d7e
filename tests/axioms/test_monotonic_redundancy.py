"""MRed (Monotonic redundancy, SIGIR 2018 Eq. 8): after a prefix whose every document is more
relevant to ``t`` than to ``t'``, a document on ``t'`` beats an equally relevant one on ``t``
(two balanced aspects, relevance contribution).

(a) the generator's cases meet the constraint's conditions and window;
(b) hand-built metrics: the graded cascade ``sum_i (1/i) sum_t w(t) r(d_i, t) prod_{j<i} (1 -
r(d_j, t))`` satisfies it (``a`` and ``b`` differ only at the last position, by
``(1/n) (v/2) (prod_P (1 - r(d, t')) - prod_P (1 - r(d, t)))``, positive because every factor
on ``t'`` is larger and ``P`` is not empty); a discount that only counts earlier relevant
documents, ``(1/2)^c(i, t)``, ties when a prefix document is relevant to both aspects;
(c) built-ins whose verdict the paper states (section 4): ERR-IA@k and RBU satisfy MRed;
alpha-nDCG@k, NRBP, EU and the intent-aware metrics without redundancy do not.
"""

from __future__ import annotations


import pytest
import sympy

from axiometer.axioms import get
from axiometer.checking import Budget, check
from axiometer.metrics import parse, wrap
from tests.axioms import cascade, halving, replay, topic_from_record

MRED = get("MRed")
# These tests pin the search's verdicts (against the paper, and on metrics built to satisfy or violate
# the constraint); proofs of the same cells are tested in tests/proofs, tests/checking/test_prove*.py
# and through the tables (tests/cli/test_table.py, tests/reports/test_browser.py), so the search runs
# here without them.
BUDGET = Budget(cases=60, small_scope=200, seconds=10, proof_docs=0)


def test_declaration():
    assert (MRED.group, MRED.form, MRED.relation.text) == ("diversity", "universal", "Q(b) > Q(a)")
    assert any("rho" in r.scope for r in MRED.readings)


def test_graded_cascade_satisfies():
    result = check(wrap(cascade), MRED, budget=BUDGET, seed=6)
    assert result.verdict == "satisfied", result.counterexample
    assert result.cases > 0 and result.small_scope > 0


def test_counting_discount_ties_on_a_document_relevant_to_both_aspects():
    metric = wrap(halving)
    result = check(metric, MRED, budget=BUDGET, seed=6)
    assert result.verdict == "violated"
    ce = result.counterexample
    qa, qb = replay(metric, ce)
    assert qa == qb
    topic = topic_from_record(ce.topic)
    assert ce.a[:-1] == ("d1",) and all(r > 0 for r in topic.vector("d1"))


@pytest.mark.parametrize("spec", ["ERR_IA@10", "ERR_IA@5", "nERR_IA@10", "RBU(p=0.8,e=0.05)@10",
                                  "RBU(p=0.99,e=0.5)"])
def test_paper_satisfied(spec):
    assert check(parse(spec), MRED, budget=BUDGET, seed=1).verdict == "satisfied"


@pytest.mark.parametrize("spec", ["NRBP(alpha=0.5,beta=0.5)", "RBP_IA(p=0.8)", "P_IA@10", "RR_IA"])
def test_paper_violated(spec):
    metric = parse(spec)
    result = check(metric, MRED, budget=BUDGET, seed=1)
    assert result.verdict == "violated"
    qa, qb = replay(metric, result.counterexample)
    assert not qb > qa


@pytest.mark.parametrize("spec", ["alpha_nDCG(alpha=0.5)@10", "EU(alpha=0.5,e=0.05)"])
def test_counting_redundancy_with_log_discounts_ties_exactly(spec):
    # The tie is between log-discounted values: decided exactly (symbolically), not on floats.
    metric = parse(spec)
    result = check(metric, MRED, budget=BUDGET, seed=1)
    assert result.verdict == "violated", result.error
    assert result.counterexample.decided == "exact"
    qa, qb = replay(metric, result.counterexample)
    assert sympy.simplify(sympy.sympify(qa) - sympy.sympify(qb)) == 0
