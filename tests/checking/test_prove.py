"""A satisfied universal constraint proved for every real relevance value, or refuted by z3 (issue 26)."""

from __future__ import annotations

import math
from fractions import Fraction

from axiometer.axioms.constraints.priority import PRIORITY
from axiometer.checking import Budget, check
from axiometer.evidence import Strength
from axiometer.metrics import wrap
from axiometer.metrics.resolve import resolve
from axiometer.results import Decided, Verdict

A, B = Fraction(701, 10000), Fraction(703, 10000)
FAST = Budget(cases=50, small_scope=60, seconds=5.0, proof_docs=3)


def narrow_band(ranking, topic):
    """The issue's metric: the gain r^3 - 3/2 (A + B) r^2 + 3AB r falls between A and B."""
    total = 0
    for i, d in enumerate(ranking, start=1):
        r = topic.r(d)
        total += (r**3 - Fraction(3, 2) * (A + B) * r**2 + 3 * A * B * r) / i
    return total


def branching_gain(ranking, topic):
    """A strictly increasing gain written with a branch on the value."""
    total = 0
    for i, d in enumerate(ranking, start=1):
        r = topic.r(d)
        total += (2 * r if r < Fraction(1, 20) else r + Fraction(1, 20)) / i
    return total


def float_gain(ranking, topic):
    return sum(math.log1p(float(topic.r(d))) / i for i, d in enumerate(ranking, start=1))


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


def test_a_metric_that_needs_floats_keeps_its_searched_verdict_and_says_why():
    result = check(wrap(float_gain), PRIORITY, budget=FAST)
    assert result.verdict is Verdict.SATISFIED and result.evidence.strength is not Strength.PROVED
    assert "float()" in result.unproved


def test_no_proofs_keeps_the_search_verdict_and_records_no_proof_time():
    result = check(resolve("RBP").metric, PRIORITY, budget=Budget(cases=50, small_scope=60, proof_docs=0))
    assert result.evidence.strength is not Strength.PROVED and result.proof_seconds is None
