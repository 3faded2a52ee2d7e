"""The synthetic campaign generator, its TREC writer, and the batches built from it.

- determinism: one seed, one campaign; another seed, another campaign;
- shape: topic, run and ranking counts, aspects, judged documents and grades
  inside the requested ranges, balanced weights summing to exactly 1;
- rankings: distinct documents, exactly ``depth`` of them, mixing judged
  relevant, judged non-relevant and unjudged documents;
- topics agree with the integer grades under the stated mapping;
- the TREC writer's exact text on a hand-built campaign, and the round trip
  of generated files through :mod:`axiometer.readers`;
- :meth:`RankingBatch.from_rankings` (vectorised lookups) against direct
  ``topic.vector`` lookups, and (n)DCG's ``score_batch`` against ``score``
  on batches built from campaigns.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from axiometer.core import Ranking, Topic, ValidationError
from axiometer.generators.campaign import Campaign, generate_campaign, write_trec
from axiometer.grades import DEFAULT_MAPPING, topic_from_grades
from axiometer.metrics import RankingBatch, parse

from axiometer.readers import read_qrels, read_run
from axiometer.generators.campaign import GRADE_DECAY, SPAM_FRACTION, _judgments
from tests.strategies import grades_and_run

@st.composite
def campaign_shapes(draw) -> dict:
    """Small campaigns of every shape, including empty ones and negative (spam) grades."""
    j_low = draw(st.integers(0, 12))
    a_low = draw(st.integers(1, 4))
    return dict(topics=draw(st.integers(0, 4)), runs=draw(st.integers(0, 4)),
                depth=draw(st.integers(0, 30)),
                judged=(j_low, j_low + draw(st.integers(0, 12))),
                aspects=(a_low, a_low + draw(st.integers(0, 3))),
                grades=(draw(st.sampled_from([0, -1, -2])), draw(st.integers(1, 4))),
                seed=draw(st.integers(0, 2**32 - 1)),
                mapping=draw(st.sampled_from(["err", "linear"])))


def _campaign_key(campaign: Campaign) -> tuple:
    return campaign.grades, campaign.runs, campaign.topics


def test_same_seed_same_campaign_other_seed_other_campaign():
    first = generate_campaign(topics=4, runs=3, depth=60, seed=7)
    again = generate_campaign(topics=4, runs=3, depth=60, seed=7)
    other = generate_campaign(topics=4, runs=3, depth=60, seed=8)
    assert _campaign_key(first) == _campaign_key(again)
    assert first.grades != other.grades
    assert first.runs != other.runs


def test_a_topic_does_not_depend_on_how_many_topics_or_runs_follow():
    small = generate_campaign(topics=2, runs=2, depth=40, seed=3)
    large = generate_campaign(topics=5, runs=4, depth=40, seed=3)
    # Topic ids are zero-padded to the campaign size, so compare by position.
    for qid_small, qid_large in zip(small.qids, large.qids):
        assert list(small.grades[qid_small].values()) == list(large.grades[qid_large].values())


@settings(max_examples=30)
@given(campaign_shapes())
def test_shapes_ranges_and_distinct_rankings(shape):
    campaign = generate_campaign(**shape)
    assert len(campaign.topics) == len(campaign.grades) == shape["topics"]
    assert len(campaign.runs) == shape["runs"]
    assert campaign.gmax == shape["grades"][1] and campaign.depth == shape["depth"]
    low, high = shape["grades"]
    for qid, topic in campaign.topics.items():
        table = campaign.grades[qid]
        assert shape["aspects"][0] <= len(topic.aspects) <= shape["aspects"][1]
        assert shape["judged"][0] <= len(table) <= shape["judged"][1]
        assert topic.documents == tuple(table)
        # Every judged document is judged on every aspect, within the scale.
        for per in table.values():
            assert tuple(per) == topic.aspects
            assert all(low <= g <= high for g in per.values())
        # Balanced weights, exactly.
        assert sum(topic.weights) == 1
        assert set(topic.weights) == {Fraction(1, len(topic.aspects))}
    for per_topic in campaign.runs.values():
        assert tuple(per_topic) == campaign.qids
        for qid, ranking in per_topic.items():
            assert isinstance(ranking, Ranking)
            assert len(set(ranking)) == len(ranking) == shape["depth"]


@settings(max_examples=20)
@given(campaign_shapes())
def test_topics_are_the_grades_under_the_mapping(shape):
    campaign = generate_campaign(**shape)
    for qid, topic in campaign.topics.items():
        expected = topic_from_grades(qid, campaign.grades[qid],
                                     dict.fromkeys(topic.aspects, Fraction(1, len(topic.aspects))),
                                     mapping=shape["mapping"], gmax=campaign.gmax)
        assert topic == expected
        for doc, per in campaign.grades[qid].items():
            for aspect, grade in per.items():
                g = max(grade, 0)  # negative (spam) grades are judged non-relevant
                want = (Fraction(g, campaign.gmax) if shape["mapping"] == "linear"
                        else Fraction(2**g - 1, 2**campaign.gmax))
                assert topic.r(doc, aspect) == want


def test_topics_under_another_mapping_keep_grades_and_weights():
    campaign = generate_campaign(topics=3, runs=1, depth=5, grades=(0, 3), seed=1)
    linear = campaign.topics_under("linear")
    for qid, topic in linear.items():
        assert topic.aspects == campaign.topics[qid].aspects
        assert topic.weights == campaign.topics[qid].weights
        for doc, per in campaign.grades[qid].items():
            assert topic.vector(doc) == tuple(Fraction(g, 3) for g in per.values())


def test_rankings_mix_relevant_non_relevant_and_unjudged_documents():
    campaign = generate_campaign(topics=6, runs=8, depth=500, judged=(150, 300), seed=11)
    for qid, topic in campaign.topics.items():
        kinds = set()
        for ranking in campaign.rankings(qid):
            unjudged = [d for d in ranking if not topic.is_judged(d)]
            # depth exceeds the judged pool, so every ranking needs unjudged documents
            assert len(unjudged) >= 500 - len(topic.documents)
            kinds |= {"relevant" if topic.rel(d) else "judged" if topic.is_judged(d) else "unjudged"
                      for d in ranking}
        assert kinds == {"relevant", "judged", "unjudged"}


def test_relevant_share_and_relevant_documents_ranked_first():
    campaign = generate_campaign(topics=30, runs=6, depth=300, relevant=0.45, seed=5)
    judged = sum(len(t.documents) for t in campaign.topics.values())
    relevant = sum(t.R for t in campaign.topics.values())
    # ~9,000 judged documents: the binomial standard deviation of the share is ~0.005.
    assert abs(relevant / judged - 0.45) < 0.03
    # Runs put relevant documents first: the top 50 holds them at least twice
    # as densely as ranks 251-300 (about 0.65 against 0.22 for this seed).
    top = bottom = 0
    for per_topic in campaign.runs.values():
        for qid, ranking in per_topic.items():
            topic = campaign.topics[qid]
            top += sum(topic.rel(d) for d in ranking[:50])
            bottom += sum(topic.rel(d) for d in ranking[250:])
    assert top > 2 * bottom


def test_bad_shapes_are_rejected():
    from axiometer.core import ValidationError
    with pytest.raises(ValidationError):
        generate_campaign(grades=(1, 4))  # no grade 0: nothing could be non-relevant
    with pytest.raises(ValidationError):
        generate_campaign(aspects=(0, 3))
    with pytest.raises(ValidationError):
        generate_campaign(judged=(10, 5))
    with pytest.raises(ValidationError):
        generate_campaign(relevant=1.5)


# -- TREC files ---------------------------------------------------------------------

def _tiny_campaign() -> Campaign:
    grades = {"q1": {"a": {"1": 2, "2": 0}, "b": {"1": 0, "2": 1}},
              "q2": {"c": {"1": 0}}}
    weights = {"q1": {"1": Fraction(1, 2), "2": Fraction(1, 2)}, "q2": {"1": Fraction(1)}}
    topics = {qid: topic_from_grades(qid, table, weights[qid], mapping="linear", gmax=2)
              for qid, table in grades.items()}
    runs = {"sysA": {"q1": Ranking(["b", "x", "a"]), "q2": Ranking(["c"])},
            "sysB": {"q1": Ranking(["a"]), "q2": Ranking(["y", "c"])}}
    return Campaign(topics, grades, runs, "linear", 2, 3, 0)


def test_write_trec_writes_the_documented_lines(tmp_path):
    files = write_trec(_tiny_campaign(), tmp_path)
    # qrels: each document's largest grade over aspects.
    assert files.qrels.read_text() == "q1 0 a 2\nq1 0 b 1\nq2 0 c 0\n"
    assert files.diversity_qrels.read_text() == (
        "q1 1 a 2\nq1 2 a 0\nq1 1 b 0\nq1 2 b 1\nq2 1 c 0\n")
    assert set(files.runs) == {"sysA", "sysB"}
    # rank 1..n with score n - rank + 1: strictly decreasing.
    assert files.runs["sysA"].read_text() == (
        "q1 Q0 b 1 3 sysA\nq1 Q0 x 2 2 sysA\nq1 Q0 a 3 1 sysA\nq2 Q0 c 1 1 sysA\n")
    assert files.runs["sysB"].read_text() == (
        "q1 Q0 a 1 1 sysB\nq2 Q0 y 1 2 sysB\nq2 Q0 c 2 1 sysB\n")


@pytest.mark.parametrize("mapping", ["err", "linear"])
def test_written_files_round_trip_through_the_readers(tmp_path, mapping):

    campaign = generate_campaign(topics=4, runs=3, depth=120, judged=(20, 60), aspects=(1, 4),
                                 grades=(-2, 4), seed=2, mapping=mapping)
    files = write_trec(campaign, tmp_path)

    diversity = read_qrels(files.diversity_qrels, mapping=mapping, gmax=campaign.gmax)
    assert diversity.format == "trec-diversity"  # detected: the second column names subtopics
    assert diversity.grades == campaign.grades
    assert diversity.topics == campaign.topics

    single = read_qrels(files.qrels, mapping=mapping, gmax=campaign.gmax)
    assert single.format == "trec"
    # Plain qrels carry each document's largest grade: the single-aspect view, aspect "*".
    assert single.topics == {qid: Topic.single({d: t.r(d) for d in t.documents}, qid)
                             for qid, t in campaign.topics.items()}

    for tag, path in files.runs.items():
        run = read_run(path)
        assert run.tag == tag
        assert run.rankings == campaign.runs[tag]


# -- batches ------------------------------------------------------------------------

def _direct_batch_arrays(rankings, topic: Topic, depth: int):
    """The batch arrays by one topic lookup per position: the definition."""
    m = len(topic.aspects)
    gains = np.zeros((len(rankings), depth, m))
    judged = np.zeros((len(rankings), depth), dtype=bool)
    for s, ranking in enumerate(rankings):
        for i, doc in enumerate(ranking[:depth]):
            gains[s, i] = [float(r) for r in topic.vector(doc)]
            judged[s, i] = topic.is_judged(doc)
    return gains, judged


def _assert_batch_matches(rankings, topic, depth=None):
    batch = RankingBatch.from_rankings(rankings, topic, depth)
    expected_depth = depth if depth is not None else max((len(r) for r in rankings), default=0)
    gains, judged = _direct_batch_arrays(rankings, topic, expected_depth)
    assert batch.gains.shape == gains.shape
    assert np.array_equal(batch.gains, gains)
    assert np.array_equal(batch.judged, judged)
    assert np.array_equal(batch.single, gains.max(axis=2) if gains.shape[2] else gains[..., 0])
    assert batch.lengths.tolist() == [min(len(r), expected_depth) for r in rankings]
    assert np.array_equal(batch.judged_gains,
                          [[float(r) for r in topic.vector(d)] for d in topic.documents]
                          or np.zeros((0, len(topic.aspects))))
    assert batch.judged_single.tolist() == [float(topic.r(d)) for d in topic.documents]
    # A batch built directly (not by from_rankings) computes the judged views lazily.
    direct = RankingBatch(topic, batch.gains, batch.lengths, batch.judged)
    assert np.array_equal(direct.judged_gains, batch.judged_gains)
    assert np.array_equal(direct.judged_single, batch.judged_single)
    assert np.array_equal(direct.single, batch.single)


@given(grades_and_run(max_aspects=3), st.sampled_from([None, 1, 3, 40]))
def test_from_rankings_equals_direct_lookups(grades_run, depth):
    grades, run = grades_run
    for qid, table in grades.items():
        topic = topic_from_grades(qid, table)
        docs = [d for d, _ in run[qid]]
        # Rankings of several lengths, including the empty one.
        rankings = [Ranking(docs), Ranking(docs[::-1][:3]), Ranking(()), Ranking(docs[1:])]
        _assert_batch_matches(rankings, topic, depth)


def test_from_rankings_on_a_campaign_and_edge_cases():
    campaign = generate_campaign(topics=3, runs=5, depth=80, seed=9)
    for qid in campaign.qids:
        _assert_batch_matches(campaign.rankings(qid), campaign.topics[qid])
        _assert_batch_matches(campaign.rankings(qid), campaign.topics[qid], depth=10)
    topic = campaign.topics[campaign.qids[0]]
    empty = RankingBatch.from_rankings([], topic)
    assert empty.gains.shape == (0, 0, len(topic.aspects)) and empty.single.shape == (0, 0)


def test_judged_views_by_hand():
    topic = Topic({"a": {"x": Fraction(1, 2), "y": Fraction(1, 4)}, "b": {"x": 0, "y": 0},
                   "c": {"y": 1}}, {"x": Fraction(1, 2), "y": Fraction(1, 2)})
    batch = RankingBatch.from_rankings([Ranking(["c", "u", "a"]), Ranking(["b"])], topic)
    assert batch.judged_gains.tolist() == [[0.5, 0.25], [0.0, 0.0], [0.0, 1.0]]
    assert batch.judged_single.tolist() == [0.5, 0.0, 1.0]
    # ranking 1: c -> max(0, 1) = 1, u unjudged -> 0, a -> max(.5, .25) = .5; ranking 2: b -> 0, pad.
    assert batch.single.tolist() == [[1.0, 0.0, 0.5], [0.0, 0.0, 0.0]]
    assert batch.judged.tolist() == [[True, False, True], [True, False, False]]


@settings(max_examples=25)
@given(campaign_shapes(), st.sampled_from(["nDCG@10", "nDCG@3", "nDCG", "DCG@5", "DCG"]))
def test_dcg_batches_agree_with_score_on_campaigns(shape, spec):
    shape = {**shape, "topics": min(shape["topics"], 2), "runs": max(shape["runs"], 1)}
    campaign = generate_campaign(**shape)
    metric = parse(spec)
    for qid, topic in campaign.topics.items():
        rankings = campaign.rankings(qid)
        batched = metric.score_batch(RankingBatch.from_rankings(rankings, topic))
        one_by_one = [metric.score(r, topic) for r in rankings]
        assert np.allclose(batched, one_by_one, rtol=0, atol=1e-12)


def test_ndcg_batch_by_hand():
    # r: a = 1, b = 1/2, c = 0 (judged), rankings (b, a) and (u, c, a).
    topic = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0})
    batch = RankingBatch.from_rankings([Ranking(["b", "a"]), Ranking(["u", "c", "a"])], topic)
    ideal = 1 + 0.5 / np.log2(3)                      # (a, b)
    first = 0.5 + 1 / np.log2(3)                      # b at 1, a at 2
    second = 1 / np.log2(4)                           # a at 3 = 1/2
    values = parse("nDCG").score_batch(batch)
    assert values == pytest.approx([first / ideal, second / ideal], abs=1e-15)
    # at k = 1 the ideal is a alone (= 1): (b, a) scores 1/2, (u, c, a) scores 0
    assert parse("nDCG@1").score_batch(batch).tolist() == [0.5, 0.0]


# The campaign generator (generators.campaign) against its docstrings, beyond test_campaign.py.
#
# - the defaults are the TREC 2014 Web diversity shape; ints are exact ranges;
# - every argument check is one whole message, and the probability bounds 0 and 1 are allowed;
# - topic ids ``q1..`` (zero-padded to the campaign size) and run tags ``run001..``;
# - a topic with no judged document keeps its aspects and balanced weights; ``topics_under``
#   uses the scale maximum ``gmax``, not the largest grade present;
# - the judgment model of ``_judgments``: one aspect drawn uniformly (plus ``spread``), grades
#   decaying by GRADE_DECAY, whole-row spam on a few non-relevant documents;
# - the run model: scores ``quality * g/gmax + pooled * [judged] + N(0, 1)``, the ``depth`` best kept;
# - ``write_trec``: the documented file names, nested and repeated output directories.
#
# Statistical checks use fixed seeds and bounds several binomial standard deviations wide, computed
# in the comments from the model's parameters.

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
