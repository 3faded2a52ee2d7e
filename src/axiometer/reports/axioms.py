"""``axiometer axioms``: what each constraint and property means, as text or JSON.

Two forms. The list (:func:`axioms_list`) gives every axiom's id, name and
plain meaning — what a user loses when a metric violates it — grouped as the
relevance constraints (SIGIR 2018, section 3.2), the diversity constraints
(section 3.3) and the properties of relative metrics (definitions §6.4). The
page (:func:`axiom_page`) gives one axiom in full: meaning, relation, how it
is decided, its conditions explained, how a case is built, the cutoff mode,
the source and the paper's words, then a worked example: one concrete case
scored by a built-in metric that satisfies the axiom and one that violates it.

The command (:mod:`axiometer.cli.axioms`) builds the :class:`AxiomPage`
objects (it evaluates the example's metrics); this module only formats them.
Exact values print as fractions when short (``72/3125``), otherwise to six
significant digits (``≈ 0.630930``), never with float noise.
"""

from __future__ import annotations

import json
import math
import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from axiometer.reports.numbers import DEFAULT_WIDTH, number
from axiometer.reports.table.data import axiom_json
from axiometer.results import AxiomInfo, TopicRecord

__all__ = ["ExampleScore", "WorkedExample", "AxiomPage", "number_text", "axioms_list", "axiom_page",
           "GROUP_TITLES", "WIDTH"]

#: The width the text fits when the terminal's is not known (every text report's default).
WIDTH = DEFAULT_WIDTH

#: The list's groups, in order: an axiom's ``group`` -> the group's title.
GROUP_TITLES = {
    "relevance": "Relevance constraints (Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, section 3.2)",
    "diversity": "Diversity constraints (SIGIR 2018, section 3.3)",
    "relative": "Properties of relative metrics (definitions §6.4; checked only on relative metrics)",
}

#: How an axiom of each form is decided (definitions §3.5-3.7, §6.4).
FORM_TEXTS = {
    "universal": "universal: the relation must hold on every case; one failing case violates it "
                 "(an exhaustive small scope, then a shrinking random search)",
    "threshold": "threshold: read from the sign of D(n) = Q(a_n) - Q(b_n) along a grid of n "
                 "(1..32, then doubling to the horizon), for every rc tried (definitions §3.5)",
    "saturation": "a search for rmax: holds (witness rmax) for the largest candidate rmax with no "
                  "failing case (definitions §3.6)",
    "existential": "existential: holds (witness) when some case changes the score; violated when "
                   "no searched case does (a search result, not a proof)",
    "unary": "a claim about single scores, checked on every case; one failing case violates it",
}

#: What each default cutoff mode means (definitions §3.3).
MODE_TEXTS = {
    "window": "window: every position the case changes lies within the metric's cutoff k; the "
              "ranking may run past it (definitions §3.3)",
    "truncate": "truncate: the metric is evaluated as defined, so documents past its cutoff k count "
                "for nothing; a witness that exists only because of that is flagged by truncation "
                "(ᵗ) (definitions §3.3)",
    "relative": "none: a property's positions are those within the metric's cutoff k, in the "
                "ranking and in the other systems' rankings (definitions §6.4)",
}

#: The longest sympy expression printed beside its value (``log(2)/log(3) ≈ 0.63093``).
SHORT_EXPRESSION = 24


@dataclass(frozen=True)
class ExampleScore:
    """One metric on the worked example: its values, and whether the axiom's relation holds there.

    ``values`` are labelled exact values (``("Q(a)", Fraction(1, 50))``; a
    sympy expression, a float for a metric without exact arithmetic, or
    ``None`` for an undefined score). ``verdict`` is the verdict the axiom's
    check reaches on the metric ("satisfies" or "violates"); ``required`` is
    the relation asked of this case, ``holds`` whether it holds here and
    ``observed`` how the values compare (``"Q(b) < Q(a)"``; may be empty).
    """

    metric: str
    verdict: str
    values: tuple[tuple[str, Any], ...]
    required: str
    holds: bool
    observed: str = ""


