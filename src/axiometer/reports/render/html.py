"""HTML: a document as one self-contained page (:func:`page`: the frame, :data:`STYLE` inline).

Sections become ``<section>`` (or ``<div>``) with a heading ``<hN>``, paragraphs ``<p>``,
lists ``<ul>``, definition lists ``<dl>``, tables ``<table>`` (a cell may carry a tooltip and a
style), figures inline SVG; inline parts become ``<code>``, ``<strong>``, ``<em>``, ``<span>``
and links to ids of the page. :func:`escape` is the one HTML escape. Sections and groups that
name a ``toc`` label are listed in the page's table of contents, in document order.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from axiometer.reports.palette import ERROR, SWATCHES, VERDICT_SWATCH, Swatch, verdict_class
from axiometer.reports.document import (
    Block, Break, BulletList, Choice, Code, DefinitionList, Document, Emph, Figure, Group, Inlines, Lines, Link,
    Paragraph, Preformatted, Section, Span, Strong, Sup, Table, TableCell, plain, walk,
)

__all__ = ["escape", "render", "inline", "block", "page", "STYLE"]

escape = html.escape

#: The one style sheet every page carries inline (no external fonts: the reader's system fonts). Its
#: verdict colours are the palette's (:func:`_palette_rules`), as the pictures' are.
_BASE_STYLE = """
:root { --muted: #6b6f76; --line: #d7d9dd; --changed: #fff3b0; --accent: #2456a6; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       margin: 0 auto; padding: 0.8em 2em 4em; max-width: 78em; color: #1f2328; line-height: 1.45; }
h1 { font-size: 1.5em; margin: 0 0 0.2em; }
h2 { font-size: 1.25em; margin: 2em 0 0.6em; padding-bottom: 0.2em; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05em; margin: 0 0 0.4em; }
h4 { font-size: 0.95em; margin: 1em 0 0.3em; }
a { color: var(--accent); }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace;
              font-size: 0.92em; }
.muted { color: var(--muted); }
.settings { color: var(--muted); margin: 0; padding-left: 1.2em; font-size: 0.85em; line-height: 1.35; }
nav.toc { margin: 0.4em 0 0; font-size: 0.95em; }
nav.toc a { margin-right: 1.2em; }
#matrix > h2 { margin-top: 0.8em; }
table { border-collapse: collapse; }
table.data th, table.data td { border: 1px solid var(--line); padding: 0.25em 0.6em; text-align: left;
                               vertical-align: top; }
