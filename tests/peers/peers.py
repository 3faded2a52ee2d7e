"""Calling the peers (trec_eval through pytrec_eval, ndeval through pyndeval)
on a grade table and a ranking per topic.

Rankings are handed to the peers with strictly decreasing scores
(``n, n-1, ..., 1``), so each peer sees exactly the order axiometer scores and
no peer-specific tie rule can interfere (pyndeval breaks ties by docno
ascending, trec_eval by docno descending; tie-breaking is tested separately,
on the run reader). pyndeval is called directly: ir_measures' provider
returns 0.0 when one call mixes parameter settings (definitions §2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pyndeval
import pytrec_eval

GradeTable = Mapping[str, Mapping[str, Mapping[str, int]]]
Rankings = Mapping[str, Sequence[str]]


def _scored(ranking: Sequence[str]) -> dict[str, float]:
    n = len(ranking)
    return {doc: float(n - i) for i, doc in enumerate(ranking)}


def trec_eval(grades: GradeTable, rankings: Rankings, measures: Iterable[str],
              relevance_level: int = 1) -> dict[str, dict[str, float]]:
    """trec_eval's per-topic values. Qrels grade = the document's largest grade
    over aspects (the single-aspect view of a multi-aspect topic)."""
    qrels = {qid: {doc: max(per.values()) for doc, per in table.items()}
             for qid, table in grades.items()}
    run = {qid: _scored(ranking) for qid, ranking in rankings.items() if ranking}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(measures), relevance_level=relevance_level)
    return evaluator.evaluate(run)


def ndeval(grades: GradeTable, rankings: Rankings, measures: Iterable[str],
           alpha: float = 0.5, beta: float = 0.5) -> dict[str, dict[str, float]]:
    """ndeval's per-topic values (binary judgments: grade >= 1 is relevant)."""
    qrels = [(qid, aspect, doc, grade)
             for qid, table in grades.items()
             for doc, per in table.items()
             for aspect, grade in per.items()]
    run = [(qid, doc, score)
           for qid, ranking in rankings.items()
           for doc, score in _scored(ranking).items()]
    evaluator = pyndeval.RelevanceEvaluator(qrels, list(measures), alpha=alpha, beta=beta)
    return evaluator.evaluate(run)
