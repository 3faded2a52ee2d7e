"""A catalogue of hostile metrics (issue 16, item 4), checked through the CLI (default jobs and
``--jobs 1``) and through :func:`axiometer.check` in this very process.

Every run must complete with a report that parses; every cell of the hostile metric is either an
error naming the behaviour and the input, or exactly the cell of the well-behaved metric the
hostile one copies on the inputs where it behaves (the other cells are the same as without the
misbehaviour). The limits are small (0.5 s per case, 300 MB per worker) so that the slow and
hungry metrics are stopped quickly; a run that hung would hit the subprocess timeout and fail.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import axiometer
from axiometer.checking import QUICK
from tests.hostile import metrics as hostile
from tests.cli_run import timeless

ROOT = Path(__file__).resolve().parents[1]
CONSTRAINTS = ["Pri", "Conf", "Red"]   # Pri and Red reach two documents; Conf's cases do not
LIMITS = ["--case-seconds", "0.5", "--worker-mb", "300"]
BUDGET = dataclasses.replace(QUICK, case_seconds=0.5, worker_mb=300)
WAYS = ["cli", "cli --jobs 1", "api"]


def _run_cli(name: str, *extra: str) -> dict:
    command = [sys.executable, "-m", "axiometer", "check", f"tests.hostile.metrics:{name}", "--quick",
               "--format", "json", "--constraints", *CONSTRAINTS, *LIMITS, *extra]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "100"})
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)   # the report on stdout parses: nothing the metric printed is in it


def _run(name: str, way: str) -> dict:
    if way == "api":
        return axiometer.check(getattr(hostile, name), CONSTRAINTS, budget=BUDGET).to_dict()
    return _run_cli(name, *way.split()[1:])


def _comparable(cell: dict, name: str) -> str:
    """A cell as text, the metric's name made ``good``, what it printed and the proofs' times left out."""
    cell = timeless(json.loads(json.dumps(cell)))
    for check in cell["checks"]:
        check.pop("output"), check.pop("output_chars")
    if cell.get("check"):
        cell["check"].pop("output", None), cell["check"].pop("output_chars", None)
    return json.dumps(cell, sort_keys=True).replace(name, "good")


@pytest.fixture(scope="module")
def baselines() -> dict[str, dict]:
    return {way: _run("good", way) for way in WAYS}


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("name", sorted(hostile.BEHAVIOUR))
def test_a_hostile_metric_gives_error_cells_naming_what_it_did_and_the_rest_is_unchanged(name, way, baselines):
    report = _run(name, way)
    behaviour = hostile.BEHAVIOUR[name]
    cells = {cell["constraint"]: cell for cell in report["cells"]}
    base = {cell["constraint"]: cell for cell in baselines[way]["cells"]}
    assert list(cells) == CONSTRAINTS and not report["interrupted"]
    errors = [c for c in CONSTRAINTS if cells[c]["verdict"] == "error"]
    if behaviour is None:
        assert errors == []
    else:
        # The constraints whose cases reach two documents are errors; the message says what the
        # metric did and the cell names the input, a ranking of two or more documents.
        assert errors == ["Pri", "Red"]
        for constraint in errors:
            error = cells[constraint]["error"]
            assert behaviour in error["message"], error["message"]
            assert len(error["ranking"]) >= 2 and error["topic"]["judgments"]
    for constraint in CONSTRAINTS:
        if constraint not in errors:
            assert _comparable(cells[constraint], name) == _comparable(base[constraint], "good")


@pytest.mark.parametrize("way", WAYS)
def test_what_a_metric_prints_is_kept_in_its_cells(way):
    report = _run("prints", way)
    for cell in report["cells"]:
        check = cell["checks"][0]
        assert check["output"].startswith("hostile output hostile output")
        assert len(check["output"]) == 300 and check["output_chars"] > 10_000


def test_the_text_report_shows_the_output_on_one_short_line():
    done = subprocess.run([sys.executable, "-m", "axiometer", "check", "tests.hostile.metrics:prints",
                           "--quick", "--constraints", "Pri", "--details"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "COLUMNS": "100"})
    assert done.returncode == 0, done.stderr
    assert "hostile output" not in done.stderr
    printed = [line for line in done.stdout.splitlines() if "hostile output" in line]
    assert printed and all(len(line) <= 100 for line in printed)
    assert "characters in all)" in done.stdout


def test_in_process_a_sys_exit_is_still_an_error_cell():
    """--in-process gives up the worker, not the guard: sys.exit does not reach the caller."""
    report = axiometer.check(hostile.exits, CONSTRAINTS, budget=BUDGET, isolate=False)
    assert report.verdicts["Pri"] == "error"
    assert "called sys.exit(0)" in report.cell("Pri").checks[0].error.message


@pytest.mark.parametrize("name, says", [
    ("raises", "raises raised ValueError: hostile: cannot score this on topic 'q1', ranking d1 d2 d3"),
    ("exits", "exits called sys.exit(0) on topic 'q1', ranking d1 d2 d3"),
    ("wrong_type", "wrong_type returned '0.5' (str), not a number on topic 'q1', ranking d1 d2 d3"),
    ("returns_nan", "returns_nan returned nan, a non-finite value on topic 'q1', ranking d1 d2 d3"),
])
def test_score_with_a_misbehaving_metric_is_one_error_line(tmp_path, name, says):
    (tmp_path / "q.txt").write_text("q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\n")
    (tmp_path / "a.run").write_text("q1 Q0 d1 1 3 a\nq1 Q0 d2 2 2 a\nq1 Q0 d3 3 1 a\n")
    done = subprocess.run([sys.executable, "-m", "axiometer", "score", "--qrels", str(tmp_path / "q.txt"),
                           "--run", str(tmp_path / "a.run"), "--metric", f"tests.hostile.metrics:{name}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"axiometer: error: {says}\n"
