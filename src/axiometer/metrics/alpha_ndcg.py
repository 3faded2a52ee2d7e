"""alpha-DCG@k and alpha-nDCG@k: novelty-biased discounted cumulative gain.

    alpha-DCG@k(d)  = sum_{i <= min(k, n)} sum_t r(d_i, t) (1 - alpha)^c(i, t) / log2(i + 1)
    alpha-nDCG@k(d) = alpha-DCG@k(d) / alpha-DCG@k(greedy ideal)

with ``c(i, t) = |{j < i : r(d_j, t) > 0}|`` the number of earlier documents
relevant to aspect ``t``: each repeat of an aspect is worth ``(1 - alpha)``
times the previous one. Aspects are unweighted (as in the paper and ndeval).

The ideal ranking is ndeval's greedy approximation (the exact ideal is
NP-hard): repeatedly take the judged document with the largest marginal gain
``sum_t r(d, t) (1 - alpha)^c(t)``, breaking ties by the *largest* document id,
as ndeval's ``idealResult`` does (``strcmp(docno, best) > 0``). Ties are decided
in exact arithmetic, once per topic and alpha (cached). Greedy is not optimal,
so a ranking can beat its ideal: alpha-nDCG may exceed 1, in ndeval as here
(``docs/conventions-ndeval-diversity.md`` has the minimal input).

A zero ideal (no relevant document) gives 0. The helpers here (novelty gains,
the greedy ideal) are shared by NRBP, EU and the Cube Test.

Source: Clarke, Kolla, Cormack, Vechtomova, Ashkan, Büttcher & MacKinnon,
"Novelty and diversity in information retrieval evaluation", SIGIR 2008;
ndeval (TREC Web track) for the greedy ideal.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from collections.abc import Callable, Mapping
from typing import Any, Sequence, cast

import numpy as np
import sympy

from axiometer.core import Context, Number, Topic, to_fraction
from axiometer.grades import NDEVAL
from axiometer.metrics.arithmetic import FLOAT, Arithmetic, SymbolicArithmetic, Value
from axiometer.metrics.base import BuiltinMetric, Needs, Param, RankingBatch, batch_cutoff
from axiometer.metrics.dcg import dcg, discounts
from axiometer.metrics.registry import register

__all__ = ["ALPHA_PARAM", "novelty_gains", "batch_novelty_gains", "greedy_ideal_gains", "greedy_ideal_documents",
           "greedy_order", "ideal_gains", "AlphaDCG", "AlphaNDCG"]

#: The redundancy parameter shared by the alpha-family (values tested in SIGIR 2018).
ALPHA_PARAM = Param("alpha", float, 0.5, "redundancy intolerance: each repeat of an aspect "
                    "is worth (1 - alpha) times the previous one", low=0, high=1,
                    high_open=True, grid=(0.1, 0.25, 0.5, 0.75))


def novelty_gains(vectors: Sequence[Sequence[Value]], alpha: Value, A: Arithmetic,
                  weights: Sequence[Value] | None = None) -> list[Value]:
    """Per position ``i``: ``sum_t w(t) r(d_i, t) (1 - alpha)^c(i, t)``.

    ``vectors`` are the documents' ``(r(d, t1), ..., r(d, tm))`` already read
    with ``A.num``; without ``weights`` every aspect weighs 1.
    """
    keep = A.one - alpha
    seen: dict[int, int] = {}
    out: list[Value] = []
    for vector in vectors:
        gain = A.zero
        for j, r in enumerate(vector):
            if r > 0:
                c = seen.get(j, 0)
                term = r * keep ** c
                gain = gain + (term if weights is None else weights[j] * term)
                seen[j] = c + 1
        out.append(gain)
    return out


def batch_novelty_gains(gains: np.ndarray, alpha: float,
                        weights: np.ndarray | None = None) -> np.ndarray:
    """:func:`novelty_gains` for a ``(rankings, depth, aspects)`` array; shape ``(rankings, depth)``."""
    hit = gains > 0
    before: np.ndarray = np.cumsum(hit, axis=1) - hit  # c(i, t): relevant documents above i
    discounted = gains * (1.0 - alpha) ** before
    return discounted.sum(axis=2) if weights is None else discounted @ weights


@functools.lru_cache(maxsize=1024)
def greedy_ideal_gains(topic: Topic, alpha: Fraction, limit: int | None = None) -> tuple[Fraction, ...]:
    """The per-position gains of ndeval's greedy ideal ranking, exactly (the first ``limit``)."""
    return tuple(gain for _, gain in _greedy_ideal(topic, alpha, limit))


