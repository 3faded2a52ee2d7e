"""Metric Unanimity (Amigó et al., SIGIR 2018, section 6.1; definitions §8).

For a metric ``m``, the other metrics ``M`` and system outputs ``S``, over
the ordered pairs ``(si, sj)``, ``i != j``:

- ``m_ij = [m(si) > m(sj)]``, a tie counting 1/2, so ``P(m_ij) = 1/2``;
- ``M_ij = [for all m' in M: m'(si) >= m'(sj)]`` (a unanimous improvement,
  ties included);
- ``MU(m) = log2( P(m_ij, M_ij) / (P(m_ij) P(M_ij)) )``.

The probabilities are exact fractions of pair counts; :attr:`Unanimity.ratio`
is the exact ratio and :attr:`Unanimity.mu` its base-2 logarithm. MU is
undefined when no pair is unanimous (``P(M_ij) = 0``) or when ``m`` never
agrees with a unanimous improvement (``P(m_ij, M_ij) = 0``, log of 0); the
result then says why, with ``mu = None``, never ``-inf``.

Pairs: outputs are compared *within a topic* (two systems' outputs for the
same topic) and the pair counts are pooled over topics. Scores compare as
given (floats as floats, Fractions exactly); a tie is equality.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Union, cast

import numpy as np

from axiometer.core import ValidationError
from axiometer.views import Rows, Tabular

if TYPE_CHECKING:
    from axiometer.scoring import ScoreResult

__all__ = ["Unanimity", "unanimity", "metric_unanimity", "scores_by_topic"]

#: A score as the functions here take it: a Python or numpy number, or an exact ``Fraction``.
ScoreValue = Union[float, Fraction, np.integer, np.floating]


@dataclass(frozen=True)
class Unanimity(Tabular):
    """MU of one metric against the others, with the counts behind it.

    ``pairs``: ordered pairs of outputs compared (pooled over ``topics``
    topics); ``wins``: the sum of ``m_ij`` (ties 1/2); ``unanimous``: pairs
    with ``M_ij``; ``joint``: the sum of ``m_ij`` over unanimous pairs.
    ``ratio = P(m,M) / (P(m) P(M))`` exactly, ``mu = log2(ratio)``; both
    ``None`` when undefined, ``undefined`` saying why.
    """

    metric: str
    others: tuple[str, ...]
    topics: int
    pairs: int
    wins: Fraction
    unanimous: int
    joint: Fraction
    ratio: Fraction | None
    mu: float | None
    undefined: str | None = None

    @property
    def p_m(self) -> Fraction:
        return self.wins / self.pairs if self.pairs else Fraction(0)

    @property
    def p_M(self) -> Fraction:
        return Fraction(self.unanimous, self.pairs) if self.pairs else Fraction(0)

    @property
    def p_joint(self) -> Fraction:
        return self.joint / self.pairs if self.pairs else Fraction(0)

    def to_rows(self) -> Rows:
        """One row: MU and the probabilities behind it (floats; ``None`` where undefined), the counts."""
        return [{"metric": self.metric, "mu": self.mu, "ratio": None if self.ratio is None else float(self.ratio),
                 "p_joint": float(self.p_joint), "p_m": float(self.p_m), "p_M": float(self.p_M),
                 "unanimous": self.unanimous, "pairs": self.pairs, "topics": self.topics,
                 "undefined": self.undefined}]


def _log2(ratio: Fraction) -> float:
    """log2 of a positive fraction without overflowing floats on big numerators."""
    return math.log2(ratio.numerator) - math.log2(ratio.denominator)


def _as_array(values: Sequence[ScoreValue]) -> np.ndarray:
    if all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
           for v in values):
        array = np.asarray(values, dtype=np.float64)
        if not np.all(np.isfinite(array)):
            raise ValidationError("metric unanimity needs finite scores")
        return array
    return np.asarray(list(values), dtype=object)  # Fractions compare exactly


def unanimity(m: Sequence[ScoreValue] | Sequence[Sequence[ScoreValue]],
              others: Sequence[Sequence[ScoreValue]] | Sequence[Sequence[Sequence[ScoreValue]]], *, metric: str = "m",
              names: Sequence[str] | None = None, blocks: bool = False) -> Unanimity:
    """MU of ``m`` with respect to ``others``.

    Without ``blocks``, ``m`` lists one score per system output and each of
    ``others`` lists the same outputs' scores (one topic). With ``blocks``,
    ``m`` and each of ``others`` are lists of such lists, one per topic; pairs
    form within a topic and are pooled.
    """
    # ``blocks`` says which of the two shapes ``m`` and ``others`` have.
    m_blocks = cast("list[Sequence[ScoreValue]]", list(m) if blocks else [m])
    o_blocks = cast("list[list[Sequence[ScoreValue]]]",
                    [list(o) for o in others] if blocks else [[o] for o in others])
    if any(len(o) != len(m_blocks) for o in o_blocks):
        raise ValidationError("every metric needs scores for the same topics")
    pairs = unanimous = 0
    wins2 = joint2 = 0  # twice the sums: a tie counts 1/2
    for t, block in enumerate(m_blocks):
        x = _as_array(block)
        n = len(x)
        ys = [_as_array(o[t]) for o in o_blocks]
        if any(len(y) != n for y in ys):
            raise ValidationError(f"topic {t + 1}: every metric needs one score per system output")
        off = ~np.eye(n, dtype=bool)
        m2 = 2 * (x[:, None] > x[None, :]).astype(np.int64) + (x[:, None] == x[None, :])
        agree = off.copy()
        for y in ys:
            agree &= np.asarray(y[:, None] >= y[None, :], dtype=bool)
        pairs += n * (n - 1)
        unanimous += int(agree.sum())
        wins2 += int(m2[off].sum())
        joint2 += int(m2[agree].sum())
    wins, joint = Fraction(wins2, 2), Fraction(joint2, 2)
    others_names = tuple(names) if names is not None else tuple(f"m{i + 2}" for i in range(len(others)))
    ratio: Fraction | None = None
    mu: float | None = None
    undefined = None
    if pairs == 0:
        undefined = "no pair of system outputs (fewer than two outputs per topic)"
    elif unanimous == 0:
        undefined = "no pair is a unanimous improvement of the other metrics (P(M_ij) = 0)"
    elif joint == 0:
        undefined = ("the metric never agrees with a unanimous improvement (P(m_ij, M_ij) = 0): "
                     "log2(0)")
    else:
        # P(m,M) / (P(m) P(M)) = (joint/pairs) / ((wins/pairs) (unanimous/pairs)).
        ratio = joint * pairs / (wins * unanimous)
        mu = _log2(ratio)
    return Unanimity(metric, others_names, len(m_blocks), pairs, wins, unanimous, joint, ratio, mu,
                     undefined)


def scores_by_topic(result: ScoreResult) -> dict[str, dict[str, list[float]]]:
    """``metric -> topic -> [score of each run]`` (runs in ``result.runs`` order).

    A run lacking a topic counts as the empty output it is scored as (0,
    trec_eval ``-c``), so every topic has one output per run.
    """
    if not result.scores:
        raise ValidationError("metric unanimity needs per-topic scores (score with per_topic=True)")
    value = {(s.run, s.topic, s.metric): s.value for s in result.scores}
    return {metric: {topic: [value[run, topic, metric] for run in result.runs]
                     for topic in result.topics}
            for metric in result.metrics}


def metric_unanimity(scores: Mapping[str, Sequence[ScoreValue]]
                     | Mapping[str, Mapping[str, Sequence[ScoreValue]]] | ScoreResult,
                     metrics: Sequence[str] | None = None) -> tuple[Unanimity, ...]:
    """MU of each metric against all the others.

    ``scores``: ``metric -> [score per system output]`` (one topic), or
    ``metric -> topic -> [score per system]`` (pairs within each topic,
    pooled), or a :class:`~axiometer.scoring.ScoreResult` with per-topic
    scores. ``metrics`` picks and orders the metrics (default: all).
    """
    if hasattr(scores, "runs") and hasattr(scores, "scores"):
        # A ScoreResult, told apart by its fields: scoring sits above this module (no import).
        table: Mapping[str, Mapping[str, Sequence[ScoreValue]]] = scores_by_topic(cast("ScoreResult", scores))
    else:
        table = {name: (values if isinstance(values, Mapping) else {"": values})
                 for name, values in scores.items()}
    names = list(metrics) if metrics is not None else list(table)
    unknown = [name for name in names if name not in table]
    if unknown:
        raise ValidationError(f"no scores for metric {unknown[0]!r} (known: {', '.join(table)})")
    if len(set(names)) != len(names):
        raise ValidationError("a metric is given twice")
    if len(names) < 2:
        raise ValidationError("metric unanimity compares a metric with others: give at least two")
    topics = list(table[names[0]])
    for name in names:
        if list(table[name]) != topics:
            raise ValidationError(f"metric {name!r} is scored on other topics than {names[0]!r}")
    results = []
    for name in names:
        others = [n for n in names if n != name]
        results.append(unanimity([table[name][t] for t in topics],
                                 [[table[o][t] for t in topics] for o in others],
                                 metric=name, names=others, blocks=True))
    return tuple(results)
