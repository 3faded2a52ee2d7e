"""Intent-aware metrics, M-IA, and normalised ERR-IA.

    M-IA(d) = sum_t w(t) * M_t(d)

with ``M_t`` the single-aspect metric ``M`` evaluated on aspect ``t`` alone
(``topic.restrict(t)``: relevance ``r(d, t)``, relevant count
``R_t = |{d : r(d, t) > 0}|``, ideal ranking built from aspect ``t``'s
judgments) and ``w(t)`` the aspect weights (the probability of intent ``t``).
``M`` is one of P@k, RR, AP, nDCG@k, ERR@k, RBP; each class here reuses the
single-aspect class, so its formula is written once.

nERR-IA@k divides ERR-IA@k by the ERR-IA@k of a *greedy ideal* ranking, as
ndeval's ``nERR-IA`` does: position by position, take the judged document
with the largest ERR-IA increment ``sum_t w(t) r(d, t) prod_{j<i} (1 - r(d_j, t))``,
ties going to the larger document id (ndeval's ``strcmp`` rule). Exact
optimisation is NP-hard (ndeval says so too); the greedy choice is decided
exactly, so ``score`` and ``exact`` always normalise by the same ranking.
See ``docs/conventions-ndeval-intent-aware.md`` for how these values relate
to ndeval's ``P-IA``, ``ERR-IA``, ``nERR-IA`` and ``MAP-IA``.

Source: Agrawal, Gollapudi, Halverson & Ieong, "Diversifying search results",
WSDM 2009 (intent-aware metrics); Chapelle, Ji, Liao, Velipasaoglu, Lai & Wu,
"Intent-based diversity of web search", Information Retrieval 14(6), 2011
(ERR-IA); Clarke, Craswell & Soboroff, TREC 2009 Web track overview, and
ndeval (nERR-IA's greedy normalisation); Amigó, Spina & Carrillo-de-Albornoz,
SIGIR 2018, Table 1 (rows 7-12).
"""

from __future__ import annotations

from collections import OrderedDict
from fractions import Fraction
from typing import Any, Callable, ClassVar, Sequence, TypeVar

import numpy as np

from axiometer.core import Context, Topic, to_fraction
from axiometer.grades import ERR_MAPPING, IR_MEASURES_RBP, NDEVAL
from axiometer.metrics.arithmetic import FLOAT, Arithmetic, Value
from axiometer.metrics.average_precision import AveragePrecision
from axiometer.metrics.base import REL_PARAM, BuiltinMetric, Needs, RankingBatch
from axiometer.metrics.dcg import NDCG
from axiometer.metrics.err import ERR
from axiometer.metrics.precision import PrecisionAtK
from axiometer.metrics.rbp import RBP, PERSISTENCE
from axiometer.metrics.reciprocal_rank import ReciprocalRank
from axiometer.metrics.registry import register

__all__ = ["IntentAwareMetric", "PrecisionIA", "ReciprocalRankIA", "AveragePrecisionIA", "NDCGIA",
           "ERRIA", "NERRIA", "RBPIA", "aspect_topics", "greedy_ideal"]

T = TypeVar("T")


class _IdentityCache:
    """A small cache keyed on the *identity* of a topic (plus extra keys).

    Topics compare equal across number types (``0.5 == Fraction(1, 2)``), so an
    equality-keyed cache could hand a float-valued view to an exact
    evaluation; keying on ``id`` (and holding the topic so the id stays
    unique) avoids that.
    """

    def __init__(self, maxsize: int = 128) -> None:
        self.maxsize = maxsize
        self._entries: OrderedDict[tuple, tuple[Topic, Any]] = OrderedDict()

    def get(self, topic: Topic, key: tuple, build: Callable[[], T]) -> T:
        full_key = (id(topic),) + key
        entry = self._entries.get(full_key)
        if entry is not None and entry[0] is topic:
            self._entries.move_to_end(full_key)
            return entry[1]
        value = build()
        self._entries[full_key] = (topic, value)
        if len(self._entries) > self.maxsize:
            self._entries.popitem(last=False)
        return value


_ASPECT_TOPICS = _IdentityCache()
_IDEALS = _IdentityCache()


