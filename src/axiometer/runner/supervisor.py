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
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, Pipe, wait
from typing import Any

from axiometer.checking.case_slot import CaseSlot
from axiometer.checking.guard import context_text, supervise
from axiometer.results import Check, ErrorInfo, record_topic

__all__ = ["Supervisor", "can_supervise", "GRACE_SECONDS", "OUTPUT_SHOWN"]

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


@dataclass
class _Worker:
    pid: int
    connection: Connection
    slot: CaseSlot
    task: Any
    phase: int
    forked: float
    killed: str | None = None      # why the supervisor killed it, if it did


class _BoundedText:
    """A text stream keeping its first characters and counting the rest (a worker's sys.stdout/stderr)."""

    def __init__(self, keep: int) -> None:
        self.keep, self.parts, self.kept, self.count = keep, [], 0, 0

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


def _worker_main(task: Any, run: Callable[[Any], Any], sender: Connection, slot: CaseSlot,
                 memory_mb: int | None) -> None:
    """The forked worker: run ``task`` with output captured and the limits set, send the result, exit."""
    status = 0
    try:
        # Keep the collector off the heap inherited from the caller: a forked child's first full
        # collection traverses every inherited object and, writing to their headers, copies every
        # page (0.5 s for a heap of 3 M objects, measured), which a metric's per-case wall-clock
        # limit would count as the metric's time.
        gc.freeze()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        faulthandler.disable()  # a crash's dump would go to the caller's stderr (pytest keeps a copy)
        capture = tempfile.TemporaryFile()
        os.dup2(capture.fileno(), 1)
        os.dup2(capture.fileno(), 2)
        stream = _BoundedText(OUTPUT_SHOWN)
        sys.stdout = sys.stderr = stream  # type: ignore[assignment]
        try:
            import resource
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past the limit a write fails instead
            resource.setrlimit(resource.RLIMIT_FSIZE, (_OUTPUT_FILE_LIMIT, resource.RLIM_INFINITY))
        except (ImportError, OSError, ValueError, AttributeError):
            pass
        _limit_memory(memory_mb)
        supervise(slot, memory_mb)
        result = run(task)
        capture.seek(0, os.SEEK_END)
        raw_count = capture.tell()
        capture.seek(0)
        raw = capture.read(OUTPUT_SHOWN).decode("utf-8", "replace")
        shown = (stream.text() + raw)[:OUTPUT_SHOWN]
        try:
            payload = pickle.dumps((result, shown, stream.count + raw_count), pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # noqa: BLE001 - a result that cannot travel is an error result
            payload = pickle.dumps((f"the task's result could not be sent back: {type(error).__name__}: "
                                    f"{error}", shown, stream.count + raw_count))
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


class Supervisor:
    """Runs tasks in forked, watched workers, at most ``jobs`` at a time.

    ``run(task)`` is what a worker does with a task (it must not raise);
    ``failed(task, message, error)`` makes the result of a task whose worker
    died or was killed (``error``: the :class:`~axiometer.results.ErrorInfo`
    naming the input). :meth:`start` forks; :meth:`collect` waits a little and
    returns the ``(task, phase, result)`` of the workers that finished;
    :meth:`stop` kills the rest.
    """

    def __init__(self, jobs: int, run: Callable[[Any], Any],
                 failed: Callable[[Any, str, ErrorInfo | None], Any]) -> None:
        self.jobs, self.run, self.failed = max(1, jobs), run, failed
        self.workers: dict[int, _Worker] = {}

    @property
    def active(self) -> int:
        return len(self.workers)

    @property
    def has_room(self) -> bool:
        return len(self.workers) < self.jobs

    def start(self, task: Any, phase: int) -> None:
        """Fork a worker for ``task``."""
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
            budget = getattr(task, "budget", None)
            _worker_main(task, self.run, sender, slot, getattr(budget, "worker_mb", None))
        sender.close()
        self.workers[receiver.fileno()] = _Worker(pid, receiver, slot, task, phase, time.monotonic())

    def collect(self, timeout: float) -> list[tuple[Any, int, Any]]:
        """Wait up to ``timeout`` s; the finished workers' ``(task, phase, result)``."""
        finished = []
        ready = wait([w.connection for w in self.workers.values()], timeout)
        for connection in ready:
            worker = self.workers.pop(connection.fileno())
            finished.append((worker.task, worker.phase, self._result(worker)))
        self._watch()
        return finished

    def _watch(self) -> None:
        """Kill a worker whose metric call has run past the per-case limit plus the grace."""
        now = time.monotonic()
        for worker in self.workers.values():
            limit = getattr(worker.task.budget, "case_seconds", None)
            started = worker.slot.started
            if limit is None or worker.killed or not started or now - started <= limit + GRACE_SECONDS:
                continue
            worker.killed = (f"did not return within the per-case time limit of {limit:g} s and ignored "
                             f"the alarm; the worker was killed after {now - started:.1f} s")
            _kill(worker.pid)

    def _result(self, worker: _Worker) -> Any:
        """The worker's result, or, if it sent none, the error naming what happened and on which input."""
        try:
            payload = worker.connection.recv_bytes()
        except (EOFError, OSError):
            payload = None
        worker.connection.close()
        status = _reap(worker.pid)
        if payload is not None:
            worker.slot.close()
            result, shown, count = pickle.loads(payload)
            return _with_output(result, shown, count)
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
            return self.failed(worker.task, f"the metric {what}; no metric call was in progress", None)
        ranking, topic, context = case
        where = context_text(context) if context is not None else ""
        error = ErrorInfo(f"{what}{where}", record_topic(topic) if topic is not None else None, ranking)
        return self.failed(worker.task, error.message, error)

    def stop(self) -> None:
        """Kill every worker still running (after Ctrl-C or an error in the caller)."""
        for worker in self.workers.values():
            _kill(worker.pid)
            worker.connection.close()
            _reap(worker.pid)
            worker.slot.close()
        self.workers.clear()


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
