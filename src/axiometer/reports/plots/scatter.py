"""Relative metrics: per run, a relative metric's mean against its base metric's, labelled by run
(as in the NRG paper's figures)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from axiometer.reports.palette import SERIES
from axiometer.reports.plots.style import figure_of, new_figure, style, value_text, wrapped

if TYPE_CHECKING:  # matplotlib is imported when a picture is drawn, not with axiometer
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from axiometer.scoring import ScoreResult

__all__ = ["relative_scatter"]


def relative_scatter(score_result: ScoreResult, relative_metric: str, base_metric: str) -> Figure:
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
    tau = next((k.tau for k in score_result.kendall
                if k.relative == relative_metric and k.metric == base_metric), None)
    with style():
        figure = new_figure(6.0, 4.8, f"{relative_metric} against {base_metric}, one point per run")
        axes = figure.add_subplot()
        axes.scatter(xs, ys, s=22, color=SERIES[2], edgecolors="black", linewidths=0.4, zorder=3)
        axes.set_xlabel(f"{base_metric} (mean over topics)")
        axes.set_ylabel(f"{relative_metric} (mean over topics)")
        axes.grid(True, color="#EEEEEE", linewidth=0.6)
        axes.spines[["top", "right"]].set_visible(False)
        tau_text = f"; Kendall's tau-b of the two run orderings = {value_text(tau)}" if tau is not None else ""
        axes.set_title(wrapped(f"{relative_metric} against its base {base_metric}, one point per run",
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

    figure = figure_of(axes)
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

