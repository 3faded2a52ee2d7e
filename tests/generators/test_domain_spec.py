"""The ``--domain`` spec parser (axiometer.generators.domain_spec), pinned to its documented contract.

docs/intrinsic.md: "A mistake is one error line naming the token and its column", and the
domains the strings build are those of docs/definitions.md §4.2. The error texts below are the
whole message (``domain '<text>': <problem>``); every column is counted by hand, 1-based, in the
stripped text.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import InputError
from axiometer.generators.domain_spec import parse_domain
from axiometer.generators.domains import RankingsDomain, SetsDomain, UsersDomain

F = Fraction


# -- what the strings build ------------------------------------------------------------------


@pytest.mark.parametrize("text, name, grades, size", [
    # grades=2: the levels {0, 1/(2-1)} = {0, 1}; 2^4 = 16 sequences; R = 4 documents x 1 grade.
    ("rankings(n=4,grades=2)", "rankings(n=4, grades={0,1}, lengths=exact, R=4)", (0, 1), 16),
    # grades=4: {0, 1/3, 2/3, 1}; 4^1 sequences of length 1; R = 1 x 3 non-zero grades.
    ("rankings(n=1,grades=4)", "rankings(n=1, grades={0,1/3,2/3,1}, lengths=exact, R=3)",
     (0, F(1, 3), F(2, 3), 1), 4),
    # grades=3: {0, 1/2, 1}; 3^2 = 9; R = 2 x 2.
    ("rankings(n=2, grades=3)", "rankings(n=2, grades={0,1/2,1}, lengths=exact, R=4)",
     (0, F(1, 2), 1), 9),
    # n=0 is allowed: the one empty ranking; default grades {0,1}, R = 0 x 1.
    ("rankings(n=0)", "rankings(n=0, grades={0,1}, lengths=exact, R=0)", (0, 1), 1),
    # A grade set with fractions (1/4 read as 1 divided by 4), lengths=upto and R=2: one document
    # per non-zero grade. Lengths 0, 1, 2 over 3 grades: 1 + 3 + 9 = 13, minus (1/4,1/4) and
    # (1/2,1/2), which need two documents of one grade -> 11.
    ("rankings(n=2,grades={0,1/4,1/2},lengths=upto,R=2)",
     "rankings(n=2, grades={0,1/4,1/2}, lengths=upto, R=2)",
     (0, F(1, 4), F(1, 2)), 11),
    # Decimals read exactly (0.5 -> 1/2), 2/4 reduced; no 0 grade: 2^1 sequences, R = 1 x 2.
    ("rankings(n=1,grades={0.5, 2/4, 1},lengths=exact)",
     "rankings(n=1, grades={1/2,1}, lengths=exact, R=2)", (F(1, 2), 1), 2),
])
def test_rankings_strings_build_the_documented_domain(text, name, grades, size):
    domain = parse_domain(text)
    assert isinstance(domain, RankingsDomain)
    assert (domain.name, domain.grades, domain.size) == (name, grades, size)


@pytest.mark.parametrize("text, name, size", [
    # size=8 with R=5: TP in 0..5, FP = 8 - TP in 3..8 <= 15 -> 6 sets.
    ("sets(N=20,R=5,size=8)", "sets(N=20, R=5, size=8)", 6),
    # nonrel=0: TP in 0..1 -> 2 sets.
    ("sets( N=3 , R=1 , nonrel=0 )", "sets(N=3, R=1, nonrel=0)", 2),
    # (1 + 1)(2 - 1 + 1) = 4 count pairs.
    ("sets(R=1,N=2)", "sets(N=2, R=1)", 4),
])
def test_sets_strings(text, name, size):
    domain = parse_domain(text)
    assert isinstance(domain, SetsDomain)
    assert (domain.name, domain.size) == (name, size)


def test_users_string_with_effort():
    domain = parse_domain("users(U=2,unknown=1,wanted=1,examined=3)")
    assert isinstance(domain, UsersDomain)
    # (2 + 1)(1 + 1) count pairs, times examined in 1..3.
    assert (domain.name, domain.size) == ("users(U=2, unknown=1, wanted=1, examined=3)", 18)


# -- errors: one line naming the token and its column ----------------------------------------------

EMPTY = "empty domain; expected e.g. 'rankings(n=4,grades=2)' or 'sets(N=20,R=5,size=8)'"


@pytest.mark.parametrize("text", ["", "   ", None])
def test_empty_domain(text):
    with pytest.raises(InputError) as info:
        parse_domain(text)
    assert str(info.value) == EMPTY


GRADES = "grades must be a count >= 2 or a set such as {0,1/2,1}"
VALUE = "expected a value (an integer, a word or a grade set {...})"


@pytest.mark.parametrize("text, problem", [
    ("(n=1)", "expected a domain name (rankings, sets, users) at column 1, found '('"),
    ("foo(n=1)", "unknown domain 'foo' at column 1; known: rankings, sets, users"),
    ("rankings n=1", "expected '(' after 'rankings' at column 10, found 'n'"),
    ("rankings(1=2)", "expected a parameter name at column 10, found '1'"),
    ("rankings(m=1)", "unknown parameter 'm' of rankings at column 10; parameters: n, grades, lengths, R"),
    ("sets(N=1,N=2)", "parameter 'N' given twice at column 10"),
    ("rankings(n 1)", "expected '=' after parameter 'n' at column 12, found '1'"),
    ("rankings(n=2", "expected ',' or ')' at column 13, found the end"),
    ("rankings(n=2)x", "expected the end of the domain at column 14, found 'x'"),
    ("rankings(n=2;)", "unexpected character ';' at column 13"),
    # Every missing required parameter is named.
    ("sets()", "sets needs N, R; e.g. sets(N=20,R=5,size=8)"),
    ("users(unknown=1)", "users needs U; e.g. users(U=5,unknown=5)"),
    ("rankings(grades=2)", "rankings needs n; e.g. rankings(n=4,grades=2)"),
    ("rankings(n=)", f"{VALUE} at column 12, found ')'"),
    ("rankings(n=()", f"{VALUE} at column 12, found '('"),
    # Grade sets: '{' is column 21 in "rankings(n=2,grades={".
    ("rankings(n=2,grades={x})", "expected a number at column 22, found 'x'"),
    ("rankings(n=2,grades={0,x})", "expected a number at column 24, found 'x'"),
    ("rankings(n=2,grades={0,1)", "expected ',' or '}' in the grade set at column 25, found ')'"),
    ("rankings(n=2,grades={0,1/0})", "expected a non-zero denominator after '/' at column 26, found '0'"),
    ("rankings(n=2,grades={0,1/x})", "expected a non-zero denominator after '/' at column 26, found 'x'"),
    ("rankings(n=2,grades={0,1/})", "expected a non-zero denominator after '/' at column 26, found '}'"),
    # Values of the wrong kind name the value's whole text.
    ("rankings(n=1.5)", "n must be a non-negative integer at column 12, found '1.5'"),
    ("rankings(n=-1)", "n must be a non-negative integer at column 12, found '-1'"),
    ("rankings(n=2,R=1/2)", "R must be a non-negative integer at column 16, found '1/2'"),
    ("sets(N=20,R={0,1})", "R must be a non-negative integer at column 13, found '{0,1}'"),
    ("sets(N=x,R=1)", "N must be a non-negative integer at column 8, found 'x'"),
    ("users(U=1,unknown=up)", "unknown must be a non-negative integer at column 19, found 'up'"),
    ("rankings(n=2,grades=1)", f"{GRADES} at column 21, found '1'"),
    ("rankings(n=2,grades=5/2)", f"{GRADES} at column 21, found '5/2'"),
    ("rankings(n=2,grades=up)", f"{GRADES} at column 21, found 'up'"),
    ("rankings(n=2,lengths=some)", "lengths must be exact or upto at column 22, found 'some'"),
    ("rankings(n=2,lengths=2)", "lengths must be exact or upto at column 22, found '2'"),
    # The domain builders' own checks, as one line under the same source.
    ("rankings(n=2,grades={0,2})", "rankings: grade 2 is outside [0, 1]"),
    ("sets(N=5,R=6)", "sets: R=6 exceeds N=5"),
    ("users(U=1,unknown=1,wanted=3,examined=2)", "users: examined=2 is below wanted=3"),
])
def test_domain_error_is_one_line_naming_the_token(text, problem):
    with pytest.raises(InputError) as info:
        parse_domain(text)
    assert str(info.value) == f"domain {text!r}: {problem}"


def test_error_columns_count_in_the_stripped_text():
    # " rankings(n= 1.5 ) " is stripped first: '1.5' starts at column 13 and is named without
    # the spaces around it.
    with pytest.raises(InputError) as info:
        parse_domain(" rankings(n= 1.5 ) ")
    assert str(info.value) == ("domain 'rankings(n= 1.5 )': "
                               "n must be a non-negative integer at column 13, found '1.5'")
