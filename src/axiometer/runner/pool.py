"""The process pool a table's checks run in: tasks, workers and interruption.

A :class:`Task` is one check (a grid setting, or the other cutoff mode) or
one explanation, carrying the metric at its setting as it was resolved in
the parent process; :func:`run_task` runs it and never raises. A
:class:`TaskPool` runs the tasks that can travel (their metric and
constraint pickle) in ``multiprocessing`` workers, the tasks of a metric
author's metric in supervised workers (:mod:`axiometer.runner.supervisor`)
and the others in this process, hands every result to its caller as it
arrives (the caller may submit follow-up tasks) and reports progress in
phases, each with a total fixed before its first report (:data:`PHASES`).
Workers ignore Ctrl-C: the parent stops them, and :meth:`TaskPool.run` says
it was interrupted.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import queue
import signal
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from axiometer.axioms import get
from axiometer.axioms.constraints.base import Constraint, params_of
from axiometer.checking import Budget, check
from axiometer.checking.boundary import CellProbe, locate
from axiometer.checking.explain import explain
from axiometer.core import to_fraction
from axiometer.metrics.base import Metric
from axiometer.results import Boundary, Check, ErrorInfo
from axiometer.runner.supervisor import Supervisor

__all__ = ["Task", "Interrupted", "run_task", "failed_result", "TaskPool", "ProgressCallback", "PHASES"]

#: ``progress(phase, done, total)``: called with ``done = 0`` (or what is already done) as
#: soon as the phase's total is known, then after every task of the phase; ``total``
#: never changes within a phase.
ProgressCallback = Callable[[str, int, int], None]

#: The phases a run reports, in order. ``checking``: the tasks given to
#: :meth:`TaskPool.run` (a table's whole grid of checks), counted before the
#: first one starts. ``explaining``: the follow-ups those tasks' results ask
#: for (a violated cell's explanation, the other cutoff mode's verdict), which
#: depend on the verdicts, so their number is known only when the last check is done;
#: they run meanwhile, and the phase is reported from then on with the ones
#: already finished counted. ``locating boundaries``: likewise, the boundary
#: searches of the parameter-dependent cells, when a run asks for them.
PHASES = ("checking", "explaining", "locating boundaries")


@dataclass(frozen=True)
class Task:
    """One unit of work. ``kind``: ``check`` (a grid setting), ``other`` (the other mode), ``explain``,
    ``boundary`` (the boundaries of one parameter of a cell: ``span``, the others at the task's setting;
    ``over``, for one point of a two-parameter curve, names the other parameter and its value)."""

    kind: str
    row: int
    column: int
    setting: int
    metric: Metric              # the metric at the task's setting
    constraint: Any             # a constraint id, or the object when it is not registered
    mode: str | None
    budget: Budget
    seed: int
    check: Check | None = None
    grid_checks: tuple[Check, ...] = ()
    span: Any = None            # boundary: the ParamRange searched
    given: tuple[Any, ...] = ()  # boundary: the grid values probed first
    over: tuple[str, Any] | None = None


class Interrupted:
    """What a task returns when a KeyboardInterrupt reached it (survives pickling, unlike a sentinel)."""


def _constraint(task: Task) -> Constraint:
    return get(task.constraint) if isinstance(task.constraint, str) else task.constraint


def run_task(task: Task) -> Any:
    """Run one task; never raises (an unexpected error becomes an error check)."""
    try:
        metric, constraint = task.metric, _constraint(task)
        if task.kind == "explain":
            return explain(metric, constraint, task.check, budget=task.budget, seed=task.seed,
                           grid_checks=task.grid_checks)
        if task.kind == "boundary":
            return _boundaries(task, metric, constraint)
        return check(metric, constraint, mode=task.mode, budget=task.budget, seed=task.seed)
    except KeyboardInterrupt:
        return Interrupted()
    except Exception as error:  # a bug outside the metric's evaluation: show it in the table
        return failed_result(task, f"{type(error).__name__}: {error}", None,
                             note="raised outside the metric's evaluation")


def failed_result(task: Task, message: str, error: ErrorInfo | None, note: str = "") -> Any:
    """What a task gives when it could not finish: an error check (``error``, else ``message``
    alone), an explanation saying why there is none, or a boundary search's failure."""
    if task.kind == "explain":
        return f"(no explanation: {message})"
    if task.kind == "boundary":
        return f"boundaries of {task.span.name} not located: {message}"
    name = task.metric.name
    constraint_id = task.constraint if isinstance(task.constraint, str) else task.constraint.id
    mode = task.mode or getattr(_constraint(task), "default_mode", "")
    return Check(constraint=constraint_id, metric=str(name), params=params_of(task.metric), verdict="error",
                 mode=mode, error=error or ErrorInfo(message), note=note)


