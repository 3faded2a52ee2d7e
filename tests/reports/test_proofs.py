"""Proved verdicts in every report (definitions §3.12): a holding cell whose every holding setting is
proved gets the ``ᵖ`` mark, explained in the legend only when it appears; every format says what a
proof covers and by what, and why a holding verdict a proof was tried on is not proved; the JSON
carries the proof (with the formulas another solver can re-check) and round-trips it.

The tables are built by hand, so every expected text follows from the cells written here.
"""

from __future__ import annotations

import dataclasses
import json
import re
from fractions import Fraction
from html import escape

from axiometer.evidence import Proof, Strength
from axiometer.reports.table import FLAGS, MARKS, cell_mark, format_check, format_table
from axiometer.reports.table.cells import boundary_sentence, evidence_text, short_legend_items
from axiometer.reports.table.proofs import proof_note, proof_text, proved
from axiometer.results import Boundary, Cell, Certain, Check, Evidence, Side, TableResult, Verdict
from tests.cli_run import matrix_rows
from tests.reports.test_table import PRI_CX, _WellFormed

Z3 = "z3 nonlinear real arithmetic on every path of the metric's code"
FORMULA = ("(declare-const r1 Real)\n(declare-const r2 Real)\n(assert (and (< 0 r1) (<= r1 (/ 1 10)) (< r1 r2) "
           "(<= r2 (/ 1 10))))\n(assert (not (> (- r2 r1) 0.0)))\n(check-sat)")
PROOF = Proof(scope="every case of up to 6 documents and 1 aspect", procedure=Z3, structures=702, paths=1911,
              seconds=1.234, rho=Fraction(1, 10), max_docs=6, aspects=1, formulas=(FORMULA, "(check-sat)"))
LEMMA = Proof(scope="every ranking length", procedure="the lemma for weights independent of the gains "
              "(g strictly increasing, W(i) > W(j) for i < j)", structures=0, paths=0, seconds=0.04,
              rho=Fraction(1, 10))
SEARCH = "every case with up to 4 documents, relevance values 0, 1/50, 1/20, 1/10, 1 aspect"
#: A metric author's name and a reason quoting it: every format must escape both.
USER = "my_metric<b>&#1 100%"
REASON = f"the metric converts a relevance value with float() (in {USER} at line 3: {{x}}_1 $ ~ ^ \\)"
UNDECIDED = "z3 could not decide a case structure within 2 s"


def proved_evidence(proof: Proof = PROOF) -> Evidence:
    return Evidence(Strength.PROVED, SEARCH, 240, 1500, True, proof=proof)


def searched_evidence() -> Evidence:
    return Evidence(Strength.EXHAUSTIVE, SEARCH, 240, 1500, True)


def check(metric, constraint, verdict, params=(), **kw):
    searched = {"cases": 1500, "small_scope": 240} if verdict != "violated" else {}
    return Check(constraint=constraint, metric=metric, params=params, verdict=verdict, mode="window",
                 **{**searched, **kw})


def cell(row, constraint, checks, **kw):
    default = checks[0]
    return Cell(row=row, metric=default.metric, constraint=constraint, verdict=default.verdict,
                summary=kw.pop("summary", default.verdict), checks=tuple(checks), **kw)


def proof_table() -> TableResult:
    """RBP x Pri proved at both settings; RBP x Deep proved at the default only (z3 could not decide
    the other); DCG x Pri proved by a lemma; DCG x Deep violated; the metric author's metric holds on
    Pri without a proof (it calls float()) and on Deep with no proof tried."""
    cells = (
        cell("RBP", "Pri", [check("RBP(p=0.8)", "Pri", "satisfied", (("p", 0.8),), evidence=proved_evidence(),
                                  proof_seconds=1.234),
                            check("RBP(p=0.5)", "Pri", "satisfied", (("p", 0.5),), evidence=proved_evidence(),
                                  proof_seconds=1.1)]),
        cell("RBP", "Deep", [check("RBP(p=0.8)", "Deep", "satisfied", (("p", 0.8),), evidence=proved_evidence(),
                                   proof_seconds=1.5),
                             check("RBP(p=0.5)", "Deep", "satisfied", (("p", 0.5),), evidence=searched_evidence(),
                                   proof_seconds=2.0, unproved=UNDECIDED)]),
        cell("DCG@k", "Pri", [check("DCG@10", "Pri", "satisfied", evidence=proved_evidence(LEMMA),
                                    proof_seconds=0.04)]),
        cell("DCG@k", "Deep", [check("DCG@10", "Deep", "violated", counterexample=PRI_CX, proof_seconds=0.5)]),
        cell(USER, "Pri", [check(USER, "Pri", "satisfied", evidence=searched_evidence(), proof_seconds=0.01,
                                 unproved=REASON)]),
        cell(USER, "Deep", [check(USER, "Deep", "satisfied", evidence=searched_evidence())]),
    )
    return TableResult(rows=("RBP", "DCG@k", USER), constraints=("Pri", "Deep"), cells=cells, seed=1,
                       mode="default", budget="1500 random cases", settings=(("rho", "1/10"),))


