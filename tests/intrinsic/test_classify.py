"""Giner's intrinsic classification (definitions §4) on exact expectations.

Every expected value is computed by hand in a comment (or is one of the
known facts of definitions §4); nothing is copied from the classifier's own output.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
import pytest
import sympy

from axiometer.core import Topic
from axiometer.generators.domains import outputs, rankings, sets, users
from axiometer.intrinsic import classify as intrinsic
from axiometer.intrinsic.classify import classify, score_domain
from axiometer.metrics import BuiltinMetric, Needs, RankingBatch, is_exact_capable, parse, wrap
from axiometer.metrics.decide import DEFAULT_TOLERANCE
from axiometer.metrics.rbp import RBP
from axiometer.metrics.set_based import CoverageRatio, set_measure
from tests.intrinsic import SIX, TOPIC6, labels, table_metric


@pytest.mark.parametrize("n", [1, 3, 5])
def test_rbp_half_is_interval_on_binary_rankings(n):
    # RBP(1/2) = 1/2 sum_i 2^-(i-1) b_i = sum_i b_i 2^-i: the binary fraction 0.b1b2..bn,
    # i.e. every j / 2^n for j = 0 .. 2^n - 1, once each: injective and equally spaced.
    result = classify(RBP(p=0.5), rankings(n))
    assert result.category == "interval/metric"
    assert result.distinct == 2 ** n and result.resolution == 1.0
    assert result.exact and result.tolerance is None
    assert all(p.holds and p.exact for p in result.properties)
    assert result.domain == f"rankings(n={n}, grades={{0,1}}, lengths=exact, R={n})"


def test_rbp_08_is_an_ordinal_metric_on_binary_length_3():
    # p = 4/5: RBP = 1/5 (b1 + 4/5 b2 + 16/25 b3) = (25 b1 + 20 b2 + 16 b3) / 125.
    # The eight numerators 0, 16, 20, 36, 25, 41, 45, 61 are distinct: a metric.
    # Sorted: 0, 16, 20, ... - gaps 16 and 4 differ, so not interval; the first
    # three values are (0,0,0), (0,0,1), (0,1,0).
    result = classify(RBP(p=0.8), rankings(3))
    assert result.category == "ordinal/metric" and result.distinct == 8
    interval = result.property("interval")
    assert not interval.holds and interval.exact
    assert labels(interval.counterexample) == ["(0, 0, 0)", "(0, 0, 1)", "(0, 1, 0)"]
    assert [r.score for r in interval.counterexample] == pytest.approx([0, 16 / 125, 20 / 125], abs=1e-15)


GOLDEN = (sympy.sqrt(5) - 1) / 2


def rbp_golden_exact(ranking: Sequence[str], topic: Topic) -> Any:
    """RBP with the symbolic p = (sqrt 5 - 1)/2: (1 - p) sum_i p^(i-1) r(d_i)."""
    total = sympy.Integer(0)
    for i, d in enumerate(ranking):
        r = Fraction(topic.r(d))
        total += GOLDEN ** i * sympy.Rational(r.numerator, r.denominator)
    return (1 - GOLDEN) * total


def test_rbp_golden_ratio_ties_exactly_through_sympy():
    # (1,0,0) scores (1-p), (0,1,1) scores (1-p)(p + p^2); p^2 + p = 1 at p = (sqrt5 - 1)/2.
    # The built-in RBP reads the float p as the rational 0.6180339887498949, where
    # the two differ, so the exact tie needs the symbolic evaluation passed as `exact`.
    p = (math.sqrt(5) - 1) / 2
    result = classify(RBP(p=p), rankings(3), exact=rbp_golden_exact)
    assert result.category == "ordinal/pseudometric"
    verdict = result.property("metric")
    assert not verdict.holds and verdict.exact
    assert labels(verdict.counterexample) == ["(0, 1, 1)", "(1, 0, 0)"]
    assert "exactly" in verdict.note
    # Only that pair ties among 8 outputs: 7 distinct values.
    assert result.distinct == 7 and result.largest_class_size == 2
    # With the rational reading of the float p there is no tie: the screen sent the
    # pair to exact evaluation and the fractions differ.
    assert classify(RBP(p=p), rankings(3)).property("metric").holds


def test_ap_with_R_fixed_is_not_injective():
    # AP on binary n = 4, R = 4: (0,1,0,1) = (1/2 + 2/4) / 4 = 1/4 and (1,0,0,0) = 1/4.
    # Listing all 16 (see definitions §4) gives no other tie: 15 distinct values.
    result = classify(parse("AP"), rankings(4, R=4))
    assert result.category == "ordinal/pseudometric"
    verdict = result.property("metric")
    assert labels(verdict.counterexample) == ["(0, 1, 0, 1)", "(1, 0, 0, 0)"]
    assert [r.exact for r in verdict.counterexample] == ["1/4", "1/4"]
    assert result.distinct == 15 and result.resolution == 15 / 16
    assert result.largest_class_size == 2 and result.exact


def test_ndcg_binary_length_2():
    # R = 2, ideal DCG = 1 + 1/L with L = log2 3. Values: (0,0) 0, (0,1) 1/(L+1),
    # (1,0) L/(L+1), (1,1) 1: distinct. Gaps 1/(L+1) and (L-1)/(L+1) differ (L != 2).
    result = classify(parse("nDCG"), rankings(2))
    assert result.category == "ordinal/metric" and result.distinct == 4
    assert labels(result.property("interval").counterexample) == ["(0, 0)", "(0, 1)", "(1, 0)"]


def test_ndcg_graded_ties_are_proved_symbolically():
    # Grades {0, 1/2, 1}, n = 3: DCG = a + b / log2 3 + c / 2. With the irrational
    # 1/log2 3, ties need equal b and equal a + c/2, which happens for (a, c) =
    # (0, 1) ~ (1/2, 0) and (1/2, 1) ~ (1, 0): two tied pairs per b, 6 in all, so
    # 27 - 6 = 21 distinct values. The first pair in domain order: (0,0,1) ~ (1/2,0,0).
    result = classify(parse("nDCG"), rankings(3, grades=(0, Fraction(1, 2), 1)))
    verdict = result.property("metric")
    assert not verdict.holds and verdict.exact
    assert labels(verdict.counterexample) == ["(0, 0, 1)", "(1/2, 0, 0)"]
    assert result.distinct == 21 and result.largest_class_size == 2


def test_float_only_metric_reports_its_tolerance():
    # Position weights 0.1, 0.2, 0.3: (1,1,0) = 0.1 + 0.2 = 0.30000000000000004 in float64,
    # (0,0,1) = 0.3. Within the tolerance they are one value; the result says so.
    def tenths(ranking, topic):
        return sum(w for w, d in zip((0.1, 0.2, 0.3), ranking) if topic.rel(d))

    result = classify(wrap(tenths), rankings(3))
    assert result.tolerance == DEFAULT_TOLERANCE and not result.exact
    verdict = result.property("metric")
    assert not verdict.holds and not verdict.exact
    assert labels(verdict.counterexample) == ["(0, 0, 1)", "(1, 1, 0)"]
    assert "tolerance" in verdict.note and "tolerance" in result.note

    # An explicit tolerance is the one stated; with 0 the rounding difference separates them.
    strict = classify(wrap(tenths), rankings(3), tolerance=0.0)
    assert strict.tolerance == 0.0 and strict.property("metric").holds


def test_a_metric_with_nan_is_not_a_pseudometric():
    # NaN whenever the top document is relevant: the first such output is (1, 0, 0), index 4.
    def top_nan(ranking, topic):
        return math.nan if ranking and topic.rel(ranking[0]) else 0.0

    result = classify(wrap(top_nan), rankings(3))
    assert result.category == "not a pseudometric"
    verdict = result.property("pseudometric")
    assert not verdict.holds
    assert labels(verdict.counterexample) == ["(1, 0, 0)"]
    assert verdict.counterexample[0].ranking == ("1#1", "0#1", "0#2")
    assert "(1, 0, 0)" in result.note


class NanBatchRBP(RBP):
    """RBP whose batched path returns inf when the second document is relevant."""

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        scores = super().score_batch(batch)
        return np.where(batch.single[:, 1] > 0, np.inf, scores)


def test_a_non_finite_batched_score_names_its_input():
    # First output with a relevant second document: (0, 1, 0), index 2.
    result = classify(NanBatchRBP(p=0.5), rankings(3))
    assert result.category == "not a pseudometric"
    assert labels(result.property("pseudometric").counterexample) == ["(0, 1, 0)"]
    assert "inf" in result.note


def test_a_metric_that_tells_equally_judged_documents_apart_is_not_a_pseudometric():
    # Scores 1 only for the document named "1#1": (1,0,0) as [1#1, ...] scores 1, but
    # the same grade sequence with the relevant documents renumbered ([1#3, ...]) scores 0.
    def likes_one_document(ranking, topic):
        return float(bool(ranking) and ranking[0] == "1#1")

    result = classify(wrap(likes_one_document), rankings(3))
    assert result.category == "not a pseudometric"
    a, b = result.property("pseudometric").counterexample
    assert a.label == b.label and a.ranking != b.ranking and {a.score, b.score} == {0.0, 1.0}


def test_exact_budget_is_reported():
    # With no exact evaluations allowed, AP's 1/4 tie is settled on floats and marked so.
    result = classify(parse("AP"), rankings(4), max_exact=0)
    assert not result.property("metric").holds and not result.exact
    assert "budget" in result.note


def test_user_outputs_domain_and_constant_metric():
    # P@1 on three outputs of one topic: [a] = 1, [b] = 0, [a, b] = 1: not injective,
    # the pair is the first and third output, in the order given.
    topic = Topic.single({"a": 1, "b": 0})
    domain = outputs([(["a"], topic), (["b"], topic), (["a", "b"], topic)], name="three")
    result = classify(parse("P@1"), domain)
    assert result.domain == "three" and result.category == "ordinal/pseudometric"
    assert [r.index for r in result.property("metric").counterexample] == [0, 2]
    # Two distinct values (0 and 1): trivially equally spaced.
    assert result.distinct == 2 and result.property("interval").holds


def test_score_domain_batched_equals_per_output(monkeypatch):
    d = rankings(4, grades=(0, 0.5, 1), lengths="upto")
    metric = parse("nDCG@3")
    per_output = np.array([metric.score(r, t) for r, t in d])
    monkeypatch.setattr(intrinsic, "CHUNK", 7)  # several chunks, the last one short
    assert np.allclose(score_domain(metric, d), per_output, rtol=0, atol=1e-12)
    wrapped = wrap(lambda ranking, topic: metric.score(ranking, topic), name="nDCG3")
    assert np.array_equal(score_domain(wrapped, d), per_output)


def test_rbp_half_on_2_to_the_17_outputs():
    # Two chunks of 2^16 on the batched path. As above, RBP(1/2) takes every j / 2^17
    # once: 2^17 distinct values, equally spaced. Injectivity needs no exact work
    # (adjacent values are 2^-17 apart, far beyond the screen); the 2^17 - 2 equal
    # gaps need three exact evaluations each, more than the budget, so the rest are
    # settled within the screen and the result says it.
    result = classify(RBP(p=0.5), rankings(17))
    assert result.size == 2 ** 17 and result.distinct == 2 ** 17
    assert result.category == "interval/metric"
    assert result.property("metric").exact and not result.property("interval").exact
    assert "budget" in result.note


@pytest.mark.parametrize("name", ["recall", "precision", "F", "fallout", "accuracy"])
def test_set_measures_on_fixed_size_sets_are_interval(name):
    # definitions §4, N = 20, R = 5, size = 8 (FP = 8 - TP): each is linear in TP:
    # recall TP/5, precision TP/8, F1 2TP/13, fallout (8 - TP)/15, accuracy (2TP + 7)/20.
    result = classify(set_measure(name), sets(20, 5, size=8))
    assert result.category == "interval/metric" and result.distinct == 6 and result.exact


@pytest.mark.parametrize("name, category, distinct", [
    ("recall", "interval/metric", 6),        # TP/5
    ("accuracy", "interval/metric", 6),      # (TP + 15)/20
    ("F", "ordinal/metric", 6),              # 2TP/(TP + 5): 0, 1/3, 4/7, ... gaps 1/3, 5/21
    ("precision", "ordinal/pseudometric", 2),  # 0 for the empty set (0/0 -> 0), else 1
    ("fallout", "ordinal/pseudometric", 1),  # 0/15 everywhere
])
def test_set_measures_on_sets_growing_by_relevant_documents(name, category, distinct):
    result = classify(set_measure(name), sets(20, 5, nonrel=0))
    assert (result.category, result.distinct) == (category, distinct)


def test_accuracy_on_all_subsets():
    # (TP + TN)/20 = (TP - FP + 15)/20: TP - FP takes the 21 values -15..5 on 96 sets.
    # In domain order (size, then TP) the first tie is (0,0) ~ (1,1), both 15/20.
    result = classify(set_measure("accuracy"), sets(20, 5))
    assert result.category == "ordinal/pseudometric" and result.distinct == 21
    assert labels(result.property("metric").counterexample) == ["(TP=0, FP=0)", "(TP=1, FP=1)"]
    assert [r.exact for r in result.property("metric").counterexample] == ["3/4", "3/4"]


# -- users domains, determinism and the sampled dQ checks -------------------------
def test_coverage_ratio_on_users_domain_vectorised_equals_exact():
    from axiometer.generators.domains import users

    d = users(3, 2)
    metric = set_measure("coverage_ratio")
    # Rk / 3 for Rk = 0..3, each repeated for Ru = 0..2.
    expected = np.repeat([0, 1 / 3, 2 / 3, 1], 3)
    assert np.array_equal(score_domain(metric, d), expected)
    result = classify(metric, d)
    assert result.category == "ordinal/pseudometric" and result.exact and result.distinct == 4
    # (Rk=0, Ru=0) and (Rk=0, Ru=1): 0/3 = 0 both.
    assert labels(result.property("metric").counterexample) == ["(Rk=0, Ru=0)", "(Rk=0, Ru=1)"]


def test_coverage_ratio_with_ru_fixed_is_interval():
    from axiometer.generators.domains import users

    # unknown = 0: Rk / 4 for Rk = 0..4 = 0, 1/4, 1/2, 3/4, 1 - injective, equally spaced.
    result = classify(set_measure("coverage_ratio"), users(4, 0))
    assert result.category == "interval/metric" and result.distinct == 5


def test_a_non_deterministic_metric_is_not_a_pseudometric():
    calls = {"n": 0}

    def counter(ranking, topic):  # a different value on every call
        calls["n"] += 1
        return float(calls["n"])

    result = classify(wrap(counter), rankings(3))
    assert result.category == "not a pseudometric"
    verdict = result.property("pseudometric")
    assert not verdict.holds
    # The guard scores every output twice: the first output, (0, 0, 0), already differs.
    (first,) = verdict.counterexample
    assert first.label == "(0, 0, 0)" and first.index == 0
    assert "returned 1.0 then 2.0 for the same input (non-deterministic)" in result.note


def test_a_non_deterministic_exact_evaluation_is_not_a_pseudometric():
    calls = {"n": 0}

    def drifting_exact(ranking, topic):
        calls["n"] += 1
        return Fraction(calls["n"])

    result = classify(parse("P@3"), rankings(3), exact=drifting_exact)
    assert result.category == "not a pseudometric"
    assert "exact evaluation is not deterministic" in result.note


@pytest.mark.parametrize("metric, domain", [
    (parse("RBP(p=0.5)"), rankings(3)),
    (parse("nDCG"), rankings(3, grades=(0, 0.5, 1))),
    (set_measure("precision"), sets(20, 5, size=8)),
])
def test_deterministic_metrics_pass_the_sampled_checks_exactly(metric, domain):
    result = classify(metric, domain)
    verdict = result.property("pseudometric")
    assert verdict.holds
    m = min(domain.size, intrinsic.DETERMINISM_SAMPLE)
    assert f"deterministic on {m} sampled outputs" in verdict.note
    assert f"triangle inequality on {2 * m} sampled triples ({2 * m} exactly)" in verdict.note


def test_float_only_metric_checks_triangles_on_floats():
    result = classify(wrap(lambda ranking, topic: float(len(ranking))), rankings(2))
    note = result.property("pseudometric").note
    # 4 outputs: 2 * 4 triples, none with exact values.
    assert "on 8 sampled triples (0 exactly, 8 on floats within" in note


def test_triangle_and_symmetry_violations_are_reported(monkeypatch):
    # dQ = |Q(x) - Q(y)| is a pseudometric by construction, so check the checks with other dQ.
    # Squared difference: on P@2 over binary length 2 (values 0, 1/2, 1) a triple with values
    # 0, 1/2, 1 gives (0 - 1)^2 = 1 > (0 - 1/2)^2 + (1/2 - 1)^2 = 1/2: the triangle fails.
    monkeypatch.setattr(intrinsic, "_dq", lambda a, b: (a - b) ** 2)
    result = classify(parse("P@2"), rankings(2))
    assert result.category == "not a pseudometric"
    assert "dQ(x, z) > dQ(x, y) + dQ(y, z)" in result.note
    assert len(result.property("pseudometric").counterexample) == 3
    # Signed difference: dQ(x, y) = -dQ(y, x) != dQ(y, x) when Q(x) != Q(y).
    monkeypatch.setattr(intrinsic, "_dq", lambda a, b: a - b)
    result = classify(parse("P@2"), rankings(2))
    assert result.category == "not a pseudometric" and "dQ(x, y) != dQ(y, x)" in result.note


# The intrinsic classification's reports pinned on hand-computed cases (issue 14).
#
# Each expected value is worked out by hand in a comment: the notes and records a user reads
# (``axiometer intrinsic`` prints them), the collision classes, the scale of the tie band and the
# sampled pseudometric checks (failures: test_classify_failures.py; what is decided exactly and
# what on floats: test_classify_exactness.py).

# -- the whole result of a small exact classification ------------------------------

def test_p_at_2_on_binary_rankings_of_length_2_every_field():
    # P@2 on (0,0), (0,1), (1,0), (1,1) (domain order): 0, 1/2, 1/2, 1. One tied pair,
    # (0,1) ~ (1,0), both exactly 1/2: 3 distinct values on 4 outputs, resolution 3/4; the
    # values 0, 1/2, 1 are equally spaced, but a tie makes it ordinal/pseudometric.
    # The sample is all 4 outputs (fewer than 64): 2 * 4 triples, each with exact values.
    result = classify(parse("P@2"), rankings(2))
    assert result.category == "ordinal/pseudometric"
    assert (result.size, result.distinct, result.resolution) == (4, 3, 0.75)
    assert result.largest_class_size == 2 and labels(result.largest_class) == ["(0, 1)", "(1, 0)"]
    assert [r.exact for r in result.largest_class] == ["1/2", "1/2"]
    assert result.values == ((0.0, 1), (0.5, 2), (1.0, 1))
    assert result.exact and result.tolerance is None and result.note == "ties and gaps decided exactly"
    pseudo, metric, interval = result.properties
    assert (pseudo.name, pseudo.holds, pseudo.exact, pseudo.counterexample) == ("pseudometric", True, True, ())
    assert pseudo.note == (
        "finite on every output, invariant under relabelling equally judged documents (sampled); "
        "deterministic on 4 sampled outputs (each scored twice, identical values); dQ = |Q(x) - Q(y)| "
        "symmetric and satisfying the triangle inequality on 8 sampled triples (8 exactly)")
    assert (metric.name, metric.holds, metric.exact) == ("metric", False, True)
    assert [(r.index, r.label, r.ranking, r.score, r.exact) for r in metric.counterexample] == [
        (1, "(0, 1)", ("0#1", "1#1"), 0.5, "1/2"), (2, "(1, 0)", ("1#1", "0#1"), 0.5, "1/2")]
    assert metric.note == ("(0, 1) and (1, 0) score the same (exactly); 1 values shared by several "
                           "outputs, the largest by 2; 3 distinct values on 4 outputs")
    assert (interval.name, interval.holds, interval.exact, interval.counterexample) == (
        "interval", True, True, ())
    assert interval.note == "the 3 distinct values are equally spaced"


def test_an_injective_exact_metric_says_so_with_its_count():
    # RBP(1/2) on binary length 2: 0, 1/4, 1/2, 3/4 (the binary fractions 0.b1b2), once each.
    result = classify(parse("RBP(p=0.5)"), rankings(2))
    assert result.category == "interval/metric"
    assert result.largest_class_size == 1 and labels(result.largest_class) == ["(0, 0)"]
    assert result.property("metric").note == "injective: 4 distinct values on 4 outputs"
    assert result.property("interval").note == "the 4 distinct values are equally spaced"
    assert result.values == ((0.0, 1), (0.25, 1), (0.5, 1), (0.75, 1))


# -- collision classes: which pair, which largest class ------------------------------

#: [a] .. [f] score 2, 1, 1, 3, 4, 2: the classes by value are 1: {b, c} (outputs 1, 2),
#: 2: {a, f} (0, 5), 3: {d}, 4: {e}.
_TWO_PAIRS = {"a": 2, "b": 1, "c": 1, "d": 3, "e": 4, "f": 2}


def _assert_two_pairs(result, how: str) -> None:
    # The counterexample is the tied pair met first in domain order (the class whose
    # second member comes first): {1, 2}, not {0, 5}. The largest class: both have two
    # members, the tie goes to the one with the first member earliest: {0, 5}.
    metric = result.property("metric")
    assert not metric.holds
    assert [r.index for r in metric.counterexample] == [1, 2]
    assert labels(metric.counterexample) == ["[b]", "[c]"]
    assert [r.score for r in metric.counterexample] == [1.0, 1.0]
    assert result.largest_class_size == 2 and [r.index for r in result.largest_class] == [0, 5]
    assert metric.note == (f"[b] and [c] score the same ({how}); 2 values shared by several outputs, "
                           "the largest by 2; 4 distinct values on 6 outputs")
    assert result.distinct == 4 and result.resolution == 4 / 6
    assert result.values == ((1.0, 2), (2.0, 2), (3.0, 1), (4.0, 1))
    # 1, 2, 3, 4: equally spaced, but not injective.
    assert result.property("interval").holds and result.category == "ordinal/pseudometric"


def test_collision_classes_with_an_exact_evaluation():
    result = classify(table_metric(_TWO_PAIRS), SIX, exact=lambda r, t: Fraction(_TWO_PAIRS[r[0]]))
    _assert_two_pairs(result, "exactly")
    assert [r.exact for r in result.property("metric").counterexample] == ["1", "1"]
    assert result.exact and result.note == "ties and gaps decided exactly"


def test_collision_classes_of_a_float_only_metric():
    result = classify(table_metric(_TWO_PAIRS), SIX)
    _assert_two_pairs(result, "within tolerance 1e-09")
    assert [r.exact for r in result.property("metric").counterexample] == [None, None]
    assert not result.exact and result.tolerance == 1e-9
    assert result.note == "float-only: ties and equal gaps decided within tolerance 1e-09"
    assert result.property("interval").note == (
        "the 4 distinct values are equally spaced (within tolerance 1e-09)")


def test_the_largest_class_lists_five_of_its_members():
    # [a] .. [f] all score 0 except [d] (1): the class of 0 has 5 members, listed all five.
    # P@1 on all seven length-1 outputs of 7 non-relevant documents would do as well;
    # here [a], [b], [c], [e], [f] = outputs 0, 1, 2, 4, 5.
    values = {"a": 0, "b": 0, "c": 0, "d": 1, "e": 0, "f": 0}
    result = classify(table_metric(values), SIX, exact=lambda r, t: Fraction(values[r[0]]))
    assert result.largest_class_size == 5
    assert [r.index for r in result.largest_class] == [0, 1, 2, 4, 5]
    assert result.property("metric").note == (
        "[a] and [b] score the same (exactly); 1 values shared by several outputs, the largest by 5; "
        "2 distinct values on 6 outputs")
    # Binary length 4, P@4 (k relevant -> k/4): the class of 2/4 has C(4, 2) = 6 members,
    # five of them listed: (0, 0, 1, 1), (0, 1, 0, 1), (0, 1, 1, 0), (1, 0, 0, 1), (1, 0, 1, 0).
    six = classify(parse("P@4"), rankings(4))
    assert six.largest_class_size == 6 and len(six.largest_class) == 5
    assert labels(six.largest_class) == ["(0, 0, 1, 1)", "(0, 1, 0, 1)", "(0, 1, 1, 0)",
                                          "(1, 0, 0, 1)", "(1, 0, 1, 0)"]


# -- the tie band: relative to the values, at least 1 -------------------------------

def test_the_float_tie_band_is_relative_with_a_floor_of_one():
    # Float-only, tolerance 1e-9 times max(1, |u|, |v|):
    # - near 0: 0 and 1.5e-9 differ by more than 1e-9 * 1: two values;
    # - 0.5 and 0.5 + 8e-10: within 1e-9 * 1 (the floor, not 1e-9 * 0.5): one value;
    # - 1e6 and 1e6 + 1e-4: 1e-4 <= 1e-9 * 1e6 = 1e-3: one value;
    # - -1e6 - 1e-4 and -1e6: within 1e-9 * 1e6 as well: one value.
    values = {"a": 0.0, "b": 1.5e-9, "c": 0.5, "d": 0.5 + 8e-10, "e": 1e6, "f": 1e6 + 1e-4}
    result = classify(table_metric(values), SIX)
    assert result.distinct == 4
    assert result.values == ((0.0, 1), (1.5e-9, 1), (0.5, 2), (1e6, 2))
    negative = {"a": -1e6 - 1e-4, "b": -1e6, "c": 0.0, "d": 1.0, "e": 2.0, "f": 3.0}
    result = classify(table_metric(negative), SIX)
    assert result.distinct == 5 and result.values[0] == (-1e6 - 1e-4, 2)
    # A tolerance of 0 separates everything that differs at all.
    assert classify(table_metric(values), SIX, tolerance=0.0).distinct == 6


def test_the_gap_band_is_relative_to_the_values_at_least_one():
    # Second differences of consecutive values, against 1e-9 * max(1, |v[i-1]|, |v[i+1]|):
    # 1e6, 2e6, 3e6 + 1e-4: 1e-4 <= 1e-9 * 3e6 = 3e-3: equal gaps (within the tolerance);
    # 0, 1, 2 + 1.5e-9: 1.5e-9 > 1e-9 * 2 is false (band 2e-9): equal; 0, 0.25, 0.5 + 1.5e-9:
    # band 1e-9 * max(1, 0.5) = 1e-9 < 1.5e-9: unequal.
    big = {"a": 1e6, "b": 2e6, "c": 3e6 + 1e-4}
    three = outputs([([d], TOPIC6) for d in "abc"], name="three")
    assert classify(table_metric(big), three).category == "interval/metric"
    assert classify(table_metric({"a": -3e6 - 1e-4, "b": -2e6, "c": -1e6}), three).category == "interval/metric"
    assert classify(table_metric({"a": 0.0, "b": 1.0, "c": 2 + 1.5e-9}), three).category == "interval/metric"
    small = classify(table_metric({"a": 0.0, "b": 0.25, "c": 0.5 + 1.5e-9}), three)
    assert small.category == "ordinal/metric"
    assert small.property("interval").note == "three consecutive distinct values have unequal gaps"
    assert [r.score for r in small.property("interval").counterexample] == [0.0, 0.25, 0.5 + 1.5e-9]


# -- the sampled pseudometric checks -----------------------------------------------

def test_a_large_domain_samples_64_outputs_and_128_triples():
    # rankings(7): 128 outputs, more than DETERMINISM_SAMPLE = 64: 64 sampled outputs (spread
    # evenly, first and last included), 2 * 64 triples, all with exact values (64 <= budget).
    assert intrinsic.DETERMINISM_SAMPLE == 64
    note = classify(parse("RBP(p=0.5)"), rankings(7)).property("pseudometric").note
    assert "deterministic on 64 sampled outputs (each scored twice, identical values)" in note
    assert note.endswith("triangle inequality on 128 sampled triples (128 exactly)")


def test_spread_picks_distinct_indices_first_and_last_included():
    # 0..9 in 4 evenly spaced points: linspace(0, 9, 4) = 0, 3, 6, 9.
    assert intrinsic._spread(10, 4) == [0, 3, 6, 9]
    assert intrinsic._spread(3, 64) == [0, 1, 2]
    assert intrinsic._spread(1, 64) == [0]
    assert intrinsic._spread(0, 64) == []


def test_triples_beyond_the_exact_budget_are_checked_on_floats():
    # max_exact = 0: no exact evaluation at all, so the 2 * 4 sampled triples of binary length 2
    # are all checked on floats, within the screen 1e-09 (a built-in's screen, not a tolerance).
    note = classify(parse("P@2"), rankings(2), max_exact=0).property("pseudometric").note
    assert note.endswith("on 8 sampled triples (0 exactly, 8 on floats within 1e-09)")


# -- Giner's interval scale: exact-but-unequal gaps, and the float-only band ------

_TOPIC3 = Topic.single({"a": 1, "b": 1, "c": 1})
_ABC = outputs([(["a"], _TOPIC3), (["b"], _TOPIC3), (["c"], _TOPIC3)], name="three")
#: Gaps 1 and 1 + 10^-12: within the float screen (relative 1e-9), so only the exact
#: comparison can tell them apart.
_NEAR = {"a": Fraction(0), "b": Fraction(1), "c": 2 + Fraction(1, 10 ** 12)}


class _Table(BuiltinMetric):
    """Scores the output's one document from a table, exactly (Fraction) and in float."""

    family = "Table"
    title = "Table"
    needs = Needs(aspects=False, graded=True)

    def __init__(self, table: dict[str, Fraction]) -> None:
        super().__init__(None)
        self.table = table
        self.name = "table"

    def compute(self, ranking, topic, A, context=None):
        return A.num(self.table[ranking[0]])


