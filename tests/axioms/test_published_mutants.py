"""Reading a published table and comparing a table with it (issue 14, mutation tests of
``axiometer.axioms.published``): the bundled file's text exactly, a malformed data file's one-line
error naming the file and data row, and which of our rows and cells are compared.
"""

from __future__ import annotations

import pytest

import axiometer.axioms.published as published_module
from axiometer.axioms.published import compare_with_published, load_published
from axiometer.core import InputError
from axiometer.results import Cell, Check, TableResult

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


def _cell(row: str, metric: str, constraint: str, verdict: str) -> Cell:
    check = Check(constraint=constraint, metric=metric, params=(), verdict=verdict, mode="window")
    return Cell(row=row, metric=metric, constraint=constraint, verdict=verdict, summary=verdict,
                checks=(check,))


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
