"""The case structures of Pri, Deep and Conf (single aspect, relevance contribution ``r <= rho``).

Each function yields every structure of its constraint up to ``max_docs``
documents, shortest first, with the changed positions inside the window
``last`` (the metric's cutoff in window mode; ``None``: unbounded) — the same
cases as the generators of :mod:`axiometer.generators.relevance`, with every
relevance value a real symbol instead of a level from a list. A document is
relevant (a symbol in ``(0, rho]``) or not (0) in every combination the
constraint allows; the constraint's order conditions are the structure's
conditions. Source: Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, Eqs. 1, 2, 5.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction

from axiometer.core import Ranking
from axiometer.generators.building import doc_ids
from axiometer.generators.relevance import swap
from axiometer.proofs.structure import Structure, single_structure

__all__ = ["priority_structures", "deepness_structures", "confidence_structures"]


def _window(n: int, last: int | None) -> int:
    return n if last is None else min(n, last)


def _patterns(n: int, fixed: dict[int, bool]) -> Iterator[tuple[bool, ...]]:
    """Every relevant/non-relevant pattern of ``n`` documents with the 0-based positions in ``fixed`` set."""
    free = [k for k in range(n) if k not in fixed]
    for choice in itertools.product((False, True), repeat=len(free)):
        pattern = dict(fixed)
        pattern.update(zip(free, choice))
        yield tuple(pattern[k] for k in range(n))


def priority_structures(rho: Fraction, max_docs: int, last: int | None) -> Iterator[Structure]:
    """Pri: ``a = d1..dn``, ``r(dj) > r(di)`` (``i < j``), ``b`` swaps positions ``i`` and ``j``."""
    for n in range(2, max_docs + 1):
        docs = doc_ids(n)
        a = Ranking.trusted(docs)
        window = _window(n, last)
        for i in range(1, window):
            for j in range(i + 1, window + 1):
                for pattern in _patterns(n, {j - 1: True}):
                    def order(r: dict, i: int = i, j: int = j) -> list:
                        return [r[f"d{j}"] > r[f"d{i}"]]

                    yield single_structure(pattern, a, swap(docs, i, j), (i, j),
                                           f"b = a with positions {i} and {j} swapped (r(d{j}) > r(d{i}))",
                                           rho, order)


def deepness_structures(rho: Fraction, max_docs: int, last: int | None) -> Iterator[Structure]:
    """Deep: base ``d1..dn`` with ``r(di) = r(dj) < r(d(i+1)) = r(d(j+1))``, ``j >= i + 2``;
    ``b`` swaps ``(i, i+1)``, ``a`` swaps ``(j, j+1)``."""
    for n in range(4, max_docs + 1):
        docs = doc_ids(n)
        window = _window(n, last)
        for i in range(1, window - 2):
            for j in range(i + 2, window):
                for low_relevant in (False, True):
                    fixed = {i - 1: low_relevant, j - 1: low_relevant, i: True, j: True}
                    for pattern in _patterns(n, fixed):
                        def order(r: dict, i: int = i, j: int = j) -> list:
                            return [r[f"d{i}"] == r[f"d{j}"], r[f"d{i + 1}"] == r[f"d{j + 1}"],
                                    r[f"d{i + 1}"] > r[f"d{i}"]]

                        yield single_structure(
                            pattern, swap(docs, j, j + 1), swap(docs, i, i + 1), (i, i + 1, j, j + 1),
                            f"base ranking d1..d{n} with r(d{i}) = r(d{j}) < r(d{i + 1}) = r(d{j + 1}); "
                            f"b = base with positions {i} and {i + 1} swapped, "
                            f"a = base with positions {j} and {j + 1} swapped", rho, order)


def confidence_structures(rho: Fraction, max_docs: int, last: int | None) -> Iterator[Structure]:
    """Conf: ``a = d1..dn`` (``n >= 0``), ``b`` = ``a`` with the non-relevant ``d(n+1)`` appended."""
    for n in range(0, max_docs):
        if last is not None and n + 1 > last:
            return
        docs = doc_ids(n + 1)
        for pattern in _patterns(n, {}):
            yield single_structure(pattern + (False,), Ranking.trusted(docs[:n]), Ranking.trusted(docs),
                                   (n + 1,), f"b = a with the non-relevant d{n + 1} appended at position "
                                   f"{n + 1}", rho)
