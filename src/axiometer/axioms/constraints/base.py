"""What a constraint is: a generator of cases plus a relation (definitions §3).

A :class:`Case` is a topic and two system outputs ``a`` and ``b`` built from
it; a :class:`Constraint` declares its id, name, the paper's wording, its
conditions, how its cases are generated (a hypothesis strategy and an
exhaustive small scope, both from :mod:`axiometer.generators`), and the
relation ``Q(b) REL Q(a)`` it asserts. It is an
:class:`~axiometer.axioms.oracle.Oracle`: :meth:`Constraint.check` decides its
verdict from what the engine's searcher finds. Three forms (``form``), one class each:

- universal (this module): the relation must hold on every case (Pri,
  Deep, Conf, AspDiv, Red, MRed, AspRel); the small scope, then a shrinking
  random search, look for a case where it fails;
- threshold (:mod:`~axiometer.axioms.constraints.threshold`): DeepTh and
  CloseTh, decided by the sign of ``D(n)`` along a grid of ``n``;
- saturation (:mod:`~axiometer.axioms.constraints.saturation`): Sat, a
  universal search for each ``rmax`` candidate.

Each constraint lives in its own module of :mod:`axiometer.axioms.constraints`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from axiometer.axioms.oracle import Searcher, SearchResult, search_evidence
from axiometer.core import Context, to_fraction
from axiometer.generators.case import DEFAULT_RHO, Case, Scope, ScopeItem
from axiometer.generators.context import in_generated_contexts, small_scope_with_contexts, with_contexts
from axiometer.generators.draw import CaseStrategy, bound
from axiometer.metrics import Metric, is_exact_capable
from axiometer.metrics.decide import ScoreComparison, compare
from axiometer.results import (HOLDS, AxiomInfo, Check, Counterexample, Decided, Evidence, Outcome, Verdict,
                               context_record, record_topic)

__all__ = ["Case", "Scope", "Relation", "Constraint", "Reading", "B_GT_A", "A_GT_B", "A_GE_B",
           "DEFAULT_RHO", "TRUNCATE_MAX_DOCS", "params_of", "joined_note", "is_relative",
           "check_result", "no_case", "counterexample", "comparison_outcome"]

#: The longest ranking generated in truncate mode (cutoff + 2, at most this).
TRUNCATE_MAX_DOCS = 24

@dataclass(frozen=True)
class Relation:
    """``Q(b) > Q(a)``, ``Q(a) > Q(b)`` or ``Q(a) >= Q(b)``, decided from the sign of ``Q(b) - Q(a)``."""

    text: str
    holds: Callable[[int], bool]  # sign of Q(b) - Q(a) -> does the relation hold?


B_GT_A = Relation("Q(b) > Q(a)", lambda sign: sign > 0)
A_GT_B = Relation("Q(a) > Q(b)", lambda sign: sign < 0)
A_GE_B = Relation("Q(a) >= Q(b)", lambda sign: sign <= 0)


@dataclass(frozen=True)
class Reading:
    """A nearby reading of a constraint, tried to explain a violation.

    ``scope`` changes the generation (e.g. ``later_untouched=True`` or a
    smaller ``rho``); ``text`` completes "holds when ...".
    """

    text: str
    scope: dict[str, Any]


@dataclass(frozen=True)
class Constraint:
    """A constraint of SIGIR 2018, declared (see the module docstring)."""

    id: str
    name: str
    wording: str                                   # the paper's statement
    conditions: tuple[str, ...]                    # condition names of definitions §3
    group: str                                     # "relevance" or "diversity"
    form: str                                      # "universal", "threshold" or "saturation"
    relation: Relation = B_GT_A
    strategy: Callable[[Scope], Any] | None = None           # Scope -> SearchStrategy[Case]
    small_scope: Callable[[Scope], Iterable[ScopeItem]] | None = None   # cases, and marks (ScopeMark)
    satisfies_conditions: Callable[[Case, Scope], bool] | None = None  # for tests of the generators
    readings: tuple[Reading, ...] = field(default=())
    default_mode: str = "window"                   # "window" for universal, "truncate" for thresholds
    # What the reports say about it (AxiomInfo): one plain sentence on what a user loses when a metric
    # violates it; the paper and equation; a phrase completing "b ..." in a counterexample's sentence.
    meaning: str = ""
    source: str = ""
    expectation: str = ""
    construction: str = ""                         # how a case is built, in words
    relation_text: str = ""                        # the relation as printed, when more than relation.text
    # The worked example of `axiometer axioms ID`: a built-in metric that satisfies the constraint
    # and one that violates it (None: no built-in does), as spec strings.
    example_metrics: tuple[str, str | None] | None = None

    def __repr__(self) -> str:
        return f"<constraint {self.id}: {self.name}>"

    def info(self) -> AxiomInfo:
        """What the constraint means, for the reports (the paper's wording when no meaning is declared)."""
        return AxiomInfo(id=self.id, name=self.name, meaning=self.meaning or self.wording,
                         relation=self.relation_text or self.relation.text, conditions=self.conditions,
                         source=self.source, expectation=self.expectation)

    def check(self, metric: Metric, search: Searcher, *, mode: str | None, rho: Fraction,
              rcs: tuple[Fraction, ...], scope_changes: dict[str, Any] | None) -> Check:
        """The verdict on ``metric``: the small scope, then a random search, for a failing case.

        A relative metric (one that takes a context) is checked with a
        context of other systems generated for each case.
        """
        mode = mode or self.default_mode
        relative = is_relative(metric)
        constraint = self.under_generated_contexts() if relative else self
        cutoff = metric.cutoff
        # grow: the small scope continues past its declared scope as far as the budget allows.
        scope = Scope(max_position=cutoff if mode == "window" else None, rho=to_fraction(rho), grow=True)
        if mode == "truncate" and cutoff is not None:
            # Let constructions reach past a small cutoff, so truncation can show (bounded for speed).
            scope = scope.with_(max_docs=max(scope.max_docs, min(cutoff + 2, TRUNCATE_MAX_DOCS)))
        if scope_changes:
            scope = scope.with_(**scope_changes)
        # Seeded by the metric's family, not its full name: every setting of a parameter grid
        # then meets the same cases, so a parameter that cannot matter cannot flip the verdict.
        seed = search.seed(metric.family, self.id, repr(sorted((scope_changes or {}).items())))
        result = constraint.decide(metric, mode, scope, search, seed)
        return joined_note(result, "under a generated context of other systems") if relative else result

    def decide(self, metric: Metric, mode: str, scope: Scope, search: Searcher, seed: int) -> Check:
        """A universal constraint's verdict: violated by the first failing case found, else satisfied
        (with the evidence of the search)."""
        found = self.search_failure(metric, scope, search, seed)
        outcome = found.outcome or Outcome(True)
        if outcome.holds and found.cases == 0 and found.small == 0:
            return no_case(metric, self, mode, scope)
        return check_result(metric, self, mode, outcome, found.cases, found.small, found.note,
                            search.tolerance, evidence=lambda exact: search_evidence(found, exact),
                            small_scope_noted=found.small_scope_noted)

    def search_failure(self, metric: Metric, scope: Scope, search: Searcher, seed: int,
                       extra: tuple[tuple[str, str], ...] = ()) -> SearchResult:
        """Small scope, then random search, for a case where the relation fails (``outcome``
        ``None``: none found); the result counts the cases and says how far the small scope got."""
        strategy = self.strategy
        return search.find(
            None if self.small_scope is None else self.small_scope(scope),
            None if strategy is None else bound(strategy, scope),
            lambda case: self.judge(metric, case, search, extra),
            lambda outcome: not outcome.holds, seed)

    def judge(self, metric: Metric, case: Case, search: Searcher,
              extra: tuple[tuple[str, str], ...] = ()) -> Outcome:
        """Decide the relation on one case (exactly where the metric can), or an error outcome."""
        try:
            return comparison_outcome(metric, case, search.tolerance, self.relation.text,
                                      self.relation.holds, extra)
        except Exception as error:  # a user's metric may raise anything; report, don't crash
            return search.error(metric, case, error)

    def under_generated_contexts(self) -> Constraint:
        """This constraint with a context generated for each case (a relative metric; definitions §6)."""
        strategy, small_scope = self.strategy, self.small_scope
        return dataclasses.replace(
            self,
            strategy=None if strategy is None else (
                in_generated_contexts(strategy) if isinstance(strategy, CaseStrategy) else
                lambda scope: with_contexts(strategy(scope), scope.context_disjoint)),
            small_scope=None if small_scope is None else (
                lambda scope: small_scope_with_contexts(iter(small_scope(scope)), scope.context_disjoint)))


def is_relative(metric: Metric) -> bool:
    """Does the metric score a ranking against other systems' rankings (a context)?"""
    return metric.needs.context


def params_of(metric: Metric) -> tuple[tuple[str, Any], ...]:
    """The metric's parameter setting, as recorded in a :class:`Check`."""
    return tuple(metric.params.items())


def joined_note(result: Check, note: str) -> Check:
    """The check with ``note`` added to its note."""
    return dataclasses.replace(result, note="; ".join(n for n in (result.note, note) if n))


def check_result(metric: Metric, constraint: Constraint, mode: str, outcome: Outcome, cases: int,
                 small: int, note: str, tolerance: float,
                 evidence: Callable[[bool], Evidence] | None = None, **extra: Any) -> Check:
    """The :class:`Check` for an outcome: error, the given verdict (default satisfied) or violated.

    ``evidence(exact)`` gives what a satisfied or witness verdict rests on (``exact``: every
    decision was exact); the other verdicts carry none.
    """
    if outcome.error is not None:
        verdict = Verdict.ERROR
    elif outcome.holds:
        verdict = extra.pop("verdict", Verdict.SATISFIED)
    else:
        verdict = Verdict.VIOLATED
    exact = is_exact_capable(metric)
    return Check(constraint=constraint.id, metric=metric.name, params=params_of(metric), verdict=verdict,
                 mode=mode, cases=cases, small_scope=small, counterexample=outcome.counterexample,
                 error=outcome.error, exact=exact, tolerance=None if exact else tolerance,
                 note=note, evidence=evidence(exact) if evidence and verdict in HOLDS else None, **extra)


def no_case(metric: Metric, constraint: Constraint, mode: str, scope: Scope) -> Check:
    """No case fits (e.g. a cutoff k = 1 in window mode leaves no room for the construction)."""
    where = f"within the window k = {scope.max_position}" if scope.max_position is not None else ""
    return Check(constraint=constraint.id, metric=metric.name, params=params_of(metric), verdict=Verdict.NA,
                 mode=mode, note=f"no case of this constraint fits {where}".rstrip())


# -- judging one case (the properties' judges use these too) ----------------------------------

def counterexample(case: Case, score_a: float, score_b: float, relation: str, *, exact: bool,
                   note: str | None = None, extra: tuple[tuple[str, str], ...] = (),
                   context_a: Context | None = None, context_b: Context | None = None,
                   b: Any = None) -> Counterexample:
    """A counterexample from a case (contexts default to the case's)."""
    ctx_a = case.context if context_a is None else context_a
    return Counterexample(
        topic=record_topic(case.topic), a=tuple(case.a), b=tuple(case.b if b is None else b),
        score_a=score_a, score_b=score_b, relation=relation, note=case.note if note is None else note,
        decided=Decided.EXACT if exact else Decided.FLOAT, extra=extra, context_a=context_record(ctx_a),
        context_b=context_record(context_b if context_b is not None else case.context_b))


def comparison_outcome(metric: Metric, case: Case, tolerance: float, relation: str,
                       holds: Callable[[int], bool], extra: tuple[tuple[str, str], ...] = ()) -> Outcome:
    """Decide ``Q(b)`` (in ``b``'s context) against ``Q(a)``; ``holds`` reads the sign of ``Q(b) - Q(a)``.

    Exactly where the metric can (:func:`~axiometer.metrics.decide.compare`); a failure is a
    counterexample with ``extra`` (e.g. Sat's ``rmax``). A metric's exception propagates.
    """
    comparison: ScoreComparison = compare(metric, case.topic, case.a, case.b, tolerance, case.context,
                                     case.context_of_b)
    if holds(comparison.sign):
        return Outcome(True)
    return Outcome(False, counterexample(case, comparison.qx, comparison.qy, relation,
                                          exact=comparison.exact, extra=extra))
