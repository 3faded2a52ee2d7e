"""Shrinking a failing query further than hypothesis alone reaches, from any query that fails.

Hypothesis shrinks what it generates itself; a disagreement found in the
first, batch pass (or in a hand-written awkward query) is shrunk here by
greedy passes, each kept only when the query still fails: drop a document,
drop a judgment or a run line, lower a grade, replace a score by a simpler
one (1.0, 0.0, 2.0, the nearest integer, its float32 value, a neighbour
score) or every score by small ones in the same order and float32 classes,
put the run's lines in score order, and rename documents ``a``, ``b``, ...
down the run or in their string order. The passes repeat until none makes
the query simpler (:func:`complexity`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import math

import numpy as np

from axiometer.agreement.query import Query

__all__ = ["complexity", "shrink"]

_MAX_ROUNDS = 20


def _score_cost(score: float) -> int:
    """Small integers cost nothing; other scores cost more the further their magnitude is from 1."""
    if score.is_integer() and abs(score) < 100:
        return 0
    if score == 0 or not math.isfinite(score):
        return 1
    return 1 + int(abs(math.log10(abs(score))) > 3)


def _inversions(query: Query) -> int:
    """How many pairs of run lines are out of score-descending order."""
    scores = [s for _, s in query.run]
    return sum(1 for i, a in enumerate(scores) for b in scores[i + 1:] if a < b)


def complexity(query: Query) -> tuple[int, int, int, int, int, int, int, str]:
    """The order "simpler" follows: fewer documents, fewer lines, lower grades, plainer scores
    (small integers, then moderate magnitudes, then short texts), plain ids (one lowercase letter),
    run lines in score order, then ids earlier in the alphabet."""
    ids = {d for d, _ in query.judgments} | {d for d, _ in query.run}
    return (query.size, len(query.judgments) + len(query.run), sum(g for _, g in query.judgments),
            sum(_score_cost(s) for _, s in query.run), sum(len(repr(s)) for _, s in query.run),
            sum(0 if len(d) == 1 and d.islower() else 1 for d in ids), _inversions(query),
            " ".join(d for d, _ in query.judgments) + "|" + " ".join(d for d, _ in query.run))


def _without_document(query: Query) -> Iterator[Query]:
    for doc in sorted({d for d, _ in query.judgments} | {d for d, _ in query.run}):
        judged = tuple((d, g) for d, g in query.judgments if d != doc)
        if judged:
            yield Query(judged, tuple((d, s) for d, s in query.run if d != doc))
    for i in range(len(query.run)):
        yield Query(query.judgments, query.run[:i] + query.run[i + 1:])
    for i in range(len(query.judgments)):
        if len(query.judgments) > 1:
            yield Query(query.judgments[:i] + query.judgments[i + 1:], query.run)


def _lower_grades(query: Query) -> Iterator[Query]:
    for i, (doc, grade) in enumerate(query.judgments):
        for lower in range(min(grade, 2)):
            yield Query(query.judgments[:i] + ((doc, lower),) + query.judgments[i + 1:], query.run)


def _simpler_scores(query: Query) -> Iterator[Query]:
    others = [s for _, s in query.run]
    for i, (doc, score) in enumerate(query.run):
        with np.errstate(over="ignore"):
            rounded = float(np.float32(score))
        options = [1.0, 0.0, 2.0, float(round(score)) if abs(score) < 1e15 else score, rounded, *others]
        for option in options:
            if option != score and math.isfinite(option):
                yield Query(query.judgments, query.run[:i] + ((doc, option),) + query.run[i + 1:])


def _normalised_scores(query: Query) -> Iterator[Query]:
    """Every score mapped to a small one, keeping the order of the doubles and which of them are
    equal in float32: the k-th float32 value (ascending) becomes k, and the doubles that round to it
    become k and the doubles just below k, in their order."""
    with np.errstate(over="ignore"):
        classes: dict[float, list[float]] = {}
        for value in sorted({s for _, s in query.run}):
            classes.setdefault(float(np.float32(value)), []).append(value)
    mapped: dict[float, float] = {}
    for base, (_, members) in enumerate(sorted(classes.items()), 1):
        target = float(base)
        for value in reversed(members):
            mapped[value] = target
            target = math.nextafter(target, -math.inf)
    yield Query(query.judgments, tuple((d, mapped[s]) for d, s in query.run))


def _sorted_lines(query: Query) -> Iterator[Query]:
    """The run's lines in score-descending order (equal scores keep their order), and the judgments'
    in the run's order."""
    run = tuple(sorted(query.run, key=lambda line: -line[1]))
    place = {d: i for i, (d, _) in enumerate(run)}
    yield Query(tuple(sorted(query.judgments, key=lambda line: place.get(line[0], len(place)))), run)


def _plain_names(query: Query) -> Iterator[Query]:
    ids = sorted({d for d, _ in query.judgments} | {d for d, _ in query.run})
    letters = "abcdefghijklmnopqrstuvwxyz"
    appearing = list(dict.fromkeys([d for d, _ in query.run] + [d for d, _ in query.judgments]))
    if len(ids) <= len(letters):
        yield query.renamed(dict(zip(appearing, letters)))  # a, b, c, ... down the run
        yield query.renamed(dict(zip(ids, letters)))
        yield query.renamed(dict(zip(ids, reversed(letters[:len(ids)]))))


def shrink(query: Query, fails: Callable[[Query], bool]) -> Query:
    """The simplest query the greedy passes reach from ``query`` (which must fail) that still fails."""
    passes = (_without_document, _lower_grades, _normalised_scores, _simpler_scores, _sorted_lines, _plain_names)
    for _ in range(_MAX_ROUNDS):
        improved = False
        for candidates in passes:
            for candidate in candidates(query):
                if complexity(candidate) < complexity(query) and fails(candidate):
                    query, improved = candidate, True
                    break
        if not improved:
            return query
    return query
