"""The relative properties (definitions §6) as oracles, on hand-built metrics made to satisfy or
violate each one, then on the built-ins (the measured facts of definitions §6).

The toy metrics below are written here from their formulas, independently of the built-ins:

- :class:`ToyRare`: Türkmen's ``P@K_rare = (1/k) sum_{i<=k} rel(d_i) (1 + alpha R(d_i))``,
  ``R(d) = 1 - S_d/S``. Rarity holds for ``alpha > 0`` (``Q(b) - Q(a) = alpha (S_x - S_y) / (S k) > 0``);
  PriorSens fails (only *whether* a prior retrieves ``d`` within ``k`` counts).
- :class:`ToyResidual`: NRG with rational ``seen(i) = 1/i`` to depth ``k`` (0 past it),
  ``G(d|prior) = r(d) prod_j (1 - seen(pos_j(d)))``; raw (``norm='none'``) or divided by the ideal
  over residual gains. A deeper prior position raises ``1 - seen``, so the raw score can only rise
  (PriorMono holds); the normalised one can fall because the ideal rises too.
- :class:`ToyUnique`: relevant documents in the top ``k`` that no prior has in its top ``k``.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from collections.abc import Sequence
from typing import Any, ClassVar

import pytest

from axiometer.axioms import CONSTRAINTS, CONSTRAINT_IDS, PROPERTIES, PROPERTY_IDS, get
from axiometer.checking import Budget
from axiometer.axioms.properties.prior_position import PRIOR_MONOTONICITY, PRIOR_SENSITIVITY
from axiometer.axioms.properties.base import Property
from axiometer.checking import check as check_property
from axiometer.core import Context, Ranking, Topic
from axiometer.generators.case import Case
from axiometer.metrics import Needs, Param, parse, wrap
from axiometer.metrics.arithmetic import Arithmetic
from axiometer.metrics.base import BuiltinMetric, UndefinedScore
from axiometer.metrics.precision import PrecisionAtK
from axiometer.metrics.relative import RelativeMetric, Reversion, StatedBound, systems_retrieving
from tests.axioms import topic_from_record

BUDGET = Budget(cases=30, small_scope=150, seconds=5)


# -- toy metrics -------------------------------------------------------------------------------------

def _zero(S: int) -> Fraction:
    return Fraction(0)


RARITY_RANGE = StatedBound("R(d) in [0, (S-1)/S]", "toy", "rarity", _zero, lambda S: Fraction(S - 1, S))
SCORE_RANGE = StatedBound("P@K_rare in [0, 2)", "toy", "score", _zero, lambda S: Fraction(2), high_open=True)
# Türkmen et al. state the maximum (alpha = 1, all relevant, maximal rarity) as 2(S-1)/S; it is (2S-1)/S.
STATED_MAXIMUM = StatedBound("maximum 2(S-1)/S", "toy", "score", None, lambda S: Fraction(2 * (S - 1), S))


class ToyRare(RelativeMetric):
    """``(1/k) sum_{i<=k} rel(d_i) (1 + alpha (1 - S_d/S))``, ``S = |context| + 1``, ``S_d`` within ``k``."""

    family = "ToyRare"
    title = "toy P@K_rare"
    cutoff_rule = "required"
    default_cutoff = 3
    param_info = (Param("alpha", float, 1, "rarity weight", low=0, high=1),)
    bounds: ClassVar[tuple[StatedBound, ...]] = (RARITY_RANGE, SCORE_RANGE)

    def rarity(self, doc: str, context: Context, A: Arithmetic) -> Any:
        S = len(context) + 1
        return A.one - A.num(1 + systems_retrieving(doc, context, self.cutoff)) / A.num(S)

    def denominator(self, ranking: Sequence[str]) -> int:
        return self.cutoff

    def compute(self, ranking, topic, A, context=None):
        total = A.zero
        for d in self.window(ranking):
            if topic.rel(d):
                total = total + A.one + A.num(self.alpha) * self.rarity(d, context, A)
        return total / A.num(max(1, self.denominator(ranking)))

    def rarities(self, ranking, topic, context, A):
        return {d: self.rarity(d, context, A) for d in self.window(ranking)}

    def reversions(self):
        return (Reversion("alpha = 0 is P@k", "toy", self.replace(alpha=0), PrecisionAtK(self.cutoff)),)

    def stated_bounds(self):
        return self.bounds


class ToyRareShort(ToyRare):
    """Divides by the number of documents seen, not by ``k``: at alpha = 0 it is not P@k."""

    family = "ToyRareShort"

    def denominator(self, ranking):
        return len(self.window(ranking))


class ToyRareStated(ToyRare):
    """Also declares the paper's wrong stated maximum."""

    family = "ToyRareStated"
    bounds = (RARITY_RANGE, SCORE_RANGE, STATED_MAXIMUM)


