"""Issue 29: every result's report keeps its structure, in every format, whatever a user names things.

Each result type the reports render is built by a small real run (:mod:`tests.reports.hostile_results`);
hypothesis puts hostile text (``<script>``, ``|``, backticks and fences, line breaks, ``\\x1b``, LaTeX's
and Markdown's special characters) in place of every metric name, topic, document and run id, error
message and printed output, and each format is parsed back:

- Markdown, by markdown-it with HTML on: no HTML the project did not write, the same blocks as the
  report of plainly named runs (at any width), and every table with the document's rows and columns,
  each cell reading as its text;
- HTML, by Python's HTML parser: the same elements as the plain report, the hostile text back as text;
- LaTeX, by a small tokenizer: each tabular has the document's rows and cells, no special character
  unescaped, braces and math balanced, no command the project does not write;
- text: no control character, one line per line of the plain report;
- JSON: it loads, with the hostile text in it.

Pictures are drawn in their own test, with fewer examples (a page of them takes seconds): each is
well-formed SVG with only the elements the plain report's pictures have.
"""

from __future__ import annotations

import functools
import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator, Sequence
from html.parser import HTMLParser
from typing import Any
from unittest import mock

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from axiometer.reports.document import (
    Block, Choice, DefinitionList, Document, Inlines, Sup, Table, plain, walk,
)
from axiometer.reports.render import REPORT_FORMATS, render
from axiometer.reports.render.markdown import MarkdownRenderer
from axiometer.reports.render.text import one_line, visible
from tests.reports.hostile_results import SAMPLES, Sample

#: Pieces of hostile text: markup of every format, line breaks and terminal controls.
PIECES = ["<script>", "</script>", "<img src=x onerror=alert(1)>", "<b>", "|", "`", "```", "~~~", "\n", "\r\n",
          "\n\n", "\u2028", "\x1b[31m", "\x07", "\t", "[x](javascript:alert(1))", "\\", "\\\\", "*", "**", "_",
          "#", "# ", "- ", "> ", "1. ", "---", "===", "    ", "&", "&lt;", "&amp;", "%", "$", "$x$", "{", "}",
          "^", "~", "<", ">", "<=", ">=", "<!--", "-->", "'", '"', "\\input{x}", "\\\\end{tabular}", "a", " "]

HOSTILE = st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map("".join)

#: More than any sample has sentinels; each draw is unique, so runs keep distinct names.
TEXTS = st.lists(HOSTILE, min_size=16, max_size=16, unique=True)

#: Control characters (a tab and a line feed aside): what no report may write.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")

#: Wide enough that nothing wraps (lines compare one to one); narrow enough to wrap everything.
WIDE, NARROW = 100_000, 40


class Plain:
    """The report of a sample as its run named things (the sentinels), each format rendered once:
    what the hostile report's structure is compared with."""

    def __init__(self, sample: Sample) -> None:
        self.sample = sample
        self.document = sample.document(sample.result, NARROW)

    @functools.cache
    def render(self, format: str, width: int = NARROW) -> str:
        with no_pictures():
            return render(self.document, format, width)

    def shown(self, texts: Sequence[str], format: str, width: int = NARROW) -> list[str]:
        """The hostile texts standing for the sentinels this format's plain report shows (all of them
        in JSON; elsewhere not those it quotes in a form of its own)."""
        out = self.render(format, width)
        return [hostile for sentinel, hostile in zip(self.sample.sentinels, texts)
                if sentinel in out and (format == "json" or sentinel not in self.sample.quoted)]


class _Samples(dict[str, Plain]):
    """The samples' plain reports, by kind; short in a failing example's report."""

    def __repr__(self) -> str:
        return "<samples>"


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> _Samples:
    directory = tmp_path_factory.mktemp("campaign")
    return _Samples({kind: Plain(make(directory)) for kind, make in SAMPLES.items()})


