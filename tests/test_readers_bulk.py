"""The bulk run reader (``axiometer.runfile``, issue 15 item 4).

On every well-formed file it gives the line reader's :class:`Run` (same topics in the same order,
same rankings: score descending, docno descending); on every file the line reader refuses or
remarks on, it steps aside, so that the line reader reports file, line and token as it always has,
also for a bad line deep in a large file. Each well-formed case asserts that the bulk path really
read it (``parse_run`` is not ``None``), so these tests compare the two readers, not one with itself.
"""

from __future__ import annotations

import os
import pickle
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from axiometer import runfile
from axiometer.core import InputError, Ranking
from axiometer.readers import BOM, Run, _read_run_lines, read_run
from axiometer.runfile import CompactRankings, JudgedIndex, parse_run
from tests.errors import one_line_error
from tests.test_readers import RUN_ERRORS


def line_reader(data: bytes, source: str) -> Run:
    """What the line-by-line reader (the reader before issue 15) makes of ``data``: no remark allowed."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run, extra, _ = _read_run_lines(source, data)
    assert not extra
    return run


def read_both(tmp_path: Path, text: str | bytes) -> Run:
    """Read ``text`` with the bulk reader (plain and compact) and the line reader; all three agree."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    path = tmp_path / "r.run"
    path.write_bytes(data)
    assert parse_run(data) is not None, "the bulk reader should read this file itself"
    expected = line_reader(data, str(path))
    bulk, compact = read_run(path), read_run(path, compact=True)
    assert type(bulk.rankings) is dict and type(compact.rankings) is CompactRankings
    assert bulk == expected and compact == expected and expected == compact
    assert list(bulk.rankings) == list(compact.rankings) == list(expected.rankings)  # topic order
    for qid, ranking in expected.rankings.items():
        assert type(bulk.rankings[qid]) is type(compact.rankings[qid]) is Ranking
        assert bulk.rankings[qid] == compact.rankings[qid] == ranking
    return expected


# -- well-formed files: the bulk reader's Run is the line reader's -------------------------------

