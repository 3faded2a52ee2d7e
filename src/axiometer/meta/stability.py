"""Stability of a metric's pairwise verdicts under topic sampling (Türkmen et al. 2023, section 4.4).

The procedure, after Buckley & Voorhees' evaluation of measure stability:

1. draw ``T = floor(|topics| / 2)`` topics without replacement;
2. compare every pair of runs on its mean over the drawn topics: run ``i``
   wins, run ``j`` wins, or they tie;
3. repeat ``R`` times (1000 by default);
4. a pair's stability is the share of the ``R`` trials that agree with the
   pair's majority outcome, ``max(wins_i, wins_j) / R``: a tied trial agrees
   with neither outcome, so it counts in ``R`` but never as agreement (a pair
   tied in every trial has stability 0);
5. the metric's stability is the mean over the pairs.

Türkmen et al.'s example: a system beating another in 700 of 1000 trials
gives that pair 0.7.

Every pair is compared on the *sum* of its per-topic differences over the
drawn topics (the mean difference times ``T``; the sign is the same), so a
pair is tied in a trial exactly when that sum is 0 as computed: a pair
whose per-topic values are equal on every drawn topic always ties, while
unequal values that cancel tie only when floating point cancels them
exactly. All trials × all pairs are one matrix product, in chunks that keep
memory bounded: ``(trials × topics) @ (topics × pairs)``, the first factor
the 0/1 indicator of each trial's topics.

The draws come from :func:`topic_samples`, seeded; the same seed gives the
same samples, hence the same stability, whatever the metric, so metrics
are compared on the same topic subsets.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from axiometer.core import ProgressCallback, ValidationError

__all__ = ["Stability", "stability", "topic_samples", "all_pairs", "DEFAULT_TRIALS"]

#: Türkmen et al.'s R.
DEFAULT_TRIALS = 1000

#: Elements of the largest intermediate array (trials × pairs or topics × pairs) in one chunk.
_CHUNK_ELEMENTS = 1 << 22


@dataclass(frozen=True)
class Stability:
    """A metric's stability over ``trials`` samples of ``sample`` of its ``topics`` topics.

    ``value`` is the mean of ``pair_values`` (``None`` with fewer than two
    runs: no pair); ``pair_values[k]`` is the stability of the ``k``-th pair
    of ``pairs`` (run indices ``i < j`` in row order); ``wins`` and ``losses``
    count, per pair, the trials that run ``i`` won and lost; the rest tied.
    """

    metric: str
    topics: int
    sample: int
    trials: int
    seed: int
    pairs: tuple[tuple[int, int], ...]
    wins: tuple[int, ...]
    losses: tuple[int, ...]
    pair_values: tuple[float, ...]
    value: float | None

    @property
    def ties(self) -> tuple[int, ...]:
        """Per pair, the trials in which the two runs tied."""
        return tuple(self.trials - w - l for w, l in zip(self.wins, self.losses))


def all_pairs(n: int) -> np.ndarray:
    """Every pair ``(i, j)``, ``i < j``, of ``n`` runs in row order, as a ``pairs × 2`` array."""
    first, second = np.triu_indices(n, 1)
    return np.stack([first, second], axis=1)


def topic_samples(topics: int, size: int, trials: int, seed: int = 0) -> np.ndarray:
    """``trials`` draws of ``size`` of ``topics`` topics without replacement, as a
    ``trials × topics`` boolean indicator (one row per trial), from ``numpy.random.default_rng(seed)``."""
    if not 0 < size <= topics:
        raise ValidationError(f"cannot draw {size} of {topics} topics")
    if trials < 1:
        raise ValidationError(f"the number of trials must be at least 1, got {trials}")
    keys = np.random.default_rng(seed).random((trials, topics))
    # The `size` smallest keys of each row: a uniform subset, drawn for all trials at once.
    chosen = np.argpartition(keys, size - 1, axis=1)[:, :size]
    indicator = np.zeros((trials, topics), dtype=bool)
    np.put_along_axis(indicator, chosen, True, axis=1)
    return indicator


def stability(matrix: np.ndarray, metric: str = "", *, trials: int = DEFAULT_TRIALS, seed: int = 0,
              sample: int | None = None, samples: np.ndarray | None = None,
              progress: ProgressCallback | None = None) -> Stability:
    """The stability of the metric whose per-topic values are ``matrix`` (runs × topics).

    ``sample`` is ``T`` (default ``floor(topics / 2)``); ``samples`` replaces
    the random draws by given ones (a ``trials × topics`` 0/1 indicator, every
    row holding the same number of topics), e.g. every subset of a small
    campaign, enumerated. ``progress`` (:class:`~axiometer.core.ProgressCallback`) gets one
    phase, ``"stability"``, reported after each chunk of run pairs: ``total`` is the number of pairs.
    """
    values = np.asarray(matrix, dtype=np.float64)
    if values.ndim != 2:
        raise ValidationError(f"stability needs a runs × topics matrix, got {values.ndim} dimensions")
    if not np.all(np.isfinite(values)):
        raise ValidationError(f"{metric or 'the metric'}: stability needs finite scores")
    n_runs, n_topics = values.shape
    if samples is None:
        size = n_topics // 2 if sample is None else sample
        if size < 1:
            raise ValidationError(f"stability samples half the topics: {n_topics} topic"
                                  f"{'' if n_topics == 1 else 's'} leave none to draw (give at least 2)")
        indicator = topic_samples(n_topics, size, trials, seed)
    else:
        indicator = np.asarray(samples).astype(bool)
        if indicator.ndim != 2 or indicator.shape[1] != n_topics or not len(indicator):
            raise ValidationError(f"samples must be a trials × {n_topics} indicator")
        sizes = indicator.sum(axis=1)
        if sizes.min() != sizes.max() or sizes[0] < 1:
            raise ValidationError("every sample must hold the same, positive number of topics")
        size, trials = int(sizes[0]), len(indicator)
    pairs = all_pairs(n_runs)
    wins = np.zeros(len(pairs), dtype=np.int64)
    losses = np.zeros(len(pairs), dtype=np.int64)
    draws = indicator.astype(np.float64)
    chunk = max(1, _CHUNK_ELEMENTS // max(trials, n_topics))
    for start in range(0, len(pairs), chunk):
        block = pairs[start:start + chunk]
        differences = values[block[:, 0]] - values[block[:, 1]]  # pairs × topics
        sums = draws @ differences.T                               # trials × pairs
        wins[start:start + len(block)] = (sums > 0).sum(axis=0)
        losses[start:start + len(block)] = (sums < 0).sum(axis=0)
        if progress is not None:
            progress("stability", min(start + chunk, len(pairs)), len(pairs))
    pair_values = np.maximum(wins, losses) / trials
    return Stability(metric, n_topics, size, trials, seed, tuple(map(tuple, pairs.tolist())),
                     tuple(wins.tolist()), tuple(losses.tolist()), tuple(pair_values.tolist()),
                     float(pair_values.mean()) if len(pairs) else None)
