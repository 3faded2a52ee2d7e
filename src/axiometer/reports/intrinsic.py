"""Reports of Giner's intrinsic classification (definitions §4): text, Markdown, JSON.

:func:`format_intrinsic` prints an :class:`~axiometer.results.IntrinsicResult`:
the category, the domain (every report names it), its size, the distinct
values and resolution, the largest class of outputs sharing one value, each
property with how it was decided (exactly, or within the stated tolerance)
and, for each property the metric lacks, the counterexample as grade
sequences (or contingency counts) with their scores — the exact value when
one was computed, else the float.

:func:`format_parametric` prints the result of
``axiometer.intrinsic.parametric.analyse`` (a plain dataclass of
:mod:`axiometer.results`): its ``summary`` first when it has one, then every
other field. ``json`` is ``dataclasses.asdict`` in both.

Reports only format; they never compute a score.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from axiometer.results import IntrinsicResult, OutputRecord, PropertyVerdict

__all__ = ["INTRINSIC_FORMATS", "format_intrinsic", "format_parametric"]

INTRINSIC_FORMATS = ("text", "markdown", "json")

_MEANING = {
    "pseudometric": "finite, real, and blind to which of equally judged documents is retrieved",
    "metric": "injective: distinct outputs score differently",
    "interval": "the distinct values are equally spaced",
}


def _check_format(format: str) -> None:
    if format not in INTRINSIC_FORMATS:
        raise ValueError(f"unknown report format {format!r}; known: {', '.join(INTRINSIC_FORMATS)}")


def _score(record: OutputRecord) -> str:
    """``1/4 (0.25)`` when the exact value is known, else the float to 12 significant digits."""
    value = f"{record.score:.12g}"
    return f"{record.exact} ({value})" if record.exact is not None and record.exact != value else value


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
        resolution = f", resolution {result.resolution:.4g}" if result.resolution is not None else ""
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
        rows.append(("note", result.note))
    return rows


def format_intrinsic(result: IntrinsicResult, format: str = "text") -> str:
    """``result`` as ``text``, ``markdown`` or ``json`` (``dataclasses.asdict``)."""
    _check_format(format)
    if format == "json":
        return json.dumps(dataclasses.asdict(result), indent=2, ensure_ascii=False) + "\n"
    rows = _lines(result)
    out: list[str] = []
    if format == "text":
        width = max(len(name) for name, _ in rows)
        out.extend(f"{name + ':':<{width + 1}} {value}" for name, value in rows)
        out.append("")
        out.append("properties:")
        for verdict in result.properties:
            mark = "yes" if verdict.holds else "NO"
            out.append(f"  {verdict.name:<12} {mark:<3}  ({_decided(result, verdict)}) {verdict.note}")
            if not verdict.holds and verdict.counterexample:
                out.append("    counterexample:")
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
                   f"{_decided(result, verdict).removeprefix('decided ')} | {_cell(verdict.note)} |")
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
        return f"{value:.12g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(_render(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return "; ".join(f"{k} {_render(v)}" for k, v in value.items())
    return str(value)


def _item(name: str, item: Any) -> str:
    """One list item; ``exceptional`` ``(exact, decimal, a, b)`` and ``interval`` ``(exact, decimal)``
    rows of a ``ParametricResult`` read as sentences, anything else generically."""
    if isinstance(item, (list, tuple)) and len(item) >= 2 and isinstance(item[1], float):
        value = f"{item[0]} ≈ {item[1]:.6g}"
        if name == "exceptional" and len(item) == 4:
            return f"{value}: {item[2]} ties {item[3]}"
        if name == "interval" and len(item) == 2:
            return value
    return _render(item)


def format_parametric(result: Any, format: str = "text") -> str:
    """A parametric analysis (a dataclass) as ``text``, ``markdown`` or ``json``.

    The ``summary`` field, when present, comes first; every other field
    follows as ``name: value`` (a list one item a line).
    """
    _check_format(format)
    if not dataclasses.is_dataclass(result) or isinstance(result, type):
        raise TypeError(f"format_parametric needs a dataclass result, got {type(result).__name__}")
    data = dataclasses.asdict(result)
    if format == "json":
        return json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n"
    summary = data.pop("summary", None)
    out: list[str] = []
    if format == "text":
        out.append("parametric analysis:")
        if summary:
            out.append(f"  {summary}")
        for name, value in data.items():
            if isinstance(value, (list, tuple)) and value:
                out.append(f"  {name}:")
                out.extend(f"    {_item(name, item)}" for item in value)
            else:
                out.append(f"  {name}: {_render(value)}")
        return "\n".join(out) + "\n"
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
