"""The oracle protocol: what every constraint and relative property offers the checking engine.

An *oracle* is an axiom that can be checked on a metric: one of the ten
constraints (:mod:`axiometer.axioms.constraints`) or one of the relative
properties (:mod:`axiometer.axioms.properties`). Each knows what its verdict
means — a universal relation fails on one case, a threshold is read from the
sign of ``D(n)`` along a grid, Sat searches for ``rmax``, an existential
property needs one witness — and implements :meth:`Oracle.check`.

How cases are looked for is the engine's business
(:mod:`axiometer.checking`): it hands the oracle a :class:`Searcher`, which
runs the exhaustive small scope and the shrinking random search within the
budget, derives per-check seeds, and turns a misbehaving metric into an error
outcome naming the input. The dependency points one way: the oracles define
this protocol, the engine implements it.

Every oracle also says what it means (:meth:`Oracle.info`, an
:class:`~axiometer.results.AxiomInfo`: name, plain meaning, relation,
conditions, source), which the reports print beside its verdicts;
:data:`CONDITIONS` explains each condition name in words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from axiometer.generators.case import Case, ScopeItem
from axiometer.metrics.base import Metric
from axiometer.results import STRENGTHS, AxiomInfo, Check, Evidence, Outcome, Strength

__all__ = ["Oracle", "Searcher", "SearchResult", "ScopeReach", "Layer", "CONDITIONS",
           "scope_text", "scope_names_small_scope", "search_evidence", "combined_evidence"]

#: What each condition name of a constraint or property asks of its cases, in words
#: (definitions §3.1 for the constraints' conditions, §6.4 for the properties').
CONDITIONS: Mapping[str, str] = {
    "single aspect": "the topic has one aspect (|T| = 1), so relevance is one number per document",
    "balanced aspects": "every aspect has the same weight, w(t) = 1/|T|",
    "two balanced aspects": "the topic has exactly two aspects t and t', each of weight 1/2",
    "binary": "every r(d, t) is 0 or one constant rc in (0, 1)",
    "no aspect overlap": "every document is relevant (r > 0) to at most one aspect",
    "relevance contribution": "every non-zero relevance is at most rho (default 1/10): no single document "
                              "fully satisfies the user, so there is always room for more",
    "graded": "relevance values are graded: any values in (0, rho], not one constant",
    "unequal weights": "the two aspects involved have different weights, w(t') > w(t)",
    "relative metric": "the metric scores a ranking against other systems' rankings (a context of "
                       "0 to 3 other systems here); n/a for any other metric",
    "within the cutoff": "the positions the case changes, in the ranking and in the other systems' "
                         "rankings, lie within the metric's cutoff k",
    "declares a reversion": "the metric names a setting at which it is its base metric; n/a otherwise",
    "states bounds": "the metric states the range its values lie in; n/a otherwise",
    "claims unique counting": "the metric claims to count unique relevant contributions; n/a otherwise",
}


@dataclass(frozen=True)
class Layer:
    """Small-scope cases a search decided, read off the cases themselves.

    ``docs``: every case of the small scope with at most this many documents (in the larger
    ranking) was decided, for a complete layer; the largest case's size, for the cases after the
    last complete layer. ``cases``: how many were decided; ``values``: the relevance values their
    topics hold (ascending); ``aspects``: their topics' aspect counts (ascending); ``sizes``: how
    many cases of each size. A small scope may yield a case ahead of its layer (Bounded's
    extremes come first): a complete layer can hold cases larger than ``docs``.
    """

    docs: int
    cases: int
    values: tuple[Fraction, ...]
    aspects: tuple[int, ...]
    sizes: tuple[tuple[int, int], ...] = ()   # (size, cases of that size), ascending

    @property
    def smallest(self) -> int:
        return self.sizes[0][0] if self.sizes else self.docs

    @property
    def largest(self) -> int:
        return self.sizes[-1][0] if self.sizes else self.docs


@dataclass(frozen=True)
class ScopeReach:
    """How far a search's exhaustive small scope got (definitions §3.7: what a verdict rests on).

    ``layers``: the complete layers, smallest first (one per
    :class:`~axiometer.generators.case.ScopeMark` reached; a small scope that
    marks no layer and ran out is one layer, the whole scope). ``partial``:
    the cases decided after the last complete layer (``None``: none).
    ``declared``: the size of the declared scope's largest layer, when the
    small scope marks its layers. ``complete``: the whole declared scope was
    decided (its last mark reached, or the small scope ran out). ``stopped``:
    why the enumeration ended before running out: ``"budget"`` (the
    small-scope case budget, ``budget`` cases), ``"time"`` (the check's
    seconds), ``"target"`` (the search found what it looked for), or ``""``.
    """

    layers: tuple[Layer, ...]
    partial: Layer | None
    declared: int | None
    complete: bool
    stopped: str
    budget: int
    note: str = ""       # what the check's note says of the enumeration (a time-budget stop)

    @property
    def cases(self) -> int:
        """Small-scope cases decided."""
        return sum(layer.cases for layer in self.layers) + (self.partial.cases if self.partial else 0)

    @property
    def docs(self) -> int | None:
        """The largest complete layer's size (``None``: no layer complete)."""
        return self.layers[-1].docs if self.layers else None


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the target's outcome and case (``None``: none), the counts, a note,
    and how far the small scope got (``None``: the search had no small scope)."""

    outcome: Outcome | None
    case: Case | None
    cases: int     # generated cases evaluated (random search)
    small: int     # small-scope cases evaluated
    note: str
    reach: ScopeReach | None = None

    @property
    def small_scope_noted(self) -> bool:
        """Whether ``note`` speaks of the small scope: the target was found in it ("found in the small
        scope"), or the time budget stopped it (:attr:`ScopeReach.note`)."""
        return self.reach is not None and self.reach.stopped in ("target", "time")


def _values_text(values: tuple[Fraction, ...]) -> str:
    return "{" + ", ".join(str(v) for v in values) + "}"


def _aspects_text(aspects: set[int]) -> str:
    counts = [str(a) for a in sorted(aspects)]
    if not counts:
        return ""
    listed = counts[0] if len(counts) == 1 else f"{', '.join(counts[:-1])} or {counts[-1]}"
    return f"{listed} aspect{'' if counts == ['1'] else 's'}"


def _span(first: int, last: int) -> str:
    return str(last) if first == last else f"{first}-{last}"


def _cases(count: int) -> str:
    return f"{count} case{'' if count == 1 else 's'}"


def _documents(span: str | int) -> str:
    """``"3 documents"``, ``"1 document"``, ``"2-4 documents"``."""
    return f"{span} document{'' if str(span) == '1' else 's'}"


def _stop_text(reach: ScopeReach, what: str) -> str:
    if reach.stopped == "budget":
        return f"the budget of {reach.budget} small-scope cases stopped {what}"
    if reach.stopped == "time":
        return f"the time budget stopped {what}"
    return ""


def scope_text(reach: ScopeReach) -> str:
    """In words, what a small scope enumerated completely, e.g. "every case of up to 4 documents
    (declared scope), 240 cases: 2-3 documents over relevance values {0, 1/50, 1/20, 1/10}, 4 over
    {0, 1/20, 1/10}; 1 aspect". A case's size is the longer ranking's number of documents."""
    partial = reach.partial
    if reach.declared is None and not reach.layers:  # no marks, not run out
        assert partial is not None
        return (f"{_cases(partial.cases)} of the small scope, of "
                f"{_documents(_span(partial.smallest, partial.docs))} over relevance values "
                f"{_values_text(partial.values)}; "
                f"{_aspects_text(set(partial.aspects))} (not the whole small scope: "
                f"{_stop_text(reach, 'it') or 'stopped'})")
    if reach.declared is None:  # no marks, run out: one layer, the whole small scope
        whole = reach.layers[-1]
        return (f"the whole small scope, {_cases(whole.cases)} of "
                f"{_documents(_span(whole.smallest, whole.docs))} over relevance values "
                f"{_values_text(whole.values)}; "
                f"{_aspects_text(set(whole.aspects))}")
    declared = reach.declared
    if reach.layers:
        top = reach.layers[-1].docs
        groups: list[tuple[int, int, tuple[Fraction, ...]]] = []  # (first size, last size, values)
        previous = None
        for layer in reach.layers:
            start = layer.smallest if previous is None else previous + 1
            previous = layer.docs
            if not layer.cases:
                continue
            if groups and groups[-1][2] == layer.values:
                groups[-1] = (groups[-1][0], layer.docs, layer.values)
            else:
                groups.append((start if start <= layer.docs else layer.docs, layer.docs, layer.values))
        ahead = [(size, count) for layer in reach.layers for size, count in layer.sizes if size > top]
        aspects = {a for layer in reach.layers for a in layer.aspects}
        which = "the declared scope" if top == declared else f"declared scope: up to {declared}"
        cases = sum(layer.cases for layer in reach.layers)
        sizes = ", ".join(f"{_documents(_span(first, last)) if i == 0 else _span(first, last)} over "
                          f"{'relevance values ' if i == 0 else ''}{_values_text(values)}"
                          for i, (first, last, values) in enumerate(groups))
        text = f"every case of up to {_documents(top)} ({which}), {_cases(cases)}"
        if sizes:
            if ahead:  # cases yielded before their layer (every one of them decided)
                sizes += (f", and {_cases(sum(c for _, c in ahead))} of "
                          f"{_documents(_span(min(s for s, _ in ahead), max(s for s, _ in ahead)))}")
            text += f": {sizes}; {_aspects_text(aspects)}"
    else:
        text = f"no layer complete (declared scope: up to {_documents(declared)})"
    if partial is not None:
        text += f"; then {_cases(partial.cases)} of {_documents(_span(partial.smallest, partial.docs))}"
    stop = _stop_text(reach, "the growth" if reach.complete else "it")
    return f"{text} ({stop})" if stop else text


def scope_names_small_scope(reach: ScopeReach) -> bool:
    """Whether :func:`scope_text` speaks of the small scope by name: a small scope that marks no layers
    ("of the small scope", "the whole small scope"), or one its case budget stopped ("the budget of
    400 small-scope cases stopped it"); a time-budget stop is the check's note (:attr:`ScopeReach.note`)."""
    return reach.declared is None or reach.stopped == "budget"


def search_evidence(found: SearchResult, exact: bool, prefix: str = "") -> Evidence:
    """The evidence of a search that found no target: ``exhaustive`` when its small scope's
    declared scope was decided completely, ``searched`` when only part of it was, ``sampled``
    without a small-scope case; ``prefix`` opens the scope text (e.g. ``"rmax = 1: "``)."""
    reach = found.reach
    if reach is None or not reach.cases:
        scope = "none: no small scope" if reach is None else "none: no small-scope case fits"
        return Evidence(Strength.SAMPLED, prefix + scope, 0, found.cases, exact, small_scope_named=True)
    strength = Strength.EXHAUSTIVE if reach.complete else Strength.SEARCHED
    return Evidence(strength, prefix + scope_text(reach), reach.cases, found.cases, exact,
                    small_scope_named=scope_names_small_scope(reach))


def combined_evidence(parts: list[tuple[str, Evidence]]) -> Evidence:
    """One evidence for several searches of one check (a property's claims, each ``(name, evidence)``):
    the weakest strength, the cases summed, exact only if every part is; the scope texts named
    by part unless they are all the same."""
    if len(parts) == 1:
        return parts[0][1]
    evidences = [e for _, e in parts]
    strength = max((e.strength for e in evidences), key=STRENGTHS.index)
    texts = {e.exhaustive_scope for e in evidences}
    scope = (f"each of {len(parts)} claims: {texts.pop()}" if len(texts) == 1 else
             "; ".join(f"{name}: {e.exhaustive_scope}" if name else e.exhaustive_scope
                       for name, e in parts))
    return Evidence(strength, scope, sum(e.exhaustive_cases for e in evidences),
                    sum(e.random_cases for e in evidences), all(e.exact for e in evidences),
                    small_scope_named=any(e.small_scope_named for e in evidences))


class Searcher(Protocol):
    """What the checking engine offers an oracle for one check."""

    tolerance: float   # a float-only metric's ties are decided within it
    horizon: int       # the threshold constraints' largest n

    def seed(self, *parts: str) -> int:
        """A per-search seed derived from the run's seed and ``parts`` (stable across runs)."""

    def find(self, small_scope: Iterable[ScopeItem] | None, strategy: Callable[[], Any] | None,
             judge: Callable[[Case], Outcome], is_target: Callable[[Outcome], bool],
             seed: int) -> SearchResult:
        """The small scope (its cases, and marks after complete layers), then a shrinking random
        search, for a case whose outcome is a target."""

    def error(self, metric: Metric, case: Case, error: Exception) -> Outcome:
        """An error outcome naming the input on which ``metric`` misbehaved."""


class Oracle(Protocol):
    """A checkable axiom: a constraint or a relative property.

    Its fields are read-only here (properties), so the frozen dataclasses
    :class:`~axiometer.axioms.constraints.base.Constraint` and
    :class:`~axiometer.axioms.properties.base.Property` satisfy it.
    """

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def group(self) -> str:
        """The group it belongs to: ``"relevance"``, ``"diversity"`` (constraints) or ``"relative"``
        (properties)."""

    @property
    def form(self) -> str:
        """The form of its claim, which says how it is decided: ``"universal"`` (on every case),
        ``"threshold"`` or ``"saturation"`` (constraints), ``"existential"`` or ``"unary"`` (properties)."""

    @property
    def default_mode(self) -> str:
        """The cutoff mode when none is asked for."""

    @property
    def readings(self) -> tuple[Any, ...]:
        """Nearby readings tried to explain a violation."""

    def check(self, metric: Metric, search: Searcher, *, mode: str | None, rho: Fraction,
              rcs: tuple[Fraction, ...], scope_changes: dict[str, Any] | None) -> Check:
        """The verdict on ``metric`` at one parameter setting."""

    def info(self) -> AxiomInfo:
        """What the axiom means: its name, plain meaning, relation, conditions and source."""
