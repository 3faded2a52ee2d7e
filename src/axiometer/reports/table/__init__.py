"""Reports of a constraint table (:class:`~axiometer.results.TableResult`).

- :func:`format_table`: ``text`` (a matrix of marks, a legend, then every
  parameter-dependent cell's summary and every counterexample, witness,
  error and explanation), ``markdown``, ``latex`` (a booktabs table a paper
  can ``\\input``), ``html`` (a standalone page) and ``json``; with a
  :class:`~axiometer.results.Comparison`, also the agreement with the
  published table and, for every differing cell, its counterexample or
  witness and explanation.
- :func:`format_check`: one metric's verdicts (``axiometer check``), each
  counterexample in full: the topic's relevance table, rankings ``a`` and
  ``b``, both scores and the relation that fails.

Marks (:data:`MARKS`, :data:`FLAGS`): ``✓`` satisfied, ``✗`` violated, ``W``
witness, ``E`` error, ``n/a``, ``–`` not run; suffixes ``~`` (the verdict
depends on the parameters; the mark is the default setting's), ``†``
(projected: an aspect-blind metric on a diversity constraint), ``ᵗ`` (the
witness exists only by truncation at the cutoff) and ``≠`` (differs from the
published table).

Reports only format result objects; they never run a check.
"""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from tabulate import tabulate

from axiometer.core import natural_key
from axiometer.results import Cell, Check, Comparison, Counterexample, TableResult

__all__ = ["REPORT_FORMATS", "CHECK_FORMATS", "MARKS", "FLAGS", "format_table", "format_check",
           "cell_mark", "json_cell"]

REPORT_FORMATS = ("text", "markdown", "latex", "html", "json")
CHECK_FORMATS = ("text", "markdown", "json")

#: One mark per verdict (text, Markdown, HTML).
MARKS = {"satisfied": "✓", "violated": "✗", "witness": "W", "error": "E", "n/a": "n/a",
         "not run": "–"}
#: Suffixes: what else a cell says.
FLAGS = {"params": "~", "projected": "†", "truncation": "ᵗ", "differs": "≠"}

_MEANING = {
    "satisfied": "satisfied: no counterexample in the generated cases plus the exhaustive small scope",
    "violated": "violated: a counterexample was found (shown below)",
    "witness": "witness: the existential constraint holds, with the witness shown below",
    "error": "error: the metric misbehaved (raised, returned a non-number, changed its input, was "
             "non-deterministic or too slow; the input is shown below)",
    "n/a": "not applicable: the metric's requirements cannot be met by the constraint's cases",
    "not run": "not run: the run was interrupted before this cell finished",
}
_FLAG_MEANING = {
    "params": "the verdict depends on the parameters (the mark is the default setting's; "
              "see the summaries)",
    "projected": "projected: an aspect-blind metric on a diversity constraint, computed on "
                 "r(d) = max_t r(d,t) (the paper counts these as not satisfied)",
    "truncation": "the witness exists only because documents fell past the cutoff (by truncation)",
    "differs": "differs from the published table",
}

#: Rankings and topics longer than this are compressed (``d1..d64``).
_SHOW_ALL = 12


# -- cells ---------------------------------------------------------------------

def _parameter_dependent(cell: Cell) -> bool:
    return len({check.verdict for check in cell.checks}) > 1


def _by_truncation(cell: Cell) -> bool:
    check = cell.default_check
    return bool(check and check.witness and check.witness.by_truncation)


def _flags(cell: Cell, differs: bool = False) -> list[str]:
    flags = []
    if _parameter_dependent(cell):
        flags.append("params")
    if cell.projected:
        flags.append("projected")
    if _by_truncation(cell):
        flags.append("truncation")
    if differs:
        flags.append("differs")
    return flags


def cell_mark(cell: Cell, differs: bool = False) -> str:
    """The cell's matrix mark: the verdict's mark and its flags, e.g. ``"W~"``, ``"✗†"``."""
    return MARKS.get(cell.verdict, cell.verdict) + "".join(FLAGS[f] for f in _flags(cell, differs))


