"""Writing a report whole or not at all, and refusing an unwritable target before any work (issue 29)."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from axiometer.cli import main
from axiometer.outputs import OutputError, check_writable, write_atomically


def test_a_write_replaces_the_file_whole_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "report.json"
    target.write_text("old")
    write_atomically(target, "new report")
    assert target.read_text() == "new report" and sorted(os.listdir(tmp_path)) == ["report.json"]


def test_a_write_failing_midway_keeps_the_previous_report_and_names_the_file(tmp_path, monkeypatch):
    target = tmp_path / "report.json"
    target.write_text('{"good": true}')

    def disk_full(descriptor):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OutputError, match=r"report\.json: No space left on device"):
        write_atomically(target, "x" * 100_000)
    assert target.read_text() == '{"good": true}' and sorted(os.listdir(tmp_path)) == ["report.json"]


def test_an_interrupted_write_keeps_the_previous_report(tmp_path, monkeypatch):
    target = tmp_path / "report.txt"
    target.write_text("previous")

    def interrupted(descriptor):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, "half")
    assert target.read_text() == "previous" and sorted(os.listdir(tmp_path)) == ["report.txt"]


def _write_many(path: str, fill: str) -> None:
    for _ in range(30):
        write_atomically(path, fill * 300_000)


def test_two_processes_writing_the_same_file_leave_one_whole_report(tmp_path):
    target = tmp_path / "report.txt"
    context = multiprocessing.get_context("fork")
    writers = [context.Process(target=_write_many, args=(str(target), fill)) for fill in "ab"]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(60)
    assert [writer.exitcode for writer in writers] == [0, 0]
    assert target.read_text() in ("a" * 300_000, "b" * 300_000)
    assert sorted(os.listdir(tmp_path)) == ["report.txt"]


def test_a_symbolic_link_is_written_through(tmp_path):
    real = tmp_path / "real.md"
    real.write_text("old")
    (tmp_path / "link.md").symlink_to(real)
    write_atomically(tmp_path / "link.md", "new")
    assert (tmp_path / "link.md").is_symlink() and real.read_text() == "new"


@pytest.mark.parametrize("where, problem", [("directory", "is a directory"),
                                            ("missing/report.json", "there is no directory")])
def test_a_target_that_cannot_be_written_is_refused_with_its_name(tmp_path, where, problem):
    (tmp_path / "directory").mkdir()
    with pytest.raises(OutputError, match=problem) as error:
        check_writable(tmp_path / where)
    assert str(error.value).startswith(str(tmp_path / where))


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only directory")
def test_a_read_only_directory_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    with pytest.raises(OutputError, match="not writable"):
        check_writable(locked / "report.json")


def test_the_cli_refuses_an_unwritable_output_before_the_run(tmp_path, capsys, monkeypatch):
    # The run would fail if it started: the refusal comes first, in one line naming the file.
    import axiometer.cli.check as check_command

    def never(*args, **kwargs):
        raise AssertionError("the check ran before -o was found unwritable")

    monkeypatch.setattr(check_command, "run_checks", never)
    target = tmp_path / "no" / "such" / "dir" / "report.json"
    status = main(["check", "RBP", "--quick", "--constraints", "Pri", "-o", str(target)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert err.startswith(f"axiometer: error: {target}: there is no directory")
    assert not Path(tmp_path / "no").exists()
