"""`axiometer compare` end to end on a tiny campaign written here: every format, the marks,
the settings, the API's numbers in the JSON, and bad input as one stderr line with status 2."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from axiometer.cli import main
from axiometer.readers import read_qrels, read_run
from axiometer.scoring import score_runs
from axiometer.significance import compare
from tests.cli_run import flat, run_cli, wrote

TOPICS = [f"q{i}" for i in range(1, 11)]


@pytest.fixture(scope="module")
def campaign(tmp_path_factory) -> dict[str, Path]:
    """Ten topics with five relevant documents r1..r5 (grade 1) and five non-relevant n1..n5 each.
    Runs: `good_run` puts the relevant first, `bad_run` last; `mixed_run` alternates (and lacks
    q10); `twin_run` is good_run's ranking with the top two swapped on half the topics."""
    root = tmp_path_factory.mktemp("compare")
    relevant, other = [f"r{i}" for i in range(1, 6)], [f"n{i}" for i in range(1, 6)]
    qrels = root / "qrels.txt"
    qrels.write_text("".join(f"{t} 0 {d} {1 if d in relevant else 0}\n" for t in TOPICS
                             for d in relevant + other))
    orders = {
        "good_run": lambda k: relevant + other,
        "bad_run": lambda k: other + relevant,
        "mixed_run": lambda k: [d for pair in zip(other, relevant) for d in pair],
        "twin_run": lambda k: ([other[0], relevant[0]] + relevant[1:] + other[1:] if k % 2
                               else relevant + other),
    }
    paths = {"qrels": qrels}
    for tag, order in orders.items():
        lines = []
        for k, topic in enumerate(TOPICS):
            if tag == "mixed_run" and topic == "q10":
                continue
            lines += [f"{topic} Q0 {d} {rank} {100 - rank} {tag}" for rank, d in enumerate(order(k), 1)]
        path = root / f"{tag}.run"
        path.write_text("\n".join(lines) + "\n")
        paths[tag] = path
    return paths


def _runs(campaign: dict[str, Path]) -> list[str]:
    return ["--run", campaign["bad_run"], "--run", campaign["good_run"], "--run", campaign["mixed_run"],
            "--run", campaign["twin_run"]]


def test_text_marks_the_runs_each_run_beats(campaign, capsys):
    status, out, err = run_cli(capsys, "compare", "--qrels", campaign["qrels"], *_runs(campaign),
                               "--metric", "P@5", "--metric", "nDCG@10", "--permutations", "2000",
                               "--resamples", "1000")
    assert status == 0 and err == ""
    assert out.startswith("Comparison of 4 runs on 2 metrics over 10 topics\n")
    rows = {line.split()[1]: line for line in out.splitlines() if re.match(r"[abcd] {2,}\w+_run ", line)}
    assert set(rows) == {"bad_run", "good_run", "mixed_run", "twin_run"}
    # a bad_run, b good_run, c mixed_run, d twin_run. P@5: bad 0, good 1, mixed 0.4 or 0.6 (0 on q10).
    assert rows["good_run"].split()[2] == "1.0000ᵃᶜ"       # ties twin_run on P@5: no mark against it
    assert rows["bad_run"].split()[2] == "0.0000"
    # 2^10 = 1,024 patterns <= 2,000 permutations: the test enumerates them, exactly.
    assert "Marks: Fisher's randomization test (exact: all 1,024 sign patterns of the 10 topics)" in flat(out)
    assert "Holm–Bonferroni across the 6 pairs of each metric, alpha = 0.05." in flat(out)
    assert "Pairs on P@5 (6):" in out and "Pairs on nDCG@10 (6):" in out
    assert "mixed_run: missing 1 of the 10 topics, scored 0 (q10)." in out
    assert all(len(line) <= 100 for line in out.splitlines() if not line.startswith(("A ", "-", "a", "b", "c", "d")))


