"""What every format says about a cell: its mark, the legend, the run's settings and the evidence.

- the marks (:data:`MARKS`, :data:`FLAGS`, :func:`cell_mark`) and the legend
  explaining the ones a table uses (:func:`legend_items`, and the compact
  one-line forms of the text legend, :func:`short_legend_items`);
- what each column means (:func:`axiom_infos`, :func:`column_items`), from
  :attr:`TableResult.axioms <axiometer.results.TableResult>` (the id alone
  when the run did not say);
- the run's settings as lines (:func:`header_lines`);
- a cell's evidence as indented lines (:func:`cell_lines`, :func:`check_lines`; the checks
  a cell shows, :func:`shown_checks`): each counterexample opens with a sentence that
  instantiates the constraint's meaning (:func:`counterexample_sentence`), then the topic,
  the rankings and both scores; witnesses, errors and case counts; what a
  holding verdict rests on (:func:`evidence_text`): a search, or a proof,
  and, when proofs were tried and it is not proved, why not (the words of
  :mod:`~axiometer.reports.table.proofs`).

The abbreviations these lines use are chosen from the same data by
:mod:`~axiometer.reports.table.glossary`.

Numbers print through :func:`axiometer.reports.numbers.number`: a short
exact fraction or 6 significant digits, never float noise.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from tabulate import tabulate

from axiometer.core import natural_key
from axiometer.metrics.base import format_value
from axiometer.reports.document import Mark
from axiometer.reports.numbers import NBSP, boundary_value, denoise, number, numbers_apart
from axiometer.reports.table.proofs import (check_proved, formula_lines, proof_note, proof_text, proved,
                                            unproved_setting)
from axiometer.results import (AxiomInfo, Boundary, BoundaryCurve, Cell, Check, PublishedComparison, Counterexample,
                               Decided, Evidence, HOLDS, RootForm, Side, Strength, TableResult, TopicRecord, Verdict)

__all__ = ["MARKS", "FLAGS", "OPEN_FLAG", "cell_mark", "mark_of", "flags", "parameter_dependent",
           "by_truncation", "legend_marks", "legend_items", "short_legend_items", "header_lines", "axiom_infos",
           "column_items", "cell_lines", "check_lines", "shown_checks", "counterexample_sentence",
           "explanation_text", "other_mode_name", "decision_shown", "cases_text", "evidence_text",
           "boundary_sentence", "boundary_lines", "curve_text", "BOUNDARIES_INTRO"]

#: What the boundary lines of a report mean, printed above them.
BOUNDARIES_INTRO = ("Boundaries: where a verdict changes along a parameter (the others fixed), "
                    "bisected to 1e-6 with exact decisions at every probe; a side is certain when a "
                    "concrete case (a counterexample, or CloseTh's witness pair) decided every probe on "
                    "it, else it is as strong as the search behind it.")

#: One mark per verdict (text, Markdown, HTML).
MARKS: dict[Verdict, str] = {Verdict.SATISFIED: "✓", Verdict.VIOLATED: "✗", Verdict.WITNESS: "W",
                             Verdict.ERROR: "E", Verdict.NA: "n/a", Verdict.NOT_RUN: "–"}
#: Suffixes: what else a cell says (``ᵖ`` first: it qualifies the verdict itself).
FLAGS = {"proved": "ᵖ", "params": "~", "projected": "†", "truncation": "ᵗ", "differs": "≠"}
#: The text matrix's suffix for a cell the published table leaves open (``?``), with ``--compare``.
OPEN_FLAG = "?"

_MEANING: dict[Verdict, str] = {
    Verdict.SATISFIED: "satisfied: no counterexample in the generated cases nor in the exhaustive small scope",
    Verdict.VIOLATED: "violated: a counterexample breaks the constraint",
    Verdict.WITNESS: "witness: the existential constraint holds (DeepTh, CloseTh: a threshold n or m; "
                     "Sat: a saturating relevance rmax)",
    Verdict.ERROR: "error: the metric misbehaved (raised, returned a non-number, changed its input, was "
                   "non-deterministic or too slow) on the input shown",
    Verdict.NA: "not applicable: no case of the constraint meets the metric's requirements",
    Verdict.NOT_RUN: "not run: the run was interrupted before this cell finished",
}
_FLAG_MEANING = {
    "proved": "proved: it holds for every real relevance value in (0, rho], not only the values searched, "
              "over the scope its details state (every case structure up to a size, or every ranking "
              "length), at the default setting the mark shows",
    "params": "depends on the parameters: the verdict changes over the parameter grid (the mark is "
              "the default setting's)",
    "projected": "projected: an aspect-blind metric on a diversity constraint, computed on "
                 "r(d) = max_t r(d,t) (the paper counts these as not satisfied)",
    "truncation": "by truncation: the witness exists only because documents fall past the cutoff",
    "differs": "differs from the published table",
}
#: The text legend's compact forms (one screen): the same meanings, shortest.
_SHORT_MEANING: dict[Verdict, str] = {
    Verdict.SATISFIED: "satisfied",
    Verdict.VIOLATED: "violated (a counterexample)",
    Verdict.WITNESS: "witness (a threshold or Sat's rmax exists)",
    Verdict.ERROR: "error (the metric misbehaved)",
    Verdict.NA: "not applicable",
    Verdict.NOT_RUN: "not run (interrupted)",
}
_SHORT_FLAG_MEANING = {
    "proved": "proved",  # the Terms of the details (and the README) say over what; the legend stays short
    "params": "depends on the parameters (mark: default setting)",
    "projected": "projected: aspect-blind metric scored on max_t r(d,t)",
    "truncation": "witness only by truncation at the cutoff",
    "differs": "differs from",
}

#: Rankings and topics longer than this are compressed (``d1..d64``).
_SHOW_ALL = 12


# -- marks and the legend ------------------------------------------------------------

def parameter_dependent(cell: Cell) -> bool:
    """Whether the cell's settings disagree on the verdict, or a boundary was located in its range
    (one may lie outside the grid's values: alpha-nDCG x Pri changes at alpha = 0.086 < 0.1)."""
    return len({check.verdict for check in cell.checks}) > 1 or bool(cell.boundaries or cell.curves)


def by_truncation(cell: Cell) -> bool:
    """Whether the default setting's witness exists only by truncation at the cutoff."""
    check = cell.default_check
    return bool(check and check.witness and check.witness.by_truncation)


def flags(cell: Cell, differs: bool = False) -> list[str]:
    """The keys of :data:`FLAGS` that apply to ``cell``, in :data:`FLAGS`' order."""
    found = []
    if proved(cell):
        found.append("proved")
    if parameter_dependent(cell):
        found.append("params")
    if cell.projected:
        found.append("projected")
    if by_truncation(cell):
        found.append("truncation")
    if differs:
        found.append("differs")
    return found


def cell_mark(cell: Cell, differs: bool = False, open: bool = False) -> str:
    """The cell's matrix mark: the verdict's mark and its flags, e.g. ``"W~"``, ``"✗†"``;
    ``open`` adds :data:`OPEN_FLAG` (the published table leaves the cell open)."""
    return (MARKS[cell.verdict] + "".join(FLAGS[f] for f in flags(cell, differs))
            + (OPEN_FLAG if open else ""))


def mark_of(cell: Cell, differs: bool = False, open: bool = False) -> Mark:
    """The cell's mark as a typed part (:class:`~axiometer.reports.document.Mark`): its verdict, its
    flags and its text (:func:`cell_mark`), so that each format can spell it its own way."""
    return Mark(cell.verdict, tuple(flags(cell, differs)), cell_mark(cell, differs, open))


def _used(result: TableResult, comparison: PublishedComparison | None) -> tuple[list[Verdict], list[str]]:
    """The verdicts (✓ and ✗ always) and flags a table's matrix shows, in legend order."""
    used = {c.verdict for c in result.cells}
    verdicts = [v for v in MARKS if v in used or v in (Verdict.SATISFIED, Verdict.VIOLATED)]
    flags_used = {f for c in result.cells for f in flags(c)}
    if comparison is not None:
        flags_used.add("differs")
    return verdicts, [f for f in FLAGS if f in flags_used]


def legend_marks(result: TableResult, comparison: PublishedComparison | None) -> list[tuple[Mark, str]]:
    """``(mark, meaning)`` for every mark and flag the table uses (✓ and ✗ always; ≠ with a
    comparison), each mark typed: a verdict's (no flags) or a flag's (no verdict). Each meaning
    starts with its short name and a colon."""
    verdicts, used_flags = _used(result, comparison)
    return ([(Mark(v, (), MARKS[v]), _MEANING[v]) for v in verdicts]
            + [(Mark(None, (f,), FLAGS[f]), _FLAG_MEANING[f] + (f" ({comparison.table})" if f == "differs"
                                                                and comparison else "")) for f in used_flags])


def legend_items(result: TableResult, comparison: PublishedComparison | None) -> list[tuple[str, str]]:
    """:func:`legend_marks` with each mark as its text."""
    return [(mark.symbol, meaning) for mark, meaning in legend_marks(result, comparison)]


def short_legend_items(result: TableResult, comparison: PublishedComparison | None) -> list[tuple[str, str]]:
    """:func:`legend_items` in their shortest form, for the text legend; with a comparison that
    leaves cells open, :data:`OPEN_FLAG` too."""
    verdicts, used_flags = _used(result, comparison)
    items = [(MARKS[v], _SHORT_MEANING[v]) for v in verdicts]
    table = comparison.table if comparison is not None else "the published table"
    items += [(FLAGS[f], _SHORT_FLAG_MEANING[f] + (f" {table}" if f == "differs" else ""))
              for f in used_flags]
    if comparison is not None and comparison.undecided:
        count = len(comparison.undecided)
        items.append((OPEN_FLAG, f"left open by the paper ({count} cell{'s' if count != 1 else ''}, "
                                 "not counted)"))
    return items


def _mode_text(result: TableResult) -> str:
    if result.mode == "default":
        return "default (window; truncate for DeepTh and CloseTh)"
    return result.mode


def header_lines(result: TableResult) -> list[str]:
    """The run's settings: seed, cutoff mode, budget, rho, and whether it was interrupted."""
    settings = dict(result.settings)
    lines = [f"seed {result.seed}; cutoff mode: {_mode_text(result)}",
             f"budget: {result.budget}" + ("; quick grids" if settings.get("quick") else "")]
    if "rho" in settings:
        lines.append(f"relevance contribution: every non-zero relevance r(d,t) <= rho = "
                     f"{settings['rho']} (the paper's r ≪ 1)")
    if result.interrupted:
        done = sum(1 for c in result.cells if c.verdict != Verdict.NOT_RUN)
        lines.append(f"INTERRUPTED: {done} of {len(result.cells)} cells finished; the others are "
                     f"marked 'not run'")
    return lines


# -- what the columns mean ----------------------------------------------------------

def axiom_infos(result: TableResult | None) -> dict[str, AxiomInfo]:
    """Each column's :class:`~axiometer.results.AxiomInfo` by id (empty when the run did not say)."""
    return {info.id: info for info in result.axioms} if result is not None else {}


def column_items(constraints: Sequence[str],
                 infos: Mapping[str, AxiomInfo]) -> list[tuple[str, str, str]]:
    """``(id, name, meaning)`` per column; empty texts where the run did not say."""
    items = []
    for constraint in constraints:
        info = infos.get(constraint)
        items.append((constraint, info.name if info else "", info.meaning if info else ""))
    return items


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
            prefix, number_ = match.group(1), int(match.group(2))
            while j < len(ids):
                nxt = _ID.match(ids[j])
                if not nxt or nxt.group(1) != prefix or int(nxt.group(2)) != number_ + (j - i):
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


def _topic_lines(topic: TopicRecord, rankings: Sequence[Sequence[str]], indent: str) -> list[str]:
    """The topic's aspects and the relevance of every document judged or in ``rankings``."""
    single = len(topic.aspects) == 1
    lines = []
    if not single:
        aspects = ", ".join(f"{a} (w = {w})" for a, w in zip(topic.aspects, topic.weights))
        lines.append(f"{indent}aspects: {aspects}")
    shown = sorted(dict.fromkeys([*(d for r in rankings for d in r), *(d for d, _ in topic.judgments)]),
                   key=natural_key)
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


def _one_output(cx: Counterexample) -> bool:
    """A counterexample about one scored output (Bounded, Finite, ...), not a pair."""
    return cx.a == cx.b and cx.context_b is None and cx.score_a == cx.score_b or cx.score_a != cx.score_a


def decision_shown(cx: Counterexample) -> bool:
    """Whether a counterexample's lines say how its comparison was decided (exactly, or on floats):
    a pair's always, one output's when its score is a number."""
    return not _one_output(cx) or math.isfinite(cx.score_a)


def _decided_text(cx: Counterexample) -> str:
    return "decided exactly" if cx.decided == Decided.EXACT else "decided on floats"


def _one_output_lines(cx: Counterexample, indent: str) -> list[str]:
    """A counterexample about one scored output: the ranking, its context, its score and the claim."""
    lines = [f"{indent}ranking = {_ranking_text(cx.a)}"]
    if cx.context_a is not None:
        lines.append(f"{indent}other systems: {_context_text(cx.context_a)}")
    lines.append(f"{indent}Q = {_score(cx.score_a)}")
    lines.append(f"{indent}required {cx.relation}, which fails"
                 + (f" ({_decided_text(cx)})" if decision_shown(cx) else ""))
    lines += _extra_lines(cx, indent)
    return lines


def _context_text(context: Sequence[Sequence[str]]) -> str:
    """``s1 = d1 d2; s2 = o1`` (``none`` for an empty context)."""
    if not context:
        return "none"
    return "; ".join(f"s{i} = {_ranking_text(r)}" for i, r in enumerate(context, 1))


def _score(value: float) -> str:
    return number(value)


def _extra_text(cx: Counterexample) -> str:
    """The counterexample's display pairs (``rc = 1/10, n = 6``); the signs have their own line
    (``cx.signs``), so their pair, there for the JSON, is not repeated."""
    return ", ".join(f"{k} = {v}" for k, v in cx.extra if k != "signs")


def _extra_lines(cx: Counterexample, indent: str) -> list[str]:
    extra = _extra_text(cx)
    return [f"{indent}{extra}"] if extra else []


def _comparison_text(cx: Counterexample) -> str:
    """What the metric did: ``Q(a) = Q(b) = 1/10`` or ``Q(a) = 1/100 > Q(b) = 1/200``, with the
    digits that tell the two scores apart."""
    if _one_output(cx):
        return f"Q = {_score(cx.score_a)}"
    if not (math.isfinite(cx.score_a) and math.isfinite(cx.score_b)):
        return f"Q(a) = {_score(cx.score_a)}, Q(b) = {_score(cx.score_b)}"
    text_a, text_b = numbers_apart(cx.score_a, cx.score_b)
    if cx.score_a == cx.score_b:
        text = f"Q(a) = Q(b) = {text_a}"
    else:
        text = f"Q(a) = {text_a} {'<' if cx.score_a < cx.score_b else '>'} Q(b) = {text_b}"
    return text.replace(" ", NBSP)  # wrapped as one word


def counterexample_sentence(cx: Counterexample, info: AxiomInfo | None = None) -> str:
    """One sentence that instantiates the constraint on the counterexample: how ``b`` was built
    (the case's note), what the constraint expects of it (``info.expectation``, else the
    relation) and what the metric did, e.g. "b = a with positions 1 and 2 swapped (r(d2) >
    r(d1)), so b should score higher than a; here it does not: Q(a) = Q(b) = 1/10"."""
    note = denoise(cx.note.strip().rstrip("."))
    expectation = info.expectation.strip().rstrip(".") if info is not None and info.expectation else ""
    where = _extra_text(cx)
    scores = _comparison_text(cx).replace(NBSP, " ") + (f" (at {where})" if where else "")
    if expectation and not _one_output(cx):
        claim = f"b {expectation}" if not expectation.startswith("b ") else expectation
        return f"{note}, so {claim}; here it does not: {scores}" if note else \
            f"{claim[0].upper()}{claim[1:]}; here it does not: {scores}"
    required = f"required {cx.relation}; here {scores}"
    return f"{note}: {required}" if note else required[0].upper() + required[1:]


def _counterexample_lines(cx: Counterexample, indent: str, info: AxiomInfo | None) -> list[str]:
    joined = _comparison_text(cx)  # the scores stay on one line when the sentence wraps
    sentence = counterexample_sentence(cx, info).replace(joined.replace(NBSP, " "), joined)
    lines = [f"{indent}{sentence}"]
    lines += _topic_lines(cx.topic, (cx.a, cx.b), indent)
    if _one_output(cx):
        return lines + _one_output_lines(cx, indent)  # a property of one output (Bounded, Finite...)
    lines.append(f"{indent}a = {_ranking_text(cx.a)}")
    lines.append(f"{indent}b = {_ranking_text(cx.b)}")
    if cx.context_a is not None:
        label = "other systems" if cx.context_b is None else "other systems for a"
        lines.append(f"{indent}{label}: {_context_text(cx.context_a)}")
    if cx.context_b is not None:
        lines.append(f"{indent}other systems for b: {_context_text(cx.context_b)}")
    if math.isfinite(cx.score_a) and math.isfinite(cx.score_b):
        text_a, text_b = numbers_apart(cx.score_a, cx.score_b)
    else:
        text_a, text_b = _score(cx.score_a), _score(cx.score_b)
    tie = " (equal: a tie, decided exactly)" if cx.score_a == cx.score_b and cx.decided == Decided.EXACT else ""
    lines.append(f"{indent}Q(a) = {text_a}, Q(b) = {text_b}{tie}")
    lines.append(f"{indent}required {cx.relation}, which fails ({_decided_text(cx)})")
    lines += _extra_lines(cx, indent)
    signs = cx.signs
    if signs:
        lines.append(f"{indent}sign of D = Q(a) - Q(b) along the grid: {signs}")
    return lines


def cases_text(check: Check) -> str:
    """What a satisfied check rests on: ``150 generated + 40 small-scope cases; ties decided exactly``."""
    parts = []
    if check.cases:
        parts.append(f"{check.cases} generated")
    if check.small_scope:
        parts.append(f"{check.small_scope} small-scope")
    text = " + ".join(parts) + " cases" if parts else "no cases"
    decided = "ties decided exactly" if check.exact else f"float ties within {number(check.tolerance)}"
    return f"{text}; {decided}"


def evidence_text(evidence: Evidence, short: bool = False) -> str:
    """What a satisfied or witness verdict rests on, in words: ``exhaustive: every case with up to 4
    documents ... (240 cases) + 1500 random cases; every decision exact`` (``short``: without the
    scope's description, which the cell's details give). A proved verdict opens with its proof
    (:func:`proof_text`), then the search it also passed: ``proved for ...; searched too: ...``;
    ``short``, the proof's scope alone."""
    proof = evidence.proof if evidence.strength == Strength.PROVED else None
    if proof is not None and short:
        return proof_text(proof, short=True)
    parts = []
    if evidence.exhaustive_cases and short:
        parts.append(f"{evidence.exhaustive_cases} small-scope cases")
    elif evidence.exhaustive_cases:
        scope = f"{denoise(evidence.exhaustive_scope)} " if evidence.exhaustive_scope else ""
        parts.append(f"{scope}({evidence.exhaustive_cases} cases)")
    if evidence.random_cases:
        parts.append(f"{evidence.random_cases} random cases")
    decided = "every decision exact" if evidence.exact else "ties decided on floats"
    if proof is not None:
        searched = f"; searched too: {' + '.join(parts)}; {decided}" if parts else ""
        return proof_text(proof) + searched
    return f"{evidence.strength}: {' + '.join(parts) or 'no cases'}; {decided}"


def _side(boundary: Boundary, side: Side) -> str:
    """One side of a boundary: its verdict over its values, and what it rests on."""
    verdict = boundary.below if side is Side.BELOW else boundary.above
    value = boundary_value(boundary)
    closed = boundary.at_value is side
    relation = ("<=" if closed else "<") if side is Side.BELOW else (">=" if closed else ">")
    text = f"{verdict} for {boundary.param} {relation} {value}"
    if side in boundary.certain.sides:
        return text + (" (a counterexample at every probe)" if verdict == Verdict.VIOLATED
                       else " (a witness pair at every probe)")
    evidence = boundary.evidence_below if side is Side.BELOW else boundary.evidence_above
    if verdict in HOLDS and evidence is not None and evidence.strength == Strength.PROVED \
            and evidence.proof is not None:
        return text + f" ({evidence_text(evidence, short=True)})"
    if verdict in HOLDS:
        resting = evidence_text(evidence, short=True) if evidence is not None else "its search"
        return text + f" (no counterexample found; {resting})"
    return text


def boundary_sentence(boundary: Boundary) -> str:
    """A boundary in words: each side with what it rests on, then the closed form and the tie.

    ``violated for p <= 0.754878 (a counterexample at every probe); witness for p > 0.754878 (a
    witness pair at every probe). p = 0.754878 is the root of p**3 + p**2 - 1 (the bisection
    agrees to 1e-6) ...``
    """
    fixed = ", ".join(f"{k} = {format_value(v)}" for k, v in boundary.fixed)
    text = f"{_side(boundary, Side.BELOW)}; {_side(boundary, Side.ABOVE)}"
    if fixed:
        text += f"; with {fixed}"
    text += "."
    value = f"{boundary.param} = {boundary_value(boundary)}"
    if boundary.closed_form is not None and boundary.agrees:
        form = boundary.closed_form
        if boundary.root_form is RootForm.IMPLICIT:
            text += f" {value} is the {form}"
        else:
            text += f" {value} exactly" if form == boundary_value(boundary) else f" {value} = {form}"
        text += f" (on the decisive case {boundary.case}; the bisection agrees to 1e-6)."
        if boundary.at_value is not None:
            text += (f" The decisive case ties at {value} itself, which belongs to the "
                     f"{boundary.below if boundary.at_value is Side.BELOW else boundary.above} side.")
    elif boundary.closed_form is not None:
        text += (f" The closed form {boundary.closed_form} ({number(boundary.closed_value)}) "
                 "disagrees with the bisection, whose value is given.")
    else:
        text += f" Bisection bracket {boundary.bracket[0]}..{boundary.bracket[1]}"
        text += f"; {boundary.note}." if boundary.note else "; no closed form."
    return text


def curve_text(curve: BoundaryCurve) -> str:
    """A two-parameter cell's boundary curve on one line: ``beta = 0.8: alpha = 19/64; ...``."""
    points = []
    for over, boundaries in curve.points:
        found = ", ".join(f"{b.param} = {boundary_value(b)} ({b.below} below, {b.above} above)"
                          for b in boundaries) or f"no change in {curve.param}"
        points.append(f"{curve.over} = {format_value(over)}: {found}")
    return f"boundary of {curve.param} over {curve.over}: " + "; ".join(points)


def boundary_lines(cell: Cell, indent: str = "  ") -> list[str]:
    """A cell's boundaries and curves as lines (empty when it has none)."""
    head = f"{indent}{cell.row} × {cell.constraint}: "
    lines = [head + boundary_sentence(b) for b in cell.boundaries]
    lines += [head + curve_text(c) for c in cell.curves]
    return lines


def check_lines(check: Check, indent: str, info: AxiomInfo | None = None) -> list[str]:
    """A check's evidence: counterexample (opening with its sentence), witness, error or case
    counts; ``info`` is the constraint's meaning, for the sentence."""
    head = f"{indent}{check.metric}, {check.mode} mode: {check.verdict}"
    lines = [head]
    inner = indent + "  "
    if check.counterexample is not None:
        lines += _counterexample_lines(check.counterexample, inner, info)
    elif check.witness is not None:
        w = check.witness
        text = f"{inner}witness {denoise(w.value)}" + (f" ({denoise(w.note)})" if w.note else "")
        if w.by_truncation:
            text += "; by truncation (documents past the cutoff)"
        lines.append(text)
        for part in w.signs_by_rc:
            lines.append(f"{inner}sign of D = Q(a) - Q(b): {part}")
    elif check.error is not None:
        lines.append(f"{inner}error: {check.error.message}")
        if check.error.ranking is not None:
            lines.append(f"{inner}on ranking {_ranking_text(check.error.ranking)}")
        if check.error.topic is not None:
            lines += _topic_lines(check.error.topic, (check.error.ranking or (),), inner)
    elif check.verdict == Verdict.SATISFIED:
        lines.append(f"{inner}no counterexample in {cases_text(check)}")
    if check.evidence is not None:
        lines.append(f"{inner}evidence: {evidence_text(check.evidence)}")
    if check.holds and check.unproved and not check_proved(check):
        lines.append(f"{inner}not proved: {check.unproved}")
    lines += formula_lines(check, inner)
    if check.note:
        lines.append(f"{inner}note: {denoise(check.note)}")
    if check.output_chars:
        lines.append(f"{inner}the metric printed: {output_text(check)}")
    return lines


def output_text(check: Check, limit: int = 80) -> str:
    """What the metric printed during a check, at most ``limit`` characters of it on one line
    (newlines and control characters escaped), with the total when that is not all."""
    kept = check.output[:limit]
    shown = repr(kept)[1:-1]
    if check.output_chars > len(kept):
        return f"{shown}… ({check.output_chars} characters in all)"
    return shown


def cell_lines(cell: Cell, indent: str = "  ", info: AxiomInfo | None = None) -> list[str]:
    """Everything a cell says, as indented lines (the first, unindented, names the cell and,
    with ``info``, the constraint's name)."""
    name = f" ({info.name})" if info is not None and info.name and info.name != cell.constraint else ""
    lines = [f"{cell.row} × {cell.constraint}{name}: {cell.verdict}"
             + (" (projected)" if cell.projected else "")]
    if parameter_dependent(cell):
        lines.append(f"{indent}depends on the parameters: {cell.summary}")
    if cell.other_mode is not None:
        lines.append(f"{indent}in {other_mode_name(cell)} mode: {cell.other_mode}")
    if cell.explanation:
        lines.append(f"{indent}explanation: {explanation_text(cell)}")
    if unproved_setting(cell) is not None:
        lines.append(f"{indent}{proof_note(cell)}")
    for check in shown_checks(cell):
        lines += check_lines(check, indent, info)
    return lines


def shown_checks(cell: Cell) -> list[Check]:
    """The checks a cell's evidence shows: its default setting's and, for a parameter-dependent cell,
    the first setting of every other verdict (none for a cell that did not run)."""
    default = cell.default_check
    if default is None:
        return []
    shown = [default]
    for check in cell.checks:
        if check.verdict not in {c.verdict for c in shown}:
            shown.append(check)
    return shown


def explanation_text(cell: Cell) -> str:
    """``violated; holds when ...`` (definitions §3, "Explaining a violation"); a note why there
    is no explanation (no nearby reading) as it stands."""
    text = cell.explanation or ""
    return f"{cell.verdict}; {text}" if cell.reading is not None else text


def other_mode_name(cell: Cell) -> str:
    """The cutoff mode the cell's ``other_mode`` verdict was reached in."""
    mode = cell.default_check.mode if cell.default_check else ""
    return {"window": "truncate", "truncate": "window"}.get(mode, "the other")