WELL_FORMED = {
    # test_readers.test_run_order_is_score_then_docno_descending: unsorted, ties, rank column ignored
    "ties and unsorted": ("q1 Q0 b 1 2.0 sys\nq1 Q0 a 2 3.0 sys\nq1 Q0 c 3 2.0 sys\n"
                          "q1 Q0 B 4 2 sys\nq2 Q0 x 1 -1.5 sys\nq1 Q0 d 9 2.0 sys\n",
                          {"q1": ("a", "d", "c", "b", "B"), "q2": ("x",)}),
    "sorted, no ties": ("q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq2 Q0 c 1 9 t\nq2 Q0 a 2 8.5 t\n",
                        {"q1": ("a", "b"), "q2": ("c", "a")}),
    "topics interleaved": ("q2 Q0 a 1 1 t\nq1 Q0 b 1 5 t\nq2 Q0 c 2 3 t\nq1 Q0 d 2 7 t\n"
                           "q3 Q0 e 1 1 t\nq2 Q0 f 3 2 t\n",
                           {"q2": ("c", "f", "a"), "q1": ("d", "b"), "q3": ("e",)}),
    "ties decided after the first 8 bytes": (
        "q1 Q0 document-0001-a 1 1 t\nq1 Q0 document-0002 2 1 t\nq1 Q0 document-0001-b 3 1 t\n"
        "q1 Q0 document-0001 4 1 t\nq1 Q0 document-0001-bb 5 1 t\n",
        {"q1": ("document-0002", "document-0001-bb", "document-0001-b", "document-0001-a",
                "document-0001")}),
    "ids of every length tied": ("q1 Q0 a 1 0 t\nq1 Q0 abcdefgh 1 0 t\nq1 Q0 abcdefghi 1 0 t\n"
                                 "q1 Q0 abcdefgh1 1 0 t\nq1 Q0 abcdefghijklmnopq 1 0 t\nq1 Q0 b 1 0 t\n",
                                 {"q1": ("b", "abcdefghijklmnopq", "abcdefghi", "abcdefgh1",
                                         "abcdefgh", "a")}),
    "zero and minus zero tie": ("q1 Q0 a 1 0.0 t\nq1 Q0 c 2 -0.0 t\nq1 Q0 b 3 0 t\n",
                                {"q1": ("c", "b", "a")}),
    "scores in every notation": ("q1 Q0 a 1 1e2 t\nq1 Q0 b 2 100 t\nq1 Q0 c 3 +1 t\nq1 Q0 d 4 .5 t\n"
                                 "q1 Q0 e 5 5. t\nq1 Q0 f 6 1e-400 t\nq1 Q0 g 7 0.30000000000000004 t\n"
                                 "q1 Q0 h 8 0.3 t\nq1 Q0 i 9 -3E+0 t\nq1 Q0 j 10 0.1000000000000000055511151231257827 t\n"
                                 "q1 Q0 k 11 0.1 t\n",
                                 {"q1": ("b", "a", "e", "c", "d", "g", "h", "k", "j", "f", "i")}),
    "crlf": ("q1 Q0 a 1 3 runX\r\nq1 Q0 b 2 2 runX\r\n", {"q1": ("a", "b")}),
    "crlf with extra returns, no final break": ("q1 Q0 a 1 3 t\r\r\nq1 Q0 b 2 2 t\r",
                                                {"q1": ("a", "b")}),
    "comments and blank lines": ("# header line\n\nq1 Q0 a 1 3 t\n   \n\t\n# q1 Q0 z 1 9 t\n"
                                 "  # indented comment\nq1 Q0 #b 2 2 t\nq1 Q0 c# 3 1 t\n",
                                 {"q1": ("a", "#b", "c#")}),
    "tabs and runs of spaces": ("  q1\tQ0  a 1 \t 3 t  \n\tq1 Q0\t\tb 2 2\tt\n",
                                {"q1": ("a", "b")}),
    "no final line break": ("q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t", {"q1": ("a", "b")}),
    "a single line": ("q1 Q0 a 1 3 t\n", {"q1": ("a",)}),
    "byte-order mark": (BOM + "q1 Q0 a 1 3 t\nq1 Q0 b 2 4 t\n", {"q1": ("b", "a")}),
    # Every field at least two bytes long: a field read from one byte too late would still be
    # non-empty (the one-byte fields above would be refused instead).
    "no one-byte field": ("qa Q0 doc1 10 3.5 run1\nqa Q0 doc2 20 2.5 run1\nqb Q0 doc3 10 -0.5 run1\n",
                          {"qa": ("doc1", "doc2"), "qb": ("doc3",)}),
    # A comment of exactly six words looks like a data line to a layout check alone.
    "a comment of six words": ("# six words in this comment\nq1 Q0 a 1 3 t\n", {"q1": ("a",)}),
    "one topic per line": ("".join(f"q{i % 7} Q0 d{i} 1 {i % 3} t\n" for i in range(40)), None),
}


@pytest.mark.parametrize("text, expected", WELL_FORMED.values(), ids=WELL_FORMED)
def test_the_bulk_reader_gives_the_line_readers_run(tmp_path, text, expected):
    run = read_both(tmp_path, text)
    if expected is not None:
        assert run.rankings == expected


def test_a_generated_campaign_reads_the_same_both_ways(tmp_path):
    from axiometer.generators.campaign import generate_campaign, write_trec

    files = write_trec(generate_campaign(topics=5, runs=3, depth=150, seed=11), tmp_path)
    for path in files.runs.values():
        read_both(tmp_path, path.read_bytes())
    # Real runs' float scores, with ties, in random line order.
    rng = np.random.default_rng(5)
    lines = [f"q{rng.integers(1, 6)} Q0 doc-{i:06d} {i} {float(rng.choice([1.25, 0.5, rng.random()]))!r} run\n"
             for i in range(3000)]
    read_both(tmp_path, "".join(lines))


# The alphabet of the differential test: valid and invalid fields, separators and line ends.
_FIELD = {
    "qid": st.sampled_from(["q1", "q2", "301", "q10"]),
    "doc": st.sampled_from(["a", "b", "B", "d1", "d10", "d2", "a#", "abcdefgh", "abcdefghi",
                            "abcdefgh1", "caf\u00e9", "x\x07y", "doc-123456789012345678"]),
    "score": st.sampled_from(["1", "2", "2.0", "-0", "0.0", "1e2", "100", "3.5", ".5", "5.", "+1",
                              "1e-400", "0.3", "0.30000000000000004", "1e400", "nan", "inf", "1_0",
                              "x", "0x10", "-", "1e", "\u0661"]),
    "tag": st.sampled_from(["t", "t", "t", "u"]),
}


