"""Kendall's tau-b and tau-AP between two metrics' run orderings: hand-worked values, scipy, the
definition of Yilmaz et al. without ties, the tie convention by enumeration, and the tau curve."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.stats import kendalltau

from axiometer.core import ValidationError
from axiometer.meta import rank_correlation, rank_correlations, tau_ap, tau_curve
from axiometer.readers import read_qrels, read_run
from axiometer.scoring import score_runs
from tests.meta.campaign import write_campaign


def test_tau_ap_hand_worked():
    """Reference a > b > c > d > e; the other ordering b, a, c, e, d. Walking the other ordering:
    a at 2 has b above it, which the reference ranks below a: 0/1; c at 3: 2/2; e at 4: 3/3; d at 5:
    3 of b, a, c, e are above d in the reference: 3/4. tau_AP = 2/4 (0 + 1 + 1 + 3/4) - 1 = 3/8.
    Kendall's tau-b: 2 discordant pairs (a,b), (d,e) of 10: (8 - 2)/10 = 3/5."""
    reference, other = [0.9, 0.8, 0.7, 0.6, 0.5], [0.8, 0.9, 0.7, 0.5, 0.6]
    c = rank_correlation(reference, other, names=("r", "o"))
    assert c.tau_ap == pytest.approx(3 / 8, abs=1e-15) and c.tau_b == pytest.approx(3 / 5, abs=1e-15)
    assert (c.concordant, c.discordant, c.ties_reference, c.ties_other) == (8, 2, 0, 0)


def test_tau_ap_weighs_the_top_and_is_asymmetric():
    """A swap of the top two costs more than a swap of the bottom two; reversing the roles of the
    orderings changes tau-AP (but not tau-b)."""
    truth = [4, 3, 2, 1]
    top = tau_ap(truth, [3, 4, 2, 1])       # positions 2..4: 0/1, 2/2, 3/3 -> 2/3 (2) - 1 = 1/3
    bottom = tau_ap(truth, [4, 3, 1, 2])    # 1/1, 2/2, 2/3 -> 2/3 (8/3) - 1 = 7/9
    assert top == pytest.approx(1 / 3) and bottom == pytest.approx(7 / 9)
    x, y = [5, 4, 3, 2, 1], [3, 5, 4, 1, 2]
    assert tau_ap(x, y) != pytest.approx(tau_ap(y, x))
    assert rank_correlation(x, y).tau_b == rank_correlation(y, x).tau_b
    assert tau_ap(truth, truth) == 1 and tau_ap(truth, truth[::-1]) == -1


def yilmaz(reference: list[float], other: list[float]) -> float:
    """Yilmaz et al.'s formula as printed, for orderings without ties."""
    walked = sorted(range(len(other)), key=lambda i: -other[i])
    total = 0.0
    for position in range(1, len(walked)):
        item = walked[position]
        correct = sum(reference[above] > reference[item] for above in walked[:position])
        total += correct / position
    return 2 / (len(walked) - 1) * total - 1


@pytest.mark.parametrize("seed", range(5))
def test_tau_ap_without_ties_is_yilmaz_et_al(seed):
    rng = np.random.default_rng(seed)
    reference, other = rng.permutation(9).tolist(), rng.permutation(9).tolist()
    assert tau_ap(reference, other) == pytest.approx(yilmaz(reference, other), abs=1e-12)


def urbano_marrero(reference: list[float], other: list[float]) -> float:
    """Urbano & Marrero's (2017) tau-AP term for ties in the walked ordering, as they define it: a
    run with p runs in earlier tie groups scores (those of them the reference ranks strictly above
    it) / p; runs of the top group are skipped; 2/n' (sum) - 1."""
    total, counted = 0.0, 0
    for b in range(len(other)):
        earlier = [a for a in range(len(other)) if other[a] > other[b]]
        if not earlier:
            continue
        counted += 1
        total += sum(reference[a] > reference[b] for a in earlier) / len(earlier)
    return 2 / counted * total - 1


