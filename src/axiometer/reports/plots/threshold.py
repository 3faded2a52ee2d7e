"""The threshold curves: ``D(n) = Q(a_n) - Q(b_n)`` against ``n`` for DeepTh and CloseTh checks
(definitions §3.2 and §3.5; ``Check.curve``), one panel per check with a strip of the sign of ``D``."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, cast

from axiometer.reports.plots.style import WIDTH, new_figure, style, wrapped
from axiometer.results import Check

if TYPE_CHECKING:  # matplotlib is imported when a picture is drawn, not with axiometer
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.gridspec import SubplotSpec
    from matplotlib.lines import Line2D
    from matplotlib.ticker import ScalarFormatter

__all__ = ["threshold_curve", "threshold_curves"]

#: The sign strip's colours for D > 0, D < 0 and D = 0 (Okabe-Ito blue, orange, grey).
_SIGN_STYLE = {1: ("#0072B2", "+"), -1: ("#E69F00", "−"), 0: ("#999999", "0")}
#: One colour (and line style) per rc line, so lines differ without colour too.
_LINE_STYLES: tuple[tuple[str, Literal["-", "--", "-.", ":"]], ...] = (
    ("#0072B2", "-"), ("#CC79A7", "--"), ("#009E73", "-."), ("#000000", ":"))
_EMPHASIS = "#D55E00"

#: What each threshold constraint asks of D (definitions §3.2 and §3.5), for the picture's title.
_RULES = {
    "DeepTh": ("n", "Deepness threshold: D(n) > 0 for every n from some N on "
                    "(one relevant document on top eventually beats n relevant ones after n non-relevant)"),
    "CloseTh": ("m", "Closeness threshold: D(m) < 0 for some m "
                     "(m relevant documents after m non-relevant ones beat one relevant on top)"),
}


def _symbol(check: Check) -> str:
    return _RULES.get(check.constraint, ("n", ""))[0]


def _marked_n(check: Check) -> tuple[int | None, str | None]:
    """The witness's threshold (``n`` or ``m``), or the counterexample's with its ``rc`` as the curve
    names it (``str(rc)``)."""
    if check.witness is not None:
        return check.witness.threshold, None
    if check.counterexample is not None:
        cx = check.counterexample
        return cx.threshold, (None if cx.rc is None else str(cx.rc))
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


def _curve_handles(checks: Sequence[Check]) -> list[Line2D]:
    """The shared legend of the curve panels: one entry per rc line, as the panel with most rc groups them
    (the panels show one metric, so where their rc agree, their lines do)."""
    from matplotlib.lines import Line2D

    handles: list[Line2D] = []
    fullest = max(checks, key=lambda c: len(c.curve))
    for index, (label, _) in enumerate(_grouped_curve(fullest)):
        colour, dashes = _LINE_STYLES[index % len(_LINE_STYLES)]
        handles.append(Line2D([], [], color=colour, linestyle=dashes, linewidth=1.4, marker="o",
                              markersize=2.2, label=label))
    handles.append(Line2D([], [], marker="D", markersize=5, color="black", markerfacecolor="white",
                          linestyle="none", label="D changes sign"))
    if any(c.witness is not None for c in checks):
        handles.append(Line2D([], [], color=_EMPHASIS, linestyle="--", linewidth=1.2, label="witness"))
    if any(c.counterexample is not None for c in checks):
        handles.append(Line2D([], [], marker="X", markersize=8, color=_EMPHASIS, markeredgecolor="black",
                              linestyle="none", label="counterexample"))
    return handles


def _draw_curve(figure: Figure, spec: SubplotSpec, check: Check) -> None:
    """One check's panel (D against n) and its sign strip, in the subplot area ``spec``."""
    if not check.curve:
        raise ValueError(f"{check.metric} × {check.constraint}: the check has no D(n) curve (only "
                         "DeepTh and CloseTh checks record one, and not on an error or n/a verdict)")
    symbol = _symbol(check)
    curve = _grouped_curve(check)
    inner = spec.subgridspec(2, 1, height_ratios=(4.0, 0.35 + 0.35 * len(curve)), hspace=0.0)
    axes: Axes = figure.add_subplot(inner[0])
    strip: Axes = figure.add_subplot(inner[1], sharex=axes)
    _draw_lines(axes, curve)
    _mark_found(axes, check, symbol)
    _finish_panel(axes, check, symbol)
    _draw_sign_strip(strip, check, curve, symbol)


