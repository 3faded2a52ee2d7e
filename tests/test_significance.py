"""The significance tests of axiometer.significance against scipy, hand-worked values and an
exact enumeration; Holm, the bootstrap interval, the effect size and a whole comparison."""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from axiometer.core import ValidationError
from axiometer.significance import (
    all_pairs,
    enumerates,
    bootstrap_ci,
    compare_matrices,
    effect_size,
    holm,
    paired_t_test,
    randomization_test,
    run_labels,
    smallest_p_value,
    topics_to_reach,
    wilcoxon_test,
)

#: Four runs × twelve topics, fixed (decimals with 3 digits, some topics tied between runs).
FIXED = np.array([
    [0.412, 0.733, 0.105, 0.918, 0.264, 0.571, 0.389, 0.650, 0.047, 0.822, 0.333, 0.590],
    [0.380, 0.733, 0.212, 0.801, 0.199, 0.620, 0.301, 0.702, 0.047, 0.756, 0.250, 0.511],
    [0.512, 0.855, 0.300, 0.950, 0.401, 0.700, 0.488, 0.811, 0.120, 0.900, 0.431, 0.688],
    [0.100, 0.200, 0.050, 0.300, 0.010, 0.150, 0.090, 0.250, 0.000, 0.330, 0.070, 0.120],
])


