"""Where a verdict changes: a cell's located boundaries along one parameter (a strip) and, for two
parameters, the boundary of one at each value of the other (a curve), with the grid's own checks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from axiometer.reports.numbers import boundary_value, number
from axiometer.reports.plots.style import (VERDICT_STYLE, WIDTH, figure_of, new_figure, style, value_text, verdict_label,
                                           verdict_mark, wrapped)
from axiometer.results import HOLDS, Boundary, BoundaryCurve, Cell, Check, RootForm, Side, Strength, Verdict

if TYPE_CHECKING:  # matplotlib is imported when a picture is drawn, not with axiometer
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["boundary_strip", "boundary_curve", "boundary_region", "boundary_caption"]

#: What a side of a boundary rests on, in the picture's region labels (the sentence says it in full).
_CERTAIN = {Verdict.VIOLATED: "a counterexample at every probe", Verdict.WITNESS: "a witness pair at every probe"}


def _side_basis(boundary: Boundary, side: Side) -> str:
    """One line under a region's verdict: what the side rests on (as ``boundary_sentence`` words it)."""
    verdict = boundary.below if side is Side.BELOW else boundary.above
    if side in boundary.certain.sides:
        return _CERTAIN.get(verdict, "a concrete case at every probe")
    evidence = boundary.evidence_below if side is Side.BELOW else boundary.evidence_above
    if verdict in HOLDS and evidence is not None and evidence.strength == Strength.PROVED:
        return "proved for every real relevance value"
    if verdict in HOLDS:
        return "no counterexample found" + (f" ({evidence.strength})" if evidence is not None else "")
    return ""



def _fixed_text(fixed: Sequence[tuple[str, Any]]) -> str:
    return ", ".join(f"{k} = {value_text(v)}" for k, v in fixed)


def _boundary_value(boundary: Boundary) -> str:
    """``p = 0.754878`` as the sentences print it (:func:`axiometer.reports.numbers.number`)."""
    return f"{boundary.param} = {boundary_value(boundary)}"


def boundary_caption(boundary: Boundary) -> str:
    """The boundary's closed form in words, or what stands in for it (the line under a strip's axes):
    ``p = 0.754878 is the root of p**3 + p**2 - 1 (on the decisive case m = 2, rc = 1/100; the
    bisection agrees to 1e-6)``."""
    value = _boundary_value(boundary)
    if boundary.closed_form is not None and boundary.agrees:
        form = boundary.closed_form
        text = (f"{value} is the {form}" if boundary.root_form is RootForm.IMPLICIT
                else f"{value} exactly" if form == boundary_value(boundary) else f"{value} = {form}")
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


def _region_label(verdict: Verdict, room: float) -> str:
    """A region's label for ``room`` (its share of the axes' width): mark and verdict, the mark
    alone, or nothing."""
    return verdict_label(verdict) if room >= 0.12 else VERDICT_STYLE[verdict][1] if room >= 0.025 \
        else ""


def _region_range(boundaries: Sequence[Boundary], index: int) -> str:
    """The values of the ``index``-th region between ``boundaries`` (ascending): ``p <= 0.754878``,
    ``1/5 < a < 3/5``, with each boundary value on the side it belongs to (``at_value``)."""
    param = boundaries[0].param
    parts = []
    if index > 0:
        left = boundaries[index - 1]
        parts.append(f"{boundary_value(left)} {'<=' if left.at_value is Side.ABOVE else '<'} ")
    parts.append(param)
    if index < len(boundaries):
        right = boundaries[index]
        parts.append(f" {'<=' if right.at_value is Side.BELOW else '<'} {boundary_value(right)}")
    if len(parts) == 2 and index > 0:  # the last region: "p > v" reads better than "v < p"
        left = boundaries[index - 1]
        return f"{param} {'>=' if left.at_value is Side.ABOVE else '>'} {boundary_value(left)}"
    return "".join(parts)


