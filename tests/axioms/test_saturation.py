"""Sat (Aspect relevance saturation, SIGIR 2018 Eq. 9): some ``rmax`` such that after a
document with ``r(d_n, t) = rmax``, appending another document on ``t`` does not raise ``Q``
(no aspect overlap). The check tries ``rmax`` in ``1, 0.99, 0.9, 0.75, 0.5``, largest first.

(a) the generator's cases meet the constraint's conditions and window, for every candidate;
(b) hand-built metrics: the graded cascade ``sum_i (1/i) sum_t w(t) r(d_i, t) prod_{j<i}
(1 - r(d_j, t))`` saturates at ``rmax = 1`` (the appended term carries the factor
``1 - r(d_n, t) = 0``); the plain weighted sum never saturates; a metric that stops counting an
aspect only after a document with ``r`` in ``[0.9, 0.99]`` has witness ``0.99``, which shows the
search moves on from a failing candidate;
(c) built-ins whose verdict the paper states (section 4): RR-IA and ERR-IA@k saturate with
``rmax = 1``, as do CT@k and RBU; P-IA@k, nDCG-IA@k and RBP-IA do not.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.axioms import get
from axiometer.axioms.constraints.saturation import RMAX_CANDIDATES
from axiometer.checking import Budget, check
from axiometer.metrics import parse, wrap
from axiometer.results import Verdict
from tests.axioms import cascade, replay, weighted_sum

SAT = get("Sat")
BUDGET = Budget(cases=40, small_scope=100, seconds=10)


def stops_after_nearly_full(ranking, topic):
    """The weighted sum, but an aspect stops counting after a document with ``r`` in ``[0.9, 0.99]``."""
    closed = [False] * len(topic.aspects)
    total = Fraction(0)
    for i, d in enumerate(ranking, 1):
        for t, (w, r) in enumerate(zip(topic.weights, topic.vector(d))):
            if not closed[t]:
                total += Fraction(1, i) * w * r
            closed[t] = closed[t] or Fraction(9, 10) <= r <= Fraction(99, 100)
    return total


def test_declaration():
    assert (SAT.family, SAT.kind, SAT.relation.text) == ("diversity", "saturation", "Q(a) >= Q(b)")


def test_graded_cascade_saturates_at_one():
    result = check(wrap(cascade), SAT, budget=BUDGET, seed=8)
    assert result.verdict == "witness" and result.witness.value == "rmax = 1"
    assert result.cases > 0 and result.small_scope > 0


def test_weighted_sum_never_saturates():
    metric = wrap(weighted_sum)
    result = check(metric, SAT, budget=BUDGET, seed=8)
    assert result.verdict == "violated"
    ce = result.counterexample
    assert dict(ce.extra)["rmax"] == str(RMAX_CANDIDATES[-1])  # every candidate failed
    qa, qb = replay(metric, ce)
    assert qb > qa
    assert ce.b == (*ce.a, "x")


def test_the_search_moves_to_the_next_candidate():
    result = check(wrap(stops_after_nearly_full), SAT, budget=BUDGET, seed=8)
    assert result.verdict == "witness" and result.witness.value == "rmax = 99/100"


@pytest.mark.parametrize("spec", ["RR_IA", "ERR_IA@10", "CT(alpha=0.5)@10", "RBU(p=0.8,e=0.05)@10",
                                  "RBU(p=0.99,e=0.001)", "StRecall@10", "SRR"])
def test_paper_saturates_at_one(spec):
    result = check(parse(spec), SAT, budget=BUDGET, seed=1)
    assert result.verdict == "witness" and result.witness.value == "rmax = 1"


@pytest.mark.parametrize("spec", ["P_IA@10", "AP_IA", "nDCG_IA@10", "RBP_IA(p=0.8)",
                                  "alpha_nDCG(alpha=0.5)@10", "NRBP(alpha=0.5,beta=0.5)",
                                  "EU(alpha=0.5,e=0.05)"])
def test_paper_does_not_saturate(spec):
    metric = parse(spec)
    result = check(metric, SAT, budget=BUDGET, seed=1)
    assert result.verdict == "violated"
    qa, qb = replay(metric, result.counterexample)
    assert qb > qa


def test_the_witness_carries_rmax_as_an_exact_fraction():
    result = check(wrap(stops_after_nearly_full), SAT, budget=BUDGET, seed=8)
    assert result.verdict is Verdict.WITNESS
    assert result.witness.rmax == Fraction(99, 100) and result.witness.value == "rmax = 99/100"


def test_a_violation_carries_the_smallest_rmax_as_data():
    result = check(wrap(weighted_sum), SAT, budget=BUDGET, seed=8)
    assert result.verdict is Verdict.VIOLATED
    assert result.counterexample.rmax == RMAX_CANDIDATES[-1] == Fraction(1, 2)
