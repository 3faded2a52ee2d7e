"""CloseTh (Closeness threshold, SIGIR 2018 Eq. 4): some small ``m`` makes ``m``
relevant documents after ``m`` non-relevant ones beat one relevant document first.

Satisfied iff some grid ``m`` gives ``Q(b_m) > Q(a_m)`` for every ``rc`` tried;
the witness is the smallest (definitions §3). Expected values from closed
forms, independent of the checker:

- ``Q = sum w(i) r(d_i)``: ``Q(b_m) - Q(a_m) = rc (sum_{i=m+1}^{2m} w(i) - w(1))``;
  ``w = 1`` gives ``rc (m - 1)``, first positive at ``m = 2``; ``w(i) = 4^-i``
  gives ``sum < 4^-m / 3 < 1/4``, never positive.
- RBP(p): positive iff ``p^m (1 - p^m) > 1 - p`` (definitions §3), impossible
  for ``p <= 3/4`` since ``x (1 - x) <= 1/4``.

Paper verdicts (section 4): AP, nDCG@k, RBP satisfy CloseTh; RR and ERR@k do
not; alpha-nDCG@k holds at alpha = 0.1 and fails at alpha = 0.5 (definitions §3).
"""

from __future__ import annotations

import pytest

from axiometer.axioms import get
from axiometer.checking import Budget, check
from axiometer.core import to_fraction
from axiometer.metrics import parse
from tests.axioms import geometric, replay, uniform

CLOSETH = get("CloseTh")
GRID = list(range(1, 33)) + [64, 128, 256, 512, 1024]  # definitions §3, horizon 1024


def test_declared_as_a_threshold_checked_by_truncation():
    assert CLOSETH.form == "threshold" and CLOSETH.default_mode == "truncate"
    assert CLOSETH.threshold.rule == "sometimes negative" and CLOSETH.threshold.symbol == "m"


def test_order_blind_metric_has_witness_two():
    result = check(uniform(), CLOSETH)
    assert result.verdict == "witness" and result.witness.value == "m = 2"
    assert result.witness.signs.startswith("rc = 1/100: m=1: 0, m=2..1024: -")


def test_steep_metric_violates():
    result = check(geometric(4), CLOSETH)
    assert result.verdict == "violated"
    ce = result.counterexample
    qa, qb = replay(geometric(4), ce)
    assert qa > qb and ce.relation == "Q(b) > Q(a)"
    assert dict(ce.extra)["signs"] == "m=1..1024: +"


@pytest.mark.parametrize("p", [0.5, 0.7, 0.75, 0.8, 0.9, 0.99])
def test_rbp_depends_on_p_as_the_closed_form_says(p):
    exact_p = to_fraction(p)
    good = [m for m in GRID if exact_p ** m * (1 - exact_p ** m) > 1 - exact_p]
    result = check(parse(f"RBP(p={p})"), CLOSETH)
    if good:
        assert result.verdict == "witness" and result.witness.value == f"m = {good[0]}"
    else:
        assert result.verdict == "violated"


def test_rbp_holds_at_p_08_and_fails_at_p_05():
    assert check(parse("RBP(p=0.8)"), CLOSETH).verdict == "witness"
    assert check(parse("RBP(p=0.5)"), CLOSETH).verdict == "violated"


@pytest.mark.parametrize("spec", ["AP", "nDCG@10"])
def test_paper_satisfied(spec):
    assert check(parse(spec), CLOSETH).verdict == "witness"


@pytest.mark.parametrize("spec", ["RR", "ERR@10"])
def test_paper_violated(spec):
    metric = parse(spec)
    result = check(metric, CLOSETH)
    assert result.verdict == "violated"
    qa, qb = replay(metric, result.counterexample)
    assert not qb > qa


def test_alpha_ndcg_depends_on_alpha():
    short = Budget(horizon=16)  # the witness is small; alpha-nDCG's ideal is slow on long topics
    assert check(parse("alpha_nDCG(alpha=0.1)@10"), CLOSETH, budget=short).verdict == "witness"
    assert check(parse("alpha_nDCG(alpha=0.5)@10"), CLOSETH, budget=short).verdict == "violated"


def test_counterexample_is_the_closest_m():
    # RR: Q(a_m) - Q(b_m) = 1 - 1/(m+1) > 0, smallest (closest to holding) at m = 1.
    assert dict(check(parse("RR"), CLOSETH).counterexample.extra)["m"] == "1"