def _draw_lines(axes: Axes, curve: Sequence[tuple[str, Sequence[tuple[int, float]]]]) -> None:
    """The zero line, one line per group of rc, and a diamond where a line crosses zero."""
    axes.axhline(0.0, color="black", linewidth=0.8, zorder=1)
    for index, (label, points) in enumerate(curve):
        colour, dashes = _LINE_STYLES[index % len(_LINE_STYLES)]
        ns = [n for n, _ in points]
        ds = [d for _, d in points]
        axes.plot(ns, ds, color=colour, linestyle=dashes, linewidth=1.4, marker="o", markersize=2.2,
                  label=label, zorder=3)
        for x in _crossings(points):
            axes.plot([x], [0.0], marker="D", markersize=5, color="black", markerfacecolor="white",
                      linestyle="none", zorder=4)


def _mark_found(axes: Axes, check: Check, symbol: str) -> None:
    """The witness's n (a dashed line, labelled) or the counterexample's (a cross on its rc's line)."""
    marked, failing_rc = _marked_n(check)
    if marked is None:
        return
    if check.witness is not None:
        rule = "D > 0 from here on" if check.constraint == "DeepTh" else f"first {symbol} with D < 0"
        truncated = " (by truncation)" if check.witness.by_truncation else ""
        axes.axvline(marked, color=_EMPHASIS, linewidth=1.2, linestyle="--", zorder=2)
        axes.annotate(f"witness {symbol} = {marked}{truncated}\n{rule}, for every rc",
                      xy=(marked, 1.0), xycoords=("data", "axes fraction"), xytext=(4, -4),
                      textcoords="offset points", ha="left", va="top", color=_EMPHASIS, fontsize=8,
                      bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none",
                            "alpha": 0.85})
    elif check.counterexample is not None:
        values = dict(dict(check.curve).get(failing_rc or "", ()))
        if marked in values:
            axes.plot([marked], [values[marked]], marker="X", markersize=10, color=_EMPHASIS,
                      markeredgecolor="black", linestyle="none", zorder=5)
        where = f"rc = {failing_rc}, {symbol} = {marked}" if failing_rc else f"{symbol} = {marked}"
        axes.annotate(f"counterexample at {where} (the first rc that fails)\n"
                      f"{wrapped(check.counterexample.note, 60)}",
                      xy=(marked, 1.0), xycoords=("data", "axes fraction"), xytext=(6, -4),
                      textcoords="offset points", ha="left", va="top", color=_EMPHASIS, fontsize=8,
                      bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none",
                            "alpha": 0.85})


def _finish_panel(axes: Axes, check: Check, symbol: str) -> None:
    """The panel's log scale, labels, grid and title (the verdict and the constraint's rule)."""
    axes.set_xscale("log")
    axes.set_ylabel(f"$D({symbol}) = Q(a_{symbol}) - Q(b_{symbol})$", parse_math=True)
    # A linear axis's major formatter is matplotlib's ScalarFormatter.
    cast("ScalarFormatter", axes.yaxis.get_major_formatter()).set_powerlimits((-4, 4))
    axes.grid(True, which="major", color="#DDDDDD", linewidth=0.6)
    axes.tick_params(labelbottom=False)
    # Room above the data for the witness's label.
    low, high = axes.get_ylim()
    axes.set_ylim(low, high + 0.3 * (high - low))
    verdict = check.verdict + (f" ({check.witness.value})" if check.witness else "")
    rule_text = _RULES.get(check.constraint, (symbol, check.constraint))[1]
    axes.set_title(f"{check.metric} × {check.constraint}: {verdict}\n{wrapped(rule_text, 100)}",
                   loc="left")


def _draw_sign_strip(strip: Axes, check: Check, curve: Sequence[tuple[str, Sequence[tuple[int, float]]]],
                     symbol: str) -> None:
    """The sign strip under the panel: one row per rc, coloured by the sign of D at each grid point."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

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
                     f"$b_{symbol}$: {symbol} non-relevant documents, then {symbol} relevant", parse_math=True)


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
    with style():
        label = "; ".join(f"D(n) = Q(a_n) − Q(b_n) for {c.metric} × {c.constraint}: {c.verdict}"
                          for c in checks)
        figure = new_figure(WIDTH, 4.3 * len(checks), label)
        grid = figure.add_gridspec(len(checks), 1, hspace=0.08)
        for index, check in enumerate(checks):
            _draw_curve(figure, grid[index], check)
        handles = _curve_handles(checks)
        figure.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 4),
                      frameon=False)
    return figure

