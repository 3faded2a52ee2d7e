"""Tests that kill the mutants issue 14 found surviving: each one fails when the
named piece of source is weakened, and passes on the code as it is.

1. The window grid of the threshold constraints keeps ``n = k/2`` for an even cutoff
   (``2 * n <= cutoff`` in ``ThresholdConstraint._signs``).
2. nERR-IA's greedy ideal breaks an exact tie for the larger document id (ndeval), on a
   topic where the choice changes the normaliser.
3. A TREC qrels line with five columns is an ``InputError`` naming file:line, never a bare
   ``ValueError`` from unpacking.
4. Giner's intrinsic classification: gaps equal on floats but unequal exactly are not
   interval (decided exactly); a float-only metric's gaps 1 and 1.0001 are not interval
   within the stated tolerance (``DEFAULT_TOLERANCE``).
5. The random searches reach what their constraints talk about: unequal aspect weights (AspDiv,
   Sat), a Pri swap of positions two apart; a metric failing AspDiv only under unequal weights
   is found violated.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, Phase, find, settings

import axiometer
from axiometer.axioms import get
from axiometer.axioms.constraints.threshold import threshold_grid
from axiometer.checking import check
from axiometer.core import InputError, Topic
from axiometer.generators.case import Case, Scope, cases_of
from axiometer.generators.diversity import aspect_diversity_cases, saturation_cases
from axiometer.generators.domains import outputs
from axiometer.generators.relevance import priority_cases, priority_small_scope
from axiometer.intrinsic.classify import classify
from axiometer.metrics import BuiltinMetric, Needs, RankingBatch, is_exact_capable, parse, wrap
from axiometer.metrics.decide import DEFAULT_TOLERANCE
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


# -- 4. Giner's interval scale: exact-but-unequal gaps, and the float-only band ------

_TOPIC3 = Topic.single({"a": 1, "b": 1, "c": 1})
_THREE = outputs([(["a"], _TOPIC3), (["b"], _TOPIC3), (["c"], _TOPIC3)], name="three")
#: Gaps 1 and 1 + 10^-12: within the float screen (relative 1e-9), so only the exact
#: comparison can tell them apart.
_NEAR = {"a": F(0), "b": F(1), "c": 2 + F(1, 10 ** 12)}


class _Table(BuiltinMetric):
    """Scores the output's one document from a table, exactly (Fraction) and in float."""

    family = "Table"
    title = "Table"
    needs = Needs(aspects=False, graded=True)

    def __init__(self, table: dict[str, Fraction]) -> None:
        super().__init__(None)
        self.table = table
        self.name = "table"

    def compute(self, ranking, topic, A, context=None):
        return A.num(self.table[ranking[0]])


def _assert_unequal_gaps_decided_exactly(result, third: str) -> None:
    interval = result.property("interval")
    assert not interval.holds and interval.exact
    assert [r.label for r in interval.counterexample] == ["[a]", "[b]", "[c]"]
    assert interval.counterexample[2].exact == third
    assert result.category == "ordinal/metric"
    assert result.exact and result.tolerance is None and result.note == "ties and gaps decided exactly"


def test_exact_but_unequal_gaps_are_not_interval_with_an_exact_override():
    # The float scores 0, 1, 2.000000000001 pass the screen as equal gaps; the exact values'
    # second difference 2 + 10^-12 - 2 * 1 + 0 = 10^-12 != 0 decides: not interval, exactly.
    result = classify(wrap(lambda r, t: float(_NEAR[r[0]]), name="near"), _THREE,
                      exact=lambda r, t: _NEAR[r[0]])
    _assert_unequal_gaps_decided_exactly(result, "2000000000001/1000000000000")


def test_exact_but_unequal_gaps_are_not_interval_with_the_metrics_own_exact():
    metric = _Table(_NEAR)
    assert is_exact_capable(metric)
    _assert_unequal_gaps_decided_exactly(classify(metric, _THREE), "2000000000001/1000000000000")
    # Control: with exactly equal gaps (0, 1, 2) the same path says interval, exactly.
    equal = classify(_Table({"a": F(0), "b": F(1), "c": F(2)}), _THREE)
    assert equal.category == "interval/metric" and equal.property("interval").exact


