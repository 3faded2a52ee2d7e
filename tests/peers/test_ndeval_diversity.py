"""Differential tests against ndeval (through pyndeval): alpha-nDCG@k,
alpha-DCG@k, NRBP, nNRBP and strec@k, within 1e-9.

ndeval's conventions (docs/conventions-ndeval-diversity.md) are applied
explicitly here, never hidden in the metrics:

- binary judgments (grade >= 1 is relevant): topics use ``mapping='binary'``;
- ``N`` = subtopics with at least one relevant document (``actualSubtopics``);
- alpha-DCG@k is divided by an "ideal ideal" ``N sum_{i<=k} (1-alpha)^(i-1) / log2(i+1)``,
  except at k = 1, which ndeval leaves unnormalised (a peer bug);
- NRBP is multiplied by ``(1 - (1-alpha) beta) / N``; nNRBP is NaN (0/0) when
  ``N = 0`` where ours is 0;
- the greedy ideal breaks ties by the largest docno, as ours does.
"""

from __future__ import annotations

import math

import pyndeval
import pytest
from hypothesis import given, strategies as st

from axiometer.core import Topic
from axiometer.grades import ranking_from_scores, topic_from_grades
from axiometer.metrics.alpha_ndcg import AlphaDCG, AlphaNDCG
from axiometer.metrics.nrbp import NNRBP, NRBP
from axiometer.metrics.subtopic_recall import SubtopicRecall, coverable_aspects
from tests.peers.peers import ndeval
from tests.strategies import grades_and_run

TOLERANCE = 1e-9
CUTOFFS = (1, 2, 5, 10, 20)


def ideal_ideal(n_subtopics: int, alpha: float, k: int) -> float:
    """ndeval's alpha-DCG normaliser: every document covers every subtopic."""
    return n_subtopics * sum((1 - alpha) ** (i - 1) / math.log2(i + 1) for i in range(1, k + 1))


def as_ndeval_alpha_dcg(ours: float, n_subtopics: int, alpha: float, k: int) -> float:
    if n_subtopics == 0:
        return 0.0
    if k == 1:
        return ours  # ndeval's bug: alpha-DCG@1 is left unnormalised
    return ours / ideal_ideal(n_subtopics, alpha, k)


def as_ndeval_nrbp(ours: float, n_subtopics: int, alpha: float, beta: float) -> float:
    return 0.0 if n_subtopics == 0 else ours * (1 - (1 - alpha) * beta) / n_subtopics


def measures() -> list[str]:
    names = ["NRBP", "nNRBP"]
    for k in CUTOFFS:
        names += [f"alpha-nDCG@{k}", f"alpha-DCG@{k}", f"strec@{k}"]
    return names


def ours(topic: Topic, ranking, alpha: float, beta: float) -> dict[str, float]:
    """Our values converted to ndeval's conventions, keyed by ndeval's measure names."""
    n = len(coverable_aspects(topic))
    values = {
        "NRBP": as_ndeval_nrbp(NRBP(alpha=alpha, beta=beta).score(ranking, topic), n, alpha, beta),
        "nNRBP": NNRBP(alpha=alpha, beta=beta).score(ranking, topic),
    }
    for k in CUTOFFS:
        values[f"alpha-nDCG@{k}"] = AlphaNDCG(k, alpha=alpha).score(ranking, topic)
        values[f"alpha-DCG@{k}"] = as_ndeval_alpha_dcg(
            AlphaDCG(k, alpha=alpha).score(ranking, topic), n, alpha, k)
        values[f"strec@{k}"] = SubtopicRecall(k).score(ranking, topic)
    return values


@given(grades_and_run(max_topics=3, max_docs=14, max_aspects=4),
       st.sampled_from([0.25, 0.5, 0.75]), st.sampled_from([0.5, 0.8]))
def test_agrees_with_ndeval(data, alpha, beta):
    grades, run = data
    rankings = {qid: ranking_from_scores(scored) for qid, scored in run.items()}
    peer = ndeval(grades, rankings, measures(), alpha=alpha, beta=beta)
    for qid, ranking in rankings.items():
        topic = topic_from_grades(qid, grades[qid], mapping="binary")
        mine = ours(topic, ranking, alpha, beta)
        if not ranking:
            # ndeval has no line for a topic the run does not retrieve for; ours scores 0.
            assert qid not in peer and not any(mine.values())
            continue
        for name, value in mine.items():
            theirs = peer[qid][name]
            if name == "nNRBP" and len(coverable_aspects(topic)) == 0:
                assert math.isnan(theirs) and value == 0.0  # ndeval divides 0 by 0
                continue
            assert abs(value - theirs) <= TOLERANCE, (qid, name, value, theirs, ranking)


# -- the conventions, each on its minimal input --------------------------------

def _peer(grades, ranking, measure_names, alpha=0.5, beta=0.5) -> dict[str, float]:
    return ndeval({"q": grades}, {"q": ranking}, measure_names, alpha, beta)["q"]


