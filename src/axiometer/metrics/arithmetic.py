"""Two arithmetics for one formula: float64 for speed, exact for verdicts.

Every built-in metric writes its formula once, against an arithmetic ``A``
(definitions §5):

- :data:`FLOAT` evaluates in float64;
- :data:`EXACT` evaluates with :class:`fractions.Fraction` and switches to
  sympy only where a logarithm appears (``A.log2``), so rational metrics stay
  ``Fraction`` and log-based ones become exact sympy expressions.

Inputs are read exactly with :func:`axiometer.core.to_fraction` (a float is
its shortest decimal: ``0.8 -> 4/5``).

A formula is typed against :class:`Arithmetic`, the protocol both satisfy (and
:class:`SymbolicArithmetic` too): its values are :data:`Value`, a float, a
``Fraction`` or a sympy expression, so one formula type-checks for every arithmetic.
"""

from __future__ import annotations

import math
from fractions import Fraction
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, Union

import sympy

from axiometer.core import Number, Topic, to_fraction

ExactValue = Union[Fraction, sympy.Expr]

#: A number in one of the arithmetics: float64 (:data:`FLOAT`), a ``Fraction`` or a sympy
#: expression (:data:`EXACT`, :data:`SYMBOLIC`). Untyped, sympy's part is ``Any`` to mypy.
Value = Union[float, Fraction, sympy.Expr]


class Arithmetic(Protocol):
    """What a formula written once uses of its arithmetic ``A`` (:data:`FLOAT`, :data:`EXACT`)."""

    @property
    def exact(self) -> bool: ...

    @property
    def cacheable(self) -> bool:
        """Whether a value computed from a topic may be cached by the topic (not in a proof: there
        the topic's values are symbols and what a formula computes depends on the path's decisions)."""
        ...

    @property
    def zero(self) -> Value: ...

    @property
    def one(self) -> Value: ...

    def num(self, value: Number) -> Value: ...

    def exactly(self, value: Number) -> Any: ...

    def vector(self, topic: Topic, doc: str) -> tuple[Value, ...]: ...

    def r(self, topic: Topic, doc: str) -> Value: ...

    def vectors(self, topic: Topic, docs: Iterable[str]) -> Sequence[tuple[Value, ...]]: ...

    def rs(self, topic: Topic, docs: Iterable[str]) -> Sequence[Value]: ...

    def weights(self, topic: Topic) -> tuple[Value, ...]: ...

    def log2(self, value: Value) -> Value: ...

    def ratio(self, numerator: Value, denominator: Value) -> Value: ...

    def result(self, value: Value) -> Value: ...


class FloatArithmetic:
    """float64 arithmetic."""

    exact = False
    cacheable = True
    zero = 0.0
    one = 1.0

    @staticmethod
    def num(value: Number) -> float:
        return float(value)

    @staticmethod
    def exactly(value: Number) -> Fraction:
        """A relevance value read exactly, for a comparison that decides a branch whatever the
        arithmetic (CT's saturation): a ``Fraction`` here; a proof's symbol in a proof."""
        return to_fraction(value)

    @staticmethod
    def vector(topic: Topic, doc: str) -> tuple[float, ...]:
        """``(r(d, t1), ..., r(d, tm))`` as floats (the topic's cached float view)."""
        return topic.float_vector(doc)

    @staticmethod
    def r(topic: Topic, doc: str) -> float:
        """``r(d)`` (single view) as a float (the topic's cached float view)."""
        return topic.float_r(doc)

    @staticmethod
    def vectors(topic: Topic, docs: Iterable[str]) -> list[tuple[float, ...]]:
        """:meth:`vector` of each document of ``docs``."""
        return topic.float_vectors(docs)

    @staticmethod
    def rs(topic: Topic, docs: Iterable[str]) -> list[float]:
        """:meth:`r` of each document of ``docs``."""
        return topic.float_rs(docs)

    @staticmethod
    def weights(topic: Topic) -> tuple[float, ...]:
        """The topic's aspect weights as floats (cached per topic)."""
        return topic.float_weights

    @staticmethod
    def log2(value: Any) -> float:
        return math.log2(value)

    @staticmethod
    def ratio(numerator: Any, denominator: Any) -> Any:
        """``numerator / denominator``, or 0 when the normaliser is 0 (definitions §2)."""
        return numerator / denominator if denominator else 0.0

    @staticmethod
    def result(value: Any) -> float:
        return float(value)


class ExactArithmetic:
    """Rational arithmetic, with sympy for logarithms."""

    exact = True
    cacheable = True
    zero = Fraction(0)
    one = Fraction(1)

    @staticmethod
    def num(value: Number) -> Fraction:
        return to_fraction(value)

    @staticmethod
    def exactly(value: Number) -> Fraction:
        """A relevance value read exactly (see :meth:`FloatArithmetic.exactly`)."""
        return to_fraction(value)

    @staticmethod
    def vector(topic: Topic, doc: str) -> tuple[Fraction, ...]:
        """``(r(d, t1), ..., r(d, tm))`` as exact fractions."""
        return tuple(map(to_fraction, topic.vector(doc)))

    @staticmethod
    def r(topic: Topic, doc: str) -> Fraction:
        """``r(d)`` (single view) as an exact fraction."""
        return to_fraction(topic.r(doc))

    @staticmethod
    def vectors(topic: Topic, docs: Iterable[str]) -> list[tuple[Fraction, ...]]:
        """:meth:`vector` of each document of ``docs``."""
        return [tuple(map(to_fraction, topic.vector(doc))) for doc in docs]

    @staticmethod
    def rs(topic: Topic, docs: Iterable[str]) -> list[Fraction]:
        """:meth:`r` of each document of ``docs``."""
        return [to_fraction(topic.r(doc)) for doc in docs]

    @staticmethod
    def weights(topic: Topic) -> tuple[Fraction, ...]:
        """The topic's aspect weights as exact fractions."""
        return tuple(map(to_fraction, topic.weights))

    @staticmethod
    def log2(value: Any) -> sympy.Expr:
        if isinstance(value, (int, Fraction)):
            value = sympy.Rational(value.numerator, value.denominator)
        return sympy.log(value, 2)

    @staticmethod
    def ratio(numerator: Any, denominator: Any) -> Any:
        if denominator == 0:
            return Fraction(0)
        if isinstance(numerator, Fraction) and isinstance(denominator, Fraction):
            return numerator / denominator
        return sympy.sympify(numerator) / sympy.sympify(denominator)

    @staticmethod
    def result(value: Any) -> ExactValue:
        """A ``Fraction`` when the value is rational, else the sympy expression."""
        if isinstance(value, Fraction):
            return value
        if isinstance(value, int):
            return Fraction(value)
        value = sympy.sympify(value)
        if value.is_Rational:
            return Fraction(int(value.p), int(value.q))
        return value


