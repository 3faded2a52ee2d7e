"""A supervised worker freezes the heap it inherits at the fork, so that the collector's first full
pass in the child does not walk (and copy) the caller's objects while a metric's per-case wall-clock
limit runs (a trivial metric was once reported as taking longer than 2 s on one case)."""

from __future__ import annotations

import gc
import pytest

from axiometer.runner.supervisor import Supervisor, can_supervise


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
