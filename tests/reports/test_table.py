"""Reports of a constraint table: every format on a hand-built TableResult
(so the expected marks and texts follow from the cells written here), the
comparison section, and ``format_check``."""

from __future__ import annotations

import dataclasses
import json
import re
from fractions import Fraction
from html import escape
from html.parser import HTMLParser

import pytest

from axiometer.axioms.published import compare_with_published
from axiometer.reports.table import FLAGS, MARKS, REPORT_FORMATS, cell_mark, format_check, format_table
from axiometer.reports.table.cells import counterexample_sentence
from axiometer.reports.table.build import POINTER
from axiometer.results import (
    AxiomInfo, Boundary, BoundaryCurve, Cell, Certain, Check, Counterexample, ErrorInfo, Evidence, NearbyReading,
    RootForm, Side,
    TableResult, TopicRecord, Verdict, Witness,
)
from tests.cli_run import matrix_rows

TWO_ASPECTS = TopicRecord(aspects=("t1", "t2"), weights=("1/2", "1/2"),
                          judgments=(("d1", ("1/10", "0")), ("d2", ("0", "1/10"))))
SINGLE = TopicRecord(aspects=("*",), weights=("1",), judgments=(("d1", ("0",)), ("d2", ("1/10",))))
LONG = TopicRecord(aspects=("*",), weights=("1",),
                   judgments=tuple((f"r{i}", ("1/100",)) for i in range(1, 65)))

PRI_CX = Counterexample(topic=SINGLE, a=("d1", "d2"), b=("d2", "d1"), score_a=0.1, score_b=0.1,
                        relation="Q(b) > Q(a)", note="b = a with positions 1 and 2 swapped",
                        decided="exact")
RED_CX = Counterexample(topic=TWO_ASPECTS, a=("d1",), b=("d2",), score_a=0.25, score_b=0.125,
                        relation="Q(b) > Q(a)", note="b = P + y", decided="float",
                        extra=(("rc", "1/10"),))
LONG_CX = Counterexample(topic=LONG, a=("r1", *(f"n{i}" for i in range(1, 128))),
                         b=(*(f"n{i}" for i in range(1, 65)), *(f"r{i}" for i in range(1, 65))),
                         score_a=0.005, score_b=1e-20, relation="Q(b) > Q(a)",
                         note="no grid m gives Q(b) > Q(a)", decided="float",
                         extra=(("rc", "1/100"), ("m", "64"), ("signs", "m=1..64: +")), signs="m=1..64: +")


#: What the sample table's columns mean (the runner fills these from the constraints).
AXIOMS = (AxiomInfo("Pri", "Priority", "A metric that violates it can score a ranking no higher after a "
                    "more relevant document moves up.", "Q(b) > Q(a)", (), "SIGIR 2018, Eq. 1",
                    "should score higher than a"),
          AxiomInfo("DeepTh", "Deepness threshold", "A metric that violates it rewards relevant "
                    "documents however deep they lie.", "eventually Q(a_n) > Q(b_n)", (), "Eq. 3"),
          AxiomInfo("Red", "Redundancy", "A metric that violates it does not prefer a document on a "
                    "less covered aspect.", "Q(b) > Q(a)", (), "Eq. 7"))


def check(metric, constraint, verdict, params=(), **kw):
    return Check(constraint=constraint, metric=metric, params=params, verdict=verdict,
                 mode=kw.pop("mode", "window"), **kw)


def cell(row, metric, constraint, checks, **kw):
    default = checks[0]
    return Cell(row=row, metric=metric, constraint=constraint, verdict=default.verdict,
                summary=kw.pop("summary", default.verdict), checks=tuple(checks), **kw)


