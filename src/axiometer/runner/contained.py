"""Scoring with a metric author's metric, contained: ``score``, ``compare``, ``meta`` and the API.

A built-in metric scores in the run's own process (fast, vectorised). A metric
author's metric may exit, crash, hang, fill the memory or print into a JSON
report; ``axiometer check`` contains such a metric in supervised workers
(:mod:`axiometer.runner.supervisor`), and so does scoring: each of the
metric's passes over the campaign (all its topics and runs) is one
computation, run by :class:`Contained` in a worker forked for it while the
run's own process scores the built-in metrics. The worker inherits the
campaign at the fork (nothing is pickled on the way in); only the values come
back. Inside it every call of the metric is guarded
(:mod:`axiometer.checking.guard`: the per-case time limit, its input recorded
for a crash report), its output is captured, and its memory capped.

Whatever goes wrong is one :class:`~axiometer.metrics.MetricError` naming the
metric, what it did, and the topic and ranking it was scoring: an exception
(``sys.exit`` and other ``BaseException`` subclasses included) as the metric
raised it, an exit or a crash of the worker (``os._exit(7)``: *ended its
worker process with exit status 7*), a call past the per-case limit, the
memory limit, a child process left running (killed with the worker's group).
"""

from __future__ import annotations

import mmap
import os
import struct
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from axiometer.core import AxiometerError
from axiometer.limits import Limits
from axiometer.metrics import MetricError
from axiometer.runner.supervisor import Supervisor, WorkerLost

__all__ = ["Contained", "input_text"]

_T = TypeVar("_T")
_COUNT = struct.Struct("<q")


def input_text(topic_id: str | None, ranking: Sequence[str]) -> str:
    """`` on topic 'q1', ranking d1 d2 d3`` (the first five documents, and how many in all);
    ``, ranking ...`` without a topic id (a topic too large for the case slot is not kept)."""
    shown = " ".join(ranking[:5]) + (f" … ({len(ranking)} documents)" if len(ranking) > 5 else "")
    where = f" on topic {topic_id!r}," if topic_id is not None else ","
    return f"{where} ranking {shown or '(empty)'}"


class _Counter:
    """A count shared with a forked worker (anonymous shared memory): the topics it has done."""

    def __init__(self) -> None:
        self.memory = mmap.mmap(-1, _COUNT.size)

    def add(self) -> None:
        _COUNT.pack_into(self.memory, 0, self.value + 1)

    @property
    def value(self) -> int:
        return int(_COUNT.unpack_from(self.memory, 0)[0])


@dataclass(frozen=True)
class _Failed:
    """What a computation sends back for a :class:`MetricError` (or another one-line error) it raised."""

    message: str


def _counted(compute: Callable[[Callable[[], None]], Any], counter: _Counter) -> Any:
    """``compute(tick)`` in the worker, ``tick`` counting its steps; a one-line error as :class:`_Failed`."""
    try:
        return compute(counter.add)
    except AxiometerError as error:
        return _Failed(str(error))


class Contained(Generic[_T]):
    """Named computations, each in a supervised worker of its own, running while the caller goes on.

    :meth:`start` forks a worker for a computation (``compute(tick)``, calling ``tick()`` after each
    topic); :meth:`poll` lets the supervisor collect ended workers (call it between pieces of the
    caller's own work); :meth:`results` waits for all of them, reporting the fewest steps any has
    done, and returns their values by name, or raises the first failure (in the order started) as
    a :class:`MetricError`. Use it as a context manager: leaving it kills whatever still runs
    (Ctrl-C included).
    """

    def __init__(self, limits: Limits) -> None:
        self.supervisor = Supervisor(os.cpu_count() or 1, case_seconds=limits.case_seconds,
                                     memory_mb=limits.worker_mb)
        self.started: dict[str, tuple[Future[Any], _Counter]] = {}

    def __enter__(self) -> Contained[_T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.supervisor.shutdown()
        for _, counter in self.started.values():
            counter.memory.close()

    def start(self, name: str, compute: Callable[[Callable[[], None]], _T]) -> None:
        """Run ``compute`` for the metric ``name`` in a worker of its own."""
        counter = _Counter()
        self.started[name] = (self.supervisor.submit(_counted, compute, counter), counter)
        self.supervisor.step(0.0)  # fork now: the worker runs while the caller scores the rest

    def poll(self) -> None:
        """Collect the workers that ended (none is waited for)."""
        if self.supervisor.busy:
            self.supervisor.step(0.0)

    @property
    def steps(self) -> int:
        """The fewest steps any computation has done (each counts the topics it finished)."""
        return min((counter.value for _, counter in self.started.values()), default=0)

    def results(self, progress: Callable[[int], None] | None = None) -> dict[str, _T]:
        """Every computation's value by name, once all have ended; ``progress(steps)`` while waiting."""
        shown = -1
        while self.supervisor.busy:
            self.supervisor.step(0.1)
            if progress is not None and self.steps != shown:
                shown = self.steps
                progress(shown)
        values = {}
        for name, (future, _) in self.started.items():
            values[name] = _value(name, future)
        return values


def _value(name: str, future: Future[Any]) -> Any:
    """The computation's value, or its failure as one :class:`MetricError` naming the metric."""
    if future.cancelled():
        raise MetricError(f"{name}: its worker was stopped before it ended")
    error = future.exception()
    if isinstance(error, WorkerLost):
        if error.case is None:
            raise MetricError(f"{name}: {error.message}")
        ranking, topic, _ = error.case
        topic_id = topic.topic_id if topic is not None else None
        raise MetricError(f"{name} {error.message}{input_text(topic_id, ranking)}")
    if error is not None:
        raise MetricError(f"{name}: {type(error).__name__}: {error}")
    value = future.result()
    if isinstance(value, _Failed):
        raise MetricError(value.message)
    return value