def legend(text: str) -> str:
    start = text.index("Marks: ")
    return " ".join(text[start:text.index(".\n", start)].split())


# -- which cells are proved ----------------------------------------------------------------------

def test_a_cell_is_proved_when_its_default_setting_is_proved():
    table = proof_table()
    assert proved(table.cell("RBP", "Pri")) and proved(table.cell("DCG@k", "Pri"))
    # The mark shows the default setting: proved there, though RBP(p=0.5) holds unproved (its note says so).
    assert proved(table.cell("RBP", "Deep"))
    assert not proved(table.cell("DCG@k", "Deep"))     # violated: rests on its counterexample
    assert not proved(table.cell(USER, "Pri")) and not proved(table.cell(USER, "Deep"))
    # Violated settings do not take the mark away from the settings where the cell holds.
    mixed = cell("RBP", "Pri", [table.cell("RBP", "Pri").checks[0],
                                check("RBP(p=0.1)", "Pri", "violated", (("p", 0.1),), counterexample=PRI_CX)])
    assert proved(mixed) and cell_mark(mixed) == MARKS[Verdict.SATISFIED] + FLAGS["proved"] + FLAGS["params"]
    # The strength decides, not a text: a proof-shaped scope on a searched verdict is no proof.
    searched = dataclasses.replace(table.cell("DCG@k", "Pri"), checks=(
        check("DCG@10", "Pri", "satisfied", evidence=dataclasses.replace(proved_evidence(), strength="exhaustive")),))
    assert not proved(searched)


def test_the_mark_is_a_suffix_on_the_verdict_and_the_legend_explains_it_only_when_used():
    table = proof_table()
    assert FLAGS["proved"] == "ᵖ" and len(set(FLAGS.values())) == len(FLAGS)
    text = format_table(table, "text", width=1000)
    rows = matrix_rows(text)
    assert rows["RBP"] == ["✓ᵖ", "✓ᵖ"] and rows["DCG@k"] == ["✓ᵖ", "✗"] and rows[USER] == ["✓", "✓"]
    assert "ᵖ proved" in legend(text)  # the Terms of the details say over what
    plain = TableResult(rows=("RBP",), constraints=("Pri",), seed=1, mode="default", budget="",
                        cells=(cell("RBP", "Pri", [check("RBP", "Pri", "satisfied", evidence=searched_evidence())]),))
    assert "ᵖ" not in format_table(plain, "text") and "proved" not in legend(format_table(plain, "text"))
    assert "proved" not in dict(short_legend_items(plain, None))


# -- the sentences --------------------------------------------------------------------------------

def test_a_proof_says_what_it_covers_by_what_and_at_what_cost():
    assert proof_text(PROOF) == (
        "proved for every case of up to 6 documents and 1 aspect and every relevance value in (0, 1/10], by "
        f"{Z3} (702 structures, 1911 paths)")  # the time is in the JSON, not in the text
    assert proof_text(LEMMA) == (
        "proved for every ranking length and every relevance value in (0, 1/10], by the lemma for weights "
        "independent of the gains (g strictly increasing, W(i) > W(j) for i < j)")
    assert evidence_text(proved_evidence()) == (
        proof_text(PROOF) + f"; searched too: {SEARCH} (240 cases) + 1500 random cases; every decision exact")
    assert evidence_text(proved_evidence(), short=True) == proof_text(PROOF, short=True)
    table = proof_table()
    assert proof_note(table.cell("RBP", "Pri")) == proof_text(PROOF, short=True)
    # Proved at the default setting (the mark's): the note names the setting that holds unproved.
    assert proof_note(table.cell("RBP", "Deep")) == (
        f"{proof_text(PROOF, short=True)}; not proved at RBP(p=0.5): {UNDECIDED}")
    assert proof_note(table.cell(USER, "Pri")) == f"not proved: {REASON}"
    assert proof_note(table.cell(USER, "Deep")) == "" and proof_note(table.cell("DCG@k", "Deep")) == ""


