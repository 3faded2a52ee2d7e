"""NRG and unique contributions: hand-computed values, the example of definitions §6, the
paper's Table 1 (with R2 reconstructed), reversion to the base, float vs
exact, the vectorised campaign path, errors and spec strings."""

from __future__ import annotations

import math
from fractions import Fraction
import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from axiometer.metrics.decide import exact_sign
from axiometer.core import Context, DuplicateDocumentError, InputError, Ranking, Topic, ValidationError
from axiometer.generators.campaign import generate_campaign
from axiometer.metrics import RELATIVE_ROWS, parse
from axiometer.metrics.arithmetic import EXACT, exact_to_float
from axiometer.metrics.browsing import BrowsingModel, binary_gain, constant_factor
from axiometer.metrics.nrg import NRG, UniqueContributions, residual_factors
from tests.strategies import diversity_cases

BASES = ["nDCG@10", "nDCG@3", "nDCG", "DCG@4", "RBP(p=0.8)", "RBP(p=0.5)@3", "P@10", "P@2"]


def ctx(*rankings: str) -> Context:
    """A context from space-free strings of one-letter ids: ctx("ABC") = ((A, B, C),)."""
    return Context(tuple(Ranking(list(r)) for r in rankings))


def test_spec_example_normalised_falls_while_raw_rises():
    """definitions §6's measured fact: relevant A and B; evaluated B, x1..x8, A."""
    topic = Topic.single({"A": 1, "B": 1})
    evaluated = ["B"] + [f"x{i}" for i in range(1, 9)] + ["A"]
    nrg, raw = parse("NRG(base=nDCG@10)"), parse("NRG(base=nDCG@10,norm='none')")
    first = Context((Ranking(["A", "y1", "y2"]),))
    # Prior A, y1, y2: A's residual is 1 * (1 - seen(1)) = 0. Raw = 1 (B at rank 1);
    # the ideal over residual gains (B: 1, A: 0) is 1 as well, so NRG = 1 exactly.
    assert nrg.exact(evaluated, topic, first) == 1 and raw.exact(evaluated, topic, first) == 1
    second = Context((Ranking(["y1", "A", "y2"]),))
    # Prior y1, A, y2: A's residual is 1 - 1/log2(3) = 0.369070. Raw = 1 + 0.369070/log2(11)
    # = 1 + 0.369070/3.459432 = 1.106685; ideal = 1 + 0.369070/log2(3) = 1.232860;
    # NRG = 1.106685/1.232860 = 0.897659.
    left = 1 - 1 / math.log2(3)
    assert raw.score(evaluated, topic, second) == pytest.approx(1 + left / math.log2(11), abs=1e-12)
    assert raw.score(evaluated, topic, second) == pytest.approx(1.106685, abs=1e-6)
    assert nrg.score(evaluated, topic, second) == pytest.approx(0.897659, abs=1e-6)
    exact = nrg.exact(evaluated, topic, second)
    assert abs(exact_to_float(exact) - (1 + left / math.log2(11)) / (1 + left / math.log2(3))) < 1e-15


