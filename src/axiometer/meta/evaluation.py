"""One campaign's meta-evaluation: every analysis of this package for a list of metrics.

:func:`meta_evaluate` optionally transforms the campaign
(:mod:`~axiometer.meta.simulate`), scores every run on every topic with
every metric (:func:`axiometer.scoring.score_runs`), then gives, per
metric, its Metric Unanimity against the others
(:func:`axiometer.unanimity.metric_unanimity`), its discriminative power
(:mod:`~axiometer.meta.discriminative_power`) and its stability
(:mod:`~axiometer.meta.stability`); and, per pair of metrics, Kendall's tau-b
and tau-AP between their run orderings (:mod:`~axiometer.meta.rank_correlation`),
with a tau-versus-parameter curve when one is asked for. One ``seed`` seeds
the scenarios, the randomization test and the topic samples (each its own
generator). Nothing here prints; :mod:`axiometer.reports.meta` formats the
:class:`MetaResult`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from axiometer.core import ProgressCallback, ValidationError
from axiometer.meta.discriminative_power import (DEFAULT_PERMUTATIONS, DiscriminativePower,
                                                 discriminative_power)
from axiometer.meta.rank_correlation import RankCorrelation, TauCurve, rank_correlations, tau_curve
from axiometer.meta.simulate import Simulation, simulate
from axiometer.meta.stability import DEFAULT_TRIALS, Stability, stability
from axiometer.readers import Qrels, Run
from axiometer.limits import Limits
from axiometer.metrics.base import Metric
from axiometer.scoring import ScoreResult, score_runs
from axiometer.unanimity import Unanimity, metric_unanimity
from axiometer.views import Rows, Tabular

__all__ = ["MetricMeta", "MetaResult", "Sweep", "meta_evaluate"]


@dataclass(frozen=True)
class Sweep:
    """A tau curve to draw: ``metric`` with ``param`` at each of ``values``, against ``against``."""

    metric: Metric
    param: str
    values: tuple[Any, ...]
    against: Any


@dataclass(frozen=True)
class MetricMeta:
    """One metric's analyses. ``unanimity`` is ``None`` when it is the only metric (MU compares a
    metric with others)."""

    metric: str
    unanimity: Unanimity | None
    power: DiscriminativePower
    stability: Stability


@dataclass(frozen=True)
class MetaResult(Tabular):
    """What :func:`meta_evaluate` found.

    ``metrics``, ``runs`` and ``topics`` give the order; ``means[metric]``
    the runs' means (in ``runs`` order); ``per_metric`` one
    :class:`MetricMeta` per metric; ``correlations`` every ordered pair of
    distinct metrics (the first of each pair is tau-AP's reference);
    ``curve`` the tau curve if one was asked for; ``simulation`` the
    scenarios applied (``None``: the campaign as read). The settings:
    ``test``, ``correction``, ``permutations``, ``trials``, ``seed``.
    ``seconds`` times each phase (not part of any report).
    """

    metrics: tuple[str, ...]
    runs: tuple[str, ...]
    topics: tuple[str, ...]
    means: Mapping[str, tuple[float, ...]]
    per_metric: tuple[MetricMeta, ...]
    correlations: tuple[RankCorrelation, ...]
    curve: TauCurve | None
    simulation: Simulation | None
    test: str
    correction: str
    permutations: int
    trials: int
    seed: int
    scores: ScoreResult | None = field(default=None, compare=False, repr=False)
    seconds: Mapping[str, float] = field(default_factory=dict, compare=False)

    def correlation(self, reference: str, other: str) -> RankCorrelation:
        """The correlation of ``other``'s ordering against ``reference``'s."""
        for c in self.correlations:
            if c.reference == reference and c.other == other:
                return c
        raise KeyError((reference, other))

    def to_rows(self) -> Rows:
        """One row per metric x measure: ``MU``, ``power`` (the share of run pairs significant at
        each ``level``), ``stability``, and ``tau_b`` and ``tau_ap`` of its run ordering ``against``
        each other metric's (``value`` ``None`` where a measure is undefined)."""
        rows: Rows = []

        def row(metric: str, measure: str, value: float | None, against: str | None = None,
                level: float | None = None) -> None:
            rows.append({"metric": metric, "measure": measure, "against": against, "level": level, "value": value})

        for meta in self.per_metric:
            row(meta.metric, "MU", meta.unanimity.mu if meta.unanimity else None)
            for level, count in zip(meta.power.levels, meta.power.significant):
                row(meta.metric, "power", count / meta.power.pairs if meta.power.pairs else None, level=level)
            row(meta.metric, "stability", meta.stability.value)
        for c in self.correlations:
            row(c.other, "tau_b", c.tau_b, against=c.reference)
            row(c.other, "tau_ap", c.tau_ap, against=c.reference)
        return rows


def _names(metrics: Sequence[Any]) -> list[Any]:
    from axiometer.metrics.resolve import resolve

    objects = [resolve(m).ranking_metric() for m in metrics]
    names = [m.name for m in objects]
    for i, name in enumerate(names):
        if names.index(name) != i:
            raise ValidationError(f"metric {name} is given twice")
    return objects


def _check_counts(metrics: Sequence[Any], runs: Sequence[Run], trials: int, permutations: int) -> None:
    """A :class:`ValidationError` unless there are metrics, two runs, a trial and a permutation."""
    if not metrics:
        raise ValidationError("give at least one metric")
    if len(runs) < 2:
        raise ValidationError(f"a meta-evaluation compares runs: give at least two (got {len(runs)})")
    if trials < 1:
        raise ValidationError(f"the number of trials must be at least 1, got {trials}")
    if permutations < 1:
        raise ValidationError(f"the number of permutations must be at least 1, got {permutations}")


def _powers(scores: ScoreResult, names: Sequence[str], test: Any, permutations: int, correction: str,
            seed: int, progress: ProgressCallback | None,
            seconds: dict[str, float]) -> list[DiscriminativePower]:
    """Each metric's discriminative power, in ``names`` order (timed in ``seconds``)."""
    powers = []
    clock = time.perf_counter()
    for done, name in enumerate(names):
        if progress is not None:
            progress("significance tests", done, len(names))
        powers.append(discriminative_power(scores.matrix(name), name, test=test, permutations=permutations,
                                           seed=seed, correction=correction))
    if progress is not None:
        progress("significance tests", len(names), len(names))
    seconds["discriminative power"] = time.perf_counter() - clock
    return powers


def _stabilities(scores: ScoreResult, names: Sequence[str], trials: int, seed: int,
                 progress: ProgressCallback | None, seconds: dict[str, float]) -> list[Stability]:
    """Each metric's stability, in ``names`` order (timed in ``seconds``)."""
    stabilities = []
    clock = time.perf_counter()
    for done, name in enumerate(names):
        stabilities.append(stability(scores.matrix(name), name, trials=trials, seed=seed))
        if progress is not None:
            progress("stability", done + 1, len(names))
    seconds["stability"] = time.perf_counter() - clock
    return stabilities


def meta_evaluate(qrels: Qrels, runs: Sequence[Run], metrics: Sequence[Any], *, test: Any = "randomization",
                  permutations: int = DEFAULT_PERMUTATIONS, correction: str = "none",
                  trials: int = DEFAULT_TRIALS, seed: int = 0, scenarios: Sequence[str] = (),
                  sweep: Sweep | None = None, prior: Any = None, groups: Mapping[str, str] | None = None,
                  best_by: Any = None, grades: str | None = None, gmax: int | None = None,
                  limits: Limits = Limits(), progress: ProgressCallback | None = None) -> MetaResult:
    """The meta-evaluation of ``metrics`` (metric references, as ``score_runs`` takes them) on the
    campaign ``qrels`` × ``runs``, after the simulated ``scenarios`` (in order) if any.

    ``prior``, ``groups`` and ``best_by`` choose relative metrics' contexts,
    ``grades``/``gmax`` how metrics read the grades, and ``limits`` how a metric that is not
    built in is contained, as for :func:`~axiometer.scoring.score_runs`. With the ``graded`` scenario every
    metric reads the simulated relevance (``grades`` must then be ``None`` or
    the qrels' own mapping).

    ``progress`` (:class:`~axiometer.core.ProgressCallback`) gets the phases in order:
    ``"scoring"`` (as :func:`~axiometer.scoring.score_runs` reports it), then
    ``"significance tests"`` and ``"stability"`` (a metric each, the former also reported at
    its start), then ``"tau curve"`` with a ``sweep``.
    """
    _check_counts(metrics, runs, trials, permutations)
    objects = _names(metrics)
    names = tuple(m.name for m in objects)

    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    simulation = None
    if scenarios:
        if "graded" in scenarios and grades not in (None, qrels.mapping):
            raise ValidationError(f"the graded scenario draws from the relevance the qrels were read with "
                                  f"({qrels.mapping}); read them with --grades {grades} instead")
        qrels, runs, simulation = simulate(qrels, runs, scenarios, seed)
        grades = simulation.grades or grades
        seconds["simulate"] = time.perf_counter() - clock
    clock = time.perf_counter()
    scores = score_runs(qrels, runs, objects, per_topic=True, progress=progress, prior=prior,
                        groups=groups, best_by=best_by, grades=grades, gmax=gmax, limits=limits)
    seconds["score"] = time.perf_counter() - clock
    if len(scores.topics) < 2:
        raise ValidationError(f"stability samples half the topics: the qrels hold {len(scores.topics)} "
                              "topic; give at least 2")
    means_of = {(m.run, m.metric): m.value for m in scores.means}
    means = {name: tuple(means_of[run, name] for run in scores.runs) for name in names}

    clock = time.perf_counter()
    mu = {u.metric: u for u in metric_unanimity(scores, list(names))} if len(names) > 1 else {}
    seconds["unanimity"] = time.perf_counter() - clock
    powers = _powers(scores, names, test, permutations, correction, seed, progress, seconds)
    stabilities = _stabilities(scores, names, trials, seed, progress, seconds)
    clock = time.perf_counter()
    correlations = rank_correlations(means)
    seconds["tau"] = time.perf_counter() - clock
    curve = None
    if sweep is not None:
        clock = time.perf_counter()
        curve = tau_curve(qrels, runs, sweep.metric, sweep.param, sweep.values, sweep.against, prior=prior,
                          grades=grades, gmax=gmax, limits=limits, progress=progress)
        seconds["tau curve"] = time.perf_counter() - clock
    per_metric = tuple(MetricMeta(name, mu.get(name), power, stab)
                       for name, power, stab in zip(names, powers, stabilities))
    return MetaResult(names, scores.runs, scores.topics, means, per_metric, correlations, curve, simulation,
                      powers[0].test, correction, permutations, trials, seed, scores, seconds)
