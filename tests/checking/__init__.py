"""Tests of the checking engine: the search, its budgets and what a verdict rests on.

The helpers below are shared by the boundary tests (test_boundary*.py) and test_check.py.
"""

from __future__ import annotations

from fractions import Fraction

from axiometer.checking.boundary import WIDTH
from axiometer.results import Check, Counterexample

HALF = Fraction(1, 2)


def harmonic_sum(ranking, topic) -> Fraction:
    """``sum_i r(d_i) / i``: satisfies Pri, DeepTh-positive from n = 1 on, never CloseTh's witness."""
    return sum((Fraction(topic.r(d)) / i for i, d in enumerate(ranking, 1)), Fraction(0))


def increasing_sum(ranking, topic) -> Fraction:
    """``sum_i r(d_i) i``: an increasing weight, which breaks Pri."""
    return sum((Fraction(topic.r(d)) * i for i, d in enumerate(ranking, 1)), Fraction(0))


def long_rankings_reversed(ranking, topic, s=0.8):
    """Harmonic below 5 documents, increasing weights from 5 on: Pri fails only on long rankings."""
    weight = (lambda i: Fraction(1, i)) if len(ranking) < 5 else (lambda i: i)
    return sum((Fraction(topic.r(d)) * weight(i) for i, d in enumerate(ranking, 1)), Fraction(0))


def in_bracket(boundary, value: float) -> None:
    """The boundary's bracket is at most WIDTH wide and holds ``value``; its value and closed form agree."""
    low, high = (Fraction(v) for v in boundary.bracket)
    assert high - low <= WIDTH
    assert float(low) - 1e-9 <= value <= float(high) + 1e-9
    assert abs(boundary.value - value) <= 1e-9 and abs(boundary.closed_value - value) <= 1e-9
    assert boundary.agrees is True and boundary.note == ""


def probed_check(verdict: str, counterexample: Counterexample | None = None, curve=(), metric: str = "m",
                 note: str = "") -> Check:
    """A cell's check as a probe would return it (only what the boundary code reads is set)."""
    return Check(constraint="c", metric=metric, params=(), verdict=verdict, mode="window",
                 counterexample=counterexample, curve=curve, note=note)
