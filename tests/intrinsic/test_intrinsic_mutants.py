"""The intrinsic classification's reports pinned on hand-computed cases (issue 14, area ``intrinsic``).

Each expected value is worked out by hand in a comment: the notes and records a
user reads (``axiometer intrinsic`` prints them), the collision classes, the
scale of the tie band, the sampled pseudometric checks, and the parametric
analysis of a metric of our own with an unbounded parameter.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
import sympy

from axiometer.core import InputError, Topic
from axiometer.generators.domains import outputs, rankings, sets, users
from axiometer.intrinsic import classify as intrinsic
from axiometer.intrinsic import giner, parametric
from axiometer.intrinsic.classify import classify
from axiometer.intrinsic.giner import GinerEntry, canonical_domains, load_giner, run_giner
from axiometer.intrinsic.parametric import ParametricError, analyse, numeric_param
from axiometer.metrics import BuiltinMetric, Needs, parse, wrap
from axiometer.metrics.base import Param
from axiometer.metrics.rbp import RBP
from axiometer.metrics.rbu import RBU
from axiometer.metrics.set_based import CoverageRatio, Precision, set_measure
from axiometer.results import OutputRecord

#: Six one-document outputs [a] .. [f] of one topic (every document relevant).
_TOPIC6 = Topic.single({d: 1 for d in "abcdef"})
_SIX = outputs([([d], _TOPIC6) for d in "abcdef"], name="six")


def _table(values: dict[str, object], name: str = "table"):
    """A float-only function scoring the output's one document from ``values``."""
    return wrap(lambda ranking, topic: float(values[ranking[0]]), name=name)


def _labels(records) -> list[str]:
    return [r.label for r in records]


# -- the whole result of a small exact classification ------------------------------

def test_p_at_2_on_binary_rankings_of_length_2_every_field():
    # P@2 on (0,0), (0,1), (1,0), (1,1) (domain order): 0, 1/2, 1/2, 1. One tied pair,
    # (0,1) ~ (1,0), both exactly 1/2: 3 distinct values on 4 outputs, resolution 3/4; the
    # values 0, 1/2, 1 are equally spaced, but a tie makes it ordinal/pseudometric.
    # The sample is all 4 outputs (fewer than 64): 2 * 4 triples, each with exact values.
    result = classify(parse("P@2"), rankings(2))
    assert result.category == "ordinal/pseudometric"
    assert (result.size, result.distinct, result.resolution) == (4, 3, 0.75)
    assert result.largest_class_size == 2 and _labels(result.largest_class) == ["(0, 1)", "(1, 0)"]
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
    assert result.largest_class_size == 1 and _labels(result.largest_class) == ["(0, 0)"]
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
    assert _labels(metric.counterexample) == ["[b]", "[c]"]
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
    assert _labels(six.largest_class) == ["(0, 0, 1, 1)", "(0, 1, 0, 1)", "(0, 1, 1, 0)",
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
    three = outputs([([d], _TOPIC6) for d in "abc"], name="three")
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


# -- the parametric analysis of a metric of our own ---------------------------------

def _param_metric(table, **declared):
    """A built-in metric of one parameter ``x``: output [d] scores ``table[d](A, x)`` (range as declared)."""

    class Table(BuiltinMetric):
        family = "Line"
        title = "Line"
        param_info = (Param("x", float, declared.pop("default", 1.5), "the varying score", **declared),)
        needs = Needs(aspects=False, graded=True)

        def compute(self, ranking, topic, A, context=None):
            return table[ranking[0]](A, self.x)

    return Table()


#: [a] 0, [b] x, [c] 1.
_LINE = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x), "c": lambda A, x: A.num(1)}


def _line(**declared):
    """A built-in metric of one parameter ``x`` scoring [a] 0, [b] x, [c] 1 (range as declared)."""
    return _param_metric(_LINE, **declared)


_ABC = outputs([([d], _TOPIC6) for d in "abc"], name="abc")


