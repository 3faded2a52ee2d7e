"""Supervised workers: a metric author's metric runs in a process the run watches.

A built-in metric is trusted and runs in the run's own process or pool. A
metric author's metric may do anything — call ``sys.exit`` or ``os._exit``,
crash, ignore the per-case alarm, fill the memory, print megabytes — and
none of it may stop the run or corrupt its report. So each of its tasks (one
check, with its hundreds of cases: the batch that keeps the cost per case
small) runs in a worker process forked for it:

- the worker ignores Ctrl-C (the parent handles a real one and kills the
  workers), so a ``KeyboardInterrupt`` there is the metric's own;
- its address space is limited to what it had at the fork plus
  ``Budget.worker_mb`` (``RLIMIT_AS``): a metric allocating past it gets a
  ``MemoryError``, which the guard reports as the memory limit;
- what the metric writes to stdout and stderr goes into a buffer (Python's
  ``sys.stdout``/``sys.stderr``) and a file (the file descriptors, for
  output from C code), never onto the run's output; the first
  :data:`OUTPUT_SHOWN` characters come back with the result;
- the guard writes each input into a :class:`~axiometer.checking.case_slot.CaseSlot`
  before calling the metric, so when the worker dies (``os._exit``, a crash,
  a signal) or a call runs :data:`GRACE_SECONDS` past the per-case limit
  with the alarm ignored (the worker is then killed), the task's result is
  an error naming that input and what happened.

A finished or dead worker is never reused: the next task gets a fresh fork,
so a leak or a broken state ends with the task that caused it. Workers are
forked (``os.fork``), so the metric needs no pickling; where there is no
``fork`` (Windows) the run checks such metrics in its own process, as
``--in-process`` does.
"""

from __future__ import annotations

import concurrent.futures
import faulthandler
import gc
import os
import pickle
import signal
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection, Pipe, wait
from typing import Any, TypeVar

from axiometer.checking.case_slot import CaseSlot
from axiometer.checking.guard import context_text, supervise
from axiometer.results import Check, ErrorInfo, record_topic

__all__ = ["Supervisor", "WorkerLost", "can_supervise", "GRACE_SECONDS", "OUTPUT_SHOWN"]

_T = TypeVar("_T")

#: How long past the per-case limit a call may run before its worker is killed: the alarm
#: normally ends it first; this is for a metric that ignores or swallows the alarm.
GRACE_SECONDS = 1.0
#: Characters of a metric's output kept and shown in its cell.
OUTPUT_SHOWN = 300
#: Bytes of output a worker may write to its capture file (past it, writes fail).
_OUTPUT_FILE_LIMIT = 16 << 20


def can_supervise() -> bool:
    """Whether this platform can fork supervised workers."""
    return hasattr(os, "fork")


class WorkerLost(Exception):
    """A supervised worker sent no result: it died, was killed, or its result could not travel.

    ``message`` says what happened; ``error`` names the input the metric was scoring, when a
    metric call was in progress (the future's exception: the caller turns it into an error result).
    """

    def __init__(self, message: str, error: ErrorInfo | None = None) -> None:
        super().__init__(message)
        self.message, self.error = message, error


@dataclass
class _Call:
    """A submitted call and the future its result goes to."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    future: concurrent.futures.Future[Any] = field(default_factory=concurrent.futures.Future)


@dataclass
class _Worker:
    pid: int
    connection: Connection
    slot: CaseSlot
    call: _Call
    forked: float
    killed: str | None = None      # why the supervisor killed it, if it did


class _BoundedText:
    """A text stream keeping its first characters and counting the rest (a worker's sys.stdout/stderr)."""

    def __init__(self, keep: int) -> None:
        self.keep, self.kept, self.count = keep, 0, 0
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        text = str(text)
        self.count += len(text)
        if self.kept < self.keep:
            piece = text[:self.keep - self.kept]
            self.parts.append(piece)
            self.kept += len(piece)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def text(self) -> str:
        return "".join(self.parts)


def _limit_memory(megabytes: int | None) -> None:
    """Cap this process's address space at its present size plus ``megabytes`` (Linux; elsewhere no cap)."""
    if not megabytes:
        return
    try:
        import resource
        with open("/proc/self/statm") as statm:
            present = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        limit = present + megabytes * (1 << 20)
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):
        pass  # no /proc or no RLIMIT_AS: the worker runs without a memory cap


