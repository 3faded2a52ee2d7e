"""A real number a metric computes with while a proof runs: a z3 expression and an enclosing interval.

:class:`Real` stands for a relevance value (or ``rc``, an aspect weight) and
for everything a metric computes from it. Arithmetic builds a z3 expression
over the real symbols of the case (exactly: a ``float`` constant is lifted as
the rational it is, ``0.1 -> 3602879701896397/36028797018963968``); a
comparison, ``bool()``, ``min``/``max`` and sorting ask the running
:class:`~axiometer.proofs.paths.Explorer` which way to go, so a metric's own
Python code is executed path by path (definitions §3, "proved").

Every value also carries an interval enclosing it for every value of the
symbols in their boxes (``0 < r <= rho``). A comparison the interval already
decides costs no solver call; the others are decided by z3 on the path's
condition. Anything that needs the number itself (``float()``, ``int()``,
``Fraction()``, ``math.log``, hashing, a C extension) raises
:class:`NotSymbolic`: the metric cannot run symbolically and keeps the
verdict of the search, with that reason.

Design (issue 26): CrossHair executes Python symbolically the same way —
proxies over z3 whose branches are explored by re-running the function with
a prefix of decisions — but it targets arbitrary Python values and gives up
on a path at a time limit; here only real numbers are symbolic, so every
branch is a condition of real arithmetic, which z3 decides completely
(nonlinear real arithmetic), and a proof needs every path decided.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Protocol

import z3

from axiometer.core import AxiometerError

__all__ = ["Real", "NotSymbolic", "Interval", "End", "point", "lift", "constant", "active_explorer", "exploring"]


class NotSymbolic(AxiometerError):
    """The metric needs a relevance value as a concrete number (``float()``, hashing, a C call)."""


#: An end of an interval: its value and whether it is excluded (``(0, True)``: "above 0").
End = tuple[Fraction, bool]
#: ``(low, high)``; ``None``: unbounded on that side.
Interval = tuple[End | None, End | None]

class Explorer(Protocol):
    """What a comparison asks (:class:`axiometer.proofs.paths.Explorer` answers)."""

    def decide(self, condition: Any) -> bool: ...

    def assume(self, condition: Any) -> None: ...


_EXPLORER: list[Explorer] = []   # the explorer of the path being run (a stack, innermost last)


def active_explorer() -> Explorer:
    """The explorer deciding the branches of the path being run."""
    if not _EXPLORER:
        raise NotSymbolic("a symbolic value was compared outside a proof")
    return _EXPLORER[-1]


class exploring:
    """``with exploring(explorer):`` — comparisons of :class:`Real` values ask ``explorer``."""

    def __init__(self, explorer: Explorer) -> None:
        self.explorer = explorer

    def __enter__(self) -> Explorer:
        _EXPLORER.append(self.explorer)
        return self.explorer

    def __exit__(self, *exc: object) -> None:
        _EXPLORER.pop()


def constant(value: Any) -> Fraction:
    """A plain number as the exact rational it is (``bool``, ``int``, ``Fraction``, ``float``)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, (bool, int)):
        return Fraction(int(value))
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise NotSymbolic(f"the metric computes a non-finite constant ({value})")
        return Fraction(value)
    numerator, denominator = getattr(value, "numerator", None), getattr(value, "denominator", None)
    if isinstance(numerator, int) and isinstance(denominator, int):   # numpy integers, sympy Rational
        return Fraction(numerator, denominator)
    raise NotSymbolic(f"the metric mixes a relevance value with a {type(value).__name__}")


def lift(value: Any) -> Real:
    """``value`` as a :class:`Real` (a constant becomes an exact rational with a point interval)."""
    if isinstance(value, Real):
        return value
    c = constant(value)
    return Real(z3.RealVal(c), point(c))


def point(value: Fraction) -> Interval:
    """The interval holding ``value`` alone."""
    return ((value, False), (value, False))


