"""Pictures of results, drawn with matplotlib: one function per picture, each returning a ``Figure``.

- :func:`threshold_curve` (one DeepTh or CloseTh check) and
  :func:`threshold_curves` (several, stacked): ``D(n) = Q(a_n) - Q(b_n)``
  against ``n`` on a log scale, one line per ``rc``, with the zero line, the
  sign changes, the witness or the counterexample's ``n``, and a strip of
  the sign of ``D`` per ``rc`` (definitions §3.5; ``Check.curve``).
- :func:`verdict_strip` (one varying parameter), :func:`verdict_grid` (two)
  and :func:`verdict_region` (whichever fits): a cell's checks over its
  parameter grid, one box per setting coloured by verdict, with the
  verdict's mark in the box (the text report's marks).
- :func:`attained_values`: an intrinsic classification's distinct values on
  a number line, each a stem as tall as the number of outputs sharing it
  (ties), the gaps between neighbours coloured equal or unequal (definitions §4).
- :func:`relative_scatter`: per run, a relative metric's mean against its
  base metric's mean, labelled by run (as in the NRG paper's figures).

:func:`to_svg` turns a figure into an inline ``<svg>`` element (no XML
prolog, glyphs drawn as paths from matplotlib's bundled DejaVu Sans, ids
prefixed per picture, no external reference), :func:`save` writes ``.svg``
or ``.png``. matplotlib is imported on the first picture only, and figures
are drawn on their own Agg canvas: pyplot and the process-wide backend are
never touched. Like every report, this module reads result objects only.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import math
import re
import textwrap
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from axiometer.core import ValidationError
from axiometer.reports.numbers import exact_text, number
from axiometer.results import Boundary, BoundaryCurve, Cell, Check, IntrinsicResult

if TYPE_CHECKING:  # matplotlib is imported when a picture is drawn, not with axiometer
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["threshold_curve", "threshold_curves", "verdict_strip", "verdict_grid", "verdict_region",
           "boundary_strip", "boundary_curve", "boundary_region", "boundary_caption",
           "attained_values", "relative_scatter", "to_svg", "save", "VERDICT_STYLE", "PICTURE_FORMATS"]

#: The file formats :func:`save` writes, by suffix.
PICTURE_FORMATS = (".svg", ".png")

#: Verdict -> (fill colour, mark, mark colour, legend text). Okabe-Ito colours, which stay distinct
#: under the common colour-vision deficiencies; the marks are the text report's
#: (``axiometer.reports.table.cells.MARKS``; a test keeps them equal), so a box reads without colour.
VERDICT_STYLE: dict[str, tuple[str, str, str, str]] = {
    "satisfied": ("#009E73", "✓", "white", "satisfied"),
    "witness": ("#56B4E9", "W", "black", "witness: holds, a witness found"),
    "violated": ("#D55E00", "✗", "white", "violated: a counterexample found"),
    "error": ("#CC79A7", "E", "black", "error: the metric misbehaved"),
    "n/a": ("#DDDDDD", "n/a", "black", "not applicable"),
    "not run": ("#FFFFFF", "–", "black", "not run: interrupted"),
}

#: The sign strip's colours for D > 0, D < 0 and D = 0 (Okabe-Ito blue, orange, grey).
_SIGN_STYLE = {1: ("#0072B2", "+"), -1: ("#E69F00", "−"), 0: ("#999999", "0")}
#: One colour (and line style) per rc line, so lines differ without colour too.
_LINE_STYLES = (("#0072B2", "-"), ("#CC79A7", "--"), ("#009E73", "-."), ("#000000", ":"))
_EMPHASIS = "#D55E00"
_TIE = "#CC79A7"

#: What each threshold constraint asks of D (definitions §3.2 and §3.5), for the picture's title.
_RULES = {
    "DeepTh": ("n", "Deepness threshold: D(n) > 0 for every n from some N on "
                    "(one relevant document on top eventually beats n relevant ones after n non-relevant)"),
    "CloseTh": ("m", "Closeness threshold: D(m) < 0 for some m "
                     "(m relevant documents after m non-relevant ones beat one relevant on top)"),
}

#: Picture width in inches: wide enough for the titles, narrow enough for a page.
_WIDTH = 8.0
#: Everything is drawn and saved in this style; DejaVu Sans ships with matplotlib, so a picture
#: looks the same on every machine and its SVG needs no font at all (glyphs are paths).
_STYLE = {
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
}


@contextlib.contextmanager
def _style() -> Iterator[Any]:
    import matplotlib

    with matplotlib.rc_context(_STYLE):
        yield matplotlib


def _figure(width: float, height: float, label: str) -> Figure:
    """A figure on its own Agg canvas (no pyplot, no global backend); ``label`` becomes the SVG title."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    figure.set_label(label)
    return figure


def _number(value: Any) -> str:
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


def _wrapped(text: str, width: int = 100) -> str:
    return "\n".join(textwrap.wrap(text, width)) if text else ""


# -- the threshold curve ----------------------------------------------------------------------------

def _symbol(check: Check) -> str:
    return _RULES.get(check.constraint, ("n", ""))[0]


def _marked_n(check: Check) -> tuple[int | None, str | None]:
    """The witness's ``n`` (``"n = 6"``), or the counterexample's ``n`` with its ``rc``."""
    if check.witness is not None:
        found = re.search(r"(\d+)", check.witness.value)
        return (int(found.group(1)) if found else None), None
    if check.counterexample is not None:
        extra = dict(check.counterexample.extra)
        n = extra.get(_symbol(check)) or extra.get("n") or extra.get("m")
        return (int(n) if n and n.isdigit() else None), extra.get("rc")
    return None, None


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def _crossings(points: Sequence[tuple[int, float]]) -> list[float]:
    """Where D changes sign between neighbouring grid points (interpolated linearly in log n)."""
    found = []
    for (n0, d0), (n1, d1) in zip(points, points[1:]):
        if _sign(d0) != _sign(d1):
            if d0 == d1 or _sign(d0) == 0:
                found.append(float(n0 if _sign(d0) == 0 else n1))
            else:
                t = d0 / (d0 - d1)
                found.append(math.exp(math.log(n0) + t * (math.log(n1) - math.log(n0))))
    return found


def _sign_runs(points: Sequence[tuple[int, float]]) -> list[tuple[float, float, int]]:
    """Runs of one sign as ``(left, right, sign)`` in n, each grid point owning the log-midpoints around it."""
    ns = [n for n, _ in points]
    edges = [ns[0] / math.sqrt(ns[1] / ns[0]) if len(ns) > 1 else ns[0] / 1.5]
    edges += [math.sqrt(a * b) for a, b in zip(ns, ns[1:])]
    edges.append(ns[-1] * math.sqrt(ns[-1] / ns[-2]) if len(ns) > 1 else ns[0] * 1.5)
    runs: list[tuple[float, float, int]] = []
    for i, (_, d) in enumerate(points):
        s = _sign(d)
        if runs and runs[-1][2] == s:
            runs[-1] = (runs[-1][0], edges[i + 1], s)
        else:
            runs.append((edges[i], edges[i + 1], s))
    return runs


def _same_points(p: Sequence[tuple[int, float]], q: Sequence[tuple[int, float]]) -> bool:
    return len(p) == len(q) and all(
        m == n and abs(d - e) <= 1e-12 * max(1.0, abs(d), abs(e)) for (m, d), (n, e) in zip(p, q))


