"""One document per result, which every format's renderer writes (:mod:`axiometer.reports.render`).

A result's report is built once, as a :class:`Document`: sections (a title
and a level), paragraphs, tables of typed cells, definition lists (a legend,
a glossary), figures (a callable that draws, with its caption) and
preformatted blocks. Text inside them is a sequence of *inline parts*, typed
so that a renderer knows what each piece is — a glossary :class:`Term`, a
verdict's :class:`Mark`, a :class:`Number`, :class:`Code`, a :class:`Link` —
instead of reading it back out of text. Escaping is the renderers' business
alone: the text in a document is what a reader sees.

Where the formats of a report still say different things (the HTML page
draws each counterexample; the text report lists it line by line), a block
names the formats that show it (``formats``); every other block shows in
all of them. A few fields are layout hints that keep each report's bytes as
they were (a renderer may ignore them): ``tight`` (no blank line before the
block in these formats), ``nowrap``, a list's ``marker``, a table's
``simple``/``aligned`` layouts, :class:`Lines` (where an HTML container
breaks its source lines) and :class:`JsonStyle`. Each is a place where the
formats could later converge, as an output change of its own.

The JSON of a result is data, not a document: :attr:`Document.data` gives
it, and the JSON renderer writes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Union

from axiometer.results import Verdict

if TYPE_CHECKING:  # matplotlib loads only when a figure is drawn
    from matplotlib.figure import Figure as Drawing

__all__ = ["Inline", "Inlines", "Code", "Strong", "Emph", "Span", "Link", "Mark", "Term", "Number",
           "Math", "Sup", "Break", "Block", "Lines", "ONE_LINE", "Paragraph", "Section", "Group", "BulletList",
           "Definition", "DefinitionList", "TableCell", "Row", "Table", "Figure", "Preformatted", "Choice",
           "JsonStyle", "Document", "inlines", "plain", "walk", "terms"]


# -- inline parts ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Code:
    """Code or a formula, shown in a fixed-width font where the format has one."""
    text: str


@dataclass(frozen=True)
class Strong:
    """Parts said with emphasis (bold)."""
    parts: Inlines


@dataclass(frozen=True)
class Emph:
    """Parts in italics."""
    parts: Inlines


@dataclass(frozen=True)
class Span:
    """Parts with a style of their own (``css``: an HTML class: ``muted``, ``fails``, ``badge ...``)."""
    parts: Inlines
    css: str


@dataclass(frozen=True)
class Link:
    """Parts that lead to ``target``, the id of a block of the same document."""
    parts: Inlines
    target: str


@dataclass(frozen=True)
class Mark:
    """A verdict's mark in a constraint table: the verdict, its flags (keys of
    :data:`axiometer.reports.table.cells.FLAGS`, in order) and whether the published table leaves
    the cell open; ``symbol`` is its text (``W~``, ``✗†≠``), which text formats print as is. A
    legend's flag alone has no verdict (None)."""
    verdict: Verdict | None
    flags: tuple[str, ...]
    symbol: str


@dataclass(frozen=True)
class Term:
    """A word the document's glossary explains (``rc``, ``rmax``, ``small scope``)."""
    text: str
    meaning: str


@dataclass(frozen=True)
class Number:
    """A value, with the text it prints as (:func:`axiometer.reports.numbers.number`)."""
    value: float | int | Fraction | str | None
    text: str


@dataclass(frozen=True)
class Math:
    """A formula: LaTeX writes ``latex`` in math mode, the other formats ``text``."""
    latex: str
    text: str


@dataclass(frozen=True)
class Sup:
    """Superscript text (the labels of the runs a run beats); ``title`` says what it means (a
    page's tooltip). Plain text writes it in Unicode superscript letters."""
    text: str
    title: str = ""


@dataclass(frozen=True)
class Break:
    """A line break inside a paragraph or a cell (between reasons listed in one cell)."""
    separator: str = "; "


Inline = Union[str, Code, Strong, Emph, Span, Link, Mark, Term, Number, Math, Sup, Break]
Inlines = tuple[Inline, ...]


def inlines(*parts: Inline | Iterable[Inline]) -> Inlines:
    """``parts`` flattened to a tuple (a ``str`` is one part, not a sequence of characters)."""
    out: list[Inline] = []
    for part in parts:
        if isinstance(part, (str, Code, Strong, Emph, Span, Link, Mark, Term, Number, Math, Sup, Break)):
            out.append(part)
        else:
            out.extend(part)
    return tuple(out)


#: Plain text's superscript letters and digits (a "," between labels becomes "·").
_SUPERSCRIPT = dict(zip("abcdefghijklmnoprstuvwxyz0123456789", "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ⁰¹²³⁴⁵⁶⁷⁸⁹"))


def plain(parts: Inlines | str) -> str:
    """What ``parts`` read as, without any styling (the text formats' reading)."""
    if isinstance(parts, str):
        return parts
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, (Code, Term, Number, Math)):
            out.append(part.text)
        elif isinstance(part, Sup):
            out.append("".join(_SUPERSCRIPT.get(c, "·" if c == "," else c) for c in part.text))
        elif isinstance(part, Mark):
            out.append(part.symbol)
        elif isinstance(part, Break):
            out.append(part.separator)
        else:
            out.append(plain(part.parts))
    return "".join(out)


