"""``axiometer metrics``: every registered metric family, or one in full, as text, Markdown or JSON.

:func:`metric_list` reads the registry (:mod:`axiometer.metrics.registry`)
into a :class:`MetricList`, one :class:`FamilyEntry` per family: its spec
syntax (whether a cutoff ``@k`` may follow, and its default), its
parameters with defaults, declared ranges and the paper's grids (each
family's ``param_info``), its kind, what it reads of a topic (``needs``),
and its formula line and source, as the family's docstring gives them (the
first paragraph, and the ``Source:`` sentence; docs/contributing.md asks
every family for both). :func:`format_metric_list` prints the list, grouped
by kind, and :func:`format_family` one family's page; neither reads the
registry. Text fits the width given (80 to 120 columns); every mark and
abbreviation the text uses is explained under it.

Kinds: a family that scores a ranking reads either one relevance per
document (``single-aspect``) or the query's aspects; of the latter, those
that papers title ``-IA`` average a single-aspect metric over the aspects
(``intent-aware``, Agrawal et al.), the others reward covering aspects and
discount redundancy (``novelty/diversity``). ``relative`` families score
against other systems' rankings; ``set`` measures score a retrieved set's
counts (Giner's measures, ``axiometer intrinsic``).
"""

from __future__ import annotations

import inspect
import json
import re
import textwrap
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from axiometer.metrics import registry
from axiometer.metrics.base import format_value
from axiometer.reports.numbers import DEFAULT_WIDTH, wrap

__all__ = ["ParamEntry", "FamilyEntry", "MetricList", "metric_list", "family_entry",
           "format_metric_list", "format_family", "FORMATS", "KIND_TITLES", "KIND_NAMES", "VENUES"]

FORMATS = ("text", "markdown", "json")

#: The kinds, in the order the list groups them, and what each means.
KIND_TITLES = {
    "single-aspect": "Single-aspect metrics: one relevance per document (with aspects, "
                     "r(d) = max_t r(d,t))",
    "intent-aware": "Intent-aware metrics (Agrawal et al., WSDM 2009): a single-aspect metric on each "
                    "aspect, weighted by w(t)",
    "novelty/diversity": "Novelty and diversity metrics: reward covering the query's aspects and "
                         "discount redundancy",
    "relative": "Relative metrics: score a ranking against other systems' rankings (docs/relative.md)",
    "set": "Set-based measures (Giner, definitions §4): score a retrieved set's counts; 'axiometer "
           "intrinsic' takes them, score, check and table do not",
}

#: One family of each kind, as a family's page names it.
KIND_NAMES = {"single-aspect": "single-aspect metric", "intent-aware": "intent-aware metric",
              "novelty/diversity": "novelty/diversity metric", "relative": "relative metric",
              "set": "set-based measure"}

#: The venues the sources cite by acronym, explained under the list when they occur.
VENUES = {
    "SIGIR": "ACM SIGIR Conference on Research and Development in Information Retrieval",
    "SIGIR-AP": "ACM SIGIR Conference on Information Retrieval in the Asia Pacific",
    "TOIS": "ACM Transactions on Information Systems",
    "WSDM": "ACM Conference on Web Search and Data Mining",
    "CIKM": "ACM Conference on Information and Knowledge Management",
    "ICTIR": "Conference on the Theory of Information Retrieval",
    "ECIR": "European Conference on Information Retrieval",
    "LREC": "Conference on Language Resources and Evaluation",
    "NTCIR-4": "the fourth NTCIR workshop (NII Testbeds and Community for Information access Research)",
    "TREC": "the Text REtrieval Conference",
}

#: The width of a family page's labels (``parameters``).
_LABEL = 12

#: The width below which the list's source column moves to a line of its own under each row.
_NARROWEST_SOURCE = 30


