"""The result objects' types: verdicts and strengths are string enums, and typed fields stay out
of the JSON (issue 25: typed results, the JSON's bytes unchanged)."""

from __future__ import annotations

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
