"""Explaining a violation: which nearby reading of the constraint makes it hold.

definitions §3, "Explaining a violation": for every violated cell, try the
nearby readings and say which one makes the constraint hold, so that the cell
reads e.g. "violated; holds when no later document is relevant to the changed
aspect". :func:`explain` returns that second half (a phrase starting with
"holds") with which reading it is (an :class:`~axiometer.results.Explanation`),
or ``None`` when no nearby reading holds (the cell reads just "violated").

The readings are tried in a fixed order, nearest first, and the search stops
at the first that holds (each is one more :func:`~axiometer.checking.check.check`
with the same seed and budget, so explanations are deterministic):

1. the other cutoff mode (``window`` <-> ``truncate``), for a metric with a
   cutoff;
2. for a relative metric (checked under generated contexts of other
   systems): other systems that retrieve none of the case's documents;
3. each of the constraint's declared :class:`~axiometer.axioms.constraints.base.Reading`
   (e.g. "no later document is relevant"; one that only tightens rho, AspDiv's and
   MRed's "a smaller rho", is reading 4 in the constraint's words: :func:`declared_reading`);
4. a tighter relevance contribution (``rho = 1/100``, then ``1/1000``), for a
   constraint that assumes it (definitions §3: Pri, Deep, Conf, AspDiv, MRed);
5. for the thresholds: a doubled horizon (DeepTh; patient metrics such as
   RBP with p = 0.99 turn positive only near n = 460), then each ``rc`` on its
   own (DeepTh, CloseTh: the check requires every ``rc`` tried);
6. other parameter values of the metric, from the other settings' checks of
   the same cell (``grid_checks``), phrased by :func:`dependence_condition`.

The threshold readings (5) come before the parameter values (6) on purpose:
they keep the metric as it is and only widen the search or the set of cases generated,
which is the nearer reading; "holds for p <= 0.9" for RBP(p=0.99) at a short
horizon would hide that it holds at p = 0.99 too.

:func:`value_set_text` also phrases the runner's cell summaries ("satisfied
for p >= 0.8; violated for p = 0.5"), so both say parameter dependence alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from fractions import Fraction
from numbers import Real
from typing import Any

from axiometer.axioms.constraints.base import DEFAULT_RHO, Constraint, Reading
from axiometer.axioms.constraints.threshold import DEFAULT_RCS, ThresholdConstraint
from axiometer.checking import Budget, check as run_check
from axiometer.metrics.base import Metric
from axiometer.metrics.decide import DEFAULT_TOLERANCE
from axiometer.core import to_fraction
from axiometer.results import Check, Explanation, NearbyReading, Verdict

__all__ = ["explain", "declared_reading", "dependence_condition", "value_set_text", "TIGHTER_RHOS",
           "OTHER_MODE_TEXT"]

#: Smaller relevance-contribution bounds tried, in order (definitions §3).
TIGHTER_RHOS: tuple[Fraction, ...] = (Fraction(1, 100), Fraction(1, 1000))

#: What the other cutoff mode's reading says, keyed by the mode that holds.
OTHER_MODE_TEXT: dict[str, str] = {
    "truncate": "holds in truncate mode (the cutoff acts as a threshold)",
    "window": "holds when the changed positions stay within the cutoff (window mode)",
}

#: The relative metrics' reading: the context generated with each case touches none of its documents.
DISJOINT_CONTEXT_TEXT = "the other systems retrieve none of the case's documents"

#: The condition name (definitions §3) that makes the smaller-rho reading meaningful.
_CONTRIBUTION = "relevance contribution"


def explain(metric: Metric, constraint: Constraint, check: Check, *, budget: Budget, seed: int,
            grid_checks: Sequence[Check] = (), rho: Fraction = DEFAULT_RHO,
            tolerance: float = DEFAULT_TOLERANCE, rcs: tuple[Fraction, ...] = DEFAULT_RCS,
            other_mode_check: Check | None = None) -> Explanation | None:
    """The first nearby reading under which ``constraint`` holds for ``metric``, or ``None``.

    ``check`` is the violated check to explain (any other verdict gives
    ``None``); ``budget``, ``seed``, ``rho``, ``tolerance`` and ``rcs`` are the
    ones it was run with, reused for every reading. ``grid_checks`` are the
    other parameter settings' checks of the same cell (same constraint and
    mode; the runner has them already). ``other_mode_check``, when the caller
    has already checked the other cutoff mode, saves running it again.

    The result's text completes "violated; ...", e.g. ``"holds in truncate mode
    (the cutoff acts as a threshold)"`` or ``"holds for p >= 0.8"``; its
    ``reading`` says which step found it.
    """
    if check.verdict != Verdict.VIOLATED:
        return None
    mode = check.mode
    settings: dict[str, Any] = dict(budget=budget, seed=seed, tolerance=tolerance, rcs=rcs)

    # 1. The other cutoff mode: only a metric with a cutoff reads differently.
    if metric.cutoff is not None:
        other = "truncate" if mode == "window" else "window"
        if other_mode_check is None or other_mode_check.mode != other:
            other_mode_check = run_check(metric, constraint, mode=other, rho=rho, **settings)
        if other_mode_check.holds:
            return Explanation(OTHER_MODE_TEXT[other], NearbyReading.OTHER_MODE)

    # 2. A relative metric: other systems that retrieve none of the case's documents.
    if metric.needs.context:
        if run_check(metric, constraint, mode=mode, rho=rho, scope_changes={"context_disjoint": True},
                     **settings).holds:
            return Explanation(f"holds when {DISJOINT_CONTEXT_TEXT}", NearbyReading.DISJOINT_CONTEXT)

    # 3. The constraint's own nearby readings (changes to the case generation).
    rhos_tried: set[Fraction] = set()
    for reading in constraint.readings:
        if run_check(metric, constraint, mode=mode, rho=rho, scope_changes=dict(reading.scope),
                     **settings).holds:
            return Explanation(f"holds when {reading.text}", declared_reading(reading))
        if declared_reading(reading) is NearbyReading.TIGHTER_RHO:  # step 4 need not redo it
            rhos_tried.add(to_fraction(reading.scope["rho"]))

    # 4. A tighter relevance contribution, where the constraint assumes r <= rho.
    if _CONTRIBUTION in constraint.conditions:
        for tighter in TIGHTER_RHOS:
            if tighter >= to_fraction(rho) or tighter in rhos_tried:
                continue
            if run_check(metric, constraint, mode=mode, rho=tighter, **settings).holds:
                return Explanation(f"holds when relevance contribution is tighter (rho = {tighter})",
                                   NearbyReading.TIGHTER_RHO)

    # 5. Thresholds: a longer search (DeepTh), then each rc on its own.
    if isinstance(constraint, ThresholdConstraint) and constraint.threshold is not None:
        threshold = _threshold_reading(metric, constraint, check, rho=rho, **settings)
        if threshold is not None:
            return threshold

    # 6. Other parameter values of the same metric.
    settings_checks = _same_cell(check, grid_checks)
    if any(c.holds for c in settings_checks):
        condition = dependence_condition(settings_checks)
        if condition is not None:
            return Explanation(f"holds for {condition}", NearbyReading.PARAMETERS)
    return None


def declared_reading(reading: Reading) -> NearbyReading:
    """Which nearby reading a constraint's declared reading is: one that only tightens rho (AspDiv's and
    MRed's "a smaller rho") is a tighter relevance contribution, step 4's reading in the constraint's
    words; any other is the constraint's own."""
    return NearbyReading.TIGHTER_RHO if set(reading.scope) == {"rho"} else NearbyReading.CONSTRAINT


