"""Differential tests against trec_eval (through pytrec_eval) for the
rank-based measures of Giner's Table 3 that trec_eval has: ``Rprec`` and
``bpref``, on generated grade tables and runs and on the real TREC 2014 Web
topics with generated runs. Agreement within 1e-9.

Conventions (docs/conventions-trec_eval.md, "R-precision and bpref"): both
binarise at grade >= 1; ``Rprec`` divides by R even when the run is shorter
than R; ``bpref`` skips unjudged documents and divides by ``min(Nn, R)``.
trec_eval's bpref treats a *negative* qrels grade as unjudged where axiometer
(``r = 0``) treats it as judged non-relevant: tested as a documented
difference below.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given

from axiometer.grades import ranking_from_scores, topic_from_grades
from axiometer.metrics import RankingBatch, parse
from tests.paths import QRELS_2014
from tests.peers.peers import trec_eval
from tests.strategies import grades_and_run

TOLERANCE = 1e-9

#: trec_eval measure -> our spec.
MEASURES = {"Rprec": "Rprec", "bpref": "bpref"}
METRICS = {measure: parse(spec) for measure, spec in MEASURES.items()}


def assert_agree(grades, rankings, topics) -> None:
    """Both measures, every topic the peer reports: per-ranking, exact and batched paths."""
    peer = trec_eval(grades, rankings, MEASURES)
    assert set(peer) == {qid for qid, ranking in rankings.items() if ranking}
    for qid, values in peer.items():
        topic, ranking = topics[qid], rankings[qid]
        batch = RankingBatch.from_rankings([ranking], topic)
        for measure, metric in METRICS.items():
            want = values[measure]
            assert abs(metric.score(ranking, topic) - want) <= TOLERANCE, (qid, measure, want)
            assert abs(float(metric.exact(ranking, topic)) - want) <= TOLERANCE, (qid, measure)
            assert abs(metric.score_batch(batch)[0] - want) <= TOLERANCE, (qid, measure)


@given(grades_and_run())
def test_generated_topics_and_runs(grades_and_run_):
    grades, run = grades_and_run_
    rankings = {qid: ranking_from_scores(run[qid]) for qid in grades}
    topics = {qid: topic_from_grades(qid, table, mapping="linear") for qid, table in grades.items()}
    assert_agree(grades, rankings, topics)


def test_hand_checked_example():
    # qrels a=2, b=1, c=0, n=0 (R = 2, Nn = 2); run [c, u, a, n, b] (u unjudged).
    # Rprec: first 2 = c, u -> 0 / 2 = 0.
    # bpref: a has 1 judged non-relevant above -> 1 - 1/2; b has 2 -> 1 - 2/2 = 0: (1/2) / 2 = 1/4.
    grades = {"q": {"a": {"*": 2}, "b": {"*": 1}, "c": {"*": 0}, "n": {"*": 0}}}
    rankings = {"q": ("c", "u", "a", "n", "b")}
    peer = trec_eval(grades, rankings, MEASURES)["q"]
    assert peer == pytest.approx({"Rprec": 0.0, "bpref": 0.25}, abs=1e-12)
    assert_agree(grades, rankings, {"q": topic_from_grades("q", grades["q"], mapping="linear")})


def test_negative_grades_differ_in_bpref_only():
    # qrels a=1, s=-2 (spam), c=0; run [s, a]. trec_eval's bpref skips s as unjudged
    # (RELVALUE_UNJUDGED = -2) and does not count it in Nn: a scores 1 -> bpref 1.
    # axiometer reads s as judged non-relevant (r = 0): Nn = 2, a has 1 above:
    # 1 - min(1, 1) / min(2, 1) = 0.  Rprec agrees (s is non-relevant for both: 0).
    grades = {"q": {"a": {"*": 1}, "s": {"*": -2}, "c": {"*": 0}}}
    rankings = {"q": ("s", "a")}
    topic = topic_from_grades("q", grades["q"], mapping="linear")
    peer = trec_eval(grades, rankings, MEASURES)["q"]
    assert peer == pytest.approx({"Rprec": 0.0, "bpref": 1.0}, abs=1e-12)
    assert METRICS["Rprec"].exact(rankings["q"], topic) == 0
    assert METRICS["bpref"].exact(rankings["q"], topic) == 0


@pytest.fixture(scope="module")
def real_qrels():
    readers = pytest.importorskip("axiometer.readers")
    return readers.read_qrels(QRELS_2014, mapping="linear")


def test_real_2014_topics_with_generated_runs(real_qrels):
    rng = np.random.default_rng(2018)
    checked = 0
    for qid, topic in real_qrels.topics.items():
        if any(g < 0 for per in real_qrels.grades[qid].values() for g in per.values()):
            continue  # negative grades: the documented bpref difference above
        judged = sorted(topic.documents)
        unjudged = [f"unjudged-{qid}-{i}" for i in range(30)]
        runs = [
            list(rng.permutation(judged + unjudged)),
            list(rng.permutation(judged + unjudged)[:100]),
            list(rng.permutation(judged)[:12]),
        ]
        for ranking in runs:
            assert_agree({qid: real_qrels.grades[qid]}, {qid: tuple(ranking)}, {qid: topic})
        checked += 1
    assert checked >= 40, checked
