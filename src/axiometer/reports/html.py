"""HTML reports: one self-contained page per result, and the pages of ``intrinsic`` and ``score``.

Every page is a single file that opens offline: the CSS is inline
(:data:`STYLE`), pictures are inline SVG drawn by matplotlib
(:mod:`axiometer.reports.plots`) and no font, script or image is fetched.
The page frame (:func:`page`) and the small building blocks (:func:`picture`,
:func:`data_table`, :func:`definitions`) are shared with the constraint
table's report (:mod:`axiometer.reports.render.html`); numbers print as
:func:`axiometer.reports.numbers.number` prints them (``1/10``, else 6
significant digits).

- :func:`intrinsic_html`: Giner's classification of one metric on a domain
  (definitions §4) with the attained values on a number line, and the
  parametric analysis when one was made;
- :func:`scores_html`: scored runs, with the scatter of each relative metric
  against its base metric per run when relative metrics were scored.

Reports only format result objects; they never compute a score.
"""

from __future__ import annotations

import html
import re
from functools import partial
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from axiometer.reports.conventions import conventions_lines
from axiometer.reports.numbers import number
from axiometer.results import IntrinsicResult, ParametricResult

if TYPE_CHECKING:  # matplotlib loads only when a picture is drawn; scoring would load numpy and sympy
    from matplotlib.figure import Figure

    from axiometer.scoring import ScoreResult

__all__ = ["STYLE", "escape", "page", "inline_svg", "figure", "picture", "data_table", "fields",
           "definitions", "intrinsic_html", "parametric_html", "scores_html"]

escape = html.escape

