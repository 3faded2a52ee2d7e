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


def recipe_files(section: str) -> dict[str, str]:
    """path -> code of the recipe ``section``'s blocks (from its heading to the next one)."""
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"## Recipe: {section}")
    end = text.find("\n## ", start + 1)
    return {path: code for path, code in BLOCK.findall(text[start:end if end >= 0 else None])}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the package (src/axiometer) and an empty tests folder."""
    shutil.copytree(ROOT / "src" / "axiometer", tmp_path / "src" / "axiometer",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "tests").mkdir()
    return tmp_path


def run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(project / "src"), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, *args], cwd=project, env=env, capture_output=True, text=True,
                          timeout=600)


def follow(project: Path, section: str) -> list[str]:
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
    tests = run(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:axiometer",
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
    tests = run(project, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:axiometer",
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
