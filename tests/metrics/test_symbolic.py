"""A built-in's score with one parameter left as a sympy symbol (`axiometer.metrics.symbolic`,
definitions §3-§4). Issue 14 (metrics area, m1): expected expressions worked out by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from axiometer.core import Topic
from axiometer.metrics import parse
from axiometer.metrics.symbolic import SymbolicError, symbolic_score, with_symbol

p = sympy.Symbol("p", positive=True)
alpha = sympy.Symbol("alpha", positive=True)
TOPIC = Topic.single({"a": Fraction(1, 2), "b": Fraction(1, 4), "c": 0})


def test_with_symbol_is_a_copy_with_the_symbol_in_attribute_and_params():
    metric = parse("RBP(p=0.5)@5")
    clone = with_symbol(metric, "p", p)
    assert clone is not metric and clone.p is p and clone.params == {"p": p}
    assert clone.cutoff == 5
    assert metric.p == 0.5 and metric.params == {"p": 0.5}      # the original is untouched
    rbu = parse("RBU(p=0.8,e=0.05)")
    clone = with_symbol(rbu, "e", p)
    assert clone.params == {"p": 0.8, "e": p, **{k: v for k, v in rbu.params.items() if k not in "pe"}}
    assert clone.e is p and clone.p == 0.8


def test_rbp_is_its_polynomial_in_p():
    # RBP = (1 - p)(r_1 + r_2 p + r_3 p^2) = (1 - p)(1/2 + p/4) for ranking (a, b, c).
    expr = symbolic_score(parse("RBP"), "p", p, ["a", "b", "c"], TOPIC)
    assert isinstance(expr, sympy.Expr)
    assert sympy.expand(expr - (1 - p) * (sympy.Rational(1, 2) + p / 4)) == 0
    # At p = 1/2: (1/2)(1/2 + 1/8) = 5/16, the exact score.
    assert expr.subs(p, sympy.Rational(1, 2)) == sympy.Rational(5, 16)
    assert parse("RBP(p=0.5)").exact(["a", "b", "c"], TOPIC) == Fraction(5, 16)
    # An empty ranking: 0, as a sympy value.
    assert symbolic_score(parse("RBP"), "p", p, [], TOPIC) == 0


def test_a_formula_that_branches_on_its_parameter_needs_an_anchor():
    metric = parse("alpha_nDCG(alpha=0.5)@3")
    with pytest.raises(SymbolicError) as error:
        symbolic_score(metric, "alpha", alpha, ["a", "b"], TOPIC)
    assert str(error.value) == ("alpha_nDCG: the formula cannot be evaluated with a symbolic alpha "
                                "(ValueError: the formula branches on alpha, which has no anchor value)")
    assert isinstance(error.value.__cause__, ValueError)
    # Anchored at 1/2 the expression, taken at alpha = 1/2, is the exact score there.
    expr = symbolic_score(metric, "alpha", alpha, ["b", "a"], TOPIC, anchor=Fraction(1, 2))
    value = sympy.nsimplify(expr.subs(alpha, sympy.Rational(1, 2)))
    assert sympy.simplify(value - sympy.sympify(metric.exact(["b", "a"], TOPIC))) == 0
    # One aspect: a (1/2) and b (1/4) share it, so the second one's gain is (1 - alpha) times its r:
    # alpha-nDCG of (b, a) = (1/4 + (1/2)(1 - alpha)/log2(3)) / (1/2 + (1/4)(1 - alpha)/log2(3)),
    # the ideal being greedy's (a, b).
    log3 = sympy.log(3, 2)
    expected = ((sympy.Rational(1, 4) + (1 - alpha) / 2 / log3)
                / (sympy.Rational(1, 2) + (1 - alpha) / 4 / log3))
    assert sympy.simplify(expr - expected) == 0


def test_symbolic_alpha_ndcg_keeps_its_ideal_to_the_cutoff():
    """More relevant documents than the cutoff: the symbolic ideal stops at k as the exact one does,
    so the formula at alpha = 1/2 is the exact score there."""
    topic = Topic({"a": {"x": 1, "y": 0}, "b": {"x": 1, "y": 1}, "c": {"x": 0, "y": 1},
                   "d": {"x": 1, "y": 1}}, {"x": Fraction(1, 2), "y": Fraction(1, 2)})
    metric = parse("alpha_nDCG@2")
    expr = symbolic_score(metric, "alpha", alpha, ["a", "c", "b"], topic, anchor=Fraction(1, 2))
    exact = parse("alpha_nDCG(alpha=0.5)@2").exact(["a", "c", "b"], topic)
    assert abs(sympy.N(expr.subs(alpha, sympy.Rational(1, 2)) - exact, 50)) < sympy.Float("1e-40")
