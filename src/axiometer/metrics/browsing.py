"""Browsing models: a metric as gain, survival and normaliser (NRG paper, eq. 1).

Many metrics are a searcher browsing model (Clarke et al., "Evaluating
Relative Retrieval Effectiveness with Normalized Residual Gain", SIGIR-AP
2024, section 2, eq. 1)::

    S(R) = (1/N) sum_{i <= K} G(d_i) seen(i)

with ``G(d)`` the gain of observing ``d``, ``seen(i)`` the probability that
the searcher observes rank ``i`` (0 past the depth ``K``) and ``N`` a
normaliser. :class:`BrowsingModel` holds the three, written against an
arithmetic (:mod:`axiometer.metrics.arithmetic`) so that a metric built on it
(NRG) stays exact. ``N`` is either ``"ideal"`` (the raw score of the ideal
ranking, eq. 2) or a callable giving the constant factor ``1/N``.

A metric exposes its model with a ``browsing_model()`` method (nDCG, DCG,
RBP and P do; a metric author's metric may too). The instances:

=========  ============  ===========================  ===================
metric     ``G(d)``      ``seen(i)``                  ``N``
=========  ============  ===========================  ===================
nDCG@K     ``r(d)``      ``1/log2(i+1)``, ``i <= K``  ideal raw score
DCG@K      ``r(d)``      ``1/log2(i+1)``, ``i <= K``  1
RBP(p)@K   ``r(d)``      ``p^(i-1)``, ``i <= K``      ``1/(1-p)``
P@K        ``rel(d)``    ``1``, ``i <= K``            ``K``
=========  ============  ===========================  ===================

(no cutoff: ``K`` is infinite.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, Union, runtime_checkable

import numpy as np
import sympy

from axiometer.core import Topic
from axiometer.metrics.arithmetic import FLOAT, Arithmetic, Value

__all__ = [
    "BrowsingModel", "HasBrowsingModel", "relevance_gain", "binary_gain", "log_discount", "geometric", "flat",
    "LogDiscount", "Geometric", "Flat",
    "constant_factor", "order_key", "ORDER_DIGITS",
]

Gain = Callable[[str, Topic, Arithmetic], Any]
Seen = Callable[[int, Arithmetic], Any]
Normaliser = Union[str, Callable[[Arithmetic], Any]]

#: Significant digits at which exact values with logarithms are ordered (the ideal ranking).
ORDER_DIGITS = 50


def relevance_gain(doc: str, topic: Topic, A: Arithmetic) -> Value:
    """``G(d) = r(d)``, the single-aspect relevance (nDCG, DCG, RBP)."""
    return A.r(topic, doc)


def binary_gain(doc: str, topic: Topic, A: Arithmetic) -> Value:
    """``G(d) = rel(d) = [r(d) > 0]`` (P@K, unique contributions)."""
    return A.one if topic.rel(doc) else A.zero


@dataclass(frozen=True)
class LogDiscount:
    """``seen(i) = 1/log2(i+1)`` for ``i <= depth``, else 0 (nDCG/DCG): strictly decreasing and
    strictly convex in ``i`` (what the proofs' lemmas read, definitions §3)."""

    depth: int | None

    def __call__(self, i: int, A: Arithmetic) -> Value:
        if self.depth is not None and i > self.depth:
            return A.zero
        return A.one / A.log2(A.num(i + 1))


@dataclass(frozen=True)
class Geometric:
    """``seen(i) = p^(i-1)`` for ``i <= depth``, else 0 (RBP)."""

    p: Any
    depth: int | None

    def __call__(self, i: int, A: Arithmetic) -> Value:
        if self.depth is not None and i > self.depth:
            return A.zero
        return A.num(self.p) ** (i - 1)


@dataclass(frozen=True)
class Flat:
    """``seen(i) = 1`` for ``i <= depth``, else 0 (P@K, unique contributions)."""

    depth: int | None

    def __call__(self, i: int, A: Arithmetic) -> Value:
        return A.zero if self.depth is not None and i > self.depth else A.one


def log_discount(depth: int | None) -> Seen:
    """``seen(i) = 1/log2(i+1)`` for ``i <= depth``, else 0 (nDCG/DCG)."""
    return LogDiscount(depth)


def geometric(p: Any, depth: int | None) -> Seen:
    """``seen(i) = p^(i-1)`` for ``i <= depth``, else 0 (RBP)."""
    return Geometric(p, depth)


def flat(depth: int | None) -> Seen:
    """``seen(i) = 1`` for ``i <= depth``, else 0 (P@K, unique contributions)."""
    return Flat(depth)


def constant_factor(numerator: Any, denominator: Any = 1) -> Callable[[Arithmetic], Any]:
    """The normaliser ``1/N = numerator/denominator``, e.g. ``1 - p`` for RBP, ``1/K`` for P@K."""
    return lambda A: A.num(numerator) / A.num(denominator)


def order_key(value: Any) -> Any:
    """A sort key for an exact or float value.

    Floats and ``Fraction`` s are their own keys; a sympy value (logarithms)
    is ordered by its value at :data:`ORDER_DIGITS` significant digits, read
    as a ``Fraction``. Only the multiset of the K largest values matters to
    an ideal ranking, so equal values may come in either order.
    """
    if not isinstance(value, sympy.Basic):  # a float, a Fraction, or a proof's symbolic real
        return value
    expr = value
    if expr.is_Rational:
        return Fraction(int(expr.p), int(expr.q))
    return Fraction(str(sympy.N(expr, ORDER_DIGITS)))


@runtime_checkable
class HasBrowsingModel(Protocol):
    """A metric that exposes its browsing model (nDCG, DCG, RBP, P; a metric author's may too):
    what NRG builds on and what the proofs' weight lemma reads."""

    def browsing_model(self) -> "BrowsingModel": ...


@dataclass(frozen=True)
class BrowsingModel:
    """``S(R) = (1/N) sum_{i<=K} G(d_i) seen(i)`` (NRG paper, eq. 1).

    ``gain(d, topic, A)`` is ``G(d)``; ``seen(i, A)`` the survival at 1-based
    rank ``i`` (0 past ``depth``); ``depth`` is ``K`` (``None``: unbounded);
    ``normaliser`` is ``"ideal"`` (``N`` = the raw score of the ideal
    ranking: the given gains sorted decreasing, eq. 2) or a callable ``A ->
    1/N``. ``unit_range``: ``N`` is meant to map the score into ``[0, 1]``
    (true of nDCG, RBP, P; not of DCG, whose ``N`` is 1). ``graded``: ``G``
    distinguishes relevance grades.
    """

    name: str
    gain: Gain
    seen: Seen
    depth: int | None
    normaliser: Normaliser
    unit_range: bool = True
    graded: bool = True
    _seen_cache: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not (self.normaliser == "ideal" or callable(self.normaliser)):
            raise ValueError(f"{self.name}: normaliser must be 'ideal' or a callable, "
                             f"got {self.normaliser!r}")

    def window(self, ranking: Sequence[str]) -> Sequence[str]:
        """The ranks a searcher may observe: ``ranking[:K]``."""
        return ranking if self.depth is None else ranking[: self.depth]

    def raw(self, gains: Iterable[Any], A: Arithmetic) -> Value:
        """``sum_i g_i seen(i)`` over gains listed in rank order (from rank 1)."""
        total = A.zero
        for i, g in enumerate(gains, 1):
            if g:
                total = total + g * self.seen(i, A)
        return total

    def ideal(self, gains: Iterable[Any], A: Arithmetic) -> Value:
        """The raw score of the ideal ranking of ``gains``: sorted decreasing, depth K (eq. 2)."""
        ordered = sorted((g for g in gains if g), key=order_key, reverse=True)
        return self.raw(self.window(ordered), A)

    def normalise(self, raw: Any, ideal_gains: Callable[[], Iterable[Any]], A: Arithmetic) -> Value:
        """``raw / N``; ``ideal_gains()`` is only called for ``N = "ideal"``. An ideal 0 gives 0."""
        if self.normaliser == "ideal":
            return A.ratio(raw, self.ideal(ideal_gains(), A))
        return raw * self.normaliser(A)  # type: ignore[operator]

    def score(self, ranking: Sequence[str], topic: Topic, A: Arithmetic) -> Value:
        """Eq. 1 (with eq. 2's ideal over the topic's judged documents): the metric itself."""
        raw = self.raw((self.gain(d, topic, A) for d in self.window(ranking)), A)
        return self.normalise(raw, lambda: (self.gain(d, topic, A) for d in topic.documents), A)

    # -- float arrays, for vectorised paths ------------------------------------
    def seen_array(self, n: int) -> np.ndarray:
        """``seen(1..n)`` as float64 (cached)."""
        cached = self._seen_cache.get(n)
        if cached is None:
            cached = np.array([float(self.seen(i, FLOAT)) for i in range(1, n + 1)], dtype=np.float64)
            self._seen_cache[n] = cached
        return cached

    def gain_array(self, docs: Iterable[str], topic: Topic) -> np.ndarray:
        """``G(d)`` of each document, float64."""
        return np.array([float(self.gain(d, topic, FLOAT)) for d in docs], dtype=np.float64)

    def factor(self) -> float:
        """``1/N`` as a float (not for ``"ideal"``)."""
        return float(self.normaliser(FLOAT))  # type: ignore[operator]
