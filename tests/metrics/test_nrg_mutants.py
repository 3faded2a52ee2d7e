"""NRG and unique contributions (Clarke et al., SIGIR-AP 2024), issue 14: pickling (the table
runner ships metrics to worker processes), ``NRG.over`` with a norm, and the cutoff error's
whole message."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest

from axiometer.core import Context, Ranking, Topic, ValidationError
from axiometer.metrics import parse
from axiometer.metrics.arithmetic import EXACT
from axiometer.metrics.nrg import NRG, UniqueContributions, residual_factors

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