def seen(i: int | None, k: int) -> Fraction:
    """``seen(i) = 1/i`` for ``i <= k``; 0 past ``k`` or when not retrieved (``None``)."""
    return Fraction(1, i) if i is not None and i <= k else Fraction(0)


def position(doc: str, ranking: Sequence[str]) -> int | None:
    return ranking.index(doc) + 1 if doc in ranking else None


class ToyResidual(RelativeMetric):
    """NRG with ``seen(i) = 1/i`` to depth ``k``; ``norm='ideal'`` divides by the ideal over residual gains."""

    family = "ToyResidual"
    title = "toy NRG"
    cutoff_rule = "required"
    default_cutoff = 3
    needs = Needs(aspects=False, graded=True, context=True)
    param_info = (Param("norm", str, "ideal", "normalisation", choices=("ideal", "none")),)
    claimed_context: ClassVar[str] = "empty"

    def residual(self, doc, topic, context, A):
        gain = A.num(topic.r(doc))
        for prior in context.rankings:
            gain = gain * (A.one - A.num(seen(position(doc, prior), self.cutoff)))
        return gain

    def compute(self, ranking, topic, A, context=None):
        raw = A.zero
        for i, d in enumerate(self.window(ranking), 1):
            raw = raw + self.residual(d, topic, context, A) * A.num(seen(i, self.cutoff))
        if self.norm == "none":
            return raw
        gains = sorted((self.residual(d, topic, context, A) for d in topic.documents), reverse=True)
        ideal = A.zero
        for i, g in enumerate(gains[: self.cutoff], 1):
            ideal = ideal + g * A.num(seen(i, self.cutoff))
        return A.ratio(raw, ideal)

    def reversions(self):
        base = ToyHarmonic(self.cutoff) if self.norm == "none" else ToyHarmonicNormalised(self.cutoff)
        return (Reversion("an empty prior set gives the base", "toy", self, base, self.claimed_context),)


class ToyResidualAnyContext(ToyResidual):
    """Claims (wrongly) that it equals its base in every context."""

    family = "ToyResidualAny"
    claimed_context = "any"


class ToyHarmonic(BuiltinMetric):
    """``sum_{i<=k} r(d_i) / i`` (no context)."""

    family = "ToyHarmonic"
    title = "toy DCG"
    needs = Needs(aspects=False, graded=True)

    def compute(self, ranking, topic, A, context=None):
        return sum((A.num(topic.r(d)) * A.num(Fraction(1, i)) for i, d in enumerate(self.window(ranking), 1)),
                   A.zero)


class ToyHarmonicNormalised(ToyHarmonic):
    """``ToyHarmonic`` over its ideal (the judged documents by decreasing ``r``)."""

    family = "ToyHarmonicNormalised"

    def compute(self, ranking, topic, A, context=None):
        ideal = sorted((topic.r(d) for d in topic.documents), reverse=True)[: self.cutoff]
        best = sum((A.num(r) * A.num(Fraction(1, i)) for i, r in enumerate(ideal, 1)), A.zero)
        return A.ratio(super().compute(ranking, topic, A), best)