def _grouped_curve(check: Check) -> list[tuple[str, Sequence[tuple[int, float]]]]:
    """The check's curve with the ``rc`` whose D coincide drawn once (``"rc = 1/100, 1/20"``)."""
    groups: list[tuple[list[str], Sequence[tuple[int, float]]]] = []
    for rc, points in check.curve:
        for names, seen in groups:
            if _same_points(seen, points):
                names.append(rc)
                break
        else:
            groups.append(([rc], points))
    return [("rc = " + ", ".join(names) + (" (identical)" if len(names) > 1 else ""), points)
            for names, points in groups]


def _curve_handles(checks: Sequence[Check]) -> list[Any]:
    """The shared legend of the curve panels: one entry per rc line, as the panel with most rc groups them
    (the panels show one metric, so where their rc agree, their lines do)."""
    from matplotlib.lines import Line2D

    handles = []
    fullest = max(checks, key=lambda c: len(c.curve))
    for index, (label, _) in enumerate(_grouped_curve(fullest)):
        colour, style = _LINE_STYLES[index % len(_LINE_STYLES)]
        handles.append(Line2D([], [], color=colour, linestyle=style, linewidth=1.4, marker="o",
                              markersize=2.2, label=label))
    handles.append(Line2D([], [], marker="D", markersize=5, color="black", markerfacecolor="white",
                          linestyle="none", label="D changes sign"))
    if any(c.witness is not None for c in checks):
        handles.append(Line2D([], [], color=_EMPHASIS, linestyle="--", linewidth=1.2, label="witness"))
    if any(c.counterexample is not None for c in checks):
        handles.append(Line2D([], [], marker="X", markersize=8, color=_EMPHASIS, markeredgecolor="black",
                              linestyle="none", label="counterexample"))
    return handles


def _draw_curve(figure: Figure, spec: Any, check: Check) -> None:
    """One check's panel (D against n) and its sign strip, in the subplot area ``spec``."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    if not check.curve:
        raise ValueError(f"{check.metric} × {check.constraint}: the check has no D(n) curve (only "
                         "DeepTh and CloseTh checks record one, and not on an error or n/a verdict)")
    symbol = _symbol(check)
    curve = _grouped_curve(check)
    inner = spec.subgridspec(2, 1, height_ratios=(4.0, 0.35 + 0.35 * len(curve)), hspace=0.0)
    axes: Axes = figure.add_subplot(inner[0])
    strip: Axes = figure.add_subplot(inner[1], sharex=axes)
    marked, failing_rc = _marked_n(check)

    axes.axhline(0.0, color="black", linewidth=0.8, zorder=1)
    for index, (label, points) in enumerate(curve):
        colour, style = _LINE_STYLES[index % len(_LINE_STYLES)]
        ns = [n for n, _ in points]
        ds = [d for _, d in points]
        axes.plot(ns, ds, color=colour, linestyle=style, linewidth=1.4, marker="o", markersize=2.2,
                  label=label, zorder=3)
        for x in _crossings(points):
            axes.plot([x], [0.0], marker="D", markersize=5, color="black", markerfacecolor="white",
                      linestyle="none", zorder=4)
    if check.witness is not None and marked is not None:
        rule = "D > 0 from here on" if check.constraint == "DeepTh" else f"first {symbol} with D < 0"
        truncated = " (by truncation)" if check.witness.by_truncation else ""
        axes.axvline(marked, color=_EMPHASIS, linewidth=1.2, linestyle="--", zorder=2)
        axes.annotate(f"witness {symbol} = {marked}{truncated}\n{rule}, for every rc",
                      xy=(marked, 1.0), xycoords=("data", "axes fraction"), xytext=(4, -4),
                      textcoords="offset points", ha="left", va="top", color=_EMPHASIS, fontsize=8,
                      bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none",
                            "alpha": 0.85})
    elif check.counterexample is not None and marked is not None:
        values = dict(dict(check.curve).get(failing_rc or "", ()))
        if marked in values:
            axes.plot([marked], [values[marked]], marker="X", markersize=10, color=_EMPHASIS,
                      markeredgecolor="black", linestyle="none", zorder=5)
        where = f"rc = {failing_rc}, {symbol} = {marked}" if failing_rc else f"{symbol} = {marked}"
        axes.annotate(f"counterexample at {where} (the first rc that fails)\n"
                      f"{_wrapped(check.counterexample.note, 60)}",
                      xy=(marked, 1.0), xycoords=("data", "axes fraction"), xytext=(6, -4),
                      textcoords="offset points", ha="left", va="top", color=_EMPHASIS, fontsize=8,
                      bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none",
                            "alpha": 0.85})
    axes.set_xscale("log")
    axes.set_ylabel(f"$D({symbol}) = Q(a_{symbol}) - Q(b_{symbol})$")
    axes.yaxis.get_major_formatter().set_powerlimits((-4, 4))
    axes.grid(True, which="major", color="#DDDDDD", linewidth=0.6)
    axes.tick_params(labelbottom=False)
    # Room above the data for the witness's label.
    low, high = axes.get_ylim()
    axes.set_ylim(low, high + 0.3 * (high - low))
    verdict = check.verdict + (f" ({check.witness.value})" if check.witness else "")
    rule_text = _RULES.get(check.constraint, (symbol, check.constraint))[1]
    axes.set_title(f"{check.metric} × {check.constraint}: {verdict}\n{_wrapped(rule_text, 100)}",
                   loc="left")

    # The sign strip: one row per rc, coloured by the sign of D at each grid point.
    labels = []
    for row, (label, points) in enumerate(curve):
        for left, right, s in _sign_runs(points):
            colour, mark = _SIGN_STYLE[s]
            strip.broken_barh([(left, right - left)], (row - 0.4, 0.8), facecolors=colour,
                              edgecolors="white", linewidth=0.5)
            middle = math.sqrt(left * right)
            if math.log(right / left) > 0.18:  # wide enough for its mark
                strip.text(middle, row, mark, ha="center", va="center", fontsize=8,
                           color="white" if s else "black", fontweight="bold")
        labels.append(label.replace(" (identical)", "").replace(", ", ",\n"))
    strip.set_yticks(range(len(labels)), labels)
    strip.set_ylim(len(labels) - 0.5, -0.5)
    strip.tick_params(axis="y", length=0)
    for side in ("top", "right", "left"):
        strip.spines[side].set_visible(False)
    ns = [n for _, points in check.curve for n, _ in points]
    strip.set_xlim(min(ns) / 1.25, max(ns) * 1.25)
    strip.xaxis.set_major_locator(LogLocator(base=2.0, numticks=16))
    strip.xaxis.set_minor_formatter(NullFormatter())
    strip.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:.0f}" if x >= 1 else ""))
    strip.set_xlabel(f"{symbol} (log scale); the strip: sign of D per rc (+ blue, − orange, 0 grey)\n"
                     f"$a_{symbol}$: one relevant document, then 2{symbol}−1 non-relevant;   "
                     f"$b_{symbol}$: {symbol} non-relevant documents, then {symbol} relevant")


def threshold_curve(check: Check) -> Figure:
    """DeepTh or CloseTh on one metric: ``D(n) = Q(a_n) - Q(b_n)`` against ``n`` (log scale).

    One line per ``rc`` of ``check.curve``, the zero line, a diamond where
    ``D`` changes sign, the witness ``n`` (a dashed line, labelled) or the
    counterexample's ``n`` (a cross on the failing ``rc``'s line, labelled with
    the check's note), and under the axes a strip of the sign of ``D`` per
    ``rc`` (the sign is what the verdict reads; a tiny ``D`` is visible there).
    ``a_n`` is one relevant document then ``2n - 1`` non-relevant ones,
    ``b_n`` is ``n`` non-relevant then ``n`` relevant (definitions §3.2).
    Raises ``ValueError`` when the check has no curve.
    """
    return threshold_curves([check])


def threshold_curves(checks: Sequence[Check]) -> Figure:
    """Several threshold checks (e.g. DeepTh and CloseTh of one metric), one panel each, stacked."""
    if not checks:
        raise ValueError("no threshold check to draw")
    with _style():
        label = "; ".join(f"D(n) = Q(a_n) − Q(b_n) for {c.metric} × {c.constraint}: {c.verdict}"
                          for c in checks)
        figure = _figure(_WIDTH, 4.3 * len(checks), label)
        grid = figure.add_gridspec(len(checks), 1, hspace=0.08)
        for index, check in enumerate(checks):
            _draw_curve(figure, grid[index], check)
        handles = _curve_handles(checks)
        figure.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 4),
                      frameon=False)
    return figure


# -- verdicts over the parameter grid --------------------------------------------------------------

def _mark(check: Check) -> str:
    mark = VERDICT_STYLE.get(check.verdict, ("", check.verdict, "", ""))[1]
    return mark + ("ᵗ" if check.witness is not None and check.witness.by_truncation else "")


def _sort_key(value: Any) -> tuple[int, Any]:
    if isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        return (0, value)
    return (1, str(value))


def _varying(cell: Cell) -> tuple[list[str], dict[str, Any]]:
    """The parameters whose value differs between the cell's checks, and the fixed ones."""
    names: list[str] = []
    for check in cell.checks:
        names.extend(name for name, _ in check.params if name not in names)
    varying, fixed = [], {}
    for name in names:
        values = {repr(dict(c.params).get(name)) for c in cell.checks}
        if len(values) > 1:
            varying.append(name)
        else:
            fixed[name] = dict(cell.checks[0].params).get(name)
    return varying, fixed


