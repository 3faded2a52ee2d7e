"""The constraint table's evidence as the HTML page draws it: every cell, check and boundary.

- each counterexample drawn as the two rankings ``a`` and ``b`` side by
  side, every document with its relevance per aspect and the positions the
  construction changed highlighted, both scores and the relation that fails;
- witnesses (with the ``D(n)`` curve of DeepTh and CloseTh), errors and
  explanations; what each satisfied or witness verdict rests on (a search,
  or a proof with the formula it decided, when kept), and why one is not
  proved;
- the boundaries located (``--boundaries``, or a range ``--param
  p=0.5..0.99``): one sentence per boundary and one line per two-parameter
  curve, the text report's own words, with a picture of each; the
  parameter-dependent cells with a verdict strip (one parameter) or grid (two).

Pictures are matplotlib figures from :mod:`axiometer.reports.plots`, drawn
when the page is written; nothing is fetched when the page opens.
"""

from __future__ import annotations

import math
from functools import partial
from collections.abc import Sequence

from axiometer.reports.document import (
    Block, BulletList, Code, Figure, Group, Inline, Lines, Link, Paragraph, Preformatted, Row, Section, Span, Strong,
    Table, TableCell,
)
from axiometer.reports.numbers import denoise, number, numbers_apart
from axiometer.reports.palette import verdict_class
from axiometer.reports.table.cells import (
    BOUNDARIES_INTRO, MARKS, boundary_sentence, cases_text, counterexample_sentence, curve_text, evidence_text,
    mark_of, other_mode_name, output_text, parameter_dependent, shown_checks,
)
from axiometer.reports.table.proofs import check_proved, formula_heading, formulas, proof_note, unproved_setting
from axiometer.results import AxiomInfo, Cell, Check, Counterexample, Decided, TableResult, TopicRecord, Verdict

__all__ = ["anchor", "css", "sentence", "cell_section", "boundaries_section", "unique"]

HTML = ("html",)
#: Rankings up to this long are drawn whole; longer ones fold the unchanged stretches.
_DRAW_ALL = 24
#: A container with its opening tag, each child and its closing tag on lines of their own.
_SPREAD = Lines(open=True, heading=True, between=True, close=True)


def anchor(result: TableResult, cell: Cell) -> str:
    """A unique id per cell: its row and column numbers (titles may hold any character)."""
    return f"cell-{result.rows.index(cell.row) + 1}-{result.constraints.index(cell.constraint) + 1}"


def _short(anchor: str) -> str:
    """A picture's id prefix from its cell's anchor: ``cell-12-3`` -> ``p12_3``."""
    return "p" + anchor.removeprefix("cell-").replace("-", "_")


def css(verdict: Verdict) -> str:
    """The page's style of a verdict (its colour: :func:`axiometer.reports.palette.verdict_class`)."""
    return verdict_class(verdict)


def sentence(text: str, capital: bool = True) -> str:
    """``text`` as a sentence: a full stop, and a capital first letter (the rest untouched) unless
    it starts with a name that must keep its case (``b = a with ...``)."""
    text = text.strip()
    if capital:
        text = text[:1].upper() + text[1:]
    return text + ("" if text.endswith((".", "!", "?")) else ".")


def _badge(verdict: Verdict, symbol: str) -> Span:
    return Span((symbol,), f"badge {css(verdict)}")


# -- rankings side by side ----------------------------------------------------------------------

def _relevance_cells(topic: TopicRecord, doc: str | None) -> list[TableCell]:
    if doc is None:
        return [TableCell((), css="r0") for _ in topic.aspects]
    return [TableCell((value,), css="r0" if value == "0" else "rel") for value in topic.relevance(doc)]


def _shown_positions(changed: Sequence[bool]) -> list[bool]:
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
                   changed: Sequence[bool], shown: Sequence[bool]) -> Table:
    """One ranking as a table: position, document, its relevance per aspect; changed positions marked."""
    single = len(topic.aspects) == 1
    heads = ["r(d)"] if single else [f"r(d,{t})" for t in topic.aspects]
    titles = ["relevance"] if single else [f"relevance to aspect {t} (weight {w})"
                                          for t, w in zip(topic.aspects, topic.weights)]
    span = 2 + len(heads)
    rows = []
    i, n = 0, len(ranking)
    if n == 0:
        rows.append(Row((TableCell(("(empty)",), colspan=span),), css="gap"))
    while i < n:
        if shown[i]:
            doc = ranking[i]
            rows.append(Row((TableCell((str(i + 1),), css="pos"), TableCell((doc or "",), css="mono"),
                             *_relevance_cells(topic, doc)), css="changed" if changed[i] else ""))
            i += 1
            continue
        j = i
        while j < n and not shown[j]:
            j += 1
        rows.append(Row((TableCell((f"positions {i + 1}–{j}: {_fold_text(topic, ranking[i:j])}",), colspan=span),),
                        css="gap"))
        i = j
    headers = (TableCell(("#",), header=True), TableCell(("doc",), header=True),
               *(TableCell((h,), header=True, tip=t) for h, t in zip(heads, titles)))
    return Table(headers=headers, rows=tuple(rows), css="ranking", scope=False,
                 caption=(label, " ", Span((score,), "muted")))