def test_hand_computed_rbp_p_and_unique():
    topic = Topic.single({"A": 1, "B": Fraction(1, 2), "C": 1})
    # RBP(p=1/2), evaluated [A, B], prior [B, A]: residual A = 1 * (1 - seen(2)) = 1 - 1/2 = 1/2;
    # B = 1/2 * (1 - seen(1)) = 0. Raw = 1/2 * 1 + 0 = 1/2; N = 1/(1-p): NRG = 1/2 * 1/2 = 1/4.
    assert parse("NRG(base=RBP(p=0.5))").exact(["A", "B"], topic, ctx("BA")) == Fraction(1, 4)
    assert parse("NRG(base=RBP(p=0.5),norm='none')").exact(["A", "B"], topic, ctx("BA")) == Fraction(1, 2)
    # P@2, evaluated [A, C, B], prior [B, A]: window [A, C]; A in the prior's top 2 (seen = 1):
    # residual 0; C: 1. Raw = 1; N = K = 2: NRG = 1/2. Unique@2 counts C alone: 1.
    assert parse("NRG(base=P@2)").exact(["A", "C", "B"], topic, ctx("BA")) == Fraction(1, 2)
    assert parse("Unique@2").exact(["A", "C", "B"], topic, ctx("BA")) == 1
    # Prior [X, Y, A]: A is past the prior's top 2 and is ignored, so A counts again: 2/2 and 2.
    assert parse("NRG(base=P@2)").exact(["A", "C", "B"], topic, ctx("XYA")) == 1
    assert parse("Unique@2").exact(["A", "C", "B"], topic, ctx("XYA")) == 2
    # Two priors multiply: RBP(p=1/2), evaluated [A], priors [X, A] and [X, X2, A]... with
    # one-letter ids: [X, A] and [X, Y, A]: A's factor (1 - 1/2)(1 - 1/4) = 3/8; NRG = 1/2 * 3/8.
    assert parse("NRG(base=RBP(p=0.5))").exact(["A"], topic, ctx("XA", "XYA")) == Fraction(3, 16)


def test_ideal_zero_gives_zero_and_prior_positions_beyond_k_are_ignored():
    topic = Topic.single({"A": 1, "B": 0})
    nrg = parse("NRG(base=nDCG@2)")
    # A at rank 1 of the prior: no residual gain left anywhere, ideal 0 -> 0.
    assert nrg.exact(["A", "B"], topic, ctx("A")) == 0 and nrg.score(["A"], topic, ctx("A")) == 0.0
    assert nrg.exact(["B"], Topic.single({"B": 0}), ctx("B")) == 0  # no relevant document at all
    # A at rank 3 of the prior is beyond K = 2: as with no prior, nDCG@2 = 1.
    assert nrg.exact(["A", "B"], topic, ctx("XYA")) == 1


# The paper's Table 1: relevant items (equal grade 4, here r = 15/16, ERR's mapping) at
# ranks 1, 5, 6 and 10 of each ranking. R2 is garbled in the text ("- D C B A F G H");
# of the 24 placements of A, E, F, J at ranks 1, 5, 6, 10 of R2, exactly one reproduces
# every printed value: E first, A fifth, F sixth, J last (the text's "R1 and R2 place A at
# the top" is then wrong for R2). Non-relevant order is immaterial: it is filled as printed.
TABLE_TOPIC = Topic.single({d: Fraction(15, 16) for d in "AEFJ"})
R1, R2, R3 = "ABCDEFGHIJ", "EDCBAFGIHJ", "JIHGFEDCBA"
TABLE = [  # (evaluated, priors, printed NRG)
    (R1, [R2], 0.7361), (R1, [R3], 0.8277), (R1, [R2, R3], 0.8417),
    (R2, [R1], 0.7361), (R2, [R3], 0.7988), (R2, [R1, R3], 0.8316),
    (R3, [R1], 0.8277), (R3, [R2], 0.7988), (R3, [R1, R2], 0.8681),
]


def test_paper_table_1_ndcg():
    # nDCG@10 = (1 + 1/log2 6 + 1/log2 7 + 1/log2 11) / (1 + 1/log2 3 + 1/2 + 1/log2 5)
    #         = 2.03212 / 2.56161 = 0.7933 for every ranking.
    for ranking in (R1, R2, R3):
        assert round(parse("nDCG@10").score(list(ranking), TABLE_TOPIC), 4) == 0.7933


