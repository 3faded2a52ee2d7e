"""The constraint table: every metric x every constraint, over parameter grids.

:func:`run_table` regenerates the SIGIR 2018 table (Amigó, Spina &
Carrillo-de-Albornoz, section 4; definitions §3 and §7) for any metrics and
constraints. Each (metric setting, constraint) pair is one
:func:`axiometer.checking.check.check` call; the checks of one (row, constraint)
pair form a :class:`~axiometer.results.Cell` whose verdict is the one at the
metric's own setting and whose summary states how the verdict depends on the
parameters ("satisfied for p >= 0.8; violated for p = 0.5"), because
definitions §3 ("Parameters") requires the dependence to be visible.

Grids (:func:`parameter_grid`): the product of each parameter's
``Param.grid`` (the values the paper tested), plus the setting's own value,
plus :data:`TABLE_GRID_EXTRAS` (values that make the parameter facts
of definitions §3 visible). A parameter written in a spec string (``RBP(p=0.5)``) is fixed, as
is the cutoff. The table's default rows are specs the user did not type, so
their parameters all vary over the grid.

Execution: checks run in a process pool (each task carries the metric at its
setting, resolved once here; a metric or constraint that cannot be pickled
runs in this process). Every check's seed derives from the run's
seed, the metric's family and the constraint (:func:`axiometer.checking.cell_seed`;
all settings of one grid meet the same random cases), and
results are assembled in a fixed order, so the same seed gives the same
``TableResult.to_dict()`` whatever ``jobs`` is (as long as no check hits its
time budget, which the check's note then says). Ctrl-C stops the workers and
returns the cells finished so far, the others marked ``"not run"``.
"""

from __future__ import annotations

import importlib
import itertools
import multiprocessing
import os
import pickle
import queue
import signal
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from numbers import Real
from typing import Any

from axiometer.axioms import CONSTRAINTS, PROPERTIES, get
from axiometer.axioms.constraints.base import DEFAULT_RHO, Constraint
from axiometer.checking import QUICK, Budget, check
from axiometer.checking.explain import value_set_text
from axiometer.core import InputError
from axiometer.metrics import RELATIVE_ROWS, TABLE_ROWS
from axiometer.metrics.base import format_value
from axiometer.metrics.resolve import resolve
from axiometer.results import Cell, Check, ErrorInfo, TableResult

__all__ = ["run_table", "parameter_grid", "describe_grid", "resolve_constraints", "TABLE_GRID_EXTRAS",
           "OTHER_MODE"]

#: Values added to the paper's grids so that definitions §3's parameter facts
#: show in the table: CloseTh holds for RBP at p = 0.8 but not at p = 0.5 (also
#: RBP-IA and RBU, which share RBP's persistence), and NRBP's default patience
#: is ndeval's beta = 0.5, outside the paper's grid.
TABLE_GRID_EXTRAS: Mapping[tuple[str, str], tuple[Any, ...]] = {
    ("RBP", "p"): (0.5,),
    ("RBP_IA", "p"): (0.5,),
    ("RBU", "p"): (0.5,),
    ("NRBP", "beta"): (0.5,),
}

#: The other cutoff mode, computed for violated cells.
OTHER_MODE = {"window": "truncate", "truncate": "window"}

#: Verdicts in the order summaries list them: what holds first.
_VERDICT_ORDER = ("satisfied", "witness", "violated", "error", "n/a", "not run")

#: ``progress(done, total)``, called after every task.
ProgressCallback = Callable[[int, int], None]


# -- parameter grids -----------------------------------------------------------

def _family(metric: Any) -> str:
    """A metric's name without its ``(params)@k`` suffix (its family)."""
    return getattr(metric, "family", None) or getattr(metric, "name", type(metric).__name__)


def _sorted_values(values: Iterable[Any]) -> tuple[Any, ...]:
    """Distinct values, numbers ascending; other values (strings) in the given order."""
    distinct: list[Any] = []
    for value in values:
        if value not in distinct:
            distinct.append(value)
    if all(isinstance(v, Real) and not isinstance(v, bool) for v in distinct):
        distinct.sort()
    return tuple(distinct)