def test_parametric_analysis_over_an_unbounded_parameter():
    # [a] 0, [b] x, [c] 1. Ties: 0 = x at x = 0 ([a], [b]); x = 1 at x = 1 ([b], [c]).
    # Equal gaps on each sub-range, by the order there:
    #   (-inf, 0): x < 0 < 1, gaps -x and 1: x = -1;
    #   (0, 1):    0 < x < 1, gaps x and 1 - x: x = 1/2;
    #   (1, inf):  0 < 1 < x, gaps 1 and x - 1: x = 2.
    result = analyse(_line(), None, _ABC)
    assert result.metric == "Line(x=x)" and result.parameter == "x"
    assert result.range == "(-inf, inf)" and result.size == 3 and result.distinct_expressions == 3
    assert result.exceptional == (("0", 0.0, "[a]", "[b]"), ("1", 1.0, "[b]", "[c]"))
    assert result.always_tied == () and result.interval_analysed
    assert result.interval == (("-1", -1.0), ("1/2", 0.5), ("2", 2.0)) and result.interval_ranges == ()
    assert result.summary == "metric for every x in (-inf, inf) except {0, 1}; interval only at x = -1, 1/2, 2"
    # interval=False: the ties only.
    ties_only = analyse(_line(), "x", _ABC, interval=False)
    assert ties_only.exceptional == result.exceptional and not ties_only.interval_analysed
    assert ties_only.interval == () and ties_only.summary == "metric for every x in (-inf, inf) except {0, 1}"


@pytest.mark.parametrize("declared, text, exceptional, interval", [
    # [1, 3]: the tie x = 1 is at the closed low end; on (1, 3) the order 0 < 1 < x has equal
    # gaps at x = 2; the closed end 3 gives 0, 1, 3 (gaps 1, 2): not interval.
    ({"low": 1, "high": 3}, "[1, 3]", ["1"], ["2"]),
    # [1, 2]: x = 2 is not inside (1, 2) but is the closed high end: 0, 1, 2, equally spaced.
    ({"low": 1, "high": 2}, "[1, 2]", ["1"], ["2"]),
    # [1, 2): the same end, open: no interval value at all.
    ({"low": 1, "high": 2, "high_open": True}, "[1, 2)", ["1"], []),
    # (0, 2]: the tie at 0 is outside the open end; on (0, 1) the gaps x, 1 - x are equal
    # at 1/2; the closed end 2 is interval.
    ({"low": 0, "high": 2, "low_open": True}, "(0, 2]", ["1"], ["1/2", "2"]),
    # [0, 2]: the tie at 0 counts (closed end), so the end 0 (0, 0, 1: a tie) is not interval.
    ({"low": 0, "high": 2}, "[0, 2]", ["0", "1"], ["1/2", "2"]),
    # [0, 1]: both ties are at closed ends and count; the ends (a tie each) are not interval.
    ({"low": 0, "high": 1, "default": 0.5}, "[0, 1]", ["0", "1"], ["1/2"]),
    # [1/2, 2] (a float end, read exactly): the closed end 1/2 gives 0, 1/2, 1: interval.
    ({"low": 0.5, "high": 2, "default": 1}, "[1/2, 2]", ["1"], ["1/2", "2"]),
    # (-inf, 1/4]: ties at 0 only; x = -1 on (-inf, 0); on (0, 1/4) the root 1/2 is outside;
    # the end 1/4 gives 0, 1/4, 1: gaps 1/4 and 3/4, not interval.
    ({"high": 0.25, "default": 0}, "(-inf, 1/4]", ["0"], ["-1"]),
    # (2, inf): no tie; 0 < 1 < x has equal gaps only at x = 2, not inside.
    ({"low": 2, "low_open": True, "default": 3}, "(2, inf)", [], []),
])
def test_parametric_analysis_reads_open_and_closed_ends(declared, text, exceptional, interval):
    result = analyse(_line(**declared), "x", _ABC)
    assert result.range == text
    assert [e[0] for e in result.exceptional] == exceptional
    assert [v[0] for v in result.interval] == interval
    assert result.summary.startswith(f"metric for every x in {text}")


