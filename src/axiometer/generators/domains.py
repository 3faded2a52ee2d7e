"""Domains of system outputs for the intrinsic framework (definitions §4).

Giner's properties (pseudometric, metric, interval scale) are properties of a
metric *on a domain*: the same metric can be injective on one set of outputs
and not on another. So a domain is a first-class, named object, and every
report prints its :attr:`name`.

- :func:`rankings` — every grade sequence of length ``n`` (or up to ``n``)
  over a grade set, e.g. ``rankings(n=4, grades={0,1}, lengths=exact, R=4)``.
  The topic has, by default, ``n`` documents of each non-zero grade (and
  ``n`` judged non-relevant documents when 0 is a grade), so every sequence
  is realisable; ``R`` can be set. A row of the domain is a vector of grade
  indices; :meth:`RankingsDomain.output` turns it into a ``(Ranking, Topic)``
  pair whose documents are named by grade (``"1#1"``, ``"1#2"``, ``"1/2#1"``),
  the m-th document of a grade in the ranking being ``"<grade>#m"``, so two
  rankings with the same grade sequence are the same output.
- :func:`sets` — retrieved subsets of a collection of ``N`` documents with
  ``R`` relevant, identified by their contingency counts ``(TP, FP)``
  (optionally of fixed ``size = TP + FP`` or fixed ``nonrel = FP``), for the
  set-based measures of :mod:`axiometer.metrics.set_based`.
- :func:`users` — Korfhage's user counts ``(U, Rk, Ru)`` (and, for recall
  effort, ``(wanted, examined)``) for the user-oriented measures of
  :mod:`axiometer.metrics.set_based`: ``users(U=5, unknown=5)``.
- :func:`outputs` — any finite iterable of ``(ranking, topic)`` pairs.

Rows are enumerated as a numpy array by a vectorised base-g counter
(lexicographic order, first position most significant; with
``lengths="upto"`` shorter sequences come first), and
:meth:`RankingsDomain.batch` builds a :class:`~axiometer.metrics.RankingBatch`
for a slice of rows directly from the grade array, with no per-ranking
Python loop.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

import numpy as np

from axiometer.core import Number, Ranking, Topic, ValidationError, to_fraction
from axiometer.metrics import RankingBatch
from axiometer.metrics.set_based import Contingency, UserCounts

__all__ = ["Domain", "RankingsDomain", "SetsDomain", "UsersDomain", "OutputsDomain", "CountsDomain",
           "rankings", "sets", "users", "outputs", "grade_text"]


class Domain(Protocol):
    """A finite, ordered domain of system outputs."""

    @property
    def name(self) -> str: ...

    @property
    def size(self) -> int: ...

    def output(self, index: int) -> tuple[Ranking, Topic]: ...

    def label(self, index: int) -> str: ...


def grade_text(value: Fraction) -> str:
    """How a grade is written in names and document ids: ``0``, ``1``, ``1/2``."""
    return str(value)


def _digit_type(base: int) -> np.dtype:
    """The smallest signed integer type that holds the digits ``0 .. base - 1`` (int8 up to 128 grades)."""
    return np.min_scalar_type(-base)


def _counter(base: int, length: int) -> np.ndarray:
    """All ``base**length`` digit vectors in lexicographic order, shape ``(base**length, length)``."""
    if length == 0:
        return np.zeros((1, 0), dtype=_digit_type(base))
    digits = np.arange(base, dtype=_digit_type(base))
    out = np.empty((base ** length, length), dtype=_digit_type(base))
    for column in range(length):  # column c: each digit repeated base^(length-1-c) times, tiled
        out[:, column] = np.tile(np.repeat(digits, base ** (length - 1 - column)), base ** column)
    return out


@dataclass(frozen=True, eq=False)
class RankingsDomain:
    """All grade sequences over ``grades`` of length ``n`` (``lengths="exact"``) or ``0..n`` (``"upto"``).

    ``rows[s, i]`` is the index (into :attr:`grades`, ascending) of the grade
    at position ``i + 1`` of output ``s``; ``lengths[s]`` its length (columns
    past it are 0 and mean nothing). ``per_grade`` is the number of documents
    the topic has of each grade; sequences that would need more documents of
    a non-zero grade than the topic has (only when ``R`` is set below
    ``n`` per grade) are left out.
    """

    n: int
    grades: tuple[Fraction, ...]
    lengths_rule: str
    R: int
    per_grade: int
    topic: Topic
    rows: np.ndarray = field(repr=False)
    lengths: np.ndarray = field(repr=False)

    @property
    def name(self) -> str:
        grades = ",".join(grade_text(g) for g in self.grades)
        return f"rankings(n={self.n}, grades={{{grades}}}, lengths={self.lengths_rule}, R={self.R})"

    @property
    def size(self) -> int:
        return len(self.lengths)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return self.name

    def grade_sequence(self, index: int) -> tuple[Fraction, ...]:
        """The grades of output ``index``, in rank order."""
        row = self.rows[index, : int(self.lengths[index])]
        return tuple(self.grades[int(j)] for j in row)

    def label(self, index: int) -> str:
        """``(1, 0, 1/2)``: the output's grade sequence."""
        grades = self.grade_sequence(index)
        return "(" + ", ".join(grade_text(g) for g in grades) + ("," if len(grades) == 1 else "") + ")"

    def ranking(self, index: int, relabel: bool = False) -> Ranking:
        """Output ``index`` as document ids: the m-th document of grade g is ``"g#m"``.

        ``relabel=True`` numbers the documents of each grade from the other
        end (``"g#c"``, ``"g#c-1"``, ... with ``c`` documents of the grade):
        the same grade sequence with other documents of equal judgments, which
        a pseudometric must score the same.
        """
        seen: dict[int, int] = {}
        docs = []
        for j in self.rows[index, : int(self.lengths[index])].tolist():
            m = seen.get(j, 0) + 1
            seen[j] = m
            grade = self.grades[j]
            # The topic judges per_grade documents of each non-zero grade but n of grade 0.
            count = self.per_grade if grade > 0 else self.n
            docs.append(f"{grade_text(grade)}#{count + 1 - m if relabel else m}")
        return Ranking(docs)

    def output(self, index: int) -> tuple[Ranking, Topic]:
        return self.ranking(index), self.topic

    def __iter__(self) -> Iterator[tuple[Ranking, Topic]]:
        for index in range(self.size):
            yield self.output(index)

    def batch(self, start: int = 0, stop: int | None = None) -> RankingBatch:
        """Rows ``start:stop`` as a :class:`RankingBatch` on the domain's topic, built from the array.

        Gains are the grade values (one aspect); every retrieved document is
        judged. Equivalent to ``RankingBatch.from_rankings`` on the rows'
        rankings, without building them.
        """
        rows = self.rows[start:stop]
        lengths = self.lengths[start:stop].astype(np.int64)
        values = np.array([float(g) for g in self.grades])
        valid = np.arange(self.n)[None, :] < lengths[:, None]
        gains = np.where(valid, values[rows], 0.0)
        return RankingBatch(self.topic, gains[:, :, None], lengths, valid)


