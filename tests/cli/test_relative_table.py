"""`axiometer table --rows relative`: the relative metrics against their properties.

The issue's acceptance: the matrix shows, with a counterexample, that
rareness-based precision ignores where a document sits in other systems'
rankings (PriorSens violated) while NRG does not (a witness).
"""

from __future__ import annotations

import json

import pytest

from axiometer.axioms import CONSTRAINT_IDS, PROPERTY_IDS
from axiometer.cli import main
from axiometer.metrics import RELATIVE_ROWS
from axiometer.runner import run_table
from tests.cli_run import matrix_rows, run_cli


def test_prior_sensitivity_rareness_ignores_positions_nrg_does_not(capsys):
    status, out, err = run_cli(capsys, "table", "--rows", "relative", "--quick", "--jobs", "1",
                               "--metrics", "RareP(alpha=0.5)@10", "NRG(base=nDCG@10)",
                               "--constraints", "PriorSens", "PriorMono", "--details")
    assert status == 0 and err == ""
    rows = matrix_rows(out)
    assert rows["RareP(alpha=0.5)@10"] == ["✗", "✓"]
    assert rows["NRG(base=nDCG@10)"] == ["W", "✗"]
    details = out.split("Details:")[1]
    rare = details.split("RareP(alpha=0.5)@10 × PriorSens")[1].split("×")[0]
    # The counterexample moves a document inside another system's ranking: same ranking,
    # two contexts, equal scores.
    assert "other systems for a:" in rare and "other systems for b:" in rare
    assert "no case among" in rare
    nrg_mono = details.split("NRG(base=nDCG@10) × PriorMono")[1]
    assert "other systems for a:" in nrg_mono and "required Q(b) >= Q(a)" in nrg_mono


def test_the_relative_row_set_defaults_to_its_rows_and_the_properties_first():
    result = run_table(row_set="relative", constraints=["Rev", "Finite"], quick=True, jobs=1)
    assert result.rows == tuple(title for title, _ in RELATIVE_ROWS)
    verdicts = {(c.row, c.constraint): c.verdict for c in result.cells}
    assert verdicts["P@K_rare", "Rev"] == "satisfied"
    assert verdicts["U(x)", "Rev"] == "n/a"            # Fujii states no reversion
    # The row's default is policy='skip' (always finite); the error policy is in the grid.
    assert verdicts["U(x)", "Finite"] == "satisfied"
    fujii = next(c for c in result.cells if c.row == "U(x)" and c.constraint == "Finite")
    by_policy = {dict(check.params)["policy"]: check.verdict for check in fujii.checks}
    assert by_policy == {"skip": "satisfied", "error": "violated", "epsilon": "satisfied"}


def test_a_relative_metric_alone_gets_properties_and_constraints():
    result = run_table(["Unique@10"], quick=True, jobs=1)
    assert result.constraints == (*PROPERTY_IDS, *CONSTRAINT_IDS)


def test_compare_is_only_for_the_sigir_table(capsys):
    status = None
    try:
        status = main(["table", "--rows", "relative", "--compare", "amigo2018"])
    except SystemExit as exit_:
        status = exit_.code
    assert status == 2
    assert "compares the sigir2018" in capsys.readouterr().err


def test_family_is_a_hidden_alias_of_rows(capsys):
    # `--family` was the option's name: users' commands keep working, the help names `--rows` only.
    with pytest.raises(SystemExit) as exit_:
        main(["table", "--family", "relative", "--compare", "amigo2018"])
    assert exit_.value.code == 2
    assert "compares the sigir2018" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["table", "--help"])
    help_text = capsys.readouterr().out
    assert "--rows" in help_text and "--family" not in help_text


def test_relative_json_is_strict_json(capsys):
    status, out, _ = run_cli(capsys, "table", "--rows", "relative", "--quick", "--jobs", "1",
                             "--metrics", "FujiiU(policy='error')", "--constraints", "Finite",
                             "--format", "json")
    assert status == 0
    data = json.loads(out, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
    cell = data["cells"][0]
    assert cell["verdict"] == "violated" and cell["checks"][0]["counterexample"]["score_a"] is None
