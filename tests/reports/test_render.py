"""The renderers of :mod:`axiometer.reports.render`: each format escapes its own special characters
(and only its renderer does), typed inline parts reach each format as what they are, and a
metric whose name holds ``<=``, ``|``, ``&`` or ``<script>`` reads right in every format."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from axiometer.reports.document import (
    Break, BulletList, Choice, Code, Definition, DefinitionList, Document, Emph, Link, Mark, Paragraph, Row,
    Section, Span, Strong, Table, TableCell, Term, plain, terms,
)
from axiometer.reports.render import FORMATS, REPORT_FORMATS, check_format, formats_of, render
from axiometer.reports.render.latex import escape as latex_escape
from axiometer.reports.render.markdown import escape as markdown_escape
from axiometer.reports.table import format_check, format_table
from axiometer.results import Cell, Check, ErrorInfo, TableResult, TopicRecord

NASTY = "<script>alert(1)</script> a|b & c <= d >= e"


def nasty_table() -> TableResult:
    """One metric, named to break every format's syntax, violating one constraint."""
    check = Check(constraint="Pri", metric=NASTY, params=(), verdict="violated", mode="window")
    cell = Cell(row=NASTY, metric=NASTY, constraint="Pri", verdict="violated", summary="violated",
                checks=(check,))
    return TableResult(rows=(NASTY,), constraints=("Pri",), cells=(cell,), seed=0, mode="default", budget="1 s")


def document(*blocks, **kw) -> Document:
    return Document(title=kw.pop("title", "T"), blocks=tuple(blocks), **kw)


# -- escaping, once per format --------------------------------------------------------------------

def test_latex_escape_writes_comparisons_as_math_and_specials_escaped():
    assert latex_escape("a <= b >= c < d > e") == r"a $\leq$ b $\geq$ c \textless{} d \textgreater{} e"
    assert latex_escape("50% & $x_1$ #2 {y} ~^\\") == (
        r"50\% \& \$x\_1\$ \#2 \{y\} \textasciitilde{}\textasciicircum{}\textbackslash{}")
    assert latex_escape("✓ ✗ ≠ ≤ ≥ × –") == r"\checkmark{} $\times$ $\neq$ $\leq$ $\geq$ $\times$ --"


def test_markdown_escape_escapes_the_pipe_only():
    assert markdown_escape("a|b & <c>") == "a\\|b & <c>"


def test_a_markdown_table_cell_keeps_its_pipe_escaped():
    table = Table(headers=(TableCell(("name",), header=True), TableCell(("x",), header=True)),
                  rows=(Row((TableCell(("a|b",)), TableCell(("1",)))),))
    lines = render(document(table), "markdown").splitlines()
    assert lines[-1].startswith("| a\\|b ") and lines[-1].count(" | ") == 1


def test_text_escapes_nothing():
    out = render(document(Paragraph(parts=(NASTY,))), "text")
    assert NASTY in out


def test_html_escapes_text_attributes_and_code():
    table = Table(headers=(TableCell(("h",), header=True, tip=NASTY),),
                  rows=(Row((TableCell((Code(NASTY),)),)),))
    out = render(document(Section(title=(NASTY,), level=2, id="s", toc="S", children=(table,))), "html")
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert f'title="{"&lt;script&gt;alert(1)&lt;/script&gt; a|b &amp; c &lt;= d &gt;= e"}"' in out
    assert "<code>&lt;script&gt;" in out


# -- inline parts reach each format as what they are -------------------------------------------------

def test_inline_parts_render_by_kind():
    parts = ("x ", Strong(("bold",)), " ", Emph(("it",)), " ", Code("f(x)"), " ", Span(("s",), "muted"), " ",
             Link(("here",), "anchor"), Break("; "), Term("rc", "a relevance"), " ",
             Mark("witness", ("params",), "W~"))
    assert plain(parts) == "x bold it f(x) s here; rc W~"
    assert render(document(Paragraph(parts=parts)), "markdown").splitlines()[-1] == \
        "x **bold** *it* `f(x)` s here; rc W~"
    html = render(document(Paragraph(parts=parts)), "html")
    assert ('<p>x <strong>bold</strong> <em>it</em> <code>f(x)</code> <span class="muted">s</span> '
            '<a href="#anchor">here</a><br>rc W~</p>') in html


