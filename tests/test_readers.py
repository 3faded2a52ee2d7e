"""The qrels and run readers: formats, detection, grade mappings, the real
TREC 2014 file, trec_eval's tie-breaking, and every input error (which must
name file and line)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
import pytrec_eval
from hypothesis import given

from axiometer.core import SINGLE_ASPECT, InputError, ValidationError
from axiometer.readers import Qrels, Run, detect_qrels_format, read_qrels, read_run
from tests.errors import one_line_error
from tests.paths import QRELS_2014
from tests.strategies import grades_and_run

REAL_QRELS = QRELS_2014


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def evall(*rows: tuple) -> str:
    return "".join("\t".join(f'"{v}"' for v in row) + "\n" for row in rows)


# -- formats ------------------------------------------------------------------

def test_plain_trec_qrels(tmp_path):
    path = write(tmp_path, "q.txt", "q1 0 a 2\nq1 0 b 0\nq2 0 c 1\nq1 0 d -2\n")
    qrels = read_qrels(path, mapping="linear")
    assert isinstance(qrels, Qrels) and qrels.format == "trec" and qrels.source == str(path)
    assert list(qrels.topics) == ["q1", "q2"]
    assert qrels.grades["q1"] == {"a": {SINGLE_ASPECT: 2}, "b": {SINGLE_ASPECT: 0},
                                  "d": {SINGLE_ASPECT: -2}}
    topic = qrels.topics["q1"]
    assert topic.aspects == (SINGLE_ASPECT,) and topic.documents == ("a", "b", "d")
    # linear, gmax = the file's largest grade 2: r(a) = 2/2, r(b) = 0, r(d) = 0 (negative grade).
    assert (topic.r("a"), topic.r("b"), topic.r("d")) == (1, 0, 0)
    assert qrels.topics["q2"].r("c") == Fraction(1, 2)  # 1/2 with the file-wide gmax 2
    assert qrels.weights["q2"] == {SINGLE_ASPECT: 1}


def test_trec_diversity_qrels_have_balanced_exact_weights(tmp_path):
    path = write(tmp_path, "q.txt", "q1 2 a 1\nq1 1 a 0\nq1 3 b 1\nq2 1 a 1\n")
    qrels = read_qrels(path, mapping="binary")
    assert qrels.format == "trec-diversity"
    topic = qrels.topics["q1"]
    assert topic.aspects == ("2", "1", "3")  # file order
    assert topic.weights == (Fraction(1, 3),) * 3
    assert topic.vector("a") == (1, 0, 0) and topic.vector("b") == (0, 0, 1)
    assert qrels.topics["q2"].weights == (1,)


def test_evall_qrels_take_weights_from_the_file(tmp_path):
    path = write(tmp_path, "q.tsv", evall(("q1", "a", 3, "x", 0.75), ("q1", "a", 1, "y", 0.25),
                                          ("q1", "b", 0, "x", 0.75)))
    qrels = read_qrels(path, mapping="err")
    assert qrels.format == "evall"
    topic = qrels.topics["q1"]
    assert topic.aspects == ("x", "y") and topic.weights == (0.75, 0.25)
    # err with gmax 3: r = (2^g - 1) / 2^3 -> g=3: 7/8, g=1: 1/8.
    assert topic.vector("a") == (Fraction(7, 8), Fraction(1, 8))
    assert qrels.grades["q1"]["a"] == {"x": 3, "y": 1}


def test_evall_balanced_weights_are_read_as_exact_fractions(tmp_path):
    sixth = repr(1 / 6)  # 0.16666666666666666, as the TREC 2014 file writes it
    rows = [("q1", "a", 1, str(t), sixth) for t in range(6)]
    qrels = read_qrels(write(tmp_path, "q.tsv", evall(*rows)))
    assert qrels.topics["q1"].weights == (Fraction(1, 6),) * 6
    assert sum(qrels.weights["q1"].values()) == 1


def test_crlf_unquoted_comments_and_blank_lines(tmp_path):
    path = tmp_path / "q.tsv"
    path.write_bytes(b'# a comment\r\n\r\n"q1"\t"a"\t"1"\t"x"\t"1.0"\r\n  # indented comment\r\n'
                     b'q1\tb\t0\tx\t1.0\r\n')
    qrels = read_qrels(path)
    assert qrels.format == "evall" and qrels.topics["q1"].documents == ("a", "b")


@pytest.mark.parametrize("mapping, expected", [
    ("linear", [Fraction(1, 4), Fraction(3, 4), Fraction(1)]),
    ("err", [Fraction(1, 16), Fraction(7, 16), Fraction(15, 16)]),  # (2^g-1)/2^4, g = 1, 3, 4
    # per aspect: x's largest grade is 3 (so (2^1-1)/8, (2^3-1)/8), y's is 4 ((2^4-1)/16)
    ("err-aspect", [Fraction(1, 8), Fraction(7, 8), Fraction(15, 16)]),
    ("binary", [1, 1, 1]),
])
def test_grade_mappings(tmp_path, mapping, expected):
    path = write(tmp_path, "q.txt", "q1 x a 1\nq1 x b 3\nq1 y c 4\n")
    topic = read_qrels(path, mapping=mapping).topics["q1"]
    assert [topic.r("a", "x"), topic.r("b", "x"), topic.r("c", "y")] == expected


def test_gmax_sets_the_scale(tmp_path):
    path = write(tmp_path, "q.txt", "q1 0 a 1\nq1 0 b 2\n")
    topic = read_qrels(path, mapping="linear", gmax=4).topics["q1"]
    assert (topic.r("a"), topic.r("b")) == (Fraction(1, 4), Fraction(1, 2))
    with pytest.raises(InputError, match=r"q\.txt:2: grade 2 exceeds the scale maximum gmax=1"):
        read_qrels(path, gmax=1)
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValidationError):
            read_qrels(path, gmax=bad)
    with pytest.raises(ValidationError, match="no effect"):
        read_qrels(path, mapping="err-aspect", gmax=4)
    with pytest.raises(ValidationError, match="unknown grade mapping"):
        read_qrels(path, mapping="exp")
    with pytest.raises(ValidationError, match="unknown qrels format"):
        read_qrels(path, format="csv")


@pytest.mark.parametrize("text, expected", [
    ("q1 0 a 1\nq2 Q0 b 0\n", "trec"),
    ("q1 0 a 1\nq1 2 b 0\n", "trec-diversity"),  # one non-0 second column is enough
    ("q1 1 a 1\n", "trec-diversity"),
    (evall(("q1", "a", 1, "x", 1.0)), "evall"),
    ("q1\ta\t1\tx\t1.0\n", "evall"),  # five tab-separated columns, unquoted
])
def test_detection(tmp_path, text, expected):
    path = write(tmp_path, "q", text)
    assert detect_qrels_format(path) == expected
    assert read_qrels(path).format == expected


def test_explicit_format_overrides_detection(tmp_path):
    path = write(tmp_path, "q.txt", "q1 7 a 1\nq1 8 b 1\n")
    qrels = read_qrels(path, format="trec")  # the second column is then just trec_eval's iter
    assert qrels.topics["q1"].aspects == (SINGLE_ASPECT,) and qrels.topics["q1"].R == 2


def test_real_trec_2014_file():
    qrels = read_qrels(REAL_QRELS)
    assert qrels.format == "evall" and len(qrels.topics) == 50
    aspects = [len(t.aspects) for t in qrels.topics.values()]
    judged = [len(t.documents) for t in qrels.topics.values()]
    assert (min(aspects), max(aspects)) == (1, 7)
    assert (min(judged), max(judged)) == (175, 457)
    assert all(sum(t.weights) == 1 for t in qrels.topics.values())  # exactly 1/|T| each
    grades = {g for table in qrels.grades.values() for per in table.values() for g in per.values()}
    assert grades == {0, 1, 2, 3, 4}
    # 43,840 lines, one judgment each, none dropped.
    assert sum(len(per) for table in qrels.grades.values() for per in table.values()) == 43840


# -- runs ---------------------------------------------------------------------

def test_run_order_is_score_then_docno_descending(tmp_path):
    path = write(tmp_path, "r.run", "q1 Q0 b 1 2.0 sys\nq1 Q0 a 2 3.0 sys\nq1 Q0 c 3 2.0 sys\n"
                                    "q1 Q0 B 4 2 sys\nq2 Q0 x 1 -1.5 sys\nq1 Q0 d 9 2.0 sys\n")
    run = read_run(path)
    assert isinstance(run, Run) and run.tag == "sys" and run.source == str(path)
    # score 3 first; then the 2.0 ties by docno descending: d > c > b > B (string order);
    # the rank column (here contradicting the scores) is ignored.
    assert run.rankings == {"q1": ("a", "d", "c", "b", "B"), "q2": ("x",)}


@given(grades_and_run())
def test_tie_breaking_matches_trec_eval(tmp_path_factory, case):
    """pytrec_eval as the oracle: for each run document d, a qrels topic in
    which d alone is relevant makes trec_eval report 1 / (d's rank in its own
    order). The raw tied run goes to trec_eval; the reader's order must match."""
    _, scored = case
    lines = [f"{qid} Q0 {doc} 0 {score} tag" for qid, pairs in scored.items() for doc, score in pairs]
    if not lines:
        return
    path = tmp_path_factory.mktemp("run") / "tied.run"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = read_run(path)
    qrels, raw = {}, {}
    for qid, pairs in scored.items():
        for doc, _ in pairs:
            probe = f"{qid}|{doc}"
            qrels[probe] = {doc: 1}
            raw[probe] = dict(pairs)
    ranks = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(raw)
    for qid, pairs in scored.items():
        if not pairs:
            continue
        trec_eval_order = sorted((doc for doc, _ in pairs),
                                 key=lambda doc: 1 / ranks[f"{qid}|{doc}"]["recip_rank"])
        assert list(run.rankings[qid]) == trec_eval_order


