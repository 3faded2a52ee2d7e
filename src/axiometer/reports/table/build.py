"""The constraint table's document (``axiometer table``) and one metric's (``axiometer check``).

Matrix first: both reports open with what fits a screen — the run's
settings, the matrix (or one line per constraint), the legend (every mark
and flag used, and what each column means), with ``--compare`` the
agreement and one line per differing cell — then, with ``details``, every
cell's evidence (each counterexample, witness, error and explanation, and
the abbreviations they use); without it, a pointer to ``--details`` and
``-o FILE``. The HTML page's own parts (the evidence drawn, the published
table set against ours) are built by :mod:`~axiometer.reports.table.page`;
LaTeX shows the matrix with the legend as its note.

The text formats lay the matrix out for a width: a matrix too wide with its
column ids gets short headers (named in the legend), then single-space gaps
(a :class:`~axiometer.reports.document.Choice`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from axiometer.reports.document import (
    Block, BulletList, Choice, Code, Definition, DefinitionList, Document, Inline, Paragraph, Preformatted,
    Row, Section, Strong, Table, TableCell, Term,
)
from axiometer.reports.numbers import DEFAULT_WIDTH
from axiometer.reports.table.cells import (
    BOUNDARIES_INTRO, axiom_infos, boundary_lines, cell_lines, check_lines, column_items,
    header_lines, legend_marks, mark_of, parameter_dependent, short_legend_items,
)
from axiometer.reports.table.glossary import terms_used
from axiometer.reports.table.proofs import proof_note, proof_text, proved, unproved_setting
from axiometer.reports.table.comparison import PROVENANCE, difference_reasons, differing, left_open
from axiometer.reports.table.data import check_data, table_data
from axiometer.reports.table.page import page_blocks
from axiometer.results import AxiomInfo, Cell, Check, PublishedComparison, TableResult

__all__ = ["table_document", "check_document", "matrix_table", "SHORT_IDS", "POINTER", "TEXT"]

#: The formats that lay a report out in lines for a width.
TEXT = ("text", "markdown")

#: Short column headers for a matrix too wide for the width with its ids (legend below it).
SHORT_IDS = {"Pri": "Pri", "Deep": "Dp", "DeepTh": "DTh", "CloseTh": "CTh", "Conf": "Cnf",
             "AspDiv": "ADv", "Red": "Red", "MRed": "MRd", "Sat": "Sat", "AspRel": "ARl",
             "Rev": "Rev", "Rarity": "Rar", "PriorSens": "PSn", "PriorMono": "PMn", "Bounded": "Bnd",
             "Unique": "Unq", "Finite": "Fin"}

#: The relative metrics' property ids (the other columns are constraints).
_PROPERTIES = {"Rev", "Rarity", "PriorSens", "PriorMono", "Bounded", "Unique", "Finite"}

#: The last line of a report printed without its details.
POINTER = "--details prints every counterexample, witness and explanation; -o FILE writes the full report."


# -- the matrix ----------------------------------------------------------------------

def matrix_table(result: TableResult, comparison: PublishedComparison | None, headers: Sequence[str],
                 corner: str = "metric", gap: int = 2, open_flags: bool = True) -> Table:
    """The matrix: a row per metric, a mark per column (``headers``: the columns' headers)."""
    differs, open_ = differing(comparison), left_open(comparison)
    rows = []
    for row in result.rows:
        cells = [TableCell((row,), header=True, css="row")]
        for constraint in result.constraints:
            cell = result.cell(row, constraint)
            key = (row, constraint)
            cells.append(TableCell((mark_of(cell, key in differs, open_flags and key in open_),) if cell else ()))
        rows.append(Row(tuple(cells)))
    return Table(headers=(TableCell((corner,), header=True, css="row"), *(TableCell((h,), header=True)
                                                                             for h in headers)),
                 rows=tuple(rows), gap=gap)


def _short_headers(constraints: Sequence[str]) -> list[str]:
    """Each id's :data:`SHORT_IDS` form (else its first four characters); numbered when two clash."""
    short = [SHORT_IDS.get(c, c[:4]) for c in constraints]
    if len(set(short)) < len(short):
        short = [f"c{i}" for i in range(1, len(constraints) + 1)]
    return short


def _matrix_and_legend(result: TableResult, comparison: PublishedComparison | None, width: int) -> Choice:
    """The matrix and its legend, laid out for the width: full ids, two spaces apart, when they
    fit; else the short headers (which the legend names); else single spaces."""
    infos = axiom_infos(result)
    marks = _marks_legend(short_legend_items(result, comparison))
    options = []
    for short, gap in ((False, 2), (True, 2), (True, 1)):
        headers = _short_headers(result.constraints) if short else list(result.constraints)
        matrix = matrix_table(result, comparison, headers, gap=gap)
        legend = _columns_legend(result.constraints, infos, short, width)
        options.append((matrix, marks, *legend))
    return Choice(options=tuple(options), formats=TEXT)


# -- the legend ----------------------------------------------------------------------

def _marks_legend(items: Sequence[tuple[str, str]], formats: tuple[str, ...] | None = None) -> DefinitionList:
    """Every mark and flag used, as flowing text."""
    return DefinitionList(items=tuple(Definition((m,), (Paragraph(parts=(meaning,)),)) for m, meaning in items),
                          title=(Strong(("Marks",)),), style="inline", formats=formats)


def _common_prefix(texts: Sequence[str]) -> str:
    """The words every text starts with (``A metric that violates it``), when there are three or more."""
    words = [text.split(" ") for text in texts]
    common = []
    for group in zip(*words):
        if len(set(group)) != 1:
            break
        common.append(group[0])
    return " ".join(common) if len(common) >= 3 and len(texts) > 1 else ""


def _columns_legend(constraints: Sequence[str], infos: Mapping[str, AxiomInfo], short: bool, width: int,
                    title: str = "Columns") -> list[Block]:
    """What each column means: its id (after its short header when the matrix uses them), name
    and meaning. Words every meaning starts with are said once, in the title; names are given
    when every line fits ``width`` with them. Nothing when there is nothing to add to the headers."""
    items = column_items(constraints, infos)
    if not short and not any(name or meaning for _, name, meaning in items):
        return []
    prefix = _common_prefix([meaning for _, _, meaning in items if meaning])
    heads = _short_headers(constraints) if short else list(constraints)
    pad = max(len(head) for head in heads)

    def labels(named: bool) -> list[tuple[str, str]]:
        out = []
        for head, (constraint, name, meaning) in zip(heads, items):
            if prefix and meaning.startswith(prefix + " "):
                meaning = meaning[len(prefix) + 1:]
            label = ", ".join(p for p in (constraint if head != constraint else "", name if named else "")
                              if p)
            if head != constraint:
                label = f"= {label}"
            out.append((head, f"{label}: {meaning}" if label and meaning else label or meaning))
        return out

    chosen = labels(True)
    if any(len(f"  {head:<{pad}}  {text}") > width for head, text in chosen):
        chosen = labels(False)
    heading = f"{title}: {prefix[0].lower() + prefix[1:]} ..." if prefix else (f"{title}:" if title else "")
    return [DefinitionList(items=tuple(Definition((Code(head),), (Paragraph(parts=(text,)),)) for head, text in chosen),
                           title=(Strong((heading,)),) if heading else (), style="key", tight=("text",))]


def _glossary(entries: Sequence[Cell | Check], title: str) -> list[Block]:
    """The abbreviations the details of ``entries`` use, explained (:func:`terms_used`)."""
    found = terms_used(entries)
    if not found:
        return []
    return [DefinitionList(items=tuple(Definition((Term(term, meaning),), (Paragraph(parts=(meaning,)),))
                                       for term, meaning in found), title=(Strong((title,)),), style="terms")]


def _boundaries(cells: Sequence[Cell]) -> list[Block]:
    """The located boundaries, one sentence per boundary and a line per curve, under what they mean
    (printed whenever a run located any: they are what the user asked for)."""
    items = [line.removeprefix("- ") for cell in cells for line in boundary_lines(cell, "- ")]
    if not items:
        return []
    title, _, meaning = BOUNDARIES_INTRO.partition(": ")
    return [Section(title=(title,), level=3, run_in=True, formats=TEXT, children=(
        Paragraph(parts=(meaning[:1].upper() + meaning[1:],), nowrap=("markdown",)),
        BulletList(items=tuple((item,) for item in items), tight=("text",))))]


def _comparison(comparison: PublishedComparison, width: int) -> Section:
    """The agreement (saying where the published marks come from), one line per differing cell
    (published mark, our verdict, what may account for it: as many reasons as fit ``width``,
    the first always), and the cells not counted besides those the paper leaves open."""
    count = len(comparison.differences)
    agreement = (f"Agreement with {comparison.table} ({PROVENANCE}): {comparison.agree} of "
                 f"{comparison.total} decided cells ({100 * comparison.rate:.1f}%)"
                 + (f"; {count} differ{'s' if count == 1 else ''}:" if count else "."))
    blocks: list[Block] = [Paragraph(parts=(agreement,))]
    items = []
    for d in comparison.differences:
        head = f"{d.row} × {d.constraint}: published {d.published}, ours {d.ours}"
        reasons = difference_reasons(d.cell)
        shown = reasons[:1]
        for reason in reasons[1:]:  # the bullet ("- " or two spaces) counts
            if len(f"- {head} — {'; '.join([*shown, reason])}") <= width:
                shown.append(reason)
        items.append((head + (f" — {'; '.join(shown)}" if shown else ""),))
    if items:
        blocks.append(BulletList(items=tuple(items), tight=TEXT))
    if comparison.not_compared:
        blocks.append(Paragraph(parts=("not compared (error or not run): " + ", ".join(
            f"{d.row} × {d.constraint} = {d.ours}" for d in comparison.not_compared),), tight=TEXT))
    if comparison.unmatched:
        blocks.append(Paragraph(parts=("rows without a published row: " + ", ".join(comparison.unmatched),),
                                tight=TEXT))
    return Section(title=(f"Comparison with {comparison.table}",), level=3, title_formats=("markdown",),
                   children=tuple(blocks), formats=TEXT)


def _evidence(blocks: Sequence[list[str]]) -> list[Block]:
    """Each entry's lines as a titled block (the first line is the title)."""
    return [Section(title=(lines[0],), level=4, children=(Preformatted(content=tuple(lines[1:]), tight=("text",)),))
            for lines in blocks]


# -- the table ----------------------------------------------------------------------

def _text_title(result: TableResult) -> str:
    columns = len(result.constraints)
    kind = ("constraints and properties" if _PROPERTIES & set(result.constraints)
            else "constraint" if columns == 1 else "constraints")
    metrics = "metric" if len(result.rows) == 1 else "metrics"
    return f"Constraint table: {len(result.rows)} {metrics} × {columns} {kind}"


def _details(result: TableResult, comparison: PublishedComparison | None, infos: Mapping[str, AxiomInfo]) -> list[Block]:
    """Parameter dependence, the terms the evidence uses, then every cell in full (differing cells
    say so)."""
    out: list[Block] = []
    dependent = [c for c in result.cells if parameter_dependent(c)]
    if dependent:
        out.append(Section(title=("Parameter dependence",), level=3, colon=True, children=(BulletList(
            items=tuple((f"{c.row} × {c.constraint}: {c.summary}",) for c in dependent), tight=("text",)),)))
    published = {(d.row, d.constraint): d.published for d in comparison.differences} if comparison else {}
    blocks = []
    for cell in result.cells:
        lines = cell_lines(cell, info=infos.get(cell.constraint))
        key = (cell.row, cell.constraint)
        if key in published and comparison is not None:
            lines.insert(1, f"  differs from {comparison.table}: published {published[key]}")
        blocks.append(lines)
    out += _glossary(result.cells, "Terms used below")
    out.append(Section(title=("Details",), level=3, colon=True, children=tuple(_evidence(blocks))))
    return [Section(title=(), level=2, children=tuple(out), formats=TEXT)]


def _latex_proofs(result: TableResult) -> list[Block]:
    """The table note's word on proofs: the proved cells grouped by what they are proved for, and
    the holding cells a proof was tried on but not found for, grouped by why not."""
    groups: dict[tuple[bool, str], list[str]] = {}  # (not proved, what is said): the proved first
    for cell in result.cells:
        said = proof_note(cell)
        if not said:
            continue
        default = cell.default_check
        if proved(cell) and default is not None and default.evidence is not None and default.evidence.proof:
            said = proof_text(default.evidence.proof, short=True)  # what the mark's setting is proved for
            key = said[:1].upper() + said[1:]
        elif proved(cell):
            key = "Proved"
        else:
            check = unproved_setting(cell) or cell.default_check
            key = f"Not proved ({check.unproved})" if check is not None and check.unproved else "Not proved"
        groups.setdefault((not proved(cell), key), []).append(f"{cell.row}/{cell.constraint}")
    return [Paragraph(parts=(f"{said}: {', '.join(cells)}.",))
            for (_, said), cells in sorted(groups.items(), key=lambda item: item[0][0])]


#: What the LaTeX matrix needs from the document it is put in.
_LATEX_PACKAGES = "Requires \\usepackage{booktabs} and \\usepackage{amssymb} (for \\checkmark)."


def _latex(result: TableResult, comparison: PublishedComparison | None) -> Table:
    """The matrix as a paper's table, the legend and the parameter dependence as its note."""
    legend = []
    for mark, meaning in legend_marks(result, comparison):
        legend.append(Definition((mark,), (Paragraph(parts=(meaning.split(":")[0],)),)))
    note: list[Block] = [DefinitionList(items=tuple(legend), style="inline")]
    dependent = [c for c in result.cells if parameter_dependent(c)]
    if dependent:
        note.append(Paragraph(parts=("Parameter dependence: " + "; ".join(
            f"{c.row}/{c.constraint}: {c.summary}" for c in dependent) + ".",)))
    note += _latex_proofs(result)
    if comparison is not None:
        note.append(Paragraph(parts=(f"Agreement with {comparison.table}: {comparison.agree} of "
                                     f"{comparison.total} decided cells.",)))
    note.append(Paragraph(parts=(f"Budget: {result.budget}.",)))
    if result.interrupted:
        note.append(Paragraph(parts=("The run was interrupted; cells marked -- were not run.",)))
    table = matrix_table(result, comparison, result.constraints, corner="Metric", open_flags=False)
    return Table(headers=table.headers, rows=table.rows, formats=("latex",), align="l" + "c" * len(result.constraints),
                 caption=(f"Constraints satisfied by each metric (seed {result.seed}; cutoff mode {result.mode}).",),
                 label="tab:axiometer-constraints", note=tuple(note))


def table_document(result: TableResult, comparison: PublishedComparison | None = None, details: bool = True,
                   width: int = DEFAULT_WIDTH, page_title: str = "Constraint table") -> Document:
    """The table's document: settings, the matrix, the legend, the comparison; then, with
    ``details``, parameter dependence and every cell's evidence (text formats), else a pointer."""
    infos = axiom_infos(result)
    blocks: list[Block] = [_matrix_and_legend(result, comparison, width), *_boundaries(result.cells)]
    if comparison is not None:
        blocks.append(_comparison(comparison, width))
    blocks.append(_details(result, comparison, infos)[0] if details
                  else Paragraph(parts=(POINTER,), formats=TEXT))
    blocks += [_latex(result, comparison), *page_blocks(result, comparison)]
    return Document(title=_text_title(result), page_title=page_title, blocks=tuple(blocks),
                    subtitle=tuple(header_lines(result)), heading="joined",
                    data=lambda: table_data(result, comparison),
                    preamble=("Generated by axiometer (axiometer table --format latex).", _LATEX_PACKAGES))


# -- one metric ---------------------------------------------------------------------

def _as_cell(entry: Cell | Check) -> Cell:
    """A check as the one-setting cell it is (its mark and flags are a cell's)."""
    if isinstance(entry, Cell):
        return entry
    return Cell(entry.metric, entry.metric, entry.constraint, entry.verdict, entry.verdict, (entry,))


def _check_legend(entries: Sequence[Cell | Check]) -> list[tuple[str, str]]:
    """The marks and flags the entries use, shortest form."""
    cells = [_as_cell(e) for e in entries]
    table = TableResult(rows=tuple(dict.fromkeys(c.row for c in cells)),
                        constraints=tuple(dict.fromkeys(c.constraint for c in cells)),
                        cells=tuple(cells), seed=0, mode="default", budget="")
    return short_legend_items(table, None)


def _summary_table(entries: Sequence[Cell | Check], several: bool) -> Table:
    """A line per entry: (metric,) constraint, mark, verdict or the summary over the grid."""
    rows = []
    for entry in entries:
        row: list[Inline]
        if isinstance(entry, Cell):
            row = [entry.constraint, mark_of(entry), entry.summary]
        else:
            row = [entry.constraint, mark_of(_as_cell(entry)), entry.verdict]
        cells: list[Inline] = [entry.metric, *row] if several else row
        rows.append(Row(tuple(TableCell((c,)) for c in cells)))
    headers = (["metric"] if several else []) + ["constraint", "mark", "verdict"]
    return Table(headers=tuple(TableCell((h,), header=True) for h in headers), rows=tuple(rows), formats=TEXT)


def check_document(entries: Sequence[Cell | Check], header: Sequence[str] = (), details: bool = True,
                   width: int = DEFAULT_WIDTH, axioms: Sequence[AxiomInfo] = (),
                   table: TableResult | None = None) -> Document:
    """One metric's verdicts: ``header`` lines, a line per constraint, the legend (marks, and what
    each constraint means); then, with ``details``, the terms the evidence uses and each entry in
    full (every counterexample opening with its sentence), else a pointer to them. ``table``: the
    result the entries come from, which the page and the JSON show whole."""
    infos = {info.id: info for info in axioms}
    several = len({entry.metric for entry in entries}) > 1
    title = (f"{entries[0].metric}: {len(entries)} constraint{'s' if len(entries) != 1 else ''}"
             if entries and not several else "")
    constraints = list(dict.fromkeys(entry.constraint for entry in entries))
    blocks: list[Block] = [_summary_table(entries, several),
                           _marks_legend(_check_legend(entries), TEXT),
                           *(_with_formats(b) for b in _columns_legend(constraints, infos, False, width,
                                                                        title="Constraints")),
                           *_boundaries([e for e in entries if isinstance(e, Cell)])]
    if not details:
        blocks.append(Paragraph(parts=(POINTER,), formats=TEXT))
    else:
        lines = []
        for entry in entries:
            info = infos.get(entry.constraint)
            lines.append(cell_lines(entry, info=info) if isinstance(entry, Cell) else
                         [f"{entry.metric} × {entry.constraint}: {entry.verdict}",
                          *check_lines(entry, "  ", info)[1:]])
        blocks += [_with_formats(b) for b in _glossary(entries, "Terms used below")]
        blocks += [_with_formats(b) for b in _evidence(lines)]
    if table is not None:  # the LaTeX table and the page show the row whole
        blocks += [_latex(table, None), *page_blocks(table, None)]
    page_title = f"{', '.join(table.rows)}: constraints checked" if table is not None else title
    data = (lambda: table_data(table, None)) if table is not None else (lambda: check_data(entries))
    return Document(title=title, page_title=page_title, blocks=tuple(blocks), subtitle=tuple(header), data=data,
                    preamble=("Generated by axiometer (axiometer check --format latex).", _LATEX_PACKAGES))


def _with_formats(block: Block) -> Block:
    """``block`` shown in the text formats only."""
    from dataclasses import replace

    return replace(block, formats=TEXT)