@st.composite
def run_texts(draw) -> bytes:
    lines = []
    for _ in range(draw(st.integers(0, 25))):
        kind = draw(st.sampled_from(["data"] * 8 + ["blank", "comment", "spaces"]))
        if kind == "blank":
            lines.append("")
        elif kind == "comment":
            lines.append(draw(st.sampled_from(["# c", "#", "  # a b c d e f g", "# caf\u00e9"])))
        elif kind == "spaces":
            lines.append(draw(st.sampled_from([" ", "\t", " \t "])))
        else:
            fields = [draw(_FIELD["qid"]), "Q0", draw(_FIELD["doc"]), str(draw(st.integers(0, 9))),
                      draw(_FIELD["score"]), draw(_FIELD["tag"])]
            fields = fields[:draw(st.sampled_from([6] * 12 + [4, 5]))]
            fields += ["extra"] * draw(st.sampled_from([0] * 12 + [1, 2]))
            separators = [draw(st.sampled_from([" ", " ", "\t", "  ", " \t", "\r"])) for _ in fields]
            lead, trail = draw(st.sampled_from(["", "", " ", "\t"])), draw(st.sampled_from(["", "", " "]))
            lines.append(lead + "".join(f + s for f, s in zip(fields, separators))[:-1] + trail)
    end = draw(st.sampled_from(["\n", "\r\n", "\r\r\n"]))
    text = end.join(lines) + draw(st.sampled_from(["", end]))
    if draw(st.booleans()):
        text = BOM + text
    return text.encode("utf-8")


@given(run_texts())
def test_the_bulk_reader_reads_only_what_the_line_reader_reads_silently(data):
    """Differential: wherever the bulk reader gives a run, the line reader gives the same one without
    an error or a remark; wherever the line reader refuses or remarks, the bulk reader declines."""
    columns = parse_run(data)
    try:
        with warnings.catch_warnings(record=True) as remarks:
            warnings.simplefilter("always")
            expected, extra, _ = _read_run_lines("r.run", data)
    except InputError:
        assert columns is None
        return
    if extra or remarks:
        assert columns is None
        return
    if columns is not None:
        assert columns.tag == expected.tag
        got = columns.rankings()
        assert got == expected.rankings and list(got) == list(expected.rankings)


# -- malformed files: the line reader reports them, through read_run's bulk path ----------------

#: Malformed runs of the other test files (and a few the bulk path must also hand over):
#: (text, line, problem) as the line reader has always reported them.
MALFORMED = RUN_ERRORS + [
    # tests/test_readers_extra_columns.py
    ("q1 Q0 a 1 3 t x\nq1 Q0 b 2 2\n", 2, "expected 6 columns (qid Q0 docno rank score tag), found 5"),
    ("q1 Q0 a 1 3 t x y z\nq1 Q0 b 2 2 t\nq1\n", 3,
     "expected 6 columns (qid Q0 docno rank score tag), found 1"),
    ("q1 Q0 a 1 3 t nan\nq1 Q0 b 2 high t 1.0\n", 2, "score must be a finite number (at 'high')"),
    ("q1 Q0 a 1 3 t x\nq1 Q0 b 2 2 u t\n", 2, "run tag 'u' differs from 't' at line 1; a file holds one run"),
    # tests/test_readers.py
    ("q1 Q0 a 1 5 t\nq1 Q0 b 2 1_0 t\n", 2, "score must be a finite number (at '1_0')"),
    ("q1 Q0 a 1 3 t\n\nq1 Q0 b 2 2 t\x0c\n", 3,
     "control character U+000C in the line (only tabs and spaces separate fields)"),
    # tests/test_readers.py::test_non_utf8_line_is_named
    (b"q1 Q0 a 1 1 t\nq1 Q0 caf\xe9 2 0 t\n", 2, "not UTF-8 text"),
    # what numpy's float cast would otherwise take, or a lone carriage return
    ("q1 Q0 a 1 1e999 t\n", 1, "score must be a finite number (at '1e999')"),
    ("q1 Q0 a 1 2 t\nq1 Q0 b 2 -inf t\n", 2, "score must be a finite number (at '-inf')"),
    ("q1 Q0 a 1 0x10 t\n", 1, "score must be a finite number (at '0x10')"),
    ("q1 Q0 a 1 3 t\rq1 Q0 b 2 2 t\n", 1,
     "control character U+000D in the line (only tabs and spaces separate fields)"),
    ("q1 Q0 a 1 3 t\n\rq1 Q0 b 2 2 t\n", 2,
     "control character U+000D in the line (only tabs and spaces separate fields)"),
    ("q1 Q0 a\x7f 1 3 t\n", 1, "control character U+007F in the line (only tabs and spaces separate fields)"),
    # Lines whose separators add up to six per line on average, or whose field count is six
    # only when an empty field counts: the fields must be taken line by line.
    ("q1 Q0 a\n1 3 t\n", 1, "expected 6 columns (qid Q0 docno rank score tag), found 3"),
    ("q1\tQ0\ta\n1\t3\tt\n", 1, "expected 6 columns (qid Q0 docno rank score tag), found 3"),
    ("q1  Q0 a 1 3\n", 1, "expected 6 columns (qid Q0 docno rank score tag), found 5"),
    ("q1 Q0 a 1 3 t\tt\nQ0 b 2 2 t\n", 2, "expected 6 columns (qid Q0 docno rank score tag), found 5"),
    # a carriage return before a space, not before a line break: inside the line
    ("q1 Q0 a\r 1 3 t\n", 1, "control character U+000D in the line (only tabs and spaces separate fields)"),
]


