"""The three arithmetics one formula is written against (`axiometer.metrics.arithmetic`,
definitions §5): float64, exact (Fraction, sympy for logarithms) and symbolic (a parameter left as
a sympy symbol, with anchors for the formula's decisions).

Issue 14 (metrics area, m1): values worked out by hand in the comments.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from axiometer.metrics.arithmetic import EXACT, FLOAT, SYMBOLIC, SymbolicArithmetic, exact_to_float

p, q = sympy.symbols("p q", positive=True)


# -- float64 ----------------------------------------------------------------------------------

def test_float_arithmetic():
    assert FLOAT.num(Fraction(1, 4)) == 0.25 and type(FLOAT.num(1)) is float
    assert FLOAT.log2(8) == 3.0 and FLOAT.log2(0.5) == -1.0
    # ratio: n / d, and 0 for a zero normaliser (definitions §2).
    assert FLOAT.ratio(1.0, 4.0) == 0.25 and FLOAT.ratio(3.0, 1.0) == 3.0
    assert FLOAT.ratio(1.0, 0.0) == 0.0 and FLOAT.ratio(0.0, 0.0) == 0.0
    assert FLOAT.result(Fraction(3, 4)) == 0.75 and type(FLOAT.result(Fraction(3, 4))) is float
    assert (FLOAT.exact, FLOAT.zero, FLOAT.one) == (False, 0.0, 1.0)


# -- exact ---------------------------------------------------------------------------------------

def test_exact_numbers_are_read_as_their_shortest_decimal():
    assert EXACT.num(0.8) == Fraction(4, 5) and EXACT.num(0.1) == Fraction(1, 10)
    assert type(EXACT.num(2)) is Fraction


def test_exact_log2_is_a_sympy_logarithm_of_the_exact_value():
    # log2(1/4) = -2 (numerator 1 over denominator 4, not 4 over 1); log2(8) = 3.
    assert EXACT.log2(Fraction(1, 4)) == -2
    assert EXACT.log2(8) == 3 and EXACT.log2(Fraction(8)) == 3
    assert sympy.simplify(EXACT.log2(Fraction(3, 2)) - (sympy.log(3) - sympy.log(2)) / sympy.log(2)) == 0
    # An irrational value stays exact: 2^log2(3) = 3.
    assert sympy.simplify(2 ** EXACT.log2(3)) == 3
    assert EXACT.log2(sympy.Integer(16)) == 4


def test_exact_ratio():
    third = EXACT.ratio(Fraction(1), Fraction(3))
    assert third == Fraction(1, 3) and type(third) is Fraction
    assert EXACT.ratio(Fraction(3), Fraction(1)) == 3            # a denominator of 1 is no zero
    zero = EXACT.ratio(Fraction(5), Fraction(0))
    assert zero == 0 and type(zero) is Fraction
    assert EXACT.ratio(sympy.log(3, 2), 0) == 0
    # A sympy numerator: sympy division, exact: log2(3) / 2.
    half_log = EXACT.ratio(sympy.log(3, 2), Fraction(2))
    assert sympy.simplify(half_log - sympy.log(3, 2) / 2) == 0
    # A sympy denominator with a Fraction numerator: 1 / log2(4) = 1/2.
    assert sympy.simplify(EXACT.ratio(Fraction(1), sympy.log(4, 2)) - sympy.Rational(1, 2)) == 0


def test_exact_result_is_a_fraction_when_rational():
    for value, expected in [(Fraction(2, 3), Fraction(2, 3)), (3, Fraction(3)),
                            (sympy.Rational(5, 7), Fraction(5, 7)), (sympy.log(8, 2), Fraction(3)),
                            (sympy.Integer(-2), Fraction(-2))]:
        got = EXACT.result(value)
        assert got == expected and type(got) is Fraction, value
    irrational = EXACT.result(sympy.log(3, 2))
    assert isinstance(irrational, sympy.Expr) and irrational == sympy.log(3) / sympy.log(2)
    assert (EXACT.exact, EXACT.zero, EXACT.one) == (True, Fraction(0), Fraction(1))


def test_exact_to_float():
    assert exact_to_float(Fraction(1, 3)) == 1 / 3 and type(exact_to_float(2)) is float
    assert exact_to_float(2) == 2.0
    # log2(3) = 1.58496250072115618145... : the float nearest it is math.log2(3).
    assert exact_to_float(sympy.log(3, 2)) == 1.584962500721156
    # Five digits: 1.585 to five digits, no longer the nearest float.
    five = exact_to_float(sympy.log(3, 2), digits=5)
    assert abs(five - 1.585) < 1e-4 and five != 1.584962500721156


# -- symbolic ------------------------------------------------------------------------------------

def test_symbolic_numbers_pass_symbols_through_and_read_the_rest_exactly():
    assert SYMBOLIC.num(p) is p
    assert SYMBOLIC.num(0.8) == sympy.Rational(4, 5) and isinstance(SYMBOLIC.num(0.8), sympy.Rational)
    assert SYMBOLIC.num(Fraction(2, 7)) == sympy.Rational(2, 7)
    assert SYMBOLIC.num(3) == 3 and isinstance(SYMBOLIC.num(3), sympy.Integer)
    assert (SYMBOLIC.exact, SYMBOLIC.zero, SYMBOLIC.one) == (True, 0, 1)


def test_symbolic_log2_and_result():
    assert SYMBOLIC.log2(8) == 3 and SYMBOLIC.log2(0.25) == -2
    assert SYMBOLIC.log2(p) == sympy.log(p, 2)
    assert SYMBOLIC.result(Fraction(1, 2)) == sympy.Rational(1, 2)
    assert SYMBOLIC.result(1 - p) == 1 - p


def test_symbolic_ratio_is_zero_only_for_an_identically_zero_denominator():
    assert SYMBOLIC.ratio(p, 0) == 0 and SYMBOLIC.ratio(1, p - p) == 0
    assert SYMBOLIC.ratio(p, 1) == p                               # 1 is not zero
    assert SYMBOLIC.ratio(0.5, 2) == sympy.Rational(1, 4)
    assert SYMBOLIC.ratio(1, p) == 1 / p                           # symbolic: taken as non-zero
    assert SYMBOLIC.ratio(p, 1 - p) == p / (1 - p)


def test_anchors_are_read_exactly():
    arithmetic = SymbolicArithmetic({p: 0.8, q: Fraction(1, 3)})
    assert arithmetic.anchors == {p: Fraction(4, 5), q: Fraction(1, 3)}
    assert SymbolicArithmetic().anchors == {} and SymbolicArithmetic(None).anchors == {}


def test_anchored_values():
    arithmetic = SymbolicArithmetic({p: 0.8, q: Fraction(1, 3)})
    # A number: read exactly.
    assert arithmetic.anchored(0.25) == Fraction(1, 4) and arithmetic.anchored(2) == 2
    # 2p + q at p = 4/5, q = 1/3: 8/5 + 1/3 = 29/15.
    got = arithmetic.anchored(2 * p + q)
    assert got == Fraction(29, 15) and type(got) is Fraction
    assert arithmetic.anchored(sympy.Rational(3, 7)) == Fraction(3, 7)
    # 1 - p at p = 4/5 is 1/5: numerator and denominator in their places.
    assert arithmetic.anchored(1 - p) == Fraction(1, 5)


def test_anchored_errors_name_what_is_missing():
    r, s = sympy.symbols("r s")
    with pytest.raises(ValueError) as error:
        SymbolicArithmetic({p: 0.5}).anchored(p + r + s)
    assert str(error.value) == "the formula branches on r, s, which has no anchor value"
    with pytest.raises(ValueError) as error:
        SymbolicArithmetic().anchored(s * r)
    assert str(error.value) == "the formula branches on r, s, which has no anchor value"
    # sqrt(p) at p = 2 is sqrt(2): not rational.
    with pytest.raises(ValueError) as error:
        SymbolicArithmetic({p: 2}).anchored(sympy.sqrt(p))
    assert str(error.value) == "sqrt(p) is not rational at the anchors"


def test_each_arithmetic_reads_a_topic_in_its_own_numbers():
    """vector/r/weights: floats from the topic's cached float view, exact fractions, sympy rationals."""
    import sympy

    from axiometer.core import Topic
    from axiometer.metrics.arithmetic import EXACT, FLOAT, SymbolicArithmetic

    topic = Topic({"a": {"s": Fraction(1, 3), "t": 0.2}}, {"s": Fraction(1, 4), "t": Fraction(3, 4)})
    assert FLOAT.vector(topic, "a") == (1 / 3, 0.2) and FLOAT.r(topic, "a") == 1 / 3
    assert FLOAT.weights(topic) == (0.25, 0.75) and FLOAT.vector(topic, "z") == (0.0, 0.0)
    assert EXACT.vector(topic, "a") == (Fraction(1, 3), Fraction(1, 5))
    assert EXACT.r(topic, "a") == Fraction(1, 3) and EXACT.r(topic, "z") == 0
    assert EXACT.weights(topic) == (Fraction(1, 4), Fraction(3, 4))
    assert all(type(x) is Fraction for x in EXACT.vector(topic, "a") + EXACT.weights(topic))
    symbolic = SymbolicArithmetic()
    assert symbolic.vector(topic, "a") == (sympy.Rational(1, 3), sympy.Rational(1, 5))
    assert symbolic.r(topic, "a") == sympy.Rational(1, 3)
    assert symbolic.weights(topic) == (sympy.Rational(1, 4), sympy.Rational(3, 4))


def test_the_whole_window_reads_as_each_document_does():
    from axiometer.core import Topic
    from axiometer.metrics.arithmetic import EXACT, FLOAT, SymbolicArithmetic

    topic = Topic({"a": {"s": Fraction(1, 3), "t": 0}, "b": {"s": 0, "t": Fraction(1, 2)}},
                  {"s": Fraction(1, 2), "t": Fraction(1, 2)})
    window = ["b", "z", "a"]
    for A in (FLOAT, EXACT, SymbolicArithmetic()):
        assert A.vectors(topic, window) == [A.vector(topic, d) for d in window]
        assert A.rs(topic, window) == [A.r(topic, d) for d in window]
    assert FLOAT.vectors(topic, window) == [(0.0, 0.5), (0.0, 0.0), (1 / 3, 0.0)]
    assert FLOAT.rs(topic, iter(window)) == [0.5, 0.0, 1 / 3]
    assert EXACT.rs(topic, window) == [Fraction(1, 2), 0, Fraction(1, 3)]