def _assert_unequal_gaps_decided_exactly(result, third: str) -> None:
    interval = result.property("interval")
    assert not interval.holds and interval.exact
    assert [r.label for r in interval.counterexample] == ["[a]", "[b]", "[c]"]
    assert interval.counterexample[2].exact == third
    assert result.category == "ordinal/metric"
    assert result.exact and result.tolerance is None and result.note == "ties and gaps decided exactly"


def test_exact_but_unequal_gaps_are_not_interval_with_an_exact_override():
    # The float scores 0, 1, 2.000000000001 pass the screen as equal gaps; the exact values'
    # second difference 2 + 10^-12 - 2 * 1 + 0 = 10^-12 != 0 decides: not interval, exactly.
    result = classify(wrap(lambda r, t: float(_NEAR[r[0]]), name="near"), _ABC,
                      exact=lambda r, t: _NEAR[r[0]])
    _assert_unequal_gaps_decided_exactly(result, "2000000000001/1000000000000")


def test_exact_but_unequal_gaps_are_not_interval_with_the_metrics_own_exact():
    metric = _Table(_NEAR)
    assert is_exact_capable(metric)
    _assert_unequal_gaps_decided_exactly(classify(metric, _ABC), "2000000000001/1000000000000")
    # Control: with exactly equal gaps (0, 1, 2) the same path says interval, exactly.
    equal = classify(_Table({"a": Fraction(0), "b": Fraction(1), "c": Fraction(2)}), _ABC)
    assert equal.category == "interval/metric" and equal.property("interval").exact


