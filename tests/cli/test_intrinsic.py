"""The `axiometer intrinsic` command: definitions §4's known facts through the CLI,
the JSON shape, the optional parts (--param, --table giner) and bad inputs
(one error line, exit 2)."""

from __future__ import annotations

import json
import sys

import pytest

from tests.cli_run import run_cli, wrote


def field(out: str, name: str) -> str:
    line = next(line for line in out.splitlines() if line.startswith(name + ":"))
    return line.split(":", 1)[1].strip()


def test_rbp_half_on_binary_rankings_is_interval(capsys):
    # definitions §4: RBP(p=1/2) on binary rankings of length 3 attains (1/2)(g1/1 + g2/2 + g3/4) =
    # j/8 for j = 0..7 (the binary number g1 g2 g3 over 8): 8 distinct, equally spaced values.
    status, out, err = run_cli(capsys, "intrinsic", "RBP(p=0.5)", "--domain", "rankings(n=3,grades=2)")
    assert status == 0 and err == ""
    assert field(out, "category") == "interval/metric"
    assert field(out, "domain") == "rankings(n=3, grades={0,1}, lengths=exact, R=3)"
    assert field(out, "size") == "8 outputs"
    assert field(out, "distinct values") == "8, resolution 1 (distinct values / outputs)"
    assert field(out, "largest collision class") == "none: every value is attained once"
    assert "counterexample" not in out
    assert "interval     yes  (decided exactly)" in out


def test_ap_with_R_4_is_not_injective_and_prints_the_pair(capsys):
    # AP = (1/R) sum of precision at relevant ranks, R = 4:
    # (0,1,0,1): (1/4)(1/2 + 2/4) = 1/4;  (1,0,0,0): (1/4)(1/1) = 1/4 -- a tie.
    status, out, err = run_cli(capsys, "intrinsic", "AP", "--domain", "rankings(n=4,grades=2,R=4)")
    assert status == 0 and err == ""
    assert field(out, "category") == "ordinal/pseudometric"
    assert "metric       NO   (decided exactly)" in out
    block = out[out.index("metric       NO"):]
    assert "(0, 1, 0, 1)  score 0.25\n" in block and "(1, 0, 0, 0)  score 0.25\n" in block
    # 16 sequences, one tie -> 15 distinct values, resolution 15/16.
    assert field(out, "distinct values") == "15, resolution 0.9375 (distinct values / outputs)"


def test_recall_on_fixed_size_sets_is_interval(capsys):
    # size = 8: TP = 0..5, recall = TP/5, steps of 1/5.
    status, out, err = run_cli(capsys, "intrinsic", "recall", "--domain", "sets(N=20,R=5,size=8)")
    assert status == 0 and err == ""
    assert field(out, "category") == "interval/metric"
    assert field(out, "domain") == "sets(N=20, R=5, size=8)"
    assert field(out, "size") == "6 outputs"


def test_f_on_growing_relevant_sets_is_ordinal_metric(capsys):
    # nonrel = 0: F1 = 2TP / (2TP + FN) = 2TP / (TP + 5): 0, 2/6 = 1/3, 4/7, 6/8, ...
    # gaps 1/3 and 4/7 - 1/3 = 5/21 differ, so the first three values are the triple.
    status, out, err = run_cli(capsys, "intrinsic", "F", "--domain", "sets(N=20,R=5,nonrel=0)")
    assert status == 0 and err == ""
    assert field(out, "category") == "ordinal/metric"
    assert "metric       yes" in out
    block = out[out.index("interval     NO"):]
    assert "(TP=0, FP=0)  score 0" in block
    assert "(TP=1, FP=0)  score 0.333333" in block  # the report's one style: 6 digits, not 0.333333333333
    assert "(TP=2, FP=0)  score 0.571429" in block


def test_set_measure_parameters_and_markdown(capsys):
    # F(beta=2) on size=8: 5TP / (5TP + 4FN + FP) = 5TP / (5TP + 4(5 - TP) + 8 - TP) = 5TP / 28,
    # linear in TP: interval.
    status, out, _ = run_cli(capsys, "intrinsic", "F(beta=2)", "--domain", "sets(N=20,R=5,size=8)",
                             "--format", "markdown")
    assert status == 0
    assert out.startswith("## F(beta=2) on `sets(N=20, R=5, size=8)`: interval/metric")


def test_json_shape(capsys, tmp_path):
    target = tmp_path / "ap.json"
    status, out, err = run_cli(capsys, "intrinsic", "AP", "--domain", "rankings(n=4,grades=2,R=4)",
                               "--format", "json", "-o", str(target))
    assert status == 0 and out == wrote(target) and err == ""
    data = json.loads(target.read_text(encoding="utf-8"))
    assert set(data) >= {"metric", "domain", "size", "category", "properties", "distinct", "resolution",
                         "largest_class_size", "largest_class", "exact", "tolerance", "note"}
    assert (data["metric"], data["size"], data["category"]) == ("AP", 16, "ordinal/pseudometric")
    assert [p["name"] for p in data["properties"]] == ["pseudometric", "metric", "interval"]
    pair = data["properties"][1]["counterexample"]
    assert [(r["label"], r["exact"]) for r in pair] == [("(0, 1, 0, 1)", "1/4"), ("(1, 0, 0, 0)", "1/4")]
    assert "parametric" not in data


