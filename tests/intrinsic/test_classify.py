"""Giner's intrinsic classification (definitions §4) on exact expectations.

Every expected value is computed by hand in a comment (or is one of the
known facts of definitions §4); nothing is copied from the classifier's own output.
"""

from __future__ import annotations

import math
from fractions import Fraction, Fraction as F
from typing import Any, Sequence

import numpy as np
import pytest
import sympy

from axiometer.intrinsic import classify as intrinsic
from axiometer.metrics.decide import DEFAULT_TOLERANCE
from axiometer.intrinsic.classify import classify, score_domain
from axiometer.core import Topic
from axiometer.generators.domains import outputs, rankings, sets, users
from axiometer.metrics import BuiltinMetric, Needs, RankingBatch, is_exact_capable, parse, wrap
from axiometer.metrics.rbp import RBP
from axiometer.metrics.set_based import CoverageRatio, Precision, set_measure
from tests.intrinsic import TOPIC6


def labels(records) -> list[str]:
    return [r.label for r in records]


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


def test_a_non_deterministic_set_measure_is_not_a_pseudometric():
    from axiometer.generators.domains import users
    from axiometer.metrics.set_based import CoverageRatio

    class Drifting(CoverageRatio):
        calls = 0

        def score(self, c):
            Drifting.calls += 1
            return super().score(c) + (1e-9 if Drifting.calls % 2 else 0.0)

    result = classify(Drifting(), users(2, 2))
    assert result.category == "not a pseudometric"
    assert "not deterministic" in result.note and "(Rk=0, Ru=0)" in result.note


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
# (``axiometer intrinsic`` prints them), the collision classes, the scale of the tie band, the
# sampled pseudometric and dQ checks, failures named with their output, determinism, relabelling and
# the exact budget.

_SIX = outputs([([d], TOPIC6) for d in "abcdef"], name="six")


def _table(values: dict[str, object], name: str = "table"):
    """A float-only function scoring the output's one document from ``values``."""
    return wrap(lambda ranking, topic: float(values[ranking[0]]), name=name)


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
    result = classify(_table(_TWO_PAIRS), _SIX, exact=lambda r, t: F(_TWO_PAIRS[r[0]]))
    _assert_two_pairs(result, "exactly")
    assert [r.exact for r in result.property("metric").counterexample] == ["1", "1"]
    assert result.exact and result.note == "ties and gaps decided exactly"


def test_collision_classes_of_a_float_only_metric():
    result = classify(_table(_TWO_PAIRS), _SIX)
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
    result = classify(_table(values), _SIX, exact=lambda r, t: F(values[r[0]]))
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
    result = classify(_table(values), _SIX)
    assert result.distinct == 4
    assert result.values == ((0.0, 1), (1.5e-9, 1), (0.5, 2), (1e6, 2))
    negative = {"a": -1e6 - 1e-4, "b": -1e6, "c": 0.0, "d": 1.0, "e": 2.0, "f": 3.0}
    result = classify(_table(negative), _SIX)
    assert result.distinct == 5 and result.values[0] == (-1e6 - 1e-4, 2)
    # A tolerance of 0 separates everything that differs at all.
    assert classify(_table(values), _SIX, tolerance=0.0).distinct == 6


def test_the_gap_band_is_relative_to_the_values_at_least_one():
    # Second differences of consecutive values, against 1e-9 * max(1, |v[i-1]|, |v[i+1]|):
    # 1e6, 2e6, 3e6 + 1e-4: 1e-4 <= 1e-9 * 3e6 = 3e-3: equal gaps (within the tolerance);
    # 0, 1, 2 + 1.5e-9: 1.5e-9 > 1e-9 * 2 is false (band 2e-9): equal; 0, 0.25, 0.5 + 1.5e-9:
    # band 1e-9 * max(1, 0.5) = 1e-9 < 1.5e-9: unequal.
    big = {"a": 1e6, "b": 2e6, "c": 3e6 + 1e-4}
    three = outputs([([d], TOPIC6) for d in "abc"], name="three")
    assert classify(_table(big), three).category == "interval/metric"
    assert classify(_table({"a": -3e6 - 1e-4, "b": -2e6, "c": -1e6}), three).category == "interval/metric"
    assert classify(_table({"a": 0.0, "b": 1.0, "c": 2 + 1.5e-9}), three).category == "interval/metric"
    small = classify(_table({"a": 0.0, "b": 0.25, "c": 0.5 + 1.5e-9}), three)
    assert small.category == "ordinal/metric"
    assert small.property("interval").note == "consecutive values 0.0, 0.25, 0.5000000015 have unequal gaps"


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