def parameter_grid(metric: Any, fixed: Iterable[str] = (), *, quick: bool = False,
                   grids: Mapping[str, Sequence[Any]] | None = None) -> tuple[dict[str, Any], ...]:
    """The parameter settings a table checks ``metric`` at; the metric's own setting first.

    Each parameter takes its ``Param.grid`` (the paper's tested values,
    definitions §2) plus :data:`TABLE_GRID_EXTRAS` plus the metric's own
    value; ``grids`` overrides a grid by parameter name (``"p"``) or by
    family and name (``"RBP.p"``). Parameters in ``fixed`` (written in the
    user's spec string) keep their value; a parameter without a grid (RBU's
    ``form``) too. The settings are the product of the grids; with
    ``quick``, only the metric's own setting and, one parameter at a time,
    that parameter's smallest and largest value.
    """
    family = _family(metric)
    current = dict(getattr(metric, "params", {}))
    fixed = set(fixed)
    axes: list[tuple[str, tuple[Any, ...]]] = []
    for param in getattr(metric, "param_info", ()):
        value = current[param.name]
        if param.name in fixed:
            axes.append((param.name, (value,)))
            continue
        chosen = None
        if grids:
            chosen = grids.get(f"{family}.{param.name}", grids.get(param.name))
        if chosen is None:
            chosen = tuple(param.grid) + TABLE_GRID_EXTRAS.get((family, param.name), ())
        axes.append((param.name, _sorted_values((*chosen, value))))
    settings: list[dict[str, Any]] = [current]
    if quick:
        for name, values in axes:
            for extreme in (values[0], values[-1]):
                settings.append({**current, name: extreme})
    else:
        names = [name for name, _ in axes]
        for combination in itertools.product(*(values for _, values in axes)):
            settings.append({**current, **dict(zip(names, combination))})
    unique: list[dict[str, Any]] = []
    for setting in settings:
        if setting not in unique:
            unique.append(setting)
    return tuple(unique)


def _at_setting(metric: Any, setting: Mapping[str, Any]) -> Any:
    """``metric`` with its parameters set to ``setting``."""
    if dict(getattr(metric, "params", {})) == dict(setting):
        return metric
    if hasattr(metric, "replace"):
        return metric.replace(**setting)
    raise InputError(f"cannot set the parameters of {metric!r}: it has no replace()")


# -- summaries of parameter dependence ---------------------------------------------

def _verdict_key(verdict: str) -> int:
    return _VERDICT_ORDER.index(verdict) if verdict in _VERDICT_ORDER else len(_VERDICT_ORDER)


def describe_grid(outcomes: Sequence[tuple[Mapping[str, Any], str]]) -> str:
    """How a cell's verdict depends on the parameters, in words.

    ``outcomes`` are ``(setting, verdict)`` pairs. Uniform: the verdict
    (``"satisfied"``). If one parameter decides the verdict:
    ``"satisfied for p >= 0.8; violated for p = 0.5"``. Otherwise the
    majority verdict comes last, as "otherwise", after the other verdicts'
    settings, grouped compactly: ``"violated for alpha >= 0.5 with beta =
    0.5; satisfied otherwise"``.
    """
    verdicts = sorted({v for _, v in outcomes}, key=_verdict_key)
    if len(verdicts) <= 1:
        return verdicts[0] if verdicts else "not run"
    names = [n for n in outcomes[0][0] if len({repr(s[n]) for s, _ in outcomes}) > 1]
    values = {n: _sorted_values(s[n] for s, _ in outcomes) for n in names}
    # One parameter decides: every setting with the same value has the same verdict.
    for name in names:
        by_value: dict[Any, set[str]] = {}
        for setting, verdict in outcomes:
            by_value.setdefault(setting[name], set()).add(verdict)
        if all(len(v) == 1 for v in by_value.values()):
            parts = []
            for verdict in verdicts:
                chosen = [x for x in values[name] if by_value[x] == {verdict}]
                parts.append(f"{verdict} for {value_set_text(name, values[name], chosen)}")
            return "; ".join(parts)
    counts = {v: sum(1 for _, w in outcomes if w == v) for v in verdicts}
    majority = max(verdicts, key=lambda v: (counts[v], -_verdict_key(v)))
    parts = []
    for verdict in verdicts:
        if verdict == majority:
            continue
        settings = [s for s, v in outcomes if v == verdict]
        parts.append(f"{verdict} for {_settings_text(settings, names, values)}")
    return "; ".join(parts) + f"; {majority} otherwise"


