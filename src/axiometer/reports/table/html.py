"""HTML: the constraint table (``table``, ``check``) as one self-contained page.

The page (frame and style from :mod:`axiometer.reports.html`) holds, in order:

- the matrix: each column header carries its constraint's meaning as a
  tooltip (from :attr:`TableResult.axioms <axiometer.results.TableResult>`,
  the id when there is none) and links to "What the columns mean"; each
  cell's mark links to the cell's evidence (``#cell-ROW-COLUMN``);
- the legend of every mark the page uses;
- what each column means: name, meaning, the formal relation, conditions, source;
- with ``--compare``, the published table set against ours as a table
  (every published mark is reconstructed from the paper's prose; ``?``
  where the paper leaves a cell open), each differing cell with what may
  account for it;
- the boundaries located (``--boundaries``, or a range ``--param
  p=0.5..0.99``): what they mean (``BOUNDARIES_INTRO``), then per cell one
  sentence per boundary and one line per two-parameter curve, the text
  report's own words (:func:`~axiometer.reports.table.cells.boundary_sentence`,
  :func:`~axiometer.reports.table.cells.curve_text`), with a picture of
  each: the located verdict along the parameter, or the boundary curve;
- the parameter-dependent cells, each with a verdict strip (one parameter)
  or grid (two);
- the evidence of every cell: each counterexample drawn as the two
  rankings ``a`` and ``b`` side by side, every document with its relevance
  per aspect and the positions the construction changed highlighted, both
  scores and the relation that fails; witnesses (with the ``D(n)`` curve of
  DeepTh and CloseTh), errors and explanations; what each satisfied or
  witness verdict rests on (its evidence line); the cell's boundaries.

Pictures are matplotlib figures from :mod:`axiometer.reports.plots`, inlined
as SVG; nothing is fetched when the page opens.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from axiometer.reports.html import data_table, definitions, escape, page, picture
from axiometer.reports.numbers import denoise, number, numbers_apart
from axiometer.reports.table.cells import (
    BOUNDARIES_INTRO, MARKS, OPEN_FLAG, axiom_infos, boundary_lines, boundary_sentence, cases_text, cell_lines,
    cell_mark, counterexample_sentence, curve_text, evidence_text, glossary, header_lines, legend_items,
    other_mode_name, output_text, parameter_dependent,
)
from axiometer.reports.table.comparison import difference_reasons, differing, left_open
from axiometer.results import (
    HOLDS, AxiomInfo, Cell, Check, PublishedComparison, Counterexample, TableResult, TopicRecord,
)

__all__ = ["table_html", "check_html"]

#: What a published mark says (the comparison table's legend).
_PUBLISHED = {"1": "published: satisfied (as read from the paper's prose)",
              "0": "published: not satisfied, including \"undefined for graded relevance\" (as read from the prose)",
              "?": "published: open (the prose does not say, or says both); not counted"}

#: Rankings up to this long are drawn whole; longer ones fold the unchanged stretches.
_DRAW_ALL = 24


# -- names and anchors ------------------------------------------------------------------------

def _anchor(result: TableResult, cell: Cell) -> str:
    """A unique id per cell: its row and column numbers (titles may hold any character)."""
    return f"cell-{result.rows.index(cell.row) + 1}-{result.constraints.index(cell.constraint) + 1}"


def _short(anchor: str) -> str:
    """A picture's id prefix from its cell's anchor: ``cell-12-3`` -> ``p12_3``."""
    return "p" + anchor.removeprefix("cell-").replace("-", "_")


def _column_tip(constraint: str, info: AxiomInfo | None) -> str:
    """A column header's tooltip: "Name: meaning", or the id when the run did not say."""
    if info is None:
        return constraint
    name = info.name or constraint
    return f"{name}: {info.meaning}" if info.meaning else name


def _unique(parts: Sequence[str]) -> list[str]:
    """``parts`` without empty or repeated items: a tooltip says each thing once."""
    seen: list[str] = []
    for part in parts:
        part = part.strip()
        if part and part not in seen:
            seen.append(part)
    return seen


