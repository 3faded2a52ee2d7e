"""The qrels and run readers: formats, detection, grade mappings, the real
TREC 2014 file, trec_eval's tie-breaking, and every input error (which must
name file and line)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
import warnings
import math
import errno

import pytest
import pytrec_eval
from hypothesis import given

from axiometer.core import SINGLE_ASPECT, InputError, ValidationError
from axiometer.readers import Qrels, Run, detect_qrels_format, read_qrels, read_run
from axiometer.grades import grade_to_relevance, topic_from_grades, topics_under
from axiometer import readers
from tests.errors import one_line_error
from tests.paths import QRELS_2014
from tests.strategies import grades_and_run

REAL_QRELS = QRELS_2014


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")  # the line ends exactly as written (\r\n tests)
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


# The readers' and grade scales' edges that the mutation run (issue 14, area ``readers``) found
# unpinned: every error's exact words, file, line and token; the boundaries (``MAX_GRADE`` itself,
# the 12-digit limit, a grade-free topic, a 0/1 qrels); detection by a quote alone; EvALL split on
# tabs only; and ``topics_under``'s qrels-wide scale. Values are computed by hand in the comments.

S = SINGLE_ASPECT
EVALL_COLUMNS = "expected 5 tab-separated columns (topic, docid, grade, aspect, aspect weight)"


def where(error: InputError) -> tuple:
    """What an InputError says: the problem, the file, the line and the token."""
    return error.problem, error.source, error.line, error.token


# -- grade_to_relevance: MAX_GRADE and its messages ------------------------------------------

def test_max_grade_itself_is_a_valid_grade_and_scale():
    # MAX_GRADE = 100 is accepted: err r = (2^100 - 1) / 2^100, linear r = g / gmax.
    assert grade_to_relevance(100, "err", 100) == Fraction(2 ** 100 - 1, 2 ** 100)
    assert grade_to_relevance(100, "linear", 100) == 1
    assert grade_to_relevance(1, "linear", 100) == Fraction(1, 100)


@pytest.mark.parametrize("grade, gmax", [(101, 101), (101, 5), (1, 101)])
def test_a_grade_or_scale_above_max_grade_is_refused_naming_the_larger(grade, gmax):
    # Either one above 100 is refused, before the grade is compared with the scale.
    with pytest.raises(ValidationError) as caught:
        grade_to_relevance(grade, "err", gmax)
    assert str(caught.value) == "grade 101 is above 100, the largest accepted"


def test_a_scale_maximum_of_zero_and_a_grade_above_the_scale_have_their_own_messages():
    with pytest.raises(ValidationError) as caught:
        grade_to_relevance(1, "linear", 0)
    assert str(caught.value) == "grade 1 above a scale maximum of 0"
    with pytest.raises(ValidationError) as caught:
        grade_to_relevance(3, "linear", 2)
    assert str(caught.value) == "grade 3 exceeds the scale maximum 2"


def test_an_unknown_mapping_lists_the_known_ones():
    known = "known: linear, err, err-aspect, binary"
    with pytest.raises(ValidationError) as caught:
        grade_to_relevance(1, "bogus", 2)
    assert str(caught.value) == f"unknown grade mapping 'bogus'; {known}"
    with pytest.raises(ValidationError) as caught:
        topic_from_grades("q", {"a": {S: 1}}, mapping="bogus")
    assert str(caught.value) == f"unknown grade mapping 'bogus'; {known}"


# -- topic_from_grades ---------------------------------------------------------------------

def test_a_grade_free_topic_is_an_empty_topic():
    topic = topic_from_grades("q", {})
    assert topic.documents == () and topic.R == 0 and topic.topic_id == "q"


def test_err_aspect_with_an_aspect_whose_largest_grade_is_one():
    # err-aspect: gmax(x) = 1, gmax(y) = 2. r(a, x) = (2^1-1)/2^1 = 1/2, r(a, y) = (2^2-1)/2^2 = 3/4,
    # r(b, y) = (2^1-1)/2^2 = 1/4.
    topic = topic_from_grades("q", {"a": {"x": 1, "y": 2}, "b": {"y": 1}}, mapping="err-aspect")
    assert topic.r("a", "x") == Fraction(1, 2)
    assert topic.r("a", "y") == Fraction(3, 4)
    assert topic.r("b", "y") == Fraction(1, 4)


def test_the_topic_keeps_its_id_and_integer_grades():
    # Grades 3 and 1 are kept as such (rel=3 needs grade 3); ranking the relevance values instead
    # would give them grades 2 and 1.
    topic = topic_from_grades("q7", {"a": {S: 3}, "b": {S: 1}}, mapping="linear", gmax=4)
    assert topic.topic_id == "q7"
    assert (topic.grade("a"), topic.grade("b")) == (3, 1)
    assert topic.relevant_at("a", 3) and not topic.relevant_at("b", 2)


# -- topics_under --------------------------------------------------------------------------

GRADES = {"q1": {"a": {S: 2}}, "q2": {"b": {S: 1}}}
WEIGHTS = {"q1": {S: 1}, "q2": {S: 1}}


def test_topics_under_uses_the_qrels_wide_scale_by_default():
    # The largest grade of the whole qrels is 2: q2's grade 1 is r = 1/2 under linear (1 if the
    # topic's own maximum were used), and (2^1-1)/2^2 = 1/4 under err.
    topics = topics_under(GRADES, WEIGHTS, "linear")
    assert list(topics) == ["q1", "q2"]
    assert [t.topic_id for t in topics.values()] == ["q1", "q2"]
    assert topics["q1"].r("a") == 1 and topics["q2"].r("b") == Fraction(1, 2)
    assert topics_under(GRADES, WEIGHTS, "err")["q2"].r("b") == Fraction(1, 4)


def test_topics_under_uses_a_given_scale_maximum():
    # gmax = 4: r(a) = 2/4, r(b) = 1/4 under linear; err: (2^2-1)/2^4 = 3/16.
    topics = topics_under(GRADES, WEIGHTS, "linear", gmax=4)
    assert topics["q1"].r("a") == Fraction(1, 2) and topics["q2"].r("b") == Fraction(1, 4)
    assert topics_under(GRADES, WEIGHTS, "err", gmax=4)["q1"].r("a") == Fraction(3, 16)


def test_topics_under_a_zero_one_qrels_has_scale_one():
    # Largest grade 1: linear r = 1/1, err r = (2^1-1)/2^1 = 1/2; an all-zero qrels maps to 0.
    assert topics_under({"q": {"a": {S: 1}}}, {"q": {S: 1}}, "linear")["q"].r("a") == 1
    assert topics_under({"q": {"a": {S: 1}}}, {"q": {S: 1}}, "err")["q"].r("a") == Fraction(1, 2)
    assert topics_under({"q": {"a": {S: 0}}}, {"q": {S: 1}}, "linear")["q"].r("a") == 0


def test_topics_under_an_empty_qrels_is_empty():
    assert topics_under({}, {}, "linear") == {}
    assert topics_under({}, {}, "err-aspect") == {}


def test_topics_under_passes_each_topics_weights_on():
    grades = {"q": {"a": {"x": 1}, "b": {"y": 1}}}
    topic = topics_under(grades, {"q": {"x": Fraction(1, 4), "y": Fraction(3, 4)}}, "binary")["q"]
    assert topic.aspects == ("x", "y") and topic.weights == (Fraction(1, 4), Fraction(3, 4))


# -- opening and reading files -------------------------------------------------------------

def test_a_non_path_is_named_by_its_type_and_value():
    with pytest.raises(InputError) as caught:
        read_qrels(42)
    assert str(caught.value) == "a file path is needed, got int 42"


def test_a_path_through_a_file_cannot_be_opened(tmp_path):
    path = write(tmp_path, "q.txt", "q1 0 a 1\n") / "inside"
    with pytest.raises(InputError) as caught:
        read_qrels(path)
    assert where(caught.value) == ("cannot open: Not a directory", str(path), None, None)
    assert str(caught.value) == f"{path}: cannot open: Not a directory"


class _Unreadable:
    """A file object whose reading fails, as a disk or network error does."""

    def __init__(self, error: OSError) -> None:
        self.error = error

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __iter__(self):
        raise self.error

    def read(self, *size):
        raise self.error


@pytest.mark.parametrize("error, said", [(OSError(errno.EIO, "Input/output error"), "Input/output error"),
                                         (OSError("lost"), "lost")])
@pytest.mark.parametrize("reader", [read_qrels, read_run])  # line by line, and read whole
def test_a_read_error_names_the_file(tmp_path, monkeypatch, error, said, reader):
    path = write(tmp_path, "q.txt", "q1 0 a 1\n")
    monkeypatch.setattr(readers, "open", lambda *args: _Unreadable(error), raising=False)
    with pytest.raises(InputError) as caught:
        reader(path)
    assert where(caught.value) == (f"cannot read: {said}", str(path), None, None)


def test_line_breaks_only_are_stripped(tmp_path):
    # "\r\n" ends a line; the run tag's last letters stay (a tag "runX" is not "run").
    run = read_run(write(tmp_path, "r.txt", "q1 Q0 a 1 3 runX\r\nq1 Q0 b 2 2 runX\n"))
    assert run.tag == "runX" and run.rankings["q1"] == ("a", "b")
    # A trailing form feed is a control character, not a line break: refused.
    path = write(tmp_path, "ff.txt", "q1 Q0 a 1 3 t\n\nq1 Q0 b 2 2 t\x0c\n")
    with pytest.raises(InputError) as caught:
        read_run(path)
    assert where(caught.value) == (
        "control character U+000C in the line (only tabs and spaces separate fields)", str(path), 3, None)


def test_an_empty_file_has_no_judgments_to_detect(tmp_path):
    path = write(tmp_path, "q.txt", "# only a comment\n\n")
    with pytest.raises(InputError) as caught:
        detect_qrels_format(path)
    assert where(caught.value) == ("empty file: no judgments", str(path), None, None)


# -- detection -----------------------------------------------------------------------------

def test_a_two_column_line_with_a_subtopic_is_trec_diversity(tmp_path):
    # Its second column is neither 0 nor Q0: TREC diversity, whose columns the error then names.
    path = write(tmp_path, "q.txt", "q1 2\n")
    assert detect_qrels_format(path) == "trec-diversity"
    with pytest.raises(InputError) as caught:
        read_qrels(path)
    assert where(caught.value) == (
        "expected 4 columns (qid subtopic docno grade), found 2", str(path), 1, None)


def test_a_double_quote_alone_makes_evall(tmp_path):
    # Quoted fields separated by spaces: EvALL (by the quote), and EvALL wants tabs.
    path = write(tmp_path, "q.txt", '"q1" "a" "1" "x" "1"\n')
    assert detect_qrels_format(path) == "evall"
    with pytest.raises(InputError) as caught:
        read_qrels(path)
    assert where(caught.value) == (f"{EVALL_COLUMNS}, found 1", str(path), 1, None)


# -- EvALL fields ----------------------------------------------------------------------------

def test_evall_splits_on_tabs_only(tmp_path):
    path = write(tmp_path, "q.txt", '"q1"\t"doc 1"\t"1"\t"aspect one"\t"1"\n')
    qrels = read_qrels(path, mapping="binary")
    assert qrels.grades == {"q1": {"doc 1": {"aspect one": 1}}}
    assert qrels.topics["q1"].r("doc 1", "aspect one") == 1


def test_a_field_ending_in_a_lone_quote_is_unbalanced(tmp_path):
    path = write(tmp_path, "q.txt", '"q1"\t"a"\t"1"\t"x"\t"1"\n"q1"\tb"\t"1"\t"x"\t"1"\n')
    with pytest.raises(InputError) as caught:
        read_qrels(path)
    assert where(caught.value) == ("unbalanced double quote", str(path), 2, 'b"')


def test_an_empty_quoted_weight_is_a_bad_weight_not_a_bad_quote(tmp_path):
    # '""' is balanced: it unquotes to "", which is not a positive number.
    path = write(tmp_path, "q.txt", '"q1"\t"a"\t"1"\t"x"\t""\n')
    with pytest.raises(InputError) as caught:
        read_qrels(path)
    assert where(caught.value) == ("aspect weight must be a positive number", str(path), 1, "")


# -- read_qrels: arguments, scale, what the result keeps -------------------------------------

def test_bad_arguments_are_refused_with_the_known_values(tmp_path):
    path = write(tmp_path, "q.txt", "q1 0 a 1\n")
    cases = [({"format": "csv"}, "unknown qrels format 'csv'; known: trec, trec-diversity, evall"),
             ({"mapping": "bogus"}, "unknown grade mapping 'bogus'; known: linear, err, err-aspect, binary"),
             ({"gmax": 0}, "gmax must be a positive integer, got 0"),
             ({"gmax": 101}, "gmax=101 is above 100, the largest grade axiometer accepts")]
    for arguments, message in cases:
        with pytest.raises(ValidationError) as caught:
            read_qrels(path, **arguments)
        assert str(caught.value) == message


def test_max_grade_is_accepted_as_grade_and_as_gmax(tmp_path):
    path = write(tmp_path, "q.txt", "q1 0 a 100\nq1 0 b 50\n")
    # linear with gmax = the file's largest grade 100: r(a) = 1, r(b) = 50/100.
    topic = read_qrels(path, mapping="linear").topics["q1"]
    assert topic.r("a") == 1 and topic.r("b") == Fraction(1, 2)
    # gmax=100 given: the same.
    assert read_qrels(path, mapping="linear", gmax=100).topics["q1"].r("b") == Fraction(1, 2)
    path = write(tmp_path, "big.txt", "q1 0 a 1\nq1 0 b 101\n")
    with pytest.raises(InputError) as caught:
        read_qrels(path)
    assert where(caught.value) == ("grade above 100, the largest axiometer accepts", str(path), 2, "101")


def test_a_zero_one_qrels_has_scale_one(tmp_path):
    # Largest grade 1, so gmax = 1: linear r = 1/1, err r = (2^1-1)/2^1 = 1/2. An all-zero qrels
    # reads (scale 1, every r = 0).
    path = write(tmp_path, "q.txt", "q1 0 a 1\nq1 0 b 0\n")
    assert read_qrels(path, mapping="linear").topics["q1"].r("a") == 1
    assert read_qrels(path, mapping="err").topics["q1"].r("a") == Fraction(1, 2)
    zeros = read_qrels(write(tmp_path, "z.txt", "q1 0 a 0\n"), mapping="linear")
    assert zeros.topics["q1"].r("a") == 0 and zeros.topics["q1"].R == 0


def test_the_qrels_keep_topic_ids_and_the_mapping(tmp_path):
    path = write(tmp_path, "q.txt", "q1 0 a 3\nq2 0 b 1\n")
    qrels = read_qrels(path, mapping="linear")
    assert qrels.mapping == "linear"
    assert [t.topic_id for t in qrels.topics.values()] == ["q1", "q2"]
    assert qrels.topics["q1"].grade("a") == 3


def test_a_topic_the_core_refuses_is_reported_at_its_first_line(tmp_path, monkeypatch):
    # Whatever Topic refuses (its checks are its own) comes out as one line naming the file and
    # the topic's first line. Real input reaching it is rare (EvALL weights whose float sum and
    # exact sum fall either side of the tolerance), so the refusal is planted.
    path = write(tmp_path, "q.txt", "q1 0 a 1\nq2 0 b 1\nq2 0 c 0\n")

    def refuse(topic_id, *args):
        if topic_id == "q2":
            raise ValidationError(f"topic {topic_id!r}: refused")
        return topic_from_grades(topic_id, *args)

    monkeypatch.setattr(readers, "topic_from_grades", refuse)
    with pytest.raises(InputError) as caught:
        read_qrels(path)
    assert where(caught.value) == ("topic 'q2': refused", str(path), 2, None)


def test_a_grade_above_the_given_gmax_names_its_token(tmp_path):
    path = write(tmp_path, "q.txt", "q1 0 a 1\nq1 0 b 3\n")
    with pytest.raises(InputError) as caught:
        read_qrels(path, mapping="linear", gmax=2)
    assert where(caught.value) == ("grade 3 exceeds the scale maximum gmax=2", str(path), 2, "3")


def test_long_grade_tokens_are_cut_to_40_characters(tmp_path):
    path = write(tmp_path, "q.txt", "q1 0 a " + "x" * 50 + "\n")
    with pytest.raises(InputError) as caught:
        read_qrels(path)
    assert where(caught.value) == ("grade must be an integer", str(path), 1, "x" * 40)
    path = write(tmp_path, "n.txt", "q1 0 a 1\nq1 0 b " + "9" * 50 + "\n")
    with pytest.raises(InputError) as caught:
        read_qrels(path)
    assert where(caught.value) == ("grade above 100, the largest axiometer accepts", str(path), 2, "9" * 40)


def test_the_twelve_digit_limit_on_grades(tmp_path):
    # Leading zeros are not significant ("0000000000001" is grade 1, as trec_eval's atoi reads it);
    # a grade of 13 significant digits is refused before any conversion, as above 100.
    path = write(tmp_path, "q.txt", "q1 0 a 000000000001\nq1 0 b +0000000000000002\n")
    assert read_qrels(path).grades["q1"] == {"a": {S: 1}, "b": {S: 2}}
    path = write(tmp_path, "long.txt", "q1 0 a 1\nq1 0 b 1000000000000\n")
    with pytest.raises(InputError) as caught:
        read_qrels(path)
    assert where(caught.value) == ("grade above 100, the largest axiometer accepts", str(path), 2,
                                   "1000000000000")


def test_a_topic_accepts_the_weights_the_reader_accepts(tmp_path):
    # Three weights whose plain float sum is 1 + 1.1e-9 but whose exact (fsum) sum is within 1e-9
    # of 1: the EvALL reader and Topic both sum with fsum, so the file reads.
    weights = (0.3211471814662228, 0.07436250635788709, 0.6044903131758901)
    assert abs(sum(weights) - 1) > 1e-9 >= abs(math.fsum(weights) - 1)
    lines = "".join(f'"q1"\t"d{i}"\t1\t"t{i}"\t{w!r}\n' for i, w in enumerate(weights))
    path = write(tmp_path, "q.tsv", lines)
    topic = read_qrels(path).topics["q1"]
    assert [float(w) for w in topic.weights] == list(weights)


# -- runs --------------------------------------------------------------------------------------

def test_a_score_with_an_underscore_is_not_a_number(tmp_path):
    # Python's float() reads "1_0" as 10; a TREC score is a plain decimal number.
    path = write(tmp_path, "r.txt", "q1 Q0 a 1 5 t\nq1 Q0 b 2 1_0 t\n")
    with pytest.raises(InputError) as caught:
        read_run(path)
    assert where(caught.value) == ("score must be a finite number", str(path), 2, "1_0")


def test_the_extra_columns_warning_points_at_the_caller(tmp_path):
    path = write(tmp_path, "r.txt", "q1 Q0 a 1 3 t extra\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read_run(path)
    assert len(caught) == 1
    filename = caught[0].filename
    assert filename != readers.__file__  # not the reader's own line
    # This test's line; under mutmut its trampoline is one frame between this test and read_run.
    assert filename == __file__ or Path(filename).name == "trampoline.py"


# -- a TREC qrels line with five columns is one InputError naming file:line -------

@pytest.mark.parametrize("text, line, columns", [
    ("q1 0 a 1\nq1 0 b 1 extra\n", 2, "qid iter docno grade"),
    ("q1 0 a 1 extra\nq1 0 b 1\n", 1, "qid iter docno grade"),        # first line: still TREC
    ("q1 0 a 1\nq1\t0\tb\t1\t2\n", 2, "qid iter docno grade"),        # tabs after the first line
    ("q1 s1 a 1\nq1 s2 b 1 0.5\n", 2, "qid subtopic docno grade"),    # TREC diversity
])
def test_a_five_column_trec_qrels_line_is_an_input_error_naming_file_and_line(tmp_path, text, line, columns):
    path = tmp_path / "five.qrels"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_qrels(path)
    assert str(caught.value) == f"{path}:{line}: expected 4 columns ({columns}), found 5"
    assert (caught.value.source, caught.value.line) == (str(path), line)


def test_a_five_column_line_under_an_explicit_trec_format_is_an_input_error(tmp_path):
    path = tmp_path / "five.qrels"
    path.write_text("q1 0 a 1\nq1 0 b 1 x\n", encoding="utf-8")
    for fmt in ("trec", "trec-diversity"):
        with pytest.raises(InputError, match=r":2: expected 4 columns \(.*\), found 5$"):
            read_qrels(path, format=fmt)