def test_text_details_show_the_proof_the_reason_and_the_formula():
    text = format_table(proof_table(), "text", width=1000)
    assert f"evidence: {evidence_text(proved_evidence())}" in text
    assert f"evidence: {evidence_text(proved_evidence(LEMMA))}" in text
    assert f"; not proved at RBP(p=0.5): {UNDECIDED}" in text         # the setting that holds unproved
    assert f"not proved: {REASON}" in text                            # the default setting's own reason
    # The first formula a proof decided, as SMT-LIB, for another solver; the JSON has them all.
    assert "the formula decided for the first case structure (SMT-LIB 2; unsat is the proof; the JSON has " \
           "all 2):" in text
    assert "(assert (not (> (- r2 r1) 0.0)))" in text and "(check-sat)" in text
    terms = text[text.index("Terms used below:"):text.index("Details:")]
    assert "\n  proved: decided for every real relevance value in (0, rho]" in terms


def test_check_reports_mark_a_proved_check_and_explain_it():
    table = proof_table()
    checks = [table.cell("RBP", "Pri").checks[0], table.cell(USER, "Pri").checks[0]]
    text = format_check(checks, width=1000)
    assert re.search(r"^RBP\(p=0\.8\)\s+Pri\s+✓ᵖ\s+satisfied$", text, re.M)
    assert re.search(rf"^{re.escape(USER)}\s+Pri\s+✓\s+satisfied$", text, re.M)
    assert "ᵖ proved" in legend(text)
    assert f"evidence: {evidence_text(proved_evidence())}" in text and f"not proved: {REASON}" in text
    one = format_check([table.cell(USER, "Deep")], width=1000)
    assert "ᵖ" not in one and "proved" not in one


def test_a_boundary_side_that_is_proved_says_so():
    boundary = Boundary(param="p", value=0.6, bracket=("0.599999", "0.6"), below="satisfied", above="violated",
                        certain=Certain.ABOVE, evidence_below=proved_evidence())
    sentence = boundary_sentence(boundary)
    # No closed form: the bisection's value, correctly rounded (issue 27), not a guessed fraction.
    assert sentence.startswith(f"satisfied for p < 0.6 ({proof_text(PROOF, short=True)}); violated for p > 0.6 "
                               "(a counterexample at every probe)")
    assert "no counterexample found" not in sentence
    from axiometer.reports.plots.boundaries import _side_basis  # the picture's region says it too

    assert _side_basis(boundary, Side.BELOW) == "proved for every real relevance value"
    searched = dataclasses.replace(boundary, evidence_below=searched_evidence())
    assert "satisfied for p < 0.6 (no counterexample found; exhaustive:" in boundary_sentence(searched)


def test_a_proved_cell_that_differs_from_the_paper_gives_its_proof_as_the_reason():
    from axiometer.reports.table.comparison import difference_reasons

    assert difference_reasons(proof_table().cell("RBP", "Pri")) == [proof_text(PROOF, short=True)]


def test_markdown_shows_the_mark_the_legend_and_the_sentences():
    text = format_table(proof_table(), "markdown", width=1000)
    assert any(line.startswith("| RBP") and "✓ᵖ" in line for line in text.splitlines())
    assert "ᵖ proved" in text
    assert f"evidence: {evidence_text(proved_evidence())}" in text and f"not proved: {REASON}" in text
    assert text.count("```") % 2 == 0  # the reason and the formula stay inside the fenced details