def greedy_ideal_documents(topic: Topic, alpha: Fraction, limit: int | None = None) -> tuple[str, ...]:
    """The documents of ndeval's greedy ideal ranking, in order (the first ``limit``)."""
    return tuple(doc for doc, _ in _greedy_ideal(topic, alpha, limit))


@functools.lru_cache(maxsize=1024)
def _greedy_ideal(topic: Topic, alpha: Fraction, limit: int | None) -> tuple[tuple[str, Fraction], ...]:
    """ndeval's greedy ideal ranking as ``(document, gain)`` pairs, exactly (cached by topic)."""
    return greedy_order(_relevant_vectors(topic, to_fraction), alpha, limit)


def _relevant_vectors(topic: Topic, exactly: Callable[[Number], Any]) -> dict[str, tuple[Any, ...]]:
    """``d -> (r(d, t1), ...)`` read with ``exactly``, for the relevant judged documents."""
    return {d: tuple(exactly(r) for r in topic.vector(d)) for d in topic.documents if topic.rel(d)}


def greedy_order(vectors: Mapping[str, tuple[Any, ...]], alpha: Any, limit: int | None) -> tuple[tuple[str, Any], ...]:
    """ndeval's greedy ideal ranking of ``vectors`` as ``(document, gain)`` pairs.

    At each step the document with the largest ``sum_t r(d, t) (1 - alpha)^c(t)``
    is taken, ties going to the largest document id (ndeval's rule). Gains are
    updated incrementally: taking a document relevant to ``t`` lowers every
    other document's term for ``t`` by ``alpha`` times its current value.
    Each pick scans the remaining documents, so stopping at the cutoff
    (``limit``) turns O(R^2) into O(k R): metrics with a cutoff need no more.
    The values are exact (``Fraction``) or a proof's symbols, whose comparisons branch.
    """
    keep = 1 - alpha
    holders: dict[int, list[str]] = {}
    for d, vector in vectors.items():
        for j, r in enumerate(vector):
            if r > 0:
                holders.setdefault(j, []).append(d)
    aspects = len(next(iter(vectors.values()))) if vectors else 0
    factor: list[Any] = [Fraction(1)] * aspects  # (1 - alpha)^c(t)
    gain: dict[str, Any] = {d: sum(vector, Fraction(0)) for d, vector in vectors.items()}
    remaining, left = sorted(vectors), set(vectors)
    ideal: list[tuple[str, Any]] = []
    while remaining and (limit is None or len(ideal) < limit):
        best = remaining[0]
        for d in remaining[1:]:   # the largest gain, ties to the largest id (remaining is sorted)
            if gain[d] >= gain[best]:
                best = d
        ideal.append((best, gain[best]))
        remaining.remove(best)
        left.discard(best)
        for j, r in enumerate(vectors[best]):
            if r > 0:
                drop = factor[j] * alpha
                for d in holders[j]:
                    if d in left:
                        gain[d] = gain[d] - vectors[d][j] * drop
                factor[j] = factor[j] * keep
    return tuple(ideal)


