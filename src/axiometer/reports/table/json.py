"""JSON: the table's or the checks' result objects as data, with each cell's mark and evidence lifted.

A table's JSON carries what each column means under ``"axioms"``: one entry
per column, in column order, with its id, name, plain meaning, formal
relation, conditions, source and the phrase its counterexample sentences use
(:class:`~axiometer.results.AxiomInfo`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict
from fractions import Fraction
from typing import Any

from axiometer.reports.table.cells import by_truncation, cell_mark, parameter_dependent
from axiometer.results import AxiomInfo, Cell, Check, PublishedComparison, TableResult

__all__ = ["json_cell", "table_json", "check_json", "axiom_json"]


def _finite(value: Any) -> Any:
    """``value`` with every nan/inf float replaced by ``None``: JSON has no NaN (an undefined score)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _dumps(data: Any) -> str:
    return json.dumps(_finite(data), indent=2, ensure_ascii=False, default=_json_default,
                      allow_nan=False) + "\n"


def _json_default(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def json_cell(cell: Cell, data: dict[str, Any]) -> dict[str, Any]:
    """A cell's dict with the default setting's evidence lifted to the cell level."""
    default = cell.default_check
    data = dict(data)
    data["params"] = dict(default.params) if default else {}
    data["mark"] = cell_mark(cell)
    data["parameter_dependent"] = parameter_dependent(cell)
    data["by_truncation"] = by_truncation(cell)
    for key in ("counterexample", "witness", "error", "evidence"):
        data[key] = data["checks"][cell.checks.index(default)][key] if default else None
    data.setdefault("explanation", cell.explanation)
    return data


def axiom_json(info: AxiomInfo) -> dict[str, Any]:
    """What one column means, as data."""
    return {"id": info.id, "name": info.name, "meaning": info.meaning, "relation": info.relation,
            "conditions": list(info.conditions), "source": info.source, "expectation": info.expectation}


def table_json(result: TableResult, comparison: PublishedComparison | None) -> str:
    """The table as JSON: ``result.to_dict()`` with lifted cells, each column's meaning and, if given,
    the comparison."""
    data = result.to_dict()
    data["cells"] = [json_cell(cell, raw) for cell, raw in zip(result.cells, data["cells"])]
    data["axioms"] = [axiom_json(info) for info in result.axioms]
    if comparison is not None:
        compared = comparison.to_dict()
        for group in ("differences", "undecided", "not_compared"):
            for entry in compared[group]:
                entry.pop("cell")  # the cell is in "cells"; keep the comparison small
        data["comparison"] = compared
    return _dumps(data)


def check_json(entries: Sequence[Cell | Check]) -> str:
    """Cells and checks as a JSON list (cells lifted as by :func:`json_cell`)."""
    data = [json_cell(e, _cell_dict(e)) if isinstance(e, Cell) else _check_dict(e) for e in entries]
    return _dumps(data)


def _check_dict(check: Check) -> dict[str, Any]:
    data = asdict(check)
    data["params"] = dict(check.params)
    return data


def _cell_dict(cell: Cell) -> dict[str, Any]:
    return asdict(cell)
