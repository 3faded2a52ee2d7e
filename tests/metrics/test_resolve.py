"""Metric references (`axiometer.metrics.resolve`): built-in specs, `module:attr` imported from the
current directory, `ir_measures:`, objects and functions, parameters and grids, and one
clear error line for every bad reference."""

from __future__ import annotations

import json  # noqa: F401  (loaded, so a local json.py is shadowed)
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest

import axiometer
from axiometer.reports.numbers import boundary_value

from axiometer.core import InputError, Ranking, Topic
from axiometer.metrics.resolve import IR_MEASURES_PREFIX, Resolved, _describe, _scores_of, resolve
from axiometer.metrics import BuiltinMetric, FunctionMetric, Needs, Param, UserMetric, adapt, parse
from axiometer.metrics.set_based import set_measure
from tests.errors import one_line_error

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
    monkeypatch.setattr(sys, "path", list(sys.path))  # the loader adds the directory to the path
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
    # The directory is on the path after the installed packages (issue 29: not first, where a file
    # named like one of axiometer's dependencies would replace it).
    directory = os.path.dirname(sys.modules["authormod"].__file__)
    installed = max(i for i, entry in enumerate(sys.path) if entry.endswith("site-packages"))
    assert sys.path.index(directory) > installed


@pytest.mark.parametrize("started", ["axiometer", "python -m axiometer"])
def test_a_file_named_like_a_dependency_in_the_users_directory_does_not_replace_it(tmp_path, started):
    # Issue 29: `check module:function` put the directory first, so a hypothesis.py there replaced
    # the real library inside axiometer; `python -m` puts it first itself. Run as a user runs it:
    # the console script or `python -m`, in that directory.
    (tmp_path / "hypothesis.py").write_text("raise SystemExit('the shadowing hypothesis.py was imported')\n")
    (tmp_path / "authormod.py").write_text(textwrap.dedent(AUTHOR_MODULE))
    script = ([str(Path(sys.executable).with_name("axiometer"))] if started == "axiometer"
              else [sys.executable, "-m", "axiometer"])
    done = subprocess.run([*script, "check", "authormod:graded_p2", "--quick", "--no-proofs", "--jobs", "1",
                           "--constraints", "Pri"], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)})
    assert done.returncode == 0, done.stderr
    assert "shadowing" not in done.stdout + done.stderr and "graded_p2: 1 constraint" in done.stdout


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


# Metric references (`axiometer.metrics.resolve`): what a resolution holds (name, fixed parameters,
# grids, ranges, spec, scores) for built-ins, objects and functions, and the one error line for every bad
# reference (``module:attribute`` ones: test_resolve_modules.py). Issue 14 (metrics area, m1).
# Expected texts are the module's promised messages.

def error_of(ref, **kwargs) -> str:
    return one_line_error(resolve, ref, **kwargs)


def weighted(ranking, topic, k=2, w=0.5, flag=True):
    return w * sum(float(topic.r(d)) for d in ranking[:k])


# -- built-ins ------------------------------------------------------------------------------------

def test_a_builtin_as_written():
    loaded = resolve(" rbp(p=0.5)@5 ")
    assert loaded == Resolved(loaded.metric, "RBP(p=0.5)@5", frozenset({"p"}), None, "RBP(p=0.5)@5",
                              "ranking", None)
    assert loaded.metric.name == "RBP(p=0.5)@5"
    assert resolve("rbp") == Resolved(resolve("RBP").metric, "RBP", frozenset(), None, "RBP", "ranking")
    assert resolve("nrg(base=ndcg@5)").name == "NRG(base=nDCG@5)"
    assert resolve("nrg(base=ndcg@5)").scores == "relative" and resolve("recall").scores == "set"


