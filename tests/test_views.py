"""How a result shows in a notebook (:mod:`axiometer.views`): the registry its HTML view comes from,
the loader the package root installs, and ``to_pandas()``'s one error when pandas is missing.

The views themselves are tested in ``tests/reports/test_notebook.py``, each result's rows with its
module (``tests/test_results.py``, ``tests/test_scoring.py``, ...).
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

import axiometer
from axiometer import views
from axiometer.results import TableResult
from axiometer.views import PANDAS_MISSING, Tabular, param_columns
from tests.reports.test_table import sample_table


@dataclasses.dataclass(frozen=True)
class Tally(Tabular):
    """A result of no registered type: two counts."""

    hits: int
    misses: int

    def to_rows(self) -> views.Rows:
        return [{"kind": "hits", "count": self.hits}, {"kind": "misses", "count": self.misses}]


def test_a_result_with_no_registered_view_says_so_and_shows_its_text():
    html = Tally(3, 1)._repr_html_()
    assert "No HTML view is registered for Tally" in html and "Tally(hits=3, misses=1)" in html


def test_the_first_missing_view_runs_the_loader_once(monkeypatch):
    calls = []
    monkeypatch.setattr(views, "_VIEWS", {})
    monkeypatch.setattr(views, "_LOADERS", [lambda: calls.append(1) or views.register(Tally, lambda t: "<p>tally</p>")])
    assert Tally(1, 2)._repr_html_() == "<p>tally</p>"
    assert Tally(1, 2)._repr_html_() == "<p>tally</p>" and calls == [1]


def test_the_package_root_registers_the_reports_views_when_first_asked(monkeypatch):
    """What a process that never imported the reports gets: the root's loader registers them."""
    monkeypatch.setattr(views, "_VIEWS", {})
    monkeypatch.setattr(views, "_LOADERS", [axiometer._notebook_views])
    html = sample_table()._repr_html_()
    assert html.startswith(f'<div class="{views.CSS_CLASS}">') and "<table" in html and not views._LOADERS
    assert views._find(TableResult) is not None


def test_a_result_module_imported_alone_shows_its_view():
    """``axiometer.scoring`` alone, in a fresh interpreter: nothing imported the reports, the view
    still comes (the package root is imported first and installs the loader)."""
    probe = ("import sys; from axiometer.scoring import ScoreResult, Mean;"
             "assert 'axiometer.reports.notebook' not in sys.modules;"
             "r = ScoreResult(('a',), ('P@5',), ('t1',), (), (Mean('a', 'P@5', 0.5),), {}, {});"
             "print(r._repr_html_()[:40])")
    src = Path(__file__).resolve().parents[1] / "src"
    done = subprocess.run([sys.executable, "-c", probe], env={"PYTHONPATH": str(src), "PATH": ""},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f'<div class="{views.CSS_CLASS}">')


def test_to_pandas_without_pandas_is_one_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` now raises ImportError
    with pytest.raises(ImportError) as raised:
        Tally(3, 1).to_pandas()
    assert str(raised.value) == PANDAS_MISSING and "pip install pandas" in PANDAS_MISSING
    assert raised.value.__cause__ is None and raised.value.__suppress_context__  # one error, not a chain
    assert Tally(3, 1).to_rows()[0] == {"kind": "hits", "count": 3}  # the rows need no pandas


def test_to_pandas_has_a_row_per_row_and_a_column_per_key():
    frame = Tally(3, 1).to_pandas()
    assert list(frame.columns) == ["kind", "count"] and frame["count"].tolist() == [3, 1]


def test_a_parameter_named_like_a_column_gets_a_prefix_the_others_keep_their_names():
    assert param_columns((("p", 0.5), ("metric", "x")), {"metric", "verdict"}) == {"p": 0.5, "param_metric": "x"}


def test_a_type_with_no_rows_says_so():
    with pytest.raises(NotImplementedError, match="Bare has no tidy rows"):
        type("Bare", (Tabular,), {})().to_rows()
