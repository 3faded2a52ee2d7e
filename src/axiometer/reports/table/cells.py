"""What every format says about a cell: its mark, the legend, the run's settings and the evidence.

- the marks (:data:`MARKS`, :data:`FLAGS`, :func:`cell_mark`) and the legend
  explaining the ones a table uses (:func:`legend_items`);
- the run's settings as lines (:func:`header_lines`);
- a cell's evidence as indented lines (:func:`cell_lines`, :func:`check_lines`):
  counterexamples with their topic and rankings, witnesses, errors and case
  counts. The text formats print these lines as they are, HTML inside
  ``<pre>``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from tabulate import tabulate

from axiometer.core import natural_key
from axiometer.results import Cell, Check, Comparison, Counterexample, TableResult

__all__ = ["MARKS", "FLAGS", "cell_mark", "flags", "parameter_dependent", "by_truncation",
           "legend_items", "header_lines", "cell_lines", "check_lines", "explanation_text",
           "other_mode_name"]

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


# -- marks and the legend ------------------------------------------------------------

def parameter_dependent(cell: Cell) -> bool:
    """Whether the cell's settings disagree on the verdict."""
    return len({check.verdict for check in cell.checks}) > 1


def by_truncation(cell: Cell) -> bool:
    """Whether the default setting's witness exists only by truncation at the cutoff."""
    check = cell.default_check
    return bool(check and check.witness and check.witness.by_truncation)


def flags(cell: Cell, differs: bool = False) -> list[str]:
    """The keys of :data:`FLAGS` that apply to ``cell``, in :data:`FLAGS`' order."""
    found = []
    if parameter_dependent(cell):
        found.append("params")
    if cell.projected:
        found.append("projected")
    if by_truncation(cell):
        found.append("truncation")
    if differs:
        found.append("differs")
    return found


def cell_mark(cell: Cell, differs: bool = False) -> str:
    """The cell's matrix mark: the verdict's mark and its flags, e.g. ``"W~"``, ``"✗†"``."""
    return MARKS.get(cell.verdict, cell.verdict) + "".join(FLAGS[f] for f in flags(cell, differs))


def legend_items(result: TableResult, comparison: Comparison | None) -> list[tuple[str, str]]:
    """``(mark, meaning)`` for every mark and flag the table uses (✓ and ✗ always; ≠ with a comparison)."""
    used = {c.verdict for c in result.cells}
    items = [(MARKS[v], _MEANING[v]) for v in MARKS if v in used or v in ("satisfied", "violated")]
    flags_used = {f for c in result.cells for f in flags(c)}
    if comparison is not None:
        flags_used.add("differs")
    items += [(FLAGS[f], _FLAG_MEANING[f] + (f" ({comparison.table})" if f == "differs" and comparison
                                            else "")) for f in FLAGS if f in flags_used]
    return items


def _mode_text(result: TableResult) -> str:
    if result.mode == "default":
        return "default (window for universal constraints, truncate for the thresholds)"
    return result.mode


def header_lines(result: TableResult) -> list[str]:
    """The run's settings: seed, cutoff mode, budget, rho, and whether it was interrupted."""
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


# -- evidence: topics, rankings, counterexamples ---------------------------------------

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


def check_lines(check: Check, indent: str) -> list[str]:
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


def cell_lines(cell: Cell, indent: str = "  ") -> list[str]:
    """Everything a cell says, as indented lines (the first, unindented, names the cell)."""
    lines = [f"{cell.row} × {cell.constraint}: {cell.verdict}" + (" (projected)" if cell.projected else "")]
    if parameter_dependent(cell):
        lines.append(f"{indent}depends on the parameters: {cell.summary}")
    if cell.other_mode is not None:
        lines.append(f"{indent}in {other_mode_name(cell)} mode: {cell.other_mode}")
    if cell.explanation:
        lines.append(f"{indent}explanation: {explanation_text(cell)}")
    default = cell.default_check
    if default is not None:
        lines += check_lines(default, indent)
        # For a parameter-dependent cell, the first setting of every other verdict too.
        seen = {default.verdict}
        for check in cell.checks:
            if check.verdict not in seen:
                seen.add(check.verdict)
                lines += check_lines(check, indent)
    return lines


def explanation_text(cell: Cell) -> str:
    """``violated; holds when ...`` (definitions §3, "Explaining a violation")."""
    text = cell.explanation or ""
    return f"{cell.verdict}; {text}" if text.startswith("holds") else text


def other_mode_name(cell: Cell) -> str:
    """The cutoff mode the cell's ``other_mode`` verdict was reached in."""
    mode = cell.default_check.mode if cell.default_check else ""
    return {"window": "truncate", "truncate": "window"}.get(mode, "the other")
