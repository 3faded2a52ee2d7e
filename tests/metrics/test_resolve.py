"""Metric references (`axiometer.metrics.resolve`): built-in specs, `module:attr` imported from the
current directory, `ir_measures:`, objects and functions, parameters and grids, and one
clear error line for every bad reference."""

from __future__ import annotations

import json  # noqa: F401  (loaded, so a local json.py is shadowed)
import os
import sys
import textwrap
from collections.abc import Callable, Iterator

import pytest

from axiometer.core import InputError, Ranking, Topic
from axiometer.metrics.resolve import resolve
from axiometer.metrics import BuiltinMetric, FunctionMetric, UserMetric, parse

TOPIC = Topic.single({"d1": 0.5, "d2": 0.1, "d3": 0})
RANKING = Ranking(("d2", "d1", "d3"))

#: A metric author's module: a function with a parameter, a protocol object, a class of
#: such objects, a static method, and a value that is not a metric.
AUTHOR_MODULE = """
from axiometer.metrics import Needs

def graded_p2(ranking, topic, k=2, bonus=0):
    \"\"\"Mean relevance of the first k documents, plus a bonus.\"\"\"
    return sum(float(topic.r(d)) for d in ranking[:k]) / k + bonus

def scaled(ranking, topic, scale=1.0):
    return scale * sum(float(topic.r(d)) for d in ranking[:1])

class FirstRel:
    name = "first_rel"
    cutoff = None
    needs = Needs(aspects=False, graded=False)
    param_info = ()
    params = {}

    def score(self, ranking, topic, context=None):
        return next((1.0 / i for i, d in enumerate(ranking, 1) if topic.rel(d)), 0.0)

first_rel = FirstRel()

class Holder:
    @staticmethod
    def top(ranking, topic):
        return float(topic.r(ranking[0])) if ranking else 0.0

answer = 42
"""