def _cell_tip(cell: Cell, info: AxiomInfo | None, differs: str | None) -> str:
    """One line: the cell, its summary, the other mode, the explanation, each said once.

    ``cell.summary`` already names the verdict ("violated", "witness for p >=
    0.8; violated for p = 0.5"), and the explanation starts with "holds
    when ...", so neither repeats the verdict.
    """
    name = f" ({info.name})" if info and info.name and info.name != cell.constraint else ""
    parts = [cell.summary or cell.verdict]
    if cell.projected:
        parts.append("projected")
    if cell.other_mode is not None and cell.other_mode != cell.verdict:
        parts.append(f"in {other_mode_name(cell)} mode: {cell.other_mode}")
    if cell.explanation:
        parts.append(cell.explanation)
    if differs:
        parts.append(differs)
    return f"{cell.row} × {cell.constraint}{name}: " + "; ".join(_unique(parts))


def _css(verdict: str) -> str:
    return {"n/a": "na", "not run": "not-run"}.get(verdict, verdict)


# -- the matrix, the legend, the meanings -----------------------------------------------------

def _matrix(result: TableResult, comparison: PublishedComparison | None) -> str:
    infos = axiom_infos(result)
    differs = differing(comparison)
    published = _published_marks(comparison) if comparison else {}
    open_cells = left_open(comparison)
    out = ['<table class="matrix"><thead><tr><th class="row" scope="col">metric</th>']
    for j, constraint in enumerate(result.constraints, 1):
        tip = _column_tip(constraint, infos.get(constraint))
        out.append(f'<th scope="col" title="{escape(tip)}"><a href="#axiom-{j}">{escape(constraint)}</a></th>')
    out.append("</tr></thead><tbody>")
    for row in result.rows:
        out.append(f'<tr><th class="row" scope="row">{escape(row)}</th>')
        for constraint in result.constraints:
            cell = result.cell(row, constraint)
            if cell is None:
                out.append("<td></td>")
                continue
            cell_differs = (row, constraint) in differs
            cell_open = (row, constraint) in open_cells
            note = (f"differs from {comparison.table}, which marks it {published.get((row, constraint), '?')}"
                    if cell_differs and comparison else None)
            classes = _css(cell.verdict) + (" differs" if cell_differs else "")
            tip = _cell_tip(cell, infos.get(constraint), note)
            out.append(f'<td class="{classes}" title="{escape(tip)}"><a href="#{_anchor(result, cell)}">'
                       f"{escape(cell_mark(cell, cell_differs, open=cell_open))}</a></td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _legend(result: TableResult, comparison: PublishedComparison | None) -> str:
    items = legend_items(result, comparison)
    if left_open(comparison):
        items.append((OPEN_FLAG, f"left open by {comparison.table}: its prose does not decide the cell "
                                 "(not counted in the agreement)"))
    items.append(("link", "each mark links to its cell's evidence below; hover a column header for "
                          "what the constraint means, a cell for its summary"))
    return definitions(items)


def _meanings(result: TableResult) -> str:
    infos = axiom_infos(result)
    out = ['<dl class="meanings">']
    for j, constraint in enumerate(result.constraints, 1):
        info = infos.get(constraint)
        if info is None:
            out.append(f'<dt id="axiom-{j}">{escape(constraint)}</dt><dd class="muted">no description '
                       "was recorded for this column</dd>")
            continue
        title = escape(constraint) + (f" — {escape(info.name)}" if info.name and info.name != constraint else "")
        out.append(f'<dt id="axiom-{j}">{title}</dt>')
        if info.meaning:
            out.append(f"<dd>{escape(info.meaning)}</dd>")
        if info.relation:
            out.append(f"<dd>Formally: <code>{escape(info.relation)}</code></dd>")
        if info.conditions:
            out.append("<dd>When: " + "; ".join(escape(c) for c in info.conditions) + "</dd>")
        if info.source:
            out.append(f'<dd class="muted">Source: {escape(info.source)}</dd>')
    out.append("</dl>")
    return "".join(out)


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


def _comparison(result: TableResult, comparison: PublishedComparison) -> list[str]:
    stated = _published_marks(comparison)
    differs = differing(comparison)
    open_cells = left_open(comparison)
    uncompared = {(d.row, d.constraint) for d in comparison.not_compared}
    out = [f"<p><strong>Agreement with {escape(comparison.table)}: {comparison.agree} of {comparison.total} "
           f"decided cells ({100 * comparison.rate:.1f}%)</strong>; ours holds when it is satisfied or has a "
           f"witness. {_count(len(comparison.differences), 'cell differs', 'cells differ')}; "
           f"{_count(len(comparison.undecided), 'cell', 'cells')} the paper leaves open (?) "
           f"{'is' if len(comparison.undecided) == 1 else 'are'} not counted.</p>",
           f"<p>The published marks are <em>reconstructed</em>, every one of them: the paper's table lost "
           f"its marks in the text extraction, so {escape(comparison.table)}'s marks are read from what its "
           "section 4 says (definitions §7), and a cell the prose does not decide is <strong>?</strong> "
           "(left open). Each cell reads <em>published · ours</em> and links to our evidence.</p>"]
    out.append('<table class="matrix"><thead><tr><th class="row" scope="col">metric</th>'
               + "".join(f'<th scope="col">{escape(c)}</th>' for c in result.constraints) + "</tr></thead><tbody>")
    for row in result.rows:
        if row in comparison.unmatched:
            continue
        out.append(f'<tr><th class="row" scope="row">{escape(row)}</th>')
        for constraint in result.constraints:
            cell = result.cell(row, constraint)
            if cell is None:
                out.append("<td></td>")
                continue
            key = (row, constraint)
            ours = cell_mark(cell)
            if key in stated:
                mark = stated[key]
            else:  # agreeing: the published mark is the one our verdict matches
                mark = "1" if cell.verdict in HOLDS else "0"
            if key in differs:
                css, state = _css(cell.verdict) + " differs", "differs"
            elif key in open_cells:
                css, state = "open", "open in the paper (?), not counted"
            elif key in uncompared:
                css, state = _css(cell.verdict), "not compared (error or not run)"
            else:
                css, state = _css(cell.verdict), "agrees"
            tip = (f"{row} × {constraint}: published {mark} (reconstructed from the prose), "
                   f"ours {cell.verdict}: {state}")
            out.append(f'<td class="{css}" title="{escape(tip)}"><a href="#{_anchor(result, cell)}">'
                       f"{escape(mark)} · {escape(ours)}</a></td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    out.append(definitions([
        *_PUBLISHED.items(),
        ("· ✓", "after the dot: our mark, as in the matrix above"),
        ("outlined", "the cell differs from the published mark"),
        ("grey", "the paper leaves the cell open (?)"),
    ]))
    if comparison.differences:
        out.append("<h3>Cells that differ, and what may account for each</h3>")
        rows = []
        for d in comparison.differences:
            link = f'<a href="#{_anchor(result, d.cell)}">{escape(d.row)} × {escape(d.constraint)}</a>'
            rows.append((link, escape(d.published), escape(d.ours),
                         "<br>".join(escape(denoise(r)) for r in difference_reasons(d.cell))))
        out.append(data_table(("cell", "published", "ours", "what may account for it"), rows, raw=True))
    if comparison.undecided:
        out.append("<h3>Cells the paper leaves open (?)</h3><p>"
                   + ", ".join(f'<a href="#{_anchor(result, d.cell)}">{escape(d.row)} × {escape(d.constraint)}</a>'
                               f" = {escape(d.ours)}" for d in comparison.undecided) + "</p>")
    if comparison.not_compared:
        out.append("<p>Not compared (error or not run): "
                   + ", ".join(f'<a href="#{_anchor(result, d.cell)}">{escape(d.row)} × {escape(d.constraint)}</a>'
                               f" = {escape(d.ours)}" for d in comparison.not_compared) + "</p>")
    if comparison.unmatched:
        out.append(f"<p>Rows without a published row: {escape(', '.join(comparison.unmatched))}</p>")
    return out