def test_float_only_gaps_1_and_1_0001_are_not_interval_within_the_stated_tolerance():
    # Float-only: equal gaps are decided within DEFAULT_TOLERANCE (1e-9, relative to the
    # values, so a band of 1e-9 * 2.0001 here). The second difference 2.0001 - 2 * 1 + 0 =
    # 1e-4 is far outside it: not interval. A band 1e6 times wider (2e-3) would swallow it.
    assert DEFAULT_TOLERANCE == 1e-9
    scores = {"a": 0.0, "b": 1.0, "c": 2.0001}
    result = classify(wrap(lambda r, t: scores[r[0]], name="gaps"), _THREE)
    assert result.tolerance == DEFAULT_TOLERANCE
    assert "float-only" in result.note and "1e-09" in result.note
    interval = result.property("interval")
    assert not interval.holds
    assert [r.score for r in interval.counterexample] == [0.0, 1.0, 2.0001]
    assert result.category == "ordinal/metric"
    # Control: gaps 1 and 1 + 1e-12 are equal within that tolerance, and the result says so.
    close = {"a": 0.0, "b": 1.0, "c": 2.0 + 1e-12}
    within = classify(wrap(lambda r, t: close[r[0]], name="close"), _THREE)
    assert within.category == "interval/metric" and not within.property("interval").exact
    assert "within tolerance 1e-09" in within.property("interval").note


# -- 5. the random search still covers the ground its constraint talks about --------

#: find() settings: deterministic, no database, generation and shrinking only.
_FIND = settings(max_examples=500, database=None, deadline=None, derandomize=True,
                 phases=(Phase.generate, Phase.shrink), suppress_health_check=list(HealthCheck))


def _unequal_weights(case: Case) -> bool:
    return len(set(case.topic.weights)) > 1


@pytest.mark.parametrize("strategy", [aspect_diversity_cases, saturation_cases], ids=["AspDiv", "Sat"])
def test_aspdiv_and_sat_searches_reach_unequal_aspect_weights(strategy):
    found = find(strategy(Scope()), _unequal_weights, settings=_FIND)
    assert len(found.topic.aspects) >= 2 and sum(found.topic.weights) == 1


def test_the_priority_search_reaches_a_swap_of_positions_two_apart():
    found = find(priority_cases(Scope()), lambda c: c.changed[1] - c.changed[0] >= 2, settings=_FIND)
    i, j = found.changed
    assert (i, j) == (1, 3)  # shrunk: the smallest such swap
    assert found.b == (found.a[2], found.a[1], found.a[0], *found.a[3:])
    # The exhaustive small scope reaches it too.
    assert any(c.changed[1] - c.changed[0] >= 2 for c in cases_of(priority_small_scope(Scope())))


def heaviest_intent_only(ranking, topic) -> Fraction:
    """``sum_i (1/i) sum_{t: w(t) = max w} w(t) r(d_i, t)``: the weighted positional sum over the
    heaviest aspects only. Under balanced weights every aspect is heaviest and this is the
    weighted sum, which satisfies AspDiv; under unequal weights a replacement gaining only on a
    lighter aspect changes nothing, a tie, so AspDiv is violated there and only there."""
    heaviest = max(topic.weights)
    return sum((Fraction(1, i) * w * r for i, d in enumerate(ranking, 1)
                for w, r in zip(topic.weights, topic.vector(d)) if w == heaviest), Fraction(0))


def test_a_metric_failing_aspdiv_only_under_unequal_weights_is_found_violated():
    report = axiometer.check(heaviest_intent_only, ["AspDiv"], budget="quick", name="heaviest")
    assert report.verdicts == {"AspDiv": "violated"}
    ce = report.cell("AspDiv").checks[0].counterexample
    weights = [Fraction(w) for w in ce.topic.weights]
    assert len(set(weights)) > 1  # the counterexample needs unequal weights
    assert ce.score_a == ce.score_b  # a tie: the gain is on a lighter aspect
