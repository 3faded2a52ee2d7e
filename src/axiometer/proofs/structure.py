"""A case structure: the finite part of a constraint's case, its values left as real symbols.

A :class:`Structure` fixes the ranking length, the positions the construction
changes, which document is relevant (to which aspect) and the equalities and
orderings the constraint imposes; every relevance value is a real symbol in
``(0, rho]`` (definitions §3, "proved"). :meth:`Structure.case` puts exact
values into it — a model the solver found — giving an ordinary
:class:`~axiometer.generators.case.Case` that the exact path decides again.
:func:`single_structure` builds one on a single aspect, :func:`aspect_structure`
on several (values per document and aspect, constants or shared symbols where
the constraint fixes or equates them, weights constants or symbols).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from axiometer.core import Ranking, Topic
from axiometer.generators.case import Case
from axiometer.proofs.reals import Real, lift
from axiometer.proofs.topic import SymbolicTopic, Symbols, symbolic_topic

__all__ = ["Structure", "single_structure", "Cell", "aspect_structure"]


@dataclass(frozen=True)
class Structure:
    """A symbolic case: ``topic`` holds symbols, ``a``/``b`` are concrete rankings.

    ``docs`` and ``aspects`` are its size (the scope a proof reports);
    ``note`` says how ``b`` is built, as the generators' cases do.
    """

    topic: SymbolicTopic
    a: Ranking
    b: Ranking
    changed: tuple[int, ...]
    note: str
    symbols: Symbols
    docs: int
    aspects: int

    @property
    def base(self) -> list[Any]:
        """The conditions every value of the structure meets (z3 Booleans)."""
        return self.symbols.base

    def case(self, values: Mapping[str, Fraction]) -> Case:
        """The ordinary case with the symbols replaced by ``values`` (a model)."""
        def concrete(value: Any) -> Any:
            return values[str(value.expr)] if isinstance(value, Real) else value

        topic = self.topic
        vectors = {doc: tuple(concrete(v) for v in topic.vector(doc)) for doc in topic.documents}
        weights = tuple(concrete(w) for w in topic.weights)
        return Case(Topic.trusted(vectors, topic.aspects, weights), self.a, self.b, self.changed, self.note)


def single_structure(pattern: tuple[bool, ...], a: Ranking, b: Ranking, changed: tuple[int, ...],
                     note: str, rho: Fraction, conditions: Any = None) -> Structure:
    """A single-aspect structure over documents ``d1..dn``: ``pattern[k]`` says whether ``d(k+1)``
    is relevant (a symbol ``r(dk)`` in ``(0, rho]``) or not (0); ``conditions(r)`` gives the
    constraint's own conditions on the symbols, ``r`` mapping a document to its value."""
    symbols = Symbols()
    docs = [f"d{k}" for k in range(1, len(pattern) + 1)]
    values: dict[str, Any] = {doc: (symbols.real(f"r({doc})", Fraction(0), rho) if relevant else 0)
                              for doc, relevant in zip(docs, pattern)}
    if conditions is not None:
        symbols.require(*conditions({d: (v.expr if isinstance(v, Real) else 0) for d, v in values.items()}))
    topic = symbolic_topic({doc: (value,) for doc, value in values.items()}, ("*",), (1,))
    return Structure(topic, a, b, changed, note, symbols, len(pattern), 1)


#: One ``r(d, t)`` of a multi-aspect structure: ``None`` (not relevant, 0), a constant, or the name
#: of a real symbol (cells naming the same symbol are equal: the constraint's equalities).
Cell = Fraction | str | None


def aspect_structure(cells: Mapping[str, Sequence[Cell]], aspects: tuple[str, ...], a: Ranking,
                     b: Ranking, changed: tuple[int, ...], note: str, high: Fraction, *,
                     high_open: bool = False, weights: Sequence[Fraction | str] | None = None,
                     conditions: Callable[[dict[str, Any]], list[Any]] | None = None) -> Structure:
    """A multi-aspect structure judging the documents of ``cells`` (``doc -> r(d, t)`` per aspect).

    Every symbol a cell names lies in ``(0, high]`` (``(0, high)`` with ``high_open``), once however
    many cells name it. ``weights`` (default balanced, ``1/|T|``) holds constants or the names
    of symbols in ``(0, 1)``; symbolic weights must sum to 1, a condition of the structure.
    ``conditions(s)`` gives the constraint's own conditions, ``s`` mapping every symbol's name to
    its z3 expression. ``docs`` is the length of the longer ranking.
    """
    symbols = Symbols()
    made: dict[str, Real] = {}

    def value(cell: Cell, top: Fraction, top_open: bool) -> Any:
        if cell is None:
            return 0
        if isinstance(cell, Fraction):
            return cell
        if cell not in made:
            made[cell] = symbols.real(cell, Fraction(0), top, high_open=top_open)
        return made[cell]

    vectors = {doc: tuple(value(c, high, high_open) for c in row) for doc, row in cells.items()}
    balanced = [Fraction(1, len(aspects))] * len(aspects)
    topic_weights = tuple(value(w, Fraction(1), True) for w in (weights or balanced))
    if any(isinstance(w, Real) for w in topic_weights):
        symbols.require(sum((lift(w).expr for w in topic_weights[1:]), lift(topic_weights[0]).expr) == 1)
    if conditions is not None:
        symbols.require(*conditions({name: real.expr for name, real in made.items()}))
    topic = symbolic_topic(vectors, aspects, topic_weights)
    return Structure(topic, a, b, changed, note, symbols, max(len(a), len(b)), len(aspects))