# -- failures named: the metric, the output, what went wrong --------------------------

def test_a_set_measure_is_named_by_its_full_spec():
    # F(beta=2) on sets of size 8 (N = 20, R = 5, FN = 5 - TP, FP = 8 - TP):
    # 5 TP / (5 TP + 4 FN + FP) = 5 TP / 28, linear in TP: interval, 6 distinct values.
    result = classify(set_measure("F", beta=2), sets(20, 5, size=8))
    assert result.metric == "F(beta=2)" and result.domain == "sets(N=20, R=5, size=8)"
    assert result.category == "interval/metric" and result.distinct == 6


class _InfAtTwo(Precision):
    """Precision whose vectorised scores are inf where TP = 2."""

    def score_counts(self, tp, fp, fn, tn):
        return np.where(tp == 2, np.inf, super().score_counts(tp, fp, fn, tn))


class _RaisesAtTwo(Precision):
    """Precision without a working vectorised path, raising on TP = 2."""

    def score_counts(self, tp, fp, fn, tn):
        raise ValueError("no vectors today")

    def score(self, c):
        if c.tp == 2:
            raise ValueError("boom")
        return super().score(c)


def test_a_non_finite_vectorised_set_score_is_rescored_output_by_output():
    # The vectorised path's inf at TP = 2 sends every output to the per-output score, which is
    # finite: precision on sets of size 8 is TP / 8 (TP = 0..5), linear: interval, 6 values.
    result = classify(_InfAtTwo(), sets(20, 5, size=8))
    assert result.category == "interval/metric" and result.distinct == 6
    assert result.values == tuple((tp / 8, 1) for tp in range(6))


def test_a_failing_vectorised_path_falls_back_to_scoring_each_output():
    result = classify(_RaisesAtTwo(), sets(20, 5, size=8))
    assert result.note == "precision on (TP=2, FP=6): boom"
    (record,) = result.property("pseudometric").counterexample
    assert record.index == 2 and math.isnan(record.score)


class _BrokenCoverage(CoverageRatio):
    """coverage_ratio without a working vectorised path; the per-output score is inf at Rk = 1."""

    def score_counts(self, U, Rk, Ru, wanted=0, examined=0):
        raise ValueError("no vectors today")

    def score(self, c):
        return math.inf if c.Rk == 1 else super().score(c)


def test_a_users_measure_falls_back_and_names_a_non_finite_value():
    # users(2, 1): (Rk, Ru) = (0,0), (0,1), (1,0), ...: Rk = 1 first at output 2.
    result = classify(_BrokenCoverage(), users(2, 1))
    assert result.note == "coverage_ratio on (Rk=1, Ru=0): returned a non-finite value inf"
    assert [r.index for r in result.property("pseudometric").counterexample] == [2]


class _InfBatchRBP(RBP):
    """RBP whose batched scores are inf when the second document is relevant."""

    def score_batch(self, batch):
        return np.where(batch.single[:, 1] > 0, np.inf, super().score_batch(batch))


class _NoBatchRBP(RBP):
    """RBP whose batched path fails: scored output by output instead."""

    def score_batch(self, batch):
        raise RuntimeError("no batches today")


def test_the_batched_path_names_a_non_finite_score_and_falls_back_when_it_fails():
    # (0, 1, 0) is the first output of binary length 3 with a relevant second document.
    failed = classify(_InfBatchRBP(p=0.5), rankings(3))
    (record,) = failed.property("pseudometric").counterexample
    assert (record.index, record.label, record.score) == (2, "(0, 1, 0)", math.inf)
    note = failed.note
    assert note.startswith("RBP(p=0.5) returned ") and "inf" in note and note.endswith(" on (0, 1, 0)")
    # Per output, RBP(1/2) is the binary fraction 0.b1b2b3: interval, exactly, 8 values.
    fallback = classify(_NoBatchRBP(p=0.5), rankings(3))
    assert fallback.category == "interval/metric" and fallback.distinct == 8 and fallback.exact


