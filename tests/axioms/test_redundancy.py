"""Red (Redundancy, SIGIR 2018 Eq. 7): after a prefix covering aspect ``t`` more often than
``t'``, a document on ``t'`` is worth more than one on ``t`` (binary, balanced, no overlap).

(a) the generator's cases meet the constraint's conditions and window;
(b) hand-built metrics: halving each aspect's gain per earlier relevant document,
``sum_i (1/i) sum_t w(t) r(d_i, t) (1/2)^c(i, t)``, satisfies it (``a`` and ``b`` differ only
at the last position, by ``(1/n) w rc ((1/2)^c(t') - (1/2)^c(t)) > 0``); the same sum without
the discount ties, so violates;
(c) built-ins whose verdict the paper states (section 4): ERR-IA@k, alpha-nDCG@k, NRBP, EU and
RBU satisfy Red; RR-IA, RBP-IA and nDCG-IA do not (nDCG-IA only through a collection with as
many relevant documents for ``t'`` as for ``t``); CT@k fails once ``rc = 1/2`` fills both
aspects' cubes, and holds while values stay at most ``rho``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from axiometer.axioms import get
from axiometer.checking import Budget, check
from axiometer.metrics import parse, wrap
from tests.axioms import halving, replay, topic_from_record, weighted_sum

RED = get("Red")
# These tests pin the search's verdicts (against the paper, and on metrics built to satisfy or violate
# the constraint); proofs of the same cells are tested in tests/proofs, tests/checking/test_prove*.py
# and through the tables (tests/cli/test_table.py, tests/reports/test_browser.py), so the search runs
# here without them.
BUDGET = Budget(cases=60, small_scope=300, seconds=10, proof_docs=0)


def test_declaration():
    assert (RED.group, RED.form, RED.relation.text) == ("diversity", "universal", "Q(b) > Q(a)")


def test_discounted_metric_satisfies():
    result = check(wrap(halving), RED, budget=BUDGET, seed=4)
    assert result.verdict == "satisfied", result.counterexample
    assert result.cases > 0 and result.small_scope > 0


def test_undiscounted_metric_violates_on_the_smallest_case():
    metric = wrap(weighted_sum)
    result = check(metric, RED, budget=BUDGET, seed=4)
    assert result.verdict == "violated"
    ce = result.counterexample
    qa, qb = replay(metric, ce)
    assert qa == qb
    assert ce.a == ("d1", "x") and ce.b == ("d1", "y")


def test_shrinking_alone_finds_a_small_counterexample():
    metric = parse("RR_IA")
    result = check(metric, RED, budget=Budget(cases=200, small_scope=0, seconds=10), seed=4)
    assert result.verdict == "violated" and result.small_scope == 0
    ce = result.counterexample
    assert len(ce.a) <= 4  # RR-IA needs t' covered once, so t twice: at most three prefix documents
    qa, qb = replay(metric, ce)
    assert qa == qb


@pytest.mark.parametrize("spec", ["ERR_IA@10", "alpha_nDCG(alpha=0.5)@10", "NRBP(alpha=0.5,beta=0.5)",
                                  "EU(alpha=0.5,e=0.05)", "RBU(p=0.8,e=0.05)@10"])
def test_paper_satisfied(spec):
    assert check(parse(spec), RED, budget=BUDGET, seed=1).verdict == "satisfied"


@pytest.mark.parametrize("spec", ["RR_IA", "RBP_IA(p=0.8)", "P_IA@10", "AP_IA", "nDCG@10",
                                  "DSharp_nDCG(gamma=0.5)@10"])
def test_paper_violated(spec):
    metric = parse(spec)
    result = check(metric, RED, budget=BUDGET, seed=1)
    assert result.verdict == "violated"
    qa, qb = replay(metric, result.counterexample)
    assert not qb > qa


def test_ndcg_ia_ties_when_the_collection_balances_the_aspects():
    # Each aspect is normalised by its own ideal; with t' as well stocked as t in the collection
    # (the unretrieved u1), x and y are worth the same.
    metric = parse("nDCG_IA@10")
    result = check(metric, RED, budget=BUDGET, seed=1)
    assert result.verdict == "violated"
    ce = result.counterexample
    assert any(d.startswith("u") for d, _ in ce.topic.judgments)
    qa, qb = replay(metric, ce)
    assert sympy.simplify(sympy.sympify(qa) - sympy.sympify(qb)) == 0  # log terms cancel exactly


def test_cube_test_ties_once_both_aspects_are_full():
    metric = parse("CT(alpha=0.5)@10")
    result = check(metric, RED, budget=BUDGET, seed=1)
    assert result.verdict == "violated"
    ce = result.counterexample
    topic = topic_from_record(ce.topic)
    rc = topic.r(ce.a[-1])
    assert rc >= Fraction(1, 2)
    for aspect in topic.aspects:  # the prefix already holds relevance >= 1 on both aspects
        assert sum(topic.r(d, aspect) for d in ce.a[:-1]) >= 1
    qa, qb = replay(metric, ce)
    assert qa == qb
    reading = next(r for r in RED.readings if r.scope == {"values_within_rho": True})
    assert check(metric, RED, budget=BUDGET, seed=1, scope_changes=reading.scope).verdict == "satisfied"
