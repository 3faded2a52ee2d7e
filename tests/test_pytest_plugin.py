"""The pytest plugin (marker, fixture, --axiometer-report) and examples/metric-author, run with pytester
(the agreement fixture and marker: tests/test_pytest_plugin_agree.py).

The expected verdicts of the example's metric, DGP@k = (1/k) sum_{i<=k} r(d_i) (k-i+1)/k,
follow from its formula: Pri holds (the weights fall strictly within the cutoff); Deep is
violated (a linear discount gives the swap at (i, i+1) exactly the gain of the swap at
(j, j+1): a tie); CloseTh has a witness (m = 2: positions 3 and 4 weigh 8/10 + 7/10 > 1);
Conf is violated (appending a non-relevant document leaves the sum, divided by the fixed k,
unchanged). The example's nDCG@10 (my_ndcg.py) is trec_eval's but for ties, which heapq.nlargest
keeps in the run's order: it agrees with the built-in outright under ties=input, as its test states.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

# Loaded here, in this process, before any nested session: pytester drops the modules a session
# imported when it ends, but `from axiometer import api` (the plugin's) keeps finding the dropped
# module as an attribute of the package, whose reports then mix with freshly imported ones
# ("no text form for Table") when this file runs on its own.
import axiometer.api  # noqa: F401
from axiometer.checking import Budget
from axiometer.pytest_plugin import merge_tables, profile_budget, report_format
from tests.nested import run_nested as _run

pytest_plugins = ["pytester"]

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "metric-author"
EXAMPLE_TEST = "tests/test_graded_precision.py"
EXAMPLE_NDCG = "my_ndcg.py"


@pytest.fixture
def example(pytester: pytest.Pytester) -> pytest.Pytester:
    """The example repository copied into pytester's directory."""
    shutil.copytree(EXAMPLE, pytester.path, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", ".hypothesis", "*.egg-info"))
    return pytester


# -- the example repository ----------------------------------------------------------

def test_example_repository_passes(example):
    result = _run(example, "--strict-markers")
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["axiometer: budget from hypothesis profile *; agree: * generated queries), "
                                 "seed *"])


def test_example_with_a_wrong_expectation_fails_with_the_counterexample(example):
    test = example.path / EXAMPLE_TEST
    test.write_text(test.read_text().replace('expect={"Deep": False}', 'expect={"Deep": True}'))
    result = _run(example)
    result.assert_outcomes(passed=3, failed=1)
    out = result.stdout.str()
    result.stdout.fnmatch_lines([
        "*test_priority_holds_deepness_does_not*",
        "axiometer: discounted_graded_precision: 1 of 3 constraint(s) differ from what the test expects",
        "  Deep: expected to hold, got violated",
        "*discounted_graded_precision × Deep (Deepness): violated*",
        "*a = d*",
        "*b = d*",
        "*required Q(b) > Q(a), which fails*",
    ])
    assert "Traceback" not in out and "pytest_plugin.py" not in out   # a clean message, no plugin frames
    assert "Pri: expected" not in out                                 # only the differing id is reported


def test_example_ndcg_with_a_bug_fails_with_the_minimal_case(example, restore_profile):
    # The README's suggestion: the ideal ranking from the run's documents (a learning-to-rank
    # library's nDCG), which no convention searched explains.
    example.makeconftest("""
        from hypothesis import settings
        settings.register_profile("small", max_examples=40, derandomize=True)
        settings.load_profile("small")
    """)
    module = example.path / EXAMPLE_NDCG
    correct = "best = heapq.nlargest(K, (grade for grade in grades.values() if grade > 0))"
    assert correct in module.read_text()
    module.write_text(module.read_text().replace(
        correct, "best = heapq.nlargest(K, (max(grades.get(doc, 0), 0) for doc in top))"))
    result = _run(example, "tests/test_my_ndcg.py")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([
        "axiometer: ndcg_at_10 against nDCG@10: differs: no convention explains it (a bug)",
        "  conventions stated: ties=input",
        "  queries: 40 generated; seed 0",
        "Judgments:",
        "Run, in the order of its lines:",
        "Values on this query:",
        "implementation: *",
        "reference (nDCG@10, *",
    ])
    out = result.stdout.str()
    assert "Traceback" not in out and "pytest_plugin.py" not in out