def _capture_output() -> tuple[Any, _BoundedText]:
    """Send this process's output (file descriptors 1 and 2, ``sys.stdout``/``sys.stderr``) to a
    bounded file and a bounded buffer instead of the caller's streams."""
    capture = tempfile.TemporaryFile()
    os.dup2(capture.fileno(), 1)
    os.dup2(capture.fileno(), 2)
    stream = _BoundedText(OUTPUT_SHOWN)
    sys.stdout = sys.stderr = stream
    try:
        import resource
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past the limit a write fails instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (_OUTPUT_FILE_LIMIT, resource.RLIM_INFINITY))
    except (ImportError, OSError, ValueError, AttributeError):
        pass
    return capture, stream


def _worker_main(call: _Call, sender: Connection, slot: CaseSlot, memory_mb: int | None) -> None:
    """The forked worker: run ``call`` with output captured and the limits set, send the result, exit.

    What it sends: ``(True, result, shown, count)``, or ``(False, message, shown, count)`` when the
    call raised or its result cannot be pickled (``shown``: the first characters the call printed,
    ``count``: how many it printed in all)."""
    status = 0
    try:
        # Keep the collector off the heap inherited from the caller: a forked child's first full
        # collection traverses every inherited object and, writing to their headers, copies every
        # page (0.5 s for a heap of 3 M objects, measured), which a metric's per-case wall-clock
        # limit would count as the metric's time.
        gc.freeze()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        faulthandler.disable()  # a crash's dump would go to the caller's stderr (pytest keeps a copy)
        capture, stream = _capture_output()
        _limit_memory(memory_mb)
        supervise(slot, memory_mb)
        try:
            outcome: tuple[bool, Any] = (True, call.fn(*call.args, **call.kwargs))
        except Exception as error:  # noqa: BLE001 - the caller's future gets it as a lost worker
            outcome = (False, f"the task raised {type(error).__name__}: {error}")
        capture.seek(0, os.SEEK_END)
        raw_count = capture.tell()
        capture.seek(0)
        raw = capture.read(OUTPUT_SHOWN).decode("utf-8", "replace")
        shown = (stream.text() + raw)[:OUTPUT_SHOWN]
        try:
            payload = pickle.dumps((*outcome, shown, stream.count + raw_count), pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # noqa: BLE001 - a result that cannot travel is an error result
            payload = pickle.dumps((False, f"the task's result could not be sent back: "
                                    f"{type(error).__name__}: {error}", shown, stream.count + raw_count))
        sender.send_bytes(payload)
    except BaseException:  # noqa: BLE001 - nothing may escape a forked worker into the caller's code
        status = 70
    finally:
        os._exit(status)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class Supervisor(concurrent.futures.Executor):
    """Runs calls in forked, watched workers, at most ``jobs`` at a time: a
    :class:`concurrent.futures.Executor` driven by its caller's thread.

    :meth:`submit` queues a call and returns its future; :meth:`step` (called
    by the caller's loop) forks workers for the queued calls while there is
    room, waits a little and completes the futures of the workers that
    finished; :meth:`shutdown` kills the rest. A worker that sends no result
    (it died, or was killed for running ``case_seconds`` plus
    :data:`GRACE_SECONDS` past the start of one metric call, or its result
    cannot be pickled) completes its future with :class:`WorkerLost`, naming
    the input the metric was scoring. ``memory_mb``: the memory each worker
    may allocate past what it inherits (``None``: no limit).
    """

    def __init__(self, jobs: int, *, case_seconds: float | None = None,
                 memory_mb: int | None = None) -> None:
        self.jobs, self.case_seconds, self.memory_mb = max(1, jobs), case_seconds, memory_mb
        self.workers: dict[int, _Worker] = {}
        self.queued: list[_Call] = []

    @property
    def busy(self) -> bool:
        """Whether a call is queued or running."""
        return bool(self.workers or self.queued)

    def submit(self, fn: Callable[..., _T], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[_T]:
        """Queue ``fn(*args, **kwargs)`` for a worker; it starts at a later :meth:`step`."""
        call = _Call(fn, args, kwargs)
        self.queued.append(call)
        return call.future

    def step(self, timeout: float) -> int:
        """Start queued calls while there is room, wait up to ``timeout`` s for the running ones,
        complete the futures of those that finished; how many finished."""
        while self.queued and len(self.workers) < self.jobs:
            call = self.queued.pop(0)
            if call.future.set_running_or_notify_cancel():
                self._start(call)
        ready = wait([w.connection for w in self.workers.values()], timeout) if self.workers else []
        for connection in ready:
            assert isinstance(connection, Connection)
            worker = self.workers.pop(connection.fileno())
            self._complete(worker)
        self._watch()
        return len(ready)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Kill every worker still running and cancel the queued calls (the caller is done with
        them: after Ctrl-C or an error; ``wait`` and ``cancel_futures`` change nothing)."""
        for call in self.queued:
            call.future.cancel()
        self.queued.clear()
        for worker in self.workers.values():
            _kill(worker.pid)
            worker.connection.close()
            _reap(worker.pid)
            worker.slot.close()
            worker.call.future.cancel()
        self.workers.clear()

    def _start(self, call: _Call) -> None:
        """Fork a worker for ``call``."""
        slot = CaseSlot()
        receiver, sender = Pipe(duplex=False)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()  # nothing buffered here may be written twice by the fork
            except Exception:  # noqa: BLE001 - a closed or odd stream: nothing to flush
                pass
        with warnings.catch_warnings():
            # Python 3.12+ warns when a process with threads forks; the worker touches none of the
            # locks those threads may hold (it replaces stdout/stderr and never uses the pool).
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:
            receiver.close()
            _worker_main(call, sender, slot, self.memory_mb)
        sender.close()
        self.workers[receiver.fileno()] = _Worker(pid, receiver, slot, call, time.monotonic())

    def _watch(self) -> None:
        """Kill a worker whose metric call has run past the per-case limit plus the grace."""
        now = time.monotonic()
        limit = self.case_seconds
        for worker in self.workers.values():
            started = worker.slot.started
            if limit is None or worker.killed or not started or now - started <= limit + GRACE_SECONDS:
                continue
            worker.killed = (f"did not return within the per-case time limit of {limit:g} s and ignored "
                             f"the alarm; the worker was killed after {now - started:.1f} s")
            _kill(worker.pid)

    def _complete(self, worker: _Worker) -> None:
        """Complete the worker's future: its result, or :class:`WorkerLost` naming what happened."""
        future = worker.call.future
        try:
            payload = worker.connection.recv_bytes()
        except (EOFError, OSError):
            payload = None
        worker.connection.close()
        status = _reap(worker.pid)
        if payload is not None:
            worker.slot.close()
            sent, result, shown, count = pickle.loads(payload)
            if sent:
                future.set_result(_with_output(result, shown, count))
            else:
                future.set_exception(WorkerLost(result))
            return
        future.set_exception(self._lost(worker, status))

    def _lost(self, worker: _Worker, status: int | None) -> WorkerLost:
        """What happened to a worker that sent nothing, and on which input."""
        if worker.killed:
            what = worker.killed
        elif status is not None and os.WIFSIGNALED(status):
            what = f"its worker process was killed by {_signal_name(os.WTERMSIG(status))} (a crash?)"
        elif status is not None and os.WIFEXITED(status):
            code = os.WEXITSTATUS(status)
            what = f"ended its worker process with exit status {code} (os._exit({code}) or a crash)"
        else:
            what = "its worker process ended without a result"
        case = worker.slot.case()
        worker.slot.close()
        if case is None:
            return WorkerLost(f"the metric {what}; no metric call was in progress")
        ranking, topic, context = case
        where = context_text(context) if context is not None else ""
        error = ErrorInfo(f"{what}{where}", record_topic(topic) if topic is not None else None, ranking)
        return WorkerLost(error.message, error)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _reap(pid: int) -> int | None:
    """Wait for the worker to end (it has, or has been killed); its status."""
    try:
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return None


def _with_output(result: Any, shown: str, count: int) -> Any:
    """A check's result with what the metric printed (the first characters, and how many in all)."""
    if not count or not isinstance(result, Check):
        return result
    return replace(result, output=shown, output_chars=count)