class ToyUnique(RelativeMetric):
    """Relevant documents in the top ``k`` retrieved by no prior in its top ``k`` (``strict=False``:
    by no prior at any depth, a bug)."""

    family = "ToyUnique"
    title = "toy unique contributions"
    cutoff_rule = "required"
    default_cutoff = 2
    counts_unique = True
    param_info = (Param("strict", bool, True, "count prior documents within k only"),)

    def compute(self, ranking, topic, A, context=None):
        depth = self.cutoff if self.strict else None
        pooled = {d for prior in context.rankings for d in (prior[:depth] if depth else prior)}
        return A.num(sum(1 for d in self.window(ranking) if topic.rel(d) and d not in pooled))


class ToyUndefined(ToyRare):
    """Says its formula is undefined on the empty context."""

    family = "ToyUndefined"

    def compute(self, ranking, topic, A, context=None):
        if not context.rankings:
            raise UndefinedScore("no other system: S_d/S means nothing here")
        return super().compute(ranking, topic, A, context)


class ToyNan(ToyRare):
    """Returns nan on the empty ranking (silently: the bug Finite exists for)."""

    family = "ToyNan"

    def compute(self, ranking, topic, A, context=None):
        return float("nan") if not ranking else super().compute(ranking, topic, A, context)


def check(metric, prop_id: str, **kwargs):
    return check_property(metric, get(prop_id), budget=kwargs.pop("budget", BUDGET), **kwargs)


def replay(metric, ce, ranking=None, context=None):
    """Re-score a counterexample's ``a`` (or ``ranking``) in ``context_a`` (or ``context``) from its text form."""
    topic = topic_from_record(ce.topic)
    ctx = Context(tuple(Ranking(r) for r in (ce.context_a if context is None else context)))
    return metric.exact(Ranking(ce.a if ranking is None else ranking), topic, ctx)


# -- registry ----------------------------------------------------------------------------------------

def test_properties_are_registered_beside_the_ten_constraints():
    assert len(CONSTRAINTS) == 10 and "Rev" not in CONSTRAINT_IDS
    assert PROPERTY_IDS == ("Rev", "Rarity", "PriorSens", "PriorMono", "Bounded", "Unique", "Finite")
    for prop in PROPERTIES:
        assert get(prop.id) is prop and get(prop.id.lower()) is prop
        # Where the runner touches a constraint, a property quacks alike.
        assert (prop.group, prop.default_mode, prop.readings) == ("relative", "window", ())
        assert prop.form in ("universal", "existential", "unary") and prop.wording and prop.source
    assert get("Pri").id == "Pri"
    with pytest.raises(KeyError, match="PriorSens"):
        get("nope")


@pytest.mark.parametrize("prop", PROPERTY_IDS)
def test_an_ordinary_metric_is_not_applicable(prop):
    result = check(PrecisionAtK(10), prop)
    assert result.verdict == "n/a" and result.note == "not a relative metric (it takes no context)"
    assert result.constraint == prop


# -- Rev -----------------------------------------------------------------------------------------------

def test_rev_holds_when_alpha_zero_is_the_base():
    result = check(ToyRare(3, alpha=1), "Rev")
    assert result.verdict == "satisfied" and result.small_scope > 0 and result.cases > 0
    assert "ToyRare(alpha=0)@3 = P@3" in result.note


def test_rev_fails_when_alpha_zero_is_not_the_base():
    result = check(ToyRareShort(3, alpha=1), "Rev")
    assert result.verdict == "violated"
    ce = result.counterexample
    # Smallest: one relevant document: hits/n = 1/1 versus P@3 = 1/3.
    assert (ce.a, ce.score_a, ce.score_b, ce.decided) == (("d1",), 1.0, pytest.approx(1 / 3), "float")
    assert ce.relation == "ToyRareShort(alpha=0)@3 = P@3 (alpha = 0 is P@k)"


def test_rev_in_the_empty_context_only():
    result = check(ToyResidual(3, norm="none"), "Rev")
    assert result.verdict == "satisfied", result
    assert check(ToyResidual(3), "Rev").verdict == "satisfied"
    wrong = check(ToyResidualAnyContext(3, norm="none"), "Rev")
    assert wrong.verdict == "violated"
    ce = wrong.counterexample
    # Smallest: a = (d1) relevant, retrieved at rank 1 by the other system: residual 1 - 1 = 0 vs 1/1.
    assert ce.a == ("d1",) and ce.context_a == (("d1",),) and (ce.score_a, ce.score_b) == (0.0, 1.0)


