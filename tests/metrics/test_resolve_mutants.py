"""Metric references (`axiometer.metrics.resolve`): what a resolution holds (name, fixed parameters,
grids, ranges, spec, kind) for built-ins, objects and functions, and the one error line for every bad
reference. Issue 14 (metrics area, m1). Expected texts are the module's promised messages.
"""

from __future__ import annotations

import pytest

from axiometer.core import InputError, Topic, ValidationError
from axiometer.metrics import Needs, Param, adapt, parse
from axiometer.metrics.resolve import IR_MEASURES_PREFIX, Resolved, _describe, _kind_of, _raised, resolve
from axiometer.metrics.set_based import set_measure
from tests.errors import one_line_error

TOPIC = Topic.single({"a": 1, "b": 0})


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
    assert resolve("nrg(base=ndcg@5)").kind == "relative" and resolve("recall").kind == "set"


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
    assert resolve("NRG", params={"norm": "none"}).kind == "relative"


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
    assert seen == ["P@5"] and loaded.name == "RBP" and loaded.kind == "ranking"
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


def test_metric_objects_and_their_kind_and_family():
    plain = resolve(Plain())
    assert (plain.name, plain.kind, plain.spec, plain.fixed, plain.grids, plain.ranges) == (
        "plain", "ranking", None, frozenset(), None, None)
    assert resolve(NeedsContext()).kind == "relative"
    assert resolve(NeedsContext).kind == "relative" and isinstance(resolve(NeedsContext).metric.inner, NeedsContext)
    nrg = parse("NRG(base=P@3)")
    assert resolve(nrg).kind == "relative" and resolve(nrg).name == "NRG"
    assert resolve(parse("recall")).kind == "set"


def test_an_impostor_of_a_registered_family_is_not_given_its_kind():
    class FakeNRG(Plain):
        family = "NRG"          # a registered name, but not the registered class
        needs = Needs(context=False)

    assert resolve(FakeNRG()).kind == "ranking" and resolve(FakeNRG()).name == "NRG"


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
    assert resolve(weighted).ranges is None and resolve(weighted).kind == "ranking"


def test_function_needs_and_errors():
    metric = resolve(weighted, needs={"aspects": False, "context": True})
    assert metric.kind == "relative" and metric.metric.needs.context is True
    assert resolve(weighted, needs=Needs(context=True)).kind == "relative"
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


# -- module:attribute references ------------------------------------------------------------------

import os
import sys
import textwrap
from types import SimpleNamespace