def _settings_text(settings: Sequence[Mapping[str, Any]], names: Sequence[str],
                   values: Mapping[str, Sequence[Any]]) -> str:
    """Some settings of two or more varying parameters, compactly."""
    if len(names) != 2:
        return ", ".join("(" + ", ".join(f"{n}={format_value(s[n])}" for n in names) + ")"
                         for s in settings)
    candidates = []
    for first, second in (names, names[::-1]):
        groups: dict[tuple[Any, ...], list[Any]] = {}
        for x in values[first]:
            seconds = tuple(s[second] for s in settings if s[first] == x)
            if seconds:
                groups.setdefault(seconds, []).append(x)
        pieces = [f"{value_set_text(first, values[first], xs)} with "
                  f"{value_set_text(second, values[second], list(ys))}"
                  for ys, xs in groups.items()]
        candidates.append(", ".join(pieces))
    return min(candidates, key=len)


# -- rows and tasks ------------------------------------------------------------------

@dataclass
class _Row:
    title: str
    metric: Any                              # at its own (default) setting
    settings: tuple[dict[str, Any], ...]
    metrics: tuple[Any, ...]                 # the metric at each setting: what the tasks carry
    picklable: bool


#: The row sets of :func:`run_table`: the SIGIR 2018 table and the relative metrics' matrix.
ROW_SETS: Mapping[str, tuple[tuple[str, str], ...]] = {"sigir2018": TABLE_ROWS, "relative": RELATIVE_ROWS}


def _resolve_rows(metrics: Sequence[Any] | None, quick: bool,
                  grids: Mapping[str, Sequence[Any]] | None, family: str = "sigir2018") -> list[_Row]:
    if metrics is None:
        # The table's own rows: the user typed no parameter, so all vary.
        given = [replace(resolve(spec), name=title, fixed=frozenset()) for title, spec in ROW_SETS[family]]
    else:
        given = [resolve(ref) for ref in metrics]
        # A metric object's row is named by its family ("signed", "RBP"), or by its
        # full name when two objects share a family.
        shared = Counter(r.name for r in given if r.spec is None)
        given = [r if r.spec is not None or shared[r.name] == 1 else replace(r, name=r.metric.name)
                 for r in given]
    rows: list[_Row] = []
    seen: set[str] = set()
    for resolved in given:
        if resolved.name in seen:
            raise InputError(f"metric {resolved.name!r} is given twice")
        seen.add(resolved.name)
        chosen = {**(grids or {}), **(resolved.grids or {})}
        settings = parameter_grid(resolved.metric, resolved.fixed, quick=quick, grids=chosen)
        at_settings = tuple(_at_setting(resolved.metric, s) for s in settings)
        rows.append(_Row(resolved.name, resolved.metric, settings, at_settings, _picklable(at_settings)))
    return rows


def _picklable(value: Any) -> bool:
    try:
        pickle.dumps(value)
    except Exception:  # any pickling failure means "run it here"
        return False
    return True


def default_columns(family: str = "sigir2018") -> tuple[Any, ...]:
    """The columns of a row set: the ten constraints; for ``relative``, the relative properties first."""
    if family == "relative":
        return (*PROPERTIES, *CONSTRAINTS)
    return CONSTRAINTS


def resolve_constraints(constraints: Sequence[Any] | None, family: str = "sigir2018") -> tuple[Any, ...]:
    """Constraint (or property) objects from ids (case-insensitive) or objects; :func:`default_columns` by default."""
    if constraints is None:
        return default_columns(family)
    resolved = []
    for given in constraints:
        if not isinstance(given, str):
            resolved.append(given)
            continue
        try:
            resolved.append(get(given))
        except KeyError:
            known = ", ".join(c.id for c in (*CONSTRAINTS, *PROPERTIES))
            raise InputError(f"unknown constraint {given!r}; known: {known}") from None
    ids = [c.id for c in resolved]
    duplicated = next((i for i in ids if ids.count(i) > 1), None)
    if duplicated:
        raise InputError(f"constraint {duplicated!r} is given twice")
    return tuple(resolved)