def test_parametric_error_messages_name_the_metric():
    # A plain function (not even wrapped) has no name: the error names its repr.
    def plain(ranking, topic):
        return 0.0

    with pytest.raises(ParametricError) as error:
        numeric_param(plain, None)
    assert str(error.value) == (f"{plain!r}: parametric analysis needs a built-in metric, whose formula "
                                "can be evaluated with a symbolic parameter; a wrapped function cannot")
    with pytest.raises(ParametricError) as error:
        numeric_param(RBU(), None)
    assert str(error.value) == "RBU(p=0.8,e=0.05) has several numeric parameters (p, e): say which"
    with pytest.raises(ParametricError) as error:
        numeric_param(RBP(), "e")
    assert str(error.value) == "RBP(p=0.8) has no numeric parameter 'e' (numeric parameters: p)"
    with pytest.raises(ParametricError) as error:
        numeric_param(parse("P@5"), None)
    assert str(error.value) == "P@5 has no numeric parameter to analyse"
    # The only numeric parameter is picked when none is named; a named one is found among several.
    assert numeric_param(RBP(), None).name == "p"
    assert numeric_param(RBU(), "e").name == "e" and numeric_param(RBU(), "p").name == "p"


def test_a_score_with_logarithmic_coefficients_is_refused_with_the_whole_message():
    p = sympy.Symbol("p", real=True)
    with pytest.raises(ParametricError) as error:
        parametric._as_fraction(p / sympy.log(3), p, "M on (1, 0)")
    assert str(error.value) == (
        "M on (1, 0): the score p/log(3) has non-rational coefficients (e.g. logarithms); parametric "
        "analysis handles rational functions of the parameter with rational coefficients")
    with pytest.raises(ParametricError) as error:
        parametric._as_fraction(sympy.log(p), p, "M on (1, 0)")
    assert str(error.value) == "M on (1, 0): the score log(p) is not a rational function of p"


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

_THREE = outputs([([d], _TOPIC6) for d in "abc"], name="three")


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
    four = outputs([([d], _TOPIC6) for d in "abcd"], name="four")
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


def test_parametric_sub_ranges_without_ties_and_with_two_values():
    # [a] 0, [b] x^2 + 1: never tied (x^2 + 1 > 0), two values: interval for every x.
    never = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x) * A.num(x) + A.num(1)}
    result = analyse(_param_metric(never), "x", _ABC_AB)
    assert result.exceptional == () and result.interval_ranges == ("(-inf, inf)",)
    assert result.domain == "ab" and result.size == 2
    assert result.summary == "metric for every x in (-inf, inf); interval for every x in (-inf, inf)"
    # [a] 0, [b] x: tied at 0; on each side two values; on [-1, 1] the closed ends are
    # interval too (two distinct values: 0, -1 and 0, 1).
    two = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x)}
    result = analyse(_param_metric(two), "x", _ABC_AB)
    assert result.interval_ranges == ("(-inf, 0)", "(0, inf)")
    assert result.summary == ("metric for every x in (-inf, inf) except {0}; interval for every x in "
                              "(-inf, 0) and (0, inf)")
    result = analyse(_param_metric(two, low=-1, high=1, default=0.5), "x", _ABC_AB)
    assert result.interval_ranges == ("(-1, 0)", "(0, 1)")
    assert result.interval == (("-1", -1.0), ("1", 1.0))
    assert result.summary == ("metric for every x in [-1, 1] except {0}; interval for every x in "
                              "(-1, 0) and (0, 1) and at -1, 1")


_ABC_AB = outputs([([d], _TOPIC6) for d in "ab"], name="ab")


def test_parametric_sub_range_reads_the_order_of_rational_functions():
    # [a] 0, [b] 1/x, [c] 1 on (0, inf): [b] and [c] tie at x = 1.
    # (0, 1): 0 < 1 < 1/x, gaps 1 and 1/x - 1: equal at x = 1/2;
    # (1, inf): 0 < 1/x < 1, gaps 1/x and 1 - 1/x: equal at x = 2.
    inverse = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(1) / A.num(x), "c": lambda A, x: A.num(1)}
    result = analyse(_param_metric(inverse, low=0, low_open=True), "x", _ABC)
    assert result.exceptional == (("1", 1.0, "[b]", "[c]"),)
    assert result.interval == (("1/2", 0.5), ("2", 2.0))


