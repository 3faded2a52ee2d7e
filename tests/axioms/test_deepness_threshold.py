"""DeepTh (Deepness threshold, SIGIR 2018 Eq. 3): eventually one relevant document
on top beats ``n`` relevant documents after ``n`` non-relevant ones.

``D(n) = Q(a_n) - Q(b_n)`` must be positive on the final stretch of the grid
``1..32, 64, ..., H`` (definitions §3), for every ``rc`` tried. Expected
witnesses are computed here from closed forms, independently of the checker:

- ``Q = sum w(i) r(d_i)`` gives ``D(n) = rc (w(1) - sum_{i=n+1}^{2n} w(i))``:
  ``w(i) = 2^-i`` has ``D > 0`` from ``n = 1``; ``w(i) = 1`` has ``D(n) = rc(1 - n) <= 0``.
- RBP(p): ``D(n) = (1-p) rc (1 - p^n (1 - p^n) / (1 - p))``; with ``p = 0.99``
  it turns positive only near ``n = 500`` (definitions §3).
- P@k: ``b_n`` has ``min(n, max(0, k - n))`` relevant documents in the top ``k``,
  so ``D(n) > 0`` only once ``n >= k``, i.e. by truncation (definitions §7).

Paper verdicts (section 4): P@k, RR, ERR@k, RBP satisfy DeepTh; AP does not.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from fractions import Fraction

import pytest

from axiometer.axioms import get
from axiometer.checking import Budget
from axiometer.checking import check as check_with_proofs
from axiometer.core import to_fraction
from axiometer.metrics import parse, wrap
from axiometer.results import Verdict
from tests.axioms import Positional, geometric, replay, uniform


def check(metric: Any, oracle: Any, **options: Any) -> Any:
    """The check as the search decides it (``proof_docs=0``): these tests pin down the grid of ``n``
    and ``rc``; proofs for every ``n`` and ``rc`` are tested in tests/checking/test_prove.py."""
    budget = options.pop("budget", Budget())
    return check_with_proofs(metric, oracle, budget=dataclasses.replace(budget, proof_docs=0), **options)

DEEPTH = get("DeepTh")
RCS = (Fraction(1, 100), Fraction(1, 20), Fraction(1, 10))


def grid(horizon: int = 1024) -> list[int]:
    """definitions §3: ``1..32`` then doubling up to the horizon."""
    values = list(range(1, 33))
    while values[-1] * 2 <= horizon:
        values.append(values[-1] * 2)
    return values


def first_of_final_positive_stretch(d) -> int | None:
    points = grid()
    if d(points[-1]) <= 0:
        return None
    start = len(points) - 1
    while start > 0 and d(points[start - 1]) > 0:
        start -= 1
    return points[start]


def rbp_d(p: Fraction):
    return lambda n: 1 - p ** n * (1 - p ** n) / (1 - p)  # D(n) / ((1-p) rc)


def test_declared_as_a_threshold_checked_by_truncation():
    assert DEEPTH.form == "threshold" and DEEPTH.default_mode == "truncate"
    assert DEEPTH.threshold.rule == "eventually positive"


def test_geometric_weights_give_a_witness_at_one():
    result = check(geometric(2), DEEPTH)
    assert result.verdict == "witness" and result.witness.value == "n = 1"
    assert result.witness.by_truncation is False and result.cases == len(grid()) * len(RCS)


def test_uniform_weights_violate_at_the_end_of_the_grid():
    result = check(uniform(), DEEPTH)
    ce = result.counterexample
    assert result.verdict == "violated"
    extra = dict(ce.extra)
    assert extra["n"] == "1024" and extra["rc"] == "1/100"
    assert len(ce.a) == len(ce.b) == 2048
    assert result.note == "fails for rc = 1/100"
    # A shorter horizon moves the counterexample with it.
    short = check(uniform(), DEEPTH, budget=Budget(horizon=64))
    assert dict(short.counterexample.extra)["n"] == "64"


def test_a_violation_names_the_rc_that_broke_it():
    # Harmonic (D > 0: sum_{n+1}^{2n} 1/i < ln 2 < 1) when r <= 1/20, order-blind above.
    def weight_by_value(ranking, topic):
        return sum(topic.r(d) * (1.0 / i if topic.r(d) <= 0.05 else 1.0) for i, d in enumerate(ranking, 1))
    result = check(wrap(weight_by_value), DEEPTH)
    assert result.verdict == "violated" and dict(result.counterexample.extra)["rc"] == "1/10"
    passing = check(wrap(weight_by_value), DEEPTH, rcs=RCS[:2])
    assert passing.verdict == "witness" and passing.exact is False and passing.tolerance is not None


@pytest.mark.parametrize("p", [0.8, 0.9, 0.99])
def test_rbp_witness_matches_the_closed_form(p):
    expected = first_of_final_positive_stretch(rbp_d(to_fraction(p)))
    result = check(parse(f"RBP(p={p})"), DEEPTH)
    assert result.verdict == "witness" and result.witness.value == f"n = {expected}"
    assert not result.witness.by_truncation


def test_patient_rbp_needs_n_near_500():
    witness = check(parse("RBP(p=0.99)"), DEEPTH).witness
    assert 256 < int(witness.value.split("=")[1]) <= 1024
    assert "n=512..1024: +" in witness.signs
    # Below that, the horizon is too short and the check says so with a counterexample.
    short = check(parse("RBP(p=0.99)"), DEEPTH, budget=Budget(horizon=256))
    assert short.verdict == "violated" and dict(short.counterexample.extra)["n"] == "256"


def test_precision_holds_only_by_truncation():
    k = 10
    def d(n):  # P@k is binary: k * D(n) = 1 - (relevant documents of b_n in the top k)
        return 1 - min(n, max(0, k - n))
    expected = first_of_final_positive_stretch(d)
    truncated = check(parse("P@10"), DEEPTH)
    assert truncated.mode == "truncate" and truncated.verdict == "witness"
    assert truncated.witness.value == f"n = {expected}" and truncated.witness.by_truncation
    window = check(parse("P@10"), DEEPTH, mode="window")
    assert window.mode == "window" and window.verdict == "violated"
    assert int(dict(window.counterexample.extra)["n"]) * 2 <= k


@pytest.mark.parametrize("spec", ["RR", "ERR@10"])
def test_paper_satisfied(spec):
    result = check(parse(spec), DEEPTH)
    assert result.verdict == "witness"


def test_average_precision_violates():
    result = check(parse("AP"), DEEPTH)
    assert result.verdict == "violated"
    ce = result.counterexample
    qa, qb = replay(parse("AP"), ce)
    assert qb > qa  # the counterexample is real: AP prefers the n late relevant documents


def test_threshold_counterexample_scores_belong_to_their_rankings():
    for metric in (uniform(), parse("AP")):
        ce = check(metric, DEEPTH).counterexample
        qa, qb = replay(metric, ce)
        assert (ce.score_a, ce.score_b) == pytest.approx((float(qa), float(qb)))


def test_ndcg_holds_by_truncation_and_fails_in_the_window():
    # The paper says nDCG@k fails DeepTh (ignoring the cutoff); with the cutoff it holds.
    truncated = check(parse("nDCG@10"), DEEPTH)
    assert truncated.verdict == "witness" and truncated.witness.by_truncation
    assert check(parse("nDCG@10"), DEEPTH, mode="window").verdict == "violated"
    # Without a cutoff sum_{i=n+1}^{2n} 1/log2(i+1) grows like n / log2 n: D(n) < 0 from n = 3 on.
    assert check(parse("nDCG"), DEEPTH).verdict == "violated"
    # With k = 1000 the last grid point n = 1024 puts all of b past k: a witness by truncation.
    deep_cutoff = check(parse("nDCG@1000"), DEEPTH).witness
    assert deep_cutoff.value == "n = 1024" and deep_cutoff.by_truncation


def test_positional_with_cutoff_is_flagged():
    result = check(Positional("uniform", lambda i: Fraction(1), cutoff=4), DEEPTH)
    assert result.verdict == "witness" and result.witness.by_truncation


# -- the witness and the counterexample as data ------------------------------------------------------

def test_the_witness_carries_its_threshold_as_an_int_equal_to_its_text():
    result = check(parse("RBP(p=0.9)"), DEEPTH)
    witness = result.witness
    assert result.verdict is Verdict.WITNESS
    assert isinstance(witness.threshold, int) and witness.value == f"n = {witness.threshold}"
    assert witness.rcs == RCS  # one threshold that serves every rc tried
    # The signs one rc at a time, as data: what the joined text says, in the order of rcs.
    assert "; ".join(witness.signs_by_rc) == witness.signs
    assert [part.split(":")[0] for part in witness.signs_by_rc] == [f"rc = {rc}" for rc in RCS]


def test_a_violation_carries_its_rc_and_grid_point_as_data():
    result = check(uniform(), DEEPTH, budget=Budget(horizon=64))
    ce = result.counterexample
    assert result.verdict is Verdict.VIOLATED
    assert (ce.rc, ce.threshold) == (Fraction(1, 100), 64)
    assert dict(ce.extra)["rc"] == str(ce.rc) and dict(ce.extra)["n"] == str(ce.threshold)
    assert ce.signs and dict(ce.extra)["signs"] == ce.signs  # the sign of D along the grid, as data