def _threshold_reading(metric: Metric, constraint: ThresholdConstraint, check: Check, *, budget: Budget,
                       seed: int, tolerance: float, rcs: tuple[Fraction, ...],
                       rho: Fraction) -> Explanation | None:
    """DeepTh at twice the horizon; then DeepTh/CloseTh for each ``rc`` alone."""
    rule = constraint.threshold
    assert rule is not None
    cutoff = metric.cutoff
    if rule.rule == "eventually positive":
        # In window mode the grid stops at 2n <= k, so a longer horizon changes
        # nothing once it already reaches k/2.
        if not (check.mode == "window" and cutoff is not None and 2 * budget.horizon >= cutoff):
            longer = replace(budget, horizon=2 * budget.horizon)
            if run_check(metric, constraint, mode=check.mode, budget=longer, seed=seed, rho=rho,
                         tolerance=tolerance, rcs=rcs).holds:
                return Explanation(f"holds with horizon {longer.horizon}", NearbyReading.LONGER_HORIZON)
    if len(rcs) < 2:
        return None
    failing = _failing_rc(check)
    outcomes: list[tuple[Fraction, bool]] = []
    for rc in rcs:
        if rc == failing:
            outcomes.append((rc, False))  # the check itself already failed there
            continue
        single = run_check(metric, constraint, mode=check.mode, budget=budget, seed=seed, rho=rho,
                           tolerance=tolerance, rcs=(rc,))
        outcomes.append((rc, single.holds))
    holding = [rc for rc, holds in outcomes if holds]
    if not holding:
        return None
    return Explanation(f"holds for {value_set_text('rc', [rc for rc, _ in outcomes], holding)}",
                       NearbyReading.SINGLE_RC)