@pytest.fixture
def cwd_modules(tmp_path, monkeypatch):
    """Write modules into a fresh current directory; forget the imported ones afterwards."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    before = set(sys.modules)

    def write(relative: str, source: str) -> None:
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")

    yield write
    for name in set(sys.modules) - before:
        del sys.modules[name]


def test_a_malformed_reference_names_the_accepted_forms():
    assert error_of("a b:c") == ("metric 'a b:c': expected 'package.module:attribute' (or a built-in spec "
                                 "such as 'nDCG@10', or 'ir_measures:MEASURE')")


def test_modules_not_found(cwd_modules, tmp_path):
    where = f"(searched the current directory {tmp_path} first, then the installed packages)"
    assert error_of("nosuchmod_m1:f") == f"metric 'nosuchmod_m1:f': module 'nosuchmod_m1' not found {where}"
    # A missing parent package is the module that is not found.
    assert error_of("nosuchpkg_m1.sub:f") == f"metric 'nosuchpkg_m1.sub:f': module 'nosuchpkg_m1' not found {where}"
    cwd_modules("pkg_m1/__init__.py", "")
    assert error_of("pkg_m1.absent:f") == f"metric 'pkg_m1.absent:f': module 'pkg_m1.absent' not found {where}"


def test_a_missing_dependency_whose_name_prefixes_the_module_is_an_import_error(cwd_modules, tmp_path):
    # dep_m1x imports dep_m1, which does not exist: 'dep_m1x' starts with 'dep_m1' but not 'dep_m1.'.
    cwd_modules("dep_m1x.py", "x = 1\nimport dep_m1\n")
    assert error_of("dep_m1x:f") == (f"metric 'dep_m1x:f': importing 'dep_m1x' raised ModuleNotFoundError: "
                                     f"No module named 'dep_m1' (at {tmp_path / 'dep_m1x.py'}:2)")


def test_an_exception_without_a_message_is_named_by_its_type(cwd_modules, tmp_path):
    cwd_modules("quiet_m1.py", "\n\nraise RuntimeError()\n")
    assert error_of("quiet_m1:f") == (f"metric 'quiet_m1:f': importing 'quiet_m1' raised RuntimeError "
                                      f"(at {tmp_path / 'quiet_m1.py'}:3)")
    cwd_modules("exits_m1.py", "raise SystemExit('bye')\n")
    assert error_of("exits_m1:f") == (f"metric 'exits_m1:f': importing 'exits_m1' raised SystemExit: bye "
                                      f"(at {tmp_path / 'exits_m1.py'}:1)")


def test_the_line_named_is_the_users_own(cwd_modules, tmp_path):
    # The error is raised inside the json package, called from line 2 of the user's module.
    cwd_modules("parses_m1.py", "import json\nVALUE = json.loads('{')\n")
    assert error_of("parses_m1:f").endswith(f"(at {tmp_path / 'parses_m1.py'}:2)")
    # Code exec'd from a string is '<string>': not a file, so the module's own line is named.
    cwd_modules("execs_m1.py", "X = 1\nexec(\"raise ValueError('boom')\")\n")
    assert error_of("execs_m1:f") == (f"metric 'execs_m1:f': importing 'execs_m1' raised ValueError: boom "
                                      f"(at {tmp_path / 'execs_m1.py'}:2)")


def test_a_module_outside_the_current_directory_names_its_innermost_line(cwd_modules, tmp_path, monkeypatch):
    # "here_too" starts with the text "here" but is not under the directory here/.
    elsewhere = tmp_path / "here_too"
    elsewhere.mkdir()
    (elsewhere / "far_m1.py").write_text("import json\nVALUE = json.loads('{')\n", encoding="utf-8")
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    monkeypatch.syspath_prepend(str(elsewhere))
    text = error_of("far_m1:f")
    # No frame under the current directory: the innermost frame, in the json package.
    assert "importing 'far_m1' raised JSONDecodeError: " in text
    assert "json" in text.rpartition("(at ")[2] and "far_m1.py" not in text.rpartition("(at ")[2]


def test_missing_attributes(cwd_modules):
    cwd_modules("attrs_m1.py", """
        _secret = 1
        class Outer:
            class Inner:
                value = 2
        """)
    # Private names are not suggested; nothing close: no hint.
    assert error_of("attrs_m1:secret") == "metric 'attrs_m1:secret': module 'attrs_m1' has no attribute 'secret'"
    assert error_of("attrs_m1:Outer.Inner.missing") == (
        "metric 'attrs_m1:Outer.Inner.missing': 'attrs_m1:Outer.Inner' has no attribute 'missing'")
    assert error_of("attrs_m1:Outer.Inner.valeu") == (
        "metric 'attrs_m1:Outer.Inner.valeu': 'attrs_m1:Outer.Inner' has no attribute 'valeu'; "
        "did you mean 'value'?")


def test_a_module_that_is_not_the_local_file_of_its_name(cwd_modules):
    # json is loaded already: a local package json/ (not json.py) cannot win either.
    assert "json" in sys.modules
    cwd_modules("json/__init__.py", "def mine(ranking, topic):\n    return 0.0\n")
    text = error_of("json:mine")
    assert text.startswith("metric 'json:mine': module 'json' has no attribute 'mine'")
    assert "(the module was imported from " in text and "not from the current directory" in text
    # A dotted module: xml.dom is loaded from the standard library, not ./xml/dom.py.
    import xml.dom  # noqa: F401

    cwd_modules("xml/__init__.py", "")
    cwd_modules("xml/dom.py", "def mine(ranking, topic):\n    return 0.0\n")
    assert "not from the current directory" in error_of("xml.dom:mine")


def test_no_shadow_note_without_a_local_file_or_for_a_module_without_one(cwd_modules):
    assert error_of("json:qqqzzz") == "metric 'json:qqqzzz': module 'json' has no attribute 'qqqzzz'"
    # sys has no __file__; a local sys.py changes nothing.
    cwd_modules("sys.py", "")
    assert error_of("sys:qqqzzz") == "metric 'sys:qqqzzz': module 'sys' has no attribute 'qqqzzz'"


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


def test_a_users_directory_named_like_importlib_is_still_the_users(tmp_path, monkeypatch, cwd_modules):
    home = tmp_path / "importlib_demo"
    home.mkdir()
    monkeypatch.chdir(home)
    (home / "boom_m1.py").write_text("X = 1\nraise ValueError('boom')\n", encoding="utf-8")
    assert error_of("boom_m1:f") == (f"metric 'boom_m1:f': importing 'boom_m1' raised ValueError: boom "
                                     f"(at {home / 'boom_m1.py'}:2)")


def test_a_local_package_imported_as_itself_gets_no_shadow_note(cwd_modules):
    """The user's own package (a directory with __init__.py here) is the one imported: a missing
    attribute is said plainly, without the 'imported from elsewhere' note."""
    cwd_modules("ownpkg_m1/__init__.py", "def mine(ranking, topic):\n    return 0.0\n")
    assert error_of("ownpkg_m1:other") == "metric 'ownpkg_m1:other': module 'ownpkg_m1' has no attribute 'other'"


def test_an_import_error_without_a_line_to_name_says_no_location():
    assert _raised("m", ValueError("boom"), os.getcwd()) == "importing 'm' raised ValueError: boom"


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


def test_the_kind_of_a_set_measure_and_of_needs_without_a_context_flag():
    assert _kind_of(set_measure("recall")) == "set"

    class Plain:
        name = "plain"
        needs = SimpleNamespace(graded=False)  # no context attribute: not relative

    assert _kind_of(adapt(Plain())) == "ranking"


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