@pytest.mark.parametrize("argv, message", [
    (["AP"], "give SPEC and --domain"),
    (["--domain", "rankings(n=2)"], "give SPEC and --domain"),
    (["AP", "--domain", "rankings(n=2", ], "domain 'rankings(n=2': expected ',' or ')' at column 13"),
    (["AP", "--domain", "cubes(n=2)"], "unknown domain 'cubes'"),
    (["APP", "--domain", "rankings(n=2)"], "unknown metric 'APP'"),
    (["recall", "--domain", "rankings(n=2)"], "recall needs a sets(...) domain"),
    (["AP", "--domain", "sets(N=4,R=2)"], "AP needs a rankings(...) domain"),
    (["F@3", "--domain", "sets(N=4,R=2)"], "a set measure takes no cutoff '@3'"),
    (["F(gamma=2)", "--domain", "sets(N=4,R=2)"], "unknown parameter 'gamma'"),
    (["coverage_ratio", "--domain", "sets(N=4,R=2)"], "coverage_ratio needs a users(...) domain"),
    (["AP", "--domain", "rankings(n=2)", "--tolerance", "0"], "--tolerance must be positive"),
    (["AP", "--domain", "rankings(n=2)", "--table", "giner"], "--table prints a whole table"),
    (["AP", "--domain", "rankings(n=2)", "--format", "latex"], "--format latex is for --table"),
])
def test_bad_inputs_give_one_error_line(capsys, argv, message):
    status, out, err = run_cli(capsys, "intrinsic", *argv)
    assert status == 2 and out == ""
    assert message in err
    assert err.count("error:") == 1 and len([line for line in err.splitlines() if "error" in line]) == 1


def test_param_and_table_call_the_other_parts(capsys, monkeypatch):
    """With stand-in modules: --param appends the analysis, --table giner prints the table."""
    import types
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Analysis:
        summary: str
        exceptional: tuple[str, ...]

    calls = []
    parametric = types.ModuleType("axiometer.intrinsic.parametric")
    parametric.analyse = lambda metric, param, domain: (calls.append((metric.name, param, domain.name))
                                                        or Analysis("interval only at p = 1/2", ("1/2",)))
    monkeypatch.setitem(sys.modules, "axiometer.intrinsic.parametric", parametric)
    status, out, _ = run_cli(capsys, "intrinsic", "RBP", "--domain", "rankings(n=2)", "--param", "p")
    assert status == 0
    assert calls == [("RBP(p=0.8)", "p", "rankings(n=2, grades={0,1}, lengths=exact, R=2)")]
    assert out.index("category:") < out.index("parametric analysis:\n  interval only at p = 1/2")
    status, out, _ = run_cli(capsys, "intrinsic", "RBP", "--domain", "rankings(n=2)", "--param", "p",
                             "--format", "json")
    assert json.loads(out)["parametric"] == {"summary": "interval only at p = 1/2", "exceptional": ["1/2"]}

    giner = types.ModuleType("axiometer.intrinsic.giner")
    giner.run_giner = lambda: "TABLE"
    giner_report = types.ModuleType("axiometer.reports.giner")
    giner_report.format_giner = lambda table, format, width: f"{table} as {format} in {width}\n"
    monkeypatch.setitem(sys.modules, "axiometer.intrinsic.giner", giner)
    monkeypatch.setitem(sys.modules, "axiometer.reports.giner", giner_report)
    monkeypatch.delenv("COLUMNS", raising=False)  # the width comes from the terminal, which a test sets itself
    status, out, _ = run_cli(capsys, "intrinsic", "--table", "giner", "--format", "markdown")
    assert (status, out) == (0, "TABLE as markdown in 100\n")  # not a terminal: 100 columns
    status, out, _ = run_cli(capsys, "intrinsic", "--table", "giner", "--format", "html")
    assert (status, out) == (0, "TABLE as html in 100\n")  # Giner's table has a page too
    status, out, _ = run_cli(capsys, "intrinsic", "--table", "giner", "--format", "latex")
    assert (status, out) == (0, "TABLE as latex in 100\n")  # and a booktabs table for a paper


def test_giner_table_runs_through_the_command(capsys):
    # The Giner comparison names its canonical domains; definitions §4: recall on fixed-size sets is interval.
    status, out, err = run_cli(capsys, "intrinsic", "--table", "giner")
    assert status == 0 and err == ""
    assert "sets(N=20, R=5, size=8)" in out
    # recall: published I (interval/metric), I on fixed-size sets, reproduced there.
    recall = next(line for line in out.splitlines() if line.startswith("recall "))
    assert recall.split()[1:4] == ["I", "I", "I"]
    assert "I interval/metric" in out  # the codes' legend


def test_a_contingency_measure_on_a_users_domain_is_one_error_line(capsys):
    status, out, err = run_cli(capsys, "intrinsic", "precision", "--domain", "users(U=5,unknown=5)")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "users(U=5, unknown=5)" in err


def test_a_user_measure_on_a_users_domain(capsys):
    # Coverage ratio Rk/U with U = 5 takes 6 values (Rk = 0..5), each for 6 values of Ru:
    # not injective, hence ordinal/pseudometric.
    status, out, err = run_cli(capsys, "intrinsic", "coverage_ratio", "--domain", "users(U=5,unknown=5)")
    assert status == 0 and err == ""
    assert "category:                ordinal/pseudometric" in out
    assert "size:                    36 outputs" in out and "distinct values:         6" in out
