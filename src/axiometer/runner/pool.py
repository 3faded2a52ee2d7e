"""The task pool: where each of a table's tasks runs, its result handed back, progress, Ctrl-C.

A :class:`TaskPool` takes typed tasks (:mod:`axiometer.runner.tasks`), each with
the handler its result goes to, and submits each to one
:class:`concurrent.futures.Executor` (:mod:`axiometer.runner.executors`): the
run's given executor (a Dask cluster's) for the tasks that can travel (their
metric and constraint pickle), else supervised workers for a metric author's
metric (:mod:`axiometer.runner.supervisor`), else local worker processes for
the tasks that travel, else this process. It hands every result to its
handler as it arrives (the handler may submit follow-up tasks) and reports
progress in phases, each with a total fixed before its first report
(:data:`PHASES`). Workers ignore Ctrl-C: the pool stops them, and
:meth:`TaskPool.run` says it was interrupted. Which executor ran a task
changes nothing in its result: every task is seeded by its cell.
"""

from __future__ import annotations

import concurrent.futures
import functools
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any, Generic, TypeVar

from axiometer.checking import Budget
from axiometer.core import ProgressCallback
from axiometer.runner.executors import InProcess, WorkerProcesses
from axiometer.runner.supervisor import Supervisor, WorkerLost
from axiometer.runner.tasks import Interrupted, Task, run_supervised, run_task

__all__ = ["TaskPool", "PHASES"]

R = TypeVar("R")

#: The phases a run reports, in order. ``checking``: the tasks submitted before
#: :meth:`TaskPool.run` (a table's whole grid of checks), counted before the
#: first one starts. ``explaining``: the follow-ups those tasks' results ask
#: for (a violated cell's explanation, the other cutoff mode's verdict), which
#: depend on the verdicts, so their number is known only when the last check is done;
#: they run meanwhile, and the phase is reported from then on with the ones
#: already finished counted. ``locating boundaries``: likewise, the boundary
#: searches of the parameter-dependent cells, when a run asks for them.
PHASES = ("checking", "explaining", "locating boundaries")


@dataclass(frozen=True)
class _Job(Generic[R]):
    """A submitted task: its handler, its phase (index into :data:`PHASES`) and where it may run."""

    task: Task[R]
    then: Callable[[R], None]
    phase: int
    travels: bool
    supervised: bool


