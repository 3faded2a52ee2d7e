"""The search for cases: the exhaustive small scope, then a shrinking random search (hypothesis).

:class:`Search` is the engine's side of the oracle protocol
(:class:`~axiometer.axioms.oracle.Searcher`): an oracle asks it to find a case
whose outcome is a *target* (a failure, a witness, an error), and it runs the
oracle's small scope first, then ``hypothesis.find`` over the oracle's
strategy, which shrinks the target found to a small one — all within the
check's :class:`~axiometer.checking.budget.Budget`. A *final* outcome (a
metric author's metric past its per-case time limit) ends the search at once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from typing import Any

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.errors import Flaky, NoSuchExample, Unsatisfiable

from axiometer.axioms.oracle import SearchResult
from axiometer.checking.budget import Budget, cell_seed
from axiometer.checking.guard import Misbehaviour, context_text, describe_error
from axiometer.core import Ranking
from axiometer.generators.case import Case
from axiometer.metrics.decide import evaluate
from axiometer.results import ErrorInfo, Outcome, record_topic

__all__ = ["Search", "search_cases", "search_settings_for", "error_outcome"]


class Search:
    """The searcher one check hands its oracle: budget, run seed and tolerance (see the module docstring)."""

    def __init__(self, budget: Budget, seed: int, tolerance: float) -> None:
        self.budget, self.run_seed, self.tolerance = budget, seed, tolerance
        self.horizon = budget.horizon

    def seed(self, *parts: str) -> int:
        return cell_seed(self.run_seed, *parts)

    def find(self, small_scope: Iterable[Case] | None, strategy: Callable[[], Any] | None,
             judge: Callable[[Case], Outcome], is_target: Callable[[Outcome], bool],
             seed: int) -> SearchResult:
        return search_cases(small_scope, strategy, judge, is_target, self.budget, seed)

    def error(self, metric: Any, case: Case, error: Exception) -> Outcome:
        return error_outcome(metric, case, error)


def search_settings_for(budget: Budget) -> settings:
    """Hypothesis settings of one check's random search: ``budget.cases`` examples, shrinking,
    no database or deadline (the check keeps its own time budget), seeded by the caller."""
    return settings(max_examples=budget.cases, database=None, deadline=None,
                    phases=(Phase.generate, Phase.shrink), derandomize=False,
                    suppress_health_check=list(HealthCheck), report_multiple_bugs=False)


def error_outcome(metric: Any, case: Case, error: Exception) -> Outcome:
    """An error outcome naming the input: the guard's own record of it, else the ranking that raises."""
    if isinstance(error, Misbehaviour):
        return Outcome(False, error=ErrorInfo(str(error), record_topic(error.topic), tuple(error.ranking)),
                       final=error.final)
    culprit = _failing_ranking(metric, case)
    contexts = (case.context, case.context_b) if case.context_b is not None else (case.context,)
    return Outcome(False, error=ErrorInfo(describe_error(error) + context_text(*contexts),
                                          record_topic(case.topic), tuple(culprit)))


def _failing_ranking(metric: Any, case: Case) -> Ranking:
    """Which of the case's rankings makes the metric fail (``a`` unless only ``b`` does)."""
    try:
        evaluate(metric, case.a, case.topic, case.context)
    except Exception:
        return case.a
    return case.b


def search_cases(small_scope: Iterable[Case] | None, strategy: Callable[[], Any] | None,
                 judge: Callable[[Case], Outcome], is_target: Callable[[Outcome], bool],
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
    stopped: list[Outcome] = []  # a final outcome (a timeout) ends the search

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
        outcome = Outcome(False, error=ErrorInfo(
            "non-deterministic: the same input gave two outcomes",
            record_topic(minimal.topic), tuple(minimal.a)))
    return SearchResult(outcome, minimal, counter[0], small, note)


class _OutOfTime(Exception):
    """Raised inside the search predicate when the check's time budget is spent."""


class _Stop(Exception):
    """Raised inside the search predicate to end the search with ``outcome`` (a final error)."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__()
        self.outcome = outcome
