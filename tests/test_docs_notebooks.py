"""docs/api.md's "In a notebook" section says what each result's tidy rows hold: every column a
result's ``to_rows()`` gives is named in its row of the section's table, and every result type the
table lists shows in HTML (a registered view) and gives rows."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from axiometer.agreement.result import Agreement, AgreementResult, AuditResult, AuditRow, PropertyCheck
from axiometer.evidence import Evidence, Proof, Strength
from axiometer.meta import meta_evaluate
from axiometer.readers import read_qrels, read_run
from axiometer.results import IntrinsicResult, OutputRecord, ParametricResult, PropertyVerdict
from axiometer.scoring import score_runs
from axiometer.significance import compare
from axiometer.unanimity import metric_unanimity
from tests.meta.campaign import write_campaign
from tests.reports.test_table import sample_table

API = Path(__file__).resolve().parents[1] / "docs" / "api.md"
SECTION = "## In a notebook"

#: Columns named by a pattern in the docs: a test's p-values (``p_TEST``), a parameter (``p``).
PATTERNS = {r"p_(randomization|t|wilcoxon)": "p_TEST", r"adjusted_(randomization|t|wilcoxon)": "adjusted_TEST"}


def documented() -> dict[str, set[str]]:
    """Each result type the table lists -> the names written in code in its columns cell."""
    text = API.read_text(encoding="utf-8")
    section = text[text.index(SECTION):]
    out = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        names = set(re.findall(r"`([^`]+)`", cells[2]))
        for kind in re.findall(r"`(\w+)`", cells[0].split("(")[0]):
            out[kind] = names
    return out


def _results(tmp_path: Path) -> dict[str, Any]:
    qrels_file, run_files = write_campaign(tmp_path)
    qrels, runs = read_qrels(qrels_file), [read_run(r) for r in run_files]
    scores = score_runs(qrels, runs, ["P@3", "nDCG@3"])
    proof = Proof("every ranking length", "a lemma", 0, 0, 0.1, Fraction(1, 10))
    tie = (OutputRecord(0, "(0, 1)", ("a", "b"), 0.5), OutputRecord(1, "(1, 0)", ("b", "a"), 0.5))
    agreement = AgreementResult("f", "f", "RR", Agreement.AGREES, None, None, (PropertyCheck("range", "in [0, 1]", True),),
                                5, 1, 1e-9, 0, 0.1)
    return {
        "TableResult": sample_table(), "ScoreResult": scores,
        "RunComparison": compare(scores, permutations=50, resamples=50),
        "MetaResult": meta_evaluate(qrels, runs, ["P@3", "nDCG@3"], trials=5, permutations=20),
        "Unanimity": metric_unanimity({"m1": np.array([1, 0.5, 0.2]), "m2": np.array([0.8, 0.3, 0.4])})[0],
        "IntrinsicResult": IntrinsicResult("m", "d", 2, "ordinal/pseudometric",
                                           (PropertyVerdict("metric", False, True, tie),)),
        "ParametricResult": ParametricResult("m", "p", "(0, 1)", "d", 2, 2, (("1/2", 0.5, "(0, 1)", "(1, 0)"),)),
        "Evidence": Evidence(Strength.PROVED, "scope", 1, 2, True, proof), "Proof": proof,
        "AgreementResult": agreement, "AuditResult": AuditResult((AuditRow("peer", "RR", "RR", agreement),), 5, 0),
    }


def _named(column: str) -> str:
    for pattern, name in PATTERNS.items():
        if re.fullmatch(pattern, column):
            return name
    return column


def test_every_column_of_every_results_rows_is_documented(tmp_path):
    docs = documented()
    results = _results(tmp_path)
    assert set(results) <= set(docs), set(results) - set(docs)
    for kind, result in results.items():
        rows = result.to_rows()
        assert rows, kind
        params = {"p"} if kind == "TableResult" else set()  # the sample's parameter, a column of its own
        columns = {_named(c) for row in rows for c in row} - params
        assert columns <= docs[kind], (kind, columns - docs[kind])
        assert result._repr_html_().startswith('<div class="axiometer-nb">'), kind


def test_the_metric_report_and_the_table_share_a_row_of_the_docs():
    assert documented()["MetricReport"] == documented()["TableResult"]


def test_the_example_notebook_the_docs_name_exists():
    # Named as a repository path, not linked: the docs site publishes no notebook page.
    path = "examples/notebooks/validate-a-metric.ipynb"
    assert f"`{path}`" in API.read_text(encoding="utf-8") and (API.parents[1] / path).is_file()
