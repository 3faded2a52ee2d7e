"""`--param NAME=LOW..HIGH` and `--boundaries` on `axiometer check` and `table`: the issue's commands,
their JSON and text, and one error line (exit 2) for a bad range."""

from __future__ import annotations

import json

import pytest

from tests.checking.test_boundary import GEOMETRIC_ROOT
from tests.cli_run import run_cli


def test_check_rbp_range_reports_the_closeth_boundary_in_json_and_text(capsys):
    status, out, _ = run_cli(capsys, "check", "RBP", "--param", "p=0.5..0.99", "--constraints",
                             "CloseTh", "--jobs", "1", "--format", "json")
    assert status == 0
    (cell,) = json.loads(out)["cells"]
    (boundary,) = cell["boundaries"]
    assert abs(boundary["value"] - GEOMETRIC_ROOT) <= 1e-6
    assert boundary["closed_form"] == "root of p**3 + p**2 - 1"
    assert (boundary["below"], boundary["above"], boundary["certain"]) == ("violated", "witness", "both")
    assert {dict(c["params"])["p"] for c in cell["checks"]} == {0.5, 0.8, 0.9, 0.99}
    assert cell["evidence"]["strength"] == "proved"  # the default setting's witness: for every rc
    status, out, _ = run_cli(capsys, "check", "RBP", "--param", "p=0.5..0.99", "--constraints",
                             "CloseTh", "--jobs", "1")
    text = " ".join(out.split())
    assert "violated for p <= 0.754878 (a counterexample at every probe); witness for p > 0.754878" in text
    assert "the root of p**3 + p**2 - 1" in text and "Boundaries:" in text


def test_table_param_applies_by_name_and_by_family(capsys):
    status, out, _ = run_cli(capsys, "table", "--metrics", "RBP", "RBP_IA", "--param", "RBP.p=0.5..0.99",
                             "--constraints", "CloseTh", "--jobs", "1", "--format", "json")
    assert status == 0
    cells = {c["row"]: c for c in json.loads(out)["cells"]}
    assert len(cells["RBP"]["boundaries"]) == 1 and cells["RBP_IA"]["boundaries"] == []


@pytest.mark.parametrize("argv, message", [
    (("check", "RBP", "--param", "p=0.9..0.5"), "the range of p needs LOW < HIGH"),
    (("check", "RBP", "--param", "p=a..0.5"), "a range needs two numbers"),
    (("check", "RBP", "--param", "p=0.5..1.5"), "p=1.5"),
    (("table", "--metrics", "RBP", "--param", "q=0.1..0.2"), "no metric of the table declares parameter 'q'"),
])
def test_a_bad_range_is_one_error_line(capsys, argv, message):
    status, out, err = run_cli(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


_UNDECLARED = '''
def fifth(ranking, topic, b=0.1):
    return sum(topic.r(d) * (5 * b) ** i for i, d in enumerate(ranking))

def plain(ranking, topic):
    return sum(topic.r(d) / (i + 1) for i, d in enumerate(ranking))
'''


def test_boundaries_on_a_function_without_a_range_says_how_to_give_one(capsys, tmp_path, monkeypatch):
    # Issue 27: `--boundaries` used to do nothing, silently, for a metric author's function.
    (tmp_path / "undeclared.py").write_text(_UNDECLARED, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status, _, err = run_cli(capsys, "check", "undeclared:fifth", "--constraints", "Pri", "--quick",
                             "--no-proofs", "--jobs", "1", "--in-process", "--boundaries")
    assert status == 0
    (note,) = [line for line in err.splitlines() if line.startswith("note: --boundaries")]
    assert "fifth declares no range for b" in note
    assert "--param b=LOW..HIGH" in note and "@axiometer.parameters(b=(LOW, HIGH))" in note
    status, _, err = run_cli(capsys, "check", "undeclared:plain", "--constraints", "Pri", "--quick",
                             "--no-proofs", "--jobs", "1", "--in-process", "--boundaries")
    assert "plain has no numeric keyword parameter" in err
    # Given a range, there is something to locate, and nothing to note.
    status, _, err = run_cli(capsys, "check", "undeclared:fifth", "--constraints", "Pri", "--quick",
                             "--no-proofs", "--jobs", "1", "--in-process", "--boundaries",
                             "--param", "b=0.05..0.5")
    assert "note: --boundaries" not in err
