"""Spec strings: parsed by a real parser, errors name the bad token."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.core import InputError
from axiometer.metrics import describe, families, family, parse, parse_spec, TABLE_ROWS
from tests.errors import one_line_error
from axiometer.metrics.spec import MAX_NESTING, MAX_NUMBER, ParsedSpec, TokenStream, _TOKEN


@pytest.mark.parametrize("spec, family_name, params, cutoff", [
    ("nDCG@10", "nDCG", {}, 10),
    ("RBP(p=0.9)", "RBP", {"p": 0.9}, None),
    ("alpha_nDCG(alpha=0.5)@20", "alpha_nDCG", {"alpha": 0.5}, 20),
    ("RBU(p=0.99,e=0.05)@20", "RBU", {"p": 0.99, "e": 0.05}, 20),
    ("RBU(p=0.8,e=0.03,form='reference')", "RBU", {"p": 0.8, "e": 0.03, "form": "reference"}, None),
    ('RBU(form="paper")', "RBU", {"form": "paper"}, None),
    ("RBU(form=reference)", "RBU", {"form": "reference"}, None),
    (" RBP ( p = 1/2 ) ", "RBP", {"p": Fraction(1, 2)}, None),
    ("EU(alpha=0.5,e=1e-3)", "EU", {"alpha": 0.5, "e": 0.001}, None),
    ("AP()", "AP", {}, None),
])
def test_grammar(spec, family_name, params, cutoff):
    parsed = parse_spec(spec)
    assert (parsed.family, parsed.params, parsed.cutoff) == (family_name, params, cutoff)


@pytest.mark.parametrize("spec, fragment", [
    ("nDCG@x", "positive integer cutoff after '@' at column 6, found 'x'"),
    ("nDCG@0", "positive integer cutoff"),
    ("nDCG@1.5", "positive integer cutoff"),
    ("RBP(p=)", "a value (number, string or metric) at column 7, found ')'"),
    ("RBP(p=0.8", "',' or ')' at column 10, found the end"),
    ("RBP(p=0.8,p=0.9)", "parameter 'p' given twice"),
    ("RBP(0.8)", "parameter name at column 5"),
    ("P@10 junk", "end of the spec"),
    ("P$10", "unexpected character '$' at column 2"),
    ("", "empty metric spec"),
    ("RBP(p=1/0)", "non-zero denominator"),
])
def test_syntax_errors_name_the_token(spec, fragment):
    with pytest.raises(InputError) as error:
        parse_spec(spec)
    assert fragment in str(error.value)


def test_unknown_metric_lists_known_ones_and_suggests():
    with pytest.raises(InputError) as error:
        parse("nDGC@10")
    message = str(error.value)
    assert "unknown metric 'nDGC'" in message and "did you mean 'nDCG'" in message
    assert all(name in message for name in ("P", "RBU", "alpha_nDCG"))
    assert "\n" not in message


def test_bad_parameters_list_the_declared_ones():
    with pytest.raises(InputError) as error:
        parse("nDCG(q=1)@10")
    assert "unknown parameter 'q'" in str(error.value)
    with pytest.raises(InputError) as error:
        parse("ERR(k=3)")
    assert "ERR takes no parameters" in str(error.value)
    with pytest.raises(InputError) as error:
        parse("P(k=3)")
    assert "unknown parameter 'k' (parameters: rel)" in str(error.value)


def test_cutoff_rules():
    assert parse("P").name == "P@10"  # a required cutoff takes its default
    assert parse("nDCG").cutoff is None


def test_every_family_is_documented_and_round_trips():
    for name in families():
        cls = family(name)
        assert cls.family == name
        doc = cls.__doc__ or ""
        assert "=" in doc, f"{name}: the docstring must give the formula"
        metric = parse(name)
        assert parse(metric.name).name == metric.name
        assert name in describe(name)


def test_table_rows_are_the_twenty_metrics():
    assert len(TABLE_ROWS) == 20
    assert len({spec for _, spec in TABLE_ROWS}) == 20
    for _, spec in TABLE_ROWS:
        assert parse(spec).name == spec


def test_a_parameter_may_be_a_nested_metric_spec():
    assert parse_spec("NRG(base=nDCG@10)").params == {"base": "nDCG@10"}
    nested = parse_spec("NRG(base=RBP(p=0.8),norm=none)@5")
    assert nested.params == {"base": "RBP(p=0.8)", "norm": "none"} and nested.cutoff == 5
    with pytest.raises(InputError, match="column 15"):
        parse_spec("NRG(base=nDCG@x)")


# Spec strings (`axiometer.metrics.spec`): the grammar's every production, and errors that are one
# line naming the source, the token and its 1-based column. Issue 14 (metrics area, m1).
#
# The expected messages are the format the module promises: ``metric '<spec>': expected <what> at
# column <n>, found <token>`` (``the end`` past the last token).

def message(spec) -> str:
    return one_line_error(parse_spec, spec)


@pytest.mark.parametrize("spec, expected", [
    ("P$10", "metric 'P$10': unexpected character '$' at column 2"),
    ("RBP(p=0.8;", "metric 'RBP(p=0.8;': unexpected character ';' at column 10"),
    ("  P$10  ", "metric 'P$10': unexpected character '$' at column 2"),   # columns of the stripped spec
    ("nDCG@x", "metric 'nDCG@x': expected a positive integer cutoff after '@' at column 6, found 'x'"),
    ("nDCG@", "metric 'nDCG@': expected a positive integer cutoff after '@' at column 6, found the end"),
    ("nDCG@+5", "metric 'nDCG@+5': expected a positive integer cutoff after '@' at column 6, found '+5'"),
    ("nDCG@0", "metric 'nDCG@0': expected a positive integer cutoff after '@' at column 6, found '0'"),
    ("RBP(p=0.8", "metric 'RBP(p=0.8': expected ',' or ')' at column 10, found the end"),
    ("RBP(p 0.8)", "metric 'RBP(p 0.8)': expected '=' after parameter 'p' at column 7, found '0.8'"),
    ("RBP(p=0.8,p=0.9)", "metric 'RBP(p=0.8,p=0.9)': parameter 'p' given twice at column 11"),
    ("RBP(,)", "metric 'RBP(,)': expected a parameter name at column 5, found ','"),
    ("RBP(p=0.5,)", "metric 'RBP(p=0.5,)': expected a parameter name at column 11, found ')'"),
    ("(p=1)", "metric '(p=1)': expected a metric name at column 1, found '('"),
    ("RBP(p=)", "metric 'RBP(p=)': expected a value (number, string or metric) at column 7, found ')'"),
    ("RBP(p=1/x)", "metric 'RBP(p=1/x)': expected a non-zero denominator after '/' at column 9, found 'x'"),
    ("RBP(p=1/0.0)", "metric 'RBP(p=1/0.0)': expected a non-zero denominator after '/' at column 9, found '0.0'"),
    ("P@10 junk", "metric 'P@10 junk': expected the end of the spec (or '(' / '@') at column 6, found 'junk'"),
    ("P(rel=1)x", "metric 'P(rel=1)x': expected the end of the spec (or '(' / '@') at column 9, found 'x'"),
])
def test_errors_name_the_token_and_its_column(spec, expected):
    assert message(spec) == expected


@pytest.mark.parametrize("spec", [None, "", "   ", 10])
def test_an_empty_spec(spec):
    assert message(spec) == "empty metric spec; expected e.g. 'nDCG@10'"


@pytest.mark.parametrize("spec, parsed", [
    ("nDCG@01", ParsedSpec("nDCG", {}, 1)),
    ("nDCG @ 3", ParsedSpec("nDCG", {}, 3)),
    ("AP( )", ParsedSpec("AP", {}, None)),
    ("X(a=3,b=-2,c=+4)", ParsedSpec("X", {"a": 3, "b": -2, "c": 4}, None)),
    ("X(a=1e3,b=2.,c=.5)", ParsedSpec("X", {"a": 1000.0, "b": 2.0, "c": 0.5}, None)),
    ("X(a=1/4,b=0.5/2,c=-3/6)", ParsedSpec("X", {"a": Fraction(1, 4), "b": Fraction(1, 4), "c": Fraction(-1, 2)}, None)),
    ("X(a='q r',b=\"s\",c=word)", ParsedSpec("X", {"a": "q r", "b": "s", "c": "word"}, None)),
    ("NRG(base= RBP(p=0.8) ,norm=none)@5", ParsedSpec("NRG", {"base": "RBP(p=0.8)", "norm": "none"}, 5)),
    ("NRG(base=nDCG@10)", ParsedSpec("NRG", {"base": "nDCG@10"}, None)),
    ("NRG(base=NRG(base=P@3))", ParsedSpec("NRG", {"base": "NRG(base=P@3)"}, None)),
])
def test_grammar_productions(spec, parsed):
    got = parse_spec(spec)
    assert got == parsed
    # ints stay ints, decimals floats, a/b Fractions
    assert [type(v) for v in got.params.values()] == [type(v) for v in parsed.params.values()]


def test_numbers_keep_their_type():
    params = parse_spec("X(a=3,b=3.0,c=3/1)").params
    assert type(params["a"]) is int and type(params["b"]) is float and type(params["c"]) is Fraction


def nested(depth: int) -> str:
    return "NRG(base=" * depth + "P@1" + ")" * depth


def test_nesting_is_limited():
    assert parse_spec(nested(MAX_NESTING)).family == "NRG"           # 16 levels: fine
    text = message(nested(MAX_NESTING + 1))   # the echoed spec is cut at 120 characters
    assert text.startswith("metric 'NRG(base=") and text.endswith("…: metrics nested deeper than 16 levels")
    # Many metrics side by side are not deep: the depth goes down at each ')'.
    wide = "X(" + ",".join(f"a{i}=B(c=1)" for i in range(MAX_NESTING + 3)) + ")"
    assert len(parse_spec(wide).params) == MAX_NESTING + 3


def test_parentheses_inside_quotes_do_not_nest():
    deep = "(" * (MAX_NESTING + 2)
    assert parse_spec(f"X(a='{deep}')").params == {"a": deep}
    assert parse_spec(f'X(a="{deep}")').params == {"a": deep}
    # A closed string ends the quote: the nesting after it counts again.
    assert "nested deeper" in message("X(a='x',b=" + nested(MAX_NESTING) + ")")
    # A double quote inside single quotes does not end them (nor the reverse).
    assert parse_spec("X(a='\"" + deep + "')").params == {"a": '"' + deep}


def test_numbers_are_limited_in_length():
    thirty = "0." + "1" * (MAX_NUMBER - 2)
    assert parse_spec(f"RBP(p={thirty})").params == {"p": float(thirty)}
    longer = thirty + "1"
    assert message(f"RBP(p={longer})") == (
        f"metric 'RBP(p={longer})': a number longer than 30 characters (at {longer!r})")


def test_token_stream_columns_and_end():
    stream = TokenStream(" ab ( 1", _TOKEN, "here")
    assert [(t.category, t.text, t.column) for t in stream.tokens] == [
        ("name", "ab", 2), ("punct", "(", 5), ("number", "1", 7), ("end", "", 8)]
    assert stream.take().text == "ab" and stream.peek().text == "("
    assert stream.expect("(", "a paren").column == 5
    with pytest.raises(InputError) as error:
        stream.expect(")", "a closing paren")
    assert str(error.value) == "here: expected a closing paren at column 7, found '1'"
    assert stream.take().text == "1" and stream.peek().category == "end"
    assert str(stream.fail("more")) == "here: expected more at column 8, found the end"
    assert str(stream.error("bad")) == "here: bad"


@pytest.mark.parametrize("spec, expected", [
    # Another punctuation mark where '=' or ')' belongs is still the wrong one.
    ("RBP(p,0.5)", "metric 'RBP(p,0.5)': expected '=' after parameter 'p' at column 6, found ','"),
    ("RBP(p=0.5,q=1(", "metric 'RBP(p=0.5,q=1(': expected ',' or ')' at column 14, found '('"),
    # A number followed by '@' is a number, not a nested metric.
    ("RBP(p=0.5@3", "metric 'RBP(p=0.5@3': expected ',' or ')' at column 10, found '@'"),
])
def test_a_wrong_punctuation_mark_is_named(spec, expected):
    assert message(spec) == expected
