"""Every universal constraint, over the reals (issue 26): a metric that breaks it only at relevance values
between any levels a search tries is refuted, and one that satisfies it, branching on the relevance
value, is proved.

The satisfying metric is an RBU-like cascade (Amigó et al., SIGIR 2018, eq. 11, which satisfies all
seven): ``sum_i p^i (sum_t w(t) g(r(d_i, t)) prod_{j<i} (1 - g(r(d_j, t))) - e)`` with a gain ``g``
written as a branch. Its glitched twin negates the score whenever a value of the ranking lies in
(701/10000, 703/10000): every case of every constraint with such a value has its relation reversed.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.axioms import get
from axiometer.checking import Budget, check
from axiometer.evidence import Strength
from axiometer.metrics import wrap
from axiometer.results import Verdict

LOW, HIGH = Fraction(701, 10000), Fraction(703, 10000)
P, EFFORT = Fraction(4, 5), Fraction(1, 1000)


def gain(r):
    """The identity, written with a branch on the value (what a proof must split, not give up on)."""
    return r if r <= Fraction(1, 2) else (r + r) / 2


def cascade(ranking, topic):
    unsatisfied = [Fraction(1)] * len(topic.aspects)
    total, patience = 0, P
    for d in ranking:
        covered = 0
        for t, (w, r) in enumerate(zip(topic.weights, topic.vector(d))):
            if r:
                covered += w * gain(r) * unsatisfied[t]
                unsatisfied[t] *= 1 - gain(r)
        total += patience * (covered - EFFORT)
        patience *= P
    return total


def glitched(ranking, topic):
    """``cascade``, negated when some value of the ranking lies strictly between LOW and HIGH."""
    score = cascade(ranking, topic)
    in_band = any(LOW < r < HIGH for d in ranking for r in topic.vector(d) if r)
    return -score if in_band else score


BUDGET = Budget(cases=60, small_scope=80, seconds=5.0, proof_docs=4, proof_seconds=60.0)
UNIVERSAL = ("Pri", "Deep", "Conf", "AspDiv", "Red", "MRed", "AspRel")


@pytest.mark.parametrize("constraint", UNIVERSAL)
def test_a_cascade_with_a_branching_gain_is_proved(constraint):
    result = check(wrap(cascade), get(constraint), budget=BUDGET)
    assert result.verdict is Verdict.SATISFIED, result
    assert result.evidence.strength is Strength.PROVED, result.unproved


@pytest.mark.parametrize("constraint", UNIVERSAL)
def test_a_glitch_between_the_searched_levels_is_found_and_refuted(constraint):
    searched = check(wrap(glitched), get(constraint), budget=Budget(cases=60, small_scope=80, proof_docs=0))
    assert searched.verdict is Verdict.SATISFIED  # the levels never land in the band
    result = check(wrap(glitched), get(constraint), budget=BUDGET)
    assert result.verdict is Verdict.VIOLATED
    values = {Fraction(r) for _, vector in result.counterexample.topic.judgments for r in vector}
    assert any(LOW < r < HIGH for r in values), values
