"""The threshold procedure (threshold.py): the grid, its words, and the verdicts read from D(n).

Every figure is computed by hand from the pair of definitions §3 (``a_n`` = one relevant document then
``2n - 1`` non-relevant ones, ``b_n`` = ``n`` non-relevant then ``n`` relevant, all relevant at ``rc``)
and ``D(n) = Q(a_n) - Q(b_n)``:
- uniform weights ``w(i) = 1``: ``D(n) = rc (1 - n)``: 0 at ``n = 1``, negative after;
- ``w(i) = 2^-i``: ``D(n) = rc (1/2 - 2^-n + 2^-2n)`` > 0 (``rc/4`` at ``n = 1``);
- ``w(i) = 4^-i``: ``Q(b_m) - Q(a_m) = rc ((4^-m - 4^-2m)/3 - 1/4)`` < 0, largest at ``m = 1``
  (``rc (1/16 - 1/4)``);
- ``w = (1, 1/2, 1, 0, 0, ...)``: ``D(1) = rc/2``, ``D(2) = rc (1 - 1) = 0``, ``D(n >= 3) = rc``.
Short horizons keep the grid ``1..8`` (fast).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from fractions import Fraction

import pytest

from axiometer.axioms import get
from axiometer.axioms.constraints.threshold import grid_text, signs_text, threshold_grid
from axiometer.checking import Budget
from axiometer.checking import check as check_with_proofs
from axiometer.metrics import Needs, parse, wrap
from axiometer.results import Evidence
import axiometer
from tests.axioms import Positional, geometric, uniform


def check(metric: Any, oracle: Any, **options: Any) -> Any:
    """The check as the search decides it (``proof_docs=0``): these tests pin down the grid of ``n``
    and ``rc``; proofs for every ``n`` and ``rc`` are tested in tests/checking/test_prove.py."""
    budget = options.pop("budget", Budget())
    return check_with_proofs(metric, oracle, budget=dataclasses.replace(budget, proof_docs=0), **options)

DEEPTH, CLOSETH = get("DeepTh"), get("CloseTh")
H8 = Budget(horizon=8)
RCS_TEXT = "{1/100, 1/20, 1/10}"


def test_the_grid_is_dense_to_32_then_doubles_to_the_horizon():
    assert threshold_grid(5) == (1, 2, 3, 4, 5)
    assert threshold_grid(63) == tuple(range(1, 33))
    assert threshold_grid(64) == (*range(1, 33), 64)
    assert threshold_grid(300) == (*range(1, 33), 64, 128, 256)


def test_the_grid_in_words():
    assert grid_text(threshold_grid(1024)) == "1..32, 64, 128, ..., 1024"
    assert grid_text(threshold_grid(512)) == "1..32, 64, 128, ..., 512"
    assert grid_text(threshold_grid(256)) == "1..32, 64, 128, 256"  # three doublings are listed
    assert grid_text((1,)) == "1"
    assert grid_text((1, 2, 3)) == "1..3"
    assert grid_text((2, 4)) == "2, 4"  # no dense start
    assert grid_text(()) == ""


def test_the_signs_in_words_are_run_length_coded():
    assert signs_text((1, 2, 3, 4), [-1, -1, 1, 1], "n") == "n=1..2: -, n=3..4: +"
    assert signs_text((1, 2, 4), [0, 1, -1], "m") == "m=1: 0, m=2: +, m=4: -"
    assert signs_text((1,), [1], "n") == "n=1: +"
    assert signs_text((1, 2, 64, 128), [1, 1, 1, 1], "n") == "n=1..128: +"
    assert signs_text((), [], "n") == ""  # no grid point, no run (and no error)


def test_a_window_too_short_for_n_1_is_not_applicable_and_says_why():
    result = check(geometric(2, cutoff=1), DEEPTH, mode="window")
    assert (result.constraint, result.verdict, result.mode, result.cases) == ("DeepTh", "n/a", "window", 0)
    assert result.metric == geometric(2, cutoff=1).name and result.params == ()
    assert result.note == "no n with 2n <= k = 1 in window mode"


def test_a_window_witness_names_the_grid_the_window_and_every_rc():
    # k = 8 in window mode: n = 1..4 (2n <= 8). D > 0 throughout: witness n = 1 for every rc.
    result = check(geometric(2, cutoff=8), DEEPTH, mode="window")
    assert result.verdict == "witness" and result.witness.value == "n = 1"
    assert result.witness.note == "for every rc tried" and result.witness.by_truncation is False
    assert result.witness.signs == "; ".join(f"rc = {rc}: n=1..4: +" for rc in ("1/100", "1/20", "1/10"))
    assert (result.cases, result.exact, result.tolerance) == (12, True, None)
    assert result.evidence == Evidence("exhaustive", f"n on the grid 1..4 (2n <= k = 8) for rc in {RCS_TEXT}",
                                       12, 0, True)
    # D(n) = rc (1/2 - 2^-n + 2^-2n): rc/4, 5rc/16, 25rc/64, 113rc/256.
    assert [rc for rc, _ in result.curve] == ["1/100", "1/20", "1/10"]
    rc, points = result.curve[0]
    assert [n for n, _ in points] == [1, 2, 3, 4]
    assert [d for _, d in points] == pytest.approx([0.01 / 4, 0.05 / 16, 0.25 / 64, 1.13 / 256])


def test_a_truncate_witness_names_the_grid_without_a_window():
    result = check(geometric(2, cutoff=8), DEEPTH, budget=H8)
    assert result.mode == "truncate" and result.witness.value == "n = 1"
    assert result.evidence.exhaustive_scope == f"n on the grid 1..8 for rc in {RCS_TEXT}"


def test_deepness_threshold_violation_is_at_the_end_of_the_grid_with_its_scores():
    result = check(uniform(), DEEPTH, budget=H8)
    assert (result.verdict, result.cases, result.note) == ("violated", 0, "fails for rc = 1/100")
    assert (result.exact, result.tolerance, result.witness, result.evidence) == (True, None, None, None)
    ce = result.counterexample
    # n = 8, rc = 1/100: Q(a_8) = 1/100 (one relevant), Q(b_8) = 8/100.
    assert (ce.score_a, ce.score_b) == pytest.approx((0.01, 0.08))
    # A gap of 7/100 is far above the screen: decided from the floats (decide_sign), though the
    # metric is exact-capable (the check's ``exact``).
    assert ce.relation == "Q(a) > Q(b)" and ce.decided == "float" and ce.context_a is None
    assert ce.note == "D(n) = Q(a) - Q(b) <= 0 at the end of the grid, n = 8"
    assert ce.extra == (("rc", "1/100"), ("n", "8"), ("signs", "n=1: 0, n=2..8: -"))
    assert len(ce.a) == len(ce.b) == 16 and ce.a[0] == "r1" and ce.b[8:] == tuple(f"r{i}" for i in range(1, 9))
    # The later rc are evaluated for the curve: D(n) = rc (1 - n), a decided tie exactly 0.
    assert [rc for rc, _ in result.curve] == ["1/100", "1/20", "1/10"]
    for rc, points in result.curve:
        assert [d for _, d in points] == pytest.approx([float(Fraction(rc)) * (1 - n) for n in range(1, 9)])
        assert points[0] == (1, 0.0)


def test_deepness_threshold_witness_is_the_start_of_the_final_positive_stretch():
    weights = {1: Fraction(1), 2: Fraction(1, 2), 3: Fraction(1)}
    metric = Positional("bump", lambda i: weights.get(i, Fraction(0)))
    result = check(metric, DEEPTH, budget=H8)
    # signs +, 0, + ... : the final stretch starts at n = 3.
    assert result.verdict == "witness" and result.witness.value == "n = 3"
    assert result.witness.signs.startswith("rc = 1/100: n=1: +, n=2: 0, n=3..8: +")


def test_the_witness_serves_every_rc_the_largest_n():
    bump = {1: Fraction(1), 2: Fraction(1, 2), 3: Fraction(1)}

    def per_rc(ranking, topic):
        # rc = 1/100: geometric weights (witness n = 1); the other rc: the bump (witness n = 3).
        rc = max((topic.r(d) for d in topic.documents), default=0)
        weight = (lambda i: Fraction(1, 2 ** i)) if rc == Fraction(1, 100) else (lambda i: bump.get(i, 0))
        return sum((weight(i) * topic.r(d) for i, d in enumerate(ranking, 1)), Fraction(0))
    result = check(wrap(per_rc), DEEPTH, budget=H8)
    assert result.verdict == "witness" and result.witness.value == "n = 3"
    assert result.witness.signs.startswith("rc = 1/100: n=1..8: +; rc = 1/20: n=1: +, n=2: 0")


def test_closeness_threshold_violation_is_the_closest_m():
    result = check(geometric(4), CLOSETH, budget=H8)
    assert result.verdict == "violated" and result.note == "fails for rc = 1/100"
    ce = result.counterexample
    assert ce.relation == "Q(b) > Q(a)" and dict(ce.extra)["m"] == "1"
    assert ce.note == "no grid m <= 8 gives Q(b) > Q(a); closest at m = 1"
    # m = 1, rc = 1/100: Q(a_1) = rc/4, Q(b_1) = rc/16.
    assert (ce.score_a, ce.score_b) == pytest.approx((0.01 / 4, 0.01 / 16))
    assert ce.extra == (("rc", "1/100"), ("m", "1"), ("signs", "m=1..8: +"))


def test_closeness_threshold_witness_is_the_smallest_m():
    result = check(uniform(), CLOSETH, budget=H8)
    # Q(b_m) - Q(a_m) = rc (m - 1): a tie at m = 1, b ahead from m = 2.
    assert result.verdict == "witness" and result.witness.value == "m = 2"
    assert result.evidence.exhaustive_scope == f"m on the grid 1..8 for rc in {RCS_TEXT}"
    assert result.cases == 8 * 3


def test_a_metric_raising_is_an_error_and_after_a_violation_only_ends_the_curve():
    def boom(ranking, topic):
        if len(ranking) > 4:
            raise ValueError("boom")
        return 0.0
    result = check(wrap(boom), DEEPTH, budget=H8)
    assert result.verdict == "error" and result.error.message == "ValueError: boom"
    assert len(result.error.ranking) == 6 and result.curve == () and result.exact is False  # n = 3

    def uniform_then_boom(ranking, topic):
        if Fraction(1, 20) in {topic.r(d) for d in topic.documents}:
            raise ValueError("boom")
        return sum((topic.r(d) for d in ranking), Fraction(0))
    result = check(wrap(uniform_then_boom), DEEPTH, budget=H8)
    # rc = 1/100 violates (uniform); rc = 1/20 raises at n = 1: the verdict stands, its curve ends.
    assert result.verdict == "violated" and result.note == "fails for rc = 1/100" and result.error is None
    assert [rc for rc, _ in result.curve] == ["1/100"]


@pytest.mark.parametrize("disjoint", [False, True])
def test_a_relative_metric_is_scored_in_the_fixed_context(disjoint):
    contexts = []

    def relative(ranking, topic, context=None):
        contexts.append(tuple(tuple(r) for r in context.rankings))
        return sum((topic.r(d) for d in ranking), Fraction(0))
    metric = wrap(relative, needs=Needs(context=True))
    result = check(metric, CLOSETH, budget=Budget(horizon=4), scope_changes={"context_disjoint": disjoint})
    assert result.note == "under a fixed context of other systems"
    if disjoint:  # the other system retrieves only o1, o2
        assert set(contexts) == {(("o1", "o2"),)}
    else:  # the relevant documents, last id first (at most five), then o1: for m = 3, r3 r2 r1 o1
        assert (("r3", "r2", "r1", "o1"),) in contexts and (("r1", "o1"),) in contexts


# -- what a violation records: how its tie was decided, its tolerance, its context ------------------

def test_a_tie_at_the_end_of_the_grid_is_decided_exactly():
    """P@2 in window mode keeps n = 1 only: a_1 = (r1, n1), b_1 = (n1, r1) both score 1/2, and that
    tie (inside the float screen) is decided on exact values: the counterexample says "exact"."""
    from axiometer.metrics import parse
    result = check(parse("P@2"), DEEPTH, mode="window", budget=H8)
    ce = result.counterexample
    assert result.verdict == "violated" and (ce.score_a, ce.score_b) == (0.5, 0.5)
    assert ce.decided == "exact" and result.exact is True and result.tolerance is None


@pytest.mark.parametrize("constraint", [DEEPTH, CLOSETH], ids=["DeepTh", "CloseTh"])
def test_a_float_metrics_violation_carries_the_tolerance(constraint):
    # A constant ties every pair: DeepTh's D(n) <= 0 at the grid's end, CloseTh's Q(b) > Q(a) never.
    from axiometer.metrics.decide import DEFAULT_TOLERANCE
    result = check(wrap(lambda ranking, topic: 0.0, name="zero"), constraint, budget=H8)
    assert result.verdict == "violated" and result.exact is False
    assert result.tolerance == DEFAULT_TOLERANCE and result.counterexample.decided == "float"


def test_a_relative_metrics_violation_records_the_context_it_was_scored_in():
    """w(i) = 4^-i never has Q(b_m) > Q(a_m); scored in the fixed context (the relevant documents
    last id first, then o1: for m = 1, the one other ranking (r1, o1)), which the counterexample
    keeps so the case can be scored again."""
    def discounted(ranking, topic, context=None):
        return sum((topic.r(d) / Fraction(4) ** i for i, d in enumerate(ranking, 1)), Fraction(0))
    result = check(wrap(discounted, needs=Needs(context=True)), CLOSETH, budget=Budget(horizon=4))
    assert result.verdict == "violated" and dict(result.counterexample.extra)["m"] == "1"
    assert result.counterexample.context_a == (("r1", "o1"),)


# -- a built-in raising, and the comparisons cached between DeepTh and CloseTh ------------------------

def test_a_built_in_raising_on_a_pair_is_an_error_naming_the_pair_and_its_context():
    """FujiiU's default policy refuses an undefined log: at n = 2 the fixed context (r2, r1, o1)
    retrieves r2, which a_2 = (r1, n1, n2, n3) does not. The error names a_2, its topic and the context."""
    from axiometer.metrics import parse
    from axiometer.results import record_topic
    from axiometer.core import Topic
    result = check(parse("FujiiU"), DEEPTH, budget=H8)
    assert result.verdict == "error" and result.exact is True
    assert result.constraint == "DeepTh" and dict(result.params) == {"policy": "error", "epsilon": 1e-06}
    error = result.error
    assert error.ranking == ("r1", "n1", "n2", "n3")
    assert error.topic == record_topic(Topic.single({"r1": Fraction(1, 100), "r2": Fraction(1, 100)}))
    assert error.message.startswith("UndefinedScore: FujiiU: log(P(d|x)/P(d)) is undefined for relevant "
                                    "document 'r2'")
    assert error.message.endswith("[context: (r2, r1, o1)]")


def test_a_window_with_no_room_names_the_metrics_parameters():
    from axiometer.metrics import parse
    result = check(parse("RBP(p=0.5)@1"), DEEPTH, mode="window", budget=H8)
    assert result.verdict == "n/a" and dict(result.params) == {"p": 0.5}


def test_cached_comparisons_are_per_context():
    """NRG over P@5 is scored in a fixed context: the relevant documents then o1, or (disjoint) a
    system retrieving o1, o2 only. In the first, every relevant document of b_m within the top 5 was
    seen already (m <= 5 ties: violated at m = 1); in the disjoint one b_m's relevant documents are
    new gain, so Q(b_m) > Q(a_m) at m = 2 and 3 (the witness m = 2). CloseTh in one, then the other: each
    decided in its own context, not from the comparisons cached for the other."""
    from axiometer.metrics import parse
    ordinary = check(parse("NRG(base='P@5')"), CLOSETH, budget=H8)
    disjoint = check(parse("NRG(base='P@5')"), CLOSETH, budget=H8, scope_changes={"context_disjoint": True})
    assert (ordinary.verdict, disjoint.verdict) == ("violated", "witness")
    assert ordinary.counterexample.context_a == (("r1", "o1"),)


def test_only_a_registered_built_in_has_its_comparisons_cached():
    from axiometer.axioms.constraints.threshold import _cache_key
    from axiometer.metrics import parse
    registered = parse("P@10")

    class MyPrecision(type(registered)):
        """A metric author's subclass of a built-in: its scores may depend on more than its name."""

    build = DEEPTH.threshold.build
    assert _cache_key(registered, build, Fraction(1, 100), 1e-9, False, False) is not None
    assert _cache_key(MyPrecision(10), build, Fraction(1, 100), 1e-9, False, False) is None


