"""The campaign generator (generators.campaign) against its docstrings, beyond test_campaign.py.

- the defaults are the TREC 2014 Web diversity shape; ints are exact ranges;
- every argument check is one whole message, and the probability bounds 0 and 1 are allowed;
- topic ids ``q1..`` (zero-padded to the campaign size) and run tags ``run001..``;
- a topic with no judged document keeps its aspects and balanced weights; ``topics_under``
  uses the scale maximum ``gmax``, not the largest grade present;
- the judgment model of ``_judgments``: one aspect drawn uniformly (plus ``spread``), grades
  decaying by GRADE_DECAY, whole-row spam on a few non-relevant documents;
- the run model: scores ``quality * g/gmax + pooled * [judged] + N(0, 1)``, the ``depth`` best kept;
- ``write_trec``: the documented file names, nested and repeated output directories.

Statistical checks use fixed seeds and bounds several binomial standard deviations wide, computed
in the comments from the model's parameters.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from axiometer.core import ValidationError
from axiometer.generators.campaign import GRADE_DECAY, SPAM_FRACTION, _judgments, generate_campaign, write_trec
from axiometer.grades import DEFAULT_MAPPING

SMALL = dict(topics=1, runs=1, depth=1)


def test_defaults_are_the_trec_2014_web_diversity_shape():
    campaign = generate_campaign()
    assert (len(campaign.topics), len(campaign.runs), campaign.depth) == (50, 50, 1000)
    assert (campaign.gmax, campaign.seed, campaign.mapping) == (4, 0, DEFAULT_MAPPING)


def test_int_arguments_are_exact_counts():
    campaign = generate_campaign(topics=2, runs=1, depth=1, judged=3, aspects=2)
    for qid, topic in campaign.topics.items():
        assert len(topic.documents) == 3 and topic.aspects == ("1", "2")


@pytest.mark.parametrize("kwargs, message", [
    ({"judged": (5, 3)}, "judged: empty range (5, 3)"),
    ({"aspects": (3, 2)}, "aspects: empty range (3, 2)"),
    ({"grades": (2, 1)}, "grades: empty range (2, 1)"),
    ({"topics": -1}, "topics, runs and depth must be >= 0"),
    ({"runs": -1}, "topics, runs and depth must be >= 0"),
    ({"depth": -1}, "topics, runs and depth must be >= 0"),
    ({"judged": (-1, 2)}, "need judged >= 0 documents and aspects >= 1 per topic"),
    ({"aspects": 0}, "need judged >= 0 documents and aspects >= 1 per topic"),
    ({"grades": (0, 0)}, "grades: the scale (0, 0) must include 0 and a positive grade"),
    ({"grades": (1, 4)}, "grades: the scale (1, 4) must include 0 and a positive grade"),
    ({"relevant": -0.1}, "relevant and spread are probabilities in [0, 1]"),
    ({"relevant": 1.5}, "relevant and spread are probabilities in [0, 1]"),
    ({"spread": -0.1}, "relevant and spread are probabilities in [0, 1]"),
    ({"spread": 1.5}, "relevant and spread are probabilities in [0, 1]"),
])
def test_bad_arguments_are_one_clear_message(kwargs, message):
    with pytest.raises(ValidationError) as info:
        generate_campaign(**{**SMALL, **kwargs})
    assert str(info.value) == message


def test_probability_bounds_are_allowed():
    # relevant=0: nothing relevant; relevant=1: every judged document relevant; with spread=1
    # relevant to every aspect, with spread=0 to exactly one.
    none = generate_campaign(**SMALL, judged=20, relevant=0)
    assert all(topic.R == 0 for topic in none.topics.values())
    every = generate_campaign(**SMALL, judged=20, aspects=3, relevant=1, spread=1)
    assert all(g > 0 for per in every.grades["q1"].values() for g in per.values())
    one = generate_campaign(**SMALL, judged=20, aspects=3, relevant=1, spread=0)
    assert all(sum(g > 0 for g in per.values()) == 1 for per in one.grades["q1"].values())


def test_topic_ids_and_run_tags():
    assert generate_campaign(topics=3, runs=2, depth=1).qids == ("q1", "q2", "q3")
    assert generate_campaign(topics=10, runs=0, depth=1).qids == tuple(f"q{i:02d}" for i in range(1, 11))
    assert generate_campaign(topics=1, runs=2, depth=1).run_tags == ("run001", "run002")


def test_mapping_and_seed_are_recorded():
    campaign = generate_campaign(**SMALL, seed=5, mapping="linear")
    assert (campaign.mapping, campaign.seed) == ("linear", 5)


def test_a_topic_without_judged_documents_keeps_its_aspects():
    campaign = generate_campaign(**SMALL, judged=0, aspects=2)
    for topics in (campaign.topics, campaign.topics_under("linear")):
        topic = topics["q1"]
        assert (topic.topic_id, topic.aspects, topic.weights) == ("q1", ("1", "2"), (Fraction(1, 2),) * 2)


def test_topics_under_use_the_scale_maximum():
    # One relevant document per topic on a 0..4 scale: its grade is 1 with probability ~0.66, so
    # some topic's largest grade is below 4; linear relevance is still grade / 4.
    campaign = generate_campaign(topics=5, runs=1, depth=1, judged=1, aspects=1, relevant=1, seed=4)
    assert any(max(per["1"] for per in table.values()) < 4 for table in campaign.grades.values())
    for qid, topic in campaign.topics_under("linear").items():
        assert topic.topic_id == qid
        for doc, per in campaign.grades[qid].items():
            assert topic.r(doc, "1") == Fraction(per["1"], 4)


# -- the judgment model -------------------------------------------------------------------------


def test_a_relevant_document_is_relevant_to_one_aspect_drawn_uniformly():
    # spread=0: exactly one aspect each; 600 documents over 3 aspects: 200 expected per aspect,
    # binomial sd sqrt(600 * 1/3 * 2/3) ~ 11.5, so [150, 250] is over 4 sd.
    grades = _judgments(np.random.default_rng(1), 600, 3, 0, 4, relevant=1, spread=0)
    assert ((grades > 0).sum(axis=1) == 1).all()
    per_aspect = (grades > 0).sum(axis=0)
    assert all(150 <= count <= 250 for count in per_aspect), per_aspect


def test_grades_decay_geometrically():
    # P(g) ~ 0.35^(g-1): 1 / (1 + 0.35 + 0.1225 + 0.042875) = 0.660 for grade 1 and
    # 0.042875 * 0.660 = 0.028 for grade 4. 4,000 grades: sd 0.0075 and 0.0026.
    assert GRADE_DECAY == 0.35
    grades = _judgments(np.random.default_rng(2), 2000, 2, 0, 4, relevant=1, spread=1)
    share = [np.mean(grades == g) for g in (1, 2, 3, 4)]
    assert abs(share[0] - 0.660) < 0.04 and 0.01 < share[3] < 0.05, share
    assert share[0] > share[1] > share[2] > share[3] > 0


def test_spam_is_a_whole_row_on_a_few_non_relevant_documents():
    # relevant=0.5 of 4,000: ~2,000 non-relevant, of which SPAM_FRACTION = 5% (~100, sd ~10) spam.
    assert SPAM_FRACTION == 0.05
    grades = _judgments(np.random.default_rng(3), 4000, 2, -2, 3, relevant=0.5, spread=0.25)
    relevant = (grades > 0).any(axis=1)
    spam = (grades == -2).any(axis=1)
    assert (grades[spam] == -2).all()  # the scale's minimum on every aspect
    assert not (spam & relevant).any()
    assert 0.03 < spam.sum() / (~relevant).sum() < 0.07
    assert ((grades[~spam & ~relevant]) == 0).all()
    # The same draws on the scale without the negative grade: the spam rows are exactly rows that
    # were all zero (non-relevant documents), every other row is unchanged.
    plain = _judgments(np.random.default_rng(3), 4000, 2, 0, 3, relevant=0.5, spread=0.25)
    assert (plain >= 0).all()
    assert (plain[spam] == 0).all()
    assert (plain[~spam] == grades[~spam]).all()


# -- the run model ------------------------------------------------------------------------------


def test_depth_zero_gives_empty_rankings():
    for judged in (0, 5):
        campaign = generate_campaign(topics=2, runs=2, depth=0, judged=judged)
        assert all(len(r) == 0 for per_topic in campaign.runs.values() for r in per_topic.values())


def _ranks(campaign):
    """Mean rank of relevant, judged non-relevant and unjudged retrieved documents, and how many
    judged and unjudged documents were retrieved."""
    ranks = {"relevant": [], "judged": [], "unjudged": []}
    for per_topic in campaign.runs.values():
        for qid, ranking in per_topic.items():
            topic = campaign.topics[qid]
            for rank, doc in enumerate(ranking, 1):
                kind = "relevant" if topic.rel(doc) else "judged" if topic.is_judged(doc) else "unjudged"
                ranks[kind].append(rank)
    return ranks


def test_runs_rank_relevant_documents_above_judged_non_relevant_ones():
    # Binary scale (gmax = 1): a relevant document's score exceeds a judged non-relevant one's by
    # quality_s (mean 1.6) against N(0, 1) noise, so relevant documents rank clearly higher.
    campaign = generate_campaign(topics=6, runs=6, depth=100, judged=(60, 60), grades=(0, 1),
                                 relevant=0.5, seed=9)
    ranks = _ranks(campaign)
    assert np.mean(ranks["relevant"]) < 0.8 * np.mean(ranks["judged"])


def test_pooling_lifts_judged_documents_and_noise_mixes_them():
    # 60 judged and 100 unjudged candidates, 100 kept: judged documents get + pooled_s (mean 1),
    # so a larger share of them is retrieved than of the unjudged ones; the N(0, 1) noise still
    # puts some unjudged document above a relevant one.
    campaign = generate_campaign(topics=6, runs=6, depth=100, judged=(60, 60), relevant=0.5, seed=9)
    ranks = _ranks(campaign)
    rankings = 6 * 6
    judged_share = (len(ranks["relevant"]) + len(ranks["judged"])) / (60 * rankings)
    unjudged_share = len(ranks["unjudged"]) / (100 * rankings)
    assert judged_share > unjudged_share + 0.1
    above = 0
    for per_topic in campaign.runs.values():
        for qid, ranking in per_topic.items():
            topic = campaign.topics[qid]
            first_relevant = next(i for i, d in enumerate(ranking) if topic.rel(d))
            above += any(not topic.is_judged(d) for d in ranking[:first_relevant])
    assert above > 0


# -- TREC files ---------------------------------------------------------------------------------


def test_write_trec_names_and_directories(tmp_path):
    campaign = generate_campaign(topics=1, runs=1, depth=2, judged=2)
    files = write_trec(campaign, tmp_path / "new" / "nested")  # parents are created
    assert files.qrels == tmp_path / "new" / "nested" / "qrels.txt"
    assert files.diversity_qrels == tmp_path / "new" / "nested" / "qrels.diversity.txt"
    assert files.runs == {"run001": tmp_path / "new" / "nested" / "runs" / "run001.run"}
    again = write_trec(campaign, tmp_path / "new" / "nested")  # an existing directory is reused
    assert again.qrels.read_text() == files.qrels.read_text()


def _judged_share(campaign, depth):
    kept = sum(campaign.topics[qid].is_judged(doc) for per_topic in campaign.runs.values()
               for qid, ranking in per_topic.items() for doc in ranking)
    return kept / (depth * len(campaign.runs) * len(campaign.topics))


@pytest.mark.parametrize("relevant, expected, tolerance", [
    # Nothing relevant: the lift is pooled_s ~ U(0, 2), and E[Phi(p/2)] = int_0^1 Phi(u) du
    # = Phi(1) + phi(1) - phi(0) = 0.8413 + 0.2420 - 0.3989 = 0.684.
    (0, 0.684, 0.035),
    # Everything judged relevant on a binary scale (g/gmax = 1): the lift is quality_s + pooled_s,
    # quality_s ~ U(0.2, 3); E[Phi((q + p)/2)] over both uniforms = 0.877 (midpoint rule, 400 x 400).
    (1, 0.877, 0.018),
])
def test_the_share_of_judged_documents_retrieved_follows_the_score_model(relevant, expected, tolerance):
    # 100 judged and 100 unjudged candidates, 100 kept. A judged document scores N(L, 1) and an
    # unjudged one N(0, 1) for the run's lift L; keeping half, the cut is at L/2 by symmetry, so
    # a run retrieves a share Phi(L/2) of the judged documents. Averaged over 200 runs: the sd of
    # Phi(L/2) across runs is at most 0.13, so the mean's is at most 0.009 (the 3 topics share the
    # runs' draws); seeds 0..7 gave 0.674..0.695 and 0.868..0.888. The seed is fixed, so the check
    # is deterministic; a 0.5 wider range of quality or pooled moves the mean by 0.028 or more.
    campaign = generate_campaign(topics=3, runs=200, depth=100, judged=100, aspects=1, grades=(0, 1),
                                 relevant=relevant, seed=1)
    assert abs(_judged_share(campaign, 100) - expected) < tolerance