def test_paper_table_1_nrg_hand_computed_entry():
    # NRG(R1 | {R3}): residuals A = 1 - 1/log2 11 = 0.71094 (R3 rank 10), E = 1 - 1/log2 7
    # = 0.64379 (rank 6), F = 1 - 1/log2 6 = 0.61315 (rank 5), J = 0 (rank 1), times r.
    # Raw/r = 0.71094 + 0.64379/log2 6 + 0.61315/log2 7 = 0.71094 + 0.24905 + 0.21841 = 1.17840;
    # ideal/r = 0.71094 + 0.64379/log2 3 + 0.61315/2 = 0.71094 + 0.40619 + 0.30658 = 1.42371;
    # NRG = 1.17840/1.42371 = 0.8277.
    a, e, f = 1 - 1 / math.log2(11), 1 - 1 / math.log2(7), 1 - 1 / math.log2(6)
    want = (a + e / math.log2(6) + f / math.log2(7)) / (a + e / math.log2(3) + f / 2)
    got = parse("NRG(base=nDCG@10)").score(list(R1), TABLE_TOPIC, ctx(R3))
    assert got == pytest.approx(want, abs=1e-12) and round(got, 4) == 0.8277


@pytest.mark.parametrize("evaluated, priors, printed", TABLE)
def test_paper_table_1_nrg(evaluated, priors, printed):
    nrg = parse("NRG(base=nDCG@10)")
    assert round(nrg.score(list(evaluated), TABLE_TOPIC, ctx(*priors)), 4) == printed
    assert round(exact_to_float(nrg.exact(list(evaluated), TABLE_TOPIC, ctx(*priors))), 4) == printed


def test_paper_table_1_no_unique_contributions_at_depth_10():
    # "at depth 10 none make a unique contribution" (Appendix B); at depth 5 R1 and R3 do.
    assert all(parse("Unique@10").exact(list(e), TABLE_TOPIC, ctx(*p)) == 0 for e, p, _ in TABLE)
    # Unique@5 of R1 = A..E against R3 = J..F: A and E are not in R3's top 5 -> 2.
    assert parse("Unique@5").exact(list(R1), TABLE_TOPIC, ctx(R3)) == 2


@pytest.mark.parametrize("spec", BASES)
@settings(max_examples=25)
@given(case=diversity_cases())
def test_empty_prior_set_gives_the_base_exactly(spec, case):
    topic, rankings = case
    nrg, base = parse(f"NRG(base={spec})"), parse(spec)
    (reversion,) = nrg.reversions()
    assert reversion.context == "empty" and reversion.base == base and reversion.metric is nrg
    for ranking in rankings:
        got, want = nrg.exact(ranking, topic, Context()), base.exact(ranking, topic)
        assert got == want or exact_sign(got - want) == 0, (spec, ranking)
        assert abs(nrg.score(ranking, topic, Context()) - base.score(ranking, topic)) <= 1e-12


@pytest.mark.parametrize("spec", [f"NRG(base={b})" for b in BASES] + [
    "NRG(base=nDCG@10,norm='none')", "NRG(base=RBP(p=0.8),norm='none')", "Unique@3", "Unique@10"])
@settings(max_examples=20)
@given(case=diversity_cases(max_docs=8))
def test_float_matches_exact_with_contexts(spec, case):
    topic, rankings = case
    metric = parse(spec)
    for i, ranking in enumerate(rankings):
        context = Context(tuple(rankings[:i] + rankings[i + 1:]))
        score, exact = metric.score(ranking, topic, context), metric.exact(ranking, topic, context)
        assert abs(score - exact_to_float(exact)) <= 1e-12, (spec, ranking, score, exact)
        if metric.stated_bounds():
            assert -1e-12 <= score <= 1 + 1e-12


def independent_unique_count(ranking, topic, priors, k):
    """Relevant documents in the top k that no prior has in its top k, counted directly."""
    pooled = {d for prior in priors for d in prior[:k]}
    return sum(1 for d in ranking[:k] if topic.rel(d) and d not in pooled)


