"""The HTML page's own parts of the constraint table (``table``, ``check``): what a page can draw.

The page (frame and style from :mod:`axiometer.reports.html`) holds, in order:

- the matrix: each column header carries its constraint's meaning as a
  tooltip (from :attr:`TableResult.axioms <axiometer.results.TableResult>`,
  the id when there is none) and links to "What the columns mean"; each
  cell's mark links to the cell's evidence (``#cell-ROW-COLUMN``);
- the legend of every mark the page uses;
- the boundaries located, with a picture of each (:mod:`~axiometer.reports.table.drawn`);
- the abbreviations the evidence uses;
- what each column means: name, meaning, the formal relation, conditions, source;
- with ``--compare``, the published table set against ours as a table
  (every published mark is reconstructed from the paper's prose; ``?``
  where the paper leaves a cell open), each differing cell with what may
  account for it;
- the parameter-dependent cells;
- the evidence of every cell, drawn (:mod:`~axiometer.reports.table.drawn`).

Every block here is shown in HTML only (the text formats list the same facts line by line).
"""

from __future__ import annotations

from collections.abc import Sequence

from axiometer.reports.document import (
    Block, Break, BulletList, Code, Definition, DefinitionList, Emph, Group, Inline, Lines, Link, Paragraph, Row,
    Section, Span, Strong, Table, TableCell, Term,
)
from axiometer.reports.numbers import denoise
from axiometer.reports.palette import VERDICT_SWATCH
from axiometer.reports.table.cells import (
    OPEN_FLAG, axiom_infos, legend_marks, mark_of, parameter_dependent,
)
from axiometer.reports.table.glossary import terms_used
from axiometer.reports.table.proofs import proof_note
from axiometer.reports.table.comparison import difference_reasons, differing, left_open
from axiometer.reports.table.drawn import anchor, boundaries_section, cell_section, css, unique
from axiometer.results import HOLDS, AxiomInfo, Cell, PublishedComparison, Difference, TableResult

__all__ = ["page_blocks"]

HTML = ("html",)

#: What a published mark says (the comparison table's legend).
_PUBLISHED = {"1": "published: satisfied (as read from the paper's prose)",
              "0": "published: not satisfied, including \"undefined for graded relevance\" (as read from the prose)",
              "?": "published: open (the prose does not say, or says both); not counted"}

#: A section whose heading shares the line of its opening tag and of its first child's.
_GLUED = Lines(open=False, heading=False, between=True, close=False)
#: A container with its opening tag, each child and its closing tag on lines of their own.
_SPREAD = Lines(open=True, heading=True, between=True, close=True)


def _legend_items(items: Sequence[tuple[Inline, str]]) -> DefinitionList:
    return DefinitionList(items=tuple(Definition((t,), (Paragraph(parts=(d,)),)) for t, d in items))


# -- the matrix, the legend, the meanings -----------------------------------------------------

def _column_tip(constraint: str, info: AxiomInfo | None) -> str:
    """A column header's tooltip: "Name: meaning", or the id when the run did not say."""
    if info is None:
        return constraint
    name = info.name or constraint
    return f"{name}: {info.meaning}" if info.meaning else name


def _cell_tip(cell: Cell, info: AxiomInfo | None, differs: str | None) -> str:
    """One line: the cell, its summary, what its proofs say (proved for what, or why not), the other
    mode, the explanation, each said once.

    ``cell.summary`` already names the verdict, and an explanation's text is the nearby reading
    itself ("holds when ..."), so neither repeats the verdict.
    """
    from axiometer.reports.table.cells import other_mode_name

    name = f" ({info.name})" if info and info.name and info.name != cell.constraint else ""
    parts = [cell.summary or cell.verdict]
    proofs = proof_note(cell)
    if proofs:
        parts.append(proofs)
    if cell.projected:
        parts.append("projected")
    if cell.other_mode is not None and cell.other_mode != cell.verdict:
        parts.append(f"in {other_mode_name(cell)} mode: {cell.other_mode}")
    if cell.explanation:
        parts.append(cell.explanation)
    if differs:
        parts.append(differs)
    return f"{cell.row} × {cell.constraint}{name}: " + "; ".join(unique(parts))


def _matrix(result: TableResult, comparison: PublishedComparison | None) -> Table:
    infos = axiom_infos(result)
    differs, open_cells = differing(comparison), left_open(comparison)
    published = _published_marks(comparison) if comparison else {}
    headers = [TableCell(("metric",), header=True, css="row")]
    for j, constraint in enumerate(result.constraints, 1):
        headers.append(TableCell((Link((constraint,), f"axiom-{j}"),), header=True,
                                 tip=_column_tip(constraint, infos.get(constraint))))
    rows = []
    for row in result.rows:
        cells = [TableCell((row,), header=True, css="row")]
        for constraint in result.constraints:
            cell = result.cell(row, constraint)
            if cell is None:
                cells.append(TableCell(()))
                continue
            key = (row, constraint)
            note = (f"differs from {comparison.table}, which marks it {published.get(key, '?')}"
                    if key in differs and comparison else None)
            cells.append(TableCell((Link((mark_of(cell, key in differs, key in open_cells),), anchor(result, cell)),),
                                   css=css(cell.verdict) + (" differs" if key in differs else ""),
                                   tip=_cell_tip(cell, infos.get(constraint), note)))
        rows.append(Row(tuple(cells)))
    return Table(headers=tuple(headers), rows=tuple(rows), css="matrix")


