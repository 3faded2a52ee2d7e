"""HTML: the table as a standalone page, each mark linking to its cell's evidence."""

from __future__ import annotations

import html

from axiometer.reports.table.cells import (
    cell_lines, cell_mark, explanation_text, header_lines, legend_items,
)
from axiometer.reports.table.comparison import comparison_lines, differing
from axiometer.results import Cell, Comparison, TableResult

__all__ = ["table_html"]

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table.matrix { border-collapse: collapse; }
table.matrix th, table.matrix td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: center; }
table.matrix td.row { text-align: left; font-weight: bold; }
td.satisfied, td.witness { background: #e6f4e6; }
td.violated { background: #fbe6e6; }
td.error { background: #fff1cc; }
td.differs { outline: 2px solid #c00; }
td a { color: inherit; text-decoration: none; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; }
"""


def _anchor(result: TableResult, cell: Cell) -> str:
    """A unique id per cell: its row and column numbers (titles may hold any character)."""
    return f"cell-{result.rows.index(cell.row) + 1}-{result.constraints.index(cell.constraint) + 1}"


def table_html(result: TableResult, comparison: Comparison | None) -> str:
    """The table as an HTML page: settings, the matrix, the legend, the comparison, then every cell."""
    e = html.escape
    differs = differing(comparison)
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           "<title>axiometer constraint table</title>", f"<style>{_STYLE}</style>", "</head>", "<body>",
           "<h1>Constraint table</h1>", "<ul>"]
    out += [f"<li>{e(line)}</li>" for line in header_lines(result)]
    out.append("</ul>")
    out.append('<table class="matrix">')
    out.append("<thead><tr><th>metric</th>" + "".join(f"<th>{e(c)}</th>" for c in result.constraints)
               + "</tr></thead>")
    out.append("<tbody>")
    for row in result.rows:
        cells = [f'<td class="row">{e(row)}</td>']
        for constraint in result.constraints:
            cell = result.cell(row, constraint)
            if cell is None:
                cells.append("<td></td>")
                continue
            cell_differs = (row, constraint) in differs
            classes = cell.verdict.replace("/", "").replace(" ", "-") + (" differs" if cell_differs else "")
            tip = f"{cell.metric} × {cell.constraint}: {cell.summary}"
            if cell.explanation:
                tip += f"; {explanation_text(cell)}"
            cells.append(f'<td class="{e(classes)}" title="{e(tip)}"><a href="#{_anchor(result, cell)}">'
                         f"{e(cell_mark(cell, cell_differs))}</a></td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody>")
    out.append("</table>")
    out.append("<h2>Legend</h2>")
    out.append("<dl>")
    for mark, meaning in legend_items(result, comparison):
        out.append(f"<dt>{e(mark)}</dt><dd>{e(meaning)}</dd>")
    out.append("</dl>")
    if comparison is not None:
        out.append(f"<h2>Comparison with {e(comparison.table)}</h2>")
        out.append("<pre>" + e("\n".join(comparison_lines(comparison, False))) + "</pre>")
    out.append("<h2>Details</h2>")
    for cell in result.cells:
        lines = cell_lines(cell)
        out.append(f'<section id="{_anchor(result, cell)}"><h3>{e(lines[0])}</h3>')
        out.append("<pre>" + e("\n".join(lines[1:])) + "</pre></section>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
