"""Running the command line inside a test: ``run_cli(capsys, "score", "--example")``."""

from __future__ import annotations

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
