"""Position-discounted graded precision: a new metric, as a researcher might propose it.

    DGP@k = (1/k) * sum_{i <= k} r(d_i) * (k - i + 1) / k

Graded precision at ``k`` where position ``i`` counts with a linear weight,
from 1 at the top down to ``1/k`` at position ``k``. ``r(d)`` is the
document's relevance in [0, 1] (axiometer's ``topic.r(d)``: the maximum over
the topic's aspects).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def discounted_graded_precision(ranking: Sequence[str], topic: Any, k: int = 10) -> float:
    """DGP@k of ``ranking`` (document ids, best first) for ``topic`` (anything with ``r(doc)``)."""
    return sum(topic.r(doc) * (k - i) / k for i, doc in enumerate(ranking[:k])) / k
