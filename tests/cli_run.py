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