def _draw_boundary_strip(axes: Axes, boundaries: Sequence[Boundary],
                         along: Sequence[tuple[float, Check]]) -> list[tuple[Verdict, str, str]]:
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
    sides = [(boundaries[0], Side.BELOW), *((b, Side.ABOVE) for b in boundaries)]
    regions: list[tuple[Verdict, str, str]] = []
    for (left, right), (boundary, side) in zip(zip(edges, edges[1:]), sides):
        verdict = boundary.below if side is Side.BELOW else boundary.above
        fill, _, ink, _ = VERDICT_STYLE[verdict]
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
        fill, _, ink, _ = VERDICT_STYLE[check.verdict]
        axes.add_patch(Rectangle((value - size, -0.62), 2 * size, 0.42, facecolor=fill, edgecolor="#333333",
                                 linewidth=0.6, zorder=3))
        axes.text(value, -0.41, verdict_mark(check), ha="center", va="center", color=ink, fontsize=7.5,
                  fontweight="bold", zorder=4)
    axes.set_xlim(low, high)
    axes.set_ylim(-0.75 if along else -0.1, 1.75)
    axes.set_yticks([0.5, -0.41] if along else [0.5], ["located", "grid checks"] if along else ["located"])
    axes.tick_params(axis="y", length=0)
    for spine in ("top", "right", "left"):
        axes.spines[spine].set_visible(False)
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
    regions: dict[tuple[Verdict, str, str], None] = {}
    with style():
        label = "; ".join(f"{name}: the verdict along {p}, boundary at "
                          + ", ".join(f"{p} = {boundary_value(b)}" for b in found) for p, found in groups.items())
        figure = new_figure(WIDTH, 2.7 * len(groups) + 0.6, label)
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
            axes.set_title("\n".join(wrapped(line, 100) for line in title.split("\n")), loc="left")
            axes.set_xlabel(name_ + "\n" + "\n".join(wrapped(boundary_caption(b), 90) for b in found),
                            loc="left")
        handles = [Patch(facecolor=VERDICT_STYLE[v][0], edgecolor="#555555",
                         label=f"{verdict_label(v)} for {values}" + (f": {basis}" if basis else ""))
                   for v, values, basis in regions]
        # Two columns when two short entries fit the width, else one entry per line.
        wide = len(handles) > 2 or any(len(str(h.get_label())) > 48 for h in handles)
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


def _column_verdict(cell: Cell | None, curve: BoundaryCurve, over: Any) -> Verdict | None:
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

    figure = figure_of(axes)
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
    scale = 72.0 / figure_of(axes).dpi
    px, py = (v * scale for v in axes.transData.transform((x, y)))
    return (px - half, py - half, px + half, py + half)


@dataclass
class _CurvePlot:
    """What the parts of :func:`boundary_curve` share: the curve, its points and the grid's checks on
    its plane, the range drawn, and the verdicts shaded so far (for the legend)."""

    cell: Cell | None
    curve: BoundaryCurve
    name: str
    #: ``(value of over, the boundaries of param located there)``, in increasing value.
    points: list[tuple[float, tuple[Boundary, ...]]]
    #: The grid's checks at a setting on the curve's plane: ``(over, param, check)``.
    grid_checks: list[tuple[float, float, Check]]
    #: The cell's one-parameter boundaries of ``over`` at a fixed ``param``.
    crossing: list[Boundary]
    low: float
    high: float
    left: float
    right: float
    #: Half the width of a lone point's or an unchanged value's column.
    column: float
    shaded: list[Verdict] = field(default_factory=list)


def _curve_plot(source: Cell | BoundaryCurve, index: int) -> _CurvePlot:
    """The curve :func:`boundary_curve` draws, with what surrounds it; ``ValueError`` without one."""
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
            if isinstance(x, (int, float, Fraction)) and not isinstance(x, bool) and \
                    isinstance(y, (int, float, Fraction)) and not isinstance(y, bool) and \
                    all(repr(params.get(k)) == repr(v) for k, v in curve.fixed):
                grid_checks.append((float(x), float(y), check))
    crossing = [b for b in (cell.boundaries if cell is not None else ())
                if b.param == curve.over and curve.param in dict(b.fixed)]
    xs = [x for x, _ in points]
    ys = [b.value for _, found in points for b in found]
    low, high = _span([*ys, *(y for _, y, _ in grid_checks), *(float(dict(b.fixed)[curve.param]) for b in crossing)],
                      ys[0] if ys else 0.5)
    left, right = _span([*xs, *(x for x, _, _ in grid_checks), *(b.value for b in crossing)], xs[0])
    return _CurvePlot(cell, curve, name, points, grid_checks, crossing, low, high, left, right,
                      0.015 * (right - left))


