"""Running the command line inside a test: ``run_cli(capsys, "score", "--example")``, and reading
the constraint table's text matrix back (``matrix_rows``)."""

from __future__ import annotations

import re
from typing import Any

from axiometer.cli import main


def run_cli(capsys: Any, *argv: Any) -> tuple[int, str, str]:
    """``axiometer ARGV...`` in this process (arguments turned into strings, so paths can be
    passed as they are): its exit status, stdout and stderr."""
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def wrote(path: Any) -> str:
    """What a command prints on stdout after writing its report with ``-o path`` (issue 27)."""
    from pathlib import Path

    return f"wrote {path} ({Path(path).stat().st_size:,} bytes)\n"


def example_note() -> str:
    """What ``--example`` prints on stderr: where the bundled files are (issue 27)."""
    from axiometer.cli.campaign_options import example_files, example_note as note

    with example_files() as (qrels, runs):
        return note(qrels, runs) + "\n"


def score_body(text: str) -> list[str]:
    """A score report's lines after its opening block on how each metric read the grades."""
    lines = text.splitlines()
    if lines and lines[0].startswith("Grades g read as relevance r"):
        lines = lines[lines.index("") + 1:]
    return lines


def flat(text: str) -> str:
    """``text`` with every run of whitespace as one space (reports wrap their lines)."""
    return " ".join(text.split())


def matrix_rows(text: str) -> dict[str, list[str]]:
    """A constraint table's text matrix: row title -> marks (columns split on two or more spaces)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("metric"))
    rows = {}
    for line in lines[start + 2:]:
        if not line.strip():
            break
        parts = re.split(r"\s{2,}", line.strip())
        rows[parts[0]] = parts[1:]
    return rows


def timeless(data: Any) -> Any:
    """A report's JSON data with the proofs' times removed (every check's ``proof_seconds`` and every
    proof's ``seconds``): the one part of a report that differs between two runs at the same seed
    (docs/table.md, Determinism), so that they can be compared on everything else."""
    if isinstance(data, dict):
        kept = {key: timeless(value) for key, value in data.items() if key != "proof_seconds"}
        if isinstance(kept.get("proof"), dict):
            kept["proof"] = {key: value for key, value in kept["proof"].items() if key != "seconds"}
        return kept
    if isinstance(data, list):
        return [timeless(value) for value in data]
    return data


def without_formulas(data: Any) -> Any:
    """A report's JSON data with every proof's ``formulas`` emptied (a JSON report from the command
    line keeps them for another solver; ``axiometer.check`` does not)."""
    if isinstance(data, dict):
        kept = {key: without_formulas(value) for key, value in data.items()}
        if isinstance(kept.get("proof"), dict):
            kept["proof"] = {**kept["proof"], "formulas": []}
        return kept
    if isinstance(data, list):
        return [without_formulas(value) for value in data]
    return data