def test_parametric_sample_point_is_strictly_inside_its_sub_range():
    # [a] 0, [b] 1/2, [c] x: ties at x = 0 ([a], [c]) and x = 1/2 ([b], [c]).
    # On (0, 1/2) the order is 0 < x < 1/2, gaps x and 1/2 - x: equal at x = 1/4. (A sample
    # point at the end 1/2 would see [b] and [c] tied and read the order 0, 1/2, x instead.)
    # On (1/2, inf): 0 < 1/2 < x, gaps 1/2 and x - 1/2: equal at x = 1; (-inf, 0): x < 0 < 1/2,
    # gaps -x and 1/2: x = -1/2.
    table = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(F(1, 2)), "c": lambda A, x: A.num(x)}
    result = analyse(_param_metric(table), "x", _ABC)
    assert [e[0] for e in result.exceptional] == ["0", "1/2"]
    assert [v[0] for v in result.interval] == ["-1/2", "1/4", "1"]


def test_a_root_of_equal_gaps_at_a_tie_is_not_an_interval_value():
    # [a] 0, [b] x, [c] x^2 + x on (0, inf): the ties (at 0, -1) are outside the open range.
    # Order 0 < x < x^2 + x, gaps x and x^2: equal at x = 1 (values 0, 1, 2) and at x = 0,
    # which is not inside (0, inf): only 1.
    table = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x),
             "c": lambda A, x: A.num(x) * A.num(x) + A.num(x)}
    result = analyse(_param_metric(table, low=0, low_open=True), "x", _ABC)
    assert result.exceptional == () and result.interval == (("1", 1.0),)


def test_exceptional_values_are_sorted_by_value_even_when_close():
    # [a] 0, [b] x - r2, [c] x - r1 with r1 = 1/2 < r2 = 1/2 + 10^-20: ties at r2 ([a], [b],
    # found first) and r1 ([a], [c]); [b] - [c] is the constant r1 - r2. Listed in order: r1, r2.
    r1, r2 = F(1, 2), F(1, 2) + F(1, 10 ** 20)
    table = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x) - A.num(r2),
             "c": lambda A, x: A.num(x) - A.num(r1)}
    result = analyse(_param_metric(table), "x", _ABC)
    assert [(e[0], e[2], e[3]) for e in result.exceptional] == [
        ("1/2", "[a]", "[c]"), (f"{r2.numerator}/{r2.denominator}", "[a]", "[b]")]


def test_parametric_refusals_say_why():
    # A score with a second symbol.
    other = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x) + sympy.Symbol("y")}
    with pytest.raises(ParametricError) as error:
        analyse(_param_metric(other), "x", _ABC_AB)
    assert str(error.value) == "Line(x=x) on [b]: score has other symbols {y}"
    # A score with a logarithm among its coefficients, named by the metric and the output.
    logarithmic = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x) * sympy.log(3)}
    with pytest.raises(ParametricError) as error:
        analyse(_param_metric(logarithmic), "x", _ABC_AB)
    assert str(error.value).startswith("Line(x=x) on [b]: the score x*log(3) has non-rational coefficients")
    # A metric with a name (not a built-in) is refused by that name, not by its repr.
    class Named:
        name = "mine"

        def score(self, ranking, topic):
            return 0.0

    with pytest.raises(ParametricError) as error:
        analyse(Named(), None, rankings(2))
    assert str(error.value).startswith("mine: parametric analysis needs a built-in metric")
    with pytest.raises(ParametricError) as error:
        analyse(parse("RareP(alpha=0.5)@3"), "alpha", rankings(2))
    assert str(error.value) == ("RareP(alpha=0.5)@3 scores against other systems (a context): parametric "
                                "analysis needs a metric of one output")
    with pytest.raises(ParametricError) as error:
        analyse(RBP(), "p", sets(N=4, R=2))
    assert str(error.value) == ("parametric analysis scores rankings; sets(N=4, R=2) is a domain of "
                                "contingency counts")
    # The limit counts outputs: 8 outputs pass a limit of 8, not one of 7.
    assert analyse(RBP(), "p", rankings(3), max_outputs=8).size == 8
    with pytest.raises(ParametricError) as error:
        analyse(RBP(), "p", rankings(3), max_outputs=7)
    assert str(error.value) == (
        "rankings(n=3, grades={0,1}, lengths=exact, R=3) has 8 outputs, more than the parametric "
        "analysis's limit of 7 (all pairs of distinct score expressions are compared); use a smaller "
        "domain or raise max_outputs")


