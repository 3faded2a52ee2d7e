"""`axiometer agree IMPL SPEC` end to end: the exit status says the verdict (0 agrees, 1 differs or a
property fails, 2 bad input as one stderr line), the report shows the case, the values and the
convention, JSON has its keys, -o writes the file. Per-query functions of
tests/agreement/implementations.py and trec_eval's code through ir_measures keep each run short."""

from __future__ import annotations

import json
import re

import pytest

from tests.cli_run import flat, run_cli, wrote

IMPLS = "tests.agreement.implementations"
QUICK = ("--queries", "40")


def rr_undefined_without_relevant(grades: dict[str, int], scores: dict[str, float]) -> float:
    """RR, right wherever a relevant document was judged; it raises on a query without one."""
    if not any(g > 0 for g in grades.values()):
        raise ValueError("no relevant document")
    ranked = sorted(scores, key=lambda d: (scores[d], d), reverse=True)
    return next((1 / i for i, d in enumerate(ranked, 1) if grades.get(d, 0) > 0), 0.0)


def test_a_right_implementation_exits_0(capsys):
    status, out, err = run_cli(capsys, "agree", f"{IMPLS}:ndcg", "nDCG", *QUICK)
    assert status == 0, err
    assert out.startswith(f"{IMPLS}:ndcg against nDCG: agrees (on 49 queries)\n")
    assert err == ""


def test_a_peer_that_agrees_under_a_convention_exits_0_and_names_it(capsys):
    status, out, _ = run_cli(capsys, "agree", "ir_measures/pytrec_eval:RR", "RR", *QUICK)
    assert status == 0
    assert flat(out).startswith("ir_measures/pytrec_eval:RR against RR: agrees under a convention: scores "
                                "rounded to float32 before they are compared (trec_eval's C float)")
    run = flat(out).split("Run, in the order of its lines:")[1].split("Values on this query:")[0]
    assert re.search(r"\d\.\d{12,}", run)  # a score one unit in the last place off a round one
    assert re.search(r"reference under the convention: [\d.]+", flat(out))


def test_a_bug_exits_1_with_its_minimal_case_and_values(capsys):
    status, out, _ = run_cli(capsys, "agree", f"{IMPLS}:rr_from_zero", "RR", *QUICK)
    assert status == 1
    words = flat(out)
    assert "differs: no convention explains it (a bug), minimal case below" in words
    assert "Judgments: document grade -------- ----- a " in words
    assert "Run, in the order of its lines: document score -------- -----" in words
    assert re.search(r"implementation: [\d.]+ reference \(RR, its own conventions\): [\d.]+ \(exactly ", words)
    assert "raised ZeroDivisionError: division by zero" in words.split("✗ defined")[1]


def test_a_failing_property_exits_1_even_when_the_values_agree(capsys):
    status, out, _ = run_cli(capsys, "agree", "tests.cli.test_agree:rr_undefined_without_relevant", "RR", *QUICK)
    assert status == 1
    words = flat(out)
    # Where it raises there is no value to compare under norel=none; the property says what it did.
    assert "agrees under a convention: no value for a query with no relevant document" in words
    assert "but a property fails: defined" in words
    assert "✗ defined:" in words and "raised ValueError: no relevant document" in words


def test_a_convention_asked_for_is_assumed_instead_of_searched(capsys):
    asked = run_cli(capsys, "agree", f"{IMPLS}:ndcg_ideal_from_run", "nDCG", *QUICK, "--convention", "ideal=run")
    assert asked[0] == 0
    assert "agrees under the convention asked for: the ideal ranking from the run's retrieved documents" \
        in flat(asked[1])
    assert run_cli(capsys, "agree", f"{IMPLS}:ndcg_ideal_from_run", "nDCG", *QUICK)[0] == 1


def test_json_has_the_verdict_convention_case_values_and_properties(capsys):
    status, out, _ = run_cli(capsys, "agree", f"{IMPLS}:rr_from_zero", "RR", *QUICK, "--format", "json")
    data = json.loads(out)
    assert status == 1
    assert {"agree", "convention", "case", "values", "properties"} <= set(data)
    assert data["agree"] == "differs" and data["convention"] is None
    assert data["values"]["implementation"] != data["values"]["reference"]
    assert data["values"]["difference"] == data["values"]["implementation"] - data["values"]["reference"]
    defined = next(p for p in data["properties"] if p["name"] == "defined")
    assert not defined["holds"] and "raised ZeroDivisionError: division by zero" in defined["detail"]


def test_output_goes_to_the_file_and_stdout_says_what_was_written(capsys, tmp_path):
    target = tmp_path / "agree.md"
    status, out, err = run_cli(capsys, "agree", f"{IMPLS}:ndcg", "nDCG", *QUICK, "--format", "markdown",
                               "-o", target)
    assert (status, out, err) == (0, wrote(target), "")
    assert target.read_text(encoding="utf-8").startswith(f"**{IMPLS}:ndcg against nDCG: agrees")


