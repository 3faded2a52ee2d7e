"""Parameter grids, and how a cell's verdict depends on them.

:func:`parameter_grid` lists the settings a table checks a metric at: the
product of each parameter's ``Param.grid`` (the values the paper tested,
definitions §2), plus the setting's own value, plus :data:`TABLE_GRID_EXTRAS`
(values that make the parameter facts of definitions §3 visible). A
parameter written in a spec string (``RBP(p=0.5)``) is fixed, as is the
cutoff. :func:`describe_grid` states how the verdicts over those settings
depend on the parameters ("satisfied for p >= 0.8; violated for p = 0.5"),
because definitions §3 ("Parameters") requires the dependence to be visible.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from numbers import Real
from typing import Any

from axiometer.checking.explain import value_set_text
from axiometer.core import InputError
from axiometer.metrics.adapter import UserMetric
from axiometer.metrics.base import Metric, format_value
from axiometer.results import Verdict

__all__ = ["TABLE_GRID_EXTRAS", "parameter_grid", "default_values", "describe_grid", "at_setting"]

#: Values added to the paper's grids so that definitions §3's parameter facts
#: show in the table: CloseTh holds for RBP at p = 0.8 but not at p = 0.5 (also
#: RBP-IA and RBU, which share RBP's persistence), and NRBP's default patience
#: is ndeval's beta = 0.5, outside the paper's grid.
TABLE_GRID_EXTRAS: Mapping[tuple[str, str], tuple[Any, ...]] = {
    ("RBP", "p"): (0.5,),
    ("RBP_IA", "p"): (0.5,),
    ("RBU", "p"): (0.5,),
    ("NRBP", "beta"): (0.5,),
}

#: Verdicts in the order summaries list them: what holds first.
_VERDICT_ORDER = (Verdict.SATISFIED, Verdict.WITNESS, Verdict.VIOLATED, Verdict.ERROR, Verdict.NA,
                  Verdict.NOT_RUN)


# -- parameter grids -----------------------------------------------------------

def _sorted_values(values: Iterable[Any]) -> tuple[Any, ...]:
    """Distinct values, numbers ascending; other values (strings) in the given order."""
    distinct: list[Any] = []
    for value in values:
        if value not in distinct:
            distinct.append(value)
    if all(isinstance(v, Real) and not isinstance(v, bool) for v in distinct):
        distinct.sort()
    return tuple(distinct)


def default_values(metric: Metric, name: str) -> tuple[Any, ...]:
    """The values a table checks parameter ``name`` of ``metric`` at by default: its ``Param.grid``,
    :data:`TABLE_GRID_EXTRAS` and the metric's own value, sorted."""
    current = dict(metric.params)
    for param in metric.param_info:
        if param.name == name:
            extras = TABLE_GRID_EXTRAS.get((metric.family, name), ())
            return _sorted_values((*param.grid, *extras, current[name]))
    return ()


def parameter_grid(metric: Metric, fixed: Iterable[str] = (), *, quick: bool = False,
                   grids: Mapping[str, Sequence[Any]] | None = None) -> tuple[dict[str, Any], ...]:
    """The parameter settings a table checks ``metric`` at; the metric's own setting first.

    Each parameter takes its ``Param.grid`` (the paper's tested values,
    definitions §2) plus :data:`TABLE_GRID_EXTRAS` plus the metric's own
    value; ``grids`` overrides a grid by parameter name (``"p"``) or by
    family and name (``"RBP.p"``). Parameters in ``fixed`` (written in the
    user's spec string) keep their value; a parameter without a grid (RBU's
    ``form``) too. The settings are the product of the grids; with
    ``quick``, only the metric's own setting and, one parameter at a time,
    that parameter's smallest and largest value.
    """
    family = metric.family
    current = dict(metric.params)
    fixed = set(fixed)
    axes: list[tuple[str, tuple[Any, ...]]] = []
    for param in metric.param_info:
        if not param.varies:
            continue  # how the metric reads its input (rel): the metric's own value, in `current` if set
        value = current[param.name]
        if param.name in fixed:
            axes.append((param.name, (value,)))
            continue
        chosen = None
        if grids:
            chosen = grids.get(f"{family}.{param.name}", grids.get(param.name))
        if chosen is None:
            chosen = tuple(param.grid) + TABLE_GRID_EXTRAS.get((family, param.name), ())
        axes.append((param.name, _sorted_values((*chosen, value))))
    settings: list[dict[str, Any]] = [current]
    if quick:
        for name, values in axes:
            for extreme in (values[0], values[-1]):
                settings.append({**current, name: extreme})
    else:
        names = [name for name, _ in axes]
        for combination in itertools.product(*(values for _, values in axes)):
            settings.append({**current, **dict(zip(names, combination))})
    unique: list[dict[str, Any]] = []
    for setting in settings:
        if setting not in unique:
            unique.append(setting)
    return tuple(unique)