def test_builtin_parameters_fixed_grids_and_ranges():
    fixed = resolve("rbp", params={"p": 0.5})
    assert (fixed.name, fixed.spec, fixed.fixed, fixed.grids, fixed.ranges) == (
        "RBP(p=0.5)", "RBP(p=0.5)", frozenset({"p"}), None, None)
    assert fixed.metric.name == "RBP(p=0.5)"
    grid = resolve("rbp@5", params={"p": [0.5, 0.9]})
    assert (grid.name, grid.fixed, grid.grids, grid.ranges) == ("RBP@5", frozenset(), {"RBP.p": (0.5, 0.9)}, None)
    ranged = resolve("RBP", params={"p": (0.25, 0.75)}, cutoff=3)
    assert (ranged.name, ranged.fixed, ranged.grids, ranged.ranges) == (
        "RBP@3", frozenset(), None, {"RBP.p": (0.25, 0.75)})
    # Written parameters stay fixed next to a grid of another.
    both = resolve("RBU(e=0.1)", params={"p": [0.5]})
    assert both.name == "RBU(e=0.1)" and both.fixed == frozenset({"e"}) and both.grids == {"RBU.p": (0.5,)}
    assert resolve("NRG", params={"norm": "none"}).scores == "relative"


def test_a_range_may_end_at_an_open_bound_but_not_beyond_a_closed_one():
    # RBP's p is in (0, 1): an end at 0 or 1 is probed just inside, so it is allowed.
    assert resolve("RBP", params={"p": (0, 1)}).ranges == {"RBP.p": (0, 1)}
    assert resolve("RBU", params={"e": (0, 2)}).ranges == {"RBU.e": (0, 2)}     # e in [0, inf]
    assert error_of("P", params={"rel": (0, 3)}) == (
        "metric 'P': P: parameter rel=0 is outside its range, int in [1, inf]")
    assert error_of("RBP", params={"p": (0.5, 1.5)}) == (
        "metric 'RBP': RBP: parameter p=1.5 is outside its range, float in (0, 1)")
    assert error_of("RBP", params={"p": (-1, 0.5)}).startswith("metric 'RBP': RBP: parameter p=-1 is outside")


@pytest.mark.parametrize("value, problem", [
    ((0.5,), "parameter p: a range is a tuple (low, high) of two numbers, got (0.5,) (give a grid of values as a list)"),
    ((0.1, 0.5, 0.9), "parameter p: a range is a tuple (low, high) of two numbers, got (0.1, 0.5, 0.9) (give a grid of values as a list)"),
    ((True, 0.5), "parameter p: a range is a tuple (low, high) of two numbers, got (True, 0.5) (give a grid of values as a list)"),
    ((0.2, "x"), "parameter p: a range is a tuple (low, high) of two numbers, got (0.2, 'x') (give a grid of values as a list)"),
    ((0.9, 0.5), "parameter p: the range 0.9..0.5 needs low < high"),
    ((0.5, 0.5), "parameter p: the range 0.5..0.5 needs low < high"),
])
def test_bad_ranges(value, problem):
    assert error_of("RBP", params={"p": value}) == f"metric 'RBP': {problem}"
    assert error_of(weighted, params={"p": value}) == f"metric 'weighted': {problem}"


def test_builtin_parameter_errors():
    assert error_of("ERR", params={"q": 1}) == "metric 'ERR': ERR has no parameter 'q' (parameters: none)"
    assert error_of("RBU", params={"form": ("a", "b")}) == (
        "metric 'RBU': parameter form is not numeric: give values, not a range")
    assert error_of("RBP", params={"p": 2}) == (
        "metric 'RBP': RBP: parameter p=2 is outside its range, float in (0, 1)")
    assert error_of("RBP(p=0.5)", params={"p": [0.9]}) == (
        "metric 'RBP(p=0.5)': parameter p is written in the spec already; give it in one place")
    assert error_of("RBP", needs={"aspects": True}) == (
        "metric 'RBP': needs= cannot be given here: a built-in metric has its own name and needs")
    assert error_of("RR", cutoff=0).startswith("metric 'RR': expected a positive integer cutoff")


