"""The arithmetic a built-in metric's formula runs in while a proof runs (definitions §3, "proved").

A built-in writes its formula once against an arithmetic ``A``
(:mod:`axiometer.metrics.arithmetic`). :data:`PROOF` is the one proofs use:
constants stay exact ``Fraction`` values, relevance values come from a
:class:`~axiometer.proofs.topic.SymbolicTopic` as
:class:`~axiometer.proofs.reals.Real` symbols, and a logarithm of a constant
(DCG's ``1 / log2(i + 1)``) is a new real ``log2(v)`` enclosed in a certified
rational interval (mpmath's interval arithmetic, 96 bits): a proof holds for
every value in the interval, so for the true one; a logarithm of a power of
two is the exact integer. A logarithm of a relevance value is not real
arithmetic: it raises :class:`~axiometer.proofs.reals.NotSymbolic`.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from typing import Any

import mpmath
import z3

from axiometer.core import Number, Topic, to_fraction
from axiometer.proofs.reals import NotSymbolic, Real, active_explorer

__all__ = ["ProofArithmetic", "PROOF", "log2_enclosure"]

_BITS = 96


def _fraction(value: Any) -> Fraction:
    mantissa, exponent = mpmath.mpf(value).man_exp
    return Fraction(mantissa) * Fraction(2) ** exponent


@lru_cache(maxsize=4096)
def log2_enclosure(value: Fraction) -> tuple[Fraction, Fraction]:
    """Rationals ``low < log2(value) < high`` (``low == high`` when ``value`` is a power of two)."""
    if value <= 0:
        raise NotSymbolic(f"log2 of {value}")
    numerator, denominator = value.numerator, value.denominator
    for exact in (numerator, denominator):
        if exact & (exact - 1):
            break
    else:  # a power of two
        power = Fraction(numerator.bit_length() - denominator.bit_length())
        return power, power
    with mpmath.workprec(_BITS):
        interval = mpmath.iv.log(mpmath.iv.mpf(numerator) / mpmath.iv.mpf(denominator)) / mpmath.iv.log(2)
        return _fraction(interval.a.a), _fraction(interval.b.b)


class ProofArithmetic:
    """Exact rationals with real symbols (see the module docstring)."""

    exact = True
    cacheable = False   # a symbolic topic's values depend on the path's decisions
    zero = Fraction(0)
    one = Fraction(1)

    @staticmethod
    def num(value: Number) -> Any:
        return value if isinstance(value, Real) else to_fraction(value)

    @staticmethod
    def exactly(value: Number) -> Any:
        """A relevance value read exactly: its symbol, or the constant as a ``Fraction``."""
        return value if isinstance(value, Real) else to_fraction(value)

    @staticmethod
    def vector(topic: Topic, doc: str) -> tuple[Any, ...]:
        return topic.vector(doc)

    @staticmethod
    def r(topic: Topic, doc: str) -> Any:
        return topic.r(doc)

    @staticmethod
    def vectors(topic: Topic, docs: Iterable[str]) -> list[tuple[Any, ...]]:
        return [topic.vector(doc) for doc in docs]

    @staticmethod
    def rs(topic: Topic, docs: Iterable[str]) -> list[Any]:
        return [topic.r(doc) for doc in docs]

    @staticmethod
    def weights(topic: Topic) -> tuple[Any, ...]:
        return tuple(w if isinstance(w, Real) else to_fraction(w) for w in topic.weights)

    @staticmethod
    def log2(value: Any) -> Any:
        if isinstance(value, Real):
            raise NotSymbolic("the metric takes the logarithm of a relevance value")
        exact = to_fraction(value)
        low, high = log2_enclosure(exact)
        if low == high:
            return low
        constant = z3.Real(f"log2({exact})")
        active_explorer().assume(z3.And(constant > z3.RealVal(low), constant < z3.RealVal(high)))
        return Real(constant, ((low, True), (high, True)))

    @staticmethod
    def ratio(numerator: Any, denominator: Any) -> Any:
        """``numerator / denominator``, 0 for a zero normaliser (definitions §2), on each path."""
        if not denominator:
            return Fraction(0)
        return numerator / denominator

    @staticmethod
    def result(value: Any) -> Any:
        return value


PROOF = ProofArithmetic()