def rankings(n: int, grades: Iterable[Number] = (0, 1), lengths: str = "exact",
             R: int | None = None) -> RankingsDomain:
    """The domain of all grade sequences of length ``n`` (or up to ``n``) over ``grades``.

    ``grades`` are relevance values in [0, 1] (read exactly: ``0.5 -> 1/2``).
    The topic has ``n`` documents of each non-zero grade, so
    ``R = n * (number of non-zero grades)``, unless ``R`` is given: it must
    then be a multiple of the number of non-zero grades, each grade getting
    ``R / that number`` documents. When 0 is a grade the topic also has ``n``
    judged non-relevant documents.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValidationError(f"rankings: n must be a non-negative integer, got {n!r}")
    if lengths not in ("exact", "upto"):
        raise ValidationError(f"rankings: lengths must be 'exact' or 'upto', got {lengths!r}")
    values = sorted({to_fraction(g) for g in grades})
    if not values:
        raise ValidationError("rankings: at least one grade is needed")
    for g in values:
        if not 0 <= g <= 1:
            raise ValidationError(f"rankings: grade {g} is outside [0, 1]")
    nonzero = [g for g in values if g > 0]
    if R is None:
        per_grade = n
    else:
        if isinstance(R, bool) or not isinstance(R, int) or R < 0:
            raise ValidationError(f"rankings: R must be a non-negative integer, got {R!r}")
        if not nonzero:
            if R:
                raise ValidationError("rankings: R > 0 needs a non-zero grade")
            per_grade = 0
        elif R % len(nonzero):
            raise ValidationError(
                f"rankings: R={R} is not a multiple of the {len(nonzero)} non-zero grades")
        else:
            per_grade = R // len(nonzero)
    judgments: dict[str, Number] = {}
    for g in values:
        count = per_grade if g > 0 else n
        for m in range(1, count + 1):
            judgments[f"{grade_text(g)}#{m}"] = g
    topic = Topic.single(judgments, topic_id="domain")
    base = len(values)
    if base ** n > 2 ** 31:
        raise ValidationError(f"rankings: {base}^{n} outputs is too many to enumerate")
    sizes = [n] if lengths == "exact" else list(range(n + 1))
    blocks, block_lengths = [], []
    for length in sizes:
        block = np.zeros((base ** length, n), dtype=_digit_type(base))
        block[:, :length] = _counter(base, length)
        blocks.append(block)
        block_lengths.append(np.full(len(block), length, dtype=np.int64))
    rows = np.concatenate(blocks)
    row_lengths = np.concatenate(block_lengths)
    if per_grade < n:  # some sequences need more documents of a grade than the topic has
        valid = np.arange(n)[None, :] < row_lengths[:, None]
        keep = np.ones(len(rows), dtype=bool)
        for j, g in enumerate(values):
            if g > 0:
                keep &= ((rows == j) & valid).sum(axis=1) <= per_grade
        rows, row_lengths = rows[keep], row_lengths[keep]
    return RankingsDomain(n, tuple(values), lengths, topic.R, per_grade, topic, rows, row_lengths)


@dataclass(frozen=True, eq=False)
class SetsDomain:
    """Retrieved subsets of ``N`` documents with ``R`` relevant, as contingency counts ``(TP, FP)``.

    Ordered by set size ``TP + FP``, then ``TP``. :meth:`counts` gives the
    :class:`~axiometer.metrics.set_based.Contingency` a set measure scores;
    :meth:`output` the set as documents (``"1#k"`` relevant, ``"0#k"`` not)
    with a topic of ``R`` relevant and ``N - R`` judged non-relevant documents.
    """

    N: int
    R: int
    size_rule: int | None
    nonrel: int | None
    tp: np.ndarray = field(repr=False)
    fp: np.ndarray = field(repr=False)

    @property
    def name(self) -> str:
        extra = "".join(f", {k}={v}" for k, v in (("size", self.size_rule), ("nonrel", self.nonrel))
                        if v is not None)
        return f"sets(N={self.N}, R={self.R}{extra})"

    @property
    def size(self) -> int:
        return len(self.tp)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return self.name

    def counts(self, index: int) -> Contingency:
        return Contingency.from_counts(self.N, self.R, int(self.tp[index]), int(self.fp[index]))

    def label(self, index: int) -> str:
        return f"(TP={int(self.tp[index])}, FP={int(self.fp[index])})"

    @functools.cached_property
    def topic(self) -> Topic:
        judgments: dict[str, Number] = {f"1#{m}": 1 for m in range(1, self.R + 1)}
        judgments.update({f"0#{m}": 0 for m in range(1, self.N - self.R + 1)})
        return Topic.single(judgments, topic_id="domain")

    def output(self, index: int) -> tuple[Ranking, Topic]:
        tp, fp = int(self.tp[index]), int(self.fp[index])
        docs = [f"1#{m}" for m in range(1, tp + 1)] + [f"0#{m}" for m in range(1, fp + 1)]
        return Ranking(docs), self.topic


def sets(N: int, R: int, size: int | None = None, nonrel: int | None = None) -> SetsDomain:
    """The retrieved subsets of ``N`` documents with ``R`` relevant, by ``(TP, FP)``.

    ``size`` keeps the sets with ``TP + FP = size``; ``nonrel`` those with
    ``FP = nonrel``. Without either: all ``(R + 1)(N - R + 1)`` count pairs.
    """
    for label, value in (("N", N), ("R", R), ("size", size), ("nonrel", nonrel)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ValidationError(f"sets: {label} must be a non-negative integer, got {value!r}")
    if R > N:
        raise ValidationError(f"sets: R={R} exceeds N={N}")
    tp_grid, fp_grid = np.meshgrid(np.arange(R + 1), np.arange(N - R + 1), indexing="ij")
    tp, fp = tp_grid.ravel(), fp_grid.ravel()
    keep = np.ones(len(tp), dtype=bool)
    if size is not None:
        keep &= tp + fp == size
    if nonrel is not None:
        keep &= fp == nonrel
    tp, fp = tp[keep], fp[keep]
    order = np.lexsort((tp, tp + fp))
    return SetsDomain(N, R, size, nonrel, tp[order], fp[order])


@dataclass(frozen=True, eq=False)
class UsersDomain:
    """Korfhage's user counts: ``U`` known relevant documents, ``unknown`` relevant ones the user does not know.

    Every output is a :class:`~axiometer.metrics.set_based.UserCounts`
    ``(U, Rk, Ru, wanted, examined)`` with ``Rk in 0..U`` known relevant
    documents retrieved and ``Ru in 0..unknown`` unknown ones. Recall effort
    (``wanted / examined``) needs the search effort too: with ``examined=E``
    the user wants a fixed ``wanted`` relevant documents (default 1) and
    examined ``wanted..E`` documents to find them, every value crossed with
    every ``(Rk, Ru)``; without ``examined`` both are 0 (the user measures
    other than recall effort ignore them). Ordered by ``Rk``, then ``Ru``,
    then ``examined``. :meth:`output` is the retrieved relevant documents
    (``"known#k"``, ``"new#k"``) with a topic judging all ``U + unknown`` relevant.
    """

    U: int
    unknown: int
    wanted: int
    examined_max: int | None
    rk: np.ndarray = field(repr=False)
    ru: np.ndarray = field(repr=False)
    examined: np.ndarray = field(repr=False)

    @property
    def name(self) -> str:
        extra = "" if self.examined_max is None else f", wanted={self.wanted}, examined={self.examined_max}"
        return f"users(U={self.U}, unknown={self.unknown}{extra})"

    @property
    def size(self) -> int:
        return len(self.rk)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return self.name

    @property
    def wanted_array(self) -> np.ndarray:
        """``wanted`` of every output (constant), as the vectorised path takes it."""
        return np.full(self.size, self.wanted if self.examined_max is not None else 0, dtype=np.int64)

    def counts(self, index: int) -> UserCounts:
        return UserCounts(self.U, int(self.rk[index]), int(self.ru[index]), int(self.wanted_array[index]),
                          int(self.examined[index]))

    def label(self, index: int) -> str:
        effort = "" if self.examined_max is None else \
            f", wanted={self.wanted}, examined={int(self.examined[index])}"
        return f"(Rk={int(self.rk[index])}, Ru={int(self.ru[index])}{effort})"

    @functools.cached_property
    def topic(self) -> Topic:
        judgments: dict[str, Number] = {f"known#{m}": 1 for m in range(1, self.U + 1)}
        judgments.update({f"new#{m}": 1 for m in range(1, self.unknown + 1)})
        return Topic.single(judgments, topic_id="domain")

    def output(self, index: int) -> tuple[Ranking, Topic]:
        rk, ru = int(self.rk[index]), int(self.ru[index])
        docs = [f"known#{m}" for m in range(1, rk + 1)] + [f"new#{m}" for m in range(1, ru + 1)]
        return Ranking(docs), self.topic


def users(U: int, unknown: int, wanted: int | None = None, examined: int | None = None) -> UsersDomain:
    """All user counts with ``Rk in 0..U`` and ``Ru in 0..unknown`` (and ``examined in wanted..E``).

    ``(U + 1)(unknown + 1)`` outputs, times ``E - wanted + 1`` when
    ``examined=E`` is given (see :class:`UsersDomain`; ``wanted`` defaults to
    1 then, and is an error without ``examined``).
    """
    for label, value in (("U", U), ("unknown", unknown), ("wanted", wanted), ("examined", examined)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ValidationError(f"users: {label} must be a non-negative integer, got {value!r}")
    if examined is None and wanted is not None:
        raise ValidationError("users: wanted needs examined (the most documents examined), e.g. "
                              "users(U=5, unknown=5, wanted=1, examined=6)")
    wanted = 1 if wanted is None else wanted
    if examined is not None and examined < wanted:
        raise ValidationError(f"users: examined={examined} is below wanted={wanted}")
    efforts = np.array([0]) if examined is None else np.arange(wanted, examined + 1)
    rk, ru, ex = np.meshgrid(np.arange(U + 1), np.arange(unknown + 1), efforts, indexing="ij")
    return UsersDomain(U, unknown, wanted, examined, rk.ravel(), ru.ravel(), ex.ravel())


#: Domains whose outputs are counts scored by a set measure (``metric.score(domain.counts(i))``).
CountsDomain = (SetsDomain, UsersDomain)


@dataclass(frozen=True, eq=False)
class OutputsDomain:
    """A user's finite sequence of ``(ranking, topic)`` outputs, in the order given."""

    items: tuple[tuple[Ranking, Topic], ...]
    name: str

    @property
    def size(self) -> int:
        return len(self.items)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return self.name

    def output(self, index: int) -> tuple[Ranking, Topic]:
        return self.items[index]

    def label(self, index: int) -> str:
        ranking, topic = self.items[index]
        where = f" on topic {topic.topic_id!r}" if topic.topic_id else ""
        return "[" + ", ".join(ranking) + "]" + where

    def __iter__(self) -> Iterator[tuple[Ranking, Topic]]:
        return iter(self.items)


def outputs(items: Iterable[tuple[Sequence[str], Topic]], name: str | None = None) -> OutputsDomain:
    """A domain of the given ``(ranking, topic)`` outputs (rankings are validated)."""
    pairs = tuple((r if isinstance(r, Ranking) else Ranking(r), t) for r, t in items)
    return OutputsDomain(pairs, name or f"outputs({len(pairs)} given)")
