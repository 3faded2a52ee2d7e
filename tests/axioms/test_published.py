"""The published amigo2018 table (read from the package data) against
definitions §7, and the arithmetic of comparing a regenerated table with it."""

from __future__ import annotations

import pytest

from axiometer.axioms import CONSTRAINT_IDS
from axiometer.axioms.published import compare_with_published, load_published
from axiometer.core import InputError
from axiometer.metrics import TABLE_ROWS
from axiometer.results import Cell, Check, TableResult

# definitions §7's amigo2018 table, written out by hand here (independently of the
# package's data file): 1 = satisfied, 0 = not, ? = open.
SECTION_7_CONSTRAINTS = ("Pri", "Deep", "DeepTh", "CloseTh", "Conf", "AspDiv", "Red", "MRed", "Sat", "AspRel")
SECTION_7_ROWS = (
    #                 Pri Deep DeepTh CloseTh Conf AspDiv Red MRed Sat AspRel
    ("P@k",          ("0", "0", "1", "0", "0", "0", "0", "0", "0", "0")),
    ("RR",           ("0", "0", "1", "0", "0", "0", "0", "0", "0", "0")),
    ("AP",           ("0", "0", "0", "1", "0", "0", "0", "0", "0", "0")),
    ("nDCG@k",       ("1", "1", "0", "1", "0", "0", "0", "0", "0", "0")),
    ("ERR@k",        ("1", "1", "1", "0", "0", "0", "0", "0", "0", "0")),
    ("RBP",          ("1", "1", "1", "1", "0", "0", "0", "0", "0", "0")),
    ("P-IA@k",       ("0", "0", "1", "0", "0", "0", "0", "0", "0", "1")),
    ("RR-IA@k",      ("0", "0", "1", "0", "0", "0", "0", "0", "1", "1")),
    ("AP-IA",        ("0", "0", "0", "1", "0", "0", "0", "0", "0", "1")),
    ("nDCG-IA@k",    ("1", "1", "?", "1", "0", "1", "0", "0", "0", "1")),
    ("ERR-IA@k",     ("1", "1", "1", "0", "0", "1", "1", "1", "1", "1")),
    ("RBP-IA",       ("1", "1", "1", "1", "0", "1", "0", "0", "0", "1")),
    ("S-Recall@k",   ("0", "0", "1", "0", "0", "0", "0", "0", "1", "0")),
    ("S-RR@100%",    ("0", "0", "1", "0", "0", "0", "0", "0", "1", "0")),
    ("NRBP",         ("1", "1", "1", "1", "0", "1", "1", "0", "0", "0")),
    ("D#-Measure@k", ("1", "1", "?", "1", "0", "1", "0", "0", "0", "1")),
    ("alpha-nDCG@k", ("1", "1", "1", "1", "0", "1", "1", "0", "0", "0")),
    ("EU",           ("1", "1", "1", "1", "1", "1", "1", "0", "0", "1")),
    ("CT@k",         ("?", "?", "?", "0", "0", "?", "?", "0", "1", "?")),
    ("RBU@k",        ("1", "1", "1", "1", "1", "1", "1", "1", "1", "1")),
)


def spec_section_7_table() -> dict[str, dict[str, str]]:
    """The amigo2018 table as definitions §7 writes it: row -> constraint -> mark."""
    return {row: dict(zip(SECTION_7_CONSTRAINTS, marks, strict=True)) for row, marks in SECTION_7_ROWS}


def test_the_bundled_table_is_spec_section_7_exactly():
    published = load_published("amigo2018")
    expected = spec_section_7_table()
    assert len(published.rows) == 20 and len(published.constraints) == 10
    assert list(published.rows) == list(expected)
    assert list(published.constraints) == list(next(iter(expected.values())))
    for row in published.rows:
        for constraint in published.constraints:
            assert published.mark(row, constraint) == expected[row][constraint], (row, constraint)


def test_the_table_rows_and_columns_are_the_packages():
    published = load_published()
    assert published.rows == tuple(title for title, _ in TABLE_ROWS)
    # The constraint ids are the registry's, in the paper's order (as many as are registered).
    assert [c for c in published.constraints if c in CONSTRAINT_IDS] == list(CONSTRAINT_IDS)
    assert "SIGIR 2018" in published.source
    assert published.mark("P@k", "Nope") is None and published.mark("Nope", "Pri") is None


def test_unknown_published_table():
    with pytest.raises(InputError, match="unknown published table"):
        load_published("nope2020")


def _cell(row: str, metric: str, constraint: str, verdict: str) -> Cell:
    check = Check(constraint=constraint, metric=metric, params=(), verdict=verdict, mode="window")
    return Cell(row=row, metric=metric, constraint=constraint, verdict=verdict, summary=verdict,
                checks=(check,))


def _table(cells: list[Cell]) -> TableResult:
    rows = tuple(dict.fromkeys(c.row for c in cells))
    constraints = tuple(dict.fromkeys(c.constraint for c in cells))
    return TableResult(rows=rows, constraints=constraints, cells=tuple(cells), seed=0, mode="default",
                       budget="test")


def test_comparison_arithmetic():
    # Published marks (definitions §7): P@k Pri 0, DeepTh 1; RBP CloseTh 1; nDCG-IA@k DeepTh ?;
    # RR Pri 0; AP Conf 0; nDCG@k Pri 1.
    result = _table([
        _cell("P@k", "P@10", "Pri", "violated"),                 # 0 vs not holding: agree
        _cell("P@k", "P@10", "DeepTh", "witness"),               # 1 vs witness: agree
        _cell("RBP", "RBP(p=0.8)", "CloseTh", "violated"),       # 1 vs violated: differ
        _cell("nDCG-IA@k", "nDCG_IA@10", "DeepTh", "witness"),   # ?: listed, not counted
        _cell("RR", "RR", "Pri", "error"),                       # error: not compared
        _cell("AP", "AP", "Conf", "n/a"),                        # 0 vs n/a (not holding): agree
        _cell("nDCG@20", "nDCG@20", "Pri", "satisfied"),         # matched to nDCG@k by family: agree
        _cell("RBP", "RBP(p=0.8)", "Pri", "satisfied"),          # 1 vs satisfied: agree
        _cell("mine", "mine", "Pri", "satisfied"),               # no published row
    ])
    comparison = compare_with_published(result)
    assert (comparison.agree, comparison.total) == (5, 6)
    assert comparison.rate == pytest.approx(5 / 6)
    assert [(d.row, d.constraint, d.published, d.ours) for d in comparison.differences] == [
        ("RBP", "CloseTh", "1", "violated")]
    assert comparison.differences[0].cell is result.cell("RBP", "CloseTh")
    assert [(d.row, d.constraint, d.published) for d in comparison.undecided] == [
        ("nDCG-IA@k", "DeepTh", "?")]
    assert [(d.row, d.ours) for d in comparison.not_compared] == [("RR", "error")]
    assert comparison.unmatched == ("mine",)
    assert [d.published_row for d in comparison.differences] == ["RBP"]
    data = comparison.to_dict()
    assert data["agree"] == 5 and data["total"] == 6 and data["differences"][0]["ours"] == "violated"


def test_an_interrupted_cell_is_not_compared():
    comparison = compare_with_published(_table([_cell("P@k", "P@10", "Pri", "not run")]))
    assert (comparison.agree, comparison.total) == (0, 0) and comparison.rate == 0.0
    assert len(comparison.not_compared) == 1
