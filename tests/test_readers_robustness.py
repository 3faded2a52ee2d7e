"""Files that used to give silently wrong numbers or hang (issue 16, item 2 and 6): a UTF-8 BOM, control
characters, huge grades and --gmax, unreadable paths, a run sharing no topic with the qrels, and
subdirectories of --runs. Each is either read correctly or refused with one line naming the file."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from axiometer.cli import main
from axiometer.core import InputError, ValidationError
from axiometer.readers import BOM, read_qrels, read_run

QRELS = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d1 1\n"
RUN = "q1 Q0 d2 1 3.0 r\nq1 Q0 d1 2 2.0 r\nq1 Q0 d3 3 1.0 r\nq2 Q0 d1 1 1 r\n"


def _files(tmp_path: Path, qrels: str = QRELS, run: str = RUN, bom: str = "") -> tuple[str, str]:
    q, r = tmp_path / "q.txt", tmp_path / "a.run"
    q.write_bytes(((BOM if "q" in bom else "") + qrels).encode("utf-8"))
    r.write_bytes(((BOM if "r" in bom else "") + run).encode("utf-8"))
    return str(q), str(r)


def _score(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["score", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("bom", ["q", "r", "qr"])
def test_a_byte_order_mark_changes_nothing(tmp_path, capsys, bom):
    plain = _score(capsys, "--qrels", _files(tmp_path)[0], "--run", _files(tmp_path)[1],
                   "--metric", "nDCG@10", "--metric", "AP")
    with_bom = _score(capsys, "--qrels", _files(tmp_path, bom=bom)[0], "--run", _files(tmp_path, bom=bom)[1],
                      "--metric", "nDCG@10", "--metric", "AP")
    assert plain[0] == with_bom[0] == 0
    assert plain[1].replace(str(tmp_path), "") == with_bom[1].replace(str(tmp_path), "")
    assert "q1" in read_qrels(_files(tmp_path, bom=bom)[0]).topics


def test_a_huge_grade_and_gmax_are_one_line_within_two_seconds(tmp_path, capsys):
    q, r = _files(tmp_path, qrels="q1 0 d1 99999999999999999999\n")
    start = time.monotonic()
    status, out, err = _score(capsys, "--qrels", q, "--run", r, "--metric", "nDCG@10")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert f"{q}:1: grade above 100" in err
    q, r = _files(tmp_path)
    status, out, err = _score(capsys, "--qrels", q, "--run", r, "--metric", "nDCG@10", "--gmax", "1000000000000")
    assert status == 2 and "gmax=1000000000000 is above 100" in err and err.count("\n") == 1
    assert time.monotonic() - start < 2
    with pytest.raises(InputError, match="grade above 100"):
        read_qrels(_files(tmp_path, qrels="q1 0 d1 1" + "0" * 5000 + "\n")[0])
    with pytest.raises(ValidationError, match="above 100"):
        read_qrels(q, gmax=101)


def test_control_characters_and_non_ascii_digits_are_refused_with_file_and_line(tmp_path):
    q, _ = _files(tmp_path, qrels="q1 0 d1 1\nq1 0 d\x072 1\n")
    with pytest.raises(InputError, match=r":2: control character U\+0007"):
        read_qrels(q)
    q, _ = _files(tmp_path, qrels="q1 0 d1 \u0661\n")  # an Arabic-Indic digit one
    with pytest.raises(InputError, match="grade must be an integer"):
        read_qrels(q)


def test_what_is_not_a_readable_file_is_one_error_naming_it():
    with pytest.raises(InputError, match="a file path is needed, got NoneType"):
        read_run(None)  # type: ignore[arg-type]
    if Path("/proc/self/mem").exists():
        with pytest.raises(InputError, match="/proc/self/mem"):
            read_run("/proc/self/mem")


def test_a_run_sharing_no_topic_with_the_qrels_stops_unless_allowed(tmp_path, capsys):
    q, r = _files(tmp_path, run="q9 Q0 d2 1 3.0 r\n")
    status, out, err = _score(capsys, "--qrels", q, "--run", r, "--metric", "nDCG@10")
    assert status == 2 and out == ""
    assert "shares no topic with the qrels" in err and "--allow-empty" in err and err.count("\n") == 1
    status, out, _ = _score(capsys, "--qrels", q, "--run", r, "--metric", "nDCG@10", "--allow-empty")
    assert status == 0 and "missing 2 of the 2 qrels topics" in out


def test_a_subdirectory_of_runs_is_named_in_a_note(tmp_path, capsys):
    q, r = _files(tmp_path)
    runs = tmp_path / "runs"
    (runs / "old").mkdir(parents=True)
    (runs / "a.run").write_text(Path(r).read_text())
    status, out, err = _score(capsys, "--qrels", q, "--runs", str(runs), "--metric", "nDCG@10")
    assert status == 0
    assert "skipped 1 entry (old: a subdirectory)" in err


def test_every_entry_of_runs_that_is_not_read_is_named_with_why(tmp_path, capsys):
    # Issue 29: a dangling link, a FIFO and a link loop were skipped with exit 0 and no word.
    q, r = _files(tmp_path)
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "a.run").write_text(Path(r).read_text())
    (runs / "b.run").symlink_to(runs / "a.run")          # a link to a run is read
    (runs / "dangling.run").symlink_to(runs / "gone.run")
    os.mkfifo(runs / "pipe.run")
    (runs / "loop1.run").symlink_to(runs / "loop2.run")
    (runs / "loop2.run").symlink_to(runs / "loop1.run")
    (runs / ".hidden.run").write_text(Path(r).read_text())
    status, out, err = _score(capsys, "--qrels", q, "--runs", str(runs), "--metric", "nDCG@10",
                              "--format", "json")
    assert status == 0 and sorted({Path(row["run"]).name for row in json.loads(out)}) == ["a.run", "b.run"]
    assert err.count("\n") == 1 and "skipped 5 entries (.hidden.run: hidden, dangling.run: a broken symbolic " \
        "link, loop1.run: unreadable (Too many levels of symbolic links), loop2.run: unreadable (Too many " \
        "levels of symbolic links), pipe.run: not a regular file (a FIFO, socket or device))" in err
