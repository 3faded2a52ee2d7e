"""LaTeX: a document's tables as booktabs ``table`` environments a paper can ``\\input``.

Only tables (with their captions, labels and notes) have a LaTeX form; the preamble's and the
epilogue's lines become comments, each on one line (:func:`comment`). :func:`escape` is the one LaTeX escape: it writes ``<=`` and ``>=`` as math
symbols and a verdict's :class:`~axiometer.reports.document.Mark` as LaTeX's own symbols.
"""

from __future__ import annotations

import re

from axiometer.reports.document import (
    Block, Break, Code, DefinitionList, Document, Emph, Inlines, Link, Mark, Math, Paragraph, Span, Strong, Sup,
    Table, TableCell, plain,
)
from axiometer.reports.render.text import one_line
from axiometer.results import Verdict

__all__ = ["escape", "comment", "render", "MARKS", "FLAGS"]

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
            "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
            "^": r"\textasciicircum{}", "×": r"$\times$", "≠": r"$\neq$", "≥": r"$\geq$",
            "≤": r"$\leq$", "–": "--", "✓": r"\checkmark{}", "✗": r"$\times$"}
_SYMBOLS = {"<=": r"$\leq$", ">=": r"$\geq$", "<": r"\textless{}", ">": r"\textgreater{}"}

#: LaTeX's spelling of each verdict's mark and each flag (``axiometer.reports.table.cells``).
MARKS: dict[Verdict, str] = {Verdict.SATISFIED: r"\checkmark", Verdict.VIOLATED: r"$\times$", Verdict.WITNESS: "W",
                             Verdict.ERROR: "E", Verdict.NA: "n/a", Verdict.NOT_RUN: "--"}
FLAGS = {"proved": r"\textsuperscript{p}", "params": r"\textsuperscript{$\sim$}", "projected": r"\textsuperscript{\dag}",
         "truncation": r"\textsuperscript{t}", "differs": r"\textsuperscript{$\neq$}"}


def escape(text: str) -> str:
    r"""``text`` with LaTeX's special characters escaped (``<=`` and ``>=`` as math symbols); a line
    break is a space (a blank line would end a table's cell and paragraph) and any other control
    character is shown as ``\xNN`` (issue 29: a user's name or message may hold either)."""
    text = one_line(text)
    pieces = re.split(r"(<=|>=|<|>)", text)
    return "".join(_SYMBOLS[p] if p in _SYMBOLS else "".join(_SPECIAL.get(ch, ch) for ch in p)
                   for p in pieces)


def inline(parts: Inlines) -> str:
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(escape(part))
        elif isinstance(part, Mark):
            out.append((MARKS[part.verdict] if part.verdict is not None else "")
                       + "".join(FLAGS[f] for f in part.flags))
        elif isinstance(part, Strong):
            out.append(f"\\textbf{{{inline(part.parts)}}}")
        elif isinstance(part, Emph):
            out.append(f"\\emph{{{inline(part.parts)}}}")
        elif isinstance(part, Span) and part.css == "muted":  # secondary: smaller
            out.append(f"{{\\scriptsize {inline(part.parts)}}}")
        elif isinstance(part, (Span, Link)):
            out.append(inline(part.parts))
        elif isinstance(part, Sup):
            out.append(f"$^{{\\mathrm{{{escape(part.text)}}}}}$")
        elif isinstance(part, Code):
            out.append(escape(part.text))
        elif isinstance(part, Math):
            out.append(f"${part.latex}$")
        elif isinstance(part, Break):
            out.append(escape(part.separator))
        else:
            out.append(escape(plain((part,))))
    return "".join(out)


def _cells(cells: tuple[TableCell, ...]) -> str:
    return " & ".join(inline(cell.parts) for cell in cells) + " \\\\"


def _note(blocks: tuple[Block, ...]) -> list[str]:
    """A table's note in footnote size: the first block after *Note.*, each other on its line."""
    texts = []
    for block in blocks:
        if isinstance(block, DefinitionList):  # a legend: "symbol~meaning; ..."
            texts.append("; ".join(f"{inline(d.term)}~{inline(d.descriptions[0].parts)}"
                                   for d in block.items) + ".")
        elif isinstance(block, Paragraph):
            texts.append(inline(block.parts))
    if not texts:
        return []
    return ["\\par\\smallskip", "{\\footnotesize", "\\emph{Note.} " + texts[0],
            *(f" {text}" for text in texts[1:]), "\\par}"]


def table(block: Table) -> list[str]:
    """One ``table`` environment (needs booktabs)."""
    align = block.align or "l" * len(block.headers)
    lines = ["\\begin{table}[t]", "\\centering"]
    if block.caption:
        lines.append(f"\\caption{{{inline(block.caption)}}}")
    if block.label:
        lines.append(f"\\label{{{block.label}}}")
    lines += [f"\\begin{{tabular}}{{{align}}}", "\\toprule", _cells(block.headers), "\\midrule",
              *(line for k, row in enumerate(block.rows)
                for line in (["\\midrule"] if row.group and k else []) + [_cells(row.cells)]),
              "\\bottomrule", "\\end{tabular}"]
    return lines + _note(block.note) + ["\\end{table}"]


def comment(line: str) -> str:
    """``line`` as a comment: on one line (a line break in a run's name would end the comment and
    let the rest be read as LaTeX), control characters shown."""
    return f"% {one_line(line)}"


def render(document: Document, width: int = 0) -> str:
    """The document's tables, one environment each, between its preamble and epilogue as comments."""
    lines = [comment(line) for line in document.preamble]
    for number, block in enumerate(b for b in document.blocks if b.shown_in("latex") and isinstance(b, Table)):
        lines += ([""] if number else []) + table(block)
    lines += [comment(line) for line in document.epilogue]
    return "\n".join(lines) + "\n"
