"""The axioms, declared: the registry of every checkable constraint and property.

The ten constraints of Amigó, Spina & Carrillo-de-Albornoz (SIGIR 2018,
section 3), in the paper's order, are :data:`CONSTRAINTS` (one module each in
:mod:`axiometer.axioms.constraints`); the relative (novelty) properties of
definitions §6 are :data:`PROPERTIES` (one module each in
:mod:`axiometer.axioms.properties`). :func:`get` finds either by id. Both
kinds are oracles (:mod:`axiometer.axioms.oracle`), checked on a metric by
:func:`axiometer.checking.check`. :mod:`axiometer.axioms.published` holds the
published SIGIR 2018 table.

A constraint or property declared at module level in a new module of
:mod:`axiometer.axioms.constraints` or :mod:`axiometer.axioms.properties` is
found by :func:`get` and listed by :func:`oracles` without being added here
(``docs/contributing.md``); the two tuples keep the published tables' order.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from functools import cache

from axiometer.axioms.constraints.aspect_diversity import ASPECT_DIVERSITY
from axiometer.axioms.constraints.aspect_relevance import ASPECT_RELEVANCE
from axiometer.axioms.constraints.base import Constraint
from axiometer.axioms.constraints.closeness_threshold import CLOSENESS_THRESHOLD
from axiometer.axioms.constraints.confidence import CONFIDENCE
from axiometer.axioms.constraints.deepness import DEEPNESS
from axiometer.axioms.constraints.deepness_threshold import DEEPNESS_THRESHOLD
from axiometer.axioms.constraints.monotonic_redundancy import MONOTONIC_REDUNDANCY
from axiometer.axioms.constraints.priority import PRIORITY
from axiometer.axioms.constraints.redundancy import REDUNDANCY
from axiometer.axioms.constraints.saturation import SATURATION
from axiometer.axioms.properties.base import Property, register
from axiometer.axioms.properties.bounded import BOUNDED
from axiometer.axioms.properties.finite import FINITE
from axiometer.axioms.properties.prior_position import PRIOR_MONOTONICITY, PRIOR_SENSITIVITY
from axiometer.axioms.properties.rarity import RARITY
from axiometer.axioms.properties.reversion import REVERSION
from axiometer.axioms.properties.unique import UNIQUE

__all__ = ["CONSTRAINTS", "CONSTRAINT_IDS", "PROPERTIES", "PROPERTY_IDS", "get", "oracles", "suggest",
           "unknown", "Constraint", "Property"]

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

#: The relative (novelty) properties, in the order of definitions §6.
PROPERTIES: tuple[Property, ...] = tuple(register(p) for p in (
    REVERSION,
    RARITY,
    PRIOR_SENSITIVITY,
    PRIOR_MONOTONICITY,
    BOUNDED,
    UNIQUE,
    FINITE,
))

PROPERTY_IDS: tuple[str, ...] = tuple(p.id for p in PROPERTIES)


@cache
def oracles() -> tuple[Constraint | Property, ...]:
    """Every constraint and property: the ten, the seven, then any other declared at module level in
    :mod:`axiometer.axioms.constraints` or :mod:`axiometer.axioms.properties` (module name order)."""
    from axiometer.axioms import constraints, properties

    found: list[Constraint | Property] = [*CONSTRAINTS, *PROPERTIES]
    for package in (constraints, properties):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for value in vars(module).values():
                if isinstance(value, (Constraint, Property)) and not any(value is f for f in found):
                    found.append(register(value) if isinstance(value, Property) else value)
    return tuple(found)


def get(constraint_id: str) -> Constraint | Property:
    """The constraint or relative property with this id (``"Pri"``, ``"DeepTh"``, ``"PriorSens"``, ...)."""
    every = oracles()
    for constraint in every:
        if constraint.id.lower() == constraint_id.lower():
            return constraint
    raise KeyError(unknown(constraint_id))


def suggest(constraint_id: str) -> str | None:
    """The id an unknown one most likely means, case ignored (``Prio`` -> ``Pri``); ``None`` when
    none is close (:func:`difflib.get_close_matches`, as metric names get theirs)."""
    ids = {o.id.lower(): o.id for o in oracles()}
    close = difflib.get_close_matches(constraint_id.lower(), list(ids), n=1)
    return ids[close[0]] if close else None


def unknown(constraint_id: str, what: str = "constraint") -> str:
    """What an unknown id is told: ``unknown constraint 'Prio'; did you mean 'Pri'? known: ...``."""
    close = suggest(constraint_id)
    hint = f"did you mean {close!r}? " if close else ""
    return f"unknown {what} {constraint_id!r}; {hint}known: {', '.join(o.id for o in oracles())}"
