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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from axiometer.core import Ranking, Topic, ValidationError

__all__ = ["GRADE_MAPPINGS", "DEFAULT_MAPPING", "MAX_GRADE", "grade_to_relevance", "topic_from_grades",
           "ranking_from_scores"]

GRADE_MAPPINGS = ("linear", "err", "err-aspect", "binary")
#: The largest grade (and scale maximum) accepted: the ``err`` mappings compute ``2^g`` exactly,
#: so an unbounded grade could take minutes and gigabytes; TREC's scales stop at 4.
MAX_GRADE = 100
DEFAULT_MAPPING = "err"


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
    per_aspect_max: dict[str, int] = {}
    if mapping == "err-aspect":
        for per in grades.values():
            for aspect, g in per.items():
                if g > per_aspect_max.get(aspect, 0):
                    per_aspect_max[aspect] = g
    judgments = {
        doc: {aspect: grade_to_relevance(
            g, mapping, per_aspect_max.get(aspect, 0) if mapping == "err-aspect" else gmax)
              for aspect, g in per.items()}
        for doc, per in grades.items()
    }
    return Topic(judgments, weights, topic_id)


def ranking_from_scores(scored: Iterable[tuple[str, float]]) -> Ranking:
    """Order ``(docno, score)`` pairs as trec_eval does: score descending, then
    docno descending (string order). The rank column of a run is ignored, as
    trec_eval ignores it."""
    ordered = sorted(scored, key=lambda pair: (pair[1], pair[0]), reverse=True)
    return Ranking(doc for doc, _ in ordered)
