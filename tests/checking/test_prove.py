"""A satisfied universal constraint proved for every real relevance value, or refuted by z3 (issue 26)."""

from __future__ import annotations

from fractions import Fraction

from axiometer.axioms.constraints.closeness_threshold import CLOSENESS_THRESHOLD
from axiometer.axioms.constraints.deepness_threshold import DEEPNESS_THRESHOLD
from axiometer.axioms.constraints.priority import PRIORITY
from axiometer.checking import Budget, check
from axiometer.evidence import Strength
from axiometer.metrics import wrap
from axiometer.metrics.resolve import resolve
from axiometer.results import Decided, Verdict
from tests.proofs.examples import branching_gain, float_gain, narrow_band

FAST = Budget(cases=50, small_scope=60, seconds=5.0, proof_docs=3)


def test_the_search_misses_the_narrow_band_and_the_proof_refutes_it_with_values_inside_it():
    searched = check(wrap(narrow_band), PRIORITY, budget=Budget(cases=50, small_scope=60, proof_docs=0))
    assert searched.verdict is Verdict.SATISFIED
    proved = check(wrap(narrow_band), PRIORITY, budget=FAST)
    assert proved.verdict is Verdict.VIOLATED
    example = proved.counterexample
    assert example.decided is Decided.EXACT and "found by z3" in example.note
    values = [r for _, vector in example.topic.judgments for r in vector if r]
    assert values and all(Fraction(700, 10000) < Fraction(v) < Fraction(704, 10000) for v in values)


def test_a_branching_metric_that_satisfies_pri_is_proved_with_its_scope():
    result = check(wrap(branching_gain), PRIORITY, budget=FAST)
    assert result.verdict is Verdict.SATISFIED and result.evidence.strength is Strength.PROVED
    proof = result.evidence.proof
    assert proof.scope == "every case of up to 3 documents and 1 aspect" and proof.structures == 14
    assert result.proof_seconds is not None and result.unproved == ""


def test_the_proofs_budget_is_a_count_of_paths_so_it_ends_the_same_way_every_time():
    small = Budget(cases=50, small_scope=60, seconds=5.0, proof_docs=3, proof_paths=5, proof_seconds=600.0)
    first, second = (check(wrap(branching_gain), PRIORITY, budget=small) for _ in range(2))
    assert first.verdict is Verdict.SATISFIED and first.evidence.strength is not Strength.PROVED
    assert first.unproved.startswith("the proof's budget (5 paths of the metric's code) ran out after ")
    assert second.unproved == first.unproved


def test_a_metric_that_needs_floats_keeps_its_searched_verdict_and_says_why():
    result = check(wrap(float_gain), PRIORITY, budget=FAST)
    assert result.verdict is Verdict.SATISFIED and result.evidence.strength is not Strength.PROVED
    assert "float()" in result.unproved


def test_no_proofs_keeps_the_search_verdict_and_records_no_proof_time():
    result = check(resolve("RBP").metric, PRIORITY, budget=Budget(cases=50, small_scope=60, proof_docs=0))
    assert result.evidence.strength is not Strength.PROVED and result.proof_seconds is None


def band_at_rank_one(ranking, topic):
    """A sum of relevance values, except that rank 1 weighs a million times more when its value lies
    in (1/50, 1/25): CloseTh holds at rc = 1/100, 1/20, 1/10 and fails at every rc in that band."""
    total = 0
    for i, d in enumerate(ranking, start=1):
        r = topic.r(d)
        total += 10**6 * r if i == 1 and Fraction(1, 50) < r < Fraction(1, 25) else r
    return total


def test_a_closeness_witness_that_fails_between_the_searched_rc_values_is_violated():
    searched = check(wrap(band_at_rank_one), CLOSENESS_THRESHOLD, budget=Budget(proof_docs=0))
    assert searched.verdict is Verdict.WITNESS
    result = check(wrap(band_at_rank_one), CLOSENESS_THRESHOLD, budget=FAST)
    assert result.verdict is Verdict.VIOLATED
    rc = result.counterexample.rc
    assert Fraction(1, 50) < rc < Fraction(1, 25) and "found by z3" in result.note


def test_rbp_deepness_threshold_at_p_0999_is_a_witness_proved_past_the_horizon():
    result = check(resolve("RBP(p=0.999)").metric, DEEPNESS_THRESHOLD, budget=FAST)
    assert result.verdict is Verdict.WITNESS and result.witness.threshold == 6904
    assert result.evidence.strength is Strength.PROVED
    assert result.evidence.proof.scope == "every n >= 6904 and every rc in (0, 1/10]"