def _differing(comparison: Comparison | None) -> set[tuple[str, str]]:
    if comparison is None:
        return set()
    return {(d.row, d.constraint) for d in comparison.differences}


def _mode_text(result: TableResult) -> str:
    if result.mode == "default":
        return "default (window for universal constraints, truncate for the thresholds)"
    return result.mode


def _header_lines(result: TableResult) -> list[str]:
    settings = dict(result.settings)
    lines = [f"seed {result.seed}; cutoff mode: {_mode_text(result)}",
             f"budget: {result.budget}" + ("; quick grids" if settings.get("quick") else "")]
    if "rho" in settings:
        lines.append(f"relevance contribution: r <= rho = {settings['rho']}")
    if result.interrupted:
        done = sum(1 for c in result.cells if c.verdict != "not run")
        lines.append(f"INTERRUPTED: {done} of {len(result.cells)} cells finished; the others are "
                     f"marked 'not run'")
    return lines


def _legend_items(result: TableResult, comparison: Comparison | None) -> list[tuple[str, str]]:
    used = {c.verdict for c in result.cells}
    items = [(MARKS[v], _MEANING[v]) for v in MARKS if v in used or v in ("satisfied", "violated")]
    flags_used = {f for c in result.cells for f in _flags(c)}
    if comparison is not None:
        flags_used.add("differs")
    items += [(FLAGS[f], _FLAG_MEANING[f] + (f" ({comparison.table})" if f == "differs" and comparison
                                            else "")) for f in FLAGS if f in flags_used]
    return items


# -- details: topics, rankings, counterexamples -------------------------------------

_ID = re.compile(r"^(.*?)(\d+)$")


def _compress(ids: Sequence[str]) -> str:
    """Document ids with runs of consecutive numbers folded: ``d1..d64 r1``."""
    parts: list[str] = []
    i = 0
    while i < len(ids):
        match = _ID.match(ids[i])
        j = i + 1
        if match:
            prefix, number = match.group(1), int(match.group(2))
            while j < len(ids):
                nxt = _ID.match(ids[j])
                if not nxt or nxt.group(1) != prefix or int(nxt.group(2)) != number + (j - i):
                    break
                j += 1
        if j - i >= 3:
            parts.append(f"{ids[i]}..{ids[j - 1]}")
        else:
            parts.extend(ids[i:j])
        i = j
    return " ".join(parts)


def _ranking_text(ranking: Sequence[str]) -> str:
    if len(ranking) <= _SHOW_ALL:
        return " ".join(ranking) if ranking else "(empty)"
    return f"{_compress(ranking)} ({len(ranking)} documents)"


def _topic_lines(cx: Counterexample, indent: str) -> list[str]:
    topic = cx.topic
    single = len(topic.aspects) == 1
    lines = []
    if not single:
        aspects = ", ".join(f"{a} (w = {w})" for a, w in zip(topic.aspects, topic.weights))
        lines.append(f"{indent}aspects: {aspects}")
    shown = sorted(dict.fromkeys([*cx.a, *cx.b, *(d for d, _ in topic.judgments)]), key=natural_key)
    if len(shown) <= _SHOW_ALL:
        if single:
            lines.append(f"{indent}relevance: " + ", ".join(f"r({d}) = {topic.relevance(d)[0]}"
                                                          for d in shown))
        else:
            table = tabulate([[d, *topic.relevance(d)] for d in shown], headers=["doc", *topic.aspects],
                             tablefmt="plain", disable_numparse=True)
            lines.append(f"{indent}relevance r(d,t):")
            lines += [f"{indent}  {line}" for line in table.splitlines()]
        return lines
    groups: dict[tuple[str, ...], list[str]] = {}
    for d in shown:
        groups.setdefault(topic.relevance(d), []).append(d)
    lines.append(f"{indent}relevance" + (" r(d):" if single else " (r(d,t) per aspect):"))
    for values, docs in groups.items():
        label = values[0] if single else "(" + ", ".join(values) + ")"
        lines.append(f"{indent}  {label}: {_compress(docs)} ({len(docs)} documents)")
    return lines


