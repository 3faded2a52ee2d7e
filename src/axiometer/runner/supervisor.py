"""Supervised workers: a metric author's metric runs in a process the run watches.

A built-in metric is trusted and runs in the run's own process or pool. A
metric author's metric may do anything — call ``sys.exit`` or ``os._exit``,
crash, ignore the per-case alarm, fill the memory, print megabytes — and
none of it may stop the run or corrupt its report. So each of its tasks (one
check, with its hundreds of cases: the batch that keeps the cost per case
small) runs in a worker process forked for it:

- the worker ignores Ctrl-C (the parent handles a real one and kills the
  workers), so a ``KeyboardInterrupt`` there is the metric's own;
- the worker leads a process group of its own, and the whole group is
  killed when the worker ends, is stopped or is killed: a child the metric
  forked (and did not move to another session) never outlives its task; on
  Linux the worker is also killed if the run itself dies;
- the result travels in a file, and the run learns that the worker ended
  from the process itself (a pidfd on Linux, polling elsewhere), not from the
  end of a pipe that a child of the metric could hold open;
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
import contextlib
import faulthandler
import gc
import os
import pickle
import signal
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from multiprocessing.connection import wait
from typing import IO, Any, TypeVar

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
    metric call was in progress (the future's exception: the caller turns it into an error result);
    ``case`` is that input as it was given, ``(ranking, topic, context)`` (the topic ``None`` if it
    was too large to keep).
    """

    def __init__(self, message: str, error: ErrorInfo | None = None,
                 case: tuple[tuple[str, ...], Any, Any] | None = None) -> None:
        super().__init__(message)
        self.message, self.error, self.case = message, error, case


@dataclass
class _Call:
    """A submitted call and the future its result goes to."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    future: concurrent.futures.Future[Any] = field(default_factory=concurrent.futures.Future)


@dataclass
class _Worker:
    pid: int                       # also its process group's id: the worker leads its group
    result: IO[bytes]              # the file the worker writes its pickled result into
    slot: CaseSlot
    call: _Call
    forked: float
    exit_handle: int | None        # a pidfd that becomes readable when the worker ends (Linux)
    killed: str | None = None      # why the supervisor killed it, if it did
    reaped: bool = False           # its end has been collected (``status``, if known)
    status: int | None = None      # its wait status
    left: bool = False             # it ended without a result and left a child process running


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


def _become_worker(in_main_thread: bool) -> None:
    """Lead a process group of its own (so the group can be killed with every child the metric
    forks) and, on Linux, die with the run when it was forked from the run's main thread."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    if in_main_thread and sys.platform.startswith("linux"):
        # PR_SET_PDEATHSIG fires when the forking *thread* ends: only the main thread lives as
        # long as the run.
        with contextlib.suppress(Exception):
            import ctypes
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
            if os.getppid() == 1:   # the run died before the call above: nobody waits for us
                os._exit(0)


