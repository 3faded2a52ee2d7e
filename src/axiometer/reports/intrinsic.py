"""Reports of Giner's intrinsic classification (definitions §4): text, Markdown, JSON.

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
from fractions import Fraction
from typing import Any

from axiometer.reports.numbers import DEFAULT_WIDTH, denoise, exact_text, number, wrap, wrap_lines
from axiometer.results import IntrinsicResult, OutputRecord, ParametricResult, PropertyVerdict

__all__ = ["INTRINSIC_FORMATS", "format_intrinsic", "format_parametric", "parametric_sentences"]

INTRINSIC_FORMATS = ("text", "markdown", "json", "html")

_MEANING = {
    "pseudometric": "finite, real, and blind to which of equally judged documents is retrieved",
    "metric": "injective: distinct outputs score differently",
    "interval": "the distinct values are equally spaced",
}


def _check_format(format: str) -> None:
    if format not in INTRINSIC_FORMATS:
        raise ValueError(f"unknown report format {format!r}; known: {', '.join(INTRINSIC_FORMATS)}")


def _score(record: OutputRecord) -> str:
    """The exact value when one is known (``16/125``; ``(√5 − 1)/2 ≈ 0.618034`` when it is not a
    short fraction), else the float as :func:`~axiometer.reports.numbers.number` prints it."""
    value = number(record.score)
    if record.exact is None:
        return value
    exact = exact_text(record.exact)
    try:  # a short exact fraction says it all (the float may carry noise: 0.12799999999999997)
        if number(Fraction(record.exact)) == record.exact:
            return exact
    except (ValueError, ZeroDivisionError):
        pass
    return exact if exact == value else f"{exact} ≈ {value}"


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
        resolution = (f", resolution {number(result.resolution)} (distinct values / outputs)"
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


def format_intrinsic(result: IntrinsicResult, format: str = "text", width: int = DEFAULT_WIDTH) -> str:
    """``result`` as ``text``, ``markdown`` or ``json`` (``dataclasses.asdict``); text lines wrapped
    to ``width`` columns."""
    _check_format(format)
    if format == "html":  # a page of its own (axiometer.reports.html)
        from axiometer.reports.html import intrinsic_html

        return intrinsic_html(result)
    if format == "json":
        return json.dumps(dataclasses.asdict(result), indent=2, ensure_ascii=False) + "\n"
    rows = _lines(result)
    out: list[str] = []
    if format == "text":
        pad = max(len(name) for name, _ in rows)
        for name, value in rows:
            out += wrap(f"{name + ':':<{pad + 1}} {value}", width, hang=pad + 2)
        out.append("")
        out.append("properties:")
        for verdict in result.properties:
            mark = "yes" if verdict.holds else "NO"
            line = f"  {verdict.name:<12} {mark:<3}  ({_decided(result, verdict)}) {denoise(verdict.note)}"
            out += wrap(line.rstrip(), width, hang=17)
            if not verdict.holds and verdict.counterexample:
                meaning = _MEANING.get(verdict.name)
                out.append(f"    counterexample to {verdict.name}" + (f" ({meaning})" if meaning else "") + ":")
                out.extend(f"      {line}" for line in _counterexample_lines(verdict))
        return "\n".join(out) + "\n"
    out.append(f"## {result.metric} on `{result.domain}`: {result.category}")
    out.append("")
    out.append("| | |")
    out.append("|---|---|")
    out.extend(f"| {name} | {_cell(value)} |" for name, value in rows)
    out.append("")
    out.append("| property | holds | decided | note |")
    out.append("|---|---|---|---|")
    for verdict in result.properties:
        out.append(f"| {verdict.name} | {'yes' if verdict.holds else 'no'} | "
                   f"{_decided(result, verdict).removeprefix('decided ')} | {_cell(denoise(verdict.note))} |")
    for verdict in result.properties:
        if not verdict.holds and verdict.counterexample:
            out.append("")
            out.append(f"Counterexample to **{verdict.name}** ({_MEANING.get(verdict.name, '')}):")
            out.append("")
            out.extend(f"- `{record.label}`: {_score(record)}" for record in verdict.counterexample)
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


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


def format_parametric(result: Any, format: str = "text", width: int = DEFAULT_WIDTH) -> str:
    """A parametric analysis as ``text``, ``markdown`` or ``json``.

    A :class:`~axiometer.results.ParametricResult` reads as sentences ("a metric for every p in
    (0, 1) except p = (√5 − 1)/2 ≈ 0.618034 ...; an interval scale only at p = 1/2."); any other
    dataclass prints its ``summary`` field first, then every other field as ``name: value``.
    """
    _check_format(format)
    if not dataclasses.is_dataclass(result) or isinstance(result, type):
        raise TypeError(f"format_parametric needs a dataclass result, got {type(result).__name__}")
    if format == "html":  # a page of its own (axiometer.reports.html)
        from axiometer.reports.html import parametric_html

        return parametric_html(result, parametric_sentences(result) if isinstance(result, ParametricResult) else ())
    data = dataclasses.asdict(result)
    if format == "json":
        return json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n"
    markdown = format == "markdown"
    if isinstance(result, ParametricResult):
        title = _parametric_title(result)
        sentences = parametric_sentences(result)
        if markdown:
            return "\n".join(["### Parametric analysis", "", f"{title}:", "",
                              *(f"- {line}" for line in sentences)]) + "\n"
        lines = wrap(f"parametric analysis: {title}", width, hang=2)
        lines += wrap_lines([f"  {line}" for line in sentences], width)
        return "\n".join(lines) + "\n"
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
        out.extend([_cell(str(summary)), ""])
    for name, value in data.items():
        if isinstance(value, (list, tuple)) and value:
            out.append(f"- **{name}**:")
            out.extend(f"  - {_item(name, item)}" for item in value)
        else:
            out.append(f"- **{name}**: {_render(value)}")
    return "\n".join(out) + "\n"
