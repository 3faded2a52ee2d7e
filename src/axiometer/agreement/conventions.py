"""The conventions implementations of one metric differ on, each named, and the reference put in any of them.

Implementations of the same formula disagree on inputs the formula leaves
open. Each such choice is an :class:`Axis`; a :class:`Convention` picks one
value on every axis. The first value of an axis is the reference's own
(axiometer's scoring, which follows the metric's reference implementation):

- ``ties``: how equal scores are ordered: by document id descending
  (trec_eval), by document id ascending, in the run's line order (a stable
  sort on the score alone), in reverse line order;
- ``precision``: scores compared as the doubles given, or rounded to
  float32 first (trec_eval keeps scores as C ``float``);
- ``relevance``: how a grade becomes a gain or relevance: the grade itself,
  ``2^g - 1``, binary at level 1 or at level 2 (a binary metric has only the
  two binary readings);
- ``norel``: the value of a query with no relevant document: 0, 1, or none
  (the implementation's value is then not compared);
- ``cutoff`` (``P@k``, ``AP@k``, ``R@k`` only): divide by ``k`` (``P@k``) or
  ``R`` (``AP@k``, ``R@k``) as trec_eval does, or by ``min(k, n)`` /
  ``min(R, k)``;
- ``ideal`` (nDCG-like metrics only; never searched, given on request): the
  ideal ranking from every judged document, or only from the documents the
  run retrieved, as learning-to-rank libraries compute it. That is a
  different normaliser, not a reading of nDCG's definition, so ``agree``
  assumes it only when asked.

Source: the conventions are the ones the peers document: trec_eval's
``README`` and ``-c``/``-l`` options, ir_measures' providers, ranx's metric
docs; each convention's phrase says whose it is.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from axiometer.agreement.query import Query
from axiometer.core import ValidationError
from axiometer.metrics.base import Metric

__all__ = ["Axis", "Convention", "AXES", "axes_for", "conventions_for", "ranking_under", "parse_conventions"]


@dataclass(frozen=True)
class Axis:
    """One choice implementations differ on: ``name`` (as ``--convention`` spells it), ``title``,
    and each value's phrase (``phrases``), in the order they are preferred."""

    name: str
    title: str
    phrases: Mapping[str, str]

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(self.phrases)


TIES = Axis("ties", "tie-breaking", {
    "docid-desc": "ties broken by document id, descending (trec_eval)",
    "docid-asc": "ties broken by document id, ascending",
    "input": "ties kept in the run's line order (a stable sort on the score alone)",
    "reverse-input": "ties in reverse line order",
})
PRECISION = Axis("precision", "score precision", {
    "float64": "scores compared as the doubles given",
    "float32": "scores rounded to float32 before they are compared (trec_eval's C float)",
})
RELEVANCE = Axis("relevance", "gain mapping", {
    "grade": "gain = the grade",
    "exponential": "gain = 2^grade - 1",
    "binary": "relevant (gain 1) when grade >= 1",
    "binary@2": "relevant (gain 1) only when grade >= 2",
})
NOREL = Axis("norel", "query with no relevant document", {
    "zero": "0 for a query with no relevant document",
    "one": "1 for a query with no relevant document",
    "none": "no value for a query with no relevant document (not compared)",
})
CUTOFF = Axis("cutoff", "cutoff semantics", {
    "fixed": "@k divides by k (P) or by R (AP, R), as trec_eval",
    "shorter": "@k divides by min(k, documents retrieved) (P) or by min(R, k) (AP, R)",
})
IDEAL = Axis("ideal", "ideal ranking", {
    "judgments": "the ideal ranking from every judged document",
    "run": "the ideal ranking from the run's retrieved documents only (learning-to-rank libraries)",
})
AXES: tuple[Axis, ...] = (TIES, PRECISION, RELEVANCE, NOREL, CUTOFF, IDEAL)
_BY_NAME = {axis.name: axis for axis in AXES}

#: Families whose value is normalised by an ideal ranking built from the judgments.
IDEAL_FAMILIES = frozenset({"nDCG", "nERR", "SR", "MSR", "wRprec", "AWP", "Q_measure", "R_measure"})
#: Families with a cutoff convention, and what ``shorter`` divides by.
CUTOFF_FAMILIES = frozenset({"P", "AP", "R"})


@dataclass(frozen=True)
class Convention:
    """One value on every axis (``values``, by axis name); ``reference`` is the metric's own."""

    values: tuple[tuple[str, str], ...]
    reference: tuple[tuple[str, str], ...]

    def __getitem__(self, axis: str) -> str:
        return dict(self.values)[axis]

    def departures(self) -> list[tuple[str, str]]:
        """The axes where this convention is not the reference's, in axis order."""
        own = dict(self.reference)
        return [(axis, value) for axis, value in self.values if own[axis] != value]

    @property
    def is_reference(self) -> bool:
        return not self.departures()

    def cost(self) -> tuple[int, tuple[int, ...]]:
        """Fewer departures first, then earlier values: the order in which conventions are preferred."""
        return len(self.departures()), tuple(_BY_NAME[a].values.index(v) for a, v in self.values)

    def phrase(self) -> str:
        """``"ties broken by document id, descending (trec_eval); scores rounded to float32 ..."``: the
        departures in words, or the reference's own conventions when there are none."""
        chosen = self.departures() or []
        if not chosen:
            return "the reference's own conventions"
        return "; ".join(_BY_NAME[a].phrases[v] for a, v in chosen)

    def to_dict(self) -> dict[str, str]:
        return dict(self.values)


