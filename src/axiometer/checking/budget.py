"""How much search one check may do, and the per-check seeds that make a run reproducible."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from axiometer.limits import DEFAULT_CASE_SECONDS, DEFAULT_WORKER_MB

__all__ = ["Budget", "QUICK", "run_budget", "cell_seed"]



@dataclass(frozen=True)
class Budget:
    """How much search one check may do: random cases, small-scope cases, seconds, horizon.

    ``proof_docs``: a satisfied universal constraint is then proved over
    every case structure of up to that many documents, for every real
    relevance value (:mod:`axiometer.checking.prove`; 0 turns proofs off,
    ``--no-proofs``), exploring at most ``proof_paths`` paths of the metric's
    code (a count, not a time, so a proof ends the same way on any machine
    and under any load; ``proof_seconds`` is only a safety limit for a metric
    whose every path is slow); ``proof_formulas`` keeps the last
    formula z3 decided in each proof (SMT-LIB 2, ``--details`` and JSON reports).
    Case structures cost seconds per check, so a table decides them at each
    metric's default setting (the setting its mark shows) and proves the
    other grid settings by lemmas and thresholds only (``proof_structures``
    is off for their checks), unless ``proof_every_setting``
    (``--prove-every-setting``). ``case_seconds`` limits one
    evaluation of a metric author's metric (built-ins
    have no limit); ``worker_mb`` limits the memory the supervised worker
    process checking such a metric may add to what it had when it started
    (:mod:`axiometer.runner.supervisor`); ``None`` sets no limit.
    """

    cases: int = 1500
    small_scope: int = 400
    seconds: float = 10.0
    horizon: int = 1024
    case_seconds: float | None = DEFAULT_CASE_SECONDS
    worker_mb: int | None = DEFAULT_WORKER_MB
    proof_docs: int = 6          # prove over every case structure up to this many documents (0: no proofs)
    proof_paths: int = 1000      # one check's proof may explore this many paths, then the search's verdict stands
    proof_seconds: float = 120.0  # and may take this long at most (a safety limit: paths decide first)
    proof_formulas: bool = False  # keep a decided formula (SMT-LIB) in each proof, to re-check elsewhere
    proof_structures: bool = True  # decide case structures (else lemmas and thresholds only)
    proof_every_setting: bool = False  # a table decides structures at every grid setting, not the default's

    def describe(self) -> str:
        # Kept to one 120-column line: it heads every table and check report.
        limits = [f"{self.case_seconds:g} s per case"] if self.case_seconds is not None else []
        limits += [f"{self.worker_mb} MB"] if self.worker_mb is not None else []
        limit = f"; non-built-ins: {', '.join(limits)}" if limits else ""
        return (f"{self.cases} random + up to {self.small_scope} small-scope cases per setting, "
                f"{self.seconds:g} s, horizon {self.horizon}{limit}")


#: The ``--quick`` budget: a look in seconds rather than a verdict to publish.
QUICK = Budget(cases=40, small_scope=120, seconds=3.0, horizon=256, proof_docs=4, proof_paths=400,
               proof_seconds=60.0)


def run_budget(quick: bool, budget: Budget | None = None) -> Budget:
    """A run's budget, the one place ``--quick`` (``budget="quick"``) is decided: ``budget`` as
    given, except that a quick run given none (or the default) gets :data:`QUICK`."""
    if budget is None or (quick and budget == Budget()):
        return QUICK if quick else Budget()
    return budget


def cell_seed(seed: int, *parts: str) -> int:
    """A per-check seed derived from the run's seed and the check's identity (stable across runs)."""
    digest = hashlib.sha256("\x1f".join((str(seed), *parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")