#: The one style sheet every page carries inline (no external fonts: the reader's system fonts).
STYLE = """
:root { --ok: #dff3e3; --ok-ink: #1d6b34; --bad: #fbe2e0; --bad-ink: #a4231b; --warn: #fff1c7;
        --muted: #6b6f76; --line: #d7d9dd; --changed: #fff3b0; --accent: #2456a6; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       margin: 0 auto; padding: 1.5em 2em 4em; max-width: 78em; color: #1f2328; line-height: 1.45; }
h1 { font-size: 1.6em; margin: 0 0 0.3em; }
h2 { font-size: 1.25em; margin: 2em 0 0.6em; padding-bottom: 0.2em; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05em; margin: 0 0 0.4em; }
h4 { font-size: 0.95em; margin: 1em 0 0.3em; }
a { color: var(--accent); }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace;
              font-size: 0.92em; }
.muted { color: var(--muted); }
.settings { color: var(--muted); margin: 0; padding-left: 1.2em; font-size: 0.92em; }
nav.toc { margin: 0.8em 0 0; font-size: 0.95em; }
nav.toc a { margin-right: 1.2em; }
table { border-collapse: collapse; }
table.data th, table.data td { border: 1px solid var(--line); padding: 0.25em 0.6em; text-align: left;
                               vertical-align: top; }
table.data { margin: 0.4em 0 1em; }
table.data th { background: #f4f5f7; }
table.fields th { text-align: left; font-weight: 600; background: #f4f5f7; }
table.data td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.matrix th, table.matrix td { border: 1px solid var(--line); padding: 0; text-align: center;
                                   min-width: 2.9em; }
table.matrix th { background: #f4f5f7; padding: 0.3em 0.45em; font-weight: 600; }
table.matrix thead th { position: sticky; top: 0; z-index: 1; }
table.matrix th[title] { cursor: help; }
table.matrix th a { color: inherit; text-decoration: underline dotted; }
table.matrix th.row { text-align: left; white-space: nowrap; }
table.matrix td a { display: block; padding: 0.3em 0.45em; color: inherit; text-decoration: none;
                    font-weight: 600; }
table.matrix td a:hover { outline: 2px solid var(--accent); }
.satisfied, .witness { background: var(--ok); color: var(--ok-ink); }
.violated { background: var(--bad); color: var(--bad-ink); }
.error { background: var(--warn); }
.na, .not-run { background: #f0f0f0; color: var(--muted); }
td.differs { box-shadow: inset 0 0 0 2px #7a1f1a; }
td.open { background: #f0f0f0; }
.side-by-side { display: flex; flex-wrap: wrap; gap: 1em 2.5em; align-items: flex-start; }
.side-by-side > div { flex: 1 1 18em; font-size: 0.9em; }
.side-by-side > div:first-child { flex: 0 0 auto; }
.side-by-side h3 { margin-top: 0; }
dl.legend { display: grid; grid-template-columns: max-content 1fr; gap: 0.25em 1em; margin: 0.6em 0; }
dl.legend dt { font-weight: 700; text-align: center; min-width: 2em; }
dl.legend dd { margin: 0; }
dl.terms dt { text-align: left; white-space: nowrap; }
dl.meanings dt { font-weight: 700; margin-top: 0.8em; }
dl.meanings dd { margin: 0.15em 0 0 1.2em; }
section.cell { border: 1px solid var(--line); border-radius: 6px; padding: 0.8em 1em; margin: 1em 0; }
section.cell:target { outline: 3px solid var(--accent); }
.badge { display: inline-block; min-width: 1.8em; padding: 0 0.35em; border-radius: 4px; text-align: center;
         margin-right: 0.4em; }
.check { border-left: 3px solid var(--line); padding-left: 0.9em; margin: 0.8em 0; }
.pair { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; margin: 0.5em 0; }
table.ranking { font-size: 0.9em; }
table.ranking caption { text-align: left; font-weight: 600; padding-bottom: 0.2em; white-space: nowrap; }
table.ranking th, table.ranking td { border-bottom: 1px solid var(--line); padding: 0.15em 0.55em;
                                     text-align: left; }
table.ranking td.pos { color: var(--muted); text-align: right; }
table.ranking td.r0 { color: var(--muted); }
table.ranking td.rel { color: var(--ok-ink); font-weight: 600; }
table.ranking tr.changed td { background: var(--changed); }
table.ranking tr.gap td { color: var(--muted); font-style: italic; text-align: center; }
.relation { margin: 0.4em 0; }
.fails { color: var(--bad-ink); font-weight: 600; }
.holds { color: var(--ok-ink); font-weight: 600; }
figure { margin: 0.6em 0; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 0.9em; }
.back { font-size: 0.85em; }
div.boundary { margin: 1.2em 0 1.8em; }
ul.boundaries li { margin: 0.3em 0; }
"""


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


# -- pictures ---------------------------------------------------------------------------------

