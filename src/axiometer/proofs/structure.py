"""A case structure: the finite part of a constraint's case, its values left as real symbols.

A :class:`Structure` fixes the ranking length, the positions the construction
changes, which document is relevant (to which aspect) and the equalities and
orderings the constraint imposes; every relevance value is a real symbol in
``(0, rho]`` (definitions §3, "proved"). :meth:`Structure.case` puts exact
values into it — a model the solver found — giving an ordinary
:class:`~axiometer.generators.case.Case` that the exact path decides again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from axiometer.core import Ranking, Topic
from axiometer.generators.case import Case
from axiometer.proofs.reals import Real
from axiometer.proofs.topic import SymbolicTopic, Symbols, symbolic_topic

__all__ = ["Structure", "single_structure"]


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
