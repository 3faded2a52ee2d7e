"""The agreement with a published table (``--compare``): which cells differ, and why they may.

:func:`differing` marks the cells that differ (the ``≠`` flag in each
format's matrix) and :func:`left_open` the cells the paper leaves open (``?``
in the text matrix); :func:`difference_reasons` says what may account for a
differing cell (the document states the agreement:
:mod:`axiometer.reports.table.build`).

The bundled marks are not printed in the paper as such: definitions §7
reconstructs them from its prose, and every report says so.
"""

from __future__ import annotations

from axiometer.reports.table.cells import by_truncation, other_mode_name, parameter_dependent
from axiometer.reports.table.proofs import proof_note, proved
from axiometer.results import HOLDS, Cell, NearbyReading, PublishedComparison

__all__ = ["differing", "left_open", "difference_reasons", "PROVENANCE"]

#: Where the published marks come from, said wherever they are compared.
PROVENANCE = "marks reconstructed from the paper's prose"


def differing(comparison: PublishedComparison | None) -> set[tuple[str, str]]:
    """The ``(row, constraint)`` of every cell that differs from the published table."""
    if comparison is None:
        return set()
    return {(d.row, d.constraint) for d in comparison.differences}


def left_open(comparison: PublishedComparison | None) -> set[tuple[str, str]]:
    """The ``(row, constraint)`` of every cell the published table leaves open (``?``)."""
    if comparison is None:
        return set()
    return {(d.row, d.constraint) for d in comparison.undecided}


#: The nearby readings that only name parameter values (``holds for alpha = 0.1``).
_PARAMETER_READINGS = frozenset({NearbyReading.PARAMETERS})


def _restates_parameters(cell: Cell) -> bool:
    """Whether the explanation only names parameter values (``holds for alpha = 0.1``), which the
    parameter summary already says."""
    return parameter_dependent(cell) and cell.reading in _PARAMETER_READINGS


def difference_reasons(cell: Cell) -> list[str]:
    """What may account for a difference, shortest first: projection, truncation, the parameter
    summary, the other cutoff mode (when its verdict differs), the nearby reading that holds;
    for a cell that holds with nothing qualifying it, its evidence."""
    reasons = []
    if cell.projected:
        reasons.append("projected (the paper counts aspect-blind metrics as failing these)")
    if by_truncation(cell):
        reasons.append("by truncation (the witness has documents past the cutoff)")
    if parameter_dependent(cell):
        reasons.append(cell.summary)
    if cell.other_mode is not None and (cell.other_mode in HOLDS) != (cell.verdict in HOLDS):
        reasons.append(f"{cell.other_mode} in {other_mode_name(cell)} mode")
    if cell.explanation and not _restates_parameters(cell):
        reasons.append(cell.explanation)
    check = cell.default_check
    if not reasons and check is not None and check.holds:
        # Nothing qualifies the verdict: the evidence itself is the explanation.
        if check.witness is not None:
            reasons.append(f"holds with witness {check.witness.value}, within the cutoff")
        elif proved(cell):
            reasons.append(proof_note(cell))
        else:
            reasons.append(f"no counterexample in {check.cases} generated + {check.small_scope} "
                           "small-scope cases")
    return reasons
