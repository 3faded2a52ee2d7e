"""What the intrinsic classification decides exactly and what on floats (issue 14): a float-only
result states its tolerance and is never called exact; relabelling equally judged documents sends
near ties to the exact evaluation; the exact budget counts evaluations and says where it ran out; the
sampled dQ checks run exactly and on floats. Each expected value is worked out by hand in a comment.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
import sympy

from axiometer.core import Topic
from axiometer.generators.domains import outputs, rankings, sets, users
from axiometer.intrinsic import classify as intrinsic
from axiometer.intrinsic.classify import classify
from axiometer.metrics import parse, wrap
from axiometer.metrics.set_based import CoverageRatio, SetPrecision
from tests.intrinsic import InfBatchRBP, TOPIC6, labels, table_metric


# -- a float-only result and the word "exactly" ------------------------------------------

_THREE = outputs([([d], TOPIC6) for d in "abc"], name="three")


def test_a_float_only_result_states_its_tolerance():
    # Gaps 1 and 1.0001 (second difference 1e-4, far beyond 1e-9 * 2.0001): not interval, and
    # no two values within the tolerance. The result states the tolerance and the float-only note.
    result = classify(table_metric({"a": 0.0, "b": 1.0, "c": 2.0001}), _THREE)
    assert result.category == "ordinal/metric"
    assert result.tolerance == 1e-9
    assert result.note == "float-only: ties and equal gaps decided within tolerance 1e-09"
    assert result.property("interval").note == "three consecutive distinct values have unequal gaps"
    assert [r.score for r in result.property("interval").counterexample] == [0.0, 1.0, 2.0001]


def test_a_float_only_result_is_not_marked_exact():
    # The same float-only result: its note says "decided within tolerance 1e-09" and
    # IntrinsicResult.tolerance is "None when decisions were exact"; a float-only metric has no
    # exact values at all, so the result cannot say exact == True (the report prints every
    # verdict as "(decided exactly)" next to "decisions: tolerance 1e-09").
    result = classify(table_metric({"a": 0.0, "b": 1.0, "c": 2.0001}), _THREE)
    assert result.tolerance == 1e-9 and "within tolerance 1e-09" in result.note
    assert result.exact is False


@pytest.mark.parametrize("case", ["float-only", "budget 0"])
def test_a_pseudometric_verdict_checked_on_floats_is_not_marked_exact(case):
    # The note says "(0 exactly, 6 on floats within 1e-09)" / "(0 exactly, 8 on floats ...)":
    # the triangle inequality was decided within a float band, not exactly.
    if case == "float-only":
        result = classify(table_metric({"a": 0.0, "b": 1.0, "c": 2.0001}), _THREE)
    else:
        result = classify(parse("P@2"), rankings(2), max_exact=0)
    pseudo = result.property("pseudometric")
    assert "(0 exactly, " in pseudo.note and " on floats within 1e-09)" in pseudo.note
    assert pseudo.exact is False


# -- relabelling equally judged documents --------------------------------------------------

def _tilted(eps: float):
    """P@3 on the float side, plus ``eps`` when the top document is the one named 1#1."""
    return wrap(lambda r, t: sum(t.rel(d) for d in r) / 3 + (eps if r and r[0] == "1#1" else 0.0),
                name="tilt")


def _p3(r, t):
    return F(sum(t.rel(d) for d in r), 3)


def test_relabelling_near_ties_go_to_the_exact_evaluation():
    # rankings(3) writes (1, 0, 0) as [1#1, 0#1, 0#2]; relabelled, [1#3, 0#3, 0#2]. The float
    # scores differ by 1e-12 (within the screen); the exact values (1/3 both) decide: invariant.
    result = classify(_tilted(1e-12), rankings(3), exact=_p3)
    pseudo = result.property("pseudometric")
    assert pseudo.holds and pseudo.exact and result.exact
    # With an exact evaluation that sees the id too, the same near-tie is a real difference:
    # 1/3 + 10^-12 = (10^12 + 3) / (3 * 10^12) against 1/3, at (1, 0, 0), output 4.
    result = classify(_tilted(1e-12), rankings(3),
                      exact=lambda r, t: _p3(r, t) + (F(1, 10 ** 12) if r[0] == "1#1" else 0))
    assert result.category == "not a pseudometric"
    original, relabelled = result.property("pseudometric").counterexample
    assert (original.index, original.ranking, original.exact) == (
        4, ("1#1", "0#1", "0#2"), "1000000000003/3000000000000")
    assert (relabelled.index, relabelled.ranking) == (4, ("1#3", "0#3", "0#2"))
    assert result.note == ("tilt scores two rankings of the same grade sequence (1, 0, 0) differently: "
                           "relabelling documents of equal judgment changes it")