# -- resolved, ir_measures ----------------------------------------------------------------------------

def test_a_resolved_reference_is_returned_as_it_is():
    loaded = resolve("nDCG@10")
    assert resolve(loaded) is loaded
    # Empty options count as not given.
    assert resolve(loaded, params={}, needs={}) is loaded
    assert error_of(loaded, cutoff=5) == (
        "metric 'nDCG@10': cutoff= cannot be given here: the reference is resolved already")
    assert error_of(loaded, params={"p": 1}) == (
        "metric 'nDCG@10': params= cannot be given here: the reference is resolved already")


def test_ir_measures_references_take_no_options(monkeypatch):
    import axiometer.metrics.ir_measures_bridge as bridge

    seen = []
    monkeypatch.setattr(bridge, "ir_measures_metric", lambda measure: seen.append(measure) or parse("RBP"))
    loaded = resolve(f"  {IR_MEASURES_PREFIX} P@5 ")
    assert seen == ["P@5"] and loaded.name == "RBP" and loaded.scores == "ranking"
    assert error_of("ir_measures:P@5", params={"p": 1}) == (
        "metric 'ir_measures:P@5': params= cannot be given here: an ir_measures measure takes its "
        "parameters in the measure (e.g. 'ir_measures:nDCG@10')")
    assert error_of("ir_measures: ") == (
        "metric 'ir_measures:': give a measure after 'ir_measures:', e.g. 'ir_measures:nDCG@10'")


# -- metric objects -----------------------------------------------------------------------------------

class Plain:
    """A protocol object without replace, family or param_info."""

    name = "plain"

    def score(self, ranking, topic, context=None):
        return 0.0


class NeedsContext(Plain):
    name = "ctx"
    needs = Needs(context=True)


def test_metric_objects_what_they_score_and_their_family():
    plain = resolve(Plain())
    assert (plain.name, plain.scores, plain.spec, plain.fixed, plain.grids, plain.ranges) == (
        "plain", "ranking", None, frozenset(), None, None)
    assert resolve(NeedsContext()).scores == "relative"
    assert resolve(NeedsContext).scores == "relative" and isinstance(resolve(NeedsContext).metric.inner, NeedsContext)
    nrg = parse("NRG(base=P@3)")
    assert resolve(nrg).scores == "relative" and resolve(nrg).name == "NRG"
    assert resolve(parse("recall")).scores == "set"


def test_an_impostor_of_a_registered_family_is_not_given_what_it_scores():
    class FakeNRG(Plain):
        family = "NRG"          # a registered name, but not the registered class
        needs = Needs(context=False)

    assert resolve(FakeNRG()).scores == "ranking" and resolve(FakeNRG()).name == "NRG"


def test_metric_object_parameters():
    rbp = parse("RBP@5")
    moved = resolve(rbp, params={"p": 0.5}, cutoff=3)
    assert moved.metric.name == "RBP(p=0.5)@3" and moved.name == "RBP" and moved.fixed == frozenset()
    gridded = resolve(rbp, params={"p": [0.5, 0.9]})
    assert gridded.grids == {"RBP.p": (0.5, 0.9)} and gridded.metric is rbp and gridded.ranges is None
    assert error_of(rbp, params={"q": [1, 2]}) == (
        "metric 'RBP(p=0.8)@5': RBP(p=0.8)@5 declares no parameter 'q' to vary (declared: p)")
    assert error_of(Plain(), params={"q": [1, 2]}) == (
        "metric 'plain': plain declares no parameter 'q' to vary (declared: none)")
    assert error_of(Plain(), cutoff=3) == (
        "'plain' has no replace(), so its parameters and cutoff cannot be set")
    assert error_of(Plain(), params={"x": 1}) == (
        "'plain' has no replace(), so its parameters and cutoff cannot be set")
    assert error_of(rbp, params={"p": 2}).startswith("metric 'RBP(p=0.8)@5': cannot set p: RBP: parameter p=2")
    assert error_of(rbp, params={"p": 2}, cutoff=4).startswith("metric 'RBP(p=0.8)@5': cannot set p, cutoff: ")
    assert error_of(rbp, name="x") == (
        "metric 'RBP(p=0.8)@5': name= cannot be given here: a metric object has its own name and needs")