def _values(cell: Cell, name: str) -> list[Any]:
    seen: dict[str, Any] = {}
    for check in cell.checks:
        value = dict(check.params).get(name)
        seen.setdefault(repr(value), value)
    return sorted(seen.values(), key=_sort_key)


def _legend(figure: Figure, checks: Sequence[Check], missing: bool = False) -> None:
    """The colours and marks of every verdict, the default setting's outline, and what else is drawn."""
    from matplotlib.patches import Patch

    verdicts = {c.verdict for c in checks}
    shown = [v for v in VERDICT_STYLE if v != "not run" or v in verdicts]
    handles = [Patch(facecolor=VERDICT_STYLE[v][0], edgecolor="#555555",
                     label=f"{VERDICT_STYLE[v][1]}  {VERDICT_STYLE[v][3]}") for v in shown]
    handles.append(Patch(facecolor="white", edgecolor="black", linewidth=2.2,
                         label="thick outline: the default setting"))
    if any(c.witness is not None and c.witness.by_truncation for c in checks):
        handles.append(Patch(facecolor="none", edgecolor="none",
                             label="ᵗ  the witness exists only by truncation at the cutoff"))
    if missing:
        handles.append(Patch(facecolor="white", edgecolor="#BBBBBB", linestyle=":",
                             label="dotted: a setting the grid does not hold"))
    width = figure.get_figwidth()
    figure.legend(handles=handles, loc="outside lower center", ncols=3 if width >= 7.5 else 2,
                  frameon=False)


def _box(axes: Axes, x: float, y: float, check: Check | None, default: bool) -> None:
    from matplotlib.patches import Rectangle

    if check is None:  # a combination the grid does not hold
        axes.add_patch(Rectangle((x - 0.45, y - 0.45), 0.9, 0.9, facecolor="white", edgecolor="#BBBBBB",
                                 linestyle=":", linewidth=0.8))
        return
    fill, _, ink, _ = VERDICT_STYLE.get(check.verdict, ("#FFFFFF", "?", "black", ""))
    axes.add_patch(Rectangle((x - 0.45, y - 0.45), 0.9, 0.9, facecolor=fill,
                             edgecolor="black" if default else "#555555", linewidth=2.2 if default else 0.6))
    axes.text(x, y, _mark(check), ha="center", va="center", color=ink, fontsize=12, fontweight="bold")


def _region_title(cell: Cell, fixed: dict[str, Any]) -> str:
    others = ", ".join(f"{k} = {_number(v)}" for k, v in fixed.items())
    head = f"{cell.row} × {cell.constraint}" + (f" ({others})" if others else "")
    projected = "; projected: computed on r(d) = max_t r(d,t)" if cell.projected else ""
    return f"{head}: {cell.summary}{projected}"


def verdict_strip(cell: Cell) -> Figure:
    """A cell's verdicts over its one varying parameter: one box per value, coloured and marked.

    The box of the metric's default setting has a thick outline; parameters
    that do not vary are named in the title with the cell's summary. Raises
    ``ValueError`` unless exactly one parameter varies (:func:`verdict_grid`
    draws two).
    """
    varying, fixed = _varying(cell)
    if len(varying) != 1:
        raise ValueError(f"{cell.row} × {cell.constraint}: a strip needs one varying parameter, the "
                         f"cell has {len(varying)}" + (f" ({', '.join(varying)})" if varying else ""))
    name = varying[0]
    values = _values(cell, name)
    with _style():
        figure = _figure(min(_WIDTH, max(6.0, 1.0 + 0.75 * len(values))), 3.0,
                         f"{cell.row} × {cell.constraint}: verdict for each {name}; {cell.summary}")
        axes = figure.add_subplot()
        for x, value in enumerate(values):
            check = next(c for c in cell.checks if repr(dict(c.params).get(name)) == repr(value))
            _box(axes, x, 0, check, check.metric == cell.metric)
        axes.set_xlim(-0.6, len(values) - 0.4)
        axes.set_ylim(-0.6, 0.6)
        axes.set_aspect("equal")
        axes.set_xticks(range(len(values)), [_number(v) for v in values],
                        rotation=45 if len(values) > 10 else 0)
        axes.set_yticks([])
        axes.set_xlabel(name)
        axes.tick_params(axis="x", length=0)
        for spine in axes.spines.values():
            spine.set_visible(False)
        axes.set_title(_wrapped(_region_title(cell, fixed), int(11 * figure.get_figwidth())), loc="left")
        _legend(figure, cell.checks)
    return figure