def sample_table(interrupted=False, axioms=AXIOMS) -> TableResult:
    cells = [
        cell("P@k", "P@10", "Pri", [check("P@10", "Pri", "violated", counterexample=PRI_CX,
                                          cases=0, small_scope=1)],
             other_mode="violated", explanation="holds when no later document is relevant",
             reading=NearbyReading.CONSTRAINT),
        cell("P@k", "P@10", "DeepTh", [check("P@10", "DeepTh", "witness", mode="truncate",
                                             witness=Witness("n = 6", "for every rc tried",
                                                             "rc = 1/10: n=1..5: -, n=6..64: +", True,
                                                             signs_by_rc=("rc = 1/10: n=1..5: -, n=6..64: +",)))]),
        cell("P@k", "P@10", "Red", [check("P@10", "Red", "violated", counterexample=RED_CX)],
             projected=True),
        cell("RBP", "RBP(p=0.8)", "Pri", [check("RBP(p=0.8)", "Pri", "satisfied", (("p", 0.8),),
                                                cases=150, small_scope=192)]),
        cell("RBP", "RBP(p=0.8)", "DeepTh", [
            check("RBP(p=0.8)", "DeepTh", "witness", (("p", 0.8),), mode="truncate",
                  witness=Witness("m = 2", "for every rc tried")),
            check("RBP(p=0.5)", "DeepTh", "violated", (("p", 0.5),), mode="truncate",
                  counterexample=LONG_CX)],
             summary="witness for p >= 0.8; violated for p = 0.5"),
        cell("RBP", "RBP(p=0.8)", "Red", [check("RBP(p=0.8)", "Red", "satisfied", (("p", 0.8),))],
             projected=True),
        cell("my_metric #1 100%", "my_metric", "Pri", [check("my_metric", "Pri", "error", error=ErrorInfo(
            "ValueError: boom", SINGLE, ("d1", "d2")))]),
        cell("my_metric #1 100%", "my_metric", "DeepTh", [check("my_metric", "DeepTh", "n/a")]),
        Cell(row="my_metric #1 100%", metric="my_metric", constraint="Red", verdict="not run",
             summary="not run", checks=()),
    ]
    return TableResult(rows=("P@k", "RBP", "my_metric #1 100%"), constraints=("Pri", "DeepTh", "Red"),
                       cells=tuple(cells), seed=3, mode="default", budget="150 random cases",
                       interrupted=interrupted, settings=(("quick", False), ("rho", "1/10")),
                       axioms=axioms)


def test_marks_carry_the_verdict_and_the_flags():
    table = sample_table()
    assert cell_mark(table.cell("P@k", "Pri")) == MARKS["violated"]
    assert cell_mark(table.cell("P@k", "DeepTh")) == MARKS["witness"] + FLAGS["truncation"]
    assert cell_mark(table.cell("P@k", "Red")) == MARKS["violated"] + FLAGS["projected"]
    assert cell_mark(table.cell("RBP", "DeepTh")) == MARKS["witness"] + FLAGS["params"]
    assert cell_mark(table.cell("RBP", "Pri"), differs=True) == MARKS["satisfied"] + FLAGS["differs"]
    assert len(set(MARKS.values())) == len(MARKS) and len(set(FLAGS.values())) == len(FLAGS)


def legend(text: str) -> str:
    """The text legend of marks: the paragraph that starts with ``Marks:``."""
    start = text.index("Marks: ")
    return text[start:text.index(".\n", start)]


def test_text_matrix_legend_summaries_and_details():
    text = format_table(sample_table(), "text", width=200)  # wide: each sentence on one line
    rows = matrix_rows(text)
    assert rows["P@k"] == ["✗", "Wᵗ", "✗†"]
    assert rows["RBP"] == ["✓", "W~", "✓†"]
    assert rows["my_metric #1 100%"] == ["E", "n/a", "–"]
    marks = " ".join(legend(text).split())
    for mark in ("✓", "✗", "W", "E", "n/a", "–", "~", "†", "ᵗ"):
        assert re.search(rf"(: |; ){re.escape(mark)} \w", marks), f"legend lacks {mark}"
    # Each column's meaning under the matrix, the words they share said once.
    assert "Columns: a metric that violates it ..." in text
    assert re.search(r"^  Pri +Priority: can score a ranking no higher after a more relevant document "
                     r"moves up\.$", text, re.M)
    assert "RBP × DeepTh: witness for p >= 0.8; violated for p = 0.5" in text
    # The counterexample, readably: a sentence, relevance, both rankings, both scores, the relation.
    assert ("b = a with positions 1 and 2 swapped, so b should score higher than a; here it does not: "
            "Q(a) = Q(b) = 1/10") in text
    assert "r(d1) = 0, r(d2) = 1/10" in text
    assert "a = d1 d2" in text and "b = d2 d1" in text
    assert "Q(a) = 1/10, Q(b) = 1/10 (equal: a tie, decided exactly)" in text
    assert "required Q(b) > Q(a)" in text
    assert "explanation: violated; holds when no later document is relevant" in text
    assert "in truncate mode: violated" in text
    # A two-aspect topic as a relevance table; a long ranking compressed.
    assert re.search(r"d1\s+1/10\s+0", text) and re.search(r"d2\s+0\s+1/10", text)
    assert "a = r1 n1..n127 (128 documents)" in text and "1/100: r1..r64 (64 documents)" in text
    # 0.005 and 1e-20 are not short fractions' floats... 0.005 is 1/200; 1e-20 prints as itself.
    assert "Q(a) = 1/200, Q(b) = 1e-20" in text
    # The witness with its truncation flag and signs; the error with its input.
    assert "witness n = 6 (for every rc tried); by truncation" in text
    assert "sign of D = Q(a) - Q(b): rc = 1/10: n=1..5: -, n=6..64: +" in text
    assert "sign of D = Q(a) - Q(b) along the grid: m=1..64: +" in text  # the counterexample's signs
    assert "error: ValueError: boom" in text and "on ranking d1 d2" in text
    assert "seed 3" in text and "150 random cases" in text
    # The abbreviations the evidence uses are explained before it.
    terms = text[text.index("Terms used below:"):text.index("Details:")]
    assert "\n  rc: " in terms and "\n  n, m, D: " in terms and "\n  small scope: " in terms
    assert "rmax" not in terms  # no Sat cell here


