"""R@k, recall at k: hand-computed values and trec_eval's recall_k."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.grades import topic_from_grades
from axiometer.metrics.resolve import resolve

TOPIC = topic_from_grades("q", {"a": {"t": 1}, "b": {"t": 2}, "c": {"t": 0}, "d": {"t": 1}}, mapping="linear")


@pytest.mark.parametrize("spec, ranking, expected", [
    ("R@2", ["a", "c", "b"], Fraction(1, 3)),      # a of {a, b, d} in the first 2
    ("R@3", ["a", "c", "b"], Fraction(2, 3)),
    ("R@10", ["a", "c", "b"], Fraction(2, 3)),     # d never retrieved still counts in R
    ("R@1", ["c"], Fraction(0)),
    ("R(rel=2)@3", ["a", "c", "b"], Fraction(1)),  # only b is relevant at level 2
])
def test_recall_at_k_is_the_share_of_relevant_documents_in_the_first_k(spec, ranking, expected):
    metric = resolve(spec).metric
    assert metric.exact(ranking, TOPIC) == expected
    assert metric.score(ranking, TOPIC) == float(expected)


def test_recall_at_k_of_a_topic_without_relevant_documents_is_zero():
    empty = topic_from_grades("q", {"a": {"t": 0}}, mapping="linear")
    assert resolve("R@5").metric.score(["a"], empty) == 0


def test_recall_at_k_agrees_with_trec_eval_recall_k():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {"q": {"a": 1, "b": 2, "c": 0, "d": 1}}
    run = {"q": {"a": 3.0, "c": 2.0, "b": 1.0, "e": 0.5}}
    found = pytrec_eval.RelevanceEvaluator(qrels, {"recall_2", "recall_3"}).evaluate(run)["q"]
    metric = resolve("R@2").metric
    assert metric.score(["a", "c", "b", "e"], TOPIC) == pytest.approx(found["recall_2"], abs=1e-12)
    assert resolve("R@3").metric.score(["a", "c", "b", "e"], TOPIC) == pytest.approx(found["recall_3"], abs=1e-12)


def test_the_batched_path_gives_the_scalar_values():
    from axiometer.metrics.base import RankingBatch
    metric = resolve("R@2").metric
    rankings = [["a", "c", "b"], ["b", "d"], []]
    batch = RankingBatch.from_rankings(rankings, TOPIC)
    assert list(metric.score_batch(batch)) == [metric.score(r, TOPIC) for r in rankings]