def _one_output_lines(cx: Counterexample, indent: str) -> list[str]:
    """A counterexample about one scored output: the ranking, its context, its score and the claim."""
    lines = [f"{indent}ranking = {_ranking_text(cx.a)}"]
    if cx.context_a is not None:
        lines.append(f"{indent}other systems: {_context_text(cx.context_a)}")
    lines.append(f"{indent}Q = {_score(cx.score_a)}")
    lines.append(f"{indent}required {cx.relation}, which fails"
                 + (f" (decided {'exactly' if cx.decided == 'exact' else 'on floats'})"
                    if math.isfinite(cx.score_a) else ""))
    if cx.note:
        lines.append(f"{indent}{cx.note}")
    extra = [f"{k} = {v}" for k, v in cx.extra if k != "signs"]
    if extra:
        lines.append(f"{indent}" + ", ".join(extra))
    return lines


def _context_text(context: Sequence[Sequence[str]]) -> str:
    """``s1 = d1 d2; s2 = o1`` (``none`` for an empty context)."""
    if not context:
        return "none"
    return "; ".join(f"s{i} = {_ranking_text(r)}" for i, r in enumerate(context, 1))


def _score(value: float) -> str:
    return f"{value:.10g}" if math.isfinite(value) else f"undefined ({value})"


def _counterexample_lines(cx: Counterexample, indent: str) -> list[str]:
    lines = _topic_lines(cx, indent)
    if cx.a == cx.b and cx.context_b is None and cx.score_a == cx.score_b or cx.score_a != cx.score_a:
        return lines + _one_output_lines(cx, indent)  # a property of one output (Bounded, Finite...)
    lines.append(f"{indent}a = {_ranking_text(cx.a)}")
    lines.append(f"{indent}b = {_ranking_text(cx.b)}")
    if cx.context_a is not None:
        label = "other systems" if cx.context_b is None else "other systems for a"
        lines.append(f"{indent}{label}: {_context_text(cx.context_a)}")
    if cx.context_b is not None:
        lines.append(f"{indent}other systems for b: {_context_text(cx.context_b)}")
    tie = " (equal: a tie, decided exactly)" if cx.score_a == cx.score_b and cx.decided == "exact" else ""
    lines.append(f"{indent}Q(a) = {_score(cx.score_a)}, Q(b) = {_score(cx.score_b)}{tie}")
    lines.append(f"{indent}required {cx.relation}, which fails (decided {'exactly' if cx.decided == 'exact' else 'on floats'})")
    if cx.note:
        lines.append(f"{indent}{cx.note}")
    extra = [f"{k} = {v}" for k, v in cx.extra if k != "signs"]
    if extra:
        lines.append(f"{indent}" + ", ".join(extra))
    signs = dict(cx.extra).get("signs")
    if signs:
        lines.append(f"{indent}sign of D = Q(a) - Q(b) along the grid: {signs}")
    return lines


def _cases_text(check: Check) -> str:
    parts = []
    if check.cases:
        parts.append(f"{check.cases} generated")
    if check.small_scope:
        parts.append(f"{check.small_scope} small-scope")
    text = " + ".join(parts) + " cases" if parts else "no cases"
    decided = "ties decided exactly" if check.exact else f"float ties within {check.tolerance:g}"
    return f"{text}; {decided}"


def _check_lines(check: Check, indent: str) -> list[str]:
    """A check's evidence: counterexample, witness, error or case counts."""
    head = f"{indent}{check.metric}, {check.mode} mode: {check.verdict}"
    lines = [head]
    inner = indent + "  "
    if check.counterexample is not None:
        lines += _counterexample_lines(check.counterexample, inner)
    elif check.witness is not None:
        w = check.witness
        text = f"{inner}witness {w.value}" + (f" ({w.note})" if w.note else "")
        if w.by_truncation:
            text += "; by truncation (documents past the cutoff)"
        lines.append(text)
        if w.signs:
            for part in w.signs.split("; "):
                lines.append(f"{inner}sign of D = Q(a) - Q(b): {part}")
    elif check.error is not None:
        lines.append(f"{inner}error: {check.error.message}")
        if check.error.ranking is not None:
            lines.append(f"{inner}on ranking {_ranking_text(check.error.ranking)}")
        if check.error.topic is not None:
            fake = Counterexample(check.error.topic, tuple(check.error.ranking or ()), (), 0.0, 0.0, "", "", "")
            lines += _topic_lines(fake, inner)
    elif check.verdict == "satisfied":
        lines.append(f"{inner}no counterexample in {_cases_text(check)}")
    if check.note:
        lines.append(f"{inner}note: {check.note}")
    return lines