def test_the_short_form_is_the_matrix_legend_and_a_pointer():
    full, short = (format_table(sample_table(), "text", details=d) for d in (True, False))
    assert short.rstrip().endswith(POINTER)
    assert full.startswith(short[:short.index(POINTER)].rstrip())  # the details come after it
    for evidence in ("a = d1 d2", "Q(a) =", "Terms used below", "Parameter dependence", "Details:"):
        assert evidence not in short and evidence in full
    assert matrix_rows(short) == matrix_rows(full)
    assert "Columns: a metric that violates it ..." in short


def test_the_id_alone_when_the_run_says_nothing_about_the_columns():
    text = format_table(sample_table(axioms=()), "text")
    assert "Columns" not in text  # the headers are the ids already
    assert "P@k × Pri: violated" in text  # no name to add
    assert "required Q(b) > Q(a); here Q(a) = Q(b) = 1/10" in text  # the relation, no expectation


@pytest.mark.parametrize("width", [60, 80, 100, 120])
@pytest.mark.parametrize("details", [False, True])
def test_no_line_is_wider_than_the_width_but_the_matrix(width, details):
    table = sample_table()
    text = format_table(table, "text", compare_with_published(table), details=details, width=width)
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("metric"))
    matrix = set(lines[start:start + 2 + len(table.rows)])
    wide = [line for line in lines if len(line) > width and line not in matrix]
    # A single word longer than the width (a document list) is never broken.
    assert all(" " not in line.strip() for line in wide), wide


def test_a_matrix_too_wide_gets_short_headers_named_in_the_legend():
    ids = ("PriorSens", "PriorMono", "Bounded", "Unique", "Finite", "DeepTh", "CloseTh", "AspDiv")
    cells = tuple(cell("a rather long row title", "m", c, [check("m", c, "satisfied")]) for c in ids)
    table = TableResult(rows=("a rather long row title",), constraints=ids, cells=cells, seed=0,
                        mode="default", budget="b")
    wide = format_table(table, "text", width=200)
    assert next(line for line in wide.splitlines() if line.startswith("metric")).split()[1:] == list(ids)
    narrow = format_table(table, "text", width=60)
    header = next(line for line in narrow.splitlines() if line.startswith("metric"))
    assert header.split()[1:] == ["PSn", "PMn", "Bnd", "Unq", "Fin", "DTh", "CTh", "ADv"]
    assert len(header) <= 60
    assert re.search(r"^  PSn  = PriorSens$", narrow, re.M) and re.search(r"^  ADv  = AspDiv$", narrow, re.M)


def test_counterexample_sentences_instantiate_the_meaning():
    info = AxiomInfo("CloseTh", "Closeness threshold", "", "Q(b) > Q(a)", (), "",
                     "should score higher than a")
    moved = Counterexample(topic=SINGLE, a=("d2", "n1"), b=("n1", "d2"), score_a=0.3, score_b=0.3,
                           relation="Q(b) > Q(a)", note="moving the relevant d2 below the non-relevant n1",
                           decided="exact")
    assert counterexample_sentence(moved, info) == (
        "moving the relevant d2 below the non-relevant n1, so b should score higher than a; here it does "
        "not: Q(a) = Q(b) = 3/10")
    # Scores that differ only past 6 digits are printed with the digits that tell them apart.
    close = Counterexample(topic=SINGLE, a=("d1",), b=("d2",), score_a=0.123456789, score_b=0.1234567,
                           relation="Q(b) > Q(a)", note="", decided="float", extra=(("rc", "1/10"),))
    assert counterexample_sentence(close, info) == (
        "B should score higher than a; here it does not: Q(a) = 0.12345679 > Q(b) = 0.1234567 "
        "(at rc = 1/10)")
    assert counterexample_sentence(close) == (
        "Required Q(b) > Q(a); here Q(a) = 0.12345679 > Q(b) = 0.1234567 (at rc = 1/10)")


