"""Progress bars for long commands (``table``, ``check``, ``score``), drawn by tqdm.

One bar per phase (``checking`` then ``explaining`` for a table, ``reading
runs`` then ``scoring`` for a campaign), each with the total its caller
knew before the phase started (:data:`axiometer.runner.pool.PHASES`), the
time elapsed and an estimate of the time left::

    checking: 378/1017 |███▋      | 37% [00:14 elapsed, 00:24 left]

The estimate is the phase's average rate so far (tqdm's ``smoothing=0``):
a table's checks differ in cost by orders of magnitude, so a recent rate
would swing. The clock is redrawn every ``tick`` seconds even when no task
finishes, so a long check does not look like a hang. Nothing is written
unless the stream (stderr in the CLI) is a terminal and the work has
already taken ``delay`` seconds, so pipes, files, tests and short runs stay
quiet; a bar is erased when its phase is complete (or at :meth:`Progress.close`),
so what follows starts on a clean line.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from tqdm import tqdm

__all__ = ["Progress", "BAR_FORMAT"]

#: The line drawn (tqdm's ``bar_format``): count, bar, percentage, elapsed and estimated time left.
BAR_FORMAT = "{desc}: {n_fmt}/{total_fmt} |{bar}| {percentage:3.0f}% [{elapsed} elapsed, {remaining} left]"


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


class Progress:
    """Progress bars on ``stream``, one per phase, shown only on a terminal after ``delay`` seconds.

    :meth:`update` ``(label, done, total)`` is a
    :class:`~axiometer.core.ProgressCallback`, the one every long computation
    takes: a new ``label`` (the phase) or ``total`` starts a new bar, and
    ``done == total`` erases it.
    ``enabled`` forces the bars on or off (default: whether ``stream`` is a
    terminal); ``tick``: seconds between redraws of the clock while no task
    finishes (``None``: only on updates), by a thread that runs while a bar
    is open. Use it as a context manager, or call :meth:`close` at the end.
    """

    def __init__(self, stream: TextIO, delay: float = 2.0, *, enabled: bool | None = None,
                 tick: float | None = 1.0) -> None:
        self.stream, self.delay, self.tick = stream, delay, tick
        self.enabled = _is_terminal(stream) if enabled is None else enabled
        self.start = time.monotonic()
        self.shown = False                 # the current bar has been drawn
        self._bar: tqdm | None = None
        self._label: str | None = None
        self._visible_at = 0.0             # monotonic time from which the current bar may be drawn
        self._lock = threading.Lock()      # the ticker and the caller share the bar
        self._stop: threading.Event | None = None

    def update(self, label: str, done: int, total: int) -> None:
        """``done`` of ``total`` units of ``label`` are finished."""
        if not self.enabled or total <= 0:
            return
        with self._lock:
            bar = self._bar
            if bar is None or label != self._label or total != bar.total:
                self._close_bar()
                self._open_bar(label, done, total)
            elif done != bar.n and bar.update(done - bar.n):
                self.shown = True
            if done >= total:  # the phase is complete: nothing left to show or estimate
                self._close_bar()

    def close(self) -> None:
        """Erase the bar and stop redrawing, so that what follows starts on a clean line."""
        with self._lock:
            self._close_bar()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    # -- with the lock held --------------------------------------------------------

    def _open_bar(self, label: str, done: int, total: int) -> None:
        # Imported here, on a terminal only: importing tqdm takes about 40 ms.
        from tqdm import tqdm

        wait = max(0.0, self.delay - (time.monotonic() - self.start))
        # tqdm draws it at once when wait is 0, else at the first update after wait.
        self._bar = tqdm(total=total, initial=done, desc=label, file=self.stream, leave=False,
                         delay=wait, dynamic_ncols=True, smoothing=0, bar_format=BAR_FORMAT)
        self._label, self._visible_at, self.shown = label, time.monotonic() + wait, wait <= 0
        if self.tick is not None:
            self._stop = threading.Event()
            threading.Thread(target=self._redraw, args=(self._stop,), daemon=True,
                             name="axiometer-progress").start()

    def _close_bar(self) -> None:
        if self._bar is None:
            return
        if self._stop is not None:
            self._stop.set()
            self._stop = None
        if self.shown:
            # tqdm erases only what its own updates drew, not the ticker's redraws.
            self._bar.clear()
        self._bar.close()
        self._bar, self._label, self.shown = None, None, False

    def _redraw(self, stop: threading.Event) -> None:
        """Redraw the current bar's clock and estimate every ``tick`` seconds until ``stop``."""
        assert self.tick is not None
        while not stop.wait(self.tick):
            with self._lock:
                if stop.is_set():  # set under the lock when its bar closed
                    return
                if self._bar is not None and time.monotonic() >= self._visible_at:
                    self._bar.refresh()
                    self.shown = True