@dataclass(frozen=True)
class ParamEntry:
    """One declared parameter: name, type (``float``, ``int``, ``str``), default, declared range
    (``low``/``high``, ``None`` when unbounded; ``*_open``: the bound is excluded) or ``choices``,
    the grid the source paper tested, and what it means."""

    name: str
    type: str
    default: Any
    low: Any = None
    high: Any = None
    low_open: bool = False
    high_open: bool = False
    choices: tuple[Any, ...] | None = None
    grid: tuple[Any, ...] = ()
    description: str = ""

    def range_text(self) -> str:
        """``(0, 1)``, ``[0, ∞)``, ``int [1, ∞)``, ``paper|reference``, ``str`` (any text)."""
        if self.choices is not None:
            return "|".join(str(c) for c in self.choices)
        if self.type not in ("int", "float"):
            return self.type
        if self.low is None and self.high is None:
            text = "any"
        else:
            low = "-∞" if self.low is None else format_value(self.low)
            high = "∞" if self.high is None else format_value(self.high)
            left = "(" if self.low_open or self.low is None else "["
            right = ")" if self.high_open or self.high is None else "]"
            text = f"{left}{low}, {high}{right}"
        return f"int {text}" if self.type == "int" else text

    def short(self) -> str:
        """``p=0.8 (0, 1)``: name, default and range, as the list prints it."""
        return f"{self.name}={format_value(self.default)} {self.range_text()}"


@dataclass(frozen=True)
class FamilyEntry:
    """What ``axiometer metrics`` says about one family.

    ``name``: the spec name (``nDCG``); ``title``: how papers write it
    (``nDCG@k``); ``kind``: a key of :data:`KIND_TITLES`; ``registry_kind``:
    ``ranking``, ``relative`` or ``set`` (:data:`axiometer.metrics.registry.SCORES`);
    ``cutoff``: ``none``, ``optional`` or ``required`` with ``default_cutoff``
    (what a required cutoff is when none is written); ``reads``: what it uses
    of a topic; ``examples``: spec strings at the defaults; ``formula``,
    ``notes`` and ``source``: the docstring's first paragraph, the rest, and
    its ``Source:`` sentence; ``pydoc``: where the full docstring is.
    """

    name: str
    title: str
    kind: str
    registry_kind: str
    cutoff: str
    default_cutoff: int | None
    params: tuple[ParamEntry, ...]
    reads: tuple[str, ...]
    examples: tuple[str, ...]
    formula: str
    notes: str
    source: str
    pydoc: str

    @property
    def syntax(self) -> str:
        """``nDCG[@k]``, ``P[@k=10]`` (10 when no cutoff is written) or ``Rprec`` (no cutoff)."""
        if self.cutoff == "none":
            return self.name
        if self.cutoff == "required":
            return f"{self.name}[@k={self.default_cutoff}]"
        return f"{self.name}[@k]"


@dataclass(frozen=True)
class MetricList:
    """Every family ``axiometer metrics`` lists, grouped by kind in :data:`KIND_TITLES`' order."""

    families: tuple[FamilyEntry, ...]

    def by_kind(self) -> list[tuple[str, list[FamilyEntry]]]:
        """``(kind, families)`` for each kind that has any, in :data:`KIND_TITLES`' order."""
        kinds = list(dict.fromkeys([*KIND_TITLES, *(f.kind for f in self.families)]))
        groups = [(k, [f for f in self.families if f.kind == k]) for k in kinds]
        return [(k, group) for k, group in groups if group]


# -- reading the registry ----------------------------------------------------------------------------

def _clean(text: str) -> str:
    """Docstring markup removed: ``x`` -> x, :role:`x` -> x; whitespace joined."""
    text = re.sub(r":[\w:]+:`~?([^`]+)`", r"\1", text)
    text = re.sub(r"``([^`]+)``", r"\1", text)
    return " ".join(text.split())


def _docstring_parts(cls: type) -> tuple[str, str, str]:
    """``(formula, notes, source)`` of a family's docstring: its first paragraph, the rest without
    the ``Source:`` sentence, and that sentence (without ``Source:``; it runs to its paragraph's end)."""
    paragraphs = [_clean(p) for p in re.split(r"\n\s*\n", inspect.getdoc(cls) or "") if p.strip()]
    notes, source = [], ""
    for index, text in enumerate(paragraphs):
        at = text.find("Source:")
        if at >= 0 and not source:
            source = re.sub(r"\*(\S[^*]*\S)\*", r"\1", text[at + len("Source:"):].strip())
            text = text[:at].strip()
        if text and index > 0:
            notes.append(text)
    formula = paragraphs[0].split("Source:")[0].strip() if paragraphs else ""
    return formula, " ".join(notes), source


def _kind(cls: type, registry_kind: str) -> str:
    if registry_kind != "ranking":
        return registry_kind
    needs = getattr(cls, "needs", None)
    if needs is None or not needs.aspects:
        return "single-aspect"
    return "intent-aware" if "-IA" in (getattr(cls, "title", "") or "") else "novelty/diversity"