# -- evidence: rankings side by side ----------------------------------------------------------

def _relevance_cells(topic: TopicRecord, doc: str | None) -> str:
    if doc is None:
        return "".join('<td class="r0"></td>' for _ in topic.aspects)
    return "".join(f'<td class="{"r0" if value == "0" else "rel"}">{escape(value)}</td>'
                   for value in topic.relevance(doc))


def _shown_positions(a: Sequence[str], b: Sequence[str], changed: Sequence[bool]) -> list[bool]:
    """Which positions to draw: all of a short pair; of a long one, each changed position with its
    neighbours, the first and the last, and at most six of a long changed stretch."""
    n = len(changed)
    if n <= _DRAW_ALL:
        return [True] * n
    shown = [False] * n
    for i, c in enumerate(changed):
        if c:
            for k in (i - 1, i, i + 1):
                if 0 <= k < n:
                    shown[k] = True
    shown[0] = shown[-1] = True
    i = 0
    while i < n:  # a long stretch of shown positions keeps its three first and three last
        if not shown[i]:
            i += 1
            continue
        j = i
        while j < n and shown[j]:
            j += 1
        if j - i > 8:
            for k in range(i + 3, j - 3):
                shown[k] = False
        i = j
    return shown


def _fold_text(topic: TopicRecord, docs: Sequence[str | None]) -> str:
    """A folded stretch of one ranking: ``n5 … n60 (56 documents, r = 0)``."""
    present = [d for d in docs if d is not None]
    if not present:
        return "—"
    values = {topic.relevance(d) for d in present}
    relevance = ("r = " + ", ".join(next(iter(values)))) if len(values) == 1 else "various relevance"
    span = present[0] if len(present) == 1 else f"{present[0]} … {present[-1]}"
    return f"{span} ({len(present)} documents, {relevance})"


