"""A table's units of work, one class per task, each with its :meth:`~Task.run` and its typed result.

- :class:`CheckTask` gives a :class:`~axiometer.results.Check`: one metric setting against one
  constraint (:func:`axiometer.checking.check`), in a cutoff mode;
- :class:`ExplainTask` gives a violated cell's :class:`~axiometer.results.Explanation` (a line
  of text and which nearby reading it states), or ``None`` when it has none (:func:`axiometer.checking.explain.explain`);
- :class:`BoundaryTask` gives a :class:`Located`: where one parameter's verdict changes
  (:func:`axiometer.checking.boundary.locate`).

A task carries what its work needs and no more: the metric at its setting as it was resolved
in the parent process, the constraint (its id when registered, so a worker looks it up; else
the object), the budget and the seed. Where its result goes is its submitter's business
(:class:`~axiometer.runner.pool.TaskPool`). :func:`run_task` runs any task and never raises: an
error outside the metric's evaluation becomes the task's :meth:`~Task.failed` result, a
``KeyboardInterrupt`` an :class:`Interrupted`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from axiometer.axioms import get
from axiometer.axioms.constraints.base import Constraint, params_of
from axiometer.axioms.oracle import Oracle
from axiometer.axioms.properties.base import Property
from axiometer.checking import Budget, check
from axiometer.checking.boundary import CellProbe, ParamRange, locate
from axiometer.checking.explain import explain
from axiometer.core import to_fraction
from axiometer.metrics.base import Metric
from axiometer.results import Boundary, Check, ErrorInfo, Explanation, Verdict

__all__ = ["Task", "CheckTask", "ExplainTask", "BoundaryTask", "Located", "Interrupted", "run_task",
           "run_supervised", "ConstraintRef"]

R = TypeVar("R")

#: A constraint as a task carries it: its id when registered (a worker looks it up), else the object.
ConstraintRef = str | Constraint | Property


class Interrupted:
    """What a task returns when a KeyboardInterrupt reached it (survives pickling, unlike a sentinel)."""


def _oracle(ref: ConstraintRef) -> Oracle:
    """The constraint or property ``ref`` names."""
    found = get(ref) if isinstance(ref, str) else ref
    # Constraint and Property satisfy Oracle at run time; mypy objects only that the protocol
    # declares settable fields where they are frozen dataclasses' (issue 25: axioms/oracle.py).
    return cast(Oracle, found)


def _default_mode(ref: ConstraintRef) -> str:
    """The constraint's own cutoff mode; ``""`` when its id is unknown here (the failure to report)."""
    try:
        return _oracle(ref).default_mode
    except KeyError:
        return ""


class Task(ABC, Generic[R]):
    """One unit of work whose result is an ``R``."""

    @abstractmethod
    def run(self) -> R:
        """Do the work (may raise; :func:`run_task` catches)."""

    @abstractmethod
    def failed(self, message: str, error: ErrorInfo | None, note: str = "") -> R:
        """The result when the work could not finish: ``message`` says why, ``error`` (if any)
        names the metric's input that stopped it, ``note`` goes into a check's note."""


@dataclass(frozen=True)
class CheckTask(Task[Check]):
    """``metric`` (at one setting) against ``constraint`` in cutoff ``mode`` (``None``: the
    constraint's own)."""

    metric: Metric
    constraint: ConstraintRef
    mode: str | None
    budget: Budget
    seed: int

    def run(self) -> Check:
        return check(self.metric, _oracle(self.constraint), mode=self.mode, budget=self.budget, seed=self.seed)

    def failed(self, message: str, error: ErrorInfo | None, note: str = "") -> Check:
        """An error check: ``error``, else ``message`` alone."""
        name = self.metric.name
        constraint_id = self.constraint if isinstance(self.constraint, str) else self.constraint.id
        mode = self.mode or _default_mode(self.constraint)
        return Check(constraint=constraint_id, metric=str(name), params=params_of(self.metric), verdict=Verdict.ERROR,
                     mode=mode, error=error or ErrorInfo(message), note=note)


