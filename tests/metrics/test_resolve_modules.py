"""``package.module:attribute`` references (issue 14): modules not found, missing attributes and
import errors each in one line naming the user's own file and line, and the note when a module of
that name was imported from elsewhere than the current directory.
"""

from __future__ import annotations

import os
import sys
import textwrap

import pytest

from axiometer.metrics.resolve import _raised
from tests.metrics.test_resolve import error_of


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
    where = f"(searched the current directory {tmp_path} and the installed packages)"
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
