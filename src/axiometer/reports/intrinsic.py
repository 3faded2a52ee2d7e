"""Reports of Giner's intrinsic classification (definitions §4): text, Markdown, JSON, HTML.

:func:`format_intrinsic` prints an :class:`~axiometer.results.IntrinsicResult`:
the category, the domain (every report names it), its size, the distinct
values and resolution, the largest class of outputs sharing one value, each
property with how it was decided (exactly, or within the stated tolerance)
and, for each property the metric lacks, the counterexample as grade
sequences (or contingency counts) with their scores — the exact value when
one was computed, else the float.

:func:`format_parametric` prints the result of
``axiometer.intrinsic.parametric.analyse`` (a
:class:`~axiometer.results.ParametricResult`) as sentences: for which values
of the parameter the metric is a metric, and for which an interval scale
(:func:`parametric_sentences`). ``json`` is ``dataclasses.asdict`` in both.

Numbers print as :func:`axiometer.reports.numbers.number` does (a short
exact fraction, else 6 significant digits; exact values such as
``(√5 − 1)/2`` with their decimal); text lines fit the width given.

Reports only format; they never compute a score.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from fractions import Fraction
from functools import partial
from typing import Any

from axiometer.reports.document import (
    Block, Break, BulletList, Code, Definition, DefinitionList, Document, Figure, Inline, JsonStyle, Paragraph,
    Preformatted, Row, Section, Span, Strong, Table, TableCell,
)
from axiometer.reports.numbers import DEFAULT_WIDTH, decimal, denoise, exact_text, number, wrap_lines
from axiometer.reports.render import check_format, formats_of, render
from axiometer.reports.render.markdown import escape
from axiometer.results import IntrinsicResult, OutputRecord, ParametricResult, PropertyVerdict

__all__ = ["INTRINSIC_FORMATS", "format_intrinsic", "format_parametric", "parametric_sentences",
           "intrinsic_document", "parametric_document", "intrinsic_html"]

INTRINSIC_FORMATS = formats_of("intrinsic")
_TEXT = ("text", "markdown")
#: What a page's subtitle names.
_FRAMEWORK = "Giner's intrinsic framework (definitions §4)"

_MEANING = {
    "pseudometric": "finite, real, and blind to which of equally judged documents is retrieved",
    "metric": "injective: distinct outputs score differently",
    "interval": "the distinct values are equally spaced",
}


def _score(record: OutputRecord) -> str:
    """A score in the report's one number style (issue 27): a decimal, 6 significant digits, as
    every score of the report prints; an exact value the decimal does not say exactly follows in
    parentheses (``0.0833333 (1/12)``, ``0.618034 ((√5 − 1)/2)``), while ``0.25`` for ``1/4`` and
    ``0.128`` for ``16/125`` say it all."""
    value = decimal(record.score)
    if record.exact is None:
        return value
    try:
        if Fraction(record.exact) == Fraction(value):
            return value
    except (ValueError, ZeroDivisionError):  # radicals, logarithms: not a fraction
        pass
    return f"{value} ({exact_text(record.exact)})"


def _decided(result: IntrinsicResult, verdict: PropertyVerdict) -> str:
    if verdict.exact:
        return "decided exactly"
    tolerance = result.tolerance
    return f"decided within tolerance {tolerance:g}" if tolerance is not None else "decided on floats"


def _counterexample_lines(verdict: PropertyVerdict) -> list[str]:
    return [f"{record.label}  score {_score(record)}" for record in verdict.counterexample]


def _lines(result: IntrinsicResult) -> list[tuple[str, str]]:
    """The summary rows shared by text and Markdown: (field, value)."""
    rows = [("metric", result.metric), ("domain", result.domain), ("category", result.category),
            ("size", f"{result.size} outputs")]
    if result.distinct is not None:
        resolution = (f", resolution {decimal(result.resolution)} (distinct values / outputs)"
                      if result.resolution is not None else "")
        rows.append(("distinct values", f"{result.distinct}{resolution}"))
    if result.largest_class_size == 1:
        rows.append(("largest collision class", "none: every value is attained once"))
    elif result.largest_class_size:
        shown = ", ".join(record.label for record in result.largest_class)
        more = ", ..." if result.largest_class_size > len(result.largest_class) else ""
        score = f" at {_score(result.largest_class[0])}" if result.largest_class else ""
        rows.append(("largest collision class", f"{result.largest_class_size} output(s){score}: {shown}{more}"))
    rows.append(("decisions", "exact (rational or symbolic)" if result.exact and result.tolerance is None
                 else f"tolerance {result.tolerance:g}" if result.tolerance is not None else "float"))
    if result.note:
        rows.append(("note", denoise(result.note)))
    return rows


# -- the classification ---------------------------------------------------------------------------

def _property_line(result: IntrinsicResult, verdict: PropertyVerdict) -> str:
    mark = "yes" if verdict.holds else "NO"
    return f"  {verdict.name:<12} {mark:<3}  ({_decided(result, verdict)}) {denoise(verdict.note)}".rstrip()


def _text_properties(result: IntrinsicResult) -> Section:
    """One line per property (hanging under its note), each lacking one's counterexample below it."""
    lines: list[Block] = []
    for verdict in result.properties:
        lines.append(Paragraph(parts=(_property_line(result, verdict),), hang=17, tight=_TEXT))
        if not verdict.holds and verdict.counterexample:
            meaning = _MEANING.get(verdict.name)
            lines.append(Preformatted(tight=_TEXT, wrap=False, content=(
                f"    counterexample to {verdict.name}" + (f" ({meaning})" if meaning else "") + ":",
                *(f"      {line}" for line in _counterexample_lines(verdict)))))
    return Section(title=("properties",), level=3, colon=True, children=tuple(lines), formats=("text",))


