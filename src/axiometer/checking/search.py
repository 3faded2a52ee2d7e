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
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.errors import Flaky, NoSuchExample, Unsatisfiable

from axiometer.axioms.oracle import Layer, ScopeReach, SearchResult
from axiometer.checking.budget import Budget, cell_seed
from axiometer.checking.guard import Misbehaviour, context_text, describe_error
from axiometer.core import Ranking, to_fraction
from axiometer.generators.case import Case, ScopeItem, ScopeMark, case_size
from axiometer.generators.draw import shrink_from
from axiometer.metrics.decide import evaluate
from axiometer.results import ErrorInfo, Outcome, record_topic
from axiometer.metrics.base import Metric

__all__ = ["Search", "search_cases", "search_settings_for", "error_outcome"]


class Search:
    """The searcher one check hands its oracle: budget, run seed and tolerance (see the module docstring)."""

    def __init__(self, budget: Budget, seed: int, tolerance: float) -> None:
        self.budget, self.run_seed, self.tolerance = budget, seed, tolerance
        self.horizon = budget.horizon

    def seed(self, *parts: str) -> int:
        return cell_seed(self.run_seed, *parts)

    def find(self, small_scope: Iterable[ScopeItem] | None, strategy: Callable[[], Any] | None,
             judge: Callable[[Case], Outcome], is_target: Callable[[Outcome], bool],
             seed: int) -> SearchResult:
        return search_cases(small_scope, strategy, judge, is_target, self.budget, seed)

    def error(self, metric: Metric, case: Case, error: Exception) -> Outcome:
        return error_outcome(metric, case, error)


def search_settings_for(budget: Budget) -> settings:
    """Hypothesis settings of one check's random search: ``budget.cases`` examples, shrinking,
    no database or deadline (the check keeps its own time budget), seeded by the caller."""
    return settings(max_examples=budget.cases, database=None, deadline=None,
                    phases=(Phase.generate, Phase.shrink), derandomize=False,
                    suppress_health_check=list(HealthCheck), report_multiple_bugs=False)


def error_outcome(metric: Metric, case: Case, error: Exception) -> Outcome:
    """An error outcome naming the input: the guard's own record of it, else the ranking that raises."""
    if isinstance(error, Misbehaviour):
        return Outcome(False, error=ErrorInfo(str(error), record_topic(error.topic), tuple(error.ranking)),
                       final=error.final)
    culprit = _failing_ranking(metric, case)
    contexts = (case.context, case.context_b) if case.context_b is not None else (case.context,)
    return Outcome(False, error=ErrorInfo(describe_error(error) + context_text(*contexts),
                                          record_topic(case.topic), tuple(culprit)))


def _failing_ranking(metric: Metric, case: Case) -> Ranking:
    """Which of the case's rankings makes the metric fail (``a`` unless only ``b`` does)."""
    try:
        evaluate(metric, case.a, case.topic, case.context)
    except Exception:
        return case.a
    return case.b


def search_cases(small_scope: Iterable[ScopeItem] | None, strategy: Callable[[], Any] | None,
                 judge: Callable[[Case], Outcome], is_target: Callable[[Outcome], bool],
                 budget: Budget, seed: int) -> SearchResult:
    """The exhaustive small scope, then a shrinking random search, for a case whose outcome is a target.

    ``judge`` evaluates one case; ``is_target`` says whether its outcome is
    what the search looks for (a failure, a witness, an error). The small
    scope is enumerated in order up to ``budget.small_scope`` cases (its
    :class:`~axiometer.generators.case.ScopeMark` marks are not cases) or
    ``budget.seconds``, whichever comes first; how far it got is the result's
    ``reach``. The random search (``hypothesis.find`` over ``strategy()``)
    shrinks the target found to a small one, within ``budget.seconds``; a
    *final* outcome (a timeout) ends it at once. Shared by the constraint and
    the property checks.
    """
    tally = _Tally()
    if small_scope is not None:
        found = _enumerate(small_scope, judge, is_target, budget, tally)
        if found is not None:
            return found
    if strategy is None or budget.cases < 1:  # Budget(cases=0): the small scope alone
        return tally.result()
    deadline = time.monotonic() + budget.seconds
    start: tuple[list[int], Case] | None = None  # a target the fast draws found, to shrink from
    sample = getattr(strategy, "sample", None)
    if sample is not None:
        drawn = _draw_fast(sample, judge, is_target, budget, seed, deadline, tally)
        if isinstance(drawn, SearchResult):
            return drawn
        start = drawn
    return _shrink(strategy, start, judge, is_target, budget, seed, deadline, tally)


