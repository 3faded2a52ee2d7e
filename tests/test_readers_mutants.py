"""The readers' and grade scales' edges that the mutation run (issue 14, area ``readers``) found
unpinned: every error's exact words, file, line and token; the boundaries (``MAX_GRADE`` itself,
the 12-digit limit, a grade-free topic, a 0/1 qrels); detection by a quote alone; EvALL split on
tabs only; and ``topics_under``'s qrels-wide scale. Values are computed by hand in the comments."""

from __future__ import annotations

import errno
import math
import warnings
from fractions import Fraction
from pathlib import Path

import pytest

from axiometer import readers
from axiometer.core import SINGLE_ASPECT, InputError, ValidationError
from axiometer.grades import grade_to_relevance, topic_from_grades, topics_under
from axiometer.readers import detect_qrels_format, read_qrels, read_run

S = SINGLE_ASPECT
EVALL_COLUMNS = "expected 5 tab-separated columns (topic, docid, grade, aspect, aspect weight)"


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


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
