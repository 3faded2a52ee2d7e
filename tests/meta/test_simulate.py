"""The SIGIR 2018 simulated scenarios (Amigó et al., section 6.3): each changes the campaign as
specified, the seed makes it reproducible, and scoring reads what was simulated."""

from __future__ import annotations

import math

import numpy as np
import pytest

from axiometer.core import ValidationError
from axiometer.generators.campaign import generate_campaign
from axiometer.meta import simulate
from axiometer.meta.simulate import TRUNCATE50, simulate_graded, simulate_truncate, simulate_weights
from axiometer.metrics.resolve import resolve
from axiometer.readers import Qrels, Run
from axiometer.scoring import score_runs


@pytest.fixture(scope="module")
def campaign():
    """A generated multi-aspect campaign: 6 topics with 1 to 4 aspects, 5 runs of depth 80."""
    generated = generate_campaign(topics=6, runs=5, depth=80, judged=(20, 40), aspects=(1, 4), seed=7)
    weights = {qid: dict(zip(t.aspects, t.weights)) for qid, t in generated.topics.items()}
    qrels = Qrels(generated.topics, generated.grades, weights, "trec-diversity", "<generated>", generated.mapping)
    runs = [Run(tag, rankings, f"<{tag}>") for tag, rankings in generated.runs.items()]
    return qrels, runs


def judgments(qrels):
    return {(qid, doc, t): topic.r(doc, t) for qid, topic in qrels.topics.items()
            for doc in topic.documents for t in topic.aspects}


def test_graded_draws_each_relevance_in_zero_to_r(campaign):
    qrels, _ = campaign
    before = judgments(qrels)
    graded = simulate_graded(qrels, seed=1)
    after = judgments(graded)
    assert after.keys() == before.keys()
    assert all(0 <= after[k] <= before[k] for k in before)
    assert all(after[k] == 0 for k in before if before[k] == 0)                  # zeros stay zero
    changed = [k for k in before if before[k] > 0]
    assert changed and all(after[k] < before[k] for k in changed)               # [0, r): below r
    ratios = np.array([float(after[k]) / float(before[k]) for k in changed])
    assert 0.35 < ratios.mean() < 0.65                                           # uniform: mean 1/2
    assert graded.grades == qrels.grades and graded.mapping == qrels.mapping
    assert judgments(qrels) == before                                            # the input is untouched
    assert judgments(simulate_graded(qrels, seed=1)) == after                   # seeded
    assert judgments(simulate_graded(qrels, seed=2)) != after


def test_weights_are_uniform_draws_that_sum_to_one(campaign):
    qrels, _ = campaign
    weighted = simulate_weights(qrels, seed=1)
    many = [t for t in weighted.topics.values() if len(t.aspects) > 1]
    assert many
    for qid, topic in weighted.topics.items():
        assert math.fsum(topic.weights) == pytest.approx(1, abs=1e-12) and all(w > 0 for w in topic.weights)
        assert dict(zip(topic.aspects, topic.weights)) == weighted.weights[qid]
        if len(topic.aspects) == 1:
            assert topic.weights == (1.0,)
        else:
            assert topic.weights != qrels.topics[qid].weights                   # no longer 1/|T|
    assert judgments(weighted) == judgments(qrels)                               # relevance unchanged
    assert simulate_weights(qrels, seed=1) == weighted
    assert simulate_weights(qrels, seed=3).weights != weighted.weights


def test_truncate_cuts_each_ranking_to_a_prefix_of_random_length(campaign):
    _, runs = campaign
    cut = simulate_truncate(runs, seed=1)
    lengths = []
    for before, after in zip(runs, cut):
        assert after.tag == before.tag and after.rankings.keys() == before.rankings.keys()
        for qid, ranking in after.rankings.items():
            assert tuple(ranking) == tuple(before.rankings[qid][:len(ranking)])
            lengths.append(len(ranking))
    assert max(lengths) <= 80 and len(set(lengths)) > 10                         # uniform in 0..|d|
    assert simulate_truncate(runs, seed=1) == cut and simulate_truncate(runs, seed=2) != cut
    assert all(len(r) == 80 for run in runs for r in run.rankings.values())      # input untouched


def test_truncate50_never_keeps_more_than_fifty(campaign):
    _, runs = campaign
    cut = simulate_truncate(runs, seed=1, limit=TRUNCATE50)
    lengths = [len(r) for run in cut for r in run.rankings.values()]
    assert max(lengths) <= 50 and min(lengths) >= 0 and len(set(lengths)) > 10
    short = [Run("s", {"q": ("a", "b", "c")}, "<s>")]
    assert all(len(simulate_truncate(short, seed=s, limit=50)[0].rankings["q"]) <= 3 for s in range(20))


def test_scenarios_compose_in_order_and_draw_independently(campaign):
    qrels, runs = campaign
    both_qrels, both_runs, simulation = simulate(qrels, runs, ["graded", "truncate"], seed=4)
    assert simulation.scenarios == ("graded", "truncate") and simulation.grades == qrels.mapping
    assert judgments(both_qrels) == judgments(simulate_graded(qrels, seed=4))   # the same draws alone
    assert both_runs == simulate_truncate(runs, seed=4)
    _, _, plain = simulate(qrels, runs, ["weights"], seed=4)
    assert plain.grades is None
    with pytest.raises(ValidationError, match="unknown scenario"):
        simulate(qrels, runs, ["shuffle"])
    with pytest.raises(ValidationError, match="twice"):
        simulate(qrels, runs, ["graded", "graded"])


def test_the_judged_grades_stay(campaign):
    """Relevance levels read the integer grades: no scenario changes them (P(rel=2)@10 counts the
    same documents), though graded changes the values and weights the weights."""
    qrels, _ = campaign
    grades = {(qid, d): t.grade(d) for qid, t in qrels.topics.items() for d in t.documents}
    assert max(grades.values()) >= 2
    for simulated in (simulate_graded(qrels, seed=1), simulate_weights(qrels, seed=1)):
        assert {(qid, d): t.grade(d) for qid, t in simulated.topics.items() for d in t.documents} == grades


def test_scoring_reads_the_simulated_relevance(campaign):
    """Scored with grades=simulation.grades, nDCG@10 (whose own convention reads the grades
    linearly) is computed on the simulated relevance, not the grades."""
    qrels, runs = campaign
    graded, _, simulation = simulate(qrels, runs, ["graded"], seed=5)
    scores = score_runs(graded, runs[:2], ["nDCG@10"], grades=simulation.grades)
    metric = resolve("nDCG@10").metric
    qid = next(iter(graded.topics))
    expected = metric.score(runs[0].rankings[qid], graded.topics[qid])
    found = next(s.value for s in scores.scores if s.run == runs[0].tag and s.topic == qid)
    assert found == pytest.approx(expected, abs=1e-12)
    assert expected != pytest.approx(metric.score(runs[0].rankings[qid], qrels.topics[qid]), abs=1e-6)
