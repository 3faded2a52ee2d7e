"""`axiometer check REF` on a metric author's code: `module:function` with `--param` grids and
`--cutoff`, built-in specs with `--param`, one error line (exit 2) for a bad reference, and
agreement of `axiometer check mymod:f`, `axiometer.check("mymod:f")` and `axiometer.check(f)`."""

from __future__ import annotations

import json
import re
import sys
from fractions import Fraction

import pytest

import axiometer
from axiometer.cli.params import param_options as _param_options
from axiometer.metrics import Grid, Range
from tests.metrics.test_resolve import scratch_module  # noqa: F401  (a fixture, shared)
from tests.cli_run import run_cli, wrote
from tests.cli_run import timeless, without_formulas

#: A new metric written by hand: a position-discounted graded precision,
#: sum_{i<=k} r(d_i) * w^(i-1) / k with a decay w.
NEW_METRIC = """
def discounted_precision(ranking, topic, k=10, w=0.9):
    return sum(float(topic.r(d)) * w ** i for i, d in enumerate(ranking[:k])) / k

def rbp(ranking, topic, p=0.8):
    return (1 - p) * sum(p ** i * float(topic.r(d)) for i, d in enumerate(ranking))

def broken(ranking, topic):
    return None

not_a_metric = [1, 2]
"""

QUICK = ("--quick", "--jobs", "1")


def json_cli(capsys, *argv: str) -> dict:
    status, out, err = run_cli(capsys, *argv, "--format", "json")
    assert status == 0, err
    return json.loads(out)


def test_a_function_with_a_param_grid(capsys, scratch_module):
    scratch_module("mymod", NEW_METRIC)
    data = json_cli(capsys, "check", "mymod:rbp", "--param", "p=0.5,0.8", "--constraints", "CloseTh",
                    "Pri", *QUICK)
    closeth, pri = data["cells"]
    assert data["rows"] == ["rbp"] and closeth["metric"] == "rbp(p=0.8)"
    # definitions §3: CloseTh holds for RBP at p = 0.8, not at p = 0.5; RBP satisfies Priority.
    assert {dict(c["params"])["p"]: c["verdict"] for c in closeth["checks"]} == {0.5: "violated", 0.8: "witness"}
    assert closeth["verdict"] == "witness" and closeth["parameter_dependent"]
    assert pri["verdict"] == "satisfied"


def test_text_report_and_output_file(capsys, scratch_module, tmp_path):
    scratch_module("mymod", NEW_METRIC)
    target = tmp_path / "report.md"
    status, out, err = run_cli(capsys, "check", "mymod:rbp", "--param", "p=1/2", "--constraints", "CloseTh",
                               *QUICK, "--format", "markdown", "-o", str(target))
    assert status == 0 and out == wrote(target) and err == ""
    text = target.read_text(encoding="utf-8")
    # A fraction is read exactly and written as the number it is.
    assert text.startswith("## rbp(p=0.5): 1 constraint\n")
    assert re.search(r"^\| CloseTh +\| ✗ +\| violated +\|$", text, re.M)
    # A file holds the full report: the counterexample's details, without --details.
    assert "#### rbp × CloseTh (Closeness threshold): violated" in text and "a = r1 n1" in text
    assert "--details prints" not in text


def test_cutoff_reaches_the_function(capsys, scratch_module):
    scratch_module("mymod", NEW_METRIC)
    data = json_cli(capsys, "check", "mymod:discounted_precision", "--cutoff", "3", "--constraints", "Conf",
                    *QUICK)
    (cell,) = data["cells"]
    assert cell["metric"] == "discounted_precision@3"
    # Dividing by k, an appended non-relevant document changes nothing: Confidence fails.
    assert cell["verdict"] == "violated"