def verdict_grid(cell: Cell) -> Figure:
    """A cell's verdicts over two varying parameters: the first across, the second up.

    One box per setting, coloured and marked by verdict (a dotted empty box
    for a combination the grid does not hold); the default setting has a
    thick outline. Raises ``ValueError`` unless exactly two parameters vary.
    """
    varying, fixed = _varying(cell)
    if len(varying) != 2:
        raise ValueError(f"{cell.row} × {cell.constraint}: a grid needs two varying parameters, the "
                         f"cell has {len(varying)}" + (f" ({', '.join(varying)})" if varying else ""))
    across, up = varying
    xs, ys = _values(cell, across), _values(cell, up)
    by_setting = {(repr(dict(c.params).get(across)), repr(dict(c.params).get(up))): c for c in cell.checks}
    with _style():
        width = min(_WIDTH, max(6.0, 1.6 + 0.6 * len(xs)))
        figure = _figure(width, min(9.0, 2.6 + 0.55 * len(ys)),
                         f"{cell.row} × {cell.constraint}: verdict for each {across} and {up}; {cell.summary}")
        axes = figure.add_subplot()
        for i, x in enumerate(xs):
            for j, y in enumerate(ys):
                check = by_setting.get((repr(x), repr(y)))
                _box(axes, i, j, check, check is not None and check.metric == cell.metric)
        axes.set_xlim(-0.6, len(xs) - 0.4)
        axes.set_ylim(-0.6, len(ys) - 0.4)
        axes.set_aspect("equal")
        axes.set_xticks(range(len(xs)), [_number(v) for v in xs], rotation=45 if len(xs) > 10 else 0)
        axes.set_yticks(range(len(ys)), [_number(v) for v in ys])
        axes.set_xlabel(across)
        axes.set_ylabel(up)
        axes.tick_params(length=0)
        for spine in axes.spines.values():
            spine.set_visible(False)
        axes.set_title(_wrapped(_region_title(cell, fixed), int(11 * width)), loc="left")
        _legend(figure, cell.checks, missing=len(by_setting) < len(xs) * len(ys))
    return figure


def verdict_region(cell: Cell) -> Figure:
    """:func:`verdict_strip` or :func:`verdict_grid`, by the number of varying parameters (1 or 2)."""
    varying, _ = _varying(cell)
    return verdict_grid(cell) if len(varying) == 2 else verdict_strip(cell)


# -- boundaries: where a verdict changes -----------------------------------------------------------

#: What a side of a boundary rests on, in the picture's region labels (the sentence says it in full).
_CERTAIN = {"violated": "a counterexample at every probe", "witness": "a witness pair at every probe"}


def _side_basis(boundary: Boundary, side: str) -> str:
    """One line under a region's verdict: what the side rests on (as ``boundary_sentence`` words it)."""
    verdict = boundary.below if side == "below" else boundary.above
    if boundary.certain in (side, "both"):
        return _CERTAIN.get(verdict, "a concrete case at every probe")
    evidence = boundary.evidence_below if side == "below" else boundary.evidence_above
    if verdict in ("satisfied", "witness"):
        return "no counterexample found" + (f" ({evidence.strength})" if evidence is not None else "")
    return ""


def _verdict_label(verdict: str) -> str:
    style = VERDICT_STYLE.get(verdict)
    return f"{style[1]} {verdict}" if style else verdict


def _fixed_text(fixed: Sequence[tuple[str, Any]]) -> str:
    return ", ".join(f"{k} = {_number(v)}" for k, v in fixed)


def _boundary_value(boundary: Boundary) -> str:
    """``p = 0.754878`` as the sentences print it (:func:`axiometer.reports.numbers.number`)."""
    return f"{boundary.param} = {number(boundary.value)}"


def boundary_caption(boundary: Boundary) -> str:
    """The boundary's closed form in words, or what stands in for it (the line under a strip's axes):
    ``p = 0.754878 is the root of p**3 + p**2 - 1 (on the decisive case m = 2, rc = 1/100; the
    bisection agrees to 1e-6)``."""
    value = _boundary_value(boundary)
    if boundary.closed_form is not None and boundary.agrees:
        form = boundary.closed_form
        text = (f"{value} is the {form}" if form.startswith("root")
                else f"{value} exactly" if form == number(boundary.value) else f"{value} = {form}")
        return text + (f" (on the decisive case {boundary.case}; the bisection agrees to 1e-6)"
                       if boundary.case else " (the bisection agrees to 1e-6)")
    if boundary.closed_form is not None:
        return (f"{value}: the bisection's value; the closed form {boundary.closed_form} "
                f"({number(boundary.closed_value)}) disagrees with it")
    return f"{value}: bisection bracket {boundary.bracket[0]}..{boundary.bracket[1]}; no closed form"


def _along(cell: Cell | None, param: str, fixed: Sequence[tuple[str, Any]]) -> list[tuple[float, Check]]:
    """The cell's checks on the line a boundary lies on: ``param`` varies, the ``fixed`` values hold."""
    if cell is None:
        return []
    wanted = {k: repr(v) for k, v in fixed}
    found = []
    for check in cell.checks:
        params = dict(check.params)
        value = params.get(param)
        if not isinstance(value, (int, float, Fraction)) or isinstance(value, bool):
            continue
        if all(repr(params.get(k)) == v for k, v in wanted.items()):
            found.append((float(value), check))
    return sorted(found, key=lambda item: item[0])


def _span(values: Sequence[float], fallback: float) -> tuple[float, float]:
    """A range that holds ``values`` with a margin (around ``fallback`` when they are one value)."""
    low, high = min(values, default=fallback), max(values, default=fallback)
    if high - low <= 0:
        half = max(0.1, 0.5 * abs(fallback))
        low, high = low - half, high + half
    margin = 0.06 * (high - low)
    return low - margin, high + margin


def _boundary_groups(cell: Cell) -> dict[str, list[Boundary]]:
    """The cell's one-parameter boundaries by parameter, each group in increasing value."""
    groups: dict[str, list[Boundary]] = {}
    for boundary in cell.boundaries:
        groups.setdefault(boundary.param, []).append(boundary)
    return {name: sorted(found, key=lambda b: b.value) for name, found in groups.items()}


def _region_label(verdict: str, room: float) -> str:
    """A region's label for ``room`` (its share of the axes' width): mark and verdict, the mark
    alone, or nothing."""
    return _verdict_label(verdict) if room >= 0.12 else VERDICT_STYLE.get(verdict, ("", ""))[1] if room >= 0.025 \
        else ""


def _region_range(boundaries: Sequence[Boundary], index: int) -> str:
    """The values of the ``index``-th region between ``boundaries`` (ascending): ``p <= 0.754878``,
    ``1/5 < a < 3/5``, with each boundary value on the side it belongs to (``at_value``)."""
    param = boundaries[0].param
    parts = []
    if index > 0:
        left = boundaries[index - 1]
        parts.append(f"{number(left.value)} {'<=' if left.at_value == 'above' else '<'} ")
    parts.append(param)
    if index < len(boundaries):
        right = boundaries[index]
        parts.append(f" {'<=' if right.at_value == 'below' else '<'} {number(right.value)}")
    if len(parts) == 2 and index > 0:  # the last region: "p > v" reads better than "v < p"
        left = boundaries[index - 1]
        return f"{param} {'>=' if left.at_value == 'above' else '>'} {number(left.value)}"
    return "".join(parts)