def _failing_rc(check: Check) -> Fraction | None:
    """The ``rc`` a threshold counterexample names (its ``rc``)."""
    return None if check.counterexample is None else check.counterexample.rc


def _same_cell(check: Check, grid_checks: Iterable[Check]) -> list[Check]:
    """``check`` and the other settings' checks of its cell (same constraint and mode), one per metric name."""
    seen = {check.metric}
    checks = [check]
    for other in grid_checks:
        if other.constraint == check.constraint and other.mode == check.mode and other.metric not in seen:
            seen.add(other.metric)
            checks.append(other)
    return checks


# -- parameter dependence ------------------------------------------------------------------------

_CUTOFF = re.compile(r"@(\d+)$")


def _setting(check: Check) -> dict[str, Any]:
    """A check's parameter values, plus ``k`` read from its name (``nDCG@20``): the cutoff is a parameter too."""
    values = dict(check.params)
    match = _CUTOFF.search(check.metric)
    if match and "k" not in values:
        values["k"] = int(match.group(1))
    return values


def _text(value: Any) -> str:
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    return str(value) if not isinstance(value, str) else repr(value)


def _numeric(values: Iterable[Any]) -> bool:
    return all(isinstance(v, Real) and not isinstance(v, bool) for v in values)


def value_set_text(name: str, values: Sequence[Any], holding: Iterable[Any]) -> str:
    """How the holding values of one parameter read: ``p >= 0.8``, ``p <= 0.5``, ``p in {0.5, 0.9}``.

    ``values`` are every value tried; a numeric parameter whose holding values
    are an upper (lower) end of the sorted values reads as ``>=`` (``<=``).
    """
    tried = list(dict.fromkeys(values))
    held = set(holding)
    chosen = [v for v in tried if v in held]
    if len(chosen) == 1:  # one value of the grid: say it, not a threshold the grid cannot show
        return f"{name} = {_text(chosen[0])}"
    if _numeric(tried):
        tried.sort()
        flags = [v in held for v in tried]
        first = flags.index(True)
        last = len(flags) - 1 - flags[::-1].index(True)
        contiguous = all(flags[first:last + 1])
        if contiguous and last == len(flags) - 1 and first > 0:
            return f"{name} >= {_text(tried[first])}"
        if contiguous and first == 0 and last < len(flags) - 1:
            return f"{name} <= {_text(tried[last])}"
        if contiguous and first == 0 and last == len(flags) - 1:
            return f"every {name} tried"
        if contiguous:
            return f"{_text(tried[first])} <= {name} <= {_text(tried[last])}"
    chosen = [v for v in tried if v in held]
    return f"{name} in {{{', '.join(_text(v) for v in chosen)}}}"


