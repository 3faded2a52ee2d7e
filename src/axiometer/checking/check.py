"""Checking one axiom on one metric at one parameter setting: the engine's single entry point.

:func:`check` guards a metric author's metric (:mod:`axiometer.checking.guard`:
a raise, a non-number, non-determinism, a changed input or a case past
``Budget.case_seconds`` becomes an error verdict naming the input), hands the
oracle — a constraint or a relative property — a
:class:`~axiometer.checking.search.Search` for this check, and returns the
oracle's :class:`~axiometer.results.Check`. Nothing here lets a metric's
exception escape; what each verdict means is the oracle's
(:mod:`axiometer.axioms.oracle`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from axiometer.axioms.constraints.base import DEFAULT_RHO, Constraint, joined_note
from axiometer.axioms.constraints.threshold import DEFAULT_RCS
from axiometer.axioms.oracle import Oracle
from axiometer.checking.budget import Budget
from axiometer.checking.guard import GuardedMetric, guard
from axiometer.checking.prove import prove, prove_threshold, with_proof
from axiometer.checking.search import Search
from axiometer.metrics.base import Metric
from axiometer.metrics.decide import DEFAULT_TOLERANCE
from axiometer.results import Check, Verdict

__all__ = ["check", "limit_noted"]


def check(metric: Metric, oracle: Oracle, *, mode: str | None = None, budget: Budget = Budget(),
          seed: int = 0, rho: Fraction = DEFAULT_RHO, tolerance: float = DEFAULT_TOLERANCE,
          rcs: tuple[Fraction, ...] = DEFAULT_RCS, scope_changes: dict[str, Any] | None = None) -> Check:
    """Check ``oracle`` (a constraint or a relative property) on ``metric`` and return the :class:`Check`.

    ``mode`` is ``"window"`` or ``"truncate"`` (default: the oracle's own).
    ``rho`` bounds the relevance contribution, ``rcs`` are the threshold
    constraints' relevance values and ``scope_changes`` adjusts the case
    generation (used to try nearby readings); the properties take none of them.
    """
    guarded = guard(metric, budget.case_seconds)
    search = Search(budget, seed, tolerance)
    result = oracle.check(guarded, search, mode=mode, rho=rho, rcs=rcs, scope_changes=scope_changes)
    if budget.proof_docs and not scope_changes and isinstance(oracle, Constraint):
        result = _proved(guarded, oracle, result, search, budget, rho)
    return limit_noted(guarded, result)


def _proved(guarded: Metric, constraint: Constraint, result: Check, search: Search, budget: Budget,
            rho: Fraction) -> Check:
    """The search's check with a proof tried (:mod:`axiometer.checking.prove`): a satisfied universal
    constraint over every case structure, a threshold for every ``rc`` (and DeepTh every ``n``).
    A metric author's code runs on symbols under the guard's time limit."""
    inner = guarded.metric if isinstance(guarded, GuardedMetric) else guarded
    run = guarded.limited if isinstance(guarded, GuardedMetric) else None
    if constraint.form == "threshold":
        return prove_threshold(inner, constraint, result, rho=rho, horizon=budget.horizon, run=run,
                               recheck=lambda rc: constraint.check(guarded, search, mode=result.mode, rho=rho,
                                                                   rcs=(rc,), scope_changes=None))
    rmax = result.witness.rmax if constraint.id == "Sat" and result.witness is not None else None
    if result.verdict is not Verdict.SATISFIED and rmax is None:
        return result
    attempt = prove(inner, constraint, mode=result.mode, rho=rho, max_docs=budget.proof_docs,
                    paths=budget.proof_paths, seconds=budget.proof_seconds,
                    judge=lambda case: constraint.judge(guarded, case, search),
                    run=run, horizon=budget.horizon, keep_formula=budget.proof_formulas, rmax=rmax,
                    structures=budget.proof_structures)
    return with_proof(result, attempt)


def limit_noted(guarded: Any, result: Check) -> Check:
    """Say so in the check's note when a per-case time limit was asked for but could not be set."""
    reason = getattr(guarded, "unlimited_reason", None)
    return joined_note(result, reason) if reason and guarded.called else result
