"""The exact reference's value for one query, in any :class:`~axiometer.agreement.conventions.Convention`.

The reference is axiometer's built-in metric (its ``score``, and its exact
``Fraction`` or sympy value where a report shows one). A convention changes
only the input the metric sees and, for the conventions that are a different
divisor, the value by an exact factor:

- ``ties``/``precision`` decide the ranking (:func:`ranking_under`);
- ``relevance`` decides the grades the topic is built from: ``grade`` with
  gains ``g / G`` (``G`` the generated scale's top grade; nDCG is a ratio, so
  this is trec_eval's gain ``g``), ``exponential`` with ``(2^g - 1) / 2^G``,
  ``binary``/``binary@2`` with grade 1 for ``g >= 1`` / ``g >= 2``;
- ``ideal=run`` keeps only the judgments of retrieved documents;
- ``norel`` replaces the value of a query without a relevant document;
- ``cutoff=shorter`` multiplies ``P@k`` by ``k / min(k, n)`` and ``AP@k``,
  ``R@k`` by ``R / min(R, k)``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from axiometer.agreement.conventions import Convention, ranking_under
from axiometer.agreement.query import Query
from axiometer.core import Topic
from axiometer.grades import topic_from_grades
from axiometer.metrics.base import Metric

__all__ = ["reference_topic", "reference_value", "exact_value", "base_value", "adjusted"]

_ASPECT = "t"


def _grade(grade: int, relevance: str) -> int:
    if relevance == "binary":
        return 1 if grade >= 1 else 0
    if relevance == "binary@2":
        return 1 if grade >= 2 else 0
    return max(grade, 0)


def reference_topic(query: Query, convention: Convention, max_grade: int) -> Topic:
    """The topic the reference scores ``query`` against under ``convention``."""
    relevance = convention["relevance"]
    judged = query.judgments
    if convention["ideal"] == "run":
        retrieved = {d for d, _ in query.run}
        judged = tuple((d, g) for d, g in judged if d in retrieved)
    grades = {d: {_ASPECT: _grade(g, relevance)} for d, g in judged}
    binary = relevance in ("binary", "binary@2")
    mapping = "err" if relevance == "exponential" else "linear"
    return topic_from_grades("q", grades, mapping=mapping, gmax=1 if binary else max_grade)


def _factor(metric: Metric, query: Query, convention: Convention, relevant: int) -> Fraction:
    """The exact factor ``cutoff=shorter`` multiplies the value by (1 otherwise)."""
    k = metric.cutoff
    if convention["cutoff"] != "shorter" or k is None:
        return Fraction(1)
    if metric.family == "P":
        shown = min(k, len(query.run))
        return Fraction(k, shown) if shown else Fraction(1)
    return Fraction(relevant, min(relevant, k)) if relevant else Fraction(1)


def base_value(metric: Metric, query: Query, convention: Convention, max_grade: int) -> tuple[float, int]:
    """The metric's value on the ranking and topic ``convention`` gives (before ``norel`` and
    ``cutoff``), and the topic's number of relevant documents: what conventions that differ only in
    ``norel`` and ``cutoff`` share."""
    topic = reference_topic(query, convention, max_grade)
    ranking = ranking_under(query, convention["ties"], convention["precision"])
    return metric.score(ranking, topic), len(topic.relevant)


def adjusted(metric: Metric, query: Query, convention: Convention, base: tuple[float, int]) -> float | None:
    """The reference's value under ``convention`` from its :func:`base_value`: ``norel`` for a
    query with no relevant document, then the ``cutoff`` factor."""
    value, relevant = base
    if relevant == 0 and convention["norel"] != "zero":
        return 1.0 if convention["norel"] == "one" else None
    factor = _factor(metric, query, convention, relevant)
    return value if factor == 1 else float(Fraction(value) * factor)


def reference_value(metric: Metric, query: Query, convention: Convention, max_grade: int) -> float | None:
    """The reference's value (a float, exact to float64's rounding) for ``query`` under
    ``convention``; ``None`` when ``norel=none`` and the query has no relevant document."""
    return adjusted(metric, query, convention, base_value(metric, query, convention, max_grade))


def exact_value(metric: Metric, query: Query, convention: Convention, max_grade: int) -> Any:
    """The reference's exact value (a ``Fraction`` or a sympy number), for reports; ``None`` as in
    :func:`reference_value`, or when the metric has no exact path."""
    topic = reference_topic(query, convention, max_grade)
    relevant = len(topic.relevant)
    if relevant == 0 and convention["norel"] != "zero":
        return Fraction(1) if convention["norel"] == "one" else None
    if metric.exact is None:
        return None
    ranking = ranking_under(query, convention["ties"], convention["precision"])
    return metric.exact(ranking, topic) * _factor(metric, query, convention, relevant)