def error_of(path: Path) -> str:
    message = one_line_error(read_run, path, compact=True)
    assert message == _error_of_plain(path)
    return message


def _error_of_plain(path: Path) -> str:
    with pytest.raises(InputError) as caught:
        read_run(path)
    return str(caught.value)


@pytest.mark.parametrize("text, line, problem", MALFORMED)
def test_every_malformed_line_is_reported_as_before(tmp_path, text, line, problem):
    data = text.encode("utf-8") if isinstance(text, str) else text
    assert parse_run(data) is None  # the bulk reader declines; the line reader reports
    path = tmp_path / "bad.run"
    path.write_bytes(data)
    assert error_of(path) == f"{path}:{line}: {problem}"


@pytest.mark.parametrize("text", [
    "q1 Q0 a 1 3 t\nq1\u00a0Q0 b 2 2 t\n",  # a no-break space separates fields, as str.split() says
    "q1 Q0 caf\u00e9 1 3 t\nq1 Q0 b 2 2 t\n",
    "# r\u00e9sum\u00e9\nq1 Q0 a 1 3 t\n",
    "q1 Q0 a 1 3 t\nq1 Q0 b 2 \u0661 t\n",  # float() reads an Arabic-Indic one as 1
])
def test_files_beyond_ascii_are_read_by_the_line_reader(tmp_path, text):
    data = text.encode("utf-8")
    assert parse_run(data) is None
    path = tmp_path / "u.run"
    path.write_bytes(data)
    expected = line_reader(data, str(path))
    assert read_run(path) == read_run(path, compact=True) == expected


def test_an_empty_file_is_still_said_to_be_empty(tmp_path):
    path = tmp_path / "empty.run"
    # A commented-out run line: six fields, the first starting with '#'.
    for text in ("", "\n# only a comment\n   \n", BOM, "\r\n", "# six words in this comment\n",
                 "#q1 Q0 d 1 3 t\n"):
        path.write_text(text, encoding="utf-8")
        assert parse_run(path.read_bytes()) is None
        assert error_of(path) == f"{path}: empty file: no run lines"


#: 200,000 well-formed lines before the bad one, built once.
_DEEP = 200_000


@pytest.fixture(scope="module")
def deep_prefix() -> bytes:
    return "".join(f"q0 Q0 d{i} {i} {_DEEP - i} t\n" for i in range(1, _DEEP + 1)).encode("ascii")


@pytest.mark.parametrize("bad, problem", [
    (b"q1 Q0 a 1 high t", "score must be a finite number (at 'high')"),
    (b"q1 Q0 a 1 1.0", "expected 6 columns (qid Q0 docno rank score tag), found 5"),
    (b"q1 Q0 a 1 3 u", "run tag 'u' differs from 't' at line 1; a file holds one run"),
    (b"q0 Q0 d7 1 3 t", "duplicate document 'd7' in topic 'q0' (first at line 7)"),
    (b"q1 Q0 a\x07 1 3 t", "control character U+0007 in the line (only tabs and spaces separate fields)"),
    (b"q1 Q0 caf\xe9 1 3 t", "not UTF-8 text"),
    (b"q1 Q0 a 1 1_0 t", "score must be a finite number (at '1_0')"),
])
def test_a_bad_line_deep_in_a_large_file_is_named_by_its_exact_number(tmp_path, deep_prefix, bad, problem):
    path = tmp_path / "deep.run"
    path.write_bytes(deep_prefix + bad + b"\nq1 Q0 z 1 1 t\n")
    assert parse_run(deep_prefix) is not None  # the lines before it are the bulk reader's
    assert error_of(path) == f"{path}:{_DEEP + 1}: {problem}"