def _shade(axes: Axes, plot: _CurvePlot, xs: Sequence[float], bottom: Sequence[float], top: Sequence[float],
           verdict: Verdict) -> None:
    """Shade between ``bottom`` and ``top`` in the verdict's colour (and remember it for the legend)."""
    if verdict not in plot.shaded:
        plot.shaded.append(verdict)
    axes.fill_between(xs, bottom, top, color=VERDICT_STYLE[verdict][0], alpha=0.45,
                      linewidth=0, zorder=1)


def _shade_unchanged(axes: Axes, plot: _CurvePlot) -> bool:
    """A narrow column at each value of ``over`` with no change in ``param``: shaded by the verdict its
    checks agree on, hatched without one. Whether any was hatched."""
    from matplotlib.patches import Rectangle

    hatched = False
    for x, found in plot.points:
        if found:
            continue
        verdict = _column_verdict(plot.cell, plot.curve, x)
        if verdict is None:
            hatched = True
            axes.add_patch(Rectangle((x - plot.column, plot.low), 2 * plot.column, plot.high - plot.low,
                                     facecolor="none", edgecolor="#999999", hatch="//", linewidth=0, zorder=1))
        else:
            _shade(axes, plot, [x - plot.column, x + plot.column], [plot.low] * 2, [plot.high] * 2, verdict)
    return hatched


def _draw_runs(axes: Axes, plot: _CurvePlot) -> list[tuple[float, float, Verdict]]:
    """Each run of points with as many boundaries: its regions shaded and its boundaries joined.
    Returns where each region's label goes, ``(x, y, verdict)``, for the regions wide enough."""
    points, low, high = plot.points, plot.low, plot.high
    labels: list[tuple[float, float, Verdict]] = []
    for run in _curve_runs(points):
        count = len(points[run[0]][1])
        run_xs = [points[i][0] for i in run]
        lines = [[points[i][1][k].value for i in run] for k in range(count)]
        if len(run) == 1:  # a lone point: a narrow column
            run_xs = [run_xs[0] - plot.column, run_xs[0] + plot.column]
            lines = [line * 2 for line in lines]
        for k in range(count + 1):
            verdict = points[run[0]][1][0].below if k == 0 else points[run[0]][1][k - 1].above
            bottom = [low] * len(run_xs) if k == 0 else lines[k - 1]
            top = [high] * len(run_xs) if k == count else lines[k]
            _shade(axes, plot, run_xs, bottom, top, verdict)
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
    return labels


def _draw_checks(axes: Axes, plot: _CurvePlot) -> None:
    """The crossing boundaries of ``over`` as diamonds, the grid's checks as their verdicts' marks."""
    for b in plot.crossing:
        axes.plot([b.value], [float(dict(b.fixed)[plot.curve.param])], marker="D", markersize=6, color="white",
                  markeredgecolor="black", linestyle="none", zorder=5)
    for x, y, check in plot.grid_checks:
        ink = VERDICT_STYLE[check.verdict][0]
        axes.text(x, y, verdict_mark(check), ha="center", va="center", fontsize=8, fontweight="bold", color=ink,
                  zorder=5, bbox={"boxstyle": "circle,pad=0.15", "facecolor": "white", "edgecolor": ink,
                                  "linewidth": 0.8})


def _curve_legend(figure: Figure, plot: _CurvePlot, hatched: bool) -> None:
    """The legend under the axes: the boundary's line, each verdict shaded, and the marks drawn."""
    from matplotlib.artist import Artist
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    curve = plot.curve
    handles: list[Artist] = [Line2D([], [], color="black", linewidth=1.5, marker="o", markersize=4.5,
                                    label=f"the boundary of {curve.param} located at a value of {curve.over}")]
    handles += [Patch(facecolor=VERDICT_STYLE[v][0], alpha=0.45, label=verdict_label(v))
                for v in plot.shaded]
    if plot.crossing:
        handles.append(Line2D([], [], marker="D", markersize=6, color="white", markeredgecolor="black",
                              linestyle="none", label=f"the boundary of {curve.over} at a fixed {curve.param}"))
    if plot.grid_checks:
        handles.append(Line2D([], [], marker="o", markersize=7, color="white", markeredgecolor="black",
                              linestyle="none", label="a grid setting checked, with its verdict's mark"))
    if hatched:
        handles.append(Patch(facecolor="none", edgecolor="#999999", hatch="//",
                             label=f"no change in {curve.param} at this {curve.over}"))
    figure.legend(handles=handles, loc="outside lower center", ncols=2, frameon=False)