@pytest.mark.parametrize("argv, message", [
    (("--convention", "ties=up"), "--convention 'ties=up': ties is one of docid-desc, docid-asc, input"),
    (("--convention", "speed=fast"), "--convention 'speed=fast': expected AXIS=VALUE with AXIS one of ties"),
    (("--queries", "0"), "--queries must be at least 1, got 0"),
    (("--tolerance", "-1"), "--tolerance must be a finite number, 0 or more"),
    (("--case-seconds", "nan"), "--case-seconds must be a finite number of seconds, 0 or more"),
])
def test_a_bad_option_is_one_error_line_before_any_work(capsys, argv, message):
    status, out, err = run_cli(capsys, "agree", "no_such_module:f", "RR", *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"axiometer: error: {message}")


@pytest.mark.parametrize("impl, spec, message", [
    ("no_such_module:f", "RR", "implementation 'no_such_module:f': module 'no_such_module' not found"),
    (f"{IMPLS}:no_such_function", "RR", "has no attribute 'no_such_function'"),
    ("ir_measures:NoSuchMeasure", "RR", "ir_measures cannot read measure 'NoSuchMeasure'"),
    (f"{IMPLS}:ndcg", f"{IMPLS}:ndcg", "the reference must be a built-in metric"),
    (f"{IMPLS}:ndcg", "NRG(base=nDCG@3)", "agree compares metrics of one grade per document"),
    (f"{IMPLS}:ndcg", "nDCG@", "expected a positive integer cutoff"),
])
def test_an_unknown_implementation_or_a_reference_that_is_not_a_built_in_is_one_error_line(
        capsys, impl, spec, message):
    status, out, err = run_cli(capsys, "agree", impl, spec, "--queries", "1")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("axiometer: error: ") and message in err


def test_the_command_s_defaults_are_the_engine_s():
    from axiometer.agreement import agree, audit
    from axiometer.cli import agree as agree_command, audit as audit_command

    assert agree_command.DEFAULT_QUERIES == agree.DEFAULT_QUERIES
    assert agree_command.DEFAULT_TOLERANCE == agree.DEFAULT_TOLERANCE
    assert audit_command.PROVIDERS == audit.PROVIDERS


def test_the_help_explains_the_forms_of_impl_and_the_exit_statuses(capsys):
    with pytest.raises(SystemExit):
        run_cli(capsys, "agree", "--help")
    help_text = flat(capsys.readouterr().out)
    for form in ("module:function", "fn(grades: dict[str, int], scores: dict[str, float]) -> float",
                 "pytrec_eval:MEASURE", "ir_measures:MEASURE", "ir_measures/PROVIDER:MEASURE", "ranx:METRIC"):
        assert form in help_text, form
    assert "exit status: 0 when it agrees (outright or under a convention) and every property holds; 1 when " \
           "it differs or a property fails; 2 for bad input" in help_text


def test_the_excerpt_in_docs_cli_md_is_real_output(capsys, monkeypatch, tmp_path):
    import re
    import sys
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    section = docs[docs.index("## `axiometer agree IMPL SPEC`"):]
    section = section[:section.index("\n## ", 10)]
    (source,) = re.findall(r"```python\n(.*?)```", section, re.S)
    (excerpt,) = re.findall(r"```text\n(.*?)```", section, re.S)
    (tmp_path / "mymetrics.py").write_text(source, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delitem(sys.modules, "mymetrics", raising=False)
    try:
        status, out, _ = run_cli(capsys, "agree", "mymetrics:rr", "RR", "--queries", "50")
    finally:
        sys.modules.pop("mymetrics", None)
    assert status == 1
    seconds = re.compile(r"\d+\.\d seconds")  # the one part that differs between two runs
    assert seconds.sub("N seconds", out) == seconds.sub("N seconds", excerpt)


def test_the_readme_excerpt_is_real_output(capsys, monkeypatch):
    """The README's `agree` example: each line of its excerpt appears, in order, in the real output."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    start = readme.index("**Is an implementation right?**")
    command = re.search(r"```sh\n(axiometer agree [^\n]*)\n```", readme[start:]).group(1)
    excerpt = re.search(r"```text\n(.*?)```", readme[start:], re.S).group(1)
    monkeypatch.setenv("COLUMNS", "100")
    status, out, _ = run_cli(capsys, *command.split()[1:])
    assert status == 0
    lines, at = out.splitlines(), 0
    for wanted in (line for line in excerpt.splitlines() if line != "..."):
        at = lines.index(wanted, at) + 1


def hangs(grades, scores):
    while True:
        pass


def test_an_implementation_that_hangs_is_one_error_line_naming_the_query(capsys):
    status, out, err = run_cli(capsys, "agree", "tests.cli.test_agree:hangs", "RR", "--queries", "5",
                               "--case-seconds", "0.1")
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and "took longer than 0.1 s on judgments" in err and "(a hang?)" in err
