"""The Giner comparison as text, Markdown, LaTeX, HTML or JSON (definitions §7, ``giner``).

:func:`giner_document` builds the document of a :class:`~axiometer.results.GinerTable`
(:func:`format_giner` renders it):
a table with, per measure, Giner's published category, ours on each domain
(columns ``S1..`` for the set domains, ``K1..`` for the rank domains, named in
a legend above the table) and the domains that reproduce the published
category, each category as a one-letter code (:data:`CODES`, explained in
the legend below the table) so the table fits a terminal; then every
difference, domain by domain, with its counterexample. Text lines fit the
width given. LaTeX is the table alone, a booktabs ``table`` a paper can ``\\input``, with the
domains, the codes and the measures not evaluated in its note. It never runs the comparison itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from axiometer.reports.document import (
    Block, BulletList, Code, Definition, DefinitionList, Document, JsonStyle, Paragraph, Row, Section, Table, TableCell,
)
from axiometer.reports.numbers import DEFAULT_WIDTH, denoise, number
from axiometer.reports.render import check_format, formats_of, render
from axiometer.results import GinerRow, GinerTable, OutputRecord

__all__ = ["GINER_FORMATS", "format_giner", "giner_document", "CODES"]

GINER_FORMATS = formats_of("giner")

#: One-letter codes of the categories in table cells, in the legend's order.
CODES = {"interval/metric": "I", "ordinal/metric": "M", "ordinal/pseudometric": "P",
         "not a pseudometric": "N"}
#: What each code says.
_CODE_MEANING = {"I": "interval/metric (a metric and an interval scale)",
                 "M": "ordinal/metric (distinct outputs score differently)",
                 "P": "ordinal/pseudometric (some distinct outputs tie)",
                 "N": "not a pseudometric"}


def _columns(table: GinerTable) -> list[tuple[str, str]]:
    """``(column id, domain name)`` for every domain, set domains first."""
    return ([(f"S{i}", d) for i, d in enumerate(table.set_domains, 1)]
            + [(f"K{i}", d) for i, d in enumerate(table.rank_domains, 1)])


def _published(row: GinerRow, coded: bool = False) -> str:
    """Giner's category (its code in the table), with the case it is stated for."""
    if row.published is None:
        return "-"
    category = CODES.get(row.published, row.published) if coded else row.published
    return category + (f" ({row.entry.condition})" if row.entry.condition else "")


def _reproduced(row: GinerRow, ids: dict[str, str]) -> str:
    if row.skipped:
        return "not evaluated"
    if row.published is None:
        return "n/a"
    return ", ".join(ids[d] for d in row.reproduced_by) if row.reproduced_by else "none"


def _matrix(table: GinerTable) -> list[list[str]]:
    columns = _columns(table)
    ids = {name: cid for cid, name in columns}
    header = ["measure", "published"] + [cid for cid, _ in columns] + ["reproduced by"]
    rows = [header]
    for row in table.rows:
        cells = []
        for _, name in columns:
            category = row.category_on(name)
            cells.append(CODES.get(category, category) if category else "")
        rows.append([row.measure, _published(row, coded=True)] + cells + [_reproduced(row, ids)])
    return rows


def _differences(table: GinerTable) -> list[tuple[str, list[str]]]:
    out = []
    for row in table.differences:
        out.append((f"{row.measure} (published {_published(row)}, spec {row.entry.spec})", list(row.explanation)))
    return out


def _record_text(record: OutputRecord) -> str:
    value = record.exact if record.exact is not None else number(record.score)
    return f"{record.label} = {value}"


def _lacking(table: GinerTable) -> list[tuple[str, list[str]]]:
    """Per evaluated measure, each domain where a property fails, with that property's counterexample."""
    ids = {name: cid for cid, name in _columns(table)}
    out = []
    for row in table.rows:
        if row.skipped:
            continue
        items = []
        for result in row.results:
            failed = [p for p in result.properties if not p.holds]
            if not failed:
                continue
            parts = [f"{p.name}: " + (", ".join(_record_text(r) for r in p.counterexample)
                                      if p.counterexample else denoise(p.note)) for p in failed]
            items.append(f"{ids.get(result.domain, result.domain)} ({result.category}): " + "; ".join(parts))
        if items:
            out.append((row.measure, items))
    return out


def _legend(table: GinerTable) -> list[str]:
    """The codes the table uses, and what an empty cell means."""
    used = {c for r in _matrix(table)[1:] for c in r[1:]}
    shown = [f"{code} {_CODE_MEANING[code]}" for code in CODES.values()
             if any(cell == code or cell.startswith(code + " ") for cell in used)]
    return [f"Categories: {'; '.join(shown)}; an empty cell: the measure does not apply to the "
            "domain's kind of output."]


