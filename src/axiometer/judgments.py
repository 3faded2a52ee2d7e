"""A qrels file's judgments kept as columns, and its topics built from them when asked for.

:func:`axiometer.readers.read_qrels` reads every file into a :class:`Judgments`: one row per
judgment line, grouped by topic (in file order within each topic): its document, aspect and
integer grade; per topic, its first line and its aspects and weights (one shared tuple for every
topic with the same ones). A row costs about 70 bytes, a topic about 150, where a
:class:`~axiometer.core.Topic` kept per topic and per grade mapping costs 1.5 KB and 20
microseconds to build through :func:`axiometer.grades.topic_from_grades` (a million one-document
topics took 6 GB and minutes to score).

``read_qrels(..., compact=True)`` hands the columns out as they are: :class:`CompactTopics`,
:class:`CompactGrades` and :class:`CompactWeights` are read-only mappings, equal to the ``dict``\\ s
the reader gives otherwise, that build a topic's value each time it is asked for and keep none
(:func:`axiometer.scoring.score_runs` asks once per topic and grade mapping, and lets it go).
:meth:`Judgments.topic` builds a :class:`Topic` from the columns without the checks of
``Topic(...)`` -- the reader has made them: grades within the scale, aspects with weights that are
positive and sum to 1 -- and without the ``Fraction`` arithmetic of each value (one per grade,
mapping and scale, cached): 5 microseconds instead of 20. It is the topic
``topic_from_grades`` builds, field for field (``tests/test_scoring_resources.py``).
:class:`GradeViews` gives scoring each topic under each metric's grade mapping, one at a time.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol, TypeVar

from axiometer.core import Number, Topic
from axiometer.grades import aspect_scales, grade_to_relevance, scale_for, topic_from_grades

__all__ = ["Judgments", "CompactTopics", "CompactGrades", "CompactWeights", "GradeViews", "shared_shapes"]

V = TypeVar("V")


@dataclass(frozen=True)
class Judgments:
    """A qrels file's judgments as columns.

    ``qids`` in file order (``index``: qid -> position); topic ``i``'s judgments are rows
    ``bounds[i]`` to ``bounds[i + 1]`` of ``docs``, ``aspect`` (a position in ``aspect_names``) and
    ``grade``, in file order. ``shape[i]`` picks the topic's ``(aspects, weights)`` in ``shapes``;
    ``first_line[i]`` is its first line in the file; ``largest`` the largest grade of the file.
    """

    qids: tuple[str, ...]
    index: dict[str, int]
    bounds: list[int]
    docs: list[str]
    aspect: list[int]
    grade: list[int]
    aspect_names: tuple[str, ...]
    shape: list[int]
    shapes: tuple[tuple[tuple[str, ...], tuple[Number, ...]], ...]
    first_line: list[int]
    largest: int

    # Python lists, not numpy arrays: a topic's slice of a list is a fraction of a microsecond,
    # of an array (then .tolist()) several; grades and aspect positions are small ints, which
    # Python shares, so a list costs the 8 bytes a row an int64 array would.

    def _rows(self, i: int) -> tuple[list[str], list[str], list[int]]:
        low, high = self.bounds[i], self.bounds[i + 1]
        names = self.aspect_names
        return self.docs[low:high], [names[a] for a in self.aspect[low:high]], self.grade[low:high]

    def table(self, i: int) -> dict[str, dict[str, int]]:
        """Topic ``i``'s grades, ``doc -> aspect -> grade`` (documents and each one's aspects in
        file order): what the reader kept as ``Qrels.grades``."""
        table: dict[str, dict[str, int]] = {}
        for doc, aspect, grade in zip(*self._rows(i)):
            table.setdefault(doc, {})[aspect] = grade
        return table

    def weights(self, i: int) -> dict[str, Number]:
        """Topic ``i``'s aspect weights, ``aspect -> w``, in the topic's aspect order."""
        aspects, weights = self.shapes[self.shape[i]]
        return dict(zip(aspects, weights))

    def topic(self, qid: str, mapping: str, scale: int) -> Topic:
        """Topic ``qid`` under the grade ``mapping`` with scale maximum ``scale`` (ignored by
        ``binary`` and ``err-aspect``): ``topic_from_grades(qid, table, weights, mapping, scale)``,
        built without re-checking what the reader checked."""
        i = self.index[qid]
        aspects, weights = self.shapes[self.shape[i]]
        if len(aspects) == 1:  # one aspect: each document is judged once
            low, high = self.bounds[i], self.bounds[i + 1]
            docs, grades, only = self.docs[low:high], self.grade[low:high], aspects[0]
            own = max(grades) if mapping == "err-aspect" else scale  # err-aspect: the aspect's largest
            topic = Topic.trusted({d: (_relevance(g, mapping, own),) for d, g in zip(docs, grades)},
                                  aspects, weights, qid)
            flat = dict(zip(docs, grades))
            nested = {d: {only: g} for d, g in flat.items()}
        else:
            nested = {}
            for doc, aspect, grade in zip(*self._rows(i)):
                nested.setdefault(doc, {})[aspect] = grade
            topic = Topic.trusted(_vectors(nested, aspects, mapping, scale), aspects, weights, qid)
            flat = {d: max(per.values()) for d, per in nested.items()}
        # What Topic(..., grades=table) keeps: each document's largest grade, and its grade per aspect.
        object.__setattr__(topic, "_grades", flat)
        object.__setattr__(topic, "_aspect_grades", nested)
        return topic


def _vectors(nested: dict[str, dict[str, int]], aspects: tuple[str, ...], mapping: str,
             scale: int) -> dict[str, tuple[Number, ...]]:
    """Each document's relevance per aspect (0 where it is not judged), as ``Topic`` builds them."""
    position = {t: k for k, t in enumerate(aspects)}
    if mapping == "err-aspect":  # each aspect's own largest positive grade is its scale
        largest = aspect_scales(nested.values())
        scales = {t: largest.get(t, 0) for t in aspects}
    else:
        scales = dict.fromkeys(aspects, scale)
    zero: list[Number] = [0] * len(aspects)
    vectors: dict[str, tuple[Number, ...]] = {}
    for doc, per in nested.items():
        vector = zero.copy()
        for aspect, grade in per.items():
            vector[position[aspect]] = _relevance(grade, mapping, scales[aspect])
        vectors[doc] = tuple(vector)
    return vectors


