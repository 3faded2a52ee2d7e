"""docs/contributing.md's recipes, followed once: a throw-away metric and a throw-away constraint.

Each recipe's code blocks start with a comment naming their file. The test
writes exactly those blocks into a copy of the package — nothing else is
edited, which is the recipes' promise — then runs the recipe's own tests and
the CLI against the copy in a fresh interpreter.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "contributing.md"
BLOCK = re.compile(r"```python\n# (\S+)\n(.*?)```", re.S)
#: An edit: unmarked lines are the file's as they stand, lines marked ``+`` are added after them.
EDIT = re.compile(r"```diff\n# (\S+)\n(.*?)```", re.S)


def recipe_text(section: str) -> str:
    """The recipe ``section``, from its heading to the next one."""
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"## Recipe: {section}")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


def recipe_files(section: str) -> dict[str, str]:
    """path -> code of the recipe ``section``'s blocks."""
    return {path: code for path, code in BLOCK.findall(recipe_text(section))}


def recipe_edits(section: str) -> list[tuple[str, str, str]]:
    """``(path, before, after)`` of the recipe ``section``'s edits: the unmarked lines as they stand,
    and the same with the ``+`` lines added."""
    edits = []
    for path, diff in EDIT.findall(recipe_text(section)):
        lines = diff.rstrip("\n").split("\n")
        assert all(line[:1] in (" ", "+") for line in lines), f"an edit only adds lines: {path}"
        before = "\n".join(line[1:] for line in lines if line.startswith(" "))
        after = "\n".join(line[1:] for line in lines)
        edits.append((path, before + "\n", after + "\n"))
    return edits


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the package (src/axiometer) and an empty tests folder."""
    shutil.copytree(ROOT / "src" / "axiometer", tmp_path / "src" / "axiometer",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "tests").mkdir()
    return tmp_path


def own_basetemp(project: Path) -> list[str]:
    """A nested pytest's own base temporary directory: otherwise it takes the next
    /tmp/pytest-of-USER/pytest-N and may delete the running suite's (tests/test_suite_environment.py)."""
    return ["--basetemp", str(project.parent / "nested-basetemp")]


def run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(project / "src"), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, *args], cwd=project, env=env, capture_output=True, text=True,
                          timeout=600)


def follow(project: Path, section: str) -> list[str]:
    for path, before, after in recipe_edits(section):
        target = project / path
        text = target.read_text(encoding="utf-8")
        assert text.count(before) == 1, f"the recipe's edit must find its place in {path} once"
        target.write_text(text.replace(before, after), encoding="utf-8")
    files = recipe_files(section)
    for path, code in files.items():
        target = project / path
        assert not target.exists() or path.startswith("tests/"), f"the recipe must add {path}, not edit it"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(code, encoding="utf-8")
    return list(files)


def test_the_metric_recipe(project: Path) -> None:
    written = follow(project, "add a metric")
    assert written == ["src/axiometer/metrics/first_relevance.py", "tests/metrics/test_first_relevance.py"]
    tests = run(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:axiometer", *own_basetemp(project),
                "tests/metrics/test_first_relevance.py")
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "1 passed" in tests.stdout
    cli = run(project, "-m", "axiometer", "check", "FR", "--constraints", "Pri", "Conf", "--quick")
    assert cli.returncode == 0, cli.stderr
    assert cli.stdout.startswith("FR: ") and re.search(r"^Pri\s+✗\s+violated$", cli.stdout, re.M), cli.stdout
    from axiometer.core import InputError
    from axiometer.metrics import parse
    with pytest.raises(InputError, match="unknown metric 'FR'"):
        parse("FR")  # the installed package was not touched


def test_the_constraint_recipe(project: Path) -> None:
    written = follow(project, "add a constraint")
    assert [p.split("/")[-2] for p in written] == ["generators", "constraints", "axioms"]
    tests = run(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:axiometer", *own_basetemp(project),
                "tests/axioms/test_top_relevance.py")
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "2 passed" in tests.stdout
    cli = run(project, "-m", "axiometer", "check", "RR", "--constraints", "TopRel", "--quick")
    assert cli.returncode == 0, cli.stderr
    assert cli.stdout.startswith("RR: ") and re.search(r"^TopRel\s+✓\s+satisfied$", cli.stdout, re.M), cli.stdout
    # The copy, not the installed package, answered: the real package has no TopRel.
    from axiometer.axioms import get
    with pytest.raises(KeyError):
        get("TopRel")


def test_the_report_field_recipe(project: Path) -> None:
    assert [path for path, _, _ in recipe_edits("add a report field")] == ["src/axiometer/reports/table/build.py"]
    written = follow(project, "add a report field")
    assert written == ["tests/test_verdict_tally.py"]
    tests = run(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:axiometer", *own_basetemp(project),
                "tests/test_verdict_tally.py")
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "1 passed" in tests.stdout
    # The copy, not the installed package, says it: the real table has no such line.
    from axiometer.reports.table import format_table
    from axiometer.results import Cell, Check, TableResult
    check = Check(constraint="Pri", metric="RR", params=(), verdict="violated", mode="window")
    table = TableResult(rows=("RR",), constraints=("Pri",), seed=0, mode="default", budget="1 s",
                        cells=(Cell("RR", "RR", "Pri", "violated", "violated", (check,)),))
    assert "Verdicts:" not in format_table(table, "text")