def _end_sum(x: End | None, y: End | None) -> End | None:
    return None if x is None or y is None else (x[0] + y[0], x[1] or y[1])


def _add(x: Interval, y: Interval) -> Interval:
    return (_end_sum(x[0], y[0]), _end_sum(x[1], y[1]))


def _neg(x: Interval) -> Interval:
    return (None if x[1] is None else (-x[1][0], x[1][1]), None if x[0] is None else (-x[0][0], x[0][1]))


def _end_product(x: End, y: End) -> End:
    exact_zero = (x[0] == 0 and not x[1]) or (y[0] == 0 and not y[1])
    return (x[0] * y[0], not exact_zero and (x[1] or y[1]))


def _mul(x: Interval, y: Interval) -> Interval:
    if x == point(Fraction(0)) or y == point(Fraction(0)):
        return point(Fraction(0))
    if None in x or None in y:
        return (None, None)
    products = [_end_product(a, b) for a in x for b in y]  # type: ignore[arg-type]
    low = min(products, key=lambda e: (e[0], e[1]))        # an open end is above a closed one
    high = max(products, key=lambda e: (e[0], not e[1]))
    return (low, high)


def _inverse(x: Interval) -> Interval:
    low, high = x
    if low is not None and (low[0] > 0 or (low[0] == 0 and low[1])):
        return (None if high is None else (1 / high[0], high[1]),
                None if low[0] == 0 else (1 / low[0], low[1]))
    if high is not None and (high[0] < 0 or (high[0] == 0 and high[1])):
        return (None if high[0] == 0 else (1 / high[0], high[1]),
                None if low is None else (1 / low[0], low[1]))
    return (None, None)


def _sign(x: Interval) -> tuple[bool, bool, bool]:
    """Which of ``< 0``, ``= 0``, ``> 0`` the interval allows."""
    low, high = x
    negative = low is None or low[0] < 0
    positive = high is None or high[0] > 0
    zero = ((low is None or low[0] < 0 or (low[0] == 0 and not low[1]))
            and (high is None or high[0] > 0 or (high[0] == 0 and not high[1])))
    return negative, zero, positive


_RELATIONS: dict[str, tuple[Callable[[Any, Any], Any], Callable[[bool, bool, bool], tuple[bool, bool]]]] = {
    # op: (the z3 condition, from the signs (neg, zero, pos) of x - y: can it be true, can it be false)
    "<": (lambda a, b: a < b, lambda n, z, p: (n, z or p)),
    "<=": (lambda a, b: a <= b, lambda n, z, p: (n or z, p)),
    ">": (lambda a, b: a > b, lambda n, z, p: (p, n or z)),
    ">=": (lambda a, b: a >= b, lambda n, z, p: (p or z, n)),
    "==": (lambda a, b: a == b, lambda n, z, p: (z, n or p)),
    "!=": (lambda a, b: a != b, lambda n, z, p: (n or p, z)),
}


_ZERO, _ONE = point(Fraction(0)), point(Fraction(1))


def _identical(x: Any, y: Any) -> bool:
    """Are two expressions equal as formulas (z3's simplifier reduces ``x - y`` to 0)? E.g. a metric's
    score and its browsing model's, built separately from the same terms."""
    difference = z3.simplify(x - y)
    return z3.is_rational_value(difference) and difference.as_fraction() == 0