table.data { margin: 0.4em 0 1em; }
table.data th { background: #f4f5f7; }
table.fields th { text-align: left; font-weight: 600; background: #f4f5f7; }
table.data td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.matrix { line-height: 1.25; }
table.matrix th, table.matrix td { border: 1px solid #fff; padding: 0; text-align: center; min-width: 2.9em; }
table.matrix th { background: #f4f5f7; padding: 0.12em 0.45em; font-weight: 600; }
table.matrix thead th { position: sticky; top: 0; z-index: 1; }
table.matrix th[title] { cursor: help; }
table.matrix th a { color: inherit; text-decoration: underline dotted; }
table.matrix th.row { text-align: left; white-space: nowrap; }
table.matrix td a { display: block; padding: 0.12em 0.45em; color: inherit; text-decoration: none;
                    font-weight: 600; }
table.matrix td a:hover { outline: 2px solid #000; outline-offset: -2px; }
td.differs { box-shadow: inset 0 0 0 2px #000, inset 0 0 0 4px #fff; }
td.open { background: #fff; color: #1f2328; outline: 2px dashed var(--muted); outline-offset: -3px; }
.side-by-side { display: flex; flex-wrap: wrap; gap: 1em 2.5em; align-items: flex-start; }
.side-by-side > div { flex: 1 1 18em; font-size: 0.9em; }
.side-by-side > div:first-child { flex: 0 0 auto; font-size: 1em; }
.side-by-side h3 { margin-top: 0; }
dl.legend { display: grid; grid-template-columns: max-content 1fr; gap: 0.25em 1em; margin: 0.6em 0; }
dl.legend dt { font-weight: 700; text-align: center; min-width: 2em; }
dl.legend dd { margin: 0; }
#legend dl.legend { line-height: 1.3; }
dl.terms dt { text-align: left; white-space: nowrap; }
dl.meanings dt { font-weight: 700; margin-top: 0.8em; }
dl.meanings dd { margin: 0.15em 0 0 1.2em; }
details.cell { border: 1px solid var(--line); border-radius: 6px; padding: 0.3em 1em; margin: 0.4em 0; }
details.cell > summary { cursor: pointer; padding: 0.2em 0; }
details.cell > summary > h3 { display: inline; margin: 0; }
details.cell[open] > summary { margin-bottom: 0.4em; }
details.cell > div.body { scroll-margin-top: 3.5em; }
details.cell:has(> div.body:target) { outline: 3px solid #000; }
.badge { display: inline-block; min-width: 1.8em; padding: 0 0.35em; border-radius: 4px; text-align: center;
         margin-right: 0.4em; }
span.holds, span.fails { padding: 0 0.35em; border-radius: 4px; font-weight: 600; }
.check { border-left: 3px solid var(--line); padding-left: 0.9em; margin: 0.8em 0; }
.pair { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; margin: 0.5em 0; }
table.ranking { font-size: 0.9em; }
table.ranking caption { text-align: left; font-weight: 600; padding-bottom: 0.2em; white-space: nowrap; }
table.ranking th, table.ranking td { border-bottom: 1px solid var(--line); padding: 0.15em 0.55em;
                                     text-align: left; }
table.ranking td.pos { color: var(--muted); text-align: right; }
table.ranking td.r0 { color: var(--muted); }
table.ranking td.rel { font-weight: 600; }
table.ranking tr.changed td { background: var(--changed); }
table.ranking tr.gap td { color: var(--muted); font-style: italic; text-align: center; }
.relation { margin: 0.4em 0; }
p.error-message { border-left: 4px solid var(--error); padding-left: 0.6em; font-weight: 600; }
figure { margin: 0.6em 0; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 0.9em; }
svg.pictures { position: absolute; width: 0; height: 0; overflow: hidden; }
.back { font-size: 0.85em; }
div.boundary { margin: 1.2em 0 1.8em; }
ul.boundaries li { margin: 0.3em 0; }
"""


def _palette_rules() -> str:
    """The verdicts' colours as the pictures draw them: a matrix cell, a badge, a legend's swatch and a
    ``holds``/``fails`` mark of a verdict (its class, e.g. ``violated``, or its swatch's, ``fails``)
    in its swatch's fill with its ink; ``--error`` for an error's message."""
    classes: dict[Swatch, list[str]] = {swatch: [swatch.name] for swatch in SWATCHES}
    for verdict, swatch in VERDICT_SWATCH.items():
        name = verdict_class(verdict)
        if name not in classes[swatch]:
            classes[swatch].append(name)
    rules = [f":root {{ --error: {ERROR.fill}; }}"]
    for swatch, names in classes.items():
        selectors = ", ".join(f"{tag}.{name}" for name in names for tag in ("td", "span", "dt"))
        rules.append(f"{selectors} {{ background: {swatch.fill}; color: {swatch.ink}; }}")
    return "\n".join(rules) + "\n"


#: The one style sheet every page carries inline.
STYLE = _BASE_STYLE + _palette_rules()


def page(title: str, body: Iterable[str], *, subtitle: Sequence[str] = (),
         toc: Sequence[tuple[str, str]] = ()) -> str:
    """A whole HTML document: ``title`` as ``<title>`` and ``<h1>``, the run's ``subtitle`` lines,
    a table of contents of ``(anchor, label)`` links, then the ``body`` fragments."""
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{escape(title)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>",
           f'<header id="top"><h1>{escape(title)}</h1>']
    if subtitle:
        out.append('<ul class="settings">' + "".join(f"<li>{escape(line)}</li>" for line in subtitle)
                   + "</ul>")
    if toc:
        out.append('<nav class="toc">' + "".join(f'<a href="#{escape(anchor)}">{escape(label)}</a>'
                                                 for anchor, label in toc) + "</nav>")
    out.append("</header>")
    out.extend(body)
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


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
        if block.tag == "details":  # folded: the heading its summary, the id on the body it opens
            return _joined(f"<details{_attributes(block.css)}><summary>{heading}</summary>"
                           f"<div{_attributes('body', block.id)}>", "", _shown(block.children), "</div></details>",
                           block.lines)
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
    from axiometer.reports.html import sheet

    toc = [(b.id, b.toc) for b in walk(document.blocks, "html") if isinstance(b, Section) and b.toc]
    with sheet() as pictures:  # each picture drawn once, at the page's end; shown where it belongs
        body = [line for lines in _shown(document.blocks) for line in lines]
    drawn = pictures.html()
    if drawn:
        body.append(drawn)
    return page(document.page_title or document.title, body, subtitle=document.page_subtitle or document.subtitle,
                toc=toc)
