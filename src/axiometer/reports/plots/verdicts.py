"""A cell's verdicts over its parameter grid: one box per setting, coloured by verdict and marked as
the text report marks it, along one varying parameter (a strip) or two (a grid)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from axiometer.reports.plots.style import (VERDICT_STYLE, WIDTH, new_figure, proved_check, style, value_text,
                                           verdict_mark, wrapped)
from axiometer.results import Cell, Check, Verdict

if TYPE_CHECKING:  # matplotlib is imported when a picture is drawn, not with axiometer
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["verdict_strip", "verdict_grid", "verdict_region"]


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
    shown = [v for v in VERDICT_STYLE if v != Verdict.NOT_RUN or v in verdicts]
    handles = [Patch(facecolor=VERDICT_STYLE[v][0], edgecolor="#555555",
                     label=f"{VERDICT_STYLE[v][1]}  {VERDICT_STYLE[v][3]}") for v in shown]
    handles.append(Patch(facecolor="white", edgecolor="black", linewidth=2.2,
                         label="thick outline: the default setting"))
    if any(proved_check(c) for c in checks):
        handles.append(Patch(facecolor="none", edgecolor="none",
                             # two lines: a strip of few settings is narrower than the line
                             label="ᵖ  proved for every real relevance value\n    (the details say over what)"))
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
    fill, _, ink, _ = VERDICT_STYLE[check.verdict]
    axes.add_patch(Rectangle((x - 0.45, y - 0.45), 0.9, 0.9, facecolor=fill,
                             edgecolor="black" if default else "#555555", linewidth=2.2 if default else 0.6))
    axes.text(x, y, verdict_mark(check), ha="center", va="center", color=ink, fontsize=12, fontweight="bold")


def _region_title(cell: Cell, fixed: dict[str, Any]) -> str:
    others = ", ".join(f"{k} = {value_text(v)}" for k, v in fixed.items())
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
    with style():
        figure = new_figure(min(WIDTH, max(6.0, 1.0 + 0.75 * len(values))), 3.0,
                         f"{cell.row} × {cell.constraint}: verdict for each {name}; {cell.summary}")
        axes = figure.add_subplot()
        for x, value in enumerate(values):
            check = next(c for c in cell.checks if repr(dict(c.params).get(name)) == repr(value))
            _box(axes, x, 0, check, check.metric == cell.metric)
        axes.set_xlim(-0.6, len(values) - 0.4)
        axes.set_ylim(-0.6, 0.6)
        axes.set_aspect("equal")
        axes.set_xticks(range(len(values)), [value_text(v) for v in values],
                        rotation=45 if len(values) > 10 else 0)
        axes.set_yticks([])
        axes.set_xlabel(name)
        axes.tick_params(axis="x", length=0)
        for spine in axes.spines.values():
            spine.set_visible(False)
        axes.set_title(wrapped(_region_title(cell, fixed), int(11 * figure.get_figwidth())), loc="left")
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
    with style():
        width = min(WIDTH, max(6.0, 1.6 + 0.6 * len(xs)))
        figure = new_figure(width, min(9.0, 2.6 + 0.55 * len(ys)),
                         f"{cell.row} × {cell.constraint}: verdict for each {across} and {up}; {cell.summary}")
        axes = figure.add_subplot()
        for i, x in enumerate(xs):
            for j, y in enumerate(ys):
                check = by_setting.get((repr(x), repr(y)))
                _box(axes, i, j, check, check is not None and check.metric == cell.metric)
        axes.set_xlim(-0.6, len(xs) - 0.4)
        axes.set_ylim(-0.6, len(ys) - 0.4)
        axes.set_aspect("equal")
        axes.set_xticks(range(len(xs)), [value_text(v) for v in xs], rotation=45 if len(xs) > 10 else 0)
        axes.set_yticks(range(len(ys)), [value_text(v) for v in ys])
        axes.set_xlabel(across)
        axes.set_ylabel(up)
        axes.tick_params(length=0)
        for spine in axes.spines.values():
            spine.set_visible(False)
        axes.set_title(wrapped(_region_title(cell, fixed), int(11 * width)), loc="left")
        _legend(figure, cell.checks, missing=len(by_setting) < len(xs) * len(ys))
    return figure


def verdict_region(cell: Cell) -> Figure:
    """:func:`verdict_strip` or :func:`verdict_grid`, by the number of varying parameters (1 or 2)."""
    varying, _ = _varying(cell)
    return verdict_grid(cell) if len(varying) == 2 else verdict_strip(cell)
