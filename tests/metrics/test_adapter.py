"""One shape for every metric below resolve (issue 25): the adapter of a metric author's object,
the spec read once, ``--param`` values built without text, grids and ranges as types, the
quick budget decided once, and a metric's value checked once."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.checking import QUICK, Budget, run_budget
from axiometer.checking.guard import guard
from axiometer.cli.params import param_options
from axiometer.core import InputError, Topic
from axiometer.metrics import (FunctionMetric, Grid, Metric, Needs, Param, Range, UserMetric, adapt,
                               is_exact_capable, parse, wrap)
from axiometer.metrics import base, registry, spec
from axiometer.metrics.decide import evaluate
from axiometer.metrics.resolve import resolve

TOPIC = Topic.single({"a": 1, "b": 0})

#: Every member of the Metric protocol.
MEMBERS = ("family", "name", "params", "param_info", "cutoff", "needs", "exact", "score", "replace",
           "reversions", "stated_bounds", "counts_unique", "grades_convention")


class Bare:
    """Only what the protocol asks of an object: a name and a score."""

    name = "bare"

    def score(self, ranking, topic, context=None):
        return 0.5


class Full(Bare):
    """Every optional member declared, each at the value the adapter would give a bare object."""

    family = "bare"
    cutoff = None
    needs = Needs()
    param_info = ()
    params: dict = {}
    exact_available = False
    counts_unique = False
    grades_convention = None

    def reversions(self):
        return ()

    def stated_bounds(self):
        return ()


def shape(metric: Metric) -> tuple:
    return (metric.family, metric.name, dict(metric.params), metric.param_info, metric.cutoff, metric.needs,
            metric.exact, metric.reversions(), metric.stated_bounds(), metric.counts_unique,
            metric.grades_convention, metric.score(("a",), TOPIC))


def test_an_object_with_and_without_the_optional_members_gets_the_same_shape():
    bare, full = resolve(Bare()).metric, resolve(Full()).metric
    assert isinstance(bare, UserMetric) and isinstance(full, UserMetric)
    assert all(hasattr(bare, member) for member in MEMBERS)
    assert shape(bare) == shape(full) == ("bare", "bare", {}, (), None, Needs(), None, (), (), False, None, 0.5)
    assert isinstance(bare, Metric) and isinstance(parse("RBP"), Metric) and isinstance(wrap(len), Metric)


def test_every_scores_of_metric_has_every_member_of_the_protocol():
    def top(ranking, topic):
        return float(bool(ranking) and topic.rel(ranking[0]))

    for metric in (resolve("RBP").metric, resolve("NRG(base=P@3)").metric, resolve(top).metric,
                   resolve(Bare()).metric):
        assert all(hasattr(metric, member) for member in MEMBERS), metric
    assert resolve("AP").metric.exact is not None and resolve(top).metric.exact is None


def test_the_adapter_takes_an_objects_declared_members():
    class Declared(Bare):
        family = "mine"
        cutoff = 3
        needs = Needs(aspects=True, graded=False, context=True)
        param_info = (Param("w", float, 0.5, "weight"),)
        params = {"w": 0.5}
        exact_available = True

        def exact(self, ranking, topic, context=None):
            return Fraction(1, 2)

    metric = adapt(Declared())
    assert (metric.family, metric.cutoff, metric.needs, metric.params) == (
        "mine", 3, Needs(aspects=True, graded=False, context=True), {"w": 0.5})
    assert is_exact_capable(metric) and metric.exact(("a",), TOPIC) == Fraction(1, 2)
    assert adapt(metric) is metric and adapt(parse("RBP")) == parse("RBP")


def test_an_objects_value_is_checked_by_the_adapter():
    class Text(Bare):
        def score(self, ranking, topic, context=None):
            return "high"

    with pytest.raises(base.NotANumber) as raised:
        adapt(Text()).score(("a",), TOPIC)
    assert str(raised.value) == "returned 'high' (str), not a number"


def test_a_functions_value_is_checked_once_for_each_call(monkeypatch):
    calls, checked = [], []
    real = base.score_value

    def counting(value):
        checked.append(value)
        return real(value)

    def top(ranking, topic):
        calls.append(ranking)
        return 0.25

    monkeypatch.setattr(base, "score_value", counting)
    assert evaluate(guard(resolve(top).metric), ("a",), TOPIC) == 0.25
    assert len(calls) == 2 and len(checked) == 2  # the guard scores twice; each value is checked once


def test_a_spec_is_tokenized_once_and_its_family_looked_up_once(monkeypatch):
    resolve("RBP(p=0.5)")  # the registry is loaded
    parses, finds = [], []
    real_parse, real_find = spec._Parser.parse, registry._find
    monkeypatch.setattr(spec._Parser, "parse", lambda self: parses.append(self.text) or real_parse(self))
    monkeypatch.setattr(registry, "_find", lambda name, source=None: finds.append(name) or real_find(name, source))
    assert resolve("rbp(p=0.5)").name == "RBP(p=0.5)"
    assert (parses, finds) == (["rbp(p=0.5)"], ["rbp"])
    parses.clear(), finds.clear()
    assert resolve("rbp", params={"p": 0.5}, cutoff=4).name == "RBP(p=0.5)@4"
    assert (parses, finds) == (["rbp"], ["rbp"])  # the params are not printed into a spec and read again


def test_a_parsed_spec_carries_its_family_and_prints_its_canonical_form():
    parsed = registry.read_spec("rbp( p = 1/2 )@5")
    assert (parsed.family, parsed.cls, parsed.scores) == ("RBP", registry.family("RBP"), "ranking")
    assert parsed.text() == "RBP(p=0.5)@5"
    assert registry.build(parsed, "metric 'x'") == parse("RBP(p=0.5)@5")


@pytest.mark.parametrize("option, written", [
    ("p=0.5", "RBP(p=0.5)"), ("p=1/2", "RBP(p=0.5)"), ("p=0.25", "RBP(p=0.25)"),
])
def test_a_param_builds_the_metric_the_spec_writes(option, written):
    given = resolve("RBP", params=param_options([option]))
    typed = resolve(written)
    assert given.metric == typed.metric and given.name == typed.name == written
    assert given.fixed == typed.fixed == frozenset({"p"})


def test_a_list_and_a_tuple_are_shorthand_for_a_grid_and_a_range():
    assert resolve("RBP", params={"p": [0.5, 0.9]}) == resolve("RBP", params={"p": Grid([0.5, 0.9])})
    assert resolve("RBP", params={"p": (0.5, 0.9)}) == resolve("RBP", params={"p": Range(0.5, 0.9)})
    assert resolve("RBP", params={"p": Grid((0.5, 0.9))}).grids == {"RBP.p": (0.5, 0.9)}
    assert resolve("RBP", params={"p": Range(0.5, 0.9)}).ranges == {"RBP.p": (0.5, 0.9)}
    assert param_options(["p=0.5,0.9", "q=0.1..0.2"]) == {"p": Grid([0.5, 0.9]), "q": Range(0.1, 0.2)}
    with pytest.raises(InputError) as raised:
        resolve("RBP", params={"p": Range(0.9, 0.5)})
    assert str(raised.value) == "metric 'RBP': parameter p: the range 0.9..0.5 needs low < high"


def test_the_quick_budget_is_decided_in_one_place():
    assert run_budget(True) == QUICK and run_budget(False) == Budget()
    assert run_budget(True, Budget()) == QUICK  # the default budget of a quick run is the quick one
    mine = Budget(cases=7)
    assert run_budget(True, mine) is mine and run_budget(False, mine) is mine


def test_a_wrapped_function_and_a_builtin_are_not_adapted_again():
    function = wrap(lambda ranking, topic: 0.0, "f")
    assert isinstance(function, FunctionMetric) and adapt(function) is function
    rbp = parse("RBP")
    assert adapt(rbp) is rbp


def test_params_given_to_a_resolved_spec_read_it_no_more(monkeypatch):
    from axiometer.metrics.resolve import with_params

    plain = resolve("rbp@5")
    parses = []
    real_parse = spec._Parser.parse
    monkeypatch.setattr(spec._Parser, "parse", lambda self: parses.append(self.text) or real_parse(self))
    given = with_params(plain, {"p": 0.5})
    assert parses == []
    assert given == resolve("rbp@5", params={"p": 0.5}) and given.name == "RBP(p=0.5)@5"
    assert with_params(plain, {"p": [0.5, 0.9]}).grids == {"RBP.p": (0.5, 0.9)}
    with pytest.raises(InputError) as raised:
        with_params(plain, {"p": 2})
    assert str(raised.value) == "metric 'rbp@5': RBP: parameter p=2 is outside its range, float in (0, 1)"
