"""Files that used to give silently wrong numbers or hang (issue 16, item 2 and 6): a UTF-8 BOM, control
characters, huge grades and --gmax, unreadable paths, a run sharing no topic with the qrels, and
subdirectories of --runs. Each is either read correctly or refused with one line naming the file."""

from __future__ import annotations

import json
import math
import os
import time
import warnings
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


# -- bounded resources (issue 29, item 2): files read a span at a time -------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from axiometer import readers, runfile  # noqa: E402
from axiometer.readers import MAX_LINE, content_lines  # noqa: E402
from tests.errors import one_line_error  # noqa: E402
from tests.test_readers_bulk import run_texts  # noqa: E402


def test_a_file_without_a_line_break_is_refused_at_its_first_megabyte(tmp_path):
    """``--qrels /dev/zero`` read until memory ran out: a line is refused once it passes
    MAX_LINE bytes, before the rest of the file is read (here a 64 MiB file of NUL bytes, sparse)."""
    zeros = tmp_path / "zeros"
    with open(zeros, "wb") as handle:
        handle.truncate(64 << 20)
    expected = f"{zeros}:1: line longer than {MAX_LINE} bytes: not a file of text lines (binary data?)"
    assert one_line_error(read_run, zeros) == expected
    assert one_line_error(read_qrels, zeros) == expected
    long_line = tmp_path / "long.run"
    long_line.write_bytes(b"q1 Q0 a 1 1 t\n\n" + b"x" * (MAX_LINE + 1) + b"\nq1 Q0 b 1 1 t\n")
    assert one_line_error(read_run, long_line).startswith(f"{long_line}:3: line longer than")
    if Path("/dev/zero").exists():
        assert one_line_error(read_run, "/dev/zero") == expected.replace(str(zeros), "/dev/zero")


@pytest.mark.parametrize("limit", [8, 9, 16])
def test_a_line_is_refused_exactly_when_longer_than_the_limit(tmp_path, monkeypatch, limit):
    """Wherever the blocks fall: a line of ``limit`` bytes is read, one of ``limit + 1`` refused."""
    monkeypatch.setattr(readers, "MAX_LINE", limit)
    path = tmp_path / "lines.txt"
    for before in range(2 * limit + 2):
        prefix = b"".join(b"a" * min(n, limit) + b"\n" for n in range(1, before + 1)) if before else b""
        count = prefix.count(b"\n")
        for ending in (b"", b"\n"):
            path.write_bytes(prefix + b"w" * limit + ending)
            assert [n for n, _ in content_lines(path)][-1] == count + 1
            path.write_bytes(prefix + b"w" * (limit + 1) + ending)
            assert one_line_error(lambda p: list(content_lines(p)), path).startswith(
                f"{path}:{count + 1}: line longer than {limit} bytes")


def test_blank_lines_are_skipped_wherever_they_fall(tmp_path):
    """A file of blank lines is refused as empty (a 256 MB one peaked at 7.1 GB), and blank lines
    of every kind (spaces, tabs, CRLF) between data lines keep the line numbers right."""
    blank = tmp_path / "blank.run"
    blank.write_bytes(b"\n" * (3 * MAX_LINE) + b" \t \n" * 1000 + b"\r\n" * 1000)
    assert one_line_error(read_run, blank) == f"{blank}: empty file: no run lines"
    assert one_line_error(read_qrels, blank) == f"{blank}: empty file: no judgments"
    lines = blank.read_bytes().count(b"\n")
    blank.write_bytes(blank.read_bytes() + b"q1 Q0 a 1 2 t\n" + b"\n" * MAX_LINE + b"q1 Q0 b 2 x t\n")
    assert one_line_error(read_run, blank) == \
        f"{blank}:{lines + 2 + MAX_LINE}: score must be a finite number (at 'x')"
    blank.write_bytes(b"\n \r \n")  # a carriage return inside a line is no line break
    assert "control character U+000D" in one_line_error(read_run, blank)


def _reference_run(data: bytes, source: str) -> tuple[dict[str, tuple[str, ...]], str, int] | str:
    """What a run file holds, read line by line in file order (the rules of docs/formats.md): the
    rankings, the tag and the number of lines with extra columns, or the first error's message."""
    scored: dict[str, dict[str, tuple[float, int]]] = {}
    tag, tag_line, extra = None, 0, 0
    for number, raw in enumerate(data.split(b"\n"), 1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return f"{source}:{number}: not UTF-8 text"
        text = (text[1:] if number == 1 and text.startswith("\ufeff") else text).rstrip("\r\n")
        bad = [c for c in text if (ord(c) < 32 and c != "\t") or 127 <= ord(c) <= 159]
        if bad:
            return (f"{source}:{number}: control character U+{ord(bad[0]):04X} in the line "
                    "(only tabs and spaces separate fields)")
        fields = text.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) < 6:
            return f"{source}:{number}: expected 6 columns (qid Q0 docno rank score tag), found {len(fields)}"
        extra += len(fields) > 6
        qid, _, doc, _, score_text, line_tag = fields[:6]
        try:
            score = float(score_text) if "_" not in score_text else math.nan
        except ValueError:
            score = math.nan
        if not math.isfinite(score):
            return f"{source}:{number}: score must be a finite number (at {score_text!r})"
        if tag is None:
            tag, tag_line = line_tag, number
        elif line_tag != tag:
            return (f"{source}:{number}: run tag {line_tag!r} differs from {tag!r} at line {tag_line}; "
                    "a file holds one run")
        if doc in scored.setdefault(qid, {}):
            first = scored[qid][doc][1]
            return f"{source}:{number}: duplicate document {doc!r} in topic {qid!r} (first at line {first})"
        scored[qid][doc] = (score, number)
    if tag is None:
        return f"{source}: empty file: no run lines"
    rankings = {qid: tuple(d for d, _ in sorted(((d, s) for d, (s, _) in docs.items()),
                                                key=lambda pair: (pair[1], pair[0]), reverse=True))
                for qid, docs in scored.items()}
    return rankings, tag, extra


