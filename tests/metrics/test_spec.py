"""Spec strings: parsed by a real parser, errors name the bad token."""

from fractions import Fraction

import pytest

from axiometer.core import InputError
from axiometer.metrics import describe, families, family, parse, parse_spec, TABLE_ROWS


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