def test_relabelling_near_ties_of_a_float_only_metric_are_within_the_tolerance():
    # Float-only: the 1e-12 difference is a tie within 1e-9, and the verdict says not exact.
    result = classify(_tilted(1e-12), rankings(3))
    pseudo = result.property("pseudometric")
    assert pseudo.holds and not pseudo.exact and not result.exact
    # A difference of 1e-3 is beyond it: not a pseudometric, with both rankings and scores
    # (1/3 + 1e-3 written [1#1, ...]; 1/3 relabelled).
    result = classify(_tilted(1e-3), rankings(3))
    assert result.category == "not a pseudometric"
    original, relabelled = result.property("pseudometric").counterexample
    assert (original.ranking, original.score) == (("1#1", "0#1", "0#2"), 1 / 3 + 1e-3)
    assert (relabelled.ranking, relabelled.score) == (("1#3", "0#3", "0#2"), 1 / 3)


def test_a_metric_that_fails_on_a_relabelled_ranking_names_it():
    # Only a relabelled ranking starts with 1#3: the first sampled one is (1, 0, 0)'s.
    def dislikes_1_3(ranking, topic):
        if ranking and ranking[0] == "1#3":
            raise ValueError("boom")
        return 0.0

    result = classify(wrap(dislikes_1_3, name="picky"), rankings(3))
    assert result.category == "not a pseudometric"
    assert result.note.startswith("picky on ['1#3', '0#3', '0#2']: ") and result.note.endswith("boom")
    (record,) = result.property("pseudometric").counterexample
    assert (record.index, record.label, record.ranking) == (4, "(1, 0, 0)", ("1#3", "0#3", "0#2"))
    assert math.isnan(record.score)


# -- the exact budget and the screen of an exact metric ----------------------------------

def _exactly(values: dict[str, object]):
    return lambda r, t: F(values[r[0]])


def test_the_budget_counts_evaluations_and_the_result_says_where_it_ran_out():
    # [a] 1, [b] 1, [c] 2, [d] 2: two near-tie runs of two outputs. With max_exact = 2 the first
    # run ([a], [b]) is decided exactly (1 = 1), the second on floats: the metric verdict is not
    # exact, but its counterexample, the first pair, was decided exactly and says so.
    values = {"a": 1, "b": 1, "c": 2, "d": 2}
    four = outputs([([d], TOPIC6) for d in "abcd"], name="four")
    result = classify(table_metric(values), four, exact=_exactly(values), max_exact=2)
    metric = result.property("metric")
    assert not metric.holds and not metric.exact and not result.exact
    assert [r.exact for r in metric.counterexample] == ["1", "1"]
    assert metric.note == ("[a] and [b] score the same (exactly); 2 values shared by several outputs, "
                           "the largest by 2; 2 distinct values on 4 outputs")
    assert result.note == "exact budget of 2 evaluations reached: some near-ties settled within 1e-09"
    assert result.tolerance is None
    # With no budget at all, the pair is one within the screen.
    none = classify(table_metric(values), four, exact=_exactly(values), max_exact=0)
    assert "[a] and [b] score the same (within tolerance 1e-09)" in none.property("metric").note
    assert [r.exact for r in none.property("metric").counterexample] == [None, None]


def test_equal_gaps_need_three_exact_evaluations():
    # 0, 1, 2: one second difference, 2 - 2 * 1 + 0 = 0, decided exactly with 3 evaluations.
    values = {"a": 0, "b": 1, "c": 2}
    exact = classify(table_metric(values), _THREE, exact=_exactly(values), max_exact=3)
    assert exact.category == "interval/metric" and exact.property("interval").exact and exact.exact
    assert exact.property("interval").note == "the 3 distinct values are equally spaced"
    # With 2 it is settled within the screen, and said so.
    short = classify(table_metric(values), _THREE, exact=_exactly(values), max_exact=2)
    interval = short.property("interval")
    assert interval.holds and not interval.exact and not short.exact
    assert interval.note == "the 3 distinct values are equally spaced (within tolerance 1e-09)"
    assert short.note == "exact budget of 2 evaluations reached: some near-ties settled within 1e-09"


