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