def _cell_lines(cell: Cell, indent: str = "  ") -> list[str]:
    """Everything a cell says, as indented lines."""
    lines = [f"{cell.row} × {cell.constraint}: {cell.verdict}" + (" (projected)" if cell.projected else "")]
    if _parameter_dependent(cell):
        lines.append(f"{indent}depends on the parameters: {cell.summary}")
    if cell.other_mode is not None:
        lines.append(f"{indent}in {_other_mode_name(cell)} mode: {cell.other_mode}")
    if cell.explanation:
        lines.append(f"{indent}explanation: {_explanation_text(cell)}")
    default = cell.default_check
    if default is not None:
        lines += _check_lines(default, indent)
        # For a parameter-dependent cell, the first setting of every other verdict too.
        seen = {default.verdict}
        for check in cell.checks:
            if check.verdict not in seen:
                seen.add(check.verdict)
                lines += _check_lines(check, indent)
    return lines


def _explanation_text(cell: Cell) -> str:
    """``violated; holds when ...`` (definitions §3, "Explaining a violation")."""
    text = cell.explanation or ""
    return f"{cell.verdict}; {text}" if text.startswith("holds") else text


# -- text and Markdown ----------------------------------------------------------------

def _matrix(result: TableResult, comparison: Comparison | None) -> list[list[str]]:
    differing = _differing(comparison)
    rows = []
    for row in result.rows:
        marks = []
        for constraint in result.constraints:
            cell = result.cell(row, constraint)
            marks.append(cell_mark(cell, (row, constraint) in differing) if cell else "")
        rows.append([row, *marks])
    return rows


def _comparison_lines(comparison: Comparison, markdown: bool) -> list[str]:
    lines = [f"Agreement with {comparison.table}: {comparison.agree} of {comparison.total} decided cells "
             f"({100 * comparison.rate:.1f}%); ours holds = satisfied or witness."]
    if comparison.differences:
        lines.append(f"{len(comparison.differences)} cells differ (published mark -> our verdict):")
        for d in comparison.differences:
            lines.append(f"{'- ' if markdown else '  '}{d.row} × {d.constraint}: published {d.published}, "
                         f"ours {d.ours}" + _difference_reason(d.cell))
    if comparison.undecided:
        lines.append(f"{len(comparison.undecided)} cells the paper leaves open (?), not counted: "
                     + ", ".join(f"{d.row} × {d.constraint} = {d.ours}" for d in comparison.undecided))
    if comparison.not_compared:
        lines.append("not compared (error or not run): "
                     + ", ".join(f"{d.row} × {d.constraint} = {d.ours}" for d in comparison.not_compared))
    if comparison.unmatched:
        lines.append("rows without a published row: " + ", ".join(comparison.unmatched))
    return lines


def _difference_reason(cell: Cell) -> str:
    """What may account for a difference: projection, truncation, parameters, the other mode, a reading."""
    reasons = []
    if cell.projected:
        reasons.append("projected (computed on r(d) = max_t r(d,t); the paper counts aspect-blind "
                       "metrics as not satisfying diversity constraints)")
    if _by_truncation(cell):
        reasons.append("by truncation (the witness has documents past the cutoff)")
    if _parameter_dependent(cell):
        reasons.append(f"parameters: {cell.summary}")
    if cell.other_mode is not None:
        reasons.append(f"in {_other_mode_name(cell)} mode: {cell.other_mode}")
    if cell.explanation:
        reasons.append(f"explanation: {cell.explanation}")
    check = cell.default_check
    if not reasons and check is not None and check.holds:
        # Nothing qualifies the verdict: the evidence itself is the explanation.
        if check.witness is not None:
            reasons.append(f"holds with witness {check.witness.value}, within the cutoff")
        else:
            reasons.append(f"no counterexample in {check.cases} generated + {check.small_scope} "
                           "small-scope cases")
    return f" — {'; '.join(reasons)}" if reasons else ""


