"""Rareness-based ("innovation") metrics: P@K_rare, AP_rare and the revised P'@K_rare.

Türkmen, Lease & Kutlu, "New Metrics to Encourage Innovation and Diversity in
Information Retrieval Approaches", ECIR 2023 (``seeds/turkmen2023_innovation_metrics.txt``):

    R(d)      = 1 - S_d / S                                            (eq. 2)
    P@K_rare  = (1/k) sum_{i<=k} rel(d_i) (1 + alpha R(d_i))           (eq. 1)
    AP_rare   = (1/N_R) sum_{i<=k} rel(d_i) P@i_rare                   (eq. 3)
    R'(d)     = 1 - (S_d - 1) / (S - 1)                                (section 5.2)
    P'@K_rare = (1/k) sum_{i<=k} [(1 - alpha) rel(d_i) + alpha rel(d_i) R'(d_i)]   (eq. 4)

``S`` counts *all* systems including the evaluated one: ``S = len(context) + 1``
(the :class:`~axiometer.core.Context` holds the other systems). For a
document the evaluated ranking retrieves, ``S_d = 1 + `` the number of context
rankings retrieving it within the metric's cutoff ``k`` (the whole ranking
without a cutoff). Relevance is binary, ``rel(d) = [r(d) > 0]``.

Choices (see ``docs/relative-rareness-fujii.md``):

- eq. 4 prints ``R(d_i)`` but the same sentence introduces ``R'``; the default
  is ``rarity='revised'`` (R'), ``rarity='original'`` gives the printed form.
- ``R'`` is undefined with ``S = 1`` (no other system): with ``alpha > 0``
  the revised metric raises :class:`UndefinedScore`, never a
  ``ZeroDivisionError``; at ``alpha = 0`` the rarity term is absent and the
  score is P@K (the paper's reversion).
- AP_rare divides by ``N_R = topic.R`` (as AP does), 0 when ``R = 0``; its
  ``P@i_rare`` counts rarity within the metric's cutoff ``k``, not within ``i``.

The paper's stated maximum of P@K_rare, ``2(S-1)/S`` (section 2.1), is wrong:
at alpha = 1 with every retrieved document relevant and of maximal rarity the
value is ``1 + (S-1)/S = (2S-1)/S``. It is declared as a stated bound anyway
(:meth:`RareP.stated_bounds`) so that the Bounded property reports the
counterexample.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from axiometer.core import Context, Topic
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.average_precision import AveragePrecision
from axiometer.metrics.base import Param, UndefinedScore
from axiometer.metrics.precision import PrecisionAtK
from axiometer.metrics.registry import register
from axiometer.metrics.relative import RelativeMetric, Reversion, StatedBound, systems_retrieving

__all__ = ["RareP", "RareAP", "RevisedRareP"]

_SOURCE = "Türkmen, Lease & Kutlu, ECIR 2023"


def _alpha(high: float | None) -> Param:
    return Param("alpha", float, 0.5, "weight of document rarity (0 reverts to the base metric)",
                 low=0, high=high, grid=(0, 0.5, 1))


def _zero(S: int) -> Fraction:
    return Fraction(0)


def _one(S: int) -> Fraction:
    return Fraction(1)


def _max_rarity(S: int) -> Fraction:
    return Fraction(S - 1, S)


def _two(S: int) -> Fraction:
    return Fraction(2)


def _stated_maximum(S: int) -> Fraction:
    return Fraction(2 * (S - 1), S)


_RARITY_RANGE = StatedBound(
    "rarity R(d) in [0, (S-1)/S]", f"{_SOURCE}, section 2.1, eq. 2", "rarity", _zero, _max_rarity)


class _Rareness(RelativeMetric):
    """What the three rareness metrics share: S, S_d and the rarity of a document."""

    alpha: float

    def _systems(self, context: Context) -> int:
        """S: the other systems plus the evaluated one."""
        return len(context) + 1

    def _rarity(self, doc: str, context: Context, S: int, A: Arithmetic) -> Value:
        """R(d) = 1 - S_d / S, with S_d counting the evaluated system (it retrieves d)."""
        S_d = 1 + systems_retrieving(doc, context, self.cutoff)
        return A.one - A.num(S_d) / A.num(S)

    def rarities(self, ranking: Sequence[str], topic: Topic, context: Context, A: Any) -> dict[str, Any]:
        """The rarity of every document in the metric's window (relevant or not)."""
        S = self._systems(context)
        return {d: self._rarity(d, context, S, A) for d in self.window(ranking)}

    def _weight(self, doc: str, context: Context, S: int, A: Arithmetic) -> Value:
        """A relevant document's contribution: 1 + alpha R(d)."""
        if not self.alpha:
            return A.one
        return A.one + A.num(self.alpha) * self._rarity(doc, context, S, A)


