"""Markdown: the text report's blocks in Markdown's syntax (GitHub's tables).

Titles are headings (``## ...``), lists bullets, tables GitHub's pipe tables, preformatted
blocks fenced; blocks are separated by a blank line, as Markdown needs. Text that may come from a
user's file or metric (ids, names, error messages) is made inert (issue 29): :func:`text` keeps
an HTML tag from opening (a renderer with HTML on would run ``<script>``), a backtick from opening
code, a ``[`` from making a link, an entity from turning into the character it names, a ``*`` or
``_`` from emphasising, and a line break from ending a table row or a list item; a code span and a
fenced block use more backticks than their content holds. Where a line starts is known only once
a paragraph is wrapped: :func:`inert_lines` then escapes a heading's ``#``, a quote's ``>``, a list
item's ``-`` or ``1.``, a rule or a fence that a line would otherwise open with. :func:`escape` is
the one place a ``|`` is escaped (in a table cell it would end the cell).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tabulate import tabulate

from axiometer.reports.document import (
    BulletList, Code, DefinitionList, Document, Emph, Inlines, Mark, Paragraph, Preformatted, Section, Strong, Sup,
    Table, plain,
)
from axiometer.reports.numbers import NBSP, wrap, wrap_lines
from axiometer.reports.render.text import TextRenderer, cell_value, column_alignment, one_line, text_columns

__all__ = ["MarkdownRenderer", "render", "escape", "text", "code_span", "fence", "inert_lines", "heading"]

_TAG = re.compile(r"<(?=[A-Za-z/!?])")
_TICKS = re.compile(r"`+")
#: An entity or character reference, which Markdown would read as the character it names.
_REFERENCE = re.compile(r"&(?=[A-Za-z][A-Za-z0-9]*;|#[0-9]{1,7};|#[xX][0-9A-Fa-f]{1,6};)")
#: An emphasis delimiter: a ``*`` not between spaces, a ``_`` not inside a word (``a_n`` stays).
_EMPHASIS = re.compile(r"(?<!\s)\*|\*(?!\s)|(?<![^\W_])_|_(?![^\W_])")
#: What opens a block at a line's start (after its indentation): an ATX heading, a quote, a bullet,
#: a thematic break, a setext underline, a fence. Its first character is escaped.
_OPENS_BLOCK = re.compile(r"#{1,6}(?=[ \t]|$)|>|[-+*](?=[ \t]|$)|([-_*])[ \t]*(?:\1[ \t]*){2,}$|=+[ \t]*$|-+[ \t]*$"
                          r"|`{3,}|~{3,}")
#: An ordered list item's number; its delimiter (``.`` or ``)``) is escaped.
_ORDERED = re.compile(r"[0-9]{1,9}(?=[.)](?:[ \t]|$))")
#: The end of a heading that Markdown would drop as its closing sequence (``## Title #``).
_CLOSING = re.compile(r"(^|[ \t])(#+[ \t]*)$")


def text(value: str) -> str:
    """``value`` as inert Markdown text: ``<`` before a tag name as ``&lt;``; a backslash, a backtick,
    ``[``, the ``&`` of an entity (``&amp;``) and a ``*`` or ``_`` that could emphasise escaped (the
    backslash first, so none of the others can be undone); every line break a space; ``<=`` and the
    like stay as they are. What a line starts with is :func:`inert_lines`' business: wrapping
    decides where lines start."""
    value = _REFERENCE.sub("\\\\&", one_line(value).replace("\\", "\\\\"))
    value = _EMPHASIS.sub(lambda m: "\\" + m.group(), value)
    return _TAG.sub("&lt;", value).replace("`", "\\`").replace("[", "\\[")


def inert_lines(lines: list[str], marker: str = "") -> list[str]:
    r"""The lines of one paragraph or list item (``marker``: the item's ``- ``), each starting with
    text rather than a block: a heading's ``#``, a quote's ``>``, a list item's ``-`` or ``1.``, a
    rule, a setext underline or a fence that a user's text (or wrapping it) put at a line's start is
    escaped (``\#``, ``1\.``), and the first line loses the indentation that would make it code."""
    out = []
    for k, line in enumerate(lines):
        rest = line.lstrip(" \t")
        head = "" if k == 0 else line[:len(line) - len(rest)]
        if k == 0 and marker and rest.startswith(marker):
            head, rest = marker, rest[len(marker):].lstrip(" \t")
        ordered = _ORDERED.match(rest)
        if ordered:
            rest = f"{rest[:ordered.end()]}\\{rest[ordered.end():]}"
        elif _OPENS_BLOCK.match(rest):
            rest = "\\" + rest
        out.append(head + rest)
    return out


def heading(level: int, title: str) -> str:
    """An ATX heading of ``title`` (Markdown already): a closing ``#`` run it ends with escaped."""
    title = _CLOSING.sub(r"\1\\\2", title.strip())
    return f"{'#' * level} {title}".rstrip()


def _longest_ticks(values: Iterable[str]) -> int:
    return max((len(run) for value in values for run in _TICKS.findall(value)), default=0)


def code_span(value: str) -> str:
    """``value`` as one code span: on one line, between more backticks than it holds."""
    value = one_line(value)
    ticks = "`" * (_longest_ticks([value]) + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{ticks}{pad}{value}{pad}{ticks}"


def fence(lines: list[str]) -> list[str]:
    """``lines`` as a fenced block whose fence is longer than any run of backticks in them."""
    ticks = "`" * max(3, _longest_ticks(lines) + 1)
    return [ticks, *(one_line(line) for line in lines), ticks]


def escape(text: str) -> str:
    """``text`` safe in a Markdown table cell: ``|`` escaped."""
    return text.replace("|", "\\|")


class MarkdownRenderer(TextRenderer):
    name = "markdown"

    def heading(self, document: Document) -> list[str]:
        """The title as a heading of the document's level, the settings as a list under it."""
        settings = [line for setting in document.subtitle
                    for line in inert_lines([text(part) for part in wrap(f"- {setting}", self.width)], "- ")]
        if not document.title:
            return settings
        return [heading(document.level, text(document.title)), *([""] if settings else []), *settings]

    def inline(self, parts: Inlines) -> str:
        out = []
        for part in parts:
            if isinstance(part, Strong):
                out.append(f"**{self.inline(part.parts)}**")
            elif isinstance(part, Emph):
                out.append(f"*{self.inline(part.parts)}*")
            elif isinstance(part, Code):
                out.append(code_span(part.text))
            elif isinstance(part, Sup):
                out.append(f"<sup>{part.text}</sup>")
            elif isinstance(part, Mark):
                out.append(part.symbol)
            else:
                out.append(text(plain((part,))))
        return "".join(out)

    def paragraph(self, block: Paragraph) -> list[str]:
        if block.label:
            return inert_lines(wrap(f"{block.label}: {self.inline(block.parts)}", self.width, hang=2))
        return inert_lines(super().paragraph(block))

    def bullet(self, item: Inlines, marker: str = "  ") -> str:
        return f"- {self.inline(item)}"

    def bullets(self, block: BulletList) -> list[str]:
        items = [self.bullet(item) for item in block.items]
        return [line for item in items
                for line in inert_lines([item] if self.name in block.nowrap else wrap(item, self.width), "- ")]

    def section(self, section: Section) -> list[str]:
        out = [heading(section.level, self.inline(section.title))] if self.title_shown(section) else []
        self.add(out, section.children)
        return out

    def definitions(self, block: DefinitionList) -> list[str]:
        items = [(self.inline(d.term), self.inline(d.descriptions[0].parts) if d.descriptions else "")
                 for d in block.items]
        title = self.inline(block.title)
        if block.style == "fields":  # a record as a table without headers
            return ["| | |", "|---|---|", *(f"| {escape(term)} | {escape(value)} |" for term, value in items)]
        if block.style == "inline":
            text = "; ".join(f"{term}{NBSP}{meaning}" for term, meaning in items)
            return inert_lines(wrap(f"{title}: {text}.", self.width, hang=2))
        if block.style == "key":
            return [*inert_lines([title]), ""] + [part for term, meaning in items for part in
                                                  inert_lines(wrap(f"- {term} {meaning}".rstrip(), self.width), "- ")]
        return [*inert_lines([f"{title}:"]), ""] + [part for term, meaning in items for part in
                                                    inert_lines(wrap(f"- {term}: {meaning}", self.width), "- ")]

    def table(self, table: Table) -> list[str]:
        headers = [escape(self.inline(cell.parts)) for cell in table.headers]
        rows = [[escape(self.inline(cell.parts)) for cell in row.cells] for row in table.rows]
        if not table.aligned:
            return ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|",
                    *("| " + " | ".join(row) + " |" for row in rows)]
        values = [[cell_value(cell, text) for cell, text in zip(row.cells, texts)]
                  for row, texts in zip(table.rows, rows)]
        return tabulate(values, headers=headers, tablefmt="github", disable_numparse=text_columns(table),
                        stralign="left", floatfmt=table.float_format, colalign=column_alignment(table)).splitlines()

    def preformatted(self, block: Preformatted) -> list[str]:
        return fence(wrap_lines(block.content, self.width) if block.wrap else list(block.content))


def render(document: Document, width: int) -> str:
    """``document`` as Markdown laid out for ``width`` columns."""
    return MarkdownRenderer(width).render(document)
