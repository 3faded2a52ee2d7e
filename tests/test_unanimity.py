"""Metric Unanimity (definitions §8): the paper's worked example, hand-computed
counts, the undefined cases, and MU's four properties."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from axiometer.core import ValidationError
from axiometer.scoring import Mean, Score, ScoreResult
from axiometer.unanimity import metric_unanimity, scores_by_topic, unanimity

M1, M2, M3 = (1, 0.5, 0.2), (0.8, 0.3, 0.4), (1, 0.2, 0.5)


def test_the_papers_worked_example():
    """Amigó et al. 2018, section 6.1: MU(m1) = log2(4/3).

    Ordered pairs of S1..S3 (6). M_ij (m2 and m3 both >=): (1,2) yes, (1,3) yes, (3,2) yes,
    (2,1), (2,3), (3,1) no -> P(M) = 3/6. m1 wins (1,2), (1,3), loses (3,2): P(m1, M) = 2/6.
    MU = log2((2/6) / ((1/2)(3/6))) = log2(4/3)."""
    mu1 = metric_unanimity({"m1": M1, "m2": M2, "m3": M3})[0]
    assert mu1.metric == "m1" and mu1.others == ("m2", "m3")
    assert (mu1.pairs, mu1.unanimous, mu1.joint, mu1.wins) == (6, 3, 2, 3)
    assert mu1.ratio == Fraction(4, 3) and mu1.p_m == Fraction(1, 2)
    assert mu1.mu == pytest.approx(math.log2(4 / 3), abs=1e-15)
    assert round(mu1.mu, 3) == 0.415


def test_asymmetric_by_hand():
    """m1 = (1, .5, .2), m2 = (1, 1, 0). MU(m1 | m2): m2_i >= m2_j on (1,2), (2,1), (1,3),
    (2,3) -> P(M) = 4/6; m1 wins (1,2), (1,3), (2,3) of them -> P(m1,M) = 3/6; ratio
    (3/6)/((1/2)(4/6)) = 3/2. MU(m2 | m1): m1 orders 1 > 2 > 3, unanimous (1,2), (1,3),
    (2,3) -> 3/6; m2 ties (1,2) (1/2), wins (1,3), (2,3) -> 5/2 of 6; ratio
    (5/12)/((1/2)(3/6)) = 5/3."""
    a = unanimity(M1, [(1, 1, 0)])
    b = unanimity((1, 1, 0), [M1])
    assert a.ratio == Fraction(3, 2) and b.ratio == Fraction(5, 3)
    assert a.mu != b.mu


def test_pairs_stay_within_a_topic_and_are_pooled():
    # Topic 1 is the worked example; topic 2 has two systems where m1 disagrees with the
    # unanimous m2, m3: pairs (1,2) unanimous, m1 loses; (2,1) not unanimous.
    # Pooled: pairs 6 + 2 = 8, unanimous 3 + 1 = 4, joint 2 + 0 = 2, wins 3 + 1 = 4.
    # ratio = (2/8) / ((4/8)(4/8)) = 1.
    table = {"m1": {"t1": M1, "t2": (0, 1)}, "m2": {"t1": M2, "t2": (1, 0)},
             "m3": {"t1": M3, "t2": (1, 0)}}
    mu1 = metric_unanimity(table)[0]
    assert (mu1.pairs, mu1.unanimous, mu1.joint, mu1.topics) == (8, 4, 2, 2)
    assert mu1.ratio == 1 and mu1.mu == 0.0


def test_undefined_cases_say_why():
    never = unanimity((0, 1), [(1, 0)])  # the only unanimous pair is one m loses
    assert never.mu is None and never.ratio is None and "P(m_ij, M_ij) = 0" in never.undefined
    one = unanimity((1,), [(1,)])
    assert one.mu is None and "no pair" in one.undefined


def test_exact_scores_compare_exactly():
    third = Fraction(1, 3)
    # 1/3 and 0.1 + 0.2 ... as Fractions: a tie that floats would not see.
    result = unanimity((third, Fraction(1, 3)), [(1, 0)])
    assert result.joint == Fraction(1, 2) and result.ratio == 1  # the tie counts 1/2


def test_from_a_score_result():
    result = ScoreResult(runs=("A", "B"), metrics=("x", "y"), topics=("q1",),
                         scores=(Score("A", "q1", "x", 1.0), Score("A", "q1", "y", 0.0),
                                 Score("B", "q1", "x", 0.0), Score("B", "q1", "y", 1.0)),
                         means=(Mean("A", "x", 1.0),), missing={}, ignored={})
    assert scores_by_topic(result) == {"x": {"q1": [1.0, 0.0]}, "y": {"q1": [0.0, 1.0]}}
    mu_x, mu_y = metric_unanimity(result)
    # The only pair y approves of, (B, A), is one x loses: undefined.
    assert mu_x.mu is None and mu_y.mu is None
    lean = ScoreResult(("A",), ("x",), ("q1",), (), (), {}, {})
    with pytest.raises(ValidationError, match="per-topic scores"):
        metric_unanimity(lean)


def test_bad_requests():
    with pytest.raises(ValidationError, match="at least two"):
        metric_unanimity({"m1": M1})
    with pytest.raises(ValidationError, match="no scores for metric 'zz'"):
        metric_unanimity({"m1": M1, "m2": M2}, ["m1", "zz"])
    with pytest.raises(ValidationError, match="one score per system output"):
        unanimity(M1, [(1, 2)])
    with pytest.raises(ValidationError, match="finite"):
        unanimity((1.0, float("nan")), [(1, 2)])


# -- the four properties (definitions §8) --------------------------------------------

def score_lists(n):
    return st.lists(st.integers(0, 3), min_size=n, max_size=n)


@st.composite
def outputs(draw):
    n = draw(st.integers(2, 7))
    others = draw(st.lists(score_lists(n), min_size=1, max_size=3))
    m = draw(score_lists(n))
    return m, others


def ratio_or_minus(result):
    # An undefined MU with unanimous pairs is log2(0): below every defined value.
    return -1 if result.ratio is None else result.ratio


@given(outputs())
def test_capturing_every_unanimous_improvement_maximises_mu(case):
    """m* = the sum of the other metrics: whenever every other metric weakly prefers si and
    one strictly, m* strictly prefers si; when all tie, m* ties. No metric beats it."""
    m, others = case
    best = [sum(values) for values in zip(*others)]
    top, mine = unanimity(best, others), unanimity(m, others)
    if top.unanimous:
        assert top.ratio is not None and ratio_or_minus(mine) <= top.ratio


@given(outputs(), st.integers(-3, 3))
def test_a_constant_metric_scores_zero(case, value):
    _, others = case
    result = unanimity([value] * len(others[0]), others)
    if result.unanimous:  # every unanimous pair is a tie worth 1/2: P(m, M) = P(M)/2
        assert result.ratio == 1 and result.mu == 0.0
    else:
        assert result.mu is None and "P(M_ij) = 0" in result.undefined


def test_a_random_metric_scores_about_zero():
    rng = np.random.default_rng(7)
    quality = rng.random(300)
    others = [quality + 0.3 * rng.random(300) for _ in range(2)]
    random_metric = rng.random(300)
    result = unanimity(random_metric.tolist(), [o.tolist() for o in others])
    assert result.pairs == 300 * 299 and result.unanimous > 10_000
    assert abs(result.mu) < 0.1  # 0.034 with this seed; pairs share systems, so the spread is wide
    # ... while a metric tracking the same quality is far from 0.
    assert unanimity(quality.tolist(), [o.tolist() for o in others]).mu > 0.5


@settings(max_examples=30)
@given(outputs())
def test_duplicating_a_metric_in_M_changes_nothing(case):
    m, others = case
    once, twice = unanimity(m, others), unanimity(m, [*others, others[0]])
    assert (once.ratio, once.mu, once.unanimous, once.joint) == \
        (twice.ratio, twice.mu, twice.unanimous, twice.joint)


def test_asymmetry_is_not_an_accident_of_one_example():
    """On the worked example too: MU(m1 | {m2, m3}) = log2(4/3) but MU(m2 | {m1, m3}) = 1."""
    mu1, mu2, _ = metric_unanimity({"m1": M1, "m2": M2, "m3": M3})
    # m2 w.r.t. m1, m3: unanimous (1,2), (1,3) (m1 and m3 agree on 2 vs 3? m1 .5>.2, m3 .2<.5:
    # no) -> 2/6; m2 wins both -> 2/6; ratio (2/6)/((1/2)(2/6)) = 2.
    assert mu2.ratio == 2 and mu1.ratio == Fraction(4, 3)


def test_a_tidy_row_holds_mu_and_its_probabilities_as_numbers():
    result = metric_unanimity({"m1": M1, "m2": M2, "m3": M3})[0]
    (row,) = result.to_rows()
    assert row["mu"] == result.mu and row["ratio"] == float(result.ratio) and row["p_m"] == 0.5
    assert (row["unanimous"], row["pairs"]) == (result.unanimous, result.pairs)