def test_interrupted_tables_say_so():
    text = format_table(sample_table(interrupted=True), "text")
    assert "INTERRUPTED: 8 of 9 cells finished" in text


def test_markdown():
    text = format_table(sample_table(), "markdown")
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("| metric"))
    assert [c.strip() for c in header.strip("|").split("|")] == ["metric", "Pri", "DeepTh", "Red"]
    assert any(line.startswith("| RBP") and "W~" in line for line in lines)
    assert text.count("```") % 2 == 0 and "#### P@k × Pri (Priority): violated" in text
    assert "**Marks**: ✓ satisfied; ✗ violated" in text
    assert "- `Pri` Priority: can score a ranking no higher" in text


def test_latex_is_booktabs_and_escaped():
    text = format_table(sample_table(), "latex")
    for rule in (r"\toprule", r"\midrule", r"\bottomrule", r"\begin{tabular}", r"\end{table}"):
        assert rule in text
    body = [line for line in text.splitlines() if not line.startswith("%")]
    joined = "\n".join(body)
    assert r"my\_metric \#1 100\%" in joined
    assert not re.search(r"(?<!\\)[_#%]", joined), "unescaped LaTeX special character"
    assert r"$\geq$ 0.8" in joined  # "p >= 0.8" in the note, as math
    assert joined.count("\\\\") == 4  # the header and three rows
    assert r"\checkmark" in joined and r"\textsuperscript{\dag}" in joined


class _WellFormed(HTMLParser):
    """Tracks open elements; HTML void elements need no end tag."""

    VOID = {"meta", "br", "hr", "img", "input", "link"}

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.titles, self.ids, self.links = [], [], [], set(), set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "title" in attrs and tag == "td":
            self.titles.append(attrs["title"])
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "href" in attrs:
            self.links.add(attrs["href"].lstrip("#"))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}> with open {self.stack[-3:]}")
        else:
            self.stack.pop()


def test_html_is_a_well_formed_standalone_page_with_tooltips_and_details():
    text = format_table(sample_table(), "html", compare_with_published(sample_table()))
    assert text.startswith("<!DOCTYPE html>")
    parser = _WellFormed()
    parser.feed(text)
    parser.close()
    assert parser.errors == [] and parser.stack == []
    # A cell's tooltip names it as the matrix does (row × column, the column's name) and says each
    # thing once: the verdict is not repeated before the explanation.
    assert "RBP × DeepTh (Deepness threshold): witness for p >= 0.8; violated for p = 0.5" in parser.titles
    assert "P@k × Pri (Priority): violated; holds when no later document is relevant" in parser.titles
    assert parser.links and parser.links <= parser.ids  # every cell links to its details
    assert "&lt;" in text or "&gt;" in text  # "p >= 0.8" escaped


EXHAUSTIVE = Evidence("exhaustive", "m on the grid 1..32, 64, 128, ..., 1024 for rc in {1/100, 1/20, 1/10}",
                      111, 0, True)
#: RBP x CloseTh's boundary: D(2)/rc = (1-p) - p^2 + p^4 = (1-p)(1 - p^2 - p^3) vanishes at the root of
#: p^3 + p^2 - 1 (about 0.754878); below it the pair (a_2, b_2) fails at every p, above it holds.
RBP_BOUNDARY = Boundary(param="p", value=0.7548776662466927, bracket=("0.754877", "0.754878"), below="violated",
                        above="witness", certain=Certain.BOTH, closed_form="root of p**3 + p**2 - 1",
                        closed_value=0.7548776662466927, agrees=True, at_value=Side.BELOW, probes=20,
                        case="m = 2, rc = 1/100", evidence_above=EXHAUSTIVE,
                        root_form=RootForm.IMPLICIT)