class _Tally:
    """What a search has counted so far; :meth:`result` builds its :class:`SearchResult`."""

    def __init__(self) -> None:
        self.small = 0                         # small-scope cases decided
        self.cases = 0                         # random cases decided
        self.small_note = ""                   # the small scope stopped by the time budget, if it was
        self.reach: ScopeReach | None = None   # how far the small scope got (None: there was none)

    def result(self, outcome: Outcome | None = None, case: Case | None = None, note: str = "") -> SearchResult:
        """The search's result: the target's outcome and case (``None``: none), the counts, and the
        small scope's note followed by ``note``."""
        return SearchResult(outcome=outcome, case=case, cases=self.cases, small=self.small,
                            note=_joined(self.small_note, note), reach=self.reach)


def _enumerate(small_scope: Iterable[ScopeItem], judge: Callable[[Case], Outcome],
               is_target: Callable[[Outcome], bool], budget: Budget, tally: _Tally) -> SearchResult | None:
    """The small scope in order, up to ``budget.small_scope`` cases or ``budget.seconds``: the
    target found (``None``: none; ``tally`` then says how far it got)."""
    enumeration = _Enumeration(budget.small_scope)
    deadline = time.monotonic() + budget.seconds
    stopped = ""
    for item in small_scope:
        if isinstance(item, ScopeMark):
            enumeration.mark(item)
            continue
        if tally.small >= budget.small_scope:
            stopped = "budget"
            break
        if time.monotonic() > deadline:
            stopped = "time"
            tally.small_note = (f"small scope stopped by the time budget ({budget.seconds:g} s) "
                                f"after {tally.small} cases")
            break
        tally.small += 1
        enumeration.add(item)
        outcome = judge(item)
        if is_target(outcome):
            return SearchResult(outcome=outcome, case=item, cases=0, small=tally.small,
                                note="found in the small scope", reach=enumeration.reach("target"))
    tally.reach = enumeration.reach(stopped, tally.small_note)
    return None


def _draw_fast(sample: Callable[[random.Random], tuple[Case | None, list[int]]],
               judge: Callable[[Case], Outcome], is_target: Callable[[Outcome], bool], budget: Budget,
               seed: int, deadline: float, tally: _Tally) -> SearchResult | tuple[list[int], Case]:
    """Fast draws (generators.draw): up to ``budget.cases`` cases from a seeded random, each a
    microsecond's choices. The first target's choices and case, for hypothesis to shrink; else the
    search's result (no target, the time budget, or a final outcome)."""
    rng = random.Random(seed)
    attempts = 0
    while tally.cases < budget.cases and attempts < _ATTEMPTS * budget.cases:
        if time.monotonic() > deadline:
            return tally.result(note=f"time budget ({budget.seconds:g} s) reached")
        attempts += 1
        case, choices = sample(rng)
        if case is None:
            continue  # the construction rejected these choices
        tally.cases += 1
        outcome = judge(case)
        if outcome.final:
            return tally.result(outcome)
        if is_target(outcome):
            return choices, case
    return tally.result()


