"""Metrics the proof tests share (issue 26): one that misbehaves only between the searched levels, one
that branches on the relevance value and satisfies Pri, one that cannot run on symbols."""

from __future__ import annotations

import math
from fractions import Fraction

#: narrow_band's gain r^3 - 3/2 (A + B) r^2 + 3AB r falls between A and B, and only there.
A, B = Fraction(701, 10000), Fraction(703, 10000)


def narrow_band(ranking, topic):
    """The issue's metric: strictly increasing in every relevance value except between A and B."""
    total = 0
    for i, d in enumerate(ranking, start=1):
        r = topic.r(d)
        total += (r**3 - Fraction(3, 2) * (A + B) * r**2 + 3 * A * B * r) / i
    return total


def branching_gain(ranking, topic):
    """A strictly increasing gain written with a branch on the value (linear on each side): Pri holds."""
    total = 0
    for i, d in enumerate(ranking, start=1):
        r = topic.r(d)
        total += (2 * r if r < Fraction(1, 20) else r + Fraction(1, 20)) / i
    return total


def float_gain(ranking, topic):
    """A metric that converts relevance values with float(): it cannot run on symbols."""
    return sum(math.log1p(float(topic.r(d))) / i for i, d in enumerate(ranking, start=1))
