"""Plain text and Markdown: the table (``axiometer table``) and one metric's verdicts (``axiometer check``).

Markdown is a variant of the text report rather than a module of its own:
both print the same sections in the same order, and differ only line by line
(a heading for a title, ``- `` for an indent, a fenced block for a cell's
evidence), so each such line says both forms side by side.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabulate import tabulate

from axiometer.reports.table.cells import (
    MARKS, cell_lines, cell_mark, check_lines, header_lines, legend_items, parameter_dependent,
)
from axiometer.reports.table.comparison import comparison_lines, differing
from axiometer.results import Cell, Check, Comparison, TableResult

__all__ = ["table_text", "check_text"]


def _matrix(result: TableResult, comparison: Comparison | None) -> list[list[str]]:
    differs = differing(comparison)
    rows = []
    for row in result.rows:
        marks = []
        for constraint in result.constraints:
            cell = result.cell(row, constraint)
            marks.append(cell_mark(cell, (row, constraint) in differs) if cell else "")
        rows.append([row, *marks])
    return rows


def table_text(result: TableResult, comparison: Comparison | None, markdown: bool) -> str:
    """The table as text (or Markdown): settings, the matrix, the legend, the comparison, then every cell."""
    out: list[str] = []
    title = "Constraint table"
    out.append(f"## {title}" if markdown else title)
    out.append("")
    out += [f"- {line}" if markdown else line for line in header_lines(result)]
    out.append("")
    out.append(tabulate(_matrix(result, comparison), headers=["metric", *result.constraints],
                        tablefmt="github" if markdown else "simple", disable_numparse=True,
                        stralign="left"))
    out.append("")
    out.append("Legend:" if not markdown else "**Legend**")
    if markdown:
        out.append("")
    for mark, meaning in legend_items(result, comparison):
        out.append(f"- `{mark}` {meaning}" if markdown else f"  {mark:<4} {meaning}")
    if comparison is not None:
        out.append("")
        out.append(f"### Comparison with {comparison.table}" if markdown else "")
        out += comparison_lines(comparison, markdown)
        if comparison.differences:
            out.append("")
            out.append("### Differing cells" if markdown else "Differing cells:")
            for d in comparison.differences:
                out += _block(cell_lines(d.cell), markdown)
    dependent = [c for c in result.cells if parameter_dependent(c)]
    if dependent:
        out.append("")
        out.append("### Parameter dependence" if markdown else "Parameter dependence:")
        if markdown:
            out.append("")
        for cell in dependent:
            out.append(f"{'- ' if markdown else '  '}{cell.row} × {cell.constraint}: {cell.summary}")
    out.append("")
    out.append("### Details" if markdown else "Details:")
    for cell in result.cells:
        out += _block(cell_lines(cell), markdown)
    return "\n".join(out).rstrip() + "\n"


def check_text(header: Sequence[str], entries: Sequence[Cell | Check], markdown: bool) -> str:
    """One metric's verdicts as text (or Markdown): ``header`` lines, a line per entry, then each in full."""
    out: list[str] = []
    if header:
        out += [f"- {line}" if markdown else line for line in header]
        out.append("")
    summary = []
    for entry in entries:
        if isinstance(entry, Cell):
            summary.append([entry.metric, entry.constraint, cell_mark(entry), entry.summary])
        else:
            summary.append([entry.metric, entry.constraint, MARKS.get(entry.verdict, entry.verdict),
                            entry.verdict])
    out.append(tabulate(summary, headers=["metric", "constraint", "mark", "verdict"],
                        tablefmt="github" if markdown else "simple", disable_numparse=True))
    for entry in entries:
        lines = cell_lines(entry) if isinstance(entry, Cell) else [
            f"{entry.metric} × {entry.constraint}: {entry.verdict}", *check_lines(entry, "  ")[1:]]
        out += _block(lines, markdown)
    return "\n".join(out).rstrip() + "\n"


def _block(lines: list[str], markdown: bool) -> list[str]:
    """A cell's lines as a block: after a blank line, or under a heading in a fenced block (Markdown)."""
    if markdown:
        return ["", f"#### {lines[0]}", "", "```", *lines[1:], "```"]
    return ["", *lines]
