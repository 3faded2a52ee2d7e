"""Constraints as generative test oracles: one constraint per module.

The ten constraints of Amigó, Spina & Carrillo-de-Albornoz (SIGIR 2018,
section 3), in the paper's order, are :data:`CONSTRAINTS`; the relative
(novelty) properties of SPEC section 6 are :data:`PROPERTIES`. :func:`get`
finds either by id. :func:`axiometer.axioms.check.check` checks a constraint
on a metric, :func:`axiometer.axioms.properties.check_property` a property.
"""

from __future__ import annotations

from axiometer.axioms.aspect_diversity import ASPECT_DIVERSITY
from axiometer.axioms.aspect_relevance import ASPECT_RELEVANCE
from axiometer.axioms.base import Constraint
from axiometer.axioms.bounded import BOUNDED
from axiometer.axioms.closeness_threshold import CLOSENESS_THRESHOLD
from axiometer.axioms.confidence import CONFIDENCE
from axiometer.axioms.deepness import DEEPNESS
from axiometer.axioms.deepness_threshold import DEEPNESS_THRESHOLD
from axiometer.axioms.finite import FINITE
from axiometer.axioms.monotonic_redundancy import MONOTONIC_REDUNDANCY
from axiometer.axioms.prior_position import PRIOR_MONOTONICITY, PRIOR_SENSITIVITY
from axiometer.axioms.priority import PRIORITY
from axiometer.axioms.properties import Property
from axiometer.axioms.rarity import RARITY
from axiometer.axioms.redundancy import REDUNDANCY
from axiometer.axioms.reversion import REVERSION
from axiometer.axioms.saturation import SATURATION
from axiometer.axioms.unique import UNIQUE

__all__ = ["CONSTRAINTS", "CONSTRAINT_IDS", "PROPERTIES", "PROPERTY_IDS", "get", "Constraint",
           "Property"]

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

#: The relative (novelty) properties, SPEC section 6's order.
PROPERTIES: tuple[Property, ...] = (
    REVERSION,
    RARITY,
    PRIOR_SENSITIVITY,
    PRIOR_MONOTONICITY,
    BOUNDED,
    UNIQUE,
    FINITE,
)

PROPERTY_IDS: tuple[str, ...] = tuple(p.id for p in PROPERTIES)


def get(constraint_id: str) -> Constraint | Property:
    """The constraint or relative property with this id (``"Pri"``, ``"DeepTh"``, ``"PriorSens"``, ...)."""
    for constraint in (*CONSTRAINTS, *PROPERTIES):
        if constraint.id.lower() == constraint_id.lower():
            return constraint
    raise KeyError(f"unknown constraint {constraint_id!r}; known: "
                   f"{', '.join(CONSTRAINT_IDS + PROPERTY_IDS)}")