def test_every_result_the_reports_write_has_a_sample():
    assert set(SAMPLES) == set(REPORT_FORMATS)


def no_pictures() -> Any:
    """Pages without drawing (their own test draws them): a picture is an empty SVG in a figure."""
    from axiometer.reports.html import figure

    return mock.patch("axiometer.reports.html.picture",
                      lambda draw, prefix, caption: figure('<svg role="img"></svg>', caption))


# -- Markdown ------------------------------------------------------------------------------------

def markdown_tokens(text: str) -> list[Token]:
    return MarkdownIt("commonmark", {"html": True}).enable("table").parse(text)


class _FirstChoice(MarkdownRenderer):
    """Markdown that always takes a choice's first layout, so that widths compare the same blocks."""

    def choose(self, choice: Choice) -> Sequence[Block]:
        return choice.options[0]


def _blocks(tokens: list[Token]) -> list[str]:
    return [f"{t.type}:{t.tag}" for t in tokens if t.type != "inline"]


def _html(tokens: list[Token]) -> list[str]:
    """The raw HTML, links and images in ``tokens``: what a user's text must never make."""
    inline = [c for t in tokens for c in t.children or ()]
    return [t.content.strip() if t.type.startswith("html") else t.type for t in [*tokens, *inline]
            if t.type in ("html_block", "html_inline", "link_open", "image")]


def _inline_text(token: Token) -> str:
    out = []
    for child in token.children or ():
        if child.type in ("text", "code_inline"):
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append(" ")
    return "".join(out)


def _read(parts: Inlines) -> str:
    """What a cell reads as, on one line, spaces collapsed (a Markdown superscript keeps its letters)."""
    text = plain(tuple(p.text if isinstance(p, Sup) else p for p in parts))
    return " ".join(one_line(text).split())


def expected_tables(document: Document, format: str) -> list[list[list[str]]]:
    """Each table the format writes, in order, as rows of cell texts (the header row first)."""
    tables = []
    for block in walk(document.blocks, format):
        if isinstance(block, Table):
            tables.append([[_read(c.parts) for c in block.headers],
                           *([_read(c.parts) for c in row.cells] for row in block.rows)])
        elif isinstance(block, DefinitionList) and block.style == "fields" and format == "markdown":
            tables.append([["", ""], *([_read(d.term), _read(d.descriptions[0].parts)] for d in block.items)])
    return tables


def markdown_tables(tokens: list[Token]) -> list[list[list[str]]]:
    tables: list[list[list[str]]] = []
    for k, token in enumerate(tokens):
        if token.type == "table_open":
            tables.append([])
        elif token.type == "tr_open":
            tables[-1].append([])
        elif token.type in ("th_open", "td_open"):
            tables[-1][-1].append(" ".join(_inline_text(tokens[k + 1]).split()))
    return tables


def check_markdown(document: Document, plain: Plain) -> None:
    tokens = markdown_tokens(render(document, "markdown", WIDE))
    plain_tokens = markdown_tokens(plain.render("markdown", WIDE))
    assert set(_html(tokens)) <= set(_html(plain_tokens)), "HTML the project did not write"
    assert _blocks(tokens) == _blocks(plain_tokens), "the blocks differ from the plain report's"
    assert markdown_tables(tokens) == expected_tables(document, "markdown"), "a table reads otherwise"
    # Wrapped to a narrow width, no line a user's text starts reads as a heading, a list or a fence.
    first_wide = markdown_tokens(_FirstChoice(WIDE).render(document))
    first_narrow = markdown_tokens(_FirstChoice(NARROW).render(document))
    assert _blocks(first_narrow) == _blocks(first_wide), "wrapped lines make blocks of their own"
    assert set(_html(first_narrow)) <= set(_html(plain_tokens)), "HTML the project did not write"


# -- HTML ----------------------------------------------------------------------------------------