def test_json_holds_every_p_value_and_matches_the_api(campaign, capsys):
    argv = ["compare", "--qrels", campaign["qrels"], *_runs(campaign), "--metric", "P@5",
            "--permutations", "1000", "--resamples", "500", "--seed", "3", "--format", "json"]
    status, out, _ = run_cli(capsys, *argv)
    assert status == 0
    document = json.loads(out)
    assert document["settings"] == {"test": "randomization", "alpha": 0.05, "correction": "holm",
                                    "permutations": 1000, "resamples": 500, "confidence": 0.95, "seed": 3}
    assert [r["label"] for r in document["runs"]] == ["a", "b", "c", "d"]
    (metric,) = document["metrics"]
    assert metric["metric"] == "P@5" and len(metric["pairs"]) == 6
    for pair in metric["pairs"]:
        assert set(pair["p_values"]) == set(pair["adjusted_p_values"]) == {"randomization", "t", "wilcoxon"}
        assert all(0 <= pair["p_values"][t] <= pair["adjusted_p_values"][t] <= 1 for t in pair["p_values"])
        assert pair["p_values"]["randomization"] > 0           # the observed pattern counts
    # The same numbers as the API on the same files.
    qrels = read_qrels(campaign["qrels"])
    runs = [read_run(campaign[tag]) for tag in ("bad_run", "good_run", "mixed_run", "twin_run")]
    expected = compare(score_runs(qrels, runs, ["P@5"]), permutations=1000, resamples=500, seed=3).metric("P@5")
    for ours, theirs in zip(metric["pairs"], expected.pairs):
        assert (ours["a"], ours["b"], ours["p_values"]) == (theirs.a, theirs.b, dict(theirs.p_values))
    assert [r["better_than"] for r in metric["runs"]] == [list(s.better_than) for s in expected.runs]
    # Seeded: the same command prints the same report; another seed other p-values.
    assert run_cli(capsys, *argv)[1] == out
    other = json.loads(run_cli(capsys, *argv[:-4], "--seed", "4", "--format", "json")[1])
    assert [p["p_values"]["randomization"] for p in other["metrics"][0]["pairs"]] != \
        [p["p_values"]["randomization"] for p in metric["pairs"]]


def test_markdown_and_latex(campaign, capsys):
    common = ["compare", "--qrels", campaign["qrels"], *_runs(campaign), "--metric", "P@5",
              "--permutations", "1000", "--resamples", "200"]
    status, markdown, _ = run_cli(capsys, *common, "--format", "markdown")
    assert status == 0
    assert "| #   | run" in markdown and "**1.0000**<sup>ac</sup>" in markdown
    assert "- A superscript label after a mean names a run" in markdown
    status, latex, _ = run_cli(capsys, *common, "--format", "latex")
    assert status == 0
    assert latex.count("\\begin{table}") == latex.count("\\end{table}") == 2
    assert "\\begin{tabular}{clr}" in latex and "\\toprule" in latex and "booktabs" in latex
    assert "good\\_run & \\textbf{1.0000}$^{\\mathrm{ac}}$" in latex        # underscores escaped
    assert latex.count("{") == latex.count("}")
    assert "$p \\le 0.05$" in latex


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.seen: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.seen.append(tag)
        if tag not in ("meta", "br", "link", "img"):
            self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open.pop() == tag


def test_html_is_one_well_formed_page(campaign, capsys, tmp_path):
    page = tmp_path / "compare.html"
    status, out, _ = run_cli(capsys, "compare", "--qrels", campaign["qrels"], *_runs(campaign), "--metric",
                             "P@5", "--permutations", "1000", "--resamples", "200", "--format", "html",
                             "-o", page)
    assert status == 0 and out == wrote(page)
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    parser = _Tags()
    parser.feed(text)
    assert parser.open == [] and parser.seen.count("table") == 2 and "sup" in parser.seen
    assert 'title="significantly better than bad_run, mixed_run"' in text


