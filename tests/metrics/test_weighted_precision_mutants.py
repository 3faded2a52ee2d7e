"""wRprec and AWP (issue 14, mutation survivors of metrics/weighted_precision.py): hand-computed
values with the ideal exhausted before the ranking ends and a cutoff, scalar and batched."""

from __future__ import annotations

from fractions import Fraction

from axiometer.metrics.weighted_precision import AverageWeightedPrecision, WeightedRPrecision
from tests.metrics.two_gains import check


def test_weighted_precisions_by_hand():
    # wRprec = cg(2)/cg*(2): [b, n, a] (1/2)/(3/2) = 1/3.
    check(WeightedRPrecision(), [Fraction(1, 3), 1, 0, 0])
    # AWP [b, n, a]: rank 1: (1/2)/1; rank 3: (3/2)/(3/2) = 1 -> (1/2 + 1)/2 = 3/4. @2: (1/2)/2 = 1/4.
    check(AverageWeightedPrecision(), [Fraction(3, 4), 1, 0, 0])
    check(AverageWeightedPrecision(2), [Fraction(1, 4), 1, 0, 0])
