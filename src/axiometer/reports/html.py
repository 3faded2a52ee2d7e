"""Pictures for HTML pages: a matplotlib figure drawn, serialised to SVG and inlined.

Every page is a single file that opens offline (:mod:`axiometer.reports.render.html`
writes it): pictures are inline SVG drawn by matplotlib
(:mod:`axiometer.reports.plots`), with ids unique in the page.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # matplotlib loads only when a picture is drawn
    from matplotlib.figure import Figure

__all__ = ["escape", "inline_svg", "figure", "picture"]

escape = html.escape  # the same function as axiometer.reports.render.html.escape (the stdlib's)


# -- pictures ---------------------------------------------------------------------------------

_PROLOG = re.compile(r"^\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.S)
#: Indentation between elements (never inside one: glyphs are paths, not text).
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


def picture(draw: Callable[[], Figure], prefix: str, caption: str) -> str:
    """``draw()``'s matplotlib figure as an inline ``<figure>`` (SVG).

    Drawing is left to :mod:`axiometer.reports.plots` (matplotlib); this only
    serialises and embeds. A picture that cannot be drawn (a ``ValueError``
    from the plotting module for data it cannot show) becomes a one-line
    note instead, so the rest of the report is still written.
    """
    from axiometer.reports import plots

    try:
        svg = plots.to_svg(draw(), prefix)
    except ValueError as error:
        return f'<p class="muted">(no picture: {escape(str(error))})</p>'
    return figure(inline_svg(svg, caption), caption)