class Real:
    """A real number computed from the case's symbols (see the module docstring)."""

    __slots__ = ("expr", "box")

    def __init__(self, expr: Any, box: Interval = (None, None)) -> None:
        self.expr = expr
        self.box = box

    # -- arithmetic ---------------------------------------------------------------
    def __add__(self, other: Any) -> Real:
        o = lift(other)
        if o.box == _ZERO:
            return self
        return Real(self.expr + o.expr, _add(self.box, o.box))

    def __radd__(self, other: Any) -> Real:
        return self.__add__(other)

    def __sub__(self, other: Any) -> Real:
        return self + (-lift(other))

    def __rsub__(self, other: Any) -> Real:
        return lift(other) + (-self)

    def __neg__(self) -> Real:
        return Real(-self.expr, _neg(self.box))

    def __pos__(self) -> Real:
        return self

    def __mul__(self, other: Any) -> Real:
        o = lift(other)
        if o.box == _ONE:
            return self
        if o.box == _ZERO:
            return o
        return Real(self.expr * o.expr, _mul(self.box, o.box))

    def __rmul__(self, other: Any) -> Real:
        return self.__mul__(other)

    def __truediv__(self, other: Any) -> Real:
        o = lift(other)
        if not o._nonzero():
            raise ZeroDivisionError("division by zero")
        low, high = o.box
        if low is not None and low == high:  # a constant: multiply by its exact reciprocal
            return self * (1 / low[0])
        # x / y is written x * (1/y), one form for every way a formula divides, so that equal
        # formulas built differently simplify to the same (a metric against its browsing model).
        inverse = Real(1 / o.expr, _inverse(o.box))
        return inverse if self.box == _ONE else self * inverse

    def __rtruediv__(self, other: Any) -> Real:
        return lift(other).__truediv__(self)

    def __pow__(self, exponent: Any) -> Real:
        if isinstance(exponent, Real) or int(exponent) != exponent:
            raise NotSymbolic("the metric raises a relevance value to a non-integer power")
        k = int(exponent)
        if k < 0:
            return 1 / (self ** -k)
        result = lift(1)
        for _ in range(k):
            result = result * self
        return result

    def __rpow__(self, base: Any) -> Real:
        raise NotSymbolic("the metric uses a relevance value as an exponent (e.g. 2**r)")

    def __abs__(self) -> Real:
        return self if self >= 0 else -self

    def _nonzero(self) -> bool:
        return bool(self != 0)

    # -- decisions ------------------------------------------------------------------
    def compare(self, other: Any, op: str) -> bool:
        """``self op other``, decided by the interval when it can, else by the running explorer."""
        o = lift(other)
        difference = _add(self.box, _neg(o.box))
        condition, possible = _RELATIONS[op]
        can_hold, can_fail = possible(*_sign(difference))
        if not can_fail:
            return True
        if not can_hold:
            return False
        if op in ("==", "!=") and _identical(self.expr, o.expr):
            return op == "=="
        return active_explorer().decide(condition(self.expr, o.expr))

    def __lt__(self, other: Any) -> bool:
        return self.compare(other, "<")

    def __le__(self, other: Any) -> bool:
        return self.compare(other, "<=")

    def __gt__(self, other: Any) -> bool:
        return self.compare(other, ">")

    def __ge__(self, other: Any) -> bool:
        return self.compare(other, ">=")

    def __eq__(self, other: object) -> bool:
        return self.compare(other, "==")

    def __ne__(self, other: object) -> bool:
        return self.compare(other, "!=")

    def __bool__(self) -> bool:
        return self.compare(0, "!=")

    # -- what needs a concrete number ---------------------------------------------------
    def _concrete(self, what: str) -> Any:
        raise NotSymbolic(f"the metric {what} a relevance value")

    def __float__(self) -> float:
        return self._concrete("converts with float()")

    def __int__(self) -> int:
        return self._concrete("converts with int()")

    def __index__(self) -> int:
        return self._concrete("uses as an index")

    def __round__(self, ndigits: Any = None) -> Any:
        return self._concrete("rounds")

    def __trunc__(self) -> Any:
        return self._concrete("truncates")

    def __floor__(self) -> Any:
        return self._concrete("floors")

    def __ceil__(self) -> Any:
        return self._concrete("rounds up")

    def __hash__(self) -> int:
        return self._concrete("hashes (uses as a dict key or in a set)")

    @property
    def numerator(self) -> Any:
        return self._concrete("reads the numerator of")

    @property
    def denominator(self) -> Any:
        return self._concrete("reads the denominator of")

    def __repr__(self) -> str:
        return f"Real({self.expr})"
