"""Hypothesis strategies shared by the tests: integer-graded judgments and
scored runs, the raw material both axiometer and the peers (trec_eval,
ndeval) consume.

A *grade table* is ``{qid: {doc: {aspect: grade}}}``; a *scored run* is
``{qid: [(doc, score), ...]}`` with small integer-valued scores so that ties
(broken as trec_eval does) are common, and with unjudged documents mixed in.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from axiometer.core import Topic
from axiometer.grades import ranking_from_scores, topic_from_grades

GradeTable = dict[str, dict[str, dict[str, int]]]
ScoredRun = dict[str, list[tuple[str, float]]]


@st.composite
def topic_grades(draw, max_docs: int = 12, max_aspects: int = 3, max_grade: int = 3,
                 min_aspects: int = 1) -> dict[str, dict[str, int]]:
    """One topic: ``{doc: {aspect: grade}}``; every doc is judged on at least one aspect."""
    n_aspects = draw(st.integers(min_aspects, max_aspects))
    aspects = [str(a) for a in range(1, n_aspects + 1)]
    n_docs = draw(st.integers(1, max_docs))
    table = {}
    for i in range(n_docs):
        judged_on = draw(st.lists(st.sampled_from(aspects), min_size=1, max_size=n_aspects, unique=True))
        table[f"d{i:02d}"] = {a: draw(st.integers(0, max_grade)) for a in sorted(judged_on)}
    return table


@st.composite
def grade_tables(draw, max_topics: int = 3, **kwargs) -> GradeTable:
    """Several topics, ``q1..qN``."""
    n = draw(st.integers(1, max_topics))
    return {f"q{i}": draw(topic_grades(**kwargs)) for i in range(1, n + 1)}


@st.composite
def scored_run(draw, grades: GradeTable, max_unjudged: int = 4, max_depth: int = 25) -> ScoredRun:
    """A run over ``grades``: a subset of each topic's judged documents plus a
    few unjudged ones, with tie-prone scores."""
    run = {}
    for qid, table in grades.items():
        judged = sorted(table)
        unjudged = [f"u{i:02d}" for i in range(draw(st.integers(0, max_unjudged)))]
        docs = draw(st.lists(st.sampled_from(judged + unjudged), unique=True,
                             max_size=min(max_depth, len(judged) + len(unjudged))))
        run[qid] = [(d, float(draw(st.integers(0, 6)))) for d in docs]
    return run


@st.composite
def grades_and_run(draw, **kwargs) -> tuple[GradeTable, ScoredRun]:
    grades = draw(grade_tables(**kwargs))
    return grades, draw(scored_run(grades))


@st.composite
def diversity_cases(draw, max_docs: int = 10, max_aspects: int = 4, max_rankings: int = 4,
                    min_aspects: int = 1):
    """A topic with exact relevance and a few rankings (judged and unjudged documents).

    Relevance comes from a grade mapping or from a drawn table of fractions
    (``1/10``, ``1/3``, ... whose float sums are inexact); weights are balanced
    or drawn unequal.
    """
    grades = draw(topic_grades(max_docs=max_docs, max_aspects=max_aspects,
                               min_aspects=min_aspects))
    aspects = sorted({a for per in grades.values() for a in per})
    weights = None
    if draw(st.booleans()):
        raw = [draw(st.integers(1, 5)) for _ in aspects]
        weights = {a: Fraction(x, sum(raw)) for a, x in zip(aspects, raw)}
    mapping = draw(st.sampled_from(("err", "linear", "binary", "err-aspect", "table")))
    if mapping == "table":
        value = {g: draw(st.fractions(0, 1, max_denominator=12)) for g in range(1, 4)}
        topic = Topic({d: {a: value[g] if g > 0 else 0 for a, g in per.items()}
                       for d, per in grades.items()}, weights, "q")
    else:
        topic = topic_from_grades("q", grades, weights, mapping=mapping)
    runs = draw(st.lists(scored_run({"q": grades}), min_size=1, max_size=max_rankings))
    return topic, [ranking_from_scores(run["q"]) for run in runs]
