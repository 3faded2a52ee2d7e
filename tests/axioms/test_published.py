"""The published amigo2018 table (read from the package data) against
definitions §7, and the arithmetic of comparing a regenerated table with it."""

from __future__ import annotations

import pytest

from axiometer.axioms import CONSTRAINT_IDS
from axiometer.axioms.published import compare_with_published, load_published
from axiometer.core import InputError
from axiometer.metrics import TABLE_ROWS
from axiometer.results import Cell, Check, TableResult
import axiometer.axioms.published as published_module

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


# Reading a published table and comparing a table with it (issue 14): the bundled file's text
# exactly, a malformed data file's one-line error naming the file and data row, and which of our
# rows and cells are compared.

# The bundled file's three comment lines, "# " and the line ends taken off, joined by spaces.
AMIGO_SOURCE = ('amigo2018: Amigó, Spina & Carrillo-de-Albornoz, "An Axiomatic Analysis of Diversity '
                'Evaluation Metrics", SIGIR 2018, Table 1. Reconstructed from the paper\'s section 4 prose '
                '(the marks were lost in extraction); definitions §7. 1 = satisfied, 0 = not satisfied '
                '(including "undefined for graded relevance"), ? = the prose does not say or says both.')


class _Data:
    """Package data standing in for ``importlib.resources.files(...)``: ``/`` walks, ``read_text``
    decodes the bytes as asked, and as Latin-1 (a non-UTF-8 locale's default) when not asked."""

    def __init__(self, files: dict[str, bytes], path: str = "") -> None:
        self.files, self.path = files, path

    def __truediv__(self, name: str) -> "_Data":
        return _Data(self.files, f"{self.path}/{name}" if self.path else name)

    def read_text(self, encoding: str | None = None) -> str:
        return self.files[self.path].decode(encoding or "latin-1")


@pytest.fixture
def data(monkeypatch):
    """Install data files: ``data({"fake.tsv": text})``; the real amigo2018 file stays readable."""
    def install(extra: dict[str, str]) -> None:
        real = (published_module.resources.files("axiometer") / "data" / "amigo2018.tsv").read_bytes()
        files = {"axiometer/data/amigo2018.tsv": real}
        for name, text in extra.items():
            files[f"axiometer/data/{name}"] = text.encode("utf-8")
            monkeypatch.setitem(published_module.PUBLISHED, name.removesuffix(".tsv"), name)

        class Resources:
            @staticmethod
            def files(package):
                return _Data(files, package)

        monkeypatch.setattr(published_module, "resources", Resources)
    return install


def test_the_bundled_table_reads_as_utf8_whatever_the_locale(data):
    data({})
    table = load_published("amigo2018")
    assert table.name == "amigo2018" and table.source == AMIGO_SOURCE
    assert table.rows[:2] == ("P@k", "RR") and table.constraints[0] == "Pri" and len(table.marks) == 20


def test_comments_titles_and_blank_lines(data):
    data({"fake.tsv": "# X marks   \n#   second line\n\nmetric\tPri\tDeep\nalpha nDCG\t1\t?\n  \nRR\t0\t1\n"})
    table = load_published("fake")
    assert table.source == "X marks second line"
    assert table.rows == ("alpha nDCG", "RR") and table.constraints == ("Pri", "Deep")
    assert table.marks == (("alpha nDCG", ("1", "?")), ("RR", ("0", "1")))
    assert table.mark("alpha nDCG", "Deep") == "?" and table.mark("RR", "Pri") == "0"


@pytest.mark.parametrize("bad_row, shown", [
    ("RR\t0", "['RR', '0']"),                 # a mark missing
    ("RR\t0\t1\t1", "['RR', '0', '1', '1']"),  # one too many
    ("RR\ty\t1", "['RR', 'y', '1']"),          # not a mark, in the first column
    ("RR\t1\t2", "['RR', '1', '2']"),          # not a mark, in the last column
])
def test_a_malformed_row_names_the_file_and_data_row(data, bad_row, shown):
    # Data rows are counted from the header (row 1); comment lines are not data rows.
    data({"fake.tsv": f"# comment\nmetric\tPri\tDeep\nP@k\t1\t0\n{bad_row}\n"})
    with pytest.raises(InputError) as raised:
        load_published("fake")
    assert str(raised.value) == f"fake.tsv data row 3: malformed row {shown}"


def test_an_unknown_table_lists_the_known_ones(data):
    data({"other.tsv": "metric\tPri\n"})
    with pytest.raises(InputError) as raised:
        load_published("nope2020")
    assert str(raised.value) == "unknown published table 'nope2020'; known: amigo2018, other"


def test_rows_and_cells_the_published_table_lacks_are_skipped_not_the_rest():
    # Published marks (definitions §7): P@k Pri 0, DeepTh 1; RR Pri 0.
    cells = (
        _cell("mine", "mine", "Pri", "satisfied"),          # no published row, not a built-in: unmatched
        _cell("P@k", "my_precision", "PriorSens", "n/a"),   # a property: no such column, skipped
        _cell("P@k", "my_precision", "Pri", "violated"),    # the title matches (the metric is no spec): agree
        _cell("P@k", "my_precision", "DeepTh", "violated"), # 1 vs not holding: differ
        _cell("RR", "RR", "Pri", "satisfied"),               # 0 vs holding: differ
    )
    result = TableResult(rows=("empty", "mine", "P@k", "RR"), constraints=("PriorSens", "Pri", "DeepTh"),
                         cells=cells, seed=0, mode="default", budget="test")
    comparison = compare_with_published(result)
    assert comparison.table == "amigo2018"
    assert comparison.unmatched == ("empty", "mine")  # a row without cells is unmatched too
    assert (comparison.agree, comparison.total) == (1, 3)
    assert [(d.row, d.published_row, d.constraint, d.published, d.ours) for d in comparison.differences] == [
        ("P@k", "P@k", "DeepTh", "1", "violated"), ("RR", "RR", "Pri", "0", "satisfied")]
    assert comparison.undecided == () and comparison.not_compared == ()
