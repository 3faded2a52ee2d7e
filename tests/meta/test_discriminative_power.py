"""Discriminative power (Türkmen et al. 2023, section 4.3): counts at 95 % and 99 % from given
p-values, through a stand-in test, and through the real randomization test where the p-values are
clear-cut."""

from __future__ import annotations

import numpy as np
import pytest

from axiometer.core import ValidationError
from axiometer.meta import discriminative_power
from axiometer.meta.discriminative_power import count_significant


def test_counts_at_each_level_p_equal_to_alpha_counts():
    assert count_significant([0.001, 0.01, 0.02, 0.05, 0.0500001, 0.5]) == (4, 2)
    with pytest.raises(ValidationError):
        count_significant([float("nan")])


def fixed_p(p_values):
    """A stand-in paired test that returns given p-values and records the pairs it was asked about."""
    asked = []

    def test(matrix, pairs):
        asked.append(list(pairs))
        return np.array(p_values)

    return test, asked


def test_a_stand_in_test_counted_over_every_pair():
    """Four runs: six pairs (0,1), (0,2), (0,3), (1,2), (1,3), (2,3), in that order; p-values
    0.001, 0.03, 0.2, 0.009, 0.05, 0.9 -> 4 pairs at 95 % (4/6), 2 at 99 % (2/6)."""
    test, asked = fixed_p([0.001, 0.03, 0.2, 0.009, 0.05, 0.9])
    power = discriminative_power(np.zeros((4, 5)), "m", test=test)
    assert asked == [[(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]]
    assert (power.pairs, power.significant, power.count(0.05), power.count(0.01)) == (6, (4, 2), 4, 2)
    assert power.share(0.05) == pytest.approx(4 / 6) and power.share(0.01) == pytest.approx(2 / 6)
    assert (power.runs, power.topics, power.test, power.permutations, power.seed) == (4, 5, "test", None, None)


def test_a_test_giving_the_wrong_number_of_p_values_is_refused():
    test, _ = fixed_p([0.5])
    with pytest.raises(ValidationError, match="1 pairs|for 3 pairs"):
        discriminative_power(np.zeros((3, 4)), test=test)


def test_one_run_has_no_pair():
    power = discriminative_power(np.zeros((1, 4)), test=fixed_p([])[0])
    assert power.pairs == 0 and power.significant == (0, 0) and power.share(0.05) is None


significance = pytest.importorskip("axiometer.significance")

#: Four runs × ten topics. A scores 1 everywhere, B and C 0, D alternates 1, 0.
CLEAR = np.array([[1.0] * 10, [0.0] * 10, [0.0] * 10, [1.0, 0.0] * 5])


def test_the_randomization_test_where_p_values_are_clear_cut():
    """A vs B and A vs C: ten differences of 1; only the two all-equal sign patterns reach |sum| = 10,
    p = 2/1024: significant at 99 %. A vs D, B vs D, C vs D: five differences of 1 and five 0; 2 of 32
    patterns of the non-zero ones reach the observed |sum| = 5, p = 1/16: not significant at 95 %.
    B vs C: all 0, p = 1. So 2 of 6 pairs at both levels. Ten topics have 1024 sign patterns, fewer
    than 10,000 permutations: the test enumerates them all, so these p-values are exact."""
    power = discriminative_power(CLEAR, "m", seed=3)
    assert power.p_values == (2 / 1024, 2 / 1024, 1 / 16, 1.0, 1 / 16, 1 / 16)
    assert power.significant == (2, 2) and power.share(0.05) == pytest.approx(1 / 3)
    assert (power.test, power.permutations, power.seed, power.exhaustive) == ("randomization", 10_000, None, True)
    assert np.array_equal(power.p_values, significance.randomization_test(CLEAR, seed=3))


def test_the_randomization_test_drawing_sign_patterns():
    """Twenty topics (CLEAR twice over): 2^20 patterns, so 10,000 are drawn, seeded. A vs B, A vs C:
    p = (0 + 1) / 10,001 (no drawn pattern reaches |sum| = 20, barring a 2-in-a-million draw); the
    pairs with D now have ten differences of 1, p ~ 2/1024 ~ 0.002 (standard error 0.0004): five of
    six pairs significant at 99 %, B vs C not (p = 1)."""
    doubled = np.concatenate([CLEAR, CLEAR], axis=1)
    power = discriminative_power(doubled, "m", seed=3)
    p = np.array(power.p_values)
    assert p[0] == p[1] == 1 / 10_001 and np.all(np.abs(p[[2, 4, 5]] - 2 / 1024) < 0.002) and p[3] == 1
    assert power.significant == (5, 5) and (power.seed, power.exhaustive) == (3, False)
    assert discriminative_power(doubled, "m", seed=3) == power                       # seeded
    assert discriminative_power(doubled, "m", seed=4).p_values != power.p_values


def test_holm_adjusts_one_metrics_pairs():
    """Holm on the six pairs: the two p ~ 0.002 become ~ 6 x 0.002 and 5 x 0.002 = 0.012, 0.010: still
    significant at 95 %, at most one at 99 %."""
    plain = discriminative_power(CLEAR, seed=3)
    holm = discriminative_power(CLEAR, seed=3, correction="holm")
    assert np.allclose(holm.p_values, significance.holm(plain.p_values))
    assert holm.count(0.05) == 2 and holm.correction == "holm"
    with pytest.raises(ValidationError, match="unknown correction"):
        discriminative_power(CLEAR, correction="bonferroni")


@pytest.mark.parametrize("test", ["t", "wilcoxon"])
def test_the_other_tests(test):
    power = discriminative_power(CLEAR, test=test)
    p = significance.paired_t_test(CLEAR) if test == "t" else significance.wilcoxon_test(CLEAR)
    assert np.array_equal(power.p_values, p) and power.permutations is None
    assert power.significant == tuple(int(np.sum(p <= level)) for level in (0.05, 0.01))
