"""Where a table's tasks run, each place a :class:`concurrent.futures.Executor`.

- :class:`InProcess`: this process, one task at a time, when its caller's loop calls
  :meth:`InProcess.step` (a metric or constraint that cannot be pickled; ``--jobs 1``);
- :class:`WorkerProcesses`: local worker processes (``multiprocessing``), which leave Ctrl-C to
  this process, which stops them (:meth:`WorkerProcesses.shutdown` terminates them);
- :class:`~axiometer.runner.supervisor.Supervisor`: forked, watched workers for a metric author's
  metric;
- an executor named by a URL (:func:`open_executor`).

``dask://HOST:PORT`` connects to a running Dask distributed scheduler and runs every
check that can travel on its workers (:meth:`distributed.Client.get_executor`, a
:class:`concurrent.futures.Executor`); the workers must have the same axiometer (and the
metric's module) importable. Every check is seeded by its cell (:func:`~axiometer.checking.cell_seed`),
so the result is the same as the local pool's. See docs/distributed.md.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import multiprocessing.pool
import signal
from collections.abc import Callable, Iterator
from typing import Any, TypeVar
from urllib.parse import urlsplit

from axiometer.core import InputError

__all__ = ["InProcess", "WorkerProcesses", "open_executor", "CONNECT_SECONDS"]

_T = TypeVar("_T")

#: How long connecting to a scheduler may take before the run gives up with one error line.
CONNECT_SECONDS = 10


@contextlib.contextmanager
def open_executor(url: str) -> Iterator[concurrent.futures.Executor]:
    """The executor ``url`` names (``dask://HOST:PORT``), closed when the block ends.

    Raises :class:`~axiometer.core.InputError` (one line) for an unknown scheme, a missing
    ``distributed`` package or a scheduler that does not answer within :data:`CONNECT_SECONDS`.
    """
    parts = urlsplit(url)
    if parts.scheme != "dask" or not parts.hostname or parts.path not in ("", "/"):
        raise InputError(f"--executor {url!r}: expected dask://HOST:PORT (a Dask scheduler's address)")
    try:
        port = parts.port
    except ValueError:
        raise InputError(f"--executor {url!r}: the port is not a number") from None
    try:
        from distributed import Client
    except ImportError:
        raise InputError(f"--executor {url!r}: Dask is not installed; pip install 'axiometer[dask]'") from None
    address = f"tcp://{parts.hostname}:{port or 8786}"
    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except OSError as error:  # includes the connection timeout
        raise InputError(f"--executor {url!r}: no Dask scheduler answered at {address} within "
                         f"{CONNECT_SECONDS} s ({type(error).__name__})") from None
    try:
        yield client.get_executor()
    finally:
        client.close()


class InProcess(concurrent.futures.Executor):
    """Runs calls in this process and thread, one per :meth:`step`, in the order submitted.

    :meth:`submit` only queues, so that a call's result handler may submit more without
    recursing; the caller's loop drives the queue. A call's exception completes its future; a
    ``KeyboardInterrupt`` (Ctrl-C) propagates from :meth:`step` to the caller.
    """

    def __init__(self) -> None:
        self.queued: list[tuple[concurrent.futures.Future[Any], Callable[[], Any]]] = []

    def submit(self, fn: Callable[..., _T], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[_T]:
        future: concurrent.futures.Future[_T] = concurrent.futures.Future()
        self.queued.append((future, lambda: fn(*args, **kwargs)))
        return future

    def step(self) -> bool:
        """Run the first queued call; False if there was none."""
        if not self.queued:
            return False
        future, call = self.queued.pop(0)
        if future.set_running_or_notify_cancel():
            try:
                result = call()
            except Exception as error:  # noqa: BLE001 - the future carries it to the caller
                future.set_exception(error)
            else:
                future.set_result(result)
        return True

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Cancel the calls not run yet."""
        for future, _ in self.queued:
            future.cancel()
        self.queued.clear()


def _ignore_sigint() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class WorkerProcesses(concurrent.futures.Executor):
    """``workers`` local worker processes (a :class:`multiprocessing.pool.Pool`) that ignore Ctrl-C.

    Unlike :class:`concurrent.futures.ProcessPoolExecutor`, :meth:`shutdown` stops workers still
    busy (after Ctrl-C the run returns at once instead of waiting for their checks).
    """

    def __init__(self, workers: int) -> None:
        self.pool: multiprocessing.pool.Pool = multiprocessing.Pool(workers, initializer=_ignore_sigint)

    def submit(self, fn: Callable[..., _T], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[_T]:
        future: concurrent.futures.Future[_T] = concurrent.futures.Future()
        future.set_running_or_notify_cancel()
        self.pool.apply_async(fn, args, kwargs, callback=future.set_result, error_callback=future.set_exception)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the workers, busy or not (their calls' futures are left pending)."""
        self.pool.terminate()