def test_a_tolerance_widens_an_exact_metrics_screen_but_never_narrows_it():
    # An exact metric's screen is max(1e-9, tolerance); no tolerance is stated (decisions exact).
    # With no exact budget the sampled triples are checked on floats within that screen.
    wide = classify(parse("P@2"), rankings(2), max_exact=0, tolerance=1e-3)
    assert wide.property("pseudometric").note.endswith("(0 exactly, 8 on floats within 0.001)")
    assert wide.tolerance is None
    assert wide.note == "exact budget of 0 evaluations reached: some near-ties settled within 0.001"
    narrow = classify(parse("P@2"), rankings(2), max_exact=0, tolerance=1e-12)
    assert narrow.property("pseudometric").note.endswith("(0 exactly, 8 on floats within 1e-09)")
    # [a] 0, [b] 1, [c] 2 + 1e-6: the gaps differ by 1e-6, beyond 1e-9 (exact: not interval),
    # within a screen of 1e-3, which sends them to the exact comparison: still not interval.
    values = {"a": F(0), "b": F(1), "c": 2 + F(1, 10 ** 6)}
    for tolerance in (None, 1e-3):
        result = classify(table_metric(values), _THREE, exact=_exactly(values), tolerance=tolerance)
        assert result.category == "ordinal/metric" and result.property("interval").exact
    # A float-only metric's tolerance is its tie band, stated: within 1e-3 the gaps are equal.
    assert classify(table_metric(values), _THREE, tolerance=1e-3).category == "interval/metric"
    assert classify(table_metric(values), _THREE, tolerance=1e-3).tolerance == 1e-3


def test_the_distinct_values_are_listed_up_to_2000():
    # The number-line picture lists up to VALUES_KEPT = 2000 distinct values: 2000 outputs scoring
    # 0 .. 1999 are all listed (each once); with a 2001st distinct value none is.
    docs = [f"d{i}" for i in range(2001)]
    topic = Topic.single({d: 1 for d in docs})
    values = {d: i for i, d in enumerate(docs)}
    kept = classify(table_metric(values), outputs([([d], topic) for d in docs[:2000]], name="2000"))
    assert kept.distinct == 2000 and kept.values == tuple((float(i), 1) for i in range(2000))
    dropped = classify(table_metric(values), outputs([([d], topic) for d in docs], name="2001"))
    assert dropped.distinct == 2001 and dropped.values == ()
    assert dropped.category == "interval/metric"  # 0 .. 2000, gaps of 1


def test_a_failure_keeps_the_mode_of_the_metric():
    # A float-only metric that is not a pseudometric still states its tolerance; an exact one none.
    def top_nan(ranking, topic):
        return math.nan if topic.rel(ranking[0]) else 0.0

    result = classify(wrap(top_nan, name="nan"), rankings(2))
    assert result.category == "not a pseudometric" and result.tolerance == 1e-9
    assert (result.size, result.distinct, result.values) == (4, None, ())
    assert classify(InfBatchRBP(p=0.5), rankings(3)).tolerance is None


def test_set_and_user_measures_are_scored_vectorised_then_sampled_twice():
    # The whole domain is scored by score_counts; score() runs only in the determinism check,
    # twice on each sampled output: 6 outputs each here, so 12 calls, not 6 more.
    class CountedPrecision(SetPrecision):
        calls = 0

        def score(self, c):
            CountedPrecision.calls += 1
            return super().score(c)

    class CountedCoverage(CoverageRatio):
        calls = 0

        def score(self, c):
            CountedCoverage.calls += 1
            return super().score(c)

    assert classify(CountedPrecision(), sets(20, 5, size=8)).category == "interval/metric"
    assert CountedPrecision.calls == 2 * 6
    # users(2, 1): Rk / 2 for Rk = 0, 1, 2, each for Ru = 0, 1 (the first tie: Ru only differs).
    result = classify(CountedCoverage(), users(2, 1))
    assert CountedCoverage.calls == 2 * 6
    assert result.values == ((0.0, 2), (0.5, 2), (1.0, 2))


# -- the sampled dQ checks, exactly and on floats ----------------------------------------