@dataclass(frozen=True)
class _Task:
    """One unit of work. ``kind``: ``check`` (a grid setting), ``other`` (the other mode), ``explain``."""

    kind: str
    row: int
    column: int
    setting: int
    metric: Any                 # the metric at the task's setting
    constraint: Any             # a constraint id, or the object when it is not registered
    mode: str | None
    budget: Budget
    seed: int
    check: Check | None = None
    grid_checks: tuple[Check, ...] = ()


class _Interrupted:
    """What a task returns when a KeyboardInterrupt reached it (survives pickling, unlike a sentinel)."""


def _constraint(task: _Task) -> Constraint:
    return get(task.constraint) if isinstance(task.constraint, str) else task.constraint


def _explainer() -> Callable[..., str | None] | None:
    """``axiometer.checking.explain.explain`` if that module exists yet."""
    try:
        module = importlib.import_module("axiometer.checking.explain")
    except ModuleNotFoundError as error:
        if error.name == "axiometer.checking.explain":
            return None
        raise
    return getattr(module, "explain", None)


def _run_task(task: _Task) -> Any:
    """Run one task; never raises (an unexpected error becomes an error check)."""
    try:
        metric, constraint = task.metric, _constraint(task)
        if task.kind == "explain":
            explain = _explainer()
            if explain is None:
                return None
            return explain(metric, constraint, task.check, budget=task.budget, seed=task.seed,
                           grid_checks=task.grid_checks)
        return check(metric, constraint, mode=task.mode, budget=task.budget, seed=task.seed)
    except KeyboardInterrupt:
        return _Interrupted()
    except Exception as error:  # a bug outside the metric's evaluation: show it in the table
        if task.kind == "explain":
            return f"(no explanation: {type(error).__name__}: {error})"
        name = getattr(task.metric, "name", None) or repr(task.metric)
        constraint_id = task.constraint if isinstance(task.constraint, str) else task.constraint.id
        return Check(constraint=constraint_id, metric=str(name), params=(), verdict="error",
                     mode=task.mode or "", error=ErrorInfo(f"{type(error).__name__}: {error}"),
                     note="raised outside the metric's evaluation")


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# -- the run ------------------------------------------------------------------------

@dataclass
class _CellState:
    checks: dict[int, Check] = field(default_factory=dict)
    other_mode: str | None = None
    explanation: str | None = None
    waiting: int = 0              # phase-2 tasks outstanding