def _context_text(context: Sequence[Sequence[str]]) -> str:
    if not context:
        return "none"
    return "; ".join(f"s{i} = {' '.join(r) if r else '(empty)'}" for i, r in enumerate(context, 1))


def _decided(cx: Counterexample) -> str:
    return "decided exactly" if cx.decided == Decided.EXACT else "decided on floats"


def _others(label: str, context: Sequence[Sequence[str]]) -> Paragraph:
    return Paragraph(parts=(f"{label}: ", Span((_context_text(context),), "mono")))


def _pair(cx: Counterexample) -> list[Block]:
    """The two rankings side by side, then the other systems each was scored with."""
    topic = cx.topic
    n = max(len(cx.a), len(cx.b))
    a = [*cx.a, *[None] * (n - len(cx.a))]
    b = [*cx.b, *[None] * (n - len(cx.b))]
    changed = [x != y for x, y in zip(a, b)]
    shown = _shown_positions(changed)
    # The digits that tell the two scores apart (6 significant digits, more when those tie).
    finite = math.isfinite(cx.score_a) and math.isfinite(cx.score_b)
    text_a, text_b = numbers_apart(cx.score_a, cx.score_b) if finite else (number(cx.score_a), number(cx.score_b))
    out: list[Block] = [Group(css="pair", children=(
        _ranking_table("a", f"Q(a) = {text_a}", a[:len(cx.a)], topic, changed, shown),
        _ranking_table("b", f"Q(b) = {text_b}", b[:len(cx.b)], topic, changed, shown)))]
    if cx.context_a is not None:
        out.append(_others("Other systems" if cx.context_b is None else "Other systems for a", cx.context_a))
    if cx.context_b is not None:
        out.append(_others("Other systems for b", cx.context_b))
    return out


def _counterexample(cx: Counterexample, info: AxiomInfo | None) -> Group:
    """A counterexample drawn: the sentence instantiating the constraint's meaning, the rankings
    side by side (or the one scored output), the relation that fails and the case's parameters."""
    topic = cx.topic
    out: list[Block] = [Paragraph(parts=(sentence(counterexample_sentence(cx, info), capital=False),),
                                  css="sentence")]
    if len(topic.aspects) > 1:
        out.append(Paragraph(parts=("Aspects (weight): " + ", ".join(
            f"{t} ({w})" for t, w in zip(topic.aspects, topic.weights)),)))
    one_output = (cx.a == cx.b and cx.context_b is None and cx.score_a == cx.score_b) or cx.score_a != cx.score_a
    if one_output:  # a property of one scored output (Bounded, Finite, ...)
        n = len(cx.a)
        out.append(Group(css="pair", children=(_ranking_table("ranking", f"Q = {number(cx.score_a)}", cx.a, topic,
                                                              [False] * n, _shown_positions([False] * n)),)))
        if cx.context_a is not None:
            out.append(_others("Other systems", cx.context_a))
    else:
        out += _pair(cx)
    out.append(Paragraph(parts=("Required ", Code(cx.relation), ": ", Span(("fails",), "fails"),
                                f" ({_decided(cx)})."), css="relation"))
    signs = cx.signs
    if signs:
        out.append(Paragraph(parts=(f"Sign of D = Q(a) − Q(b) along the grid: {signs}",), css="muted"))
    return Group(css="counterexample", lines=_SPREAD, children=tuple(out))


# -- a check, a cell ----------------------------------------------------------------------------

def _found(check: Check, info: AxiomInfo | None) -> list[Block]:
    """The counterexample drawn, the witness, the error (with its ranking) or the cases searched."""
    if check.counterexample is not None:
        return [_counterexample(check.counterexample, info)]
    if check.witness is not None:
        w = check.witness
        parts: list[Inline] = ["Witness ", Strong((denoise(w.value),))]
        tail = f" ({denoise(w.note)})" if w.note else ""
        if w.by_truncation:
            tail += "; by truncation: documents past the cutoff"
        out: list[Block] = [Paragraph(parts=(*parts, tail + "."))]
        if w.signs_by_rc:
            out.append(BulletList(css="muted", items=tuple((f"sign of D = Q(a) − Q(b): {part}",)
                                                           for part in w.signs_by_rc)))
        return out
    if check.error is not None:
        out = [Paragraph(parts=(f"Error: {check.error.message}",), css="error-message")]
        if check.error.ranking is not None:
            ranking = check.error.ranking
            topic = check.error.topic or TopicRecord(("*",), ("1",), ())
            out.append(Group(css="pair", children=(_ranking_table("on the ranking", "", ranking, topic,
                                                                  [False] * len(ranking), [True] * len(ranking)),)))
        return out
    if check.verdict == Verdict.SATISFIED:
        return [Paragraph(parts=(f"No counterexample in {cases_text(check)}.",))]
    return []


