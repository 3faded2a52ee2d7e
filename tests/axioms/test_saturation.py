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
import dataclasses

import pytest

from axiometer.axioms import get
from axiometer.axioms.constraints.saturation import RMAX_CANDIDATES, SaturationConstraint
from axiometer.checking import Budget, check
from axiometer.metrics import parse, wrap
from axiometer.results import Verdict
from tests.axioms import cascade, replay, weighted_sum

SAT = get("Sat")
# These tests pin the search's verdicts (against the paper, and on metrics built to satisfy or violate
# the constraint); proofs of the same cells are tested in tests/proofs, tests/checking/test_prove*.py
# and through the tables (tests/cli/test_table.py, tests/reports/test_browser.py), so the search runs
# here without them.
BUDGET = Budget(cases=40, small_scope=100, seconds=10, proof_docs=0)


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
    assert (SAT.group, SAT.form, SAT.relation.text) == ("diversity", "saturation", "Q(a) >= Q(b)")


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


# Sat's procedure (saturation.py): one universal search per rmax candidate, largest first.
#
# The figures are read off the constructions by hand:
# - the weighted sum ``sum_i (1/i) sum_t w(t) r(d_i, t)`` rises with every appended relevant document,
#   so the very first small-scope case of every candidate breaks ``Q(a) >= Q(b)``: five candidates,
#   five small-scope cases in all (the counts add up over the candidates), no random case;
# - a metric that stops counting an aspect after a document with ``r`` in ``[9/10, 99/100]`` fails at
#   ``rmax = 1`` on the first case (1 is outside the interval) and holds at ``99/100``: the second
#   candidate's search is the witness's and its evidence says ``rmax = 99/100``;
# - a metric that raises on three documents is an error at once, with the ranking it raised on.

QUICK_BUDGET = Budget(cases=10, small_scope=30, seconds=10)
WITNESS_NOTE = "the largest candidate for which no case breaks Q(a) >= Q(b)"


def test_every_candidate_failing_counts_every_search_and_says_so():
    result = check(wrap(weighted_sum), SAT, budget=QUICK_BUDGET)
    assert result.verdict == "violated" and result.error is None and result.witness is None
    assert (result.small_scope, result.cases) == (len(RMAX_CANDIDATES), 0) == (5, 0)
    assert result.note == "no rmax candidate holds; counterexample at the smallest"
    assert dict(result.counterexample.extra) == {"rmax": "1/2"}
    assert result.evidence is None


def test_the_witness_is_the_first_candidate_that_holds_with_its_own_evidence():
    result = check(wrap(stops_after_nearly_full), SAT, budget=QUICK_BUDGET)
    assert result.verdict == "witness" and result.note == "" and result.counterexample is None
    assert result.witness.value == "rmax = 99/100" and result.witness.note == WITNESS_NOTE
    # rmax = 1 fails on its first small-scope case; rmax = 99/100 uses the whole budget: 1 + 30.
    assert (result.small_scope, result.cases) == (1 + 30, 10)
    evidence = result.evidence
    assert evidence.exhaustive_scope.startswith("rmax = 99/100: 30 cases of the small scope")
    assert (evidence.exhaustive_cases, evidence.random_cases) == (30, 10)


def test_a_witness_at_one_searches_once():
    result = check(wrap(cascade), SAT, budget=QUICK_BUDGET)
    assert result.verdict == "witness" and result.witness.value == "rmax = 1"
    assert (result.small_scope, result.cases) == (30, 10)
    assert result.evidence.exhaustive_scope.startswith("rmax = 1: ")


def _raises_past_two(ranking, topic):
    if len(ranking) > 2:
        raise ValueError("boom")
    return 0.0


def test_a_metric_raising_is_an_error_naming_its_input():
    result = check(wrap(_raises_past_two), SAT, budget=QUICK_BUDGET)
    assert result.verdict == "error" and result.witness is None and result.evidence is None
    assert result.error.message == "ValueError: boom" and len(result.error.ranking) == 3
    assert result.note == "" and result.small_scope > 0


# -- the search per rmax candidate: seeded, counted, in the check's mode ------------------------

def record_searches(monkeypatch, rewrite=lambda index, found: found) -> list:
    """Sat's searches, one per rmax candidate, as ``(seed, found)``; ``rewrite`` may change what
    the ``index``-th search returns."""
    calls, search_failure = [], SaturationConstraint.search_failure

    def recorded(self, metric, scope, search, seed, extra=()):
        found = rewrite(len(calls), search_failure(self, metric, scope, search, seed, extra))
        calls.append((seed, found))
        return found

    monkeypatch.setattr(SaturationConstraint, "search_failure", recorded)
    return calls


