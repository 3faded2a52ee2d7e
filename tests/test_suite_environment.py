"""The suite gives one answer however it is started (issue 29): from a terminal, under ``nohup``, or
as a background job in a session of its own (``setsid ... &``, where SIGINT is ignored and there is
no controlling terminal). A background run once never ended: a test interrupted a run by sending it
SIGINT, which the inherited disposition ignored. The tests that depend on a signal's disposition or
a terminal set what they depend on themselves (``sigint_raises`` in ``tests/conftest.py``; a
command started by a test restores SIGINT itself); this runs them in each of the three ways.
"""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The tests that send SIGINT, to this process or to a command they start.
DEPENDENT = ["tests/runner/test_table.py::test_ctrl_c_stops_the_workers_and_keeps_what_finished",
             "tests/runner/test_table.py::test_an_interrupted_run_returns_a_valid_partial_table",
             "tests/cli/test_interrupt.py"]
COMMAND = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *DEPENDENT]


def _command(tmp_path: Path) -> list[str]:
    """:data:`COMMAND` with a base temporary directory of its own: a nested pytest otherwise
    takes the next ``/tmp/pytest-of-USER/pytest-N`` and deletes all but the newest three, the
    running suite's own among them (a test of that suite then found its files gone)."""
    return [*COMMAND, "--basetemp", str(tmp_path / "basetemp")]


def _background() -> None:
    """What ``setsid cmd &`` in a script gives: a new session (no terminal) and SIGINT ignored."""
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _nohup() -> None:
    """What ``nohup cmd &`` gives: SIGHUP and SIGINT ignored (a script's background job)."""
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run(preexec, output: Path) -> int:
    with open(output, "w") as sink:
        done = subprocess.run(_command(output.parent), cwd=ROOT, stdin=subprocess.DEVNULL, stdout=sink,
                              stderr=subprocess.STDOUT, preexec_fn=preexec, timeout=600)
    return done.returncode


def _run_in_a_terminal(output: Path) -> int:
    """The command with a pseudo-terminal as its controlling terminal, SIGINT as a terminal gives it."""
    command = _command(output.parent)
    pid, terminal = pty.fork()
    if pid == 0:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.chdir(ROOT)
        os.execv(command[0], command)
    chunks = []
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        try:
            chunk = os.read(terminal, 4096)
        except OSError:  # the terminal closed: the command ended
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(terminal)
    _, status = os.waitpid(pid, 0)
    output.write_bytes(b"".join(chunks))
    return os.waitstatus_to_exitcode(status)


@pytest.mark.skipif(not hasattr(os, "setsid"), reason="POSIX sessions")
@pytest.mark.parametrize("way", ["terminal", "nohup", "setsid background"])
def test_the_signal_dependent_tests_pass_however_the_suite_is_started(tmp_path, way):
    output = tmp_path / "pytest.out"
    if way == "terminal":
        status = _run_in_a_terminal(output)
    else:
        status = _run(_nohup if way == "nohup" else _background, output)
    text = output.read_text(errors="replace")
    assert status == 0, text[-3000:]
    assert " passed" in text and "failed" not in text