def test_report_file_holds_every_metric_checked(example):
    result = _run(example, "--axiometer-report=out/matrix.json")
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["axiometer: wrote the matrix of 1 metric(s) to *matrix.json"])
    data = json.loads((example.path / "out" / "matrix.json").read_text())
    assert data["rows"] == ["discounted_graded_precision"]
    verdicts = {cell["constraint"]: cell["verdict"] for cell in data["cells"]}
    assert verdicts == {"Pri": "satisfied", "CloseTh": "witness", "Deep": "violated", "Conf": "violated"}


def test_a_report_that_cannot_be_written_is_said_and_the_tests_outcome_stands(example):
    # Issue 29: --axiometer-report to a directory crashed pytest with a traceback, lost the
    # summary and made a passing run exit 1.
    (example.path / "out").mkdir()
    result = _run(example, "--axiometer-report=out")
    result.assert_outcomes(passed=4)
    assert result.ret == 0
    out = result.stdout.str() + result.stderr.str()
    assert "Traceback" not in out and "INTERNALERROR" not in out
    result.stdout.fnmatch_lines(["axiometer: could not write the report: */out: is a directory*"])


# -- the marker ----------------------------------------------------------------------

def test_marker_names_a_builtin_a_reference_or_a_callable(pytester):
    pytester.makepyfile(mymetric="""
        def reciprocal_gain(ranking, topic):
            return sum(topic.r(d) / i for i, d in enumerate(ranking, start=1))
    """)
    pytester.makepyfile(test_names="""
        import pytest
        import mymetric

        # definitions §3: CloseTh holds for RBP at p = 0.8 but not at p = 0.5.
        @pytest.mark.axioms("Pri", "CloseTh", metric="RBP(p=0.5)", expect={"CloseTh": False},
                            budget="quick")
        def test_spec():
            pass

        # sum r/i: a relevant document at the top beats any number just below (H(2m) - H(m) < 1).
        @pytest.mark.axioms("Pri", "Deep", "CloseTh", metric="mymetric:reciprocal_gain",
                            expect={"CloseTh": False})
        def test_reference():
            pass

        @pytest.mark.axioms(expect={"Conf": False}, metric=mymetric.reciprocal_gain)
        def test_callable():
            pass

        @pytest.mark.axioms("Conf", expect={"Conf": False})
        @pytest.mark.parametrize("k", [5, 10])
        def test_returned_with_fixtures(k):
            return f"P@{k}"
    """)
    result = _run(pytester, "--strict-markers", "--axiometer-report=m.md")
    result.assert_outcomes(passed=5)
    matrix = (pytester.path / "m.md").read_text()
    for row in ("RBP(p=0.5)", "reciprocal_gain", "P@5", "P@10"):
        assert f"| {row} " in matrix


def test_marker_misuse_is_one_clear_line(pytester):
    pytester.makepyfile("""
        import pytest

        @pytest.mark.axioms("Pri")
        def test_no_metric():
            pass

        @pytest.mark.axioms("Pri", metric="P@10")
        def test_two_metrics():
            return "P@5"

        @pytest.mark.axioms("Pri", metric="P@10", expects={"Pri": True})
        def test_typo():
            pass

        @pytest.mark.axioms("Nope", metric="P@10")
        def test_unknown_constraint():
            pass

        @pytest.mark.axioms(metric="P@10", expect={"Pri": "yes"})
        def test_bad_expectation():
            pass

        @pytest.mark.axioms("Pri", metric="nosuchmodule:f")
        def test_missing_module():
            pass
    """)
    result = _run(pytester)
    result.assert_outcomes(failed=6)
    result.stdout.fnmatch_lines_random([
        "axiometer: @pytest.mark.axioms needs a metric: *",
        "axiometer: the test returns a metric and @pytest.mark.axioms names one*",
        "axiometer: unknown argument(s) expects to @pytest.mark.axioms; known: expect, *",
        "axiometer: *Nope*",
        "axiometer: expect['Pri'] must be True (holds), 'proved' (holds, proved for every real relevance "
        "value) or False (violated), not 'yes'",
        "axiometer: *nosuchmodule*",
    ])
    out = result.stdout.str()
    assert "Traceback" not in out and "During handling" not in out