class TaskPool:
    """Runs tasks where they may run (see the module docstring) and hands each result to its handler.

    ``jobs``: at most that many local worker processes (1: everything in this process), and at
    most that many supervised workers, whatever ``jobs`` is. ``budget``: the limits of a
    supervised worker (``case_seconds``, ``worker_mb``). ``progress``
    (:class:`~axiometer.core.ProgressCallback`): the phases of :data:`PHASES` that have tasks,
    in order, each first with ``done`` 0 (checking) or the tasks already finished (a follow-up
    phase, from the last check on), then after each of its tasks' handlers. ``executor``: run the travelling
    tasks there instead of in local processes (any :class:`concurrent.futures.Executor`: a Dask
    ``Client.get_executor()``); a metric author's metric travels there too, checked in the
    executor's worker with the guard alone (no supervising process: see docs/distributed.md).
    """

    def __init__(self, jobs: int, budget: Budget, progress: ProgressCallback | None = None,
                 executor: concurrent.futures.Executor | None = None) -> None:
        self.jobs, self.progress, self.executor = jobs, progress, executor
        self.here = InProcess()
        self.supervisor = Supervisor(jobs, case_seconds=budget.case_seconds, memory_mb=budget.worker_mb)
        self.workers: WorkerProcesses | None = None
        self.first: list[_Job[Any]] = []   # submitted before run(): the first phase
        self.running = False
        self.futures: set[concurrent.futures.Future[Any]] = set()   # on ``executor``
        self.results: queue.Queue[tuple[_Job[Any], concurrent.futures.Future[Any]]] = queue.Queue()
        self.outstanding = 0
        self.done = [0] * len(PHASES)      # per phase (index into PHASES)
        self.total = [0] * len(PHASES)
        self.checked = False    # every first-phase task handled: the follow-ups are all known
        self.closed: set[int] = set()  # follow-up phases reported complete
        self.sigint = False     # a Ctrl-C arrived during run()
        self.sigint_at = 0.0    # when (time.monotonic())

    def submit(self, task: Task[R], then: Callable[[R], None], *, phase: int = 0,
               travels: bool = False, supervised: bool = False) -> None:
        """Run ``task`` and give its result to ``then``. ``phase`` 0 (checking): before :meth:`run`;
        1 (explaining) or 2 (locating boundaries): a follow-up, only from a handler while checking,
        so that the follow-ups' totals are fixed when the last check is done. ``travels``: the task
        pickles, so it may run in another process; ``supervised``: it runs a metric author's metric."""
        job = _Job(task, then, phase, travels, supervised)
        if phase == 0:
            if self.running:
                raise RuntimeError("the first phase's tasks are submitted before run()")
            self.first.append(job)
            self.total[0] += 1
            return
        if not self.running or self.checked:
            raise RuntimeError("a follow-up task must be submitted before the last first-phase "
                               "task is handled, so that the later phases' totals are fixed")
        self.total[phase] += 1
        self._dispatch(job)

    def _executor_for(self, job: _Job[Any]) -> concurrent.futures.Executor:
        """The given executor if there is one and the task travels, else the supervised workers if it
        needs them, else the local worker processes if it travels, else this process."""
        if self.executor is not None and job.travels:
            return self.executor
        if job.supervised:
            return self.supervisor
        if self.workers is not None and job.travels:
            return self.workers
        return self.here

    def _dispatch(self, job: _Job[Any]) -> None:
        self.outstanding += 1
        executor = self._executor_for(job)
        future = executor.submit(run_supervised if executor is self.supervisor else run_task, job.task)
        if executor is self.executor:
            self.futures.add(future)
        # Called in whatever thread completes the future; the loop takes it from the queue.
        future.add_done_callback(functools.partial(self._arrived, job))

    def _arrived(self, job: _Job[Any], future: concurrent.futures.Future[Any]) -> None:
        self.results.put((job, future))

    def run(self) -> bool:
        """Run the submitted tasks and every follow-up; True if Ctrl-C stopped the run."""
        local = sum(1 for job in self.first if job.travels and not job.supervised)
        previous = self._catch_sigint()
        previous_hook = sys.unraisablehook
        if previous is not None:
            sys.unraisablehook = functools.partial(_quiet_about_noted_ctrl_c, self, previous_hook)
        try:
            if self.executor is None and min(self.jobs, local) > 1:
                self.workers = WorkerProcesses(min(self.jobs, local))
            self._loop()
        except KeyboardInterrupt:
            return True
        finally:
            self._stop()
            if previous is not None:
                # The rest of a burst of Ctrl-C (a terminal and `timeout` both sending one, a key
                # held down) must not stop the report of the interrupted run either.
                signal.signal(signal.SIGINT, _burst_ignored(self.sigint_at, previous) if self.sigint else previous)
                sys.unraisablehook = previous_hook
        return False

    def _stop(self) -> None:
        """Stop whatever still runs (after an interruption): the local and supervised workers are
        killed, the given executor's tasks not yet started cancelled (the executor is its owner's)."""
        for future in list(self.futures):
            future.cancel()
        self.here.shutdown()
        self.supervisor.shutdown()
        if self.workers is not None:
            self.workers.shutdown()
            self.workers = None

    def _catch_sigint(self) -> Any:
        """Note every Ctrl-C in :attr:`sigint` as well as raising it, and return the handler replaced.

        A ``KeyboardInterrupt`` raised while the interpreter runs a garbage-collection callback
        (hypothesis installs one) is reported as unraisable and lost; the loop checks the note, so
        a Ctrl-C is never lost. Nothing changes outside the main thread, or where Ctrl-C is ignored.
        """
        self.sigint = False
        if threading.current_thread() is not threading.main_thread():
            return None
        previous = signal.getsignal(signal.SIGINT)
        if not callable(previous):
            return None  # SIG_IGN (a background job) or SIG_DFL: not ours to change

        def on_sigint(signum: int, frame: FrameType | None) -> None:
            if self.sigint:
                return  # the run is stopping already: a burst of Ctrl-C must not cut its cleanup short
            self.sigint, self.sigint_at = True, time.monotonic()
            raise KeyboardInterrupt

        signal.signal(signal.SIGINT, on_sigint)
        return previous

    def _loop(self) -> None:
        self.running = True
        for job in self.first:
            self._dispatch(job)
        self._report(0)  # the whole first phase is counted before any of it runs
        while self.outstanding:
            if self.sigint:
                raise KeyboardInterrupt  # a Ctrl-C whose exception was lost (see _catch_sigint)
            block = 0.2
            if self.supervisor.busy:
                # Start what has room, collect what finished; wait only if nothing runs here.
                self.supervisor.step(timeout=0.0 if self.here.queued else 0.05)
                block = 0.0   # the supervised workers were waited on already
            if self.here.step():
                block = 0.0   # ran one task here: its result is queued
            try:
                job, future = self.results.get(timeout=block)
            except queue.Empty:
                continue
            self._finish(job, future)
            while True:  # every other result already here
                try:
                    job, future = self.results.get_nowait()
                except queue.Empty:
                    break
                self._finish(job, future)

    def _finish(self, job: _Job[Any], future: concurrent.futures.Future[Any]) -> None:
        if self.sigint:
            # Ctrl-C arrived while this task ran: its result may be what the interruption did to it
            # (a search that caught it), not a verdict.
            raise KeyboardInterrupt
        self.futures.discard(future)
        self.outstanding -= 1
        self.done[job.phase] += 1
        result = _result(job.task, future)
        if isinstance(result, Interrupted):
            raise KeyboardInterrupt
        job.then(result)
        if job.phase == 0:
            self.checked = self.done[0] == self.total[0]
            self._report(0)
        if self.checked:
            # From the last check on every follow-up has been submitted. The follow-up phases
            # run together but are reported one after the other (one bar at a time): the
            # first unfinished one, and any that finished meanwhile, in order.
            for later in range(1, len(PHASES)):
                if not self.total[later] or later in self.closed:
                    continue
                self._report(later)
                if self.done[later] < self.total[later]:
                    break
                self.closed.add(later)

    def _report(self, phase: int) -> None:
        if self.progress is not None:
            self.progress(PHASES[phase], self.done[phase], self.total[phase])