def test_a_non_finite_batched_score_is_printed_as_a_plain_number():
    # One clear line: the value as the per-output path prints it (inf), not numpy's repr.
    assert classify(_InfBatchRBP(p=0.5), rankings(3)).note == "RBP(p=0.5) returned inf on (0, 1, 0)"


def test_a_metric_that_raises_is_named_with_the_output_and_the_error():
    # Raises whenever the top document is relevant: first at (1, 0, 0), output 4.
    def top_raises(ranking, topic):
        if topic.rel(ranking[0]):
            raise ValueError("boom")
        return 0.0

    result = classify(wrap(top_raises, name="boomer"), rankings(3))
    assert result.note == "boomer on (1, 0, 0): ValueError: boom"
    (record,) = result.property("pseudometric").counterexample
    assert (record.index, record.label, record.ranking) == (4, "(1, 0, 0)", ("1#1", "0#1", "0#2"))
    assert math.isnan(record.score)


# -- determinism: the floats twice, the exact evaluation once more on a quarter -----------

def test_a_non_deterministic_set_measure_is_named_with_both_values():
    # Scored (in the determinism check, after the vectorised pass) 1e-9 too high on every odd
    # call: the first sampled output, (Rk=0, Ru=0), scores 0 + 1e-9, then 0.
    class Drifting(CoverageRatio):
        calls = 0

        def score(self, c):
            Drifting.calls += 1
            return super().score(c) + (1e-9 if Drifting.calls % 2 else 0.0)

    result = classify(Drifting(), users(2, 2))
    assert result.note == "coverage_ratio is not deterministic: (Rk=0, Ru=0) scored 1e-09, then 0.0"
    first, second = result.property("pseudometric").counterexample
    assert (first.index, first.label, first.score) == (0, "(Rk=0, Ru=0)", 1e-9)
    assert (second.index, second.label, second.score) == (0, "(Rk=0, Ru=0)", 0.0)
    # Both carry output 0's ranking as the domain gives it (a user-model output's is empty), never None.
    assert first.ranking == second.ranking == tuple(users(2, 2).output(0)[0]) == ()


def _exact_drifting_at(grades: tuple[int, ...]):
    """RBP(1/2)'s exact value, plus the number of calls so far on the output with ``grades``."""
    rbp = RBP(p=0.5)
    calls = {"n": 0}

    def exact(ranking, topic):
        if tuple(int(topic.rel(d)) for d in ranking) == grades:
            calls["n"] += 1
            return rbp.exact(ranking, topic) + calls["n"]
        return rbp.exact(ranking, topic)

    return exact


def test_the_exact_evaluation_is_repeated_on_the_first_quarter_of_the_sample():
    # rankings(7): 128 outputs, 64 sampled (0, 2, 4, ..., 30, 32, ...: index 2j for j < 32 as
    # linspace(0, 127, 64) rounds down); the first 64 / 4 = 16 of them, outputs 0 .. 30, are
    # evaluated exactly twice. Output 30 is (0, 0, 1, 1, 1, 1, 0) (30 = 0b0011110).
    # Its exact value drifts: the repeat (1st call) gives RBP + 1 and the cached one RBP + 2,
    # RBP(1/2) of 0011110 = 1/8 + 1/16 + 1/32 + 1/64 = 15/64.
    result = classify(RBP(p=0.5), rankings(7), exact=_exact_drifting_at((0, 0, 1, 1, 1, 1, 0)))
    assert result.category == "not a pseudometric"
    assert result.note == ("RBP(p=0.5)'s exact evaluation is not deterministic: (0, 0, 1, 1, 1, 1, 0) "
                           "gave 143/64, then 79/64")
    first, second = result.property("pseudometric").counterexample
    assert (first.index, first.exact, second.exact) == (30, "143/64", "79/64")
    # Output 32, (0, 1, 0, 0, 0, 0, 0), is the 17th sampled: its exact value is not repeated there.
    assert classify(RBP(p=0.5), rankings(7),
                    exact=_exact_drifting_at((0, 1, 0, 0, 0, 0, 0))).category != "not a pseudometric"


