"""Pictures for HTML pages: a matplotlib figure drawn, serialised to SVG and inlined.

Every page is a single file that opens offline (:mod:`axiometer.reports.render.html`
writes it): pictures are inline SVG drawn by matplotlib
(:mod:`axiometer.reports.plots`), with ids unique in the page. While a page
is written (:func:`sheet`), each picture is drawn once, as a ``<symbol>`` of
the page's sheet at its end, and every place that shows it is a small
``<svg>`` that uses it: a picture two cells share (DeepTh's and CloseTh's
``D(n)`` of one setting) is in the page once.
"""

from __future__ import annotations

import contextlib
import contextvars
import html
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # matplotlib loads only when a picture is drawn
    from matplotlib.figure import Figure

__all__ = ["escape", "inline_svg", "figure", "picture", "sheet", "Sheet"]

escape = html.escape  # the same function as axiometer.reports.render.html.escape (the stdlib's)


# -- pictures ---------------------------------------------------------------------------------

_PROLOG = re.compile(r"^\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.S)
#: Indentation between elements (a picture's text sits inside its ``<text>``, never between elements).
_BETWEEN = re.compile(r">\s+<")


def inline_svg(svg: str, label: str = "") -> str:
    """An SVG document as an element to inline in HTML.

    Drops the XML prolog, doctype and the indentation between elements;
    ``label`` becomes the picture's accessible name unless it has one. Its
    ids are the SVG writer's to make unique (:func:`axiometer.reports.plots.to_svg`
    with the picture's prefix), not this function's.
    """
    svg = _PROLOG.sub("", svg, count=1)
    svg = _BETWEEN.sub("><", svg)
    opening = svg[:svg.find(">") + 1]
    attributes = ("" if " role=" in opening else ' role="img"') + (
        f' aria-label="{escape(label)}"' if label and " aria-label=" not in opening else "")
    return svg.replace("<svg", "<svg" + attributes, 1)


def figure(svg: str, caption: str) -> str:
    """An inline SVG with its caption, as ``<figure>``."""
    return f"<figure>{svg}<figcaption>{escape(caption)}</figcaption></figure>"


def _drawn(draw: Callable[[], Figure], prefix: str) -> str:
    """``draw()``'s figure as SVG (:func:`axiometer.reports.plots.to_svg` with ``prefix``), or the
    one-line note that says why it could not be drawn (a ``ValueError`` from the plotting module for
    data it cannot show), so the rest of the report is still written."""
    from axiometer.reports import plots

    try:
        return plots.to_svg(draw(), prefix)
    except ValueError as error:
        return f'<p class="muted">(no picture: {escape(str(error))})</p>'


def picture(draw: Callable[[], Figure], prefix: str, caption: str) -> str:
    """``draw()``'s matplotlib figure as a ``<figure>`` (SVG) with ``caption``: while a page is
    written, a use of its symbol in the page's :class:`Sheet` (drawn the first time its ``prefix``
    is shown); else inline.

    Drawing is left to :mod:`axiometer.reports.plots` (matplotlib); this only
    serialises and embeds. A picture that cannot be drawn becomes a one-line
    note instead.
    """
    current = _SHEET.get()
    if current is not None:
        return current.picture(draw, prefix, caption)
    svg = _drawn(draw, prefix)
    return figure(inline_svg(svg, caption), caption) if svg.startswith("<svg") else svg


#: The root's attributes a symbol keeps (its size is the use's).
_SYMBOL_ATTRIBUTES = re.compile(r'\s(viewBox|font-family)="[^"]*"')
_SIZE = re.compile(r'\s(?:width|height)="[^"]*"')
_TITLE = re.compile(r"<title>.*?</title>", re.S)


def _symbol_id(prefix: str) -> str:
    """The id of the picture's symbol: apart from the page's own ids (a prefix may be a section's name)
    and from the picture's (``prefix-0``, ``prefix-1``, ... in hex)."""
    return f"{prefix}-picture"


class Sheet:
    """A page's pictures, each drawn once: a ``<symbol>`` per prefix, which every place that shows the
    picture uses (its own ``<svg>`` with its caption as accessible name and the picture's title)."""

    def __init__(self) -> None:
        #: prefix -> the use's opening tag and title, or the note of a picture that could not be drawn.
        self._shown: dict[str, tuple[str, str] | str] = {}
        self._symbols: list[str] = []

    def picture(self, draw: Callable[[], Figure], prefix: str, caption: str) -> str:
        """The picture of ``prefix`` with ``caption``, drawn (by ``draw``) the first time it is shown."""
        if prefix not in self._shown:
            self._shown[prefix] = self._add(_drawn(draw, prefix), prefix)
        shown = self._shown[prefix]
        if isinstance(shown, str):
            return shown
        opening, title = shown
        svg = (f'<svg role="img" aria-label="{escape(caption)}"{opening}>{title}'
               f'<use href="#{escape(_symbol_id(prefix))}"/></svg>')
        return figure(svg, caption)

    def _add(self, svg: str, prefix: str) -> tuple[str, str] | str:
        """``svg`` as a symbol of the sheet; returns what a use of it needs (its size, viewBox and title)."""
        if not svg.startswith("<svg"):
            return svg
        svg = inline_svg(svg)
        end = svg.index(">")
        opening, body = svg[:end], svg[end + 1:svg.rindex("</svg>")]
        title = _TITLE.search(body)
        kept = "".join(m.group() for m in _SYMBOL_ATTRIBUTES.finditer(opening))
        self._symbols.append(f'<symbol id="{escape(_symbol_id(prefix))}"{kept}>{_TITLE.sub("", body, count=1)}</symbol>')
        size = "".join(m.group() for m in _SIZE.finditer(opening))
        view_box = "".join(m.group() for m in _SYMBOL_ATTRIBUTES.finditer(opening) if m.group(1) == "viewBox")
        return size + view_box, title.group() if title else ""

    def html(self) -> str:
        """The sheet, for the page's end: every symbol in one hidden ``<svg>`` (hidden by its size, not
        by ``display: none``, under which some browsers resolve no clip path), or nothing."""
        if not self._symbols:
            return ""
        return ('<svg class="pictures" aria-hidden="true" width="0" height="0">' + "".join(self._symbols)
                + "</svg>")


_SHEET: contextvars.ContextVar[Sheet | None] = contextvars.ContextVar("axiometer_picture_sheet", default=None)


@contextlib.contextmanager
def sheet() -> Iterator[Sheet]:
    """While a page is written: its :class:`Sheet`, which :func:`picture` draws into."""
    current = Sheet()
    token = _SHEET.set(current)
    try:
        yield current
    finally:
        _SHEET.reset(token)