def test_a_session_without_axiometer_tests_does_not_load_the_checker(pytester):
    pytester.makepyfile("""
        import sys

        def test_unrelated():
            assert "axiometer.pytest_plugin" in sys.modules       # the plugin is installed ...
            assert "axiometer.checking.check" not in sys.modules    # ... and costs nothing
    """)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "axiometer: budget" not in result.stdout.str()


def test_a_failing_test_body_is_reported_as_itself(pytester):
    pytester.makepyfile("""
        import pytest

        @pytest.mark.axioms("Pri")
        def test_body_fails():
            raise RuntimeError("the test's own failure")
    """)
    result = _run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*RuntimeError: the test's own failure*"])


# -- the fixture ---------------------------------------------------------------------

def test_fixture_returns_the_report_and_fails_on_a_mismatch(pytester):
    pytester.makepyfile("""
        def test_report(axiometer_check):
            report = axiometer_check("nDCG@10", expect={"Pri": True, "Conf": False}, budget="quick")
            assert report.verdicts == {"Pri": "satisfied", "Conf": "violated"}

        def test_expected_ids_are_checked_too(axiometer_check):
            report = axiometer_check("nDCG@10", constraints=["Pri"], expect={"conf": False},
                                     budget="quick")
            assert report.verdicts == {"Pri": "satisfied", "Conf": "violated"}

        def test_constraints_without_expect_must_hold(axiometer_check):
            axiometer_check("RR", constraints=["Pri", "Conf"], budget="quick")
    """)
    result = _run(pytester)
    result.assert_outcomes(passed=2, failed=1)
    # RR ignores everything below the first relevant document: both constraints fail.
    result.stdout.fnmatch_lines([
        "axiometer: RR: 2 of 2 constraint(s) differ from what the test expects",
        "  Pri: expected to hold, got violated",
        "  Conf: expected to hold, got violated",
    ])


def test_expect_proved_requires_a_proof_and_names_why_one_is_missing(pytester):
    pytester.makepyfile("""
        import math

        def log_gain(ranking, topic):
            return sum(math.log1p(float(topic.r(d))) / i for i, d in enumerate(ranking, start=1))

        def test_rbp_priority_is_proved(axiometer_check):
            axiometer_check("RBP", expect={"Pri": "proved"}, budget="quick")

        def test_a_float_metric_holds_but_is_not_proved(axiometer_check):
            axiometer_check(log_gain, expect={"Pri": "proved"}, budget="quick")
    """)
    result = _run(pytester)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["  Pri: expected a proof, got satisfied without one (*float()*)"])


# -- hypothesis profiles, seeds ------------------------------------------------------------

def test_budget_and_seed_follow_the_hypothesis_profile(pytester, restore_profile):
    pytester.makeconftest("""
        from hypothesis import settings
        settings.register_profile("tiny", max_examples=7, derandomize=True)
        settings.load_profile("tiny")
    """)
    pytester.makepyfile("""
        def test_profile(axiometer_check):
            report = axiometer_check("P@10", expect={"Conf": False})
            assert report.table.budget.startswith("7 random + up to 19 small-scope cases")
            assert report.table.seed == 0

        def test_explicit_budget_wins(axiometer_check):
            report = axiometer_check("P@10", expect={"Conf": False}, budget="quick", seed=5)
            assert report.table.budget.startswith("40 random")
            assert report.table.seed == 5
    """)
    result = _run(pytester)
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["axiometer: budget from hypothesis profile 'tiny' (7 random *), "
                                 "seed 0 (derandomize)"])