def _legend(result: TableResult, comparison: PublishedComparison | None) -> DefinitionList:
    """Every mark the matrix uses, a verdict's in its colour, and what each colour means (the same in
    every picture of the page)."""
    marks = legend_marks(result, comparison)
    used = list(dict.fromkeys(VERDICT_SWATCH[mark.verdict] for mark, _ in marks if mark.verdict is not None))
    items: list[tuple[Inline, str]] = [("colour", "a verdict's colour, in the matrix and in every picture: " + "; ".join(
        f"{swatch.colour}: {swatch.meaning}" for swatch in used))]
    items += [(Span((mark.symbol,), f"badge {css(mark.verdict)}") if mark.verdict is not None else mark.symbol,
               meaning) for mark, meaning in marks]
    if comparison is not None and left_open(comparison):
        items.append((OPEN_FLAG, f"left open by {comparison.table}: its prose does not decide the cell "
                                 "(not counted in the agreement)"))
    items.append(("link", "each mark links to its cell's evidence below (folded until followed); hover a "
                          "column header for what the constraint means, a cell for its summary"))
    return _legend_items(items)


def _meanings(result: TableResult) -> DefinitionList:
    infos = axiom_infos(result)
    items = []
    for j, constraint in enumerate(result.constraints, 1):
        info = infos.get(constraint)
        if info is None:
            items.append(Definition((constraint,), (Paragraph(parts=("no description was recorded for this column",),
                                                              css="muted"),), id=f"axiom-{j}"))
            continue
        title = constraint + (f" — {info.name}" if info.name and info.name != constraint else "")
        said = []
        if info.meaning:
            said.append(Paragraph(parts=(info.meaning,)))
        if info.relation:
            said.append(Paragraph(parts=("Formally: ", Code(info.relation))))
        if info.conditions:
            said.append(Paragraph(parts=("When: " + "; ".join(info.conditions),)))
        if info.source:
            said.append(Paragraph(parts=(f"Source: {info.source}",), css="muted"))
        items.append(Definition((title,), tuple(said), id=f"axiom-{j}"))
    return DefinitionList(items=tuple(items), css="meanings")


# -- the published comparison -----------------------------------------------------------------

def _published_marks(comparison: PublishedComparison) -> dict[tuple[str, str], str]:
    """The published mark of every compared cell: stated for differing, open and uncompared cells;
    for the agreeing ones it is the mark our verdict agrees with."""
    marks: dict[tuple[str, str], str] = {}
    for d in (*comparison.differences, *comparison.undecided, *comparison.not_compared):
        marks[d.row, d.constraint] = d.published
    return marks


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _side_by_side(result: TableResult, comparison: PublishedComparison) -> Table:
    """The published marks and ours, cell by cell (``published · ours``)."""
    stated = _published_marks(comparison)
    differs, open_cells = differing(comparison), left_open(comparison)
    uncompared = {(d.row, d.constraint) for d in comparison.not_compared}
    rows = []
    for row in result.rows:
        if row in comparison.unmatched:
            continue
        cells = [TableCell((row,), header=True, css="row")]
        for constraint in result.constraints:
            cell = result.cell(row, constraint)
            if cell is None:
                cells.append(TableCell(()))
                continue
            key = (row, constraint)
            # agreeing: the published mark is the one our verdict matches
            published = stated[key] if key in stated else "1" if cell.verdict in HOLDS else "0"
            if key in differs:
                style, state = css(cell.verdict) + " differs", "differs"
            elif key in open_cells:
                style, state = "open", "open in the paper (?), not counted"
            elif key in uncompared:
                style, state = css(cell.verdict), "not compared (error or not run)"
            else:
                style, state = css(cell.verdict), "agrees"
            tip = (f"{row} × {constraint}: published {published} (reconstructed from the prose), "
                   f"ours {cell.verdict}: {state}")
            cells.append(TableCell((Link((f"{published} · {mark_of(cell).symbol}",), anchor(result, cell)),),
                                   css=style, tip=tip))
        rows.append(Row(tuple(cells)))
    headers = (TableCell(("metric",), header=True, css="row"),
               *(TableCell((c,), header=True) for c in result.constraints))
    return Table(headers=headers, rows=tuple(rows), css="matrix", lines=True)


def _cells_named(result: TableResult, entries: tuple[Difference, ...]) -> list[Inline]:
    """``cell = ours, ...``, each cell linked to its evidence."""
    parts: list[Inline] = []
    for k, d in enumerate(entries):
        parts += [", " if k else "", Link((f"{d.row} × {d.constraint}",), anchor(result, d.cell)), f" = {d.ours}"]
    return [p for p in parts if p != ""]


