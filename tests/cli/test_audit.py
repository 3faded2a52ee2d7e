"""`axiometer audit` end to end on two measures of ir_measures: the Markdown page (docs/peer-audit.md)
has its title, the command that regenerates it and a row per audited measure; the command exits 0
whatever the peers do; bad input is one stderr line.

ir_measures' ranx provider is switched off here: ranx compiles its numba code on first use, which
takes a minute on a fresh machine; the rows it would add are the same kind as the others."""

from __future__ import annotations

import re

import json

import numpy as np
import pytest

from axiometer.agreement.audit import audit_rows
from tests.cli_run import run_cli

AUDITED = ("--provider", "ir_measures", "--metric", "RR", "P@5", "--queries", "30")


@pytest.fixture
def without_ranx(monkeypatch):
    import ir_measures

    monkeypatch.setattr(ir_measures.providers.registry["ranx"], "is_available", lambda: False)


def test_the_markdown_page_has_a_title_the_regenerating_command_and_a_row_per_measure(capsys, without_ranx):
    status, out, err = run_cli(capsys, "audit", *AUDITED, "--format", "markdown")
    assert status == 0, err
    assert out.startswith("# Peer audit\n")
    assert ("\n```\naxiometer audit --provider ir_measures --metric RR P@5 --queries 30 --format markdown "
            "-o docs/peer-audit.md\n```\n") in out
    rows = [line for line in out.splitlines() if line.startswith("| ir_measures/")]
    expected = audit_rows(["ir_measures"], ["RR", "P@5"])
    assert len(rows) == len(expected) >= 2
    for row, (provider, implementation, builtin) in zip(rows, expected):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[0] == provider and cells[2] == f"`{implementation.split(':', 1)[1]}`" and cells[3] == builtin
    # trec_eval keeps scores as C floats: its RR agrees under float32, with the case that shows it.
    trec_eval_rr = next(row for row in rows if row.startswith("| ir_measures/pytrec_eval ") and "`RR`" in row)
    assert "agrees under: scores rounded to float32" in trec_eval_rr
    case = re.search(r"judgments (\S+); run (\S+), (\S+) → (\S+) vs reference (\S+) \|", trec_eval_rr)
    assert case is not None
    first, second = (float(item.split("=")[1]) for item in case.group(2, 3))
    assert first != second and float(np.float32(first)) == float(np.float32(second))
    assert case.group(4) != case.group(5)


def test_a_page_written_elsewhere_names_its_own_file_in_the_command(capsys, without_ranx, tmp_path):
    target = tmp_path / "peer-audit.md"
    status, out, err = run_cli(capsys, "audit", "--provider", "ir_measures", "--metric", "P@5", "--queries", "10",
                               "--format", "markdown", "-o", target)
    assert (status, out, err) == (0, "", "")
    assert (f"\naxiometer audit --provider ir_measures --metric P@5 --queries 10 --format markdown -o {target}\n"
            in target.read_text(encoding="utf-8"))


def test_a_peer_s_disagreement_is_a_finding_and_the_command_exits_0(capsys, without_ranx):
    status, out, _ = run_cli(capsys, "audit", "--provider", "ir_measures", "--metric", "RR", "--queries", "20",
                             "--format", "json")
    data = json.loads(out)
    assert status == 0
    assert {row["measure"] for row in data["audit"]} == {"RR"} and data["queries"] == 20
    assert any(row["result"]["agree"] != "agrees" for row in data["audit"])


@pytest.mark.parametrize("argv, message", [
    (("--queries", "0"), "--queries must be at least 1, got 0"),
    (("--metric", "ERR@20"), "--metric ERR@20: no peer measure corresponds to ERR@20; the audit covers"),
    (("--metric", "NRG(base=nDCG@3)"), "agree compares metrics of one grade per document"),
])
def test_bad_input_is_one_error_line(capsys, argv, message):
    status, out, err = run_cli(capsys, "audit", *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("axiometer: error: ") and message in err


def test_an_unknown_provider_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit:
        run_cli(capsys, "audit", "--provider", "trec_eval")
    assert exit.value.code == 2
    assert "invalid choice: 'trec_eval'" in capsys.readouterr().err