def _draw_boundary_strip(axes: Axes, boundaries: Sequence[Boundary],
                         along: Sequence[tuple[float, Check]]) -> list[tuple[str, str, str]]:
    """One parameter's verdict band: a region per verdict between the boundaries, each boundary a
    labelled line, and the grid's checks on that line as marked boxes under the band. Returns each
    region's ``(verdict, its values, what it rests on)``, for the legend."""
    from matplotlib.patches import Rectangle

    param = boundaries[0].param
    low, high = _span([*(v for v, _ in along), *(b.value for b in boundaries)], boundaries[0].value)
    # Room for the outer regions, whose verdicts the boundaries state even where no check was run.
    room = 0.15 * (high - low)
    low, high = min(low, boundaries[0].value - room), max(high, boundaries[-1].value + room)
    edges = [low, *(b.value for b in boundaries), high]
    sides = [(boundaries[0], "below"), *((b, "above") for b in boundaries)]
    regions = []
    for (left, right), (boundary, side) in zip(zip(edges, edges[1:]), sides):
        verdict = boundary.below if side == "below" else boundary.above
        fill, _, ink, _ = VERDICT_STYLE.get(verdict, ("#FFFFFF", "?", "black", ""))
        axes.add_patch(Rectangle((left, 0.0), right - left, 1.0, facecolor=fill, edgecolor="none"))
        text = _region_label(verdict, (right - left) / (high - low))
        if text:
            axes.text((left + right) / 2, 0.5, text, ha="center", va="center", color=ink, fontsize=9,
                      fontweight="bold")
        regions.append((verdict, _region_range(boundaries, len(regions)), _side_basis(boundary, side)))
    for index, boundary in enumerate(boundaries):
        axes.plot([boundary.value] * 2, [-0.05, 1.32], color="black", linewidth=1.4, zorder=4,
                  solid_capstyle="butt")
        where = (boundary.value - low) / (high - low)
        align = "left" if where < 0.2 else "right" if where > 0.8 else "center"
        axes.annotate(_boundary_value(boundary), (boundary.value, 1.32), xytext=(0, 2 + 11 * (index % 2)),
                      textcoords="offset points", ha=align, va="bottom", fontsize=9, fontweight="bold")
    # The grid's own checks on this line, each a small box with its verdict's mark.
    size = 0.018 * (high - low)
    for value, check in along:
        fill, _, ink, _ = VERDICT_STYLE.get(check.verdict, ("#FFFFFF", "?", "black", ""))
        axes.add_patch(Rectangle((value - size, -0.62), 2 * size, 0.42, facecolor=fill, edgecolor="#333333",
                                 linewidth=0.6, zorder=3))
        axes.text(value, -0.41, _mark(check), ha="center", va="center", color=ink, fontsize=7.5,
                  fontweight="bold", zorder=4)
    axes.set_xlim(low, high)
    axes.set_ylim(-0.75 if along else -0.1, 1.75)
    axes.set_yticks([0.5, -0.41] if along else [0.5], ["located", "grid checks"] if along else ["located"])
    axes.tick_params(axis="y", length=0)
    for side in ("top", "right", "left"):
        axes.spines[side].set_visible(False)
    axes.set_xlabel(param)
    return regions


def boundary_strip(source: Cell | Boundary, param: str | None = None) -> Figure:
    """Where a verdict changes along one parameter, the others fixed (``Cell.boundaries``).

    A band along the parameter coloured by verdict between the located
    boundaries (the colours and marks of :data:`VERDICT_STYLE`), each region
    marked with its verdict, each boundary a line labelled with its value;
    under the band, the cell's own checks on that line (the grid's settings
    with the same fixed values), each a box with its mark, so a grid verdict
    the boundary contradicts shows. Under the axes, each boundary's closed
    form (or its bisection bracket); the legend says what each region rests
    on (a concrete case at every probe, or the search that found none).

    ``source`` is a cell (its boundaries of ``param``; every parameter's,
    one panel each, when ``param`` is ``None``) or one boundary alone. The
    range drawn is the grid's values on the line and the boundaries, with a
    margin: a result does not record the parameter's declared range. Raises
    ``ValueError`` when there is no boundary to draw.
    """
    from matplotlib.patches import Patch

    if isinstance(source, Boundary):
        cell, groups = None, {source.param: [source]}
        name = f"the boundary of {source.param}"
    else:
        cell, groups = source, _boundary_groups(source)
        name = f"{source.row} × {source.constraint}"
        if param is not None:
            groups = {param: groups[param]} if param in groups else {}
    if not groups:
        which = f" of {param}" if param is not None else ""
        raise ValueError(f"{name}: no boundary{which} was located (a table run locates them with "
                         "--boundaries or a range such as --param p=0.5..0.99)")
    regions: dict[tuple[str, str, str], None] = {}
    with _style():
        label = "; ".join(f"{name}: the verdict along {p}, boundary at "
                          + ", ".join(f"{p} = {number(b.value)}" for b in found) for p, found in groups.items())
        figure = _figure(_WIDTH, 2.7 * len(groups) + 0.6, label)
        grid = figure.add_gridspec(len(groups), 1)
        for index, (name_, found) in enumerate(groups.items()):
            axes = figure.add_subplot(grid[index])
            fixed = found[0].fixed
            along = _along(cell, name_, fixed)
            for region in _draw_boundary_strip(axes, found, along):
                regions.setdefault(region)
            others = _fixed_text(fixed)
            title = f"{name}: the verdict along {name_}" + (f", with {others}" if others else "")
            if cell is not None and cell.summary and along:
                title += f"\nthe grid's checks: {cell.summary}"
            axes.set_title("\n".join(_wrapped(line, 100) for line in title.split("\n")), loc="left")
            axes.set_xlabel(name_ + "\n" + "\n".join(_wrapped(boundary_caption(b), 90) for b in found),
                            loc="left")
        handles = [Patch(facecolor=VERDICT_STYLE.get(v, ("#FFFFFF",))[0], edgecolor="#555555",
                         label=f"{_verdict_label(v)} for {values}" + (f": {basis}" if basis else ""))
                   for v, values, basis in regions]
        # Two columns when two short entries fit the width, else one entry per line.
        wide = len(handles) > 2 or any(len(h.get_label()) > 48 for h in handles)
        figure.legend(handles=handles, loc="outside lower center", ncols=1 if wide else 2, frameon=False)
    return figure


def _curve_runs(points: Sequence[tuple[float, Sequence[Boundary]]]) -> list[list[int]]:
    """Indices of neighbouring points with the same (non-zero) number of boundaries: the stretches
    along which the k-th boundaries are joined."""
    runs: list[list[int]] = []
    for i, (_, found) in enumerate(points):
        if found and runs and len(points[runs[-1][-1]][1]) == len(found) and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        elif found:
            runs.append([i])
    return runs


def _column_verdict(cell: Cell | None, curve: BoundaryCurve, over: Any) -> str | None:
    """The verdict of every check of ``cell`` at ``over`` (on the curve's line), if they agree."""
    if cell is None:
        return None
    verdicts = {check.verdict for _, check in _along(cell, curve.param, ((curve.over, over), *curve.fixed))}
    return verdicts.pop() if len(verdicts) == 1 else None


