"""nDCG@10 over plain dicts: the standard metric, as a metric author ships it beside their own.

The paper reports ``graded_precision``'s numbers next to nDCG@10, computed by
this function rather than a dependency: per query, ``grades`` (document ->
grade, the judgments) and ``scores`` (document -> score, the run), the shape
``axiometer agree`` and the ``axiometer_agree`` fixture call a function with.

    nDCG@10 = DCG@10 / ideal DCG@10,  DCG@10 = sum_{i <= 10} gain(d_i) / log2(i + 1)

with gain = the grade and the ideal ranking made of every judged document
(trec_eval's ``ndcg_cut_10``); 0 for a query with no relevant document. The
top 10 come from ``heapq.nlargest`` instead of a full sort: fast on long runs,
and it keeps documents with equal scores in the run's order, where trec_eval
breaks such ties by document id. That is a convention, not a bug, and the test
states it (``ties=input``).
"""

from __future__ import annotations

import heapq
import math

K = 10
_DISCOUNTS = [1 / math.log2(i + 2) for i in range(K)]


def ndcg_at_10(grades: dict[str, int], scores: dict[str, float]) -> float:
    """nDCG@10 of one query (see the module docstring)."""
    top = heapq.nlargest(K, scores, key=scores.__getitem__)
    dcg = sum(max(grades.get(doc, 0), 0) * w for doc, w in zip(top, _DISCOUNTS))
    best = heapq.nlargest(K, (grade for grade in grades.values() if grade > 0))
    ideal = sum(grade * w for grade, w in zip(best, _DISCOUNTS))
    return dcg / ideal if ideal else 0.0
