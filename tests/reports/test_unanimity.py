"""Metric Unanimity reports: the worked example in text, Markdown and JSON, and
an undefined MU explained."""

from __future__ import annotations

import json

import pytest

from axiometer.reports.unanimity import format_unanimity
from axiometer.unanimity import metric_unanimity, unanimity

EXAMPLE = metric_unanimity({"m1": (1, 0.5, 0.2), "m2": (0.8, 0.3, 0.4), "m3": (1, 0.2, 0.5)})


def test_text_shows_log2_and_the_exact_ratio():
    text = format_unanimity(EXAMPLE, "text", "the worked example", width=200)
    lines = text.splitlines()
    assert lines[0] == ("Metric Unanimity of 3 metrics, each against the other 2: 6 ordered pairs of "
                        "system outputs (pairs within a topic, pooled over 1 topic); scores from the "
                        "worked example.")
    assert lines[1].startswith("m_ij: the metric scores si >= sj (a tie counts 1/2); M_ij: every other")
    # log2(4/3) = 0.415037 (6 significant digits); P(m1, M) = 2/6 = 1/3, P(M) = 3/6 = 1/2;
    # m2: log2(2) = 1 exactly.
    assert lines[5].split() == ["m1", "0.415037", "4/3", "1/3", "1/2", "1/2", "3", "6"]
    assert lines[6].split() == ["m2", "1", "2", "1/3", "1/2", "1/3", "2", "6"]
    assert "undefined" not in text


def test_the_header_wraps_to_the_width():
    lines = format_unanimity(EXAMPLE, "text", "the worked example", width=60).splitlines()
    header = lines[:lines.index("")]
    assert len(header) > 2 and all(len(line) <= 60 for line in header)
    assert header[1].startswith("  ")  # continuation lines hang


def test_markdown_and_undefined_notes():
    results = (unanimity((0, 1), [(1, 0)], metric="worse", names=("better",)),
               unanimity((1, 0), [(0, 1)], metric="better", names=("worse",)))
    text = format_unanimity(results, "markdown", width=200)
    assert "| worse    | undefined | undefined |" in text
    assert ("- worse: MU undefined: the metric never agrees with a unanimous improvement "
            "(P(m_ij, M_ij) = 0): log2(0)") in text.splitlines()


def test_json_keeps_exact_values():
    data = json.loads(format_unanimity(EXAMPLE, "json", "example"))
    assert data["source"] == "example"
    first = data["metrics"][0]
    assert first["metric"] == "m1" and first["others"] == ["m2", "m3"]
    assert first["ratio"] == "4/3" and first["p_m"] == "1/2" and first["pairs"] == 6
    assert first["mu"] == pytest.approx(0.41503749927884376, abs=1e-15)
    undefined = json.loads(format_unanimity((unanimity((0, 1), [(1, 0)]),), "json"))
    assert undefined["metrics"][0]["mu"] is None and undefined["metrics"][0]["undefined"]


def test_html_is_a_page_of_the_same_table():
    page = format_unanimity(EXAMPLE, "html", "the worked example")
    assert page.startswith("<!DOCTYPE html>") and "<h1>Metric Unanimity</h1>" in page
    assert "scores from the worked example.</p>" in page and "si &gt;= sj" in page
    assert ("<tr><td>m1</td><td>0.415037</td><td>4/3</td><td>1/3</td><td>1/2</td><td>1/2</td>"
            "<td>3</td><td>6</td></tr>") in page


def test_bad_requests():
    with pytest.raises(ValueError, match="unknown report format 'trec'; known: text, markdown, latex, json, html"):
        format_unanimity(EXAMPLE, "trec")
    with pytest.raises(ValueError, match="no metric unanimity results"):
        format_unanimity((), "text")


def test_latex_is_the_table_a_paper_inputs_with_names_escaped():
    results = metric_unanimity({"P_IA@10": (1, 0.5, 0.2), "m&n": (0.8, 0.3, 0.4)})
    lines = format_unanimity(results, "latex", "example").splitlines()
    assert lines[0] == r"\begin{table}[t]" and lines[-1] == r"\end{table}"
    assert r"\toprule" in lines and r"\bottomrule" in lines
    rows = [line for line in lines if line.startswith(("P\\_IA@10 &", "m\\&n &"))]
    assert len(rows) == 2 and all(line.endswith(r" \\") for line in rows)
