"""Checking one constraint on one metric at one parameter setting.

- Universal constraints: the exhaustive small scope first, then a random
  search with hypothesis (``hypothesis.find``), which shrinks a failing case to
  a small one. Each case's relation is decided by :func:`axiometer.axioms.decide.compare`.
- DeepTh / CloseTh: ``D(n) = Q(a_n) - Q(b_n)`` along a grid of ``n`` (dense
  up to 32, then doubling to the horizon ``H``), for every ``rc`` tried.
- Sat: the universal search for each ``rmax`` candidate, largest first.

A metric that raises or returns a non-finite value gives an ``error`` check
naming the input; nothing here lets the exception escape. A metric author's
metric (anything but a registered built-in) is checked behind
:mod:`axiometer.axioms.guard`, which also catches non-determinism, changes
to the input and a case that takes longer than ``Budget.case_seconds``; a
timeout ends the check at once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import time
from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Callable, Iterable
from typing import Any

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.errors import Flaky, NoSuchExample, Unsatisfiable

from axiometer.axioms.base import DEFAULT_RHO, Case, Constraint, Scope
from axiometer.axioms.decide import DEFAULT_TOLERANCE, compare, evaluate
from axiometer.axioms.guard import DEFAULT_CASE_SECONDS, Misbehaviour, context_text, describe_error, guard
from axiometer.core import Ranking, Topic, to_fraction
from axiometer.generators.context import fixed_context, small_scope_with_contexts, with_contexts
from axiometer.metrics import is_exact_capable
from axiometer.results import Check, Counterexample, ErrorInfo, TopicRecord, Witness

__all__ = ["Budget", "check", "record_topic", "threshold_grid", "DEFAULT_RCS", "RMAX_CANDIDATES",
           "cell_seed", "error_outcome", "limit_noted"]

#: ``rc`` values tried by DeepTh and CloseTh (SPEC section 3).
DEFAULT_RCS = (Fraction(1, 100), Fraction(1, 20), Fraction(1, 10))
#: Sat's ``rmax`` candidates, largest first (SPEC section 3).
RMAX_CANDIDATES = (Fraction(1), Fraction(99, 100), Fraction(9, 10), Fraction(3, 4), Fraction(1, 2))


@dataclass(frozen=True)
class Budget:
    """How much search one check may do: random cases, small-scope cases, seconds, horizon.

    ``case_seconds`` limits one evaluation of a metric author's metric (built-ins
    have no limit); ``None`` sets none.
    """

    cases: int = 150
    small_scope: int = 400
    seconds: float = 10.0
    horizon: int = 1024
    case_seconds: float | None = DEFAULT_CASE_SECONDS

    def describe(self) -> str:
        limit = "" if self.case_seconds is None else f", {self.case_seconds:g} s per case (non-built-ins)"
        return (f"{self.cases} random + up to {self.small_scope} small-scope cases per setting, "
                f"{self.seconds:g} s, horizon {self.horizon}{limit}")


#: The longest ranking generated in truncate mode (cutoff + 2, at most this).
TRUNCATE_MAX_DOCS = 24

QUICK = Budget(cases=40, small_scope=120, seconds=3.0, horizon=256)


def cell_seed(seed: int, *parts: str) -> int:
    """A per-check seed derived from the run's seed and the check's identity (stable across runs)."""
    digest = hashlib.sha256("\x1f".join((str(seed), *parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _exact_text(value: Any) -> str:
    return str(to_fraction(value))


def record_topic(topic: Topic) -> TopicRecord:
    """A topic as exact strings, for reports."""
    return TopicRecord(
        aspects=topic.aspects,
        weights=tuple(_exact_text(w) for w in topic.weights),
        judgments=tuple((d, tuple(_exact_text(r) for r in topic.vector(d))) for d in topic.documents),
    )


def threshold_grid(horizon: int) -> tuple[int, ...]:
    """``1..32`` then doubling up to ``horizon`` (SPEC section 3)."""
    grid = list(range(1, min(32, horizon) + 1))
    n = 64
    while n <= horizon:
        grid.append(n)
        n *= 2
    return tuple(grid)


def search_settings_for(budget: Budget) -> settings:
    """Hypothesis settings of one check's random search: ``budget.cases`` examples, shrinking,
    no database or deadline (the check keeps its own time budget), seeded by the caller."""
    return settings(max_examples=budget.cases, database=None, deadline=None,
                    phases=(Phase.generate, Phase.shrink), derandomize=False,
                    suppress_health_check=list(HealthCheck), report_multiple_bugs=False)


def _params(metric: Any) -> tuple[tuple[str, Any], ...]:
    return tuple(getattr(metric, "params", {}).items())


class _Outcome:
    """What evaluating one case gave: holds, a counterexample, or an error (``final``: end the check)."""

    __slots__ = ("holds", "counterexample", "error", "final")

    def __init__(self, holds: bool, counterexample: Counterexample | None = None,
                 error: ErrorInfo | None = None, final: bool = False) -> None:
        self.holds, self.counterexample, self.error, self.final = holds, counterexample, error, final


def error_outcome(metric: Any, case: Case, error: Exception) -> _Outcome:
    """An error outcome naming the input: the guard's own record of it, else the ranking that raises."""
    if isinstance(error, Misbehaviour):
        return _Outcome(False, error=ErrorInfo(str(error), record_topic(error.topic), tuple(error.ranking)),
                        final=error.final)
    culprit = _failing_ranking(metric, case)
    contexts = (case.context, case.context_b) if case.context_b is not None else (case.context,)
    return _Outcome(False, error=ErrorInfo(describe_error(error) + context_text(*contexts),
                                           record_topic(case.topic), tuple(culprit)))