def _reads(cls: type, registry_kind: str) -> tuple[str, ...]:
    if registry_kind == "set":
        return ("a retrieved set's counts",)
    needs = getattr(cls, "needs", None)
    reads = ["graded relevance" if needs is None or needs.graded else "binary relevance (r > 0)"]
    if needs is not None and needs.aspects:
        reads.append("aspects and their weights")
    if needs is not None and needs.context:
        reads.append("other systems' rankings")
    return tuple(reads)


def _param(param: Any) -> ParamEntry:
    return ParamEntry(param.name, getattr(param.type, "__name__", str(param.type)), param.default,
                      param.low, param.high, param.low_open, param.high_open,
                      tuple(param.choices) if param.choices is not None else None, tuple(param.grid),
                      param.description)


def family_entry(name: str) -> FamilyEntry:
    """The entry of the family ``name`` (in any case: :func:`axiometer.metrics.registry.lookup`)."""
    name = registry.lookup(name)
    cls = registry.family(name)
    registry_kind = registry.scores_of_family(name)
    cutoff = "none" if registry_kind == "set" else getattr(cls, "cutoff_rule", "none")
    examples = [registry.parse(name).name]
    if cutoff != "none":
        examples.append(registry.parse(f"{name}@10").name)
    formula, notes, source = _docstring_parts(cls)
    return FamilyEntry(
        name=name, title=getattr(cls, "title", name) or name, kind=_kind(cls, registry_kind),
        registry_kind=registry_kind, cutoff=cutoff,
        default_cutoff=getattr(cls, "default_cutoff", None) if cutoff == "required" else None,
        params=tuple(_param(p) for p in getattr(cls, "param_info", ())),
        reads=_reads(cls, registry_kind), examples=tuple(dict.fromkeys(examples)),
        formula=formula, notes=notes, source=source, pydoc=f"{cls.__module__}.{cls.__qualname__}")


def metric_list(names: Sequence[str] | None = None) -> MetricList:
    """Every registered family (ranking, relative and set-based), or those ``names`` name,
    grouped by kind; within a kind, in the registry's order."""
    if names is None:
        names = [n for k in registry.SCORES for n in registry.families(k)]
    entries = [family_entry(n) for n in names]
    order = list(KIND_TITLES)
    entries.sort(key=lambda e: order.index(e.kind) if e.kind in order else len(order))  # stable
    return MetricList(tuple(entries))


# -- the legend ---------------------------------------------------------------------------------------

def _venues(texts: Sequence[str]) -> list[tuple[str, str]]:
    """The :data:`VENUES` the texts cite, in :data:`VENUES`' order."""
    joined = " ".join(texts)
    return [(acronym, meaning) for acronym, meaning in VENUES.items()
            if re.search(rf"(?<![\w-]){re.escape(acronym)}(?![\w-])", joined)]


def _legend(entries: Sequence[FamilyEntry], markdown: bool) -> list[str]:
    code = (lambda s: f"`{s}`") if markdown else (lambda s: s)
    lines = [
        f"Spec: {code('NAME[@k]')} a cutoff k may follow (without one, the whole ranking counts); "
        f"{code('NAME[@k=10]')} a cutoff may follow, 10 when none is written; a bare {code('NAME')} "
        "takes no cutoff. Parameters are written in parentheses, "
        f"{code('NAME(p=0.5,e=0.1)@k')}; NAME in any case, parameter names as shown.",
        f"Parameters: {code('p=0.8 (0, 1)')} parameter p, default 0.8, allowed 0 < p < 1; "
        f"{code('[')} {code(']')} include the bound, {code('(')} {code(')')} exclude it; ∞ unbounded; "
        f"int: integers only; {code('a|b')}: one of the words a, b; str: any text; – none.",
    ]
    sources = [e.source for e in entries]
    if any("definitions §" in s for s in sources):
        lines.append("Sources: definitions §N is section N of docs/definitions.md; trec_eval and "
                     "ndeval are the TREC evaluation tools, named with their measure.")
    venues = _venues(sources + [KIND_TITLES.get(e.kind, "") for e in entries])
    if venues:
        lines.append("Venues: " + "; ".join(f"{a} = {m}" for a, m in venues) + ".")
    return lines


# -- text ---------------------------------------------------------------------------------------------

def _cells(entry: FamilyEntry) -> tuple[str, list[str], str]:
    return entry.syntax, [p.short() for p in entry.params] or ["–"], entry.source or "not given"