@settings(max_examples=40)
@given(case=diversity_cases(), k=st.integers(1, 6))
def test_unique_counts_unique_relevant_documents(case, k):
    topic, rankings = case
    metric = UniqueContributions(k)
    assert metric.counts_unique and metric.needs.context and not metric.needs.graded
    for i, ranking in enumerate(rankings):
        priors = rankings[:i] + rankings[i + 1:]
        assert metric.exact(ranking, topic, Context(tuple(priors))) == \
            independent_unique_count(ranking, topic, priors, k)


SYSTEM_SPECS = ["NRG(base=nDCG@10)", "NRG(base=nDCG@3)", "NRG(base=nDCG)", "NRG(base=RBP(p=0.8))",
                "NRG(base=RBP(p=0.5)@2)", "NRG(base=P@3)", "NRG(base=nDCG@10,norm='none')",
                "NRG(base=DCG@3)", "Unique@2"]


def assert_systems_match_loop(metric, topic, rankings, priors):
    fast = metric.score_systems(topic, rankings, priors)
    assert fast.shape == (len(rankings),)
    for i, ranking in enumerate(rankings):
        want = metric.score(Ranking(ranking), topic, Context(tuple(Ranking(rankings[j]) for j in priors[i])))
        assert abs(fast[i] - want) <= 1e-12, (metric.name, i, fast[i], want)


@pytest.mark.parametrize("spec", SYSTEM_SPECS)
@settings(max_examples=30)
@given(data=st.data())
def test_score_systems_equals_the_loop(spec, data):
    topic, rankings = data.draw(diversity_cases())
    n = len(rankings)
    # Any prior sets, the evaluated system itself included sometimes.
    priors = [data.draw(st.lists(st.integers(0, n - 1), unique=True, max_size=n)) for _ in range(n)]
    assert_systems_match_loop(parse(spec), topic, rankings, priors)


def test_score_systems_on_a_campaign():
    campaign = generate_campaign(topics=3, runs=8, depth=60, seed=3)
    for spec in SYSTEM_SPECS:
        metric = parse(spec)
        for qid in campaign.qids:
            rankings = campaign.rankings(qid)
            priors = [[j for j in range(len(rankings)) if j != i] for i in range(len(rankings))]
            assert_systems_match_loop(metric, campaign.topics[qid], rankings, priors)
    assert parse("NRG").score_systems(campaign.topics["q1"], [], []).shape == (0,)


def test_names_cutoff_needs_and_round_trips():
    assert parse("NRG").name == "NRG(base=nDCG@10)"
    for spec in ("NRG(base=nDCG@10)", "NRG(base=RBP(p=0.8))", "NRG(base=nDCG@10,norm='none')",
                 "NRG(base=P@10)", "NRG(base=DCG@5)", "NRG(base=RBP(p=0.9)@20,norm='none')",
                 "Unique@10", "Unique@5"):
        metric = parse(spec)
        assert metric.name == spec and parse(metric.name).name == spec
    assert parse("NRG(base=P)").name == "NRG(base=P@10)" and parse("Unique").name == "Unique@10"
    assert parse("NRG(base=nDCG@5)").cutoff == 5 and parse("NRG(base=RBP(p=0.8))").cutoff is None
    assert parse("NRG(base=P@10)").needs.graded is False and parse("NRG").needs.graded is True
    assert all(parse(spec).needs.context for spec in ("NRG", "Unique"))
    for _, spec in RELATIVE_ROWS:
        if spec.startswith(("NRG", "Unique")):
            assert parse(spec).name == spec
    assert parse("NRG").replace(norm="none").name == "NRG(base=nDCG@10,norm='none')"
    assert parse("NRG").replace(base="RBP(p=0.9)").name == "NRG(base=RBP(p=0.9))"


def test_stated_bounds_and_reversions():
    (bound,) = parse("NRG").stated_bounds()
    assert bound.quantity == "score" and bound.low(3) == 0 and bound.high(3) == 1
    assert "range [0, 1]" in bound.source
    assert parse("NRG(base=nDCG@10,norm='none')").stated_bounds() == ()
    assert parse("NRG(base=nDCG@10,norm='none')").reversions() == ()
    assert parse("NRG(base=DCG@10)").stated_bounds() == ()  # DCG's N = 1 maps nothing into [0, 1]
    assert len(parse("NRG(base=RBP(p=0.8))").stated_bounds()) == 1