# -- a float-only result and the word "exactly" ------------------------------------------

_THREE = outputs([([d], TOPIC6) for d in "abc"], name="three")


def test_a_float_only_result_states_its_tolerance():
    # Gaps 1 and 1.0001 (second difference 1e-4, far beyond 1e-9 * 2.0001): not interval, and
    # no two values within the tolerance. The result states the tolerance and the float-only note.
    result = classify(_table({"a": 0.0, "b": 1.0, "c": 2.0001}), _THREE)
    assert result.category == "ordinal/metric"
    assert result.tolerance == 1e-9
    assert result.note == "float-only: ties and equal gaps decided within tolerance 1e-09"
    assert result.property("interval").note == "consecutive values 0.0, 1.0, 2.0001 have unequal gaps"


def test_a_float_only_result_is_not_marked_exact():
    # The same float-only result: its note says "decided within tolerance 1e-09" and
    # IntrinsicResult.tolerance is "None when decisions were exact"; a float-only metric has no
    # exact values at all, so the result cannot say exact == True (the report prints every
    # verdict as "(decided exactly)" next to "decisions: tolerance 1e-09").
    result = classify(_table({"a": 0.0, "b": 1.0, "c": 2.0001}), _THREE)
    assert result.tolerance == 1e-9 and "within tolerance 1e-09" in result.note
    assert result.exact is False


@pytest.mark.parametrize("case", ["float-only", "budget 0"])
def test_a_pseudometric_verdict_checked_on_floats_is_not_marked_exact(case):
    # The note says "(0 exactly, 6 on floats within 1e-09)" / "(0 exactly, 8 on floats ...)":
    # the triangle inequality was decided within a float band, not exactly.
    if case == "float-only":
        result = classify(_table({"a": 0.0, "b": 1.0, "c": 2.0001}), _THREE)
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
    result = classify(_table(values), four, exact=_exactly(values), max_exact=2)
    metric = result.property("metric")
    assert not metric.holds and not metric.exact and not result.exact
    assert [r.exact for r in metric.counterexample] == ["1", "1"]
    assert metric.note == ("[a] and [b] score the same (exactly); 2 values shared by several outputs, "
                           "the largest by 2; 2 distinct values on 4 outputs")
    assert result.note == "exact budget of 2 evaluations reached: some near-ties settled within 1e-09"
    assert result.tolerance is None
    # With no budget at all, the pair is one within the screen.
    none = classify(_table(values), four, exact=_exactly(values), max_exact=0)
    assert "[a] and [b] score the same (within tolerance 1e-09)" in none.property("metric").note
    assert [r.exact for r in none.property("metric").counterexample] == [None, None]


def test_equal_gaps_need_three_exact_evaluations():
    # 0, 1, 2: one second difference, 2 - 2 * 1 + 0 = 0, decided exactly with 3 evaluations.
    values = {"a": 0, "b": 1, "c": 2}
    exact = classify(_table(values), _THREE, exact=_exactly(values), max_exact=3)
    assert exact.category == "interval/metric" and exact.property("interval").exact and exact.exact
    assert exact.property("interval").note == "the 3 distinct values are equally spaced"
    # With 2 it is settled within the screen, and said so.
    short = classify(_table(values), _THREE, exact=_exactly(values), max_exact=2)
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
        result = classify(_table(values), _THREE, exact=_exactly(values), tolerance=tolerance)
        assert result.category == "ordinal/metric" and result.property("interval").exact
    # A float-only metric's tolerance is its tie band, stated: within 1e-3 the gaps are equal.
    assert classify(_table(values), _THREE, tolerance=1e-3).category == "interval/metric"
    assert classify(_table(values), _THREE, tolerance=1e-3).tolerance == 1e-3