def _other_mode_name(cell: Cell) -> str:
    mode = cell.default_check.mode if cell.default_check else ""
    return {"window": "truncate", "truncate": "window"}.get(mode, "the other")


def _text(result: TableResult, comparison: Comparison | None, markdown: bool) -> str:
    out: list[str] = []
    title = "Constraint table"
    out.append(f"## {title}" if markdown else title)
    out.append("")
    out += [f"- {line}" if markdown else line for line in _header_lines(result)]
    out.append("")
    out.append(tabulate(_matrix(result, comparison), headers=["metric", *result.constraints],
                        tablefmt="github" if markdown else "simple", disable_numparse=True,
                        stralign="left"))
    out.append("")
    out.append("Legend:" if not markdown else "**Legend**")
    if markdown:
        out.append("")
    for mark, meaning in _legend_items(result, comparison):
        out.append(f"- `{mark}` {meaning}" if markdown else f"  {mark:<4} {meaning}")
    if comparison is not None:
        out.append("")
        out.append(f"### Comparison with {comparison.table}" if markdown else "")
        out += _comparison_lines(comparison, markdown)
        if comparison.differences:
            out.append("")
            out.append("### Differing cells" if markdown else "Differing cells:")
            for d in comparison.differences:
                out += _block(_cell_lines(d.cell), markdown)
    dependent = [c for c in result.cells if _parameter_dependent(c)]
    if dependent:
        out.append("")
        out.append("### Parameter dependence" if markdown else "Parameter dependence:")
        if markdown:
            out.append("")
        for cell in dependent:
            out.append(f"{'- ' if markdown else '  '}{cell.row} × {cell.constraint}: {cell.summary}")
    out.append("")
    out.append("### Details" if markdown else "Details:")
    for cell in result.cells:
        out += _block(_cell_lines(cell), markdown)
    return "\n".join(out).rstrip() + "\n"


def _block(lines: list[str], markdown: bool) -> list[str]:
    if markdown:
        return ["", f"#### {lines[0]}", "", "```", *lines[1:], "```"]
    return ["", *lines]


# -- LaTeX -------------------------------------------------------------------------

_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}", "×": r"$\times$", "≠": r"$\neq$", "≥": r"$\geq$",
                  "≤": r"$\leq$", "–": "--", "✓": r"\checkmark{}", "✗": r"$\times$"}

_LATEX_MARKS = {"satisfied": r"\checkmark", "violated": r"$\times$", "witness": "W", "error": "E",
                "n/a": "n/a", "not run": "--"}