def _failing_ranking(metric: Any, case: Case) -> Ranking:
    """Which of the case's rankings makes the metric fail (``a`` unless only ``b`` does)."""
    try:
        evaluate(metric, case.a, case.topic, case.context)
    except Exception:
        return case.a
    return case.b


def context_record(context: Any) -> tuple[tuple[str, ...], ...] | None:
    """A context as plain tuples of document ids, for reports (``None`` without a context)."""
    return None if context is None else tuple(tuple(r) for r in context.rankings)


def _evaluate_case(metric: Any, constraint: Constraint, case: Case, tolerance: float,
                   extra: tuple[tuple[str, str], ...] = ()) -> _Outcome:
    try:
        comparison = compare(metric, case.topic, case.a, case.b, tolerance, case.context,
                             case.context_of_b)
    except Exception as error:  # a user's metric may raise anything; report, don't crash
        return error_outcome(metric, case, error)
    if constraint.relation.holds(comparison.sign):
        return _Outcome(True)
    return _Outcome(False, Counterexample(
        topic=record_topic(case.topic), a=tuple(case.a), b=tuple(case.b),
        score_a=comparison.qx, score_b=comparison.qy, relation=constraint.relation.text,
        note=case.note, decided="exact" if comparison.exact else "float", extra=extra,
        context_a=context_record(case.context),
        context_b=context_record(case.context_b) if case.context_b is not None else None))


@dataclass(frozen=True)
class SearchResult:
    """What :func:`search_cases` found: the target's outcome and case (``None``: none), the counts, a note."""

    outcome: _Outcome | None
    case: Case | None
    cases: int     # generated cases evaluated (random search)
    small: int     # small-scope cases evaluated
    note: str


def search_cases(small_scope: Iterable[Case] | None, strategy: Callable[[], Any] | None,
                 judge: Callable[[Case], _Outcome], is_target: Callable[[_Outcome], bool],
                 budget: Budget, seed: int) -> SearchResult:
    """The exhaustive small scope, then a shrinking random search, for a case whose outcome is a target.

    ``judge`` evaluates one case; ``is_target`` says whether its outcome is
    what the search looks for (a failure, a witness, an error). The random
    search (``hypothesis.find`` over ``strategy()``) shrinks the target found
    to a small one, within ``budget.seconds``; a *final* outcome (a timeout)
    ends it at once. Shared by the constraint and the property checks.
    """
    small = 0
    if small_scope is not None:
        for case in small_scope:
            if small >= budget.small_scope:
                break
            small += 1
            outcome = judge(case)
            if is_target(outcome):
                return SearchResult(outcome, case, 0, small, "found in the small scope")
    if strategy is None:
        return SearchResult(None, None, 0, small, "")
    deadline = time.monotonic() + budget.seconds
    counter = [0]
    found: list[Case] = []  # target cases in the order found; shrinking makes later ones smaller
    stopped: list[_Outcome] = []  # a final outcome (a timeout) ends the search

    def predicate(case: Case) -> bool:
        if not stopped:  # after a timeout hypothesis shrinks the exception: keep raising it, evaluate nothing
            if time.monotonic() > deadline:
                raise _OutOfTime  # aborts generation and shrinking alike
            counter[0] += 1
            outcome = judge(case)
            if not outcome.final:
                if is_target(outcome):
                    found.append(case)
                    return True
                return False
            stopped.append(outcome)
        raise _Stop(stopped[0])  # one raising line, so hypothesis sees the same failure when it replays

    note = ""
    try:
        minimal = find(strategy(), predicate, settings=search_settings_for(budget),
                       random=random.Random(seed))
    except (NoSuchExample, Unsatisfiable):
        return SearchResult(None, None, counter[0], small, "")
    except (_Stop, Flaky):
        if not stopped:
            raise
        return SearchResult(stopped[0], None, counter[0], small, "")
    except _OutOfTime:
        if not found:
            return SearchResult(None, None, counter[0], small,
                                f"time budget ({budget.seconds:g} s) reached")
        minimal = found[-1]  # the smallest target shrinking reached in time
        note = f"shrinking stopped by the time budget ({budget.seconds:g} s)"
    outcome = judge(minimal)
    if not is_target(outcome):  # cannot happen for a deterministic metric: it was a target a moment ago
        outcome = _Outcome(False, error=ErrorInfo(
            "non-deterministic: the same input gave two outcomes",
            record_topic(minimal.topic), tuple(minimal.a)))
    return SearchResult(outcome, minimal, counter[0], small, note)