def test_latex_marks_proved_cells_and_notes_what_they_are_proved_for_escaped():
    text = format_table(proof_table(), "latex")
    body = "\n".join(line for line in text.splitlines() if not line.startswith("%"))
    assert r"RBP & \checkmark\textsuperscript{p} & \checkmark\textsuperscript{p} \\" in body
    assert r"\textsuperscript{p}~proved" in body  # the legend in the note
    assert ("Proved for every case of up to 6 documents and 1 aspect and every relevance value in (0, 1/10]: "
            "RBP/Pri, RBP/Deep.") in body
    assert "Proved for every ranking length and every relevance value in (0, 1/10]: DCG@k/Pri." in body
    assert (r"Not proved (the metric converts a relevance value with float() (in my\_metric\textless{}b"
            r"\textgreater{}\&\#1 100\% at line 3: \{x\}\_1 \$ \textasciitilde{} \textasciicircum{} "
            r"\textbackslash{})): my\_metric") in body
    note = body[body.index(r"\emph{Note.}"):].replace(r"$\times$", "")
    assert not re.search(r"(?<!\\)[_#%&$]", note), "unescaped LaTeX special character"


def test_html_marks_tooltips_and_details_say_it_escaped():
    table = proof_table()
    text = format_table(table, "html")
    parser = _WellFormed()
    parser.feed(text)
    parser.close()
    assert parser.errors == [] and parser.stack == [] and parser.links <= parser.ids
    assert USER not in text and REASON not in text  # both escaped everywhere
    assert ">✓ᵖ</a>" in text
    assert f"RBP × Pri: satisfied; {proof_text(PROOF, short=True)}" in parser.titles
    assert (f"RBP × Deep: satisfied; {proof_text(PROOF, short=True)}; not proved at RBP(p=0.5): "
            f"{UNDECIDED}") in parser.titles
    assert f"{USER} × Pri: satisfied; not proved: {REASON}" in parser.titles
    assert f"{USER} × Deep: satisfied" in parser.titles  # no proof tried: nothing said
    assert f'<p class="evidence">Evidence: {escape(evidence_text(proved_evidence()))}.</p>' in text
    assert f'<p class="muted">{escape("Not proved: " + REASON)}.</p>' in text
    assert f"<pre>{escape(FORMULA)}</pre>" in text
    assert "<dt>ᵖ</dt>" in text  # in the legend


def test_json_carries_the_proof_and_the_reasons_and_round_trips():
    table = proof_table()
    data = json.loads(format_table(table, "json"))
    by = {(c["row"], c["constraint"]): c for c in data["cells"]}
    rbp = by["RBP", "Pri"]
    assert rbp["proved"] is True and rbp["mark"] == "✓ᵖ" and rbp["unproved"] == ""
    assert rbp["evidence"]["strength"] == "proved"
    written = rbp["evidence"]["proof"]
    assert written == {"scope": PROOF.scope, "procedure": Z3, "structures": 702, "paths": 1911, "seconds": 1.234,
                       "rho": "1/10", "max_docs": 6, "aspects": 1, "formulas": [FORMULA, "(check-sat)"]}
    back = Proof(**{**written, "rho": Fraction(written["rho"]), "formulas": tuple(written["formulas"])})
    assert back == PROOF
    assert [c["proof_seconds"] for c in rbp["checks"]] == [1.234, 1.1]
    assert by["RBP", "Deep"]["proved"] is True and by["RBP", "Deep"]["checks"][1]["unproved"] == UNDECIDED
    assert by[USER, "Pri"]["unproved"] == REASON and by[USER, "Pri"]["evidence"]["proof"] is None
    assert by[USER, "Deep"]["checks"][0]["proof_seconds"] is None
    assert by["DCG@k", "Pri"]["evidence"]["proof"]["max_docs"] is None
    # axiometer check's JSON: the same fields on each check.
    checks = json.loads(format_check([table.cell("RBP", "Pri").checks[0], table.cell(USER, "Pri").checks[0]],
                                     "json"))
    assert checks[0]["evidence"]["proof"]["formulas"] == [FORMULA, "(check-sat)"]
    assert checks[0]["proof_seconds"] == 1.234 and checks[1]["unproved"] == REASON


def test_a_verdict_picture_marks_a_proved_setting():
    from axiometer.reports.plots.style import verdict_mark

    table = proof_table()
    assert verdict_mark(table.cell("RBP", "Pri").checks[0]) == "✓ᵖ"
    assert verdict_mark(table.cell("RBP", "Deep").checks[1]) == "✓"
