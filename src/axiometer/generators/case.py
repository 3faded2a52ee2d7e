"""What the generators build: a :class:`Case` (a topic and two rankings) within a :class:`Scope`.

An exhaustive small scope enumerates its cases in *layers* of growing size
(:func:`case_size`: the number of documents of the larger ranking) and yields
a :class:`ScopeMark` after each complete layer, so that a search stopped by
its budget knows how far its enumeration is complete. :func:`layered` builds
such a generator from one function per layer; with :attr:`Scope.grow` it
continues past the declared scope. :func:`cases_of` drops the marks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Union

from axiometer.core import Context, Ranking, Topic

__all__ = ["Case", "Scope", "DEFAULT_RHO", "ScopeMark", "ScopeItem", "case_size", "cases_of",
           "layered", "declared_extra"]

#: "Relevance contribution": every non-zero ``r`` is at most ``rho`` (definitions §3).
DEFAULT_RHO = Fraction(1, 10)


@dataclass(frozen=True)
class Case:
    """A topic and two rankings built from it.

    ``changed`` lists the 1-based positions the construction touches (swapped,
    replaced or appended), which the ``window`` cutoff mode keeps ``<= k``;
    ``note`` says in words how ``b`` was built.

    Relative metrics score against other systems: ``context`` is the context
    both rankings are scored in, unless ``context_b`` gives ``b`` its own
    (the relative properties move a document inside a prior ranking). Both
    are ``None`` for the ordinary constraints on ordinary metrics.
    """

    topic: Topic
    a: Ranking
    b: Ranking
    changed: tuple[int, ...]
    note: str
    context: Context | None = None
    context_b: Context | None = None

    @property
    def context_of_b(self) -> Context | None:
        """The context ``b`` is scored in."""
        return self.context if self.context_b is None else self.context_b


@dataclass(frozen=True)
class Scope:
    """What the generators may build.

    ``max_position``: the last position a construction may change (the
    metric's cutoff in ``window`` mode; ``None``: unbounded). ``rho``: the
    bound of relevance contribution. ``rmax``: Sat's candidate. ``max_docs``:
    the longest ranking to build in the random search. ``later_untouched``: the
    nearby reading "no later document touches the changed aspects" (explanations).
    ``values_within_rho``: the nearby reading "relevance values stay at most
    ``rho``" for the constraints that do not assume relevance contribution
    (Red's ``rc``, AspRel's and Sat's values other than ``rmax``).
    ``between_untouched``: the nearby reading "no relevant document lies between
    the swapped positions" (Pri, where redundancy discounts hit the documents in between).
    ``context_disjoint``: for a relative metric, the nearby reading "the other
    systems retrieve none of the case's documents" (only ``o1``, ``o2``).
    ``grow``: the exhaustive small scopes continue past their declared scope
    with further layers of the same construction (larger cases), until the
    search's budget stops them; without it they end with the declared scope.
    """

    max_position: int | None = None
    rho: Fraction = DEFAULT_RHO
    rmax: Fraction | None = None
    max_docs: int = 8
    later_untouched: bool = False
    values_within_rho: bool = False
    between_untouched: bool = False
    context_disjoint: bool = False
    grow: bool = False

    def with_(self, **changes: Any) -> "Scope":
        return replace(self, **changes)

    def last_position(self, default: int) -> int:
        """The last position a construction may touch: ``min(max_position, default)``."""
        return default if self.max_position is None else min(self.max_position, default)




@dataclass(frozen=True)
class ScopeMark:
    """Yielded by a small scope after each complete layer: every case of the small scope with at
    most ``docs`` documents (:func:`case_size`) has been yielded before this mark.

    ``declared_docs`` is the size of the declared scope's largest layer (what the small scope
    enumerates without :attr:`Scope.grow`): the mark with ``docs == declared_docs`` ends the
    declared scope, and a mark past it reports growth. A mark is not a case.
    """

    docs: int
    declared_docs: int

    @property
    def declared(self) -> bool:
        """Does this mark end the declared scope?"""
        return self.docs == self.declared_docs


#: What a small scope yields: cases, and a mark after each complete layer.
ScopeItem = Union[Case, ScopeMark]


def case_size(case: Case) -> int:
    """The size a small scope's layers grow by: the number of documents of the larger ranking."""
    return max(len(case.a), len(case.b))


def cases_of(items: Iterable[ScopeItem]) -> Iterator[Case]:
    """The cases of a small scope, without its marks."""
    return (item for item in items if not isinstance(item, ScopeMark))


def layered(layer: Callable[[int], Iterable[Case]], first: int, declared: int, scope: Scope,
            size: Callable[[int], int] = lambda n: n, last: int | None = None) -> Iterator[ScopeItem]:
    """A small scope in layers: ``layer(n)`` for ``n = first .. declared``, each followed by its
    :class:`ScopeMark` (of size ``size(n)``); with ``scope.grow``, layers ``declared + 1, ...`` up
    to ``last`` (``None``: no end) follow, until one of them yields no case.

    ``last`` bounds every layer (a window that leaves no room beyond it); the declared scope
    ends at ``min(declared, last)``. ``layer(n)`` must yield every case of size ``size(n)``.
    """
    if last is not None:
        declared = min(declared, last)
    n = first
    while (last is None or n <= last) and (n <= declared or scope.grow):
        count = 0
        for case in layer(n):
            count += 1
            yield case
        if n > declared and count == 0:
            return  # growth has run past every case the construction allows
        yield ScopeMark(size(n), size(declared))
        n += 1


def declared_extra(items: Iterable[ScopeItem], extra: Iterable[Case]) -> Iterator[ScopeItem]:
    """``items`` with the cases ``extra`` yielded just before the mark that ends the declared scope
    (at the end when there is none); the marks before it are dropped, since ``extra`` may hold
    cases of any size, so they would no longer be true."""
    pending = True
    for item in items:
        if isinstance(item, ScopeMark) and pending:
            if not item.declared:
                continue
            yield from extra
            pending = False
        yield item
    if pending:
        yield from extra
