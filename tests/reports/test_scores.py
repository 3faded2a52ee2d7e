"""Score reports: JSON shape, Markdown and text tables, the missing-topic notes.
The result is built by hand, so the reports are tested without scoring."""

from __future__ import annotations

import json

import pytest

from axiometer.reports.scores import format_scores
from axiometer.scoring import KendallTau, Mean, Priors, Score, ScoreResult

RESULT = ScoreResult(
    runs=("A", "B"), metrics=("P@2", "RR"), topics=("q1", "007"),
    scores=(Score("A", "q1", "P@2", 0.5), Score("A", "q1", "RR", 1.0),
            Score("A", "007", "P@2", 0.0), Score("A", "007", "RR", 0.0),
            Score("B", "q1", "P@2", 1.0), Score("B", "q1", "RR", 1.0),
            Score("B", "007", "P@2", 0.5), Score("B", "007", "RR", 1 / 3)),
    means=(Mean("A", "P@2", 0.25), Mean("A", "RR", 0.5),
           Mean("B", "P@2", 0.75), Mean("B", "RR", 2 / 3)),
    missing={"A": ("007",), "B": ()}, ignored={"A": (), "B": ("q9", "q8")})


def test_json_means_are_objects_without_topic():
    records = json.loads(format_scores(RESULT, "json"))
    assert records == [{"run": "A", "metric": "P@2", "value": 0.25},
                       {"run": "A", "metric": "RR", "value": 0.5},
                       {"run": "B", "metric": "P@2", "value": 0.75},
                       {"run": "B", "metric": "RR", "value": 2 / 3}]  # full precision


def test_json_per_topic_records_come_first_with_their_topic():
    records = json.loads(format_scores(RESULT, "json", per_topic=True))
    assert len(records) == 8 + 4
    assert records[2] == {"run": "A", "topic": "007", "metric": "P@2", "value": 0.0}
    assert all(set(r) == {"run", "topic", "metric", "value"} for r in records[:8])
    assert all(set(r) == {"run", "metric", "value"} for r in records[8:])


def test_markdown_means_table():
    lines = format_scores(RESULT, "markdown").splitlines()
    table = [line for line in lines if line.startswith("|")]
    assert [cell.strip() for cell in table[0].strip("|").split("|")] == ["run", "P@2", "RR"]
    assert set(table[1]) <= set("|-: ")
    assert [cell.strip() for cell in table[2].strip("|").split("|")] == ["A", "0.25", "0.5"]
    assert [cell.strip() for cell in table[3].strip("|").split("|")] == ["B", "0.75", "0.666667"]
    assert "**Means over 2 qrels topics**" in lines
    assert "- A: missing 1 of the 2 qrels topics, scored 0 (007)" in lines
    assert "- B: ignored 2 run topics absent from the qrels (q9, q8)" in lines


def test_text_report_has_means_and_notes():
    text = format_scores(RESULT, "text")
    lines = text.splitlines()
    assert lines[0] == "Means over 2 qrels topics:"
    header = lines[2].split()
    assert header == ["run", "P@2", "RR"]
    assert lines[4].split() == ["A", "0.25", "0.5"]
    assert lines[5].split() == ["B", "0.75", "0.666667"]
    assert "A: missing 1 of the 2 qrels topics, scored 0 (007)" in lines
    assert "B: ignored 2 run topics absent from the qrels (q9, q8)" in lines
    assert "q1" not in text  # no per-topic listing unless asked


def test_text_per_topic_listing_keeps_topic_ids_verbatim():
    # Values print to 6 significant digits, never with float noise (1/3 -> 0.333333, 0.0 -> 0).
    lines = format_scores(RESULT, "text", per_topic=True).splitlines()
    assert lines[0].split() == ["run", "topic", "metric", "value"]
    rows = [line.split() for line in lines[2:10]]
    assert rows[2] == ["A", "007", "P@2", "0"]  # "007" is not read as the number 7
    assert rows[7] == ["B", "007", "RR", "0.333333"]
    assert "Means over 2 qrels topics:" in lines