@pytest.mark.parametrize("seed", range(5))
def test_tau_ap_with_ties_in_the_walked_ordering_is_urbano_and_marreros(seed):
    rng = np.random.default_rng(seed)
    reference = rng.permutation(8).tolist()          # no ties in the reference
    other = rng.integers(0, 4, 8).tolist()           # many in the other ordering
    assert tau_ap(reference, other) == pytest.approx(urbano_marrero(reference, other), abs=1e-12)


def test_tau_ap_ties_by_hand():
    """Reference a = b > c > d > e; the other ordering a, then {b, c, d} tied, then e. b, c and d
    each have a above: the reference ties a and b (1/2), ranks a above c and d (1, 1); e has four
    runs above, all ranked above it by the reference (4/4). tau_AP = 2/4 (1/2 + 1 + 1 + 1) - 1 = 3/4.
    Identical orderings score 1 with their ties, as tau-b does."""
    assert tau_ap([3, 3, 2, 1, 0], [4, 3, 3, 3, 1]) == pytest.approx(3 / 4, abs=1e-15)
    tied = [2, 1, 1, 0, 0]
    assert tau_ap(tied, tied) == 1 and rank_correlation(tied, tied).tau_b == pytest.approx(1)
    assert tau_ap(tied, [-v for v in tied]) == pytest.approx(-1)


@pytest.mark.parametrize("seed", range(6))
def test_tau_b_is_scipys(seed):
    rng = np.random.default_rng(seed)
    x, y = rng.integers(0, 4, 12).astype(float), rng.integers(0, 5, 12).astype(float)  # many ties
    assert rank_correlation(x, y).tau_b == pytest.approx(kendalltau(x, y).statistic, abs=1e-12)


def test_undefined_when_a_metric_ties_every_run():
    c = rank_correlation([1, 1, 1], [1, 2, 3])
    assert c.tau_b is None and c.tau_ap is None
    assert tau_ap([1], [1]) is None
    with pytest.raises(ValidationError):
        tau_ap([1, 2], [1, 2, 3])


def test_every_ordered_pair():
    found = rank_correlations({"a": [1, 2, 3], "b": [1, 3, 2], "c": [3, 2, 1]})
    assert [(c.reference, c.other) for c in found] == [("a", "b"), ("a", "c"), ("b", "a"), ("b", "c"),
                                                       ("c", "a"), ("c", "b")]
    assert found[1].tau_b == -1


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    qrels, runs = write_campaign(tmp_path_factory.mktemp("campaign"))
    return read_qrels(qrels), [read_run(r) for r in runs]


def test_tau_curve_rareness_reverts_to_precision_at_alpha_zero(campaign):
    """Türkmen et al.'s Fig. 2: RareP(alpha=0)@k is P@k, so tau = 1 there; every point equals the
    coefficients of the two metrics' means scored directly."""
    qrels, runs = campaign
    curve = tau_curve(qrels, runs, "RareP@3", "alpha", (0, 0.5, 1), "P@3")
    assert (curve.metric, curve.param, curve.against, curve.runs, curve.topics) == \
        ("RareP(alpha=…)@3", "alpha", "P@3", 4, 6)
    assert [p.value for p in curve.points] == [0, 0.5, 1]
    assert curve.points[0].metric == "RareP(alpha=0)@3"
    assert curve.points[0].tau_b == pytest.approx(1) and curve.points[0].tau_ap == pytest.approx(1)
    scores = score_runs(qrels, runs, ["P@3", "RareP(alpha=0.5)@3", "RareP(alpha=1)@3"], per_topic=False)
    means = {m: [scores.mean(r, m) for r in scores.runs] for m in scores.metrics}
    for point in curve.points[1:]:
        expected = rank_correlation(means["P@3"], means[point.metric])
        assert (point.tau_b, point.tau_ap) == (expected.tau_b, expected.tau_ap)


def test_tau_curve_refuses_what_cannot_be_swept(campaign):
    qrels, runs = campaign
    with pytest.raises(ValidationError, match="no parameter 'beta'"):
        tau_curve(qrels, runs, "RareP@3", "beta", (0, 1), "P@3")
    with pytest.raises(ValidationError, match="numeric"):
        tau_curve(qrels, runs, "RareP@3", "alpha", ("x",), "P@3")
