"""The metric protocol: declared parameters, wrapping plain functions."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import numpy as np

from axiometer.core import Context, Ranking, Topic, ValidationError
from axiometer.metrics import Metric, MetricError, Needs, Param, is_exact_capable, parse, wrap
from axiometer.metrics.base import BuiltinMetric, RankingBatch, RelevantNormalisedMetric, score_value

TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0})


def test_param_validation_names_the_range():
    p = Param("p", float, 0.8, "patience", low=0, high=1, low_open=True, high_open=True)
    assert p.validate(0.5) == 0.5 and p.validate(Fraction(1, 2)) == Fraction(1, 2)
    for bad in (0, 1.0, 1.5, "x", float("nan"), True):
        with pytest.raises(ValidationError, match="parameter p"):
            p.validate(bad, "RBP")
    assert p.range_text() == "float in (0, 1)"
    k = Param("k", int, 3, "depth", low=1)
    assert k.validate(4.0) == 4
    with pytest.raises(ValidationError):
        k.validate(2.5)
    form = Param("form", str, "paper", "which form", choices=("paper", "reference"))
    with pytest.raises(ValidationError, match="one of 'paper', 'reference'"):
        form.validate("other")


def test_builtin_metrics_implement_the_protocol():
    metric = parse("nDCG@10")
    assert isinstance(metric, Metric)
    assert metric.needs == Needs(aspects=False, graded=True)
    assert is_exact_capable(metric)
    assert metric == parse("nDCG@10") and hash(metric) == hash(parse("nDCG@10"))
    assert metric.replace(cutoff=5).name == "nDCG@5"


def test_wrap_a_plain_function():
    def first_relevant(ranking, topic):
        return float(bool(ranking) and topic.rel(ranking[0]))

    metric = wrap(first_relevant)
    assert isinstance(metric, Metric) and not is_exact_capable(metric)
    assert metric.name == "first_relevant"
    assert metric.score(Ranking(["a", "c"]), TOPIC) == 1.0
    assert metric.score(Ranking(["c", "a"]), TOPIC) == 0.0


def test_wrap_passes_parameters_cutoff_and_context():
    seen = {}

    def gain_at(ranking, topic, context=None, depth=1):
        seen.update(context=context, ranking=ranking)
        return float(sum(topic.r(d) for d in ranking[:depth]))

    metric = wrap(gain_at, "GainAt", cutoff=2, param_info=[Param("depth", int, 1, "positions", low=1)],
                  params={"depth": 5})
    assert metric.name == "GainAt(depth=5)@2"
    context = Context((Ranking(["x"]),))
    # No k/cutoff argument: the function is handed ranking[:2].
    assert metric.score(Ranking(["b", "a", "c"]), TOPIC, context) == 1.5
    assert seen["ranking"] == ("b", "a") and seen["context"] is context


def test_wrap_rejects_undeclared_parameters_and_bad_values():
    with pytest.raises(ValidationError, match="does not accept declared parameter 'q'"):
        wrap(lambda ranking, topic: 0.0, "f", params={"q": 1})
    for bad in (None, "0.5", math.nan, math.inf, True):
        metric = wrap(lambda ranking, topic, bad=bad: bad, "bad")
        with pytest.raises(MetricError):
            metric.score(Ranking([]), TOPIC)


def test_context_required_when_declared():
    metric = wrap(lambda ranking, topic, context: 0.0, "rel", needs=Needs(context=True))
    with pytest.raises(ValidationError, match="needs a context"):
        metric.score(Ranking([]), TOPIC)


def test_builtin_parameter_errors():
    with pytest.raises(ValidationError, match="takes no cutoff|cutoff"):
        parse("nDCG").replace(cutoff=0)


def test_wrapped_metric_replace_validates_and_renames():
    def scaled(ranking, topic, w=1.0):
        return w * len(ranking)

    metric = wrap(scaled, "Scaled", param_info=[Param("w", float, 1.0, "scale", low=0)], cutoff=3)
    other = metric.replace(w=2.0)
    assert other.name == "Scaled(w=2.0)@3" and other.family == "Scaled"
    assert other.score(Ranking(["a", "b", "c", "d"]), TOPIC) == 6.0  # ranking[:3]
    assert metric.replace(cutoff=2).name == "Scaled(w=1.0)@2"
    with pytest.raises(ValidationError):
        metric.replace(w=-1.0)


# The metric base (issue 14): declared parameter ranges as written in error messages, what a wrapped
# function may return, and the batched path's refusals.

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


def test_builtin_construction_errors_name_the_family_and_the_problem():
    from axiometer.metrics.bpref import Bpref
    from axiometer.metrics.dcg import NDCG
    from axiometer.metrics.precision import PrecisionAtK
    from axiometer.metrics.rbp import RBP

    cases = [
        (lambda: RBP(q=1), "RBP: unknown parameter 'q' (parameters: p)"),
        (lambda: NDCG(q=1), "nDCG: unknown parameter 'q' (parameters: none)"),
        (lambda: Bpref(3), "bpref takes no cutoff (@k)"),
        (lambda: PrecisionAtK(0), "P: cutoff must be a positive integer, got 0"),
        (lambda: PrecisionAtK(True), "P: cutoff must be a positive integer, got True"),
        (lambda: PrecisionAtK(2.0), "P: cutoff must be a positive integer, got 2.0"),
        (lambda: RBP(p=1), "RBP: parameter p=1 is outside its range, float in (0, 1)"),
        (lambda: RBP(p="x"), "RBP: parameter p must be a float, got 'x'"),
    ]
    for build, message in cases:
        with pytest.raises(ValidationError) as error:
            build()
        assert str(error.value) == message
    # A required cutoff left out is the default one; a given one is kept.
    assert PrecisionAtK().cutoff == 10 and PrecisionAtK(3).cutoff == 3 and PrecisionAtK(3).name == "P@3"
    assert NDCG().cutoff is None and NDCG().name == "nDCG"


def test_names_show_numeric_parameters_always_and_hidden_ones_off_their_default():
    assert parse("RBP").name == "RBP(p=0.8)" and parse("RBP@5").name == "RBP(p=0.8)@5"
    # rel is shown only off its default (shown_at_default=False), and then also in params.
    assert parse("P@5").params == {} and parse("P@5").name == "P@5"
    assert parse("P(rel=2)@5").params == {"rel": 2} and parse("P(rel=2)@5").name == "P(rel=2)@5"
    # A string option at its default is in params but not in the name.
    assert parse("RBU").name == "RBU(p=0.8,e=0.05)" and parse("RBU").params["form"] == "paper"
    assert parse("RBU(form='reference')").name == "RBU(p=0.8,e=0.05,form='reference')"
    assert parse("RBP(p=0.9)@3").replace(p=0.5).name == "RBP(p=0.5)@3"
    assert parse("RBP(p=0.9)@3").replace(cutoff=None).name == "RBP(p=0.9)"
    assert repr(parse("P@5")) == "P@5"


def test_param_validation_messages_and_boundaries():
    closed = Param("e", float, 0.05, "effort", low=0, high=1)
    assert closed.validate(0) == 0 and closed.validate(1) == 1  # closed bounds are allowed
    assert closed.validate(Fraction(1, 3)) == Fraction(1, 3)
    for bad in (True, float("inf"), float("nan"), "0.5", None):
        with pytest.raises(ValidationError) as error:
            closed.validate(bad, "EU")
        assert str(error.value) == f"EU: parameter e must be a float, got {bad!r}"
    with pytest.raises(ValidationError) as error:
        closed.validate(1.5)
    assert str(error.value) == "parameter e=1.5 is outside its range, float in [0, 1]"
    count = Param("s", int, 1, "wanted", low=1)
    assert count.validate(3.0) == 3 and type(count.validate(3.0)) is int
    with pytest.raises(ValidationError) as error:
        count.validate(2.5, "ESL")
    assert str(error.value) == "ESL: parameter s must be a int, got 2.5"
    form = Param("form", str, "paper", "which form", choices=("paper", "reference"))
    assert form.validate("reference") == "reference"
    with pytest.raises(ValidationError) as error:
        form.validate("other", "RBU")
    assert str(error.value) == "RBU: parameter form='other' must be one of 'paper', 'reference'"
    text = Param("label", str, "", "a label")
    assert text.validate("x") == "x"
    with pytest.raises(ValidationError) as error:
        text.validate(3, "M")
    assert str(error.value) == "M: parameter label must be a str, got 3"


def test_ranking_batch_arrays_by_hand():
    # Two aspects x, y (weights 1/4, 3/4); a = (1, 1/2), b = (0, 1/4), c judged (0, 0); u unjudged.
    topic = Topic({"a": {"x": 1, "y": Fraction(1, 2)}, "b": {"x": 0, "y": Fraction(1, 4)},
                   "c": {"x": 0, "y": 0}}, {"x": Fraction(1, 4), "y": Fraction(3, 4)})
    batch = RankingBatch.from_rankings([["b", "u", "a"], ["c"], []], topic, depth=2)
    assert batch.depth == 2 and batch.lengths.tolist() == [2, 1, 0]  # depth truncates
    assert batch.gains.tolist() == [[[0, 0.25], [0, 0]], [[0, 0], [0, 0]], [[0, 0], [0, 0]]]
    assert batch.single.tolist() == [[0.25, 0], [0, 0], [0, 0]]
    assert batch.judged.tolist() == [[True, False], [True, False], [False, False]]
    assert batch.positions_valid().tolist() == [[True, True], [True, False], [False, False]]
    assert batch.weights.tolist() == [0.25, 0.75]
    assert batch.judged_gains.tolist() == [[1, 0.5], [0, 0.25], [0, 0]]
    assert batch.judged_single.tolist() == [1, 0.25, 0]
    # Built from arrays (no from_rankings): single, judged_gains and judged_single computed on demand.
    direct = RankingBatch(topic, batch.gains, batch.lengths)
    assert direct.single.tolist() == batch.single.tolist()
    assert direct.judged_gains.tolist() == [[1, 0.5], [0, 0.25], [0, 0]]
    assert direct.judged_single.tolist() == [1, 0.25, 0]
    assert direct.judged is None
    # No depth: the longest ranking's.
    assert RankingBatch.from_rankings([["b", "u", "a"], ["c"]], topic).depth == 3
    assert RankingBatch.from_rankings([], topic).gains.shape == (0, 0, 2)


class _NeedsContext(BuiltinMetric):
    family = "Ctx"
    title = "Ctx"
    needs = Needs(context=True)

    def compute(self, ranking, topic, A, context=None):
        return A.num(len(context))


def test_a_metric_that_needs_a_context_refuses_to_score_without_one():
    metric = _NeedsContext()
    for evaluate in (metric.score, metric.exact):
        with pytest.raises(ValidationError) as error:
            evaluate(["a"], TOPIC)
        assert str(error.value) == "Ctx needs a context (other systems' rankings)"
    context = Context((Ranking(["a"]), Ranking(["b"])))
    assert metric.score(["a"], TOPIC, context) == 2.0 and metric.exact(["a"], TOPIC, context) == 2


def test_format_value_writes_fractions_as_integers_or_floats():
    from axiometer.metrics.base import format_value

    assert format_value("paper") == "'paper'"
    assert format_value(Fraction(3)) == "3" and format_value(Fraction(1, 2)) == "0.5"
    assert format_value(Fraction(3, 2)) == "1.5" and format_value(Fraction(1, 3)) == repr(1 / 3)
    assert format_value(0.8) == "0.8" and format_value(2) == "2"


def test_wrap_names_needs_and_parameter_checks():
    def gain(ranking, topic, w=1.0):
        return w

    class Callable:
        def __call__(self, ranking, topic):
            return 0.0

    assert wrap(gain).name == "gain" and wrap(gain, "G").name == "G"
    assert wrap(Callable()).name == "metric"  # no __name__ to go by
    assert wrap(gain).needs == Needs(aspects=True, graded=True)
    assert wrap(gain, needs=Needs(aspects=False, graded=False)).needs == Needs(aspects=False, graded=False)
    declared = [Param("w", float, 1.0, "scale", low=0)]
    assert wrap(gain, param_info=declared).params == {"w": 1.0}
    assert wrap(gain, "G", param_info=declared, params={"w": 2.0}).name == "G(w=2.0)"
    for name, where in ((None, "gain"), ("G", "G")):
        with pytest.raises(ValidationError) as error:
            wrap(gain, name, param_info=declared, params={"w": -1.0})
        assert str(error.value) == f"{where}: parameter w=-1.0 is outside its range, float in [0, inf]"
    assert wrap(gain, cutoff=3).cutoff == 3 and wrap(gain, cutoff=3).name == "gain@3"
    with pytest.raises(ValidationError) as error:
        wrap(gain, "G", params={"q": 1, "p": 2})
    assert str(error.value) == "G(q=1,p=2): the function does not accept declared parameter 'q'"


def test_wrapped_functions_get_the_cutoff_and_context_they_ask_for():
    seen = {}

    def by_k(ranking, topic, k):
        seen["k"] = (len(ranking), k)
        return 0.0

    def by_cutoff(ranking, topic, cutoff):
        seen["cutoff"] = (len(ranking), cutoff)
        return 0.0

    def by_kwargs(ranking, topic, **kwargs):
        seen["kwargs"] = (len(ranking), kwargs)
        return 0.0

    ranking = Ranking(["a", "b", "c"])
    context = Context((Ranking(["x"]),))
    wrap(by_k, cutoff=2).score(ranking, TOPIC)
    wrap(by_cutoff, cutoff=2).score(ranking, TOPIC)
    wrap(by_kwargs, cutoff=2).score(ranking, TOPIC, context)
    # A function taking k or cutoff gets the whole ranking and the cutoff; one taking **kwargs gets the
    # context and ranking[:k] (no argument named k or cutoff).
    assert seen["k"] == (3, 2) and seen["cutoff"] == (3, 2)
    assert seen["kwargs"] == (2, {"context": context})


def test_an_objects_exact_path_needs_both_the_flag_and_the_method():
    from axiometer.metrics import adapt
    from axiometer.metrics.base import is_exact_capable

    class FlagOnly:
        name = "flag"
        exact_available = True

    class MethodOnly:
        name = "method"

        def exact(self, ranking, topic):
            return 0

    class Both(MethodOnly):
        exact_available = True

    assert adapt(FlagOnly()).exact is None and adapt(MethodOnly()).exact is None
    assert not is_exact_capable(adapt(FlagOnly())) and not is_exact_capable(adapt(MethodOnly()))
    assert is_exact_capable(adapt(Both())) and is_exact_capable(parse("AP"))
    assert adapt(Both()).exact(("a",), None) == 0
    assert not is_exact_capable(wrap(lambda ranking, topic: 0.0, "f"))


def test_batched_path_refuses_levels_above_one_and_scores_one_relevant_document():
    batch = RankingBatch.from_rankings([["c", "a"], ["b"]], TOPIC)
    with pytest.raises(NotImplementedError) as error:
        parse("AP(rel=2)").score_batch(batch)
    assert str(error.value) == "the batched path reads relevance level 1 only"
    # One relevant document (R = 1): AP of [x, d] is 1/2, scalar and batched.
    one = Topic.single({"a": 1, "c": 0})
    batch = RankingBatch.from_rankings([["c", "a"], ["a"], ["c"]], one)
    assert parse("AP").score_batch(batch).tolist() == [0.5, 1.0, 0.0]
    assert [parse("AP").exact(r, one) for r in (["c", "a"], ["a"], ["c"])] == [Fraction(1, 2), 1, 0]


def test_builtin_metrics_are_equal_only_to_the_same_metric():
    assert parse("P@5") == parse("P@5") and parse("P@5") != parse("P@10")
    assert parse("P@5") != parse("P(rel=2)@5")
    # A wrapped function named like a built-in is not the built-in.
    assert parse("P@5") != wrap(lambda ranking, topic: 0.0, "P", cutoff=5)
    assert parse("P@5") != "P@5"


def test_a_batch_is_as_deep_as_asked_and_rows_default_to_the_longest_ranking():
    topic = Topic.single({"a": 1, "b": Fraction(1, 2)})
    deep = RankingBatch.from_rankings([["a"], ["b", "u"]], topic, depth=4)
    assert deep.gains.shape == (2, 4, 1) and deep.lengths.tolist() == [1, 2]
    assert deep.gains[:, :, 0].tolist() == [[1.0, 0.0, 0.0, 0.0], [0.5, 0.0, 0.0, 0.0]]
    # from_rows without a depth: the longest ranking's (rows: topic.documents' index plus one).
    rows = RankingBatch.from_rows(np.array([1, 2, 0]), np.array([1, 2]), topic)
    assert rows.gains.shape == (2, 2, 1) and rows.single.tolist() == [[1.0, 0.0], [0.5, 0.0]]
    assert rows.judged.tolist() == [[True, False], [True, False]]
    empty = RankingBatch.from_rows(np.array([], dtype=np.int64), np.array([], dtype=np.int64), topic)
    assert empty.gains.shape == (0, 0, 1)
