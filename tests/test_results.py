"""The result objects' types: verdicts and strengths are string enums, and typed fields stay out
of the JSON (issue 25: typed results, the JSON's bytes unchanged)."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

from axiometer.results import (HOLDS, VERDICTS, Check, Counterexample, Decided, Evidence, Strength,
                               TopicRecord, Verdict, Witness, record)


def _witness_check() -> Check:
    return Check(constraint="DeepTh", metric="RBP(p=0.9)", params=(("p", 0.9),), verdict=Verdict.WITNESS,
                 mode="truncate", witness=Witness("n = 12", "for every rc tried", threshold=12,
                                                  rcs=(Fraction(1, 100),)),
                 evidence=Evidence(Strength.EXHAUSTIVE, "n on the grid 1..32", 32, 0, True))


def test_a_verdict_is_its_string():
    assert Verdict.NA == "n/a" and "satisfied" == Verdict.SATISFIED
    assert f"{Verdict.NOT_RUN}" == str(Verdict.NOT_RUN) == "not run"
    assert f"{Verdict.ERROR:>7}" == "  error"
    assert [v.value for v in VERDICTS] == ["satisfied", "violated", "witness", "error", "n/a", "not run"]


def test_holds_is_a_frozenset_of_members():
    assert HOLDS == frozenset({Verdict.SATISFIED, Verdict.WITNESS})
    assert "witness" in HOLDS and Verdict.VIOLATED not in HOLDS


def test_the_json_writes_enum_values_as_plain_strings():
    data = record(_witness_check())
    assert data["verdict"] == "witness" and type(data["verdict"]) is str
    assert data["evidence"]["strength"] == "exhaustive" and type(data["evidence"]["strength"]) is str
    assert json.dumps(data["verdict"]) == '"witness"'


def test_typed_fields_stay_out_of_the_json():
    data = record(_witness_check())
    assert data["witness"] == {"value": "n = 12", "note": "for every rc tried", "signs": None,
                               "by_truncation": False}
    example = Counterexample(topic=TopicRecord(("*",), ("1",), ()), a=("d1",), b=("d2",), score_a=0.0,
                             score_b=1.0, relation="Q(b) > Q(a)", note="", decided=Decided.EXACT,
                             extra=(("rc", "1/10"), ("m", "3")), rc=Fraction(1, 10), threshold=3,
                             signs="m=1..2: +; m=3: −")
    written = record(example)
    assert "rc" not in written and "threshold" not in written and "rmax" not in written
    assert "signs" not in written
    assert written["decided"] == "exact" and written["extra"] == [["rc", "1/10"], ["m", "3"]]


# -- tidy rows (to_rows / to_pandas: notebooks) --------------------------------------------------

def test_a_tables_rows_are_one_per_metric_constraint_and_setting():
    from tests.reports.test_table import sample_table

    table = sample_table()
    rows = table.to_rows()
    assert len(rows) == sum(len(cell.checks) for cell in table.cells)
    assert {(r["metric"], r["constraint"], r["setting"]) for r in rows} == {
        (cell.row, cell.constraint, check.metric) for cell in table.cells for check in cell.checks}
    dependent = [r for r in rows if (r["metric"], r["constraint"]) == ("RBP", "DeepTh")]
    assert [(r["p"], r["verdict"], r["default"]) for r in dependent] == [(0.8, "witness", True), (0.5, "violated", False)]
    assert {r["summary"] for r in dependent} == {table.cell("RBP", "DeepTh").summary}


def test_a_tables_rows_keep_values_typed():
    from tests.reports.test_table import sample_table

    frame = sample_table().to_pandas()
    violated = frame[frame["verdict"] == "violated"].iloc[0]
    assert type(violated["verdict"]) is str and isinstance(violated["score_a"], float)
    assert violated["relation"] == "Q(b) > Q(a)" and violated["counterexample"]
    assert frame["default"].dtype == bool and frame["cases"].dtype.kind == "i"
    assert set(frame["verdict"]) <= {v.value for v in VERDICTS}


def test_a_checks_evidence_gives_its_strength_row():
    from axiometer.results import Cell, TableResult

    check = _witness_check()
    table = TableResult(rows=("RBP",), constraints=("DeepTh",), seed=0, mode="default", budget="",
                        cells=(Cell("RBP", "RBP(p=0.9)", "DeepTh", Verdict.WITNESS, "witness", (check,)),))
    (row,) = table.to_rows()
    assert (row["strength"], row["witness"], row["p"], row["counterexample"]) == ("exhaustive", "n = 12", 0.9, None)


def test_an_intrinsic_result_has_a_row_per_property_and_a_parametric_one_per_value():
    from axiometer.results import IntrinsicResult, OutputRecord, ParametricResult, PropertyVerdict

    tie = (OutputRecord(0, "(0, 1)", ("d1", "d2"), 0.5), OutputRecord(1, "(1, 0)", ("d2", "d1"), 0.5))
    result = IntrinsicResult("m", "rankings(n=2)", 4, "ordinal/pseudometric",
                             (PropertyVerdict("pseudometric", True, True), PropertyVerdict("metric", False, True, tie)))
    rows = result.to_rows()
    assert [(r["property"], r["holds"], r["counterexample"]) for r in rows] == [
        ("pseudometric", True, []), ("metric", False, ["(0, 1)", "(1, 0)"])]
    parametric = ParametricResult("RBP", "p", "(0, 1)", "rankings(n=3)", 8, 8,
                                  exceptional=(("(-1 + sqrt(5))/2", 0.618034, "(0, 1, 1)", "(1, 0, 0)"),),
                                  interval=(("1/2", 0.5),))
    assert [(r["kind"], r["value"], r["tied"]) for r in parametric.to_rows()] == [
        ("tie", 0.618034, ["(0, 1, 1)", "(1, 0, 0)"]), ("interval", 0.5, [])]


def test_a_parameter_named_like_a_column_keeps_both():
    from axiometer.results import Cell, TableResult

    check = dataclasses.replace(_witness_check(), params=(("verdict", "x"), ("p", 0.9)))
    table = TableResult(rows=("m",), constraints=("DeepTh",), seed=0, mode="default", budget="",
                        cells=(Cell("m", check.metric, "DeepTh", Verdict.WITNESS, "witness", (check,)),))
    (row,) = table.to_rows()
    assert (row["verdict"], row["param_verdict"], row["p"]) == ("witness", "x", 0.9)
    assert list(row)[3:6] == ["default", "param_verdict", "p"]
