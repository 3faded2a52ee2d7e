"""Subtopic recall S-Recall@k and subtopic reciprocal rank S-RR@100%.

    S-Recall@k(d) = |{t in T* : exists i <= min(k, n), r(d_i, t) > 0}| / |T*|
    S-RR@100%(d)  = 1 / min{i : d_1..d_i cover every aspect of T*}, 0 if never

``T*`` is the set of *coverable* aspects: those with at least one judged
document ``r(d, t) > 0``. An aspect nobody found relevant material for cannot
be covered by any ranking, so counting it would cap S-Recall below 1 and make
S-RR 0 for every ranking of the topic, whatever the system does; ndeval's
``strec`` makes the same choice (its ``actualSubtopics``). A topic with no
coverable aspect scores 0 (a normaliser of 0 gives 0, definitions §2).

Both metrics are binary (``r > 0`` covers) and ignore aspect weights.

Source: Zhai, Cohen & Lafferty, "Beyond independent relevance: methods and
evaluation metrics for subtopic retrieval", SIGIR 2003; Amigó, Spina &
Carrillo-de-Albornoz, SIGIR 2018, section 4.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Context, Topic
from axiometer.grades import NDEVAL
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import BuiltinMetric, Needs, RankingBatch, batch_cutoff
from axiometer.metrics.registry import register

__all__ = ["coverable_aspects", "covered_aspects", "SubtopicRecall", "SubtopicReciprocalRank"]


def coverable_aspects(topic: Topic) -> frozenset[int]:
    """Indices of the aspects with at least one judged document ``r(d, t) > 0``."""
    return frozenset(j for j, aspect in enumerate(topic.aspects)
                     if any(r > 0 for r in topic.relevance_values(aspect)))


def covered_aspects(ranking: Sequence[str], topic: Topic) -> set[int]:
    """Indices of the aspects some document of ``ranking`` is relevant to."""
    return {j for d in ranking for j, r in enumerate(topic.vector(d)) if r > 0}


class SubtopicRecall(BuiltinMetric):
    """S-Recall@k: the fraction of the coverable aspects covered by the top k.

    ``S-Recall@k = |{t in T* : exists i<=k, r(d_i,t) > 0}| / |T*|``, with ``T*``
    the aspects that have a relevant judged document (as ndeval's ``strec``);
    0 when ``T*`` is empty. A cutoff is required (``StRecall`` means ``@10``).
    Source: Zhai, Cohen & Lafferty, SIGIR 2003; Amigó et al., SIGIR 2018.
    """

    family = "StRecall"
    grades_convention = NDEVAL
    title = "S-Recall@k"
    cutoff_rule = "required"
    default_cutoff = 10
    needs = Needs(aspects=True, graded=False)
    normalised = True

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        coverable = coverable_aspects(topic)
        covered = covered_aspects(self.window(ranking), topic)
        return A.ratio(A.num(len(covered)), A.num(len(coverable)))

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        coverable = len(coverable_aspects(batch.topic))
        if coverable == 0:
            return np.zeros(len(batch.lengths))
        covered = (batch.gains[:, :k, :] > 0).any(axis=1).sum(axis=1)
        return covered / coverable


class SubtopicReciprocalRank(BuiltinMetric):
    """S-RR@100%: the reciprocal of the first rank at which every coverable aspect is covered.

    ``S-RR@100% = 1 / min{i : d_1..d_i cover every t in T*}``, 0 if the ranking
    never covers them all or ``T*`` (aspects with a relevant judged document)
    is empty. No cutoff. Source: Zhai, Cohen & Lafferty, SIGIR 2003 (S-RR at
    100% recall); Amigó et al., SIGIR 2018.
    """

    family = "SRR"
    title = "S-RR@100%"
    cutoff_rule = "none"
    needs = Needs(aspects=True, graded=False)
    normalised = True

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        missing = set(coverable_aspects(topic))
        if not missing:
            return A.zero
        for i, d in enumerate(ranking, 1):
            missing.difference_update(j for j, r in enumerate(topic.vector(d)) if r > 0)
            if not missing:
                return A.one / A.num(i)
        return A.zero

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        coverable = sorted(coverable_aspects(batch.topic))
        scores = np.zeros(len(batch.lengths))
        if not coverable or batch.depth == 0:
            return scores
        seen = np.logical_or.accumulate(batch.gains[:, :, coverable] > 0, axis=1)
        complete: np.ndarray = np.all(seen, axis=2)  # (rankings, depth): all covered by rank i+1
        ever = complete.any(axis=1)
        first = complete.argmax(axis=1) + 1
        scores[ever] = 1.0 / first[ever]
        return scores


register(SubtopicRecall, SubtopicReciprocalRank)
