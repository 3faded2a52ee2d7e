"""A proof's decided formula, exported as SMT-LIB 2, is re-checked by a second solver (cvc5, issue 26)."""

from __future__ import annotations

import cvc5
import z3

from axiometer.axioms.constraints.priority import PRIORITY
from axiometer.checking import Budget, check
from axiometer.evidence import Strength
from axiometer.metrics import wrap
from axiometer.results import Verdict
from tests.proofs.examples import branching_gain


def cvc5_answer(script: str) -> str:
    """What cvc5 answers to an SMT-LIB 2 script (its last command's output)."""
    solver = cvc5.Solver(cvc5.TermManager())
    parser = cvc5.InputParser(solver)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, script, "proof")
    symbols, answer = parser.getSymbolManager(), ""
    while True:
        command = parser.nextCommand()
        if command.isNull():
            return answer
        answer = command.invoke(solver, symbols).strip() or answer


def proved_formula() -> str:
    result = check(wrap(branching_gain), PRIORITY,
                   budget=Budget(cases=30, small_scope=30, proof_docs=3, proof_formulas=True))
    assert result.verdict is Verdict.SATISFIED and result.evidence.strength is Strength.PROVED
    (formula,) = result.evidence.proof.formulas
    return formula


def test_a_proofs_formula_is_unsatisfiable_for_cvc5_as_for_z3():
    formula = proved_formula()
    assert formula.startswith("(set-logic QF_NRA)") and formula.rstrip().endswith("(check-sat)")
    assert cvc5_answer(formula) == "unsat"
    solver = z3.Solver()
    solver.from_string(formula)
    assert solver.check() == z3.unsat


def test_the_formula_without_its_last_assertion_is_satisfiable_so_cvc5_decides_something():
    """The last assertion is the relation's failure: dropping it leaves a satisfiable path."""
    formula = proved_formula()
    head, _, _ = formula.rstrip().rpartition("(assert")
    assert cvc5_answer(head + "(check-sat)\n") == "sat"