def at_setting(metric: Metric, setting: Mapping[str, Any]) -> Metric:
    """``metric`` with its parameters set to ``setting``."""
    if dict(metric.params) == dict(setting):
        return metric
    if isinstance(metric, UserMetric) and not metric.replaceable:
        raise InputError(f"cannot set the parameters of {metric!r}: it has no replace()")
    return metric.replace(**setting)


# -- summaries of parameter dependence ---------------------------------------------

def _verdict_key(verdict: Verdict) -> int:
    return _VERDICT_ORDER.index(verdict) if verdict in _VERDICT_ORDER else len(_VERDICT_ORDER)


def describe_grid(outcomes: Sequence[tuple[Mapping[str, Any], Verdict]]) -> str:
    """How a cell's verdict depends on the parameters, in words.

    ``outcomes`` are ``(setting, verdict)`` pairs. Uniform: the verdict
    (``"satisfied"``). If one parameter decides the verdict:
    ``"satisfied for p >= 0.8; violated for p = 0.5"``. Otherwise the
    majority verdict comes last, as "otherwise", after the other verdicts'
    settings, grouped compactly: ``"violated for alpha >= 0.5 with beta =
    0.5; satisfied otherwise"``.
    """
    verdicts = sorted({v for _, v in outcomes}, key=_verdict_key)
    if len(verdicts) <= 1:
        return str(verdicts[0] if verdicts else Verdict.NOT_RUN)
    names = [n for n in outcomes[0][0] if len({repr(s[n]) for s, _ in outcomes}) > 1]
    values = {n: _sorted_values(s[n] for s, _ in outcomes) for n in names}
    # One parameter decides: every setting with the same value has the same verdict.
    for name in names:
        by_value: dict[Any, set[Verdict]] = {}
        for setting, verdict in outcomes:
            by_value.setdefault(setting[name], set()).add(verdict)
        if all(len(v) == 1 for v in by_value.values()):
            parts = []
            for verdict in verdicts:
                chosen = [x for x in values[name] if by_value[x] == {verdict}]
                parts.append(f"{verdict} for {value_set_text(name, values[name], chosen)}")
            return "; ".join(parts)
    counts = {v: sum(1 for _, w in outcomes if w == v) for v in verdicts}
    majority = max(verdicts, key=lambda v: (counts[v], -_verdict_key(v)))
    parts = []
    for verdict in verdicts:
        if verdict == majority:
            continue
        settings = [s for s, v in outcomes if v == verdict]
        parts.append(f"{verdict} for {_settings_text(settings, names, values)}")
    return "; ".join(parts) + f"; {majority} otherwise"


def _settings_text(settings: Sequence[Mapping[str, Any]], names: Sequence[str],
                   values: Mapping[str, Sequence[Any]]) -> str:
    """Some settings of two or more varying parameters, compactly."""
    if len(names) != 2:
        return ", ".join("(" + ", ".join(f"{n}={format_value(s[n])}" for n in names) + ")"
                         for s in settings)
    candidates = []
    for first, second in (names, names[::-1]):
        groups: dict[tuple[Any, ...], list[Any]] = {}
        for x in values[first]:
            seconds = tuple(s[second] for s in settings if s[first] == x)
            if seconds:
                groups.setdefault(seconds, []).append(x)
        pieces = [f"{value_set_text(first, values[first], xs)} with "
                  f"{value_set_text(second, values[second], list(ys))}"
                  for ys, xs in groups.items()]
        candidates.append(", ".join(pieces))
    return min(candidates, key=len)
