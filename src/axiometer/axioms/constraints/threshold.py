"""The threshold constraints' procedure: the sign of ``D(n)`` along a grid of ``n`` (definitions §3).

DeepTh and CloseTh (:mod:`~axiometer.axioms.constraints.deepness_threshold`,
:mod:`~axiometer.axioms.constraints.closeness_threshold`) are
:class:`ThresholdConstraint` objects: instead of a random search they build
the pair ``(a_n, b_n)`` for every ``n`` of a grid (dense up to 32, then
doubling to the horizon ``H``) and every ``rc`` tried, and read the verdict
from the sign of ``D(n) = Q(a_n) - Q(b_n)``:

- DeepTh (``"eventually positive"``): satisfied iff ``D(n) > 0`` on the whole
  final stretch ``[N, H]`` of the grid; the witness is that ``N``; violated
  otherwise, at the largest grid ``n`` with ``D(n) <= 0``.
- CloseTh (``"sometimes negative"``): satisfied iff some grid ``m`` gives
  ``Q(b_m) > Q(a_m)``; the witness is the smallest such ``m``.

Both must hold for every ``rc``; a violation names the ``rc`` that broke it.
A witness reached only because documents fell past the metric's cutoff is
flagged "by truncation". The check carries the float values of ``D(n)`` for
every ``rc`` (``Check.curve``) for the report's pictures; after a violation
the remaining ``rc`` are evaluated for the curve only (the verdict stays the
first failing ``rc``'s, and a metric failing there only ends the curve). A
tie the comparison decided (exactly, or within the float tolerance) is
recorded as ``0.0``, so the picture's zero crossings are the verdict's.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from axiometer.axioms.constraints.base import Constraint, is_relative, joined_note, params_of
from axiometer.axioms.oracle import Searcher
from axiometer.core import Ranking, Topic
from axiometer.generators.case import Case
from axiometer.generators.context import fixed_context
from axiometer.metrics import Metric, is_exact_capable
from axiometer.metrics.registry import is_builtin
from axiometer.metrics.base import BuiltinMetric
from axiometer.metrics.decide import ScoreComparison, compare
from axiometer.results import (Check, Counterexample, Decided, Evidence, Strength, Verdict, Witness, context_record,
                               record_topic)

__all__ = ["ThresholdRule", "ThresholdConstraint", "threshold_grid", "grid_text", "DEFAULT_RCS"]

#: ``rc`` values tried by DeepTh and CloseTh (definitions §3).
DEFAULT_RCS = (Fraction(1, 100), Fraction(1, 20), Fraction(1, 10))


@dataclass(frozen=True)
class ThresholdRule:
    """DeepTh/CloseTh: ``build(n, rc) -> (topic, a_n, b_n)`` and what must hold of ``D(n) = Q(a_n) - Q(b_n)``.

    ``rule`` is ``"eventually positive"`` (DeepTh: ``D(n) > 0`` on the whole
    final stretch of the grid) or ``"sometimes negative"`` (CloseTh: some
    ``n`` with ``Q(b_n) > Q(a_n)``). The pair differs up to position ``2n``,
    which the window mode and the "by truncation" flag compare with the cutoff.
    """

    build: Callable[[int, Fraction], tuple[Topic, Ranking, Ranking]]
    rule: str
    symbol: str  # "n" or "m"


def threshold_grid(horizon: int) -> tuple[int, ...]:
    """``1..32`` then doubling up to ``horizon`` (definitions §3)."""
    grid = list(range(1, min(32, horizon) + 1))
    n = 64
    while n <= horizon:
        grid.append(n)
        n *= 2
    return tuple(grid)


def grid_text(grid: tuple[int, ...]) -> str:
    """The grid in words: ``1..32, 64, 128, ..., 1024`` (the dense start as a range, the doublings
    listed, elided past three)."""
    dense = 0
    while dense < len(grid) and grid[dense] == dense + 1:
        dense += 1
    parts = [] if dense == 0 else [str(grid[0]) if dense == 1 else f"{grid[0]}..{grid[dense - 1]}"]
    rest = [str(n) for n in grid[dense:]]
    parts += rest if len(rest) <= 3 else [rest[0], rest[1], "...", rest[-1]]
    return ", ".join(parts)


def signs_text(grid: tuple[int, ...], signs: list[int], symbol: str) -> str:
    """Run-length sign sequence of ``D`` along the grid: ``n=1..3: -, n=4..1024: +``."""
    marks = {1: "+", 0: "0", -1: "-"}
    runs: list[str] = []
    start = 0
    for i in range(1, len(signs) + 1):
        if i == len(signs) or signs[i] != signs[start]:
            first, last = grid[start], grid[i - 1]
            span = f"{first}" if first == last else f"{first}..{last}"
            runs.append(f"{symbol}={span}: {marks[signs[start]]}")
            start = i
    return ", ".join(runs)


#: One grid point: the case's topic, ``a_n``, ``b_n``, the comparison of ``(b_n, a_n)``, the context.
_Pair = tuple[Topic, Ranking, Ranking, ScoreComparison, Any]

@dataclass
class _Walk:
    """One ``rc``'s grid: the sign of ``D(n)`` at each ``n``, ``(n, D(n))`` for the curve, the
    compared pairs by ``n``; ``failed``: the case on which the metric raised, and its error."""

    signs: list[int] = field(default_factory=list)
    values: list[tuple[int, float]] = field(default_factory=list)
    pairs: dict[int, _Pair] = field(default_factory=dict)
    failed: tuple[Case, Exception] | None = None


#: The compared pairs of the last few (metric, rc, ...) grids in this process. DeepTh and CloseTh build
#: and compare the very same ``(a_n, b_n)`` (one ``threshold_pair``, compared as ``(b_n, a_n)``), so
#: whichever of the two runs second reuses the first's comparisons. Only registered built-ins are
#: cached: their scores depend on nothing but their name (parameters included) and the input, while
#: a metric author's function may not. The runner schedules a setting's constraints one after another,
#: so a handful of entries is enough.
_COMPARED: OrderedDict[tuple[Any, ...], dict[int, _Pair]] = OrderedDict()
_COMPARED_ENTRIES = 8


def _cache_key(metric: Metric, build: Callable[..., Any], rc: Fraction, tolerance: float, relative: bool,
               disjoint: bool) -> tuple[Any, ...] | None:
    """The key of a grid's comparisons, or ``None`` when the metric is not a registered built-in."""
    if not isinstance(metric, BuiltinMetric) or not is_builtin(metric):
        return None
    return (type(metric), metric.name, build, rc, tolerance, relative, disjoint)


