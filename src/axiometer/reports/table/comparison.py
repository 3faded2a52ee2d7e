"""The agreement with a published table (``--compare``), as every format states it.

:func:`differing` marks the cells that differ (the ``≠`` flag in each
format's matrix); :func:`comparison_lines` is the agreement, each differing
cell with what may account for it, and the cells left out of the count.
"""

from __future__ import annotations

from axiometer.reports.table.cells import by_truncation, other_mode_name, parameter_dependent
from axiometer.results import Cell, Comparison

__all__ = ["differing", "comparison_lines"]


def differing(comparison: Comparison | None) -> set[tuple[str, str]]:
    """The ``(row, constraint)`` of every cell that differs from the published table."""
    if comparison is None:
        return set()
    return {(d.row, d.constraint) for d in comparison.differences}


def comparison_lines(comparison: Comparison, markdown: bool) -> list[str]:
    """The agreement and every differing, undecided, uncompared or unmatched cell (Markdown bullets)."""
    lines = [f"Agreement with {comparison.table}: {comparison.agree} of {comparison.total} decided cells "
             f"({100 * comparison.rate:.1f}%); ours holds = satisfied or witness."]
    if comparison.differences:
        lines.append(f"{len(comparison.differences)} cells differ (published mark -> our verdict):")
        for d in comparison.differences:
            lines.append(f"{'- ' if markdown else '  '}{d.row} × {d.constraint}: published {d.published}, "
                         f"ours {d.ours}" + _difference_reason(d.cell))
    if comparison.undecided:
        lines.append(f"{len(comparison.undecided)} cells the paper leaves open (?), not counted: "
                     + ", ".join(f"{d.row} × {d.constraint} = {d.ours}" for d in comparison.undecided))
    if comparison.not_compared:
        lines.append("not compared (error or not run): "
                     + ", ".join(f"{d.row} × {d.constraint} = {d.ours}" for d in comparison.not_compared))
    if comparison.unmatched:
        lines.append("rows without a published row: " + ", ".join(comparison.unmatched))
    return lines


def _difference_reason(cell: Cell) -> str:
    """What may account for a difference: projection, truncation, parameters, the other mode, a reading."""
    reasons = []
    if cell.projected:
        reasons.append("projected (computed on r(d) = max_t r(d,t); the paper counts aspect-blind "
                       "metrics as not satisfying diversity constraints)")
    if by_truncation(cell):
        reasons.append("by truncation (the witness has documents past the cutoff)")
    if parameter_dependent(cell):
        reasons.append(f"parameters: {cell.summary}")
    if cell.other_mode is not None:
        reasons.append(f"in {other_mode_name(cell)} mode: {cell.other_mode}")
    if cell.explanation:
        reasons.append(f"explanation: {cell.explanation}")
    check = cell.default_check
    if not reasons and check is not None and check.holds:
        # Nothing qualifies the verdict: the evidence itself is the explanation.
        if check.witness is not None:
            reasons.append(f"holds with witness {check.witness.value}, within the cutoff")
        else:
            reasons.append(f"no counterexample in {check.cases} generated + {check.small_scope} "
                           "small-scope cases")
    return f" — {'; '.join(reasons)}" if reasons else ""