@pytest.mark.parametrize("spec, fragment", [
    ("NRG(base=nDGC@10)", "base 'nDGC@10' is not a valid metric (unknown metric 'nDGC'; did you mean 'nDCG'"),
    ("NRG(base=AP)", "base AP has no browsing model"),
    ("NRG(base=NRG)", "has no browsing model"),
    ("NRG(base=RBP(p=2))", "is not a valid metric"),
    ("NRG(base=3)", "base must be a metric spec or a metric"),
    ("NRG(norm=ideal)", "norm='ideal' must be one of 'base', 'none'"),
    ("NRG(base=nDCG@10)@5", "NRG takes no cutoff"),
])
def test_bad_bases_give_one_clear_error(spec, fragment):
    with pytest.raises(InputError) as error:
        parse(spec)
    message = str(error.value)
    assert fragment in message and "\n" not in message and message.startswith(f"metric {spec!r}")


def test_needs_a_context():
    with pytest.raises(ValidationError, match="needs a context"):
        parse("NRG").score(["a"], Topic.single({"a": 1}))


class HarmonicSeen:
    """A metric author's metric: binary gain, seen(i) = 1/i, N = 1, no depth."""

    name = "Harmonic"

    def browsing_model(self) -> BrowsingModel:
        return BrowsingModel(self.name, binary_gain, lambda i, A: A.one / A.num(i), None,
                             constant_factor(1), unit_range=False, graded=False)

    def score(self, ranking, topic, context=None):
        return float(self.browsing_model().score(ranking, topic, __import__(
            "axiometer.metrics.arithmetic", fromlist=["FLOAT"]).FLOAT))


def test_nrg_over_a_metric_authors_browsing_model():
    topic = Topic.single({"a": 1, "b": 1})
    nrg = NRG.over(HarmonicSeen())
    assert nrg.name == "NRG(base=Harmonic)" and nrg.cutoff is None and not nrg.needs.graded
    # Evaluated [a, b], prior [x, a]: a's residual 1 - seen(2) = 1/2 at rank 1 -> 1/2;
    # b (not in the prior) 1 at rank 2 -> 1/2. Total 1 (N = 1).
    assert nrg.exact(["a", "b"], topic, ctx("xa")) == 1
    # Prior [b]: b's residual 1 - seen(1) = 0; a alone: 1.
    assert nrg.exact(["a", "b"], topic, ctx("b")) == 1
    assert nrg.exact(["b", "a"], topic, ctx("b")) == Fraction(1, 2)
    assert nrg.replace(norm="none").name == "NRG(base=Harmonic,norm='none')"
    with pytest.raises(ValidationError, match="has no browsing model"):
        NRG.over(parse("AP"))
    with pytest.raises(ValidationError, match="no cutoff"):
        nrg.replace(cutoff=3)


def test_campaign_scores_are_bounded_and_nontrivial():
    campaign = generate_campaign(topics=2, runs=6, depth=40, seed=1)
    metric = parse("NRG")
    for qid in campaign.qids:
        rankings = campaign.rankings(qid)
        scores = metric.score_systems(campaign.topics[qid], rankings,
                                      [[j for j in range(6) if j != i] for i in range(6)])
        alone = metric.score_systems(campaign.topics[qid], rankings, [[] for _ in range(6)])
        base = parse("nDCG@10")
        assert np.allclose(alone, [base.score(r, campaign.topics[qid]) for r in rankings], atol=1e-12)
        assert ((scores >= 0) & (scores <= 1)).all()