def _markdown_properties(result: IntrinsicResult) -> list[Block]:
    """The properties as a table, then each lacking one's counterexample as a list."""
    md = ("markdown",)
    rows = tuple(Row((TableCell((v.name,)), TableCell(("yes" if v.holds else "no",)),
                      TableCell((_decided(result, v).removeprefix("decided "),)), TableCell((denoise(v.note),))))
                 for v in result.properties)
    out: list[Block] = [Table(headers=tuple(TableCell((h,), header=True) for h in ("property", "holds", "decided",
                                                                                 "note")),
                              rows=rows, aligned=False, formats=md)]
    for verdict in result.properties:
        if not verdict.holds and verdict.counterexample:
            out.append(Paragraph(parts=("Counterexample to ", Strong((verdict.name,)),
                                        f" ({_MEANING.get(verdict.name, '')}):"), nowrap=md, formats=md))
            out.append(BulletList(items=tuple((Code(r.label), f": {_score(r)}") for r in verdict.counterexample),
                                  nowrap=md, formats=md))
    return out


def _page_properties(result: IntrinsicResult) -> list[Block]:
    """The page's properties: what each means, whether it holds, how it was decided, the note and
    the counterexample."""
    rows = []
    for verdict in result.properties:
        holds = Span(("yes",), "holds") if verdict.holds else Span(("no",), "fails")
        how = "exactly" if verdict.exact else ("within the tolerance" if result.tolerance else "on floats")
        counter: list[Inline] = []
        if not verdict.holds:
            for k, r in enumerate(verdict.counterexample):
                counter += ([Break()] if k else []) + [Code(r.label), f" scores {_score(r)}"]
        meaning = Span((_MEANING.get(verdict.name, ""),), "muted")
        rows.append(Row((TableCell((Strong((verdict.name,)), Break(), meaning)),
                         TableCell((holds,)), TableCell((how,)), TableCell((denoise(verdict.note),)),
                         TableCell(tuple(counter)))))
    headers = tuple(TableCell((h,), header=True) for h in ("property", "holds", "decided", "note", "counterexample"))
    return [Section(title=("Properties",), level=3, tag="", children=(Table(headers=headers, rows=tuple(rows)),),
                    formats=("html",))]


def _values(result: IntrinsicResult) -> list[Block]:
    """The attained values on a number line (none when the domain has too many to draw)."""
    if not result.values:
        return []
    from axiometer.reports import plots

    return [Section(title=("Attained values",), level=2, id="values", toc="Attained values", formats=("html",),
                    children=(Figure(draw=partial(plots.attained_values, result), prefix="values", caption=(
                        f"The values {result.metric} attains on {result.domain}: ties (several outputs at one "
                        "value) and unequal gaps between neighbouring values are marked.")),))]


def intrinsic_document(result: IntrinsicResult, parametric: ParametricResult | None = None,
                       sentences: Sequence[str] = ()) -> Document:
    """One metric classified on a domain: the summary fields, the properties with their
    counterexamples, the attained values (a page draws them) and the parametric analysis if given
    (a page's part; ``sentences``: the analysis as the text report words it)."""
    fields = DefinitionList(items=tuple(Definition((name,), (Paragraph(parts=(value,)),))
                                        for name, value in _lines(result)), style="fields", css="data fields")
    classification = Section(title=("Classification",), level=2, id="classification", toc="Classification",
                             title_formats=("html",), children=(fields, _text_properties(result),
                                                                *_markdown_properties(result),
                                                                *_page_properties(result)))
    blocks: list[Block] = [Section(title=(f"{result.metric} on ", Code(result.domain), f": {result.category}"),
                                   level=2, tag="", title_formats=("markdown",),
                                   children=(classification, *_values(result)))]
    if parametric is not None:
        blocks += _parametric_page(parametric, sentences)
    return Document(title="", page_title=f"{result.metric} on {result.domain}: {result.category}",
                    page_subtitle=(_FRAMEWORK + ": pseudometric, metric, interval scale",),
                    blocks=tuple(blocks), data=lambda: dataclasses.asdict(result),
                    json=JsonStyle(indent=2, ascii=False, finite=False))