def _scipy(test, x, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return float(test(x, y).pvalue)


# -- the paired t-test ---------------------------------------------------------------------

def test_t_test_agrees_with_scipy_on_fixed_inputs():
    ours = paired_t_test(FIXED)
    theirs = [_scipy(stats.ttest_rel, FIXED[i], FIXED[j]) for i, j in all_pairs(4)]
    np.testing.assert_allclose(ours, theirs, rtol=1e-9)


def test_t_test_hand_computed():
    # d = (1, 2, 3): mean 2, sd 1, t = 2 / (1 / sqrt 3) = 2 sqrt 3 with 2 degrees of freedom,
    # where the two-sided p is 1 - |t| / sqrt(t^2 + 2) = 1 - sqrt(12 / 14).
    matrix = np.array([[2.0, 3.0, 4.0], [1.0, 1.0, 1.0]])
    assert paired_t_test(matrix)[0] == pytest.approx(1 - math.sqrt(6 / 7), rel=1e-12)


def test_t_test_conventions_where_undefined():
    matrix = np.array([[0.5, 0.6, 0.7], [0.5, 0.6, 0.7], [0.25, 0.35, 0.45]])
    p = paired_t_test(matrix)
    assert p[0] == 1.0          # identical runs: no evidence (scipy says nan)
    assert p[1] == 0.0 and p[2] == 0.0  # the same non-zero difference on every topic: t infinite


# -- Wilcoxon ------------------------------------------------------------------------------

def test_wilcoxon_hand_computed():
    # d = (1, -2, 3, 4, 5): ranks 1..5, W- = 2; P(W- <= 2) = |{}, {1}, {2}| / 2^5 = 3/32, two-sided 6/32.
    matrix = np.array([[1.0, 0.0, 3.0, 4.0, 5.0], [0.0, 2.0, 0.0, 0.0, 0.0]])
    assert wilcoxon_test(matrix)[0] == pytest.approx(6 / 32, rel=1e-12)
    # Three positive differences: P(W+ = 6) = 1/8, two-sided 1/4.
    assert wilcoxon_test(np.array([[3.0, 2.0, 1.0], [0.0, 0.0, 0.0]]))[0] == pytest.approx(0.25)


@pytest.mark.parametrize("topics", [20, 60])
def test_wilcoxon_agrees_with_scipy_pair_by_pair(topics):
    # Values on a coarse grid so that ties and zeros are common: every pair gets the p-value
    # scipy's default gives it alone (whose method depends on that pair's ties), whatever the
    # batch holds; the batch's own 'auto' would use one method for all.
    rng = np.random.default_rng(topics)
    matrix = rng.integers(0, 6, size=(8, topics)).astype(float) / 8
    matrix[1, :] = matrix[0, :] + np.arange(1, topics + 1) / 1024  # a pair without ties or zeros
    ours = wilcoxon_test(matrix)
    theirs = [_scipy(stats.wilcoxon, matrix[i], matrix[j]) for i, j in all_pairs(8)]
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_wilcoxon_at_most_13_topics_with_ties_uses_the_normal_approximation():
    rng = np.random.default_rng(10)
    matrix = rng.integers(0, 6, size=(6, 10)).astype(float) / 8
    matrix[1, :] = matrix[0, :] + np.arange(1, 11) / 1024          # no tie: exact
    expected = []
    for i, j in all_pairs(6):
        d = matrix[i] - matrix[j]
        clean = np.all(d != 0) and len(set(np.abs(d))) == len(d)
        expected.append(_scipy(lambda x, y: stats.wilcoxon(x, y, method="exact" if clean else "asymptotic"),
                               matrix[i], matrix[j]))
    np.testing.assert_allclose(wilcoxon_test(matrix), expected, rtol=1e-12)


def test_wilcoxon_sees_ties_that_float_noise_hides():
    # 0.7 - 0.4 and 0.5 - 0.2 are both 0.3, but not in floats: scipy on the raw values ranks them
    # apart (and uses the exact distribution for untied data); on the grid they tie, as the
    # exact decimals do.
    x = np.array([0.7, 0.5, 0.9, 0.3, 0.6, 0.2, 0.8, 0.4, 0.1, 0.5])
    y = np.array([0.4, 0.2, 0.6, 0.0, 0.3, 0.3, 0.5, 0.1, 0.2, 0.2])
    assert len(set((x - y).tolist())) > 2        # the noise is there
    decimals = stats.wilcoxon(np.round((x - y) * 10), method="asymptotic").pvalue
    assert wilcoxon_test(np.vstack([x, y]))[0] == pytest.approx(decimals, rel=1e-12)
    assert _scipy(stats.wilcoxon, x, y) != pytest.approx(decimals, rel=1e-3)


def test_identical_runs_have_p_1_in_every_test():
    matrix = np.array([[0.1, 0.2, 0.3, 0.4], [0.1, 0.2, 0.3, 0.4]])
    assert wilcoxon_test(matrix)[0] == 1.0 and paired_t_test(matrix)[0] == 1.0
    assert randomization_test(matrix, permutations=100)[0] == 1.0


# -- the randomization test ----------------------------------------------------------------

def _exact_p(x: list[str], y: list[str]) -> Fraction:
    """The exact two-sided p-value over all 2^T sign patterns, in exact decimals."""
    d = [Fraction(a) - Fraction(b) for a, b in zip(x, y)]
    observed = abs(sum(d))
    hits = sum(abs(sum(s * v for s, v in zip(signs, d))) >= observed
               for signs in itertools.product((1, -1), repeat=len(d)))
    return Fraction(hits, 2 ** len(d))


#: Ten-topic cases as decimal strings: values on a 0.1 lattice (float noise in every difference,
#: and many sign patterns whose |sum| ties the observed one), and irregular values.
TEN_TOPIC_CASES = [
    # Nine differences of 0.1 and one of -0.1: 20 of the 22 patterns at least as extreme tie it.
    (["0.7", "0.5", "0.9", "0.3", "0.6", "0.4", "0.8", "0.4", "0.3", "0.2"],
     ["0.6", "0.4", "0.8", "0.2", "0.5", "0.3", "0.7", "0.3", "0.2", "0.3"]),
    (["0.7", "0.5", "0.9", "0.3", "0.6", "0.2", "0.8", "0.4", "0.1", "0.5"],
     ["0.4", "0.2", "0.6", "0.0", "0.3", "0.3", "0.5", "0.1", "0.2", "0.2"]),
    (["0.3", "0.6", "0.2", "0.9", "0.4", "0.5", "0.7", "0.1", "0.8", "0.6"],
     ["0.2", "0.4", "0.3", "0.7", "0.4", "0.6", "0.5", "0.2", "0.6", "0.6"]),
    (["0.4123", "0.7331", "0.1052", "0.9180", "0.2641", "0.5710", "0.3893", "0.6504", "0.0470", "0.8220"],
     ["0.3801", "0.7012", "0.2125", "0.8013", "0.1990", "0.6200", "0.3010", "0.7020", "0.0550", "0.7560"]),
]


@pytest.mark.parametrize("x, y", TEN_TOPIC_CASES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_randomization_agrees_with_exact_enumeration(x, y, seed):
    # With 10,000 draws the estimate c/10,000 has standard error sqrt(p(1-p)/10,000) <= 0.005;
    # (c + 1)/(10,000 + 1) adds at most 1/10,001. Allowed: 4 standard errors plus that.
    # exact=False: 10,000 random patterns although 2^10 = 1,024 could be enumerated (the default).
    exact = float(_exact_p(x, y))
    matrix = np.array([[float(v) for v in x], [float(v) for v in y]])
    p = randomization_test(matrix, permutations=10_000, seed=seed, exact=False)[0]
    bound = 4 * math.sqrt(max(exact * (1 - exact), 1e-4) / 10_000) + 1 / 10_001
    assert abs(p - exact) <= bound, (p, exact, bound)


@pytest.mark.parametrize("x, y", TEN_TOPIC_CASES)
def test_randomization_enumerates_when_patterns_are_few(x, y):
    # 2^10 = 1,024 <= 10,000 permutations: every pattern is counted, p is exact, the seed is moot.
    matrix = np.array([[float(v) for v in x], [float(v) for v in y]])
    exact = float(_exact_p(x, y))
    assert randomization_test(matrix, permutations=10_000, seed=0)[0] == exact
    assert randomization_test(matrix, permutations=1_024, seed=5)[0] == exact
    assert randomization_test(matrix, permutations=10, exact=True)[0] == exact


def test_the_first_case_hinges_on_ties():
    # The test above can fail: counting only patterns strictly beyond the observed |sum| (or
    # losing ties to float noise) gives a p-value far outside the bound for the first case.
    x, y = TEN_TOPIC_CASES[0]
    d = [Fraction(a) - Fraction(b) for a, b in zip(x, y)]
    strict = sum(abs(sum(s * v for s, v in zip(signs, d))) > abs(sum(d))
                 for signs in itertools.product((1, -1), repeat=10)) / 1024
    exact = float(_exact_p(x, y))
    assert (exact, strict) == (22 / 1024, 2 / 1024)
    assert exact - strict > 4 * math.sqrt(exact * (1 - exact) / 10_000) + 1 / 10_001
    assert len({float(a) - float(b) for a, b in zip(x, y)}) > 2   # float noise in the differences


def test_randomization_counts_ties_exactly_despite_float_noise():
    # Values that are sums of decimals carry float noise (0.1 + 0.2 is 0.30000000000000004): over
    # the same sign patterns the test draws, the count must equal the count in exact decimals.
    tenths_x = [(1, 2), (2, 4), (3, 6), (1, 7), (4, 2), (3, 4), (6, 1), (2, 2), (7, 2), (1, 1)]
    x = [a / 10 + b / 10 for a, b in tenths_x]
    exact_x = [a + b for a, b in tenths_x]                  # in tenths
    exact_y = [v - 1 for v in exact_x[:-1]] + [exact_x[-1] + 1]
    matrix = np.array([x, [v / 10 for v in exact_y]])
    assert len({a - b for a, b in zip(matrix[0], matrix[1])}) > 2
    permutations = 2_000
    signs = 1 - 2 * np.random.default_rng(3).integers(0, 2, size=(permutations, 10), dtype=np.int8)
    d = np.array(exact_x) - np.array(exact_y)               # exact integers
    count = int(np.count_nonzero(np.abs(signs.astype(int) @ d) >= abs(d.sum())))
    assert randomization_test(matrix, permutations=permutations, seed=3, exact=False)[0] == \
        (count + 1) / (permutations + 1)


def test_when_the_test_enumerates():
    assert enumerates(13, 10_000) and not enumerates(14, 10_000) and enumerates(3, 8) and not enumerates(3, 7)
    assert not enumerates(200, 10 ** 9)


def test_randomization_is_seeded_and_never_zero():
    rng = np.random.default_rng(5)
    matrix = rng.random((4, 30))
    matrix[3] += 0.5                      # far better on every topic
    first = randomization_test(matrix, permutations=2_000, seed=7)
    assert np.array_equal(first, randomization_test(matrix, permutations=2_000, seed=7))
    assert not np.array_equal(first, randomization_test(matrix, permutations=2_000, seed=8))
    assert first[2] == 1 / 2_001          # (0 + 1) / (2,000 + 1): only the observed pattern


def test_randomization_vectorised_equals_one_pair_at_a_time():
    rng = np.random.default_rng(3)
    matrix = np.round(rng.random((7, 25)), 2)
    pairs = all_pairs(7)
    together = randomization_test(matrix, permutations=3_000, seed=11)
    alone = [randomization_test(matrix, [pair], permutations=3_000, seed=11)[0] for pair in pairs]
    assert together.tolist() == alone
    reversed_pairs = [(j, i) for i, j in reversed(pairs)]
    assert randomization_test(matrix, reversed_pairs, permutations=3_000, seed=11).tolist() == alone[::-1]
    # More permutations than one block of sign patterns: the first block is the same stream.
    assert randomization_test(matrix, [(0, 1)], permutations=25_000, seed=11).shape == (1,)


def test_t_and_wilcoxon_vectorised_equal_one_pair_at_a_time():
    pairs = all_pairs(4)
    for test in (paired_t_test, wilcoxon_test):
        together = test(FIXED)
        assert together.tolist() == [test(FIXED, [pair])[0] for pair in pairs]


def test_bad_input_is_refused():
    with pytest.raises(ValidationError, match="at least 2 topics"):
        randomization_test(np.zeros((2, 1)))
    with pytest.raises(ValidationError, match="itself"):
        paired_t_test(FIXED, [(1, 1)])
    with pytest.raises(ValidationError, match="outside"):
        wilcoxon_test(FIXED, [(0, 4)])
    with pytest.raises(ValidationError, match="not finite"):
        randomization_test(np.array([[0.1, np.nan], [0.2, 0.3]]))
    with pytest.raises(ValidationError, match="positive integer"):
        randomization_test(FIXED, permutations=0)
    with pytest.raises(ValidationError, match="too much"):
        randomization_test(np.zeros((2, 30)), exact=True)


# -- Holm ------------------------------------------------------------------------------------

def test_holm_hand_worked():
    # m = 4, sorted: 0.01, 0.02, 0.03, 0.04 -> 4*0.01 = 0.04, 3*0.02 = 0.06, 2*0.03 = 0.06, 1*0.04 = 0.04
    # made non-decreasing: 0.04, 0.06, 0.06, 0.06; returned in the input order.
    adjusted = holm([0.03, 0.01, 0.04, 0.02])
    np.testing.assert_allclose(adjusted, [0.06, 0.04, 0.06, 0.06], rtol=1e-12)
    np.testing.assert_allclose(holm([0.5, 0.4]), [0.8, 0.8])    # capped by the step-down maximum
    np.testing.assert_allclose(holm([0.6, 0.7]), [1.0, 1.0])    # capped at 1
    assert holm([]).shape == (0,)


def test_holm_rejects_what_bonferroni_would_not():
    # alpha 0.05, m = 3: Bonferroni rejects only p <= 0.0167; Holm then allows 0.025 and 0.05.
    adjusted = holm([0.01, 0.02, 0.04])
    assert adjusted.tolist() == [0.03, 0.04, 0.04] and np.all(adjusted <= 0.05)


# -- bootstrap and effect size ---------------------------------------------------------------

def test_bootstrap_ci_is_seeded_and_close_to_scipy():
    rng = np.random.default_rng(9)
    matrix = rng.beta(2, 3, size=(3, 50))
    ours = bootstrap_ci(matrix, resamples=10_000, seed=4)
    assert np.array_equal(ours, bootstrap_ci(matrix, resamples=10_000, seed=4))
    assert not np.array_equal(ours, bootstrap_ci(matrix, resamples=10_000, seed=5))
    for row, (low, high) in zip(matrix, ours):
        theirs = stats.bootstrap((row,), np.mean, n_resamples=10_000, method="percentile",
                                 confidence_level=0.95, random_state=np.random.default_rng(1))
        # Two Monte-Carlo estimates of the same quantiles: each within a few thousandths.
        width = high - low
        assert low < row.mean() < high
        assert abs(low - theirs.confidence_interval.low) < 0.05 * width
        assert abs(high - theirs.confidence_interval.high) < 0.05 * width


def test_bootstrap_ci_of_a_constant_run_is_that_value():
    interval = bootstrap_ci(np.array([[0.3] * 7, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]]), resamples=500)
    assert interval[0].tolist() == [0.3, 0.3]
    assert 0.1 <= interval[1, 0] < interval[1, 1] <= 0.7


def test_effect_size_is_cohens_dz():
    matrix = np.array([[2.0, 3.0, 4.0, 6.0], [1.0, 1.0, 1.0, 1.0], [1.0, 2.0, 3.0, 5.0]])
    d = np.array([1.0, 2.0, 3.0, 5.0])
    dz = effect_size(matrix)
    assert dz[0] == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-12)
    assert math.isnan(dz[1])                 # (2,3,4,6) - (1,2,3,5): all 1, sd 0: undefined
    e = np.array([0.0, -1.0, -2.0, -4.0])       # (1,1,1,1) - (1,2,3,5)
    assert dz[2] == pytest.approx(e.mean() / e.std(ddof=1), rel=1e-12)
    assert effect_size(np.array([[0.1, 0.2], [0.1, 0.2]]))[0] == 0.0


