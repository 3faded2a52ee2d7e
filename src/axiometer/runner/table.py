"""The constraint table: every metric x every constraint, over parameter grids.

:func:`run_table` regenerates the SIGIR 2018 table (Amigó, Spina &
Carrillo-de-Albornoz, section 4; definitions §3 and §7) for any metrics and
constraints. Each (metric setting, constraint) pair is one
:func:`axiometer.checking.check.check` call; the checks of one (row, constraint)
pair form a :class:`~axiometer.results.Cell` whose verdict is the one at the
metric's own setting and whose summary states how the verdict depends on the
parameters (:mod:`axiometer.runner.grids`). A row's metric is resolved once,
by :func:`axiometer.metrics.resolve.resolve`; the table's default rows are
specs the user did not type, so their parameters all vary over the grid.

Execution (:mod:`axiometer.runner.pool`): each check is a task
(:class:`~axiometer.runner.tasks.CheckTask`) carrying the metric at its
setting, run in local worker processes or on a given executor; a metric or
constraint that cannot be pickled runs in this process. Every check's seed derives from the run's
seed, the metric's family and the constraint (:func:`axiometer.checking.cell_seed`;
all settings of one grid meet the same random cases), and
results are assembled in a fixed order, so the same seed gives the same
``TableResult.to_dict()`` whatever ``jobs`` is (as long as no check hits its
time budget, which the check's note then says). Ctrl-C stops the workers and
returns the cells finished so far, the others marked ``"not run"``.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import os
import pickle
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, TypeVar

from axiometer.axioms import CONSTRAINTS, PROPERTIES, get
from axiometer.axioms.constraints.base import DEFAULT_RHO, Constraint
from axiometer.axioms.properties.base import Property
from axiometer.checking import Budget, run_budget
from axiometer.core import InputError, ProgressCallback
from axiometer.metrics import RELATIVE_ROWS, TABLE_ROWS
from axiometer.checking.boundary import ParamRange, declared_range
from axiometer.checking.guard import is_trusted
from axiometer.core import to_fraction
from axiometer.metrics.base import Metric
from axiometer.metrics.resolve import Resolved, resolve
from axiometer.results import Boundary, BoundaryCurve, Cell, Check, Explanation, TableResult, Verdict
from axiometer.runner.grids import at_setting, default_values, describe_grid, parameter_grid
from axiometer.runner.pool import TaskPool
from axiometer.runner.supervisor import can_supervise
from axiometer.runner.tasks import BoundaryTask, CheckTask, ExplainTask, Located, Task

__all__ = ["run_table", "resolve_constraints", "default_columns", "ROW_SETS", "OTHER_MODE"]

R = TypeVar("R")

#: The other cutoff mode, computed for violated cells.
OTHER_MODE = {"window": "truncate", "truncate": "window"}


# -- rows and columns ------------------------------------------------------------------

@dataclass
class _Row:
    title: str
    metric: Metric                           # at its own (default) setting
    settings: tuple[dict[str, Any], ...]
    metrics: tuple[Metric, ...]              # the metric at each setting: what the tasks carry
    picklable: bool
    spans: tuple[ParamRange, ...] = ()       # parameters whose boundaries are located, declared order


#: The row sets of :func:`run_table`: the SIGIR 2018 table and the relative metrics' matrix.
ROW_SETS: Mapping[str, tuple[tuple[str, str], ...]] = {"sigir2018": TABLE_ROWS, "relative": RELATIVE_ROWS}


def _resolve_rows(metrics: Sequence[Any] | None, quick: bool,
                  grids: Mapping[str, Sequence[Any]] | None, row_set: str = "sigir2018",
                  boundaries: bool = False) -> list[_Row]:
    if metrics is None:
        # The table's own rows: the user typed no parameter, so all vary.
        given = [replace(resolve(spec), name=title, fixed=frozenset()) for title, spec in ROW_SETS[row_set]]
    else:
        given = [resolve(ref).for_rankings() for ref in metrics]
        # A metric object's row is named by its family ("signed", "RBP"), or by its
        # full name when two objects share a family.
        shared = Counter(r.name for r in given if r.spec is None)
        given = [r if r.spec is not None or shared[r.name] == 1 else replace(r, name=r.ranking_metric().name)
                 for r in given]
    rows: list[_Row] = []
    seen: set[str] = set()
    for resolved in given:
        if resolved.name in seen:
            raise InputError(f"metric {resolved.name!r} is given twice")
        seen.add(resolved.name)
        chosen = {**(grids or {}), **(resolved.grids or {})}
        spans = _spans(resolved, chosen, boundaries)
        metric = resolved.ranking_metric()
        settings = parameter_grid(metric, resolved.fixed, quick=quick, grids=chosen)
        at_settings = tuple(at_setting(metric, s) for s in settings)
        rows.append(_Row(resolved.name, metric, settings, at_settings, _picklable(at_settings),
                         spans))
    return rows


def _spans(resolved: Resolved, grids: dict[str, Sequence[Any]], everywhere: bool) -> tuple[ParamRange, ...]:
    """The parameters whose boundaries a row locates, each with its range, in declaration order.

    A range the user gave (``p=0.5..0.99``) replaces the parameter's grid by
    its values inside the range plus the range's ends (written into
    ``grids``); ``everywhere`` (``--boundaries``) adds every other numeric
    parameter not fixed in the spec, over its declared range.
    """
    metric = resolved.ranking_metric()
    family_name = metric.family
    given = {key.split(".", 1)[1]: value for key, value in (resolved.ranges or {}).items()}
    spans = []
    for param in metric.param_info:
        declared = declared_range(metric, param.name)
        if param.name in given:
            low, high = given[param.name]
            span = ParamRange(param.name, to_fraction(low), to_fraction(high),
                              low_open=bool(declared and declared.low_open and declared.low == to_fraction(low)),
                              high_open=bool(declared and declared.high_open and declared.high == to_fraction(high)))
            first, last = span.ends()
            inside = [v for v in default_values(metric, param.name) if span.contains(v)]
            ends = [low if not span.low_open else float(first), high if not span.high_open else float(last)]
            grids[f"{family_name}.{param.name}"] = tuple(ends[:1] + inside + ends[1:])
            spans.append(span)
        elif everywhere and declared is not None and param.name not in resolved.fixed:
            spans.append(declared)
    return tuple(spans)


def _picklable(value: Any) -> bool:
    try:
        pickle.dumps(value)
    except Exception:  # any pickling failure means "run it here"
        return False
    return True


def default_columns(row_set: str = "sigir2018") -> tuple[Any, ...]:
    """The columns of a row set: the ten constraints; for ``relative``, the relative properties first."""
    if row_set == "relative":
        return (*PROPERTIES, *CONSTRAINTS)
    return CONSTRAINTS


def resolve_constraints(constraints: Sequence[Any] | None, row_set: str = "sigir2018") -> tuple[Any, ...]:
    """Constraint (or property) objects from ids (case-insensitive) or objects; :func:`default_columns` by default."""
    if constraints is None:
        return default_columns(row_set)
    resolved: list[Constraint | Property] = []
    for given in constraints:
        if not isinstance(given, str):
            resolved.append(given)
            continue
        try:
            resolved.append(get(given))
        except KeyError as error:
            raise InputError(str(error.args[0])) from None  # with a suggestion, then the known ids
    ids = [c.id for c in resolved]
    duplicated = next((i for i in ids if ids.count(i) > 1), None)
    if duplicated:
        raise InputError(f"constraint {duplicated!r} is given twice")
    return tuple(resolved)


# -- the run ------------------------------------------------------------------------

@dataclass
class _CellState:
    checks: dict[int, Check] = field(default_factory=dict)
    other_mode: Verdict | None = None
    explanation: Explanation | None = None
    waiting: int = 0              # phase-2 tasks outstanding
    boundaries: dict[str, tuple[Boundary, ...]] = field(default_factory=dict)   # by parameter
    curve: dict[Any, tuple[Boundary, ...]] = field(default_factory=dict)        # by the other's value
    failures: list[str] = field(default_factory=list)   # boundary searches that could not finish


class _Run:
    """The tasks of one table: what each cell needs next, and its results in fixed slots."""

    def __init__(self, rows: list[_Row], constraints: tuple[Constraint | Property, ...], *, seed: int,
                 budget: Budget, mode: str | None, jobs: int, progress: ProgressCallback | None,
                 isolate: bool = True, executor: concurrent.futures.Executor | None = None) -> None:
        self.rows, self.constraints = rows, constraints
        self.seed, self.budget, self.mode = seed, budget, mode
        self.cells = {(r, c): _CellState() for r in range(len(rows)) for c in range(len(constraints))}
        self.registered = [_registered(c) is c for c in constraints]
        # A metric author's metric is checked in supervised workers (it may exit, crash, hang or
        # print); a built-in in the pool or here.
        self.isolated = [isolate and can_supervise() and not is_trusted(row.metric) for row in rows]
        self.pool = TaskPool(jobs, budget, progress, executor=executor)
        self.interrupted = False

    def _submit(self, task: Task[R], then: Callable[[R], None], row: int, column: int, phase: int = 0) -> None:
        """Submit a task of cell (``row``, ``column``): it may run in a worker when its metric
        pickles and its constraint is registered; in a supervised one if its row is a metric
        author's metric."""
        self.pool.submit(task, then, phase=phase,
                         travels=self.rows[row].picklable and self.registered[column],
                         supervised=self.isolated[row])

    def _metric_ref(self, row: int, setting: int) -> Any:
        return self.rows[row].metrics[setting]

    def _constraint_ref(self, column: int) -> Any:
        constraint = self.constraints[column]
        return constraint.id if self.registered[column] else constraint

    def _submit_checks(self) -> None:
        # Row by row, and within a row setting by setting: a process that checks one setting's
        # constraints one after another reuses what it cached for that metric (the ideal rankings,
        # the threshold pairs DeepTh and CloseTh share).
        for r, row in enumerate(self.rows):
            for s in range(len(row.settings)):
                budget = self._setting_budget(row, s)
                for c in range(len(self.constraints)):
                    task = CheckTask(self._metric_ref(r, s), self._constraint_ref(c), self.mode, budget,
                                     self.seed)
                    self._submit(task, functools.partial(self._checked, r, c, s), r, c)

    def _setting_budget(self, row: _Row, setting: int) -> Budget:
        """The budget of one setting's checks: case-structure proofs at the row's default setting
        only (its mark's), unless the budget asks for every setting (``Budget.proof_every_setting``)."""
        budget = self.budget
        names = [metric.name for metric in row.metrics]
        # The default setting as Cell.default_check finds it: the row's own name, else the first.
        default = names.index(row.metric.name) if row.metric.name in names else 0
        if budget.proof_every_setting or setting == default:
            return budget
        return dataclasses.replace(budget, proof_structures=False)

    def _checked(self, row: int, column: int, setting: int, result: Check) -> None:
        state = self.cells[row, column]
        state.checks[setting] = result
        if len(state.checks) == len(self.rows[row].settings):
            self._phase_two(row, column, state)

    def _other_mode_checked(self, row: int, column: int, result: Check) -> None:
        state = self.cells[row, column]
        state.other_mode = result.verdict
        state.waiting -= 1

    def _explained(self, row: int, column: int, result: Explanation | None) -> None:
        state = self.cells[row, column]
        state.explanation = result
        state.waiting -= 1

    def _located(self, row: int, column: int, task: BoundaryTask, result: Located) -> None:
        state = self.cells[row, column]
        state.waiting -= 1
        if result.failure is not None:
            state.failures.append(result.failure)
            return
        if task.over is not None:
            state.curve[task.over[1]] = result.boundaries
        else:
            state.boundaries[task.span.name] = result.boundaries
        # A grid check whose search missed a counterexample found at another value: the
        # re-decided check replaces it, so the summary agrees with the boundaries.
        settings = self.rows[row].settings
        base = dict(task.metric.params)
        for value, check in result.overturned:
            target = {**base, task.span.name: value}
            for index, setting in enumerate(settings):
                if dict(setting) == target:
                    state.checks[index] = check

    def _phase_two(self, row: int, column: int, state: _CellState) -> None:
        """Follow-ups: boundaries of a parameter-dependent cell, when asked for; for a violated
        cell, the verdict in the other cutoff mode and an explanation.

        A witness reached only by truncation also gets the other mode's verdict,
        since that is exactly what the truncation flag is about."""
        self._boundary_tasks(row, column, state)
        constraint = self.constraints[column]
        if not isinstance(constraint, Constraint):
            return  # a relative property has no cutoff modes and no nearby readings
        default = state.checks[0]
        truncated = default.verdict == Verdict.WITNESS and default.witness is not None and default.witness.by_truncation
        if default.verdict != Verdict.VIOLATED and not truncated:
            return
        other = OTHER_MODE.get(default.mode)
        metric = self._metric_ref(row, 0)
        if other is not None:
            state.waiting += 1
            self._submit(CheckTask(metric, self._constraint_ref(column), other, self.budget, self.seed),
                         functools.partial(self._other_mode_checked, row, column), row, column, 1)
        if default.verdict == Verdict.VIOLATED:
            state.waiting += 1
            grid = tuple(state.checks[s] for s in sorted(state.checks))
            ref = constraint.id if self.registered[column] else constraint
            self._submit(ExplainTask(metric, ref, default, grid, self.budget, self.seed),
                         functools.partial(self._explained, row, column), row, column, 1)

    def _boundary_tasks(self, row: int, column: int, state: _CellState) -> None:
        """A parameter-dependent cell of a row with spans: one boundary task per spanned
        parameter at the default setting; with two spanned parameters, the first one's
        boundaries at each other grid value of the second too (the boundary curve)."""
        spec_row = self.rows[row]
        if not spec_row.spans or len({c.verdict for c in state.checks.values()}) < 2:
            return
        tasks = []
        metric = self._metric_ref(row, 0)
        for span in spec_row.spans:
            given = tuple(dict.fromkeys(s[span.name] for s in spec_row.settings))
            tasks.append(self._boundary_task(column, metric, span, given))
        if len(spec_row.spans) >= 2:
            first, over = spec_row.spans[:2]
            own = spec_row.settings[0][over.name]
            given = tuple(dict.fromkeys(s[first.name] for s in spec_row.settings))
            for value in dict.fromkeys(s[over.name] for s in spec_row.settings):
                if value == own:
                    continue  # the default setting's boundaries are the curve's point there
                tasks.append(self._boundary_task(column, at_setting(metric, {over.name: value}), first, given,
                                                 (over.name, value)))
        for task in tasks:
            state.waiting += 1
            self._submit(task, functools.partial(self._located, row, column, task), row, column, 2)

    def _boundary_task(self, column: int, metric: Metric, span: ParamRange, given: tuple[Any, ...],
                       over: tuple[str, Any] | None = None) -> BoundaryTask:
        return BoundaryTask(metric, self._constraint_ref(column), span, given, self.mode, self.budget, self.seed,
                            over)

    def execute(self) -> None:
        self._submit_checks()
        self.interrupted = self.pool.run()

    # assembling
    def cell(self, row: int, column: int) -> Cell:
        spec_row, constraint = self.rows[row], self.constraints[column]
        state = self.cells[row, column]
        checks = tuple(state.checks[s] for s in sorted(state.checks))
        projected = constraint.group == "diversity" and not spec_row.metric.needs.aspects
        total = len(spec_row.settings)
        if len(checks) < total:
            summary = "not run" if not checks else f"not run (interrupted after {len(checks)} of {total} settings)"
            return Cell(row=spec_row.title, metric=spec_row.metric.name, constraint=constraint.id,
                        verdict=Verdict.NOT_RUN, summary=summary, checks=checks, projected=projected)
        outcomes = [(spec_row.settings[s], state.checks[s].verdict) for s in sorted(state.checks)]
        summary = "; ".join([describe_grid(outcomes), *state.failures])
        boundaries = tuple(b for span in spec_row.spans for b in state.boundaries.get(span.name, ()))
        curves: tuple[BoundaryCurve, ...] = ()
        if state.curve and spec_row.spans[0].name in state.boundaries:
            first, over = spec_row.spans[:2]
            own = spec_row.settings[0][over.name]
            points = {**state.curve, own: state.boundaries[first.name]}
            fixed = tuple((k, v) for k, v in spec_row.settings[0].items() if k not in (first.name, over.name))
            curves = (BoundaryCurve(param=first.name, over=over.name,
                                    points=tuple(sorted(points.items(), key=lambda p: to_fraction(p[0]))),
                                    fixed=fixed),)
        return Cell(row=spec_row.title, metric=spec_row.metric.name, constraint=constraint.id,
                    verdict=state.checks[0].verdict, summary=summary, checks=checks,
                    projected=projected, other_mode=state.other_mode, boundaries=boundaries, curves=curves,
                    explanation=None if state.explanation is None else state.explanation.text,
                    reading=None if state.explanation is None else state.explanation.reading)


