"""Every path of a metric's code over a case's real symbols, each decided by z3.

:func:`explore` runs a function (a constraint's relation on a case structure)
again and again, once per path: an :class:`Explorer` answers each branch the
code takes on a :class:`~axiometer.proofs.reals.Real` — the first run takes
the side a model of the conditions so far satisfies, and every branch whose
other side is satisfiable too is run again later with that side forced (a
depth-first walk over the tree of decisions, as CrossHair does). A branch
whose other side z3 proves unsatisfiable is not a branch at all: such
decisions cost one solver call and never multiply paths.

The result of each path is the function's return value (for a relation,
``True`` or ``False``), the path's condition, and a model of it: a path
returning ``False`` is a counterexample, and its model gives the values.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from axiometer.proofs.reals import exploring

__all__ = ["Path", "Exploration", "Explorer", "explore", "smtlib", "TooManyPaths", "Undecidable"]

#: z3's resource limit for one satisfiability question (its deterministic count of work, about 0.2 to
#: 4 s here; ten times the hardest question of the default table): past it the question is "unknown"
#: and the proof stops there (the search's verdict stands). A count rather than a time, so a proof
#: ends the same way on every machine and under any load.
SOLVER_RLIMIT = 2_000_000

#: A time limit for one question (milliseconds) as a safety net only: the resource limit decides first.
SOLVER_TIMEOUT_MS = 20_000


def z3_solver() -> Any:
    """A new z3 solver for one exploration, with its resource and safety time limits."""
    solver = z3.Solver()
    solver.set("rlimit", SOLVER_RLIMIT)
    solver.set("timeout", SOLVER_TIMEOUT_MS)
    return solver


def smtlib(solver: z3.Solver) -> str:
    """The solver's assertions as an SMT-LIB 2 script for another solver: quantifier-free nonlinear
    real arithmetic, ending in ``(check-sat)`` (``unsat`` is the proof)."""
    lines = [line for line in solver.to_smt2().splitlines()
             if not line.startswith(("; benchmark", "(set-info"))]
    return "\n".join(["(set-logic QF_NRA)", *lines]) + "\n"


class TooManyPaths(Exception):
    """The code branches into more paths than the proof's budget allows."""


class Undecidable(Exception):
    """z3 answered ``unknown`` on a question the proof needs answered."""


@dataclass(frozen=True)
class Path:
    """One path: its return ``value``, its ``condition`` (the decisions taken) and a ``model`` of it."""

    value: Any
    condition: tuple[Any, ...]
    model: Any


@dataclass(frozen=True)
class Exploration:
    """The paths of one function, with the cost of finding them. ``formula``: the last question z3
    answered "unsatisfiable" (a path's conditions with the branch it ruled out), in SMT-LIB 2, when
    asked to keep it: another solver must find it unsatisfiable too."""

    paths: tuple[Path, ...]
    solver_calls: int
    formula: str = ""


class Explorer:
    """Decides the branches of one run of the function (see the module docstring).

    ``prefix`` forces the first decisions (a path scheduled by an earlier run);
    ``solver`` holds the base conditions and, during the run, the path's decisions.
    """

    def __init__(self, solver: z3.Solver, prefix: Sequence[bool], model: Any, keep: bool = False) -> None:
        self.solver = solver
        self.keep = keep
        self.formula = ""
        self.prefix = prefix
        self.model = model
        self.taken: list[tuple[Any, bool]] = []
        self.alternatives: list[tuple[list[bool], Any]] = []   # (a prefix to run, a model of it)
        self.calls = 0

    def decide(self, condition: Any) -> bool:
        """Which way the path goes at ``condition`` (a z3 Boolean)."""
        k = len(self.taken)
        if k < len(self.prefix):
            choice = self.prefix[k]
        else:
            choice = z3.is_true(self.model.eval(condition, model_completion=True))
            other = condition if not choice else z3.Not(condition)
            model = self._satisfiable(other)
            if model is not None:
                self.alternatives.append(([c for _, c in self.taken] + [not choice], model))
        self.taken.append((condition, choice))
        self.solver.add(condition if choice else z3.Not(condition))
        return choice

    def assume(self, condition: Any) -> None:
        """Add a fact the code introduces (a constant's enclosure) to the path; the model follows it."""
        self.solver.add(condition)
        if not z3.is_true(self.model.eval(condition, model_completion=True)):
            self.calls += 1
            answer = self.solver.check()
            if answer != z3.sat:
                raise Undecidable(f"z3 could not extend the model with {condition} ({answer})")
            self.model = self.solver.model()

    def _satisfiable(self, condition: Any) -> Any:
        """A model of the path so far with ``condition``, or ``None`` when there is none."""
        self.calls += 1
        self.solver.push()
        try:
            self.solver.add(condition)
            answer = self.solver.check()
            if answer == z3.unknown:
                raise Undecidable(f"z3 could not decide a branch ({self.solver.reason_unknown()})")
            if answer == z3.unsat and self.keep:
                self.formula = smtlib(self.solver)
            return self.solver.model() if answer == z3.sat else None
        finally:
            self.solver.pop()

    @property
    def condition(self) -> tuple[Any, ...]:
        return tuple(c if choice else z3.Not(c) for c, choice in self.taken)


def explore(function: Callable[[], Any], base: Sequence[Any], *, max_paths: int = 512,
            deadline: float | None = None, keep_formula: bool = False) -> Exploration:
    """Every path of ``function()`` under the conditions ``base`` (z3 Booleans over its symbols).

    Raises :class:`TooManyPaths` past ``max_paths`` paths or the ``deadline``
    (``time.monotonic()``), :class:`Undecidable` when z3 cannot answer, and
    whatever the function raises (:class:`~axiometer.proofs.reals.NotSymbolic`
    among them). Base conditions that no value satisfies give no path.
    """
    solver = z3_solver()
    solver.add(*base)
    answer = solver.check()
    calls = 1
    if answer == z3.unknown:
        raise Undecidable(f"z3 could not decide the case's conditions ({solver.reason_unknown()})")
    if answer == z3.unsat:
        return Exploration((), calls)
    pending: list[tuple[list[bool], Any]] = [([], solver.model())]
    paths: list[Path] = []
    formula = ""
    while pending:
        if len(paths) >= max_paths or (deadline is not None and time.monotonic() > deadline):
            raise TooManyPaths(f"more than {len(paths)} paths" if len(paths) >= max_paths
                               else f"the time budget ran out after {len(paths)} paths")
        prefix, model = pending.pop()
        solver.push()
        explorer = Explorer(solver, prefix, model, keep_formula)
        try:
            with exploring(explorer):
                value = function()
        finally:
            solver.pop()
            calls += explorer.calls
        formula = explorer.formula or formula
        paths.append(Path(value, explorer.condition, explorer.model))
        pending.extend(reversed(explorer.alternatives))
    return Exploration(tuple(paths), calls, formula)