@pytest.fixture
def scratch_module(tmp_path, monkeypatch) -> Iterator[Callable[[str, str], None]]:
    """Write modules into ``tmp_path`` (the current directory); forget them afterwards."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))  # the loader puts the directory first
    written: list[str] = []
    loaded_before = set(sys.modules)

    def write(name: str, source: str) -> None:
        path = tmp_path.joinpath(*name.split("."))
        if "." in name:  # a package: every level gets an __init__.py
            for parent in [tmp_path.joinpath(*name.split(".")[:i]) for i in range(1, name.count(".") + 1)]:
                parent.mkdir(exist_ok=True)
                parent.joinpath("__init__.py").touch()
        path.with_suffix(".py").write_text(textwrap.dedent(source), encoding="utf-8")
        written.append(name)

    yield write
    for name in set(sys.modules) - loaded_before:
        if any(name == w or name.startswith(w + ".") or w.startswith(name + ".") for w in written):
            del sys.modules[name]


# -- each kind of reference ----------------------------------------------------

def test_a_builtin_spec():
    metric = resolve("RBP(p=0.5)").metric
    assert isinstance(metric, BuiltinMetric) and metric.name == "RBP(p=0.5)"
    assert resolve("RBP(p=0.5)").name == "RBP(p=0.5)"  # run_table gets the spec: p stays fixed


def test_a_function_from_the_current_directory(scratch_module):
    scratch_module("authormod", AUTHOR_MODULE)
    metric = resolve("authormod:graded_p2").metric
    assert isinstance(metric, FunctionMetric) and metric.name == "graded_p2"
    assert metric.score(RANKING, TOPIC) == pytest.approx((0.1 + 0.5) / 2)
    assert sys.path[0] == os.path.dirname(sys.modules["authormod"].__file__)


def test_a_module_in_a_package_and_a_class_attribute(scratch_module):
    scratch_module("pkg.sub.metrics", AUTHOR_MODULE)
    metric = resolve("pkg.sub.metrics:Holder.top").metric
    assert metric.name == "top" and metric.score(RANKING, TOPIC) == pytest.approx(0.1)


def test_a_metric_object_is_adapted_and_a_class_is_instantiated(scratch_module):
    scratch_module("authormod", AUTHOR_MODULE)
    obj = resolve("authormod:first_rel").metric
    assert isinstance(obj, UserMetric) and obj.inner is sys.modules["authormod"].first_rel
    made = resolve("authormod:FirstRel").metric
    assert type(made.inner).__name__ == "FirstRel" and made.score(RANKING, TOPIC) == 1.0


def test_objects_and_functions_given_directly():
    def top(ranking, topic):
        return 0.0

    assert resolve(top).metric.name == "top"
    builtin = resolve("nDCG@10").metric
    assert resolve(builtin).metric is builtin


def test_the_ir_measures_bridge_is_delegated_to(monkeypatch):
    import axiometer.metrics.ir_measures_bridge as bridge

    seen = []
    made = parse("P@10")
    monkeypatch.setattr(bridge, "ir_measures_metric", lambda measure: seen.append(measure) or made)
    assert resolve("ir_measures:nDCG@10").metric is made and seen == ["nDCG@10"]


# -- parameters, grids, cutoff, name, needs ------------------------------------------

def test_function_parameters_fixed_and_grids(scratch_module):
    scratch_module("authormod", AUTHOR_MODULE)
    fixed = resolve("authormod:graded_p2", params={"bonus": 1}).metric
    assert fixed.name == "graded_p2(bonus=1)"
    assert fixed.score(RANKING, TOPIC) == pytest.approx(1.3)
    (param,) = fixed.param_info
    assert param.type is int and param.grid == ()
    grid = resolve("authormod:scaled", params={"scale": [0.5, 1.0, 2]}).metric
    (param,) = grid.param_info
    # The function's own default (1.0) is in the grid, so it is the metric's setting.
    assert param.type is float and param.grid == (0.5, 1.0, 2) and grid.params == {"scale": 1.0}
    first = resolve("authormod:scaled", params={"scale": [3, 4]}).metric
    assert first.params == {"scale": 3} and first.param_info[0].type is int
    words = resolve("authormod:graded_p2", params={"bonus": ["a", "b"]}).metric
    assert words.param_info[0].type is str


def test_function_cutoff_name_and_needs(scratch_module):
    scratch_module("authormod", AUTHOR_MODULE)
    metric = resolve("authormod:graded_p2", cutoff=1, name="gp", needs={"aspects": False}).metric
    assert metric.name == "gp@1" and metric.cutoff == 1 and metric.needs.aspects is False
    # The function takes k, so it receives the cutoff: the mean of the first document only.
    assert metric.score(RANKING, TOPIC) == pytest.approx(0.1)


def test_builtin_parameters_are_written_into_the_spec_or_become_its_grid():
    loaded = resolve("RBP", params={"p": 0.5})
    assert loaded.name == "RBP(p=0.5)" and loaded.grids is None
    loaded = resolve("RBP", params={"p": [0.5, 0.9]}, cutoff=20)
    assert loaded.name == "RBP@20" and loaded.grids == {"RBP.p": (0.5, 0.9)}
    assert resolve("nDCG@10", cutoff=5).metric.name == "nDCG@5"


def test_metric_object_grid_by_family():
    loaded = resolve(resolve("RBP").metric, params={"p": [0.5]})
    assert loaded.grids == {"RBP.p": (0.5,)}
    assert resolve(resolve("RBP").metric, params={"p": 0.9}).metric.name == "RBP(p=0.9)"


# -- errors: one line each -------------------------------------------------------

def one_line(error: pytest.ExceptionInfo) -> str:
    message = str(error.value)
    assert "\n" not in message
    return message


def test_module_not_found_names_the_module_and_the_directory(scratch_module, tmp_path):
    with pytest.raises(InputError) as error:
        resolve("nosuchmod_s3:f")
    message = one_line(error)
    assert "module 'nosuchmod_s3' not found" in message and str(tmp_path) in message


def test_a_missing_submodule_is_not_found(scratch_module):
    scratch_module("pkg.present", "x = 1\n")
    with pytest.raises(InputError, match="module 'pkg.absent' not found"):
        resolve("pkg.absent:f")


def test_a_missing_attribute_suggests_a_close_name(scratch_module):
    scratch_module("authormod", AUTHOR_MODULE)
    with pytest.raises(InputError) as error:
        resolve("authormod:graded_p3")
    assert one_line(error) == ("metric 'authormod:graded_p3': module 'authormod' has no attribute "
                               "'graded_p3'; did you mean 'graded_p2'?")
    with pytest.raises(InputError, match="'authormod:Holder' has no attribute 'bottom'"):
        resolve("authormod:Holder.bottom")


def test_a_module_shadowed_by_an_installed_one_is_named(scratch_module):
    # `json` is loaded already (imported above), so a local json.py cannot win.
    assert "json" in sys.modules
    scratch_module("json", "def my_metric(ranking, topic):\n    return 0.0\n")
    with pytest.raises(InputError) as error:
        resolve("json:my_metric")
    assert "has no attribute 'my_metric'" in one_line(error)
    assert "not from the current directory" in str(error.value)


def test_an_exception_while_importing_names_type_message_and_line(scratch_module, tmp_path):
    scratch_module("raisingmod", "import math\nVALUE = 1\nraise RuntimeError('no data file')\n")
    with pytest.raises(InputError) as error:
        resolve("raisingmod:f")
    message = one_line(error)
    assert "importing 'raisingmod' raised RuntimeError: no data file" in message
    assert f"{tmp_path / 'raisingmod.py'}:3" in message


def test_a_missing_dependency_of_the_module_is_an_import_error_not_not_found(scratch_module):
    scratch_module("needsmod", "x = 1\nimport nosuchdependency_s3\n")
    with pytest.raises(InputError) as error:
        resolve("needsmod:f")
    message = one_line(error)
    assert "raised ModuleNotFoundError: No module named 'nosuchdependency_s3'" in message
    assert "needsmod.py:2" in message


def test_a_syntax_error_names_the_line(scratch_module, tmp_path):
    scratch_module("brokenmod", "def f(:\n    pass\n")
    with pytest.raises(InputError) as error:
        resolve("brokenmod:f")
    assert "raised SyntaxError" in one_line(error) and f"{tmp_path / 'brokenmod.py'}:1" in str(error.value)


def test_not_callable(scratch_module):
    scratch_module("authormod", AUTHOR_MODULE)
    with pytest.raises(InputError) as error:
        resolve("authormod:answer")
    assert one_line(error) == "'authormod:answer' is not callable (it is an int)"


@pytest.mark.parametrize("ref, message", [
    ("mod:", "expected 'package.module:attribute'"),
    (":f", "expected 'package.module:attribute'"),
    ("a b:c", "expected 'package.module:attribute'"),
    ("ir_measures:", "give a measure after 'ir_measures:'"),
    ("Nope@3", "unknown metric 'Nope'"),
    ("RBU(form='a:b')", "must be one of 'paper', 'reference'"),  # a colon in a value: still a spec
    (42, "'42' is not callable (it is an int)"),
])
def test_malformed_references(ref, message):
    with pytest.raises(InputError) as error:
        resolve(ref)
    assert message in one_line(error)


@pytest.mark.parametrize("ref, kwargs, message", [
    ("RBP", {"params": {"q": 1}}, "RBP has no parameter 'q' (parameters: p)"),
    ("RBP(p=0.5)", {"params": {"p": 0.9}}, "parameter p is written in the spec already"),
    ("RBP", {"params": {"p": [0.5, 2]}}, "outside its range"),
    ("RBP", {"name": "mine"}, "name= cannot be given here"),
    ("ir_measures:nDCG@10", {"cutoff": 5}, "takes its parameters in the measure"),
    ("RR", {"cutoff": 0}, "cutoff"),
])
def test_bad_parameters_for_builtins(ref, kwargs, message):
    with pytest.raises(InputError) as error:
        resolve(ref, **kwargs)
    assert message in one_line(error)


def test_a_function_parameter_it_does_not_accept(scratch_module):
    scratch_module("authormod", AUTHOR_MODULE)
    with pytest.raises(InputError, match="does not accept declared parameter 'beta'"):
        resolve("authormod:scaled", params={"beta": 1})