def test_notes_list_at_most_ten_topics():
    many = tuple(f"t{i}" for i in range(12))
    result = ScoreResult(("A",), ("P@2",), many, (), (Mean("A", "P@2", 0.0),),
                         {"A": many}, {"A": ()})
    assert ("A: missing 12 of the 12 qrels topics, scored 0 "
            "(t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, ...)") in format_scores(result).splitlines()


def test_bad_requests():
    with pytest.raises(ValueError, match="unknown report format"):
        format_scores(RESULT, "pdf")
    lean = ScoreResult(RESULT.runs, RESULT.metrics, RESULT.topics, (), RESULT.means,
                       RESULT.missing, RESULT.ignored)
    with pytest.raises(ValueError, match="no per-topic scores"):
        format_scores(lean, "text", per_topic=True)


def test_more_metrics_than_runs_puts_metrics_in_rows():
    one_run = ScoreResult(
        runs=("A",), metrics=("P@2", "RR"), topics=("q1",),
        scores=(), means=(Mean("A", "P@2", 0.25), Mean("A", "RR", 0.5)),
        missing={"A": ()}, ignored={"A": ()})
    lines = format_scores(one_run, "text").splitlines()
    assert lines[2].split() == ["metric", "A"]
    assert lines[4].split() == ["P@2", "0.25"]
    assert lines[5].split() == ["RR", "0.5"]


# -- relative metrics ------------------------------------------------------------

RELATIVE = ScoreResult(
    runs=("uog_a", "uog_b", "ict-1"), metrics=("P@2", "RR", "nrg"), topics=("q1",), scores=(),
    means=tuple(Mean(run, metric, value) for run, values in
                (("uog_a", (0.75, 1.0, 0.5)), ("uog_b", (0.25, 0.5, 0.0)), ("ict-1", (0.5, 1.0, 0.5)))
                for metric, value in zip(("P@2", "RR", "nrg"), values)),
    missing={}, ignored={}, relative=("nrg",),
    priors=Priors("best-per-group", "best-per-group: the best run of every other group",
                  {"uog_a": ("ict-1",), "uog_b": ("ict-1",), "ict-1": ("uog_a",)},
                  {"uog_a": "uog", "uog_b": "uog", "ict-1": "ict"}, {"ict": "ict-1", "uog": "uog_a"},
                  "P@2", "tags"),
    kendall=(KendallTau("nrg", "P@2", 0.816496580927726, 2, 0, 1, 0),
             KendallTau("nrg", "RR", None, 0, 0, 1, 3)))


def test_the_page_draws_a_relative_metric_against_the_base_its_result_names_not_its_name():
    from dataclasses import replace

    named = replace(RELATIVE, metrics=("P@2", "RR", "NRG(base=P@2)"), relative=("NRG(base=P@2)",),
                    means=tuple(replace(m, metric="NRG(base=P@2)") if m.metric == "nrg" else m
                                for m in RELATIVE.means), kendall=())
    assert "NRG(base=P@2) against P@2" not in format_scores(named, "html")  # no base as data: no scatter
    based = replace(RELATIVE, bases={"nrg": "RR"})
    assert "nrg against RR: one point per run" in format_scores(based, "html")
    unscored = replace(RELATIVE, bases={"nrg": "nDCG@10"})
    assert "nrg against" not in format_scores(unscored, "html")  # its base was not scored


def test_relative_text_has_one_row_per_run_priors_and_kendall():
    lines = format_scores(RELATIVE, "text").splitlines()
    # Three metrics, three runs... and with relative metrics always one row per run.
    assert lines[2].split() == ["run", "P@2", "RR", "nrg"]
    assert lines[4].split() == ["uog_a", "0.75", "1", "0.5"]
    assert lines[8] == ("Relative metrics (nrg); prior sets: best-per-group: the best run of every "
                        "other group.")
    groups = [line.split() for line in lines[10:14]]
    assert groups[0] == ["group", "runs", "best", "run", "mean", "P@2"]
    assert groups[2] == ["ict", "ict-1", "ict-1", "0.5"]
    assert groups[3] == ["uog", "uog_a,", "uog_b", "uog_a", "0.75"]
    assert "Kendall's tau-b between the run orderings (by mean):" in lines
    rows = [line.split() for line in lines if line.startswith("nrg")]
    assert rows == [["nrg", "P@2", "0.816497", "2", "0", "1", "0"],
                    ["nrg", "RR", "undefined", "0", "0", "1", "3"]]
    assert lines[-1].startswith("undefined: one of the two metrics ties every run")


