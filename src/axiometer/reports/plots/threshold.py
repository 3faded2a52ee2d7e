"""The threshold curves: ``D(n) = Q(a_n) - Q(b_n)`` against ``n`` for DeepTh and CloseTh checks
(definitions §3.2 and §3.5; ``Check.curve``), one panel per curve with a strip of where each
constraint holds.

DeepTh and CloseTh read the same construction (a DeepTh and a CloseTh check of one setting record the
same ``D``): DeepTh asks ``D > 0`` from some ``n`` on, CloseTh ``D < 0`` at some ``m``. Checks that
share a curve share a panel: the curve once, each constraint's reading in its own rows of the strip.
Colour says whether a constraint holds (:mod:`axiometer.reports.palette`), never the sign of ``D``
(for CloseTh, ``D < 0`` is the good outcome): the strip is coloured by whether ``D`` meets what the
constraint asks at that point, its mark is the sign; the lines themselves, one per ``rc``, are black,
told apart by their dashes and markers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, cast

from axiometer.reports.palette import FAILS, GRID, HOLDS, NOT_APPLICABLE, SERIES, Swatch
from axiometer.reports.plots.style import WIDTH, new_figure, style, wrapped
from axiometer.results import Check

if TYPE_CHECKING:  # matplotlib is imported when a picture is drawn, not with axiometer
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.gridspec import SubplotSpec
    from matplotlib.ticker import ScalarFormatter

__all__ = ["threshold_curve", "threshold_curves", "reading", "same_curve"]

Points = Sequence[tuple[int, float]]

#: The sign's mark in the strip.
_SIGN_MARK = {1: "+", -1: "−", 0: "0"}
#: One dash style and marker per rc line (black: colour is the verdicts').
_LINE_STYLES: tuple[tuple[Literal["-", "--", "-.", ":"], str], ...] = (("-", "o"), ("--", "s"), ("-.", "^"),
                                                                      (":", "v"))
#: The sign each threshold constraint asks of D (DeepTh: D > 0 from some n on; CloseTh: D < 0 at some m).
_ASKS = {"DeepTh": 1, "CloseTh": -1}

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


def _same_points(p: Points, q: Points) -> bool:
    return len(p) == len(q) and all(
        m == n and abs(d - e) <= 1e-12 * max(1.0, abs(d), abs(e)) for (m, d), (n, e) in zip(p, q))


def _grouped_curve(check: Check) -> list[tuple[list[str], Points]]:
    """The check's curve with the ``rc`` whose D coincide drawn once: ``(["1/100", "1/20"], points)``."""
    groups: list[tuple[list[str], Points]] = []
    for rc, points in check.curve:
        for names, seen in groups:
            if _same_points(seen, points):
                names.append(rc)
                break
        else:
            groups.append(([rc], points))
    return groups


def reading(constraint: str, d: float) -> Swatch:
    """Whether ``D`` at one point meets what ``constraint`` asks of it: :data:`~axiometer.reports.palette.HOLDS`
    or :data:`~axiometer.reports.palette.FAILS` (DeepTh asks ``D > 0``, CloseTh ``D < 0``; a tie meets
    neither); :data:`~axiometer.reports.palette.NOT_APPLICABLE` for a constraint that asks nothing of ``D``."""
    asks = _ASKS.get(constraint)
    if asks is None:
        return NOT_APPLICABLE
    return HOLDS if _sign(d) == asks else FAILS


def same_curve(checks: Sequence[Check]) -> list[list[Check]]:
    """``checks`` grouped by their curve, in order: a DeepTh and a CloseTh check of one setting record
    the same ``D`` and share a panel."""
    groups: list[list[Check]] = []
    for check in checks:
        for group in groups:
            first = group[0].curve
            if len(first) == len(check.curve) and all(
                    rc == other and _same_points(p, q) for (rc, p), (other, q) in zip(first, check.curve)):
                group.append(check)
                break
        else:
            groups.append([check])
    return groups