_DOCS = ["a", "b", "B", "d1", "d10", "abcdefgh", "abcdefghi", "caf\u00e9", "doc-123456789012345678"]


@st.composite
def mostly_good_runs(draw) -> bytes:
    """Run files that are mostly well-formed, so that what happens after the first lines is tried:
    documents repeat (duplicates, within a span and across spans), some lines go beyond ASCII or
    carry extra columns (spans for the line reader), and at most one line is bad."""
    lines = []
    for _ in range(draw(st.integers(1, 40))):
        kind = draw(st.sampled_from(["data"] * 12 + ["blank", "comment", "extra"]))
        if kind == "blank":
            lines.append(draw(st.sampled_from(["", " ", "\t ", "\r"])))
        elif kind == "comment":
            lines.append(draw(st.sampled_from(["# c", "# r\u00e9sum\u00e9", "# six words in this comment"])))
        else:
            doc = draw(st.sampled_from(_DOCS)) + draw(st.sampled_from(["", "", str(len(lines))]))
            fields = [draw(st.sampled_from(["q1", "q2", "q3"])), "Q0", doc, "1",
                      draw(st.sampled_from(["1", "2", "2.0", "-0", "0.0", "1e2", ".5", "3"])), "t"]
            fields += ["more"] * (kind == "extra")
            lines.append(draw(st.sampled_from([" ", "\t", "  "])).join(fields))
    if draw(st.booleans()):
        bad = draw(st.sampled_from(["q1 Q0 z 1 high t", "q1 Q0 z 1 1", "q1 Q0 z 1 1 u", "q1 Q0 z\x07 1 1 t",
                                    "q1 Q0 z 1 1_0 t"]))
        lines.insert(draw(st.integers(0, len(lines))), bad)
    data = draw(st.sampled_from(["\n", "\r\n"])).join(lines).encode("utf-8")
    if draw(st.integers(0, 9)) == 0:
        data += b"\nq1 Q0 caf\xe9 1 1 t"  # not UTF-8
    return (BOM.encode() if draw(st.booleans()) else b"") + data


@settings(max_examples=300, deadline=None)
@given(data=st.one_of(mostly_good_runs(), run_texts()), span=st.integers(0, 40), pieces=st.integers(1, 4))
def test_a_run_read_span_by_span_is_the_run_read_line_by_line(tmp_path_factory, data, span, pieces):
    """Differential: however the file is cut into spans (bulk spans, line-read spans beyond ASCII or
    with extra columns, duplicates and tags across spans) and however the spans' columns are joined
    as they come, read_run gives what the rules say: the same rankings, tag and extra-column count,
    or the same first error."""
    path = tmp_path_factory.mktemp("spans") / "r.run"
    path.write_bytes(data)
    expected = _reference_run(data, str(path))
    longest = max(len(line) for line in data.split(b"\n"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(readers, "MAX_LINE", max(longest, 1) + span)
        patch.setattr(runfile, "_PIECES", pieces)
        try:
            with warnings.catch_warnings(record=True) as remarks:
                warnings.simplefilter("always")
                run = read_run(path, compact=True)
        except InputError as error:
            assert str(error) == expected
            return
    assert not isinstance(expected, str), f"read {path} where the rules say {expected}"
    rankings, tag, extra = expected
    assert dict(run.rankings) == rankings and list(run.rankings) == list(rankings) and run.tag == tag
    assert len(remarks) == (1 if extra else 0)
    if extra:
        assert f" {extra} line" in str(remarks[0].message)


def test_a_duplicate_in_an_earlier_span_is_named_before_a_later_bad_line(tmp_path, monkeypatch):
    """Spans are checked for duplicates among themselves only once all are read; a bad line after a
    duplicate still loses to it, as the line reader always ordered them."""
    monkeypatch.setattr(readers, "MAX_LINE", 32)
    path = tmp_path / "r.run"
    lines = ["q1 Q0 a 1 3 t", "q2 Q0 b 1 3 t", "q1 Q0 c 2 2 t", "q2 Q0 b 2 2 t", "q1 Q0 d 3 x t"]
    path.write_text("\n".join(lines) + "\n")
    assert one_line_error(read_run, path) == f"{path}:4: duplicate document 'b' in topic 'q2' (first at line 2)"
    path.write_text("\n".join(lines[:3] + ["q2 Q0 b 2 2 u"] + lines[4:]) + "\n")  # the same line, another tag
    assert "4: run tag 'u' differs from 't' at line 1" in one_line_error(read_run, path)
    path.write_text("\n".join(lines[:4]) + "\nq3 Q0 " + "z" * 40 + " 1 1 t\n")  # then a line too long
    assert one_line_error(read_run, path) == f"{path}:4: duplicate document 'b' in topic 'q2' (first at line 2)"