def test_rev_does_not_apply_without_a_reversion():
    assert check(ToyUnique(2), "Rev").note == "the metric declares no reversion"


# -- Rarity --------------------------------------------------------------------------------------------

def test_rarity_holds_for_rareness():
    result = check(ToyRare(3, alpha=Fraction(1, 2)), "Rarity")
    assert result.verdict == "satisfied" and result.cases > 0 and result.small_scope > 0


def test_rarity_fails_when_rarity_weighs_nothing():
    result = check(ToyRare(3, alpha=0), "Rarity")
    assert result.verdict == "violated"
    ce = result.counterexample
    # a = (d1), b = (d2), the other system retrieves d1: both score 1/3 at alpha = 0.
    assert (ce.a, ce.b, ce.context_a, ce.relation) == (("d1",), ("d2",), (("d1",),), "Q(b) > Q(a)")
    assert ce.score_a == ce.score_b == pytest.approx(1 / 3) and ce.decided == "exact"


def test_rarity_of_a_float_only_metric_is_decided_by_the_tolerance():
    def rare(ranking, topic, context):
        S = len(context.rankings) + 1
        return sum(1 + (1 - (1 + sum(d in r[:3] for r in context.rankings)) / S)
                   for d in ranking[:3] if topic.rel(d)) / 3

    result = check(wrap(rare, cutoff=3, needs=Needs(context=True)), "Rarity")
    assert result.verdict == "satisfied" and not result.exact and result.tolerance == 1e-9


def test_a_raising_metric_is_an_error_naming_the_input():
    def fragile(ranking, topic, context):
        if context.rankings:
            raise ValueError("no context please")
        return 0.0

    result = check(wrap(fragile, needs=Needs(context=True)), "Rarity")
    assert result.verdict == "error"
    assert result.error.message.startswith("ValueError: no context please [context: (")
    assert result.error.ranking == ("d1",)


# -- PriorSens / PriorMono -----------------------------------------------------------------------------

def test_prior_sens_witness_for_a_position_aware_metric():
    result = check(ToyResidual(3, norm="none"), "PriorSens")
    assert result.verdict == "witness" and result.counterexample is None
    # Smallest: a = (d1); the prior (d1, d2) -> (d2, d1): residual 0 -> 1/2, so Q 0 -> 1/2.
    assert result.witness.value == "Q 0 -> 0.5"
    assert "moved from position 1 to 2" in result.witness.note


def test_prior_sens_violated_for_rareness_says_it_is_a_search_result():
    result = check(ToyRare(3, alpha=1), "PriorSens")
    assert result.verdict == "violated"
    searched = result.cases + result.small_scope
    assert searched > 100
    assert result.note.startswith(f"no case among {searched} changed the score (a search result")
    ce = result.counterexample
    assert ce.a == ce.b == ("d1",) and ce.context_a == (("d1", "d2"),) and ce.context_b == (("d2", "d1"),)
    # x retrieved by the other system either way: R = 1 - 2/2 = 0, Q = (1/3)(1 + 0) both times.
    assert ce.score_a == ce.score_b == pytest.approx(1 / 3) and ce.relation == "Q(b) != Q(a)"


def test_prior_sens_needs_two_positions_within_the_cutoff():
    result = check(ToyResidual(1, norm="none"), "PriorSens")
    assert result.verdict == "n/a" and result.note == "no case of this property fits within the cutoff k = 1"


def test_prior_mono_holds_for_the_raw_residual_score():
    result = check(ToyResidual(3, norm="none"), "PriorMono")
    assert result.verdict == "satisfied" and result.cases > 0