def test_another_test_marks_the_table(campaign, capsys):
    status, out, _ = run_cli(capsys, "compare", "--qrels", campaign["qrels"], *_runs(campaign), "--metric",
                             "P@5", "--test", "t", "--correction", "none", "--resamples", "200")
    assert status == 0
    assert "Marks: the paired t-test, two-sided, no correction for multiple comparisons" in flat(out)
    header = next(line for line in out.splitlines() if line.startswith("A ") and "d_z" in line)
    assert header.split()[:6] == ["A", "B", "A", "−", "B", "d_z"] and "Holm" not in header
    assert header.index("p t-test") < header.index("p rand.")       # the chosen test first


def test_positional_qrels_and_runs(campaign, capsys):
    status, out, _ = run_cli(capsys, "compare", campaign["qrels"], campaign["good_run"], campaign["bad_run"],
                             "--metric", "P@5", "--permutations", "500", "--resamples", "100")
    assert status == 0 and "Comparison of 2 runs on 1 metric over 10 topics" in out
    assert "Marks: Fisher's randomization test (500 permutations, seed 0)" in flat(out)   # drawn


def test_the_bundled_example(capsys):
    status, out, _ = run_cli(capsys, "compare", "--example", "--permutations", "500", "--resamples", "100")
    assert status == 0 and "Comparison of 3 runs on 1 metric over 3 topics" in out and "nDCG@10" in out


@pytest.mark.parametrize("extra, message", [
    (["--permutations", "0"], "--permutations must be at least 1, got 0"),
    (["--alpha", "1.5"], "--alpha must lie strictly between 0 and 1, got 1.5"),
    (["--resamples", "-3"], "--resamples must be at least 1, got -3"),
    (["--metric", "nDCG@ten"], "nDCG@ten"),
    (["--metric", "NoSuchMetric@10"], "NoSuchMetric"),
])
def test_bad_settings_are_one_error_line(campaign, capsys, extra, message):
    status, out, err = run_cli(capsys, "compare", "--qrels", campaign["qrels"], *_runs(campaign), *extra)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("axiometer: error: ") and message in err


def test_fewer_than_two_runs_is_one_error_line(campaign, capsys):
    status, out, err = run_cli(capsys, "compare", "--qrels", campaign["qrels"], "--run", campaign["good_run"])
    assert status == 2 and out == ""
    assert err == "axiometer: error: compare needs at least 2 runs, got 1 (good_run)\n"


def test_a_missing_run_file_is_one_error_line(campaign, capsys, tmp_path):
    status, _, err = run_cli(capsys, "compare", "--qrels", campaign["qrels"], "--run", campaign["good_run"],
                             "--run", tmp_path / "nothing.run")
    assert status == 2 and err.count("\n") == 1 and "nothing.run" in err


def test_the_docs_show_the_real_output_of_the_example(tmp_path):
    """docs/compare.md's first text block is what `axiometer compare --example --metric nDCG@10
    --metric P@10` writes (to a file: 100 columns)."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "compare.md").read_text(encoding="utf-8")
    command = "axiometer compare --example --metric nDCG@10 --metric P@10"
    assert command in doc
    shown = re.search(r"```text\n(.*?)```", doc[doc.index(command):], re.S).group(1)
    output = tmp_path / "example.txt"
    assert main(["compare", "--example", "--metric", "nDCG@10", "--metric", "P@10", "-o", str(output)]) == 0
    assert output.read_text(encoding="utf-8") == shown


def test_three_topics_say_no_difference_can_be_significant(capsys):
    # Issue 27: the bundled example has 3 topics; the smallest randomization p-value is 2/8, 3/4
    # after Holm over its 3 pairs, so nothing can be significant at 0.05, and the report says so.
    status, out, _ = run_cli(capsys, "compare", "--example", "--metric", "nDCG@10", "--resamples", "200")
    assert status == 0
    assert ("With 3 topics the randomization test cannot give a p-value below 0.75 after Holm's correction, "
            "above alpha = 0.05: no difference can be significant here; 7 topics could reach it.") in flat(out)
