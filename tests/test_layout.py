"""The package's layout rule, enforced: dependencies point one way.

Every module of ``src/axiometer`` belongs to a layer; a module may import its
own layer and the layers below it, never one above::

    core, results, evidence  <-  metrics, grades, readers, runfile  <-  generators  <-  axioms, proofs
      <-  checking, intrinsic  <-  runner, scoring, unanimity, meta  <-  reports, progress
      <-  cli, api, pytest_plugin (and the package root)

Imports are read with :mod:`ast` from the source (module level, inside
functions and under ``TYPE_CHECKING`` alike), so a lazy import against the
direction is caught too. A second rule: no import cycles between modules.
The README's layout tree says the same in words.
"""

from __future__ import annotations

import ast
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "axiometer"

#: Layer of each top-level unit of the package (a subpackage or a module), bottom first.
LAYERS: Mapping[str, int] = {
    "core": 0, "results": 0,
    "evidence": 0,  # what a holding verdict rests on (strength, proof), beside results
    "views": 0,  # a result's notebook faces (HTML view registry, tidy rows); reports register the views
    "limits": 0,  # the defaults and the Limits of a metric author's metric, read by checking and scoring
    "outputs": 0,  # writing a report file whole or not at all (issue 29); every writer uses it
    "metrics": 1, "grades": 1, "readers": 1,
    "runfile": 1,  # the bulk run reader under readers (numpy), and the compact runs scoring reads
    "judgments": 1,  # a qrels' judgments as columns under readers, and the topics scoring reads (issue 29)
    "generators": 2,
    "axioms": 3,
    "proofs": 3,  # the symbolic path through a metric and the case structures (issue 26); checking runs them
    "checking": 4, "intrinsic": 4,
    "agreement": 4,  # an implementation against the exact reference (issue 28): metrics below, reports above
    "runner": 5, "scoring": 5, "unanimity": 5, "meta": 5,
    "priors": 5,  # the relative metrics' contexts (prior sets), which scoring uses
    "significance": 5,  # the significance tests and the comparison of runs, beside scoring
    "reports": 6, "progress": 6,
    "cli": 7, "api": 7, "pytest_plugin": 7, "__main__": 7, "__init__": 7,
    "data": 7,  # package data; data/example/generate.py is a script that makes the bundled example
}


def module_name(path: Path, package: Path) -> str:
    """``axiometer.metrics.rbp`` for ``.../axiometer/metrics/rbp.py`` (a package is its ``__init__``)."""
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def unit(module: str) -> str:
    """The top-level unit a module belongs to: ``metrics`` for ``axiometer.metrics.rbp``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports(path: Path, package: Path) -> Iterator[tuple[str, int]]:
    """The ``axiometer`` modules a source file imports, with line numbers (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = module_name(path, package)
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "axiometer":
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base if is_package else base[:-1]
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "axiometer":
                continue
            yield target, node.lineno
            for alias in node.names:  # `from axiometer.checking import explain` imports a module
                candidate = f"{target}.{alias.name}"
                if _exists(candidate, package):
                    yield candidate, node.lineno


def _exists(module: str, package: Path) -> bool:
    relative = Path(*module.split(".")[1:])
    return (package / relative).with_suffix(".py").exists() or (package / relative / "__init__.py").exists()


def import_graph(package: Path) -> dict[str, list[tuple[str, int]]]:
    """Module -> the axiometer modules it imports (with lines)."""
    return {module_name(p, package): sorted(set(imports(p, package)))
            for p in sorted(package.rglob("*.py"))}


def layer_violations(package: Path) -> list[str]:
    """Every import against the direction, as ``file:line: a (layer) imports b (layer)``."""
    found = []
    for path in sorted(package.rglob("*.py")):
        here = module_name(path, package)
        reported: set[tuple[int, str]] = set()
        # The most specific module of an import line first: `from axiometer.reports import scores`
        # names axiometer.reports.scores.
        for target, line in sorted(imports(path, package), key=lambda item: (item[1], -len(item[0]))):
            if target == "axiometer" or unit(target) == "__init__":
                continue  # the package root itself (its __init__ only re-exports) is everyone's parent
            if (line, unit(target)) in reported:
                continue  # `from axiometer.reports import scores`: one import of one unit
            reported.add((line, unit(target)))
            mine, theirs = LAYERS.get(unit(here)), LAYERS.get(unit(target))
            if mine is None or theirs is None:
                found.append(f"{path.relative_to(package.parent)}:{line}: {unit(here)!r} or "
                             f"{unit(target)!r} has no layer; add it to LAYERS and the README tree")
            elif theirs > mine:
                found.append(f"{path.relative_to(package.parent)}:{line}: {here} (layer {unit(here)}) "
                             f"imports {target} (layer {unit(target)}, above it)")
    return found


def cycles(package: Path) -> list[list[str]]:
    """Import cycles between modules (each as the list of modules around it)."""
    graph = {m: [t for t, _ in targets if t != m] for m, targets in import_graph(package).items()}
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    stack: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        stack.append(module)
        for target in graph.get(module, ()):
            if target not in graph:
                continue
            if state.get(target) == 1:
                found.append(stack[stack.index(target):] + [target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[module] = 2

    for module in graph:
        if module not in state:
            visit(module)
    return found


def test_every_unit_has_a_layer() -> None:
    units = {unit(module_name(p, PACKAGE)) for p in PACKAGE.rglob("*.py")}
    assert units <= set(LAYERS), f"units with no layer: {sorted(units - set(LAYERS))}"


def test_imports_point_one_way() -> None:
    assert layer_violations(PACKAGE) == []


def test_no_import_cycles() -> None:
    assert cycles(PACKAGE) == []


@pytest.fixture
def package_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "axiometer"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "data"))
    return copy


def test_the_rule_catches_a_reversed_import(package_copy: Path) -> None:
    """The test of the test: a deliberate import of the reports from the data model is found."""
    assert layer_violations(package_copy) == []
    core = package_copy / "core.py"
    lines = core.read_text(encoding="utf-8").splitlines()
    lines.append("from axiometer.reports import scores  # deliberate: core must not import reports")
    core.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = layer_violations(package_copy)
    assert found == [f"axiometer/core.py:{len(lines)}: axiometer.core (layer core) imports "
                     f"axiometer.reports.scores (layer reports, above it)"]


def test_the_rule_catches_a_lazy_reversed_import(package_copy: Path) -> None:
    """An import inside a function counts as much as one at the top of the module."""
    metrics = package_copy / "metrics" / "__init__.py"
    text = metrics.read_text(encoding="utf-8")
    metrics.write_text(text + "\n\ndef _sneaky():\n    from axiometer.runner import run_table\n"
                              "    return run_table\n", encoding="utf-8")
    found = layer_violations(package_copy)
    assert len(found) == 1 and "axiometer.metrics (layer metrics) imports axiometer.runner" in found[0]


def test_cycle_detection_finds_a_planted_cycle(package_copy: Path) -> None:
    assert cycles(package_copy) == []
    (package_copy / "grades.py").write_text(
        (package_copy / "grades.py").read_text(encoding="utf-8") + "\nimport axiometer.readers\n",
        encoding="utf-8")
    found = cycles(package_copy)
    assert found and {"axiometer.grades", "axiometer.readers"} <= set(found[0])
