"""Plain text and Markdown: the table (``axiometer table``) and one metric's verdicts (``axiometer check``).

Matrix first: both reports open with what fits a screen — the run's
settings, the matrix (or one line per constraint), the legend (every mark
and flag used, and what each column means), with ``--compare`` the
agreement and one line per differing cell, for ``check`` one sentence per
counterexample — then, with ``details``, every cell's evidence (each
counterexample, witness, error and explanation, and the abbreviations they
use); without it, a pointer to ``--details`` and ``-o FILE``.

Every line fits ``width`` columns (wrapped with a hanging indent), except a
matrix that cannot be narrower: a matrix too wide with its column ids gets
short headers (named in the legend), then single-space gaps.

Markdown is a variant of the text report rather than a module of its own:
both print the same sections in the same order, and differ only line by line
(a heading for a title, ``- `` for an indent, a fenced block for a cell's
evidence).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

from tabulate import tabulate

from axiometer.reports.numbers import DEFAULT_WIDTH, NBSP, wrap, wrap_lines
from axiometer.reports.table.cells import (
    BOUNDARIES_INTRO, MARKS, axiom_infos, boundary_lines, cell_lines, cell_mark, check_lines, column_items, glossary, header_lines,
    parameter_dependent, short_legend_items,
)
from axiometer.reports.table.comparison import comparison_lines, differing, left_open
from axiometer.results import AxiomInfo, Cell, Check, PublishedComparison, TableResult

__all__ = ["table_text", "check_text", "SHORT_IDS", "POINTER"]

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

def _marks(result: TableResult, comparison: PublishedComparison | None) -> list[list[str]]:
    differs, open_ = differing(comparison), left_open(comparison)
    rows = []
    for row in result.rows:
        marks = []
        for constraint in result.constraints:
            cell = result.cell(row, constraint)
            key = (row, constraint)
            marks.append(cell_mark(cell, key in differs, key in open_) if cell else "")
        rows.append([row, *marks])
    return rows


def _short_headers(constraints: Sequence[str]) -> list[str]:
    """Each id's :data:`SHORT_IDS` form (else its first four characters); numbered when two clash."""
    short = [SHORT_IDS.get(c, c[:4]) for c in constraints]
    if len(set(short)) < len(short):
        short = [f"c{i}" for i in range(1, len(constraints) + 1)]
    return short


def _plain_table(headers: Sequence[str], rows: Sequence[Sequence[str]], gap: int) -> list[str]:
    """A left-aligned table with a rule of dashes under the header (tabulate's ``simple``)."""
    widths = [max(len(r[j]) for r in [headers, *rows]) for j in range(len(headers))]
    sep = " " * gap

    def line(cells: Sequence[str]) -> str:
        return sep.join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    return [line(headers), sep.join("-" * w for w in widths), *(line(r) for r in rows)]


def _matrix(result: TableResult, comparison: PublishedComparison | None, width: int,
            markdown: bool) -> tuple[list[str], bool]:
    """The matrix's lines, and whether its headers are the short ones (which the legend names).

    Full ids when the matrix fits ``width``; else :func:`_short_headers`; else (text) single
    spaces between columns; the narrowest of these is printed even when it is wider.
    """
    rows = _marks(result, comparison)
    for short in (False, True):
        headers = ["metric", *(_short_headers(result.constraints) if short else result.constraints)]
        if markdown:
            lines = tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True,
                             stralign="left").splitlines()
            if max(map(len, lines)) <= width or short:
                return lines, short
            continue
        for gap in (2, 1):
            lines = _plain_table(headers, rows, gap)
            if max(map(len, lines)) <= width or (short and gap == 1):
                return lines, short
            if not short:
                break  # full ids too wide with two spaces: try the short headers first
    raise AssertionError("unreachable")


# -- the legend ----------------------------------------------------------------------

def _marks_legend(items: Sequence[tuple[str, str]], width: int, markdown: bool) -> list[str]:
    """Every mark and flag used, as flowing text wrapped to ``width``."""
    # A no-break space keeps each mark on the line of its first word.
    text = "; ".join(f"{mark}{NBSP}{meaning}" for mark, meaning in items)
    return wrap(f"**Marks**: {text}." if markdown else f"Marks: {text}.", width, hang=2 if markdown else 7)


def _common_prefix(texts: Sequence[str]) -> str:
    """The words every text starts with (``A metric that violates it``), when there are three or more."""
    words = [text.split(" ") for text in texts]
    common = []
    for group in zip(*words):
        if len(set(group)) != 1:
            break
        common.append(group[0])
    return " ".join(common) if len(common) >= 3 and len(texts) > 1 else ""