def test_alpha_dcg_at_1_is_left_unnormalised():
    # One document relevant to both subtopics. Ideal ideal @1 = 2 / log2 2 = 2, so the
    # normalised value is 1; ndeval reports the raw 2. @2 is normalised: 2 / (2 (1 + 0.5/log2 3)).
    grades = {"a": {"1": 1, "2": 1}}
    peer = _peer(grades, ["a"], ["alpha-DCG@1", "alpha-DCG@2"])
    assert peer["alpha-DCG@1"] == 2.0
    assert AlphaDCG(1).score(["a"], topic_from_grades("q", grades, mapping="binary")) == 2.0
    assert peer["alpha-DCG@2"] == pytest.approx(1 / (1 + 0.5 / math.log2(3)), abs=TOLERANCE)


def test_subtopics_without_relevant_documents_are_not_counted():
    # Subtopic 3 has only a grade-0 judgment: N = 2, so strec@1 of [a] is 1/2 (not 1/3),
    # and NRBP of [a] is 1 * (1 - 0.25) / 2 = 0.375.
    grades = {"a": {"1": 1}, "b": {"2": 1}, "c": {"3": 0}}
    peer = _peer(grades, ["a", "c"], ["strec@1", "NRBP"])
    assert peer["strec@1"] == 0.5
    assert peer["NRBP"] == 0.375
    topic = topic_from_grades("q", grades, mapping="binary")
    assert SubtopicRecall(1).score(["a", "c"], topic) == 0.5
    assert as_ndeval_nrbp(NRBP().score(["a", "c"], topic), 2, 0.5, 0.5) == 0.375


def test_greedy_ideal_ties_go_to_the_largest_docno():
    # a {1,2}, b {3,4}, c {1,3} tie at gain 2; ndeval takes c (largest docno) and its
    # greedy ideal is worse than [a, b]: alpha-nDCG@2 = (2 + 2/log2 3) / (2 + 1.5/log2 3) > 1.
    grades = {"a": {"1": 1, "2": 1}, "b": {"3": 1, "4": 1}, "c": {"1": 1, "3": 1}}
    peer = _peer(grades, ["a", "b"], ["alpha-nDCG@2"])
    expected = (2 + 2 / math.log2(3)) / (2 + 1.5 / math.log2(3))
    assert peer["alpha-nDCG@2"] == pytest.approx(expected, abs=TOLERANCE)
    topic = topic_from_grades("q", grades, mapping="binary")
    assert AlphaNDCG(2).score(["a", "b"], topic) == pytest.approx(expected, abs=TOLERANCE)
    # Had ties gone to the smallest docno (a, then b), the ideal would be [a, b] itself: 1.0.
    assert expected > 1


def test_nnrbp_without_relevant_documents_is_nan_in_ndeval():
    grades = {"a": {"1": 0}, "b": {"2": 0}}
    peer = _peer(grades, ["a", "b"], ["NRBP", "nNRBP"])
    assert peer["NRBP"] == 0.0 and math.isnan(peer["nNRBP"])
    assert NNRBP().score(["a", "b"], topic_from_grades("q", grades, mapping="binary")) == 0.0


def test_grades_are_binary_and_nrbp_runs_past_depth_20():
    # Grade 3 counts as 1. The only relevant document sits at rank 22 (alpha-nDCG's depth is
    # 20 but NRBP's is the whole run): NRBP = 0.5^21 * 1 * (1 - 0.25) / 1.
    grades = {f"n{i:02d}": {"1": 0} for i in range(21)}
    grades["r"] = {"1": 3}
    ranking = [f"n{i:02d}" for i in range(21)] + ["r"]
    peer = _peer(grades, ranking, ["NRBP", "alpha-nDCG@20"])
    assert peer["NRBP"] == pytest.approx(0.5 ** 21 * 0.75, abs=1e-15)
    assert peer["alpha-nDCG@20"] == 0.0
    topic = topic_from_grades("q", grades, mapping="binary")
    assert as_ndeval_nrbp(NRBP().score(ranking, topic), 1, 0.5, 0.5) == pytest.approx(0.5 ** 21 * 0.75, abs=1e-15)


def test_pyndeval_breaks_score_ties_by_docno_ascending():
    # a (relevant) and b (judged 0) share a score. pyndeval ranks a first, so strec@1 = 1;
    # trec_eval's rule (docno descending, which axiometer's run reader follows) puts b first: 0.
    # The adapter in peers.py hands rankings over with strictly decreasing scores for this reason.
    qrels = [("q", "1", "a", 1), ("q", "1", "b", 0)]
    evaluator = pyndeval.RelevanceEvaluator(qrels, ["strec@1"])
    assert evaluator.evaluate([("q", "a", 1.0), ("q", "b", 1.0)])["q"]["strec@1"] == 1.0
    topic = topic_from_grades("q", {"a": {"1": 1}, "b": {"1": 0}}, mapping="binary")
    trec_order = ranking_from_scores([("a", 1.0), ("b", 1.0)])
    assert list(trec_order) == ["b", "a"]
    assert SubtopicRecall(1).score(trec_order, topic) == 0.0