# -- errors -------------------------------------------------------------------

def error_of(reader, path: Path, **kwargs) -> str:
    return one_line_error(reader, path, **kwargs)


@pytest.mark.parametrize("text, line, problem", [
    ("q1 0 a 1\nq1 0 b\n", 2, "expected 4 columns (qid iter docno grade), found 3"),
    ("q1 0 a 1\n\n# skipped\nq1 0 b high\n", 4, "grade must be an integer (at 'high')"),
    ("q1 0 a 1.5\n", 1, "grade must be an integer (at '1.5')"),
    ("q1 0 a 1\nq2 0 a 1\nq1 0 a 0\n", 3, "duplicate judgment of document 'a' in topic 'q1' "
                                        "(first at line 1)"),
    ("q1 s1 a 1\nq1 s2 a 1\nq1 s1 a 1\n", 3, "duplicate judgment of document 'a' on aspect 's1' "
                                           "in topic 'q1' (first at line 1)"),
    (evall(("q1", "a", 1, "x", 0.5), ("q1", "b", 1, "y", 0.5), ("q1", "c", 1, "x", 0.25)), 3,
     "aspect 'x' of topic 'q1' has weight 0.25 here but 0.5 at line 1 (at '0.25')"),
    (evall(("q1", "a", 1, "x", 0.5), ("q2", "a", 1, "x", 1), ("q1", "b", 1, "y", 0.4)), 1,
     "aspect weights of topic 'q1' sum to 0.9, not 1"),
    (evall(("q1", "a", 1, "x", 1.0)) + '"q1"\t"b"\t"1"\t"x"\n', 2,
     "expected 5 tab-separated columns (topic, docid, grade, aspect, aspect weight), found 4"),
    (evall(("q1", "a", 1, "x", 0)), 1, "aspect weight must be a positive number (at '0')"),
    (evall(("q1", "a", 1, "x", "heavy")), 1,
     "aspect weight must be a positive number (at 'heavy')"),
    ('"q1\t"a"\t"1"\t"x"\t"1.0"\n', 1, "unbalanced double quote (at '\"q1')"),
])
def test_qrels_errors_name_file_and_line(tmp_path, text, line, problem):
    path = write(tmp_path, "bad.qrels", text)
    assert error_of(read_qrels, path) == f"{path}:{line}: {problem}"