_LATEX_FLAGS = {"params": r"\textsuperscript{$\sim$}", "projected": r"\textsuperscript{\dag}",
                "truncation": r"\textsuperscript{t}", "differs": r"\textsuperscript{$\neq$}"}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (``<=`` and ``>=`` as math symbols)."""
    pieces = re.split(r"(<=|>=|<|>)", text)
    symbols = {"<=": r"$\leq$", ">=": r"$\geq$", "<": r"\textless{}", ">": r"\textgreater{}"}
    return "".join(symbols[p] if p in symbols else "".join(_LATEX_SPECIAL.get(ch, ch) for ch in p)
                   for p in pieces)


def _latex(result: TableResult, comparison: Comparison | None) -> str:
    differing = _differing(comparison)
    columns = "l" + "c" * len(result.constraints)
    lines = [
        "% Generated by axiometer (axiometer table --format latex).",
        "% Requires \\usepackage{booktabs} and \\usepackage{amssymb} (for \\checkmark).",
        "\\begin{table}[t]",
        "\\centering",
        f"\\caption{{Constraints satisfied by each metric (seed {result.seed}; cutoff mode "
        f"{latex_escape(result.mode)}).}}",
        "\\label{tab:axiometer-constraints}",
        f"\\begin{{tabular}}{{{columns}}}",
        "\\toprule",
        " & ".join(["Metric", *(latex_escape(c) for c in result.constraints)]) + " \\\\",
        "\\midrule",
    ]
    for row in result.rows:
        marks = []
        for constraint in result.constraints:
            cell = result.cell(row, constraint)
            if cell is None:
                marks.append("")
                continue
            flags = _flags(cell, (row, constraint) in differing)
            marks.append(_LATEX_MARKS.get(cell.verdict, latex_escape(cell.verdict))
                         + "".join(_LATEX_FLAGS[f] for f in flags))
        lines.append(" & ".join([latex_escape(row), *marks]) + " \\\\")
    lines.append("\\bottomrule")
    lines.append("\\end{tabular}")
    # The legend and the parameter dependence as a table note.
    legend = []
    for mark, meaning in _legend_items(result, comparison):
        symbol = next((_LATEX_MARKS[v] for v, m in MARKS.items() if m == mark), None)
        symbol = symbol or next((_LATEX_FLAGS[f] for f, m in FLAGS.items() if m == mark), latex_escape(mark))
        legend.append(f"{symbol}~{latex_escape(meaning.split(':')[0])}")
    note = ["\\par\\smallskip", "{\\footnotesize", "\\emph{Note.} " + "; ".join(legend) + "."]
    dependent = [c for c in result.cells if _parameter_dependent(c)]
    if dependent:
        note.append(" Parameter dependence: " + "; ".join(
            f"{latex_escape(c.row)}/{latex_escape(c.constraint)}: {latex_escape(c.summary)}"
            for c in dependent) + ".")
    if comparison is not None:
        note.append(f" Agreement with {latex_escape(comparison.table)}: {comparison.agree} of "
                    f"{comparison.total} decided cells.")
    note.append(f" Budget: {latex_escape(result.budget)}.")
    if result.interrupted:
        note.append(" The run was interrupted; cells marked -- were not run.")
    note.append("\\par}")
    lines += note
    lines.append("\\end{table}")
    return "\n".join(lines) + "\n"


# -- HTML ----------------------------------------------------------------------------

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


def _html(result: TableResult, comparison: Comparison | None) -> str:
    e = html.escape
    differing = _differing(comparison)
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           "<title>axiometer constraint table</title>", f"<style>{_STYLE}</style>", "</head>", "<body>",
           "<h1>Constraint table</h1>", "<ul>"]
    out += [f"<li>{e(line)}</li>" for line in _header_lines(result)]
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
            differs = (row, constraint) in differing
            classes = cell.verdict.replace("/", "").replace(" ", "-") + (" differs" if differs else "")
            tip = f"{cell.metric} × {cell.constraint}: {cell.summary}"
            if cell.explanation:
                tip += f"; {_explanation_text(cell)}"
            cells.append(f'<td class="{e(classes)}" title="{e(tip)}"><a href="#{_anchor(result, cell)}">'
                         f"{e(cell_mark(cell, differs))}</a></td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody>")
    out.append("</table>")
    out.append("<h2>Legend</h2>")
    out.append("<dl>")
    for mark, meaning in _legend_items(result, comparison):
        out.append(f"<dt>{e(mark)}</dt><dd>{e(meaning)}</dd>")
    out.append("</dl>")
    if comparison is not None:
        out.append(f"<h2>Comparison with {e(comparison.table)}</h2>")
        out.append("<pre>" + e("\n".join(_comparison_lines(comparison, False))) + "</pre>")
    out.append("<h2>Details</h2>")
    for cell in result.cells:
        lines = _cell_lines(cell)
        out.append(f'<section id="{_anchor(result, cell)}"><h3>{e(lines[0])}</h3>')
        out.append("<pre>" + e("\n".join(lines[1:])) + "</pre></section>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


# -- JSON ----------------------------------------------------------------------------

def _finite(value: Any) -> Any:
    """``value`` with every nan/inf float replaced by ``None``: JSON has no NaN (an undefined score)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _dumps(data: Any) -> str:
    return json.dumps(_finite(data), indent=2, ensure_ascii=False, default=_json_default,
                      allow_nan=False) + "\n"