def test_prior_mono_fails_for_the_normalised_residual_score_hand_computed():
    # a = (d1 rel, d2 non, d3 rel); prior (d3, f). Before: G(d3) = 1 (1 - 1) = 0, raw = 1,
    # ideal = 1 (d1 alone) -> 1. Move d3 to rank 2: G(d3) = 1 - 1/2 = 1/2; raw = 1 + (1/2)(1/3) = 7/6;
    # ideal = 1 + (1/2)(1/2) = 5/4; NRG = (7/6)/(5/4) = 14/15 < 1.
    topic = Topic.single({"d1": 1, "d2": 0, "d3": 1, "f": 0})
    a = Ranking(("d1", "d2", "d3"))
    case = Case(topic, a, a, (3,), "d3 moved 1 -> 2", Context((("d3", "f"),)), Context((("f", "d3"),)))
    metric = ToyResidual(3)
    assert metric.exact(a, topic, case.context) == 1
    assert metric.exact(a, topic, case.context_b) == Fraction(14, 15)
    outcome = PRIOR_MONOTONICITY.judge(metric, None, case, 1e-9)
    assert not outcome.holds and outcome.counterexample.score_b == pytest.approx(14 / 15)
    assert PRIOR_MONOTONICITY.judge(ToyResidual(3, norm="none"), None, case, 1e-9).holds
    assert PRIOR_SENSITIVITY.judge(metric, None, case, 1e-9).holds  # it changed: a witness

    result = check(metric, "PriorMono", budget=Budget(cases=30, small_scope=400, seconds=5))
    assert result.verdict == "violated" and result.small_scope > 150  # found among three documents
    ce = result.counterexample
    assert replay(metric, ce, context=ce.context_b) < replay(metric, ce)  # the counterexample is real
    assert ce.relation == "Q(b) >= Q(a)" and ce.decided == "float"


# -- Bounded -------------------------------------------------------------------------------------------

def test_bounded_holds_for_the_true_ranges_and_names_them():
    result = check(ToyRare(3, alpha=1), "Bounded")
    assert result.verdict == "satisfied"
    assert result.note == "held: R(d) in [0, (S-1)/S], P@K_rare in [0, 2)"


def test_bounded_fails_on_the_stated_maximum():
    result = check(ToyRareStated(3, alpha=1), "Bounded")
    assert result.verdict == "violated"
    assert result.note.startswith("fails: maximum 2(S-1)/S; held: R(d) in [0, (S-1)/S], P@K_rare in [0, 2)")
    ce = result.counterexample
    # Three relevant documents nobody else retrieves, S = 2 (the other system retrieves the
    # non-relevant d4): R = 1 - 1/2, Q = (1/3)(3 (1 + 1/2)) = 3/2 > 2(2-1)/2 = 1.
    assert ce.a == ("d1", "d2", "d3") and ce.context_a == (("d4",),) and ce.score_a == 1.5
    assert ce.relation == "Q <= 1 (S = 2): maximum 2(S-1)/S" and ("S", "2") in ce.extra


def test_bounded_on_rarity_values():
    class Overrated(ToyRare):
        family = "Overrated"

        def rarity(self, doc, context, A):  # 1 - (S_d - 1)/S: reaches 1 > (S-1)/S
            S = len(context) + 1
            return A.one - A.num(systems_retrieving(doc, context, self.cutoff)) / A.num(S)

    result = check(Overrated(3, alpha=1), "Bounded")
    assert result.verdict == "violated" and result.note.startswith("fails: R(d) in [0, (S-1)/S]")
    ce = result.counterexample
    # S = 2, d1 retrieved by nobody else: 1 - 0/2 = 1 > (2-1)/2.
    assert ("document", "d1") in ce.extra and ce.relation.startswith("0 <= R(d1) <= 1/2 (S = 2)")
    assert ce.score_a == 1.0


def test_bounded_does_not_apply_without_stated_bounds():
    assert check(ToyUnique(2), "Bounded").note == "the metric states no bounds"


# -- Unique --------------------------------------------------------------------------------------------

def test_unique_holds_for_a_correct_count():
    result = check(ToyUnique(2), "Unique")
    assert result.verdict == "satisfied" and result.cases > 0


def test_unique_fails_when_prior_documents_past_the_cutoff_count():
    result = check(ToyUnique(2, strict=False), "Unique")
    assert result.verdict == "violated"
    ce = result.counterexample
    # The relevant d1 is in a prior only past position 2: one unique contribution, the metric says 0.
    d1_positions = [prior.index("d1") + 1 for prior in ce.context_a if "d1" in prior]
    assert ce.a[:1] == ("d1",) and d1_positions and min(d1_positions) > 2
    assert (ce.score_a, ce.score_b) == (0.0, 1.0) and ("count", "1") in ce.extra


