"""Deciding a constraint on case structures over the reals (axiometer.proofs.decide, issue 26)."""

from __future__ import annotations

from fractions import Fraction

from axiometer.metrics import wrap
from axiometer.metrics.resolve import resolve
from axiometer.proofs.decide import decide_structure
from axiometer.proofs.relevance_structures import (confidence_structures, deepness_structures,
                                                  priority_structures)
from tests.proofs.examples import branching_gain, float_gain, narrow_band

RHO = Fraction(1, 10)


def capped(ranking, topic):
    """A gain capped at 1/20 (``min`` branches on the value): two values above the cap tie, so Pri fails."""
    return sum(min(topic.r(d), Fraction(1, 20)) / i for i, d in enumerate(ranking, start=1))


def first_verdict(metric, structures, holds):
    for structure in structures:
        verdict = decide_structure(metric, structure, holds)
        if verdict.holds is not True:
            return structure, verdict
    return None, None


def test_pri_on_a_gain_falling_between_two_levels_is_refuted_with_values_in_the_band():
    structure, verdict = first_verdict(wrap(narrow_band), priority_structures(RHO, 3, None), lambda s: s > 0)
    assert verdict is not None and verdict.holds is False
    values = sorted(verdict.values.values())
    assert len(values) == 2 and all(Fraction(700, 10000) < v < Fraction(704, 10000) for v in values)


def test_pri_with_a_branch_on_the_relevance_value_is_proved_on_every_structure():
    structure, verdict = first_verdict(wrap(branching_gain), priority_structures(RHO, 4, None), lambda s: s > 0)
    assert verdict is None


def test_a_cap_reached_by_both_swapped_values_refutes_pri():
    structure, verdict = first_verdict(wrap(capped), priority_structures(RHO, 3, None), lambda s: s > 0)
    assert verdict is not None and verdict.holds is False
    i, j = structure.changed
    assert verdict.values[f"r(d{j})"] > Fraction(1, 20)
    assert verdict.values.get(f"r(d{i})", 0) >= Fraction(1, 20)


def test_rbp_satisfies_pri_deep_and_err_deep_on_every_structure_of_up_to_five_documents():
    for spec, structures in (("RBP", priority_structures), ("RBP", deepness_structures),
                             ("ERR@10", deepness_structures)):
        metric = resolve(spec).metric
        assert first_verdict(metric, structures(RHO, 5, metric.cutoff), lambda s: s > 0) == (None, None)


def test_rbp_violates_conf_on_the_empty_ranking():
    structure, verdict = first_verdict(resolve("RBP").metric, confidence_structures(RHO, 3, None),
                                       lambda s: s < 0)
    assert verdict.holds is False and structure.a == () and len(structure.b) == 1


def test_a_metric_that_needs_floats_is_left_undecided_with_the_reason():
    structure, verdict = first_verdict(wrap(float_gain), priority_structures(RHO, 2, None), lambda s: s > 0)
    assert verdict.holds is None and "float()" in verdict.reason


def test_alpha_ndcgs_greedy_ideal_and_cts_saturation_run_on_symbols():
    # Both read relevance values exactly (a Fraction, or a proof's symbol): alpha-nDCG's greedy
    # ideal ranking branches on the symbols' order, CT's saturation on their running sum.
    for spec in ("alpha_nDCG@10", "CT@10"):
        metric = resolve(spec).metric
        assert first_verdict(metric, deepness_structures(RHO, 4, metric.cutoff), lambda s: s > 0) == (None, None)


def test_a_metric_that_caches_by_topic_is_not_symbolic():
    # A cached result would be reused on another path without that path's decisions.
    import functools

    @functools.lru_cache(maxsize=None)
    def best(topic):
        return max(topic.r(d) for d in topic.documents)

    def cached(ranking, topic):
        return sum(topic.r(d) / i for i, d in enumerate(ranking, start=1)) + best(topic) * 0

    structure, verdict = first_verdict(wrap(cached), priority_structures(RHO, 2, None), lambda s: s > 0)
    assert verdict.holds is None and "caches a result by topic" in verdict.reason
