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
from axiometer.reports.numbers import exact_text
from axiometer.results import Cell, Check, IntrinsicResult

if TYPE_CHECKING:  # matplotlib is imported when a picture is drawn, not with axiometer
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["threshold_curve", "threshold_curves", "verdict_strip", "verdict_grid", "verdict_region",
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
