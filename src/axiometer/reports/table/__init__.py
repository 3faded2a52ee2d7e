"""Reports of a constraint table (:class:`~axiometer.results.TableResult`).

- :func:`format_table`: ``text`` (matrix first: the settings, the matrix of
  marks, the legend of marks and columns, with a comparison the agreement
  and one line per differing cell; with ``details``, then every
  parameter-dependent cell's summary and every counterexample, witness,
  error and explanation), ``markdown`` (the same), ``latex`` (a booktabs
  table a paper can ``\\input``), ``html`` (a standalone page) and ``json``;
  with a :class:`~axiometer.results.PublishedComparison`, also the agreement with the
  published table and what may account for every differing cell.
- :func:`format_check`: one metric's verdicts (``axiometer check``): a line
  per constraint, the legend and, with ``details``, each counterexample in
  full: a sentence that instantiates the constraint, the topic's relevance
  table, rankings ``a`` and ``b``, both scores and the relation that fails.

Marks (:data:`MARKS`, :data:`FLAGS`): ``✓`` satisfied, ``✗`` violated, ``W``
witness, ``E`` error, ``n/a``, ``–`` not run; suffixes ``ᵖ`` (proved: the
cell holds, and its default setting is proved for every real relevance
value over the scope its details state), ``~`` (the verdict
depends on the parameters; the mark is the default setting's), ``†``
(projected: an aspect-blind metric on a diversity constraint), ``ᵗ`` (the
witness exists only by truncation at the cutoff) and ``≠`` (differs from the
published table); in the text matrix also ``?`` (the published table leaves
the cell open).

One document per report (:mod:`axiometer.reports.document`), which the renderers of
:mod:`axiometer.reports.render` write in every format:

- :mod:`~axiometer.reports.table.cells`: marks, flags, the legend, the run's
  settings and each cell's evidence as lines, which every format shares;
- :mod:`~axiometer.reports.table.proofs`: whether a check or a cell is proved, what its proof
  covers and why a holding verdict is not proved, read from the data;
- :mod:`~axiometer.reports.table.comparison`: the agreement with a published table;
- :mod:`~axiometer.reports.table.build`: the document of ``table`` and of ``check``;
- :mod:`~axiometer.reports.table.page` and :mod:`~axiometer.reports.table.drawn`: the
  parts only the HTML page shows (the evidence drawn, the published table beside ours);
- :mod:`~axiometer.reports.table.data`: the JSON data.

Reports only format result objects; they never run a check.
"""

from __future__ import annotations

from collections.abc import Sequence

from axiometer.reports.numbers import DEFAULT_WIDTH
from axiometer.reports.render import check_format, formats_of, render
from axiometer.reports.render.latex import escape as latex_escape
from axiometer.reports.table.build import check_document, table_document
from axiometer.reports.table.cells import FLAGS, MARKS, cell_mark, header_lines
from axiometer.reports.table.data import json_cell
from axiometer.results import AxiomInfo, Cell, Check, PublishedComparison, TableResult

__all__ = ["REPORT_FORMATS", "CHECK_FORMATS", "MARKS", "FLAGS", "format_table", "format_check",
           "cell_mark", "json_cell", "latex_escape"]

#: The formats of ``axiometer table`` and of ``axiometer check`` (:data:`axiometer.reports.render.REPORT_FORMATS`).
REPORT_FORMATS = formats_of("table")
CHECK_FORMATS = formats_of("check")


def format_table(result: TableResult, format: str = "text", comparison: PublishedComparison | None = None,
                 details: bool = True, width: int = DEFAULT_WIDTH) -> str:
    """``result`` as ``text``, ``markdown``, ``latex``, ``html`` or ``json`` (see the module docstring).

    ``details`` and ``width`` shape the text and Markdown reports: without ``details`` they stop
    after what fits a screen (settings, matrix, legend, agreement, differing cells) with a pointer
    to the details; lines are wrapped to ``width`` columns. The other formats are always complete.
    """
    check_format("table", format)
    return render(table_document(result, comparison, details=details, width=width), format, width)


def format_check(items: TableResult | Cell | Check | Sequence[Cell | Check], format: str = "text",
                 details: bool = True, width: int = DEFAULT_WIDTH,
                 axioms: Sequence[AxiomInfo] = ()) -> str:
    """One metric's verdicts (``axiometer check``): a line per constraint, the legend (marks, and
    what each constraint means), then (``details``) each cell in full, every counterexample opening
    with a sentence that instantiates its constraint; text lines wrapped to ``width``.

    ``axioms`` says what the constraints mean (a table's own ``axioms`` when ``items`` is one).

    ``items`` is a table (usually one row), a cell, a check, or a sequence of
    them; ``format`` is ``text``, ``markdown``, ``json``, ``latex`` or ``html`` (the last two a table only:
    the row as a paper's table, the row as a page).
    """
    check_format("check", format)
    if format in ("html", "latex") and not isinstance(items, TableResult):
        raise ValueError(f"the {format} format needs a table result (one metric's row)")
    header: list[str] = []
    table = items if isinstance(items, TableResult) else None
    if isinstance(items, TableResult):
        header = header_lines(items)
        axioms = axioms or items.axioms
        entries: list[Cell | Check] = list(items.cells)
    elif isinstance(items, (Cell, Check)):
        entries = [items]
    else:
        entries = list(items)
    document = check_document(entries, header, details=details, width=width, axioms=axioms, table=table)
    return render(document, format, width)
