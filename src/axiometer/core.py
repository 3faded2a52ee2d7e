"""The data model: topics (judgments), rankings and contexts.

definitions §1. This module imports nothing from the rest of the package, so
every other part (metrics, generators, axioms, readers) can build on it.

- A :class:`Topic` holds aspects ``T = (t1..tm)`` with weights ``w(t) > 0``
  summing to 1 and relevance values ``r(d, t)`` in ``[0, 1]``; unjudged
  documents have ``r = 0``. Its single-aspect view is ``r(d) = max_t r(d, t)``,
  its binary view ``rel(d) = [r(d) > 0]`` and ``R`` counts documents with
  ``r(d) > 0``.
- A :class:`Ranking` is a tuple of distinct document ids.
- A :class:`Context` holds other systems' rankings for the same topic (used by
  the relative metrics).
- A :class:`ProgressCallback` is how every long computation of the package
  (a table, scoring, a comparison, a meta-evaluation) says how far it has got.

Values are stored exactly as given (``int``, ``float`` or
``fractions.Fraction``), so a caller who builds topics from ``Fraction`` values
gets exact arithmetic everywhere; :func:`to_fraction` states how a float is
read exactly (its shortest decimal form: ``0.1`` is ``1/10``).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from numbers import Real
from typing import Any, Protocol, Union, cast

__all__ = [
    "TextEnum",
    "AxiometerError",
    "ValidationError",
    "DuplicateDocumentError",
    "InputError",
    "cut",
    "Number",
    "Topic",
    "Ranking",
    "Context",
    "to_fraction",
    "natural_key",
    "SINGLE_ASPECT",
    "ProgressCallback",
    "in_phase",
]

Number = Union[int, float, Fraction]

#: The aspect name used for single-aspect topics built without explicit aspects.
SINGLE_ASPECT = "*"

#: Tolerance for the weights summing to 1 (definitions §1).
WEIGHT_SUM_TOLERANCE = 1e-9


class TextEnum(str, Enum):
    """A string enum that prints as its value (``str``, ``format`` and f-strings alike)."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


class AxiometerError(Exception):
    """Base class of every error axiometer raises on purpose."""


class ValidationError(AxiometerError, ValueError):
    """A value breaks the data model (definitions §1)."""


class DuplicateDocumentError(ValidationError):
    """A ranking lists the same document twice."""

    def __init__(self, doc: str, first: int, second: int) -> None:
        self.doc, self.first, self.second = doc, first, second
        super().__init__(
            f"duplicate document {doc!r} in ranking at positions {first} and {second}"
        )


class InputError(AxiometerError):
    """Bad user input with a location: a file and line, or a spec string and column.

    ``str(error)`` is one line, ``where: problem`` — what the CLI prints.
    """

    def __init__(self, problem: str, *, source: str | None = None,
                 line: int | None = None, token: str | None = None) -> None:
        self.problem, self.source, self.line, self.token = problem, source, line, token
        # What the user gave is echoed cut (a 20,000-character spec or token is not repeated whole);
        # the problem, axiometer's own words, is not.
        source = cut(source, 120) if source else source
        token = cut(token, 200) if token else token
        where = source or ""
        if line is not None:
            where = f"{where}:{line}" if where else f"line {line}"
        message = problem if not token else f"{problem} (at {token!r})"
        super().__init__(f"{where}: {message}" if where else message)


def cut(text: str, longest: int) -> str:
    """``text`` cut to ``longest`` characters, the cut marked with an ellipsis."""
    return text if len(text) <= longest else text[:longest - 1] + "…"


