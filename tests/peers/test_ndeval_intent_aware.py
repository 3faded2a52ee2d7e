"""Differential tests against ndeval (through pyndeval) for the intent-aware
metrics: P-IA@k, ERR-IA@k, nERR-IA@k and MAP-IA against our P_IA, ERR_IA,
nERR_IA and AP_IA, on generated multi-aspect grade tables and runs and on the
real TREC 2014 topics. Agreement within 1e-9.

ndeval's conventions differ from ours; each conversion below is explicit and
explained, with a minimal example, in docs/conventions-ndeval-intent-aware.md:

- binary judgments J = [grade >= 1]; ERR-IA's stopping probability is
  ``alpha`` = 1/2, i.e. our ``err`` mapping of J with gmax = 1 (r = 1/2);
- ndeval averages over the *actual* subtopics (those with at least one
  relevant document), N' of them, while our balanced topic weighs all |T|
  judged aspects: P-IA, MAP-IA and ERR-IA carry the factor |T| / N';
- ERR-IA@k (k >= 2) is divided by the "ideal ideal": the ERR@k of a ranking
  in which every document is relevant (r = 1/2) to every subtopic;
- ERR-IA@1 is left unnormalised (peer bug): ndeval reports the number of
  subtopics the first document covers, i.e. |T| * ERR_IA@1 / alpha;
- nERR-IA: our greedy ideal is ndeval's; the weights cancel, no factor.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from axiometer.core import Topic
from axiometer.grades import ranking_from_scores, topic_from_grades
from axiometer.metrics import RankingBatch
from axiometer.metrics.err import ERR
from axiometer.metrics.intent_aware import (ERRIA, NERRIA, AveragePrecisionIA, PrecisionIA,
                                            greedy_ideal)
from tests.paths import QRELS_2014
from tests.peers.peers import ndeval
from tests.strategies import grades_and_run, scored_run, topic_grades

TOLERANCE = 1e-9
ALPHA = Fraction(1, 2)

CUTOFFS = (1, 2, 3, 5, 10, 20)
MEASURES = ([f"P-IA@{k}" for k in CUTOFFS] + [f"ERR-IA@{k}" for k in CUTOFFS]
            + [f"nERR-IA@{k}" for k in CUTOFFS] + ["MAP-IA"])


def ndeval_topic(qid: str, grades, alpha: Fraction = ALPHA) -> Topic:
    """Binary J = [grade >= 1] read as r = alpha, balanced weights over the judged aspects.

    For alpha = 1/2 this is the ``err`` mapping of J with gmax = 1
    (test_alpha_one_half_is_the_err_mapping_of_binary_judgments).
    """
    return Topic({doc: {a: (alpha if g >= 1 else 0) for a, g in per.items()}
                  for doc, per in grades.items()}, topic_id=qid)


def subtopic_factor(topic: Topic) -> Fraction:
    """|T| / N': ndeval averages over the N' subtopics that have a relevant document."""
    actual = sum(1 for t in topic.aspects if topic.restrict(t).R > 0)
    return Fraction(len(topic.aspects), actual) if actual else Fraction(0)


def ideal_ideal_err(k: int, alpha: Fraction = ALPHA) -> Fraction:
    """ERR@k of k documents each relevant with r = alpha: sum_{i<=k} alpha (1-alpha)^(i-1) / i."""
    docs = [f"i{i}" for i in range(k)]
    return ERR(k).exact(docs, Topic.single(dict.fromkeys(docs, alpha)))


def expected_ndeval_values(ranking, topic: Topic) -> dict[str, float]:
    """Our metrics, converted to ndeval's conventions (see the module docstring)."""
    factor = subtopic_factor(topic)
    values = {"MAP-IA": AveragePrecisionIA().exact(ranking, topic) * factor}
    for k in CUTOFFS:
        values[f"P-IA@{k}"] = PrecisionIA(k).exact(ranking, topic) * factor
        err_ia = ERRIA(k).exact(ranking, topic)
        values[f"ERR-IA@{k}"] = (err_ia * len(topic.aspects) / ALPHA if k == 1  # peer bug
                                 else err_ia * factor / ideal_ideal_err(k))
        values[f"nERR-IA@{k}"] = NERRIA(k).exact(ranking, topic)
    return {name: float(value) for name, value in values.items()}