# -- blocks ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Lines:
    """Where an HTML container starts new lines of its source (browsers ignore them; kept so that a
    page's bytes stay as they were): after its opening tag, after its heading, between its
    children, before its closing tag."""
    open: bool = False
    heading: bool = True
    between: bool = True
    close: bool = True


#: No line breaks inside: the container is one line of the page's source.
ONE_LINE = Lines(open=False, heading=False, between=False, close=False)


@dataclass(frozen=True, kw_only=True)
class _Block:
    #: The formats that show the block (``None``: every format).
    formats: tuple[str, ...] | None = None
    #: Formats in which no blank line separates the block from the one before it.
    tight: tuple[str, ...] = ()

    def shown_in(self, format: str) -> bool:
        return self.formats is None or format in self.formats


@dataclass(frozen=True, kw_only=True)
class Paragraph(_Block):
    """Running text; ``hang`` is how far a text format indents its continuation lines."""
    parts: Inlines
    css: str = ""
    hang: int = 4
    #: A run-in label (``Categories``): written ``label: text``; text formats hang continuation
    #: lines under the text after it, Markdown two spaces.
    label: str = ""
    #: Formats that print the paragraph on one line, however long.
    nowrap: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Section(_Block):
    """A titled part of the document. ``toc`` is its label in the page's table of contents (none:
    not listed); ``title_formats`` the formats that print the title (``None``: all); ``run_in``: a
    text format runs the title into the first paragraph (``Boundaries: where ...``)."""
    title: Inlines
    level: int
    children: tuple[Block, ...]
    id: str = ""
    css: str = ""
    toc: str = ""
    title_formats: tuple[str, ...] | None = None
    run_in: bool = False
    #: Text formats end the title with a colon (``Details:``).
    colon: bool = False
    lines: Lines = Lines()
    #: The HTML element (``section``, ``div`` for a titled part of a section, or none: a heading
    #: over blocks of the section around it); ``details``: folded (closed until opened), the title
    #: its summary and the id its body's, so that following a link to the id opens it (a browser
    #: opens the closed ``details`` that holds a link's target).
    tag: str = "section"


@dataclass(frozen=True, kw_only=True)
class Group(_Block):
    """Blocks kept together (an HTML ``div``: a counterexample, a pair of rankings side by side)."""
    children: tuple[Block, ...]
    id: str = ""
    css: str = ""
    lines: Lines = ONE_LINE


@dataclass(frozen=True, kw_only=True)
class BulletList(_Block):
    """Items, one per line (a text format indents them; Markdown and HTML make a list)."""
    items: tuple[Inlines, ...]
    css: str = ""
    lines: Lines = ONE_LINE
    #: What text formats write before each item: two spaces, ``  - `` or nothing.
    marker: str = "  "
    #: Formats that print each item on one line, however long.
    nowrap: tuple[str, ...] = ()


@dataclass(frozen=True)
class Definition:
    """One entry of a definition list: the term, what it means (one or more paragraphs), and a
    ``compact`` description that text formats use for every entry when one does not fit a line."""
    term: Inlines
    descriptions: tuple[Paragraph, ...]
    compact: Inlines | None = None
    id: str = ""


@dataclass(frozen=True, kw_only=True)
class DefinitionList(_Block):
    """Terms and what they mean: a legend of marks, what the columns mean, a glossary.

    ``style`` says how text formats lay it out: ``inline`` (``Marks: ✓ satisfied; ✗ violated.``),
    ``key`` (one entry a line, terms aligned), ``terms`` (one entry a line, ``term: meaning``),
    ``fields`` (a record: ``name:`` padded, then the value; Markdown and HTML make it a table).
    """
    items: tuple[Definition, ...]
    title: Inlines = ()
    style: str = "terms"
    css: str = "legend"


@dataclass(frozen=True)
class TableCell:
    """A cell: its parts, whether it heads its row or column, its style, a tooltip and a span."""
    parts: Inlines
    header: bool = False
    css: str = ""
    tip: str = ""
    colspan: int = 1


@dataclass(frozen=True)
class Row:
    """A row; ``group``: it opens a new group of rows (LaTeX rules it off from the one above)."""
    cells: tuple[TableCell, ...]
    css: str = ""
    group: bool = False