def test_a_broken_triangle_names_its_triple_exactly_and_on_floats(monkeypatch):
    # dQ replaced by the squared difference (not a pseudometric's dQ). The triples start with
    # (lowest, each, highest) by score: (lowest, lowest, highest) passes (0 + 1 >= 1), the next,
    # values 0, 1/2, 1, gives 1 > 1/4 + 1/4.
    monkeypatch.setattr(intrinsic, "_dq", lambda a, b: (a - b) ** 2)
    # P@2 on binary length 2: (0, 0) 0, (0, 1) 1/2, (1, 0) 1/2, (1, 1) 1; ties by index.
    result = classify(parse("P@2"), rankings(2))
    assert result.note == ("P@2: dQ(x, z) > dQ(x, y) + dQ(y, z) for x = (0, 0), y = (0, 1), z = (1, 1)")
    assert [r.exact for r in result.property("pseudometric").counterexample] == ["0", "1/2", "1"]
    floats = classify(table_metric({"a": 0.0, "b": 0.5, "c": 1.0}), _THREE)
    assert floats.note == "table: dQ(x, z) > dQ(x, y) + dQ(y, z) for x = [a], y = [b], z = [c]"
    assert [r.exact for r in floats.property("pseudometric").counterexample] == [None, None, None]


def test_an_asymmetric_dq_is_found_exactly_and_on_floats(monkeypatch):
    # dQ(x, y) = Q(x) - Q(y): (lowest, lowest, highest) is symmetric (0 = 0); the next triple
    # has dQ(x, y) = -1/2 and dQ(y, x) = 1/2.
    monkeypatch.setattr(intrinsic, "_dq", lambda a, b: a - b)
    result = classify(parse("P@2"), rankings(2))
    assert result.note == "P@2: dQ(x, y) != dQ(y, x) for x = (0, 0), y = (0, 1), z = (1, 1)"
    floats = classify(table_metric({"a": 0.0, "b": 0.5, "c": 1.0}), _THREE)
    assert floats.note == "table: dQ(x, y) != dQ(y, x) for x = [a], y = [b], z = [c]"


def test_the_float_dq_band_is_relative_to_the_scores(monkeypatch):
    # dQ off by 1e-4 one way round: within the band 1e-9 * max(1, |Q|) = 3e-3 at scores 1e6,
    # 2e6, 3e6 (a pseudometric within the tolerance), beyond 1e-9 at scores 0, 1/2, 1.
    monkeypatch.setattr(intrinsic, "_dq", lambda a, b: abs(a - b) + (1e-4 if a < b else 0.0))
    big = classify(table_metric({"a": 1e6, "b": 2e6, "c": 3e6}), _THREE)
    assert big.property("pseudometric").holds
    small = classify(table_metric({"a": 0.0, "b": 0.5, "c": 1.0}), _THREE)
    assert small.category == "not a pseudometric" and "dQ(x, y) != dQ(y, x)" in small.note


def test_the_sampled_checks_share_the_exact_budget():
    # P@2 on binary length 2: the determinism check evaluates all 4 outputs exactly once more
    # (they are the first quarter and more); the 8 triples are exact while the cache (4) fits the
    # budget, min(max_exact, 64): with max_exact = 4 all 8 are, with 3 none is.
    four = classify(parse("P@2"), rankings(2), max_exact=4).property("pseudometric").note
    assert four.endswith("on 8 sampled triples (8 exactly)")
    three = classify(parse("P@2"), rankings(2), max_exact=3).property("pseudometric").note
    assert three.endswith("on 8 sampled triples (0 exactly, 8 on floats within 1e-09)")


def test_a_near_tie_run_is_split_and_ordered_by_the_exact_values():
    # The floats are all 1.0 (one run of near-ties); the exact values are [a] 1 + 2e-12, [b] 1,
    # [c] 1 + 1e-12, [d] 1. Exactly: {[b], [d]} = 1 < {[c]} < {[a]}: 3 distinct values, the tie
    # [b] = [d]; in that order the gaps are 1e-12 and 1e-12: equally spaced, exactly.
    exact = {"a": 1 + F(2, 10 ** 12), "b": F(1), "c": 1 + F(1, 10 ** 12), "d": F(1)}
    four = outputs([([d], TOPIC6) for d in "abcd"], name="four")
    result = classify(table_metric({d: 1.0 for d in "abcd"}), four, exact=_exactly(exact))
    assert result.distinct == 3 and result.values == ((1.0, 2), (1.0, 1), (1.0, 1))
    metric = result.property("metric")
    assert [r.index for r in metric.counterexample] == [1, 3] and metric.exact
    assert [r.index for r in result.largest_class] == [1, 3]
    interval = result.property("interval")
    assert interval.holds and interval.exact and result.category == "ordinal/pseudometric"