def _panel_symbol(checks: Sequence[Check]) -> str:
    """``m`` when every check is CloseTh's, else ``n`` (CloseTh's ``m`` is the same axis)."""
    return "m" if all(_symbol(c) == "m" for c in checks) else "n"


def _strip_rows(checks: Sequence[Check], curve: Sequence[tuple[list[str], Points]]) -> list[tuple[str, Check, Points]]:
    """The strip's rows: per check, one row per sign pattern of its rc lines (rc whose D have the same
    sign at every point share a row), each labelled with the constraint (when several share the panel)
    and its rc."""
    rows = []
    for check in checks:
        patterns: list[tuple[list[str], Points]] = []
        for names, points in curve:
            signs = [_sign(d) for _, d in points]
            for seen, first in patterns:
                if [_sign(d) for _, d in first] == signs:
                    seen.extend(names)
                    break
            else:
                patterns.append((list(names), points))
        for names, points in patterns:
            rc = "every rc" if len(patterns) == 1 else "rc = " + ",\n".join(names)
            rows.append((f"{check.constraint}, {rc}" if len(checks) > 1 else rc, check, points))
    return rows


def _curve_handles(checks: Sequence[Check], symbol: str) -> list[Artist]:
    """The shared legend of the curve panels: one entry per rc line, as the panel with most rc groups them
    (the panels show one metric, so where their rc agree, their lines do); what the strip's colours mean;
    the witness and the counterexample."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Artist] = []
    fullest = max(checks, key=lambda c: len(c.curve))
    for index, (names, _) in enumerate(_grouped_curve(fullest)):
        dashes, marker = _LINE_STYLES[index % len(_LINE_STYLES)]
        handles.append(Line2D([], [], color=SERIES[0], linestyle=dashes, linewidth=1.2, marker=marker,
                              markersize=2.6, label=_rc_label(names)))
    handles.append(Line2D([], [], marker="D", markersize=5, color="black", markerfacecolor="white",
                          linestyle="none", label="D changes sign"))
    asks = "; ".join(f"D > 0 for {c}" if _ASKS[c] > 0 else f"D < 0 for {c}"
                     for c in dict.fromkeys(c.constraint for c in checks) if c in _ASKS)
    handles.append(Patch(facecolor=HOLDS.fill, label=f"strip: holds at {symbol} ({asks})"))
    handles.append(Patch(facecolor=FAILS.fill, label=f"strip: fails at {symbol}"))
    if any(c.witness is not None for c in checks):
        handles.append(Line2D([], [], color=HOLDS.fill, linestyle="--", linewidth=1.4, label="witness"))
    if any(c.counterexample is not None for c in checks):
        handles.append(Line2D([], [], marker="X", markersize=8, color=FAILS.fill, markeredgecolor="black",
                              linestyle="none", label="counterexample"))
    return handles


def _rc_label(names: Sequence[str]) -> str:
    return "rc = " + ", ".join(names) + (" (identical)" if len(names) > 1 else "")


def _draw_panel(figure: Figure, spec: SubplotSpec, checks: Sequence[Check]) -> None:
    """One curve's panel (D against n, each check's witness or counterexample) and the strip of where
    each check's constraint holds, in the subplot area ``spec``."""
    for check in checks:
        if not check.curve:
            raise ValueError(f"{check.metric} × {check.constraint}: the check has no D(n) curve (only DeepTh "
                             "and CloseTh checks record one, and not on an error or n/a verdict)")
    symbol = _panel_symbol(checks)
    curve = _grouped_curve(checks[0])
    rows = _strip_rows(checks, curve)
    inner = spec.subgridspec(2, 1, height_ratios=(4.0, 0.35 + 0.35 * len(rows)), hspace=0.0)
    axes: Axes = figure.add_subplot(inner[0])
    strip: Axes = figure.add_subplot(inner[1], sharex=axes)
    _draw_lines(axes, curve)
    for slot, check in enumerate(checks):
        _mark_found(axes, check, slot, named=len(checks) > 1)
    _finish_panel(axes, checks, symbol)
    _draw_reading_strip(strip, checks, rows, symbol)


