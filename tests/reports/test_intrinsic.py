"""Domain strings (``axiometer.generators.domain_spec``) and the intrinsic reports
(``axiometer.reports.intrinsic``), the reports on hand-built results so the
expected texts follow from the records written here."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from fractions import Fraction

import pytest

from axiometer.core import InputError
from axiometer.generators.domain_spec import parse_domain
from axiometer.generators.domains import RankingsDomain, SetsDomain
from axiometer.reports.intrinsic import format_intrinsic, format_parametric, parametric_sentences
from axiometer.results import IntrinsicResult, OutputRecord, ParametricResult, PropertyVerdict

# -- domain strings --------------------------------------------------------------


def test_binary_rankings_by_grade_count():
    domain = parse_domain("rankings(n=4,grades=2)")
    assert isinstance(domain, RankingsDomain)
    # grades=2: the levels {0, 1/(2-1)} = {0, 1}; 2^4 = 16 sequences; R = 4 * 1 non-zero grade.
    assert domain.grades == (Fraction(0), Fraction(1))
    assert (domain.n, domain.lengths_rule, domain.R, domain.size) == (4, "exact", 4, 16)


def test_grade_count_three_is_halves():
    # grades=3: {0, 1/(3-1), 2/(3-1)} = {0, 1/2, 1}; 3^2 = 9 sequences of length 2.
    domain = parse_domain("rankings(n=2, grades=3)")
    assert domain.grades == (Fraction(0), Fraction(1, 2), Fraction(1))
    assert domain.size == 9


def test_grade_set_lengths_and_R():
    domain = parse_domain("rankings(n=3,grades={0,1/2,1},lengths=upto,R=4)")
    assert domain.grades == (Fraction(0), Fraction(1, 2), Fraction(1))
    assert (domain.lengths_rule, domain.R, domain.per_grade) == ("upto", 4, 2)
    # Lengths 0..3 over 3 grades: 1 + 3 + 9 + 27 = 40 sequences, minus those needing 3
    # documents of one non-zero grade (2 per grade): (1/2,1/2,1/2) and (1,1,1) -> 38.
    assert domain.size == 38


def test_decimal_grades_are_read_exactly():
    assert parse_domain("rankings(n=1,grades={0,0.1,1})").grades == (0, Fraction(1, 10), 1)


@pytest.mark.parametrize("text, name, size", [
    # size=8 with R=5: TP in 0..5, FP = 8 - TP in 3..8 <= 15 -> 6 sets.
    ("sets(N=20,R=5,size=8)", "sets(N=20, R=5, size=8)", 6),
    # nonrel=0: TP in 0..5 -> 6 sets.
    ("sets(N=20,R=5,nonrel=0)", "sets(N=20, R=5, nonrel=0)", 6),
    # all subsets by counts: (5 + 1) * (15 + 1) = 96.
    ("sets(N=20, R=5)", "sets(N=20, R=5)", 96),
])
def test_sets(text, name, size):
    domain = parse_domain(text)
    assert isinstance(domain, SetsDomain)
    assert (domain.name, domain.size) == (name, size)


@pytest.mark.parametrize("text, message", [
    ("", "empty domain"),
    ("foo(n=1)", "unknown domain 'foo' at column 1"),
    ("rankings n=1", "expected '(' after 'rankings' at column 10, found 'n'"),
    ("rankings(m=1)", "unknown parameter 'm' of rankings at column 10"),
    ("rankings(n=1,n=2)", "parameter 'n' given twice at column 14"),
    ("rankings(grades=2)", "rankings needs n"),
    ("sets(N=20)", "sets needs R"),
    ("rankings(n=1.5)", "n must be a non-negative integer at column 12, found '1.5'"),
    ("rankings(n=-1)", "n must be a non-negative integer at column 12, found '-1'"),
    ("rankings(n=2,grades=1)", "grades must be a count >= 2 or a set such as {0,1/2,1} at column 21, found '1'"),
    ("rankings(n=2,grades=up)", "grades must be a count >= 2"),
    ("rankings(n=2,lengths=some)", "lengths must be exact or upto at column 22, found 'some'"),
    ("rankings(n=2", "expected ',' or ')' at column 13, found the end"),
    ("rankings(n=2)x", "expected the end of the domain at column 14, found 'x'"),
    ("rankings(n=2;)", "unexpected character ';' at column 13"),
    ("rankings(n=2,grades={0,1)", "expected ',' or '}' in the grade set at column 25, found ')'"),
    ("rankings(n=2,grades={0,1/0})", "non-zero denominator after '/' at column 26, found '0'"),
    ("rankings(n=2,grades={0,2})", "grade 2 is outside [0, 1]"),
    ("rankings(n=2,grades=3,R=3)", "R=3 is not a multiple of the 2 non-zero grades"),
    ("sets(N=5,R=6)", "R=6 exceeds N=5"),
    ("sets(N=20,R={0,1})", "R must be a non-negative integer at column 13, found '{0,1}'"),
    ("rankings(n=)", "expected a value"),
])
def test_domain_errors_name_the_token(text, message):
    with pytest.raises(InputError) as info:
        parse_domain(text)
    text_of_error = str(info.value)
    assert message in text_of_error
    assert "\n" not in text_of_error


# -- reports -----------------------------------------------------------------------

TIE = (OutputRecord(5, "(0, 1, 0, 1)", ("0#1", "1#1", "0#2", "1#2"), 0.25, "1/4"),
       OutputRecord(8, "(1, 0, 0, 0)", ("1#1", "0#1", "0#2", "0#3"), 0.25, "1/4"))
GAPS = (OutputRecord(0, "(0, 0, 0, 0)", ("0#1", "0#2", "0#3", "0#4"), 0.0),
        OutputRecord(1, "(0, 0, 0, 1)", ("0#1", "0#2", "0#3", "1#1"), 0.0625),
        OutputRecord(2, "(0, 0, 1, 0)", ("0#1", "0#2", "1#1", "0#3"), 1 / 12))
HAND = IntrinsicResult(
    "AP", "rankings(n=4, grades={0,1}, lengths=exact, R=4)", 16, "ordinal/pseudometric",
    (PropertyVerdict("pseudometric", True, True, (), "finite"),
     PropertyVerdict("metric", False, True, TIE, "tie"),
     PropertyVerdict("interval", False, True, GAPS, "gaps")),
    distinct=15, resolution=15 / 16, largest_class_size=2, largest_class=TIE, exact=True,
    note="ties and gaps decided exactly")
FLOATY = IntrinsicResult(
    "f", "outputs(3 given)", 3, "ordinal/pseudometric",
    (PropertyVerdict("pseudometric", True, True),
     PropertyVerdict("metric", False, False, TIE[:2], "tie within tolerance"),
     PropertyVerdict("interval", True, False)),
    distinct=2, resolution=2 / 3, largest_class_size=2, largest_class=TIE, exact=False, tolerance=1e-9)


def test_text_report_names_category_domain_and_counterexamples():
    text = format_intrinsic(HAND, "text")
    assert "category:                ordinal/pseudometric" in text
    assert "domain:                  rankings(n=4, grades={0,1}, lengths=exact, R=4)" in text
    assert "size:                    16 outputs" in text
    assert "distinct values:         15, resolution 0.9375 (distinct values / outputs)" in text
    assert "largest collision class: 2 output(s) at 0.25: (0, 1, 0, 1), (1, 0, 0, 0)" in text
    assert "metric       NO   (decided exactly) tie" in text
    lines = text.splitlines()
    start = lines.index("    counterexample to metric (injective: distinct outputs score differently):")
    # One number style (issue 27): the exact 1/4 is the decimal 0.25, which says it exactly.
    assert lines[start + 1:start + 3] == ["      (0, 1, 0, 1)  score 0.25",
                                          "      (1, 0, 0, 0)  score 0.25"]
    # The interval triple has no exact text: its floats print as decimals, as every score does.
    assert "      (0, 0, 0, 1)  score 0.0625" in lines and "      (0, 0, 1, 0)  score 0.0833333" in lines
    assert "pseudometric yes" in text and "counterexample" not in text.split("metric       NO")[0]


def test_every_format_names_the_summary_fields_alike():
    # One list of fields for every format: the page once said "largest class of tied outputs" and
    # "decided" where the text said "largest collision class" and "decisions".
    fields = ["metric", "domain", "category", "size", "distinct values", "largest collision class", "decisions", "note"]
    page = format_intrinsic(HAND, "html")
    assert [f for f in fields if f'<th scope="row">{f}</th>' in page] == fields
    markdown = format_intrinsic(HAND, "markdown")
    assert [f for f in fields if f"| {f} | " in markdown] == fields
    assert "largest class of tied outputs" not in page
    assert '<td>2 output(s) at 0.25: (0, 1, 0, 1), (1, 0, 0, 0)</td>' in page


def test_text_report_states_the_tolerance_of_float_decisions():
    text = format_intrinsic(FLOATY, "text")
    assert "decisions:               tolerance 1e-09" in text
    assert "metric       NO   (decided within tolerance 1e-09)" in text


def test_markdown_report():
    md = format_intrinsic(HAND, "markdown")
    assert md.startswith("## AP on `rankings(n=4, grades={0,1}, lengths=exact, R=4)`: ordinal/pseudometric\n")
    assert "| metric | no | exactly | tie |" in md
    assert "Counterexample to **metric** (injective: distinct outputs score differently):" in md
    assert "- `(0, 1, 0, 1)`: 0.25" in md
    assert "- `(0, 0, 0, 1)`: 0.0625" in md


def test_json_report_is_asdict():
    data = json.loads(format_intrinsic(HAND, "json"))
    assert data["category"] == "ordinal/pseudometric" and data["size"] == 16
    metric = data["properties"][1]
    assert metric["name"] == "metric" and metric["holds"] is False
    assert [r["label"] for r in metric["counterexample"]] == ["(0, 1, 0, 1)", "(1, 0, 0, 0)"]
    assert metric["counterexample"][0]["exact"] == "1/4"


def test_scores_print_in_one_number_style_with_an_exact_value_the_decimal_does_not_say():
    # Issue 27: the report mixed "score 16/125" and "score 0.16", and "0.0625" beside "1/12".
    noisy = IntrinsicResult(
        "RBP(p=0.8)", "rankings(n=3)", 8, "ordinal/metric",
        (PropertyVerdict("interval", False, True, (
            OutputRecord(1, "(0, 0, 1)", (), 0.12799999999999997, "16/125"),
            OutputRecord(2, "(0, 1, 0)", (), 0.15999999999999998),
            OutputRecord(4, "(0, 1, 1)", (), 0.08333333333333333, "1/12"),
            OutputRecord(3, "(1, 1, 0)", (), 0.6180339887498949, "(-1 + sqrt(5))/2")),
            "three consecutive distinct values have unequal gaps"),),
        note="decided exactly")
    text = format_intrinsic(noisy, "text")
    assert "(0, 0, 1)  score 0.128\n" in text and "(0, 1, 0)  score 0.16\n" in text
    assert "(0, 1, 1)  score 0.0833333 (1/12)\n" in text
    assert "(1, 1, 0)  score 0.618034 ((√5 − 1)/2)" in text
    assert "0.127999" not in text and "0.159999" not in text and "16/125" not in text


def test_long_notes_wrap_to_the_width():
    long = IntrinsicResult("AP", "rankings(n=4)", 16, "ordinal/pseudometric",
                           (PropertyVerdict("pseudometric", True, True, (), "finite " * 40),))
    lines = format_intrinsic(long, "text", width=70).splitlines()
    assert all(len(line) <= 70 for line in lines)
    assert sum(line.startswith("  pseudometric yes") for line in lines) == 1


def test_unknown_format():
    with pytest.raises(ValueError, match="unknown report format 'pdf'"):
        format_intrinsic(HAND, "pdf")


@dataclass(frozen=True)
class _Exceptional:
    exact: str
    decimal: float


@dataclass(frozen=True)
class _Parametric:
    metric: str
    param: str
    summary: str
    exceptional: tuple[_Exceptional, ...]
    interval_values: tuple[str, ...]


PARAMETRIC = _Parametric("RBP", "p", "metric for all p in (0,1) except {(sqrt(5) - 1)/2}",
                         (_Exceptional("-1/2 + sqrt(5)/2", 0.6180339887498949),), ("1/2",))


def test_parametric_text_summary_first_then_fields():
    # Any dataclass: its summary, then every field (floats without noise).
    lines = format_parametric(PARAMETRIC, "text").splitlines()
    assert lines[:2] == ["parametric analysis:", "  metric for all p in (0,1) except {(sqrt(5) - 1)/2}"]
    assert "  exceptional:" in lines
    assert "    exact -1/2 + sqrt(5)/2; decimal 0.618034" in lines
    assert "  interval_values:" in lines and "    1/2" in lines


def test_parametric_markdown_and_json():
    md = format_parametric(PARAMETRIC, "markdown")
    assert md.startswith("### Parametric analysis\n\nmetric for all p in (0,1)")
    assert "- **param**: p" in md
    data = json.loads(format_parametric(PARAMETRIC, "json"))
    assert data["exceptional"] == [{"exact": "-1/2 + sqrt(5)/2", "decimal": 0.6180339887498949}]
    with pytest.raises(TypeError):
        format_parametric({"summary": "x"}, "text")


# RBP on binary n=3: (1,0,0) scores (1-p), (0,1,1) scores (1-p)(p + p^2); equal when
# p^2 + p - 1 = 0, p = (sqrt 5 - 1)/2 = 0.6180339887...; equally spaced values only at p = 1/2.
RBP3 = ParametricResult(
    metric="RBP(p=p)", parameter="p", range="(0, 1)", domain="rankings(n=3)", size=8,
    distinct_expressions=8,
    exceptional=(("(-1 + sqrt(5))/2", 0.6180339887498949, "(0, 1, 1)", "(1, 0, 0)"),),
    interval=(("1/2", 0.5),), summary="raw")


def test_parametric_analysis_reads_as_sentences():
    text = format_parametric(RBP3, "text", width=200)
    assert text.splitlines() == [
        "parametric analysis: RBP(p=p) on rankings(n=3) (8 outputs, 8 distinct scores as functions of p)",
        "  a metric for every p in (0, 1) except p = (√5 − 1)/2 ≈ 0.618034, where (0, 1, 1) ties (1, 0, 0);",
        "  an interval scale only at p = 1/2."]
    assert "interval_analysed" not in text and "raw" not in text
    md = format_parametric(RBP3, "markdown")
    assert "- an interval scale only at p = 1/2." in md.splitlines()


@pytest.mark.parametrize("changes, metric, interval", [
    ({"exceptional": (), "interval": (), "interval_ranges": ("(0, 1)",)},
     "a metric for every p in (0, 1);", "an interval scale for every p in (0, 1)."),
    ({"always_tied": ("(0, 1)", "(1, 0)"), "exceptional": (), "interval": (), "interval_analysed": False},
     "a metric for no p in (0, 1): (0, 1) and (1, 0) score the same for every p;",
     "so an interval scale for no value either."),
    ({"interval": (), "interval_analysed": False},
     None, "the interval scale was not analysed."),
    ({"interval": ()}, None, "an interval scale for no p in (0, 1)."),
    ({"exceptional": (("1/3", 1 / 3, "a", "b"), ("(-1 + sqrt(5))/2", 0.6180339887498949, "c", "d"))},
     "a metric for every p in (0, 1) except p = 1/3, where a ties b, and p = (√5 − 1)/2 ≈ 0.618034, "
     "where c ties d;", None),
])
def test_parametric_sentences_cover_every_case(changes, metric, interval):
    first, second = parametric_sentences(dataclasses.replace(RBP3, **changes))
    assert metric is None or first == metric
    assert interval is None or second == interval