def tied_in_floats(ranking, topic):
    """Weights (0.7, 0, 0.1, 0.6): D(2) = rc (0.7 - 0.1 - 0.6) = 0, but the floats of 0.1 rc + 0.6 rc
    and 0.7 rc differ in their last bit for every rc tried."""
    weights = (0.7, 0.0, 0.1, 0.6)
    return sum(float(topic.r(d)) * w for d, w in zip(ranking, weights))


def test_a_tie_decided_within_the_tolerance_is_exactly_zero_on_the_curve():
    result = check(wrap(tied_in_floats), DEEPTH, budget=H8)
    for rc, points in result.curve:
        rc_float = float(Fraction(rc))
        assert 0.1 * rc_float + 0.6 * rc_float != 0.7 * rc_float  # the floats do differ
        assert dict(points)[2] == 0.0
    assert "n=2: 0" in result.witness.signs


@pytest.mark.parametrize("name, constraint, found, by_truncation", [
    ("nDCG@8", "CloseTh", "m = 3", False),   # 2m = 6 <= k = 8: the pair fits inside the cutoff
    ("nDCG@6", "CloseTh", "m = 3", False),   # 2m = 6 = k: it just fits
    ("nDCG@10", "DeepTh", "n = 7", True),    # 2n = 14 > k = 10: b_7's last relevant documents are cut
])
def test_a_truncate_witness_says_whether_the_cutoff_cut_its_pair(name, constraint, found, by_truncation):
    from axiometer.metrics import parse
    result = check(parse(name), get(constraint), mode="truncate", budget=Budget(horizon=16))
    assert (result.witness.value, result.witness.by_truncation) == (found, by_truncation)