def _columns_legend(constraints: Sequence[str], infos: Mapping[str, AxiomInfo], short: bool,
                    width: int, markdown: bool, title: str = "Columns") -> list[str]:
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
    if markdown:
        return [f"**{heading}**" if heading else "", ""] + [
            part for head, text in chosen for part in wrap(f"- `{head}` {text}".rstrip(), width)]
    lines = [heading] if heading else []
    for head, text in chosen:
        lines += wrap(f"  {head:<{pad}}  {text}".rstrip(), width, hang=pad + 2)
    return lines


def _glossary_lines(lines: Sequence[str], width: int, markdown: bool, only: Sequence[str] | None = None,
                    title: str = "Terms") -> list[str]:
    """The abbreviations ``lines`` use, explained (``only``: just these terms)."""
    terms = [(term, meaning) for term, meaning in glossary(lines) if only is None or term in only]
    if not terms:
        return []
    if markdown:
        return [f"**{title}**:", ""] + [part for term, meaning in terms
                                         for part in wrap(f"- {term}: {meaning}", width)]
    out = [f"{title}:"]
    for term, meaning in terms:
        out += wrap(f"  {term}: {meaning}", width, hang=2)
    return out


# -- the table ----------------------------------------------------------------------

def table_text(result: TableResult, comparison: PublishedComparison | None, markdown: bool,
               details: bool = True, width: int = DEFAULT_WIDTH) -> str:
    """The table as text (or Markdown): settings, the matrix, the legend, the comparison; then, with
    ``details``, parameter dependence and every cell's evidence, else a pointer to them."""
    infos = axiom_infos(result)
    out: list[str] = []
    columns = len(result.constraints)
    kind = ("constraints and properties" if _PROPERTIES & set(result.constraints)
            else "constraint" if columns == 1 else "constraints")
    metrics = "metric" if len(result.rows) == 1 else "metrics"
    title = f"Constraint table: {len(result.rows)} {metrics} × {columns} {kind}"
    header = header_lines(result)
    if markdown:
        out += [f"## {title}", "", *wrap_lines([f"- {line}" for line in header], width)]
    else:  # the title and the first setting share a line when they fit
        first = f"{title}; {header[0]}"
        out += wrap_lines([first, *header[1:]] if len(first) <= width else [title, *header], width)
    out.append("")
    matrix, short = _matrix(result, comparison, width, markdown)
    out += matrix
    out.append("")
    out += _marks_legend(short_legend_items(result, comparison), width, markdown)
    legend = _columns_legend(result.constraints, infos, short, width, markdown)
    if legend:
        out += [""] if markdown else []
        out += legend
    out += _boundaries(result.cells, width, markdown)
    if comparison is not None:
        out.append("")
        if markdown:
            out += [f"### Comparison with {comparison.table}", ""]
        out += wrap_lines(comparison_lines(comparison, markdown, width), width)
    if not details:
        out += ["", *wrap(POINTER, width)]
        return "\n".join(out).rstrip() + "\n"
    out += _details(result, comparison, infos, width, markdown)
    return "\n".join(out).rstrip() + "\n"


def _details(result: TableResult, comparison: PublishedComparison | None, infos: Mapping[str, AxiomInfo],
             width: int, markdown: bool) -> list[str]:
    """Parameter dependence, the terms the evidence uses, then every cell in full (differing cells
    say so)."""
    out: list[str] = []
    dependent = [c for c in result.cells if parameter_dependent(c)]
    if dependent:
        out.append("")
        out.append("### Parameter dependence" if markdown else "Parameter dependence:")
        if markdown:
            out.append("")
        out += wrap_lines([f"{'- ' if markdown else '  '}{cell.row} × {cell.constraint}: {cell.summary}"
                           for cell in dependent], width)
    published = {(d.row, d.constraint): d.published for d in comparison.differences} if comparison else {}
    blocks = []
    for cell in result.cells:
        lines = cell_lines(cell, info=infos.get(cell.constraint))
        mark = published.get((cell.row, cell.constraint))
        if mark is not None:
            lines.insert(1, f"  differs from {comparison.table}: published {mark}")  # type: ignore[union-attr]
        blocks.append(lines)
    terms = _glossary_lines([line for block in blocks for line in block], width, markdown,
                            title="Terms used below")
    if terms:
        out += ["", *terms]
    out.append("")
    out.append("### Details" if markdown else "Details:")
    for lines in blocks:
        out += _block(lines, markdown, width)
    return out


# -- one metric ---------------------------------------------------------------------

