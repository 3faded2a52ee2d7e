"""Cooper's expected search length, ESL(s).

For a weak ordering (levels of tied documents) and a user who wants ``s``
relevant documents,

    ESL = j + i s' / (r + 1)

with ``j`` the non-relevant documents in the levels before the one where the
``s``-th relevant document is found, and ``r``, ``i`` the relevant and
non-relevant documents of that final level, ``s'`` the relevant documents
still wanted from it. Lower is better (it counts wasted effort).

Restriction: axiometer's rankings are strict orders, so every retrieved
document is a level of its own and ESL is the number of non-relevant
documents (``rel(d) = [r(d) > 0]``; unjudged documents count as
non-relevant) ranked above the ``s``-th relevant one. If the ranking holds
fewer than ``s`` relevant documents, the user goes on into the unretrieved
judged documents of the topic, taken as **one final weak level** (their order
is unknown): ``r`` = relevant documents not retrieved, ``i`` = judged
non-relevant documents not retrieved, ``j`` = every non-relevant document of
the ranking. A user cannot want more relevant documents than the topic has:
``s`` is capped at ``R``; ``R = 0`` gives 0.

Source: Cooper, "Expected search length: a single measure of retrieval
effectiveness based on the weak ordering action of retrieval systems",
American Documentation 19(1), 1968; formula as restated in definitions §4
(Giner's Table 3).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from axiometer.core import Context, Topic
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import (REL_PARAM, BuiltinMetric, Needs, Param, RankingBatch,
                                    batch_needs_level_one)
from axiometer.metrics.registry import register


class ExpectedSearchLength(BuiltinMetric):
    """ESL(s) = j + i s' / (r + 1): non-relevant documents examined before the s-th relevant one.

    On a strict ranking: the count of non-relevant documents above the
    ``s``-th relevant one; past the ranking's end the unretrieved judged
    documents form one weak level (``j`` non-relevant retrieved, ``r``/``i``
    relevant/judged non-relevant unretrieved, ``s'`` still wanted). ``s`` is
    capped at ``R``; 0 if R = 0. Lower is better. No cutoff.
    Source: Cooper 1968; definitions §4.
    """

    family = "ESL"
    title = "expected search length"
    param_info = (Param("s", int, 1, "relevant documents the user wants", low=1, grid=(1,)), REL_PARAM)
    cutoff_rule = "none"
    needs = Needs(aspects=False, graded=False)

    s: int
    rel: int

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        R = topic.count_at(self.rel)
        wanted = min(self.s, R)
        if wanted == 0:
            return A.zero
        found = nonrelevant = judged_nonrelevant = 0
        for d in ranking:
            if topic.relevant_at(d, self.rel):
                found += 1
                if found == wanted:
                    return A.num(nonrelevant)
            else:
                nonrelevant += 1
                judged_nonrelevant += topic.is_judged(d)
        level_relevant = R - found
        level_nonrelevant = (sum(1 for d in topic.documents if not topic.relevant_at(d, self.rel))
                             - judged_nonrelevant)
        return A.num(nonrelevant) + A.num(level_nonrelevant * (wanted - found)) / A.num(level_relevant + 1)

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        batch_needs_level_one(self)
        R = batch.topic.R
        wanted = min(self.s, R)
        n = len(batch.lengths)
        if wanted == 0:
            return np.zeros(n)
        valid = batch.positions_valid()
        relevant = batch.single > 0
        hits = np.cumsum(relevant, axis=1)
        if batch.depth:
            reached = hits[:, -1] >= wanted
            # position (0-based) of the wanted-th relevant document, where reached
            before = np.argmax(hits >= wanted, axis=1) + 1 - wanted
        else:
            reached, before = np.zeros(n, dtype=bool), np.zeros(n)
        found = relevant.sum(axis=1)
        nonrelevant = batch.lengths - found
        # Batches made by from_rankings/from_rows always know which documents are judged.
        assert batch.judged is not None, "ESL needs a batch that records judged documents"
        judged_nonrelevant = (batch.judged & ~relevant & valid).sum(axis=1)
        total_nonrelevant = int((batch.judged_single <= 0).sum())
        level = nonrelevant + (total_nonrelevant - judged_nonrelevant) * (wanted - found) / (R - found + 1)
        return np.where(reached, before, level).astype(np.float64)


register(ExpectedSearchLength)