class _Page(HTMLParser):
    """A page's elements (with their attributes' names) and text, attribute values included;
    pictures' insides left out (their own test reads them)."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []
        self._svg = 0  # how deep inside a picture

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._svg or tag == "svg":
            self._svg += 1
            return
        self.tags.append(tag + "".join(sorted(f" {name}" for name, _ in attrs)))
        self.text += [value for _, value in attrs if value]

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self._svg:
            self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self._svg = max(0, self._svg - 1)

    def handle_data(self, data: str) -> None:
        if not self._svg:
            self.text.append(data)


def parse_page(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    page.close()
    return page


def check_html(document: Document, plain: Plain, shown: Sequence[str]) -> None:
    page = parse_page(render(document, "html"))
    assert page.tags == parse_page(plain.render("html")).tags, "the elements differ from the plain page's"
    text = "\n".join(page.text)
    assert not [hostile for hostile in shown if hostile not in text], "the hostile text does not read back"


# -- LaTeX ---------------------------------------------------------------------------------------

_LATEX = re.compile(r"\\[A-Za-z]+|\\.|[{}$&%#^_~]|[^\\{}$&%#^_~]+", re.S)

#: What the LaTeX escape writes for a user's special characters.
_ESCAPES = {"\\textbackslash", "\\textless", "\\textgreater", "\\textasciitilde", "\\textasciicircum", "\\leq",
            "\\geq", "\\times", "\\neq", "\\checkmark", "\\&", "\\%", "\\$", "\\#", "\\_", "\\{", "\\}"}


def latex_line(line: str, depth: int = 0) -> tuple[list[str], int, int]:
    """The commands and bare ``~`` of one line of LaTeX (the project's no-break spaces), the number
    of its cell separators, and the depth of braces after it (``depth`` before it); asserts that no
    ``%``, ``#`` or control character is bare, no brace closes what it did not open, and math
    closes on the line it opens, ``^`` and ``_`` inside it."""
    math, commands, separators = False, [], 0
    for token in _LATEX.findall(line):
        if token.startswith("\\"):
            commands.append(token)
        elif token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            assert depth >= 0, f"a brace closes what it did not open: {line!r}"
        elif token == "$":
            math = not math
        elif token == "&":
            separators += 1
        elif token in ("^", "_"):
            assert math, f"{token} outside math: {line!r}"
        elif token == "~":
            commands.append(token)
        else:
            assert token not in ("%", "#"), f"a bare {token}: {line!r}"
            assert not _CONTROL.search(token), f"a control character: {line!r}"
    assert not math, f"math left open: {line!r}"
    return commands, separators, depth


def latex_tables(text: str) -> Iterator[list[int]]:
    """Each tabular's rows, as the number of cell separators in each (a row is one line)."""
    for table in text.split("\\begin{tabular}")[1:]:
        rows = table.split("\\end{tabular}")[0].split("\n")[1:]
        for row in rows:
            assert latex_line(row)[2] == 0, f"a row leaves a brace open: {row!r}"
        yield [latex_line(row)[1] for row in rows if row.endswith(" \\\\")]


def _latex_commands(text: str) -> Counter[str]:
    """Every command and bare ``~`` of ``text`` outside its comment lines, counted; asserts that
    braces balance."""
    commands: Counter[str] = Counter()
    depth = 0
    for line in text.splitlines():
        if not line.startswith("%"):
            found, _, depth = latex_line(line, depth)
            commands.update(found)
    assert depth == 0, "a brace left open"
    return commands


def check_latex(document: Document, plain: Plain) -> None:
    text = render(document, "latex")
    comments = [line for line in text.splitlines() if line.startswith("%")]
    assert len(comments) == len(document.preamble) + len(document.epilogue), "a comment the project did not write"
    commands, plain_commands = _latex_commands(text), _latex_commands(plain.render("latex"))
    assert set(commands) <= set(plain_commands) | _ESCAPES, "a command the project does not write"
    assert commands["~"] == plain_commands["~"], "a bare ~ the project did not write"
    tables = [b for b in document.blocks if b.shown_in("latex") and isinstance(b, Table)]
    assert list(latex_tables(text)) == [[len(t.headers) - 1] + [len(r.cells) - 1 for r in t.rows] for t in tables]


# -- text and JSON -------------------------------------------------------------------------------

def check_text(document: Document, plain: Plain, shown: Sequence[str]) -> None:
    assert not _CONTROL.search(render(document, "text", NARROW)), "a control character reaches the terminal"
    wide = render(document, "text", WIDE)
    assert not _CONTROL.search(wide), "a control character reaches the terminal"
    assert len(wide.splitlines()) == len(plain.render("text", WIDE).splitlines()), "a line breaks in two"
    words = " ".join(wide.split())
    assert not [hostile for hostile in shown if " ".join(visible(hostile).split()) not in words]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def check_json(document: Document, shown: Sequence[str]) -> None:
    strings = "\n".join(_strings(json.loads(render(document, "json"))))
    assert not [hostile for hostile in shown if hostile not in strings], "the hostile text does not read back"


# -- every result, every format ------------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(SAMPLES))
@given(texts=TEXTS)
def test_hostile_names_ids_and_messages_leave_every_format_s_structure_intact(samples, kind, texts):
    plain = samples[kind]
    document = plain.sample.document(plain.sample.hostile(texts), NARROW)
    formats = REPORT_FORMATS[kind]
    with no_pictures():
        if "markdown" in formats:
            check_markdown(document, plain)
        if "html" in formats:
            check_html(document, plain, plain.shown(texts, "html"))
        if "latex" in formats:
            check_latex(document, plain)
        if "text" in formats:
            check_text(document, plain, plain.shown(texts, "text", WIDE))
        if "json" in formats:
            check_json(document, plain.shown(texts, "json"))


# -- pictures ------------------------------------------------------------------------------------

def drawn(document: Document) -> tuple[str, list[ET.Element]]:
    """The page of ``document`` and each of its pictures as an SVG file has it (:func:`to_svg`'s
    text, which a page inlines), parsed as the XML it must be."""
    from axiometer.reports import plots

    svgs: list[str] = []
    to_svg = plots.to_svg

    def kept(figure: Any, prefix: str | None = None) -> str:
        svgs.append(to_svg(figure, prefix))
        return svgs[-1]

    with mock.patch.object(plots, "to_svg", kept):
        page = render(document, "html")
    return page, [ET.fromstring(svg) for svg in svgs]


def _tags(pictures: list[ET.Element]) -> set[str]:
    return {element.tag for picture in pictures for element in picture.iter()}


#: The results whose pages have pictures.
_PICTURED = ["intrinsic", "scores", "table"]


@functools.cache
def _plain_pictures(plain: Plain) -> tuple[int, set[str]]:
    """How many pictures the plain page has, and their elements."""
    found = drawn(plain.document)[1]
    return len(found), _tags(found)


#: Names matplotlib would read as mathtext (and fail to draw), each with a control character XML
#: forbids (which matplotlib writes in a page's <text>, or in a comment beside a file's glyphs), and
#: the end of a comment.
MATHTEXT = [f"{k}{name}-->" for k, name in
            enumerate(["$x^$\x07", "$\\notacommand$\x1b[31m", "a$b$c\x0b", "$\\frac{$\x00"] * 4)]


@pytest.mark.parametrize("kind", _PICTURED)
@settings(max_examples=2)  # a page of pictures takes seconds to draw
@given(texts=TEXTS)
@example(texts=MATHTEXT)
def test_pictures_of_hostile_names_are_drawn_as_well_formed_svg(samples, kind, texts):
    plain = samples[kind]
    page, found = drawn(plain.sample.document(plain.sample.hostile(texts), NARROW))
    count, tags = _plain_pictures(plain)
    assert count and len(found) == count and "(no picture" not in page, "a picture was not drawn"
    assert _tags(found) <= tags, "an element the plain pictures do not have"
