"""Each result in a notebook: a compact HTML fragment (its ``_repr_html_``), registered on import.

:mod:`axiometer.views` asks for these views; importing this module registers one per result type
(the package root imports it the first time a view is asked for). A fragment is one ``<div
class="axiometer-nb">``: a small style scoped to that class, the result's title and settings
(folded), then the result; no page frame, no script, no picture (a notebook keeps every output,
and SVG is heavy). Every text is escaped by the HTML renderer
(:mod:`axiometer.reports.render.html`), as in the reports' pages.

The constraint table's view (``table`` and ``check``) is built here: the matrix (each mark coloured
by its verdict, the cell's summary as its tooltip, each column's meaning on its header), the
legend of the marks it uses, and, where a verdict depends on the parameters, the verdict at every
setting of the parameters that vary (the default setting marked) and each boundary located, in
a sentence. Every other result shows its report's page without pictures (a comparison, its runs
table with the marks' legend; the pairs are in ``to_pandas()``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from axiometer.agreement.result import AgreementResult, AuditResult
from axiometer.evidence import Evidence, Proof
from axiometer.meta.evaluation import MetaResult
from axiometer.metrics.base import format_value
from axiometer.reports.agreement import agreement_document, audit_document, property_blocks, query_text
from axiometer.reports.compare import comparison_document
from axiometer.reports.document import (
    Block, BulletList, Choice, Definition, DefinitionList, Document, Figure, Group, Inline, Paragraph, Row, Section,
    Span, Strong, Table, TableCell,
)
from axiometer.reports.intrinsic import intrinsic_document, parametric_document
from axiometer.reports.meta import meta_document
from axiometer.reports.render.html import block as html_block, escape
from axiometer.reports.scores import scores_document
from axiometer.reports.table.cells import (
    axiom_infos, boundary_sentence, curve_text, evidence_text, header_lines, mark_of, parameter_dependent,
    short_legend_items,
)
from axiometer.reports.table.drawn import css, unique
from axiometer.reports.table.proofs import proof_note, proof_text
from axiometer.reports.unanimity import unanimity_document
from axiometer.results import AxiomInfo, Cell, Check, IntrinsicResult, ParametricResult, TableResult
from axiometer.scoring import ScoreResult
from axiometer.significance import RunComparison
from axiometer.unanimity import Unanimity
from axiometer.views import CSS_CLASS, register

__all__ = ["STYLE", "fragment", "table_view", "document_view", "register_views"]

_C = f".{CSS_CLASS}"

#: The fragment's style, every rule scoped to its class (the notebook's own styles stay as they are).
STYLE = f"""
{_C} {{ line-height: 1.4; }}
{_C} p {{ margin: 0.3em 0; }}
{_C} h2, {_C} h3, {_C} h4 {{ font-size: 1em; margin: 0.7em 0 0.3em; }}
{_C} table {{ border-collapse: collapse; margin: 0.3em 0 0.6em; }}
{_C} th, {_C} td {{ border: 1px solid #d7d9dd; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }}
{_C} th {{ background: #f4f5f7; }}
{_C} caption {{ text-align: left; font-weight: 600; }}
{_C} td.num {{ text-align: right; font-variant-numeric: tabular-nums; }}
{_C} table.matrix td {{ text-align: center; font-weight: 600; min-width: 2.4em; }}
{_C} th[title] {{ cursor: help; }}
{_C} .satisfied, {_C} .witness {{ background: #dff3e3; color: #1d6b34; }}
{_C} .violated {{ background: #fbe2e0; color: #a4231b; }}
{_C} .error {{ background: #fff1c7; }}
{_C} .na, {_C} .not-run {{ background: #f0f0f0; color: #6b6f76; }}
{_C} .muted, {_C} summary {{ color: #6b6f76; }}
{_C} ul {{ margin: 0.2em 0; padding-left: 1.4em; }}
{_C} dl.legend {{ display: flex; flex-wrap: wrap; align-items: baseline; margin: 0.3em 0; font-size: 0.92em; }}
{_C} dl.legend dt {{ font-weight: 700; }}
{_C} dl.legend dd {{ margin: 0 1.1em 0 0.35em; }}
"""


def fragment(title: str, blocks: Sequence[Block], settings: Sequence[str] = ()) -> str:
    """``blocks`` as one self-contained fragment under ``title``, the ``settings`` lines folded."""
    out = [f'<div class="{CSS_CLASS}">', f"<style>{STYLE}</style>"]
    if title:
        out.append(f"<p><strong>{escape(title)}</strong></p>")
    if settings:
        out.append("<details><summary>settings</summary><ul>" + "".join(f"<li>{escape(line)}</li>" for line in settings)
                   + "</ul></details>")
    out += [line for b in blocks for line in html_block(b)]
    return "\n".join(out) + "\n</div>"


# -- the constraint table -----------------------------------------------------------------------

def _column_tip(constraint: str, info: AxiomInfo | None) -> str:
    if info is None:
        return constraint
    return f"{info.name or constraint}: {info.meaning}" if info.meaning else info.name or constraint


def _cell_tip(cell: Cell) -> str:
    """``row × constraint: summary; what its proofs say; ...``: each thing once."""
    parts = [cell.summary or cell.verdict, proof_note(cell), "projected" if cell.projected else "",
             cell.explanation or ""]
    return f"{cell.row} × {cell.constraint}: " + "; ".join(unique(parts))


def _matrix(result: TableResult) -> Table:
    infos = axiom_infos(result)
    headers = [TableCell(("metric",), header=True),
               *(TableCell((c,), header=True, tip=_column_tip(c, infos.get(c))) for c in result.constraints)]
    rows = []
    for row in result.rows:
        cells = [TableCell((row,), header=True)]
        for constraint in result.constraints:
            cell = result.cell(row, constraint)
            cells.append(TableCell(()) if cell is None else
                         TableCell((mark_of(cell),), css=css(cell.verdict), tip=_cell_tip(cell)))
        rows.append(Row(tuple(cells)))
    return Table(headers=tuple(headers), rows=tuple(rows), css="matrix")


def _legend(result: TableResult) -> DefinitionList:
    return DefinitionList(items=tuple(Definition((mark,), (Paragraph(parts=(meaning,)),))
                                      for mark, meaning in short_legend_items(result, None)))


def _one_setting(check: Check) -> Cell:
    """A check as the one-setting cell it is (its mark: verdict and flags)."""
    return Cell(check.metric, check.metric, check.constraint, check.verdict, str(check.verdict), (check,))


def _check_tip(check: Check) -> str:
    """A check's verdict and, in brief, its witness, counterexample or error."""
    found = (check.witness.value if check.witness else check.counterexample.note if check.counterexample
             else check.error.message if check.error else "")
    return f"{check.metric}: {check.verdict}" + (f": {found}" if found else "")


def _order(value: Any) -> tuple[int, float, str]:
    """Numbers in numeric order, then everything else by its text."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (0, float(value), "")
    return (1, 0.0, str(value))


def _settings_table(cells: Sequence[Cell]) -> Table:
    """One metric's parameter-dependent cells: a row per setting (the parameters that vary, in
    order; the default marked), a column per cell, each check's mark."""
    settings: dict[str, Check] = {}
    for cell in cells:
        for check in cell.checks:
            settings.setdefault(check.metric, check)
    names = list(dict.fromkeys(name for check in settings.values() for name, _ in check.params))
    varying = [n for n in names if len({repr(dict(c.params).get(n)) for c in settings.values()}) > 1]
    ordered = sorted(settings.values(), key=lambda c: [_order(dict(c.params).get(n)) for n in varying])
    rows = []
    for check in ordered:
        values = [format_value(dict(check.params).get(n)) for n in varying] or [check.metric]
        default = [" ", Span(("(default)",), "muted")] if check.metric == cells[0].metric else []
        heads = [TableCell((v, *(default if k == len(values) - 1 else ())), header=True) for k, v in enumerate(values)]
        marks = []
        for cell in cells:
            found = next((c for c in cell.checks if c.metric == check.metric), None)
            marks.append(TableCell(()) if found is None else
                         TableCell((mark_of(_one_setting(found)),), css=css(found.verdict), tip=_check_tip(found)))
        rows.append(Row((*heads, *marks)))
    headers = [*(varying or ["setting"]), *(cell.constraint for cell in cells)]
    return Table(headers=tuple(TableCell((h,), header=True) for h in headers), rows=tuple(rows), css="matrix",
                 caption=(cells[0].row,))


def _dependence(result: TableResult) -> list[Block]:
    """Where a verdict depends on the parameters: the verdict at each setting, the boundaries."""
    dependent = [cell for cell in result.cells if parameter_dependent(cell)]
    if not dependent:
        return []
    blocks: list[Block] = [Paragraph(parts=(Strong(("Where a verdict depends on the parameters",)),
                                            " (~): the verdict at each setting checked"))]
    for row in result.rows:
        cells = [cell for cell in dependent if cell.row == row]
        if cells:
            blocks.append(_settings_table(cells))
    items: list[tuple[Inline, ...]] = [(f"{c.row} × {c.constraint}: {c.summary}",) for c in dependent]
    items += [(f"{c.row} × {c.constraint}: {boundary_sentence(b)}",) for c in dependent for b in c.boundaries]
    items += [(f"{c.row} × {c.constraint}: {curve_text(k)}",) for c in dependent for k in c.curves]
    blocks.append(BulletList(items=tuple(items)))
    return blocks


def table_view(result: TableResult) -> str:
    """The constraint table's fragment: the matrix, its legend, the parameter dependence."""
    if len(result.rows) == 1:
        count = len(result.constraints)
        title = f"{result.rows[0]}: {count} constraint{'s' if count != 1 else ''} checked"
    else:
        title = f"Constraint table: {len(result.rows)} metrics × {len(result.constraints)} constraints"
    hint = Paragraph(parts=("Hover a mark for its cell's summary, a column for its meaning. to_pandas(): one row per "
                            "metric × constraint × setting. Every counterexample: report.details() "
                            "(axiometer.check), format_table(table) (axiometer.reports.table).",), css="muted")
    return fragment(title, [_matrix(result), _legend(result), *_dependence(result), hint], header_lines(result))


# -- every other result: its page, without pictures ---------------------------------------------

def _compact(blocks: Sequence[Block]) -> list[Block]:
    """The blocks a page shows, without pictures (a section left empty goes too) and without ids
    (two fragments in one notebook must not share one)."""
    out: list[Block] = []
    for block in blocks:
        if not block.shown_in("html") or isinstance(block, Figure):
            continue
        if isinstance(block, Choice):
            out += _compact(block.options[0] if block.options else ())
            continue
        if isinstance(block, (Section, Group)):
            children = tuple(_compact(block.children))
            if not children:
                continue
            block = dataclasses.replace(block, children=children, id="", formats=None)
        out.append(block)
    return out


def document_view(document: Document, keep: Sequence[str] = (), after: Sequence[Block] = (),
                  drop: Sequence[Block] = ()) -> str:
    """A report's page as a fragment: its title, its settings (folded), its blocks without pictures
    (``keep``: only the sections with these ids, when any has one; ``drop``: not these), then ``after``."""
    blocks = [b for b in document.blocks if b not in drop]
    kept = [b for b in blocks if isinstance(b, Section) and b.id in keep]
    return fragment(document.page_title or document.title, [*_compact(kept or blocks), *after],
                    document.page_subtitle or document.subtitle)


def _comparison_view(comparison: RunComparison) -> str:
    """The runs table with its marks' legend; the pairs are in to_pandas()."""
    note = Paragraph(parts=("to_pandas(): one row per metric × pair of runs, with every test's p-value.",),
                     css="muted")
    return document_view(comparison_document(comparison), keep=("runs",), after=(note,))


def _agreement_view(result: AgreementResult) -> str:
    """The verdict, the minimal case, and the properties as a table (a mark per property)."""
    rows = tuple(Row((TableCell(("✓" if p.holds else "✗",), css="satisfied" if p.holds else "violated"),
                      TableCell((p.name,)), TableCell((p.statement,)),
                      TableCell(("" if p.holds else (f"{query_text(p.query)}: " if p.query else "") + p.detail,))))
                 for p in result.properties)
    table = Table(headers=tuple(TableCell((h,), header=True) for h in ("", "property", "statement", "fails on")),
                  rows=rows, caption=("Properties: ✓ holds on every query tried, ✗ fails",))
    return document_view(agreement_document(result), drop=property_blocks(result.properties), after=(table,))


def _fields(title: str, fields: Sequence[tuple[str, str]]) -> str:
    return fragment(title, [DefinitionList(items=tuple(Definition((name,), (Paragraph(parts=(value,)),))
                                                       for name, value in fields), style="fields", css="fields")])


def _evidence_view(evidence: Evidence) -> str:
    fields = [("strength", str(evidence.strength)), ("rests on", evidence_text(evidence)),
              ("decisions", "exact" if evidence.exact else "on floats, within a tolerance")]
    return _fields(f"Evidence: {evidence.strength}", fields)


def _proof_view(proof: Proof) -> str:
    return _fields("Proof", [("proved", proof_text(proof)), ("seconds", f"{proof.seconds:.3g}"),
                             ("formulas kept", str(len(proof.formulas)))])


def register_views() -> None:
    """Register the view of every result type with :mod:`axiometer.views` (done on import; again
    is harmless)."""
    views: list[tuple[type, Callable[[Any], str]]] = [
        (TableResult, table_view),
        (ScoreResult, lambda result: document_view(scores_document(result))),
        (RunComparison, _comparison_view),
        (MetaResult, lambda result: document_view(meta_document(result))),
        (IntrinsicResult, lambda result: document_view(intrinsic_document(result))),
        (ParametricResult, lambda result: document_view(parametric_document(result))),
        (Unanimity, lambda result: document_view(unanimity_document((result,)))),
        (AgreementResult, _agreement_view),
        (AuditResult, lambda result: document_view(audit_document(result))),
        (Evidence, _evidence_view),
        (Proof, _proof_view),
    ]
    for kind, view in views:
        register(kind, view)


register_views()