def test_the_analysed_metric_is_named_with_the_parameter_as_a_symbol():
    # RBU's other numeric parameter keeps its value, the analysed one is written as itself, a
    # string option at its default (form='paper') is left out, the cutoff is kept.
    assert analyse(RBU(p=0.5, cutoff=2), "e", rankings(1)).metric == "RBU(p=0.5,e=e)@2"
    assert analyse(RBU(p=0.5, form="reference"), "e", rankings(1)).metric == "RBU(p=0.5,e=e,form='reference')"
    assert analyse(RBP(p=0.5), "p", rankings(1)).metric == "RBP(p=p)"
    # A parameter not shown at its default leaves no parentheses at all.
    assert analyse(_line(shown_at_default=False), "x", _ABC).metric == "Line"


def test_the_golden_exceptional_value_is_written_as_one_fraction():
    # RBP on binary length 3: the tie 1 = p + p^2 at p = (sqrt(5) - 1)/2, written over one
    # denominator (as the module docstring shows it), not as -1/2 + sqrt(5)/2.
    (value,) = analyse(RBP(), "p", rankings(3)).exceptional
    assert value[0] == "(-1 + sqrt(5))/2"


# -- Giner's table: reading the data file, choosing rows, explaining differences ------------

_BINARY4 = "rankings(n=4, grades={0,1}, lengths=exact, R=4)"
_SIZE8 = "sets(N=20, R=5, size=8)"


class _Files:
    """Stands in for ``importlib.resources``: ``files("axiometer") / "data" / name`` is ``root/data/name``."""

    def __init__(self, root):
        self.root = root

    def files(self, package):
        return self.root


_HEADER = "measure\tkind\tspec\tpublished\tcondition\n"


@pytest.mark.parametrize("text, message", [
    # A wrong header names the file and the header read.
    ("measure\tkind\tspec\tpublished\n", "giner.tsv: unexpected header ['measure', 'kind', 'spec', 'published']"),
    # Data rows are numbered from 2 (the header is row 1), comments and blank lines not counted.
    (_HEADER + "recall\tset\trecall\tinterval/metric\t-\n# note\n\nAP\trank\tAP\tordinal/pseudometric\n",
     "giner.tsv data row 3: malformed row ['AP', 'rank', 'AP', 'ordinal/pseudometric']"),
    (_HEADER + "AP\tsets\tAP\tordinal/pseudometric\t-\n",
     "giner.tsv data row 2: malformed row ['AP', 'sets', 'AP', 'ordinal/pseudometric', '-']"),
    (_HEADER + "AP\trank\tAP\tordinal\t-\n", "giner.tsv data row 2: malformed row ['AP', 'rank', 'AP', 'ordinal', '-']"),
])
def test_a_malformed_giner_data_file_is_one_error_naming_the_row(tmp_path, monkeypatch, text, message):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "giner.tsv").write_text(text, encoding="utf-8")
    monkeypatch.setattr(giner, "resources", _Files(tmp_path))
    with pytest.raises(InputError) as error:
        load_giner()
    assert str(error.value) == message


def test_giner_data_rows_read_dashes_as_none(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "giner.tsv").write_text(
        "# comment\n" + _HEADER + "\nAP\trank\tAP\t-\t-\nRBP\trank\tRBP(p=0.8)\tordinal/pseudometric\tin general\n",
        encoding="utf-8")
    monkeypatch.setattr(giner, "resources", _Files(tmp_path))
    assert load_giner() == (GinerEntry("AP", "rank", "AP", None, None),
                            GinerEntry("RBP", "rank", "RBP(p=0.8)", "ordinal/pseudometric", "in general"))


def test_giner_rows_follow_the_file_and_unknown_names_list_the_known_ones():
    known = [e.measure for e in load_giner()]
    table = run_giner(domains=[sets(20, 5, size=8)], measures=["precision", "recall"])
    assert [row.entry.measure for row in table.rows] == [m for m in known if m in ("precision", "recall")]
    with pytest.raises(InputError) as error:
        run_giner(domains=[sets(20, 5, size=8)], measures=["recall", "MAP"])
    assert str(error.value) == "unknown Giner measure 'MAP'; known: " + ", ".join(known)


