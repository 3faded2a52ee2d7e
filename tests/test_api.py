"""`axiometer.check(...)` and `MetricReport`: built-in specs, plain functions with grids,
protocol objects, and the report's accessors, text and JSON; `axiometer.agree(...)`, thin over
the agreement engine (tests/agreement/test_agree.py tests the engine itself).

Expected verdicts come from docs/definitions.md and the paper, not from our own output:
RBP satisfies Priority and, at p = 0.5, fails CloseTh (it needs roughly p > 3/4;
definitions §3); P@k ignores order inside the cutoff, so it fails Priority; a
metric that only looks at the first relevant position cannot tell a ranking from
the same ranking with a non-relevant document appended (it fails Confidence).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import inspect
import json
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import pytest

import axiometer
from axiometer.api import MetricReport
from axiometer.checking import Budget
from axiometer.cli import main
from axiometer.core import AxiometerError, InputError, Topic
from axiometer.evidence import Strength
from axiometer.metrics import Needs
from axiometer.reports.table import format_table
from axiometer.results import TableResult
from tests.agreement import implementations as written
from tests.cli_run import timeless
from tests.reports.test_table import sample_table

QUICK = "quick"


def rbp_like(ranking: Sequence[str], topic: Topic, p: float = 0.8) -> float:
    """RBP written by hand: (1 - p) sum_i p^(i-1) r(d_i)."""
    return (1 - p) * sum(p ** i * float(topic.r(d)) for i, d in enumerate(ranking))


class FirstRelevant:
    """A protocol object: 1 / rank of the first relevant document (reciprocal rank)."""

    name = "first_relevant"
    cutoff = None
    needs = Needs(aspects=False, graded=False)
    param_info = ()
    params: ClassVar[dict] = {}

    def score(self, ranking, topic, context=None) -> float:
        for i, d in enumerate(ranking, 1):
            if topic.rel(d):
                return 1.0 / i
        return 0.0


def test_check_is_exported_from_the_package():
    assert axiometer.check is axiometer.api.check
    assert axiometer.MetricReport is MetricReport


def test_builtin_spec():
    report = axiometer.check("RBP(p=0.5)", ["Pri", "CloseTh"], budget=QUICK)
    assert isinstance(report, MetricReport)
    assert report.metric == "RBP(p=0.5)"
    assert report.verdicts == {"Pri": "satisfied", "CloseTh": "violated"}
    assert report.holds("Pri") is True and report.holds("CloseTh") is False
    assert report.holds("closeth") is False  # ids are case-insensitive


def test_violations_are_data_and_failures_lists_the_differences():
    report = axiometer.check("P@10", ["Pri", "Conf"], budget=QUICK)
    assert report.holds("Pri") is False  # P@k ignores order inside the cutoff
    assert report.failures({"Pri": False}) == []
    assert report.failures({"Pri": True}) == ["Pri"]
    # P@k divides by k, so a non-relevant document appended inside the cutoff changes nothing.
    assert report.holds("Conf") is False
    assert report.failures({"pri": True, "Conf": False}) == ["Pri"]
    assert report.failures({"Pri": True, "Conf": True}) == ["Pri", "Conf"]


def test_plain_function_with_a_grid_walks_it():
    report = axiometer.check(rbp_like, ["CloseTh"], params={"p": [0.5, 0.8]}, budget=QUICK)
    (cell,) = report.cells
    # The function's own default p = 0.8 is in the grid, so it is the cell's setting.
    assert cell.metric == "rbp_like(p=0.8)"
    assert cell.verdict == "witness"
    by_p = {dict(c.params)["p"]: c.verdict for c in cell.checks}
    assert by_p == {0.5: "violated", 0.8: "witness"}
    assert cell.summary == "witness for p = 0.8; violated for p = 0.5"


def test_plain_function_fixed_parameter_name_and_cutoff():
    report = axiometer.check(rbp_like, ["CloseTh"], params={"p": 0.5}, name="myRBP", budget=QUICK)
    assert report.metric == "myRBP"
    assert report.cells[0].metric == "myRBP(p=0.5)"
    assert report.verdicts == {"CloseTh": "violated"}
    with_cutoff = axiometer.check(rbp_like, ["Pri"], cutoff=5, budget=QUICK)
    assert with_cutoff.cells[0].metric == "rbp_like@5"
    assert with_cutoff.holds("Pri") is True


def test_protocol_object():
    report = axiometer.check(FirstRelevant(), ["Conf"], budget=QUICK)
    assert report.metric == "first_relevant"
    assert report.holds("Conf") is False
    cx = report.cells[0].default_check.counterexample
    assert len(cx.b) == len(cx.a) + 1 and cx.score_a == cx.score_b


def test_a_misbehaving_function_gives_an_error_cell_not_an_exception():
    def broken(ranking, topic):
        return "high"

    report = axiometer.check(broken, ["Pri"], budget=QUICK)
    assert report.verdicts == {"Pri": "error"}
    assert report.holds("Pri") is None
    assert report.failures({"Pri": True}) == ["Pri"] and report.failures({"Pri": False}) == ["Pri"]
    assert "not a number" in report.details()


def test_report_text_is_the_matrix_row_then_the_details():
    report = axiometer.check("RBP(p=0.5)", ["Pri", "CloseTh"], budget=QUICK)
    text = str(report)
    header, _, row = text.splitlines()[:3]
    assert header.split() == ["metric", "Pri", "CloseTh"]
    assert row.split() == ["RBP(p=0.5)", "✓ᵖ", "✗"]  # Pri proved for every ranking length (a lemma)
    assert text.endswith(report.details())
    # The CloseTh counterexample: a_1 = r1 n1 beats b_1 = n1 r1 (m = 1, rc = 1/100).
    details = report.details(["CloseTh"])
    assert "RBP(p=0.5) × CloseTh (Closeness threshold): violated" in details and "a = r1 n1" in details
    assert "× Pri" not in details


def test_unknown_ids_and_budgets_are_clear_errors():
    report = axiometer.check("RR", ["Conf"], budget=QUICK)
    with pytest.raises(InputError, match="'Pri' was not checked"):
        report.holds("Pri")
    with pytest.raises(InputError, match="unknown budget 'fast'"):
        axiometer.check("RR", ["Conf"], budget="fast")
    with pytest.raises(InputError, match="unknown constraint 'Nope'"):
        axiometer.check("RR", ["Nope"], budget=QUICK)


def test_to_dict_is_the_cli_json_for_the_same_settings(capsys):
    report = axiometer.check("RBP", ["Pri", "CloseTh"], budget=QUICK, seed=3)
    assert main(["check", "RBP", "--constraints", "Pri", "CloseTh", "--quick", "--seed", "3",
                 "--jobs", "1", "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert timeless(report.to_dict()) == timeless(cli)  # the same but for the proofs' times
    assert main(["table", "--metrics", "RBP", "--constraints", "Pri", "CloseTh", "--quick", "--seed", "3",
                 "--jobs", "1", "--format", "json"]) == 0
    assert timeless(report.to_dict()) == timeless(json.loads(capsys.readouterr().out))
    assert json.loads(report.to_json()) == report.to_dict()
    assert report.to_dict() == json.loads(format_table(report.table, "json"))


def test_an_explicit_budget_and_seed_are_used():
    budget = Budget(cases=5, small_scope=10, seconds=5.0, horizon=64)
    report = axiometer.check("RR", ["Conf"], budget=budget, seed=7)
    assert report.table.seed == 7 and report.table.budget == budget.describe()
    assert report.holds("Conf") is False


def test_the_examples_in_docs_api_md_print_what_they_say():
    """The guide's first two examples run and give the values written in their comments."""
    text = (Path(__file__).parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    namespace: dict = {}
    exec(blocks[0], namespace)
    assert "report.verdicts                    # {'Pri': 'satisfied', 'Conf': 'violated'}" in blocks[0]
    assert namespace["report"].verdicts == {"Pri": "satisfied", "Conf": "violated"}
    assert namespace["report"].failures({"Pri": True}) == []
    exec(blocks[1], namespace)
    assert "# 'witness for p = 0.8; violated for p = 0.5'" in blocks[1]
    assert namespace["report"].cells[0].summary == "witness for p = 0.8; violated for p = 0.5"


@pytest.mark.parametrize("proofs", [True, False])
def test_the_api_proves_rbp_priority_unless_told_not_to(proofs):
    report = axiometer.check("RBP(p=0.8)", ["Pri"], budget=Budget(cases=50, small_scope=60, proof_docs=3), proofs=proofs)
    strength = report.table.cells[0].checks[0].evidence.strength
    assert (strength is Strength.PROVED) is proofs


# -- axiometer.agree ---------------------------------------------------------------------------
# The implementations are tests/agreement/implementations.py's: `ndcg` written as trec_eval computes
# it, `rr_from_zero` counting ranks from 0 (so 1/0 at rank 1), and `ndcg_ideal_from_run` with the
# learning-to-rank libraries' ideal ranking (from the run's documents only).

def test_agree_is_exported_from_the_package():
    from axiometer.agreement.agree import DEFAULT_QUERIES, DEFAULT_TOLERANCE
    from axiometer.agreement.result import Agreement, AgreementResult

    assert axiometer.agree is axiometer.api.agree
    assert axiometer.AgreementResult is AgreementResult and axiometer.Agreement is Agreement
    defaults = inspect.signature(axiometer.agree).parameters
    assert (defaults["queries"].default, defaults["tolerance"].default) == (DEFAULT_QUERIES, DEFAULT_TOLERANCE)
    assert defaults["seed"].default == 0


def test_importing_the_package_loads_neither_the_checker_nor_the_agreement_engine():
    probe = ("import sys, axiometer; print(sorted(m for m in ('hypothesis', 'sympy', 'axiometer.api', "
             "'axiometer.agreement.agree') if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_agree_returns_the_result_a_right_implementation_agrees():
    result = axiometer.agree(written.ndcg, "nDCG", queries=40)
    assert isinstance(result, axiometer.AgreementResult)
    assert result.agree is axiometer.Agreement.AGREES and result.ok and result.case is None
    data = result.to_dict()
    assert {"agree", "convention", "case", "values", "properties"} <= set(data)
    assert data["agree"] == "agrees" and data["convention"]["departures"] == {}


def test_agree_a_wrong_implementation_differs_with_a_minimal_case():
    result = axiometer.agree(written.rr_from_zero, "RR", queries=40)
    assert result.agree is axiometer.Agreement.DIFFERS and not result.ok
    assert result.case is not None and result.case.query.size <= 3
    assert result.to_dict()["values"]["implementation"] != result.to_dict()["values"]["reference"]


def _untimed(result) -> dict:
    """The result's JSON without the time it took (the one part two runs do not share)."""
    return {key: value for key, value in result.to_dict().items() if key != "seconds"}


@pytest.mark.parametrize("strings", [["ideal=run"], "ideal=run", ("ideal=run",)])
def test_agree_conventions_as_strings_or_as_a_mapping_give_the_same_result(strings):
    as_mapping = axiometer.agree(written.ndcg_ideal_from_run, "nDCG", queries=40, conventions={"ideal": "run"})
    as_strings = axiometer.agree(written.ndcg_ideal_from_run, "nDCG", queries=40, conventions=strings)
    assert as_mapping.agree is axiometer.Agreement.AGREES            # agrees outright under what it states
    assert dict(as_mapping.convention.departures()) == {"ideal": "run"}
    assert _untimed(as_strings) == _untimed(as_mapping)


@pytest.mark.parametrize("conventions, error", [
    ({"ties": "random"}, "conventions 'ties=random': ties is one of docid-desc, docid-asc, input, reverse-input"),
    (["colour=red"], "conventions 'colour=red': expected AXIS=VALUE with AXIS one of ties, precision, *"),
    ([("ties", "input")], "conventions: give a dict {axis: value} or strings 'AXIS=VALUE'"),
])
def test_agree_a_bad_convention_is_one_clear_error(conventions, error):
    with pytest.raises(AxiometerError) as raised:
        axiometer.agree(written.ndcg, "nDCG", queries=5, conventions=conventions)
    assert fnmatch.fnmatch(str(raised.value), f"*{error}*"), str(raised.value)


def test_agree_refuses_a_tolerance_that_is_not_a_number():
    with pytest.raises(InputError, match="the tolerance must be a finite number"):
        axiometer.agree(written.ndcg, "nDCG", queries=5, tolerance=float("nan"))


def test_the_agree_example_in_docs_api_md_gives_what_its_comments_say():
    text = (Path(__file__).parent.parent / "docs" / "api.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "axiometer.agree(" in b]
    namespace: dict = {}
    exec(block, namespace)
    result, stated = namespace["result"], namespace["stated"]
    assert "result.agree                       # Agreement.AGREES_UNDER" in block
    assert result.agree is axiometer.Agreement.AGREES_UNDER
    assert "result.convention.departures()     # [('ties', 'input')]" in block
    assert result.convention.departures() == [("ties", "input")]
    assert "result.ok                          # True" in block and result.ok
    assert "stated.agree                       # Agreement.AGREES:" in block
    assert stated.agree is axiometer.Agreement.AGREES


# -- notebooks ---------------------------------------------------------------------------------

def _one_row(table: TableResult, row: str) -> TableResult:
    return dataclasses.replace(table, rows=(row,), cells=tuple(c for c in table.cells if c.row == row))


def test_the_repr_says_how_a_verdict_depends_on_the_parameters():
    report = MetricReport(_one_row(sample_table(), "RBP"))
    dependent = report.cell("DeepTh")
    assert len({check.verdict for check in dependent.checks}) > 1
    assert repr(report).startswith("MetricReport('RBP', {")
    assert f"'DeepTh': {dependent.summary!r}" in repr(report) and "'Pri': 'satisfied'" in repr(report)


def test_the_rbp_report_shows_in_a_notebook_as_an_html_table_and_tidy_rows():
    """The issue's "done when": RBP's report is an HTML table, where CloseTh's verdict changes with p
    (definitions §3: it needs roughly p > 3/4), and one row per constraint and setting."""
    report = axiometer.check("RBP", ["Pri", "CloseTh"], budget=QUICK, proofs=False)  # proofs: not the point
    html = report._repr_html_()
    assert html == report.table._repr_html_() and html.startswith('<div class="axiometer-nb">')
    headers = re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', html)
    assert headers[:3] == ["metric", "Pri", "CloseTh"] and "p" in headers  # the matrix, then p's settings
    frame = report.to_pandas()
    assert len(frame) == sum(len(cell.checks) for cell in report.cells)
    assert set(zip(frame["constraint"], frame["p"])) == {
        (cell.constraint, dict(check.params)["p"]) for cell in report.cells for check in cell.checks}
    assert frame[frame["constraint"] == "CloseTh"]["verdict"].nunique() > 1
    assert frame[frame["default"]]["verdict"].tolist() == [str(v) for v in report.verdicts.values()]
