"""``score``, ``compare`` and ``meta`` contain every hostile metric of :mod:`tests.hostile.metrics`
the way ``check`` does (issue 29): a metric author's metric scores in a supervised worker, and
whatever it does ends the command with one error line naming the metric, what it did and the topic
and ranking, exit status 2, nothing on stdout, and no process of the command left running.
``score`` runs as a subprocess in a session of its own (so what it leaves running can be seen);
``compare`` and ``meta`` share its scoring and run through the command line's entry point here.

Two behaviours are not errors when scoring: ``prints`` (its output is kept out of the report, which
parses) and ``non_deterministic`` (scoring evaluates each ranking once; the determinism test is
``check``'s). The limits are small (0.5 s per case, 300 MB per worker), as in
``tests/test_hostile_metrics.py``; a command that hung would hit the subprocess timeout and fail.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from axiometer.cli import main
from tests.hostile import metrics as hostile
from tests.hostile.processes import can_see_sessions, session_members

ROOT = Path(__file__).resolve().parents[1]
LIMITS = ["--case-seconds", "0.5", "--worker-mb", "300"]
NOT_ERRORS = {"prints", "non_deterministic"}


@pytest.fixture(scope="module")
def campaign(tmp_path_factory) -> list[str]:
    """Four topics of three documents and two runs: ten calls of 100 MB exceed the 300 MB limit."""
    folder = tmp_path_factory.mktemp("campaign")
    qrels, run_a, run_b = [], [], []
    for t in range(1, 5):
        qrels += [f"q{t} 0 d{t}{d} {d % 3}" for d in range(1, 4)]
        run_a += [f"q{t} Q0 d{t}{d} {r} {10 - r} a" for r, d in enumerate([3, 1, 2], 1)]
        run_b += [f"q{t} Q0 d{t}{d} {r} {10 - r} b" for r, d in enumerate([1, 2, 3], 1)]
    paths = []
    for name, lines in (("q.txt", qrels), ("a.run", run_a), ("b.run", run_b)):
        (folder / name).write_text("\n".join(lines) + "\n")
        paths.append(str(folder / name))
    return paths


def run_contained(command: str, name: str, files: list[str]) -> tuple[subprocess.CompletedProcess, list[int]]:
    """``axiometer COMMAND QRELS RUNS METRIC`` in a session of its own; what it gave, and the
    processes of its session still running once it has ended (killed, then)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "axiometer", command, *files, f"tests.hostile.metrics:{name}",
         "--format", "json", *LIMITS],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=120)
    finally:
        left = session_members(process.pid)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr), left


def assert_contained(name: str, status: int, stdout: str, stderr: str) -> None:
    """What a scoring command must have done with the hostile metric ``name``."""
    if name in NOT_ERRORS:
        assert status == 0, stderr
        json.loads(stdout)   # nothing the metric printed is in the report
        assert "hostile output" not in stdout + stderr
        return
    assert (status, stdout) == (2, ""), stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"axiometer: error: {name} ")
    assert hostile.BEHAVIOUR[name] in lines[0]
    assert " on topic 'q" in lines[0] and ", ranking d" in lines[0]


@pytest.mark.skipif(not can_see_sessions(), reason="reads the session from /proc")
@pytest.mark.parametrize("name", sorted(hostile.BEHAVIOUR))
def test_a_hostile_metric_ends_score_with_one_line_naming_what_it_did_and_no_process_left(campaign, name):
    done, left = run_contained("score", name, campaign)
    assert left == [], f"processes left running: {left}"
    assert_contained(name, done.returncode, done.stdout, done.stderr)


@pytest.mark.parametrize("command", ["compare", "meta"])
@pytest.mark.parametrize("name", sorted(hostile.BEHAVIOUR))
def test_a_hostile_metric_ends_compare_and_meta_as_it_ends_score(campaign, command, name, capsys, monkeypatch):
    """The same through the command line's entry point in this process (score's subprocesses above
    show that nothing is left running; here the pytest process itself must survive every one)."""
    monkeypatch.chdir(ROOT)
    status = main([command, *campaign, f"tests.hostile.metrics:{name}", "--format", "json", *LIMITS])
    out, err = capsys.readouterr()
    assert_contained(name, status, out, err)


def test_in_process_a_metric_author_s_exception_is_still_one_line(campaign):
    """--in-process gives up the worker, not the guard."""
    done = subprocess.run([sys.executable, "-m", "axiometer", "score", *campaign,
                           "tests.hostile.metrics:raises_base_exception", "--in-process"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("axiometer: error: raises_base_exception raised HostileBaseException: hostile "
                           "on topic 'q1', ranking d13 d11 d12\n")