def test_a_counts_measure_without_a_spec_is_named_by_its_name():
    # A plain measure of contingency counts (no spec, no exact form): TP / 2 on sets of size 8,
    # TP = 0..5: linear, interval, decided on floats within the default tolerance.
    class Half:
        name = "half"

        def score(self, c):
            return c.tp / 2

    result = classify(Half(), sets(20, 5, size=8))
    assert result.metric == "half" and result.category == "interval/metric" and result.tolerance == 1e-9
    assert result.values == tuple((tp / 2, 1) for tp in range(6))


def test_an_empty_domain_is_vacuously_interval():
    # No outputs: nothing to tie, no gaps; resolution undefined (0 / 0), no largest class. A
    # relative metric is not given a context (there is no topic to build it from).
    result = classify(parse("P@1"), outputs([], name="none"))
    assert (result.category, result.size, result.distinct, result.resolution) == ("interval/metric", 0, 0, None)
    assert (result.largest_class_size, result.largest_class, result.values) == (0, (), ())
    assert result.property("pseudometric").note == (
        "finite on every output; deterministic on 0 sampled outputs (each scored twice, identical "
        "values); dQ = |Q(x) - Q(y)| symmetric and satisfying the triangle inequality on 0 sampled "
        "triples (0 exactly)")
    assert result.property("metric").note == "injective: 0 distinct values on 0 outputs"
    relative = classify(parse("RareP(alpha=0.5)@3"), outputs([], name="none"))
    assert relative.metric == "RareP(alpha=0.5)@3" and relative.category == "interval/metric"


def test_outputs_of_a_float_near_tie_are_listed_in_domain_order():
    # Float-only: [a] 1 + 1e-12 and [b] 1 are one value within 1e-9 (sorted by score, [b] comes
    # first; the class lists domain order, [a] then [b]). Outputs given by the user are not
    # relabelled: the pseudometric note has no relabelling clause.
    result = classify(table_metric({"a": 1 + 1e-12, "b": 1.0}), outputs([([d], TOPIC6) for d in "ab"], name="ab"))
    assert labels(result.property("metric").counterexample) == ["[a]", "[b]"]
    assert [r.index for r in result.largest_class] == [0, 1]
    assert result.property("pseudometric").note.startswith("finite on every output; deterministic on 2 ")


def test_a_relabelling_difference_just_beyond_the_tolerance_is_a_difference():
    # Scores near 1/3: the band is 1e-9 * max(1, |Q|) = 1e-9; a tilt of 1.5e-9 is beyond it.
    result = classify(_tilted(1.5e-9), rankings(3))
    assert result.category == "not a pseudometric" and "relabelling documents" in result.note


def test_exact_ties_between_a_fraction_and_an_unsimplified_sympy_value():
    # With G = (sqrt(5) - 1)/2, G^2 + G = 1 but sympy keeps it unsimplified (== 1 is False): the
    # tie has to be proved (exact_sign), in either order of the two kinds of value. Floats put
    # [b] (1) before [a] (G^2 + G) and [d] (3 (G^2 + G)) before [c] (3).
    golden = (sympy.sqrt(5) - 1) / 2
    assert (golden ** 2 + golden == 1) is False
    exact = {"a": golden ** 2 + golden, "b": F(1), "c": F(3), "d": 3 * (golden ** 2 + golden)}
    floats = {"a": 1.0 + 1e-15, "b": 1.0, "c": 3.0, "d": 3.0 - 1e-15}
    four = outputs([([d], TOPIC6) for d in "abcd"], name="four")
    result = classify(table_metric(floats), four, exact=lambda r, t: exact[r[0]])
    # Each value is shown as the float of its class's first output in domain order: [a], [c].
    assert result.distinct == 2 and result.values == ((1.0 + 1e-15, 2), (3.0, 2))
    metric = result.property("metric")
    assert labels(metric.counterexample) == ["[a]", "[b]"] and metric.exact
    assert "2 values shared by several outputs" in metric.note