def _varying(settings: Sequence[dict[str, Any]]) -> list[str]:
    """Parameters taking more than one value across ``settings``, in first-seen order."""
    names: list[str] = []
    for setting in settings:
        for name in setting:
            if name not in names:
                names.append(name)
    return [n for n in names if len({s.get(n) for s in settings}) > 1]


def dependence_condition(checks: Sequence[Check]) -> str | None:
    """Where ``checks`` hold, as a condition on the parameters: ``p >= 0.8``; ``None`` if nothing varies.

    Each parameter that takes several values across the checks is described
    by the values at which the constraint holds (see :func:`value_set_text`).
    If one parameter decides on its own (settings that share its value share
    the outcome; also on a partial grid such as ``--quick``'s, which varies
    one parameter at a time), only it is named: ``alpha <= 0.25``. Else, when
    the holding settings are exactly those whose every parameter is in its
    holding set (a "box"), the condition is the conjunction over the
    parameters that matter: ``alpha <= 0.25 and e >= 0.05``. Otherwise, for
    two parameters, settings are grouped by one of them (``alpha <= 0.25
    with beta >= 0.8, alpha = 0.5 with beta >= 0.9``), or listed (``(alpha,
    beta) in {(0.1, 0.5), (0.5, 0.9)}``), whichever is shorter.
    All holding gives ``"every setting tried"``; none, ``"no setting tried"``.
    """
    settings = [_setting(c) for c in checks]
    names = _varying(settings)
    if not names:
        return None
    holds = [c.holds for c in checks]
    if all(holds):
        return "every setting tried"
    if not any(holds):
        return "no setting tried"
    held = [s for s, h in zip(settings, holds) if h]
    for n in names:  # one parameter decides on its own: say only that one
        outcome_by_value: dict[Any, set[bool]] = {}
        for s, h in zip(settings, holds):
            outcome_by_value.setdefault(s.get(n), set()).add(h)
        if all(len(outcomes) == 1 for outcomes in outcome_by_value.values()):
            return value_set_text(n, [s.get(n) for s in settings], {s.get(n) for s in held})
    projections = {n: {s.get(n) for s in held} for n in names}
    box = all(h == all(s.get(n) in projections[n] for n in names) for s, h in zip(settings, holds))
    if box:  # the holding settings are a product of per-parameter sets: say each that matters
        parts = []
        for n in names:
            tried = [s.get(n) for s in settings]
            if projections[n] != set(tried):
                parts.append(value_set_text(n, tried, projections[n]))
        return " and ".join(parts)
    rows = ", ".join("(" + ", ".join(_text(s.get(n)) for n in names) + ")" for s in held)
    listed = f"({', '.join(names)}) in {{{rows}}}"
    if len(names) != 2:
        return listed
    grouped = [_grouped(settings, holds, first, second) for first, second in (names, names[::-1])]
    return min([*grouped, listed], key=len)


def _grouped(settings: Sequence[dict[str, Any]], holds: Sequence[bool], first: str, second: str) -> str:
    """Two parameters, by groups of ``first`` sharing the same holding ``second`` values.

    ``alpha <= 0.25 with beta >= 0.8, alpha = 0.5 with beta >= 0.9``: a
    threshold in one parameter that moves with the other reads as such.
    """
    firsts = list(dict.fromkeys(s.get(first) for s in settings))
    if _numeric(firsts):
        firsts.sort()
    groups: dict[frozenset, list[Any]] = {}
    for value in firsts:
        holding = frozenset(s.get(second) for s, h in zip(settings, holds) if h and s.get(first) == value)
        if holding:
            groups.setdefault(holding, []).append(value)
    pieces = []
    for holding, values in groups.items():
        tried = [s.get(second) for s in settings if s.get(first) in values]
        piece = value_set_text(first, firsts, values)
        if set(holding) != set(tried):
            piece += f" with {value_set_text(second, tried, holding)}"
        pieces.append(piece)
    return ", ".join(pieces)