class _Run:
    """Schedules tasks (pool or in-process) and collects their results in fixed slots."""

    def __init__(self, rows: list[_Row], constraints: tuple[Constraint, ...], *, seed: int,
                 budget: Budget, mode: str | None, jobs: int, progress: ProgressCallback | None) -> None:
        self.rows, self.constraints = rows, constraints
        self.seed, self.budget, self.mode, self.jobs, self.progress = seed, budget, mode, jobs, progress
        self.cells = {(r, c): _CellState() for r in range(len(rows)) for c in range(len(constraints))}
        self.registered = [_registered(c) is c for c in constraints]
        self.local: list[_Task] = []
        self.results: queue.Queue = queue.Queue()
        self.outstanding = 0
        self.done = 0
        self.total = 0
        self.pool: Any = None
        self.interrupted = False
        self.explain_available = _explainer() is not None

    # where a task runs
    def _remote(self, row: int, column: int) -> bool:
        return self.pool is not None and self.rows[row].picklable and self.registered[column]

    def _metric_ref(self, row: int, setting: int) -> Any:
        return self.rows[row].metrics[setting]

    def _constraint_ref(self, column: int) -> Any:
        constraint = self.constraints[column]
        return constraint.id if self.registered[column] else constraint

    def submit(self, task: _Task) -> None:
        self.outstanding += 1
        self.total += 1
        if self._remote(task.row, task.column):
            self.pool.apply_async(_run_task, (task,),
                                  callback=lambda result, t=task: self.results.put((t, result)),
                                  error_callback=lambda error, t=task: self.results.put((t, error)))
        else:
            self.local.append(task)

    def initial_tasks(self) -> list[_Task]:
        tasks = []
        for r, row in enumerate(self.rows):
            for c in range(len(self.constraints)):
                for s in range(len(row.settings)):
                    tasks.append(_Task("check", r, c, s, self._metric_ref(r, s), self._constraint_ref(c),
                                       self.mode, self.budget, self.seed))
        return tasks

    def handle(self, task: _Task, result: Any) -> None:
        self.outstanding -= 1
        self.done += 1
        if isinstance(result, BaseException):
            raise result
        if isinstance(result, _Interrupted):
            raise KeyboardInterrupt
        state = self.cells[task.row, task.column]
        if task.kind == "check":
            state.checks[task.setting] = result
            if len(state.checks) == len(self.rows[task.row].settings):
                self._phase_two(task.row, task.column, state)
        elif task.kind == "other":
            state.other_mode = result.verdict
            state.waiting -= 1
        else:
            state.explanation = result
            state.waiting -= 1
        if self.progress is not None:
            self.progress(self.done, self.total)

    def _phase_two(self, row: int, column: int, state: _CellState) -> None:
        """A violated cell: the verdict in the other cutoff mode, and an explanation.

        A witness reached only by truncation also gets the other mode's verdict,
        since that is exactly what the truncation flag is about."""
        if not isinstance(self.constraints[column], Constraint):
            return  # a relative property has no cutoff modes and no nearby readings
        default = state.checks[0]
        truncated = default.verdict == "witness" and default.witness is not None and default.witness.by_truncation
        if default.verdict != "violated" and not truncated:
            return
        other = OTHER_MODE.get(default.mode)
        base = dict(row=row, column=column, setting=0, metric=self._metric_ref(row, 0),
                    constraint=self._constraint_ref(column), budget=self.budget, seed=self.seed)
        if other is not None:
            state.waiting += 1
            self.submit(_Task("other", mode=other, **base))
        if self.explain_available and default.verdict == "violated":
            state.waiting += 1
            grid = tuple(state.checks[s] for s in sorted(state.checks))
            self.submit(_Task("explain", mode=default.mode, check=default, grid_checks=grid, **base))

    def execute(self) -> None:
        tasks = self.initial_tasks()
        remote = sum(1 for t in tasks if self.rows[t.row].picklable and self.registered[t.column])
        workers = min(self.jobs, remote)
        try:
            if workers > 1:
                with multiprocessing.Pool(workers, initializer=_ignore_sigint) as pool:
                    self.pool = pool
                    try:
                        self._loop(tasks)
                    finally:
                        self.pool = None
                        pool.terminate()  # stops workers still busy after an interruption
            else:
                self._loop(tasks)
        except KeyboardInterrupt:
            self.interrupted = True

    def _loop(self, tasks: list[_Task]) -> None:
        for task in tasks:
            self.submit(task)
        while self.outstanding:
            if self.local:
                task = self.local.pop(0)
                self.handle(task, _run_task(task))
                continue
            try:
                task, result = self.results.get(timeout=0.2)
            except queue.Empty:
                continue
            self.handle(task, result)

    # assembling
    def cell(self, row: int, column: int) -> Cell:
        spec_row, constraint = self.rows[row], self.constraints[column]
        state = self.cells[row, column]
        checks = tuple(state.checks[s] for s in sorted(state.checks))
        projected = constraint.family == "diversity" and not _needs_aspects(spec_row.metric)
        total = len(spec_row.settings)
        if len(checks) < total:
            summary = "not run" if not checks else f"not run (interrupted after {len(checks)} of {total} settings)"
            return Cell(row=spec_row.title, metric=spec_row.metric.name, constraint=constraint.id,
                        verdict="not run", summary=summary, checks=checks, projected=projected)
        outcomes = [(spec_row.settings[s], state.checks[s].verdict) for s in sorted(state.checks)]
        return Cell(row=spec_row.title, metric=spec_row.metric.name, constraint=constraint.id,
                    verdict=state.checks[0].verdict, summary=describe_grid(outcomes), checks=checks,
                    projected=projected, explanation=state.explanation, other_mode=state.other_mode)