def to_fraction(value: Number) -> Fraction:
    """Read a number exactly.

    ``int`` and ``Fraction`` are exact already; a ``float`` is read as its
    shortest decimal representation (``repr``), i.e. the number the user
    typed: ``0.1 -> 1/10``, ``0.8 -> 4/5``. This is the convention for every
    exact evaluation in axiometer (definitions §5).
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValidationError(f"cannot read non-finite number {value!r} exactly")
        return Fraction(repr(value))
    return Fraction(value)  # other Real types (numpy scalars, Decimal)


class CachedFraction(Fraction):
    """An exact fraction that keeps its float64 value, rounded once when it is made.

    For the relevance values and weights the generators draw over and over from short lists:
    ``float(x)`` (what the float arithmetic of every metric reads) returns the kept value instead
    of dividing again, and an order comparison with another ``CachedFraction`` (or with 0)
    takes the float answer when the two floats differ. That is exact: rounding to the nearest
    float is monotone, so ``float(x) < float(y)`` implies ``x < y``; equal floats fall back to
    the exact comparison. Equality is exact too (equal fractions have equal numerators and
    denominators, in lowest terms). Arithmetic gives plain ``Fraction`` results.
    """

    __slots__ = ("_float",)
    _float: float
    # Fraction's own slots, read directly (its numerator/denominator properties cost a call);
    # typeshed does not declare these private names.
    _numerator: int
    _denominator: int

    def __new__(cls, numerator: Any = 0, denominator: Any = None) -> "CachedFraction":
        self = super().__new__(cls, numerator, denominator)
        self._float = self._numerator / self._denominator  # int / int: correctly rounded
        return self

    def __float__(self) -> float:
        return self._float

    def __eq__(self, other: object) -> bool:
        if type(other) is CachedFraction:
            return self._numerator == other._numerator and self._denominator == other._denominator
        return Fraction.__eq__(self, other)

    __hash__ = Fraction.__hash__

    def __lt__(self, other: Any) -> bool:
        if type(other) is CachedFraction and self._float != other._float:
            return self._float < other._float
        if type(other) is int and other == 0:
            return self._numerator < 0
        return Fraction.__lt__(self, other)

    def __gt__(self, other: Any) -> bool:
        if type(other) is CachedFraction and self._float != other._float:
            return self._float > other._float
        if type(other) is int and other == 0:
            return self._numerator > 0
        return Fraction.__gt__(self, other)

    def __le__(self, other: Any) -> bool:
        return not self.__gt__(other) if type(other) in (CachedFraction, int, Fraction) else Fraction.__le__(self, other)

    def __ge__(self, other: Any) -> bool:
        return not self.__lt__(other) if type(other) in (CachedFraction, int, Fraction) else Fraction.__ge__(self, other)


def cached(value: Number) -> CachedFraction:
    """``value`` read exactly (:func:`to_fraction`) as a :class:`CachedFraction`."""
    if type(value) is CachedFraction:
        return value
    exact = to_fraction(value)
    return CachedFraction(exact.numerator, exact.denominator)


_PLAIN_NUMBERS = (int, float, Fraction, CachedFraction)


def _check_unit_interval(value: Number, what: str) -> None:
    """Raise unless ``value`` is a real number in [0, 1] (typed ``Number``, as ``Topic`` takes it,
    and checked at run time for what an untyped caller passes)."""
    if type(value) in _PLAIN_NUMBERS and 0 <= value <= 1:  # fast path; NaN fails the bounds
        return
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ValidationError(f"{what} must be a number in [0, 1], got {value!r}")
    if value != value:  # NaN
        raise ValidationError(f"{what} is NaN; relevance must be in [0, 1]")
    if not 0 <= value <= 1:
        raise ValidationError(f"{what} = {value!r} is outside [0, 1]")


class Topic:
    """Judgments for one query: aspects, weights and ``r(d, t)``.

    Build it from ``judgments``, a mapping ``doc -> {aspect: r}``, and
    optionally ``weights``, a mapping ``aspect -> w(t)`` whose order fixes the
    aspect order. Without weights the aspects are those named in the
    judgments (sorted) with balanced weights ``1/|T|``; a topic with no
    judgments and no weights has the single aspect ``"*"``. Aspects listed in
    ``weights`` but never judged are allowed (they count in ``|T|``).

    Documents may be judged with ``r = 0`` on every aspect (judged
    non-relevant); they are kept, since some metrics distinguish judged from
    unjudged documents.

    Immutable and hashable. Use :meth:`single` for the common one-aspect case.
    """

    __slots__ = ("topic_id", "aspects", "weights", "_vectors", "_single",
                 "_aspect_index", "R", "_grades", "_aspect_grades", "_ordinal", "_floats", "_hash")

    topic_id: str
    aspects: tuple[str, ...]
    weights: tuple[Number, ...]
    R: int

    def __init__(self, judgments: Mapping[str, Mapping[str, Number]],
                 weights: Mapping[str, Number] | None = None,
                 topic_id: str = "",
                 grades: Mapping[str, int] | Mapping[str, Mapping[str, int]] | None = None) -> None:
        if weights is None:
            named = sorted({t for per in judgments.values() for t in per})
            aspects = tuple(named) if named else (SINGLE_ASPECT,)
            weight_values: tuple[Number, ...] = (Fraction(1, len(aspects)),) * len(aspects)
        else:
            aspects = tuple(str(t) for t in weights)
            weight_values = tuple(weights.values())
            if not aspects:
                raise ValidationError(f"topic {topic_id!r}: at least one aspect is needed")
            for t, w in zip(aspects, weight_values):
                if isinstance(w, bool) or not isinstance(w, Real) or w != w or not w > 0:
                    raise ValidationError(
                        f"topic {topic_id!r}: weight of aspect {t!r} must be > 0, got {w!r}")
            total = math.fsum(float(w) for w in weight_values)  # as the readers sum them
            if abs(total - 1.0) > WEIGHT_SUM_TOLERANCE:
                raise ValidationError(
                    f"topic {topic_id!r}: aspect weights sum to {total!r}, not 1")
        index = {t: i for i, t in enumerate(aspects)}
        zero_vector = (0,) * len(aspects)
        vectors: dict[str, tuple[Number, ...]] = {}
        single: dict[str, Number] = {}
        relevant = 0
        for doc, per_aspect in judgments.items():
            if not isinstance(doc, str):
                raise ValidationError(f"topic {topic_id!r}: document ids must be strings, got {doc!r}")
            vector: list[Number] = list(zero_vector)
            for t, r in per_aspect.items():
                i = index.get(t)
                if i is None:
                    raise ValidationError(
                        f"topic {topic_id!r}: document {doc!r} is judged on unknown aspect {t!r}"
                        f" (aspects: {', '.join(map(repr, aspects))})")
                _check_unit_interval(r, f"topic {topic_id!r}: r({doc!r}, {t!r})")
                vector[i] = r
            best = max(vector)
            vectors[doc] = tuple(vector)
            single[doc] = best
            if best > 0:
                relevant += 1
        self.topic_id = str(topic_id)
        self.aspects = aspects
        self.weights = weight_values
        self._aspect_index = index
        self._vectors = vectors
        self._single = single
        self.R = relevant
        # The integer grade of each judged document (single view), when the topic was read from
        # grades; otherwise computed on first use from the relevance values (see grade()).
        # ``grades``: doc -> grade, or doc -> {aspect: grade} (then each aspect's grades follow the
        # topic into restrict(), for the intent-aware metrics' relevance levels).
        aspect_grades = None
        flat_grades = cast("Mapping[str, int] | None", grades)
        if grades is not None and any(isinstance(g, Mapping) for g in grades.values()):
            # One value in a mapping makes them all mappings (the readers write one shape per topic).
            nested = cast("Mapping[str, Mapping[str, int]]", grades)
            aspect_grades = {d: {t: int(g) for t, g in per.items()} for d, per in nested.items()}
            flat_grades = {d: max(per.values(), default=0) for d, per in aspect_grades.items()}
        self._grades: dict[str, int] | None = (None if flat_grades is None
                                               else {d: int(g) for d, g in flat_grades.items()})
        self._aspect_grades: dict[str, dict[str, int]] | None = aspect_grades
        self._ordinal: dict[str, int] | None = None
        self._floats: tuple[dict[str, tuple[float, ...]], dict[str, float], tuple[float, ...]] | None = None
        self._hash: int | None = None

    # -- construction helpers -------------------------------------------------
    @classmethod
    def trusted(cls, vectors: Mapping[str, tuple[Number, ...]], aspects: tuple[str, ...],
                weights: tuple[Number, ...], topic_id: str = "") -> "Topic":
        """A topic from values already known valid, without the checks of ``Topic(...)``.

        For the generators, whose constructions keep every ``r(d, t)`` in [0, 1] and the
        weights positive and summing to 1 (exact fractions): each ``vectors[doc]`` holds one
        value per aspect, in ``aspects`` order; a ``dict`` is taken over, not copied (build it
        for this topic and leave it alone). Validation was most of the cost of a generated
        case; a wrong input here is a bug in a generator, caught by its tests.
        """
        topic = object.__new__(cls)
        # One aspect: r(d) is the vector's only value (no Fraction comparisons, the cost here).
        if len(aspects) == 1:
            single = {doc: vector[0] for doc, vector in vectors.items()}
        else:
            single = {doc: _largest(vector) for doc, vector in vectors.items()}
        for name, value in (("topic_id", topic_id), ("aspects", aspects), ("weights", weights),
                            ("_aspect_index", _aspect_index(aspects)),
                            # a dict the generator built for this topic is taken over, not copied
                            ("_vectors", vectors if type(vectors) is dict else dict(vectors)),
                            ("_single", single),
                            # values are >= 0 here, so r > 0 is r != 0 (a cheap truth test)
                            ("R", sum(map(bool, single.values()))), ("_grades", None),
                            ("_aspect_grades", None), ("_ordinal", None), ("_floats", None),
                            ("_hash", None)):
            object.__setattr__(topic, name, value)
        return topic

    @classmethod
    def single(cls, relevance: Mapping[str, Number], topic_id: str = "") -> "Topic":
        """A single-aspect topic from ``doc -> r``."""
        return cls({d: {SINGLE_ASPECT: r} for d, r in relevance.items()},
                   {SINGLE_ASPECT: 1}, topic_id)

    # -- relevance ------------------------------------------------------------
    def r(self, doc: str, aspect: str | None = None) -> Number:
        """``r(d, t)``; with no aspect, the single-aspect view ``max_t r(d, t)``.

        Unjudged documents have ``r = 0``.
        """
        if aspect is None:
            return self._single.get(doc, 0)
        try:
            i = self._aspect_index[aspect]
        except KeyError:
            raise ValidationError(f"topic {self.topic_id!r} has no aspect {aspect!r}") from None
        vector = self._vectors.get(doc)
        return 0 if vector is None else vector[i]

    def vector(self, doc: str) -> tuple[Number, ...]:
        """``(r(d, t1), ..., r(d, tm))`` in aspect order; zeros if unjudged."""
        vector = self._vectors.get(doc)
        return (0,) * len(self.aspects) if vector is None else vector

    def _float_views(self) -> tuple[dict[str, tuple[float, ...]], dict[str, float], tuple[float, ...]]:
        views = self._floats
        if views is None:  # a cache, not part of the topic's identity
            vectors = {d: tuple(map(float, v)) for d, v in self._vectors.items()}
            single = ({d: v[0] for d, v in vectors.items()} if len(self.aspects) == 1
                      else {d: float(r) for d, r in self._single.items()})
            views = (vectors, single, tuple(map(float, self.weights)))
            object.__setattr__(self, "_floats", views)
        return views

    def float_vector(self, doc: str) -> tuple[float, ...]:
        """:meth:`vector` in float64 (each value rounded once, cached per topic): what the float
        arithmetic of the metrics reads, instead of converting every value at every use."""
        vector = self._float_views()[0].get(doc)
        return (0.0,) * len(self.aspects) if vector is None else vector

    def float_vectors(self, docs: Iterable[str]) -> list[tuple[float, ...]]:
        """:meth:`float_vector` of each document of ``docs``, in one call (a metric's whole window)."""
        get = (self._floats or self._float_views())[0].get
        zero = (0.0,) * len(self.aspects)
        return [get(doc, zero) for doc in docs]

    def float_rs(self, docs: Iterable[str]) -> list[float]:
        """:meth:`float_r` of each document of ``docs``, in one call."""
        get = (self._floats or self._float_views())[1].get
        return [get(doc, 0.0) for doc in docs]

    def float_r(self, doc: str) -> float:
        """:meth:`r` (single view) in float64, cached per topic."""
        return self._float_views()[1].get(doc, 0.0)

    @property
    def float_weights(self) -> tuple[float, ...]:
        """The aspect weights in float64, cached per topic."""
        return self._float_views()[2]

    def rel(self, doc: str) -> bool:
        """Binary view: ``r(d) > 0``."""
        return self._single.get(doc, 0) > 0

    def grade(self, doc: str) -> int:
        """The document's integer grade (single view; 0 if unjudged or not relevant).

        A topic read from TREC grades keeps them (``topic_from_grades``); a topic built from
        relevance values grades its distinct positive values ``1, 2, ...`` in increasing order
        (with values ``0, 1/10, 1/2, 1``: grades 0, 1, 2, 3).
        """
        grades = self._grades
        if grades is None:
            grades = self._ordinal
            if grades is None:  # a cache, not part of the topic's identity
                levels = sorted({r for r in self._single.values() if r > 0})
                rank = {r: i for i, r in enumerate(levels, 1)}
                grades = {d: rank.get(r, 0) for d, r in self._single.items()}
                object.__setattr__(self, "_ordinal", grades)
        return grades.get(doc, 0) if self._single.get(doc, 0) > 0 else 0

    def relevant_at(self, doc: str, level: int) -> bool:
        """Binary view at a relevance level (trec_eval's ``-l``, ir_measures' ``rel``): ``grade(d) >= level``;
        level 1 (or less) is :meth:`rel`, ``r(d) > 0``."""
        return self.rel(doc) if level <= 1 else self.grade(doc) >= level

    def count_at(self, level: int) -> int:
        """The number of documents relevant at ``level`` (``R`` at level 1)."""
        return self.R if level <= 1 else sum(1 for d in self._single if self.relevant_at(d, level))

    def is_judged(self, doc: str) -> bool:
        return doc in self._vectors

    def weight(self, aspect: str) -> Number:
        return self.weights[self._aspect_index[aspect]]

    @property
    def documents(self) -> tuple[str, ...]:
        """Judged documents, in the order they were given."""
        return tuple(self._vectors)

    @property
    def relevant(self) -> tuple[str, ...]:
        """Documents with ``r(d) > 0``."""
        return tuple(d for d, r in self._single.items() if r > 0)

    def relevance_values(self, aspect: str | None = None) -> list[Number]:
        """All judged ``r`` values on ``aspect`` (or the single view), one per judged document."""
        if aspect is None:
            return list(self._single.values())
        i = self._aspect_index[aspect]
        return [v[i] for v in self._vectors.values()]

    @property
    def is_single_aspect(self) -> bool:
        return len(self.aspects) == 1

    @property
    def is_binary(self) -> bool:
        """Every judged value is 0 or one common constant ``rc``."""
        positives = {r for v in self._vectors.values() for r in v if r > 0}
        return len(positives) <= 1

    # -- views ----------------------------------------------------------------
    def single_aspect_view(self) -> "Topic":
        """The topic seen by an aspect-blind metric: one aspect, ``r(d) = max_t r(d, t)``."""
        if self.is_single_aspect:
            return self
        # Values of a valid topic: no need to validate them again.
        return Topic.trusted({d: (r,) for d, r in self._single.items()}, (SINGLE_ASPECT,), (1,), self.topic_id)

    def binary_view(self) -> "Topic":
        """The same aspects with ``r(d, t) in {0, 1}`` (``1`` where ``r > 0``)."""
        return Topic({d: {t: (1 if r > 0 else 0) for t, r in zip(self.aspects, v)}
                      for d, v in self._vectors.items()},
                     dict(zip(self.aspects, self.weights)), self.topic_id)

    def restrict(self, aspect: str) -> "Topic":
        """Aspect ``t`` alone, as a single-aspect topic (``M_t`` of the intent-aware metrics)."""
        i = self._aspect_index[aspect]
        restricted = Topic.trusted({d: (v[i],) for d, v in self._vectors.items()}, (SINGLE_ASPECT,), (1,),
                                   self.topic_id)
        if self._aspect_grades is not None:
            object.__setattr__(restricted, "_grades",
                               {d: per.get(aspect, 0) for d, per in self._aspect_grades.items()})
        return restricted

    # -- identity -------------------------------------------------------------
    def _key(self) -> tuple:
        # Equality is of relevance: integer grades read from a qrels (which decide rel=N levels) are
        # a reading of the same judgments, as the grade mapping is.
        return (self.topic_id, self.aspects, self.weights,
                tuple(sorted(self._vectors.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Topic) and self._key() == other._key()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._key())
        return self._hash

    def __setattr__(self, name: str, value: object) -> None:
        if name != "_hash" and hasattr(self, "_hash"):
            raise AttributeError("Topic is immutable")
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        judged = ", ".join(
            f"{d!r}: {v[0] if len(v) == 1 else v}" for d, v in list(self._vectors.items())[:6])
        more = ", ..." if len(self._vectors) > 6 else ""
        aspects = "" if self.is_single_aspect else f", aspects={self.aspects}"
        tid = f"{self.topic_id!r}, " if self.topic_id else ""
        return f"Topic({tid}{{{judged}{more}}}{aspects})"


@functools.lru_cache(maxsize=256)
def _aspect_index(aspects: tuple[str, ...]) -> dict[str, int]:
    """``aspect -> position``, shared by the topics with the same aspects (read only)."""
    return {t: i for i, t in enumerate(aspects)}


def _largest(vector: tuple[Number, ...]) -> Number:
    """``max(vector)`` for values >= 0, comparing only non-zero values (a truth test is far cheaper
    than comparing two Fractions, and most generated vectors hold one non-zero value)."""
    best = vector[0]
    for value in vector[1:]:
        if value and (not best or value > best):
            best = value
    return best


class Ranking(tuple):
    """A system output: a tuple of distinct document ids ``(d1, ..., dn)``.

    Duplicates raise :class:`DuplicateDocumentError` naming the document and
    both positions (1-based); they are never dropped silently.
    """

    __slots__ = ()

    def __new__(cls, docs: Iterable[str] = ()) -> "Ranking":
        ranking = tuple.__new__(cls, docs)
        if len(set(ranking)) != len(ranking):
            seen: dict[str, int] = {}
            for position, doc in enumerate(ranking, 1):
                if doc in seen:
                    raise DuplicateDocumentError(doc, seen[doc], position)
                seen[doc] = position
        for doc in ranking:
            if not isinstance(doc, str):
                raise ValidationError(f"document ids must be strings, got {doc!r}")
        return ranking

    @classmethod
    def trusted(cls, docs: Iterable[str]) -> "Ranking":
        """A ranking of ids known distinct strings, without the checks of ``Ranking(...)``: for the
        generators, whose constructions name documents ``d1, d2, ...`` once each (their tests check
        every generated ranking)."""
        return tuple.__new__(cls, docs)

    def __repr__(self) -> str:
        return f"Ranking({list(self)!r})"


@dataclass(frozen=True)
class Context:
    """Other systems' rankings for the same topic (definitions §1).

    ``labels`` names each ranking (run tags); it defaults to ``s1, s2, ...``.
    """

    rankings: tuple[Ranking, ...] = ()
    labels: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        rankings = tuple(r if isinstance(r, Ranking) else Ranking(r) for r in self.rankings)
        labels = tuple(self.labels) or tuple(f"s{i}" for i in range(1, len(rankings) + 1))
        if len(labels) != len(rankings):
            raise ValidationError(
                f"context has {len(rankings)} rankings but {len(labels)} labels")
        object.__setattr__(self, "rankings", rankings)
        object.__setattr__(self, "labels", labels)

    def __len__(self) -> int:
        return len(self.rankings)


_NUMBERED_ID = re.compile(r"^(.*?)(\d+)$")


def natural_key(doc: str) -> tuple[str, int, str]:
    """Sort key putting document ``d2`` before ``d10``: prefix, then number, then the id itself."""
    match = _NUMBERED_ID.match(doc)
    return (match.group(1), int(match.group(2)), doc) if match else (doc, -1, doc)


class ProgressCallback(Protocol):
    """``progress(phase, done, total)``: how a long computation says how far it has got.

    ``phase`` names the part of the work under way, as a progress bar labels it
    (``"checking"``, ``"scoring"``, ``"stability"``); ``done`` of its ``total``
    units are finished, ``0 <= done <= total`` (the units are tasks, topics,
    pairs or metrics: each entry point's docstring says which, and its phases).

    The computation calls it in its own thread, between units of work: after
    each unit or chunk of units, with the count so far, and, where the entry
    point says so, once as a phase starts (``done`` 0). ``total`` is fixed from
    a phase's first report to its last, but may be known late: a phase whose
    size depends on earlier results (a table's explanations, whose number is
    known once the last check is done) is first reported when its total is
    known, with the units already finished counted in ``done``. Within a phase
    ``done`` never decreases, and ``done == total`` completes the phase; the
    phases are reported one after the other, never interleaved, so a consumer
    tells them apart by name (:class:`axiometer.progress.Progress`, the CLI's
    bars, draws a bar per phase). The parameters are positional only: any
    function taking a string and two integers is a ``ProgressCallback``,
    whatever it names them.
    """

    def __call__(self, phase: str, done: int, total: int, /) -> None: ...


def in_phase(progress: ProgressCallback | None, phase: str) -> ProgressCallback | None:
    """``progress`` with every report's phase named ``phase`` (``None`` stays ``None``): a step that
    reports under its own name (``score_runs``'s ``"scoring"``) run as a phase of a larger whole."""
    if progress is None:
        return None

    def renamed(_: str, done: int, total: int, /) -> None:
        progress(phase, done, total)

    return renamed