def _free_offset(axes: Axes, x: float, y: float, text: str, taken: list[tuple[float, float, float, float]],
                 size: float = 7.5) -> tuple[float, float, str, str]:
    """An offset (points) for a label at ``(x, y)`` whose box overlaps nothing in ``taken`` (boxes in
    display points) and stays inside the axes; the first candidate when none is free. The box is
    added to ``taken``."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    figure = axes.get_figure()
    scale = 72.0 / figure.dpi
    box = axes.get_window_extent()
    px, py = (v * scale for v in axes.transData.transform((x, y)))
    x0, y0, x1, y1 = box.x0 * scale, box.y0 * scale, box.x1 * scale, box.y1 * scale
    w, h, _ = TextToPath().get_text_width_height_descent(text, FontProperties(size=size), ismath=False)
    candidates = [(5, 4, "left", "bottom"), (5, -4, "left", "top"), (-5, 4, "right", "bottom"),
                  (-5, -4, "right", "top"), (0, 8, "center", "bottom"), (0, -8, "center", "top"),
                  (-5, 14, "right", "bottom"), (-5, -14, "right", "top"), (5, 14, "left", "bottom"),
                  (5, -14, "left", "top")]
    chosen = None
    for dx, dy, ha, va in candidates:
        left = px + dx - (w if ha == "right" else w / 2 if ha == "center" else 0.0)
        bottom = py + dy - (h if va == "top" else 0.0)
        rect = (left, bottom, left + w, bottom + h)
        inside = rect[0] >= x0 and rect[2] <= x1 and rect[1] >= y0 and rect[3] <= y1
        pad = 3.0  # room for the label's white box
        if inside and not any(rect[0] - pad < t[2] and t[0] < rect[2] + pad and rect[1] - pad < t[3]
                              and t[1] < rect[3] + pad for t in taken):
            chosen = (dx, dy, ha, va, rect)
            break
    if chosen is None:
        dx, dy, ha, va = candidates[0]
        chosen = (dx, dy, ha, va, (px + dx, py + dy, px + dx + w, py + dy + h))
    taken.append(chosen[4])
    return chosen[:4]


def _display_box(axes: Axes, x: float, y: float, half: float) -> tuple[float, float, float, float]:
    """A square of ``half`` points around ``(x, y)``, in display points."""
    scale = 72.0 / axes.get_figure().dpi
    px, py = (v * scale for v in axes.transData.transform((x, y)))
    return (px - half, py - half, px + half, py + half)


def boundary_curve(source: Cell | BoundaryCurve, index: int = 0) -> Figure:
    """A two-parameter cell's boundary curve: the boundary of ``param`` (up) at each value of ``over``
    (across), the located points joined, the regions below and above shaded by their verdicts.

    ``source`` is a cell (its ``curves[index]``, titled by the cell, with its
    grid's checks drawn as marks at their settings and the cell's one-parameter
    boundaries of ``over`` as diamonds) or a :class:`BoundaryCurve` alone.
    Between two neighbouring values of ``over`` with as many boundaries each,
    the points are joined by straight lines (a join, not a located value)
    and the regions shaded; nothing is shaded outside the values located,
    nor between values whose number of boundaries differs. A value of
    ``over`` with no change in ``param`` is a narrow column, shaded by the
    verdict its checks agree on (hatched without one); so is a lone point.
    Raises ``ValueError`` when there is no curve.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle

    if isinstance(source, BoundaryCurve):
        cell, curve, name = None, source, "the boundary curve"
    else:
        cell, name = source, f"{source.row} × {source.constraint}"
        if not 0 <= index < len(source.curves):
            raise ValueError(f"{name}: no boundary curve (a two-parameter cell gets one with --boundaries "
                             "or a range such as --param p=0.5..0.99)")
        curve = source.curves[index]
    points = sorted(((float(over), tuple(found)) for over, found in curve.points), key=lambda p: p[0])
    if not points:
        raise ValueError(f"{name}: the boundary curve has no point")
    grid_checks = []
    if cell is not None:
        for check in cell.checks:
            params = dict(check.params)
            x, y = params.get(curve.over), params.get(curve.param)
            if all(isinstance(v, (int, float, Fraction)) and not isinstance(v, bool) for v in (x, y)) and \
                    all(repr(params.get(k)) == repr(v) for k, v in curve.fixed):
                grid_checks.append((float(x), float(y), check))
    crossing = [b for b in (cell.boundaries if cell is not None else ())
                if b.param == curve.over and curve.param in dict(b.fixed)]
    xs = [x for x, _ in points]
    ys = [b.value for _, found in points for b in found]
    low, high = _span([*ys, *(y for _, y, _ in grid_checks), *(float(dict(b.fixed)[curve.param]) for b in crossing)],
                      ys[0] if ys else 0.5)
    left, right = _span([*xs, *(x for x, _, _ in grid_checks), *(b.value for b in crossing)], xs[0])
    column = 0.015 * (right - left)   # half the width of a lone point's or an unchanged value's column
    shaded: list[str] = []

    with _style():
        fixed = _fixed_text(curve.fixed)
        title = f"{name}: the boundary of {curve.param} at each {curve.over}" + (f", with {fixed}" if fixed else "")
        if cell is not None and cell.summary:
            title += f"\nthe grid's checks: {cell.summary}"
        figure = _figure(_WIDTH, 5.8, f"{name}: the boundary of {curve.param} over {curve.over}")
        axes = figure.add_subplot()
        axes.set_xlim(left, right)
        axes.set_ylim(low, high)

        def shade(xs_: Sequence[float], bottom: Sequence[float], top: Sequence[float], verdict: str) -> None:
            if verdict not in shaded:
                shaded.append(verdict)
            axes.fill_between(xs_, bottom, top, color=VERDICT_STYLE.get(verdict, ("#DDDDDD",))[0], alpha=0.45,
                              linewidth=0, zorder=1)

        unchanged = False
        labels: list[tuple[float, float, str]] = []
        for x, found in points:
            if found:
                continue
            verdict = _column_verdict(cell, curve, x)
            if verdict is None:
                unchanged = True
                axes.add_patch(Rectangle((x - column, low), 2 * column, high - low, facecolor="none",
                                         edgecolor="#999999", hatch="//", linewidth=0, zorder=1))
            else:
                shade([x - column, x + column], [low] * 2, [high] * 2, verdict)
        for run in _curve_runs(points):
            count = len(points[run[0]][1])
            run_xs = [points[i][0] for i in run]
            lines = [[points[i][1][k].value for i in run] for k in range(count)]
            if len(run) == 1:  # a lone point: a narrow column
                run_xs = [run_xs[0] - column, run_xs[0] + column]
                lines = [line * 2 for line in lines]
            for k in range(count + 1):
                verdict = points[run[0]][1][0].below if k == 0 else points[run[0]][1][k - 1].above
                bottom = [low] * len(run_xs) if k == 0 else lines[k - 1]
                top = [high] * len(run_xs) if k == count else lines[k]
                shade(run_xs, bottom, top, verdict)
                if len(run) > 1:  # the region's label, between the two points where it is largest
                    j = max(range(len(run_xs) - 1), key=lambda m: (run_xs[m + 1] - run_xs[m])
                            * (top[m] + top[m + 1] - bottom[m] - bottom[m + 1]))
                    gap = (top[j] + top[j + 1] - bottom[j] - bottom[j + 1]) / 2
                    if gap / (high - low) > 0.1:
                        labels.append(((run_xs[j] + run_xs[j + 1]) / 2,
                                       (top[j] + top[j + 1] + bottom[j] + bottom[j + 1]) / 4, verdict))
            for k in range(count):
                axes.plot([points[i][0] for i in run], [points[i][1][k].value for i in run], color="black",
                          linewidth=1.5, marker="o", markersize=4.5, zorder=4)
        for b in crossing:
            axes.plot([b.value], [float(dict(b.fixed)[curve.param])], marker="D", markersize=6, color="white",
                      markeredgecolor="black", linestyle="none", zorder=5)
        for x, y, check in grid_checks:
            ink = VERDICT_STYLE.get(check.verdict, ("black",))[0]
            axes.text(x, y, _mark(check), ha="center", va="center", fontsize=8, fontweight="bold", color=ink,
                      zorder=5, bbox={"boxstyle": "circle,pad=0.15", "facecolor": "white", "edgecolor": ink,
                                      "linewidth": 0.8})
        axes.set_xlabel(f"{curve.over}\n(between two values of {curve.over}, a straight line joins the located "
                        f"points; white: not located)")
        axes.set_ylabel(f"{curve.param}")
        axes.set_xticks(xs, [_number(x) for x in xs])
        axes.grid(True, color="#DDDDDD", linewidth=0.5, zorder=0)
        axes.set_title("\n".join(_wrapped(line, 100) for line in title.split("\n")), loc="left")
        handles = [Line2D([], [], color="black", linewidth=1.5, marker="o", markersize=4.5,
                          label=f"the boundary of {curve.param} located at a value of {curve.over}")]
        handles += [Patch(facecolor=VERDICT_STYLE.get(v, ("#DDDDDD",))[0], alpha=0.45, label=_verdict_label(v))
                    for v in shaded]
        if crossing:
            handles.append(Line2D([], [], marker="D", markersize=6, color="white", markeredgecolor="black",
                                  linestyle="none", label=f"the boundary of {curve.over} at a fixed {curve.param}"))
        if grid_checks:
            handles.append(Line2D([], [], marker="o", markersize=7, color="white", markeredgecolor="black",
                                  linestyle="none", label="a grid setting checked, with its verdict's mark"))
        if unchanged:
            handles.append(Patch(facecolor="none", edgecolor="#999999", hatch="//",
                                 label=f"no change in {curve.param} at this {curve.over}"))
        figure.legend(handles=handles, loc="outside lower center", ncols=2, frameon=False)
        # Labels last, on the laid-out axes: each where it covers no mark, point or other label.
        figure.draw_without_rendering()
        taken = [_display_box(axes, x, y, 6.0) for x, y, _ in grid_checks]
        taken += [_display_box(axes, x, b.value, 3.0) for x, found in points for b in found]
        taken += [_display_box(axes, b.value, float(dict(b.fixed)[curve.param]), 4.0) for b in crossing]
        for x, found in points:
            if not found:
                verdict = _column_verdict(cell, curve, x)
                text = f"no change in {curve.param}" + (f":\n{verdict}" if verdict else "")
                where = (x - left) / (right - left)
                ha = "left" if where < 0.15 else "right" if where > 0.85 else "center"
                axes.annotate(text, (x + {"left": -column, "right": column}.get(ha, 0.0), high), xytext=(0, -4),
                              textcoords="offset points", ha=ha,
                              va="top", fontsize=7.5, zorder=7, annotation_clip=False,
                              bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none",
                                    "alpha": 0.85})
        for x, y, verdict in labels:
            axes.text(x, y, _verdict_label(verdict), ha="center", va="center", fontsize=8.5, fontweight="bold",
                      color="#222222", zorder=6, bbox={"boxstyle": "round,pad=0.2", "facecolor": "white",
                                                        "edgecolor": "none", "alpha": 0.7})
            taken.append(_display_box(axes, x, y, 12.0))
        values = [(x, b.value, number(b.value)) for x, found in points for b in found]
        values += [(b.value, float(dict(b.fixed)[curve.param]), _boundary_value(b)) for b in crossing]
        for x, y, text in values:
            dx, dy, ha, va = _free_offset(axes, x, y, text, taken)
            axes.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=7.5, ha=ha, va=va,
                          zorder=7, bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "edgecolor": "none",
                                          "alpha": 0.75})
    return figure


