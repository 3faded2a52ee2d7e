"""Ctrl-C through the command line: a burst of SIGINTs (a terminal and ``timeout`` both sending one,
a key held down; all within a second) is one interruption. The command ends with exit status 130 and its partial report,
and leaves no worker behind (issue 29: 3 of 7 bursts once left no report and orphaned workers)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hostile.processes import can_see_sessions, session_members, supervised_workers

ROOT = Path(__file__).resolve().parents[2]


def _sigint_as_in_a_terminal() -> None:
    # The command must see Ctrl-C as a terminal's foreground job does, whatever this suite
    # inherited (a background job ignores SIGINT, and its children would too).
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for_workers(pid: int, seconds: float = 60) -> None:
    """Until the command has forked a supervised worker (so its run has begun, and with it the
    handling of Ctrl-C that reports what finished; a Ctrl-C before that ends it with no report)."""
    deadline = time.monotonic() + seconds
    while not supervised_workers(pid):
        assert time.monotonic() < deadline, "no worker started"
        time.sleep(0.05)


@pytest.mark.skipif(not can_see_sessions(), reason="reads the session from /proc")
@pytest.mark.parametrize("attempt", range(3))
def test_a_burst_of_ctrl_c_ends_check_with_its_partial_report_and_no_worker_left(tmp_path, attempt):
    report = tmp_path / "report.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "axiometer", "check", "tests.hostile.metrics:slow", "--constraints",
         "Pri", "Red", "Conf", "--case-seconds", "20", "--format", "json", "-o", str(report)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=_sigint_as_in_a_terminal)
    try:
        _wait_for_workers(process.pid)
        time.sleep(0.1 * attempt)  # a little later each time: the workers at different points
        for _ in range(3):  # at once, then spread over a tenth and a fifth of a second
            os.killpg(process.pid, signal.SIGINT)   # the command's group, as a terminal sends it
            time.sleep(0.05 * attempt)
        _, stderr = process.communicate(timeout=60)
    finally:
        left = session_members(process.pid)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
    # 130, or killed by SIGINT: a Ctrl-C of the burst that comes once the report is written and the
    # interpreter is ending meets SIGINT's default action (a shell shows 130 for both).
    assert process.returncode in (130, -signal.SIGINT), stderr
    assert "Traceback" not in stderr
    assert left == [], f"processes left running: {left}"
    assert report.exists(), f"no report; exit status {process.returncode}, stderr: {stderr!r}"
    data = json.loads(report.read_text())
    assert data["interrupted"] is True
    assert {cell["verdict"] for cell in data["cells"]} <= {"not run", "satisfied", "violated", "error"}
