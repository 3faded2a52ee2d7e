"""What every picture shares: the matplotlib style, a figure on its own canvas, the verdicts' colours
and marks, and how a parameter value and a long title are written."""

from __future__ import annotations

import contextlib
import textwrap
from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from axiometer.reports.palette import VERDICT_SWATCH
from axiometer.results import Check, Strength, Verdict

if TYPE_CHECKING:  # matplotlib is imported when a picture is drawn, not with axiometer
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

__all__ = ["VERDICT_STYLE", "WIDTH", "style", "new_figure", "figure_of", "value_text", "wrapped", "verdict_mark",
           "verdict_label", "proved_check"]

#: Verdict -> (fill colour, mark, mark colour, legend text). The colours are the palette's
#: (:mod:`axiometer.reports.palette`, which the pages' style sheet reads too): a satisfied and a witness
#: box are both the colour of a holding constraint, told apart by their marks; the marks are the text
#: report's (``axiometer.reports.table.cells.MARKS``; a test keeps them equal), so a box reads without
#: colour.
VERDICT_STYLE: dict[Verdict, tuple[str, str, str, str]] = {
    verdict: (VERDICT_SWATCH[verdict].fill, mark, VERDICT_SWATCH[verdict].ink, text)
    for verdict, mark, text in (
        (Verdict.SATISFIED, "✓", "satisfied: holds"),
        (Verdict.WITNESS, "W", "witness: holds, a witness found"),
        (Verdict.VIOLATED, "✗", "violated: a counterexample found"),
        (Verdict.ERROR, "E", "error: the metric misbehaved"),
        (Verdict.NA, "n/a", "not applicable"),
        (Verdict.NOT_RUN, "–", "not run: interrupted"))
}

#: Picture width in inches: wide enough for the titles, narrow enough for a page.
WIDTH = 8.0
#: Everything is drawn and saved in this style; DejaVu Sans ships with matplotlib, so a picture is laid
#: out the same on every machine (a file's SVG draws its glyphs as paths; a page's writes its text,
#: :func:`axiometer.reports.plots.to_svg`).
_STYLE: dict[RcKeyType, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 9.0,
    "axes.titlesize": 9.5,
    "axes.labelsize": 9.0,
    "legend.fontsize": 8.0,
    "xtick.labelsize": 8.0,
    "ytick.labelsize": 8.0,
    "svg.fonttype": "path",
    "svg.hashsalt": "axiometer",     # deterministic ids: the same picture gives the same bytes
    "axes.formatter.useoffset": False,
    # A "$" in a metric's or a run's name is a dollar sign, not mathtext (issue 29: "$x^$" made
    # the picture fail to draw); the labels that are formulas ask for mathtext themselves.
    "text.parse_math": False,
}


@contextlib.contextmanager
def style() -> Iterator[None]:
    """Draw or save inside this: the pictures' matplotlib settings, for the block only."""
    import matplotlib

    with matplotlib.rc_context(_STYLE):
        yield


def new_figure(width: float, height: float, label: str) -> Figure:
    """A figure on its own Agg canvas (no pyplot, no global backend); ``label`` becomes the SVG title."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    figure.set_label(label)
    return figure


def figure_of(axes: Axes) -> Figure:
    """The figure ``axes`` is drawn on (a picture's axes always sit on its :func:`new_figure`)."""
    figure = axes.get_figure(root=True)
    if figure is None:
        raise ValueError("the axes belong to no figure")
    return figure


def value_text(value: Any) -> str:
    """A parameter value as the user wrote it: a ``Fraction`` as ``1/10``, a float as ``0.8`` (at most 6
    significant digits), as the cell's summary in the title prints them (``reports.numbers.number``
    would turn ``0.8`` into ``4/5``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
        return str(value)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        if value.denominator <= 1000:
            return f"{value.numerator}/{value.denominator}"
        value = float(value)
    if isinstance(value, float):
        if value == 0:
            return "0"
        return f"{value:.6g}"
    return str(value)


def wrapped(text: str, width: int = 100) -> str:
    """``text`` broken into lines of at most ``width`` characters (a title or a note on a picture)."""
    return "\n".join(textwrap.wrap(text, width)) if text else ""


def proved_check(check: Check) -> bool:
    """Whether the check holds and rests on a proof (the text report's ``ᵖ``)."""
    return check.holds and check.evidence is not None and check.evidence.strength == Strength.PROVED


def verdict_mark(check: Check) -> str:
    """The verdict's mark in a box, with ``ᵖ`` when it is proved and ``ᵗ`` when its witness exists
    only by truncation (the text report's flags, in its order)."""
    mark = VERDICT_STYLE[check.verdict][1] + ("ᵖ" if proved_check(check) else "")
    return mark + ("ᵗ" if check.witness is not None and check.witness.by_truncation else "")


def verdict_label(verdict: Verdict) -> str:
    """``✗ violated``: the verdict's mark and name, as a region or a legend entry says it."""
    return f"{VERDICT_STYLE[verdict][1]} {verdict}"