def boundary_region(cell: Cell) -> Figure:
    """:func:`boundary_curve` for a cell with a boundary curve, else :func:`boundary_strip` (every
    parameter's boundaries, one panel each); ``ValueError`` when the cell has neither."""
    return boundary_curve(cell) if cell.curves else boundary_strip(cell)


# -- intrinsic: attained values -------------------------------------------------------------------

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
    with _style():
        figure = _figure(_WIDTH, 3.4, f"{result.metric} on {result.domain}: {len(xs)} distinct values "
                                      f"on {result.size} outputs; {result.category}")
        axes = figure.add_subplot()
        equal_colour, unequal_colour = "#0072B2", "#E69F00"
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
        bracket = interval is not None and not interval.holds and len(interval.counterexample) == 3
        if bracket:
            low, _, high = (r.score for r in interval.counterexample)
            text = ", ".join(exact_text(r.exact) if r.exact else _number(r.score) for r in interval.counterexample)
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
        axes.set_title(_wrapped(f"{result.metric} on {result.domain}: {result.category} — {len(xs)} "
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


# -- relative metrics: the scatter ------------------------------------------------------------------

def relative_scatter(score_result: Any, relative_metric: str, base_metric: str) -> Figure:
    """Per run, the mean of ``relative_metric`` against the mean of ``base_metric``, labelled by run.

    ``score_result`` is a :class:`axiometer.scoring.ScoreResult` (``runs``,
    ``metrics``, ``mean(run, metric)``, ``kendall``); Kendall's tau-b between
    the two orderings, when the result has it, goes in the title. As in the
    NRG paper's figures (Amigó et al.), a run far from the others' trend is
    one the relative metric judges differently from its base.
    """
    for name in (relative_metric, base_metric):
        if name not in score_result.metrics:
            raise ValueError(f"no metric {name!r} in the scores; known: {', '.join(score_result.metrics)}")
    runs = list(score_result.runs)
    xs = [score_result.mean(run, base_metric) for run in runs]
    ys = [score_result.mean(run, relative_metric) for run in runs]
    tau = next((k.tau for k in getattr(score_result, "kendall", ())
                if k.relative == relative_metric and k.metric == base_metric), None)
    with _style():
        figure = _figure(6.0, 4.8, f"{relative_metric} against {base_metric}, one point per run")
        axes = figure.add_subplot()
        axes.scatter(xs, ys, s=22, color="#0072B2", edgecolors="black", linewidths=0.4, zorder=3)
        axes.set_xlabel(f"{base_metric} (mean over topics)")
        axes.set_ylabel(f"{relative_metric} (mean over topics)")
        axes.grid(True, color="#EEEEEE", linewidth=0.6)
        axes.spines[["top", "right"]].set_visible(False)
        tau_text = f"; Kendall's tau-b of the two run orderings = {_number(tau)}" if tau is not None else ""
        axes.set_title(_wrapped(f"{relative_metric} against its base {base_metric}, one point per run",
                                66) + f"\n{len(runs)} runs{tau_text}", loc="left")
        axes.margins(0.12)
        _label_points(axes, xs, ys, runs)  # last: it measures the laid-out axes
    return figure


def _label_points(axes: Axes, xs: Sequence[float], ys: Sequence[float], labels: Sequence[str]) -> None:
    """Run labels beside their points, each where it overlaps no point and no label already placed.

    Candidate places are tried in order (right, left, above, below, then the
    diagonals, then further out with a leader line); sizes are measured in
    points on the laid-out axes, so the test is the real text extent.
    """
    if not labels:
        return
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    figure = axes.get_figure()
    figure.draw_without_rendering()  # lay out first: the axes' final size decides what overlaps
    box = axes.get_window_extent()
    scale = 72.0 / figure.dpi
    width, height = box.width * scale, box.height * scale
    (x0, x1), (y0, y1) = axes.get_xlim(), axes.get_ylim()
    points = [((x - x0) / ((x1 - x0) or 1.0) * width, (y - y0) / ((y1 - y0) or 1.0) * height)
              for x, y in zip(xs, ys)]
    taken = [(px - 3.5, py - 3.5, px + 3.5, py + 3.5) for px, py in points]  # the markers
    font = FontProperties(size=7)
    measure = TextToPath()
    near = [(5, 0, "left", "center"), (-5, 0, "right", "center"), (0, 5, "center", "bottom"),
            (0, -5, "center", "top"), (5, 5, "left", "bottom"), (5, -5, "left", "top"),
            (-5, 5, "right", "bottom"), (-5, -5, "right", "top")]
    far = [(sx * 14, sy * 9 * k, "left" if sx > 0 else "right", "center")
           for k in (1, 2, 3, 4) for sy in (1, -1) for sx in (1, -1)]

    def place(px: float, py: float, w: float, h: float, dx: float, dy: float, ha: str, va: str):
        left = px + dx - (w if ha == "right" else w / 2 if ha == "center" else 0.0)
        bottom = py + dy - (h if va == "top" else h / 2 if va == "center" else 0.0)
        return left, bottom, left + w, bottom + h

    def free(rect: tuple[float, float, float, float]) -> bool:
        inside = rect[0] >= 0 and rect[2] <= width and rect[1] >= 0 and rect[3] <= height
        return inside and not any(rect[0] < t[2] and t[0] < rect[2] and rect[1] < t[3] and t[1] < rect[3]
                                  for t in taken)

    for (px, py), x, y, label in zip(points, xs, ys, labels):
        w, h, _ = measure.get_text_width_height_descent(label, font, ismath=False)
        choice = next(((c, place(px, py, w, h, *c)) for c in near + far if free(place(px, py, w, h, *c))),
                      None)
        if choice is None:  # crowded everywhere: to the right, overlapping if it must
            choice = (near[0], place(px, py, w, h, *near[0]))
        (dx, dy, ha, va), rect = choice
        taken.append(rect)
        leader = {"arrowstyle": "-", "color": "#999999", "linewidth": 0.5, "shrinkA": 0, "shrinkB": 3}
        axes.annotate(label, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=7, ha=ha, va=va,
                      annotation_clip=False, in_layout=False,
                      arrowprops=leader if (dx, dy, ha, va) not in near else None)


# -- output -----------------------------------------------------------------------------------------

def to_svg(figure: Figure) -> str:
    """The figure as an inline-ready ``<svg>`` element.

    No XML prolog or DOCTYPE (so it can sit in HTML), no metadata, no
    external reference (the only URIs are the SVG and XLink namespaces);
    glyphs are paths, so no font is needed. Every id is prefixed with a hash
    of the picture, so several pictures on one page do not share ids; the
    figure's label becomes the ``<title>`` (a tooltip, and what a screen
    reader says). The same figure gives the same text.
    """
    buffer = io.StringIO()
    with _style():
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None, "Format": None,
                                                       "Type": None})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]
    prefix = "ax" + hashlib.sha1(svg.encode("utf-8")).hexdigest()[:8] + "-"
    svg = re.sub(r'\bid="', f'id="{prefix}', svg)
    svg = re.sub(r'(href=")#', rf"\1#{prefix}", svg)
    svg = svg.replace("url(#", f"url(#{prefix}")
    label = figure.get_label()
    if label:
        title = label.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        svg = re.sub(r"(<svg\b[^>]*>)", rf'\1\n <title>{_escape_group(title)}</title>', svg, count=1)
    return svg.replace("<svg ", '<svg role="img" ', 1).rstrip() + "\n"