@dataclass(frozen=True)
class ExplainTask(Task["Explanation | None"]):
    """Why ``check`` (the violated check of ``metric`` on ``constraint``) holds nearby, if it
    does; ``grid_checks``: the cell's checks at every grid setting."""

    metric: Metric
    constraint: str | Constraint
    check: Check
    grid_checks: tuple[Check, ...]
    budget: Budget
    seed: int

    def run(self) -> Explanation | None:
        constraint = _oracle(self.constraint)
        if not isinstance(constraint, Constraint):
            raise TypeError(f"{constraint.id} is not a constraint: only a constraint has nearby readings")
        return explain(self.metric, constraint, self.check, budget=self.budget, seed=self.seed,
                       grid_checks=self.grid_checks)

    def failed(self, message: str, error: ErrorInfo | None, note: str = "") -> Explanation | None:
        """A line saying why there is no explanation (no reading)."""
        return Explanation(f"(no explanation: {message})", None)


@dataclass(frozen=True)
class Located:
    """A boundary search's result: the boundaries found, and the grid values (with their
    re-decided checks) whose verdict a counterexample found elsewhere overturned; or, when the
    search could not finish, ``failure``, a line saying why."""

    boundaries: tuple[Boundary, ...] = ()
    overturned: tuple[tuple[Any, Check], ...] = ()
    failure: str | None = None


@dataclass(frozen=True)
class BoundaryTask(Task[Located]):
    """The boundaries of parameter ``span.name`` of ``metric`` on ``constraint`` (the other
    parameters at the metric's setting), its grid values ``given`` probed first; ``over``, for one
    point of a two-parameter curve, names the other parameter and its value."""

    metric: Metric
    constraint: ConstraintRef
    span: ParamRange
    given: tuple[Any, ...]
    mode: str | None
    budget: Budget
    seed: int
    over: tuple[str, Any] | None = None

    def run(self) -> Located:
        """:func:`~axiometer.checking.boundary.locate` with a
        :class:`~axiometer.checking.boundary.CellProbe`; the grid values whose verdict the search
        overturned come with their re-decided checks, so the cell's own grid agrees with its
        boundaries."""
        metric, constraint, name = self.metric, _oracle(self.constraint), self.span.name
        probe = CellProbe(metric, constraint, name, mode=self.mode, budget=self.budget, seed=self.seed)
        fixed = tuple((k, v) for k, v in metric.params.items() if k != name)
        boundaries = locate(metric, constraint, self.span, probe, self.given, fixed)
        overturned = []
        for value in self.given:
            exact = to_fraction(value)
            searched = probe.searched.get(exact)
            if searched is not None:
                decided = probe(exact)
                if decided.verdict != searched.verdict:
                    overturned.append((value, decided))
        return Located(boundaries, tuple(overturned))

    def failed(self, message: str, error: ErrorInfo | None, note: str = "") -> Located:
        return Located(failure=f"boundaries of {self.span.name} not located: {message}")


def run_task(task: Task[R]) -> R | Interrupted:
    """Run one task; never raises (an unexpected error becomes the task's failed result)."""
    try:
        return task.run()
    except KeyboardInterrupt:
        return Interrupted()
    except Exception as error:  # a bug outside the metric's evaluation: show it in the table
        return task.failed(f"{type(error).__name__}: {error}", None, note="raised outside the metric's evaluation")


def run_supervised(task: Task[R]) -> R:
    """:func:`run_task` in a supervised worker: the worker ignores Ctrl-C, so a ``KeyboardInterrupt``
    that escaped the metric's guard is the metric's, not the user's."""
    result = run_task(task)
    if isinstance(result, Interrupted):
        return task.failed("the metric raised KeyboardInterrupt", None)
    return result
