"""The README's "Five minutes for metric authors" runs as written and prints what it shows.

The guide's files (``# mymodule.py``, ``# test_mymodule.py``) are written into a scratch
directory; its shell command, its Python block and pytest then run there, each output is
compared with the README's ``text`` blocks, and the three must give the same verdicts (the
issue's "Done when": ``axiometer check``, ``axiometer.check(...)`` and the plugin agree).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from axiometer import cli

pytest_plugins = ["pytester"]

README = Path(__file__).resolve().parents[1] / "README.md"
SECTION = "## Five minutes for metric authors"


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return text[start:end if end >= 0 else None]


def _blocks(section: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", section, re.S)


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def _summary_verdicts(lines: list[str]) -> dict[str, str]:
    """``constraint mark verdict`` rows (``axiometer check``'s summary) -> {id: verdict}."""
    start = lines.index(next(line for line in lines if line.split() == ["constraint", "mark", "verdict"]))
    rows = [line.split() for line in lines[start + 2:]]
    return {row[0]: row[2] for row in rows if len(row) == 3}


def test_metric_author_guide_runs_as_written(pytester):
    section = _section()
    python = _blocks(section, "python")
    shown_cli, shown_api = _blocks(section, "text")
    files = {block.splitlines()[0][2:]: block for block in python
             if re.match(r"# \w+\.py\n", block)}
    assert set(files) == {"mymodule.py", "test_mymodule.py"}
    for name, content in files.items():
        (pytester.path / name).write_text(content, encoding="utf-8")
    pytester.syspathinsert()

    # 2. the shell: its summary is the README's text block, line for line
    command = next(line for block in _blocks(section, "sh") for line in block.splitlines()
                   if line.startswith("axiometer check "))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(shlex.split(command)[1:]) == 0
    printed = _lines(out.getvalue())
    shown = _lines(shown_cli)
    start = printed.index(shown[0])
    assert printed[start:start + len(shown)] == shown
    cli_verdicts = _summary_verdicts(shown)
    assert len(cli_verdicts) == 10

    # 3. Python: prints exactly what the README shows
    (api_block,) = [block for block in python if not re.match(r"# \w+\.py\n", block)]
    namespace: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(api_block, "README.md", "exec"), namespace)
    assert _lines(out.getvalue()) == _lines(shown_api)
    assert namespace["report"].verdicts == cli_verdicts

    # 4. pytest with the plugin: both tests pass, and its verdicts are the same
    result = pytester.runpytest("-p", "no:cacheprovider", "--axiometer-report=axioms.json")
    result.assert_outcomes(passed=2)
    matrix = json.loads((pytester.path / "axioms.json").read_text())
    plugin_verdicts = {cell["constraint"]: cell["verdict"] for cell in matrix["cells"]}
    assert set(plugin_verdicts) == {"Pri", "Deep", "DeepTh", "CloseTh", "Conf"}
    assert plugin_verdicts == {c: cli_verdicts[c] for c in plugin_verdicts}


def test_the_test_command_runs_the_profile_ci_runs_and_the_readme_says_how_long():
    # Issue 27: the command ran the `thorough` profile unless CI was set, and gave no duration.
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "HYPOTHESIS_PROFILE")}
    profile = subprocess.run(
        [sys.executable, "-c", "import tests.conftest; from hypothesis import settings; "
                               "print(settings.get_current_profile_name(), settings.default.derandomize)"],
        cwd=Path(__file__).resolve().parents[1], env=env, capture_output=True, text=True, check=True).stdout
    assert profile.split() == ["ci", "True"]
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Run the tests"):text.index("## Docs site")]
    assert "python -m pytest -n auto" in section and "HYPOTHESIS_PROFILE=thorough python -m pytest -n auto" in section
    assert re.search(r"About \d+ minutes on 2 cores", section)