def test_unique_does_not_apply_to_other_metrics():
    assert check(ToyRare(3), "Unique").verdict == "n/a"


# -- Finite --------------------------------------------------------------------------------------------

def test_finite_holds_for_a_total_metric():
    result = check(ToyRare(3), "Finite")
    assert result.verdict == "satisfied" and result.small_scope > 0


def test_finite_counts_an_undefined_score_as_a_counterexample():
    result = check(ToyUndefined(3), "Finite")
    assert result.verdict == "violated"
    ce = result.counterexample
    assert ce.a == () and ce.context_a == () and math.isnan(ce.score_a)
    assert ce.note.endswith("undefined here: no other system: S_d/S means nothing here")


def test_finite_counts_nan_as_a_counterexample():
    result = check(ToyNan(3), "Finite")
    assert result.verdict == "violated" and "returned nan" in result.counterexample.note
    wrapped = wrap(lambda ranking, topic, context: math.inf if context.rankings else 0.0, name="inf",
                   needs=Needs(context=True))
    result = check(wrapped, "Finite")
    assert result.verdict == "violated" and result.counterexample.context_a == ((),)


def test_finite_reports_other_exceptions_as_errors():
    def broken(ranking, topic, context):
        raise ZeroDivisionError("division by zero")

    result = check(wrap(broken, needs=Needs(context=True)), "Finite")
    assert result.verdict == "error" and result.error.message.startswith("ZeroDivisionError")


def test_other_properties_skip_undefined_cases_and_say_so():
    result = check(ToyUndefined(3, alpha=1), "Bounded")
    assert result.verdict == "satisfied" and "skipped where the score is undefined (see Finite)" in result.note


# -- determinism ---------------------------------------------------------------------------------------

def test_the_same_seed_gives_the_same_check():
    metric = ToyResidual(3)
    first = check(metric, "PriorMono", seed=3)
    second = check(metric, "PriorMono", seed=3)
    assert dataclasses.asdict(first) == dataclasses.asdict(second)


def test_a_property_is_a_property():
    assert all(isinstance(p, Property) for p in PROPERTIES)


# -- the built-ins: definitions §6's measured facts --------------------------------------------------

def test_rareness_fails_prior_sens_while_nrg_has_a_witness():
    rare = check(parse("RareP(alpha=0.5)@10"), "PriorSens")
    assert rare.verdict == "violated" and rare.note.startswith("no case among")
    ce = rare.counterexample
    assert ce.score_a == ce.score_b and ce.context_a != ce.context_b
    nrg = check(parse("NRG(base=nDCG@10)"), "PriorSens")
    assert nrg.verdict == "witness"
    # a = (d1); the prior (d1, d2) -> (d2, d1): residual 0 -> 1 - 1/log2(3); alone in the ideal: 0 -> 1.
    assert nrg.witness.value == "Q 0 -> 1"


def test_normalised_nrg_fails_prior_mono_on_the_spec_example():
    # Relevant A, B; evaluated B, x1..x8, A; prior A, y1, y2; A moves to rank 2 of the prior.
    # Before: G(A|prior) = 1 - seen(1) = 0: raw = 1, ideal = 1, NRG = 1.
    # After: G(A) = 1 - 1/log2(3) = 0.369070; raw = 1 + 0.369070/log2(11) = 1.106685;
    # ideal = 1 + 0.369070/log2(3) = 1.232857; NRG = 1.106685/1.232857 = 0.897659 (definitions §6: 0.898).
    topic = Topic.single({"A": 1, "B": 1})
    a = Ranking(("B", *(f"x{i}" for i in range(1, 9)), "A"))
    case = Case(topic, a, a, (10,), "A moved from rank 1 to 2 of the prior",
                Context((("A", "y1", "y2"),)), Context((("y1", "A", "y2"),)))
    normalised, raw = parse("NRG(base=nDCG@10)"), parse("NRG(base=nDCG@10,norm='none')")
    outcome = PRIOR_MONOTONICITY.judge(normalised, None, case, 1e-9)
    assert not outcome.holds
    ce = outcome.counterexample
    assert ce.score_a == pytest.approx(1.0, abs=1e-12) and ce.score_b == pytest.approx(0.897659, abs=1e-6)
    assert raw.score(a, topic, case.context) == pytest.approx(1.0, abs=1e-12)
    assert raw.score(a, topic, case.context_b) == pytest.approx(1.106685, abs=1e-6)
    assert PRIOR_MONOTONICITY.judge(raw, None, case, 1e-9).holds


