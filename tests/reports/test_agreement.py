"""The reports of ``agree`` and ``audit``: the verdict, the minimal case with its values as the doubles
they are, the convention, the marks explained, the properties; the audit's page with its command,
a row per measure, a write-up per finding and its cause; JSON as the result's dict."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from axiometer.agreement.agree import agree
from axiometer.agreement.result import AuditResult, AuditRow
from axiometer.reports.agreement import REGENERATE, audit_document, format_agreement, format_audit, query_text
from axiometer.reports.render import render
from tests.agreement.implementations import ndcg, rr_from_zero
from tests.cli_run import flat


def rr_off_by_one(grades: dict[str, int], scores: dict[str, float]) -> float:
    """RR one rank off, raising on a query with no relevant document (the property 'defined' fails)."""
    if not any(g > 0 for g in grades.values()):
        raise ValueError("no relevant document")
    ranked = sorted(scores, key=lambda d: (scores[d], d), reverse=True)
    return next((1 / (i + 2) for i, d in enumerate(ranked) if grades.get(d, 0) > 0), 0.0)


def always_raises(grades: dict[str, int], scores: dict[str, float]) -> float:
    raise RuntimeError("not today")


@pytest.fixture(scope="module")
def float32() -> object:
    """trec_eval's RR (through ir_measures): it agrees once scores are float32."""
    return agree("ir_measures/pytrec_eval:RR", "RR", queries=40)


@pytest.fixture(scope="module")
def raising() -> object:
    return agree("tests.agreement.implementations:rr_from_zero", "RR", queries=40)


@pytest.fixture(scope="module")
def off_by_one() -> object:
    return agree(rr_off_by_one, "RR", queries=40)


def test_the_verdict_names_the_convention_and_the_case_shows_the_scores_as_the_doubles_they_are(float32):
    text = format_agreement(float32, "text", width=100)
    assert text.startswith("ir_measures/pytrec_eval:RR against RR: agrees under a convention: scores rounded "
                           "to float32 before")
    settings = flat(text).split("Settings: ")[1]
    assert re.match(rf"computed by ir_measures [\d.]+, provider pytrec_eval [\d.]+; {float32.queries} queries "
                    "tried", settings)
    assert f"{float32.searched} conventions searched; tolerance 1e-09;" in settings
    # The case: each judgment and each run line, every score as the double it is (two tie in float32).
    case, values = float32.case, float32.case.values
    for doc, grade in case.query.judgments:
        assert re.search(rf"^{re.escape(doc)}\s+{grade}$", text, re.M)
    for doc, score in case.query.run:
        assert re.search(rf"^{re.escape(doc)}\s+{re.escape(repr(score))}$", text, re.M)
    assert any(not repr(s).endswith(".0") for _, s in case.query.run)  # a score one unit off a round one
    words = flat(text)
    assert f"implementation: {values.implementation!r}" in words
    assert f"reference (RR, its own conventions): {values.reference!r} (exactly {values.reference_exact})" in words
    assert f"reference under the convention: {values.under_convention!r}" in words
    assert f"difference (implementation - reference): {values.difference!r}" in words
    assert values.implementation == values.under_convention != values.reference
    assert "shrunk by hypothesis" in words
    assert all(len(line) <= 100 for line in text.splitlines())


def test_an_implementation_that_raises_shows_what_it_raised_instead_of_a_value(raising):
    words = flat(format_agreement(raising, "text", width=100))
    assert words.startswith("tests.agreement.implementations:rr_from_zero against RR: differs: no convention "
                            "explains it (a bug), minimal case below; but a property fails: defined")
    assert ": a query: raised ZeroDivisionError: division by zero" in words.split("✗ defined")[1]


def test_a_case_without_a_number_says_there_is_no_difference():
    words = flat(format_agreement(agree(always_raises, "RR", queries=10), "text", width=100))
    assert "implementation: raised RuntimeError: not today" in words
    assert "difference (implementation - reference): none: the implementation gave no number" in words


def test_every_mark_is_explained_and_a_failing_property_shows_its_query_and_what_happened(off_by_one):
    text = format_agreement(off_by_one, "text", width=100)
    words = flat(text)
    assert "Properties: ✓ holds on every query tried; ✗ fails:" in words
    assert "✓ range:" in words
    assert "fails on judgments" in words.split("✗ defined")[1].split("✓")[0]
    assert "raised ValueError: no relevant document" in words
    assert "but a property fails: defined" in words.split("Settings:")[0]