def _ranking_table(label: str, score: str, ranking: Sequence[str | None], topic: TopicRecord,
                   changed: Sequence[bool], shown: Sequence[bool]) -> str:
    """One ranking as a table: position, document, its relevance per aspect; changed positions marked."""
    single = len(topic.aspects) == 1
    heads = ["r(d)"] if single else [f"r(d,{t})" for t in topic.aspects]
    titles = ["relevance"] if single else [f"relevance to aspect {t} (weight {w})"
                                          for t, w in zip(topic.aspects, topic.weights)]
    out = [f'<table class="ranking"><caption>{escape(label)} <span class="muted">{escape(score)}</span></caption>',
           "<thead><tr><th>#</th><th>doc</th>"
           + "".join(f'<th title="{escape(t)}">{escape(h)}</th>' for h, t in zip(heads, titles))
           + "</tr></thead><tbody>"]
    i, n = 0, len(ranking)
    if n == 0:
        out.append(f'<tr class="gap"><td colspan="{2 + len(heads)}">(empty)</td></tr>')
    while i < n:
        if shown[i]:
            doc = ranking[i]
            css = ' class="changed"' if changed[i] else ""
            out.append(f'<tr{css}><td class="pos">{i + 1}</td><td class="mono">{escape(doc or "")}</td>'
                       f"{_relevance_cells(topic, doc)}</tr>")
            i += 1
            continue
        j = i
        while j < n and not shown[j]:
            j += 1
        out.append(f'<tr class="gap"><td colspan="{2 + len(heads)}">positions {i + 1}–{j}: '
                   f"{escape(_fold_text(topic, ranking[i:j]))}</td></tr>")
        i = j
    out.append("</tbody></table>")
    return "".join(out)


def _context_text(context: Sequence[Sequence[str]]) -> str:
    if not context:
        return "none"
    return "; ".join(f"s{i} = {' '.join(r) if r else '(empty)'}" for i, r in enumerate(context, 1))


def _sentence(text: str, capital: bool = True) -> str:
    """``text`` as a sentence: a full stop, and a capital first letter (the rest untouched) unless
    it starts with a name that must keep its case (``b = a with ...``)."""
    text = text.strip()
    if capital:
        text = text[:1].upper() + text[1:]
    return text + ("" if text.endswith((".", "!", "?")) else ".")


def _decided(cx: Counterexample) -> str:
    return "decided exactly" if cx.decided == "exact" else "decided on floats"