@dataclass(frozen=True)
class WorkedExample:
    """A concrete case of an axiom, scored by its example metrics.

    ``unary``: the axiom speaks of one ranking, ``a`` (``b`` is not shown).
    ``contexts``: the other systems' rankings, labelled (``("a and b",
    (("d1", "d2"),))``). ``remark``: what the reader should know besides
    (one grid point of a threshold; no built-in metric violates it).
    """

    title: str
    topic: TopicRecord
    a: tuple[str, ...]
    b: tuple[str, ...]
    note: str
    scores: tuple[ExampleScore, ...]
    unary: bool = False
    contexts: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = ()
    remark: str = ""


@dataclass(frozen=True)
class AxiomPage:
    """Everything ``axiometer axioms ID`` prints about one axiom (``example`` is ``None`` in the list)."""

    info: AxiomInfo
    group: str                                   # "relevance", "diversity" or "relative"
    form: str                                    # "universal", "threshold", "saturation", ...
    wording: str                                 # the paper's statement
    construction: str                            # how a case is built
    conditions: tuple[tuple[str, str], ...]      # (condition, what it asks) in words
    default_mode: str
    example: WorkedExample | None = None


# -- numbers -----------------------------------------------------------------------------------------

def number_text(value: Any) -> str:
    """An exact value as :func:`axiometer.reports.numbers.number` prints numbers (a short fraction
    such as ``72/3125``, else six significant digits), marked ``≈`` when the digits stand for an
    exact value too long to print (``≈ 0.333346``).

    A sympy expression prints exactly when short (``log(2)/log(3) ≈ 0.63093``); a float (a
    metric without exact arithmetic) as :func:`~axiometer.reports.numbers.number` does;
    ``None`` or a non-finite value as "undefined".
    """
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "undefined"
    if isinstance(value, (bool, int, float)):
        return number(value)
    if isinstance(value, Fraction):
        text = number(value)
        return text if "/" in text or value.denominator == 1 else f"≈ {text}"
    import sympy  # an exact value with logarithms; sympy is loaded already when one exists

    expr = sympy.sympify(value)
    if expr.is_Rational:
        return number_text(Fraction(int(expr.p), int(expr.q)))
    approx = number(float(sympy.N(expr, 30)))
    text = str(expr)
    return f"{text} ≈ {approx}" if len(text) <= SHORT_EXPRESSION else f"≈ {approx}"


def _number_json(value: Any) -> dict[str, Any]:
    """``{"text": "72/3125", "value": 0.02304}``: the printed form and a float (``None``: undefined)."""
    if value is None:
        return {"text": "undefined", "value": None}
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = None
    return {"text": number_text(value), "value": number if number is None or math.isfinite(number) else None}


# -- the list --------------------------------------------------------------------------------------

#: A relation or an assignment (``Q(b) > Q(a)``, ``Q(a) = 1/20``) is never broken across lines.
_UNBREAKABLE = re.compile(r"\S+ (?:[<>!]?=|[<>≈]) (?:≈ )?\S+")


def _wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    """``text`` wrapped to ``width`` with the given indents, keeping relations on one line."""
    glued = _UNBREAKABLE.sub(lambda m: m.group(0).replace(" ", "\xa0"), text)
    lines = textwrap.wrap(glued, width=width, initial_indent=first, subsequent_indent=rest,
                          break_on_hyphens=False, break_long_words=False)
    return [line.replace("\xa0", " ") for line in lines] or [first.rstrip()]


def _wrapped(first: str, text: str, width: int, indent: int) -> list[str]:
    """``first`` as a label padded to ``indent``, then ``text`` wrapped under it."""
    return _wrap(text, width, first.ljust(indent), " " * indent)


def _assignment(label: str, value: Any) -> str:
    """``Q(a) = 1/20``, or ``Q(a) ≈ 0.669672`` for a rounded value."""
    text = number_text(value)
    return f"{label} {text}" if text.startswith("≈") else f"{label} = {text}"