# -- a comparison ------------------------------------------------------------------------------

def test_compare_matrices_marks_and_holm():
    runs = ("low", "mid", "high", "twin")
    matrix = FIXED[[3, 1, 2, 0]]                 # 'twin' is FIXED[0], close to 'mid'
    result = compare_matrices({"M": matrix}, runs, [f"t{i}" for i in range(12)], permutations=2_000,
                              resamples=1_000)
    metric = result.metric("M")
    assert result.labels == ("a", "b", "c", "d") and len(metric.pairs) == 6
    p = np.array([pair.p_values["randomization"] for pair in metric.pairs])
    np.testing.assert_allclose([pair.adjusted["randomization"] for pair in metric.pairs], holm(p))
    high = metric.summary("high")
    assert set(high.better_than) == {"low", "mid", "twin"}  # better on every topic
    assert metric.summary("low").better_than == ()
    assert metric.pair("mid", "high").better == "high" and metric.pair("high", "mid").mean_difference < 0
    for pair in metric.pairs:
        assert pair.significant == (pair.adjusted["randomization"] <= 0.05)
    assert metric.summary("mid").ci_low <= metric.summary("mid").mean <= metric.summary("mid").ci_high


def test_compare_without_correction_and_with_another_test():
    runs = ("a", "b", "c", "d")
    topics = [str(i) for i in range(12)]
    holm_result = compare_matrices({"M": FIXED}, runs, topics, test="t", permutations=500, resamples=200)
    raw = compare_matrices({"M": FIXED}, runs, topics, test="t", correction="none", permutations=500,
                           resamples=200)
    for with_holm, without in zip(holm_result.metric("M").pairs, raw.metric("M").pairs):
        assert without.adjusted == without.p_values
        assert with_holm.adjusted["t"] >= without.p_values["t"]
        assert without.significant == (without.p_values["t"] <= 0.05)