def ideal_gains(topic: Topic, alpha: Value, limit: int | None, A: Arithmetic) -> list[Value]:
    """The greedy ideal's gains in arithmetic ``A``.

    A symbolic ``alpha`` (boundaries' closed forms, :mod:`axiometer.metrics.symbolic`)
    takes the greedy order at the arithmetic's anchor and the novelty gains
    of that order symbolically: the same gains wherever the order is the anchor's.
    """
    if isinstance(alpha, sympy.Basic) and alpha.free_symbols:
        # A symbolic alpha comes only with the symbolic arithmetic (metrics.symbolic), which has anchors.
        docs = greedy_ideal_documents(topic, cast(SymbolicArithmetic, A).anchored(alpha), limit)
        return novelty_gains(_vectors(docs, topic, A), alpha, A)
    if not A.cacheable:  # a proof's symbols: the greedy order is decided on the path
        return [gain for _, gain in greedy_order(_relevant_vectors(topic, A.exactly), A.num(alpha), limit)]
    return [A.num(g) for g in greedy_ideal_gains(topic, to_fraction(alpha), limit)]


def _ideal(topic: Topic, alpha: Number, k: int | None, A: Arithmetic) -> list[Value]:
    return ideal_gains(topic, alpha, k, A)


def _vectors(ranking: Sequence[str], topic: Topic, A: Arithmetic) -> Sequence[tuple[Value, ...]]:
    return A.vectors(topic, ranking)


class AlphaDCG(BuiltinMetric):
    """alpha-DCG@k = sum_{i<=k} sum_t r(d_i,t) (1-alpha)^c(i,t) / log2(i+1) (unnormalised).

    ``c(i,t)`` counts the documents above ``i`` relevant to ``t``; aspects are
    unweighted. ndeval's "alpha-DCG" divides this by an "ideal ideal"
    (``docs/conventions-ndeval-diversity.md``); this is the raw sum.
    Source: Clarke et al., SIGIR 2008.
    """

    family = "alpha_DCG"
    grades_convention = NDEVAL
    title = "alpha-DCG@k"
    param_info = (ALPHA_PARAM,)
    cutoff_rule = "optional"
    needs = Needs(aspects=True, graded=True)

    alpha: float

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        vectors = _vectors(self.window(ranking), topic, A)
        return dcg(novelty_gains(vectors, A.num(self.alpha), A), A)

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        return batch_novelty_gains(batch.gains[:, :k, :], float(self.alpha)) @ discounts(k)


class AlphaNDCG(BuiltinMetric):
    """alpha-nDCG@k = alpha-DCG@k(d) / alpha-DCG@k(greedy ideal); 0 without relevant documents.

    The ideal is ndeval's greedy ranking of the judged documents (ties to the
    largest document id), so the value equals ndeval's ``alpha-nDCG@k`` on
    binary judgments, and can exceed 1 where greedy is not optimal.
    Source: Clarke et al., SIGIR 2008; ndeval.
    """

    family = "alpha_nDCG"
    grades_convention = NDEVAL
    title = "alpha-nDCG@k"
    param_info = (ALPHA_PARAM,)
    cutoff_rule = "optional"
    needs = Needs(aspects=True, graded=True)
    normalised = True

    alpha: float

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        alpha = A.num(self.alpha)
        gains = novelty_gains(_vectors(self.window(ranking), topic, A), alpha, A)
        ideal = _ideal(topic, self.alpha, self.cutoff, A)
        return A.ratio(dcg(gains, A), dcg(ideal, A))

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        k = batch_cutoff(batch, self.cutoff)
        ideal = np.array(_ideal(batch.topic, self.alpha, self.cutoff, FLOAT), dtype=float)
        ideal_dcg = float(ideal @ discounts(len(ideal))) if len(ideal) else 0.0
        if ideal_dcg == 0.0:
            return np.zeros(len(batch.lengths))
        gains = batch_novelty_gains(batch.gains[:, :k, :], float(self.alpha))
        return (gains @ discounts(k)) / ideal_dcg


register(AlphaDCG, AlphaNDCG)
