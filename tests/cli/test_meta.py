"""`axiometer meta` on the hand-built campaign and the bundled example: every format renders, the
seed makes the output reproducible, --simulate changes it, the tau curve is drawn, and bad input is
one error line."""

from __future__ import annotations

import json

import pytest

from axiometer.cli import main
from axiometer.cli import meta as cli_meta
from axiometer.core import InputError
from tests.meta.campaign import write_campaign
from tests.cli_run import run_cli, wrote

pytest.importorskip("axiometer.significance")  # the default test of discriminative power


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    qrels, runs = write_campaign(tmp_path_factory.mktemp("campaign"))
    options = ["--qrels", str(qrels)]
    for run in runs:
        options += ["--run", str(run)]
    return options


QUICK = ("--permutations", "2000", "--trials", "200")


def test_text_report(files, capsys):
    status, out, err = run_cli(capsys, "meta", *files, "--metric", "P@3", "--metric", "nDCG@3", *QUICK)
    assert status == 0 and err == ""
    assert "Meta-evaluation of 2 metrics on 4 runs × 6 topics (6 run pairs)" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.startswith(("P@3 ", "nDCG@3 "))}
    # P@3: best beats worst and twin with p ~ 1/32 (six differences of 1): 2 of 6 pairs at 95 %, 0 at 99 %.
    assert rows["P@3"][2:6] == ["2", "(33.3%)", "0", "(0.0%)"]
    for heading in ("MU:", "p <= 0.05:", "p <= 0.01:", "stability:", "Kendall's tau-b", "tau-AP"):
        assert heading in out
    assert "Grades: P@3, nDCG@3 read " in " ".join(out.split())  # the convention both metrics used


@pytest.mark.parametrize("format", ["markdown", "latex", "json", "html"])
def test_every_format(files, capsys, format, tmp_path):
    target = tmp_path / f"report.{format}"
    status, out, _ = run_cli(capsys, "meta", *files, "--metric", "P@3", "--metric", "AP", *QUICK,
                             "--format", format, "-o", str(target))
    assert status == 0 and out == wrote(target)
    text = target.read_text(encoding="utf-8")
    if format == "json":
        record = json.loads(text)
        assert [m["metric"] for m in record["metrics"]] == ["P@3", "AP"]
        power = record["metrics"][0]["discriminative_power"]
        assert [level["significant"] for level in power["levels"]] == [2, 0] and power["pairs"] == 6
        assert record["settings"] == {"test": "randomization", "correction": "none", "permutations": 2000,
                                      "trials": 200, "seed": 0}
        assert {c["reference"] for c in record["rank_correlations"]} == {"P@3", "AP"}
    elif format == "latex":
        assert text.count("\\begin{table}") == 3 and "\\toprule" in text and "33.3\\%" in text
    elif format == "html":  # a page: the per-metric table, the columns explained, both tau matrices
        assert text.startswith("<!DOCTYPE html>") and "<h1>Meta-evaluation</h1>" in text
        assert text.count('<table class="data">') == 3 and '<th scope="col">p &lt;= 0.05</th>' in text
        assert "<li>MU: Metric Unanimity" in text and '<td>2 (33.3%)</td>' in text
    else:
        assert "| metric" in text and "- MU: Metric Unanimity" in text


def test_the_seed_makes_the_simulation_reproducible(files, capsys):
    argv = ("meta", *files, "--metric", "nDCG@3", "--metric", "AP", *QUICK, "--format", "json")
    plain = json.loads(run_cli(capsys, *argv)[1])
    first = json.loads(run_cli(capsys, *argv, "--simulate", "graded", "--simulate", "truncate", "--seed", "3")[1])
    again = json.loads(run_cli(capsys, *argv, "--simulate", "graded", "--simulate", "truncate", "--seed", "3")[1])
    other = json.loads(run_cli(capsys, *argv, "--simulate", "graded", "--simulate", "truncate", "--seed", "4")[1])
    assert first == again and first["simulation"]["scenarios"] == ["graded", "truncate"]
    means = [m["means"] for m in first["metrics"]]
    assert means != [m["means"] for m in plain["metrics"]] and means != [m["means"] for m in other["metrics"]]