def _worker_main(call: _Call, result: IO[bytes], slot: CaseSlot, memory_mb: int | None) -> None:
    """The forked worker: run ``call`` with output captured and the limits set, write the result, exit.

    What it writes to ``result``: ``(True, result, shown, count)``, or ``(False, message, shown,
    count)`` when the call raised (any ``BaseException``) or its result cannot be pickled
    (``shown``: the first characters the call printed, ``count``: how many it printed in all). A
    child process the call left running is the supervisor's to kill, with the worker's group."""
    status = 0
    try:
        # Keep the collector off the heap inherited from the caller: a forked child's first full
        # collection traverses every inherited object and, writing to their headers, copies every
        # page (0.5 s for a heap of 3 M objects, measured), which a metric's per-case wall-clock
        # limit would count as the metric's time.
        gc.freeze()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # held by _start across the fork
        faulthandler.disable()  # a crash's dump would go to the caller's stderr (pytest keeps a copy)
        capture, stream = _capture_output()
        _limit_memory(memory_mb)
        supervise(slot, memory_mb)
        try:
            outcome: tuple[bool, Any] = (True, call.fn(*call.args, **call.kwargs))
        except BaseException as error:  # noqa: BLE001 - the caller's future gets it as a lost worker
            outcome = (False, f"the task raised {type(error).__name__}: {error}")
        capture.seek(0, os.SEEK_END)
        raw_count = capture.tell()
        capture.seek(0)
        raw = capture.read(OUTPUT_SHOWN).decode("utf-8", "replace")
        shown, count = (stream.text() + raw)[:OUTPUT_SHOWN], stream.count + raw_count
        try:
            payload = pickle.dumps((*outcome, shown, count), pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # noqa: BLE001 - a result that cannot travel is an error result
            payload = pickle.dumps((False, f"the task's result could not be sent back: "
                                    f"{type(error).__name__}: {error}", shown, count))
        result.write(payload)
        result.flush()
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
    ended; :meth:`shutdown` kills the rest. A worker that sends no result
    (it died, or was killed for running ``case_seconds`` plus
    :data:`GRACE_SECONDS` past the start of one metric call, or its result
    cannot be pickled) completes its future with :class:`WorkerLost`, naming
    the input the metric was scoring. ``memory_mb``: the memory each worker
    may allocate past what it inherits (``None``: no limit).
    """

    def __init__(self, jobs: int, *, case_seconds: float | None = None,
                 memory_mb: int | None = None) -> None:
        self.jobs, self.case_seconds, self.memory_mb = max(1, jobs), case_seconds, memory_mb
        self.workers: dict[int, _Worker] = {}   # by pid
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
        complete the futures of those that ended; how many ended."""
        while self.queued and len(self.workers) < self.jobs:
            call = self.queued.pop(0)
            if call.future.set_running_or_notify_cancel():
                self._start(call)
        ended = self._ended(timeout) if self.workers else []
        for worker in ended:
            del self.workers[worker.pid]
            self._complete(worker)
        self._watch()
        return len(ended)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Kill every worker still running, with its process group, and cancel the queued calls (the
        caller is done with them: after Ctrl-C or an error; ``wait`` and ``cancel_futures`` change
        nothing)."""
        for call in self.queued:
            call.future.cancel()
        self.queued.clear()
        workers, self.workers = list(self.workers.values()), {}
        for worker in workers:
            _kill_group(worker.pid)  # the group exists until the worker is reaped, just below
            _reap(worker)
            _release(worker)
            worker.call.future.cancel()

    def _start(self, call: _Call) -> None:
        """Fork a worker for ``call``."""
        slot = CaseSlot()
        result = tempfile.TemporaryFile()
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()  # nothing buffered here may be written twice by the fork
            except Exception:  # noqa: BLE001 - a closed or odd stream: nothing to flush
                pass
        in_main_thread = threading.current_thread() is threading.main_thread()
        # Ctrl-C waits until the worker is forked and known: a KeyboardInterrupt inside fork's
        # hooks is printed and lost ("Exception ignored in ... _releaseLock"), and one between the
        # fork and the line that records the worker would leave it running, unknown.
        with _sigint_held(), warnings.catch_warnings():
            # Python 3.12+ warns when a process with threads forks; the worker touches none of the
            # locks those threads may hold (it replaces stdout/stderr and never uses the pool).
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
            if pid == 0:
                _become_worker(in_main_thread)
                _worker_main(call, result, slot, self.memory_mb)
            with contextlib.suppress(OSError):
                os.setpgid(pid, pid)  # the worker does it too; whichever runs first, no window is left
            self.workers[pid] = _Worker(pid, result, slot, call, time.monotonic(), _exit_handle(pid))

    def _ended(self, timeout: float) -> list[_Worker]:
        """Wait up to ``timeout`` s for a worker to end; the workers that ended (reaped)."""
        workers = list(self.workers.values())
        handles = {w.exit_handle: w for w in workers if w.exit_handle is not None}
        if len(handles) == len(workers):
            ready = wait(list(handles), timeout)
            ended = [handles[handle] for handle in ready]  # type: ignore[index]
        else:  # no pidfd here: poll
            ended = [w for w in workers if _reap(w, block=False)]
            if not ended and timeout:
                time.sleep(min(timeout, 0.05))
                ended = [w for w in workers if _reap(w, block=False)]
        for worker in ended:
            # While the ended worker is a zombie its group exists, so the kill cannot reach a
            # stranger's group (with polling it is reaped already: nothing else is possible there).
            worker.left = not _has_result(worker) and _group_alive(worker.pid)
            _kill_group(worker.pid)
            _reap(worker)
        return ended

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
            _kill_group(worker.pid)

    def _complete(self, worker: _Worker) -> None:
        """Complete the (ended and reaped) worker's future: its result, or :class:`WorkerLost`
        naming what happened."""
        future = worker.call.future
        worker.result.seek(0)
        payload = worker.result.read()
        if payload:
            _release(worker)
            sent, result, shown, count = pickle.loads(payload)
            if sent:
                future.set_result(_with_output(result, shown, count))
            else:
                future.set_exception(WorkerLost(result))
            return
        future.set_exception(self._lost(worker))

    def _lost(self, worker: _Worker) -> WorkerLost:
        """What happened to a worker that sent nothing, and on which input."""
        status = worker.status
        if worker.killed:
            what = worker.killed
        elif status is not None and os.WIFSIGNALED(status):
            what = f"its worker process was killed by {_signal_name(os.WTERMSIG(status))} (a crash?)"
        elif status is not None and os.WIFEXITED(status):
            code = os.WEXITSTATUS(status)
            what = f"ended its worker process with exit status {code} (os._exit({code}) or a crash)"
        else:
            what = "its worker process ended without a result"
        if worker.left:
            what += "; a child process it started was still running and was killed"
        case = worker.slot.case()
        _release(worker)
        if case is None:
            return WorkerLost(f"the metric {what}; no metric call was in progress")
        ranking, topic, context = case
        where = context_text(context) if context is not None else ""
        error = ErrorInfo(f"{what}{where}", record_topic(topic) if topic is not None else None, ranking)
        return WorkerLost(error.message, error, case)


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold SIGINT back (blocked) in this thread for the block; one that came meanwhile is
    delivered when the block ends. Nothing held where there is no ``pthread_sigmask``."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _exit_handle(pid: int) -> int | None:
    """A file descriptor readable once process ``pid`` has ended (a pidfd), or ``None`` where
    there is none (not Linux 5.3+)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _kill_group(pid: int) -> None:
    """SIGKILL the process group the worker ``pid`` leads (the worker, if alive, and its children)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _group_alive(pgid: int) -> bool:
    """Whether a process other than its (ended) leader is running in group ``pgid``; Linux only
    (reads ``/proc``), ``False`` elsewhere."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return False
    for entry in entries:
        if not entry.isdigit() or int(entry) == pgid:
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended meanwhile, or not ours to read
        if len(fields) > 2 and int(fields[2]) == pgid and fields[0] != b"Z":
            return True
    return False


def _reap(worker: _Worker, block: bool = True) -> bool:
    """Collect the worker's wait status into ``worker.status`` (waiting for it if ``block``);
    whether it has ended."""
    if worker.reaped:
        return True
    try:
        pid, status = os.waitpid(worker.pid, 0 if block else os.WNOHANG)
    except ChildProcessError:
        worker.reaped = True  # reaped elsewhere: ended, status unknown
        return True
    if pid == 0:
        return False
    worker.reaped, worker.status = True, status
    return True


def _has_result(worker: _Worker) -> bool:
    """Whether the worker wrote its result (the file is not empty)."""
    try:
        return os.fstat(worker.result.fileno()).st_size > 0
    except OSError:
        return False


def _release(worker: _Worker) -> None:
    """Close what the supervisor held for the worker: the result file, the slot, the pidfd."""
    worker.result.close()
    worker.slot.close()
    if worker.exit_handle is not None:
        with contextlib.suppress(OSError):
            os.close(worker.exit_handle)


def _with_output(result: Any, shown: str, count: int) -> Any:
    """A check's result with what the metric printed (the first characters, and how many in all)."""
    if not count or not isinstance(result, Check):
        return result
    return replace(result, output=shown, output_chars=count)