def check_text(header: Sequence[str], entries: Sequence[Cell | Check], markdown: bool,
               details: bool = True, width: int = DEFAULT_WIDTH,
               axioms: Sequence[AxiomInfo] = ()) -> str:
    """One metric's verdicts as text (or Markdown): ``header`` lines, a line per constraint, the
    legend (marks, and what each constraint means); then, with ``details``, the terms the evidence
    uses and each entry in full (every counterexample opening with its sentence), else a pointer to
    them. ``axioms`` says what each constraint means."""
    infos = {info.id: info for info in axioms}
    several = len({entry.metric for entry in entries}) > 1
    out: list[str] = []
    if entries and not several:
        title = f"{entries[0].metric}: {len(entries)} constraint{'s' if len(entries) != 1 else ''}"
        out += [f"## {title}", ""] if markdown else [title]
    if header:
        out += wrap_lines([f"- {line}" if markdown else line for line in header], width)
    if out:
        out.append("")
    out += _summary_table(entries, several, width, markdown)
    out.append("")
    out += _marks_legend(_check_legend(entries), width, markdown)
    constraints = list(dict.fromkeys(entry.constraint for entry in entries))
    columns = _columns_legend(constraints, infos, False, width, markdown, title="Constraints")
    if columns:
        out += ([""] if markdown else []) + columns
    out += _boundaries([e for e in entries if isinstance(e, Cell)], width, markdown)
    if not details:
        out += ["", *wrap(POINTER, width)]
        return "\n".join(out).rstrip() + "\n"
    blocks = []
    for entry in entries:
        info = infos.get(entry.constraint)
        if isinstance(entry, Cell):
            blocks.append(cell_lines(entry, info=info))
        else:
            blocks.append([f"{entry.metric} × {entry.constraint}: {entry.verdict}",
                           *check_lines(entry, "  ", info)[1:]])
    terms = _glossary_lines([line for block in blocks for line in block], width, markdown,
                            title="Terms used below")
    if terms:
        out += ["", *terms]
    for lines in blocks:
        out += _block(lines, markdown, width)
    return "\n".join(out).rstrip() + "\n"


def _boundaries(cells: Sequence[Cell], width: int, markdown: bool) -> list[str]:
    """The located boundaries, one sentence per boundary and a line per curve, under what they mean
    (printed whenever a run located any: they are what the user asked for)."""
    lines = [line for cell in cells for line in boundary_lines(cell, "- " if markdown else "  ")]
    if not lines:
        return []
    if markdown:
        title, _, meaning = BOUNDARIES_INTRO.partition(": ")
        return ["", f"### {title}", "", meaning[:1].upper() + meaning[1:], "", *wrap_lines(lines, width)]
    return ["", *wrap(BOUNDARIES_INTRO, width), *wrap_lines(lines, width)]


def _check_legend(entries: Sequence[Cell | Check]) -> list[tuple[str, str]]:
    """The marks and flags the entries use, shortest form."""
    cells = [e if isinstance(e, Cell) else Cell(e.metric, e.metric, e.constraint, e.verdict, e.verdict, (e,))
             for e in entries]
    table = TableResult(rows=tuple(dict.fromkeys(c.row for c in cells)),
                        constraints=tuple(dict.fromkeys(c.constraint for c in cells)),
                        cells=tuple(cells), seed=0, mode="default", budget="")
    return short_legend_items(table, None)


def _summary_table(entries: Sequence[Cell | Check], several: bool, width: int, markdown: bool) -> list[str]:
    """A line per entry: (metric,) constraint, mark, verdict or the summary over the grid; in text,
    the last column wrapped to fit ``width``."""
    rows = []
    for entry in entries:
        if isinstance(entry, Cell):
            row = [entry.constraint, cell_mark(entry), entry.summary]
        else:
            row = [entry.constraint, MARKS.get(entry.verdict, entry.verdict), entry.verdict]
        rows.append([entry.metric, *row] if several else row)
    headers = (["metric"] if several else []) + ["constraint", "mark", "verdict"]
    if markdown:
        return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True).splitlines()
    widths = [max(len(r[j]) for r in [headers, *rows]) for j in range(len(headers) - 1)]
    indent = sum(widths) + 2 * len(widths)
    room = max(20, width - indent)
    last = min(room, max(len(r[-1]) for r in [headers, *rows]))
    lines = ["  ".join([*(h.ljust(w) for h, w in zip(headers, widths)), headers[-1]]),
             "  ".join("-" * w for w in [*widths, last])]
    for row in rows:
        parts = textwrap.wrap(row[-1], room, break_long_words=False, break_on_hyphens=False) or [""]
        lines.append("  ".join([*(c.ljust(w) for c, w in zip(row, widths)), parts[0]]).rstrip())
        lines += [" " * indent + part for part in parts[1:]]
    return lines


def _block(lines: list[str], markdown: bool, width: int) -> list[str]:
    """A cell's lines as a block: after a blank line, or under a heading in a fenced block (Markdown);
    every line wrapped to ``width``."""
    if markdown:
        return ["", f"#### {lines[0]}", "", "```", *wrap_lines(lines[1:], width), "```"]
    return ["", *wrap_lines(lines, width)]
