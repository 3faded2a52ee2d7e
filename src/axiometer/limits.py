"""How a metric author's metric is contained: the per-case time limit and the worker's memory.

A built-in metric is trusted; anything else runs behind a guard (:mod:`axiometer.checking.guard`)
in a supervised worker (:mod:`axiometer.runner.supervisor`), whether it is being checked
(``Budget.case_seconds``/``Budget.worker_mb``) or scored (:class:`Limits`). The defaults live here,
in a module that imports nothing, so that scoring can name them without loading the checking engine.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_CASE_SECONDS", "DEFAULT_WORKER_MB", "Limits"]

#: The default per-case time limit, in seconds: one evaluation of a metric author's metric.
DEFAULT_CASE_SECONDS = 2.0
#: The default memory a supervised worker may allocate beyond what it inherits, in MB.
DEFAULT_WORKER_MB = 1024


@dataclass(frozen=True)
class Limits:
    """How a metric author's metric is contained while it scores: each call within
    ``case_seconds`` (``None``: no limit), its worker within ``worker_mb`` MB of memory beyond what
    it inherits (``None``: no limit), in a supervised worker (``isolate``) or in the run's own
    process (to debug the metric; then an exit, a crash or a hang past the alarm ends the run)."""

    case_seconds: float | None = DEFAULT_CASE_SECONDS
    worker_mb: int | None = DEFAULT_WORKER_MB
    isolate: bool = True
