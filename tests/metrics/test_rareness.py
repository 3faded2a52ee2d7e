"""Rareness-based metrics (Türkmen et al., ECIR 2023): hand-computed values,
the paper's reversions and bound claims (including its wrong stated maximum),
the undefined revised rarity, float vs exact, and the vectorised campaign path."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from axiometer.core import Context, InputError, Topic, ValidationError
from axiometer.metrics import parse
from axiometer.metrics.arithmetic import EXACT, FLOAT
from axiometer.metrics.average_precision import AveragePrecision
from axiometer.metrics.base import UndefinedScore
from axiometer.metrics.precision import PrecisionAtK
from axiometer.metrics.rareness import RareAP, RareP, RevisedRareP, _alpha
from tests.metrics.agreement import TOLERANCE
from tests.strategies import diversity_cases

# a, b, c relevant (graded: only rel = [r > 0] counts), n judged non-relevant.
TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2), "c": Fraction(1, 3), "n": 0})
# The other systems. Within k = 3: y1 retrieves a, b, n; y2 retrieves a, z, q (b is at 4).
CONTEXT = Context((("a", "b", "n"), ("a", "z", "q", "b")))
X = ("a", "n", "b", "c")


def test_rare_p_hand_computed():
    # S = 3 (two others + x).  @3: S_a = 1+2 = 3 -> R(a) = 0; S_b = 1+1 (y1 only) = 2 -> R(b) = 1/3.
    # (1/3) [(1 + 1/2 * 0) + 0 + (1 + 1/2 * 1/3)] = (1/3)(13/6) = 13/18.
    assert RareP(3, alpha=0.5).exact(X, TOPIC, CONTEXT) == Fraction(13, 18)
    assert RareP(3, alpha=0.5).score(X, TOPIC, CONTEXT) == pytest.approx(13 / 18, abs=1e-15)
    # @4: b is now within y2's top 4 -> S_b = 3, R(b) = 0; c nobody else -> R(c) = 1 - 1/3 = 2/3.
    # (1/4) [1 + 1 + (1 + 1/2 * 2/3)] = (1/4)(10/3) = 5/6.
    assert RareP(4, alpha=0.5).exact(X, TOPIC, CONTEXT) == Fraction(5, 6)
    # alpha = 1, @3: (1/3)[1 + (1 + 1/3)] = 7/9.
    assert RareP(3, alpha=1).exact(X, TOPIC, CONTEXT) == Fraction(7, 9)


def test_rarities_cover_the_window():
    # @3 window a, n, b.  n: y1 has it at 3 -> S_n = 2 -> 1/3 (rarity is defined for any document).
    assert RareP(3).rarities(X, TOPIC, CONTEXT, EXACT) == {
        "a": 0, "n": Fraction(1, 3), "b": Fraction(1, 3)}
    # R'(d) = 1 - (S_d - 1)/(S - 1): a 1 - 2/2 = 0, n 1 - 1/2, b 1 - 1/2.
    assert RevisedRareP(3).rarities(X, TOPIC, CONTEXT, EXACT) == {
        "a": 0, "n": Fraction(1, 2), "b": Fraction(1, 2)}
    assert RevisedRareP(3, rarity="original").rarities(X, TOPIC, CONTEXT, EXACT) == {
        "a": 0, "n": Fraction(1, 3), "b": Fraction(1, 3)}
    assert RareAP().rarities(X, TOPIC, CONTEXT, FLOAT)["c"] == pytest.approx(2 / 3)


def test_rare_ap_hand_computed():
    # @3, N_R = 3.  i=1 a: cumulative 1, P@1_rare = 1/1.  i=3 b: cumulative 1 + (1 + 1/6) = 13/6,
    # P@3_rare = 13/18.  (1 + 13/18)/3 = 31/54.
    assert RareAP(3, alpha=0.5).exact(X, TOPIC, CONTEXT) == Fraction(31, 54)
    # No cutoff: rarity over whole rankings: R(a) = 0, R(b) = 0 (y1, y2 both), R(c) = 2/3.
    # i=1: 1/1.  i=3: cumulative 2, 2/3.  i=4: cumulative 2 + 1 + 1/3 = 10/3, (10/3)/4 = 5/6.
    # (1 + 2/3 + 5/6)/3 = (5/2)/3 = 5/6.
    assert RareAP(alpha=0.5).exact(X, TOPIC, CONTEXT) == Fraction(5, 6)
    # No relevant document in the topic: N_R = 0 -> 0 (as AP).
    assert RareAP(alpha=1).exact(["n"], Topic.single({"n": 0}), CONTEXT) == 0


def test_revised_rare_p_hand_computed():
    # @3: R'(a) = 0, R'(b) = 1/2.  a: (1 - 1/2) + 1/2 * 0 = 1/2;  b: 1/2 + 1/2 * 1/2 = 3/4.
    # (1/2 + 3/4)/3 = 5/12.
    assert RevisedRareP(3, alpha=0.5).exact(X, TOPIC, CONTEXT) == Fraction(5, 12)
    # The printed eq. 4 (R): a: 1/2 + 0;  b: 1/2 + 1/2 * 1/3 = 2/3.  (1/2 + 2/3)/3 = 7/18.
    assert RevisedRareP(3, alpha=0.5, rarity="original").exact(X, TOPIC, CONTEXT) == Fraction(7, 18)
    # alpha = 1 scores rarity alone: (0 + 1/2)/3 = 1/6.
    assert RevisedRareP(3, alpha=1).exact(X, TOPIC, CONTEXT) == Fraction(1, 6)


def test_revised_rarity_with_one_system_is_undefined():
    metric = RevisedRareP(3, alpha=0.5)
    for ranking in (X, ()):
        with pytest.raises(UndefinedScore) as error:
            metric.score(ranking, TOPIC, Context())
        message = str(error.value)
        assert "RareP_rev(alpha=0.5)@3" in message and "S = 1" in message and "\n" not in message
    with pytest.raises(UndefinedScore, match="with S = 1 system"):
        metric.rarities(X, TOPIC, Context(), EXACT)
    # Where the formula needs no R' it stays defined: alpha = 0 is P@3 = 2/3; the printed
    # rarity R = 1 - 1/1 = 0 gives (1/2 + 1/2)/3 = 1/3.
    assert RevisedRareP(3, alpha=0).exact(X, TOPIC, Context()) == Fraction(2, 3)
    assert RevisedRareP(3, alpha=0.5, rarity="original").exact(X, TOPIC, Context()) == Fraction(1, 3)
    # RareP on an empty context: every R = 0, so P@K_rare = P@K.
    assert RareP(3, alpha=1).exact(X, TOPIC, Context()) == Fraction(2, 3)


def _bound(metric, quantity, text):
    found = [b for b in metric.stated_bounds() if b.quantity == quantity and text in b.claim]
    assert len(found) == 1, [b.claim for b in metric.stated_bounds()]
    return found[0]


def test_paper_stated_maximum_is_exceeded():
    # S = 2, alpha = 1, k = 1; a is relevant and only x retrieves it: R(a) = 1 - 1/2 = 1/2,
    # P@1_rare = 1 + 1/2 = 3/2, above the stated maximum 2(S-1)/S = 1 (the true one is (2S-1)/S).
    metric = RareP(1, alpha=1)
    topic = Topic.single({"a": 1})
    score = metric.exact(["a"], topic, Context((("z",),)))
    assert score == Fraction(3, 2)
    stated = _bound(metric, "score", "2(S-1)/S")
    assert stated.high(2) == 1 and score > stated.high(2)
    within = _bound(metric, "score", "[0, 2)")
    assert within.high_open and within.low(2) <= score < within.high(2)
    # The true maximum (2S-1)/S for S = 1..5: x retrieves k relevant documents nobody else does.
    for others in range(5):
        S = others + 1
        context = Context(tuple((f"z{j}",) for j in range(others)))
        assert RareP(1, alpha=1).exact(["a"], topic, context) == Fraction(2 * S - 1, S)


def test_stated_bounds_depend_on_alpha_and_cite_the_paper():
    assert {b.quantity for b in RareP(alpha=1).stated_bounds()} == {"rarity", "score"}
    assert len(RareP(alpha=1).stated_bounds()) == 3
    # The paper's bounds on P@K_rare are for alpha <= 1 only.
    assert [b.quantity for b in RareP(alpha=2).stated_bounds()] == ["rarity"]
    assert [b.quantity for b in RareAP(alpha=1.5).stated_bounds()] == ["rarity"]
    rarity = _bound(RareP(), "rarity", "(S-1)/S")
    assert (rarity.low(4), rarity.high(4)) == (0, Fraction(3, 4))
    revised = _bound(RevisedRareP(), "rarity", "R'")
    assert (revised.low(4), revised.high(4)) == (0, 1)
    assert _bound(RevisedRareP(rarity="original"), "rarity", "(S-1)/S").high(3) == Fraction(2, 3)
    assert _bound(RevisedRareP(), "score", "[0, 1]").high(7) == 1
    for metric in (RareP(), RareAP(), RevisedRareP()):
        assert all("Türkmen" in b.source and "section" in b.source for b in metric.stated_bounds())


def test_reversions_name_the_base_metrics():
    (p,) = RareP(5, alpha=1).reversions()
    assert (p.metric.name, p.base, p.context) == ("RareP(alpha=0)@5", PrecisionAtK(5), "any")
    (ap,) = RareAP(7).reversions()
    assert (ap.metric.name, ap.base) == ("RareAP(alpha=0)@7", AveragePrecision(7))
    assert RareAP().reversions()[0].base == AveragePrecision()
    (rev,) = RevisedRareP(3, alpha=1, rarity="original").reversions()
    assert rev.metric.params["alpha"] == 0 and rev.base == PrecisionAtK(3)


@st.composite
def relative_cases(draw, min_others: int = 0):
    """A topic, the evaluated ranking and a context of the other rankings."""
    topic, rankings = draw(diversity_cases(max_rankings=6))
    rankings = rankings + [rankings[0][::-1]]  # some overlap between systems
    x, others = rankings[0], rankings[1:]
    if len(others) < min_others:
        others = others + [x] * (min_others - len(others))
    return topic, x, Context(tuple(others))


ALPHAS = st.sampled_from([0, 0.5, 1, Fraction(1, 3), 0.1, 2.5])


@given(relative_cases(), st.integers(1, 12))
def test_alpha_zero_is_the_base_metric(case, k):
    topic, x, context = case
    for metric in (RareP(k, alpha=0.7), RareAP(k, alpha=0.7), RareAP(alpha=2),
                   RevisedRareP(k, alpha=0.7), RevisedRareP(k, alpha=1, rarity="original")):
        for reversion in metric.reversions():
            assert reversion.metric.exact(x, topic, context) == reversion.base.exact(x, topic)
    assert RareP(k, alpha=0).exact(x, topic, context) == PrecisionAtK(k).exact(x, topic)
    assert RareAP(k, alpha=0).exact(x, topic, context) == AveragePrecision(k).exact(x, topic)


@given(relative_cases(min_others=1), st.integers(1, 12), ALPHAS)
def test_float_matches_exact(case, k, alpha):
    topic, x, context = case
    metrics = [RareP(k, alpha=alpha), RareAP(k, alpha=alpha), RareAP(alpha=alpha)]
    if alpha <= 1:
        metrics += [RevisedRareP(k, alpha=alpha), RevisedRareP(k, alpha=alpha, rarity="original")]
    for metric in metrics:
        score = metric.score(x, topic, context)
        assert abs(score - float(metric.exact(x, topic, context))) <= TOLERANCE, metric.name


@given(relative_cases(min_others=1), st.integers(1, 12), st.sampled_from([0, 0.5, 1, Fraction(2, 3)]))
def test_the_bounds_the_paper_gets_right_hold(case, k, alpha):
    topic, x, context = case
    S = len(context) + 1
    for metric in (RareP(k, alpha=alpha), RareAP(k, alpha=alpha)):
        for r in metric.rarities(x, topic, context, EXACT).values():
            assert 0 <= r <= Fraction(S - 1, S)
    # The true maximum of P@K_rare: 1 + alpha (S-1)/S <= (2S-1)/S < 2.
    assert 0 <= RareP(k, alpha=alpha).exact(x, topic, context) <= 1 + Fraction(alpha) * Fraction(S - 1, S)
    assert 0 <= RareAP(k, alpha=alpha).exact(x, topic, context) < 2
    revised = RevisedRareP(k, alpha=alpha)
    assert all(0 <= r <= 1 for r in revised.rarities(x, topic, context, EXACT).values())
    assert 0 <= revised.exact(x, topic, context) <= 1


@settings(max_examples=30)
@given(diversity_cases(max_rankings=6), st.integers(1, 12), ALPHAS, st.data())
def test_vectorised_campaign_scoring_equals_the_loop(case, k, alpha, data):
    topic, rankings = case
    n = len(rankings)
    priors = [data.draw(st.lists(st.sampled_from([j for j in range(n) if j != i]), unique=True))
              if n > 1 else [] for i in range(n)]
    metric = RareP(k, alpha=alpha)
    looped = [metric.score(rankings[i], topic, Context(tuple(rankings[j] for j in priors[i])))
              for i in range(n)]
    got = metric.score_systems(topic, rankings, priors)
    assert got.shape == (n,)
    assert all(abs(g - w) <= TOLERANCE for g, w in zip(got, looped)), (got, looped)


@pytest.mark.parametrize("spec, name", [
    ("RareP", "RareP(alpha=0.5)@10"),
    ("RareP(alpha=1)@100", "RareP(alpha=1)@100"),
    ("RareAP(alpha=0.5)@10", "RareAP(alpha=0.5)@10"),
    ("RareAP(alpha=0)", "RareAP(alpha=0)"),
    ("RareP_rev", "RareP_rev(alpha=0.5)@10"),
    ("RareP_rev(alpha=1,rarity='original')@5", "RareP_rev(alpha=1,rarity='original')@5"),
    ("RareP_rev(rarity='revised')", "RareP_rev(alpha=0.5)@10"),
])
def test_spec_round_trip(spec, name):
    metric = parse(spec)
    assert metric.name == name
    assert parse(metric.name).name == metric.name
    assert metric.needs.context and not metric.needs.graded


@pytest.mark.parametrize("spec, fragment", [
    ("RareP(alpha=-0.5)", "alpha=-0.5 is outside its range"),
    ("RareP_rev(alpha=1.5)", "alpha=1.5 is outside its range, float in [0, 1]"),
    ("RareP_rev(rarity='new')", "rarity='new' must be one of 'revised', 'original'"),
    ("RareAP(beta=1)", "unknown parameter 'beta'"),
    ("RareP(alpha='x')", "alpha must be a float"),
])
def test_bad_parameters_are_clear_errors(spec, fragment):
    with pytest.raises(InputError) as error:
        parse(spec)
    assert fragment in str(error.value) and "\n" not in str(error.value)


def test_needs_a_context():
    with pytest.raises(Exception) as error:
        RareP().score(X, TOPIC)
    assert "needs a context" in str(error.value)


# Rareness metrics (Türkmen, Lease & Kutlu, ECIR 2023), issue 14: the stated bounds exactly as
# declared (claims, sources, open/closed ends, the functions of S), the alpha parameter's range,
# default and grid, the undefined revised rarity's whole message, and the campaign path on inputs
# where rarity differs between systems.

SOURCE = "Türkmen, Lease & Kutlu, ECIR 2023"


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