#: Ctrl-C within this many seconds of the one that interrupted a run belongs to the same burst.
BURST_SECONDS = 1.0


def _burst_ignored(first: float, previous: Callable[..., Any]) -> Callable[[int, FrameType | None], None]:
    """A SIGINT handler ignoring Ctrl-C until :data:`BURST_SECONDS` after ``first``, then putting
    ``previous`` back and handing it the signal."""
    def on_sigint(signum: int, frame: FrameType | None) -> None:
        if time.monotonic() - first < BURST_SECONDS:
            return
        signal.signal(signal.SIGINT, previous)
        previous(signum, frame)
    return on_sigint


def _quiet_about_noted_ctrl_c(run: Any, previous: Callable[[Any], None], unraisable: Any) -> None:
    """``sys.unraisablehook`` while a run catches Ctrl-C: a ``KeyboardInterrupt`` the interpreter
    could not raise (it landed in a garbage-collection callback or a fork hook) is noted in
    ``run.sigint`` and raised by the loop, so it is not printed as an ignored exception with its
    traceback; anything else goes to the hook there was."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt) and run.sigint:
        return
    previous(unraisable)


def _result(task: Task[R], future: concurrent.futures.Future[Any]) -> R | Interrupted:
    """The task's result, or, when its executor lost it (a supervised worker died or was killed,
    a cluster's worker went away), the task's failed result saying so."""
    if future.cancelled():
        return task.failed("the executor cancelled it", None)
    error = future.exception()
    if error is None:
        result: R | Interrupted = future.result()
        return result
    if isinstance(error, WorkerLost):
        return task.failed(error.message, error.error)
    return task.failed(f"the executor failed to run it: {type(error).__name__}: {error}", None)