def _run_supervised(task: Task) -> Any:
    """:func:`run_task` in a supervised worker: the worker ignores Ctrl-C, so a ``KeyboardInterrupt``
    that escaped the metric's guard is the metric's, not the user's."""
    result = run_task(task)
    if isinstance(result, Interrupted):
        return failed_result(task, "the metric raised KeyboardInterrupt", None)
    return result


def _boundaries(task: Task, metric: Metric, constraint: Constraint) -> tuple[tuple[Boundary, ...],
                                                                         tuple[tuple[Any, Check], ...]]:
    """A boundary task: :func:`~axiometer.checking.boundary.locate` with a
    :class:`~axiometer.checking.boundary.CellProbe`; also the grid values (``task.given``) whose
    verdict a counterexample found elsewhere overturned, with their re-decided checks, so the
    cell's own grid agrees with its boundaries."""
    name = task.span.name
    probe = CellProbe(metric, constraint, name, mode=task.mode, budget=task.budget, seed=task.seed)
    fixed = tuple((k, v) for k, v in metric.params.items() if k != name)
    boundaries = locate(metric, constraint, task.span, probe, task.given, fixed)
    overturned = []
    for value in task.given:
        exact = to_fraction(value)
        searched = probe.searched.get(exact)
        if searched is not None:
            decided = probe(exact)
            if decided.verdict != searched.verdict:
                overturned.append((value, decided))
    return boundaries, tuple(overturned)


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class TaskPool:
    """Runs tasks in worker processes where they can travel, else here, and hands back each result.

    ``travels(task)``: whether the task may run in a worker (its metric and
    constraint pickle). ``handle(task, result)`` receives every result, in
    the order they finish, and may :meth:`submit` follow-up tasks;
    ``progress(phase, done, total)`` (:data:`ProgressCallback`) is called
    after it. ``jobs``: at most that many workers (1: everything in this
    process). ``supervised(task)``: whether the task runs in a supervised
    worker (a metric author's metric), at most ``jobs`` at a time, whatever
    ``jobs`` is. ``executor``: run the travelling tasks there instead of in a process pool of
    ``jobs`` workers (any :class:`concurrent.futures.Executor`: a ``ProcessPoolExecutor``, a Dask
    ``Client.get_executor()``); a metric author's metric travels there too, checked in the
    executor's worker with the guard alone (no supervising process: see docs/distributed.md).
    """

    def __init__(self, jobs: int, travels: Callable[[Task], bool],
                 handle: Callable[[Task, Any], None], progress: ProgressCallback | None = None,
                 supervised: Callable[[Task], bool] | None = None,
                 executor: concurrent.futures.Executor | None = None) -> None:
        self.jobs, self.travels, self.handle, self.progress = jobs, travels, handle, progress
        self.supervised = supervised
        self.executor = executor
        self.futures: set[concurrent.futures.Future] = set()
        self.supervisor = Supervisor(jobs, _run_supervised, failed_result)
        self.waiting: list[tuple[Task, int]] = []   # for a supervised worker
        self.local: list[tuple[Task, int]] = []
        self.results: queue.Queue = queue.Queue()
        self.outstanding = 0
        self.done = [0] * len(PHASES)      # per phase (index into PHASES)
        self.total = [0] * len(PHASES)
        self.checked = False    # every first-phase task handled: the follow-ups are all known
        self.closed: set[int] = set()  # follow-up phases reported complete
        self.workers: Any = None
        self.sigint = False     # a Ctrl-C arrived during run()

    def submit(self, task: Task, phase: int = 1) -> None:
        """Queue a follow-up ``task`` in ``phase`` (1, explaining, or 2, locating boundaries); only
        from ``handle`` while checking, so that the follow-ups' totals are fixed when the last check
        is done."""
        if self.checked:
            raise RuntimeError("a follow-up task must be submitted before the last first-phase "
                               "task is handled, so that the later phases' totals are fixed")
        self._queue(task, phase)

    def _queue(self, task: Task, phase: int) -> None:
        """Queue ``task``: on the executor if there is one and it travels, else for a supervised
        worker if it needs one, else for the process pool if it travels, else for this process."""
        self.outstanding += 1
        self.total[phase] += 1
        if self.executor is not None and self.travels(task):
            future = self.executor.submit(run_task, task)
            self.futures.add(future)
            future.add_done_callback(lambda done, t=task, p=phase: self._arrived(t, p, done))
        elif self.supervised is not None and self.supervised(task):
            self.waiting.append((task, phase))
        elif self.workers is not None and self.travels(task):
            self.workers.apply_async(
                run_task, (task,),
                callback=lambda result, t=task, p=phase: self.results.put((t, p, result)),
                error_callback=lambda error, t=task, p=phase: self.results.put((t, p, error)))
        else:
            self.local.append((task, phase))

    def _arrived(self, task: Task, phase: int, future: concurrent.futures.Future) -> None:
        """An executor's future is done (called in whatever thread the executor uses)."""
        self.futures.discard(future)
        if future.cancelled():
            return
        error = future.exception()
        if error is None:
            self.results.put((task, phase, future.result()))
        else:  # the executor lost the task (a worker died, the cluster went away): this cell's error
            self.results.put((task, phase, failed_result(
                task, f"the executor failed to run it: {type(error).__name__}: {error}", None)))

    def run(self, tasks: Sequence[Task]) -> bool:
        """Run ``tasks`` and every task submitted meanwhile; True if Ctrl-C stopped the run."""
        supervised = self.supervised or (lambda task: False)
        workers = min(self.jobs, sum(1 for t in tasks if self.travels(t) and not supervised(t)))
        previous = self._catch_sigint()
        try:
            if self.executor is not None:
                try:
                    self._loop(tasks)
                finally:
                    for future in list(self.futures):  # after an interruption: what has not started
                        future.cancel()
            elif workers > 1:
                with multiprocessing.Pool(workers, initializer=_ignore_sigint) as pool:
                    self.workers = pool
                    try:
                        self._loop(tasks)
                    finally:
                        self.workers = None
                        pool.terminate()  # stops workers still busy after an interruption
            else:
                self._loop(tasks)
        except KeyboardInterrupt:
            return True
        finally:
            self.supervisor.stop()
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
        return False

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

        def on_sigint(signum: int, frame: Any) -> None:
            self.sigint = True
            raise KeyboardInterrupt

        signal.signal(signal.SIGINT, on_sigint)
        return previous

    def _loop(self, tasks: Sequence[Task]) -> None:
        for task in tasks:
            self._queue(task, 0)
        self._report(0)  # the whole first phase is counted before any of it runs
        while self.outstanding:
            if self.sigint:
                raise KeyboardInterrupt  # a Ctrl-C whose exception was lost (see _catch_sigint)
            while self.waiting and self.supervisor.has_room:
                self.supervisor.start(*self.waiting.pop(0))
            if self.local:
                task, phase = self.local.pop(0)
                self._finish(task, phase, run_task(task))
                continue
            block = 0.2
            if self.supervisor.active:
                finished = self.supervisor.collect(timeout=0.05)
                for task, phase, result in finished:
                    self._finish(task, phase, result)
                if finished:
                    continue  # start the next supervised tasks at once
                block = 0.0   # the supervised workers were waited on already
            try:
                task, phase, result = self.results.get(timeout=block)
            except queue.Empty:
                continue
            self._finish(task, phase, result)

    def _finish(self, task: Task, phase: int, result: Any) -> None:
        if self.sigint:
            # Ctrl-C arrived while this task ran: its result may be what the interruption did to it
            # (a search that caught it), not a verdict.
            raise KeyboardInterrupt
        self.outstanding -= 1
        self.done[phase] += 1
        if isinstance(result, BaseException):
            raise result
        if isinstance(result, Interrupted):
            raise KeyboardInterrupt
        self.handle(task, result)
        if phase == 0:
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