def test_param_grid_overrides_a_builtin_grid(capsys):
    data = json_cli(capsys, "check", "RBP", "--param", "p=0.5,0.9", "--constraints", "CloseTh", *QUICK)
    (cell,) = data["cells"]
    # The metric's own p = 0.8 is always checked too: the mark is its verdict.
    assert sorted(dict(c["params"])["p"] for c in cell["checks"]) == [0.5, 0.8, 0.9]
    fixed = json_cli(capsys, "check", "RBP", "--param", "p=0.5", "--constraints", "CloseTh", *QUICK)
    assert fixed["rows"] == ["RBP(p=0.5)"] and fixed["cells"][0]["verdict"] == "violated"
    assert fixed == json_cli(capsys, "check", "RBP(p=0.5)", "--constraints", "CloseTh", *QUICK)


def test_param_values_are_typed():
    assert _param_options(["p=0.5,1/2,3,1e-3", "form=reference", "q='x y'", "n=nan"]) == {
        "p": Grid([0.5, Fraction(1, 2), 3, 0.001]), "form": "reference", "q": "x y", "n": "nan"}
    assert _param_options(["p=0.5..0.99"]) == {"p": Range(0.5, 0.99)}
    types = [type(v) for v in _param_options(["p=0.5,1/2,3"])["p"].values]
    assert types == [float, Fraction, int]