def _compared(key: tuple[Any, ...] | None) -> dict[int, _Pair]:
    """The cached comparisons of ``key`` (filled in place by the caller), most recent last."""
    if key is None:
        return {}
    pairs = _COMPARED.get(key)
    if pairs is None:
        pairs = _COMPARED[key] = {}
        while len(_COMPARED) > _COMPARED_ENTRIES:
            _COMPARED.popitem(last=False)
    else:
        _COMPARED.move_to_end(key)
    return pairs


@dataclass(frozen=True, repr=False)
class ThresholdConstraint(Constraint):
    """A threshold constraint: ``threshold`` builds the pairs and names the rule."""

    threshold: ThresholdRule | None = None

    def check(self, metric: Metric, search: Searcher, *, mode: str | None, rho: Fraction,
              rcs: tuple[Fraction, ...], scope_changes: dict[str, Any] | None) -> Check:
        """The verdict from the sign sequences of ``D(n)``, one per ``rc``.

        A relative metric is scored under one fixed context of other systems
        (the disjoint one when ``scope_changes`` asks for ``context_disjoint``).
        """
        mode = mode or self.default_mode
        relative = is_relative(metric)
        disjoint = bool((scope_changes or {}).get("context_disjoint"))
        result = self._signs(metric, mode, search, rcs, relative, disjoint)
        return joined_note(result, "under a fixed context of other systems") if relative else result

    def _signs(self, metric: Metric, mode: str, search: Searcher, rcs: tuple[Fraction, ...],
               relative: bool, disjoint: bool) -> Check:
        """Walk the grid for each ``rc``: the first ``rc`` that fails gives the violation (later
        ones only extend the curve), else one witness serves every ``rc``."""
        rule = self.threshold
        assert rule is not None
        tolerance = search.tolerance
        grid = threshold_grid(search.horizon)
        cutoff = metric.cutoff
        if mode == "window" and cutoff is not None:
            grid = tuple(n for n in grid if 2 * n <= cutoff)
        if not grid:
            return Check(constraint=self.id, metric=metric.name, params=params_of(metric),
                         verdict=Verdict.NA, mode=mode, note=f"no n with 2n <= k = {cutoff} in window mode")
        witnesses: list[tuple[int, str, bool]] = []
        curve: list[tuple[str, tuple[tuple[int, float], ...]]] = []
        violation: Check | None = None  # the first failing rc's; later rc only extend the curve
        for rc in rcs:
            walk = self._walk(metric, grid, rc, tolerance, relative, disjoint)
            if walk.failed is not None:
                if violation is not None:  # the verdict is decided: the curve just ends here
                    return dataclasses.replace(violation, curve=tuple(curve))
                outcome = search.error(metric, *walk.failed)
                return Check(constraint=self.id, metric=metric.name, params=params_of(metric),
                             verdict=Verdict.ERROR, mode=mode, error=outcome.error,
                             exact=is_exact_capable(metric))
            text = signs_text(grid, walk.signs, rule.symbol)
            curve.append((str(rc), tuple(walk.values)))
            if violation is not None:
                continue
            found = self._judge(metric, mode, tolerance, rc, grid, walk, text)
            if isinstance(found, Check):
                violation = found
                continue
            by_truncation = cutoff is not None and 2 * found > cutoff
            witnesses.append((found, f"rc = {rc}: {text}", by_truncation))
        if violation is not None:
            return dataclasses.replace(violation, curve=tuple(curve))
        return self._witness(metric, mode, tolerance, grid, rcs, cutoff, witnesses, tuple(curve))

    def _walk(self, metric: Metric, grid: tuple[int, ...], rc: Fraction, tolerance: float,
              relative: bool, disjoint: bool) -> _Walk:
        """The sign and value of ``D(n)`` at each grid ``n`` for one ``rc`` (comparisons cached for
        built-ins), or the case on which the metric raised."""
        rule = self.threshold
        assert rule is not None
        walk = _Walk()
        compared = _compared(_cache_key(metric, rule.build, rc, tolerance, relative, disjoint))
        for n in grid:
            pair = compared.get(n)
            if pair is None:
                topic, a, b = rule.build(n, rc)
                context = fixed_context(topic, disjoint) if relative else None
                try:
                    # sign of Q(a) - Q(b) = D(n)
                    comparison = compare(metric, topic, b, a, tolerance, context)
                except Exception as error:  # a user's metric may raise anything; report, don't crash
                    walk.failed = (Case(topic, a, b, (), "", context), error)
                    return walk
                pair = compared[n] = (topic, a, b, comparison, context)
            comparison = pair[3]
            walk.signs.append(comparison.sign)
            # compare(b, a): qy - qx = Q(a_n) - Q(b_n) = D(n); a decided tie is exactly 0
            walk.values.append((n, comparison.qy - comparison.qx if comparison.sign else 0.0))
            walk.pairs[n] = pair
        return walk

    def _judge(self, metric: Metric, mode: str, tolerance: float, rc: Fraction, grid: tuple[int, ...],
               walk: _Walk, text: str) -> int | Check:
        """One ``rc``'s witness (the threshold on the grid) or its violation."""
        rule = self.threshold
        assert rule is not None
        signs, pairs = walk.signs, walk.pairs
        if rule.rule == "eventually positive":
            # Satisfied iff D > 0 on a final stretch [N, H] of the grid; witness N.
            if signs[-1] <= 0:
                n = grid[-1]
                return self._violation(metric, mode, tolerance, rc, n, pairs[n], text,
                                       f"D({rule.symbol}) = Q(a) - Q(b) <= 0 at the end of the "
                                       f"grid, {rule.symbol} = {n}")
            stretch = len(signs)
            while stretch > 0 and signs[stretch - 1] > 0:
                stretch -= 1
            return grid[stretch]
        # Satisfied iff some grid n gives Q(b_n) > Q(a_n); witness the smallest.
        good = [n for n, s in zip(grid, signs) if s < 0]
        if not good:
            # compare(b, a): qx = Q(b_m), qy = Q(a_m); closest = largest Q(b_m) - Q(a_m).
            n = max(grid, key=lambda m: pairs[m][3].qx - pairs[m][3].qy)
            return self._violation(metric, mode, tolerance, rc, n, pairs[n], text,
                                   f"no grid {rule.symbol} <= {grid[-1]} gives Q(b) > Q(a); "
                                   f"closest at {rule.symbol} = {n}")
        return good[0]

    def _witness(self, metric: Metric, mode: str, tolerance: float, grid: tuple[int, ...],
                 rcs: tuple[Fraction, ...], cutoff: int | None, witnesses: list[tuple[int, str, bool]],
                 curve: tuple[tuple[str, tuple[tuple[int, float], ...]], ...]) -> Check:
        """The witness check: one threshold that serves every ``rc`` (the largest of theirs)."""
        rule = self.threshold
        assert rule is not None
        found = max(w[0] for w in witnesses)  # one witness that serves every rc
        truncated = any(w[2] for w in witnesses)
        signs_all = "; ".join(w[1] for w in witnesses)
        exact = is_exact_capable(metric)
        window = f" (2{rule.symbol} <= k = {cutoff})" if mode == "window" and cutoff is not None else ""
        evidence = Evidence(
            Strength.EXHAUSTIVE, f"{rule.symbol} on the grid {grid_text(grid)}{window} for rc in "
                                 f"{{{', '.join(str(rc) for rc in rcs)}}}", len(grid) * len(rcs), 0, exact)
        return Check(constraint=self.id, metric=metric.name, params=params_of(metric),
                     verdict=Verdict.WITNESS, mode=mode, cases=len(grid) * len(rcs), exact=exact,
                     tolerance=None if exact else tolerance,
                     witness=Witness(f"{rule.symbol} = {found}", "for every rc tried", signs_all, truncated,
                                     threshold=found, rcs=tuple(rcs), signs_by_rc=tuple(w[1] for w in witnesses)),
                     curve=curve, evidence=evidence)

    def _violation(self, metric: Metric, mode: str, tolerance: float, rc: Fraction, n: int, pair: _Pair,
                   signs: str, note: str) -> Check:
        rule = self.threshold
        assert rule is not None
        topic, a, b, comparison, context = pair
        counterexample = Counterexample(
            # The pair was compared as (b, a): qx is Q(b_n), qy is Q(a_n).
            topic=record_topic(topic), a=tuple(a), b=tuple(b), score_a=comparison.qy,
            score_b=comparison.qx,
            relation="Q(a) > Q(b)" if rule.rule == "eventually positive" else "Q(b) > Q(a)",
            note=note, decided=Decided.EXACT if comparison.exact else Decided.FLOAT,
            extra=(("rc", str(rc)), (rule.symbol, str(n)), ("signs", signs)),
            context_a=context_record(context), rc=rc, threshold=n, signs=signs)
        exact = is_exact_capable(metric)
        return Check(constraint=self.id, metric=metric.name, params=params_of(metric), verdict=Verdict.VIOLATED,
                     mode=mode, cases=0, counterexample=counterexample, exact=exact,
                     tolerance=None if exact else tolerance, note=f"fails for rc = {rc}")