def _json_default(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def json_cell(cell: Cell, data: dict[str, Any]) -> dict[str, Any]:
    """A cell's dict with the default setting's evidence lifted to the cell level."""
    default = cell.default_check
    data = dict(data)
    data["params"] = dict(default.params) if default else {}
    data["mark"] = cell_mark(cell)
    data["parameter_dependent"] = _parameter_dependent(cell)
    data["by_truncation"] = _by_truncation(cell)
    for key in ("counterexample", "witness", "error"):
        data[key] = data["checks"][cell.checks.index(default)][key] if default else None
    data.setdefault("explanation", cell.explanation)
    return data


def _json(result: TableResult, comparison: Comparison | None) -> str:
    data = result.to_dict()
    data["cells"] = [json_cell(cell, raw) for cell, raw in zip(result.cells, data["cells"])]
    if comparison is not None:
        compared = comparison.to_dict()
        for group in ("differences", "undecided", "not_compared"):
            for entry in compared[group]:
                entry.pop("cell")  # the cell is in "cells"; keep the comparison small
        data["comparison"] = compared
    return _dumps(data)


# -- entry points ------------------------------------------------------------------

def format_table(result: TableResult, format: str = "text", comparison: Comparison | None = None) -> str:
    """``result`` as ``text``, ``markdown``, ``latex``, ``html`` or ``json`` (see the module docstring)."""
    if format not in REPORT_FORMATS:
        raise ValueError(f"unknown report format {format!r}; known: {', '.join(REPORT_FORMATS)}")
    if format == "json":
        return _json(result, comparison)
    if format == "latex":
        return _latex(result, comparison)
    if format == "html":
        return _html(result, comparison)
    return _text(result, comparison, markdown=format == "markdown")


def format_check(items: TableResult | Cell | Check | Sequence[Cell | Check], format: str = "text") -> str:
    """One metric's verdicts (``axiometer check``): a line per constraint, then each cell in full.

    ``items`` is a table (usually one row), a cell, a check, or a sequence of
    them; ``format`` is ``text``, ``markdown`` or ``json``.
    """
    if format not in CHECK_FORMATS:
        raise ValueError(f"unknown report format {format!r}; known: {', '.join(CHECK_FORMATS)}")
    if isinstance(items, TableResult) and format == "json":
        return _json(items, None)
    header: list[str] = []
    if isinstance(items, TableResult):
        header = _header_lines(items)
        entries: list[Cell | Check] = list(items.cells)
    elif isinstance(items, (Cell, Check)):
        entries = [items]
    else:
        entries = list(items)
    if format == "json":
        data = [json_cell(e, _cell_dict(e)) if isinstance(e, Cell) else _check_dict(e) for e in entries]
        return _dumps(data)
    markdown = format == "markdown"
    out: list[str] = []
    if header:
        out += [f"- {line}" if markdown else line for line in header]
        out.append("")
    summary = []
    for entry in entries:
        if isinstance(entry, Cell):
            summary.append([entry.metric, entry.constraint, cell_mark(entry), entry.summary])
        else:
            summary.append([entry.metric, entry.constraint, MARKS.get(entry.verdict, entry.verdict),
                            entry.verdict])
    out.append(tabulate(summary, headers=["metric", "constraint", "mark", "verdict"],
                        tablefmt="github" if markdown else "simple", disable_numparse=True))
    for entry in entries:
        lines = _cell_lines(entry) if isinstance(entry, Cell) else [
            f"{entry.metric} × {entry.constraint}: {entry.verdict}", *_check_lines(entry, "  ")[1:]]
        out += _block(lines, markdown)
    return "\n".join(out).rstrip() + "\n"


def _check_dict(check: Check) -> dict[str, Any]:
    from dataclasses import asdict

    data = asdict(check)
    data["params"] = dict(check.params)
    return data


def _cell_dict(cell: Cell) -> dict[str, Any]:
    from dataclasses import asdict

    return asdict(cell)