def test_relative_json_appends_priors_and_kendall_tau():
    records = json.loads(format_scores(RELATIVE, "json"))
    assert all(set(r) == {"run", "metric", "value"} for r in records[:9])  # the foundation's shape
    assert records[9] == {"priors": {
        "mode": "best-per-group", "description": "best-per-group: the best run of every other group",
        "relative_metrics": ["nrg"],
        "contexts": {"uog_a": ["ict-1"], "uog_b": ["ict-1"], "ict-1": ["uog_a"]},
        "groups": {"uog_a": "uog", "uog_b": "uog", "ict-1": "ict"},
        "best": {"ict": "ict-1", "uog": "uog_a"}, "best_by": "P@2", "groups_from": "tags"}}
    assert records[10] == {"kendall_tau": [
        {"relative": "nrg", "metric": "P@2", "tau_b": 0.816496580927726, "concordant": 2,
         "discordant": 0, "ties_relative": 1, "ties_metric": 0},
        {"relative": "nrg", "metric": "RR", "tau_b": None, "concordant": 0, "discordant": 0,
         "ties_relative": 1, "ties_metric": 3}]}
    assert len(records) == 11


def test_relative_markdown():
    text = format_scores(RELATIVE, "markdown")
    assert "**Kendall's tau-b between the run orderings (by mean)**" in text
    assert "| uog     | uog_a, uog_b | uog_a      |       0.75 |" in text


def _latex_bodies(latex: str) -> list[list[str]]:
    """Each table's rows, between its header's ``\\midrule`` and its ``\\bottomrule``."""
    return [part.split("\\midrule\n", 1)[1].split("\\bottomrule")[0].splitlines()
            for part in latex.split("\\begin{table}")[1:]]


def test_latex_means_table_has_a_row_per_metric_a_column_per_run_and_names_escaped():
    result = ScoreResult(
        runs=("run_1", "B&C"), metrics=("P_IA@2", "RR"), topics=("q1",), scores=(),
        means=(Mean("run_1", "P_IA@2", 0.25), Mean("run_1", "RR", 2 / 3),
               Mean("B&C", "P_IA@2", -0.125), Mean("B&C", "RR", 1.0)),
        missing={"run_1": (), "B&C": ()}, ignored={"run_1": (), "B&C": ()})
    latex = format_scores(result, "latex")
    assert latex.count("\\begin{table}") == 1 and "\\toprule" in latex and "\\bottomrule" in latex
    assert "\\begin{tabular}{lrr}" in latex  # names left, numbers right
    assert "Metric & run\\_1 & B\\&C \\\\" in latex.splitlines()
    # One row per metric, numbers as the text prints them (6 significant digits).
    assert _latex_bodies(latex) == [["P\\_IA@2 & 0.25 & -0.125 \\\\", "RR & 0.666667 & 1 \\\\"]]
    assert "Means over 1 qrels topic." in latex


def test_latex_per_topic_adds_a_table_per_metric_before_the_means_and_notes_missing_topics():
    latex = format_scores(RESULT, "latex", per_topic=True)
    assert latex.count("\\begin{table}") == 3  # P@2 and RR per topic, then the means
    assert _latex_bodies(latex) == [["q1 & 0.5 & 1 \\\\", "007 & 0 & 0.5 \\\\"],
                                    ["q1 & 1 & 1 \\\\", "007 & 0 & 0.333333 \\\\"],
                                    ["P@2 & 0.25 & 0.75 \\\\", "RR & 0.5 & 0.666667 \\\\"]]
    assert "A: missing 1 of the 2 qrels topics, scored 0 (007)." in latex


def test_relative_latex_adds_kendall_tau():
    latex = format_scores(RELATIVE, "latex")
    assert "\\label{tab:axiometer-scores-tau}" in latex and "$\\tau_b$" in latex
    assert "nrg & RR & undefined & 0 & 0 & 1 & 3 \\\\" in latex
    assert "prior sets: best-per-group: the best run of every other group." in latex
    assert "undefined: one of the two metrics ties every run" in latex
