"""JSON: a document's data (:attr:`~axiometer.reports.document.Document.data`), not its text.

JSON has no NaN: an undefined score (nan, inf) is written ``null``; exact fractions as text.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

from axiometer.reports.document import Document, JsonStyle

__all__ = ["render", "dumps"]


def _finite(value: Any) -> Any:
    """``value`` with every nan/inf float replaced by ``None``."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _default(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def dumps(data: Any, style: JsonStyle = JsonStyle()) -> str:
    """``data`` as JSON written as ``style`` says, one newline at the end."""
    if style.finite:
        data = _finite(data)
    if style.lines:
        return "[" + ",\n ".join(json.dumps(item, ensure_ascii=style.ascii, default=_default,
                                             allow_nan=not style.finite) for item in data) + "]\n"
    return json.dumps(data, indent=style.indent, ensure_ascii=style.ascii, default=_default,
                      allow_nan=not style.finite) + "\n"


def render(document: Document, width: int = 0) -> str:
    """The document's data as JSON (``width`` is unused: JSON is not laid out)."""
    if document.data is None:
        raise ValueError(f"the report {document.title!r} has no JSON form")
    return dumps(document.data(), document.json)