def _counterexample(cx: Counterexample, info: AxiomInfo | None) -> list[str]:
    """A counterexample drawn: the sentence instantiating the constraint's meaning, the rankings
    side by side (or the one scored output), the relation that fails and the case's parameters."""
    topic = cx.topic
    out = ['<div class="counterexample">',
           f'<p class="sentence">{escape(_sentence(counterexample_sentence(cx, info), capital=False))}</p>']
    if len(topic.aspects) > 1:
        out.append("<p>Aspects (weight): " + ", ".join(f"{escape(t)} ({escape(w)})"
                                                        for t, w in zip(topic.aspects, topic.weights)) + "</p>")
    one_output = (cx.a == cx.b and cx.context_b is None and cx.score_a == cx.score_b) or cx.score_a != cx.score_a
    if one_output:  # a property of one scored output (Bounded, Finite, ...)
        n = len(cx.a)
        out.append('<div class="pair">' + _ranking_table("ranking", f"Q = {number(cx.score_a)}", cx.a, topic,
                                                          [False] * n, _shown_positions(cx.a, cx.a, [False] * n))
                   + "</div>")
        if cx.context_a is not None:
            out.append(f"<p>Other systems: <span class=\"mono\">{escape(_context_text(cx.context_a))}</span></p>")
    else:
        n = max(len(cx.a), len(cx.b))
        a = [*cx.a, *[None] * (n - len(cx.a))]
        b = [*cx.b, *[None] * (n - len(cx.b))]
        changed = [x != y for x, y in zip(a, b)]
        shown = _shown_positions(a, b, changed)
        # The digits that tell the two scores apart (6 significant digits, more when those tie).
        finite = math.isfinite(cx.score_a) and math.isfinite(cx.score_b)
        text_a, text_b = numbers_apart(cx.score_a, cx.score_b) if finite else (number(cx.score_a),
                                                                                number(cx.score_b))
        out.append('<div class="pair">'
                   + _ranking_table("a", f"Q(a) = {text_a}", a[:len(cx.a)], topic, changed, shown)
                   + _ranking_table("b", f"Q(b) = {text_b}", b[:len(cx.b)], topic, changed, shown)
                   + "</div>")
        if cx.context_a is not None:
            label = "Other systems" if cx.context_b is None else "Other systems for a"
            out.append(f"<p>{label}: <span class=\"mono\">{escape(_context_text(cx.context_a))}</span></p>")
        if cx.context_b is not None:
            out.append(f"<p>Other systems for b: <span class=\"mono\">{escape(_context_text(cx.context_b))}</span></p>")
    out.append(f'<p class="relation">Required <code>{escape(cx.relation)}</code>: '
               f'<span class="fails">fails</span> ({_decided(cx)}).</p>')
    signs = dict(cx.extra).get("signs")
    if signs:
        out.append(f"<p class=\"muted\">Sign of D = Q(a) − Q(b) along the grid: {escape(signs)}</p>")
    out.append("</div>")
    return out


# -- evidence: a check, a cell ----------------------------------------------------------------

def _check(check: Check, info: AxiomInfo | None, prefix: str) -> list[str]:
    out = ['<div class="check">',
           f"<h4>{escape(check.metric)}, {escape(check.mode)} mode: "
           f'<span class="badge {_css(check.verdict)}">{escape(MARKS.get(check.verdict, check.verdict))}</span>'
           f"{escape(check.verdict)}</h4>"]
    if check.counterexample is not None:
        out += _counterexample(check.counterexample, info)
    elif check.witness is not None:
        w = check.witness
        text = f"Witness <strong>{escape(denoise(w.value))}</strong>" + (f" ({escape(denoise(w.note))})"
                                                                         if w.note else "")
        if w.by_truncation:
            text += "; by truncation: documents past the cutoff"
        out.append(f"<p>{text}.</p>")
        if w.signs:
            out.append("<ul class=\"muted\">" + "".join(f"<li>sign of D = Q(a) − Q(b): {escape(part)}</li>"
                                                      for part in w.signs.split("; ")) + "</ul>")
    elif check.error is not None:
        out.append(f"<p class=\"fails\">Error: {escape(check.error.message)}</p>")
        if check.error.ranking is not None:
            ranking = check.error.ranking
            topic = check.error.topic or TopicRecord(("*",), ("1",), ())
            out.append('<div class="pair">' + _ranking_table("on the ranking", "", ranking, topic,
                                                              [False] * len(ranking), [True] * len(ranking))
                       + "</div>")
    elif check.verdict == "satisfied":
        out.append(f"<p>No counterexample in {escape(cases_text(check))}.</p>")
    if check.evidence is not None:
        out.append(f'<p class="evidence">Evidence: {escape(evidence_text(check.evidence))}.</p>')
    if check.curve:
        from axiometer.reports import plots

        n = "m" if check.constraint == "CloseTh" else "n"
        marked = ("the witness" if check.witness is not None
                  else f"the counterexample's {n}" if check.counterexample is not None else "")
        out.append(picture(lambda: plots.threshold_curve(check), prefix,
                           f"D({n}) = Q(a_{n}) − Q(b_{n}) for {check.metric} against {n} (log scale), one line "
                           f"per rc, with where its sign changes" + (f" and {marked}" if marked else "") + "."))
    if check.note:
        out.append(f'<p class="muted">Note: {escape(denoise(check.note))}</p>')
    if check.output_chars:
        out.append(f'<p class="muted">The metric printed: <code>{escape(output_text(check, limit=len(check.output)))}</code></p>')
    out.append("</div>")
    return out