def boundary_table() -> TableResult:
    """RBP x CloseTh with its one-parameter boundary, NRBP x CloseTh with a boundary curve of alpha
    over beta, and P@10 x Pri with neither."""
    rbp = cell("RBP", "RBP(p=0.8)", "CloseTh", [
        check("RBP(p=0.8)", "CloseTh", "witness", (("p", 0.8),), mode="truncate",
              witness=Witness("m = 2", "for every rc tried"), evidence=EXHAUSTIVE),
        check("RBP(p=0.5)", "CloseTh", "violated", (("p", 0.5),), mode="truncate", counterexample=LONG_CX)],
        summary="witness for p >= 0.8; violated for p = 0.5", boundaries=(RBP_BOUNDARY,))

    def at(beta: float, value: float) -> Boundary:
        # A rational boundary carries its closed form, as the engine finds it (NRBP's are rational).
        return Boundary("alpha", value, ("0", "1"), "witness", "violated", Certain.BOTH, fixed=(("beta", beta),),
                        closed_form=str(Fraction(value).limit_denominator(1000)), closed_value=value, agrees=True,
                        root_form=RootForm.EXPLICIT)

    curve = BoundaryCurve("alpha", "beta", ((0.5, ()), (0.8, (at(0.8, 19 / 64),)), (0.9, (at(0.9, 539 / 729),))))
    nrbp = cell("NRBP", "NRBP(alpha=0.5,beta=0.5)", "CloseTh", [
        check("NRBP(alpha=0.5,beta=0.5)", "CloseTh", "violated", (("alpha", 0.5), ("beta", 0.5)), mode="truncate"),
        check("NRBP(alpha=0.1,beta=0.8)", "CloseTh", "witness", (("alpha", 0.1), ("beta", 0.8)), mode="truncate",
              witness=Witness("m = 2"), evidence=EXHAUSTIVE)],
        summary="violated for beta = 0.5; witness otherwise", curves=(curve,))
    plain = cell("P@k", "P@10", "Pri", [check("P@10", "Pri", "violated", counterexample=PRI_CX)])
    return TableResult(rows=("RBP", "NRBP", "P@k"), constraints=("CloseTh", "Pri"), cells=(rbp, nrbp, plain),
                       seed=0, mode="default", budget="150 random cases", axioms=AXIOMS)


def test_an_explanation_is_prefixed_with_the_verdict_when_it_states_a_reading_not_by_its_text():
    from axiometer.reports.table.cells import explanation_text

    violated = [check("P@10", "Pri", "violated")]
    stated = cell("P@k", "P@10", "Pri", violated, explanation="(seen) nothing", reading=NearbyReading.CONSTRAINT)
    assert explanation_text(stated) == "violated; (seen) nothing"
    failed = cell("P@k", "P@10", "Pri", violated, explanation="holds? (no explanation: timed out)")
    assert explanation_text(failed) == "holds? (no explanation: timed out)"


def test_a_difference_omits_only_a_parameter_reading_the_summary_already_says():
    from axiometer.reports.table.comparison import difference_reasons

    grid = [check("RBP(p=0.5)", "CloseTh", "violated", (("p", 0.5),)),
            check("RBP(p=0.8)", "CloseTh", "witness", (("p", 0.8),))]
    by_parameters = cell("RBP", "RBP(p=0.5)", "CloseTh", grid, summary="witness for p >= 0.8; violated for p = 0.5",
                         explanation="holds for p >= 0.8", reading=NearbyReading.PARAMETERS)
    assert "holds for p >= 0.8" not in difference_reasons(by_parameters)
    by_rc = dataclasses.replace(by_parameters, explanation="holds for rc >= 1/20", reading=NearbyReading.SINGLE_RC)
    assert "holds for rc >= 1/20" in difference_reasons(by_rc)


def test_a_boundary_sentence_words_its_closed_form_by_its_root_form_not_by_its_text():
    from dataclasses import replace

    from axiometer.reports.plots.boundaries import boundary_caption
    from axiometer.reports.table.cells import boundary_sentence

    implicit = replace(RBP_BOUNDARY, closed_form="the root of f", root_form=RootForm.IMPLICIT)
    explicit = replace(RBP_BOUNDARY, closed_form="root5", root_form=RootForm.EXPLICIT)
    assert "p = 0.754878 is the the root of f (on the decisive case" in boundary_sentence(implicit)
    assert "p = 0.754878 = root5 (on the decisive case" in boundary_sentence(explicit)
    assert boundary_caption(implicit).startswith("p = 0.754878 is the the root of f (on")
    assert boundary_caption(explicit).startswith("p = 0.754878 = root5 (on")
    # The side the value belongs to and the certain sides are read as members.
    above = replace(RBP_BOUNDARY, at_value=Side.ABOVE, certain=Certain.ABOVE)
    assert boundary_sentence(above).startswith("violated for p < 0.754878; witness for p >= 0.754878 "
                                               "(a witness pair at every probe)")


