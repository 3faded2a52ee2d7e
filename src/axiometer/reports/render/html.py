"""HTML: a document as one self-contained page (the frame and style of :mod:`axiometer.reports.html`).

Sections become ``<section>`` (or ``<div>``) with a heading ``<hN>``, paragraphs ``<p>``,
lists ``<ul>``, definition lists ``<dl>``, tables ``<table>`` (a cell may carry a tooltip and a
style), figures inline SVG; inline parts become ``<code>``, ``<strong>``, ``<em>``, ``<span>``
and links to ids of the page. :func:`escape` is the one HTML escape. Sections and groups that
name a ``toc`` label are listed in the page's table of contents, in document order.
"""

from __future__ import annotations

import html

from axiometer.reports.document import (
    Block, Break, BulletList, Choice, Code, DefinitionList, Document, Emph, Figure, Group, Inlines, Lines, Link,
    Paragraph, Preformatted, Section, Span, Strong, Sup, Table, TableCell, plain, walk,
)

__all__ = ["escape", "render", "inline", "block"]

escape = html.escape


def _attributes(css: str = "", id: str = "", **more: str) -> str:
    """` class="..." id="..."` and the others given, in that order, the empty ones left out."""
    pairs = [("class", css), ("id", id), *more.items()]
    return "".join(f' {name}="{escape(value)}"' for name, value in pairs if value)


def inline(parts: Inlines) -> str:
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(escape(part))
        elif isinstance(part, Code):
            out.append(f"<code>{escape(part.text)}</code>")
        elif isinstance(part, Strong):
            out.append(f"<strong>{inline(part.parts)}</strong>")
        elif isinstance(part, Emph):
            out.append(f"<em>{inline(part.parts)}</em>")
        elif isinstance(part, Span):
            out.append(f'<span class="{escape(part.css)}">{inline(part.parts)}</span>')
        elif isinstance(part, Link):
            out.append(f'<a href="#{escape(part.target)}">{inline(part.parts)}</a>')
        elif isinstance(part, Sup):
            out.append(f"<sup{_attributes(title=part.title)}>{escape(part.text)}</sup>")
        elif isinstance(part, Break):
            out.append("<br>")
        else:
            out.append(escape(plain((part,))))
    return "".join(out)


def _joined(open: str, heading: str, children: list[list[str]], close: str, lines: Lines) -> list[str]:
    """A container's source lines: ``lines`` says where new lines start."""
    out = [open]

    def put(piece: list[str], newline: bool) -> None:
        if not piece:
            return
        if newline:
            out.extend(piece)
        else:
            out[-1] += piece[0]
            out.extend(piece[1:])

    if heading:
        put([heading], lines.open)
    for k, child in enumerate(children):
        put(child, (lines.heading if heading else lines.open) if k == 0 else lines.between)
    if close:
        put([close], lines.close)
    return out


def _shown(blocks: tuple[Block, ...]) -> list[list[str]]:
    out = []
    for child in blocks:
        if not child.shown_in("html"):
            continue
        if isinstance(child, Choice):
            out += _shown(child.options[0]) if child.options else []
            continue
        rendered = block(child)
        if rendered:
            out.append(rendered)
    return out


def _cell(cell: TableCell, scope: str, numeric: bool = False) -> str:
    tag = "th" if cell.header else "td"
    colspan = str(cell.colspan) if cell.colspan != 1 else ""
    css = "num" if numeric and not cell.header else cell.css
    return (f"<{tag}{_attributes(css, scope=scope, title=cell.tip, colspan=colspan)}>"
            f"{inline(cell.parts)}</{tag}>")


def _table(table: Table) -> list[str]:
    head = f"<table{_attributes(table.css)}>"
    if table.caption:
        head += f"<caption>{inline(table.caption)}</caption>"
    if table.headers:
        head += ("<thead><tr>" + "".join(_cell(c, "col" if table.scope else "") for c in table.headers)
                 + "</tr></thead>")
    head += "<tbody>"
    rows: list[list[str]] = []
    for row in table.rows:
        cells = [_cell(c, "row" if c.header and table.scope else "", k in table.numeric)
                 for k, c in enumerate(row.cells)]
        rows.append([f"<tr{_attributes(row.css)}>", *cells, "</tr>"])
    if not table.lines:
        return [head + "".join("".join(r) for r in rows) + "</tbody></table>"]
    out = [head]
    for r in rows:  # the row's opening and its header cell on one line, then each cell, then its end
        first = 2 if len(r) > 2 and r[1].startswith("<th") else 1
        out += ["".join(r[:first]), *r[first:]]
    return out + ["</tbody></table>"]


def _definitions(block: DefinitionList) -> str:
    if block.style == "fields":  # a record: one row per field, its name heading the row
        return (f"<table{_attributes(block.css)}><tbody>" + "".join(
            f'<tr><th scope="row">{inline(d.term)}</th><td>{inline(d.descriptions[0].parts)}</td></tr>'
            for d in block.items) + "</tbody></table>")
    out = [f"<dl{_attributes(block.css)}>"]
    for item in block.items:
        out.append(f"<dt{_attributes(id=item.id)}>{inline(item.term)}</dt>")
        out += [f"<dd{_attributes(d.css)}>{inline(d.parts)}</dd>" for d in item.descriptions]
    return "".join(out) + "</dl>"


def block(block: Block) -> list[str]:
    """One block as lines of the page's source."""
    if isinstance(block, Paragraph):
        label = f"{escape(block.label)}: " if block.label else ""
        return [f"<p{_attributes(block.css)}>{label}{inline(block.parts)}</p>"]
    if isinstance(block, Section):
        heading = (f"<h{block.level}>{inline(block.title)}</h{block.level}>"
                   if block.title and (block.title_formats is None or "html" in block.title_formats) else "")
        if not block.tag:  # a heading over blocks, in the section around them
            return _joined("", heading, _shown(block.children), "", block.lines)
        return _joined(f"<{block.tag}{_attributes(block.css, block.id)}>", heading, _shown(block.children),
                       f"</{block.tag}>", block.lines)
    if isinstance(block, Group):
        return _joined(f"<div{_attributes(block.css, block.id)}>", "", _shown(block.children), "</div>",
                       block.lines)
    if isinstance(block, BulletList):
        return _joined(f"<ul{_attributes(block.css)}>", "", [[f"<li>{inline(item)}</li>"] for item in block.items],
                       "</ul>", block.lines)
    if isinstance(block, DefinitionList):
        return [_definitions(block)]
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Figure):
        from axiometer.reports.html import picture

        return [picture(block.draw, block.prefix, block.caption)]
    if isinstance(block, Preformatted):
        return ["<pre>" + escape("\n".join(block.content)) + "</pre>"]
    raise TypeError(f"no HTML form for {type(block).__name__}")


def render(document: Document, width: int = 0) -> str:
    """The document as one page: its title, its settings, a table of contents, its blocks."""
    from axiometer.reports.html import page

    toc = [(b.id, b.toc) for b in walk(document.blocks, "html") if isinstance(b, Section) and b.toc]
    body = [line for lines in _shown(document.blocks) for line in lines]
    return page(document.page_title or document.title, body, subtitle=document.page_subtitle or document.subtitle,
                toc=toc)