def test_normalised_nrg_violates_prior_mono_and_the_raw_score_satisfies_it():
    result = check(parse("NRG(base=nDCG@10)"), "PriorMono", budget=Budget(cases=60, small_scope=400, seconds=10))
    assert result.verdict == "violated"
    ce = result.counterexample
    assert ce.score_b < ce.score_a and ce.context_a != ce.context_b
    raw = check(parse("NRG(base=nDCG@10,norm='none')"), "PriorMono")
    assert raw.verdict == "satisfied" and raw.cases > 0 and raw.small_scope > 0


def test_rare_p_at_alpha_one_breaks_the_stated_maximum():
    result = check(parse("RareP(alpha=1)@10"), "Bounded")
    assert result.verdict == "violated"
    ce = result.counterexample
    claim = dict(ce.extra)["claim"]
    assert "2(S-1)/S" in claim and result.note.startswith(f"fails: {claim}")
    # Ten relevant documents nobody else retrieves, S systems: Q = 1 + (S-1)/S = (2S-1)/S > 2(S-1)/S.
    S = int(dict(ce.extra)["S"])
    assert len(ce.a) == 10 and ce.score_a == pytest.approx((2 * S - 1) / S)
    assert ce.decided == "float"  # 1/S apart: no rounding can explain it


def test_unique_at_10_counts_unique_contributions():
    result = check(parse("Unique@10"), "Unique")
    assert result.verdict == "satisfied" and result.cases > 0 and result.small_scope > 0


@pytest.mark.parametrize("spec", ["RareP(alpha=0.5)@10", "RareAP(alpha=0.5)@10", "NRG(base=nDCG@10)",
                                  "NRG(base=RBP(p=0.8))"])
def test_rev_holds_on_the_builtins(spec):
    result = check(parse(spec), "Rev")
    assert result.verdict == "satisfied" and result.note.startswith("held: ")


@pytest.mark.parametrize("spec", ["FujiiU(policy='error')", "RareP_rev(alpha=0.5)@10"])
def test_finite_fails_where_the_formula_is_undefined(spec):
    result = check(parse(spec), "Finite")
    assert result.verdict == "violated" and "undefined here: " in result.counterexample.note


def test_finite_holds_for_fujii_skipping_undefined_terms():
    assert check(parse("FujiiU(policy='skip')"), "Finite").verdict == "satisfied"


def test_registered_properties_pickle_by_id():
    import pickle

    for prop in PROPERTIES:
        assert pickle.loads(pickle.dumps(prop)) is prop


def test_nrg_does_not_reward_rarity_when_the_rarer_document_tops_a_prior():
    result = check(parse("NRG(base=nDCG@10)"), "Rarity")
    assert result.verdict == "violated" and result.small_scope > 0
    ce = result.counterexample
    # a = (d1), b = (d2); prior 1 = (d2, d1), prior 2 = (d1): G(d1) = (1 - 1/log2(3)) (1 - 1) = 0
    # and G(d2) = 1 - seen(1) = 0, so both score 0 although d2 is retrieved by one system, d1 by two.
    assert (ce.a, ce.b, ce.context_a) == (("d1",), ("d2",), (("d2", "d1"), ("d1",)))
    assert ce.score_a == ce.score_b == 0.0 and ce.decided == "exact"


def test_a_non_finite_score_is_an_error_outside_finite():
    result = check(ToyNan(3), "Rev")
    assert result.verdict == "error" and "non-finite" in result.error.message and result.error.ranking == ()