class RareP(_Rareness):
    """P@K_rare(alpha) = (1/k) sum_{i<=k} rel(d_i) (1 + alpha R(d_i)), R(d) = 1 - S_d/S.

    ``S = len(context) + 1`` (all systems, the evaluated one included), ``S_d``
    = the systems retrieving ``d`` within ``k``; binary ``rel``. ``alpha >= 0``
    (default 0.5; the paper's grid 0, 0.5, 1; it recommends [0, 1]); alpha = 0
    is P@k. A cutoff is required (default 10). Divides by ``k`` even when the
    ranking is shorter, as P@k does.

    Stated bounds (section 2.1): R in [0, (S-1)/S]; P@K_rare in [0, 2) for
    alpha <= 1; and the stated maximum ``2(S-1)/S``, which is wrong (the
    maximum at alpha = 1 is ``(2S-1)/S``: S = 2, k = 1, one relevant document
    nobody else retrieves gives 3/2 > 1).

    Source: Türkmen, Lease & Kutlu, ECIR 2023, section 2.1, eqs. 1-2.
    """

    family = "RareP"
    title = "P@K_rare"
    cutoff_rule = "required"
    default_cutoff = 10
    param_info = (_alpha(None),)

    cutoff: int  # cutoff_rule 'required': BuiltinMetric sets the default cutoff when none is given

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        context = context or Context()
        S = self._systems(context)
        total = A.zero
        for d in self.window(ranking):
            if topic.rel(d):
                total = total + self._weight(d, context, S, A)
        return total / A.num(self.cutoff)

    def reversions(self) -> tuple[Reversion, ...]:
        return (Reversion("alpha = 0 reverts to the standard P@K formula",
                          f"{_SOURCE}, section 2.1 (after eq. 1)",
                          self.replace(alpha=0), PrecisionAtK(self.cutoff)),)

    def stated_bounds(self) -> tuple[StatedBound, ...]:
        bounds = [_RARITY_RANGE]
        if self.alpha <= 1:
            bounds.append(StatedBound(
                "P@K_rare in [0, 2) for alpha in [0, 1]", f"{_SOURCE}, section 2.1",
                "score", _zero, _two, high_open=True))
            bounds.append(StatedBound(
                "upper bound reached at alpha = 1, all retrieved documents relevant and of maximal "
                "rarity: P@K_rare = 2(S-1)/S",
                f"{_SOURCE}, section 2.1", "score", None, _stated_maximum))
        return tuple(bounds)

    def score_systems(self, topic: Topic, rankings: Sequence[Sequence[str]],
                      priors: Sequence[Sequence[int]]) -> np.ndarray:
        """Vectorised over a campaign: S_d from one (systems x relevant documents) count.

        ``retrieves[j, d]`` says system ``j`` retrieves relevant document ``d``
        in its top ``k``; ``others[i, j]`` says ``j`` is in ``i``'s context; their
        product counts the other systems retrieving each document.
        """
        k = self.cutoff
        n = len(rankings)
        relevant = {d: c for c, d in enumerate(topic.relevant)}
        retrieves = np.zeros((n, len(relevant)), dtype=np.float64)
        for j, ranking in enumerate(rankings):
            for d in ranking[:k]:
                column = relevant.get(d)
                if column is not None:
                    retrieves[j, column] = 1.0
        others = np.zeros((n, n), dtype=np.float64)
        for i, prior in enumerate(priors):
            others[i, list(prior)] = 1.0
        S = others.sum(axis=1, keepdims=True) + 1.0
        rarity = 1.0 - (1.0 + others @ retrieves) / S
        weights = (1.0 + float(self.alpha) * rarity) * retrieves
        return weights.sum(axis=1) / k


