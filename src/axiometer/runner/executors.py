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
import ipaddress
import multiprocessing
import multiprocessing.pool
import re
import signal
from collections.abc import Callable, Iterator
from typing import Any, TypeVar
from urllib.parse import urlsplit

from axiometer.core import InputError, cut

__all__ = ["InProcess", "WorkerProcesses", "open_executor", "scheduler_address", "CONNECT_SECONDS", "DASK_PORT"]

_T = TypeVar("_T")

#: How long connecting to a scheduler may take before the run gives up with one error line.
CONNECT_SECONDS = 10


#: The port of a Dask scheduler whose address names none (Dask's own default).
DASK_PORT = 8786

#: What an executor address looks like, as every malformed one's error line says.
_EXPECTED = "expected dask://HOST:PORT (a Dask scheduler's address)"

#: One label of a host name: letters, digits, hyphens inside (and underscores, which container
#: networks' service names use), at most 63 characters.
_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")


def scheduler_address(url: str) -> str:
    """The TCP address (``tcp://HOST:PORT``) of the Dask scheduler ``url`` names, ``dask://HOST:PORT``.

    ``url`` is split by :func:`urllib.parse.urlsplit`; HOST is a host name (an international one
    in its IDNA form), an IPv4 address or an IPv6 address in brackets, PORT a number from 1 to
    65535 (:data:`DASK_PORT` when left out). Anything else (another scheme, a user name, a path,
    a query, a bracket left open, a port out of range, a space or a control character anywhere)
    raises :class:`~axiometer.core.InputError`, one line saying what is wrong.
    """
    def bad(problem: str) -> InputError:
        return InputError(f"--executor {cut(url, 100)!r}: {problem}")

    if any(c.isspace() or not c.isprintable() for c in url):  # urlsplit drops a tab or line break
        raise bad(f"{_EXPECTED}, without spaces or control characters")
    try:
        parts = urlsplit(url)
    except ValueError as error:  # "Invalid IPv6 URL": a bracket left open
        raise bad(f"{_EXPECTED}; {error}") from None
    if parts.scheme != "dask" or not parts.netloc:
        raise bad(_EXPECTED)
    if parts.path not in ("", "/") or "?" in url or "#" in url:
        raise bad(f"{_EXPECTED}, with nothing after the port")
    if "@" in parts.netloc:
        raise bad(f"{_EXPECTED}, without a user name or password")
    host, port = _host(parts.netloc), _port(parts.netloc)
    if host is None:
        raise bad(f"{_EXPECTED}; {cut(parts.netloc, 60)!r} names no host (a host name, an IPv4 address or an "
                  "IPv6 address in brackets)")
    if port is None:
        raise bad("the port is not a number from 1 to 65535")
    return f"tcp://{host}:{port}"


def _host(netloc: str) -> str | None:
    """The host of ``netloc`` as a connection names it (an IPv6 address in brackets, a host name
    in ASCII), or ``None`` if it is none of those (an IPv6 address must be in brackets: in
    ``::1:8786`` no one can tell the port)."""
    if netloc.startswith("["):
        inside, bracket, after = netloc[1:].partition("]")
        if not bracket or after[:1] not in ("", ":"):
            return None
        try:
            return f"[{ipaddress.IPv6Address(inside)}]"
        except ValueError:
            return None
    name = netloc.rpartition(":")[0] if ":" in netloc else netloc
    try:
        ascii_name = name.encode("idna").decode("ascii").lower()
    except UnicodeError:  # an empty label, one too long
        return None
    labels = ascii_name.removesuffix(".").split(".")
    if len(ascii_name) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        return None
    return ascii_name


def _port(netloc: str) -> int | None:
    """The port of ``netloc`` (:data:`DASK_PORT` when it names none), or ``None`` if it is not a
    number from 1 to 65535 (``urlsplit`` would read ``+1``, `` 1`` or ``１`` on some Pythons)."""
    after = netloc.rpartition("]")[2] if netloc.startswith("[") else netloc
    if ":" not in after:
        return DASK_PORT
    text = after.rpartition(":")[2]
    if not text:
        return DASK_PORT
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 65535:
        return None
    return int(text)


@contextlib.contextmanager
def open_executor(url: str) -> Iterator[concurrent.futures.Executor]:
    """The executor ``url`` names (``dask://HOST:PORT``, :func:`scheduler_address`), closed when
    the block ends.

    Raises :class:`~axiometer.core.InputError` (one line) for a malformed address, a missing
    ``distributed`` package or a scheduler that does not answer within :data:`CONNECT_SECONDS`.
    """
    address, shown = scheduler_address(url), cut(url, 100)
    try:
        from distributed import Client
    except ImportError:
        raise InputError(f"--executor {shown!r}: Dask is not installed; pip install 'axiometer[dask]'") from None
    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, ValueError) as error:  # OSError includes the connection timeout
        raise InputError(f"--executor {shown!r}: no Dask scheduler answered at {address} within "
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