def _search(metric: Any, constraint: Constraint, scope: Scope, budget: Budget, seed: int,
            tolerance: float, extra: tuple[tuple[str, str], ...] = ()) -> tuple[_Outcome, int, int, str]:
    """Small scope, then random search. Returns (outcome, random cases, small-scope cases, note)."""
    strategy = constraint.strategy
    found = search_cases(
        None if constraint.small_scope is None else constraint.small_scope(scope),
        None if strategy is None else (lambda: strategy(scope)),
        lambda case: _evaluate_case(metric, constraint, case, tolerance, extra),
        lambda outcome: not outcome.holds, budget, seed)
    return found.outcome or _Outcome(True), found.cases, found.small, found.note


class _OutOfTime(Exception):
    """Raised inside the search predicate when the check's time budget is spent."""


class _Stop(Exception):
    """Raised inside the search predicate to end the search with ``outcome`` (a final error)."""

    def __init__(self, outcome: _Outcome) -> None:
        super().__init__()
        self.outcome = outcome


def _result(metric: Any, constraint: Constraint, mode: str, outcome: _Outcome, cases: int,
            small: int, note: str, tolerance: float, **extra: Any) -> Check:
    if outcome.error is not None:
        verdict = "error"
    elif outcome.holds:
        verdict = extra.pop("verdict", "satisfied")
    else:
        verdict = "violated"
    exact = is_exact_capable(metric)
    return Check(constraint=constraint.id, metric=metric.name, params=_params(metric), verdict=verdict,
                 mode=mode, cases=cases, small_scope=small, counterexample=outcome.counterexample,
                 error=outcome.error, exact=exact, tolerance=None if exact else tolerance,
                 note=note, **extra)


def _no_case(metric: Any, constraint: Constraint, mode: str, scope: Scope) -> Check:
    """No case fits (e.g. a cutoff k = 1 in window mode leaves no room for the construction)."""
    where = f"within the window k = {scope.max_position}" if scope.max_position is not None else ""
    return Check(constraint=constraint.id, metric=metric.name, params=_params(metric), verdict="n/a",
                 mode=mode, note=f"no case of this constraint fits {where}".rstrip())


def _universal(metric: Any, constraint: Constraint, mode: str, scope: Scope, budget: Budget,
               seed: int, tolerance: float) -> Check:
    outcome, cases, small, note = _search(metric, constraint, scope, budget, seed, tolerance)
    if outcome.holds and cases == 0 and small == 0:
        return _no_case(metric, constraint, mode, scope)
    return _result(metric, constraint, mode, outcome, cases, small, note, tolerance)


def _saturation(metric: Any, constraint: Constraint, mode: str, scope: Scope, budget: Budget,
                seed: int, tolerance: float) -> Check:
    total_cases = total_small = 0
    last: _Outcome | None = None
    for rmax in RMAX_CANDIDATES:
        extra = (("rmax", str(rmax)),)
        outcome, cases, small, _ = _search(metric, constraint, scope.with_(rmax=rmax), budget, seed,
                                           tolerance, extra)
        total_cases += cases
        total_small += small
        if outcome.holds and cases == 0 and small == 0:
            return _no_case(metric, constraint, mode, scope)
        if outcome.error is not None:
            return _result(metric, constraint, mode, outcome, total_cases, total_small, "", tolerance)
        if outcome.holds:
            return _result(metric, constraint, mode, outcome, total_cases, total_small, "", tolerance,
                           verdict="witness", witness=Witness(
                               f"rmax = {rmax}", "the largest candidate for which no case breaks "
                               f"{constraint.relation.text}"))
        last = outcome
    assert last is not None
    return _result(metric, constraint, mode, last, total_cases, total_small,
                   "no rmax candidate holds; counterexample at the smallest", tolerance)