def test_float_only_gaps_1_and_1_0001_are_not_interval_within_the_stated_tolerance():
    # Float-only: equal gaps are decided within DEFAULT_TOLERANCE (1e-9, relative to the
    # values, so a band of 1e-9 * 2.0001 here). The second difference 2.0001 - 2 * 1 + 0 =
    # 1e-4 is far outside it: not interval. A band 1e6 times wider (2e-3) would swallow it.
    assert DEFAULT_TOLERANCE == 1e-9
    scores = {"a": 0.0, "b": 1.0, "c": 2.0001}
    result = classify(wrap(lambda r, t: scores[r[0]], name="gaps"), _ABC)
    assert result.tolerance == DEFAULT_TOLERANCE
    assert "float-only" in result.note and "1e-09" in result.note
    interval = result.property("interval")
    assert not interval.holds
    assert [r.score for r in interval.counterexample] == [0.0, 1.0, 2.0001]
    assert result.category == "ordinal/metric"
    # Control: gaps 1 and 1 + 1e-12 are equal within that tolerance, and the result says so.
    close = {"a": 0.0, "b": 1.0, "c": 2.0 + 1e-12}
    within = classify(wrap(lambda r, t: close[r[0]], name="close"), _ABC)
    assert within.category == "interval/metric" and not within.property("interval").exact
    assert "within tolerance 1e-09" in within.property("interval").note
