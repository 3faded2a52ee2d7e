"""An intrinsic classification's attained values on a number line (definitions §4): each a stem as
tall as the number of outputs sharing it, the gaps between neighbours coloured equal or unequal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from axiometer.reports.numbers import exact_text
from axiometer.reports.palette import SERIES
from axiometer.reports.plots.style import WIDTH, new_figure, style, value_text, wrapped
from axiometer.results import IntrinsicResult

if TYPE_CHECKING:  # matplotlib is imported when a picture is drawn, not with axiometer
    from matplotlib.figure import Figure

__all__ = ["attained_values"]

#: The colour of a value several outputs share (a tie): sky blue, no verdict's colour.
_TIE = SERIES[2]


def _gap_classes(values: Sequence[float]) -> tuple[list[float], float | None]:
    """The gaps between neighbouring values and the most common one (``None`` if no two agree)."""
    gaps = [b - a for a, b in zip(values, values[1:])]
    best, best_count = None, 1
    for gap in gaps:
        count = sum(1 for g in gaps if _close(g, gap, values))
        if count > best_count:
            best, best_count = gap, count
    return gaps, best


def _close(a: float, b: float, values: Sequence[float]) -> bool:
    scale = max(1.0, *(abs(v) for v in (values[0], values[-1])))
    return abs(a - b) <= 1e-9 * scale


def attained_values(result: IntrinsicResult) -> Figure:
    """The distinct values ``result`` attained on its domain, on a number line (definitions §4).

    Each value is a stem as tall as the number of outputs attaining it, so
    a tie (the metric property fails) stands out and carries its count; the
    gaps between neighbouring values are drawn along the line, in blue where
    a gap equals the most common gap and in orange where it differs (the
    interval property fails on unequal gaps), and the classifier's own
    counterexample to "interval" is labelled. The values are floats for
    drawing; the verdicts were decided as the result says (exactly or within
    its tolerance). Raises ``ValueError`` when the result holds no values
    (not a pseudometric, or more than the classifier keeps).
    """
    if not result.values:
        raise ValueError(f"{result.metric} on {result.domain}: no attained values recorded "
                         f"({result.category})")
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator

    xs = [v for v, _ in result.values]
    counts = [k for _, k in result.values]
    gaps, common = _gap_classes(xs)
    with style():
        figure = new_figure(WIDTH, 3.4, f"{result.metric} on {result.domain}: {len(xs)} distinct values "
                                      f"on {result.size} outputs; {result.category}")
        axes = figure.add_subplot()
        # No verdict's colour (the page's "holds" is blue): black for the common gap, orange for another.
        equal_colour, unequal_colour = SERIES[0], SERIES[1]
        for (a, b), gap in zip(zip(xs, xs[1:]), gaps):
            same = common is not None and _close(gap, common, xs)
            axes.plot([a, b], [0, 0], color=equal_colour if same else unequal_colour,
                      linewidth=2.0 if same else 4.0, solid_capstyle="butt", zorder=2)
        tied = [k > 1 for k in counts]
        axes.vlines(xs, 0, counts, color=[_TIE if t else "#555555" for t in tied], linewidth=1.2, zorder=3)
        axes.scatter(xs, counts, s=[36 if t else 14 for t in tied], c=[_TIE if t else "#555555" for t in tied],
                     zorder=4, marker="o", edgecolors="black", linewidths=0.4)
        top = max(counts)
        for x, k in zip(xs, counts):
            if k > 1:
                axes.annotate(f"×{k}", (x, k), xytext=(0, 4), textcoords="offset points", ha="center",
                              va="bottom", fontsize=7.5, color="black")
        below = -0.14 * top - 0.25  # where the interval counterexample's bracket goes
        interval = result.property("interval")
        unequal = interval.counterexample if interval is not None and not interval.holds else ()
        bracket = len(unequal) == 3
        if bracket:
            low, _, high = (r.score for r in unequal)
            text = ", ".join(exact_text(r.exact) if r.exact else value_text(r.score) for r in unequal)
            axes.plot([low, low, high, high], [below * 0.5, below, below, below * 0.5], color="black",
                      linewidth=0.9)
            # Labelled under the bracket, kept inside the axes at either end.
            where = (low - xs[0]) / ((xs[-1] - xs[0]) or 1.0)
            anchor, align = (low, "left") if where < 0.25 else (high, "right") if where > 0.75 else \
                ((low + high) / 2, "center")
            axes.annotate(f"the first unequal gaps the classifier found: {text}", (anchor, below),
                          xytext=(0, -3), textcoords="offset points", ha=align, va="top", fontsize=8)
        axes.set_ylim(2.4 * below if bracket else below, top * 1.2 + 0.5)
        axes.set_yticks([t for t in MaxNLocator(integer=True, nbins=4).tick_values(0, top) if 0 <= t <= top])
        axes.spines["left"].set_bounds(0, top)
        axes.set_ylabel("outputs with the value")
        axes.set_xlabel(f"{result.metric} (distinct attained values; the line's segments are the gaps "
                        "between neighbours)")
        axes.spines[["top", "right"]].set_visible(False)
        axes.grid(True, axis="x", color="#EEEEEE", linewidth=0.5)
        tie_note = ("" if result.largest_class_size <= 1 else
                    f"; the largest tie: {result.largest_class_size} outputs")
        gap_note = ("all gaps equal" if all(_close(g, gaps[0], xs) for g in gaps) else
                    "no two gaps equal" if common is None else "gaps unequal")
        axes.set_title(wrapped(f"{result.metric} on {result.domain}: {result.category} — {len(xs)} "
                                f"distinct values on {result.size} outputs{tie_note}; {gap_note}", 95),
                       loc="left")
        handles = [
            Line2D([], [], color="#555555", marker="o", markersize=4, label="a value one output attains"),
            Line2D([], [], color=_TIE, marker="o", markersize=6, label="a tie: ×k outputs share the value"),
            Line2D([], [], color=equal_colour, linewidth=2.0, label="gap equal to the most common gap"),
            Line2D([], [], color=unequal_colour, linewidth=4.0, label="gap of another length"),
        ]
        figure.legend(handles=handles, loc="outside lower center", ncols=2, frameon=False)
    return figure

