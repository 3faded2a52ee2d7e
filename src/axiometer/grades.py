"""From integer TREC grades to relevance ``r`` in [0, 1], and from run scores to rankings.

The grade-to-relevance mapping belongs to the reader, not to the metric
(definitions §1 and §2). Mappings, for a grade ``g`` (negative grades, such as
TREC's -2 for spam, are judged non-relevant: ``r = 0``):

- ``linear``:     ``r = g / gmax``, ``gmax`` the scale's maximum;
- ``err``:        ``r = (2^g - 1) / 2^gmax`` (ERR's mapping, the default);
- ``err-aspect``: the same with ``gmax`` the largest positive grade judged for
  that aspect of that topic (what the RBU reference implementation does);
- ``binary``:     ``r = 1`` if ``g > 0`` else 0 (ndeval's binary judgments).

The scale's maximum is, unless given, the largest grade in the whole qrels.
Values are exact ``Fraction``s, so exact evaluation needs no rounding.

When scoring, each metric reads the grades the way its reference
implementation does (its :class:`GradeConvention`, ``grades_convention`` on
the metric class), unless the user names one mapping for all: trec_eval's
for P, RR, AP, R-precision, bpref, DCG and nDCG (gain = grade: ``linear``),
ndeval's binary judgments for its novelty and intent-aware measures, ERR's
mapping for the ERR family, the RBU reference's ``err-aspect`` for RBU, and
ir_measures' ``RBP(rel=1)`` (binary) for RBP.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from axiometer.core import Ranking, Topic, ValidationError

__all__ = ["GRADE_MAPPINGS", "DEFAULT_MAPPING", "MAX_GRADE", "grade_to_relevance", "topic_from_grades",
           "ranking_from_scores", "GradeConvention", "TREC_EVAL", "NDEVAL", "ERR_MAPPING", "RBU_REFERENCE",
           "IR_MEASURES_RBP", "AXIOMETER_DEFAULT", "topics_under", "scale_for", "aspect_scales"]

GRADE_MAPPINGS = ("linear", "err", "err-aspect", "binary")
#: The largest grade (and scale maximum) accepted: the ``err`` mappings compute ``2^g`` exactly,
#: so an unbounded grade could take minutes and gigabytes; TREC's scales stop at 4.
MAX_GRADE = 100
DEFAULT_MAPPING = "err"


@dataclass(frozen=True)
class GradeConvention:
    """How a metric's reference implementation reads integer grades: a ``mapping`` of
    :data:`GRADE_MAPPINGS` and whose convention it is (``reference``, for reports)."""

    mapping: str
    reference: str


#: trec_eval: relevant iff grade >= 1 (its ``-l``), nDCG's gain the grade itself (``linear`` gives the
#: same nDCG, a ratio; DCG is trec_eval's divided by the scale maximum).
TREC_EVAL = GradeConvention("linear", "trec_eval")
#: ndeval (TREC Web track): binary judgments, relevant iff grade >= 1.
NDEVAL = GradeConvention("binary", "ndeval")
#: Chapelle et al. 2009 (ERR), and ndeval's ERR-IA: ``(2^g - 1) / 2^gmax``.
ERR_MAPPING = GradeConvention("err", "ERR (Chapelle et al. 2009)")
#: The RBU reference implementation: ``(2^g - 1) / 2^gmax(t)`` per aspect.
RBU_REFERENCE = GradeConvention("err-aspect", "RBU reference")
#: ir_measures' RBP (Moffat & Zobel 2008) as its provider computes it with ``rel=1``: binary
#: (without ``rel`` ir_measures has no provider for RBP).
IR_MEASURES_RBP = GradeConvention("binary", "ir_measures RBP(rel=1)")
#: A metric with no reference implementation: ERR's mapping, axiometer's default.
AXIOMETER_DEFAULT = GradeConvention(DEFAULT_MAPPING, "axiometer default")


def grade_to_relevance(grade: int, mapping: str, gmax: int) -> Fraction:
    """``r`` for one grade under ``mapping`` with scale maximum ``gmax``."""
    if grade <= 0:
        return Fraction(0)
    if mapping == "binary":
        return Fraction(1)
    if grade > MAX_GRADE or gmax > MAX_GRADE:
        raise ValidationError(f"grade {max(grade, gmax)} is above {MAX_GRADE}, the largest accepted")
    if gmax <= 0:
        raise ValidationError(f"grade {grade} above a scale maximum of {gmax}")
    if grade > gmax:
        raise ValidationError(f"grade {grade} exceeds the scale maximum {gmax}")
    if mapping == "linear":
        return Fraction(grade, gmax)
    if mapping in ("err", "err-aspect"):
        return Fraction(2 ** grade - 1, 2 ** gmax)
    raise ValidationError(f"unknown grade mapping {mapping!r}; known: {', '.join(GRADE_MAPPINGS)}")


def topic_from_grades(topic_id: str, grades: Mapping[str, Mapping[str, int]],
                      weights: Mapping[str, float | Fraction] | None = None,
                      mapping: str = DEFAULT_MAPPING, gmax: int | None = None) -> Topic:
    """Build a :class:`Topic` from ``doc -> {aspect: grade}``.

    ``weights`` defaults to balanced weights over the aspects named in
    ``grades``; ``gmax`` (the scale's maximum) defaults to the largest grade
    in ``grades``. Under ``err-aspect`` each aspect uses its own largest
    positive grade.
    """
    if mapping not in GRADE_MAPPINGS:
        raise ValidationError(f"unknown grade mapping {mapping!r}; known: {', '.join(GRADE_MAPPINGS)}")
    if gmax is None:
        gmax = max((g for per in grades.values() for g in per.values()), default=0)
    per_aspect_max = aspect_scales(grades.values()) if mapping == "err-aspect" else {}
    judgments = {
        doc: {aspect: grade_to_relevance(
            g, mapping, per_aspect_max.get(aspect, 0) if mapping == "err-aspect" else gmax)
              for aspect, g in per.items()}
        for doc, per in grades.items()
    }
    # The grades decide relevance levels (rel=N): the largest over aspects for an aspect-blind
    # metric, each aspect's own for an intent-aware one.
    return Topic(judgments, weights, topic_id, grades=grades)


def topics_under(grades: Mapping[str, Mapping[str, Mapping[str, int]]],
                 weights: Mapping[str, Mapping[str, Fraction | float]], mapping: str,
                 gmax: int | None = None) -> dict[str, Topic]:
    """Every topic of a qrels' integer ``grades`` (``qid -> doc -> aspect -> grade``) under ``mapping``.

    ``gmax`` is the scale maximum for ``linear`` and ``err`` (default, as when reading: the largest
    grade in the whole qrels); ``binary`` and ``err-aspect`` ignore it. Topics keep the order of
    ``grades``; ``weights`` are each topic's aspect weights.
    """
    largest = max((g for table in grades.values() for per in table.values() for g in per.values()),
                  default=1)
    scale = scale_for(mapping, gmax, largest)
    return {qid: topic_from_grades(qid, table, weights.get(qid), mapping, scale)
            for qid, table in grades.items()}


def scale_for(mapping: str, gmax: int | None, largest: int) -> int:
    """The scale maximum a qrels' topics are built with under ``mapping``: ``gmax`` when given
    (``linear`` and ``err``), else the file's ``largest`` grade (at least 1); ``binary`` and
    ``err-aspect`` ignore ``gmax``."""
    if mapping in ("binary", "err-aspect") or gmax is None:
        return max(largest, 1)
    return gmax


def aspect_scales(per_document: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Each aspect's largest positive grade over the documents' ``{aspect: grade}``: its scale
    maximum under ``err-aspect`` (the RBU reference's ``gmax(t)``); an aspect with none is absent."""
    largest: dict[str, int] = {}
    for per in per_document:
        for aspect, grade in per.items():
            if grade > largest.get(aspect, 0):
                largest[aspect] = grade
    return largest


def ranking_from_scores(scored: Iterable[tuple[str, float]]) -> Ranking:
    """Order ``(docno, score)`` pairs as trec_eval does: score descending, then
    docno descending (string order). The rank column of a run is ignored, as
    trec_eval ignores it."""
    ordered = sorted(scored, key=lambda pair: (pair[1], pair[0]), reverse=True)
    return Ranking(doc for doc, _ in ordered)