def test_extra_columns_are_still_read_with_the_warning(tmp_path):
    path = tmp_path / "extra.run"
    path.write_text("q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t more junk\n", encoding="utf-8")
    assert parse_run(path.read_bytes()) is None
    with pytest.warns(UserWarning, match=r": 1 line has more than 6 columns \(the first at line 2\)"):
        run = read_run(path, compact=True)
    assert run.rankings == {"q1": ("a", "b")}


def test_twelve_columns_on_one_line_are_one_line_with_extra_columns(tmp_path):
    """Twelve fields are two lines' worth of separators: still one line, its first six read."""
    path = tmp_path / "twelve.run"
    path.write_text("q1 Q0 a 1 3 t t Q0 b 2 2 t\n", encoding="utf-8")
    assert parse_run(path.read_bytes()) is None
    with pytest.warns(UserWarning, match="1 line has more than 6 columns"):
        run = read_run(path, compact=True)
    assert dict(run.rankings) == {"q1": ("a",)} and run.tag == "t"


def test_the_extra_columns_warning_points_at_the_callers_line(tmp_path):
    path = tmp_path / "extra.run"
    path.write_text("q1 Q0 a 1 3 t extra\n", encoding="utf-8")
    with pytest.warns(UserWarning) as caught:
        read_run(path)
    assert [w.filename for w in caught] == [__file__]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_run_from_a_pipe_is_read_once(tmp_path):
    """``axiometer score <(zcat run.gz)``: a pipe can be read once. A file the bulk reader passes to
    the line reader (here, a bad score) is read from the bytes already read, not opened again."""
    pipe = tmp_path / "run.pipe"
    os.mkfifo(pipe)
    writer = threading.Thread(target=pipe.write_bytes, args=(b"q1 Q0 a 1 3 t\nq1 Q0 b 2 x t\n",), daemon=True)
    writer.start()
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.append(one_line_error(read_run, pipe)), daemon=True)
    reader.start()
    reader.join(timeout=20)
    if reader.is_alive():  # blocked opening the pipe a second time: let it go before failing
        os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(timeout=5)
    assert said == [f"{pipe}:2: score must be a finite number (at 'x')"]


def test_unreadable_paths_are_one_error_line_as_before(tmp_path):
    assert error_of(tmp_path / "nowhere") == f"{tmp_path / 'nowhere'}: no such file"
    assert error_of(tmp_path) == f"{tmp_path}: is a directory, not a file"


# -- hash collisions: every match is confirmed byte for byte ------------------------------------

@pytest.mark.parametrize("weak", [
    lambda words, seed=None: np.zeros(len(words), np.uint64),  # every id alike
    lambda words, seed=None: words[:, 0] ^ (0 if seed is None else seed.astype(np.uint64)),  # 8 bytes
], ids=["constant", "first word"])
def test_a_weak_hash_changes_no_result(tmp_path, monkeypatch, weak):
    """Hash matches are confirmed byte for byte: with a hash that collides, duplicate detection and
    judged lookups decide exactly as before."""
    text = WELL_FORMED["ties decided after the first 8 bytes"][0] + "q2 Q0 a 1 1 t\nq2 Q0 b 1 1 t\n"
    expected = read_both(tmp_path, text)
    monkeypatch.setattr(runfile, "_hash", weak)
    assert read_both(tmp_path, text) == expected
    assert parse_run(b"q1 Q0 a 1 1 t\nq2 Q0 a 1 1 t\nq1 Q0 b 1 1 t\n") is not None  # same id, two topics
    assert parse_run(b"q1 Q0 abcdefgh1 1 1 t\nq1 Q0 abcdefgh2 1 1 t\n") is not None
    assert parse_run(b"q1 Q0 a 1 1 t\nq2 Q0 a 1 1 t\nq1 Q0 a 1 1 t\n") is None  # a real duplicate
    assert parse_run(b"q1 Q0 a 1 1 t\nq2 Q0 b 1 1 t\nq2 Q0 b 1 1 t\n") is None  # in the second topic
    # Duplicates interleaved (a, b, a, b): the pairs meet only when the lines are sorted on every
    # word of the id, the ids here differing in their first word only or in their last only.
    for a, b in ((b"a-same-tail-0001", b"b-same-tail-0001"), (b"same-head-0001-a", b"same-head-0001-b")):
        lines = b"".join(b"q1 Q0 %s %d 1 t\n" % (d, r) for r, d in enumerate((a, b, a, b), 1))
        assert parse_run(lines) is None
    for judged in (["abcdefgh-1", "b", "zzzzzzzz"], ["document-0001-a", "b", "document-0001-b"]):
        ids = np.array([b"abcdefgh-2", b"b", judged[2].encode(), judged[0].encode(), b"document-0001-c"])
        rows = JudgedIndex(judged).rows(ids)
        assert rows.tolist() == [0, 2, 3, 1, 0] and rows.dtype == np.int64  # row numbers, to index with


