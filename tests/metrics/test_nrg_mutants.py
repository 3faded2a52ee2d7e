"""NRG and unique contributions (Clarke et al., SIGIR-AP 2024), issue 14: pickling (the table
runner ships metrics to worker processes), ``NRG.over`` with a norm, and the cutoff error's
whole message."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest

from axiometer.core import Context, Ranking, Topic, ValidationError
from axiometer.metrics import parse
from axiometer.metrics.nrg import NRG, UniqueContributions

TOPIC = Topic.single({"A": 1, "B": Fraction(1, 2), "C": 1})


def ctx(*rankings: str) -> Context:
    return Context(tuple(Ranking(list(r)) for r in rankings))


@pytest.mark.parametrize("spec", ["NRG(base=RBP(p=0.5),norm='none')", "NRG(base=P@2)", "Unique@2"])
def test_pickled_metrics_come_back_the_same(spec):
    metric = parse(spec)
    back = pickle.loads(pickle.dumps(metric))
    assert type(back) is type(metric) and back.name == metric.name == spec
    assert back.cutoff == metric.cutoff
    # The values of test_nrg's hand computation: RBP(1/2) raw [A, B] | [B, A] = 1/2;
    # P@2 [A, C, B] | [B, A] = 1/2; Unique@2 [A, C, B] | [B, A] = 1.
    expected = {"NRG(base=RBP(p=0.5),norm='none')": (["A", "B"], Fraction(1, 2)),
                "NRG(base=P@2)": (["A", "C", "B"], Fraction(1, 2)),
                "Unique@2": (["A", "C", "B"], 1)}[spec]
    assert back.exact(expected[0], TOPIC, ctx("BA")) == expected[1]


def test_unique_pickles_with_its_cutoff():
    back = pickle.loads(pickle.dumps(UniqueContributions(3)))
    assert back.name == "Unique@3" and back.cutoff == 3 and back.model.depth == 3
    # [A, C, B] | [X, Y, A]: A is at 3 in the prior, within 3 here: C and B unique -> 2.
    assert back.exact(["A", "C", "B"], TOPIC, ctx("XYA")) == 2


def test_over_passes_the_norm():
    raw = NRG.over(parse("RBP(p=0.5)"), norm="none")
    assert raw.norm == "none" and raw.name == "NRG(base=RBP(p=0.5),norm='none')"
    # [A, B] | [B, A]: raw sum 1/2 (the normalised NRG is 1/4).
    assert raw.exact(["A", "B"], TOPIC, ctx("BA")) == Fraction(1, 2)
    assert NRG.over(parse("RBP(p=0.5)")).exact(["A", "B"], TOPIC, ctx("BA")) == Fraction(1, 4)


def test_replace_with_a_cutoff_is_one_clear_error():
    nrg = parse("NRG(base=nDCG@5)")
    assert nrg.replace(cutoff=5).name == "NRG(base=nDCG@5)"  # its own K is fine
    with pytest.raises(ValidationError) as error:
        nrg.replace(cutoff=3)
    assert str(error.value) == "NRG takes no cutoff (@k); set the base's, e.g. NRG(base=nDCG@5)"