def _check(check: Check, info: AxiomInfo | None, curve: Figure | None) -> Section:
    """One check: what was found, what it rests on, its formula, its ``D(n)`` picture (``curve``),
    its note and what the metric printed."""
    out = _found(check, info)
    if check.evidence is not None:
        out.append(Paragraph(parts=(f"Evidence: {evidence_text(check.evidence)}.",), css="evidence"))
    if check.holds and check.unproved and not check_proved(check):
        out.append(Paragraph(parts=(sentence(f"not proved: {check.unproved}"),), css="muted"))
    kept = formulas(check)
    if kept:
        heading = formula_heading(check)
        out.append(Paragraph(parts=(f"{heading[:1].upper()}{heading[1:]}:",), css="muted"))
        out.append(Preformatted(content=tuple(kept[0].splitlines())))
    if curve is not None:
        out.append(curve)
    if check.note:
        out.append(Paragraph(parts=(f"Note: {denoise(check.note)}",), css="muted"))
    if check.output_chars:
        out.append(Paragraph(parts=("The metric printed: ", Code(output_text(check, limit=len(check.output)))),
                             css="muted"))
    title: tuple[Inline, ...] = (f"{check.metric}, {check.mode} mode: ",
                                 _badge(check.verdict, MARKS[check.verdict]), check.verdict)
    return Section(title=title, level=4, tag="div", css="check", lines=_SPREAD, children=tuple(out))


def _threshold_picture(result: TableResult, cell: Cell, check: Check) -> Figure:
    """``check``'s ``D(n)`` picture, shared with the row's other threshold checks of the same setting and
    curve (DeepTh's and CloseTh's: one construction, two rules): one picture in the page, each cell
    showing it with its own caption."""
    from axiometer.reports import plots

    row = [c for other in result.cells if other.row == cell.row for c in other.checks if c.curve]
    settings = list(dict.fromkeys((c.metric, c.mode) for c in row))
    same_setting = [c for c in row if (c.metric, c.mode) == (check.metric, check.mode)]
    groups = plots.same_curve(same_setting)
    index = next(k for k, group in enumerate(groups) if check in group)
    group = groups[index]
    prefix = f"p{result.rows.index(cell.row) + 1}t{settings.index((check.metric, check.mode)) + 1}" + (
        f"_{index}" if index else "")
    n = "m" if check.constraint == "CloseTh" else "n"
    marked = ("the witness" if check.witness is not None
              else f"the counterexample's {n}" if check.counterexample is not None else "")
    others = [c.constraint for c in group if c.constraint != check.constraint]
    shared = f"; {' and '.join(others)} reads the same curve (its rows of the strip)" if others else ""
    return Figure(draw=partial(plots.threshold_curves, group), prefix=prefix, caption=(
        f"D({n}) = Q(a_{n}) − Q(b_{n}) for {check.metric} against {n} (log scale), one line per rc, with "
        f"where its sign changes" + (f" and {marked}" if marked else "") + f"; the strip: where "
        f"{check.constraint} holds at each {n}{shared}."))


def _varying(cell: Cell) -> list[str]:
    """The parameters whose value differs between the cell's checks."""
    values: dict[str, set[str]] = {}
    for check in cell.checks:
        for name, value in check.params:
            values.setdefault(name, set()).add(repr(value))
    return [name for name, seen in values.items() if len(seen) > 1]


def _verdicts_picture(cell: Cell, prefix: str) -> list[Block]:
    """A parameter-dependent cell's verdict at each setting: a strip (one parameter) or a grid (two)."""
    varying = _varying(cell)
    if not parameter_dependent(cell) or len(varying) not in (1, 2):
        return []
    from axiometer.reports import plots

    draw = (lambda: plots.verdict_strip(cell)) if len(varying) == 1 else (lambda: plots.verdict_grid(cell))
    return [Figure(draw=draw, prefix=prefix, caption=f"{cell.row} × {cell.constraint}: the verdict at each "
                                                     f"setting of {' and '.join(varying)}.")]