def test_tau_curve_and_plot(files, capsys, tmp_path):
    picture = tmp_path / "tau.png"
    status, out, _ = run_cli(capsys, "meta", *files, "--metric", "P@3", *QUICK, "--tau-curve", "RareP@3",
                             "alpha=0..1:0.25", "--against", "P@3", "--plot", str(picture))
    assert status == 0 and picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    lines = [line.split() for line in out.splitlines() if "RareP(alpha=" in line and line[:1].isdigit()]
    assert [line[0] for line in lines] == ["0", "0.25", "0.5", "0.75", "1"]
    assert lines[0][2:] == ["1.0000", "1.0000"]                   # RareP(alpha=0)@3 is P@3


def test_the_positional_form(files, capsys):
    """ir_measures' order, as for score: QRELS RUN [RUN ...] 'MEASURES'."""
    qrels, runs = files[1], files[3::2]
    status, out, _ = run_cli(capsys, "meta", qrels, *runs, "P@3 nDCG@3", *QUICK, "--format", "json")
    assert status == 0 and [m["metric"] for m in json.loads(out)["metrics"]] == ["P@3", "nDCG@3"]


def test_the_bundled_example(capsys):
    status, out, _ = run_cli(capsys, "meta", "--example", "--metric", "nDCG@10", "--metric", "ERR@10", *QUICK)
    assert status == 0 and "3 runs × 3 topics" in out


def test_sweep_values():
    assert cli_meta.sweep_values("alpha=0..1:0.1") == ("alpha", (0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9,
                                                                 1))
    assert cli_meta.sweep_values("p=0.5, 0.8,9/10") == ("p", (0.5, 0.8, 0.9))
    with pytest.raises(InputError, match="given twice"):
        cli_meta.sweep_values("p=0.5,1/2")
    assert cli_meta.sweep_values("p=0.5..0.9:0.3") == ("p", (0.5, 0.8))


def test_the_options_choices_are_the_packages():
    import importlib

    power = importlib.import_module("axiometer.meta.discriminative_power")
    simulate = importlib.import_module("axiometer.meta.simulate")
    stability = importlib.import_module("axiometer.meta.stability")
    assert cli_meta.TESTS == power.TESTS and set(cli_meta.CORRECTIONS) == set(power.CORRECTIONS)
    assert cli_meta.SCENARIOS == simulate.SCENARIOS
    assert (cli_meta.DEFAULT_PERMUTATIONS, cli_meta.DEFAULT_TRIALS) == (power.DEFAULT_PERMUTATIONS,
                                                                        stability.DEFAULT_TRIALS)


@pytest.mark.parametrize("extra, message", [
    (("--metric", "P@3", "--tau-curve", "RareP@3", "alpha=0..1", "--against", "P@3"), "a range needs a step"),
    (("--metric", "P@3", "--tau-curve", "RareP@3", "alpha=1..0:0.1", "--against", "P@3"), "LOW < HIGH"),
    (("--metric", "P@3", "--tau-curve", "RareP@3", "alpha=x", "--against", "P@3"), "not a number"),
    (("--metric", "P@3", "--tau-curve", "RareP@3", "beta=0,1", "--against", "P@3"), "no parameter 'beta'"),
    (("--metric", "P@3", "--tau-curve", "RareP@3", "alpha=0..1:0.001", "--against", "P@3"), "at most 101"),
    (("--metric", "P@3", "--tau-curve", "RareP@3", "alpha=0,1", "--against", "P@3", "--plot", "t.pdf"),
     "picture format"),
    (("--metric", "Nope@3",), "Nope"),
    (("--metric", "P@3", "--metric", "P@3"), "given twice"),
])
def test_bad_input_is_one_error_line(files, capsys, extra, message):
    status, out, err = run_cli(capsys, "meta", *files, *QUICK, *extra)
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("axiometer: error: ") and message in err


def test_one_run_is_one_error_line(files, capsys):
    status, _, err = run_cli(capsys, "meta", *files[:4], "--metric", "P@3")
    assert status == 2 and err.splitlines() == ["axiometer: error: a meta-evaluation compares runs: give at "
                                                "least two (got 1)"]


@pytest.mark.parametrize("extra, message", [
    (("--plot", "t.png"), "--plot draws the tau curve"),
    (("--tau-curve", "RareP@3", "alpha=0,1"), "go together"),
    (("--trials", "0"), "--trials must be at least 1"),
    (("--simulate", "shuffle"), "invalid choice"),
])
def test_usage_errors(files, capsys, extra, message):
    with pytest.raises(SystemExit) as exited:
        main(["meta", *files, "--metric", "P@3", *extra])
    assert exited.value.code == 2 and message in capsys.readouterr().err
