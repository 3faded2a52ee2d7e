"""``--jobs`` (issue 29, item 2): ``--jobs 100000`` started worker processes until it was stopped
(171 seen, 13.4 GB). A value above four per core is capped, with one note on stderr; a value that is
no whole number of at least 1 is a usage error naming it, for every command that takes the option."""

from __future__ import annotations

import os

import pytest

from axiometer import runner
from axiometer.cli import main
from axiometer.cli.run_options import JOBS_PER_CORE

#: The commands with --jobs, each as short as it can be given.
COMMANDS = [["check", "P@10", "--constraints", "Pri"], ["table", "--metrics", "P@10", "--constraints", "Pri"],
            ["plot", "region", "RBP", "Pri", "--param", "p=0.5,0.8", "-o", "{out}"]]


class _Stopped(Exception):
    """Raised by the stub runner once it has seen the jobs: nothing is checked or drawn."""


@pytest.fixture
def jobs_given(monkeypatch):
    """The jobs each command hands the runner (which is not run), on a machine of 3 cores."""
    given: list[int | None] = []

    def run_table(*args, jobs=None, **kwargs):
        given.append(jobs)
        raise _Stopped

    monkeypatch.setattr(runner, "run_table", run_table)
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    return given


def _run(capsys, argv: list[str]) -> str:
    """Run ``argv`` up to the runner; what it wrote on stderr."""
    with pytest.raises(_Stopped):
        main(argv)
    return capsys.readouterr().err


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_jobs_above_four_per_core_are_capped_with_a_note(capsys, tmp_path, jobs_given, command):
    argv = [a.format(out=tmp_path / "p.svg") for a in command]
    for jobs, expected in (("13", 12), ("12", 12), ("1", 1)):
        _run(capsys, [*argv, "--jobs", jobs])
        assert jobs_given[-1] == expected
    err = _run(capsys, [*argv, "--jobs", "100000"])
    assert jobs_given[-1] == 12
    assert err.splitlines() == [f"axiometer: note: --jobs 100000 is more than {JOBS_PER_CORE} worker processes "
                                "per core (3 cores here); using 12"]


def test_the_default_stays_all_cores(capsys, jobs_given):
    err = _run(capsys, ["check", "P@10", "--constraints", "Pri"])
    assert jobs_given == [None] and err == ""


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize("jobs, message", [("0", "must be at least 1 worker process, got '0'"),
                                           ("-4", "must be at least 1 worker process, got '-4'"),
                                           ("1.5", "not a whole number of worker processes: '1.5'"),
                                           ("all", "not a whole number of worker processes: 'all'")])
def test_nonsense_jobs_are_a_usage_error_naming_the_value(capsys, tmp_path, jobs_given, command, jobs, message):
    argv = [a.format(out=tmp_path / "p.svg") for a in command]
    with pytest.raises(SystemExit) as exited:
        main([*argv, "--jobs", jobs])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and f"error: argument --jobs: {message}" in err and jobs_given == []