#: The formats the table of categories is written in as it is; LaTeX has its own (:func:`_latex_table`).
_NOT_LATEX = ("text", "markdown", "html", "json")


def _matrix_table(table: GinerTable) -> Table:
    matrix = _matrix(table)
    return Table(headers=tuple(TableCell((h,), header=True) for h in matrix[0]), aligned=False, formats=_NOT_LATEX,
                 rows=tuple(Row(tuple(TableCell((c,), header=k == 0) for k, c in enumerate(r))) for r in matrix[1:]))


def _latex_table(table: GinerTable) -> Table:
    """The table of categories for a paper: the rows and codes of the text's table (a difference is
    a row reproduced by ``none``), the domains and the codes in its note; the renderer escapes them."""
    matrix = _matrix(table)
    headers = ["Measure", "Published", *matrix[0][2:-1], "Reproduced by"]
    note = ["Domains: " + "; ".join(f"{cid} {name}" for cid, name in _columns(table)) + ".",
            _legend(table)[0] + " A difference: a published category no domain reproduces (none)."]
    skipped = [r for r in table.rows if r.skipped]
    if skipped:
        note.append("Not evaluated: " + "; ".join(f"{r.measure} ({r.skipped})" for r in skipped) + ".")
    return Table(headers=tuple(TableCell((h,), header=True) for h in headers),
                 rows=tuple(Row(tuple(TableCell((c,)) for c in r)) for r in matrix[1:]),
                 caption=("Giner's published category of each measure against ours on each domain.",),
                 label="tab:axiometer-giner", align="ll" + "c" * (len(headers) - 3) + "l",
                 note=tuple(Paragraph(parts=(n,)) for n in note), formats=("latex",))


def _listed(title: str, entries: list[tuple[str, list[str]]], intro: Sequence[Block] = (),
            empty: str = "") -> Section:
    """A section with a subsection per entry: its title, then its items as a list."""
    children: list[Block] = list(intro)
    if not entries and empty:
        children.append(Paragraph(parts=(empty,)))
    children += [Section(title=(name,), level=3, children=(
        BulletList(items=tuple((item,) for item in items), marker="  - ", tight=("text",)),))
                 for name, items in entries]
    return Section(title=(title,), level=2, id=title.lower(), toc=title, children=tuple(children))


def giner_document(table: GinerTable) -> Document:
    """The comparison's document: the domains, the table of categories and its legend, the measures
    not evaluated, every difference and every property a measure lacks, with its counterexample."""
    blocks: list[Block] = [
        DefinitionList(title=("Domains",), items=tuple(Definition((cid,), (Paragraph(parts=(Code(name),)),))
                                                       for cid, name in _columns(table))),
        _matrix_table(table), _latex_table(table),
        Paragraph(label="Categories", parts=(_legend(table)[0].removeprefix("Categories: "),))]
    skipped = [r for r in table.rows if r.skipped]
    if skipped:
        blocks.append(Paragraph(parts=("Not evaluated: " + "; ".join(f"{r.measure} ({r.skipped})" for r in skipped),)))
    differences = [(title, [denoise(e) for e in explanation]) for title, explanation in _differences(table)]
    blocks.append(_listed("Differences", differences,
                          empty="None: every published category is reproduced by at least one domain."))
    blocks.append(_listed("Counterexamples", _lacking(table), intro=(Paragraph(parts=(
        "Every property a measure lacks on a domain, with the outputs that break it (label = score).",)),)))
    return Document(title="Giner's Tables 2-3 against our classification", blocks=tuple(blocks), level=1,
                    data=lambda: _data(table), json=JsonStyle(ascii=True, finite=False),
                    preamble=("Generated by axiometer (axiometer intrinsic --table giner --format latex).",
                              "Requires \\usepackage{booktabs}."))


def _data(table: GinerTable) -> dict[str, Any]:
    def row_json(row: GinerRow) -> dict[str, Any]:
        # The JSON keeps its key "kind" for what the measure scores.
        return {"measure": row.measure, "kind": row.entry.scores, "spec": row.entry.spec,
                "published": row.published, "condition": row.entry.condition,
                "results": [dataclasses.asdict(r) for r in row.results],
                "reproduced_by": list(row.reproduced_by), "explanation": list(row.explanation),
                "skipped": row.skipped}

    return {"set_domains": list(table.set_domains), "rank_domains": list(table.rank_domains),
            "rows": [row_json(r) for r in table.rows]}


def format_giner(table: GinerTable, format: str = "text", width: int = DEFAULT_WIDTH) -> str:
    """Render ``table`` as ``text``, ``markdown``, ``latex``, ``html`` or ``json``; text lines wrapped to ``width``."""
    check_format("giner", format)
    return render(giner_document(table), format, width)
