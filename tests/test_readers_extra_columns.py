"""Run lines with more than six columns are read as trec_eval reads them: the first six, the
rest ignored, with one warning per file counting the lines; fewer than six stays an error."""

from __future__ import annotations

import warnings

import pytest

from axiometer.core import InputError
from axiometer.readers import read_run
from tests.paths import DATA

TREC_EVAL = DATA / "trec_eval"


def test_extra_columns_are_ignored_with_one_warning_counting_the_lines(tmp_path):
    path = tmp_path / "extra.run"
    path.write_text("q1 Q0 a 1 3 t\n"
                    "q1 Q0 b 2 2 t more junk\n"
                    "# a comment with many words in it\n"
                    "q2 Q0 c 1 5\tt\tx\n"
                    "q2 Q0 d 2 4 t\n", encoding="utf-8")
    plain = tmp_path / "plain.run"
    plain.write_text("q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq2 Q0 c 1 5 t\nq2 Q0 d 2 4 t\n", encoding="utf-8")
    with pytest.warns(UserWarning) as caught:
        run = read_run(path)
    assert [str(w.message) for w in caught] == [
        f"{path}: 2 lines have more than 6 columns (the first at line 2); the extra columns are "
        "ignored, as trec_eval ignores them"]
    expected = read_run(plain)
    assert run.tag == expected.tag == "t" and run.rankings == expected.rankings


def test_one_line_with_extra_columns_is_said_in_the_singular(tmp_path):
    path = tmp_path / "one.run"
    path.write_text("q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t extra\n", encoding="utf-8")
    with pytest.warns(UserWarning, match=r": 1 line has more than 6 columns \(the first at line 2\)"):
        read_run(path)


def test_six_columns_give_no_warning(tmp_path):
    path = tmp_path / "six.run"
    path.write_text("q1 Q0 a 1 3 t\n", encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_run(path)


@pytest.mark.parametrize("text, line, found", [
    ("q1 Q0 a 1 3 t x\nq1 Q0 b 2 2\n", 2, 5),
    ("q1 Q0 a 1 3 t x y z\nq1 Q0 b 2 2 t\nq1\n", 3, 1),
])
def test_fewer_than_six_columns_stay_an_error_naming_file_and_line(tmp_path, text, line, found):
    path = tmp_path / "short.run"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as error, warnings.catch_warnings():
        warnings.simplefilter("error")  # the refusal comes first: no warning about the lines before
        read_run(path)
    assert str(error.value) == (f"{path}:{line}: expected 6 columns (qid Q0 docno rank score tag), "
                                f"found {found}")


def test_the_columns_after_the_sixth_are_not_checked_but_the_six_are(tmp_path):
    path = tmp_path / "bad.run"
    path.write_text("q1 Q0 a 1 3 t nan\nq1 Q0 b 2 high t 1.0\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.run:2: score must be a finite number \(at 'high'\)"):
        read_run(path)
    path.write_text("q1 Q0 a 1 3 t x\nq1 Q0 b 2 2 u t\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.run:2: run tag 'u' differs from 't' at line 1"):
        read_run(path)


def test_trec_evals_results_trunc_reads_as_its_first_six_columns(tmp_path):
    source = TREC_EVAL / "results.trunc"
    with pytest.warns(UserWarning) as caught:
        run = read_run(source)
    assert [str(w.message) for w in caught] == [
        f"{source}: 5 lines have more than 6 columns (the first at line 1); the extra columns are "
        "ignored, as trec_eval ignores them"]
    lines = source.read_text(encoding="utf-8").splitlines()
    six = tmp_path / "results.six"
    six.write_text("".join(" ".join(line.split()[:6]) + "\n" for line in lines), encoding="utf-8")
    expected = read_run(six)
    assert run.tag == "STANDARD" and list(run.rankings) == ["301", "303"]  # no 302: out.test.aqc is -c
    assert run.rankings == expected.rankings
    assert sum(len(ranking) for ranking in run.rankings.values()) == len(lines) == 584