# -- the window grid's n = k/2 edge --------------------------------------------

def test_precision_at_2_violates_deepth_in_window_mode_through_the_public_api():
    # Window mode keeps the n with 2n <= k: for k = 2 only n = 1 (a = r1 n1, b = n1 r1),
    # where P@2 scores both 1/2, so D(1) = 0 and DeepTh is violated. Losing n = k/2
    # leaves no n at all, and the verdict turns into n/a.
    report = axiometer.check("P@2", ["DeepTh"], mode="window", budget="quick")
    assert report.verdicts == {"DeepTh": "violated"}
    (only,) = report.cell("DeepTh").checks
    assert (only.mode, only.verdict) == ("window", "violated")
    assert dict(only.counterexample.extra)["n"] == "1"


@pytest.mark.parametrize("k", [2, 3, 4, 5, 10, 11, 64, 65])
def test_the_window_grid_is_every_n_with_2n_at_most_k(k):
    # The grid actually walked is the one the curve records (one point per n, per rc):
    # every grid n with 2n <= k, so k/2 itself when k is even.
    expected = [n for n in threshold_grid(1024) if 2 * n <= k]
    assert expected[-1] == k // 2 or k // 2 > 32  # the dense part of the grid holds k/2
    result = check(parse(f"P@{k}"), DEEPTH, mode="window")
    assert result.curve, result
    for _, points in result.curve:
        assert [n for n, _ in points] == expected


def test_threshold_grid_is_dense_to_32_then_doubles():
    # definitions §3: 1..32, then 64, 128, ... up to the horizon (so every k/2 <= 32 is on it).
    assert threshold_grid(1) == (1,)
    assert threshold_grid(2) == (1, 2)
    assert threshold_grid(32) == tuple(range(1, 33))
    assert threshold_grid(100) == (*range(1, 33), 64)
    assert threshold_grid(1024) == (*range(1, 33), 64, 128, 256, 512, 1024)
