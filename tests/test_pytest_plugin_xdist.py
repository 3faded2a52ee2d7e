"""The pytest plugin under pytest-xdist: ``-n 2`` gathers every worker's checks into the one report.

Each comparison runs the same suite twice in subprocesses, serially and with ``-n 2``, at the same
seed, and asks for byte-identical report files: the workers' results all reach the controller, in
the order a serial run checks them, under one seed.
"""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("xdist")

pytest_plugins = ["pytester"]

# The example repository's copy into pytester's directory, as the serial plugin tests make it.
from tests.cli_run import timeless  # noqa: E402
from tests.test_pytest_plugin import EXAMPLE_TEST, example  # noqa: E402,F401 (a fixture)


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess("-p", "no:cacheprovider",
                                         "-W", "error::pytest.PytestReturnNotNoneWarning", *args)


def _report_pairs(pytester: pytest.Pytester, *args: str, names: tuple[str, ...]) -> None:
    """Run serially and with -n 2 once per report name; each pair of files must be byte-identical (a
    JSON report: identical but for the proofs' times)."""
    for name in names:
        serial = _run(pytester, *args, f"--axiometer-report=serial/{name}")
        parallel = _run(pytester, "-n", "2", *args, f"--axiometer-report=xdist/{name}")
        assert serial.ret == parallel.ret
        parallel.stdout.fnmatch_lines([f"axiometer: wrote the matrix of 1 metric(s) to *{name}"])
        xdist, serial_file = pytester.path / "xdist" / name, pytester.path / "serial" / name
        if name.endswith(".json"):  # the same but for the proofs' times, which only the JSON carries
            assert timeless(json.loads(xdist.read_text())) == timeless(json.loads(serial_file.read_text()))
        else:
            assert xdist.read_bytes() == serial_file.read_bytes()


# -- the example repository ----------------------------------------------------------------

def test_example_report_under_xdist_is_the_serial_report(example):
    # The axioms' test file alone: the report is its matrix (the example's agree test, which writes no
    # matrix, runs under xdist in the wrong-expectation test below).
    _report_pairs(example, EXAMPLE_TEST, "--hypothesis-seed=7", names=("axioms.md", "axioms.json"))
    data = json.loads((example.path / "xdist" / "axioms.json").read_text())
    verdicts = {cell["constraint"]: cell["verdict"] for cell in data["cells"]}
    assert verdicts == {"Pri": "satisfied", "CloseTh": "witness", "Deep": "violated", "Conf": "violated"}


def test_example_with_a_wrong_expectation_fails_under_xdist_with_the_counterexample(example):
    test = example.path / EXAMPLE_TEST
    test.write_text(test.read_text().replace('expect={"Deep": False}', 'expect={"Deep": True}'))
    result = _run(example, "-n", "2", "--hypothesis-seed=7")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines([
        "*test_priority_holds_deepness_does_not*",
        "axiometer: discounted_graded_precision: 1 of 3 constraint(s) differ from what the test expects",
        "  Deep: expected to hold, got violated",
        "  budget: *; seed *",
        "*discounted_graded_precision × Deep (Deepness): violated*",
        "*a = d*",
        "*b = d*",
        "*required Q(b) > Q(a), which fails*",
    ])
    out = result.stdout.str()
    assert "Traceback" not in out and "pytest_plugin.py" not in out
    assert "Pri: expected" not in out
    assert "drawn for this session" not in out   # the seed the option (or a derandomized profile) fixes


# -- many metrics over both workers, a drawn seed -------------------------------------------

SUITE = """
    import pytest

    @pytest.mark.axioms("Conf", expect={"Conf": False})
    @pytest.mark.parametrize("k", [3, 5, 10])
    def test_precision(k):
        return f"P@{k}"

    @pytest.mark.axioms("Pri", expect={"Conf": False}, metric="RBP(p=0.5)")
    def test_rbp():
        pass

    def test_ndcg(axiometer_check):
        report = axiometer_check("nDCG@10", expect={"Pri": True, "Conf": False})
        assert report.holds("Conf") is False

    def test_err(axiometer_check):
        axiometer_check("ERR@10", constraints=["Pri"], expect={"Conf": False})

    @pytest.mark.axioms("Conf", expect={"Conf": False}, metric="AP")
    def test_ap():
        pass

    def test_rr_wrongly_expected_to_hold(axiometer_check):
        axiometer_check("RR", constraints=["Pri", "Conf"])   # RR violates both
"""
ROWS = ["P@3", "P@5", "P@10", "RBP(p=0.5)", "nDCG@10", "ERR@10", "AP", "RR"]   # collection order


def test_every_workers_checks_reach_the_report_in_collection_order_under_one_seed(pytester):
    # A profile that does not derandomize: the seed is drawn, once, by the controller.
    pytester.makeconftest("""
        import os
        from pathlib import Path

        import pytest
        from hypothesis import settings

        settings.register_profile("xd", max_examples=10, derandomize=False)
        settings.load_profile("xd")

        @pytest.fixture(autouse=True)
        def _note_the_worker():
            ran = Path(__file__).parent / "ran-on"
            ran.mkdir(exist_ok=True)
            (ran / os.environ.get("PYTEST_XDIST_WORKER", "serial")).touch()
    """)
    pytester.makepyfile(test_suite=SUITE)
    parallel = _run(pytester, "-n", "2", "--dist", "load", "--axiometer-report=xdist.json", "--axiometer-seed=random")
    parallel.assert_outcomes(passed=7, failed=1)
    assert sorted(p.name for p in (pytester.path / "ran-on").iterdir()) == ["gw0", "gw1"]
    headers = [line for line in parallel.outlines if line.startswith("axiometer: budget")]
    assert len(headers) == 1, headers   # both workers used the same budget and seed
    seed = re.fullmatch(r"axiometer: budget from hypothesis profile 'xd' \(10 random .*\), "
                        r"seed (\d+) \(drawn for this session\)", headers[0]).group(1)
    parallel.stdout.fnmatch_lines([
        "axiometer: RR: 2 of 2 constraint(s) differ from what the test expects",
        "  Pri: expected to hold, got violated",
        "  Conf: expected to hold, got violated",
        f"  budget: *; seed {seed} (drawn for this session; repeat with --axiometer-seed={seed})",
    ])
    parallel.stdout.fnmatch_lines([f"axiometer: wrote the matrix of {len(ROWS)} metric(s) to *xdist.json"])
    data = json.loads((pytester.path / "xdist.json").read_text())
    assert data["rows"] == ROWS
    assert {(c["row"], c["constraint"]) for c in data["cells"]} >= {(row, "Conf") for row in ROWS}

    serial = _run(pytester, f"--axiometer-seed={seed}", "--axiometer-report=serial.json")
    serial.assert_outcomes(passed=7, failed=1)
    # The same report but for the proofs' times (in the JSON only).
    assert timeless(json.loads((pytester.path / "xdist.json").read_text())) == \
        timeless(json.loads((pytester.path / "serial.json").read_text()))


def test_without_xdist_the_plugin_registers_no_xdist_hooks(pytester):
    pytester.makepyfile("""
        def test_check(axiometer_check, request):
            axiometer_check("P@10", expect={"Conf": False}, budget="quick")
            assert request.config.pluginmanager.get_plugin("axiometer-xdist") is None
    """)
    result = _run(pytester, "-p", "no:xdist", "--axiometer-report=m.md")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["axiometer: wrote the matrix of 1 metric(s) to *m.md"])
