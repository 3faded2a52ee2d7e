"""Tests that kill the mutants issue 14 found surviving: each one fails when the
named piece of source is weakened, and passes on the code as it is.

1. The window grid of the threshold constraints keeps ``n = k/2`` for an even cutoff
   (``2 * n <= cutoff`` in ``ThresholdConstraint._signs``).
2. nERR-IA's greedy ideal breaks an exact tie for the larger document id (ndeval), on a
   topic where the choice changes the normaliser.
3. A TREC qrels line with five columns is an ``InputError`` naming file:line, never a bare
   ``ValueError`` from unpacking.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import axiometer
from axiometer.axioms import get
from axiometer.axioms.constraints.threshold import threshold_grid
from axiometer.checking import check
from axiometer.core import InputError, Topic
from axiometer.metrics import RankingBatch, parse
from axiometer.metrics.intent_aware import ERRIA, NERRIA, greedy_ideal
from axiometer.readers import read_qrels

F = Fraction
DEEPTH = get("DeepTh")


# -- 1. the window grid's n = k/2 edge --------------------------------------------

def test_precision_at_2_violates_deepth_in_window_mode_through_the_public_api():
    # Window mode keeps the n with 2n <= k: for k = 2 only n = 1 (a = r1 n1, b = n1 r1),
    # where P@2 scores both 1/2, so D(1) = 0 and DeepTh is violated. Losing n = k/2
    # leaves no n at all, and the verdict turns into n/a.
    report = axiometer.check("P@2", ["DeepTh"], mode="window", budget="quick")
    assert report.verdicts == {"DeepTh": "violated"}
    (only,) = report.cell("DeepTh").checks
    assert (only.mode, only.verdict) == ("window", "violated")
    assert dict(only.counterexample.extra)["n"] == "1"


@pytest.mark.parametrize("k", [2, 3, 4, 5, 10, 11, 64, 65])
def test_the_window_grid_is_every_n_with_2n_at_most_k(k):
    # The grid actually walked is the one the curve records (one point per n, per rc):
    # every grid n with 2n <= k, so k/2 itself when k is even.
    expected = [n for n in threshold_grid(1024) if 2 * n <= k]
    assert expected[-1] == k // 2 or k // 2 > 32  # the dense part of the grid holds k/2
    result = check(parse(f"P@{k}"), DEEPTH, mode="window")
    assert result.curve, result
    for _, points in result.curve:
        assert [n for n, _ in points] == expected


def test_threshold_grid_is_dense_to_32_then_doubles():
    # definitions §3: 1..32, then 64, 128, ... up to the horizon (so every k/2 <= 32 is on it).
    assert threshold_grid(1) == (1,)
    assert threshold_grid(2) == (1, 2)
    assert threshold_grid(32) == tuple(range(1, 33))
    assert threshold_grid(100) == (*range(1, 33), 64)
    assert threshold_grid(1024) == (*range(1, 33), 64, 128, 256, 512, 1024)


# -- 2. nERR-IA's greedy ideal: an exact tie goes to the larger document id ----------

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


# -- 3. a TREC qrels line with five columns is one InputError naming file:line -------

@pytest.mark.parametrize("text, line, columns", [
    ("q1 0 a 1\nq1 0 b 1 extra\n", 2, "qid iter docno grade"),
    ("q1 0 a 1 extra\nq1 0 b 1\n", 1, "qid iter docno grade"),        # first line: still TREC
    ("q1 0 a 1\nq1\t0\tb\t1\t2\n", 2, "qid iter docno grade"),        # tabs after the first line
    ("q1 s1 a 1\nq1 s2 b 1 0.5\n", 2, "qid subtopic docno grade"),    # TREC diversity
])
def test_a_five_column_trec_qrels_line_is_an_input_error_naming_file_and_line(tmp_path, text, line, columns):
    path = tmp_path / "five.qrels"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_qrels(path)
    assert str(caught.value) == f"{path}:{line}: expected 4 columns ({columns}), found 5"
    assert (caught.value.source, caught.value.line) == (str(path), line)


def test_a_five_column_line_under_an_explicit_trec_format_is_an_input_error(tmp_path):
    path = tmp_path / "five.qrels"
    path.write_text("q1 0 a 1\nq1 0 b 1 x\n", encoding="utf-8")
    for fmt in ("trec", "trec-diversity"):
        with pytest.raises(InputError, match=r":2: expected 4 columns \(.*\), found 5$"):
            read_qrels(path, format=fmt)