def test_the_distinct_values_are_listed_up_to_2000():
    # The number-line picture lists up to VALUES_KEPT = 2000 distinct values: 2000 outputs scoring
    # 0 .. 1999 are all listed (each once); with a 2001st distinct value none is.
    docs = [f"d{i}" for i in range(2001)]
    topic = Topic.single({d: 1 for d in docs})
    values = {d: i for i, d in enumerate(docs)}
    kept = classify(_table(values), outputs([([d], topic) for d in docs[:2000]], name="2000"))
    assert kept.distinct == 2000 and kept.values == tuple((float(i), 1) for i in range(2000))
    dropped = classify(_table(values), outputs([([d], topic) for d in docs], name="2001"))
    assert dropped.distinct == 2001 and dropped.values == ()
    assert dropped.category == "interval/metric"  # 0 .. 2000, gaps of 1


def test_a_failure_keeps_the_mode_of_the_metric():
    # A float-only metric that is not a pseudometric still states its tolerance; an exact one none.
    def top_nan(ranking, topic):
        return math.nan if topic.rel(ranking[0]) else 0.0

    result = classify(wrap(top_nan, name="nan"), rankings(2))
    assert result.category == "not a pseudometric" and result.tolerance == 1e-9
    assert (result.size, result.distinct, result.values) == (4, None, ())
    assert classify(_InfBatchRBP(p=0.5), rankings(3)).tolerance is None


def test_set_and_user_measures_are_scored_vectorised_then_sampled_twice():
    # The whole domain is scored by score_counts; score() runs only in the determinism check,
    # twice on each sampled output: 6 outputs each here, so 12 calls, not 6 more.
    class CountedPrecision(Precision):
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
    floats = classify(_table({"a": 0.0, "b": 0.5, "c": 1.0}), _THREE)
    assert floats.note == "table: dQ(x, z) > dQ(x, y) + dQ(y, z) for x = [a], y = [b], z = [c]"
    assert [r.exact for r in floats.property("pseudometric").counterexample] == [None, None, None]


def test_an_asymmetric_dq_is_found_exactly_and_on_floats(monkeypatch):
    # dQ(x, y) = Q(x) - Q(y): (lowest, lowest, highest) is symmetric (0 = 0); the next triple
    # has dQ(x, y) = -1/2 and dQ(y, x) = 1/2.
    monkeypatch.setattr(intrinsic, "_dq", lambda a, b: a - b)
    result = classify(parse("P@2"), rankings(2))
    assert result.note == "P@2: dQ(x, y) != dQ(y, x) for x = (0, 0), y = (0, 1), z = (1, 1)"
    floats = classify(_table({"a": 0.0, "b": 0.5, "c": 1.0}), _THREE)
    assert floats.note == "table: dQ(x, y) != dQ(y, x) for x = [a], y = [b], z = [c]"


def test_the_float_dq_band_is_relative_to_the_scores(monkeypatch):
    # dQ off by 1e-4 one way round: within the band 1e-9 * max(1, |Q|) = 3e-3 at scores 1e6,
    # 2e6, 3e6 (a pseudometric within the tolerance), beyond 1e-9 at scores 0, 1/2, 1.
    monkeypatch.setattr(intrinsic, "_dq", lambda a, b: abs(a - b) + (1e-4 if a < b else 0.0))
    big = classify(_table({"a": 1e6, "b": 2e6, "c": 3e6}), _THREE)
    assert big.property("pseudometric").holds
    small = classify(_table({"a": 0.0, "b": 0.5, "c": 1.0}), _THREE)
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
    result = classify(_table({d: 1.0 for d in "abcd"}), four, exact=_exactly(exact))
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
    result = classify(_table({"a": 1 + 1e-12, "b": 1.0}), outputs([([d], TOPIC6) for d in "ab"], name="ab"))
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
    result = classify(_table(floats), four, exact=lambda r, t: exact[r[0]])
    # Each value is shown as the float of its class's first output in domain order: [a], [c].
    assert result.distinct == 2 and result.values == ((1.0 + 1e-15, 2), (3.0, 2))
    metric = result.property("metric")
    assert labels(metric.counterexample) == ["[a]", "[b]"] and metric.exact
    assert "2 values shared by several outputs" in metric.note


# -- what a "not a pseudometric" result records ---------------------------------------------