def _escape_group(text: str) -> str:
    return text.replace("\\", r"\\")


def save(figure: Figure, path: str | Path) -> None:
    """Write ``figure`` to ``path``: SVG for ``.svg`` (:func:`to_svg`), PNG (150 dpi) for ``.png``.

    Any other suffix raises :class:`~axiometer.core.ValidationError` (a
    ``ValueError``) naming the formats, before anything is written.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in PICTURE_FORMATS:
        problem = f"unknown picture format {path.suffix!r}" if suffix else "no suffix to choose the format"
        raise ValidationError(f"{path}: {problem}; use {' or '.join(PICTURE_FORMATS)}")
    if suffix == ".svg":
        path.write_text(to_svg(figure), encoding="utf-8")
    else:
        with _style():
            figure.savefig(path, format="png", dpi=150, metadata={"Software": None})


# -- meta-evaluation: tau against a parameter -------------------------------------------------------

#: Kendall's tau below which two system rankings are traditionally called different (Voorhees; the
#: threshold Türkmen et al. draw on in their Fig. 2).
TAU_THRESHOLD = 0.9


def tau_curve_figure(curve: Any) -> Figure:
    """Kendall's tau-b and tau-AP against a swept parameter (Türkmen et al. 2023, Fig. 2).

    ``curve`` is an :class:`axiometer.meta.TauCurve`: per value of
    ``curve.param``, both coefficients between ``curve.against`` (tau-AP's
    reference) and ``curve.metric`` at that value. tau-b is a solid line with
    circles, tau-AP a dashed line with squares (they differ without colour
    too); the dotted line is the 0.9 threshold. A point whose coefficient is
    undefined (a metric ties every run) is left out and said under the axes.
    """
    points = list(curve.points)
    with _style():
        figure = _figure(6.0, 4.2, f"Kendall's tau between {curve.against} and {curve.metric} against "
                                   f"{curve.param}")
        axes = figure.add_subplot()
        lines = (("tau_b", "Kendall's tau-b", "#0072B2", "-", "o"),
                 ("tau_ap", f"tau-AP ({curve.against} as reference)", "#D55E00", "--", "s"))
        missing = []
        for attribute, label, colour, style, marker in lines:
            kept = [(p.value, getattr(p, attribute)) for p in points if getattr(p, attribute) is not None]
            missing += [f"{label.split(' (')[0]} at {curve.param} = {_number(p.value)}" for p in points
                        if getattr(p, attribute) is None]
            if kept:
                xs, ys = zip(*kept)
                axes.plot(xs, ys, style, color=colour, marker=marker, markersize=4.5, linewidth=1.4,
                          label=label, zorder=3)
        axes.axhline(TAU_THRESHOLD, color="#999999", linestyle=":", linewidth=1.0,
                     label=f"tau = {TAU_THRESHOLD} (rankings traditionally called equivalent above it)")
        axes.set_xlabel(curve.param)
        axes.set_ylabel("rank correlation of the run orderings")
        values = [p.value for p in points]
        if values:
            axes.set_xticks(values if len(values) <= 11 else values[:: math.ceil(len(values) / 11)])
            axes.xaxis.set_major_formatter(_tick_formatter())
        low = min([TAU_THRESHOLD] + [getattr(p, a) for p in points for a in ("tau_b", "tau_ap")
                                     if getattr(p, a) is not None])
        axes.set_ylim(max(-1.05, low - 0.05 * (1.05 - low) - 0.02), 1.02)
        axes.grid(True, color="#EEEEEE", linewidth=0.6)
        axes.spines[["top", "right"]].set_visible(False)
        axes.set_title(_wrapped(f"{curve.metric} against {curve.against}", 66)
                       + f"\n{curve.runs} runs, {curve.topics} topics; runs ordered by their mean", loc="left")
        axes.legend(loc="best", frameon=False, fontsize=8)
        if missing:
            figure.text(0.01, 0.0, _wrapped("Undefined (a metric ties every run): " + "; ".join(missing), 110),
                        fontsize=7, va="bottom")
    return figure


def _tick_formatter() -> Any:
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda value, _: _number(round(value, 10)))


__all__ += ["tau_curve_figure", "TAU_THRESHOLD"]