def test_a_metric_object_takes_a_range_as_a_function_and_a_builtin_do():
    # The module docstring: a tuple (low, high) is a continuous range, for every kind of reference.
    ranged = resolve(parse("RBP@5"), params={"p": (0.5, 0.9)})
    assert ranged.ranges == {"RBP.p": (0.5, 0.9)} and ranged.metric.name == "RBP(p=0.8)@5"


def test_objects_without_a_name_or_a_default_constructor():
    class Nameless:
        def score(self, ranking, topic):
            return 0.0

    assert error_of(Nameless()).endswith(
        "has a score method but no name (the metric protocol needs both)")

    class Stubborn(Plain):
        def __init__(self, required):
            pass

    text = error_of(Stubborn)
    assert text.startswith("metric 'test_objects_without_a_name_or_a_default_constructor.<locals>.Stubborn': "
                           "cannot create an instance of class Stubborn without arguments (TypeError: ")
    assert text.endswith("); name an instance instead")


def test_what_is_not_a_metric_is_named_briefly():
    assert error_of(42) == "'42' is not callable (it is an int)"
    assert error_of([0] * 30) == "'" + repr([0] * 30)[:57] + "...' is not callable (it is a list)"
    assert error_of(object()).endswith("is not callable (it is an object)")
    short = [1, 2]
    assert error_of(short) == "'[1, 2]' is not callable (it is a list)"


# -- functions --------------------------------------------------------------------------------------

def test_function_ranges_default_to_the_functions_own_value_inside():
    inside = resolve(weighted, params={"w": (0.1, 0.9)})
    (param,) = inside.metric.param_info
    assert (param.default, param.low, param.high, param.grid, param.type) == (0.5, 0.1, 0.9, (0.1, 0.9), float)
    assert inside.ranges == {"weighted.w": (0.1, 0.9)} and inside.name == "weighted"
    outside = resolve(weighted, params={"w": (0.6, 0.9)}).metric.param_info[0]
    assert outside.default == 0.6
    at_end = resolve(weighted, params={"w": (0.5, 0.9)}).metric.param_info[0]
    assert at_end.default == 0.5                     # low <= own: the end is inside
    assert resolve(weighted, params={"w": (0.1, 0.5)}).metric.param_info[0].default == 0.5
    # A bool default is no number inside the range.
    assert resolve(weighted, params={"flag": (0, 1)}).metric.param_info[0].default == 0
    assert resolve(weighted, name="wt", params={"w": (0.1, 0.9)}).ranges == {"wt.w": (0.1, 0.9)}


def test_function_grids_and_values():
    grid = resolve(weighted, params={"w": [0.25, 0.5]}).metric
    assert grid.params == {"w": 0.5} and grid.param_info[0].grid == (0.25, 0.5)
    first = resolve(weighted, params={"w": [0.25, 0.75]}).metric
    assert first.params == {"w": 0.25}
    single = resolve(weighted, params={"w": 0.75}).metric
    assert single.params == {"w": 0.75} and single.param_info[0].grid == ()
    # A scalar equal to the default is still a single value, not a grid.
    assert resolve(weighted, params={"w": 0.5}).metric.param_info[0].grid == ()
    assert error_of(weighted, params={"w": []}) == "metric 'weighted': parameter w has no values"
    assert resolve(weighted).ranges is None and resolve(weighted).scores == "ranking"


