"""The table's and the checks' JSON data: result objects as dicts, each cell's mark and evidence lifted.

A table's data carries what each column means under ``"axioms"``: one entry
per column, in column order, with its id, name, plain meaning, formal
relation, conditions, source and the phrase its counterexample sentences use
(:class:`~axiometer.results.AxiomInfo`). JSON is data, not a document: the
JSON renderer (:mod:`axiometer.reports.render.json`) writes these dicts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from axiometer.reports.table.cells import by_truncation, cell_mark, parameter_dependent
from axiometer.reports.table.proofs import proved
from axiometer.results import AxiomInfo, Cell, Check, PublishedComparison, TableResult, record

__all__ = ["json_cell", "table_data", "check_data", "axiom_json"]


def json_cell(cell: Cell, data: dict[str, Any]) -> dict[str, Any]:
    """A cell's dict with the default setting's evidence lifted to the cell level (its ``evidence``
    with the proof, and ``unproved``: why a holding verdict is not proved), and ``proved``: the
    cell holds and its default setting is proved (the mark's ``ᵖ``)."""
    default = cell.default_check
    data = dict(data)
    data["params"] = dict(default.params) if default else {}
    data["mark"] = cell_mark(cell)
    data["parameter_dependent"] = parameter_dependent(cell)
    data["by_truncation"] = by_truncation(cell)
    data["proved"] = proved(cell)
    for key in ("counterexample", "witness", "error", "evidence", "unproved"):
        data[key] = data["checks"][cell.checks.index(default)][key] if default else None
    data.setdefault("explanation", cell.explanation)
    return data


def axiom_json(info: AxiomInfo) -> dict[str, Any]:
    """What one column means, as data."""
    return {"id": info.id, "name": info.name, "meaning": info.meaning, "relation": info.relation,
            "conditions": list(info.conditions), "source": info.source, "expectation": info.expectation}


def table_data(result: TableResult, comparison: PublishedComparison | None) -> dict[str, Any]:
    """The table: ``result.to_dict()`` with lifted cells, each column's meaning and, if given, the
    comparison."""
    data = result.to_dict()
    data["cells"] = [json_cell(cell, raw) for cell, raw in zip(result.cells, data["cells"])]
    data["axioms"] = [axiom_json(info) for info in result.axioms]
    if comparison is not None:
        compared = comparison.to_dict()
        for group in ("differences", "undecided", "not_compared"):
            for entry in compared[group]:
                entry.pop("cell")  # the cell is in "cells"; keep the comparison small
        data["comparison"] = compared
    return data


def check_data(entries: Sequence[Cell | Check]) -> list[dict[str, Any]]:
    """Cells and checks as a list (cells lifted as by :func:`json_cell`), written by
    :func:`~axiometer.results.record` as the table's JSON is: the typed restatements of a display
    text (a witness's ``threshold``, a counterexample's ``rc``) stay out."""
    return [json_cell(e, record(e)) if isinstance(e, Cell) else _check_dict(e) for e in entries]


def _check_dict(check: Check) -> dict[str, Any]:
    data: dict[str, Any] = record(check)
    data["params"] = dict(check.params)
    return data
