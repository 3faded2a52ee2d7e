"""Cases for the five relevance-oriented constraints (single aspect, relevance
contribution ``r <= rho``): Pri, Deep, Conf as hypothesis strategies and
exhaustive small scopes; DeepTh/CloseTh as the pair ``(a_n, b_n)``.

Cases are built so that the conditions hold by construction (no filtering),
which keeps shrinking effective: a failing Pri case shrinks to two or three
documents with values like ``1/10``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction

from hypothesis import strategies as st

from axiometer.generators.case import Case, Scope
from axiometer.core import Ranking, Topic
from axiometer.generators.building import doc_ids, levels, single_topic

__all__ = ["priority_cases", "priority_small_scope", "swap", "threshold_pair"]


def swap(docs: tuple[str, ...], i: int, j: int) -> Ranking:
    """``docs`` with 1-based positions ``i`` and ``j`` exchanged."""
    swapped = list(docs)
    swapped[i - 1], swapped[j - 1] = swapped[j - 1], swapped[i - 1]
    return Ranking(swapped)


def _priority_case(values: list[Fraction], i: int, j: int) -> Case:
    docs = doc_ids(len(values))
    topic = single_topic(dict(zip(docs, values)))
    return Case(topic, Ranking(docs), swap(docs, i, j), (i, j),
                f"b = a with positions {i} and {j} swapped (r(d{j}) > r(d{i}))")


@st.composite
def priority_cases(draw: st.DrawFn, scope: Scope) -> Case:
    """Pri: ``a`` any ranking, ``r(d_{i+k}) > r(d_i)``, ``b`` swaps positions ``i`` and ``i+k``."""
    n = draw(st.integers(2, max(2, scope.max_docs)))
    last = scope.last_position(n)
    if last < 2:
        return draw(st.nothing())
    i = draw(st.integers(1, last - 1))
    j = draw(st.integers(i + 1, last))
    grades = levels(scope.rho)
    values = [draw(st.sampled_from(grades)) for _ in range(n)]
    low = draw(st.sampled_from(grades[:1] + grades[2:]))  # anything but the top level
    values[i - 1] = low
    values[j - 1] = draw(st.sampled_from([g for g in grades if g > low]))
    if scope.later_untouched:
        values[j:] = [Fraction(0)] * (n - j)
    return _priority_case(values, i, j)


def priority_small_scope(scope: Scope, max_docs: int = 4) -> Iterator[Case]:
    """Every Pri case with up to ``max_docs`` documents over ``{0, rho/2, rho}``."""
    grades = (Fraction(0), scope.rho / 2, scope.rho)
    for n in range(2, max_docs + 1):
        last = scope.last_position(n)
        for values in itertools.product(grades, repeat=n):
            for i in range(1, last):
                for j in range(i + 1, last + 1):
                    if values[j - 1] > values[i - 1] and not (
                            scope.later_untouched and any(values[j:])):
                        yield _priority_case(list(values), i, j)


def threshold_pair(n: int, rc: Fraction) -> tuple[Topic, Ranking, Ranking]:
    """DeepTh/CloseTh: ``a_n`` = one relevant then ``2n-1`` non-relevant; ``b_n`` = ``n``
    non-relevant then ``n`` relevant; the topic has ``n`` relevant documents of value ``rc``."""
    relevant = doc_ids(n, "r")
    nonrelevant = doc_ids(2 * n - 1, "n")
    topic = single_topic({d: rc for d in relevant})
    a = Ranking((relevant[0], *nonrelevant))
    b = Ranking((*nonrelevant[:n], *relevant))
    return topic, a, b
