"""The command line: help, `score --example` (checked end to end against
trec_eval), output options, and errors as one stderr line with exit status 2
(the progress bar: tests/test_progress.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import os
from pathlib import Path

import pytest
import pytrec_eval

from axiometer.cli import main
from axiometer.cli.campaign_options import example_files as _example_files
from axiometer.metrics import TABLE_ROWS, parse
from axiometer.readers import read_qrels
from tests.cli_run import example_note, run_cli, score_body, wrote
from tests.metrics.test_resolve import scratch_module  # noqa: F401  (a fixture, shared)

SCRIPT = Path(sys.executable).parent / "axiometer"


def test_help_lists_the_commands(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert "usage: axiometer" in out and "score" in out


def test_no_command_prints_help_and_fails(capsys):
    status, _, err = run_cli(capsys)
    assert status == 2 and "score" in err


def test_score_example_with_the_table_metrics(capsys):
    status, out, err = run_cli(capsys, "score", "--example")
    assert status == 0 and err == example_note()
    lines = score_body(out)
    assert lines[0] == "Means over 3 qrels topics:"
    # 20 metrics, 3 runs: one row per metric, one column per run.
    assert lines[2].split() == ["metric", "partial", "random", "strong"]
    assert [line.split()[0] for line in lines[4:24]] == [parse(spec).name for _, spec in TABLE_ROWS]
    assert "partial: missing 1 of the 3 qrels topics, scored 0 (271)" in lines


def test_score_example_agrees_with_trec_eval(capsys):
    """End to end: the bundled files read as trec_eval reads them (ties broken
    by docno descending), P@10 and nDCG@10 per topic equal trec_eval's P_10 and
    ndcg_cut_10 (gain = grade, so the linear mapping) within 1e-9."""
    status, out, _ = run_cli(capsys, "score", "--example", "--grades", "linear", "--per-topic",
                             "--metric", "P@10", "--metric", "nDCG@10", "--format", "json")
    assert status == 0
    ours = {(r["run"], r["topic"], r["metric"]): r["value"] for r in json.loads(out) if "topic" in r}
    with _example_files() as (qrels_path, run_paths):
        grades = read_qrels(qrels_path).grades
        trec_qrels = {q: {d: max(per.values()) for d, per in table.items()}
                      for q, table in grades.items()}
        evaluator = pytrec_eval.RelevanceEvaluator(trec_qrels, {"P_10", "ndcg_cut_10"})
        for path in run_paths:
            raw: dict[str, dict[str, float]] = {}
            for line in path.read_text().splitlines():
                qid, _, doc, _, score, tag = line.split()
                raw.setdefault(qid, {})[doc] = float(score)
            theirs = evaluator.evaluate(raw)
            for qid in trec_qrels:
                values = theirs.get(qid, {"P_10": 0.0, "ndcg_cut_10": 0.0})  # trec_eval -c
                assert ours[tag, qid, "P@10"] == pytest.approx(values["P_10"], abs=1e-9)
                assert ours[tag, qid, "nDCG@10"] == pytest.approx(values["ndcg_cut_10"], abs=1e-9)
    assert len(ours) == 3 * 3 * 2


def test_output_file_and_markdown(capsys, tmp_path):
    target = tmp_path / "scores.md"
    status, out, err = run_cli(capsys, "score", "--example", "--metric", "RR", "--format",
                               "markdown", "-o", str(target))
    assert status == 0 and out == wrote(target) and err == example_note()
    lines = target.read_text().splitlines()
    assert "| run     |       RR |" in lines and "| partial | 0.666667 |" in lines  # 6 significant digits
    assert "- partial: missing 1 of the 3 qrels topics, scored 0 (271)" in lines


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path):
    return {"qrels": write(tmp_path, "good.qrels", "q1 0 a 1\nq1 0 b 0\n"),
            "bad_qrels": write(tmp_path, "bad.qrels", "q1 0 a 1\nq1 0 b\n"),
            "run": write(tmp_path, "good.run", "q1 Q0 a 1 2 t\nq1 Q0 b 2 1 t\n"),
            "dup_run": write(tmp_path, "dup.run", "q1 Q0 a 1 2 t\nq1 Q0 b 2 1 t\nq1 Q0 a 3 0 t\n")}


@pytest.mark.parametrize("qrels, run, metric, message", [
    ("bad_qrels", "run", "P@1", "{bad_qrels}:2: expected 4 columns (qid iter docno grade), found 3"),
    ("qrels", "dup_run", "P@1", "{dup_run}:3: duplicate document 'a' in topic 'q1' (first at line 1)"),
    ("qrels", "run", "nDCG@x", "metric 'nDCG@x': expected a positive integer cutoff after '@' "
                               "at column 6, found 'x'"),
])
def test_errors_are_one_stderr_line_and_status_2(capsys, files, qrels, run, metric, message):
    status, out, err = run_cli(capsys, "score", "--qrels", files[qrels], "--run", files[run],
                               "--metric", metric)
    assert status == 2 and out == ""
    assert err.splitlines() == ["axiometer: error: " + message.format(**files)]


#: A metric author's module for `score`: the reciprocal rank of the first relevant document,
#: as a function and as a metric object (the built-in RR computes the same).
SCORED_MODULE = """
from axiometer.metrics import Needs