# -- CompactRankings and JudgedIndex ------------------------------------------------------------

def test_compact_rankings_behave_as_the_dict(tmp_path):
    text = "q2 Q0 a 1 1 t\nq1 Q0 b 1 5 t\nq2 Q0 c 2 3 t\n"
    path = tmp_path / "r.run"
    path.write_text(text, encoding="utf-8")
    compact, plain = read_run(path, compact=True).rankings, read_run(path).rankings
    assert compact == plain and plain == compact and compact != {"q2": ("c", "a")}
    assert list(compact) == ["q2", "q1"] and len(compact) == 2 and "q1" in compact and "q3" not in compact
    assert compact["q2"] is compact["q2"]  # built once, then kept
    assert dict(compact.items()) == plain and repr(compact) == repr(plain)
    with pytest.raises(KeyError):
        compact["q3"]
    assert compact.documents("q2").tolist() == [b"c", b"a"]
    assert pickle.loads(pickle.dumps(compact)) == plain
    assert read_run(path, compact=True).rankings == compact
    # The same ids and the same bounds under other topics, or other bounds: not the same rankings.
    swapped = CompactRankings(runfile.RunColumns("t", ("q1", "q2"), np.array([0, 2, 3]), compact._docs))
    fewer = CompactRankings(runfile.RunColumns("t", ("q2", "q1"), np.array([0, 1, 3]), compact._docs))
    assert compact != swapped and compact != fewer and dict(swapped.items()) != plain


@pytest.mark.parametrize("width", [1, 7, 8, 9, 16, 17, 30])
def test_judged_rows_are_the_dict_lookups(width):
    rng = np.random.default_rng(width)
    pool = ["".join(rng.choice(list("abcXYZ019-#"), size=rng.integers(1, width + 1))) for _ in range(300)]
    judged = list(dict.fromkeys(pool[:120])) + ["caf\u00e9", "with space", ""]  # never in a bulk-read run
    ranked = np.array([d.encode() for d in dict.fromkeys(pool[60:])], dtype=bytes)
    row_of = {d: i for i, d in enumerate(judged, 1)}
    expected = [row_of.get(d.decode(), 0) for d in ranked.tolist()]
    assert JudgedIndex(judged).rows(ranked).tolist() == expected
    for nothing_usable in ([], ["caf\u00e9", "with space"]):
        rows = JudgedIndex(nothing_usable).rows(ranked)
        assert rows.tolist() == [0] * len(ranked) and rows.dtype == np.int64


@pytest.mark.parametrize("judged, ranked, expected", [
    # ranked ids far longer than every judged one (the ranked side sets the word count) ...
    (["d1", "d2", "d3"], [b"d1", b"clueweb12-0000tw-00-00001", b"d2", b"d3-but-much-longer-than-d3"], [1, 0, 2, 0]),
    # ... and judged ids far longer than every ranked one (the judged side does)
    (["clueweb12-0000tw-00-00001", "d1", "clueweb12-0000tw-00-00002"], [b"d1", b"d9", b"d"], [2, 0, 0]),
    (["clueweb12-0000tw-00-00001", "clueweb12-0000tw-00-00002"],
     [b"clueweb12-0000tw-00-00002", b"clueweb12-0000tw-00-00003", b"clueweb12-0000tw-00-00001"], [2, 0, 1]),
])
def test_judged_rows_when_one_side_has_much_longer_ids(judged, ranked, expected):
    """The word count covers the longer of the two sides' ids: ids differing only in their last byte
    (ClueWeb's) and ids of 2 bytes against ids of 25 are told apart."""
    ids = np.array(ranked, dtype=bytes)
    assert JudgedIndex(judged).rows(ids).tolist() == expected