def test_an_outright_agreement_has_no_case():
    text = format_agreement(agree(ndcg, "nDCG", queries=20), "text")
    assert re.match(r"ndcg against nDCG: agrees \(on \d+ queries\)\n", text)
    assert "Minimal case" not in text and not re.search(r"^\s*✗", text, re.M)


def test_json_is_the_results_dict(float32):
    data = json.loads(format_agreement(float32, "json"))
    assert {"agree", "convention", "case", "values", "properties"} <= set(data)
    assert data["agree"] == "agrees under a convention"
    assert data["convention"]["departures"] == {"precision": "float32"}
    assert data["case"]["run"] == [[d, s] for d, s in float32.case.query.run]
    assert data["values"]["reference_exact"] == float32.case.values.reference_exact
    assert data["values"]["implementation"] == float32.case.values.implementation


@pytest.mark.parametrize("format", ["markdown", "latex", "html"])
def test_the_other_formats_carry_the_case_and_the_values(float32, format):
    out = format_agreement(float32, format)
    values = float32.case.values
    assert all(repr(s) in out for _, s in float32.case.query.run)
    assert f"{values.reference!r} (exactly {values.reference_exact})" in out
    if format == "latex":
        assert out.count("\\begin{tabular}") == 4  # judgments, run, values, properties


# -- audit ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def audited(raising, off_by_one) -> AuditResult:
    """Three peers' rows built from real agree runs: one agrees, one raises, one fails a property; and
    a row whose measure could not be run."""
    right = agree(ndcg, "nDCG", queries=20)
    return AuditResult((
        AuditRow("peer/a", "NDCG", "nDCG", dataclasses.replace(right, provider="peer 1.0")),
        AuditRow("peer/a", "MRR", "RR", dataclasses.replace(raising, provider="peer 1.0")),
        AuditRow("peer/b", "MRR", "RR", dataclasses.replace(off_by_one, provider="peer 2.0")),
        AuditRow("peer/b", "P5", "P@5", None, "peer/b cannot compute P5: no such measure"),
    ), 40, 0)


def test_the_audit_page_says_what_it_is_and_how_to_regenerate_it_then_a_row_per_measure(audited, raising):
    page = format_audit(audited, "markdown")
    assert page.startswith("# Peer audit\n")
    assert f"\n```\n{REGENERATE}\n```\n" in page
    table = [line for line in page.splitlines() if line.startswith("| peer/")]
    assert len(table) == 4
    assert "agrees" in table[0] and "peer 1.0" in table[0]
    values = raising.case.values
    assert f"{query_text(raising.case.query)} → {values.implementation!r} vs reference {values.reference!r}" \
        in table[1]
    assert table[2].rstrip(" |").endswith("defined")
    assert "error: peer/b cannot compute P5: no such measure" in table[3]


def test_each_finding_has_a_write_up_and_an_agreeing_row_none(audited):
    page = format_audit(audited, "markdown")
    headings = re.findall(r"^### (.*)$", page, re.M)
    assert headings == ["MRR by peer/a", "MRR by peer/b", "P5 by peer/b"]
    assert "Failing properties:" in page.split("### MRR by peer/b")[1]


def test_a_hand_written_cause_is_printed_in_its_write_up(audited):
    cause = "peer/b counts ranks from 2 (see its rr.py)."
    document = audit_document(audited, causes={("peer/b", "MRR"): cause})
    page = render(document, "markdown", 100)
    assert f"Cause: {cause}" in flat(page.split("### MRR by peer/b")[1].split("###")[0])
    assert "Cause:" not in render(audit_document(audited, causes={}), "markdown", 100)


def test_the_audits_causes_are_read_from_the_engine_by_default(audited, monkeypatch):
    from axiometer.agreement import audit

    monkeypatch.setitem(audit.CAUSES, ("peer/a", "MRR"), "It divides by the rank counted from 0.")
    assert "Cause: It divides by the rank counted from 0." in flat(format_audit(audited, "text"))


def test_the_audit_json_is_the_results_dict(audited):
    data = json.loads(format_audit(audited, "json"))
    assert [row["measure"] for row in data["audit"]] == ["NDCG", "MRR", "MRR", "P5"]
    assert data["audit"][3]["error"] == "peer/b cannot compute P5: no such measure"
    assert data["queries"] == 40
