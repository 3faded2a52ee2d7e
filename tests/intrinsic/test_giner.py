"""Giner's Tables 2–3 comparison (run_giner) and its reports.

Expected categories are those of definitions §4 (known facts) and §7 (the
``giner`` paragraph), transcribed here by hand; ties are checked with
hand-computed values, not the classifier's output.
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction, Fraction as F

import pytest

from axiometer.intrinsic.giner import GinerEntry, GinerTable, canonical_domains, load_giner, run_giner
from axiometer.core import InputError
from axiometer.generators.domains import outputs, rankings, sets, users
from axiometer.metrics import parse
from axiometer.reports.giner import GINER_FORMATS, format_giner
from axiometer.results import OutputRecord
from axiometer.metrics.rbp import RBP
from axiometer.intrinsic import giner, parametric

IM, OM, OP = "interval/metric", "ordinal/metric", "ordinal/pseudometric"

# definitions §7, `giner` paragraph, transcribed by hand (measure -> (what it scores, category, condition)).
GINER_PARAGRAPH = {
    **{m: ("set", IM, None) for m in (
        "recall", "precision", "fallout", "miss rate", "accuracy", "error rate", "inverse recall",
        "inverse precision", "specificity", "false discovery rate", "false omission rate")},
    "F-measure": ("set", OM, None),
    "generality": ("set", OP, None),
    **{m: ("user", OP, None) for m in ("coverage ratio", "relative recall", "novelty ratio", "recall effort")},
    "modified sliding ratio": ("rank", OM, None),
    "Pnorm": ("rank", OM, None),
    "Rnorm": ("rank", IM, "binary"),
    **{m: ("rank", OP, None) for m in (
        "Prec@k", "R-precision", "sliding ratio", "R-measure", "AP", "Q-measure", "RR", "bpref", "nxCG",
        "esl")},
    "RBP (p = 1/2)": ("rank", IM, "binary"),
    "RBP (p = 0.8)": ("rank", OP, "in general"),
}
# Listed among Tables 2-3 in definitions §4, with no category in section 7's paragraph.
UNSTATED = {"utility", "DCG", "nDCG", "weighted R-precision", "average weighted precision"}

SIZE8, NONREL0, ALL = "sets(N=20, R=5, size=8)", "sets(N=20, R=5, nonrel=0)", "sets(N=20, R=5)"
BINARY4 = "rankings(n=4, grades={0,1}, lengths=exact, R=4)"


def test_data_file_matches_the_spec_paragraph():
    entries = {e.measure: e for e in load_giner()}
    stated = {m: (e.scores, e.published, e.condition) for m, e in entries.items() if e.published}
    assert stated == GINER_PARAGRAPH
    assert {m for m, e in entries.items() if e.published is None} == UNSTATED
    for e in entries.values():  # every spec builds a measure of what it scores
        if e.scores == "rank":
            parse(e.spec.replace("{n}", "4"))


@pytest.fixture(scope="module")
def reduced() -> GinerTable:
    return run_giner(domains=[sets(20, 5, size=8), sets(20, 5, nonrel=0), sets(20, 5), rankings(4)],
                     measures=["precision", "recall", "F-measure", "AP", "RBP (p = 1/2)", "RBP (p = 0.8)",
                               "Rnorm", "coverage ratio"])


def test_precision_and_recall_are_interval_on_fixed_size_outputs(reduced):
    for measure in ("precision", "recall"):
        row = reduced.row(measure)
        assert row.category_on(SIZE8) == IM
        assert SIZE8 in row.reproduced_by
        # On all subsets neither is injective (definitions §4).
        assert row.category_on(ALL) == OP


def test_f_measure_metric_not_interval_when_outputs_grow_by_relevant_documents(reduced):
    row = reduced.row("F-measure")
    # nonrel = 0: F = 2TP / (TP + 5), TP = 0..5: 0, 1/3, 4/7, 3/4, 8/9, 1 -- distinct, gaps 1/3, 5/21, ...
    assert row.category_on(NONREL0) == OM
    assert row.category_on(SIZE8) == IM  # size 8: F = 2TP / 13, linear in TP
    assert row.reproduced_by == (NONREL0,)
    interval = row.result_on(NONREL0).property("interval")
    assert not interval.holds and interval.exact
    # The first three values 0, 1/3, 4/7 (TP = 0, 1, 2): gaps 1/3 and 5/21 differ.
    assert [r.label for r in interval.counterexample] == ["(TP=0, FP=0)", "(TP=1, FP=0)", "(TP=2, FP=0)"]
    assert [r.score for r in interval.counterexample] == pytest.approx([0, 1 / 3, 4 / 7], abs=1e-15)


def test_ap_is_not_injective_on_binary_rankings_with_r_fixed(reduced):
    row = reduced.row("AP")
    result = row.result_on(BINARY4)
    assert result.category == OP and result.exact
    assert BINARY4 in row.reproduced_by
    metric = result.property("metric")
    assert not metric.holds and len(metric.counterexample) == 2
    a, b = metric.counterexample
    assert a.label != b.label and a.exact == b.exact
    # A tie by hand, R = 4: AP(1,0,0,0) = (1/1)/4 = 1/4; AP(0,1,0,1) = (1/2 + 2/4)/4 = 1/4.
    ap, domain = parse("AP"), rankings(4)
    topic = domain.topic
    assert ap.exact(["1#1", "0#1", "0#2", "0#3"], topic) == Fraction(1, 4)
    assert ap.exact(["0#1", "1#1", "0#2", "1#2"], topic) == Fraction(1, 4)


def test_rbp_half_is_interval_and_rbp_08_difference_is_explained(reduced):
    half = reduced.row("RBP (p = 1/2)")
    assert half.category_on(BINARY4) == IM and half.reproduced_by == (BINARY4,)
    eight = reduced.row("RBP (p = 0.8)")
    assert eight.category_on(BINARY4) == OM  # injective on binary rankings at p = 0.8
    assert eight.reproduced_by == ()
    assert eight in reduced.differences
    (text,) = eight.explanation
    assert BINARY4 in text and "stronger than ordinal/pseudometric" in text and "parametric" in text


def test_rnorm_difference_names_its_counterexample(reduced):
    row = reduced.row("Rnorm")
    assert row.reproduced_by == ()
    # Rnorm depends on the sum of relevant ranks only: (0,1,1,0) has 2 + 3 = 5 = 1 + 4 of (1,0,0,1),
    # and the two unretrieved relevant documents are placed alike in both, so the two tie.
    pair = row.result_on(BINARY4).property("metric").counterexample
    assert [r.label for r in pair] == ["(0, 1, 1, 0)", "(1, 0, 0, 1)"]
    (text,) = row.explanation
    assert "(0, 1, 1, 0)" in text and "(1, 0, 0, 1)" in text and "metric fails" in text


def test_user_measures_without_a_users_domain_are_listed_not_evaluated(reduced):
    row = reduced.row("coverage ratio")
    assert row.results == () and row.skipped == "no user domain given" and row.published == OP
    assert row not in reduced.differences


USERS5, EFFORT = "users(U=5, unknown=5)", "users(U=5, unknown=5, wanted=2, examined=8)"


@pytest.fixture(scope="module")
def user_table() -> GinerTable:
    return run_giner(domains=[users(5, 5), users(5, 5, wanted=2, examined=8)],
                     measures=["coverage ratio", "relative recall", "novelty ratio", "recall effort"])


def test_user_measures_reproduce_giner_on_users_domains(user_table):
    assert user_table.user_domains == (USERS5, EFFORT) and user_table.set_domains == (USERS5, EFFORT)
    for measure in ("coverage ratio", "relative recall", "novelty ratio"):
        row = user_table.row(measure)
        assert row.skipped is None and [r.domain for r in row.results] == [USERS5, EFFORT]
        assert row.reproduced_by == (USERS5, EFFORT)
    effort = user_table.row("recall effort")  # wanted/examined is 0/0 = 0 on USERS5: not evaluated there
    assert [r.domain for r in effort.results] == [EFFORT] and effort.reproduced_by == (EFFORT,)
    assert user_table.differences == ()


def test_user_measure_ties_are_hand_checked(user_table):
    # coverage ratio Rk/U ignores Ru: (Rk=0, Ru=0) and (Rk=0, Ru=1) both score 0/5 = 0.
    pair = user_table.row("coverage ratio").result_on(USERS5).property("metric").counterexample
    assert [r.label for r in pair] == ["(Rk=0, Ru=0)", "(Rk=0, Ru=1)"]
    # relative recall (Rk+Ru)/(U+Ru): (0+5)/(5+5) = 1/2 = (1+3)/(5+3); the smallest tying pair by
    # domain order (Rk, then Ru) whose later member comes first: (0,5) ties (1,3) at index 9, and no
    # earlier pair ties (Rk=0 gives Ru/(5+Ru), increasing; Rk=1, Ru<=2 give 1/5, 2/6, 3/7 - all distinct
    # from 0, 1/6, 2/7, 3/8, 4/9, 5/10).
    result = user_table.row("relative recall").result_on(USERS5)
    pair = result.property("metric").counterexample
    assert [r.label for r in pair] == ["(Rk=0, Ru=5)", "(Rk=1, Ru=3)"]
    assert [r.exact for r in pair] == ["1/2", "1/2"]
    # novelty ratio Ru/(Rk+Ru): Rk=0, Ru>0 all score 1.
    pair = user_table.row("novelty ratio").result_on(USERS5).property("metric").counterexample
    assert [r.label for r in pair] == ["(Rk=0, Ru=1)", "(Rk=0, Ru=2)"]
    # recall effort 2/examined, examined in 2..8: 7 distinct values 1, 2/3, 1/2, 2/5, 1/3, 2/7, 1/4.
    assert user_table.row("recall effort").result_on(EFFORT).distinct == 7


def test_set_measures_use_set_domains_and_rank_measures_rank_domains(reduced):
    assert reduced.set_domains == (SIZE8, NONREL0, ALL)
    assert reduced.rank_domains == (BINARY4,)
    assert [r.domain for r in reduced.row("AP").results] == [BINARY4]
    assert [r.domain for r in reduced.row("recall").results] == [SIZE8, NONREL0, ALL]


def test_unknown_measure_is_an_input_error():
    with pytest.raises(InputError, match="unknown Giner measure 'MAP'"):
        run_giner(measures=["MAP"])


def test_full_table_every_published_row_reproduced_or_explained():
    table = run_giner()
    assert len(table.rows) == len(GINER_PARAGRAPH) + len(UNSTATED)
    assert len(table.rank_domains) == 3 and len(table.set_domains) == 5 and len(table.user_domains) == 2
    count_sets = tuple(d for d in table.set_domains if d not in table.user_domains)
    for row in table.rows:
        assert row.skipped is None
        domains = {"set": count_sets, "user": table.user_domains, "rank": table.rank_domains}[row.entry.scores]
        if row.entry.spec == "recall_effort":
            domains = table.user_domains[1:]
        assert [r.domain for r in row.results] == list(domains)
        if row.published and not row.reproduced_by:
            assert len(row.explanation) == len(domains)
    assert {r.measure for r in table.differences} >= {"Rnorm", "RBP (p = 0.8)"}
    assert [d.name for d in canonical_domains()] == list(table.set_domains + table.rank_domains)


def test_text_report(reduced):
    text = format_giner(reduced, "text")
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("measure"))
    assert header.split()[:2] == ["measure", "published"] and "reproduced by" in header
    assert f"S1: {SIZE8}" in text and f"K1: {BINARY4}" in text
    f_line = next(line for line in lines if line.startswith("F-measure"))
    assert f_line.split()[-1] == "S2"  # reproduced by the nonrel = 0 domain
    assert "Differences" in text and "(0, 1, 1, 0)" in text
    assert "Not evaluated: coverage ratio" in text


def test_markdown_report(reduced):
    text = format_giner(reduced, "markdown")
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(rows) == 1 + len(reduced.rows)  # header + one row per measure
    assert rows[0] == "| measure | published | S1 | S2 | S3 | K1 | reproduced by |"
    assert "## Differences" in text and "### Rnorm" in text


def test_json_report(reduced):
    data = json.loads(format_giner(reduced, "json"))
    assert data["set_domains"] == [SIZE8, NONREL0, ALL]
    by_name = {r["measure"]: r for r in data["rows"]}
    assert by_name["F-measure"]["reproduced_by"] == [NONREL0]
    assert by_name["AP"]["results"][0]["category"] == OP
    assert by_name["coverage ratio"]["skipped"]


def test_unknown_format():
    assert GINER_FORMATS == ("text", "markdown", "latex", "json", "html")
    with pytest.raises(ValueError, match="unknown report format 'pdf'; known: text, markdown, latex, json, html"):
        format_giner(GinerTable((), (), ()), "pdf")


def test_latex_report_is_one_booktabs_table_a_row_per_measure_with_names_escaped(reduced):
    renamed = dataclasses.replace(reduced.rows[0], entry=dataclasses.replace(reduced.rows[0].entry,
                                                                               measure="P_x & y"))
    table = dataclasses.replace(reduced, rows=(renamed, *reduced.rows[1:]))
    latex = format_giner(table, "latex")
    assert latex.count("\\begin{table}") == 1 and "\\toprule" in latex and "\\bottomrule" in latex
    body = latex.split("\\midrule\n")[1].split("\\bottomrule")[0].splitlines()
    assert len(body) == len(reduced.rows)  # one row per measure
    assert body[0].startswith("P\\_x \\& y & ")
    assert "\\begin{tabular}{llccccl}" in latex  # measure, published, 4 domains, reproduced by
    rnorm = next(line for line in body if line.startswith("Rnorm "))
    assert rnorm.endswith("& none \\\\")  # a difference, marked as the text marks it
    assert "K1 rankings(n=4, grades=\\{0,1\\}, lengths=exact, R=4)" in latex  # the domains in the note
    assert "Differences" not in latex and "measure | published" not in latex  # the table alone


def test_html_report_is_a_page_of_the_table_differences_and_counterexamples(reduced):
    page = format_giner(reduced, "html")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<h1>Giner&#x27;s Tables 2-3 against our classification</h1>" in page
    assert '<a href="#differences">Differences</a><a href="#counterexamples">Counterexamples</a>' in page
    assert '<th scope="col">reproduced by</th>' in page and "<h3>Rnorm" not in page.split("differences")[0]
    assert '<section id="counterexamples"><h2>Counterexamples</h2>' in page
    ap = page[page.index("<h3>AP</h3>"):]
    assert "metric: (0, 1, 0, 1) = 1/4, (1, 0, 0, 0) = 1/4" in ap[:ap.index("</ul>")]


def test_text_report_lists_every_lacking_property_with_its_counterexample(reduced):
    text = format_giner(reduced, "text")
    section = text[text.index("\nCounterexamples\n"):]
    # AP on binary n = 4 (R = 4): (0,1,0,1) and (1,0,0,0) both score 1/4 (hand-checked above).
    ap = section[section.index("\nAP\n"):]
    ap = ap[: ap.index("\n\n", 1)]
    assert "metric: (0, 1, 0, 1) = 1/4, (1, 0, 0, 0) = 1/4" in ap
    # Precision is constant on non-empty outputs without non-relevant documents (S2).
    assert "S2 (ordinal/pseudometric): metric: (TP=1, FP=0) = 1, (TP=2, FP=0) = 1" in section
    # Recall is interval on fixed-size outputs: nothing lacking there, so S1 is not listed for it.
    recall = section[section.index("\nrecall\n"):]
    assert "S1 (" not in recall[: recall.index("\n\n", 1)]


# Giner's table on hand-made data files (issue 14): reading the data file, choosing rows and their
# domains, explaining differences, printing counterexamples.

_SIZE8 = "sets(N=20, R=5, size=8)"


class _Files:
    """Stands in for ``importlib.resources``: ``files("axiometer") / "data" / name`` is ``root/data/name``."""

    def __init__(self, root):
        self.root = root

    def files(self, package):
        return self.root


_HEADER = "measure\tkind\tspec\tpublished\tcondition\n"


@pytest.mark.parametrize("text, message", [
    # A wrong header names the file and the header read.
    ("measure\tkind\tspec\tpublished\n", "giner.tsv: unexpected header ['measure', 'kind', 'spec', 'published']"),
    # Data rows are numbered from 2 (the header is row 1), comments and blank lines not counted.
    (_HEADER + "recall\tset\trecall\tinterval/metric\t-\n# note\n\nAP\trank\tAP\tordinal/pseudometric\n",
     "giner.tsv data row 3: malformed row ['AP', 'rank', 'AP', 'ordinal/pseudometric']"),
    (_HEADER + "AP\tsets\tAP\tordinal/pseudometric\t-\n",
     "giner.tsv data row 2: malformed row ['AP', 'sets', 'AP', 'ordinal/pseudometric', '-']"),
    (_HEADER + "AP\trank\tAP\tordinal\t-\n", "giner.tsv data row 2: malformed row ['AP', 'rank', 'AP', 'ordinal', '-']"),
])
def test_a_malformed_giner_data_file_is_one_error_naming_the_row(tmp_path, monkeypatch, text, message):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "giner.tsv").write_text(text, encoding="utf-8")
    monkeypatch.setattr(giner, "resources", _Files(tmp_path))
    with pytest.raises(InputError) as error:
        load_giner()
    assert str(error.value) == message


def test_giner_data_rows_read_dashes_as_none(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "giner.tsv").write_text(
        "# comment\n" + _HEADER + "\nAP\trank\tAP\t-\t-\nRBP\trank\tRBP(p=0.8)\tordinal/pseudometric\tin general\n",
        encoding="utf-8")
    monkeypatch.setattr(giner, "resources", _Files(tmp_path))
    assert load_giner() == (GinerEntry("AP", "rank", "AP", None, None),
                            GinerEntry("RBP", "rank", "RBP(p=0.8)", "ordinal/pseudometric", "in general"))


def test_giner_rows_follow_the_file_and_unknown_names_list_the_known_ones():
    known = [e.measure for e in load_giner()]
    table = run_giner(domains=[sets(20, 5, size=8)], measures=["precision", "recall"])
    assert [row.entry.measure for row in table.rows] == [m for m in known if m in ("precision", "recall")]
    with pytest.raises(InputError) as error:
        run_giner(domains=[sets(20, 5, size=8)], measures=["recall", "MAP"])
    assert str(error.value) == "unknown Giner measure 'MAP'; known: " + ", ".join(known)


def test_giner_differences_are_explained_by_the_property_and_the_domain():
    # RBP at p = 0.8 is injective on binary rankings of length 4 (16 distinct values), stronger
    # than Giner's "not a metric in general": the parametric analysis finds the tying p.
    table = run_giner(domains=[rankings(4)], measures=["RBP (p = 0.8)"])
    (row,) = table.rows
    assert row.reproduced_by == () and row.explanation == (
        f"on {BINARY4}: ordinal/metric, stronger than ordinal/pseudometric: metric holds here "
        "(injective: 16 distinct values on 16 outputs); Giner's category is for the measure in general: "
        "some parameter values make outputs tie, which the parametric analysis finds",)
    # F on sets of size 8 is 2 TP / 13, linear: interval, stronger than Giner's ordinal/metric, and
    # the domain (not a parameter) is why.
    table = run_giner(domains=[sets(20, 5, size=8)], measures=["F-measure"])
    (row,) = table.rows
    assert row.explanation == (
        f"on {_SIZE8}: interval/metric, stronger than ordinal/metric: interval holds here (the 6 "
        "distinct values are equally spaced); this domain does not contain the outputs Giner's argument "
        "rests on",)
    # A weaker category names the failing property and its counterexample, value by value:
    # precision on all subsets ties (TP=0, FP=0) (0/0 read as 0) and (TP=0, FP=1) (0/1).
    table = run_giner(domains=[sets(20, 5)], measures=["precision"])
    (row,) = table.rows
    (text,) = row.explanation
    metric = row.result_on("sets(N=20, R=5)").property("metric")
    assert text == (f"on sets(N=20, R=5): ordinal/pseudometric, not interval/metric: metric fails "
                    f"({metric.note}); counterexample (TP=0, FP=0) = 0, (TP=0, FP=1) = 0")


def test_the_canonical_domains_are_those_the_module_names():
    # giner.py's docstring: sets(20, 5, size=8), sets(20, 5, nonrel=0), sets(20, 5); users(U=5,
    # unknown=5) and the same with wanted = 2, examined up to 8; binary rankings(n=4) (R = 4),
    # rankings(n=6) and graded rankings(n=3, grades={0, 1/2, 1}) (R = 6: three documents of each
    # relevant grade). Sizes: TP = 0..5; TP = 0..5; 6 * 16 (TP, FP); 6 * 6 (Rk, Ru); 36 * 7
    # (examined = 2..8); 2^4, 2^6, 3^3.
    assert [d.name for d in canonical_domains()] == [
        "sets(N=20, R=5, size=8)", "sets(N=20, R=5, nonrel=0)", "sets(N=20, R=5)",
        "users(U=5, unknown=5)", "users(U=5, unknown=5, wanted=2, examined=8)",
        "rankings(n=4, grades={0,1}, lengths=exact, R=4)", "rankings(n=6, grades={0,1}, lengths=exact, R=6)",
        "rankings(n=3, grades={0,1/2,1}, lengths=exact, R=6)"]
    assert [d.size for d in canonical_domains()] == [6, 6, 96, 36, 252, 16, 64, 27]


def test_giner_rows_choose_the_domains_of_what_they_score():
    # Domains given in any order: the table lists sets then users as set columns, users apart,
    # rankings as rank columns.
    table = run_giner(domains=[rankings(2), users(2, 1), sets(4, 2, size=2)],
                      measures=["recall", "coverage ratio", "recall effort", "Prec@k", "DCG"])
    assert table.set_domains == ("sets(N=4, R=2, size=2)", "users(U=2, unknown=1)")
    assert table.user_domains == ("users(U=2, unknown=1)",)
    assert table.rank_domains == ("rankings(n=2, grades={0,1}, lengths=exact, R=2)",)
    rows = {row.entry.measure: row for row in table.rows}
    assert [r.domain for r in rows["recall"].results] == ["sets(N=4, R=2, size=2)"]
    assert [r.domain for r in rows["coverage ratio"].results] == ["users(U=2, unknown=1)"]
    # recall effort (wanted / examined) needs a users domain that varies them: none here.
    assert rows["recall effort"].results == () and rows["recall effort"].skipped == "no user domain given"
    # Prec@k is P@{n}: P@2 on binary length 2 (0, 1/2, 1/2, 1: the tie Giner states).
    (prec,) = rows["Prec@k"].results
    assert prec.metric == "P@2" and prec.category == "ordinal/pseudometric"
    assert rows["Prec@k"].reproduced_by == (prec.domain,) and rows["Prec@k"].explanation == ()
    # DCG has no published category: nothing to reproduce, nothing to explain.
    assert rows["DCG"].reproduced_by == () and rows["DCG"].explanation == ()
    assert all(row.skipped is None for m, row in rows.items() if m != "recall effort")
    # Without a rank domain a rank measure is skipped, named by what it scores.
    only_sets = run_giner(domains=[sets(4, 2, size=2)], measures=["AP"])
    assert only_sets.rows[0].skipped == "no rank domain given" and only_sets.rank_domains == ()


def test_giner_counterexamples_print_exact_values_or_six_digits():
    # An explanation's records: the exact value where known, else the float to 6 significant digits.
    records = (OutputRecord(0, "(0, 1)", ("a",), 0.5, "1/2"), OutputRecord(1, "(1, 0)", ("b",), 2 / 3))
    assert giner._records(records) == "(0, 1) = 1/2, (1, 0) = 0.666667"
