"""How the intrinsic classification reports a metric that fails (issue 14): the metric, the output
and what went wrong named in one line; non-finite and failing vectorised or batched paths rescored
output by output; non-deterministic floats and drifting exact evaluations caught with both values;
what a "not a pseudometric" result records. Each expected text is worked out by hand in a comment.
"""

from __future__ import annotations

import math

import numpy as np

from axiometer.generators.domains import rankings, sets, users
from axiometer.intrinsic.classify import classify
from axiometer.metrics import wrap
from axiometer.metrics.rbp import RBP
from axiometer.metrics.set_based import CoverageRatio, SetPrecision, set_measure
from tests.intrinsic import InfBatchRBP


# -- failures named: the metric, the output, what went wrong --------------------------

def test_a_set_measure_is_named_by_its_full_spec():
    # F(beta=2) on sets of size 8 (N = 20, R = 5, FN = 5 - TP, FP = 8 - TP):
    # 5 TP / (5 TP + 4 FN + FP) = 5 TP / 28, linear in TP: interval, 6 distinct values.
    result = classify(set_measure("F", beta=2), sets(20, 5, size=8))
    assert result.metric == "F(beta=2)" and result.domain == "sets(N=20, R=5, size=8)"
    assert result.category == "interval/metric" and result.distinct == 6


class _InfAtTwo(SetPrecision):
    """Precision whose vectorised scores are inf where TP = 2."""

    def score_counts(self, tp, fp, fn, tn):
        return np.where(tp == 2, np.inf, super().score_counts(tp, fp, fn, tn))


class _RaisesAtTwo(SetPrecision):
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


class _NoBatchRBP(RBP):
    """RBP whose batched path fails: scored output by output instead."""

    def score_batch(self, batch):
        raise RuntimeError("no batches today")


def test_the_batched_path_names_a_non_finite_score_and_falls_back_when_it_fails():
    # (0, 1, 0) is the first output of binary length 3 with a relevant second document.
    failed = classify(InfBatchRBP(p=0.5), rankings(3))
    (record,) = failed.property("pseudometric").counterexample
    assert (record.index, record.label, record.score) == (2, "(0, 1, 0)", math.inf)
    note = failed.note
    assert note.startswith("RBP(p=0.5) returned ") and "inf" in note and note.endswith(" on (0, 1, 0)")
    # Per output, RBP(1/2) is the binary fraction 0.b1b2b3: interval, exactly, 8 values.
    fallback = classify(_NoBatchRBP(p=0.5), rankings(3))
    assert fallback.category == "interval/metric" and fallback.distinct == 8 and fallback.exact


def test_a_non_finite_batched_score_is_printed_as_a_plain_number():
    # One clear line: the value as the per-output path prints it (inf), not numpy's repr.
    assert classify(InfBatchRBP(p=0.5), rankings(3)).note == "RBP(p=0.5) returned inf on (0, 1, 0)"


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
    assert result.category == "not a pseudometric"
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
