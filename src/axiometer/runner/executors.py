"""Where a table's checks run when not in local worker processes: an executor named by a URL.

``dask://HOST:PORT`` connects to a running Dask distributed scheduler and runs every
check that can travel on its workers (:meth:`distributed.Client.get_executor`, a
:class:`concurrent.futures.Executor`); the workers must have the same axiometer (and the
metric's module) importable. Every check is seeded by its cell (:func:`~axiometer.checking.cell_seed`),
so the result is the same as the local pool's. See docs/distributed.md.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
from collections.abc import Iterator
from urllib.parse import urlsplit

from axiometer.core import InputError

__all__ = ["open_executor", "CONNECT_SECONDS"]

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
