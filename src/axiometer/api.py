"""The one-call Python API: ``axiometer.check(metric)`` -> :class:`MetricReport`, and
``axiometer.agree(implementation, metric)`` -> :class:`AgreementResult`.

>>> import axiometer
>>> report = axiometer.check("RBP(p=0.5)", ["Pri", "CloseTh"], budget="quick")
>>> report.verdicts
{'Pri': <Verdict.SATISFIED: 'satisfied'>, 'CloseTh': <Verdict.VIOLATED: 'violated'>}
>>> report.verdicts == {"Pri": "satisfied", "CloseTh": "violated"}  # a Verdict is its string
True

One metric is checked against constraints (and, for a relative metric, its
properties) over its parameter grid by :func:`axiometer.runner.run_table`:
the same run as ``axiometer check REF`` and ``axiometer table``, so the
report's :meth:`MetricReport.to_dict` is that command's JSON. A violated
constraint raises nothing: violations are data. A metric that raises or
returns a non-number gives an ``error`` cell naming the input.

:func:`agree` is ``axiometer agree IMPL SPEC`` (differential testing: an
implementation of a metric against the built-in as the exact reference); its
result's :meth:`AgreementResult.to_dict` is that command's JSON. A
disagreement raises nothing either: it is the result.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from tabulate import tabulate

from axiometer.agreement.result import Agreement, AgreementResult
from axiometer.axioms import get
from axiometer.checking import Budget, run_budget
from axiometer.core import InputError
from axiometer.metrics.resolve import ParamValue, resolve
from axiometer.metrics import Needs
from axiometer.reports.table import cell_mark, format_check, format_table
from axiometer.results import HOLDS, Cell, TableResult, Verdict
from axiometer.runner import run_table
from axiometer.views import Rows, Tabular

__all__ = ["check", "MetricReport", "BUDGETS", "agree", "Agreement", "AgreementResult",
           "conventions_given"]

#: The named budgets ``check`` accepts (besides a :class:`~axiometer.checking.Budget`).
BUDGETS: Mapping[str, Budget] = {"default": run_budget(False), "quick": run_budget(True)}


class MetricReport(Tabular):
    """One metric's verdicts: a one-row :class:`~axiometer.results.TableResult` with accessors.

    ``table``: the result; ``metric``: the row's title (the spec as given, or
    the function's name); ``cells``: the row's cells in constraint order.
    Constraint ids are matched case-insensitively (``"pri"`` is ``Pri``).
    In a notebook it shows as its table does (the matrix, its legend, the
    verdict at each setting where it depends on the parameters), and
    :meth:`to_pandas` has one row per constraint x setting.
    """

    def __init__(self, table: TableResult) -> None:
        if len(table.rows) != 1:
            raise ValueError(f"a MetricReport holds one metric; the table has {len(table.rows)} rows")
        self.table = table
        self.metric: str = table.rows[0]
        self.cells: tuple[Cell, ...] = tuple(c for c in table.cells if c.row == self.metric)

    # -- verdicts ------------------------------------------------------------
    @property
    def verdicts(self) -> dict[str, Verdict]:
        """``{constraint id: verdict}`` at the metric's own setting, in column order (each a
        :class:`~axiometer.results.Verdict`, equal to its string: ``"satisfied"``)."""
        return {cell.constraint: cell.verdict for cell in self.cells}

    def cell(self, constraint: str) -> Cell:
        """The cell of ``constraint``; an :class:`~axiometer.core.InputError` if it was not checked."""
        wanted = _canonical(constraint)
        for cell in self.cells:
            if cell.constraint == wanted:
                return cell
        raise InputError(f"{constraint!r} was not checked (checked: {', '.join(self.verdicts)})",
                         source=f"report of {self.metric}")

    def holds(self, constraint: str) -> bool | None:
        """True if satisfied or witnessed, False if violated, None for error, n/a or not run."""
        return outcome(self.cell(constraint).verdict)

    def failures(self, expect: Mapping[str, bool], *, every_setting: bool = False) -> list[str]:
        """The ids in ``expect`` whose outcome differs (``{"Pri": True, "Conf": False}``).

        An error, n/a or not-run cell differs from either expectation. ``every_setting``: the
        outcome at every setting checked must match, not only at the metric's own (a grid value
        that violates a constraint fails ``True``).
        """
        return [self.cell(cid).constraint for cid, wanted in expect.items()
                if any(outcome is not bool(wanted) for outcome in self._outcomes(cid, every_setting))]

    def _outcomes(self, constraint: str, every_setting: bool) -> list[bool | None]:
        cell = self.cell(constraint)
        verdicts = [check.verdict for check in cell.checks] if every_setting and cell.checks else [cell.verdict]
        return [outcome(v) for v in verdicts]

    # -- text ----------------------------------------------------------------
    def details(self, ids: Sequence[str] | None = None) -> str:
        """The counterexamples, witnesses and errors (``axiometer check`` text) of ``ids`` (default all)."""
        cells = self.cells if ids is None else [self.cell(i) for i in ids]
        # What each constraint means, so every counterexample opens with its sentence.
        return format_check(list(cells), "text", axioms=self.table.axioms)

    def matrix(self) -> str:
        """The matrix row: the metric and one mark per constraint (see ``axiometer table``)."""
        return tabulate([[self.metric, *(cell_mark(c) for c in self.cells)]],
                        headers=["metric", *(c.constraint for c in self.cells)], tablefmt="simple",
                        disable_numparse=True, stralign="left") + "\n"

    def __str__(self) -> str:
        return self.matrix() + "\n" + self.details()

    def __repr__(self) -> str:
        """``MetricReport('RBP', {'Pri': 'satisfied', 'CloseTh': 'witness for p >= 0.8; violated for
        p = 0.5', ...})``: each cell's summary, which is its verdict unless that depends on the
        parameters, and then says how."""
        return f"MetricReport({self.metric!r}, {({c.constraint: c.summary or str(c.verdict) for c in self.cells})!r})"

    # -- data ----------------------------------------------------------------
    def to_json(self) -> str:
        """The JSON of ``axiometer table --format json`` (and ``axiometer check --format json``)."""
        return format_table(self.table, "json")

    def to_dict(self) -> dict[str, Any]:
        """:meth:`to_json`, parsed."""
        return json.loads(self.to_json())

    # -- notebooks -------------------------------------------------------------
    def to_rows(self) -> Rows:
        """One row per constraint x setting (:meth:`TableResult.to_rows <axiometer.results.TableResult.to_rows>`)."""
        return self.table.to_rows()

    def _repr_html_(self) -> str:
        """The table's notebook view: the matrix row, its legend, the verdict at each setting."""
        return self.table._repr_html_()


def outcome(verdict: Verdict) -> bool | None:
    """What a verdict says of a constraint: True if it holds (satisfied or witness), False if
    violated, None for error, n/a or not run (which meet neither expectation)."""
    if verdict in HOLDS:
        return True
    return False if verdict == Verdict.VIOLATED else None


def _canonical(constraint: str) -> str:
    try:
        return get(constraint).id
    except KeyError:
        return constraint


def _budget(budget: str | Budget) -> tuple[Budget | None, bool]:
    """The budget object given (``None``: the run decides, :func:`~axiometer.checking.run_budget`)
    and whether the run is quick (its budget and grids)."""
    if isinstance(budget, Budget):
        return budget, False
    if budget not in BUDGETS:
        raise InputError(f"unknown budget {budget!r}; give 'default', 'quick' or an "
                         "axiometer.checking.Budget")
    return None, budget == "quick"


def check(metric: Any, constraints: Sequence[str] | None = None, *,
          params: Mapping[str, ParamValue] | None = None, cutoff: int | None = None, name: str | None = None,
          needs: Needs | Mapping[str, bool] | None = None, budget: str | Budget = "default",
          seed: int = 0, jobs: int = 1, mode: str | None = None,
          boundaries: bool = False, isolate: bool = True,
          executor: concurrent.futures.Executor | None = None, proofs: bool = True) -> MetricReport:
    """Check one metric against constraints; violations are data, never exceptions.

    ``metric``: a built-in spec (``"nDCG@10"``), ``"pkg.module:attr"``,
    ``"ir_measures:nDCG@10"``, a metric object, or a plain function
    ``f(ranking, topic[, context][, **params]) -> float`` (see
    :mod:`axiometer.metrics.resolve`). ``params``: ``{"p": 0.5}`` fixes a value,
    ``{"p": [0.1, 0.5, 0.9]}`` is a grid, ``{"p": (0.5, 0.99)}`` a continuous
    range whose boundaries are located (``Cell.boundaries``: where a verdict
    changes, to 1e-6, with a closed form where sympy finds one);
    ``boundaries=True`` locates them over every numeric parameter's declared
    range; ``cutoff``, ``name`` and ``needs``
    as in :func:`axiometer.metrics.wrap`. ``constraints``: constraint and
    property ids (default: the ten constraints, with the relative properties
    for a relative metric). ``budget``: ``"default"``, ``"quick"`` (a small
    budget and small grids) or a :class:`~axiometer.checking.Budget`.
    ``seed``, ``jobs`` (1: one process at a time) and ``mode`` (``"window"`` or
    ``"truncate"``; default per constraint) as in ``axiometer table``.
    ``isolate``: a metric that is not a built-in is checked in supervised
    worker processes, so that ``sys.exit``, ``os._exit``, a crash, a hang,
    runaway memory or printing becomes an ``error`` cell naming the input
    and never reaches the caller (see docs/robustness.md); ``False`` checks
    it in this process, e.g. to step through it in a debugger. ``executor``: run
    the checks on a :class:`concurrent.futures.Executor` (a Dask cluster's, say:
    docs/distributed.md) instead of ``jobs`` local processes; same result.
    ``proofs``: a satisfied universal constraint is proved for every real relevance value over
    every case structure up to the budget's ``proof_docs`` documents (its evidence then reads
    ``proved``), or refuted by the values z3 finds; ``False`` keeps the search's verdicts
    (docs/proofs.md).

    Bad input (an unknown metric or constraint, an unimportable module) raises
    :class:`~axiometer.core.InputError`, one line.
    """
    resolved = resolve(metric, params=params, cutoff=cutoff, name=name, needs=needs)
    chosen, quick = _budget(budget)
    run = run_budget(quick, chosen)
    if not proofs:
        run = dataclasses.replace(run, proof_docs=0)
    result = run_table([resolved], constraints, seed=seed, budget=run, quick=quick, mode=mode,
                       jobs=jobs, boundaries=boundaries, isolate=isolate, executor=executor)
    return MetricReport(result)


def conventions_given(given: Mapping[str, str] | Sequence[str] | str | None) -> dict[str, str]:
    """:func:`agree`'s ``conventions`` (``{"ties": "input"}``, ``["ties=input"]`` or ``"ties=input"``)
    as ``{axis: value}``, checked: a bad axis or value raises one line naming what it accepts."""
    from axiometer.agreement.conventions import parse_conventions

    if given is None:
        return {}
    if isinstance(given, Mapping):
        items = [f"{axis}={value}" for axis, value in given.items()]
    elif isinstance(given, str):
        items = [given]
    else:
        items = list(given)
        if not all(isinstance(item, str) for item in items):
            raise InputError("conventions: give a dict {axis: value} or strings 'AXIS=VALUE', "
                             f"not {given!r}", source="agree")
    return parse_conventions(items, label="conventions")


def agree(implementation: Any, metric: Any, *, queries: int = 300, seed: int = 0,
          tolerance: float = 1e-9, conventions: Mapping[str, str] | Sequence[str] | None = None,
          form: str | None = None) -> AgreementResult:
    """Whether ``implementation`` computes the built-in ``metric``; a disagreement is the result.

    Compares the implementation with axiometer's exact ``metric`` on hand-written awkward
    queries and ``queries`` generated ones (seeded by ``seed``: the same queries every run),
    within ``tolerance``. The result's ``agree`` is :attr:`Agreement.AGREES`,
    :attr:`Agreement.AGREES_UNDER` a convention it names (``convention``: tie-breaking,
    float32 scores, gains, the value of a query with no relevant document, cutoffs; see
    docs/conventions.md), or :attr:`Agreement.DIFFERS` (a bug), with a minimal ``case``
    shrunk by hypothesis, and the ``properties`` every implementation must have;
    ``ok`` is true when it agrees (outright or under a convention) and every property holds.
    It is ``axiometer agree IMPL SPEC`` (docs/cli.md), and ``to_dict()`` that command's JSON.

    ``implementation``: a callable, per query ``fn(grades: dict[str, int], scores:
    dict[str, float]) -> float`` or batch ``fn(qrels, run) -> dict[str, float]``
    (pytrec_eval's shape; ``form``: ``"query"`` or ``"batch"``, default detected), or a
    string: ``"module:function"``, ``"pytrec_eval:MEASURE"``, ``"ir_measures:MEASURE"``,
    ``"ir_measures/PROVIDER:MEASURE"``, ``"ranx:METRIC"``. ``metric``: a built-in of one
    grade per document (``"nDCG@10"``, ``"AP"``, ``"RR"``, ``"P@5"``, ...).
    ``conventions``: axes to assume instead of searching them, as a mapping
    (``{"ties": "input"}``) or ``"AXIS=VALUE"`` strings (``["ties=input"]``, as
    ``--convention``); it then agrees outright only under those.

    Bad input (an unknown implementation or metric, a bad convention, ``queries < 1``)
    raises :class:`~axiometer.core.AxiometerError` with one line.
    """
    from axiometer.agreement.agree import agree as run_agree

    if not math.isfinite(tolerance):  # NaN would agree with nothing, silently
        raise InputError(f"the tolerance must be a finite number, 0 or more, not {tolerance!r}", source="agree")
    return run_agree(implementation, metric, queries=queries, seed=seed, tolerance=tolerance,
                     conventions=conventions_given(conventions) or None, form=form)