def test_html_has_a_boundaries_section_with_each_sentence_and_its_picture():
    from axiometer.reports.table.cells import BOUNDARIES_INTRO, boundary_sentence, curve_text, evidence_text

    table = boundary_table()
    text = format_table(table, "html")
    parser = _WellFormed()
    parser.feed(text)
    parser.close()
    assert parser.errors == [] and parser.stack == []
    assert parser.links <= parser.ids
    # After the matrix and its legend, before the abbreviations and the evidence; in the contents.
    section = text.index('<section id="boundaries"><h2>Boundaries</h2>')
    assert text.index('id="legend"') < section < text.index('<section id="evidence">')
    assert section < text.index('<section id="abbreviations">')
    assert '<a href="#boundaries">Boundaries</a>' in text
    end = text.index("</section>", section)
    boundaries = text[section:end]
    # What the lines mean, then the text report's own sentence for the boundary and line for the curve.
    assert escape(BOUNDARIES_INTRO.split(": ", 1)[1][1:]) in boundaries
    sentence = boundary_sentence(RBP_BOUNDARY)
    assert sentence.startswith("violated for p <= 0.754878 (a counterexample at every probe); witness for "
                               "p > 0.754878 (a witness pair at every probe). p = 0.754878 is the root of "
                               "p**3 + p**2 - 1")
    assert f"<li>{escape(sentence)}</li>" in boundaries
    curve_line = curve_text(table.cells[1].curves[0])
    assert "beta = 0.8: alpha = 19/64 (witness below, violated above)" in curve_line
    assert f"<li>{escape(curve_line)}.</li>" in boundaries
    # One picture per parameter with boundaries and per curve, each linked from its cell's heading.
    assert boundaries.count("<figure>") == 2
    assert 'aria-label="RBP × CloseTh: the located verdict along p (the other parameters fixed)' in boundaries
    assert "p = 0.754878 is the root of p**3 + p**2 - 1 (on the decisive case m = 2, rc = 1/100; the " \
           "bisection agrees to 1e-6)." in boundaries  # the closed form in the strip's caption
    assert 'aria-label="NRBP × CloseTh: the boundary of alpha located at each beta' in boundaries
    assert '<a href="#cell-1-1">RBP × CloseTh</a>' in boundaries and "P@k × Pri" not in boundaries
    # Each cell's evidence is folded: a closed <details> whose body holds the id the matrix links to.
    assert '<details class="cell"><summary><h3>' in text and '<details class="cell" open' not in text
    # Each cell's evidence repeats its boundaries and states what the default check rests on.
    rbp = text[text.index('<div class="body" id="cell-1-1">'):text.index('<div class="body" id="cell-2-1">')]
    assert '<a href="#boundaries-cell-1-1">(pictures)</a>' in rbp and f"<li>{escape(sentence)}</li>" in rbp
    assert f'<p class="evidence">Evidence: {escape(evidence_text(EXHAUSTIVE))}.</p>' in rbp
    assert "Evidence: exhaustive: m on the grid 1..32, 64, 128, ..., 1024 for rc in {1/100, 1/20, 1/10} " \
           "(111 cases); every decision exact." in rbp
    plain = text[text.index('<div class="body" id="cell-3-2">'):]
    assert "Evidence:" not in plain.split("</details>")[0]  # a violated check rests on its counterexample


def test_html_without_boundaries_has_no_boundaries_section():
    text = format_table(sample_table(), "html")
    assert 'id="boundaries"' not in text and "Boundaries" not in text


def test_json_has_the_cell_level_keys():
    data = json.loads(format_table(sample_table(), "json"))
    assert data["seed"] == 3 and data["rows"] == ["P@k", "RBP", "my_metric #1 100%"]
    for entry in data["cells"]:
        for key in ("metric", "constraint", "verdict", "counterexample", "witness", "explanation",
                    "params", "summary", "projected"):
            assert key in entry
    by = {(c["row"], c["constraint"]): c for c in data["cells"]}
    assert by["P@k", "Pri"]["counterexample"]["a"] == ["d1", "d2"]
    assert by["P@k", "Pri"]["explanation"] == "holds when no later document is relevant"
    assert by["P@k", "DeepTh"]["witness"]["by_truncation"] is True
    assert by["RBP", "Pri"]["params"] == {"p": 0.8}
    assert by["my_metric #1 100%", "Red"]["verdict"] == "not run"


