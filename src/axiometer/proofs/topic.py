"""A topic whose relevance values are real symbols: what a metric is handed while a proof runs.

A case *structure* (definitions §3, "proved") fixes which document is relevant
to which aspect; :class:`Symbols` makes one z3 real per relevant value, with
its box ``0 < r <= rho`` among the structure's base conditions, and
:func:`symbolic_topic` builds the :class:`~axiometer.core.Topic` that hands
them out: ``topic.r(d)``, ``topic.vector(d)`` and the built-ins' arithmetic
return :class:`~axiometer.proofs.reals.Real` values, a non-relevant document's
value is the plain number 0, and ``topic.R`` is the structure's count. The
single-aspect view ``max_t r(d, t)`` is z3's ``If`` (no branch). What needs
a concrete value (``float_r``, grades read from values, hashing the topic's
values) raises :class:`~axiometer.proofs.reals.NotSymbolic`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import z3

from axiometer.core import Number, Topic
from axiometer.proofs.reals import Interval, NotSymbolic, Real, lift

__all__ = ["Symbols", "SymbolicTopic", "symbolic_topic"]


class Symbols:
    """The real symbols of one case structure and their base conditions."""

    def __init__(self) -> None:
        self.symbols: dict[str, Any] = {}
        self.base: list[Any] = []

    def real(self, name: str, low: Fraction | None, high: Fraction | None, *, low_open: bool = True,
             high_open: bool = False) -> Real:
        """A new symbol ``name`` in ``(low, high]`` (the ends' openness as given)."""
        symbol = z3.Real(name)
        self.symbols[name] = symbol
        if low is not None:
            self.base.append(symbol > z3.RealVal(low) if low_open else symbol >= z3.RealVal(low))
        if high is not None:
            self.base.append(symbol < z3.RealVal(high) if high_open else symbol <= z3.RealVal(high))
        return Real(symbol, (None if low is None else (low, low_open),
                             None if high is None else (high, high_open)))

    def require(self, *conditions: Any) -> None:
        """Add conditions (z3 Booleans) the structure imposes, e.g. ``r_j > r_i``."""
        self.base.extend(conditions)

    def values(self, model: Any) -> dict[str, Fraction]:
        """The symbols' values in a z3 model, as exact rationals (irrational ones approximated)."""
        return {name: model_value(model, symbol) for name, symbol in self.symbols.items()}


def model_value(model: Any, symbol: Any) -> Fraction:
    """A symbol's value in a z3 model as a ``Fraction`` (an algebraic value to 40 decimal places)."""
    value = model.eval(symbol, model_completion=True)
    if z3.is_rational_value(value):
        return Fraction(value.numerator_as_long(), value.denominator_as_long())
    if z3.is_algebraic_value(value):
        return Fraction(value.as_decimal(40).rstrip("?"))
    raise NotSymbolic(f"z3 gave a value that is not a number: {value}")


def _maximum(values: Sequence[Any]) -> Any:
    """``max`` of non-negative values as one :class:`Real` (z3 ``If``), without branching."""
    reals = [lift(v) for v in values if not (not isinstance(v, Real) and v == 0)]
    if not reals:
        return 0
    best = reals[0]
    for value in reals[1:]:
        lows = [end for end in (best.box[0], value.box[0]) if end is not None]
        low = max(lows, key=lambda e: (e[0], e[1])) if lows else None
        high = (None if best.box[1] is None or value.box[1] is None
                else max(best.box[1], value.box[1], key=lambda e: (e[0], not e[1])))
        box: Interval = (low, high)
        best = Real(z3.If(value.expr > best.expr, value.expr, best.expr), box)
    return best


class SymbolicTopic(Topic):
    """A :class:`~axiometer.core.Topic` holding symbols (see the module docstring)."""

    def _key(self) -> tuple:
        raise NotSymbolic("the metric compares or hashes a whole topic")

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        # A result cached by topic (functools.lru_cache) would be reused on another path without
        # its decisions being taken again: unsound, so a metric that caches by topic is not symbolic.
        raise NotSymbolic("the metric caches a result by topic (a symbolic topic's results depend on the path)")

    def _float_views(self) -> Any:
        raise NotSymbolic("the metric reads relevance values as floats (float_r, float_vector)")

    def grade(self, doc: str) -> int:
        if self._grades is None:
            raise NotSymbolic("the metric reads integer grades derived from relevance values")
        return super().grade(doc)


def symbolic_topic(vectors: Mapping[str, tuple[Any, ...]], aspects: tuple[str, ...],
                   weights: tuple[Number | Real, ...], topic_id: str = "") -> SymbolicTopic:
    """A :class:`SymbolicTopic` from ``doc -> (r(d, t1), ...)`` whose entries are 0 or :class:`Real`."""
    topic = object.__new__(SymbolicTopic)
    single = {doc: vector[0] if len(aspects) == 1 else _maximum(vector) for doc, vector in vectors.items()}
    relevant = sum(1 for vector in vectors.values() if any(isinstance(v, Real) or v for v in vector))
    for name, value in (("topic_id", topic_id), ("aspects", aspects), ("weights", weights),
                        ("_aspect_index", {t: i for i, t in enumerate(aspects)}),
                        ("_vectors", dict(vectors)), ("_single", single), ("R", relevant),
                        ("_grades", None), ("_aspect_grades", None), ("_ordinal", None),
                        ("_floats", None), ("_hash", None)):
        object.__setattr__(topic, name, value)
    return topic