def _registered(constraint: Constraint) -> Constraint | None:
    """The registered constraint with ``constraint``'s id, if any (so workers can look it up)."""
    try:
        return get(constraint.id)
    except KeyError:
        return None


def _needs_context(metric: Any) -> bool:
    needs = getattr(metric, "needs", None)
    return bool(needs is not None and needs.context)


def _needs_aspects(metric: Any) -> bool:
    needs = getattr(metric, "needs", None)
    return bool(needs is not None and needs.aspects)


def run_table(metrics: Sequence[Any] | None = None, constraints: Sequence[Any] | None = None, *,
              family: str = "sigir2018", seed: int = 0, budget: Budget = Budget(), quick: bool = False, mode: str | None = None,
              grids: Mapping[str, Sequence[Any]] | None = None, jobs: int | None = None,
              progress: ProgressCallback | None = None) -> TableResult:
    """Check every metric against every constraint over its parameter grid.

    ``metrics``: metric references, each resolved by
    :func:`axiometer.metrics.resolve.resolve` (spec strings, ``"RBP(p=0.5)"``:
    parameters written in the spec are fixed; ``"module:attr"``;
    ``"ir_measures:MEASURE"``; metric objects and functions; or
    :class:`~axiometer.metrics.resolve.Resolved` objects, whose grids join
    ``grids``); default
    the rows of ``family``: ``"sigir2018"``, the 20 rows of the SIGIR 2018
    table (:data:`axiometer.metrics.TABLE_ROWS`), or ``"relative"``, the
    relative metrics (:data:`axiometer.metrics.RELATIVE_ROWS`).
    ``constraints``: ids or :class:`Constraint`/``Property`` objects; default
    all of :data:`axiometer.axioms.CONSTRAINTS`, with the relative properties
    (:data:`axiometer.axioms.PROPERTIES`) first for ``family="relative"``. ``mode`` overrides every
    constraint's cutoff mode (``"window"`` or ``"truncate"``). ``quick``
    uses :data:`axiometer.checking.QUICK` (unless ``budget`` is given)
    and small grids (:func:`parameter_grid`). ``grids`` overrides parameter
    grids (see :func:`parameter_grid`). ``jobs``: worker processes (default
    ``os.cpu_count()``; 1 runs everything here). ``progress(done, total)`` is
    called after every task.

    Returns a :class:`~axiometer.results.TableResult`, cells in row-major
    order. On Ctrl-C it returns what finished, with ``interrupted=True`` and
    the other cells' verdict ``"not run"``.
    """
    if mode not in (None, "window", "truncate"):
        raise InputError(f"unknown mode {mode!r}; known: window, truncate")
    if family not in ROW_SETS:
        raise InputError(f"unknown family {family!r}; known: {', '.join(ROW_SETS)}")
    if quick and budget == Budget():
        budget = QUICK
    rows = _resolve_rows(metrics, quick, grids, family)
    if constraints is None and any(_needs_context(row.metric) for row in rows):
        family = "relative"  # a relative metric's own properties come with the ten constraints
    chosen = resolve_constraints(constraints, family)
    run = _Run(rows, chosen, seed=seed, budget=budget, mode=mode,
               jobs=max(1, jobs if jobs is not None else (os.cpu_count() or 1)), progress=progress)
    run.execute()
    cells = tuple(run.cell(r, c) for r in range(len(rows)) for c in range(len(chosen)))
    return TableResult(
        rows=tuple(row.title for row in rows), constraints=tuple(c.id for c in chosen), cells=cells,
        seed=seed, mode=mode or "default", budget=budget.describe(), interrupted=run.interrupted,
        settings=(("quick", quick), ("rho", str(Fraction(DEFAULT_RHO))),
                  ("explanations", "computed" if run.explain_available else "not available")))