def _reference_relevance(metric: Metric) -> str:
    convention = metric.grades_convention
    mapping = convention.mapping if convention is not None else "linear"
    if not metric.needs.graded or mapping == "binary":
        return "binary"
    return "exponential" if mapping in ("err", "err-aspect") else "grade"


def axes_for(metric: Metric, *, searched: bool = True) -> list[tuple[Axis, tuple[str, ...]]]:
    """The axes that matter to ``metric`` with the values to try, the reference's first.
    ``searched``: leave out ``ideal``'s alternative (it is tried only when asked for)."""
    own = _reference_relevance(metric)
    relevance = (("binary", "binary@2") if own == "binary" and not metric.needs.graded
                 else (own, *[v for v in RELEVANCE.values if v != own]))
    if metric.params.get("rel", 1) != 1:
        relevance = (own,)  # a metric at another level reads its own grades; no reading to try
    cutoff = CUTOFF.values if metric.family in CUTOFF_FAMILIES and metric.cutoff is not None else ("fixed",)
    ideal = IDEAL.values if metric.family in IDEAL_FAMILIES and not searched else ("judgments",)
    return [(TIES, TIES.values), (PRECISION, PRECISION.values), (RELEVANCE, relevance),
            (NOREL, NOREL.values), (CUTOFF, cutoff), (IDEAL, ideal)]


def conventions_for(metric: Metric, fixed: Mapping[str, str] | None = None, *,
                    searched: bool = True) -> list[Convention]:
    """Every convention to try for ``metric``, preferred first; ``fixed`` pins some axes (from
    ``--convention``), which then take only that value."""
    axes = axes_for(metric, searched=searched and not (fixed and "ideal" in fixed))
    reference = tuple((axis.name, values[0]) for axis, values in axes)
    choices: list[tuple[str, ...]] = []
    for axis, values in axes:
        if fixed and axis.name in fixed:
            values = (fixed[axis.name],)
            if axis.name == "ideal" and metric.family not in IDEAL_FAMILIES:
                raise ValidationError(f"--convention ideal=... applies to a metric with an ideal ranking "
                                      f"({', '.join(sorted(IDEAL_FAMILIES))}), not {metric.name}")
        choices.append(values)
    names = [axis.name for axis, _ in axes]
    found = [Convention(tuple(zip(names, combo)), reference) for combo in itertools.product(*choices)]
    return sorted(found, key=Convention.cost)


def parse_conventions(items: Sequence[str], label: str = "--convention") -> dict[str, str]:
    """``["ties=input", "precision=float32"]`` as ``{axis: value}``; one error naming a bad item
    (after ``label``: the option or argument it came from)."""
    fixed: dict[str, str] = {}
    for item in items:
        axis_name, sep, value = item.partition("=")
        axis = _BY_NAME.get(axis_name.strip())
        if not sep or axis is None:
            raise ValidationError(f"{label} {item!r}: expected AXIS=VALUE with AXIS one of "
                                  f"{', '.join(_BY_NAME)}")
        if value.strip() not in axis.values:
            raise ValidationError(f"{label} {item!r}: {axis.name} is one of {', '.join(axis.values)}")
        fixed[axis.name] = value.strip()
    return fixed


def _rounded(score: float, precision: str) -> float:
    """``score`` at ``precision``; a double past float32's range becomes an infinity, as in C."""
    if precision != "float32":
        return score
    with np.errstate(over="ignore"):
        return float(np.float32(score))


def ranking_under(query: Query, ties: str, precision: str) -> list[str]:
    """The run's documents in the order an implementation with these conventions ranks them:
    score descending (after rounding to ``precision``), ties as ``ties`` says."""
    rows = [(d, _rounded(s, precision), i) for i, (d, s) in enumerate(query.run)]
    if ties == "docid-desc":
        rows.sort(key=lambda row: (row[1], row[0]), reverse=True)
    elif ties == "docid-asc":
        rows.sort(key=lambda row: row[0])
        rows.sort(key=lambda row: row[1], reverse=True)
    elif ties == "input":
        rows.sort(key=lambda row: row[1], reverse=True)  # sorted() is stable
    else:
        rows.sort(key=lambda row: (row[1], row[2]), reverse=True)
    return [d for d, _, _ in rows]


def tie_free(query: Query) -> bool:
    """Whether no two retrieved documents share a score, even after rounding to float32."""
    rounded = [_rounded(s, "float32") for _, s in query.run]
    return len(set(rounded)) == len(rounded) and len({s for _, s in query.run}) == len(query.run)


def grouped(conventions: Sequence[Convention]) -> Iterator[tuple[tuple[str, str], list[Convention]]]:
    """``conventions`` grouped by their ``(ties, precision)``: each group ranks a run the same way."""
    keyed: dict[tuple[str, str], list[Convention]] = {}
    for convention in conventions:
        keyed.setdefault((convention["ties"], convention["precision"]), []).append(convention)
    return iter(keyed.items())
