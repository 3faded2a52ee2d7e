"""meta_evaluate on the hand-built campaign (tests/meta/campaign.py): every analysis by hand."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from axiometer.core import ValidationError
from axiometer.meta import Sweep, meta_evaluate
from axiometer.readers import read_qrels, read_run
from axiometer.unanimity import metric_unanimity
from tests.meta.campaign import write_campaign


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    qrels, runs = write_campaign(tmp_path_factory.mktemp("campaign"))
    return read_qrels(qrels), [read_run(r) for r in runs]


def by_pair(p_by_pair):
    """A stand-in paired test: the p-value of each pair of rows, by (i, j)."""
    def test(matrix, pairs):
        return np.array([p_by_pair[pair] for pair in pairs])
    return test


def test_every_analysis_by_hand(campaign):
    """P@3 per topic: best 1 1 1 1 1 1, worst 0 ..., mixed 0 1 0 1 0 1, twin 0 ... (runs in file
    order: best, worst, mixed, twin). Stability, T = 3 of 6: best beats worst and twin in every
    sample (1, 1); worst and twin always tie (0); mixed against best, worst or twin is decided
    unless the sample is the other three topics (t2, t4, t6 or t1, t3, t5): 19 of 20 subsets, an
    expected 0.95; the metric's expectation (1 + 1 + 0 + 3 x 0.95) / 6 = 0.8083."""
    qrels, runs = campaign
    stand_in = by_pair({(0, 1): 0.03, (0, 2): 0.25, (0, 3): 0.03, (1, 2): 0.25, (1, 3): 1.0, (2, 3): 0.25})
    result = meta_evaluate(qrels, runs, ["P@3", "nDCG@3"], test=stand_in, trials=2000, seed=1)
    assert result.metrics == ("P@3", "nDCG@3") and result.runs == ("best", "worst", "mixed", "twin")
    assert result.means["P@3"] == (1, 0, 0.5, 0)
    p3 = result.per_metric[0]
    assert p3.power.significant == (2, 0) and p3.power.share(0.05) == pytest.approx(1 / 3)
    stab = p3.stability
    assert (stab.sample, stab.trials, stab.topics) == (3, 2000, 6)
    values = dict(zip(stab.pairs, stab.pair_values))
    assert values[0, 1] == values[0, 3] == 1 and values[1, 3] == 0
    assert all(abs(values[pair] - 0.95) < 4 * np.sqrt(0.95 * 0.05 / 2000) for pair in [(0, 2), (1, 2), (2, 3)])
    # MU is axiometer.unanimity's, on the same scores.
    assert p3.unanimity == metric_unanimity(result.scores, ["P@3", "nDCG@3"])[0]
    # tau: P@3 orders best > mixed > worst = twin; nDCG@3 does too (graded, but the same order).
    c = result.correlation("P@3", "nDCG@3")
    assert c.tau_b == pytest.approx(1) and c.tau_ap == pytest.approx(1) and c.ties_reference == 1
    assert len(result.correlations) == 2 and result.curve is None and result.simulation is None


def test_enumerated_stability_matches_the_expectation(campaign):
    """The same P@3 matrix over all 20 subsets of three topics gives exactly (2 + 3 x 19/20) / 6."""
    from axiometer.meta import stability

    qrels, runs = campaign
    matrix = meta_evaluate(qrels, runs, ["P@3"], test=_ones, trials=1).scores.matrix("P@3")
    rows = []
    for chosen in itertools.combinations(range(6), 3):
        row = np.zeros(6, dtype=bool)
        row[list(chosen)] = True
        rows.append(row)
    assert stability(matrix, samples=np.array(rows)).value == pytest.approx((2 + 3 * 19 / 20) / 6)


def _ones(matrix, pairs):
    return np.ones(len(pairs))


def test_one_metric_has_no_unanimity(campaign):
    qrels, runs = campaign
    result = meta_evaluate(qrels, runs, ["P@3"], test=_ones, trials=10)
    assert result.per_metric[0].unanimity is None and result.correlations == ()


def test_same_seed_same_result_and_the_curve(campaign):
    qrels, runs = campaign
    sweep = Sweep("RareP@3", "alpha", (0, 0.5), "P@3")
    first = meta_evaluate(qrels, runs, ["P@3", "AP"], test=_ones, trials=50, seed=9, scenarios=["truncate"],
                          sweep=sweep)
    again = meta_evaluate(qrels, runs, ["P@3", "AP"], test=_ones, trials=50, seed=9, scenarios=["truncate"],
                          sweep=sweep)
    assert first == again and first.simulation.scenarios == ("truncate",)
    assert [p.metric for p in first.curve.points] == ["RareP(alpha=0)@3", "RareP(alpha=0.5)@3"]
    other = meta_evaluate(qrels, runs, ["P@3", "AP"], test=_ones, trials=50, seed=10, scenarios=["truncate"])
    assert other.means != first.means


def test_refusals(campaign):
    qrels, runs = campaign
    with pytest.raises(ValidationError, match="at least two"):
        meta_evaluate(qrels, runs[:1], ["P@3"])
    with pytest.raises(ValidationError, match="twice"):
        meta_evaluate(qrels, runs, ["P@3", "P@3"])
    with pytest.raises(ValidationError, match="graded"):
        meta_evaluate(qrels, runs, ["P@3"], scenarios=["graded"], grades="binary")


def test_tidy_rows_are_one_per_metric_and_measure(campaign):
    qrels, runs = campaign
    result = meta_evaluate(qrels, runs, ["P@3", "nDCG@3"], trials=20, permutations=100, seed=1)
    rows = result.to_rows()
    levels = len(result.per_metric[0].power.levels)
    assert len(rows) == len(result.metrics) * (2 + levels) + 2 * len(result.correlations)
    p3 = result.per_metric[0]
    by = {(r["metric"], r["measure"], r["against"], r["level"]): r["value"] for r in rows}
    assert by["P@3", "MU", None, None] == p3.unanimity.mu and by["P@3", "stability", None, None] == p3.stability.value
    assert by["P@3", "power", None, p3.power.levels[0]] == p3.power.share(p3.power.levels[0])
    c = result.correlation("P@3", "nDCG@3")
    assert by["nDCG@3", "tau_b", "P@3", None] == c.tau_b