def test_function_needs_and_errors():
    metric = resolve(weighted, needs={"aspects": False, "context": True})
    assert metric.scores == "relative" and metric.metric.needs.context is True
    assert resolve(weighted, needs=Needs(context=True)).scores == "relative"
    assert error_of(weighted, needs={"bogus": 1}).startswith(
        "metric 'weighted': bad needs: ")
    assert error_of(weighted, params={"zz": 1}) == (
        "metric 'weighted': weighted(zz=1): the function does not accept declared parameter 'zz'")


def test_for_rankings():
    loaded = resolve("F(beta=2)")
    with pytest.raises(InputError) as error:
        loaded.for_rankings()
    assert str(error.value) == ("metric 'F(beta=2)': F(beta=2) is a set measure: it scores a retrieved "
                                "set's counts, not a ranking ('axiometer intrinsic' classifies it)")
    relative = resolve("Unique@3")
    assert relative.for_rankings() is relative


class Tunable:
    """A metric author's object that declares a parameter and has a replace() taking any value."""

    name = family = "tunable"
    cutoff = None

    def __init__(self):
        from axiometer.metrics import Param

        self.param_info = (Param("p", float, 0.5, "a weight", low=0, high=1),)

    def score(self, ranking, topic, context=None):
        return 0.0

    def replace(self, **changes):
        return self


def test_an_object_with_a_declared_parameter_takes_grids_and_ranges():
    obj = Tunable()
    loaded = resolve(obj, params={"p": (0.2, 0.8)})
    assert loaded.ranges == {"tunable.p": (0.2, 0.8)} and loaded.grids is None and loaded.metric.inner is obj
    assert resolve(obj, params={"p": [0.2, 0.4]}).grids == {"tunable.p": (0.2, 0.4)}
    assert error_of(obj, params={"p": (0.8, 0.2)}) == (
        "metric 'tunable': parameter p: the range 0.8..0.2 needs low < high")


def test_a_metric_objects_cutoff_is_kept_when_only_a_parameter_is_set():
    assert resolve(parse("RBP@5"), params={"p": 0.5}).metric.name == "RBP(p=0.5)@5"
    assert resolve(parse("RBP@5"), cutoff=2).metric.name == "RBP(p=0.8)@2"


def test_a_functions_parameters_are_described_as_given_by_the_caller():
    for params in ({"w": [0.25, 0.5]}, {"w": (0.1, 0.9)}, {"w": 0.3}):
        (param,) = resolve(weighted, params=params).metric.param_info
        assert param.description == "given by the caller"


def test_a_builtin_without_a_signature_is_a_one_line_error():
    expected = ("metric 'max': max: its signature cannot be read (a built-in function?); "
                "wrap it in a Python function (ranking, topic)")
    assert error_of(max) == expected
    assert one_line_error(resolve, max, params={"p": (0.1, 0.9)}) == expected


def test_a_range_does_not_end_the_parameters_given_after_it():
    def two(ranking, topic, p=0.5, q=2):
        return 0.0

    declared = resolve(two, params={"p": (0.1, 0.9), "q": [1, 2]}).metric.param_info
    assert [(d.name, d.default, d.grid) for d in declared] == [("p", 0.5, (0.1, 0.9)), ("q", 2, (1, 2))]


def test_a_metric_object_takes_no_needs():
    class Mine:
        name = "mine"

        def score(self, ranking, topic):
            return 0.0

    assert one_line_error(resolve, Mine(), needs={"graded": True}) == (
        "metric 'mine': needs= cannot be given here: a metric object has its own name and needs")


class _Repr:
    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def test_a_nameless_object_is_described_by_its_repr_up_to_60_characters():
    assert _describe(_Repr("x" * 60)) == "x" * 60
    assert _describe(_Repr("x" * 61)) == "x" * 57 + "..."


def test_the_scores_of_a_set_measure_and_of_needs_without_a_context_flag():
    assert _scores_of(set_measure("recall")) == "set"

    class Plain:
        name = "plain"
        needs = SimpleNamespace(graded=False)  # no context attribute: not relative

    assert _scores_of(adapt(Plain())) == "ranking"