def test_reports_with_a_comparison_show_agreement_and_every_difference():
    table = sample_table()
    comparison = compare_with_published(table)
    # Published (definitions §7): P@k Pri 0 (agree), DeepTh 1 (agree), Red 0 (agree);
    # RBP Pri 1 (agree), DeepTh 1 (agree), Red 0 vs satisfied (differs); my_metric: no row.
    assert (comparison.agree, comparison.total) == (5, 6)
    text = format_table(table, "text", comparison, width=120)
    assert ("Agreement with amigo2018 (marks reconstructed from the paper's prose): 5 of 6 decided cells "
            "(83.3%); 1 differs:") in text
    assert "RBP × Red: published 0, ours satisfied — projected (the paper counts aspect-blind" in text
    assert matrix_rows(text)["RBP"][2] == "✓†≠"
    assert "≠ differs from amigo2018" in " ".join(legend(text).split())
    assert "  differs from amigo2018: published 0" in text  # in the cell's details
    assert "rows without a published row: my_metric #1 100%" in text
    data = json.loads(format_table(table, "json", comparison))
    assert data["comparison"]["agree"] == 5 and data["comparison"]["total"] == 6
    assert data["comparison"]["differences"][0]["constraint"] == "Red"
    latex = format_table(table, "latex", comparison)
    assert "Agreement with amigo2018: 5 of 6" in latex
    assert "Agreement with amigo2018" in format_table(table, "markdown", comparison)


@pytest.mark.parametrize("format", REPORT_FORMATS)
def test_every_format_handles_every_verdict(format):
    assert format_table(sample_table(interrupted=True), format).strip()


def test_unknown_format():
    with pytest.raises(ValueError, match="unknown report format"):
        format_table(sample_table(), "pdf")
    with pytest.raises(ValueError, match="unknown report format"):
        format_check(sample_table(), "pdf")


def test_check_latex_is_the_rows_paper_table_and_needs_the_table():
    table = sample_table()
    check_tex, table_tex = format_check(table, "latex"), format_table(table, "latex")
    assert check_tex.startswith("% Generated by axiometer (axiometer check --format latex).\n")
    # The same booktabs table, its legend and notes, as the table command writes for these rows.
    assert check_tex.split("\n", 1)[1] == table_tex.split("\n", 1)[1]
    assert r"\begin{tabular}" in check_tex and r"my\_metric \#1 100\%" in check_tex
    with pytest.raises(ValueError, match="the latex format needs a table result"):
        format_check(list(table.cells), "latex")


def test_format_check_prints_each_verdict_with_its_counterexample():
    table = sample_table()
    cells = [c for c in table.cells if c.row == "P@k"]
    text = format_check(cells)
    assert text.startswith("P@10: 3 constraints\n")
    summary = text.split("\n\n")[1]
    assert re.search(r"^Pri\s+✗\s+violated$", summary, re.M)
    assert re.search(r"^DeepTh\s+Wᵗ\s+witness$", summary, re.M)
    assert "a = d1 d2" in text and "Q(a) = 1/10, Q(b) = 1/10" in text and "required Q(b) > Q(a)" in text
    assert "aspects: t1 (w = 1/2), t2 (w = 1/2)" in text
    single = format_check(table.cell("P@k", "Pri").checks[0])
    assert "P@10 × Pri: violated" in single and "b = d2 d1" in single
    whole = format_check(table)
    assert whole.startswith("seed 3")  # several metrics: a metric column, no title
    assert re.search(r"^RBP\(p=0.8\)\s+DeepTh\s+W~\s+witness for p >= 0.8; violated for p = 0.5$", whole, re.M)
    assert "Constraints: a metric that violates it ..." in whole
    short = format_check(table, details=False)
    assert short.rstrip().endswith(POINTER) and "a = d1 d2" not in short
    data = json.loads(format_check(cells, "json"))
    assert [d["verdict"] for d in data] == ["violated", "witness", "violated"]
    assert data[0]["counterexample"]["b"] == ["d2", "d1"]


def test_relevance_is_listed_in_document_order():
    topic = TopicRecord(aspects=("*",), weights=("1",),
                        judgments=(("d10", ("1/10",)), ("d2", ("0",)), ("d1", ("1/20",))))
    cx = Counterexample(topic=topic, a=("d2", "d10", "d1"), b=("d10", "d2", "d1"), score_a=0.0,
                        score_b=0.0, relation="Q(b) > Q(a)", note="", decided="exact")
    text = format_check(check("M", "Pri", "violated", counterexample=cx))
    assert "relevance: r(d1) = 1/20, r(d2) = 0, r(d10) = 1/10" in text