def aspect_topics(topic: Topic) -> tuple[Topic, ...]:
    """``topic.restrict(t)`` for every aspect ``t``, in aspect order (cached per topic)."""
    return _ASPECT_TOPICS.get(topic, (), lambda: tuple(topic.restrict(t) for t in topic.aspects))


def greedy_ideal(topic: Topic, depth: int | None = None) -> tuple[str, ...]:
    """The greedy ERR-IA ideal ranking of ``topic``'s judged documents, to ``depth``.

    At each position take the document with the largest exact increment
    ``sum_t w(t) r(d, t) prod_{j<i} (1 - r(d_j, t))``; ties go to the larger
    document id, as in ndeval's ``idealResult``. Stops when no document adds
    anything (the rest would contribute 0). Gains are screened in float64 and
    the near-maximal ones re-decided with fractions, so the choice is exact.
    """
    return _IDEALS.get(topic, (depth,), lambda: _greedy_ideal(topic, depth))


def _greedy_ideal(topic: Topic, depth: int | None) -> tuple[str, ...]:
    docs = [d for d in topic.documents if topic.r(d) > 0]
    if not docs:
        return ()
    weights = [to_fraction(w) for w in topic.weights]
    exact_r = [[to_fraction(r) for r in topic.vector(d)] for d in docs]
    float_r = np.array([[float(r) for r in row] for row in exact_r])
    not_stopped = [Fraction(1)] * len(weights)  # prod_{j<i} (1 - r(d_j, t))
    remaining = np.ones(len(docs), dtype=bool)
    limit = len(docs) if depth is None else min(depth, len(docs))
    ideal: list[str] = []
    while len(ideal) < limit:
        screen = float_r @ np.array([float(w * s) for w, s in zip(weights, not_stopped)])
        screen[~remaining] = -1.0
        top = screen.max()
        if top <= 0.0:
            break
        best, best_gain = -1, Fraction(0)
        for i in np.flatnonzero(screen >= top * (1 - 1e-9)):
            gain = sum((w * r * s for w, r, s in zip(weights, exact_r[i], not_stopped) if r),
                       Fraction(0))
            if gain > best_gain or (gain == best_gain and gain > 0 and docs[i] > docs[best]):
                best, best_gain = int(i), gain
        if best_gain == 0:
            break
        ideal.append(docs[best])
        remaining[best] = False
        not_stopped = [s * (1 - r) for s, r in zip(not_stopped, exact_r[best])]
    return tuple(ideal)


class IntentAwareMetric(BuiltinMetric):
    """``sum_t w(t) M_t(d)`` for the single-aspect metric class ``per_aspect_class``."""

    per_aspect_class: ClassVar[type[BuiltinMetric]]

    def __init__(self, cutoff: int | None = None, **params: Any) -> None:
        super().__init__(cutoff, **params)
        self.per_aspect = self.per_aspect_class(self.cutoff, **self.params)

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        total = A.zero
        for weight, aspect_topic in zip(topic.weights, aspect_topics(topic)):
            total = total + A.num(weight) * self.per_aspect.compute(ranking, aspect_topic, A, context)
        return total

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        scores = np.zeros(len(batch.lengths))
        for t, aspect_topic in enumerate(aspect_topics(batch.topic)):
            aspect_batch = RankingBatch(aspect_topic, batch.gains[:, :, t:t + 1], batch.lengths,
                                        batch.judged)
            scores += batch.weights[t] * self.per_aspect.score_batch(aspect_batch)
        return scores


class PrecisionIA(IntentAwareMetric):
    """P-IA@k = sum_t w(t) P@k on aspect t, with P@k = (1/k) sum_{i<=k} [r(d_i, t) > 0].

    Cutoff required (default 10). Source: Agrawal et al., WSDM 2009;
    ndeval ``P-IA@k``; Amigó et al., SIGIR 2018, Table 1.
    """

    family = "P_IA"
    grades_convention = NDEVAL
    title = "P-IA@k"
    per_aspect_class = PrecisionAtK
    cutoff_rule = PrecisionAtK.cutoff_rule
    default_cutoff = PrecisionAtK.default_cutoff
    param_info = (REL_PARAM,)
    needs = Needs(aspects=True, graded=False)


