"""A hand-computable fixture for the cumulated-gain ratios (SR, MSR, wRprec, AWP): two graded
documents and one non-relevant, four rankings, checked exactly and on the batched path."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch

# Ideal gains 1, 1/2 (cg* = 1, 3/2, 3/2, ...); R = 2.
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "n": 0})
RANKINGS = [["b", "n", "a"], ["a", "b"], ["n"], []]


def check(metric: Any, want: list) -> None:
    """``metric`` gives ``want`` on :data:`RANKINGS`: exactly, and batched to 1e-15."""
    assert [metric.exact(r, TOPIC) for r in RANKINGS] == want
    batch = RankingBatch.from_rankings(RANKINGS, TOPIC)
    assert metric.score_batch(batch).tolist() == pytest.approx([float(w) for w in want], abs=1e-15)
