"""RBU (Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018), issue 14: both forms batched, with
rankings of different lengths (effort is paid only where a document is) and a cutoff."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import Topic
from axiometer.metrics import RankingBatch
from axiometer.metrics.rbu import RBU

# w(x) = 1/4, w(y) = 3/4 (test_rbu's topic).
TOPIC = Topic({"a": {"x": Fraction(1, 2), "y": Fraction(1, 2)}, "b": {"x": Fraction(1, 2)},
               "c": {"y": 1}},
              {"x": Fraction(1, 4), "y": Fraction(3, 4)})


def batch(metric, rankings):
    return metric.score_batch(RankingBatch.from_rankings(rankings, TOPIC)).tolist()


def test_both_forms_batched_over_unequal_lengths():
    # p = 4/5, e = 1/20. Paper form (test_rbu): [a, b, u, c] = 1486/3125; [a] = (4/5)(1/2 - 1/20)
    # = 9/25; [] = 0. Reference = paper * (1-p)/p = paper / 4: 743/6250, 9/100, 0.
    rankings = [["a", "b", "u", "c"], ["a"], []]
    paper, reference = RBU(p=0.8, e=0.05), RBU(p=0.8, e=0.05, form="reference")
    assert paper.exact(["a"], TOPIC) == Fraction(9, 25)
    assert reference.exact(["a"], TOPIC) == Fraction(9, 100)
    assert batch(paper, rankings) == pytest.approx([1486 / 3125, 9 / 25, 0.0], abs=1e-15)
    assert batch(reference, rankings) == pytest.approx([743 / 6250, 9 / 100, 0.0], abs=1e-15)
    # @2: paper 9/25 + (16/25)(1/16 - 1/20) = 46/125; reference 46/500.
    assert RBU(2, p=0.8, e=0.05, form="reference").exact(rankings[0], TOPIC) == Fraction(46, 500)
    assert batch(RBU(2, p=0.8, e=0.05), rankings) == pytest.approx([46 / 125, 9 / 25, 0.0], abs=1e-15)
    assert batch(RBU(2, p=0.8, e=0.05, form="reference"), rankings) == pytest.approx(
        [46 / 500, 9 / 100, 0.0], abs=1e-15)