def _shrink(strategy: Callable[[], Any], start: tuple[list[int], Case] | None,
            judge: Callable[[Case], Outcome], is_target: Callable[[Outcome], bool], budget: Budget,
            seed: int, deadline: float, tally: _Tally) -> SearchResult:
    """Hypothesis shrinks the fast draws' target ``start`` (or, without one, finds a target and
    shrinks it) within the time budget; a final outcome (a timeout) ends it at once."""
    found: list[Case] = []  # target cases in the order found; shrinking makes later ones smaller
    stopped: list[Outcome] = []  # a final outcome (a timeout) ends the search

    def predicate(case: Case) -> bool:
        if not stopped:  # after a timeout hypothesis shrinks the exception: keep raising it, evaluate nothing
            if time.monotonic() > deadline:
                raise _OutOfTime  # aborts generation and shrinking alike
            tally.cases += 1
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
        if start is not None:
            minimal = shrink_from(strategy(), start[0], predicate, seed)
            if minimal is None:  # the replay was no target: a non-deterministic metric
                raise NoSuchExample("replay")
        else:
            minimal = find(strategy(), predicate, settings=search_settings_for(budget),
                           random=random.Random(seed))
    except (NoSuchExample, Unsatisfiable):
        if start is not None:  # a target a moment ago, not on its replay
            return tally.result(_non_deterministic(start[1]), start[1])
        return tally.result()
    except (_Stop, Flaky):
        if not stopped:
            raise
        return tally.result(stopped[0])
    except _OutOfTime:
        if not found:
            return tally.result(note=f"time budget ({budget.seconds:g} s) reached")
        minimal = found[-1]  # the smallest target shrinking reached in time
        note = f"shrinking stopped by the time budget ({budget.seconds:g} s)"
    outcome = judge(minimal)
    if not is_target(outcome):  # cannot happen for a deterministic metric: it was a target a moment ago
        outcome = _non_deterministic(minimal)
    return tally.result(outcome, minimal, note)


def _non_deterministic(case: Case) -> Outcome:
    return Outcome(False, error=ErrorInfo("non-deterministic: the same input gave two outcomes",
                                          record_topic(case.topic), tuple(case.a)))


#: Fast draws a search may make per case it asks for: a construction rejects some choices
#: (a window too short for it), and a scope that rejects nearly all of them must still end.
_ATTEMPTS = 10


def _joined(*notes: str) -> str:
    return "; ".join(n for n in notes if n)


class _Enumeration:
    """What a small scope's enumeration met: its complete layers (one per mark), the cases since."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.layers: list[Layer] = []
        self.declared: int | None = None
        self.complete = False
        self._open()

    def _open(self) -> None:
        self.sizes: Counter[int] = Counter()
        self.values: set[Any] = set()
        self.aspects: set[int] = set()

    @property
    def cases(self) -> int:
        return sum(self.sizes.values())

    def add(self, case: Case) -> None:
        """A case about to be decided: its size, relevance values and aspect count."""
        self.sizes[case_size(case)] += 1
        topic = case.topic
        self.aspects.add(len(topic.aspects))
        values = self.values
        for doc in topic.documents:
            values.update(topic.vector(doc))  # read exactly when the layer closes

    def _layer(self, docs: int) -> Layer:
        return Layer(docs, self.cases, tuple(sorted({to_fraction(v) for v in self.values})),
                     tuple(sorted(self.aspects)),
                     tuple(sorted(self.sizes.items())))

    def mark(self, mark: ScopeMark) -> None:
        """Every case up to ``mark.docs`` documents has been decided: close the layer."""
        self.layers.append(self._layer(mark.docs))
        self.declared = mark.declared_docs
        self.complete = self.complete or mark.docs >= mark.declared_docs
        self._open()

    def reach(self, stopped: str, note: str = "") -> ScopeReach:
        """How far it got; ``stopped`` is ``""`` when the small scope ran out."""
        complete = self.complete or not stopped
        partial = self._layer(max(self.sizes)) if self.cases else None
        layers = self.layers
        if not stopped and partial is not None and not layers:
            layers, partial = [partial], None  # no marks, run out: the whole scope is one layer
        return ScopeReach(tuple(layers), partial, self.declared, complete, stopped, self.budget, note)


class _OutOfTime(Exception):
    """Raised inside the search predicate when the check's time budget is spent."""


class _Stop(Exception):
    """Raised inside the search predicate to end the search with ``outcome`` (a final error)."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__()
        self.outcome = outcome
