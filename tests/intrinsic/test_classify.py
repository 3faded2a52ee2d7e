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

from axiometer.intrinsic import classify as intrinsic
from axiometer.metrics.decide import DEFAULT_TOLERANCE
from axiometer.intrinsic.classify import classify, score_domain
from axiometer.core import Topic
from axiometer.generators.domains import outputs, rankings, sets
from axiometer.metrics import RankingBatch, parse, wrap
from axiometer.metrics.rbp import RBP
from axiometer.metrics.set_based import set_measure


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