#: Malformed run files: (text, line, problem). tests/test_readers_bulk.py reads them through the bulk
#: reader too, which must hand each to the line reader and report the same line.
RUN_ERRORS = [
    ("q1 Q0 a 1 1.0 t\nq1 Q0 b 2 1.0\n", 2,
     "expected 6 columns (qid Q0 docno rank score tag), found 5"),
    ("q1 Q0 a 1 high t\n", 1, "score must be a finite number (at 'high')"),
    ("q1 Q0 a 1 nan t\n", 1, "score must be a finite number (at 'nan')"),
    ("q1 Q0 a 1 3 t\nq2 Q0 a 1 3 t\n# comment\nq1 Q0 a 2 2 t\n", 4,
     "duplicate document 'a' in topic 'q1' (first at line 1)"),
    ("q1 Q0 a 1 3 t\nq1 Q0 b 2 2 u\n", 2, "run tag 'u' differs from 't' at line 1; "
                                          "a file holds one run"),
]


@pytest.mark.parametrize("text, line, problem", RUN_ERRORS)
def test_run_errors_name_file_and_line(tmp_path, text, line, problem):
    path = write(tmp_path, "bad.run", text)
    assert error_of(read_run, path) == f"{path}:{line}: {problem}"


@pytest.mark.parametrize("reader, what", [(read_qrels, "no judgments"), (read_run, "no run lines")])
def test_empty_and_missing_files(tmp_path, reader, what):
    empty = write(tmp_path, "empty", "\n# only a comment\n   \n")
    assert error_of(reader, empty) == f"{empty}: empty file: {what}"
    missing = tmp_path / "nowhere"
    assert error_of(reader, missing) == f"{missing}: no such file"
    assert error_of(reader, tmp_path) == f"{tmp_path}: is a directory, not a file"


def test_non_utf8_line_is_named(tmp_path):
    path = tmp_path / "latin1.run"
    path.write_bytes(b"q1 Q0 a 1 1 t\nq1 Q0 caf\xe9 2 0 t\n")
    assert error_of(read_run, path) == f"{path}:2: not UTF-8 text"


def test_error_line_numbers_count_skipped_lines(tmp_path):
    path = write(tmp_path, "q.txt", "# header\n\nq1 0 a 1\n\n  \nq1 0 b x\n")
    assert re.fullmatch(rf"{re.escape(str(path))}:6: grade must be an integer.*",
                        error_of(read_qrels, path))