def _varying(cell: Cell) -> list[str]:
    """The parameters whose value differs between the cell's checks."""
    values: dict[str, set[str]] = {}
    for check in cell.checks:
        for name, value in check.params:
            values.setdefault(name, set()).add(repr(value))
    return [name for name, seen in values.items() if len(seen) > 1]


def _cell(result: TableResult, cell: Cell, info: AxiomInfo | None, differs: bool, open: bool) -> list[str]:
    """A cell's evidence as a section (its id is what the matrix links to)."""
    anchor = _anchor(result, cell)
    mark = cell_mark(cell, differs, open=open)
    title = f"{cell.row} × {cell.constraint}"
    name = f' <span class="muted">{escape(info.name)}</span>' if info and info.name != cell.constraint else ""
    out = [f'<section class="cell" id="{anchor}">',
           f'<h3><span class="badge {_css(cell.verdict)}">{escape(mark)}</span>{escape(title)}{name}</h3>']
    said = [cell.summary or cell.verdict]
    if cell.projected:
        said.append("projected: an aspect-blind metric, computed on r(d) = max_t r(d,t)")
    if cell.other_mode is not None:
        said.append(f"in {other_mode_name(cell)} mode: {cell.other_mode}")
    out.append(f"<p>{escape(_sentence('; '.join(_unique(said))))}</p>")
    if cell.explanation:
        out.append(f"<p><strong>Explanation:</strong> {escape(cell.explanation)}</p>")
    if cell.boundaries or cell.curves:
        out.append(f'<p><strong>Boundaries</strong> <a href="#boundaries-{anchor}">(pictures)</a>:</p>')
        out.append(_boundary_list(cell))
    if parameter_dependent(cell):
        varying = _varying(cell)
        if len(varying) in (1, 2):
            from axiometer.reports import plots

            draw = (lambda: plots.verdict_strip(cell)) if len(varying) == 1 else (lambda: plots.verdict_grid(cell))
            out.append(picture(draw, f"{_short(anchor)}r",
                               f"{cell.row} × {cell.constraint}: the verdict at each setting of "
                               f"{' and '.join(varying)}."))
    default = cell.default_check
    if default is not None:
        shown = [default]
        for check in cell.checks:  # a parameter-dependent cell: the first setting of every other verdict too
            if check.verdict not in {c.verdict for c in shown}:
                shown.append(check)
        for k, check in enumerate(shown, 1):
            out += _check(check, info, f"{_short(anchor)}c{k}")
    out.append('<p class="back"><a href="#matrix">↑ back to the matrix</a></p></section>')
    return out


# -- boundaries ---------------------------------------------------------------------------------

def _boundary_list(cell: Cell) -> str:
    """A cell's boundaries as a list: one sentence per boundary, one line per curve (the text
    report's words)."""
    items = [_sentence(boundary_sentence(b), capital=False) for b in cell.boundaries]
    items += [_sentence(curve_text(c), capital=False) for c in cell.curves]
    return '<ul class="boundaries">' + "".join(f"<li>{escape(item)}</li>" for item in items) + "</ul>"


