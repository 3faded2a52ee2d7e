"""The metric base (issue 14, mutation survivors of metrics/base.py): declared parameter ranges as
written in error messages, what a wrapped function may return, and the batched path's refusals."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from axiometer.core import Ranking, Topic, ValidationError
from axiometer.metrics import MetricError, Param, parse, wrap
from axiometer.metrics.base import BuiltinMetric, RelevantNormalisedMetric, RankingBatch, score_value

TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0})


def test_range_text_writes_a_missing_bound_as_infinite():
    # One bound only: the other side is written -inf / inf (closed brackets, nothing open).
    assert Param("x", float, 1, "", low=0).range_text() == "float in [0, inf]"
    assert Param("x", int, 1, "", high=5).range_text() == "int in [-inf, 5]"
    assert Param("x", float, 1, "", low=0, low_open=True).range_text() == "float in (0, inf]"
    # No bound at all: any value of the type.
    assert Param("x", float, 1, "").range_text() == "any float"
    with pytest.raises(ValidationError) as error:
        Param("e", float, 0.05, "effort", low=0).validate(-1.0, "EU")
    assert str(error.value) == "EU: parameter e=-1.0 is outside its range, float in [0, inf]"


def test_score_value_accepts_numpy_scalars_and_zero_dimensional_numeric_arrays():
    assert score_value(np.array(2.5)) == 2.5
    assert score_value(np.array(3)) == 3.0  # integer kind 'i'
    assert score_value(np.array(3, dtype=np.uint8)) == 3.0  # kind 'u'
    assert score_value(np.float32(1.5)) == 1.5
    # A one-element array is not a number (it has a dimension); nor is a 0-d bool or string array.
    for bad, kind in ((np.array([1.0]), "ndarray"), (np.array(True), "ndarray"),
                      (np.array("x"), "ndarray"), ("x", "str"), (None, "NoneType")):
        with pytest.raises(MetricError) as error:
            score_value(bad)
        assert str(error.value) == f"returned {bad!r} ({kind}), not a number"


def test_score_value_says_too_large_and_non_finite():
    huge = Fraction(10 ** 400)  # a real number no float holds: float() overflows
    with pytest.raises(MetricError) as error:
        score_value(huge)
    assert str(error.value) == f"returned {huge!r}, too large for a float"
    with pytest.raises(MetricError) as error:
        score_value(-math.inf)
    assert str(error.value) == "returned -inf, a non-finite value"


def test_a_wrapped_function_returning_a_non_number_is_named_in_the_error():
    metric = wrap(lambda ranking, topic: "0.5", "Bad", cutoff=2)
    with pytest.raises(MetricError) as error:
        metric.score(Ranking(["a"]), TOPIC)
    assert str(error.value) == "Bad@2 returned '0.5' (str), not a number"


def test_wrapped_replace_validates_declared_values_passes_others_and_keeps_the_declarations():
    def scaled(ranking, topic, w=1.0, **extra):
        return w * len(ranking) + extra.get("bonus", 0)

    metric = wrap(scaled, "Scaled", param_info=[Param("w", float, 1.0, "scale", low=0)])
    # An undeclared parameter (the function takes **extra) is passed through unvalidated.
    bonus = metric.replace(bonus=10)
    assert bonus.score(Ranking(["a", "b"]), TOPIC) == 12.0
    # The replaced metric keeps its declarations: a second replace still validates w, and the
    # message names the metric's family.
    twice = metric.replace(w=2.0).replace(w=3.0)
    assert twice.param_info == metric.param_info
    assert twice.score(Ranking(["a"]), TOPIC) == 3.0
    with pytest.raises(ValidationError) as error:
        metric.replace(w=2.0).replace(w=-1.0)
    assert str(error.value) == "Scaled: parameter w=-1.0 is outside its range, float in [0, inf]"


def test_distinct_builtin_metrics_hash_apart_and_equal_ones_together():
    assert hash(parse("P@5")) == hash(parse("P@5"))
    assert len({parse("P@5"), parse("P@10"), parse("nDCG@5"), parse("P@5")}) == 3
    assert hash(parse("P@5")) != hash(parse("P@10"))


class _NoBatch(BuiltinMetric):
    family = "NoBatch"
    title = "NoBatch"


class _NoBatchRelevant(RelevantNormalisedMetric):
    family = "NoBatchR"
    title = "NoBatchR"


def test_a_metric_without_a_batched_path_says_so_by_family():
    batch = RankingBatch.from_rankings([["a", "b"]], TOPIC)
    with pytest.raises(NotImplementedError) as error:
        _NoBatch().score_batch(batch)
    assert str(error.value) == "NoBatch has no batched path"
    # R = 2 > 0: the normalised base hands the batch on, to a formula that is missing.
    with pytest.raises(NotImplementedError) as error:
        _NoBatchRelevant().score_batch(batch)
    assert str(error.value) == "NoBatchR has no batched path"