@functools.lru_cache(maxsize=4096)
def _relevance(grade: int, mapping: str, scale: int) -> Fraction:
    """:func:`axiometer.grades.grade_to_relevance` (which also refuses a grade above the scale),
    computed once per grade, mapping and scale: a ``Fraction`` is immutable, so topics share it."""
    return grade_to_relevance(grade, mapping, scale)


class _Qrels(Protocol):
    """What :class:`GradeViews` reads of a :class:`~axiometer.readers.Qrels` (which imports this
    module, so it is not imported here)."""

    @property
    def mapping(self) -> str: ...
    @property
    def topics(self) -> Mapping[str, Topic]: ...
    @property
    def grades(self) -> Mapping[str, Mapping[str, Mapping[str, int]]]: ...
    @property
    def weights(self) -> Mapping[str, Mapping[str, Number]]: ...


class GradeViews:
    """A qrels' topics under each grade mapping, for scoring: built one topic at a time when asked
    for, and not kept (each pass of :func:`~axiometer.scoring.score_runs` asks for a topic once per
    mapping; a million topics kept per mapping took gigabytes).

    The mapping the qrels were read with is their own ``topics`` (built with the ``gmax`` given
    when reading); another is built from the integer grades with ``gmax`` (default: the largest
    grade), as :func:`~axiometer.grades.topics_under` builds them -- from the columns
    (:meth:`Judgments.topic`) when the qrels were read with ``compact=True``.
    """

    def __init__(self, qrels: _Qrels, gmax: int | None) -> None:
        self.qrels, self.gmax = qrels, gmax
        self.judgments: Judgments | None = getattr(qrels.grades, "judgments", None)
        self._scales: dict[str, int] = {}

    def topic(self, mapping: str, topic_id: str) -> Topic:
        """Topic ``topic_id`` under the grade ``mapping``."""
        if mapping == self.qrels.mapping:
            return self.qrels.topics[topic_id]
        scale = self._scales.get(mapping)
        if scale is None:
            largest = (self.judgments.largest if self.judgments is not None else
                       max((g for table in self.qrels.grades.values() for per in table.values()
                            for g in per.values()), default=1))
            scale = self._scales[mapping] = scale_for(mapping, self.gmax, largest)
        if self.judgments is not None:
            return self.judgments.topic(topic_id, mapping, scale)
        return topic_from_grades(topic_id, self.qrels.grades[topic_id], self.qrels.weights.get(topic_id),
                                 mapping, scale)


class _View(Mapping[str, V]):
    """A read-only mapping ``qid -> value`` over :class:`Judgments`, in file order; each value is
    built when asked for and not kept."""

    __slots__ = ("judgments",)

    def __init__(self, judgments: Judgments) -> None:
        self.judgments = judgments

    def _build(self, qid: str, i: int) -> V:
        raise NotImplementedError

    def __getitem__(self, qid: str) -> V:
        return self._build(qid, self.judgments.index[qid])

    def __contains__(self, qid: object) -> bool:
        return qid in self.judgments.index

    def __iter__(self) -> Iterator[str]:
        return iter(self.judgments.qids)

    def __len__(self) -> int:
        return len(self.judgments.qids)

    __hash__ = None  # type: ignore[assignment]  # compared by value, like the dict it stands for

    def __repr__(self) -> str:
        return repr(dict(self.items()))


class CompactGrades(_View[Mapping[str, Mapping[str, int]]]):
    """``Qrels.grades`` (``qid -> doc -> aspect -> grade``) over the columns."""

    def _build(self, qid: str, i: int) -> dict[str, dict[str, int]]:
        return self.judgments.table(i)


class CompactWeights(_View[Mapping[str, Number]]):
    """``Qrels.weights`` (``qid -> aspect -> w``) over the columns."""

    def _build(self, qid: str, i: int) -> dict[str, Number]:
        return self.judgments.weights(i)


class CompactTopics(_View[Topic]):
    """``Qrels.topics``: each topic under the ``mapping`` and ``scale`` the file was read with."""

    __slots__ = ("mapping", "scale")

    def __init__(self, judgments: Judgments, mapping: str, scale: int) -> None:
        super().__init__(judgments)
        self.mapping, self.scale = mapping, scale

    def _build(self, qid: str, i: int) -> Topic:
        return self.judgments.topic(qid, self.mapping, self.scale)


def shared_shapes(per_topic: Sequence[tuple[tuple[str, ...], tuple[Number, ...]]]
                  ) -> tuple[list[int], tuple[tuple[tuple[str, ...], tuple[Number, ...]], ...]]:
    """Each topic's position in a list of its distinct ``(aspects, weights)`` (told apart by the
    weights' types too: ``0.5`` is not ``Fraction(1, 2)``), and that list."""
    known: dict[tuple, int] = {}
    shapes: list[tuple[tuple[str, ...], tuple[Number, ...]]] = []
    positions = []
    for aspects, weights in per_topic:
        key = (aspects, tuple((type(w), w) for w in weights))
        position = known.get(key)
        if position is None:
            position = known[key] = len(shapes)
            shapes.append((aspects, weights))
        positions.append(position)
    return positions, tuple(shapes)