def _draw_lines(axes: Axes, curve: Sequence[tuple[list[str], Points]]) -> None:
    """The zero line, one black line per group of rc (its own dashes and marker), and a diamond where a
    line crosses zero."""
    axes.axhline(0.0, color="black", linewidth=0.8, zorder=1)
    for index, (names, points) in enumerate(curve):
        dashes, marker = _LINE_STYLES[index % len(_LINE_STYLES)]
        axes.plot([n for n, _ in points], [d for _, d in points], color=SERIES[0], linestyle=dashes,
                  linewidth=1.2, marker=marker, markersize=2.6, label=_rc_label(names), zorder=3)
        for x in _crossings(points):
            axes.plot([x], [0.0], marker="D", markersize=5, color="black", markerfacecolor="white",
                      linestyle="none", zorder=4)


def _mark_found(axes: Axes, check: Check, slot: int, named: bool) -> None:
    """The witness's n (a dashed line in the colour of a holding constraint, labelled) or the
    counterexample's (a cross in the colour of a failing one, on its rc's line); ``slot`` stacks the
    labels of checks sharing the panel, ``named`` names their constraint."""
    marked, failing_rc = _marked_n(check)
    if marked is None:
        return
    symbol, who = _symbol(check), f"{check.constraint} " if named else ""
    if check.witness is not None:
        rule = "D > 0 from here on" if check.constraint == "DeepTh" else f"first {symbol} with D < 0"
        truncated = " (by truncation)" if check.witness.by_truncation else ""
        axes.axvline(marked, color=HOLDS.fill, linewidth=1.4, linestyle="--", zorder=2)
        _label(axes, marked, slot, f"{who}witness {symbol} = {marked}{truncated}\n{rule}, for every rc")
    elif check.counterexample is not None:
        values = dict(dict(check.curve).get(failing_rc or "", ()))
        if marked in values:
            axes.plot([marked], [values[marked]], marker="X", markersize=10, color=FAILS.fill,
                      markeredgecolor="black", linestyle="none", zorder=5)
        where = f"rc = {failing_rc}, {symbol} = {marked}" if failing_rc else f"{symbol} = {marked}"
        _label(axes, marked, slot, f"{who}counterexample at {where} (the first rc that fails)\n"
                                   f"{wrapped(check.counterexample.note, 60)}")


