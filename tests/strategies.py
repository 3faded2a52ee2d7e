"""Hypothesis strategies shared by the tests: integer-graded judgments and
scored runs, the raw material both axiometer and the peers (trec_eval,
ndeval) consume.

A *grade table* is ``{qid: {doc: {aspect: grade}}}``; a *scored run* is
``{qid: [(doc, score), ...]}`` with small integer-valued scores so that ties
(broken as trec_eval does) are common, and with unjudged documents mixed in.
"""

from __future__ import annotations

from hypothesis import strategies as st

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