def test_score_systems_refuses_a_plain_list_ranking_with_a_duplicate():
    """Rankings given as lists are made Rankings first: a repeated document is the usual one-line error."""
    with pytest.raises(DuplicateDocumentError, match="duplicate document 'a'"):
        parse("NRG").score_systems(Topic.single({"a": 1}), [["a", "b", "a"]], [[]])


# NRG and unique contributions (Clarke et al., SIGIR-AP 2024), issue 14: pickling (the table
# runner ships metrics to worker processes), ``NRG.over`` with a norm, and the cutoff error's
# whole message.

TOPIC = Topic.single({"A": 1, "B": Fraction(1, 2), "C": 1})


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


NRG_SOURCE = "Clarke et al., Normalized Residual Gain, SIGIR-AP 2024"


def test_reversion_and_stated_bound_as_declared():
    nrg = parse("NRG(base=nDCG@5)")
    (reversion,) = nrg.reversions()
    assert (reversion.text, reversion.source, reversion.context) == (
        "an empty prior set gives the base metric",
        f"{NRG_SOURCE}, section 2: 'If M = 0, we have G(d|R) = G(d), and so Equation 4 reduces "
        "to Equation 1'", "empty")
    assert reversion.metric is nrg and reversion.base is nrg.base_metric
    assert reversion.base.name == "nDCG@5"
    (bound,) = nrg.stated_bounds()
    assert (bound.claim, bound.source, bound.quantity, bound.low_open, bound.high_open) == (
        "normalised NRG lies in [0, 1]",
        f"{NRG_SOURCE}, section 2, eq. 1: N is 'a normalization factor, typically intended to "
        "map the metric into a value in the range [0, 1]'", "score", False, False)
    assert [bound.low(S) for S in (1, 2, 5)] == [0, 0, 0]
    assert [bound.high(S) for S in (1, 2, 5)] == [1, 1, 1]


def test_the_base_decides_grades_gradedness_and_range():
    # NRG reads grades as its base's reference does (RBP: binary, as ir_measures' RBP(rel=1)).
    for spec in ("RBP(p=0.8)", "nDCG@10", "P@3"):
        nrg = parse(f"NRG(base={spec})")
        assert nrg.grades_convention == parse(spec).grades_convention
        assert nrg.normalised is True and parse(f"NRG(base={spec},norm='none')").normalised is False
        assert nrg.params == {"base": spec, "norm": "base"} and nrg.base == spec
    assert parse("NRG(base=RBP(p=0.8))").grades_convention != NRG.grades_convention
    assert parse("NRG(base=DCG@4)").normalised is False  # DCG's N = 1: no unit range
    assert parse("NRG(base=P@3)").needs == parse("Unique@3").needs
    assert parse("NRG(base=P@3)").needs.graded is False and parse("NRG(base=DCG@4)").needs.graded is True


class _Overseen:
    """A metric author's model with seen(i) = 2: not a probability."""

    name = "Over"

    def browsing_model(self):
        from axiometer.metrics.browsing import BrowsingModel, binary_gain, constant_factor
        return BrowsingModel(self.name, binary_gain, lambda i, A: A.num(2), None,
                             constant_factor(1), unit_range=False, graded=False)


def test_campaign_path_rejects_seen_above_one():
    with pytest.raises(ValidationError) as error:
        NRG.over(_Overseen()).score_systems(Topic.single({"a": 1}), [["a"], ["a"]], [[1], [0]])
    assert str(error.value) == "Over: seen(i) > 1 at some rank; seen must be a probability"


