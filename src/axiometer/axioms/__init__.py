"""Constraints as generative test oracles: one constraint per module.

The ten constraints of Amigó, Spina & Carrillo-de-Albornoz (SIGIR 2018,
section 3), in the paper's order, are :data:`CONSTRAINTS`; :func:`get` finds
one by id. :func:`axiometer.axioms.check.check` checks one on a metric.
"""

from __future__ import annotations

from axiometer.axioms.aspect_diversity import ASPECT_DIVERSITY
from axiometer.axioms.aspect_relevance import ASPECT_RELEVANCE
from axiometer.axioms.base import Constraint
from axiometer.axioms.closeness_threshold import CLOSENESS_THRESHOLD
from axiometer.axioms.confidence import CONFIDENCE
from axiometer.axioms.deepness import DEEPNESS
from axiometer.axioms.deepness_threshold import DEEPNESS_THRESHOLD
from axiometer.axioms.monotonic_redundancy import MONOTONIC_REDUNDANCY
from axiometer.axioms.priority import PRIORITY
from axiometer.axioms.redundancy import REDUNDANCY
from axiometer.axioms.saturation import SATURATION

__all__ = ["CONSTRAINTS", "CONSTRAINT_IDS", "get", "Constraint"]

#: The constraints, in the paper's order.
CONSTRAINTS: tuple[Constraint, ...] = (
    PRIORITY,
    DEEPNESS,
    DEEPNESS_THRESHOLD,
    CLOSENESS_THRESHOLD,
    CONFIDENCE,
    ASPECT_DIVERSITY,
    REDUNDANCY,
    MONOTONIC_REDUNDANCY,
    SATURATION,
    ASPECT_RELEVANCE,
)

CONSTRAINT_IDS: tuple[str, ...] = tuple(c.id for c in CONSTRAINTS)


def get(constraint_id: str) -> Constraint:
    """The constraint with this id (``"Pri"``, ``"DeepTh"``, ...)."""
    for constraint in CONSTRAINTS:
        if constraint.id.lower() == constraint_id.lower():
            return constraint
    raise KeyError(f"unknown constraint {constraint_id!r}; known: {', '.join(CONSTRAINT_IDS)}")