def first_hit(ranking, topic):
    return next((1.0 / i for i, d in enumerate(ranking, 1) if topic.rel(d)), 0.0)

class FirstHit:
    name = "first_hit_object"
    cutoff = None
    needs = Needs(aspects=False, graded=False)
    param_info = ()
    params = {}

    def score(self, ranking, topic, context=None):
        return first_hit(ranking, topic)

first_hit_object = FirstHit()
"""


def test_score_takes_every_reference_that_check_takes(capsys, scratch_module, files):
    """`score --metric` resolves a reference as `check` does: `module:attr` (a function or a
    metric object, imported from the current directory) beside built-in specs."""
    scratch_module("scoredmod", SCORED_MODULE)
    status, out, err = run_cli(capsys, "score", "--qrels", files["qrels"], "--run", files["run"],
                               "--metric", "scoredmod:first_hit", "--metric", "RR", "--format", "json")
    assert status == 0 and err == ""
    assert {r["metric"]: r["value"] for r in json.loads(out)} == {"first_hit": 1.0, "RR": 1.0}
    status, out, err = run_cli(capsys, "score", "--example", "--format", "json", "--metric", "RR",
                               "--metric", "scoredmod:first_hit", "--metric", "scoredmod:first_hit_object")
    assert status == 0 and err == example_note()
    means: dict[str, dict[str, float]] = {}
    for record in json.loads(out):
        means.setdefault(record["metric"], {})[record["run"]] = record["value"]
    assert set(means) == {"RR", "first_hit", "first_hit_object"} and len(means["RR"]) == 3
    assert means["first_hit"] == pytest.approx(means["RR"]) == means["first_hit_object"]
    status, out, err = run_cli(capsys, "score", "--example", "--metric", "nosuchmod_q:f")
    assert status == 2 and out == ""
    assert err.startswith("axiometer: error: metric 'nosuchmod_q:f': module 'nosuchmod_q' not found")


def test_a_missing_file_and_an_unwritable_output(capsys, files, tmp_path):
    missing = str(tmp_path / "nowhere.run")
    status, _, err = run_cli(capsys, "score", "--qrels", files["qrels"], "--run", missing)
    assert status == 2 and err.splitlines() == [f"axiometer: error: {missing}: no such file"]
    target = str(tmp_path / "no" / "dir" / "out.txt")
    status, _, err = run_cli(capsys, "score", "--qrels", files["qrels"], "--run", files["run"],
                             "--metric", "P@1", "-o", target)
    assert status == 2 and err.splitlines() == [
        f"axiometer: error: {target}: there is no directory {tmp_path / 'no' / 'dir'} to write it in"]


@pytest.mark.parametrize("argv", [
    ["score"],
    ["score", "--qrels", "q.txt"],
    ["score", "--example", "--qrels", "q.txt"],
    ["score", "--example", "--grades", "exp"],
    ["score", "--example", "--gmax", "four"],
])
def test_usage_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert "usage: axiometer score" in capsys.readouterr().err


def test_console_script_end_to_end(tmp_path):
    """Through the installed `axiometer` script: a success and an error, no traceback."""
    done = subprocess.run([str(SCRIPT), "score", "--example", "--metric", "P@5"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == example_note()
    assert score_body(done.stdout)[2].split() == ["run", "P@5"]
    bad = subprocess.run([str(SCRIPT), "score", "--example", "--metric", "Bogus@3"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stdout == ""
    [line] = bad.stderr.splitlines()
    assert line.startswith("axiometer: error: metric 'Bogus@3': unknown metric 'Bogus'")


def test_python_dash_m():
    done = subprocess.run([sys.executable, "-m", "axiometer", "--help"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "score" in done.stdout


def test_example_says_where_its_files_are(capsys):
    # Issue 27: `score --example` did not say where its files are, so a newcomer could not open them.
    status, _, err = run_cli(capsys, "score", "--example", "--metric", "RR")
    folder, files = err.splitlines()
    assert status == 0 and folder.startswith("the bundled example, in ") and folder.endswith(os.sep + ":")
    directory = Path(folder[len("the bundled example, in "):-1])
    qrels, runs = files.strip().removeprefix("qrels ").split("; runs ")
    assert (directory / qrels).is_file()
    assert sorted(runs.split(", ")) == ["partial.run", "random.run", "strong.run"]
    assert all((directory / run).is_file() for run in runs.split(", "))