def test_giner_differences_are_explained_by_the_property_and_the_domain():
    # RBP at p = 0.8 is injective on binary rankings of length 4 (16 distinct values), stronger
    # than Giner's "not a metric in general": the parametric analysis finds the tying p.
    table = run_giner(domains=[rankings(4)], measures=["RBP (p = 0.8)"])
    (row,) = table.rows
    assert row.reproduced_by == () and row.explanation == (
        f"on {_BINARY4}: ordinal/metric, stronger than ordinal/pseudometric: metric holds here "
        "(injective: 16 distinct values on 16 outputs); Giner's category is for the measure in general: "
        "some parameter values make outputs tie, which the parametric analysis finds",)
    # F on sets of size 8 is 2 TP / 13, linear: interval, stronger than Giner's ordinal/metric, and
    # the domain (not a parameter) is why.
    table = run_giner(domains=[sets(20, 5, size=8)], measures=["F-measure"])
    (row,) = table.rows
    assert row.explanation == (
        f"on {_SIZE8}: interval/metric, stronger than ordinal/metric: interval holds here (the 6 "
        "distinct values are equally spaced); this domain does not contain the outputs Giner's argument "
        "rests on",)
    # A weaker category names the failing property and its counterexample, value by value:
    # precision on all subsets ties (TP=0, FP=0) (0/0 read as 0) and (TP=0, FP=1) (0/1).
    table = run_giner(domains=[sets(20, 5)], measures=["precision"])
    (row,) = table.rows
    (text,) = row.explanation
    metric = row.result_on("sets(N=20, R=5)").property("metric")
    assert text == (f"on sets(N=20, R=5): ordinal/pseudometric, not interval/metric: metric fails "
                    f"({metric.note}); counterexample (TP=0, FP=0) = 0, (TP=0, FP=1) = 0")


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


def test_a_pole_shared_by_two_scores_is_not_a_tie():
    # [a] 1/x, [b] 4 - 1/x on (0, inf): equal where 2/x = 4, x = 1/2. Written over the common
    # denominator the difference is x (2 - 4x) / x^2: its factor x is the pole, not a tie, and the
    # factor 2x - 1 after it still gives the tie.
    table = {"a": lambda A, x: A.num(1) / A.num(x), "b": lambda A, x: A.num(4) - A.num(1) / A.num(x)}
    result = analyse(_param_metric(table, low=0, low_open=True), "x", _ABC_AB)
    assert result.exceptional == (("1/2", 0.5, "[a]", "[b]"),)
    assert result.interval_ranges == ("(0, 1/2)", "(1/2, inf)")


def test_identically_equal_gaps_make_every_sub_range_interval():
    # [a] 0, [b] x, [c] 2x: all three tie at 0; on either side the gaps are x, x (or -x, -x),
    # equal for every x: interval on both sub-ranges.
    table = {"a": lambda A, x: A.num(0), "b": lambda A, x: A.num(x), "c": lambda A, x: A.num(2) * A.num(x)}
    result = analyse(_param_metric(table), "x", _ABC)
    assert [e[0] for e in result.exceptional] == ["0"]
    assert result.interval_ranges == ("(-inf, 0)", "(0, inf)") and result.interval == ()


def test_a_pole_at_the_sample_point_is_no_crash():
    # [a] 1 + 1/x, [b] 2 + 1/x: never tied (they differ by 1), undefined at x = 0. The sub-range
    # (-inf, inf) has no tie, so its sample point is 0, where both scores are 1/0.
    table = {"a": lambda A, x: A.num(1) + A.num(1) / A.num(x), "b": lambda A, x: A.num(2) + A.num(1) / A.num(x)}
    result = analyse(_param_metric(table), "x", _ABC_AB)
    assert result.exceptional == ()
    # The pole splits the range: each side is sampled away from it (it raised TypeError there).
    assert result.interval_ranges == ("(-inf, 0)", "(0, inf)")


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
    four = outputs([([d], _TOPIC6) for d in "abcd"], name="four")
    result = classify(_table({d: 1.0 for d in "abcd"}), four, exact=_exactly(exact))
    assert result.distinct == 3 and result.values == ((1.0, 2), (1.0, 1), (1.0, 1))
    metric = result.property("metric")
    assert [r.index for r in metric.counterexample] == [1, 3] and metric.exact
    assert [r.index for r in result.largest_class] == [1, 3]
    interval = result.property("interval")
    assert interval.holds and interval.exact and result.category == "ordinal/pseudometric"