def test_a_difference_with_nothing_qualifying_it_states_its_evidence():
    # Published: P@k CloseTh 0 and RR Conf 0; ours hold, unqualified (not projected, not truncated).
    cells = (
        cell("P@k", "P@10", "CloseTh", [check("P@10", "CloseTh", "witness", mode="truncate",
                                              witness=Witness("m = 2", "for every rc tried"))]),
        cell("RR", "RR", "Conf", [check("RR", "Conf", "satisfied", cases=40, small_scope=85)]),
    )
    table = TableResult(rows=("P@k", "RR"), constraints=("CloseTh", "Conf"), cells=cells, seed=0,
                        mode="default", budget="quick")
    text = format_table(table, "text", compare_with_published(table))
    assert "P@k × CloseTh: published 0, ours witness — holds with witness m = 2, within the cutoff" in text
    assert "RR × Conf: published 0, ours satisfied — no counterexample in 40 generated + 85 small-scope cases" in text


def test_a_relative_metric_counterexample_shows_the_other_systems():
    same = Counterexample(topic=SINGLE, a=("d1", "d2"), b=("d2", "d1"), score_a=0.5, score_b=0.5,
                          relation="Q(b) > Q(a)", note="", decided="exact",
                          context_a=(("d2", "o1"), ("o2",)))
    text = format_check(check("NRG(base=nDCG@10)", "Pri", "violated", counterexample=same))
    assert "other systems: s1 = d2 o1; s2 = o2" in text
    moved = Counterexample(topic=SINGLE, a=("d2",), b=("d2",), score_a=1.0, score_b=0.9,
                           relation="Q(b) >= Q(a)", note="d2 moved from 1 to 2 in s1", decided="exact",
                           context_a=(("d2", "o1"),), context_b=(("o1", "d2"),))
    text = format_check(check("NRG(base=nDCG@10)", "PriorMono", "violated", counterexample=moved))
    assert "other systems for a: s1 = d2 o1" in text and "other systems for b: s1 = o1 d2" in text
    empty = Counterexample(topic=SINGLE, a=("d2",), b=("d2",), score_a=1.0, score_b=1.0,
                           relation="finite", note="", decided="exact", context_a=())
    assert "other systems: none" in format_check(check("FujiiU", "Finite", "violated",
                                                       counterexample=empty))
    data = json.loads(format_check(check("x", "PriorMono", "violated", counterexample=moved), "json"))
    assert data[0]["counterexample"]["context_b"] == [["o1", "d2"]]


def test_the_check_json_leaves_typed_fields_out_as_the_table_json_does():
    # A witness's threshold and a counterexample's rc restate their texts as data: not in any JSON.
    witness = check("RBP(p=0.9)", "DeepTh", Verdict.WITNESS, mode="truncate",
                    witness=Witness("n = 12", "for every rc tried", threshold=12, rcs=(Fraction(1, 100),)))
    violated = check("RBP(p=0.5)", "CloseTh", Verdict.VIOLATED, counterexample=dataclasses.replace(
        PRI_CX, extra=(("rc", "1/10"), ("m", "3"), ("signs", "m=1..2: +; m=3: +")), rc=Fraction(1, 10),
        threshold=3, signs="m=1..2: +; m=3: +"))
    cells = [cell("RBP", c.metric, c.constraint, [c]) for c in (witness, violated)]
    table = TableResult(rows=("RBP",), constraints=("DeepTh", "CloseTh"), cells=tuple(cells), seed=0,
                        mode="default", budget="")
    from_checks = json.loads(format_check([witness, violated], "json"))
    from_cells = json.loads(format_check(cells, "json"))
    from_table = json.loads(format_table(table, "json"))["cells"]
    for data in (from_checks, from_cells, from_table):
        assert data[0]["witness"] == {"value": "n = 12", "note": "for every rc tried", "signs": None,
                                      "by_truncation": False}
        assert not {"rc", "threshold", "rmax", "signs"} & set(data[1]["counterexample"])
    assert from_cells[0]["checks"] == from_table[0]["checks"]


def test_an_undefined_score_reads_undefined_and_is_null_in_json():
    undefined = Counterexample(topic=SINGLE, a=(), b=(), score_a=float("nan"), score_b=float("nan"),
                               relation="Q is a finite real number", note="undefined here: S = 1",
                               decided="exact", context_a=())
    text = format_check(check("RareP_rev(alpha=0.5)@10", "Finite", "violated",
                              counterexample=undefined))
    assert "ranking = (empty)" in text and "Q = undefined (nan)" in text
    assert "a = " not in text and "Q(b)" not in text
    data = json.loads(format_check(check("x", "Finite", "violated", counterexample=undefined), "json"))
    assert data[0]["counterexample"]["score_a"] is None
    table = TableResult(rows=("x",), constraints=("Finite",), seed=0, mode="default", budget="",
                        cells=(cell("x", "x", "Finite", [check("x", "Finite", "violated",
                                                               counterexample=undefined)]),))
    assert "NaN" not in format_table(table, "json")
