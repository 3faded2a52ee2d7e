"""Whether a metric with a cutoff ``K`` reads nothing past its top ``K`` (definitions §3.13, DeepTh).

DeepTh's pair (:func:`~axiometer.proofs.thresholds.symbolic_pair`) grows with ``n``,
but for ``n >= K`` the top ``K`` of both rankings is the same: ``a_n`` starts
with the relevant ``r1`` then ``n1 .. n(K-1)``, ``b_n`` with ``n1 .. nK``. A
metric whose computation observes only the judgments of its top ``K``
documents and the topic's aspects and weights sees the same inputs for every
``n >= K``, so it takes the same path and gives the same scores: ``D(n) =
D(K)`` for every ``n >= K``, and one decision at ``n = K`` covers them all.

:func:`reads_only_top` runs the metric once on a ranking that refuses to be
read past position ``K`` (its length, membership, iteration or indexing past
``K``) and a topic that refuses every other question (its documents, its
number of relevant documents, a judgment of a document outside the top ``K``,
its private fields from outside the topic's own code): anything refused means
the metric is not local, and no proof rests on locality.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from axiometer.core import Ranking, Topic
from axiometer.proofs.paths import explore
from axiometer.proofs.topic import SymbolicTopic, Symbols

__all__ = ["NotLocal", "reads_only_top"]

#: What a local metric may ask its topic: judgments (of its top K, checked) and the topic's constants.
_JUDGMENTS = frozenset({"r", "vector", "rel", "grade", "relevant_at", "is_judged"})
_CONSTANTS = frozenset({"aspects", "weights", "weight", "is_single_aspect", "topic_id"})
#: Views of the topic (one aspect of it, its aspect-blind view): local topics with the same allowance.
_VIEWS = frozenset({"restrict", "single_aspect_view"})
#: The modules whose code reads a topic's private fields (the topic's own).
_TOPIC_MODULES = frozenset({"axiometer.core", "axiometer.proofs.topic", __name__})


class NotLocal(Exception):
    """The metric read something past its top K."""


class _Prefix(Sequence[str]):
    """A ranking that may be read up to position ``k`` only (a slice ending by ``k``, an index below it,
    iteration over its first ``k``)."""

    def __init__(self, ranking: Ranking, k: int) -> None:
        self._docs, self._k = tuple(ranking), k

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            start, stop, step = index.start or 0, index.stop, index.step or 1
            if stop is None or stop < 0 or stop > self._k or start < 0 or step != 1:
                raise NotLocal(f"it reads the ranking past position {self._k} ({index})")
            return Ranking.trusted(self._docs[start:stop])
        if not isinstance(index, int) or not 0 <= index < self._k:
            raise NotLocal(f"it reads the ranking at index {index}, past position {self._k}")
        return self._docs[index]

    def __iter__(self) -> Iterator[str]:
        yield from self._docs[: self._k]
        if len(self._docs) > self._k:
            raise NotLocal(f"it iterates over the ranking past position {self._k}")

    def __len__(self) -> int:
        raise NotLocal("it reads the ranking's length")

    def __contains__(self, doc: object) -> bool:
        raise NotLocal("it looks a document up in the whole ranking")


class _LocalTopic(SymbolicTopic):
    """A symbolic topic answering only judgments of ``_allowed`` documents and the topic's constants."""

    _allowed: frozenset[str] = frozenset()

    def __getattribute__(self, name: str) -> Any:
        if name.startswith("_"):
            if name.startswith("__") or sys._getframe(1).f_globals.get("__name__") in _TOPIC_MODULES:
                return object.__getattribute__(self, name)
            raise NotLocal(f"it reads the topic's private field {name}")
        if name in _CONSTANTS:
            return object.__getattribute__(self, name)
        if name in _JUDGMENTS:
            method = object.__getattribute__(self, name)
            allowed = object.__getattribute__(self, "_allowed")

            def judgment(doc: str, *args: Any) -> Any:
                if doc not in allowed:
                    raise NotLocal(f"it reads the judgment of {doc}, outside its top documents")
                return method(doc, *args)
            return judgment
        if name in _VIEWS:
            view = object.__getattribute__(self, name)
            allowed = object.__getattribute__(self, "_allowed")
            return lambda *args: _local(view(*args), allowed)
        raise NotLocal(f"it reads the topic's {name}")


def _local(topic: Any, allowed: Iterable[str]) -> _LocalTopic:
    local = object.__new__(_LocalTopic)
    for name in Topic.__slots__:  # the same topic, seen through the allowance
        object.__setattr__(local, name, object.__getattribute__(topic, name))
    object.__setattr__(local, "_allowed", frozenset(allowed))
    return local


def reads_only_top(score: Callable[[Any, Any], Any], rankings: Sequence[Ranking], topic: SymbolicTopic,
                   symbols: Symbols, k: int) -> str:
    """"" when ``score(ranking, topic)`` reads nothing of each ranking past position ``k`` and no
    judgment but those of its top ``k``, on every path; else what it read."""
    def scores() -> bool:
        for ranking in rankings:
            score(_Prefix(ranking, k), _local(topic, ranking[:k]))
        return True

    try:
        explore(scores, symbols.base)
    except NotLocal as error:
        return str(error)
    except Exception as error:  # anything else the metric does on a guarded input: not shown local
        return f"it fails on a ranking read only up to position {k} ({type(error).__name__}: {error})"
    return ""