def test_latex_writes_a_mark_from_its_verdict_and_flags():
    table = Table(headers=(TableCell(("m",), header=True), TableCell(("Pri",), header=True)),
                  rows=(Row((TableCell(("RBP",)), TableCell((Mark("witness", ("params", "differs"), "W~≠"),)))),),
                  label="tab:x")
    out = render(document(table, preamble=("needs booktabs",)), "latex")
    assert out.startswith("% needs booktabs\n\\begin{table}[t]")
    assert r"RBP & W\textsuperscript{$\sim$}\textsuperscript{$\neq$} \\" in out


def test_terms_are_collected_from_the_blocks_once_in_order():
    blocks = (Paragraph(parts=(Term("rc", "r"), " and ", Strong((Term("rmax", "m"),)))),
              BulletList(items=((Term("rc", "r"),),)))
    assert [t.text for t in terms(blocks)] == ["rc", "rmax"]


def test_a_block_shows_only_in_its_formats():
    doc = document(Paragraph(parts=("everywhere",)), Paragraph(parts=("page only",), formats=("html",)))
    assert "page only" not in render(doc, "text") and "page only" in render(doc, "html")


def test_a_choice_takes_the_first_option_that_fits_the_width():
    wide = Paragraph(parts=("x" * 50,), nowrap=("text",))
    narrow = Paragraph(parts=("short",))
    doc = document(Choice(options=((wide,), (narrow,))))
    assert "x" * 50 in render(doc, "text", width=60)
    assert "short" in render(doc, "text", width=40)
    assert "x" * 50 in render(doc, "html")  # a page has no width: the first option


def test_definition_lists_by_style():
    items = (Definition(("✓",), (Paragraph(parts=("satisfied",)),)),
             Definition(("✗",), (Paragraph(parts=("no",)),)))
    assert render(document(DefinitionList(items=items, title=("Marks",), style="inline"), title=""), "text") == \
        "Marks: ✓ satisfied; ✗ no.\n"
    assert render(document(DefinitionList(items=items, title=(Strong(("Terms",)),)), title=""), "markdown") == \
        "**Terms**:\n\n- ✓: satisfied\n- ✗: no\n"
    assert render(document(DefinitionList(items=items, title=(Strong(("Terms",)),)), title=""), "text") == \
        "Terms:\n  ✓: satisfied\n  ✗: no\n"


# -- one registry of formats ---------------------------------------------------------------------------

def test_every_result_lists_known_formats_and_an_unknown_one_is_refused():
    for result, known in REPORT_FORMATS.items():
        assert set(known) <= set(FORMATS), result
        assert formats_of(result) == known
    with pytest.raises(ValueError, match=r"unknown report format 'pdf'; known: text, markdown, latex, json, html"):
        check_format("check", "pdf")


def test_json_renders_the_documents_data_not_its_text():
    doc = document(Paragraph(parts=("words",)), data=lambda: {"score": float("nan"), "x": [1, 2]})
    assert json.loads(render(doc, "json")) == {"score": None, "x": [1, 2]}
    with pytest.raises(ValueError, match="no JSON form"):
        render(document(Paragraph(parts=("words",))), "json")


# -- a metric's name that breaks every syntax ------------------------------------------------------------

class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


@pytest.mark.parametrize("format", ["text", "markdown", "latex", "html", "json"])
def test_a_nasty_metric_name_reads_right_in_every_format(format):
    out = format_table(nasty_table(), format)
    if format == "text":
        assert NASTY in out
    elif format == "markdown":  # rendered as a reader would, HTML on (issue 29): text, never a tag
        parser = _Collector()
        parser.feed(MarkdownIt("commonmark", {"html": True}).enable("table").render(out))
        assert "script" not in parser.tags
        assert NASTY in "".join(parser.text)  # the matrix's cell, its pipe escaped, reads as written
    elif format == "latex":
        assert (r"\textless{}script\textgreater{}alert(1)\textless{}/script\textgreater{} a|b \& c $\leq$ d "
                r"$\geq$ e") in out
    elif format == "html":
        parser = _Collector()
        parser.feed(out)
        assert "script" not in parser.tags
        assert NASTY in "".join(parser.text)
    else:
        assert json.loads(out)["rows"] == [NASTY]