def _comparison(result: TableResult, comparison: PublishedComparison) -> list[Block]:
    blocks: list[Block] = [
        Paragraph(parts=(Strong((f"Agreement with {comparison.table}: {comparison.agree} of {comparison.total} "
                                 f"decided cells ({100 * comparison.rate:.1f}%)",)),
                         f"; ours holds when it is satisfied or has a witness. "
                         f"{_count(len(comparison.differences), 'cell differs', 'cells differ')}; "
                         f"{_count(len(comparison.undecided), 'cell', 'cells')} the paper leaves open (?) "
                         f"{'is' if len(comparison.undecided) == 1 else 'are'} not counted.")),
        Paragraph(parts=("The published marks are ", Emph(("reconstructed",)),
                         ", every one of them: the paper's table lost its marks in the text extraction, so "
                         f"{comparison.table}'s marks are read from what its section 4 says (definitions §7), "
                         "and a cell the prose does not decide is ", Strong(("?",)), " (left open). Each cell "
                         "reads ", Emph(("published · ours",)), " and links to our evidence.")),
        _side_by_side(result, comparison),
        _legend_items([*_PUBLISHED.items(), ("· ✓", "after the dot: our mark, as in the matrix above"),
                       ("outlined", "the cell differs from the published mark"),
                       ("dashed", "the paper leaves the cell open (?): no colour, not counted")])]
    if comparison.differences:
        rows = []
        for d in comparison.differences:
            reasons: list[Inline] = []
            for k, reason in enumerate(difference_reasons(d.cell)):
                reasons += [Break("; ")] if k else []
                reasons.append(denoise(reason))
            rows.append(Row((TableCell((Link((f"{d.row} × {d.constraint}",), anchor(result, d.cell)),)),
                             TableCell((d.published,)), TableCell((d.ours,)), TableCell(tuple(reasons)))))
        blocks.append(Section(title=("Cells that differ, and what may account for each",), level=3, tag="",
                              children=(Table(headers=tuple(TableCell((h,), header=True) for h in (
                                  "cell", "published", "ours", "what may account for it")), rows=tuple(rows)),)))
    if comparison.undecided:
        blocks.append(Section(title=("Cells the paper leaves open (?)",), level=3, tag="", lines=_GLUED,
                              children=(Paragraph(parts=tuple(_cells_named(result, comparison.undecided))),)))
    if comparison.not_compared:
        blocks.append(Paragraph(parts=("Not compared (error or not run): ",
                                       *_cells_named(result, comparison.not_compared))))
    if comparison.unmatched:
        blocks.append(Paragraph(parts=(f"Rows without a published row: {', '.join(comparison.unmatched)}",)))
    return blocks


# -- the page -----------------------------------------------------------------------------------

def page_blocks(result: TableResult, comparison: PublishedComparison | None) -> list[Block]:
    """The table's page (see the module docstring), every block shown in HTML only."""
    infos = axiom_infos(result)
    differs, open_cells = differing(comparison), left_open(comparison)
    # The abbreviations the page uses (rc, m, rmax, ...): its settings', its evidence's, its boundaries'.
    terms = terms_used(result.cells, header=result, boundaries=True)
    located = any(c.boundaries or c.curves for c in result.cells)
    blocks: list[Block] = [Section(
        title=("The matrix",), level=2, id="matrix", toc="Matrix", lines=_GLUED, formats=HTML, children=(
            Group(css="side-by-side", lines=_SPREAD, children=(
                Group(children=(_matrix(result, comparison),)),
                Section(title=("Legend",), level=3, tag="div", id="legend", toc="Legend",
                        lines=Lines(False, False, False, False), children=(_legend(result, comparison),)))),))]
    if located:
        blocks.append(boundaries_section(result))
    if terms:
        blocks.append(Section(title=("Abbreviations",), level=2, id="abbreviations", toc="Abbreviations",
                              formats=HTML, children=(DefinitionList(
                                  items=tuple(Definition((Term(t, m),), (Paragraph(parts=(m,)),)) for t, m in terms),
                                  css="legend terms"),)))
    blocks.append(Section(title=("What the columns mean",), level=2, id="meanings", toc="What the columns mean",
                          formats=HTML, children=(_meanings(result),)))
    if comparison is not None:
        blocks.append(Section(title=(f"Comparison with {comparison.table}",), level=2, id="comparison",
                              toc="Comparison", formats=HTML, children=tuple(_comparison(result, comparison))))
    dependent = [c for c in result.cells if parameter_dependent(c)]
    if dependent:
        blocks.append(Section(
            title=("Verdicts that depend on the parameters",), level=2, id="parameters", toc="Parameter dependence",
            lines=_GLUED, formats=HTML, children=(BulletList(lines=_SPREAD, items=tuple(
                (Link((f"{c.row} × {c.constraint}",), anchor(result, c)), f": {c.summary}") for c in dependent)),)))
    blocks.append(Section(title=("Evidence, cell by cell",), level=2, id="evidence", toc="Evidence", formats=HTML,
                          children=tuple(cell_section(result, c, infos.get(c.constraint),
                                                      (c.row, c.constraint) in differs,
                                                      (c.row, c.constraint) in open_cells) for c in result.cells)))
    return blocks