def _text_list(result: MetricList, width: int) -> list[str]:
    counts = {k: len(group) for k, group in result.by_kind()}
    parts = [f"{n} {'set-based' if k == 'set' else k}" for k, n in counts.items()]
    out = wrap(f"axiometer has {len(result.families)} metric families ({', '.join(parts)}). "
               "Names are case-insensitive (ndcg@10 is nDCG@10); parameter names are not. "
               "'axiometer metrics NAME' shows one family in full: formula, parameters and source.",
               width, hang=0)
    rows = [_cells(e) for e in result.families]
    spec_w = max([len("spec"), *(len(r[0]) for r in rows)])
    param_w = max([len("parameters (default, range)"), *(len(p) for r in rows for p in r[1])])
    source_x = 2 + spec_w + 2 + param_w + 2
    source_w = width - source_x
    below = source_w < _NARROWEST_SOURCE  # a narrow terminal: the source under its row
    for kind, group in result.by_kind():
        out += ["", *wrap(KIND_TITLES.get(kind, kind), width, hang=2), ""]
        header = f"  {'spec'.ljust(spec_w)}  {'parameters (default, range)'.ljust(param_w)}"
        rule = f"  {'-' * spec_w}  {'-' * param_w}"
        out += [(header + ("" if below else "  source")).rstrip(),
                (rule + ("" if below else "  " + "-" * source_w)).rstrip()]
        for entry in group:
            spec, params, source = _cells(entry)
            if below:
                source_lines = wrap(f"    source: {source}", width, hang=4)
            else:
                source_lines = wrap(source, source_w, hang=0) if source_w > 0 else [source]
            height = max(len(params), 1 if below else len(source_lines))
            for i in range(height):
                left = f"  {(spec if i == 0 else '').ljust(spec_w)}  "
                middle = params[i] if i < len(params) else ""
                line = left + middle.ljust(param_w)
                if not below and i < len(source_lines):
                    line += "  " + source_lines[i]
                out.append(line.rstrip())
            if below:
                out += source_lines
    out.append("")
    for line in _legend(result.families, markdown=False):
        out += wrap(line, width, hang=2)
    return out


def _labelled(label: str, text: str, width: int, hang: int = 0) -> list[str]:
    """``label`` padded to :data:`_LABEL` columns, then ``text`` wrapped under it (continuation
    lines indented ``hang`` more)."""
    return textwrap.wrap(text, width=max(width, _LABEL + hang + 20), initial_indent=label.ljust(_LABEL),
                         subsequent_indent=" " * (_LABEL + hang), break_long_words=False,
                         break_on_hyphens=False) or [label]


def _other_case(name: str) -> str:
    """``name`` as a user may type it: ``NDCG`` for ``nDCG``, ``recall`` -> ``RECALL``, ``P`` -> ``p``."""
    return name.upper() if name != name.upper() else name.lower()


def _cutoff_text(entry: FamilyEntry) -> str:
    if entry.cutoff == "none":
        return "none: it takes no @k"
    if entry.cutoff == "required":
        return (f"@k, {entry.default_cutoff} when none is written ({entry.name} is "
                f"{entry.name}@{entry.default_cutoff})")
    return "optional @k; without one the whole ranking counts"


def _param_text(param: ParamEntry) -> str:
    allowed = param.range_text()
    allowed = {"str": "any text"}.get(allowed, allowed)
    text = f"default {format_value(param.default)}; {allowed}"
    if param.grid:
        text += "; the paper's grid " + ", ".join(format_value(v) for v in param.grid)
    return text + (f". {param.description[:1].upper()}{param.description[1:]}" if param.description else "")


def _text_family(entry: FamilyEntry, width: int) -> list[str]:
    out = wrap(f"{entry.name} — {entry.title} ({KIND_NAMES.get(entry.kind, entry.kind)})", width, hang=2)
    out += wrap("  " + entry.formula, width, hang=2)
    out.append("")
    out += _labelled("spec", f"{entry.syntax}, e.g. {', '.join(entry.examples)}; the name in any case "
                             f"({_other_case(entry.name)} is {entry.name})", width)
    out += _labelled("cutoff", _cutoff_text(entry), width)
    out += _labelled("reads", "; ".join(entry.reads), width)
    if entry.params:
        name_w = max(len(p.name) for p in entry.params) + 2
        for i, param in enumerate(entry.params):
            out += _labelled("parameters" if i == 0 else "", param.name.ljust(name_w) + _param_text(param),
                             width, hang=name_w)
    else:
        out += _labelled("parameters", "none", width)
    if entry.notes:
        out += _labelled("notes", entry.notes, width)
    out += _labelled("source", entry.source or "not given", width)
    out += _labelled("more", f"pydoc {entry.pydoc}; docs/definitions.md", width)
    venues = _venues([entry.source, entry.notes])
    if venues:
        out.append("")
        out += wrap("Venues: " + "; ".join(f"{a} = {m}" for a, m in venues) + ".", width, hang=2)
    return out