def test_sats_search_is_seeded_for_every_rmax_candidate(monkeypatch):
    """Sat searches once per rmax candidate, each from the check's own seed (an unseeded one would
    follow hypothesis's global random, as the shrink did before issue 15)."""
    calls = record_searches(monkeypatch)
    check(parse("nDCG@10"), get("Sat"), seed=7)  # violated: every rmax candidate is searched
    seeds = [seed for seed, _ in calls]
    assert len(seeds) >= 2 and len(set(seeds)) == 1 and None not in seeds


def test_sat_counts_every_candidates_cases(monkeypatch):
    # The first candidate's violation as if the random search had found it (cases, no small scope).
    calls = record_searches(monkeypatch, lambda index, found: dataclasses.replace(found, cases=11, small=0)
                            if index == 0 else found)
    result = check(parse("nDCG@10"), get("Sat"), seed=7)
    assert result.verdict == "violated" and len(calls) >= 2
    assert (result.cases, result.small_scope) == (sum(f.cases for _, f in calls), sum(f.small for _, f in calls))


def _boom(ranking, topic):
    raise ValueError("boom")


@pytest.mark.parametrize("mode", ["window", "truncate"])
def test_sats_records_name_their_mode(mode):
    """Witness, violation, error and (in window mode, with no room for a case) n/a records."""
    witness = check(parse("ERR@10"), get("Sat"), mode=mode, seed=0)
    violated = check(parse("nDCG@10"), get("Sat"), mode=mode, seed=0)
    failed = check(wrap(_boom, name="boom"), get("Sat"), mode=mode, seed=0)
    assert (witness.verdict, witness.mode) == ("witness", mode)
    assert (violated.verdict, violated.mode) == ("violated", mode)
    assert violated.note == "no rmax candidate holds; counterexample at the smallest"
    assert (failed.verdict, failed.mode) == ("error", mode)
    if mode == "window":
        assert check(parse("P@1"), get("Sat"), mode=mode, seed=0).mode == "window"


# -- what every record carries: counts, tolerance, the small scope's own note ------------------

def test_a_float_metrics_records_carry_the_searchs_tolerance():
    """A metric author's function is not exact-capable: its ties were decided within the search's
    tolerance, and every record says so (violated, witness, error alike)."""
    from axiometer.metrics.decide import DEFAULT_TOLERANCE
    violated = check(wrap(weighted_sum), SAT, budget=QUICK_BUDGET)
    witness = check(wrap(cascade), SAT, budget=QUICK_BUDGET)
    failed = check(wrap(_raises_past_two), SAT, budget=QUICK_BUDGET)
    assert [r.verdict for r in (violated, witness, failed)] == ["violated", "witness", "error"]
    for result in (violated, witness, failed):
        assert result.exact is False and result.tolerance == DEFAULT_TOLERANCE
    assert witness.evidence.exact is False  # what the witness rests on was decided in floats too
    # The error came up in the small scope, before any random case: counted as such.
    assert (failed.small_scope > 0, failed.cases) == (True, 0)


def test_a_witness_whose_small_scope_ran_out_of_time_says_so():
    """cascade holds at rmax = 1; a small scope larger than half a second allows stops on the clock,
    and the witness's note gives the small scope's own account (how many cases it reached)."""
    result = check(wrap(cascade), SAT, budget=Budget(cases=10, small_scope=10**6, seconds=0.5))
    assert result.verdict == "witness" and result.witness.value == "rmax = 1"
    assert result.note == f"small scope stopped by the time budget (0.5 s) after {result.small_scope} cases"
    assert result.evidence.exhaustive_cases == result.small_scope


def test_a_witness_from_the_random_search_alone_has_no_note():
    """Sat without its small scope (the random search only): the witness has no small scope to
    report on, and its evidence says there was none."""
    random_only = dataclasses.replace(SAT, small_scope=None)
    result = check(wrap(cascade), random_only, budget=QUICK_BUDGET)
    assert result.verdict == "witness" and result.witness.value == "rmax = 1"
    assert result.note == "" and result.small_scope == 0 and result.cases == 10
    assert result.evidence.exhaustive_scope == "rmax = 1: none: no small scope"


def test_the_witness_carries_rmax_as_an_exact_fraction():
    result = check(wrap(stops_after_nearly_full), SAT, budget=BUDGET, seed=8)
    assert result.verdict is Verdict.WITNESS
    assert result.witness.rmax == Fraction(99, 100) and result.witness.value == "rmax = 99/100"


def test_a_violation_carries_the_smallest_rmax_as_data():
    result = check(wrap(weighted_sum), SAT, budget=BUDGET, seed=8)
    assert result.verdict is Verdict.VIOLATED
    assert result.counterexample.rmax == RMAX_CANDIDATES[-1] == Fraction(1, 2)
