"""The relative (novelty) properties as oracles: the :class:`Property` declaration and its check.

Definitions §6. Each property states a claim from a seed paper about metrics
that score a ranking against other systems' rankings (a context):

- ``universal``: a relation ``Q(b) REL Q(a)`` on every generated case (Rarity,
  PriorMono), searched like the ten constraints;
- ``existential``: some case must change the score (PriorSens); the verdict
  is ``witness`` with the case found, or ``violated`` with the smallest
  searched case, noted as a search result;
- ``unary``: a claim about single scores (Rev, Bounded, Unique, Finite). A
  property may check several *claims* of the metric (each reversion, each
  stated bound), each searched on its own; the note says which held.

A property is an :class:`~axiometer.axioms.oracle.Oracle`, as a
:class:`~axiometer.axioms.constraints.base.Constraint` is: the engine calls
:meth:`Property.check` with its searcher. Its positions are defined by the metric's cutoff ("within the
cutoff"), so the cutoff mode is recorded but changes no case.

Decisions are exact where the metric offers ``exact`` (float screen first,
as :func:`axiometer.metrics.decide.compare`); a float-only metric is decided
with the stated tolerance. A metric that raises, or returns a non-finite
value, gives an ``error`` verdict naming the input, except that
:class:`~axiometer.metrics.base.UndefinedScore` skips the case (the formula
is undefined there; the note counts such cases, and Finite reports them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from axiometer.axioms.constraints.base import comparison_outcome, counterexample, is_relative, params_of
from axiometer.axioms.oracle import Searcher, SearchResult, combined_evidence, search_evidence
from axiometer.generators.case import Case, Scope, ScopeItem
from axiometer.generators.draw import bound
from axiometer.metrics import Metric, is_exact_capable
from axiometer.metrics.adapter import UserMetric
from axiometer.metrics.base import UndefinedScore
from axiometer.metrics.decide import DEFAULT_TOLERANCE, decide_sign, evaluate
from axiometer.results import AxiomInfo, Check, Evidence, Outcome, Strength, Verdict, Witness, context_record

__all__ = ["Property", "decide_sign", "counterexample", "relative_window", "not_relative",
           "comparison_outcome"]

#: A judge: (metric, claim, case, tolerance) -> outcome (holds / counterexample / error).
Judge = Callable[[Any, Any, Case, float], Outcome]


@dataclass(frozen=True)
class Property:
    """A relative property, declared (see the module docstring).

    ``applies(metric)`` returns ``None`` when the property applies, else the
    n/a reason. ``claims(metric)`` lists what to check separately (default:
    one claim, ``None``); ``describe(claim)`` names a claim in notes.
    ``strategy(scope)``/``small_scope(scope)`` build the cases; ``judge``
    decides one case. ``satisfies_conditions(case, scope)`` restates the
    conditions, for the generator tests.
    """

    id: str
    name: str
    wording: str
    source: str
    form: str                                                # "universal", "existential" or "unary"
    applies: Callable[[Any], str | None]
    judge: Judge
    strategy: Callable[[Scope], Any] | None = None
    small_scope: Callable[[Scope], Iterable[ScopeItem]] | None = None
    claims: Callable[[Any], tuple[Any, ...]] = lambda metric: (None,)
    describe: Callable[[Any], str] = lambda claim: ""
    relation: str = ""
    satisfies_conditions: Callable[[Case, Scope], bool] | None = None
    group: str = "relative"
    default_mode: str = "window"
    readings: tuple = field(default=())
    # What the reports say about it (AxiomInfo), as for a Constraint: one plain sentence on what a user
    # loses when a metric violates it; a phrase completing "b ..." in a counterexample's sentence.
    meaning: str = ""
    expectation: str = ""
    conditions: tuple[str, ...] = ("relative metric",)    # condition names (axioms.oracle.CONDITIONS)
    construction: str = ""                                # how a case is built, in words
    relation_text: str = ""                               # the relation as printed, when more than relation
    # The worked example of `axiometer axioms ID`: a built-in metric that satisfies the property and
    # one that violates it (None: no built-in does), as spec strings.
    example_metrics: tuple[str, str | None] | None = None

    def __repr__(self) -> str:
        return f"<property {self.id}: {self.name}>"

    def info(self) -> AxiomInfo:
        """What the property means, for the reports (its wording when no meaning is declared)."""
        return AxiomInfo(id=self.id, name=self.name, meaning=self.meaning or self.wording,
                         relation=self.relation_text or self.relation, conditions=self.conditions,
                         source=self.source, expectation=self.expectation)

    def __reduce_ex__(self, protocol: Any) -> Any:
        # A registered property pickles by id (its callables are lambdas), so parallel runners can ship it.
        if _REGISTERED.get(self.id) is self:
            return (registered_property, (self.id,))
        return super().__reduce_ex__(protocol)

    def check(self, metric: Metric, search: Searcher, *, mode: str | None, rho: Fraction,
              rcs: tuple[Fraction, ...], scope_changes: dict[str, Any] | None) -> Check:
        """The verdict on ``metric``: each claim searched in turn (``rho``, ``rcs`` and
        ``scope_changes`` are the constraints' and change nothing here)."""
        return _check_property(metric, self, mode, search)


#: The registered properties by id (:mod:`axiometer.axioms` registers them), for pickling by id.
_REGISTERED: dict[str, Property] = {}


def register(prop: Property) -> Property:
    """Make ``prop`` pickle by its id (the registry does this for the built-in properties)."""
    _REGISTERED[prop.id] = prop
    return prop


def registered_property(property_id: str) -> Property:
    """The registered property with this id (unpickling; importing this module loads the registry)."""
    return _REGISTERED[property_id]


def not_relative(metric: Metric) -> str | None:
    """The n/a reason shared by every property: the metric takes no context."""
    return None if is_relative(metric) else "not a relative metric (it takes no context)"


def relative_window(metric: Metric) -> int | None:
    """The cutoff ``k`` the properties' "within the cutoff" refers to.

    The metric's own cutoff (NRG's is its base's ``K``, its prior depth), else
    the cutoff of the ``base`` metric a metric author's object declares
    (:class:`~axiometer.metrics.adapter.UserMetric`); ``None`` when neither has one.
    """
    if metric.cutoff is not None:
        return metric.cutoff
    base = metric.base if isinstance(metric, UserMetric) else None  # only an author's object declares one
    return base.cutoff if base is not None else None


# -- searching ------------------------------------------------------------------------------------------

class _Stats:
    """What one search met besides its outcome: cases skipped as undefined, the first case judged."""

    def __init__(self) -> None:
        self.undefined = 0
        self.first: Outcome | None = None


def _judge(prop: Property, metric: Metric, claim: Any, case: Case, search: Searcher,
           stats: _Stats) -> Outcome:
    """Run the property's judge; a user metric's exception becomes an error outcome."""
    try:
        outcome = prop.judge(metric, claim, case, search.tolerance)
    except UndefinedScore:
        stats.undefined += 1  # outside the formula's domain: not this property's business (Finite's)
        outcome = Outcome(prop.form != "existential")
    except Exception as error:  # a user's metric may raise anything; report, don't crash
        return search.error(metric, case, error)
    if stats.first is None and outcome.counterexample is not None:
        stats.first = outcome
    return outcome


def _is_target(prop: Property, outcome: Outcome) -> bool:
    """What the search looks for: a failure (universal, unary) or a witness (existential); or an error."""
    if outcome.error is not None:
        return True
    return outcome.holds if prop.form == "existential" else not outcome.holds


def _search(prop: Property, metric: Metric, claim: Any, scope: Scope, search: Searcher, seed: int,
            stats: _Stats) -> SearchResult:
    """Small scope, then hypothesis, for a target (a failure, or an existential's witness)."""
    strategy = prop.strategy
    return search.find(
        None if prop.small_scope is None else prop.small_scope(scope),
        None if strategy is None else bound(strategy, scope),
        lambda case: _judge(prop, metric, claim, case, search, stats),
        lambda outcome: _is_target(prop, outcome), seed)


def _witness_evidence(found: SearchResult, exact: bool) -> Evidence:
    """An existential property's witness is one concrete case: it settles the verdict whatever
    else the search might meet, so its evidence is ``exhaustive``; the scope text says where the
    case was found and what was searched before it."""
    where = (f"small-scope case {found.small}" if found.cases == 0 else
             f"random case {found.cases}, after the {found.small} small-scope cases")
    return Evidence(Strength.EXHAUSTIVE, f"a concrete witness case settles it: {where}", found.small,
                    found.cases, exact, small_scope_named=True)


# -- the check ------------------------------------------------------------------------------------------

def _check(metric: Metric, prop: Property, mode: str, verdict: Verdict, cases: int = 0, small: int = 0,
           note: str = "", tolerance: float = DEFAULT_TOLERANCE, **extra: Any) -> Check:
    exact = is_exact_capable(metric)
    return Check(constraint=prop.id, metric=metric.name, params=params_of(metric), verdict=verdict, mode=mode,
                 cases=cases, small_scope=small, exact=exact, tolerance=None if exact else tolerance,
                 note=note, **extra)


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def _check_property(metric: Metric, prop: Property, mode: str | None, search: Searcher) -> Check:
    tolerance = search.tolerance
    mode = mode or prop.default_mode
    reason = not_relative(metric) or prop.applies(metric)
    if reason is not None:
        return _check(metric, prop, mode, Verdict.NA, note=reason)
    window = relative_window(metric)
    scope = Scope(max_position=window, grow=True)   # the small scopes grow as far as the budget allows
    family = metric.family
    claims = prop.claims(metric)
    total_cases = total_small = 0
    held: list[str] = []
    undefined = 0
    exact = is_exact_capable(metric)
    evidences: list[tuple[str, Evidence]] = []
    stops: list[str] = []
    for index, claim in enumerate(claims):
        stats = _Stats()
        seed_for_check = search.seed(family, prop.id, str(index))
        found = _search(prop, metric, claim, scope, search, seed_for_check, stats)
        outcome, case, cases, small, note = found.outcome, found.case, found.cases, found.small, found.note
        total_cases += cases
        total_small += small
        undefined += stats.undefined
        named = prop.describe(claim)
        skipped = (f"{stats.undefined} case(s) skipped where the score is undefined (see Finite)"
                   if stats.undefined else "")
        if outcome is not None and outcome.error is not None:
            return _check(metric, prop, mode, Verdict.ERROR, total_cases, total_small,
                          _join(f"claim: {named}" if named else "", note), tolerance, error=outcome.error,
                          small_scope_noted=found.small_scope_noted)
        if prop.form == "existential":
            if outcome is not None:
                assert case is not None
                try:
                    witness = _witness(metric, case)
                except Exception as error:  # re-scoring the witness may meet a misbehaviour the search did not
                    return _check(metric, prop, mode, Verdict.ERROR, total_cases, total_small, note, tolerance,
                                  error=search.error(metric, case, error).error,
                                  small_scope_noted=found.small_scope_noted)
                return _check(metric, prop, mode, Verdict.WITNESS, total_cases, total_small, _join(note, skipped),
                              tolerance, witness=witness, evidence=_witness_evidence(found, exact),
                              small_scope_noted=found.small_scope_noted)
            searched = total_cases + total_small
            if searched == 0:
                return _no_case(metric, prop, mode, window)
            first = stats.first
            if first is None:  # every case was undefined
                return _check(metric, prop, mode, Verdict.NA, total_cases, total_small,
                              _join("the score is undefined on every searched case", skipped), tolerance)
            return _check(metric, prop, mode, Verdict.VIOLATED, total_cases, total_small,
                          _join(f"no case among {searched} changed the score (a search result, "
                                "not a proof); the counterexample is the smallest case searched",
                                skipped), tolerance, counterexample=first.counterexample)
        if outcome is not None:  # a counterexample to this claim
            rest = [prop.describe(c) for c in claims[index + 1:]]
            claim_note = f"fails: {named}" if named else ""
            held_note = f"held: {', '.join(held)}" if held else ""
            untried = f"not tried after the failure: {', '.join(rest)}" if rest else ""
            return _check(metric, prop, mode, Verdict.VIOLATED, total_cases, total_small,
                          _join(claim_note, held_note, untried, note, skipped), tolerance,
                          counterexample=outcome.counterexample, small_scope_noted=found.small_scope_noted)
        if cases + small == 0:
            return _no_case(metric, prop, mode, window)
        if named:
            held.append(named)
        evidences.append((named, search_evidence(found, exact)))
        if found.reach is not None and found.reach.note:
            stops.append(found.reach.note)  # the small scope stopped by the time budget
    skipped = f"{undefined} case(s) skipped where the score is undefined (see Finite)" if undefined else ""
    return _check(metric, prop, mode, Verdict.SATISFIED, total_cases, total_small,
                  _join(f"held: {', '.join(held)}" if held else "", skipped, *dict.fromkeys(stops)),
                  tolerance, evidence=combined_evidence(evidences), small_scope_noted=bool(stops))


def _no_case(metric: Metric, prop: Property, mode: str, window: int | None) -> Check:
    where = f" within the cutoff k = {window}" if window is not None else ""
    return _check(metric, prop, mode, Verdict.NA, note=f"no case of this property fits{where}")


def _witness(metric: Metric, case: Case) -> Witness:
    qa = evaluate(metric, case.a, case.topic, case.context)
    qb = evaluate(metric, case.b, case.topic, case.context_of_b)
    contexts = f"context {context_record(case.context)} -> {context_record(case.context_of_b)}"
    return Witness(f"Q {qa:.6g} -> {qb:.6g}", f"a = {tuple(case.a)}; {case.note}; {contexts}",
                   scores=(qa, qb))