def test_a_metric_that_raises_only_in_the_determinism_check_is_named_with_that_output():
    # The scoring pass evaluates each output twice (the guard checks a metric author's metric is
    # deterministic); the determinism check evaluates the sampled outputs again, and the metric
    # raises on a ranking's third evaluation: at the first sampled output, index 0 = (0, 0, 0),
    # whose documents are 0#1, 0#2, 0#3 (its record in full).
    evaluations: dict[tuple[str, ...], int] = {}

    def thrice(ranking, topic):
        key = tuple(ranking)
        evaluations[key] = evaluations.get(key, 0) + 1
        if evaluations[key] > 2:
            raise ValueError("seen it")
        return float(sum(topic.rel(d) for d in ranking))

    domain = rankings(3)
    result = classify(wrap(thrice, name="thrice"), domain)
    assert (result.category, result.domain, result.size) == ("not a pseudometric", domain.name, 8)
    assert result.exact and result.note == "thrice on (0, 0, 0): ValueError: seen it"
    (verdict,) = result.properties
    assert (verdict.name, verdict.holds, verdict.exact, verdict.note) == (
        "pseudometric", False, True, result.note)
    (record,) = verdict.counterexample
    assert (record.index, record.label, record.ranking) == (0, "(0, 0, 0)", ("0#1", "0#2", "0#3"))
    assert math.isnan(record.score)


def test_an_exact_evaluation_that_drifts_records_both_exact_values_with_the_output():
    result = classify(RBP(p=0.5), rankings(7), exact=_exact_drifting_at((0, 0, 1, 1, 1, 1, 0)))
    first, second = result.property("pseudometric").counterexample
    ranking = ("0#1", "0#2", "1#1", "1#2", "1#3", "1#4", "0#3")  # output 30 = 0011110, documents by grade
    for record, exact in ((first, "143/64"), (second, "79/64")):
        assert (record.index, record.label, record.ranking, record.exact) == (
            30, "(0, 0, 1, 1, 1, 1, 0)", ranking, exact)
        assert record.score == 15 / 64  # RBP(1/2) of 0011110 on floats: 1/8 + 1/16 + 1/32 + 1/64


def test_a_metric_without_a_name_is_named_by_its_repr():
    class Nameless:
        def score(self, ranking, topic):
            raise ValueError("no")

        def __repr__(self):
            return "<nameless>"

    # Not a built-in: checked through the guard, whose repr wraps the object's.
    assert classify(Nameless(), rankings(1)).note == "guarded(<nameless>) on (0,): ValueError: no"


def test_the_batched_path_spares_one_evaluation_per_output():
    # RBP scored in batches, in chunks of intrinsic.CHUNK outputs, against the same RBP whose
    # batches fail: the per-output path then evaluates every output once more, and twice over,
    # since a subclass is no registered built-in and its guard evaluates each call twice (to catch
    # non-determinism). Everything else (the determinism check, the relabelling check) evaluates
    # the same outputs either way.
    class Counted(RBP):
        calls = 0

        def score(self, ranking, topic, context=None):
            type(self).calls += 1
            return super().score(ranking, topic)

    class CountedNoBatch(Counted):
        calls = 0

        def score_batch(self, batch):
            raise RuntimeError("no batches today")

    domain = rankings(7)
    batched, fallback = classify(Counted(p=0.5), domain), classify(CountedNoBatch(p=0.5), domain)
    assert batched.category == fallback.category == "interval/metric"
    assert CountedNoBatch.calls - Counted.calls == 2 * domain.size == 2 * 128


# -- Giner's interval scale: exact-but-unequal gaps, and the float-only band ------

_TOPIC3 = Topic.single({"a": 1, "b": 1, "c": 1})
_ABC = outputs([(["a"], _TOPIC3), (["b"], _TOPIC3), (["c"], _TOPIC3)], name="three")
#: Gaps 1 and 1 + 10^-12: within the float screen (relative 1e-9), so only the exact
#: comparison can tell them apart.
_NEAR = {"a": F(0), "b": F(1), "c": 2 + F(1, 10 ** 12)}


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
    equal = classify(_Table({"a": F(0), "b": F(1), "c": F(2)}), _ABC)
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
