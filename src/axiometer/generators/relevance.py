"""Cases for the five relevance-oriented constraints (single aspect, relevance
contribution ``r <= rho``): Pri, Deep, Conf as hypothesis strategies and
exhaustive small scopes; DeepTh/CloseTh as the pair ``(a_n, b_n)``.

Source: Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, section 3.2,
Eqs. 1-5 (restated in definitions §3).

Cases are built so that the conditions hold by construction (no filtering),
which keeps shrinking effective: a failing Pri case shrinks to two or three
documents with values like ``1/10``, a failing Deep case to four, a failing
Conf case to an empty ranking and one appended document. Documents are named
``d1, d2, ...`` in the order of the (base) ranking.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction

from axiometer.generators.case import Case, Scope, ScopeItem, layered
from axiometer.generators.draw import Draw, case_strategy
from axiometer.core import Number, Ranking, Topic, cached
from axiometer.generators.building import doc_ids, levels, positive_levels, single_topic

__all__ = ["priority_cases", "priority_small_scope", "deepness_cases", "deepness_small_scope",
           "confidence_cases", "confidence_small_scope", "swap", "threshold_pair",
           "small_scope_levels"]


_ZERO = cached(0)

def small_scope_levels(rho: Fraction, rich: bool = False) -> tuple[Fraction, ...]:
    """The relevance values the exhaustive small scopes enumerate, simplest first
    (as :func:`~axiometer.generators.building.levels`): ``0, rho, rho/2``, and
    with ``rich`` also ``rho/5``.

    The small scopes use the rich levels for all but their longest rankings:
    a ratio of 5 between two relevance values is what exposes the redundancy
    discount of NRBP and CT on three documents (``r = (0, rho, rho/5)``,
    swap 1 and 3), which ``{rho/2, rho}`` alone does not, while four levels on
    the longest rankings would multiply the scope past its budget.
    """
    levels: tuple[Number, ...] = (0, rho, rho / 2, rho / 5) if rich else (0, rho, rho / 2)
    return tuple(map(cached, levels))


def swap(docs: tuple[str, ...], i: int, j: int) -> Ranking:
    """``docs`` with 1-based positions ``i`` and ``j`` exchanged."""
    swapped = list(docs)
    swapped[i - 1], swapped[j - 1] = swapped[j - 1], swapped[i - 1]
    return Ranking.trusted(swapped)


def _low_high(draw: Draw, rho: Fraction) -> tuple[Fraction, Fraction]:
    """Two relevance levels ``low < high``, shrinking to ``(0, rho)``.

    Both are drawn from lists of fixed length (``low`` from the levels below
    ``rho``, ``high`` from the positive levels) and a ``high`` not above
    ``low`` becomes ``rho``. Drawing ``high`` from "the levels above ``low``"
    would make the choice count depend on ``low``, and hypothesis, which
    prefers fewer choices, would then shrink to ``(rho/2, rho)`` instead.
    """
    low = draw.choice(levels(rho)[:1] + positive_levels(rho)[1:])
    high = draw.choice(positive_levels(rho))
    return low, (high if high > low else rho)


def _priority_case(values: list[Fraction], i: int, j: int) -> Case:
    docs = doc_ids(len(values))
    topic = single_topic(dict(zip(docs, values)))
    return Case(topic, Ranking.trusted(docs), swap(docs, i, j), (i, j),
                f"b = a with positions {i} and {j} swapped (r(d{j}) > r(d{i}))")


@case_strategy
def priority_cases(draw: Draw, scope: Scope) -> Case:
    """Pri: ``a`` any ranking, ``r(d_{i+k}) > r(d_i)``, ``b`` swaps positions ``i`` and ``i+k``."""
    n = draw.integer(2, max(2, scope.max_docs))
    last = scope.last_position(n)
    if last < 2:
        draw.reject()
    i = draw.integer(1, last - 1)
    j = draw.integer(i + 1, last)
    grades = levels(scope.rho)
    values = [draw.choice(grades) for _ in range(n)]
    values[i - 1], values[j - 1] = _low_high(draw, scope.rho)
    if scope.later_untouched:
        values[j:] = [_ZERO] * (n - j)
    if scope.between_untouched:
        values[i:j - 1] = [_ZERO] * (j - 1 - i)
    return _priority_case(values, i, j)


def priority_small_scope(scope: Scope, max_docs: int = 4) -> Iterator[ScopeItem]:
    """Every Pri case with up to ``max_docs`` documents: over ``{0, rho, rho/2, rho/5}``
    below ``max_docs`` documents, over ``{0, rho, rho/2}`` at ``max_docs``; shortest first,
    a :class:`ScopeMark` after each length. With ``scope.grow``, longer rankings over
    ``{0, rho, rho/2}`` follow."""
    def layer(n: int) -> Iterator[Case]:
        grades = small_scope_levels(scope.rho, rich=n < max_docs)
        last = scope.last_position(n)
        for values in itertools.product(grades, repeat=n):
            for i in range(1, last):
                for j in range(i + 1, last + 1):
                    if values[j - 1] > values[i - 1] and not (
                            scope.later_untouched and any(values[j:])) and not (
                            scope.between_untouched and any(values[i:j - 1])):
                        yield _priority_case(list(values), i, j)

    return layered(layer, 2, max_docs, scope)


def _deepness_case(values: list[Fraction], i: int, j: int) -> Case:
    docs = doc_ids(len(values))
    topic = single_topic(dict(zip(docs, values)))
    return Case(topic, swap(docs, j, j + 1), swap(docs, i, i + 1), (i, i + 1, j, j + 1),
                f"base ranking d1..d{len(docs)} with r(d{i}) = r(d{j}) < r(d{i + 1}) = r(d{j + 1}); "
                f"b = base with positions {i} and {i + 1} swapped, "
                f"a = base with positions {j} and {j + 1} swapped")


#: Deep needs four distinct positions ``i, i+1, j, j+1`` with ``j >= i+2``.
_DEEP_MIN_DOCS = 4


@case_strategy
def deepness_cases(draw: Draw, scope: Scope) -> Case:
    """Deep (Eq. 2): a base ranking with ``r(d_i) = r(d_j) < r(d_{i+1}) = r(d_{j+1})``,
    ``j >= i+2``; ``b`` swaps ``(i, i+1)``, ``a`` swaps ``(j, j+1)``.

    Every position up to ``j+1`` is inside the scope's window; documents other
    than the four swapped ones take any level (after ``j+1`` none are relevant
    when ``scope.later_untouched``). Shrinks towards ``r = (0, rho, 0, rho)``.
    """
    if scope.last_position(max(_DEEP_MIN_DOCS, scope.max_docs)) < _DEEP_MIN_DOCS:
        draw.reject()  # the window is too short for two disjoint swaps
    n = draw.integer(_DEEP_MIN_DOCS, max(_DEEP_MIN_DOCS, scope.max_docs))
    last = scope.last_position(n)
    i = draw.integer(1, last - 3)
    j = draw.integer(i + 2, last - 1)
    grades = levels(scope.rho)
    values = [draw.choice(grades) for _ in range(n)]
    low, high = _low_high(draw, scope.rho)
    values[i - 1] = values[j - 1] = low
    values[i] = values[j] = high
    if scope.later_untouched:
        values[j + 1:] = [_ZERO] * (n - j - 1)
    return _deepness_case(values, i, j)


def deepness_small_scope(scope: Scope, max_docs: int = 6) -> Iterator[ScopeItem]:
    """Every Deep case with ``4 .. max_docs`` documents: over ``{0, rho, rho/2, rho/5}``
    below ``max_docs`` documents, over ``{0, rho, rho/2}`` at ``max_docs``; shortest first,
    a :class:`ScopeMark` after each length. With ``scope.grow``, longer rankings over
    ``{0, rho, rho/2}`` follow."""
    def layer(n: int) -> Iterator[Case]:
        grades = small_scope_levels(scope.rho, rich=n < max_docs)
        pairs = [(low, high) for low in grades for high in grades if low < high]
        last = scope.last_position(n)
        for i in range(1, last - 2):
            for j in range(i + 2, last):
                others = [m for m in range(n) if m not in (i - 1, i, j - 1, j)]
                for low, high in pairs:
                    for rest in itertools.product(grades, repeat=len(others)):
                        values: list[Fraction] = [_ZERO] * n
                        for m, value in zip(others, rest):
                            values[m] = value
                        values[i - 1] = values[j - 1] = low
                        values[i] = values[j] = high
                        if scope.later_untouched and any(values[j + 1:]):
                            continue
                        yield _deepness_case(values, i, j)

    return layered(layer, _DEEP_MIN_DOCS, max_docs, scope)


def _confidence_case(values: list[Fraction]) -> Case:
    n = len(values)
    docs = doc_ids(n + 1)
    topic = single_topic({**dict(zip(docs, values)), docs[n]: _ZERO})
    return Case(topic, Ranking.trusted(docs[:n]), Ranking.trusted(docs), (n + 1,),
                f"b = a with the non-relevant d{n + 1} appended at position {n + 1}")


@case_strategy
def confidence_cases(draw: Draw, scope: Scope) -> Case:
    """Conf (Eq. 5): ``a`` any ranking, ``b`` = ``a`` + one non-relevant document.

    ``a`` may be empty: Eq. 5 quantifies over every ranking, and "return
    nothing" versus "return one non-relevant document" is the plainest
    instance of the confidence a system shows by stopping (an empty ranking
    scores 0, definitions §2). The appended document is judged, with
    ``r = 0``: the constraint speaks of a known non-relevant document, not
    of an unjudged one. Its position ``len(a)+1`` is inside the window and
    ``b`` has at most ``scope.max_docs`` documents.
    """
    longest = scope.last_position(max(1, scope.max_docs)) - 1
    grades = levels(scope.rho)
    values = draw.sized(0, longest, lambda: draw.choice(grades))
    return _confidence_case(values)


def confidence_small_scope(scope: Scope, max_docs: int = 3) -> Iterator[ScopeItem]:
    """Every Conf case whose ``a`` has ``0 .. max_docs`` documents over ``{0, rho, rho/2, rho/5}``;
    shortest first, a :class:`ScopeMark` after each length (of ``b``: ``len(a) + 1``). With
    ``scope.grow``, longer ``a`` follow (the appended position stays inside the window)."""
    grades = small_scope_levels(scope.rho, rich=True)

    def layer(n: int) -> Iterator[Case]:
        for values in itertools.product(grades, repeat=n):
            yield _confidence_case(list(values))

    last = None if scope.max_position is None else scope.max_position - 1
    return layered(layer, 0, max_docs, scope, size=lambda n: n + 1, last=last)


def threshold_pair(n: int, rc: Fraction) -> tuple[Topic, Ranking, Ranking]:
    """DeepTh/CloseTh: ``a_n`` = one relevant then ``2n-1`` non-relevant; ``b_n`` = ``n``
    non-relevant then ``n`` relevant; the topic has ``n`` relevant documents of value ``rc``."""
    relevant = doc_ids(n, "r")
    nonrelevant = doc_ids(2 * n - 1, "n")
    topic = single_topic({d: rc for d in relevant})
    a = Ranking.trusted((relevant[0], *nonrelevant))
    b = Ranking.trusted((*nonrelevant[:n], *relevant))
    return topic, a, b