class ReciprocalRankIA(IntentAwareMetric):
    """RR-IA = sum_t w(t) / min{i : r(d_i, t) > 0} (a term is 0 if aspect t is never hit).

    Source: Agrawal et al., WSDM 2009; Amigó et al., SIGIR 2018, Table 1.
    """

    family = "RR_IA"
    title = "RR-IA"
    per_aspect_class = ReciprocalRank
    param_info = (REL_PARAM,)
    needs = Needs(aspects=True, graded=False)


class AveragePrecisionIA(IntentAwareMetric):
    """AP-IA = sum_t w(t) AP_t, AP_t = (1/R_t) sum_i [r(d_i, t) > 0] P_t@i (0 when R_t = 0).

    ``R_t`` counts the topic's documents relevant to aspect t. Source:
    Agrawal et al., WSDM 2009; ndeval ``MAP-IA``; Amigó et al., SIGIR 2018,
    Table 1.
    """

    family = "AP_IA"
    grades_convention = NDEVAL
    title = "AP-IA"
    per_aspect_class = AveragePrecision
    param_info = (REL_PARAM,)
    needs = Needs(aspects=True, graded=False)


class NDCGIA(IntentAwareMetric):
    """nDCG-IA@k = sum_t w(t) nDCG@k_t, gain r(d, t), each aspect with its own ideal.

    Source: Agrawal et al., WSDM 2009; Järvelin & Kekäläinen, TOIS 2002;
    Amigó et al., SIGIR 2018, Table 1.
    """

    family = "nDCG_IA"
    title = "nDCG-IA@k"
    per_aspect_class = NDCG
    needs = Needs(aspects=True, graded=True)
    normalised = True


class ERRIA(IntentAwareMetric):
    """ERR-IA@k = sum_t w(t) sum_{i<=k} (1/i) r(d_i, t) prod_{j<i} (1 - r(d_j, t)).

    Unnormalised (ndeval divides by an "ideal ideal"; see the conventions
    doc). Source: Chapelle et al., Information Retrieval 2011; Agrawal et al.,
    WSDM 2009; Amigó et al., SIGIR 2018, Table 1.
    """

    family = "ERR_IA"
    grades_convention = ERR_MAPPING
    title = "ERR-IA@k"
    per_aspect_class = ERR
    needs = Needs(aspects=True, graded=True)


class RBPIA(IntentAwareMetric):
    """RBP-IA(p) = sum_t w(t) (1 - p) sum_i p^(i-1) r(d_i, t); p in (0, 1), default 0.8.

    Source: Moffat & Zobel, TOIS 2008; Agrawal et al., WSDM 2009;
    Amigó et al., SIGIR 2018, Table 1.
    """

    family = "RBP_IA"
    grades_convention = IR_MEASURES_RBP
    title = "RBP-IA"
    per_aspect_class = RBP
    param_info = (PERSISTENCE,)
    needs = Needs(aspects=True, graded=True)

    p: float


class NERRIA(BuiltinMetric):
    """nERR-IA@k = ERR-IA@k(d) / ERR-IA@k(greedy ideal); 0 when the ideal scores 0.

    The ideal is :func:`greedy_ideal` (ndeval's greedy, generalised to graded
    ``r`` and weights). Source: Chapelle et al., Information Retrieval 2011;
    ndeval ``nERR-IA@k`` (TREC Web track 2010-2014).
    """

    family = "nERR_IA"
    grades_convention = ERR_MAPPING
    title = "nERR-IA@k"
    needs = Needs(aspects=True, graded=True)
    normalised = True

    def __init__(self, cutoff: int | None = None, **params: Any) -> None:
        super().__init__(cutoff, **params)
        self.err_ia = ERRIA(self.cutoff)

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        ideal = greedy_ideal(topic, self.cutoff)
        return A.ratio(self.err_ia.compute(ranking, topic, A), self.err_ia.compute(ideal, topic, A))

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        ideal = float(self.err_ia.compute(greedy_ideal(batch.topic, self.cutoff), batch.topic, FLOAT))
        if ideal == 0.0:
            return np.zeros(len(batch.lengths))
        return self.err_ia.score_batch(batch) / ideal


register(PrecisionIA, ReciprocalRankIA, AveragePrecisionIA, NDCGIA, ERRIA, NERRIA, RBPIA)