@dataclass(frozen=True, kw_only=True)
class Table(_Block):
    """Rows under a header row. Text formats use ``gap`` spaces between columns and wrap the last
    column to the width; ``numeric`` columns align right where the format can (a tabulated text
    table reads them as numbers, aligned on the decimal point)."""
    headers: tuple[TableCell, ...]
    rows: tuple[Row, ...]
    css: str = "data"
    caption: Inlines = ()
    label: str = ""
    gap: int = 2
    numeric: tuple[int, ...] = ()
    #: Markdown: columns padded to align (GitHub's layout), else the compact ``| a | b |``.
    aligned: bool = True
    #: Text: tabulate's ``simple`` layout (every cell padded) rather than the last column wrapped.
    simple: bool = False
    #: How text formats write a number cell (:class:`Number` of a float) in a tabulated table.
    float_format: str = "g"
    #: Tabulated text tables read the ``numeric`` columns as numbers (aligned on the decimal point);
    #: else they keep every cell as written.
    read_numbers: bool = True
    #: HTML: each row (and each cell) on a line of its own.
    lines: bool = False
    #: HTML: header cells say what they head (``scope``).
    scope: bool = True
    #: Each column's alignment, ``l``, ``c`` or ``r`` (``lcc``): LaTeX's column types; tabulated text
    #: tables follow it too (default: LaTeX every column ``l``, text by content).
    align: str = ""
    #: A note under the table, in formats that set one (LaTeX's footnote-size note).
    note: tuple[Block, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Figure(_Block):
    """A picture: ``draw`` returns a matplotlib figure; ``prefix`` makes its ids unique in a page.
    Figures of one page with the same ``prefix`` are the same picture, drawn once (each keeps its
    own caption)."""
    draw: Callable[[], Drawing]
    prefix: str
    caption: str


@dataclass(frozen=True, kw_only=True)
class Preformatted(_Block):
    """Lines kept as they are (wrapped to the width, each keeping its indentation)."""
    content: tuple[str, ...]
    #: Text formats wrap lines longer than the width (keeping their indentation).
    wrap: bool = True


@dataclass(frozen=True, kw_only=True)
class Choice(_Block):
    """Alternative layouts of the same content: a renderer writes the first option whose first block
    fits its width (the last when none does); formats without a width take the first."""
    options: tuple[tuple[Block, ...], ...]


Block = Union[Paragraph, Section, Group, BulletList, DefinitionList, Table, Figure, Preformatted, Choice]


@dataclass(frozen=True)
class JsonStyle:
    """How a document's data is written as JSON: the indent, whether every non-ASCII character is
    escaped (``\u2248``), and whether an undefined float (nan, inf) is written ``null`` (else as
    Python writes it, ``NaN``)."""
    indent: int = 2
    ascii: bool = False
    finite: bool = True
    #: A list written one element a line (``[{...},\n {...}]``), each element on one line.
    lines: bool = False


@dataclass(frozen=True)
class Document:
    """A whole report: its title, the lines under the title (the run's settings), the blocks, and
    the result as data for JSON (``data``)."""
    title: str
    blocks: tuple[Block, ...]
    subtitle: tuple[str, ...] = ()
    #: The page's lines under its title when they are not ``subtitle`` (which text formats print).
    page_subtitle: tuple[str, ...] = ()
    data: Callable[[], Any] | None = field(default=None, compare=False)
    #: The page's title (HTML) when it is not ``title``: a page lists its parts instead.
    page_title: str = ""
    #: Comment lines at the top of formats that have comments (LaTeX: what the file needs).
    preamble: tuple[str, ...] = ()
    #: Comment lines at the end of formats that have comments (LaTeX: what the tables leave out).
    epilogue: tuple[str, ...] = ()
    #: How the JSON is written.
    json: JsonStyle = JsonStyle()
    #: The title's heading level in Markdown (``#``: 1).
    level: int = 2
    #: How a text format opens: ``joined`` puts the title and the first subtitle line on one line
    #: when they fit; ``plain`` prints the title, then the subtitle lines.
    heading: str = "plain"


# -- reading a document ------------------------------------------------------------------------

def _children(block: Block) -> tuple[Block, ...]:
    if isinstance(block, (Section, Group)):
        return block.children
    if isinstance(block, Table):
        return block.note
    if isinstance(block, Choice):
        return block.options[0] if block.options else ()
    return ()


def walk(blocks: Iterable[Block], format: str | None = None) -> Iterator[Block]:
    """Every block, depth first (only those shown in ``format``, when given)."""
    for block in blocks:
        if format is not None and not block.shown_in(format):
            continue
        yield block
        yield from walk(_children(block), format)


def _parts_of(block: Block) -> Iterator[Inlines]:
    if isinstance(block, Paragraph):
        yield block.parts
    elif isinstance(block, Section):
        yield block.title
    elif isinstance(block, BulletList):
        yield from block.items
    elif isinstance(block, DefinitionList):
        for item in block.items:
            yield item.term
            for description in item.descriptions:
                yield description.parts
    elif isinstance(block, Table):
        for cell in (*block.headers, *(c for row in block.rows for c in row.cells)):
            yield cell.parts


def _terms_in(parts: Inlines) -> Iterator[Term]:
    for part in parts:
        if isinstance(part, Term):
            yield part
        elif isinstance(part, (Strong, Emph, Span, Link)):
            yield from _terms_in(part.parts)


def terms(blocks: Iterable[Block]) -> list[Term]:
    """The glossary terms ``blocks`` use, each once, in order of first use."""
    seen: dict[str, Term] = {}
    for block in walk(blocks):
        for parts in _parts_of(block):
            for term in _terms_in(parts):
                seen.setdefault(term.text, term)
    return list(seen.values())