def _label_curve(axes: Axes, plot: _CurvePlot, labels: Sequence[tuple[float, float, Verdict]]) -> None:
    """The labels, on the laid-out axes, each where it covers no mark, point or other label: each
    unchanged column's, each region's verdict, and each boundary's value."""
    curve, cell = plot.curve, plot.cell
    taken = [_display_box(axes, x, y, 6.0) for x, y, _ in plot.grid_checks]
    taken += [_display_box(axes, x, b.value, 3.0) for x, found in plot.points for b in found]
    taken += [_display_box(axes, b.value, float(dict(b.fixed)[curve.param]), 4.0) for b in plot.crossing]
    for x, found in plot.points:
        if not found:
            verdict = _column_verdict(cell, curve, x)
            text = f"no change in {curve.param}" + (f":\n{verdict}" if verdict else "")
            where = (x - plot.left) / (plot.right - plot.left)
            ha = "left" if where < 0.15 else "right" if where > 0.85 else "center"
            axes.annotate(text, (x + {"left": -plot.column, "right": plot.column}.get(ha, 0.0), plot.high),
                          xytext=(0, -4), textcoords="offset points", ha=ha,
                          va="top", fontsize=7.5, zorder=7, annotation_clip=False,
                          bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": "none",
                                "alpha": 0.85})
    for x, y, verdict in labels:
        axes.text(x, y, verdict_label(verdict), ha="center", va="center", fontsize=8.5, fontweight="bold",
                  color="#222222", zorder=6, bbox={"boxstyle": "round,pad=0.2", "facecolor": "white",
                                                    "edgecolor": "none", "alpha": 0.7})
        taken.append(_display_box(axes, x, y, 12.0))
    values = [(x, b.value, boundary_value(b)) for x, found in plot.points for b in found]
    values += [(b.value, float(dict(b.fixed)[curve.param]), _boundary_value(b)) for b in plot.crossing]
    for x, y, text in values:
        dx, dy, ha, va = _free_offset(axes, x, y, text, taken)
        axes.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=7.5, ha=ha, va=va,
                      zorder=7, bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "edgecolor": "none",
                                      "alpha": 0.75})


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
    plot = _curve_plot(source, index)
    cell, curve, name = plot.cell, plot.curve, plot.name
    with style():
        fixed = _fixed_text(curve.fixed)
        title = f"{name}: the boundary of {curve.param} at each {curve.over}" + (f", with {fixed}" if fixed else "")
        if cell is not None and cell.summary:
            title += f"\nthe grid's checks: {cell.summary}"
        figure = new_figure(WIDTH, 5.8, f"{name}: the boundary of {curve.param} over {curve.over}")
        axes = figure.add_subplot()
        axes.set_xlim(plot.left, plot.right)
        axes.set_ylim(plot.low, plot.high)
        hatched = _shade_unchanged(axes, plot)
        labels = _draw_runs(axes, plot)
        _draw_checks(axes, plot)
        axes.set_xlabel(f"{curve.over}\n(between two values of {curve.over}, a straight line joins the located "
                        f"points; white: not located)")
        axes.set_ylabel(f"{curve.param}")
        xs = [x for x, _ in plot.points]
        axes.set_xticks(xs, [value_text(x) for x in xs])
        axes.grid(True, color="#DDDDDD", linewidth=0.5, zorder=0)
        axes.set_title("\n".join(wrapped(line, 100) for line in title.split("\n")), loc="left")
        _curve_legend(figure, plot, hatched)
        figure.draw_without_rendering()  # labels last, on the laid-out axes
        _label_curve(axes, plot, labels)
    return figure


def boundary_region(cell: Cell) -> Figure:
    """:func:`boundary_curve` for a cell with a boundary curve, else :func:`boundary_strip` (every
    parameter's boundaries, one panel each); ``ValueError`` when the cell has neither."""
    return boundary_curve(cell) if cell.curves else boundary_strip(cell)

