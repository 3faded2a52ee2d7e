"""Rareness metrics (Türkmen, Lease & Kutlu, ECIR 2023), issue 14: the stated bounds exactly as
declared (claims, sources, open/closed ends, the functions of S), the alpha parameter's range,
default and grid, the undefined revised rarity's whole message, and the campaign path on inputs
where rarity differs between systems."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import Context, Topic, ValidationError
from axiometer.metrics.base import UndefinedScore
from axiometer.metrics.rareness import RareAP, RareP, RevisedRareP, _alpha

SOURCE = "Türkmen, Lease & Kutlu, ECIR 2023"
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": Fraction(1, 3), "n": 0})


def _described(bound):
    """A stated bound as plain data, its functions evaluated at S = 1..5."""
    return (bound.claim, bound.source, bound.quantity,
            None if bound.low is None else [bound.low(S) for S in range(1, 6)],
            None if bound.high is None else [bound.high(S) for S in range(1, 6)],
            bound.low_open, bound.high_open)


# R(d) in [0, (S-1)/S]: S = 1..5 gives 0, 1/2, 2/3, 3/4, 4/5.
RARITY = ("rarity R(d) in [0, (S-1)/S]", f"{SOURCE}, section 2.1, eq. 2", "rarity",
          [0] * 5, [Fraction(S - 1, S) for S in range(1, 6)], False, False)


def test_rare_p_stated_bounds():
    assert [_described(b) for b in RareP(alpha=1).stated_bounds()] == [
        RARITY,
        ("P@K_rare in [0, 2) for alpha in [0, 1]", f"{SOURCE}, section 2.1", "score",
         [0] * 5, [2] * 5, False, True),
        # The paper's maximum 2(S-1)/S: 0, 1, 4/3, 3/2, 8/5.
        ("upper bound reached at alpha = 1, all retrieved documents relevant and of maximal "
         "rarity: P@K_rare = 2(S-1)/S", f"{SOURCE}, section 2.1", "score",
         None, [0, 1, Fraction(4, 3), Fraction(3, 2), Fraction(8, 5)], False, False),
    ]
    # alpha = 1 is the edge of the paper's [0, 1]; beyond it only the rarity range is stated.
    assert len(RareP(alpha=1).stated_bounds()) == 3
    assert [_described(b) for b in RareP(alpha=1.01).stated_bounds()] == [RARITY]


def test_rare_ap_stated_bounds():
    assert [_described(b) for b in RareAP(alpha=1).stated_bounds()] == [
        RARITY,
        ("AP_rare inherits P@K_rare's bounds [0, 2)", f"{SOURCE}, section 2.2", "score",
         [0] * 5, [2] * 5, False, True),
    ]
    assert [_described(b) for b in RareAP(alpha=1.01).stated_bounds()] == [RARITY]


def test_revised_rare_p_stated_bounds():
    score = ("the mixture directly bounds P'@K_rare in [0, 1]", f"{SOURCE}, section 5.2, eq. 4",
             "score", [0] * 5, [1] * 5, False, False)
    assert [_described(b) for b in RevisedRareP().stated_bounds()] == [
        ("revised rarity R'(d) in [0, 1]", f"{SOURCE}, section 5.2", "rarity",
         [0] * 5, [1] * 5, False, False),
        score,
    ]
    assert [_described(b) for b in RevisedRareP(rarity="original").stated_bounds()] == [RARITY, score]


def test_alpha_parameter_range_default_and_grid():
    # The paper's grid 0, 0.5, 1; default 0.5; alpha >= 0, unbounded above unless given.
    for high in (None, 1):
        param = _alpha(high)
        assert (param.name, param.type, param.default) == ("alpha", float, 0.5)
        assert param.description == "weight of document rarity (0 reverts to the base metric)"
        assert (param.low, param.high, param.low_open, param.high_open) == (0, high, False, False)
        assert param.grid == (0, 0.5, 1)
        assert param.validate(0) == 0
        with pytest.raises(ValidationError) as error:
            param.validate(-0.25, "M")
        assert str(error.value) == (
            "M: parameter alpha=-0.25 is outside its range, "
            + ("float in [0, inf]" if high is None else "float in [0, 1]"))
    assert _alpha(None).validate(7.5) == 7.5
    assert _alpha(1).validate(1) == 1
    with pytest.raises(ValidationError):
        _alpha(1).validate(1.25)


def test_undefined_revised_rarity_message():
    with pytest.raises(UndefinedScore) as error:
        RevisedRareP(3, alpha=0.5).exact(["a"], TOPIC, Context())
    assert str(error.value) == (
        "RareP_rev(alpha=0.5)@3: the revised rarity R'(d) = 1 - (S_d - 1)/(S - 1) is undefined "
        "with S = 1 system (the context of other systems is empty); give other systems' "
        "rankings or use rarity='original'")


def test_campaign_scores_with_unequal_rarities():
    # k = 2. s0 = [a, b], s1 = [b, c], s2 = [c, a, b] (b beyond k = 2 in s2), alpha = 1.
    rankings = [["a", "b"], ["b", "c"], ["c", "a", "b"]]
    # s0 with priors {s1, s2}, S = 3: S_a = 1 + 1 (s2 has a at 2) -> R = 1/3; S_b = 1 + 1 -> 1/3.
    #   (1/2)(4/3 + 4/3) = 4/3.
    # s1 with priors {s0}, S = 2: R(b) = 0 (s0 has b), R(c) = 1/2: (1/2)(1 + 3/2) = 5/4.
    # s2 with priors {}, S = 1: R = 0 everywhere: (1/2)(1 + 1) = 1.
    got = RareP(2, alpha=1).score_systems(TOPIC, rankings, [[1, 2], [0], []])
    assert got.tolist() == pytest.approx([4 / 3, 5 / 4, 1.0], abs=1e-15)
    assert RareP(2, alpha=1).exact(rankings[0], TOPIC, Context((rankings[1], rankings[2]))) == Fraction(4, 3)
    assert RareP(2, alpha=1).exact(rankings[1], TOPIC, Context((rankings[0],))) == Fraction(5, 4)


def test_reversions_as_declared():
    cases = [
        (RareP(5, alpha=1), "alpha = 0 reverts to the standard P@K formula",
         f"{SOURCE}, section 2.1 (after eq. 1)", "RareP(alpha=0)@5", "P@5"),
        (RareAP(5, alpha=1), "alpha = 0 gives P@K_rare = P@K, and thus AP_rare = AP",
         f"{SOURCE}, section 2.2 (after eq. 3)", "RareAP(alpha=0)@5", "AP@5"),
        (RevisedRareP(5, alpha=1), "alpha = 0 gives P@K (the mixture's rarity term vanishes)",
         f"{SOURCE}, section 5.2, eq. 4", "RareP_rev(alpha=0)@5", "P@5"),
    ]
    for metric, text, source, reverted, base in cases:
        (reversion,) = metric.reversions()
        assert (reversion.text, reversion.source, reversion.context) == (text, source, "any")
        assert (reversion.metric.name, reversion.base.name) == (reverted, base)
