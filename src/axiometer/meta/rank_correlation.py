"""How alike two metrics order the systems: Kendall's tau-b and tau-AP, and tau along a parameter.

Each metric orders the runs by their mean over the topics (higher is
better). Two coefficients compare two such orderings:

- **Kendall's tau-b** (Kendall 1945), symmetric:
  ``(C - D) / sqrt((n0 - n1)(n0 - n2))`` with ``n0 = n(n-1)/2`` pairs,
  ``C``/``D`` the concordant/discordant pairs and ``n1``/``n2`` the pairs each
  ordering ties (:func:`axiometer.scoring.kendall_tau_b`, reused).
- **tau-AP** (Yilmaz, Aslam & Robertson, SIGIR 2008), top-weighted and
  asymmetric: the *reference* ordering is taken as the truth and the other
  ordering is walked from its top,

      tau_AP = 2/(N-1) * sum_{i=2..N} C(i)/(i-1) - 1,

  ``C(i)`` the number of runs above position ``i`` of the other ordering
  that the reference also ranks above the run at ``i``. A swap near the top
  costs more than one near the bottom. Türkmen et al. (2023, Fig. 2) and
  Yilmaz et al. use the official metric as the reference; here the first
  metric of a pair is.

Ties. Yilmaz et al. define tau-AP for orderings without ties. We follow
Urbano & Marrero (ICTIR 2017, their tau_AP,b for agreement) for ties in the
walked ordering: its tie groups are walked best first, a run after ``p``
runs of earlier groups scores ``C/p`` (``C`` counts those ``p`` runs that
the reference ranks above it), runs of the top group score nothing, and
``tau_AP = 2/n' * sum C/p - 1`` over the ``n'`` runs outside the top group.
A pair the walked ordering ties is thus neither right nor wrong, and two
identical orderings score 1 with or without ties (as tau-b does). A pair the
reference ties but the walked ordering does not counts 1/2 in ``C`` (the
expectation when the reference's tie is broken at random; Urbano & Marrero
count it wrong). Without ties this is Yilmaz et al.'s coefficient.
Means tie when they are equal as computed. Both coefficients are undefined
(``None``) with fewer than two runs or when either metric ties every run.

:func:`tau_curve` sweeps one parameter of a metric and gives, at each value,
both coefficients against a fixed metric (Türkmen et al.'s Fig. 2:
``RareP(alpha=...)@100`` against ``P@100`` for alpha from 0 to 1).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from axiometer.core import ProgressCallback, ValidationError, in_phase
from axiometer.metrics.base import Metric
from axiometer.limits import Limits
from axiometer.scoring import kendall_tau_b, score_runs

if TYPE_CHECKING:
    from axiometer.readers import Qrels, Run

__all__ = ["RankCorrelation", "TauPoint", "TauCurve", "tau_ap", "rank_correlation",
           "rank_correlations", "tau_curve"]


@dataclass(frozen=True)
class RankCorrelation:
    """Kendall's tau-b and tau-AP between the run orderings of ``reference`` and ``other``.

    tau-AP takes ``reference`` as the truth (tau-b is symmetric). ``None``
    where undefined. ``concordant``/``discordant`` count run pairs;
    ``ties_reference``/``ties_other`` the pairs each metric ties.
    """

    reference: str
    other: str
    tau_b: float | None
    tau_ap: float | None
    concordant: int
    discordant: int
    ties_reference: int
    ties_other: int


@dataclass(frozen=True)
class TauPoint:
    """One point of a tau curve: the swept metric at ``value`` (``metric`` its name) against the
    curve's fixed metric."""

    value: float
    metric: str
    tau_b: float | None
    tau_ap: float | None


@dataclass(frozen=True)
class TauCurve:
    """Kendall's tau-b and tau-AP between ``against`` (the reference) and ``metric`` with ``param``
    swept over the points' values, on ``runs`` runs and ``topics`` topics."""

    metric: str
    param: str
    against: str
    runs: int
    topics: int
    points: tuple[TauPoint, ...]