class RareAP(_Rareness):
    """AP_rare(alpha) = (1/N_R) sum_{i<=k} rel(d_i) P@i_rare; 0 when N_R = 0.

    ``P@i_rare = (1/i) sum_{j<=i} rel(d_j) (1 + alpha R(d_j))`` with rarity
    ``R(d) = 1 - S_d/S`` counted within the metric's cutoff ``k`` (the whole
    rankings without one); ``N_R = topic.R``, the topic's relevant documents
    (as AP). alpha = 0 is AP@k. ``alpha >= 0``, default 0.5, grid 0, 0.5, 1.

    Stated bounds (section 2.2): AP_rare "inherits" [0, 2) for alpha <= 1;
    rarity in [0, (S-1)/S].

    Source: Türkmen, Lease & Kutlu, ECIR 2023, section 2.2, eq. 3.
    """

    family = "RareAP"
    title = "AP_rare"
    param_info = (_alpha(None),)

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        context = context or Context()
        S = self._systems(context)
        weighted_hits = A.zero  # sum_{j<=i} rel(d_j) (1 + alpha R(d_j))
        total = A.zero
        for i, d in enumerate(self.window(ranking), 1):
            if topic.rel(d):
                weighted_hits = weighted_hits + self._weight(d, context, S, A)
                total = total + weighted_hits / A.num(i)
        return A.ratio(total, A.num(topic.R))

    def reversions(self) -> tuple[Reversion, ...]:
        return (Reversion("alpha = 0 gives P@K_rare = P@K, and thus AP_rare = AP",
                          f"{_SOURCE}, section 2.2 (after eq. 3)",
                          self.replace(alpha=0), AveragePrecision(self.cutoff)),)

    def stated_bounds(self) -> tuple[StatedBound, ...]:
        bounds = [_RARITY_RANGE]
        if self.alpha <= 1:
            bounds.append(StatedBound(
                "AP_rare inherits P@K_rare's bounds [0, 2)", f"{_SOURCE}, section 2.2",
                "score", _zero, _two, high_open=True))
        return tuple(bounds)


class RevisedRareP(_Rareness):
    """P'@K_rare(alpha) = (1/k) sum_{i<=k} [(1 - alpha) rel(d_i) + alpha rel(d_i) R'(d_i)].

    ``R'(d) = 1 - (S_d - 1)/(S - 1)`` (``rarity='revised'``, the default) or
    the printed ``R(d) = 1 - S_d/S`` (``rarity='original'``: eq. 4 prints R
    while the text introduces R'). ``alpha`` in [0, 1] ("a probability"),
    default 0.5, grid 0, 0.5, 1; alpha = 0 is P@k. Cutoff required (default 10).
    With ``rarity='revised'``, ``alpha > 0`` and no other system (``S = 1``)
    the score is undefined: :class:`UndefinedScore`.

    Stated bounds (section 5.2): R' in [0, 1] (R in [0, (S-1)/S] for the
    original rarity); P'@K_rare in [0, 1]. The paper also says R' is
    "maximized when S_d = S"; that is its minimum (R' = 0), not a bound.

    Source: Türkmen, Lease & Kutlu, ECIR 2023, section 5.2, eq. 4.
    """

    family = "RareP_rev"
    title = "P'@K_rare"
    cutoff_rule = "required"
    default_cutoff = 10
    param_info = (
        _alpha(1),
        Param("rarity", str, "revised", "which rarity eq. 4 uses: R' (revised) or R (as printed)",
              choices=("revised", "original")),
    )

    rarity: str
    cutoff: int  # cutoff_rule 'required': BuiltinMetric sets the default cutoff when none is given

    def _undefined(self, S: int) -> UndefinedScore:
        return UndefinedScore(
            f"{self.name}: the revised rarity R'(d) = 1 - (S_d - 1)/(S - 1) is undefined with "
            f"S = {S} system (the context of other systems is empty); give other systems' "
            "rankings or use rarity='original'")

    def _rarity(self, doc: str, context: Context, S: int, A: Arithmetic) -> Value:
        if self.rarity == "original":
            return super()._rarity(doc, context, S, A)
        if S == 1:
            raise self._undefined(S)
        others = systems_retrieving(doc, context, self.cutoff)  # S_d - 1
        return A.one - A.num(others) / A.num(S - 1)

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        context = context or Context()
        S = self._systems(context)
        alpha = A.num(self.alpha)
        if self.alpha and self.rarity == "revised" and S == 1:
            # Undefined for every ranking, not only those with a relevant document.
            raise self._undefined(S)
        total = A.zero
        for d in self.window(ranking):
            if topic.rel(d):
                term = A.one - alpha
                if self.alpha:
                    term = term + alpha * self._rarity(d, context, S, A)
                total = total + term
        return total / A.num(self.cutoff)

    def reversions(self) -> tuple[Reversion, ...]:
        return (Reversion("alpha = 0 gives P@K (the mixture's rarity term vanishes)",
                          f"{_SOURCE}, section 5.2, eq. 4",
                          self.replace(alpha=0), PrecisionAtK(self.cutoff)),)

    def stated_bounds(self) -> tuple[StatedBound, ...]:
        rarity = (StatedBound("revised rarity R'(d) in [0, 1]", f"{_SOURCE}, section 5.2",
                              "rarity", _zero, _one)
                  if self.rarity == "revised" else _RARITY_RANGE)
        return (rarity,
                StatedBound("the mixture directly bounds P'@K_rare in [0, 1]",
                            f"{_SOURCE}, section 5.2, eq. 4", "score", _zero, _one))


register(RareP, RareAP, RevisedRareP, scores="relative")