def test_builtin_parameter_errors_list_every_parameter_and_keep_two_fixed_values():
    assert error_of("RBU", params={"x": 1}) == "metric 'RBU': RBU has no parameter 'x' (parameters: p, e, form)"
    assert error_of("NRG", params={"base": ("a", "b")}) == (
        "metric 'NRG': parameter base is not numeric: give values, not a range")
    assert resolve("RBU", params={"p": 0.8, "e": 0.05}).metric.name == "RBU(p=0.8,e=0.05)"


def test_a_resolved_reference_takes_no_name_or_needs():
    resolved = resolve("RBP")
    assert error_of(resolved, name="x") == "metric 'RBP': name= cannot be given here: the reference is resolved already"
    assert error_of(resolved, needs={"graded": True}) == (
        "metric 'RBP': needs= cannot be given here: the reference is resolved already")


def test_varying_an_undeclared_parameter_of_an_object_lists_the_declared_ones():
    class Two:
        name = family = "two"
        cutoff = None
        param_info = (Param("a", float, 0.5, "one"), Param("b", float, 0.5, "another"))

        def score(self, ranking, topic):
            return 0.0

        def replace(self, **changes):
            return self

    assert error_of(Two(), params={"c": [1, 2]}) == (
        "metric 'two': two declares no parameter 'c' to vary (declared: a, b)")


# -- a function's parameter ranges, declared once (issue 27) ----------------------------------------

def _declared(b=0.1):
    @axiometer.parameters(b=(0.05, 0.5))
    def fifth(ranking, topic, b=b):
        """Gains discounted by (5b)**(i-1): non-increasing weights, so Pri holds, exactly when b < 1/5."""
        return sum(topic.r(d) * (5 * b) ** i for i, d in enumerate(ranking))
    return fifth


def test_a_declared_range_gives_the_parameter_its_bounds_and_its_ends_as_the_grid():
    (param,) = resolve(_declared()).metric.param_info
    assert (param.name, param.default, param.low, param.high, param.grid) == ("b", 0.1, 0.05, 0.5, (0.05, 0.5))
    # A value the caller gives must lie in the declared range.
    with pytest.raises(InputError, match="b"):
        resolve(_declared(), params={"b": 0.9})
    assert resolve(_declared(), params={"b": 0.3}).metric.params["b"] == 0.3


@pytest.mark.parametrize("default, message", [(0.9, "not a number in the declared range 0.05..0.5"),
                                              ("x", "not a number in the declared range")])
def test_a_default_outside_its_declared_range_is_one_error_line(default, message):
    with pytest.raises(InputError, match=message):
        resolve(_declared(default))


def test_a_declared_range_must_name_a_keyword_parameter_and_be_a_range():
    @axiometer.parameters(c=(0, 1))
    def no_c(ranking, topic, b=0.5):
        return 0.0
    with pytest.raises(InputError, match="declares c, which is not a keyword parameter"):
        resolve(no_c)
    with pytest.raises(InputError, match="needs low < high"):
        axiometer.parameters(b=(1, 0))


def test_boundaries_over_a_declared_range_print_the_value_correctly_rounded():
    # The boundary is b = 1/5 exactly; a 1e-6 bisection bracket read at 6 digits printed 0.199999
    # or 0.2 by chance: the bracket now narrows until its ends round alike.
    report = axiometer.check(_declared(), ["Pri"], budget="quick", boundaries=True, isolate=False,
                             proofs=False)
    (cell,) = report.cells
    (boundary,) = cell.boundaries
    low, high = (Fraction(end) for end in boundary.bracket)
    assert low <= Fraction(1, 5) <= high
    assert (boundary.below, boundary.above) == ("satisfied", "violated")
    assert boundary_value(boundary) == "0.2"
    assert "satisfied for b < 0.2" in " ".join(str(report).split())