def intrinsic_html(result: IntrinsicResult, parametric: ParametricResult | None = None,
                   sentences: Sequence[str] = ()) -> str:
    """One metric classified on a domain as a page, with the parametric analysis if given
    (``sentences``: the analysis as the text report words it, else its summary)."""
    return render(intrinsic_document(result, parametric, sentences), "html")


def format_intrinsic(result: IntrinsicResult, format: str = "text", width: int = DEFAULT_WIDTH) -> str:
    """``result`` as ``text``, ``markdown``, ``json`` (``dataclasses.asdict``) or ``html``; text lines
    wrapped to ``width`` columns."""
    check_format("intrinsic", format)
    return render(intrinsic_document(result), format, width)


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return value


def _render(value: Any) -> str:
    value = _plain(value)
    if isinstance(value, float):
        return number(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(_render(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return "; ".join(f"{k} {_render(v)}" for k, v in value.items())
    return str(value)


def _item(name: str, item: Any) -> str:
    """One list item; ``exceptional`` ``(exact, decimal, a, b)`` and ``interval`` ``(exact, decimal)``
    rows read as sentences, anything else generically."""
    if isinstance(item, (list, tuple)) and len(item) >= 2 and isinstance(item[1], float):
        value = _value(item[0], item[1])
        if name == "exceptional" and len(item) == 4:
            return f"{value}: {item[2]} ties {item[3]}"
        if name == "interval" and len(item) == 2:
            return value
    return _render(item)


def _value(exact: str, decimal: float) -> str:
    """A parameter value: exact (``(√5 − 1)/2``), with its decimal when that is not the same text."""
    text, approx = exact_text(exact), number(decimal)
    return text if text == approx else f"{text} ≈ {approx}"


def parametric_sentences(result: ParametricResult) -> list[str]:
    """The analysis as sentences: for which values the metric is a metric (injective) and for which
    an interval scale, each exceptional value with the two outputs that tie there."""
    p, where = result.parameter, f"{result.parameter} in {result.range}"
    if result.always_tied:
        tied = " and ".join(result.always_tied)
        metric = f"a metric for no {where}: {tied} score the same for every {p}"
    elif result.exceptional:
        values = ", and ".join(f"{p} = {_value(e[0], e[1])}, where {e[2]} ties {e[3]}"
                               for e in result.exceptional)
        metric = f"a metric for every {where} except {values}"
    else:
        metric = f"a metric for every {where}"
    if not result.interval_analysed:
        interval = ("so an interval scale for no value either" if result.always_tied
                    else "the interval scale was not analysed")
    else:
        points = " and ".join(f"{p} = {_value(v[0], v[1])}" for v in result.interval)
        ranges = " and ".join(exact_text(r) for r in result.interval_ranges)
        if ranges and points:
            interval = f"an interval scale for every {p} in {ranges}, and at {points}"
        elif ranges:
            interval = f"an interval scale for every {p} in {ranges}"
        elif points:
            interval = f"an interval scale only at {points}"
        else:
            interval = f"an interval scale for no {where}"
    return [f"{metric};", f"{interval}."]


def _parametric_title(result: ParametricResult) -> str:
    return (f"{result.metric} on {result.domain} ({result.size} outputs, "
            f"{result.distinct_expressions} distinct scores as functions of {result.parameter})")


def _parametric_page(result: ParametricResult, sentences: Sequence[str] = ()) -> list[Block]:
    """How the classification depends on the parameter, as a page shows it: the analysis in words,
    the parameter's range and the domain, the values where two outputs tie, the interval scale."""
    out: list[Block] = []
    if sentences:
        out.append(Paragraph(parts=(f"{result.metric} is {' '.join(sentences)}",)))
    elif result.summary:
        out.append(Paragraph(parts=(denoise(exact_text(result.summary)),)))
    rows = [("parameter", f"{result.parameter} in {result.range}"),
            ("domain", f"{result.domain} ({result.size} outputs, {result.distinct_expressions} distinct score "
                       "expressions)")]
    if result.always_tied:
        rows.append(("tied for every value", " and ".join(result.always_tied)))
    out.append(DefinitionList(items=tuple(Definition((n,), (Paragraph(parts=(v,)),)) for n, v in rows),
                              style="fields", css="data fields"))
    if result.exceptional:
        table = Table(headers=tuple(TableCell((h,), header=True) for h in (result.parameter, "≈", "tied outputs")),
                      rows=tuple(Row((TableCell((exact_text(value),)), TableCell((number(decimal),)),
                                      TableCell((f"{a} and {b}",)))) for value, decimal, a, b in result.exceptional),
                      numeric=(1,))
        out.append(Section(title=(f"Values of {result.parameter} at which two outputs tie (not a metric there)",),
                           level=3, tag="", children=(table,)))
    if result.interval_analysed and not sentences:  # the sentences say it already
        points = [_value(value, decimal) for value, decimal in result.interval]
        where = points + [f"every value in {exact_text(r)}" for r in result.interval_ranges]
        out.append(Paragraph(parts=("An interval scale (equally spaced values) at " + "; ".join(where) + "."
                                    if where else f"An interval scale for no value of {result.parameter}.",)))
    return [Section(title=(f"How it depends on {result.parameter}",), level=2, id="parametric",
                    toc=f"Depends on {result.parameter}", formats=("html",), children=tuple(out))]


def parametric_document(result: ParametricResult, sentences: Sequence[str] = ()) -> Document:
    """A parametric analysis alone: its title and its sentences (text formats), or a page."""
    title = _parametric_title(result)
    sentences = list(sentences) or parametric_sentences(result)
    md = ("markdown",)
    blocks: list[Block] = [
        Paragraph(parts=(f"parametric analysis: {title}",), hang=2, formats=("text",)),
        BulletList(items=tuple((s,) for s in sentences), tight=("text",), formats=("text",)),
        Section(title=("Parametric analysis",), level=3, formats=md, children=(
            Paragraph(parts=(f"{title}:",), nowrap=md), BulletList(items=tuple((s,) for s in sentences), nowrap=md))),
        *_parametric_page(result, sentences)]
    return Document(title="", blocks=tuple(blocks),
                    page_title=f"{result.metric} on {result.domain}: how it depends on {result.parameter}",
                    page_subtitle=(_FRAMEWORK,),
                    data=lambda: _json_data(result), json=JsonStyle(indent=2, ascii=False, finite=False))


def _json_data(result: Any) -> Any:
    """``dataclasses.asdict(result)`` with every value JSON lacks as its text."""
    return json.loads(json.dumps(dataclasses.asdict(result), default=str))


def format_parametric(result: Any, format: str = "text", width: int = DEFAULT_WIDTH) -> str:
    """A parametric analysis as ``text``, ``markdown``, ``json`` or ``html``.

    A :class:`~axiometer.results.ParametricResult` reads as sentences ("a metric for every p in
    (0, 1) except p = (√5 − 1)/2 ≈ 0.618034 ...; an interval scale only at p = 1/2."); any other
    dataclass prints its ``summary`` field first, then every other field as ``name: value``.
    """
    check_format("intrinsic", format)
    if not dataclasses.is_dataclass(result) or isinstance(result, type):
        raise TypeError(f"format_parametric needs a dataclass result, got {type(result).__name__}")
    if isinstance(result, ParametricResult):
        return render(parametric_document(result), format, width)
    if format == "html":
        raise ValueError(f"a page needs a ParametricResult, got {type(result).__name__}")
    data = dataclasses.asdict(result)
    if format == "json":
        return json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n"
    return _generic_text(data, format == "markdown", width)


def _generic_text(data: dict[str, Any], markdown: bool, width: int) -> str:
    """Another analysis's fields: its summary, then every field as ``name: value``."""
    summary = data.pop("summary", None)
    out: list[str] = []
    if not markdown:
        out.append("parametric analysis:")
        if summary:
            out.append(f"  {summary}")
        for name, value in data.items():
            if isinstance(value, (list, tuple)) and value:
                out.append(f"  {name}:")
                out.extend(f"    {_item(name, item)}" for item in value)
            else:
                out.append(f"  {name}: {_render(value)}")
        return "\n".join(wrap_lines(out, width)) + "\n"
    out.append("### Parametric analysis")
    out.append("")
    if summary:
        out.extend([escape(str(summary)), ""])
    for name, value in data.items():
        if isinstance(value, (list, tuple)) and value:
            out.append(f"- **{name}**:")
            out.extend(f"  - {_item(name, item)}" for item in value)
        else:
            out.append(f"- **{name}**: {_render(value)}")
    return "\n".join(out) + "\n"
