"""Published constraint tables, and how a regenerated table compares with them.

``amigo2018``: Table 1 of Amigó, Spina & Carrillo-de-Albornoz, "An Axiomatic
Analysis of Diversity Evaluation Metrics" (SIGIR 2018), as reconstructed in
definitions §7 from the paper's section 4 prose (the marks were lost in the
text extraction). It is stored as data, ``axiometer/data/amigo2018.tsv``:
one row per metric, one column per constraint, ``1`` (satisfied), ``0`` (not
satisfied, including "undefined for graded relevance") or ``?`` (the prose
does not say, or says both).

:func:`compare_with_published` sets a :class:`~axiometer.results.TableResult`
against it. A cell of ours "holds" when its verdict is ``satisfied`` or
``witness`` (:data:`axiometer.results.HOLDS`); ``violated`` and ``n/a`` do
not hold (the paper counts an undefined metric as not satisfying).
``error`` and ``not run`` cells are not decided and are not counted; cells
the paper marks ``?`` are listed but not counted either. The checker's job is
not to match the table but to explain every difference (definitions §7), so
each difference carries the cell with its counterexample or witness.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from axiometer.core import InputError
from axiometer.metrics import TABLE_ROWS
from axiometer.metrics.resolve import resolve
from axiometer.results import HOLDS, PublishedComparison, Difference, TableResult, Verdict

__all__ = ["PUBLISHED", "PublishedTable", "Difference", "PublishedComparison", "load_published",
           "compare_with_published", "MARKS"]

#: The published tables bundled with axiometer: name -> data file in ``axiometer/data``.
PUBLISHED: dict[str, str] = {"amigo2018": "amigo2018.tsv"}

#: What a published mark means.
MARKS = {"1": "satisfied", "0": "not satisfied", "?": "not stated"}

#: Our verdicts that decide a cell one way or the other.
_DECIDED = frozenset({Verdict.SATISFIED, Verdict.WITNESS, Verdict.VIOLATED, Verdict.NA})


@dataclass(frozen=True)
class PublishedTable:
    """A published table: row titles, constraint ids, and a mark per cell."""

    name: str
    source: str                                   # the data file's comment lines
    rows: tuple[str, ...]
    constraints: tuple[str, ...]
    marks: tuple[tuple[str, tuple[str, ...]], ...]  # (row, marks in constraint order)

    def mark(self, row: str, constraint: str) -> str | None:
        """``"1"``, ``"0"``, ``"?"``, or ``None`` if the table has no such cell."""
        if constraint not in self.constraints:
            return None
        for title, marks in self.marks:
            if title == row:
                return marks[self.constraints.index(constraint)]
        return None


def load_published(name: str = "amigo2018") -> PublishedTable:
    """Read a bundled published table (see :data:`PUBLISHED`) with ``importlib.resources``."""
    if name not in PUBLISHED:
        raise InputError(f"unknown published table {name!r}; known: {', '.join(PUBLISHED)}")
    text = (resources.files("axiometer") / "data" / PUBLISHED[name]).read_text(encoding="utf-8")
    comments, lines = [], []
    for line in text.splitlines():
        if line.startswith("#"):
            comments.append(line.lstrip("# ").rstrip())
        elif line.strip():
            lines.append(line.split("\t"))
    header, body = lines[0], lines[1:]
    constraints = tuple(header[1:])
    marks = []
    for number, fields in enumerate(body, 2):
        if len(fields) != len(header) or any(m not in MARKS for m in fields[1:]):
            raise InputError(f"malformed row {fields!r}", source=f"{PUBLISHED[name]} data row {number}")
        marks.append((fields[0], tuple(fields[1:])))
    return PublishedTable(name, " ".join(comments), tuple(title for title, _ in marks), constraints,
                          tuple(marks))


def _family(metric: str) -> str | None:
    """The family of the built-in metric a name (a spec string) resolves to, or None."""
    try:
        resolved = resolve(metric)
        return None if resolved.scores == "set" else resolved.ranking_metric().family
    except Exception:  # a wrapped function's name need not be a spec string
        return None


def _published_row(row: str, metric: str, table: PublishedTable) -> str | None:
    """The published row our row stands for: the same title, or the same metric family."""
    if row in table.rows:
        return row
    family = _family(metric)
    if family is None:
        return None
    for title, spec in TABLE_ROWS:
        if title in table.rows and _family(spec) == family:
            return title
    return None


def compare_with_published(result: TableResult, table: str = "amigo2018") -> PublishedComparison:
    """Compare ``result`` with the published table ``table`` cell by cell (see the module docstring).

    Rows are matched by title, or else by metric family (``nDCG@20`` is
    compared with the published ``nDCG@k`` row); constraints by id.
    """
    published = load_published(table)
    agree = total = 0
    differences, undecided, not_compared = [], [], []
    unmatched = []
    for row in result.rows:
        cells = [c for c in result.cells if c.row == row]
        target = _published_row(row, cells[0].metric, published) if cells else None
        if target is None:
            unmatched.append(row)
            continue
        for cell in cells:
            mark = published.mark(target, cell.constraint)
            if mark is None:
                continue
            entry = Difference(row, target, cell.constraint, mark, cell.verdict, cell)
            if mark == "?":
                undecided.append(entry)
            elif cell.verdict not in _DECIDED:
                not_compared.append(entry)
            else:
                total += 1
                if (cell.verdict in HOLDS) == (mark == "1"):
                    agree += 1
                else:
                    differences.append(entry)
    return PublishedComparison(table, agree, total, tuple(differences), tuple(undecided), tuple(not_compared),
                      tuple(unmatched))