def test_the_canonical_domains_are_those_the_module_names():
    # giner.py's docstring: sets(20, 5, size=8), sets(20, 5, nonrel=0), sets(20, 5); users(U=5,
    # unknown=5) and the same with wanted = 2, examined up to 8; binary rankings(n=4) (R = 4),
    # rankings(n=6) and graded rankings(n=3, grades={0, 1/2, 1}) (R = 6: three documents of each
    # relevant grade). Sizes: TP = 0..5; TP = 0..5; 6 * 16 (TP, FP); 6 * 6 (Rk, Ru); 36 * 7
    # (examined = 2..8); 2^4, 2^6, 3^3.
    assert [d.name for d in canonical_domains()] == [
        "sets(N=20, R=5, size=8)", "sets(N=20, R=5, nonrel=0)", "sets(N=20, R=5)",
        "users(U=5, unknown=5)", "users(U=5, unknown=5, wanted=2, examined=8)",
        "rankings(n=4, grades={0,1}, lengths=exact, R=4)", "rankings(n=6, grades={0,1}, lengths=exact, R=6)",
        "rankings(n=3, grades={0,1/2,1}, lengths=exact, R=6)"]
    assert [d.size for d in canonical_domains()] == [6, 6, 96, 36, 252, 16, 64, 27]


def test_giner_rows_choose_the_domains_of_their_kind():
    # Domains given in any order: the table lists sets then users as set columns, users apart,
    # rankings as rank columns.
    table = run_giner(domains=[rankings(2), users(2, 1), sets(4, 2, size=2)],
                      measures=["recall", "coverage ratio", "recall effort", "Prec@k", "DCG"])
    assert table.set_domains == ("sets(N=4, R=2, size=2)", "users(U=2, unknown=1)")
    assert table.user_domains == ("users(U=2, unknown=1)",)
    assert table.rank_domains == ("rankings(n=2, grades={0,1}, lengths=exact, R=2)",)
    rows = {row.entry.measure: row for row in table.rows}
    assert [r.domain for r in rows["recall"].results] == ["sets(N=4, R=2, size=2)"]
    assert [r.domain for r in rows["coverage ratio"].results] == ["users(U=2, unknown=1)"]
    # recall effort (wanted / examined) needs a users domain that varies them: none here.
    assert rows["recall effort"].results == () and rows["recall effort"].skipped == "no user domain given"
    # Prec@k is P@{n}: P@2 on binary length 2 (0, 1/2, 1/2, 1: the tie Giner states).
    (prec,) = rows["Prec@k"].results
    assert prec.metric == "P@2" and prec.category == "ordinal/pseudometric"
    assert rows["Prec@k"].reproduced_by == (prec.domain,) and rows["Prec@k"].explanation == ()
    # DCG has no published category: nothing to reproduce, nothing to explain.
    assert rows["DCG"].reproduced_by == () and rows["DCG"].explanation == ()
    assert all(row.skipped is None for m, row in rows.items() if m != "recall effort")
    # Without a rank domain a rank measure is skipped, named by its kind.
    only_sets = run_giner(domains=[sets(4, 2, size=2)], measures=["AP"])
    assert only_sets.rows[0].skipped == "no rank domain given" and only_sets.rank_domains == ()


def test_giner_counterexamples_print_exact_values_or_six_digits():
    # An explanation's records: the exact value where known, else the float to 6 significant digits.
    records = (OutputRecord(0, "(0, 1)", ("a",), 0.5, "1/2"), OutputRecord(1, "(1, 0)", ("b",), 2 / 3))
    assert giner._records(records) == "(0, 1) = 1/2, (1, 0) = 0.666667"


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
    result = classify(_table({"a": 1 + 1e-12, "b": 1.0}), outputs([([d], _TOPIC6) for d in "ab"], name="ab"))
    assert _labels(result.property("metric").counterexample) == ["[a]", "[b]"]
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
    four = outputs([([d], _TOPIC6) for d in "abcd"], name="four")
    result = classify(_table(floats), four, exact=lambda r, t: exact[r[0]])
    # Each value is shown as the float of its class's first output in domain order: [a], [c].
    assert result.distinct == 2 and result.values == ((1.0 + 1e-15, 2), (3.0, 2))
    metric = result.property("metric")
    assert _labels(metric.counterexample) == ["[a]", "[b]"] and metric.exact
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