def _signs_text(grid: tuple[int, ...], signs: list[int], symbol: str) -> str:
    """Run-length sign sequence of ``D`` along the grid: ``n=1..3: -, n=4..1024: +``."""
    marks = {1: "+", 0: "0", -1: "-"}
    runs: list[str] = []
    start = 0
    for i in range(1, len(signs) + 1):
        if i == len(signs) or signs[i] != signs[start]:
            first, last = grid[start], grid[i - 1]
            span = f"{first}" if first == last else f"{first}..{last}"
            runs.append(f"{symbol}={span}: {marks[signs[start]]}")
            start = i
    return ", ".join(runs)


def _threshold(metric: Any, constraint: Constraint, mode: str, budget: Budget,
               tolerance: float, rcs: tuple[Fraction, ...], relative: bool = False,
               disjoint: bool = False) -> Check:
    rule = constraint.threshold
    assert rule is not None
    grid = threshold_grid(budget.horizon)
    cutoff = getattr(metric, "cutoff", None)
    if mode == "window" and cutoff is not None:
        grid = tuple(n for n in grid if 2 * n <= cutoff)
    if not grid:
        return Check(constraint=constraint.id, metric=metric.name, params=_params(metric),
                     verdict="n/a", mode=mode, note=f"no n with 2n <= k = {cutoff} in window mode")
    witnesses: list[tuple[int, str, bool]] = []
    for rc in rcs:
        signs: list[int] = []
        pairs = {}
        for n in grid:
            topic, a, b = rule.build(n, rc)
            context = fixed_context(topic, disjoint) if relative else None
            try:
                # sign of Q(a) - Q(b) = D(n)
                comparison = compare(metric, topic, b, a, tolerance, context)
            except Exception as error:  # a user's metric may raise anything; report, don't crash
                outcome = error_outcome(metric, Case(topic, a, b, (), "", context), error)
                return Check(constraint=constraint.id, metric=metric.name, params=_params(metric),
                             verdict="error", mode=mode, error=outcome.error,
                             exact=is_exact_capable(metric))
            signs.append(comparison.sign)
            pairs[n] = (topic, a, b, comparison, context)
        text = _signs_text(grid, signs, rule.symbol)
        if rule.rule == "eventually positive":
            # Satisfied iff D > 0 on a final stretch [N, H] of the grid; witness N.
            if signs[-1] <= 0:
                n = grid[-1]
                return _threshold_violation(metric, constraint, mode, tolerance, rc, n, pairs[n], text,
                                            f"D({rule.symbol}) = Q(a) - Q(b) <= 0 at the end of the grid, "
                                            f"{rule.symbol} = {n}")
            stretch = len(signs)
            while stretch > 0 and signs[stretch - 1] > 0:
                stretch -= 1
            found = grid[stretch]
        else:
            # Satisfied iff some grid n gives Q(b_n) > Q(a_n); witness the smallest.
            good = [n for n, s in zip(grid, signs) if s < 0]
            if not good:
                # compare(b, a): qx = Q(b_m), qy = Q(a_m); closest = largest Q(b_m) - Q(a_m).
                n = max(grid, key=lambda m: pairs[m][3].qx - pairs[m][3].qy)
                return _threshold_violation(metric, constraint, mode, tolerance, rc, n, pairs[n], text,
                                            f"no grid {rule.symbol} <= {grid[-1]} gives Q(b) > Q(a); "
                                            f"closest at {rule.symbol} = {n}")
            found = good[0]
        by_truncation = cutoff is not None and 2 * found > cutoff
        witnesses.append((found, f"rc = {rc}: {text}", by_truncation))
    found = max(w[0] for w in witnesses)  # one witness that serves every rc
    truncated = any(w[2] for w in witnesses)
    signs_all = "; ".join(w[1] for w in witnesses)
    return Check(constraint=constraint.id, metric=metric.name, params=_params(metric), verdict="witness",
                 mode=mode, cases=len(grid) * len(rcs), exact=is_exact_capable(metric),
                 tolerance=None if is_exact_capable(metric) else tolerance,
                 witness=Witness(f"{rule.symbol} = {found}", "for every rc tried", signs_all, truncated))