@pytest.mark.parametrize("argv, message", [
    (["check", "mymod:not_a_metric"], "'mymod:not_a_metric' is not callable (it is a list)"),
    (["check", "mymod:nothing"], "module 'mymod' has no attribute 'nothing'"),
    (["check", "othermod_s3:f"], "module 'othermod_s3' not found (searched the current directory"),
    (["check", "mymod:rbp", "--param", "p"], "--param: expected NAME=VALUE"),
    (["check", "mymod:rbp", "--param", "p=1", "--param", "p=2"], "parameter p is given twice"),
    (["check", "mymod:rbp", "--param", "q=1"], "does not accept declared parameter 'q'"),
    (["check", "RBP", "--param", "p=2"], "outside its range"),
    (["check", "P@", "--quick"], "positive integer cutoff"),
])
def test_bad_references_are_one_line_and_status_2(capsys, scratch_module, argv, message):
    scratch_module("mymod", NEW_METRIC)
    status, out, err = run_cli(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("axiometer: error: ") and err.count("\n") == 1 and message in err


def test_an_exception_at_import_is_one_line(capsys, scratch_module, tmp_path):
    scratch_module("crashmod", "import os\nos.environ['__S3_NOPE__']\n")
    status, out, err = run_cli(capsys, "check", "crashmod:f", "--quick")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert f"raised KeyError: '__S3_NOPE__' (at {tmp_path / 'crashmod.py'}:2)" in err


def test_a_misbehaving_function_still_gives_a_complete_report(capsys, scratch_module):
    scratch_module("mymod", NEW_METRIC)
    data = json_cli(capsys, "check", "mymod:broken", "--constraints", "Pri", "Conf", *QUICK)
    assert [c["verdict"] for c in data["cells"]] == ["error", "error"]
    assert all("None" in c["error"]["message"] for c in data["cells"])


def test_cli_module_reference_and_python_api_agree(capsys, scratch_module):
    """`axiometer check mymod:f`, `axiometer.check("mymod:f")` and `axiometer.check(f)`: same verdicts, same JSON."""
    scratch_module("mymod", NEW_METRIC)
    constraints = ["Pri", "Deep", "Conf", "CloseTh"]
    # The function reads only its top k = 10: declared, Pri's swaps stay within them (without it, a
    # relevant document moved from rank 12 to 11 scores 0 both times, which the check finds).
    cli = json_cli(capsys, "check", "mymod:discounted_precision", "--param", "w=0.5,0.9", "--cutoff", "10",
                   "--constraints", *constraints, "--seed", "5", *QUICK)
    by_ref = axiometer.check("mymod:discounted_precision", constraints, params={"w": [0.5, 0.9]},
                             cutoff=10, budget="quick", seed=5)
    function = sys.modules["mymod"].discounted_precision
    by_function = axiometer.check(function, constraints, params={"w": [0.5, 0.9]}, cutoff=10, budget="quick",
                                  seed=5)
    assert by_ref.verdicts == by_function.verdicts == {c["constraint"]: c["verdict"] for c in cli["cells"]}
    # The same report but for the proofs' times (and the formulas a JSON report keeps for another solver).
    assert timeless(by_ref.to_dict()) == timeless(by_function.to_dict()) == without_formulas(timeless(cli))
    # The metric discounts by position (Priority holds) but divides by k (Confidence fails).
    assert by_ref.holds("Pri") is True and by_ref.holds("Conf") is False


LINEAR_DCG = """
def linear_dcg(ranking, topic, b=0.1):
    return sum(topic.r(d) * max(0.0, 1.0 - b * (i - 1)) for i, d in enumerate(ranking, start=1))
"""


def test_a_linear_discount_reaching_zero_violates_pri_over_its_whole_range_with_no_boundary(capsys, scratch_module):
    # Issue 26: the discount is 0 from rank 1 + 1/b on, so a relevant document moved up one rank there
    # scores 0 both times, at every b > 0; rankings of at most 8 documents never showed it below b = 1/6.
    # The long-ranking probe runs at every setting and in every boundary probe, not only the default's.
    scratch_module("lindcg", LINEAR_DCG)
    data = json_cli(capsys, "check", "lindcg:linear_dcg", "--param", "b=0.05..0.9", "--constraints", "Pri", *QUICK)
    cell = data["cells"][0]
    assert cell["verdict"] == "violated" and not cell["boundaries"]
    assert {check["verdict"] for check in cell["checks"]} == {"violated"} and len(cell["checks"]) >= 3


def test_an_ir_measures_reference_agrees_with_the_builtin(capsys):
    pytest.importorskip("ir_measures")
    bridge = json_cli(capsys, "check", "ir_measures:P@5", "--constraints", "Pri", "Conf", *QUICK)
    builtin = json_cli(capsys, "check", "P@5", "--constraints", "Pri", "Conf", *QUICK)
    assert bridge["rows"] == ["ir_measures:P@5"]
    # P@k ignores order inside the cutoff and divides by k: both constraints fail, as computed by trec_eval too.
    assert [c["verdict"] for c in bridge["cells"]] == [c["verdict"] for c in builtin["cells"]] == [
        "violated", "violated"]


def test_table_takes_references_too(scratch_module, capsys, monkeypatch):
    """`axiometer table --metrics` resolves module:attr and ir_measures: as `check` does."""
    from axiometer.cli import main

    scratch_module("tablemod", "def top_heavy(ranking, topic):\n"
                               "    return sum(topic.r(d) / (i + 1) ** 2 for i, d in enumerate(ranking))\n")
    status = main(["table", "--quick", "--jobs", "1", "--metrics", "tablemod:top_heavy", "nDCG@10",
                   "--constraints", "Pri", "Conf"])
    out = capsys.readouterr().out
    assert status == 0
    from tests.cli_run import matrix_rows

    rows = matrix_rows(out)
    # A positional 1/i^2 discount of graded gains: Priority holds, Confidence (appending a
    # non-relevant document must lower the score) cannot, as for nDCG@10.
    assert rows == {"top_heavy": ["✓ᵖ", "✗"], "nDCG@10": ["✓ᵖ", "✗"]}  # proved (structures; a lemma)
    assert main(["table", "--metrics", "tablemod:nothing"]) == 2
    assert "nothing" in capsys.readouterr().err


def test_latex_writes_the_row_as_the_tables_booktabs_table(capsys):
    status, out, err = run_cli(capsys, "check", "RBP(p=0.5)", "--constraints", "Pri", "Conf", "--quick",
                               "--no-proofs", "--jobs", "1", "--format", "latex")
    assert status == 0 and err == ""
    assert out.startswith("% Generated by axiometer (axiometer check --format latex).\n")
    assert "Metric & Pri & Conf \\\\" in out and re.search(r"^RBP\(p=0\.5\) & .* \\\\$", out, re.M)
    assert out.rstrip().endswith("\\end{table}")