def _named(name: str, message: str) -> TableResult:
    """One metric named ``name`` whose check errs with ``message`` (what a user's metric may say)."""
    error = ErrorInfo(message=message, ranking=(name,), topic=TopicRecord(("*",), ("1",), ((name, ("1/10",)),)))
    check = Check(constraint="Pri", metric=name, params=(), verdict="error", mode="window", error=error)
    cell = Cell(row=name, metric=name, constraint="Pri", verdict="error", summary="error", checks=(check,))
    return TableResult(rows=(name,), constraints=("Pri",), cells=(cell,), seed=0, mode="default", budget="1 s")


HOSTILE = st.lists(st.sampled_from(["<script>", "</script>", "<img src=x onerror=alert(1)>", "|", "`", "```",
                                    "\n", "\r\n", "[x](javascript:alert(1))", "\\", "*", "_", "#", "a", " ",
                                    "&lt;", "<!--", "-->"]), min_size=1, max_size=8).map("".join)


@settings(max_examples=60, deadline=None)
@given(name=HOSTILE, message=HOSTILE)
def test_hostile_names_and_messages_leave_the_markdown_report_s_structure_intact(name, message):
    name, message = name.strip() or "a", message.strip() or "a"
    tokens = MarkdownIt("commonmark", {"html": True}).enable("table").parse(format_table(_named(name, message),
                                                                                           "markdown"))
    # No element the project did not write: no raw HTML, no link, no image.
    assert not [t for t in tokens if t.type in ("html_block", "html_inline")]
    inline = [child.type for t in tokens if t.children for child in t.children]
    assert not {"html_inline", "link_open", "image"} & set(inline)
    # The matrix: one header row and one body row of two cells (the metric, Pri).
    rows = [t for t in tokens if t.type == "tr_open"]
    first = next(t for t in tokens if t.type == "table_open")
    matrix = tokens[tokens.index(first):next(i for i, t in enumerate(tokens) if t.type == "table_close") + 1]
    cells = [sum(1 for t in matrix[i:] if t.type == "td_open") for i, t in enumerate(matrix) if t.type == "tbody_open"]
    assert rows and cells == [2]


def test_control_characters_in_a_name_are_shown_not_obeyed_in_text_and_latex():
    # Issue 29: an ANSI escape would colour the terminal, a newline split a row, a blank line end a
    # LaTeX cell; each is shown instead.
    name, message = "evil\x1b[31m\nname", "line one\n\nline two\x07"
    text = format_table(_named(name, message), "text")
    assert "\x1b" not in text and "\x07" not in text and "evil\\x1b[31m\\x0aname" in text
    latex = format_table(_named(name, message), "latex")
    assert "\n\n" not in latex.split("\\begin{tabular}")[1].split("\\end{tabular}")[0]
    assert "\x1b" not in latex and "evil\\textbackslash{}x1b[31m name" in latex


@pytest.mark.parametrize("format", ["text", "markdown", "json", "html"])
def test_a_nasty_metric_name_in_a_check_report(format):
    out = format_check(nasty_table(), format)
    if format == "html":
        assert "<script>" not in out and "&lt;script&gt;" in out
    elif format == "json":
        assert json.loads(out)["cells"][0]["metric"] == NASTY
    else:
        assert NASTY.split("|")[0] in out


def test_a_comparison_escapes_names_as_every_other_report_does():
    # compare once had a LaTeX escape of its own, without <= and >= and spelling ^ and ~ apart.
    np = pytest.importorskip("numpy")
    from axiometer.reports.compare import format_comparison
    from axiometer.significance import compare_matrices

    name = "nDCG^2<=x|y"
    comparison = compare_matrices({name: np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])}, ["a&b", "c~d"],
                                  ["1", "2", "3"], resamples=100)
    latex = format_comparison(comparison, "latex")
    assert r" & Run & nDCG\textasciicircum{}2$\leq$x|y \\" in latex
    assert r"a & a\&b & " in latex and r"c\textasciitilde{}d" in latex
    markdown = format_comparison(comparison, "markdown")
    assert "nDCG^2<=x\\|y" in markdown and "| a\\&b" not in markdown
    assert "<td>a&amp;b</td>" in format_comparison(comparison, "html")
