"""Every result's notebook view (``_repr_html_``, :mod:`axiometer.reports.notebook`): a compact,
self-contained HTML fragment with the result's table, read back with Python's HTML parser.

A fragment is one ``div`` of class ``axiometer-nb`` holding its style and the result: no page frame
(``html``, ``head``, ``body``), no script, every style rule scoped to that class. The constraint
table's view shows the matrix with its legend and, where a verdict depends on the parameters, the
verdict at each setting (the default marked) and the boundaries. Whatever a user names things, the
text comes back as text (the hostile samples of :mod:`tests.reports.hostile_results`).
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from axiometer.agreement.result import Agreement, AgreementResult, AuditResult, AuditRow, PropertyCheck
from axiometer.evidence import Evidence, Proof, Strength
from axiometer.reports.notebook import STYLE
from axiometer.reports.numbers import number
from axiometer.reports.table.cells import FLAGS, MARKS, boundary_sentence
from axiometer.views import CSS_CLASS
from tests.reports.hostile_results import SAMPLES
from tests.reports.test_table import boundary_table, sample_table

#: Elements that have no end tag.
VOID = {"br", "meta", "img", "hr", "input", "link", "col", "wbr"}


class Fragment(HTMLParser):
    """A fragment parsed: its elements in order (tag, attributes), its text, its tables' cells, and
    whether every element was closed in order."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.open: list[str] = []
        self.balanced = True
        self.texts: list[str] = []
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None
        self.feed(text)
        self.close()
        self.balanced = self.balanced and not self.open

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open.pop() != tag:
            self.balanced = False
        if tag in ("td", "th") and self._cell is not None and self.tables and self.tables[-1]:
            self.tables[-1][-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if "style" in self.open:
            return
        self.texts.append(data)
        if self._cell is not None:
            self._cell.append(data)

    @property
    def tags(self) -> list[str]:
        return [tag for tag, _ in self.elements]

    @property
    def text(self) -> str:
        return "".join(self.texts)


def assert_fragment(html: str) -> Fragment:
    """``html`` is one balanced ``div.axiometer-nb`` holding a table, without page frame or script."""
    parsed = Fragment(html)
    assert parsed.balanced, html
    assert parsed.elements[0] == ("div", {"class": CSS_CLASS})
    assert html.rstrip().endswith("</div>") and parsed.tags.count("div") >= 1
    assert not {"html", "head", "body", "script", "iframe", "link"} & set(parsed.tags)
    assert "table" in parsed.tags
    assert not any(name.startswith("on") for _, attrs in parsed.elements for name in attrs)  # no handlers
    return parsed


# -- results built by hand (cheap) ---------------------------------------------------------------

def _agreement(name: str = "my_rr") -> AgreementResult:
    return AgreementResult(implementation=name, provider=f"{name} (per query)", metric="RR",
                           agree=Agreement.AGREES, convention=None, case=None,
                           properties=(PropertyCheck("range", "every value in [0, 1]", True),
                                       PropertyCheck("defined", "a number on every query", False, detail=name)),
                           queries=5, searched=1, tolerance=1e-9, seed=0, seconds=0.1)


def _audit(name: str = "peer") -> AuditResult:
    return AuditResult(rows=(AuditRow(name, f"{name}@5", "P@5", None, f"{name} raised"),), queries=5, seed=0)


PROOF = Proof(scope="every ranking length", procedure="a lemma", structures=0, paths=0, seconds=0.5,
              rho=Fraction(1, 10))
EVIDENCE = Evidence(Strength.PROVED, "every case with up to 4 documents", 240, 1500, True, PROOF)


def _sample(kind: str, tmp_path: Path) -> Any:
    """The result of a hostile sample (its first part when the sample holds several)."""
    result = SAMPLES[kind](tmp_path).result
    return result[0] if isinstance(result, tuple) else result


# -- every view is a fragment ------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["check", "scores", "compare", "meta", "intrinsic", "unanimity"])
def test_every_results_view_is_a_self_contained_fragment_with_a_table(kind, tmp_path):
    result = _sample(kind, tmp_path)
    if kind == "unanimity":
        result = result[0]  # one metric's Unanimity
    assert_fragment(result._repr_html_())


@pytest.mark.parametrize("result", [sample_table(), _agreement(), _audit(), EVIDENCE, PROOF,
                                    dataclasses.replace(EVIDENCE, strength=Strength.SEARCHED, proof=None)],
                         ids=["table", "agree", "audit", "evidence", "proof", "searched"])
def test_hand_built_results_show_as_fragments_too(result):
    parsed = assert_fragment(result._repr_html_())
    assert parsed.text.strip()


def test_the_parametric_analysis_shows_each_value_where_two_outputs_tie(tmp_path):
    parametric = SAMPLES["intrinsic"](tmp_path).result[1]
    parsed = assert_fragment(parametric._repr_html_())
    assert parametric.exceptional
    for _, decimal, _, _ in parametric.exceptional:
        assert number(decimal) in parsed.text


def test_the_style_applies_inside_the_fragment_only():
    selectors = [s.strip() for rule in re.findall(r"([^{}]+)\{[^{}]*\}", STYLE) for s in rule.split(",")]
    assert selectors and all(s.startswith(f".{CSS_CLASS}") for s in selectors), selectors


def test_a_fragment_has_no_ids_so_two_in_one_notebook_do_not_clash(tmp_path):
    html = _sample("scores", tmp_path)._repr_html_() + sample_table()._repr_html_()
    assert not [attrs for _, attrs in Fragment(html).elements if "id" in attrs]


# -- the constraint table -------------------------------------------------------------------------

def test_the_matrix_has_a_mark_per_cell_and_the_legend_explains_each_mark_used():
    table = sample_table()
    html = table._repr_html_()
    matrix = assert_fragment(html).tables[0]
    assert matrix[0] == ["metric", *table.constraints]
    assert [row[0] for row in matrix[1:]] == list(table.rows)
    explained = {unescape(term) for term in re.findall(r"<dt>(.*?)</dt>", html)}
    for mark in (m for row in matrix[1:] for m in row[1:] if m):
        verdict = max((v for v in MARKS.values() if mark.startswith(v)), key=len)
        assert verdict in explained and set(mark[len(verdict):]) <= explained, (mark, explained)


def test_a_verdict_that_depends_on_the_parameters_shows_its_verdict_at_each_setting():
    table = sample_table()
    dependent = table.cell("RBP", "DeepTh")
    parsed = assert_fragment(table._repr_html_())
    assert FLAGS["params"] in "".join(parsed.tables[0][2])            # the ~ on the matrix's RBP row
    (settings,) = [t for t in parsed.tables[1:] if t[0] == ["p", "DeepTh"]]
    assert len(settings) - 1 == len(dependent.checks)                  # a row per setting checked
    assert [row[0].split()[0] for row in settings[1:]] == ["0.5", "0.8"]  # in the parameter's order
    default = next(row for row in settings[1:] if "default" in row[0])
    assert default[0].startswith("0.8")                                # RBP(p=0.8) is the row's own
    assert dependent.summary in parsed.text


def test_located_boundaries_are_each_said_in_a_sentence():
    table = boundary_table()
    parsed = assert_fragment(table._repr_html_())
    for cell in table.cells:
        for boundary in cell.boundaries:
            assert boundary_sentence(boundary) in parsed.text


def test_a_table_without_parameter_dependence_has_no_settings_section():
    table = sample_table()
    plain = dataclasses.replace(table, cells=tuple(c for c in table.cells if len(c.checks) <= 1),
                                rows=("P@k",), constraints=("Pri", "DeepTh", "Red"))
    parsed = assert_fragment(plain._repr_html_())
    assert len(parsed.tables) == 1 and "depends on the parameters" not in parsed.text


# -- hostile names ---------------------------------------------------------------------------------

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>&amp;'


@pytest.mark.parametrize("kind", ["check", "scores", "compare", "meta", "intrinsic", "unanimity"])
def test_a_hostile_name_comes_back_as_text(kind, tmp_path):
    sample = SAMPLES[kind](tmp_path)
    texts = [f"{HOSTILE}{k}" for k in range(len(sample.sentinels))]
    result = sample.hostile(texts)
    result = result[0] if isinstance(result, tuple) else result
    if kind == "unanimity":  # the results of every metric: the one a user named
        result = next(one for one in result if HOSTILE in one.metric)
    html = result._repr_html_()
    parsed = assert_fragment(html)
    assert "<script>" not in html and "<img" not in html
    shown = [t for t in texts if t in parsed.text]
    assert shown, "the view shows none of the names the result holds"


@pytest.mark.parametrize("make", [_agreement, _audit], ids=["agree", "audit"])
def test_a_hostile_implementation_name_comes_back_as_text(make):
    html = make(HOSTILE)._repr_html_()
    parsed = assert_fragment(html)
    assert "<script>" not in html and HOSTILE in parsed.text


def test_a_hostile_parameter_value_comes_back_as_text():
    table = sample_table()
    cells = tuple(dataclasses.replace(c, checks=tuple(dataclasses.replace(k, params=((HOSTILE, k.metric),))
                                                      for k in c.checks)) for c in table.cells)
    html = dataclasses.replace(table, cells=cells)._repr_html_()
    assert "<script>" not in html and HOSTILE in assert_fragment(html).text