def test_compare_refuses_bad_settings():
    topics = [str(i) for i in range(12)]
    with pytest.raises(ValidationError, match="at least 2 runs"):
        compare_matrices({"M": FIXED[:1]}, ["a"], topics)
    with pytest.raises(ValidationError, match="unknown test"):
        compare_matrices({"M": FIXED}, "abcd", topics, test="sign")
    with pytest.raises(ValidationError, match="alpha"):
        compare_matrices({"M": FIXED}, "abcd", topics, alpha=1.5)


def test_labels():
    assert run_labels(3) == ("a", "b", "c")
    assert "q" not in run_labels(25) and len(set(run_labels(25))) == 25
    assert run_labels(26)[:2] == ("1", "2") and run_labels(26)[-1] == "26"


def test_tidy_rows_are_one_per_metric_and_pair_with_every_tests_p_value():
    runs = ("a", "b", "c", "d")
    result = compare_matrices({"M": FIXED, "N": FIXED[::-1]}, runs, [str(i) for i in range(12)],
                              permutations=200, resamples=100)
    rows = result.to_rows()
    assert len(rows) == sum(len(metric.pairs) for metric in result.metrics)
    for row in rows:
        pair = result.metric(row["metric"]).pair(row["a"], row["b"])
        assert row["mean_difference"] == pair.mean_difference and row["significant"] == pair.significant
        assert {k[2:]: v for k, v in row.items() if k.startswith("p_")} == dict(pair.p_values)
        assert row["mean_a"] - row["mean_b"] == pytest.approx(pair.mean_difference)


