"""AspRel (Aspect relevance, SIGIR 2018 Eq. 10): moving a document's relevance from aspect
``t`` to a heavier, so far unseen aspect ``t'`` raises ``Q`` (no overlap, unequal weights).

(a) the generator's cases meet the constraint's conditions and window;
(b) hand-built metrics: the weighted positional sum ``sum_i (1/i) sum_t w(t) r(d_i, t)``
satisfies it (the change is ``(1/i) r (w(t') - w(t)) > 0``); the same sum without weights ties;
(c) built-ins whose verdict the paper states (section 4): every intent-aware metric, D#, EU and
RBU satisfy AspRel; NRBP, alpha-nDCG and S-Recall ignore weights and do not.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from axiometer.axioms import get
from axiometer.checking import Budget, check
from axiometer.metrics import parse, wrap
from tests.axioms import replay, topic_from_record, weighted_sum

ASPREL = get("AspRel")
# These tests pin the search's verdicts (against the paper, and on metrics built to satisfy or violate
# the constraint); proofs of the same cells are tested in tests/proofs, tests/checking/test_prove*.py
# and through the tables (tests/cli/test_table.py, tests/reports/test_browser.py), so the search runs
# here without them.
BUDGET = Budget(cases=60, small_scope=100, seconds=10, proof_docs=0)


def unweighted_sum(ranking, topic):
    """``sum_i (1/i) sum_t r(d_i, t)``: every aspect counts the same."""
    return sum(Fraction(1, i) * r for i, d in enumerate(ranking, 1) for r in topic.vector(d))


def test_declaration():
    assert (ASPREL.group, ASPREL.form, ASPREL.relation.text) == ("diversity", "universal", "Q(b) > Q(a)")


def test_weighted_sum_satisfies():
    result = check(wrap(weighted_sum), ASPREL, budget=BUDGET, seed=10)
    assert result.verdict == "satisfied", result.counterexample
    assert result.cases > 0 and result.small_scope > 0


def test_unweighted_sum_violates_on_one_document():
    metric = wrap(unweighted_sum)
    result = check(metric, ASPREL, budget=BUDGET, seed=10)
    assert result.verdict == "violated"
    ce = result.counterexample
    assert ce.a == ("x",) and ce.b == ("y",)
    qa, qb = replay(metric, ce)
    assert qa == qb
    topic = topic_from_record(ce.topic)
    assert topic.r("y", topic.aspects[1]) == topic.r("x", topic.aspects[0]) > 0
    assert topic.weights[1] > topic.weights[0]


@pytest.mark.parametrize("spec", ["P_IA@10", "RR_IA", "AP_IA", "nDCG_IA@10", "ERR_IA@10", "nERR_IA@10",
                                  "RBP_IA(p=0.8)", "DSharp_nDCG(gamma=0.5)@10", "EU(alpha=0.5,e=0.05)",
                                  "RBU(p=0.8,e=0.05)@10"])
def test_paper_satisfied(spec):
    assert check(parse(spec), ASPREL, budget=BUDGET, seed=1).verdict == "satisfied"


@pytest.mark.parametrize("spec", ["NRBP(alpha=0.5,beta=0.5)", "StRecall@10", "RBP(p=0.8)",
                                  "alpha_nDCG(alpha=0.5)@10", "nDCG@10"])
def test_paper_violated(spec):
    metric = parse(spec)
    result = check(metric, ASPREL, budget=BUDGET, seed=1)
    assert result.verdict == "violated", result.error
    assert result.counterexample.decided == "exact"  # a tie: the weights are ignored
    qa, qb = replay(metric, result.counterexample)
    assert sympy.simplify(sympy.sympify(qa) - sympy.sympify(qb)) == 0
