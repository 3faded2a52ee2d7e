"""Intent-aware metrics (P-IA, RR-IA, AP-IA, nDCG-IA, ERR-IA, nERR-IA, RBP-IA):
hand-computed values on a two-aspect topic with unequal weights, the greedy
ideal of nERR-IA (ties included), reduction to the single-aspect metric on
one-aspect topics, edge cases, float vs exact, the batched path, spec strings."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

from axiometer.core import Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.arithmetic import exact_to_float
from axiometer.metrics.intent_aware import (ERRIA, NDCGIA, NERRIA, RBPIA, AveragePrecisionIA,
                                            PrecisionIA, ReciprocalRankIA, greedy_ideal)
from axiometer.metrics.intent_aware import _IdentityCache, aspect_topics
from tests.metrics.agreement import assert_evaluations_agree
from tests.strategies import diversity_cases

F = Fraction
# Aspects x (weight 7/10) and y (weight 3/10).
TOPIC = Topic({"a": {"x": F(1, 2)}, "b": {"x": F(1, 4), "y": F(1, 2)}, "c": {"y": F(3, 4)},
               "n": {"x": 0, "y": 0}}, {"x": F(7, 10), "y": F(3, 10)})
RANKING = ["a", "u", "c", "b"]
IA_SPECS = ["P_IA@1", "P_IA@5", "RR_IA", "RR_IA@2", "AP_IA", "AP_IA@3", "nDCG_IA", "nDCG_IA@3",
            "ERR_IA", "ERR_IA@2", "nERR_IA", "nERR_IA@3", "RBP_IA(p=0.8)", "RBP_IA(p=0.5)@3"]


def test_hand_computed_rational_ones():
    # P-IA@2: x: a relevant -> 1/2; y: nothing -> 0.  7/10 * 1/2 = 7/20.
    assert PrecisionIA(2).exact(RANKING, TOPIC) == F(7, 20)
    # RR-IA: x first hit at 1 -> 1; y first hit (c) at 3 -> 1/3.  7/10 + 3/10 * 1/3 = 4/5.
    assert ReciprocalRankIA().exact(RANKING, TOPIC) == F(4, 5)
    # AP-IA: x (R_x = 2: a, b): a@1 P=1, b@4 P=2/4 -> 3/4;
    #        y (R_y = 2: b, c): c@3 P=1/3, b@4 P=2/4 -> 5/12.  7/10 * 3/4 + 3/10 * 5/12 = 13/20.
    assert AveragePrecisionIA().exact(RANKING, TOPIC) == F(13, 20)
    # ERR-IA: x: a@1 1/2; b@4 1/4 * 1/4 * (1 - 1/2) = 1/32 -> 17/32.
    #         y: c@3 1/3 * 3/4 = 1/4; b@4 1/4 * 1/2 * (1 - 3/4) = 1/32 -> 9/32.
    #         7/10 * 17/32 + 3/10 * 9/32 = 146/320 = 73/160.
    assert ERRIA().exact(RANKING, TOPIC) == F(73, 160)
    # RBP-IA(p=1/2): x: 1/2 (1/2 + 1/8 * 1/4) = 17/64; y: 1/2 (1/4 * 3/4 + 1/8 * 1/2) = 1/8.
    #                7/10 * 17/64 + 3/10 * 1/8 = 143/640.
    assert RBPIA(p=0.5).exact(RANKING, TOPIC) == F(143, 640)
    assert RBPIA(p=0.5).score(RANKING, TOPIC) == pytest.approx(143 / 640, abs=1e-15)


def test_hand_computed_ndcg_ia():
    # nDCG-IA@2 of [a, u]: x: DCG 1/2, ideal [a, b] 1/2 + 1/4 / log2(3); y: DCG 0.
    want = 0.7 * 0.5 / (0.5 + 0.25 / math.log2(3))
    assert NDCGIA(2).score(RANKING, TOPIC) == pytest.approx(want, abs=1e-15)
    assert exact_to_float(NDCGIA(2).exact(RANKING, TOPIC)) == pytest.approx(want, abs=1e-15)


def test_hand_computed_nerr_ia():
    # Greedy ideal, increments sum_t w(t) r(d, t) prod_{j<i} (1 - r(d_j, t)):
    #   1: a 7/10*1/2 = 0.35, b 7/10*1/4 + 3/10*1/2 = 0.325, c 3/10*3/4 = 0.225 -> a
    #   2: b 7/10*1/4*1/2 + 0.15 = 0.2375, c 0.225 -> b
    #   3: c 3/10 * 3/4 * (1 - 1/2) = 0.1125
    # ERR-IA(ideal) = 0.35 + 0.2375/2 + 0.1125/3 = 0.50625 = 81/160.
    assert greedy_ideal(TOPIC) == ("a", "b", "c")
    assert ERRIA().exact(["a", "b", "c"], TOPIC) == F(81, 160)
    assert NERRIA().exact(RANKING, TOPIC) == F(73, 81)  # (73/160) / (81/160)
    assert NERRIA(1).exact(RANKING, TOPIC) == 1  # a is the ideal's first document
    assert NERRIA().exact(["a", "b", "c"], TOPIC) == 1


def test_greedy_ideal_ties_go_to_the_larger_document_id():
    # d1 and d2 add the same (1/2 * 1/2 = 1/4) first: ndeval takes the larger docno.
    topic = Topic({"d1": {"x": F(1, 2)}, "d2": {"y": F(1, 2)}, "d0": {"x": 0}})
    assert greedy_ideal(topic) == ("d2", "d1")
    assert greedy_ideal(topic, 1) == ("d2",)
    # Step 1: d9 and d5 tie at 1/2 * 1/2 = 1/4 (d3: 1/8) -> d9.
    # Step 2: d5 adds 1/2 * 1/2 * (1 - 1/2) = 1/8, d3 adds 1/2 * 1/4 = 1/8: a tie again -> d5.
    topic = Topic({"d9": {"x": F(1, 2)}, "d5": {"x": F(1, 2)}, "d3": {"y": F(1, 4)}})
    assert greedy_ideal(topic) == ("d9", "d5", "d3")


def test_greedy_ideal_gives_an_exact_tie_to_the_larger_id_when_its_float_is_an_ulp_lower():
    # Weights 1/3 and 2/3: d1 = (5/7, 5/7) and d2 = (3/7, 6/7) both add exactly 5/7 first, but
    # float64 puts d2 an ulp below d1. The float screen must let d2 through to the exact tie
    # rule (larger id first), not keep only the float maximum.
    topic = Topic({"d1": {"x": F(5, 7), "y": F(5, 7)}, "d2": {"x": F(3, 7), "y": F(6, 7)}},
                  {"x": F(1, 3), "y": F(2, 3)})
    weights = np.array([float(F(1, 3)), float(F(2, 3))])
    screen = np.array([[float(F(5, 7)), float(F(5, 7))], [float(F(3, 7)), float(F(6, 7))]]) @ weights
    assert screen[1] == np.nextafter(screen[0], 0)  # d2's float: one ulp below d1's
    assert greedy_ideal(topic) == ("d2", "d1")
    assert greedy_ideal(topic, 1) == ("d2",)


def test_greedy_ideal_stops_when_nothing_is_left_to_gain():
    # r = 1 on x saturates it: b (only on x) adds nothing after a.
    topic = Topic.single({"a": 1, "b": F(1, 2), "c": 0})
    assert greedy_ideal(topic) == ("a",)
    assert NERRIA().exact(["b", "a"], topic) == F(1, 2) + F(1, 4)  # (1/2 + 1/2 * 1/2) / 1


def test_edge_cases():
    no_relevant = Topic({"a": {"x": 0}, "b": {"y": 0}})
    for spec in IA_SPECS:
        metric = parse(spec)
        assert metric.exact([], TOPIC) == 0
        assert metric.score([], TOPIC) == 0.0
        assert metric.exact(["a", "b"], no_relevant) == 0
        batch = RankingBatch.from_rankings([["a", "b"], []], no_relevant)
        assert list(metric.score_batch(batch)) == [0.0, 0.0]
    # An aspect with no relevant document contributes 0 (AP_t with R_t = 0).
    topic = Topic({"a": {"x": 1, "y": 0}})
    assert AveragePrecisionIA().exact(["a"], topic) == F(1, 2)
    # Cutoff longer than the ranking.
    assert PrecisionIA(100).exact(RANKING, TOPIC) == F(7, 10) * F(2, 100) + F(3, 10) * F(2, 100)
    assert ERRIA(100).exact(RANKING, TOPIC) == ERRIA().exact(RANKING, TOPIC)


def test_declarations():
    assert PrecisionIA().cutoff == 10 and PrecisionIA().name == "P_IA@10"
    assert RBPIA().p == 0.8 and RBPIA.param_info[0].grid == (0.8, 0.9, 0.99)
    for spec in IA_SPECS:
        metric = parse(spec)
        assert metric.needs.aspects and not metric.needs.context
    assert not PrecisionIA.needs.graded and not AveragePrecisionIA.needs.graded
    assert ERRIA.needs.graded and NERRIA.normalised and not ERRIA.normalised


@pytest.mark.parametrize("spec", IA_SPECS)
def test_spec_round_trip(spec):
    metric = parse(spec)
    assert metric.name == spec and parse(metric.name).name == spec


@given(diversity_cases(max_aspects=1, max_rankings=2))
def test_one_aspect_topics_reduce_to_the_single_aspect_metric(case):
    topic, rankings = case
    pairs = [("P_IA@5", "P@5"), ("RR_IA", "RR"), ("AP_IA@10", "AP@10"), ("nDCG_IA@5", "nDCG@5"),
             ("ERR_IA", "ERR"), ("RBP_IA(p=0.9)", "RBP(p=0.9)")]
    for ranking in rankings:
        for ia, single in pairs:
            assert parse(ia).exact(ranking, topic) == parse(single).exact(ranking, topic)


@given(diversity_cases(max_docs=8), st.sampled_from(IA_SPECS))
def test_float_matches_exact_and_batch(case, spec):
    # Unequal weights and relevance such as 1/3 or 1/10 included (diversity_cases).
    topic, rankings = case
    metric = parse(spec)
    assert_evaluations_agree(metric, topic, rankings)


# Intent-aware metrics' helpers, issue 14: the identity-keyed LRU cache (its size, its order,
# its extra keys), the greedy nERR-IA ideal deciding a float near-tie exactly and stopping at its
# depth, and nERR-IA's batched path normalising by the ideal cut at k.

def test_identity_cache_is_lru_of_128_topics_keyed_on_identity_and_key():
    builds = []

    def build(tag):
        def make():
            builds.append(tag)
            return tag
        return make

    cache = _IdentityCache(maxsize=2)
    t1, t2, t3 = (Topic.single({"a": 1}) for _ in range(3))  # equal, not identical
    assert cache.get(t1, (), build("t1")) == "t1"
    assert cache.get(t1, (), build("again")) == "t1" and builds == ["t1"]
    assert cache.get(t2, (), build("t2")) == "t2"  # an equal topic is another entry
    assert cache.get(t1, (5,), build("t1@5")) == "t1@5"  # another key: another entry, t1 evicted
    assert cache.get(t2, (), build("x")) == "t2"  # t2 used: now the most recent
    cache.get(t3, (), build("t3"))  # evicts the least recently used: t1@5, not t2
    assert cache.get(t2, (), build("x")) == "t2"
    assert cache.get(t1, (5,), build("t1@5 again")) == "t1@5 again"
    assert builds == ["t1", "t2", "t1@5", "t3", "t1@5 again"]
    # The default size: 128 topics are held, the 129th evicts the first.
    cache = _IdentityCache()
    topics = [Topic.single({"a": 1}) for _ in range(129)]
    for i, topic in enumerate(topics[:128]):
        cache.get(topic, (), build(i))
    assert cache.get(topics[0], (), build("lost")) == 0
    cache.get(topics[128], (), build(128))  # topics[1] is now the oldest
    assert cache.get(topics[0], (), build("lost")) == 0
    assert cache.get(topics[1], (), build("rebuilt")) == "rebuilt"


def test_aspect_topics_and_ideals_are_per_topic_object():
    exact = Topic({"a": {"x": F(1, 2)}, "b": {"y": F(1, 2)}})
    floats = Topic({"a": {"x": 0.5}, "b": {"y": 0.5}})
    assert [t.r("a") for t in aspect_topics(exact)] == [F(1, 2), 0]
    assert isinstance(aspect_topics(exact)[0].r("a"), Fraction)
    assert isinstance(aspect_topics(floats)[0].r("a"), float)
    # The depth is part of the ideal's key: the full ideal after the depth-1 one.
    topic = Topic({"d1": {"x": F(1, 2)}, "d2": {"y": F(1, 2)}})
    assert greedy_ideal(topic, 1) == ("d2",)
    assert greedy_ideal(topic) == ("d2", "d1")
    assert greedy_ideal(topic, 1) == ("d2",)


def test_a_float_near_tie_is_decided_exactly():
    # One aspect: a's grade exceeds b's by 10^-20, below float resolution (both are 1/3 in
    # float64). Exactly a adds more, so a comes first although b is the larger id.
    tiny = F(1, 10 ** 20)
    topic = Topic.single({"a": F(1, 3) + tiny, "b": F(1, 3)})
    assert float(topic.r("a")) == float(topic.r("b"))
    assert greedy_ideal(topic) == ("a", "b")
    # Swapped: b exceeds a by 10^-20 -> b first (also by the tie rule, which must not be needed).
    topic = Topic.single({"a": F(1, 3), "b": F(1, 3) + tiny})
    assert greedy_ideal(topic) == ("b", "a")


def test_nerr_ia_batched_normalises_by_the_ideal_at_k():
    # Aspects x (7/10), y (3/10): a {x 1/2}, b {x 1/4, y 1/2}, c {y 3/4}. Greedy ideal a, b, c
    # (test_intent_aware): increments 0.35, 0.2375, 0.1125.
    topic = Topic({"a": {"x": F(1, 2)}, "b": {"x": F(1, 4), "y": F(1, 2)}, "c": {"y": F(3, 4)},
                   "n": {"x": 0, "y": 0}}, {"x": F(7, 10), "y": F(3, 10)})
    # @1: ideal ERR-IA@1 = 7/20. [c]: 3/10 * 3/4 = 9/40 -> 9/14;  [b]: 13/40 -> 13/14.
    assert NERRIA(1).exact(["c"], topic) == F(9, 14)
    batch = RankingBatch.from_rankings([["c"], ["b", "a"], ["n"]], topic)
    assert NERRIA(1).score_batch(batch).tolist() == pytest.approx([9 / 14, 13 / 14, 0.0], abs=1e-15)
    # @2: ideal 0.35 + 0.2375/2 = 0.46875 = 15/32. [b, a]: 0.325 + (7/10 * 1/2 * 3/4)/2
    # = 0.325 + 0.13125 = 0.45625 = 73/160 -> (73/160)/(15/32) = 73/75.
    assert NERRIA(2).exact(["b", "a"], topic) == F(73, 75)
    assert ERRIA(2).exact(["a", "b"], topic) == F(15, 32)
    batch = RankingBatch.from_rankings([["b", "a"], ["a", "b", "c"]], topic)
    assert NERRIA(2).score_batch(batch).tolist() == pytest.approx([73 / 75, 1.0], abs=1e-15)


def test_greedy_increment_uses_what_is_left_of_a_partly_satisfied_aspect():
    # Equal weights 1/2. Step 1: d9 and d1 (x, 1/2) tie at 1/4 over d5 (y, 1/4: 1/8) -> d9.
    # Step 2: d1 adds (1/2)(1/2)(1 - 1/2) = 1/8, d5 adds (1/2)(1/4) = 1/8: a tie -> d5 (larger id).
    topic = Topic({"d9": {"x": F(1, 2)}, "d1": {"x": F(1, 2)}, "d5": {"y": F(1, 4)}})
    assert greedy_ideal(topic) == ("d9", "d5", "d1")


def test_intent_aware_batches_match_the_hand_computed_values():
    # test_intent_aware's topic and ranking: w(x) = 7/10, w(y) = 3/10; [a, u, c, b].
    from axiometer.metrics.intent_aware import (AveragePrecisionIA, PrecisionIA, RBPIA,
                                                ReciprocalRankIA)
    topic = Topic({"a": {"x": F(1, 2)}, "b": {"x": F(1, 4), "y": F(1, 2)}, "c": {"y": F(3, 4)},
                   "n": {"x": 0, "y": 0}}, {"x": F(7, 10), "y": F(3, 10)})
    rankings = [["a", "u", "c", "b"], ["n"], []]
    batch = RankingBatch.from_rankings(rankings, topic)
    for metric, value in ((PrecisionIA(2), F(7, 20)), (ReciprocalRankIA(), F(4, 5)),
                          (AveragePrecisionIA(), F(13, 20)), (ERRIA(), F(73, 160)),
                          (RBPIA(p=0.5), F(143, 640))):
        assert metric.exact(rankings[0], topic) == value
        assert metric.score_batch(batch).tolist() == pytest.approx([float(value), 0.0, 0.0], abs=1e-15)


def test_nerr_ia_takes_no_parameters():
    from axiometer.core import ValidationError
    with pytest.raises(ValidationError) as error:
        NERRIA(p=0.5)
    assert str(error.value) == "nERR_IA: unknown parameter 'p' (parameters: none)"


def test_a_batch_built_without_judged_flags_scores_each_aspect_the_same():
    """RankingBatch's ``judged`` is optional: the per-aspect batches pass on lengths as lengths
    (an aspect without a relevant document scores its zeros, one per ranking)."""
    topic = Topic({"a": {"x": F(1, 2), "y": 0}, "b": {"x": F(1, 4), "y": 0}}, {"x": F(1, 2), "y": F(1, 2)})
    rankings = [["b", "a"], ["u"], []]
    full = RankingBatch.from_rankings(rankings, topic)
    bare = RankingBatch(topic, full.gains, full.lengths)
    for metric in (NDCGIA(10), ReciprocalRankIA()):
        expected = [float(metric.exact(r, topic)) for r in rankings]
        assert metric.score_batch(bare).tolist() == pytest.approx(expected, abs=1e-15)


# -- nERR-IA's greedy ideal: an exact tie goes to the larger document id ----------

def _tie_topic(order: list[str]) -> Topic:
    # Aspects x, y, weight 1/2 each; d1 = (0, 1/2), d2 = (1/2, 1/4), d3 = (3/4, 0).
    vectors = {"d1": {"x": F(0), "y": F(1, 2)}, "d2": {"x": F(1, 2), "y": F(1, 4)},
               "d3": {"x": F(3, 4), "y": F(0)}}
    return Topic({d: vectors[d] for d in order}, {"x": F(1, 2), "y": F(1, 2)})


@pytest.mark.parametrize("order", [["d1", "d2", "d3"], ["d3", "d2", "d1"]], ids=["ascending", "descending"])
def test_nerr_ia_exact_tie_goes_to_the_larger_id_and_changes_the_normaliser(order):
    # Greedy increments sum_t w(t) r(d, t) prod_{j<i} (1 - r(d_j, t)):
    #   1: d1 1/2*1/2 = 1/4; d2 1/2*1/2 + 1/2*1/4 = 3/8; d3 1/2*3/4 = 3/8: d2 and d3 tie
    #      exactly -> d3 (ndeval: the larger docno). Unsatisfied: x 1/4, y 1.
    #   2: d1 1/2*1/2 = 1/4; d2 1/2*1/2*1/4 + 1/2*1/4 = 3/16 -> d1. Unsatisfied: x 1/4, y 1/2.
    #   3: d2 1/2*1/2*1/4 + 1/2*1/4*1/2 = 1/8.
    #   ERR-IA(d3, d1, d2) = 3/8 + (1/4)/2 + (1/8)/3 = 13/24.
    # Had d2 won the tie: (d2, d1, d3) = 3/8 + (3/16)/2 + (1/8)/3 = 17/32 (d1 then adds
    # 1/2*1/2*3/4; d3 1/2*3/4*1/2), a different normaliser.
    topic = _tie_topic(order)
    assert greedy_ideal(topic) == ("d3", "d1", "d2")
    assert greedy_ideal(topic, 1) == ("d3",)
    assert ERRIA().exact(["d3", "d1", "d2"], topic) == F(13, 24)
    assert ERRIA().exact(["d2", "d1", "d3"], topic) == F(17, 32)
    # So the ranking (d2, d1, d3) scores (17/32) / (13/24) = 51/52, not 1.
    assert NERRIA().exact(["d2", "d1", "d3"], topic) == F(51, 52)
    assert NERRIA().score(["d2", "d1", "d3"], topic) == pytest.approx(51 / 52, abs=1e-15)
    batch = RankingBatch.from_rankings([["d2", "d1", "d3"], ["d3", "d1", "d2"]], topic)
    assert NERRIA().score_batch(batch) == pytest.approx([51 / 52, 1.0], abs=1e-15)
    # @2: ideal (d3, d1) = 3/8 + 1/8 = 1/2; (d2, d1) = 3/8 + (1/2*1/2*3/4)/2 = 15/32 -> 15/16.
    assert NERRIA(2).exact(["d2", "d1"], topic) == F(15, 16)
    assert NERRIA().exact(["d3", "d1", "d2"], topic) == 1