def test_seed_is_0_as_the_cli_s_unless_an_option_gives_one_or_draws_it(pytester, restore_profile):
    # Issue 27: a seed drawn every session let a suite that passed today fail tomorrow.
    pytester.makeconftest("""
        from hypothesis import settings
        settings.register_profile("random", max_examples=5, derandomize=False)
        settings.load_profile("random")
    """)
    pytester.makepyfile("""
        def test_seed(axiometer_check):
            axiometer_check("RR", expect={"Conf": True}, budget="quick")
    """)
    result = _run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*seed 0 (the default, as the command line's; --axiometer-seed=random "
                                 "draws one)*", "*; seed 0"])
    result = _run(pytester, "--hypothesis-seed=1234")
    result.stdout.fnmatch_lines(["*seed 1234 (--hypothesis-seed)*", "*; seed 1234"])
    result = _run(pytester, "--axiometer-seed=77")
    result.stdout.fnmatch_lines(["*seed 77 (--axiometer-seed)*", "*; seed 77"])
    result = _run(pytester, "--axiometer-seed=random")
    result.assert_outcomes(failed=1)
    header = next(line for line in result.outlines if line.startswith("axiometer: budget"))
    seed = header.split("seed ")[1].split(" ")[0]
    result.stdout.fnmatch_lines([f"*; seed {seed} (drawn for this session; repeat with "
                                 f"--axiometer-seed={seed})"])
    result = _run(pytester, "--axiometer-seed=soon")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--axiometer-seed takes an integer or 'random', not 'soon'"])


def test_every_setting_makes_a_grid_value_that_violates_fail_the_test(pytester):
    # RBP's own p is 0.8, where CloseTh holds (a witness); at p = 0.5 it is violated. The verdict
    # is the metric's own setting's, so the grid passes, unless every setting must hold.
    pytester.makepyfile("""
        import pytest

        @pytest.mark.axioms("CloseTh", params={"p": [0.5, 0.8]}, budget="quick")
        def test_own_setting():
            return "RBP"

        @pytest.mark.axioms("CloseTh", params={"p": [0.5, 0.8]}, budget="quick", every_setting=True)
        def test_every_setting():
            return "RBP"

        def test_fixture(axiometer_check):
            axiometer_check("RBP", expect={"CloseTh": True}, params={"p": [0.8, 0.9]}, budget="quick",
                            every_setting=True)
    """)
    result = _run(pytester)
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*  CloseTh: expected to hold at every setting, got violated for RBP(p=0.5)"])
    result = _run(pytester, "--axiometer-every-setting")
    result.assert_outcomes(passed=1, failed=2)


def test_profile_budget_scales_the_small_scope_with_max_examples():
    # 8/3 small-scope cases per example (400 per 150), whatever the default budget's ratio.
    assert profile_budget(settings(max_examples=60)) == Budget(cases=60, small_scope=160)
    assert profile_budget(settings(max_examples=150)) == Budget(cases=150, small_scope=400)
    assert profile_budget(settings(max_examples=100)) == Budget(cases=100, small_scope=267)
    assert profile_budget(settings(max_examples=1500)) == Budget(cases=1500, small_scope=4000)
    assert profile_budget(settings(max_examples=1)) == Budget(cases=1, small_scope=3)


# -- report helpers ------------------------------------------------------------------------

@pytest.mark.parametrize("name, fmt", [("m.md", "markdown"), ("m.JSON", "json"), ("a/m.html", "html"),
                                       ("m.tex", "latex"), ("m.txt", "text"), ("matrix", "text")])
def test_report_format_from_the_extension(name, fmt):
    assert report_format(name) == fmt


def test_merge_tables_keeps_rows_columns_and_the_first_cell():
    import axiometer

    first = axiometer.check("P@10", ["Pri", "Conf"], budget="quick").table
    second = axiometer.check("P@10", ["Conf", "Deep"], budget="quick", seed=1).table
    third = axiometer.check("RR", ["Pri"], budget="quick").table
    merged = merge_tables([first, second, third])
    assert merged.rows == ("P@10", "RR")
    assert merged.constraints == ("Pri", "Conf", "Deep")
    assert [(c.row, c.constraint) for c in merged.cells] == [
        ("P@10", "Pri"), ("P@10", "Conf"), ("P@10", "Deep"), ("RR", "Pri")]
    assert merged.cell("P@10", "Conf") is first.cells[1]
    assert dict(merged.settings)["seeds"] == "0, 1"
    assert merged.small_scope_budget == first.small_scope_budget == 120  # what the budget line states, as data
    # What each column means travels with the merged report, in column order.
    assert [info.id for info in merged.axioms] == ["Pri", "Conf", "Deep"]
    assert merged.axioms[2] is second.axioms[1]