def _threshold_violation(metric: Any, constraint: Constraint, mode: str, tolerance: float, rc: Fraction,
                         n: int, pair: tuple, signs: str, note: str) -> Check:
    topic, a, b, comparison, context = pair
    counterexample = Counterexample(
        # The pair was compared as (b, a): qx is Q(b_n), qy is Q(a_n).
        topic=record_topic(topic), a=tuple(a), b=tuple(b), score_a=comparison.qy, score_b=comparison.qx,
        relation="Q(a) > Q(b)" if constraint.threshold.rule == "eventually positive" else "Q(b) > Q(a)",
        note=note, decided="exact" if comparison.exact else "float",
        extra=(("rc", str(rc)), (constraint.threshold.symbol, str(n)), ("signs", signs)),
        context_a=context_record(context))
    exact = is_exact_capable(metric)
    return Check(constraint=constraint.id, metric=metric.name, params=_params(metric), verdict="violated",
                 mode=mode, cases=0, counterexample=counterexample, exact=exact,
                 tolerance=None if exact else tolerance, note=f"fails for rc = {rc}")


def check(metric: Any, constraint: Constraint, *, mode: str | None = None, budget: Budget = Budget(),
          seed: int = 0, rho: Fraction = DEFAULT_RHO, tolerance: float = DEFAULT_TOLERANCE,
          rcs: tuple[Fraction, ...] = DEFAULT_RCS, scope_changes: dict[str, Any] | None = None) -> Check:
    """Check ``constraint`` on ``metric`` (one parameter setting) and return the :class:`Check`.

    ``mode`` is ``"window"`` or ``"truncate"`` (default: the constraint's own).
    ``scope_changes`` adjusts the case generation (used to try nearby readings).
    A metric author's metric is checked behind :func:`~axiometer.axioms.guard.guard`.
    """
    if not isinstance(constraint, Constraint):
        from axiometer.axioms.properties import check_property  # a relative property (SPEC section 6)
        return check_property(metric, constraint, mode=mode, budget=budget, seed=seed, tolerance=tolerance)
    guarded = guard(metric, budget.case_seconds)
    return limit_noted(guarded, _check(guarded, constraint, mode, budget, seed, rho, tolerance, rcs,
                                       scope_changes))


def limit_noted(guarded: Any, result: Check) -> Check:
    """Say so in the check's note when a per-case time limit was asked for but could not be set."""
    reason = getattr(guarded, "unlimited_reason", None)
    return _noted(result, reason) if reason and guarded.called else result


def _check(metric: Any, constraint: Constraint, mode: str | None, budget: Budget, seed: int,
           rho: Fraction, tolerance: float, rcs: tuple[Fraction, ...],
           scope_changes: dict[str, Any] | None) -> Check:
    mode = mode or constraint.default_mode
    needs = getattr(metric, "needs", None)
    relative = needs is not None and needs.context
    if relative:
        constraint = _under_generated_contexts(constraint)
    if constraint.kind == "threshold":
        disjoint = bool((scope_changes or {}).get("context_disjoint"))
        result = _threshold(metric, constraint, mode, budget, tolerance, rcs, relative, disjoint)
        return _noted(result, "under a fixed context of other systems") if relative else result
    cutoff = getattr(metric, "cutoff", None)
    scope = Scope(max_position=cutoff if mode == "window" else None, rho=to_fraction(rho))
    if mode == "truncate" and cutoff is not None:
        # Let constructions reach past a small cutoff, so truncation can show (bounded for speed).
        scope = scope.with_(max_docs=max(scope.max_docs, min(cutoff + 2, TRUNCATE_MAX_DOCS)))
    if scope_changes:
        scope = scope.with_(**scope_changes)
    # Seeded by the metric's family, not its full name: every setting of a parameter grid
    # then meets the same cases, so a parameter that cannot matter cannot flip the verdict.
    family = getattr(metric, "family", None) or metric.name
    seed_for_check = cell_seed(seed, family, constraint.id, repr(sorted((scope_changes or {}).items())))
    procedure: Callable[..., Check] = _saturation if constraint.kind == "saturation" else _universal
    result = procedure(metric, constraint, mode, scope, budget, seed_for_check, tolerance)
    return _noted(result, "under a generated context of other systems") if relative else result


def _noted(result: Check, note: str) -> Check:
    return dataclasses.replace(result, note="; ".join(n for n in (result.note, note) if n))


def _under_generated_contexts(constraint: Constraint) -> Constraint:
    """The constraint with a context generated for each case (a relative metric; SPEC section 6)."""
    strategy, small_scope = constraint.strategy, constraint.small_scope
    return dataclasses.replace(
        constraint,
        strategy=None if strategy is None else (
            lambda scope: with_contexts(strategy(scope), scope.context_disjoint)),
        small_scope=None if small_scope is None else (
            lambda scope: small_scope_with_contexts(iter(small_scope(scope)), scope.context_disjoint)))