def _registered(constraint: Constraint | Property) -> Constraint | Property | None:
    """The registered constraint with ``constraint``'s id, if any (so workers can look it up)."""
    try:
        return get(constraint.id)
    except KeyError:
        return None




def run_table(metrics: Sequence[Any] | None = None, constraints: Sequence[Any] | None = None, *,
              row_set: str = "sigir2018", seed: int = 0, budget: Budget = Budget(), quick: bool = False, mode: str | None = None,
              grids: Mapping[str, Sequence[Any]] | None = None, jobs: int | None = None,
              progress: ProgressCallback | None = None, boundaries: bool = False,
              isolate: bool = True, executor: concurrent.futures.Executor | None = None) -> TableResult:
    """Check every metric against every constraint over its parameter grid.

    ``metrics``: metric references, each resolved by
    :func:`axiometer.metrics.resolve.resolve` (spec strings, ``"RBP(p=0.5)"``:
    parameters written in the spec are fixed; ``"module:attr"``;
    ``"ir_measures:MEASURE"``; metric objects and functions; or
    :class:`~axiometer.metrics.resolve.Resolved` objects, whose grids join
    ``grids``); default
    the rows of the row set ``row_set`` (a key of :data:`ROW_SETS`): ``"sigir2018"``, the 20 rows of the SIGIR 2018
    table (:data:`axiometer.metrics.TABLE_ROWS`), or ``"relative"``, the
    relative metrics (:data:`axiometer.metrics.RELATIVE_ROWS`).
    ``constraints``: ids or :class:`Constraint`/``Property`` objects; default
    all of :data:`axiometer.axioms.CONSTRAINTS`, with the relative properties
    (:data:`axiometer.axioms.PROPERTIES`) first for ``row_set="relative"``. ``mode`` overrides every
    constraint's cutoff mode (``"window"`` or ``"truncate"``). ``quick``
    uses :data:`axiometer.checking.QUICK` (unless ``budget`` is given)
    and small grids (:func:`parameter_grid`). ``grids`` overrides parameter
    grids (see :func:`parameter_grid`). ``jobs``: worker processes (default
    ``os.cpu_count()``; 1 runs everything here). ``progress(phase, done, total)``
    (:class:`~axiometer.core.ProgressCallback`) is called once the
    phase's total is known and after every task of it: ``"checking"``, the
    whole grid (every row x column x setting), counted before the first
    check runs; then ``"explaining"``, the follow-ups the verdicts ask for
    (a violated cell's explanation, and the other cutoff mode of a violated
    cell or of a witness found only by truncation), counted when the last
    check is done; with ``boundaries``, ``"locating boundaries"`` last. ``isolate``: check a metric author's metric (anything
    but a built-in) in supervised worker processes
    (:mod:`axiometer.runner.supervisor`), so that nothing it does can stop
    the run or reach its output; ``False`` checks it in this process (for a
    debugger), guarded only against exceptions, bad values and slowness.
    ``executor``: any :class:`concurrent.futures.Executor` to run the checks on
    instead of ``jobs`` local processes, e.g. a Dask cluster's
    (``distributed.Client(address).get_executor()``; docs/distributed.md). Every
    check is seeded by its cell, so the result is the same as the local pool's.

    Returns a :class:`~axiometer.results.TableResult`, cells in row-major
    order. On Ctrl-C it returns what finished, with ``interrupted=True`` and
    the other cells' verdict ``"not run"``.
    """
    if mode not in (None, "window", "truncate"):
        raise InputError(f"unknown mode {mode!r}; known: window, truncate")
    if row_set not in ROW_SETS:
        raise InputError(f"unknown row set {row_set!r}; known: {', '.join(ROW_SETS)}")
    budget = run_budget(quick, budget)
    rows = _resolve_rows(metrics, quick, grids, row_set, boundaries)
    if constraints is None and any(row.metric.needs.context for row in rows):
        row_set = "relative"  # a relative metric's own properties come with the ten constraints
    chosen = resolve_constraints(constraints, row_set)
    run = _Run(rows, chosen, seed=seed, budget=budget, mode=mode,
               jobs=max(1, jobs if jobs is not None else (os.cpu_count() or 1)), progress=progress,
               isolate=isolate, executor=executor)
    run.execute()
    cells = tuple(run.cell(r, c) for r in range(len(rows)) for c in range(len(chosen)))
    return TableResult(
        rows=tuple(row.title for row in rows), constraints=tuple(c.id for c in chosen), cells=cells,
        seed=seed, mode=mode or "default", budget=budget.describe(), interrupted=run.interrupted,
        settings=(("quick", quick), ("rho", str(Fraction(DEFAULT_RHO))),
                  ("explanations", "computed"),
                  *((("boundaries", "located"),) if any(row.spans for row in rows) else ())),
        axioms=tuple(c.info() for c in chosen), small_scope_budget=budget.small_scope)