def tau_ap(reference: Sequence[float], other: Sequence[float]) -> float | None:
    """Yilmaz et al.'s tau-AP of ``other``'s ordering against ``reference``'s (higher scores first), ties
    as the module docstring says; ``None`` with fewer than two runs or when either ties every run."""
    x = np.asarray(reference, dtype=np.float64)
    y = np.asarray(other, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise ValidationError(f"tau-AP compares two score lists of one length, got {x.shape} and {y.shape}")
    n = len(x)
    if n < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return None
    # The other ordering's tie groups, best first; `above[b]`: the runs in groups before b's.
    _, group = np.unique(-y, return_inverse=True)
    sizes = np.bincount(group)
    above = (np.cumsum(sizes) - sizes)[group]
    earlier = group[:, None] < group[None, :]      # [a, b]: a sits in an earlier group than b
    credit = (np.sign(x[:, None] - x[None, :]) + 1) / 2  # [a, b]: 1 if the reference ranks a above b, 1/2 tie
    correct = (credit * earlier).sum(axis=0)
    walked = above > 0
    return float(2 * np.sum(correct[walked] / above[walked]) / np.count_nonzero(walked) - 1)


def rank_correlation(reference: Sequence[float], other: Sequence[float], *, names: tuple[str, str] = ("", "")
                     ) -> RankCorrelation:
    """tau-b and tau-AP of two metrics' per-run means (``reference`` first)."""
    if len(reference) != len(other):
        raise ValidationError(f"rank correlation: {len(reference)} means against {len(other)}")
    tau = kendall_tau_b(list(map(float, reference)), list(map(float, other)))
    return RankCorrelation(names[0], names[1], tau.tau, tau_ap(reference, other) if tau.tau is not None
                           else None, tau.concordant, tau.discordant, tau.ties_relative, tau.ties_metric)


def rank_correlations(means: Mapping[str, Sequence[float]]) -> tuple[RankCorrelation, ...]:
    """Every ordered pair of distinct metrics of ``means`` (``metric -> mean of each run``, runs in one
    order), the first of each pair as tau-AP's reference, in the mapping's order."""
    return tuple(rank_correlation(means[a], means[b], names=(a, b))
                 for a in means for b in means if a != b)


def _metric_at(spec: Any, param: str, value: Any) -> Metric:
    from axiometer.metrics.adapter import UserMetric
    from axiometer.metrics.resolve import resolve

    metric = resolve(spec).ranking_metric()
    declared = [p.name for p in metric.param_info]
    if (isinstance(metric, UserMetric) and not metric.replaceable) or param not in declared:
        known = ", ".join(declared) or "none"
        raise ValidationError(f"{metric.name} has no parameter {param!r} to sweep "
                              f"(parameters: {known})")
    return metric.replace(**{param: value})


def tau_curve(qrels: Qrels, runs: Sequence[Run], metric: Metric, param: str, values: Sequence[Any],
              against: Any, *, prior: Any = None, grades: str | None = None, gmax: int | None = None,
              limits: Limits = Limits(), progress: ProgressCallback | None = None) -> TauCurve:
    """tau-b and tau-AP between ``against`` (the reference) and ``metric`` at each of ``values`` of
    its parameter ``param``, on the runs' means over the qrels topics.

    ``metric`` and ``against`` are metric references (spec strings such as
    ``"RareP@100"``, or objects); every setting is scored in one
    :func:`~axiometer.scoring.score_runs` call (relative metrics get the
    ``prior`` contexts, all other runs by default; ``grades``, ``gmax`` and ``limits``
    as ``score_runs`` takes them). ``progress`` (:class:`~axiometer.core.ProgressCallback`) gets
    one phase, ``"tau curve"``: that scoring's topics, as ``score_runs`` reports them.
    """
    if any(isinstance(v, bool) or not isinstance(v, (int, float, Fraction)) for v in values):
        raise ValidationError(f"a tau curve sweeps a numeric parameter; {param} got {list(values)!r}")
    if not values:
        raise ValidationError(f"no values of {param} to sweep")
    swept = [_metric_at(metric, param, value) for value in values]
    from axiometer.metrics.resolve import resolve

    fixed = resolve(against).ranking_metric()
    names = [m.name for m in swept]
    if len(set(names)) != len(names):
        raise ValidationError(f"the values of {param} give the same metric twice ({names[0]}...)")
    objects = [fixed] + [m for m in swept if m.name != fixed.name]
    result = score_runs(qrels, runs, objects, per_topic=False, progress=in_phase(progress, "tau curve"),
                        prior=prior, grades=grades, gmax=gmax, limits=limits)
    base = [result.mean(run, fixed.name) for run in result.runs]
    points = []
    for value, m in zip(values, swept):
        correlation = rank_correlation(base, [result.mean(run, m.name) for run in result.runs])
        points.append(TauPoint(float(value), m.name, correlation.tau_b, correlation.tau_ap))
    return TauCurve(_swept_name(names[0], param), param, fixed.name, len(result.runs), len(result.topics),
                    tuple(points))


def _swept_name(name: str, param: str) -> str:
    """``RareP(alpha=0)@100`` -> ``RareP(alpha=…)@100``: the swept metric with its parameter open."""
    return re.sub(rf"(?<![A-Za-z0-9_]){re.escape(param)}=[^,()]*", f"{param}=…", name, count=1)