def axioms_list(pages: Sequence[AxiomPage], format: str = "text", width: int = WIDTH) -> str:
    """Every axiom's id, name and meaning, in their groups (text), or their infos (JSON)."""
    if format == "json":
        # The JSON keeps its keys: "family" for an axiom's group, "kind" for its form.
        return json.dumps([{**axiom_json(p.info), "family": p.group, "kind": p.form} for p in pages],
                          indent=2, ensure_ascii=False) + "\n"
    indent = max(len(p.info.id) for p in pages) + 4 if pages else 4
    constraints = sum(p.group != "relative" for p in pages)
    properties = len(pages) - constraints
    out = _wrap(f"axiometer checks {constraints} constraints and {properties} properties. Each line "
                "gives an id, the axiom's name and what a user loses when a metric violates it. "
                "'axiometer axioms ID' shows one in full, with a worked example.", width)
    groups = list(dict.fromkeys([*(g for g in GROUP_TITLES), *(p.group for p in pages)]))
    for group in groups:
        members = [p for p in pages if p.group == group]
        if not members:
            continue
        out += ["", *_wrap(GROUP_TITLES.get(group, group), width)]
        for page in members:
            out += _wrapped(f"  {page.info.id}", f"{page.info.name}: {_sentence(page.info.meaning)}",
                            width, indent)
    return "\n".join(out) + "\n"


def _sentence(text: str) -> str:
    """``text`` with a lower-case start after a colon ("Priority: a metric that ...")."""
    return text[:1].lower() + text[1:] if text[:2] == "A " else text


# -- the page ----------------------------------------------------------------------------------------

def axiom_page(page: AxiomPage, format: str = "text", width: int = WIDTH) -> str:
    """One axiom in full, with its worked example (text), or the same as JSON."""
    if format == "json":
        return json.dumps(_page_dict(page), indent=2, ensure_ascii=False) + "\n"
    info = page.info
    label = 15
    out = [f"{info.id} — {info.name}"]
    out += _wrap(info.meaning, width, "  ", "  ")
    out.append("")
    out += _wrapped("relation", info.relation, width, label)
    out += _wrapped("decided", FORM_TEXTS.get(page.form, page.form), width, label)
    if page.conditions:
        for index, (name, text) in enumerate(page.conditions):
            out += _wrapped("conditions" if index == 0 else "", f"{name}: {text}", width, label)
    else:
        out += _wrapped("conditions", "none", width, label)
    out += _wrapped("case", page.construction, width, label)
    mode = "relative" if page.group == "relative" else page.default_mode
    out += _wrapped("cutoff mode", MODE_TEXTS.get(mode, mode), width, label)
    out += _wrapped("source", info.source or "not stated", width, label)
    out += _wrapped("paper's words", f"\"{page.wording}\"" if page.group != "relative"
                    else page.wording, width, label)
    if page.example is not None:
        out += ["", *_example_lines(page, page.example, width)]
    return "\n".join(out) + "\n"


def _relevance(topic: TopicRecord, doc: str, aspect: int) -> str:
    return topic.relevance(doc)[aspect]


def _ranking_rows(topic: TopicRecord, rankings: Sequence[tuple[str, tuple[str, ...]]],
                  width: int) -> list[str]:
    """Rankings as aligned columns: a row of documents, then one row of relevance per aspect."""
    aspects = topic.aspects
    if len(aspects) == 1:
        rel_labels = ["r(d)"]
    else:
        rel_labels = [f"r(d, {t})" + (f" w={w}" if len(set(topic.weights)) > 1 else "")
                      for t, w in zip(aspects, topic.weights)]
    head = max(len(label) for label in ["position", *rel_labels, *(n for n, _ in rankings)]) + 2
    length = max((len(r) for _, r in rankings), default=0)
    if length == 0:
        return [f"  {name.ljust(head)}(empty)" for name, _ in rankings]
    cells: dict[int, int] = {}
    for _, ranking in rankings:
        for i, doc in enumerate(ranking):
            texts = [doc, *(_relevance(topic, doc, t) for t in range(len(aspects)))]
            cells[i] = max(cells.get(i, 0), *(len(t) for t in texts), len(str(i + 1)))
    out: list[str] = []
    start = 0
    while start < length:  # positions in chunks that fit the width
        stop = start
        used = 2 + head
        while stop < length and (stop == start or used + cells[stop] + 2 <= width):
            used += cells[stop] + 2
            stop += 1
        span = range(start, stop)
        out.append("  " + "position".ljust(head) + "".join(str(i + 1).ljust(cells[i] + 2) for i in span).rstrip())
        for name, ranking in rankings:
            if not ranking:
                out.append(f"  {name.ljust(head)}(empty)")
                continue
            out.append("  " + name.ljust(head) + "".join(
                (ranking[i] if i < len(ranking) else "").ljust(cells[i] + 2) for i in span).rstrip())
            for t, rel_label in enumerate(rel_labels):
                out.append("  " + rel_label.ljust(head) + "".join(
                    (_relevance(topic, ranking[i], t) if i < len(ranking) else "").ljust(cells[i] + 2)
                    for i in span).rstrip())
        start = stop
    return out