def assert_agree(grades, rankings) -> None:
    peer = ndeval(grades, rankings, MEASURES)
    # ndeval scores the topics of the run; peers.py sends nothing for an empty ranking.
    assert set(peer) == {qid for qid, ranking in rankings.items() if ranking}
    for qid, values in peer.items():
        topic, ranking = ndeval_topic(qid, grades[qid]), rankings[qid]
        expected = expected_ndeval_values(ranking, topic)
        for measure in MEASURES:
            assert abs(expected[measure] - values[measure]) <= TOLERANCE, \
                (qid, measure, expected[measure], values[measure])


@given(grades_and_run(max_aspects=4, max_docs=10))
def test_generated_multi_aspect_topics_and_runs(grades_and_run_):
    grades, run = grades_and_run_
    rankings = {qid: ranking_from_scores(run[qid]) for qid in grades}
    assert_agree(grades, rankings)


@given(topic_grades(max_aspects=4))
def test_alpha_one_half_is_the_err_mapping_of_binary_judgments(grades):
    binary = {doc: {a: int(g >= 1) for a, g in per.items()} for doc, per in grades.items()}
    assert topic_from_grades("q", binary, mapping="err", gmax=1) == ndeval_topic("q", grades)


def test_minimal_examples_of_each_convention():
    # Subtopics 1 and 2 have relevant documents, 3 has none (N' = 2, |T| = 3).
    grades = {"q": {"a": {"1": 1, "2": 1}, "b": {"1": 1, "3": 0}}}
    peer = ndeval(grades, {"q": ("a", "b")}, MEASURES)["q"]
    # P-IA@1: a covers 2 of N' = 2 actual subtopics -> 1 (ours: 2/3 over |T| = 3).
    assert peer["P-IA@1"] == 1.0
    assert PrecisionIA(1).exact(("a", "b"), ndeval_topic("q", grades["q"])) == Fraction(2, 3)
    # ERR-IA@1 is not normalised: 2 subtopics covered -> 2.0, above 1 (peer bug).
    assert peer["ERR-IA@1"] == 2.0
    # ERR-IA@2: (1 + 1 + 1/2 * 1/2) / (N' (1 + 1/2 * 1/2)) = 2.25 / 2.5 = 0.9.
    assert peer["ERR-IA@2"] == pytest.approx(0.9, abs=1e-12)
    # nERR-IA@2: [a, b] is the greedy ideal -> 1.
    assert peer["nERR-IA@2"] == pytest.approx(1.0, abs=1e-12)
    assert_agree(grades, {"q": ("a", "b")})
    assert_agree(grades, {"q": ("b", "u", "a")})


def test_greedy_ideal_tie_break_matches_ndeval():
    # a and z tie for the first ideal position (one subtopic each); ndeval takes the
    # larger docno, z, then a.  A different tie-break would change nERR-IA@1 of [a].
    grades = {"q": {"a": {"1": 1}, "z": {"2": 1}}}
    topic = ndeval_topic("q", grades["q"])
    assert greedy_ideal(topic) == ("z", "a")
    peer = ndeval(grades, {"q": ("a",)}, ["nERR-IA@1", "nERR-IA@2"])["q"]
    assert peer["nERR-IA@1"] == 1.0  # equal gains: either ideal gives 1 at depth 1
    assert_agree(grades, {"q": ("a",)})
    # Where the tie-break changes the value: a {1,2}, b {1,4}, c {2,3} all add 2 first.
    # ndeval takes c, then b adds 2 (unnormalised ERR-IA@2 = 2 + 2/2 = 3); taking a
    # first would leave b and c 1.5 each (2 + 1.5/2 = 2.75).  The run [a, b] has
    # 2 + 1.5/2 = 2.75, so nERR-IA@2 = 2.75 / 3 = 11/12, not 1.
    grades = {"q": {"a": {"1": 1, "2": 1}, "b": {"1": 1, "4": 1}, "c": {"2": 1, "3": 1}}}
    topic = ndeval_topic("q", grades["q"])
    assert greedy_ideal(topic) == ("c", "b", "a")
    peer = ndeval(grades, {"q": ("a", "b")}, ["nERR-IA@2"])["q"]
    assert peer["nERR-IA@2"] == pytest.approx(11 / 12, abs=1e-12)
    assert NERRIA(2).exact(("a", "b"), topic) == Fraction(11, 12)
    assert_agree(grades, {"q": ("a", "b")})


