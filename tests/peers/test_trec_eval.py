"""Differential tests against trec_eval (through pytrec_eval): P@k, RR, AP,
AP@10, nDCG@k and nDCG on generated grade tables and runs, and on the real
TREC 2014 Web diversity topics with generated runs. Agreement within 1e-9.

Conventions (docs/conventions-trec_eval.md): topics are built with the
``linear`` mapping (trec_eval's nDCG gain is the grade, and nDCG is
scale-free, so ``r = g / gmax`` gives the same ratio); P/RR/AP binarise at
grade >= 1, which is our ``rel(d) = [r(d) > 0]`` for integer grades; a
multi-aspect document's qrels grade is its largest grade (the single-aspect
view).
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import pytrec_eval
from hypothesis import given, settings, strategies as st

from axiometer.grades import ranking_from_scores, topic_from_grades
from axiometer.metrics import RankingBatch, parse
from tests.paths import QRELS_2014
from tests.peers.peers import trec_eval
from tests.strategies import grade_tables, grades_and_run, scored_run

TOLERANCE = 1e-9


#: trec_eval measure -> our spec.
MEASURES = {
    "P_5": "P@5", "P_10": "P@10", "recip_rank": "RR", "map": "AP", "map_cut_10": "AP@10",
    "ndcg_cut_5": "nDCG@5", "ndcg_cut_10": "nDCG@10", "ndcg": "nDCG",
}
METRICS = {measure: parse(spec) for measure, spec in MEASURES.items()}


def assert_agree(grades, rankings, topics) -> None:
    """Every measure, every topic the peer reports: per-ranking and batched paths."""
    peer = trec_eval(grades, rankings, MEASURES)
    # trec_eval reports the topics in both qrels and run; peers.py sends no
    # line for an empty ranking, so those topics are absent (see the docs).
    assert set(peer) == {qid for qid, ranking in rankings.items() if ranking}
    for qid, values in peer.items():
        topic, ranking = topics[qid], rankings[qid]
        batch = RankingBatch.from_rankings([ranking], topic)
        for measure, metric in METRICS.items():
            ours = metric.score(ranking, topic)
            assert abs(ours - values[measure]) <= TOLERANCE, (qid, measure, ours, values[measure])
            assert abs(metric.score_batch(batch)[0] - values[measure]) <= TOLERANCE, (qid, measure)


@given(grades_and_run())
def test_generated_topics_and_runs(grades_and_run_):
    grades, run = grades_and_run_
    rankings = {qid: ranking_from_scores(run[qid]) for qid in grades}
    topics = {qid: topic_from_grades(qid, table, mapping="linear") for qid, table in grades.items()}
    assert_agree(grades, rankings, topics)


def _with_spam(table):
    """Grade 3 becomes -2 (TREC's spam label): trec_eval must treat it as non-relevant.

    The first document keeps its grades: a topic whose judgments are *all*
    negative crashes pytrec_eval (see test_peer_bug_all_negative_topic_crashes).
    """
    first = min(table)
    return {doc: {a: (-2 if g == 3 and doc != first else g) for a, g in per.items()}
            for doc, per in table.items()}


@settings(max_examples=30)
@given(grade_tables(), st.data())
def test_negative_grades_are_non_relevant(grades, data):
    grades = {qid: _with_spam(table) for qid, table in grades.items()}
    run = data.draw(scored_run(grades))
    rankings = {qid: ranking_from_scores(run[qid]) for qid in grades}
    topics = {qid: topic_from_grades(qid, table, mapping="linear") for qid, table in grades.items()}
    assert_agree(grades, rankings, topics)


def test_negative_grade_minimal_example():
    # qrels: a=1, b=-2 (spam), c=2; ranking [b, a, c].  trec_eval: b is non-relevant,
    # gain 0, not in the ideal: nDCG = (1/log2 3 + 2/2) / (2 + 1/log2 3); AP = (1/2 + 2/3)/2.
    grades = {"q": {"a": {"*": 1}, "b": {"*": -2}, "c": {"*": 2}}}
    rankings = {"q": ("b", "a", "c")}
    topic = topic_from_grades("q", grades["q"], mapping="linear")
    assert topic.r("b") == 0 and topic.R == 2
    peer = trec_eval(grades, rankings, ["ndcg", "map"])["q"]
    log3 = np.log2(3)
    assert peer["ndcg"] == pytest.approx((1 / log3 + 1) / (2 + 1 / log3), abs=1e-12)
    assert peer["map"] == pytest.approx((1 / 2 + 2 / 3) / 2, abs=1e-12)
    assert abs(parse("nDCG").score(rankings["q"], topic) - peer["ndcg"]) <= TOLERANCE
    assert abs(parse("AP").score(rankings["q"], topic) - peer["map"]) <= TOLERANCE


def test_peer_bug_all_negative_topic_crashes():
    # Peer bug (documented): a topic whose judgments are all negative, evaluated
    # after another topic, makes trec_eval's form_res_rels memset (max_rel + 1) = -1
    # longs: pytrec_eval dies with SIGSEGV.  Run it in a subprocess to show it.
    script = ("import pytrec_eval\n"
              "ev = pytrec_eval.RelevanceEvaluator({'q0': {'d0': 0}, 'q1': {'d0': -2}}, {'P_5'})\n"
              "print(ev.evaluate({'q0': {'d0': 1.0}, 'q1': {'u0': 1.0}}))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert result.returncode != 0, "pytrec_eval no longer crashes: update docs/conventions-trec_eval.md"
    # Ours: such a topic is an ordinary topic with R = 0.
    topic = topic_from_grades("q1", {"d0": {"*": -2}}, mapping="linear")
    assert topic.R == 0 and all(m.score(("u0",), topic) == 0.0 for m in METRICS.values())


def test_topic_without_relevant_documents_scores_zero_and_is_reported():
    # trec_eval keeps a topic whose judgments are all 0 and reports 0 for every measure.
    grades = {"q": {"a": {"*": 0}, "b": {"*": 0}}}
    peer = trec_eval(grades, {"q": ("a", "b")}, MEASURES)
    assert set(peer) == {"q"} and set(peer["q"].values()) == {0.0}
    topic = topic_from_grades("q", grades["q"], mapping="linear")
    assert all(metric.score(("a", "b"), topic) == 0.0 for metric in METRICS.values())


def test_empty_run_for_a_topic():
    # Through pytrec_eval, a topic present with no documents is reported with 0s
    # (the trec_eval CLI cannot express it: a topic without run lines is skipped,
    # or scored 0 with -c).  Ours: an empty ranking scores 0.
    evaluator = pytrec_eval.RelevanceEvaluator({"q": {"a": 1}}, set(MEASURES))
    result = evaluator.evaluate({"q": {}})
    assert set(result) == {"q"} and set(result["q"].values()) == {0.0}
    topic = topic_from_grades("q", {"a": {"*": 1}}, mapping="linear")
    assert all(metric.score((), topic) == 0.0 for metric in METRICS.values())


@pytest.fixture(scope="module")
def real_qrels():
    readers = pytest.importorskip("axiometer.readers")
    return readers.read_qrels(QRELS_2014, mapping="linear")


def test_real_2014_topics_with_generated_runs(real_qrels):
    assert len(real_qrels.topics) == 50
    rng = np.random.default_rng(2014)
    for qid, topic in real_qrels.topics.items():
        judged = sorted(topic.documents)
        unjudged = [f"unjudged-{qid}-{i}" for i in range(30)]
        runs = [
            list(rng.permutation(judged + unjudged)),  # everything, so AP sees all of R
            list(rng.permutation(judged + unjudged)[:100]),  # a typical depth-100 run
            list(rng.permutation(judged)[:12]),  # shorter than some cutoffs
        ]
        for ranking in runs:
            assert_agree({qid: real_qrels.grades[qid]}, {qid: tuple(ranking)}, {qid: topic})