_PROLOG = re.compile(r"^\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.S)
_ID = re.compile(r'\sid="([^"]+)"')
_REFERENCE = re.compile(r'(url\(#|href="#)([^"\)]+)')
#: Indentation between elements (never inside one: glyphs are paths, not text).
_BETWEEN = re.compile(r">\s+<")


def inline_svg(svg: str, prefix: str, label: str = "") -> str:
    """An SVG document as an element to inline in HTML.

    Drops the XML prolog, doctype and the indentation between elements;
    drops every ``id`` nothing refers to and renames the others (and each
    reference, ``url(#id)`` and ``href="#id"``) ``prefix-0``, ``prefix-1``, ...,
    so that no two pictures of a page share an id even when they are the
    same picture, and a page of dozens of pictures is not mostly long ids
    (every glyph of a picture's text is a reference). ``label`` becomes the picture's accessible name unless it has one.
    """
    svg = _PROLOG.sub("", svg, count=1)
    # Each referenced id becomes `prefix` and a number, in order of first reference.
    names: dict[str, str] = {}
    for _, name in _REFERENCE.findall(svg):
        names.setdefault(name, f"{prefix}-{len(names):x}")
    svg = _ID.sub(lambda m: f' id="{names[m.group(1)]}"' if m.group(1) in names else "", svg)
    svg = _REFERENCE.sub(lambda m: m.group(1) + names[m.group(2)], svg)
    svg = _BETWEEN.sub("><", svg)
    opening = svg[:svg.find(">") + 1]
    attributes = ("" if " role=" in opening else ' role="img"') + (
        f' aria-label="{escape(label)}"' if label and " aria-label=" not in opening else "")
    return svg.replace("<svg", "<svg" + attributes, 1)


def figure(svg: str, caption: str) -> str:
    """An inline SVG with its caption, as ``<figure>``."""
    return f"<figure>{svg}<figcaption>{escape(caption)}</figcaption></figure>"


def picture(draw: Callable[[], Figure], prefix: str, caption: str) -> str:
    """``draw()``'s matplotlib figure as an inline ``<figure>`` (SVG).

    Drawing is left to :mod:`axiometer.reports.plots` (matplotlib); this only
    serialises and embeds. A picture that cannot be drawn (a ``ValueError``
    from the plotting module for data it cannot show) becomes a one-line
    note instead, so the rest of the report is still written.
    """
    from axiometer.reports import plots

    try:
        svg = plots.to_svg(draw())
    except ValueError as error:
        return f'<p class="muted">(no picture: {escape(str(error))})</p>'
    return figure(inline_svg(svg, prefix, caption), caption)


# -- small blocks -----------------------------------------------------------------------------

def data_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], *, numeric: Sequence[int] = (),
               caption: str = "", raw: bool = False) -> str:
    """A ``<table class="data">``; columns in ``numeric`` align right. Cells are escaped unless ``raw``."""
    out = ['<table class="data">']
    if caption:
        out.append(f"<caption>{escape(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f'<th scope="col">{escape(h)}</th>' for h in headers)
               + "</tr></thead><tbody>")
    for row in rows:
        cells = []
        for i, value in enumerate(row):
            text = str(value) if raw else escape(str(value))
            cells.append(f'<td class="num">{text}</td>' if i in numeric else f"<td>{text}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def fields(rows: Iterable[tuple[str, str]]) -> str:
    """``(name, value)`` rows as a two-column table, names as row headers (escaped)."""
    return ('<table class="data fields"><tbody>'
            + "".join(f'<tr><th scope="row">{escape(name)}</th><td>{escape(value)}</td></tr>' for name, value in rows)
            + "</tbody></table>")


def definitions(items: Iterable[tuple[str, str]], css: str = "legend") -> str:
    """``(term, description)`` pairs as ``<dl>`` (escaped)."""
    return (f'<dl class="{css}">' + "".join(f"<dt>{escape(t)}</dt><dd>{escape(d)}</dd>" for t, d in items)
            + "</dl>")


# -- intrinsic (definitions §4) ---------------------------------------------------------------

def intrinsic_html(result: IntrinsicResult, parametric: ParametricResult | None = None,
                   sentences: Sequence[str] = ()) -> str:
    """One metric classified on a domain as a page: the category, the properties with their
    counterexamples, the attained values on a number line, and the parametric analysis if given
    (``sentences``: the analysis as the text report words it, else its summary); the page of
    :func:`axiometer.reports.intrinsic.intrinsic_document`."""
    from axiometer.reports.intrinsic import intrinsic_document
    from axiometer.reports.render import render

    return render(intrinsic_document(result, parametric, sentences), "html")


def parametric_html(result: ParametricResult, sentences: Sequence[str] = ()) -> str:
    """A parametric analysis alone as a page (``format_parametric(result, "html")``)."""
    from axiometer.reports.intrinsic import parametric_document
    from axiometer.reports.render import render

    return render(parametric_document(result, sentences), "html")


# -- scores -----------------------------------------------------------------------------------

def scores_html(result: ScoreResult, per_topic: bool = False) -> str:
    """Scored runs as a page (:func:`axiometer.reports.scores.scores_document`)."""
    from axiometer.reports.render import render
    from axiometer.reports.scores import scores_document

    return render(scores_document(result, per_topic), "html")