def test_greedy_ideal_is_not_optimal_so_nerr_ia_can_exceed_one():
    # b {1,2}, c {3,4}, d {2,3} all add 2 first; the tie goes to d, after which b and c
    # add 1 + 1/2 each: ideal@2 = 2 + 1.5/2 = 2.75.  The run [b, c] gets 2 + 2/2 = 3:
    # nERR-IA@2 = 3 / 2.75 = 12/11 > 1, in ndeval and in ours.
    grades = {"q": {"b": {"1": 1, "2": 1}, "c": {"3": 1, "4": 1}, "d": {"2": 1, "3": 1}}}
    peer = ndeval(grades, {"q": ("b", "c")}, ["nERR-IA@2"])["q"]
    assert peer["nERR-IA@2"] == pytest.approx(12 / 11, abs=1e-12)
    assert NERRIA(2).exact(("b", "c"), ndeval_topic("q", grades["q"])) == Fraction(12, 11)


@pytest.mark.parametrize("alpha", [Fraction(1, 4), Fraction(3, 4)])
@settings(max_examples=30)
@given(grades_and_run(max_aspects=4, max_docs=10))
def test_alpha_is_the_stopping_probability(alpha, grades_and_run_):
    # ndeval's ERR-IA uses (1 - alpha)^c per subtopic: our ERR with r = alpha, scaled by
    # 1/alpha -- the ideal-ideal normalisation (r = alpha too) cancels that scale.
    grades, run = grades_and_run_
    measures = ["ERR-IA@5", "ERR-IA@20", "nERR-IA@5", "nERR-IA@20"]
    rankings = {qid: ranking_from_scores(run[qid]) for qid in grades}
    peer = ndeval(grades, rankings, measures, alpha=float(alpha))
    for qid, values in peer.items():
        topic = ndeval_topic(qid, grades[qid], alpha)
        for k in (5, 20):
            err_ia = (ERRIA(k).exact(rankings[qid], topic) * subtopic_factor(topic)
                      / ideal_ideal_err(k, alpha))
            assert abs(float(err_ia) - values[f"ERR-IA@{k}"]) <= TOLERANCE
            nerr_ia = NERRIA(k).exact(rankings[qid], topic)
            assert abs(float(nerr_ia) - values[f"nERR-IA@{k}"]) <= TOLERANCE


@given(topic_grades(max_aspects=4, max_docs=10), st.data())
def test_no_relevant_subtopic_gives_zero(grades, data):
    # All-zero judgments: ndeval returns 0 everywhere (N' = 0), as do we.
    grades = {"q": {doc: dict.fromkeys(per, 0) for doc, per in grades.items()}}
    rankings = {"q": ranking_from_scores(data.draw(scored_run(grades))["q"])}
    peer = ndeval(grades, rankings, MEASURES)
    for values in peer.values():
        assert set(values.values()) == {0.0}
    assert_agree(grades, rankings)


@pytest.fixture(scope="module")
def real_qrels():
    readers = pytest.importorskip("axiometer.readers")
    return readers.read_qrels(QRELS_2014)


def test_real_2014_topics_with_generated_runs(real_qrels):
    rng = np.random.default_rng(2014)
    for qid in real_qrels.topics:
        grades = {qid: real_qrels.grades[qid]}
        judged = sorted(grades[qid])
        unjudged = [f"unjudged-{qid}-{i}" for i in range(10)]
        for depth in (25, 200):
            ranking = tuple(rng.permutation(judged + unjudged)[:depth])
            assert_agree(grades, {qid: ranking})
        # The batched paths agree with the exact ones on the real topics too.
        topic = ndeval_topic(qid, grades[qid])
        batch = RankingBatch.from_rankings([ranking], topic)
        for metric in (PrecisionIA(10), ERRIA(20), NERRIA(20), AveragePrecisionIA()):
            assert abs(metric.score_batch(batch)[0] - float(metric.exact(ranking, topic))) <= 1e-12
