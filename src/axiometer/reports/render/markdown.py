"""Markdown: the text report's blocks in Markdown's syntax (GitHub's tables).

Titles are headings (``## ...``), lists bullets, tables GitHub's pipe tables, preformatted
blocks fenced; blocks are separated by a blank line, as Markdown needs. Text that may come from a
user's file or metric (ids, names, error messages) is made inert (issue 29): :func:`text` keeps
an HTML tag from opening (a renderer with HTML on would run ``<script>``), a backtick from opening
code, a ``[`` from making a link, and a line break from ending a table row or a list item; a code
span and a fenced block use more backticks than their content holds. :func:`escape` is the one
place a ``|`` is escaped (in a table cell it would end the cell).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tabulate import tabulate

from axiometer.reports.document import (
    Code, DefinitionList, Document, Emph, Inlines, Mark, Paragraph, Preformatted, Section, Strong, Sup, Table,
    plain,
)
from axiometer.reports.numbers import NBSP, wrap, wrap_lines
from axiometer.reports.render.text import TextRenderer, cell_value, column_alignment, one_line, text_columns

__all__ = ["MarkdownRenderer", "render", "escape", "text", "code_span", "fence"]

_TAG = re.compile(r"<(?=[A-Za-z/!?])")
_TICKS = re.compile(r"`+")


def text(value: str) -> str:
    """``value`` as inert Markdown text: ``<`` before a tag name as ``&lt;``, a backslash, a backtick
    and ``[`` escaped (the backslash first, so none of the others can be undone), every line break
    a space; ``<=`` and the like stay as they are."""
    value = one_line(value).replace("\\", "\\\\")
    return _TAG.sub("&lt;", value).replace("`", "\\`").replace("[", "\\[")


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
        settings = wrap_lines([f"- {line}" for line in document.subtitle], self.width)
        settings = [text(line) for line in settings]
        if not document.title:
            return settings
        return [f"{'#' * document.level} {text(document.title)}", *([""] if settings else []), *settings]

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
            return wrap(f"{block.label}: {self.inline(block.parts)}", self.width, hang=2)
        return super().paragraph(block)

    def bullet(self, item: Inlines, marker: str = "  ") -> str:
        return f"- {self.inline(item)}"

    def section(self, section: Section) -> list[str]:
        out = [f"{'#' * section.level} {self.inline(section.title)}"] if self.title_shown(section) else []
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
            return wrap(f"{title}: {text}.", self.width, hang=2)
        if block.style == "key":
            return [title, ""] + [part for term, meaning in items
                                  for part in wrap(f"- {term} {meaning}".rstrip(), self.width)]
        return [f"{title}:", ""] + [part for term, meaning in items
                                    for part in wrap(f"- {term}: {meaning}", self.width)]

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