def _boundaries(result: TableResult) -> list[str]:
    """The Boundaries section: what a boundary line means, then each cell that has any, with its
    sentences and a picture per parameter (the verdict along it) and per curve."""
    from axiometer.reports import plots

    out = ['<section id="boundaries"><h2>Boundaries</h2>']
    heading, _, meaning = BOUNDARIES_INTRO.partition(": ")
    out.append(f"<p>{escape(_sentence(meaning))}</p>" if heading == "Boundaries" else
               f"<p>{escape(BOUNDARIES_INTRO)}</p>")
    for cell in result.cells:
        if not (cell.boundaries or cell.curves):
            continue
        anchor = _anchor(result, cell)
        name = f"{cell.row} × {cell.constraint}"
        out.append(f'<div class="boundary" id="boundaries-{anchor}"><h3><a href="#{anchor}">{escape(name)}</a>'
                   f' <span class="muted">{escape(cell.summary)}</span></h3>')
        out.append(_boundary_list(cell))
        params = list(dict.fromkeys(b.param for b in cell.boundaries))
        for k, param in enumerate(params, 1):
            found = [b for b in cell.boundaries if b.param == param]
            caption = (f"{name}: the located verdict along {param} (the other parameters fixed), each "
                       "boundary marked, the grid's checks on that line under it. "
                       + " ".join(_sentence(plots.boundary_caption(b), capital=False) for b in found))
            out.append(picture(lambda cell=cell, param=param: plots.boundary_strip(cell, param),
                               f"{_short(anchor)}b{k}", caption))
        for k, curve in enumerate(cell.curves):
            caption = (f"{name}: the boundary of {curve.param} located at each {curve.over} (points joined "
                       f"by straight lines), the regions below and above shaded by verdict, the grid's "
                       f"checks marked with their verdicts.")
            out.append(picture(lambda cell=cell, k=k: plots.boundary_curve(cell, k), f"{_short(anchor)}k{k + 1}",
                               caption))
        out.append("</div>")
    out.append("</section>")
    return out


# -- the page -----------------------------------------------------------------------------------

def table_html(result: TableResult, comparison: PublishedComparison | None, title: str = "Constraint table") -> str:
    """The table as one self-contained HTML page (see the module docstring)."""
    infos = axiom_infos(result)
    differs, open_cells = differing(comparison), left_open(comparison)
    # The abbreviations the evidence uses (rc, m, rmax, ...), as the text report lists them.
    terms = glossary([*header_lines(result),
                      *(line for c in result.cells for line in cell_lines(c, info=infos.get(c.constraint))),
                      *(line for c in result.cells for line in boundary_lines(c))])
    located = any(c.boundaries or c.curves for c in result.cells)
    # The matrix with its legend beside it (below it on a narrow screen), the boundaries located,
    # then the abbreviations.
    body = ['<section id="matrix"><h2>The matrix</h2><div class="side-by-side">',
            f"<div>{_matrix(result, comparison)}</div>",
            f'<div id="legend"><h3>Legend</h3>{_legend(result, comparison)}</div>', "</div></section>",
            *(_boundaries(result) if located else []),
            *(['<section id="abbreviations"><h2>Abbreviations</h2>', definitions(terms, "legend terms"),
               "</section>"] if terms else []),
            '<section id="meanings"><h2>What the columns mean</h2>', _meanings(result), "</section>"]
    toc = [("matrix", "Matrix"), ("legend", "Legend"), *([("boundaries", "Boundaries")] if located else []),
           *([("abbreviations", "Abbreviations")] if terms else []), ("meanings", "What the columns mean")]
    if comparison is not None:
        body += [f'<section id="comparison"><h2>Comparison with {escape(comparison.table)}</h2>',
                 *_comparison(result, comparison), "</section>"]
        toc.append(("comparison", "Comparison"))
    dependent = [c for c in result.cells if parameter_dependent(c)]
    if dependent:
        body.append('<section id="parameters"><h2>Verdicts that depend on the parameters</h2><ul>')
        body += [f'<li><a href="#{_anchor(result, c)}">{escape(c.row)} × {escape(c.constraint)}</a>: '
                 f"{escape(c.summary)}</li>" for c in dependent]
        body.append("</ul></section>")
        toc.append(("parameters", "Parameter dependence"))
    body.append('<section id="evidence"><h2>Evidence, cell by cell</h2>')
    for cell in result.cells:
        key = (cell.row, cell.constraint)
        body += _cell(result, cell, infos.get(cell.constraint), key in differs, key in open_cells)
    body.append("</section>")
    toc.append(("evidence", "Evidence"))
    return page(title, body, subtitle=header_lines(result), toc=toc)


def check_html(result: TableResult) -> str:
    """``axiometer check``: one metric's row as the same page, titled by the metric."""
    rows = ", ".join(result.rows)
    return table_html(result, None, title=f"{rows}: constraints checked")