FLOAT = FloatArithmetic()
EXACT = ExactArithmetic()


def exact_to_float(value: ExactValue, digits: int = 30) -> float:
    """The float nearest an exact value (sympy values evaluated to ``digits`` digits)."""
    if isinstance(value, (Fraction, int)):
        return float(value)
    return float(sympy.N(value, digits))


class SymbolicArithmetic:
    """Sympy arithmetic in which a parameter may be a symbol (definitions §4 and §3, boundaries).

    ``num`` passes sympy objects through unchanged and reads every other
    number exactly (``0.8 -> 4/5`` as a ``sympy.Rational``), so a built-in's
    ``compute(ranking, topic, A)`` on a copy of the metric whose parameter
    attribute is a ``sympy.Symbol`` (see
    :func:`axiometer.metrics.symbolic.symbolic_score`) yields the score as a
    sympy expression in that symbol: a polynomial in ``p`` for RBP. ``ratio``
    returns 0 only for a denominator that is identically zero; a symbolic
    denominator is taken as non-zero (the analyses discard its poles).

    ``anchors`` map symbols to values at which a formula's *decisions* are
    taken (:meth:`anchored`): alpha-nDCG's greedy ideal ranking picks its
    documents in the order they have at the anchor, and the gains of that
    order are then symbolic. The expression is exact on the interval around
    the anchor where the order does not change.
    """

    exact = True
    cacheable = True
    zero = sympy.Integer(0)
    one = sympy.Integer(1)

    def __init__(self, anchors: dict[Any, Any] | None = None) -> None:
        self.anchors = {symbol: to_fraction(value) for symbol, value in (anchors or {}).items()}

    @staticmethod
    def num(value: Any) -> sympy.Expr:
        if isinstance(value, sympy.Basic):
            return value
        fraction = to_fraction(value)
        return sympy.Rational(fraction.numerator, fraction.denominator)

    @staticmethod
    def exactly(value: Number) -> Fraction:
        """A relevance value read exactly (see :meth:`FloatArithmetic.exactly`; relevance values
        are numbers here, only a parameter is a symbol)."""
        return to_fraction(value)

    @staticmethod
    def vector(topic: Topic, doc: str) -> tuple[sympy.Expr, ...]:
        """``(r(d, t1), ..., r(d, tm))`` as sympy rationals."""
        return tuple(map(SymbolicArithmetic.num, topic.vector(doc)))

    @staticmethod
    def r(topic: Topic, doc: str) -> sympy.Expr:
        """``r(d)`` (single view) as a sympy rational."""
        return SymbolicArithmetic.num(topic.r(doc))

    @staticmethod
    def vectors(topic: Topic, docs: Iterable[str]) -> list[tuple[sympy.Expr, ...]]:
        """:meth:`vector` of each document of ``docs``."""
        return [SymbolicArithmetic.vector(topic, doc) for doc in docs]

    @staticmethod
    def rs(topic: Topic, docs: Iterable[str]) -> list[sympy.Expr]:
        """:meth:`r` of each document of ``docs``."""
        return [SymbolicArithmetic.r(topic, doc) for doc in docs]

    @staticmethod
    def weights(topic: Topic) -> tuple[sympy.Expr, ...]:
        """The topic's aspect weights as sympy rationals."""
        return tuple(map(SymbolicArithmetic.num, topic.weights))

    @staticmethod
    def log2(value: Any) -> sympy.Expr:
        return sympy.log(SymbolicArithmetic.num(value), 2)

    @staticmethod
    def ratio(numerator: Any, denominator: Any) -> Any:
        denominator = SymbolicArithmetic.num(denominator)
        if denominator.is_zero is True:
            return sympy.Integer(0)
        return SymbolicArithmetic.num(numerator) / denominator

    @staticmethod
    def result(value: Any) -> sympy.Expr:
        return sympy.sympify(value)

    def anchored(self, value: Any) -> Fraction:
        """``value`` (possibly an expression in the symbols) at the anchors, exactly.

        Raises ``ValueError`` when a symbol it contains has no anchor: the
        formula branches on the parameter and no value to branch at was given.
        """
        if not isinstance(value, sympy.Basic):
            return to_fraction(value)
        missing = value.free_symbols - set(self.anchors)
        if missing:
            raise ValueError(f"the formula branches on {', '.join(sorted(map(str, missing)))}, "
                             "which has no anchor value")
        exact = value.subs({s: sympy.Rational(v.numerator, v.denominator)
                            for s, v in self.anchors.items()})
        if not exact.is_Rational:
            raise ValueError(f"{value} is not rational at the anchors")
        return Fraction(int(exact.p), int(exact.q))


SYMBOLIC = SymbolicArithmetic()
