"""The metric protocol: declared parameters, wrapping plain functions."""

import math
from fractions import Fraction

import pytest

from axiometer.core import Context, Ranking, Topic, ValidationError
from axiometer.metrics import Metric, MetricError, Needs, Param, is_exact_capable, parse, wrap

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