def cell_section(result: TableResult, cell: Cell, info: AxiomInfo | None, differs: bool, open: bool) -> Section:
    """A cell's evidence as a section (its id is what the matrix links to)."""
    
    here = anchor(result, cell)
    title: list[Inline] = [_badge(cell.verdict, mark_of(cell, differs, open).symbol),
                           f"{cell.row} × {cell.constraint}"]
    if info and info.name != cell.constraint:
        title += [" ", Span((info.name,), "muted")]
    said = [cell.summary or cell.verdict]
    if cell.projected:
        said.append("projected: an aspect-blind metric, computed on r(d) = max_t r(d,t)")
    if cell.other_mode is not None:
        said.append(f"in {other_mode_name(cell)} mode: {cell.other_mode}")
    if unproved_setting(cell) is not None:  # the default's own proof is in its check below
        said.append(proof_note(cell))
    out: list[Block] = [Paragraph(parts=(sentence("; ".join(unique(said))),))]
    if cell.explanation:
        out.append(Paragraph(parts=(Strong(("Explanation:",)), f" {cell.explanation}")))
    if cell.boundaries or cell.curves:
        out.append(Paragraph(parts=(Strong(("Boundaries",)), " ", Link(("(pictures)",), f"boundaries-{here}"), ":")))
        out.append(_boundary_list(cell))
    out += _verdicts_picture(cell, f"{_short(here)}r")
    # A parameter-dependent cell shows the first setting of every other verdict too.
    out += [_check(check, info, _threshold_picture(result, cell, check) if check.curve else None)
            for check in shown_checks(cell)]
    out.append(Paragraph(parts=(Link(("↑ back to the matrix",), "matrix"),), css="back"))
    # Folded: the page opens on the matrix, and following a cell's link opens its evidence.
    return Section(title=tuple(title), level=3, css="cell", id=here, children=tuple(out), tag="details",
                   lines=Lines(open=True, heading=True, between=True, close=False))


def unique(parts: Sequence[str]) -> list[str]:
    """``parts`` without empty or repeated items, stripped: a line or a tooltip says each thing once."""
    seen: list[str] = []
    for part in parts:
        part = part.strip()
        if part and part not in seen:
            seen.append(part)
    return seen


# -- boundaries ---------------------------------------------------------------------------------

def _boundary_list(cell: Cell) -> BulletList:
    """A cell's boundaries as a list: one sentence per boundary, one line per curve (the text
    report's words)."""
    items = [sentence(boundary_sentence(b), capital=False) for b in cell.boundaries]
    items += [sentence(curve_text(c), capital=False) for c in cell.curves]
    return BulletList(css="boundaries", items=tuple((item,) for item in items))


def _cell_boundaries(result: TableResult, cell: Cell) -> Section:
    """One cell's boundaries: its sentences, a picture per parameter and one per curve."""
    from axiometer.reports import plots

    here = anchor(result, cell)
    name = f"{cell.row} × {cell.constraint}"
    out: list[Block] = [_boundary_list(cell)]
    params = list(dict.fromkeys(b.param for b in cell.boundaries))
    for k, param in enumerate(params, 1):
        found = [b for b in cell.boundaries if b.param == param]
        caption = (f"{name}: the located verdict along {param} (the other parameters fixed), each "
                   "boundary marked, the grid's checks on that line under it. "
                   + " ".join(sentence(plots.boundary_caption(b), capital=False) for b in found))
        out.append(Figure(draw=partial(plots.boundary_strip, cell, param),
                          prefix=f"{_short(here)}b{k}", caption=caption))
    for k, curve in enumerate(cell.curves):
        caption = (f"{name}: the boundary of {curve.param} located at each {curve.over} (points joined "
                   f"by straight lines), the regions below and above shaded by verdict, the grid's "
                   f"checks marked with their verdicts.")
        out.append(Figure(draw=partial(plots.boundary_curve, cell, k),
                          prefix=f"{_short(here)}k{k + 1}", caption=caption))
    return Section(title=(Link((name,), here), " ", Span((cell.summary,), "muted")), level=3, tag="div",
                   css="boundary", id=f"boundaries-{here}", children=tuple(out))


def boundaries_section(result: TableResult) -> Section:
    """The Boundaries section: what a boundary line means, then each cell that has any, with its
    sentences and a picture per parameter (the verdict along it) and per curve."""
    heading, _, meaning = BOUNDARIES_INTRO.partition(": ")
    intro = sentence(meaning) if heading == "Boundaries" else BOUNDARIES_INTRO
    return Section(title=("Boundaries",), level=2, id="boundaries", toc="Boundaries", formats=HTML, children=(
        Paragraph(parts=(intro,)), *(_cell_boundaries(result, c) for c in result.cells if c.boundaries or c.curves)))
