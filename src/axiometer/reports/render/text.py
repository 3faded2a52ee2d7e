"""Plain text: every block as lines wrapped to the width (a hanging indent for continuations).

Blocks are separated by a blank line (except ``tight`` ones); a level-3 title ends with a colon
(``Details:``) and a run-in title opens its first paragraph (``Boundaries: where ...``); lists
and definition lists are indented two spaces; a table's columns are padded with spaces under a
rule of dashes, its last column wrapped to what the width leaves. Figures have no text form.
Plain text has nothing to escape.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Sequence

from axiometer.reports.document import (
    Block, BulletList, Choice, DefinitionList, Document, Figure, Group, Inlines, Number, Paragraph, Preformatted,
    Section, Table, TableCell, plain,
)
from tabulate import tabulate

from axiometer.reports.numbers import NBSP, wrap, wrap_lines

__all__ = ["TextRenderer", "render", "cell_value", "text_columns", "column_alignment"]


class TextRenderer:
    """Writes a document as plain text; :class:`~axiometer.reports.render.markdown.MarkdownRenderer`
    changes how single blocks look, not how they follow one another."""

    #: The format's name, as blocks' ``formats`` and ``tight`` name it.
    name = "text"

    def __init__(self, width: int) -> None:
        self.width = width

    # -- the document ---------------------------------------------------------------------------

    def render(self, document: Document) -> str:
        out = self.heading(document)
        self.add(out, document.blocks)
        # Each line is the report's own: a control character left in one (a user's message in a
        # preformatted block, a title) is shown, never obeyed by the terminal.
        return "\n".join(visible(line) for line in out).rstrip() + "\n"

    def heading(self, document: Document) -> list[str]:
        """The title and the settings under it (``joined``: on one line when they fit)."""
        title, subtitle = document.title, list(document.subtitle)
        if document.heading == "joined" and subtitle:
            first = f"{title}; {subtitle[0]}"
            return wrap_lines([first, *subtitle[1:]] if len(first) <= self.width else [title, *subtitle],
                              self.width)
        return ([title] if title else []) + wrap_lines(subtitle, self.width)

    def add(self, out: list[str], blocks: Iterable[Block]) -> None:
        """Append ``blocks`` to ``out``, a blank line before each one but the tight ones."""
        for block in blocks:
            if not block.shown_in(self.name):
                continue
            if isinstance(block, Choice):
                self.add(out, self.choose(block))
                continue
            lines = self.block(block)
            if not lines:
                continue
            if out and self.name not in block.tight:
                out.append("")
            out += lines

    def choose(self, choice: Choice) -> Sequence[Block]:
        """The first option whose first block fits the width, else the last."""
        for option in choice.options:
            lines = self.block(option[0]) if option else []
            if option is choice.options[-1] or max(map(len, lines), default=0) <= self.width:
                return option
        return ()

    def block(self, block: Block) -> list[str]:
        if isinstance(block, Paragraph):
            return self.paragraph(block)
        if isinstance(block, Section):
            return self.section(block)
        if isinstance(block, Group):
            out: list[str] = []
            self.add(out, block.children)
            return out
        if isinstance(block, BulletList):
            return self.bullets(block)
        if isinstance(block, DefinitionList):
            return self.definitions(block)
        if isinstance(block, Table):
            return self.table(block)
        if isinstance(block, Preformatted):
            return self.preformatted(block)
        if isinstance(block, (Figure, Choice)):
            return []
        raise TypeError(f"no text form for {type(block).__name__}")

    # -- inline parts ---------------------------------------------------------------------------

    def inline(self, parts: Inlines) -> str:
        return visible(plain(parts))

    def paragraph(self, block: Paragraph) -> list[str]:
        text = self.inline(block.parts)
        if block.label:
            return wrap(f"{block.label}: {text}", self.width, hang=len(block.label) + 2)
        return [text] if self.name in block.nowrap else wrap(text, self.width, hang=block.hang)

    def bullet(self, item: Inlines, marker: str = "  ") -> str:
        return f"{marker}{self.inline(item)}"

    def bullets(self, block: BulletList) -> list[str]:
        """Each item on a line of its own (wrapped to the width unless the format is ``nowrap``)."""
        items = [self.bullet(item, block.marker) for item in block.items]
        return items if self.name in block.nowrap else wrap_lines(items, self.width)

    # -- blocks ---------------------------------------------------------------------------------

    def title_shown(self, section: Section) -> bool:
        return bool(section.title) and (section.title_formats is None or self.name in section.title_formats)

    def section(self, section: Section) -> list[str]:
        children = list(section.children)
        out: list[str] = []
        if self.title_shown(section):
            title = self.inline(section.title)
            first = children[0] if children else None
            if section.run_in and isinstance(first, Paragraph):
                text = self.inline(first.parts)
                out = wrap(f"{title}: {text[:1].lower()}{text[1:]}", self.width, hang=first.hang)
                children = children[1:]
            else:
                out = wrap(title + (":" if section.colon else ""), self.width)
        self.add(out, children)
        return out

    def definitions(self, block: DefinitionList) -> list[str]:
        items = [(self.inline(d.term), self.inline(d.descriptions[0].parts) if d.descriptions else "")
                 for d in block.items]
        title = self.inline(block.title)
        if block.style == "inline":
            # A no-break space keeps each mark on the line of its first word.
            text = "; ".join(f"{term}{NBSP}{meaning}" for term, meaning in items)
            return wrap(f"{title}: {text}.", self.width, hang=len(title) + 2)
        if block.style == "fields":
            pad = max((len(term) for term, _ in items), default=0)
            return [part for term, value in items
                    for part in wrap(f"{term + ':':<{pad + 1}} {value}", self.width, hang=pad + 2)]
        if block.style == "key":
            pad = max((len(term) for term, _ in items), default=0)
            out = [title] if title else []
            for term, meaning in items:
                out += wrap(f"  {term:<{pad}}  {meaning}".rstrip(), self.width, hang=pad + 2)
            return out
        out = [f"{title}:"] if title else []
        for term, meaning in items:
            out += wrap(f"  {term}: {meaning}", self.width, hang=2)
        return out

    def table(self, table: Table) -> list[str]:
        """Columns padded to their widest cell, ``gap`` spaces apart; the last column wrapped to
        what the width leaves (at least 20 columns)."""
        headers = [self.inline(cell.parts) for cell in table.headers]
        rows = [[self.inline(cell.parts) for cell in row.cells] for row in table.rows]
        if table.simple:
            values = [[cell_value(cell, text) for cell, text in zip(row.cells, texts)]
                      for row, texts in zip(table.rows, rows)]
            return tabulate(values, headers=headers, tablefmt="simple", disable_numparse=text_columns(table),
                            floatfmt=table.float_format, colalign=column_alignment(table)).splitlines()
        sep = " " * table.gap
        widths = [max(len(r[j]) for r in [headers, *rows]) for j in range(len(headers) - 1)]
        indent = sum(widths) + table.gap * len(widths)
        room = max(20, self.width - indent)
        last = min(room, max(len(r[-1]) for r in [headers, *rows]))
        lines = [sep.join([*(h.ljust(w) for h, w in zip(headers, widths)), headers[-1]]).rstrip(),
                 sep.join("-" * w for w in [*widths, last])]
        for row in rows:
            parts = textwrap.wrap(row[-1], room, break_long_words=False, break_on_hyphens=False) or [""]
            lines.append(sep.join([*(c.ljust(w) for c, w in zip(row, widths)), parts[0]]).rstrip())
            lines += [" " * indent + part for part in parts[1:]]
        return lines

    def preformatted(self, block: Preformatted) -> list[str]:
        return wrap_lines(block.content, self.width) if block.wrap else list(block.content)


_CONTROLS = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
_BREAKS = re.compile(r"[\r\n\x0b\x0c\x85\u2028\u2029]+")


def visible(text: str) -> str:
    r"""``text`` with every control character shown as ``\xNN`` (``\u2028``): a user's name or
    message cannot move the terminal's cursor, colour it (``\x1b[...``) or break a row (issue 29)."""
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 256
                         else f"\\u{ord(m.group()):04x}", text)


def one_line(text: str) -> str:
    r"""``text`` on one line: every run of line breaks a space, any other control character shown
    (:func:`visible`); what Markdown and LaTeX put in a cell or a line (issue 29)."""
    return visible(_BREAKS.sub(" ", text))


def text_columns(table: Table) -> bool | list[int]:
    """The columns tabulate must not read as numbers: all but ``table.numeric``."""
    text = [j for j in range(len(table.headers)) if j not in table.numeric or not table.read_numbers]
    return True if len(text) == len(table.headers) else text


def column_alignment(table: Table) -> tuple[str, ...] | None:
    """tabulate's ``colalign`` from ``table.align`` (``None``: by content)."""
    names = {"l": "left", "c": "center", "r": "right"}
    return tuple(names[a] for a in table.align) if table.align else None


def cell_value(cell: TableCell, text: str) -> object:
    """A cell that is one number, as the number (a tabulated column of numbers aligns them right);
    any other cell as its text."""
    if len(cell.parts) == 1 and isinstance(cell.parts[0], Number) and isinstance(cell.parts[0].value, (int, float)):
        return cell.parts[0].value
    return text


def render(document: Document, width: int) -> str:
    """``document`` as plain text laid out for ``width`` columns."""
    return TextRenderer(width).render(document)
