"""The supervisor's workers: a worker freezes the heap it inherits at the fork, so that the
collector's first full pass in the child does not walk (and copy) the caller's objects while a
metric's per-case wall-clock limit runs (a trivial metric was once reported as taking longer than
2 s on one case); a worker leads a process group that is killed with it, so nothing the metric
started outlives its task, and its end is seen from the process, not from a pipe a child holds."""

from __future__ import annotations

import gc
import os
import signal
import time
from pathlib import Path

import pytest

from axiometer.runner.supervisor import Supervisor, WorkerLost, can_supervise


@pytest.mark.skipif(not can_supervise(), reason="no fork on this platform")
def test_a_supervised_worker_starts_with_the_inherited_heap_frozen():
    inherited = len(gc.get_objects())
    supervisor = Supervisor(1)
    future = supervisor.submit(gc.get_freeze_count)
    finished = 0
    for _ in range(100):
        finished += supervisor.step(0.1)
        if finished:
            break
    supervisor.shutdown()
    assert finished == 1 and future.done()
    frozen = future.result()
    assert frozen >= inherited // 2  # the caller's objects, not the child's few


def _leaves_a_child(seconds: float) -> int:
    """Fork a child that sleeps ``seconds``, and return its pid at once."""
    child = os.fork()
    if child == 0:
        time.sleep(seconds)
        os._exit(0)
    return child


def _finish(supervisor: Supervisor, future) -> float:
    """Step until ``future`` is done; how long it took."""
    start = time.monotonic()
    while not future.done():
        supervisor.step(0.05)
        assert time.monotonic() - start < 30, "the supervisor did not see the worker end"
    return time.monotonic() - start


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state != b"Z"


@pytest.mark.skipif(not can_supervise() or not Path("/proc/self/stat").exists(), reason="fork and /proc")
def test_a_child_the_call_leaves_running_is_killed_with_the_workers_process_group():
    supervisor = Supervisor(1)
    future = supervisor.submit(_leaves_a_child, 60)
    _finish(supervisor, future)
    child = future.result()
    for _ in range(100):   # SIGKILL is delivered at once; the orphan's reaping by init may lag
        if not _running(child):
            break
        time.sleep(0.02)
    assert not _running(child)


def _crashes_leaving_a_child() -> None:
    _leaves_a_child(60)
    os.kill(os.getpid(), signal.SIGSEGV)


@pytest.mark.skipif(not can_supervise() or not Path("/proc/self/stat").exists(), reason="fork and /proc")
def test_a_worker_that_crashes_is_seen_at_once_although_its_child_holds_what_it_had_open():
    supervisor = Supervisor(1)
    future = supervisor.submit(_crashes_leaving_a_child)
    took = _finish(supervisor, future)
    error = future.exception()
    assert isinstance(error, WorkerLost)
    assert "killed by SIGSEGV" in error.message
    assert "a child process it started was still running and was killed" in error.message
    assert took < 30   # the child sleeps 60 s: a wait for it would fail the loop's own limit first
