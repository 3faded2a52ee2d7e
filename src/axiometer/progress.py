"""A one-line progress bar for long commands (``score``, ``table``, ``check``).

It writes to a stream (stderr in the CLI) only when that stream is a terminal
and the work has already taken ``delay`` seconds, so short runs, pipes and
tests stay quiet.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """A one-line progress bar on ``stream``, shown only when it is a terminal
    and the work has already taken ``delay`` seconds (short runs stay quiet)."""

    def __init__(self, stream: TextIO, delay: float = 2.0, width: int = 30,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream, self.delay, self.width, self.clock = stream, delay, width, clock
        self.start = clock()
        self.enabled = bool(getattr(stream, "isatty", lambda: False)())
        self.shown = False

    def update(self, label: str, done: int, total: int) -> None:
        if not self.enabled or self.clock() - self.start < self.delay:
            return
        filled = self.width * done // max(total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{label} [{bar}] {done}/{total}")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Erase the bar, so that what follows starts on a clean line."""
        if self.shown:
            self.stream.write("\r" + " " * (self.width + 40) + "\r")
            self.stream.flush()
            self.shown = False