# -- what the number of topics allows (issue 27) -------------------------------------------------

@pytest.mark.parametrize("runs, correction", [(2, "holm"), (3, "holm"), (3, "none"), (5, "holm")])
def test_the_topics_to_reach_alpha_are_the_fewest_whose_smallest_p_value_reaches_it(runs, correction):
    def smallest(topics):
        # Every run beats the previous one on every topic: the most extreme data there is.
        matrix = np.array([[float(r)] * topics for r in range(runs)])
        comparison = compare_matrices({"m": matrix}, [f"r{r}" for r in range(runs)],
                                      [f"t{t}" for t in range(topics)], correction=correction, resamples=10)
        attained = min(pair.adjusted["randomization"] for pair in comparison.metrics[0].pairs)
        return comparison, attained
    comparison, attained = smallest(3)
    needed = topics_to_reach(comparison)
    # The floor is the p-value the most extreme data attains, and it decides what can be significant.
    assert smallest_p_value(comparison) == pytest.approx(attained, abs=1e-12)
    for topics in (needed - 1, needed):
        comparison, attained = smallest(topics)
        assert smallest_p_value(comparison) == pytest.approx(attained, abs=1e-12)
        assert (attained <= comparison.alpha) is (topics == needed)


def test_the_t_test_has_no_floor_to_report():
    comparison = compare_matrices({"m": np.array([[0.0, 0.1, 0.2], [0.5, 0.7, 0.9]])}, ["a", "b"],
                                  ["1", "2", "3"], test="t", resamples=10)
    assert smallest_p_value(comparison) is None
