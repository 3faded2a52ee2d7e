"""Stability (Türkmen et al. 2023, section 4.4): a hand-worked case over every topic subset, the
vectorised computation against a loop over trials and pairs, seeds, and the edge cases."""

from __future__ import annotations

import importlib
import itertools
from fractions import Fraction

import numpy as np
import pytest

from axiometer.core import ValidationError
from axiometer.meta.stability import all_pairs, stability, topic_samples

stability_module = importlib.import_module("axiometer.meta.stability")  # the package re-exports the function

#: Three runs × four topics, dyadic values so that every sum is exact in any order.
HAND = np.array([[1, 1 / 2, 1 / 4, 0],
                 [1 / 2, 1 / 2, 1 / 2, 1 / 2],
                 [0, 0, 1, 1]])


def every_subset(topics: int, size: int) -> np.ndarray:
    rows = []
    for chosen in itertools.combinations(range(topics), size):
        row = np.zeros(topics, dtype=bool)
        row[list(chosen)] = True
        rows.append(row)
    return np.array(rows)


def test_hand_worked_over_every_pair_of_topics():
    """T = 2 of 4 topics: the 6 subsets {12, 13, 14, 23, 24, 34}.

    (a, b): differences (1/2, 0, -1/4, -1/2); sums 1/2, 1/4, 0, -1/4, -1/2, -3/4: 2 wins, 3 losses,
    1 tie -> 3/6. (a, c): (1, 1/2, -3/4, -1); sums 3/2, 1/4, 0, -1/4, -1/2, -7/4 -> 3/6.
    (b, c): (1/2, 1/2, -1/2, -1/2); sums 1, 0, 0, 0, 0, -1: 1 win, 1 loss, 4 ties -> 1/6.
    The metric: (1/2 + 1/2 + 1/6) / 3 = 7/18."""
    result = stability(HAND, "m", samples=every_subset(4, 2))
    assert result.pairs == ((0, 1), (0, 2), (1, 2))
    assert result.wins == (2, 2, 1) and result.losses == (3, 3, 1) and result.ties == (1, 1, 4)
    assert result.pair_values == pytest.approx([1 / 2, 1 / 2, 1 / 6], abs=1e-15)
    assert result.value == pytest.approx(float(Fraction(7, 18)), abs=1e-15)
    assert (result.sample, result.trials, result.topics) == (2, 6, 4)


def test_the_papers_example_seven_hundred_of_a_thousand():
    """Türkmen et al.: a system beating another in 700 of 1000 trials gives the pair 0.7. Two runs,
    two topics, T = 1: run 0 wins on topic 0 and loses on topic 1; 700 draws of topic 0."""
    samples = np.zeros((1000, 2), dtype=bool)
    samples[:700, 0] = samples[700:, 1] = True
    result = stability(np.array([[1.0, 0.0], [0.5, 0.5]]), samples=samples)
    assert (result.wins, result.losses) == ((700,), (300,)) and result.value == pytest.approx(0.7)


def loop_stability(matrix: np.ndarray, samples: np.ndarray) -> list[float]:
    """The procedure as written: per trial, the mean over the drawn topics, every pair compared."""
    values = []
    for i, j in itertools.combinations(range(len(matrix)), 2):
        wins = losses = 0
        for row in samples:
            mean_i, mean_j = matrix[i, row].mean(), matrix[j, row].mean()
            wins += mean_i > mean_j
            losses += mean_i < mean_j
        values.append(max(wins, losses) / len(samples))
    return values


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_vectorised_equals_the_loop(seed):
    rng = np.random.default_rng(seed)
    matrix = rng.integers(0, 9, size=(6, 9)) / 8  # ties between runs are frequent
    matrix[3] = matrix[2]                          # and one pair ties everywhere
    result = stability(matrix, trials=300, seed=seed)
    assert result.sample == 4
    samples = topic_samples(9, 4, 300, seed)
    assert list(result.pair_values) == loop_stability(matrix, samples)
    assert result.pair_values[list(result.pairs).index((2, 3))] == 0.0  # ties agree with neither outcome
    assert result.value == pytest.approx(np.mean(result.pair_values))


def test_chunks_change_nothing(monkeypatch):
    matrix = np.random.default_rng(5).integers(0, 5, size=(7, 6)) / 4
    whole = stability(matrix, trials=50, seed=3)
    monkeypatch.setattr(stability_module, "_CHUNK_ELEMENTS", 1)  # one pair per chunk
    calls = []
    chunked = stability(matrix, trials=50, seed=3, progress=lambda *call: calls.append(call))
    assert chunked == whole and len(calls) == 21 and calls[-1] == ("stability", 21, 21)


def test_samples_are_half_the_topics_without_replacement_and_seeded():
    samples = topic_samples(7, 3, 2000, seed=11)
    assert samples.shape == (2000, 7) and set(samples.sum(axis=1)) == {3}
    # Each topic is drawn in 3/7 of the trials, within 5 standard errors.
    assert np.all(np.abs(samples.mean(axis=0) - 3 / 7) < 5 * np.sqrt(3 / 7 * 4 / 7 / 2000))
    assert np.array_equal(samples, topic_samples(7, 3, 2000, seed=11))
    assert not np.array_equal(samples, topic_samples(7, 3, 2000, seed=12))


def test_same_seed_same_stability_other_seed_other_draws():
    matrix = np.random.default_rng(0).random((5, 10))
    assert stability(matrix, trials=200, seed=4) == stability(matrix, trials=200, seed=4)
    assert stability(matrix, trials=200, seed=4).wins != stability(matrix, trials=200, seed=5).wins


def test_t_is_floor_of_half_the_topics():
    assert stability(np.zeros((2, 5)), trials=3).sample == 2
    assert stability(np.zeros((2, 2)), trials=3).sample == 1


def test_edges():
    with pytest.raises(ValidationError, match="give at least 2"):
        stability(np.zeros((3, 1)))
    single = stability(np.zeros((1, 4)), trials=5)
    assert single.pairs == () and single.value is None
    with pytest.raises(ValidationError, match="finite"):
        stability(np.array([[0.0, np.nan], [1.0, 1.0]]))
    with pytest.raises(ValidationError, match="same"):
        stability(HAND, samples=np.array([[1, 1, 0, 0], [1, 0, 0, 0]]))
    assert all_pairs(4).tolist() == [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