# -- Markdown -------------------------------------------------------------------------------------------

def _md(text: str) -> str:
    """``text`` in a Markdown table cell (the Markdown renderer's escape)."""
    from axiometer.reports.render.markdown import escape

    return escape(text)


def _markdown_list(result: MetricList) -> list[str]:
    out = ["# Metric families", "",
           f"axiometer has {len(result.families)} metric families. Names are case-insensitive "
           "(`ndcg@10` is `nDCG@10`); parameter names are not. `axiometer metrics NAME` shows one "
           "family in full."]
    for kind, group in result.by_kind():
        out += ["", f"## {KIND_TITLES.get(kind, kind)}", "",
                "| spec | parameters (default, range) | source |", "|---|---|---|"]
        for entry in group:
            spec, params, source = _cells(entry)
            shown = "<br>".join(f"`{_md(p)}`" if p != "–" else p for p in params)
            out.append(f"| `{spec}` | {shown} | {_md(source)} |")
    out.append("")
    out += _legend(result.families, markdown=True)
    return out


def _markdown_family(entry: FamilyEntry) -> list[str]:
    out = [f"# {entry.name} — {entry.title}", "", f"`{_md(entry.formula)}`" if entry.formula else "", "",
           f"- **kind**: {KIND_NAMES.get(entry.kind, entry.kind)}: {KIND_TITLES.get(entry.kind, entry.kind).split(': ', 1)[-1]}",
           f"- **spec**: `{entry.syntax}`, e.g. " + ", ".join(f"`{e}`" for e in entry.examples),
           f"- **cutoff**: {_cutoff_text(entry)}",
           f"- **reads**: {'; '.join(entry.reads)}"]
    if entry.params:
        out.append("- **parameters**:")
        out += [f"  - `{p.name}`: {_param_text(p)}" for p in entry.params]
    else:
        out.append("- **parameters**: none")
    if entry.notes:
        out.append(f"- **notes**: {entry.notes}")
    out += [f"- **source**: {entry.source or 'not given'}", f"- **more**: `pydoc {entry.pydoc}`"]
    venues = _venues([entry.source, entry.notes])
    if venues:
        out += ["", "Venues: " + "; ".join(f"{a} = {m}" for a, m in venues) + "."]
    return out


# -- JSON -----------------------------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    """A JSON-ready value: numbers and strings as they are, anything else (a Fraction) as text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return format_value(value)


def _family_dict(entry: FamilyEntry) -> dict[str, Any]:
    data = asdict(entry)
    data["syntax"] = entry.syntax
    data["params"] = [{**{k: _plain(v) for k, v in asdict(p).items()}, "range": p.range_text()}
                      for p in entry.params]
    for key in ("reads", "examples"):
        data[key] = list(data[key])
    return data


# -- entry points ---------------------------------------------------------------------------------------

def _check(format: str) -> None:
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; known: {', '.join(FORMATS)}")


def format_metric_list(result: MetricList, format: str = "text", width: int = DEFAULT_WIDTH) -> str:
    """The list as ``text`` (lines fit ``width``), ``markdown`` or ``json``
    (``{"families": [...], "kinds": {...}}``)."""
    _check(format)
    if format == "json":
        return json.dumps({"families": [_family_dict(e) for e in result.families],
                           "kinds": {k: KIND_TITLES.get(k, k) for k, _ in result.by_kind()}},
                          indent=2, ensure_ascii=False) + "\n"
    lines = _markdown_list(result) if format == "markdown" else _text_list(result, width)
    return "\n".join(lines) + "\n"


def format_family(entry: FamilyEntry, format: str = "text", width: int = DEFAULT_WIDTH) -> str:
    """One family's page as ``text`` (lines fit ``width``), ``markdown`` or ``json``."""
    _check(format)
    if format == "json":
        return json.dumps(_family_dict(entry), indent=2, ensure_ascii=False) + "\n"
    lines = _markdown_family(entry) if format == "markdown" else _text_family(entry, width)
    return "\n".join(lines) + "\n"
