"""``score`` as users of ir_measures and trec_eval type it (issue 12, items 3 and 4): positional
``QRELS RUN [RUN ...] 'MEASURES'``, space-separated measures in ``--metric``, ``--format trec``
laid out as trec_eval prints, and runs with extra columns read with one note per file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from axiometer.cli import main
from axiometer.cli.campaign_options import split_measures
from tests.paths import DATA
from tests.cli_run import example_note, run_cli

TREC_EVAL = DATA / "trec_eval"

# Topics in qrels order q1, q2, q10 (trec_eval sorts them q1, q10, q2). Relevant: d1, d3, d4, d5.
QRELS = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 1\nq2 0 d4 2\nq10 0 d5 1\n"
# A: q1 d1 d2 d3; q2 d9 (unjudged) d4; q10 missing (scored 0).  B: q1 d3; q10 d5; q2 d4.
RUN_A = "q1 Q0 d1 1 3 A\nq1 Q0 d2 2 2 A\nq1 Q0 d3 3 1 A\nq2 Q0 d9 1 2 A\nq2 Q0 d4 2 1 A\n"
RUN_B = "q1 Q0 d3 1 5 B\nq10 Q0 d5 1 1 B\nq2 Q0 d4 1 1 B\n"


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str, str]:
    paths = []
    for name, text in (("qrels.txt", QRELS), ("a.run", RUN_A), ("b.run", RUN_B)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(str(tmp_path / name))
    qrels, a, b = paths
    return qrels, a, b


def usage_error(capsys, *argv: str) -> str:
    """The message of an argparse error (exit status 2)."""
    with pytest.raises(SystemExit) as exited:
        main(list(argv))
    assert exited.value.code == 2
    return capsys.readouterr().err.splitlines()[-1]


def means(out: str) -> dict[tuple[str, str], float]:
    return {(r["run"], r["metric"]): r["value"] for r in json.loads(out) if "topic" not in r}


# -- measures strings -----------------------------------------------------------

@pytest.mark.parametrize("text, specs", [
    ("nDCG@10 P@5 AP", ["nDCG@10", "P@5", "AP"]),
    ("  nDCG@10\tP@5\n", ["nDCG@10", "P@5"]),
    ("RBP(p=0.9) NRG(base=nDCG@10)", ["RBP(p=0.9)", "NRG(base=nDCG@10)"]),
    ("RBU(p=0.8, e=0.05)@10  P@5", ["RBU(p=0.8, e=0.05)@10", "P@5"]),
    ("NRG(base=RBU(p=0.8, e=0.05)@10) ir_measures:nDCG@10", ["NRG(base=RBU(p=0.8, e=0.05)@10)",
                                                             "ir_measures:nDCG@10"]),
    ("RBP(p=0.9", ["RBP(p=0.9"]),  # unbalanced: one spec, which the spec parser refuses
    ("   ", []),
])
def test_a_measures_string_splits_on_spaces_outside_parentheses(text, specs):
    assert split_measures(text) == specs


def test_metric_option_takes_a_measures_string(capsys, files):
    qrels, a, b = files
    status, out, _ = run_cli(capsys, "score", "--qrels", qrels, "--run", a, "--run", b,
                             "--metric", "P@2 RR", "--metric", "RBU(p=0.8, e=0.05)@2", "--format", "json")
    assert status == 0
    _, repeated, _ = run_cli(capsys, "score", "--qrels", qrels, "--run", a, "--run", b, "--metric", "P@2",
                             "--metric", "RR", "--metric", "RBU(p=0.8,e=0.05)@2", "--format", "json")
    assert out == repeated
    assert [metric for run, metric in means(out) if run == "A"] == ["P@2", "RR", "RBU(p=0.8,e=0.05)@2"]


def test_an_empty_metric_option_is_still_refused(capsys, files):
    qrels, a, _ = files
    status, _, err = run_cli(capsys, "score", "--qrels", qrels, "--run", a, "--metric", "  ")
    assert status == 2 and err == "axiometer: error: empty metric spec; expected e.g. 'nDCG@10'\n"


# -- positional arguments -------------------------------------------------------

def test_positional_forms_give_the_options_result(capsys, files):
    qrels, a, b = files
    _, expected, _ = run_cli(capsys, "score", "--qrels", qrels, "--run", a, "--run", b,
                             "--metric", "P@2", "--metric", "RR", "--format", "json")
    assert means(expected) == pytest.approx({("A", "P@2"): 1 / 3, ("A", "RR"): 0.5,
                                             ("B", "P@2"): 0.5, ("B", "RR"): 1.0})
    for argv in ([qrels, a, b, "P@2 RR"],                    # ir_measures' order, one string
                 [qrels, a, b, "P@2", "RR"],                 # measures as separate arguments
                 [qrels, a, b, "P@2", "--metric", "RR"],     # positional measures and --metric
                 [qrels, a, "P@2 RR", "--run", b],           # a positional run and --run
                 ["--run", a, qrels, b, "P@2 RR"],           # --run first: its run comes first
                 ["--metric", "P@2 RR", qrels, a, b]):       # the positionals after the options
        status, out, err = run_cli(capsys, "score", "--format", "json", *argv)
        assert (status, err) == (0, "") and out == expected, argv


def test_positional_measures_with_the_example(capsys):
    status, out, _ = run_cli(capsys, "score", "--example", "P@5 RR", "--format", "json")
    assert status == 0 and {metric for _, metric in means(out)} == {"P@5", "RR"}


def test_without_measures_the_table_metrics(capsys, files):
    qrels, a, _ = files
    status, out, _ = run_cli(capsys, "score", qrels, a, "--format", "json")
    assert status == 0 and len(means(out)) == 20


def test_positional_qrels_and_the_qrels_option_are_an_error_in_either_order(capsys, files):
    qrels, a, b = files
    message = (f"axiometer score: error: --qrels {qrels} and the first positional file {a} both name "
               "the qrels: give QRELS RUN..., or --qrels with the runs as --run or --runs")
    assert usage_error(capsys, "score", "--qrels", qrels, a, b, "P@2") == message
    assert usage_error(capsys, "score", a, b, "P@2", "--qrels", qrels) == message


def test_a_missing_file_taken_for_a_measure_says_both(capsys, files, monkeypatch, tmp_path):
    qrels, a, _ = files
    monkeypatch.chdir(tmp_path)  # relative paths: the message echoes them
    assert usage_error(capsys, "score", qrels, a, "c.run") == (
        "axiometer score: error: 'c.run' is no file, and not a measure either (unexpected "
        "character '.' at column 2)")
    assert usage_error(capsys, "score", "qrels.txt", "b.rn", "P@2") == (
        "axiometer score: error: 'b.rn' is no file, and not a measure either (unexpected "
        "character '.' at column 2)")


def test_a_missing_file_before_an_existing_one_is_read_and_named(capsys, files, tmp_path):
    qrels, a, _ = files
    missing = str(tmp_path / "gone.run")
    status, _, err = run_cli(capsys, "score", qrels, missing, a, "P@2")
    assert status == 2 and err == f"axiometer: error: {missing}: no such file\n"


def test_positional_files_with_the_example_are_an_error(capsys, files):
    qrels, a, _ = files
    assert "--example scores the bundled files; do not give --qrels, --run or --runs (or positional QRELS " in usage_error(
        capsys, "score", "--example", qrels, a)


def test_a_qrels_without_runs_asks_for_both_forms(capsys, files):
    qrels, _, _ = files
    assert usage_error(capsys, "score", qrels, "P@2").endswith(
        "give the qrels and runs (QRELS RUN [RUN ...], or --qrels FILE with --run FILE or --runs DIR), "
        "or --example")


def test_unanimity_takes_the_positional_form_too(capsys, files):
    qrels, a, b = files
    _, expected, _ = run_cli(capsys, "unanimity", "--qrels", qrels, "--run", a, "--run", b,
                             "--metric", "P@2", "--metric", "RR", "--format", "json")
    status, out, _ = run_cli(capsys, "unanimity", qrels, a, b, "P@2 RR", "--format", "json")
    assert status == 0 and json.loads(out)["metrics"] == json.loads(expected)["metrics"]


def test_help_explains_the_forms(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    out = capsys.readouterr().out
    for text in ("[QRELS RUN MEASURES ...]", "axiometer score qrels.txt a.run b.run 'nDCG@10 P@5 AP'",
                 "--metric 'nDCG@10 P@5'", "spaces outside parentheses", "--format trec",
                 "'measure<TAB>topic<TAB>value'", "more than 6 columns", "trec"):
        assert text in out, text


# -- --format trec ----------------------------------------------------------------

def trec(*rows: tuple[str, str, str]) -> str:
    return "".join(f"{measure:<22}\t{topic}\t{value}\n" for measure, topic, value in rows)


def test_format_trec_per_topic_is_trec_evals_layout(capsys, files):
    qrels, a, b = files
    status, out, err = run_cli(capsys, "score", qrels, a, b, "P@2 RR", "--format", "trec", "--per-topic")
    assert (status, err) == (0, "")
    # Hand-computed: A's P@2 is 1/2 (q1: d1), 1/2 (q2: d4 second), 0 (q10 missing); RR 1, 1/2, 0.
    assert out == trec(
        ("P@2", "q1", "0.5000"), ("RR", "q1", "1.0000"),
        ("P@2", "q10", "0.0000"), ("RR", "q10", "0.0000"),
        ("P@2", "q2", "0.5000"), ("RR", "q2", "0.5000"),
        ("runid", "all", "A"), ("num_q", "all", "3"),
        ("P@2", "all", "0.3333"), ("RR", "all", "0.5000"),
        ("P@2", "q1", "0.5000"), ("RR", "q1", "1.0000"),
        ("P@2", "q10", "0.5000"), ("RR", "q10", "1.0000"),
        ("P@2", "q2", "0.5000"), ("RR", "q2", "1.0000"),
        ("runid", "all", "B"), ("num_q", "all", "3"),
        ("P@2", "all", "0.5000"), ("RR", "all", "1.0000"))
    assert out.splitlines()[0] == "P@2                   \tq1\t0.5000"  # 22 columns, tabs


def test_format_trec_without_per_topic_prints_the_all_lines(capsys, files):
    qrels, a, _ = files
    status, out, _ = run_cli(capsys, "score", qrels, a, "P@2 RR", "--format", "trec")
    assert status == 0 and out == trec(("runid", "all", "A"), ("num_q", "all", "3"),
                                       ("P@2", "all", "0.3333"), ("RR", "all", "0.5000"))


def test_format_trec_keeps_a_long_name_whole(capsys, files):
    qrels, a, _ = files
    status, out, _ = run_cli(capsys, "score", qrels, a, "RBU(p=0.8, e=0.05)@2", "--format", "trec")
    assert status == 0 and out.splitlines()[-1].startswith("RBU(p=0.8,e=0.05)@2   \tall\t")


#: Our spec -> trec_eval's measure name, for the lines of out.test.aqc.
TREC_EVAL_NAMES = {"P@5": "P_5", "P@10": "P_10", "AP": "map", "RR": "recip_rank", "Rprec": "Rprec",
                   "bpref": "bpref", "nDCG@10": "ndcg_cut_10"}


def test_results_trunc_prints_trec_evals_lines_with_one_note(capsys):
    """trec_eval's own run with extra columns: one note, and every line of ``--format trec
    --per-topic``, its name replaced by trec_eval's, is a line of trec_eval -q -c's output."""
    run = TREC_EVAL / "results.trunc"
    status, out, err = run_cli(capsys, "score", str(TREC_EVAL / "qrels.test"), str(run),
                               " ".join(TREC_EVAL_NAMES), "--format", "trec", "--per-topic")
    assert status == 0
    assert err == (f"axiometer: note: {run}: 5 lines have more than 6 columns (the first at line 1); "
                   "the extra columns are ignored, as trec_eval ignores them\n")
    theirs = set((TREC_EVAL / "out.test.aqc").read_text(encoding="utf-8").splitlines())
    lines = out.splitlines()
    assert len(lines) == 3 * 7 + 2 + 7
    for line in lines:
        measure, topic, value = line.split("\t")
        name = TREC_EVAL_NAMES.get(measure.rstrip(), measure.rstrip())
        assert f"{name:<22}\t{topic}\t{value}" in theirs, line


def test_one_note_per_run_file_with_extra_columns(capsys, files, tmp_path):
    qrels, a, b = files
    wide_a, wide_b = tmp_path / "wide_a.run", tmp_path / "wide_b.run"
    wide_a.write_text("".join(line + " x y\n" for line in RUN_A.splitlines()), encoding="utf-8")
    wide_b.write_text(RUN_B.replace("q10 Q0 d5 1 1 B", "q10 Q0 d5 1 1 B junk"), encoding="utf-8")
    status, out, err = run_cli(capsys, "score", qrels, str(wide_a), str(wide_b), "P@2 RR", "--format", "json")
    assert status == 0 and err.splitlines() == [
        f"axiometer: note: {wide_a}: 5 lines have more than 6 columns (the first at line 1); the extra "
        "columns are ignored, as trec_eval ignores them",
        f"axiometer: note: {wide_b}: 1 line has more than 6 columns (the first at line 2); the extra "
        "columns are ignored, as trec_eval ignores them"]
    _, expected, _ = run_cli(capsys, "score", qrels, a, b, "P@2 RR", "--format", "json")
    assert out == expected


def test_a_five_column_run_line_is_still_an_error_with_file_and_line(capsys, files, tmp_path):
    qrels, _, _ = files
    short = tmp_path / "short.run"
    short.write_text("q1 Q0 d1 1 3 A extra\nq1 Q0 d2 2 2\n", encoding="utf-8")
    status, _, err = run_cli(capsys, "score", qrels, str(short), "P@2")
    assert status == 2 and err == (f"axiometer: error: {short}:2: expected 6 columns "
                                   "(qid Q0 docno rank score tag), found 5\n")


def test_latex_is_a_score_format(capsys):
    status, out, err = run_cli(capsys, "score", "--example", "P@5 RR_IA", "--format", "latex")
    assert (status, err) == (0, example_note())
    assert "\\toprule" in out and "RR\\_IA & " in out and "\\bottomrule" in out