def _example_lines(page: AxiomPage, example: WorkedExample, width: int) -> list[str]:
    out = _wrap(f"Worked example: {example.title}", width)
    shown = [("a", example.a)] if example.unary else [("a", example.a), ("b", example.b)]
    out += _ranking_rows(example.topic, shown, width)
    if len(example.topic.aspects) > 1 and len(set(example.topic.weights)) <= 1:
        out += _wrap(f"aspects {', '.join(example.topic.aspects)}, each of weight "
                     f"{example.topic.weights[0]}", width, "  ", "  ")
    for label, rankings in example.contexts:
        if not rankings and any(others for _, others in example.contexts):
            systems = "none"
        elif not rankings:
            continue  # no other system anywhere: the case's note says so
        else:
            systems = "; ".join(f"s{i} = {' '.join(r) or '(empty)'}" for i, r in enumerate(rankings, 1))
        out += _wrap(f"other systems ({label}): {systems}", width, "  ", "    ")
    if example.note:
        out += _wrap(example.note, width, "  ", "  ")
    out.append("")
    name_width = max(len(s.metric) for s in example.scores) + 2
    for score in example.scores:
        assignments = [_assignment(label, value) for label, value in score.values]
        values = (", ".join(assignments[:-1]) + " and " if len(assignments) > 1 else "") + assignments[-1]
        observed = f" ({score.observed})" if score.observed and score.observed != score.required else ""
        text = (f"{score.verdict} {page.info.id}. Here {values}: {score.required} "
                f"{'holds' if score.holds else 'fails'}{observed}.")
        out += _wrapped(f"  {score.metric}", text, width, 2 + name_width)
    if page.info.expectation:
        out.append("")
        out += _wrap(f"Here {'a' if example.unary else 'b'} {page.info.expectation}.", width, "  ", "  ")
    if example.remark:
        out += _wrap(example.remark, width, "  ", "  ")
    return out


# -- JSON ------------------------------------------------------------------------------------------

def _page_dict(page: AxiomPage) -> dict[str, Any]:
    data = axiom_json(page.info)
    data.update(family=page.group, kind=page.form, decided=FORM_TEXTS.get(page.form, page.form),
                wording=page.wording, case=page.construction,
                condition_meanings={name: text for name, text in page.conditions},
                default_mode=None if page.group == "relative" else page.default_mode)
    example = page.example
    if example is not None:
        data["example"] = {
            "title": example.title,
            "topic": {"aspects": list(example.topic.aspects), "weights": list(example.topic.weights),
                      "judgments": {d: list(r) for d, r in example.topic.judgments}},
            "a": list(example.a), "b": None if example.unary else list(example.b),
            "contexts": [{"for": label, "rankings": [list(r) for r in rankings]}
                         for label, rankings in example.contexts],
            "note": example.note, "remark": example.remark,
            "scores": [{"metric": s.metric, "verdict": s.verdict, "required": s.required,
                        "holds": s.holds, "observed": s.observed,
                        "values": [{"label": label, **_number_json(value)} for label, value in s.values]}
                       for s in example.scores],
        }
    else:
        data["example"] = None
    return data
