"""Metric implementations written the way people get them wrong, and one written right.

Each takes one query's ``grades`` (``doc -> grade``) and ``scores``
(``doc -> score``), ranks by score descending with ties broken by document id
descending (trec_eval's order), and returns a float.
"""

from __future__ import annotations

import math


def ranked(scores: dict[str, float]) -> list[str]:
    return [d for d, _ in sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)]


def ap_over_retrieved_relevant(grades: dict[str, int], scores: dict[str, float]) -> float:
    """AP divided by the relevant documents the run retrieved, not by all relevant documents."""
    hits, total = 0, 0.0
    for i, d in enumerate(ranked(scores), 1):
        if grades.get(d, 0) > 0:
            hits += 1
            total += hits / i
    return total / hits if hits else 0.0


def ndcg_ideal_from_run(grades: dict[str, int], scores: dict[str, float]) -> float:
    """nDCG whose ideal ranking is built from the run's documents, not from the judgments."""
    gains = [max(grades.get(d, 0), 0) for d in ranked(scores)]
    dcg = sum(g / math.log2(i + 1) for i, g in enumerate(gains, 1))
    ideal = sum(g / math.log2(i + 1) for i, g in enumerate(sorted(gains, reverse=True), 1))
    return dcg / ideal if ideal else 0.0


def rr_from_zero(grades: dict[str, int], scores: dict[str, float]) -> float:
    """Reciprocal rank counting positions from 0 (and so dividing by zero at rank 1)."""
    for i, d in enumerate(ranked(scores)):
        if grades.get(d, 0) > 0:
            return 1 / i
    return 0.0


def ndcg(grades: dict[str, int], scores: dict[str, float]) -> float:
    """nDCG as trec_eval computes it: gain = grade, log2(i + 1) discount, ideal from the judgments."""
    gains = [max(grades.get(d, 0), 0) for d in ranked(scores)]
    dcg = sum(g / math.log2(i + 1) for i, g in enumerate(gains, 1))
    best = sorted((max(g, 0) for g in grades.values()), reverse=True)
    ideal = sum(g / math.log2(i + 1) for i, g in enumerate(best, 1))
    return dcg / ideal if ideal else 0.0
