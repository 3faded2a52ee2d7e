"""The mutation areas (benchmarks/mutation_areas/<area>.toml, read by benchmarks/mutation.py) name
tests that exist: every test file, folder and node id an area runs or deselects is in the tree, so a
moved or renamed test cannot silently drop out of an area's run (mutation.py skips a missing file as
"not written yet"). And no test file is named after the mutation tool: a test module is named after
the behaviour it pins down.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load_areas(monkeypatch):
    """The areas exactly as benchmarks/mutation.py reads them (it needs tomllib, Python 3.11+)."""
    pytest.importorskip("tomllib")
    spec = importlib.util.spec_from_file_location("_mutation_script", ROOT / "benchmarks" / "mutation.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    areas, _ = module.load_areas()
    return areas


def _defines(path: Path, names: list[str]) -> bool:
    """Whether ``path`` defines the test ``names`` (``test_f``, or ``TestClass::test_m``) at top level."""
    scope = ast.parse(path.read_text(encoding="utf-8")).body
    for name in names:
        name = name.split("[")[0]  # a parametrized id names its function
        found = [n for n in scope if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                 and n.name == name]
        if not found:
            return False
        scope = found[0].body
    return True


def missing(test: str) -> str | None:
    """Why an area's test entry (a folder, a file or a node id) names nothing, or None."""
    path, *names = test.split("::")
    if not (ROOT / path).exists():
        return f"{test}: no such file or folder"
    if names and not _defines(ROOT / path, names):
        return f"{test}: {path} defines no such test"
    return None


def test_every_test_an_area_runs_or_deselects_exists(monkeypatch):
    areas = _load_areas(monkeypatch)
    assert set(areas) >= {"engine", "generators", "intrinsic", "metrics", "readers"}
    problems = [f"{name}: {problem}" for name, area in sorted(areas.items())
                for test in (*area.tests, *area.deselect) if (problem := missing(test))]
    assert problems == []


def test_a_missing_file_or_test_is_named():
    assert missing("tests/test_mutation_areas.py::test_a_missing_file_or_test_is_named") is None
    assert missing("tests/metrics") is None
    assert missing("tests/no_such_file.py") == "tests/no_such_file.py: no such file or folder"
    assert missing("tests/test_mutation_areas.py::test_gone[1]") == \
        "tests/test_mutation_areas.py::test_gone[1]: tests/test_mutation_areas.py defines no such test"


def test_no_test_file_is_named_after_the_mutation_tool():
    named = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("*.py") if "mutant" in p.name)
    assert named == []
