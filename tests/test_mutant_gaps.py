"""Tests that kill the mutants issue 14 found surviving: each one fails when the
named piece of source is weakened, and passes on the code as it is.

1. The window grid of the threshold constraints keeps ``n = k/2`` for an even cutoff
   (``2 * n <= cutoff`` in ``ThresholdConstraint._signs``).
"""

from __future__ import annotations

import pytest

import axiometer
from axiometer.axioms import get
from axiometer.axioms.constraints.threshold import threshold_grid
from axiometer.checking import check
from axiometer.metrics import parse

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
