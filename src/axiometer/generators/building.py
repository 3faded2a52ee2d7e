"""Small building blocks for constraint cases: relevance levels, document ids, topics.

Strategies draw relevance from a short list of simple exact values
(``rho``, ``rho/2``, ``rho/5`` ...), listed so that hypothesis shrinks towards
the simplest (zero first, then ``rho``), and name documents ``d1, d2, ...`` in
the order of the base ranking, so that shrunk counterexamples read easily.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from fractions import Fraction

from hypothesis import strategies as st

from axiometer.core import SINGLE_ASPECT, Number, Ranking, Topic, cached

__all__ = ["levels", "positive_levels", "doc_ids", "single_topic", "relevance_lists"]


@functools.lru_cache(maxsize=64)
def positive_levels(rho: Fraction) -> tuple[Fraction, ...]:
    """Non-zero relevance values at most ``rho``, simplest first: ``rho, rho/2, rho/5, rho/10``."""
    return tuple(map(cached, (rho, rho / 2, rho / 5, rho / 10)))


@functools.lru_cache(maxsize=64)
def levels(rho: Fraction) -> tuple[Fraction, ...]:
    """Relevance values for graded cases: ``0`` then :func:`positive_levels`."""
    return (cached(0), *positive_levels(rho))


@functools.lru_cache(maxsize=1024)
def doc_ids(n: int, prefix: str = "d") -> tuple[str, ...]:
    """``d1 .. dn``."""
    return tuple(f"{prefix}{i}" for i in range(1, n + 1))


_SINGLE = (SINGLE_ASPECT,)
_WHOLE = (cached(1),)


def single_topic(relevance: Mapping[str, Number]) -> Topic:
    """A single-aspect topic judging exactly the given documents (values in [0, 1], as every
    generator builds them: :meth:`Topic.trusted`, no checks)."""
    return Topic.trusted({doc: (r,) for doc, r in relevance.items()}, _SINGLE, _WHOLE)


def ranking(docs: Sequence[str]) -> Ranking:
    return Ranking.trusted(docs)


def relevance_lists(values: Sequence[Fraction], min_size: int, max_size: int) -> st.SearchStrategy[list[Fraction]]:
    """Lists of relevance values drawn from ``values`` (shrinking towards the first)."""
    return st.lists(st.sampled_from(list(values)), min_size=min_size, max_size=max_size)
