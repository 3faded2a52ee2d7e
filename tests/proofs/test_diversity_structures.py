"""The case structures of the diversity constraints (axiometer.proofs.diversity_structures, issue 26)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import z3

from axiometer.axioms.constraints.aspect_diversity import ASPECT_DIVERSITY
from axiometer.axioms.constraints.aspect_relevance import ASPECT_RELEVANCE
from axiometer.axioms.constraints.monotonic_redundancy import MONOTONIC_REDUNDANCY
from axiometer.axioms.constraints.redundancy import REDUNDANCY
from axiometer.axioms.constraints.saturation import SATURATION
from axiometer.generators.case import Scope
from axiometer.metrics.decide import compare
from axiometer.metrics.resolve import resolve
from axiometer.proofs.decide import decide_structure
from axiometer.proofs.reals import Real
from axiometer.proofs.diversity_structures import (aspect_diversity_structures, aspect_relevance_structures,
                                                   monotonic_redundancy_structures, redundancy_structures,
                                                   saturation_structures)

RHO = Fraction(1, 10)
RMAX = Fraction(1)

#: constraint, small structures (window ``last``), the scope its conditions are read in.
SMALL = {
    "AspDiv": (ASPECT_DIVERSITY, lambda last: aspect_diversity_structures(RHO, 2, 2, last), Scope(rho=RHO)),
    "Red": (REDUNDANCY, lambda last: redundancy_structures(RHO, 3, last, max_unretrieved=1), Scope(rho=RHO)),
    "MRed": (MONOTONIC_REDUNDANCY, lambda last: monotonic_redundancy_structures(RHO, 2, last, max_unretrieved=1),
             Scope(rho=RHO)),
    "Sat": (SATURATION, lambda last: saturation_structures(RMAX, 3, 2, last), Scope(rho=RHO, rmax=RMAX)),
    "AspRel": (ASPECT_RELEVANCE, lambda last: aspect_relevance_structures(RHO, 3, 3, last), Scope(rho=RHO)),
}

#: constraint -> (a built-in the published table says satisfies it, one it says violates it).
BUILTINS = {
    "AspDiv": ("RBU@10", "NRBP"),
    "Red": ("ERR_IA@10", "RBP_IA"),
    "MRed": ("ERR_IA@10", "NRBP"),
    "Sat": ("ERR_IA@10", "RBP_IA"),
    "AspRel": ("P_IA@10", "NRBP"),
}


def some_values(structure):
    """Values meeting the structure's conditions (a z3 model of its base)."""
    solver = z3.Solver()
    solver.add(*structure.base)
    assert solver.check() == z3.sat, structure.note
    return structure.symbols.values(solver.model())


@pytest.mark.parametrize("constraint_id", sorted(SMALL))
def test_every_small_structure_with_values_meeting_its_conditions_is_a_case_of_its_constraint(constraint_id):
    constraint, structures, scope = SMALL[constraint_id]
    count = 0
    for structure in structures(None):
        assert constraint.satisfies_conditions(structure.case(some_values(structure)), scope), structure.note
        count += 1
    assert count > 0


@pytest.mark.parametrize("constraint_id", sorted(SMALL))
def test_the_changed_positions_stay_inside_the_window_and_structures_come_shortest_first(constraint_id):
    _, structures, _ = SMALL[constraint_id]
    sizes = [structure.docs for structure in structures(2)]
    assert sizes and sizes == sorted(sizes)
    assert all(max(structure.changed) <= 2 for structure in structures(2))


def test_reds_rc_is_one_symbol_below_one_and_within_rho_under_the_nearby_reading():
    structure = next(iter(redundancy_structures(RHO, 1, None)))
    assert set(structure.symbols.symbols) == {"rc"}
    solver = z3.Solver()
    solver.add(*structure.base, structure.symbols.symbols["rc"] > Fraction(9, 10))
    assert solver.check() == z3.sat
    within = next(iter(redundancy_structures(RHO, 1, None, within_rho=True)))
    solver = z3.Solver()
    solver.add(*within.base, within.symbols.symbols["rc"] > RHO)
    assert solver.check() == z3.unsat
    assert REDUNDANCY.satisfies_conditions(within.case(some_values(within)), Scope(rho=RHO, values_within_rho=True))


def test_red_and_mred_judge_unretrieved_documents_that_change_each_aspects_relevant_count():
    for structures in (redundancy_structures(RHO, 1, None, max_unretrieved=2),
                       monotonic_redundancy_structures(RHO, 1, None, max_unretrieved=2)):
        counts = {tuple(sum(1 for d in s.topic.documents if d.startswith("u") and isinstance(s.topic.vector(d)[j], Real))
                        for j in range(len(s.topic.aspects))) for s in structures}
        assert {(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2)} <= counts


def test_asprels_weights_are_symbols_summing_to_one_with_the_heavier_aspect_heavier():
    structure = next(iter(aspect_relevance_structures(RHO, 1, 2, None)))
    weights = [structure.symbols.symbols[f"w({t})"] for t in structure.topic.aspects]
    solver = z3.Solver()
    solver.add(*structure.base, z3.Not(z3.And(weights[0] + weights[1] == 1, weights[1] > weights[0])))
    assert solver.check() == z3.unsat


def first_verdict(metric, structures, holds):
    for structure in structures:
        verdict = decide_structure(metric, structure, holds)
        if verdict.holds is not True:
            return structure, verdict
    return None, None


@pytest.mark.parametrize("constraint_id", sorted(BUILTINS))
def test_a_builtin_the_table_marks_satisfied_is_proved_on_every_small_structure(constraint_id):
    constraint, structures, _ = SMALL[constraint_id]
    metric = resolve(BUILTINS[constraint_id][0]).metric
    assert first_verdict(metric, structures(metric.cutoff), constraint.relation.holds) == (None, None)


@pytest.mark.parametrize("constraint_id", sorted(BUILTINS))
def test_a_builtin_the_table_marks_violated_is_refuted_and_the_exact_path_agrees(constraint_id):
    constraint, structures, scope = SMALL[constraint_id]
    metric = resolve(BUILTINS[constraint_id][1]).metric
    structure, verdict = first_verdict(metric, structures(metric.cutoff), constraint.relation.holds)
    assert verdict is not None and verdict.holds is False, verdict
    case = structure.case(verdict.values)
    assert constraint.satisfies_conditions(case, scope)
    assert not constraint.relation.holds(compare(metric, case.topic, case.a, case.b).sign)


@pytest.mark.parametrize("constraint_id", sorted(SMALL))
def test_each_structure_has_its_own_note_so_an_undecided_one_can_be_named(constraint_id):
    _, structures, _ = SMALL[constraint_id]
    notes = [structure.note for structure in structures(None)]
    assert len(notes) == len(set(notes))


def test_sat_and_asprel_values_stay_within_rho_under_the_nearby_reading():
    scope = Scope(rho=RHO, rmax=RMAX, values_within_rho=True)
    for constraint, structures in ((SATURATION, saturation_structures(RMAX, 2, 2, None, rho=RHO)),
                                   (ASPECT_RELEVANCE, aspect_relevance_structures(RHO, 2, 3, None, within_rho=True))):
        for structure in structures:
            assert constraint.satisfies_conditions(structure.case(some_values(structure)), scope)
            solver = z3.Solver()
            solver.add(*structure.base, z3.Or([symbol > RHO for name, symbol in structure.symbols.symbols.items()
                                               if name.startswith("r(")]))
            assert solver.check() == z3.unsat
