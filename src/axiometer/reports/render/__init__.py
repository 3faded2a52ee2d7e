"""One renderer per format, each writing any :class:`~axiometer.reports.document.Document`.

- :mod:`~axiometer.reports.render.text` and :mod:`~axiometer.reports.render.markdown`: lines
  wrapped to a width;
- :mod:`~axiometer.reports.render.latex`: tables a paper can ``\\input``;
- :mod:`~axiometer.reports.render.html`: one self-contained page;
- :mod:`~axiometer.reports.render.json`: the document's data (a result's ``to_dict``), not its text.

Each format escapes its own special characters in its renderer, and nowhere else.
:data:`REPORT_FORMATS` says which formats each result's report is written in.
"""

from __future__ import annotations

from collections.abc import Callable

from axiometer.reports.document import Document
from axiometer.reports.numbers import DEFAULT_WIDTH

__all__ = ["FORMATS", "REPORT_FORMATS", "formats_of", "check_format", "render"]

#: Every report format, in the order the help lists them.
FORMATS = ("text", "markdown", "latex", "html", "json")

#: The formats each result's report is written in (the order of its ``--format`` choices).
REPORT_FORMATS: dict[str, tuple[str, ...]] = {
    "table": ("text", "markdown", "latex", "html", "json"),
    "check": ("text", "markdown", "latex", "json", "html"),
    "giner": ("text", "markdown", "latex", "json", "html"),
    "meta": ("text", "markdown", "latex", "json", "html"),
    "intrinsic": ("text", "markdown", "json", "html"),
    "unanimity": ("text", "markdown", "latex", "json", "html"),
    "scores": ("text", "markdown", "latex", "json", "html"),
    "compare": ("text", "markdown", "latex", "html", "json"),
    "agree": ("text", "markdown", "latex", "html", "json"),
    "audit": ("text", "markdown", "latex", "html", "json"),
}


def formats_of(result: str) -> tuple[str, ...]:
    """The formats ``result``'s report is written in (a key of :data:`REPORT_FORMATS`)."""
    return REPORT_FORMATS[result]


def check_format(result: str, format: str) -> None:
    """Raise ``ValueError`` naming the known formats unless ``result`` is written in ``format``."""
    known = formats_of(result)
    if format not in known:
        raise ValueError(f"unknown report format {format!r}; known: {', '.join(known)}")


def _renderers() -> dict[str, Callable[[Document, int], str]]:
    from axiometer.reports.render import html, json, latex, markdown, text

    return {"text": text.render, "markdown": markdown.render, "latex": latex.render,
            "html": html.render, "json": json.render}


def render(document: Document, format: str, width: int = DEFAULT_WIDTH) -> str:
    """``document`` written in ``format`` (one of :data:`FORMATS`), text laid out for ``width``."""
    renderers = _renderers()
    if format not in renderers:
        raise ValueError(f"unknown report format {format!r}; known: {', '.join(FORMATS)}")
    return renderers[format](document, width)