def test_campaign_ideal_takes_documents_outside_every_top_k():
    import math
    topic = Topic.single({"A": 1, "B": Fraction(1, 2), "C": Fraction(1, 4)})
    rankings = [["C", "B"], ["A", "C"]]
    priors = [[1], []]
    # nDCG@1: s1's top 1 is A: A's residual 1 - seen(1) = 0. s0 = [C]: raw 1/4; the ideal's best
    # residual is B's 1/2 (B is in no top 1) -> 1/2. s1 without priors: A/A = 1.
    nrg1 = parse("NRG(base=nDCG@1)")
    assert nrg1.exact(rankings[0], topic, Context((tuple(rankings[1]),))) == Fraction(1, 2)
    assert nrg1.score_systems(topic, rankings, priors).tolist() == pytest.approx([0.5, 1.0], abs=1e-15)
    # nDCG@2: s1's top 2: A (factor 0), C (factor 1 - 1/log2 3). s0 = [C, B]:
    # raw = c + (1/2)/log2 3 with c = (1/4)(1 - 1/log2 3); ideal = 1/2 + c/log2 3.
    l3 = math.log2(3)
    c = 0.25 * (1 - 1 / l3)
    want = (c + 0.5 / l3) / (0.5 + c / l3)
    nrg2 = parse("NRG(base=nDCG@2)")
    assert nrg2.score(rankings[0], topic, Context((tuple(rankings[1]),))) == pytest.approx(want, abs=1e-15)
    # s1 = [A, C] without priors: nDCG@2 = (1 + (1/4)/log2 3) / (1 + (1/2)/log2 3) (ideal A, B).
    alone = (1 + 0.25 / l3) / (1 + 0.5 / l3)
    assert nrg2.score_systems(topic, rankings, priors).tolist() == pytest.approx([want, alone], abs=1e-15)


def test_base_errors_say_what_and_cut_long_text():
    from axiometer.core import InputError
    # A base that is no metric: the spec cut at 60 characters, the reason at 160.
    with pytest.raises(ValidationError) as error:
        NRG(base="x" * 70)
    message = str(error.value)
    head = "NRG: base '" + "x" * 59 + "…' is not a valid metric ("
    assert message.startswith(head) and message.endswith(")")
    reason = message[len(head):-1]
    assert len(reason) == 160 and reason.endswith("…") and reason.startswith("unknown metric 'x")
    # A nested bad base is said once, by the innermost NRG, not wrapped at every level.
    with pytest.raises(InputError) as error:
        NRG(base="NRG(base=nDGC)")
    message = str(error.value)
    assert message.startswith("metric 'NRG(base=nDGC)': NRG: base 'nDGC' is not a valid metric (")
    assert message.count("is not a valid metric") == 1
    # Not a spec and not a metric; a model that is not a BrowsingModel; no model at all.
    with pytest.raises(ValidationError) as error:
        NRG(base=3)
    assert str(error.value) == "NRG: base must be a metric spec or a metric, got 3"

    class NotAModel:
        name = "Bad"

        def browsing_model(self):
            return 3

    with pytest.raises(ValidationError) as error:
        NRG.over(NotAModel())
    assert str(error.value) == "NRG: Bad.browsing_model() returned int, not a BrowsingModel"
    with pytest.raises(ValidationError) as error:
        NRG.over(parse("AP@5"))
    assert str(error.value) == (
        "NRG: base AP@5 has no browsing model (gain, seen(i), normaliser of NRG eq. 1); bases "
        "with one: nDCG, DCG, RBP, P, or a metric with a browsing_model() method")


def test_unique_contributions_refuses_a_parameter_it_does_not_have():
    with pytest.raises(ValidationError, match="unknown parameter 'foo'"):
        UniqueContributions(2, foo=1)


def test_nrg_built_without_arguments_takes_its_default_base():
    assert NRG().base == "nDCG@10" and NRG().name == parse("NRG").name


def test_a_base_without_a_grades_convention_leaves_nrgs_own():
    """A metric author's base (a browsing model, no stated convention): NRG keeps its default."""
    assert NRG.over(_Overseen()).grades_convention == NRG.grades_convention


def test_no_context_means_no_residual_factor():
    model = parse("NRG").model
    assert residual_factors(model, None, EXACT) == {}
    assert residual_factors(model, Context((Ranking(["a"]),)), EXACT) == {"a": 0}
