"""The foundation's end-to-end promise, through the command line: the real
TREC 2014 diversity judgments with a generated run print all 20 metrics, and
RBU in the reference form with ``--grades err-aspect`` reproduces the authors'
Java values to their printed 4 decimals."""

from __future__ import annotations

import json

import pytest

from axiometer.cli import main
from axiometer.metrics import TABLE_ROWS, parse
from tests.paths import QRELS_2014, RBU_REFERENCE

HALF_UNIT = 0.00005  # the reference prints 4 decimals (see tests/peers/test_rbu_reference.py)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_all_twenty_metrics_on_the_real_judgments(capsys):
    status, out, err = run(capsys, "score", "--qrels", str(QRELS_2014),
                           "--run", str(RBU_REFERENCE / "runA.trec"), "--format", "json")
    assert status == 0 and err == ""
    means = {record["metric"]: record["value"] for record in json.loads(out)}
    assert list(means) == [parse(spec).name for _, spec in TABLE_ROWS]
    status, text, _ = run(capsys, "score", "--qrels", str(QRELS_2014),
                          "--run", str(RBU_REFERENCE / "runA.trec"))
    assert status == 0 and "Means over 50 qrels topics:" in text
    assert all(parse(spec).name in text for _, spec in TABLE_ROWS)


@pytest.mark.parametrize("p, e", [("0.8", "0.03"), ("0.9", "0.1")])
@pytest.mark.parametrize("run_name", ["A", "B"])
def test_rbu_reference_form_matches_the_java_values(capsys, run_name, p, e):
    spec = f"RBU(p={p},e={e},form='reference')"
    status, out, err = run(capsys, "score", "--qrels", str(QRELS_2014),
                           "--run", str(RBU_REFERENCE / f"run{run_name}.trec"),
                           "--grades", "err-aspect", "--metric", spec,
                           "--per-topic", "--format", "json")
    assert status == 0 and err == ""
    ours = {r["topic"]: r["value"] for r in json.loads(out) if "topic" in r}
    lines = (RBU_REFERENCE / f"run{run_name}.p{p}.e{e}.tsv").read_text().splitlines()[1:]
    printed = {topic: float(value) for topic, value in (line.split("\t") for line in lines if line)}
    assert set(ours) == set(printed) and len(printed) == 50
    assert all(abs(ours[t] - printed[t]) <= HALF_UNIT for t in printed), \
        {t: (ours[t], printed[t]) for t in printed if abs(ours[t] - printed[t]) > HALF_UNIT}