def _label(axes: Axes, marked: int, slot: int, text: str) -> None:
    """``text`` at the top of the panel beside ``marked``, the ``slot``-th label one step lower."""
    axes.annotate(text, xy=(marked, 1.0), xycoords=("data", "axes fraction"), xytext=(5, -4 - 24 * slot),
                  textcoords="offset points", ha="left", va="top", fontsize=8,
                  bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none", "alpha": 0.85})


def _finish_panel(axes: Axes, checks: Sequence[Check], symbol: str) -> None:
    """The panel's log scale, labels, grid and title (each check's verdict and its constraint's rule)."""
    axes.set_xscale("log")
    axes.set_ylabel(f"$D({symbol}) = Q(a_{symbol}) - Q(b_{symbol})$", parse_math=True)
    # A linear axis's major formatter is matplotlib's ScalarFormatter.
    cast("ScalarFormatter", axes.yaxis.get_major_formatter()).set_powerlimits((-4, 4))
    axes.grid(True, which="major", color=GRID, linewidth=0.6)
    axes.tick_params(labelbottom=False)
    # Room above the data for the witnesses' labels.
    low, high = axes.get_ylim()
    axes.set_ylim(low, high + (0.3 + 0.2 * (len(checks) - 1)) * (high - low))
    lines = []
    for check in checks:
        verdict = check.verdict + (f" ({check.witness.value})" if check.witness else "")
        lines.append(f"{check.metric} × {check.constraint}: {verdict}")
        lines.append(wrapped(_RULES.get(check.constraint, (symbol, check.constraint))[1], 100))
    axes.set_title("\n".join(lines), loc="left")


def _draw_reading_strip(strip: Axes, checks: Sequence[Check], rows: Sequence[tuple[str, Check, Points]],
                        symbol: str) -> None:
    """The strip under the panel: a row per check and sign pattern, coloured by whether D meets what the
    check's constraint asks at each grid point, marked with D's sign."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

    for row, (_, check, points) in enumerate(rows):
        for left, right, s in _sign_runs(points):
            swatch = reading(check.constraint, s)
            strip.broken_barh([(left, right - left)], (row - 0.4, 0.8), facecolors=swatch.fill,
                              edgecolors="white", linewidth=0.5)
            if math.log(right / left) > 0.18:  # wide enough for its mark
                strip.text(math.sqrt(left * right), row, _SIGN_MARK[s], ha="center", va="center", fontsize=8,
                           color=swatch.ink, fontweight="bold")
    strip.set_yticks(range(len(rows)), [label for label, _, _ in rows])
    strip.set_ylim(len(rows) - 0.5, -0.5)
    strip.tick_params(axis="y", length=0)
    for side in ("top", "right", "left"):
        strip.spines[side].set_visible(False)
    ns = [n for _, points in checks[0].curve for n, _ in points]
    strip.set_xlim(min(ns) / 1.25, max(ns) * 1.25)
    strip.xaxis.set_major_locator(LogLocator(base=2.0, numticks=16))
    # No minor ticks: a log axis's come at 2..9 times a power of ten, between labels at powers of two
    # (and each costs a tick's drawing in both axes).
    strip.xaxis.set_minor_locator(NullLocator())
    strip.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:.0f}" if x >= 1 else ""))
    same = "; CloseTh's m" if symbol == "n" and any(c.constraint == "CloseTh" for c in checks) else ""
    whose = "each constraint" if len(checks) > 1 else "the constraint"
    strip.set_xlabel(f"{symbol} (log scale{same}); the strip: where {whose} holds at {symbol}, marked with "
                     f"the sign of D\n$a_{symbol}$: one relevant document, then 2{symbol}−1 non-relevant;   "
                     f"$b_{symbol}$: {symbol} non-relevant documents, then {symbol} relevant", parse_math=True)


def threshold_curve(check: Check) -> Figure:
    """DeepTh or CloseTh on one metric: ``D(n) = Q(a_n) - Q(b_n)`` against ``n`` (log scale).

    One black line per ``rc`` of ``check.curve`` (its own dashes and
    marker), the zero line, a diamond where ``D`` changes sign, the witness
    ``n`` (a dashed line, labelled) or the counterexample's ``n`` (a cross on
    the failing ``rc``'s line, labelled with the check's note), and under the
    axes a strip per ``rc`` of where the constraint holds (DeepTh: ``D > 0``;
    CloseTh: ``D < 0``), marked with the sign of ``D`` (the sign is what the
    verdict reads; a tiny ``D`` is visible there). ``a_n`` is one relevant
    document then ``2n - 1`` non-relevant ones, ``b_n`` is ``n``
    non-relevant then ``n`` relevant (definitions §3.2). Raises
    ``ValueError`` when the check has no curve.
    """
    return threshold_curves([check])


def threshold_curves(checks: Sequence[Check]) -> Figure:
    """Several threshold checks (e.g. DeepTh and CloseTh of one metric): one panel per distinct curve,
    stacked; checks with the same curve (:func:`same_curve`) share a panel, each with its own rows of the
    strip, its witness or counterexample and its rule in the title."""
    if not checks:
        raise ValueError("no threshold check to draw")
    groups = same_curve(checks)
    with style():
        label = "; ".join(f"D(n) = Q(a_n) − Q(b_n) for {c.metric} × {c.constraint}: {c.verdict}"
                          for c in checks)
        heights = [4.3 + 0.7 * (len(group) - 1) for group in groups]
        figure = new_figure(WIDTH, sum(heights), label)
        grid = figure.add_gridspec(len(groups), 1, hspace=0.08, height_ratios=heights)
        for index, group in enumerate(groups):
            _draw_panel(figure, grid[index], group)
        handles = _curve_handles(checks, _panel_symbol(checks))
        figure.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 3), frameon=False)
    return figure
