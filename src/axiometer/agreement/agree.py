"""``agree``: an implementation against the exact reference on generated queries.

1. Generate queries (:mod:`axiometer.agreement.generation`, seeded, so a
   run is repeatable) after the hand-written awkward ones, and ask the
   implementation for each value (a batch implementation in one call).
2. Compare with the reference under every convention of
   :mod:`axiometer.agreement.conventions` (the reference's own first):
   ``|value - reference| <= tolerance``, a query with no value under
   ``norel=none`` not compared, a failure never agreeing. A convention
   survives if it agrees on every query.
3. The verdict: *agrees* when the reference's own conventions survive;
   *agrees under* the preferred survivor (fewest departures) otherwise; and
   *differs* (a bug) when none does.
4. Shrink, with hypothesis, a query on which the implementation and the
   reference's own conventions differ: for *agrees under*, one on which the
   named convention agrees (so the case shows exactly what the convention
   changes); for *differs*, one on which no convention agrees, where one
   exists.
5. Check the properties (:mod:`axiometer.agreement.properties`).

The comparison is in floats: the reference's float64 value is within about
``1e-15`` of its exact value, far inside any tolerance a run states.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.errors import Flaky, NoSuchExample, Unsatisfiable

from axiometer.agreement.conventions import Convention, conventions_for
from axiometer.agreement.generation import awkward_queries, queries
from axiometer.agreement.implementations import Failure, Implementation, Outcome, load_implementation
from axiometer.agreement.properties import check_properties
from axiometer.agreement.query import Query
from axiometer.agreement.reference import adjusted, base_value, exact_value
from axiometer.agreement.result import Agreement, AgreementResult, Case, Values
from axiometer.agreement.shrink import complexity, shrink
from axiometer.core import InputError
from axiometer.limits import DEFAULT_CASE_SECONDS
from axiometer.metrics.base import Metric

__all__ = ["agree", "DEFAULT_QUERIES", "DEFAULT_TOLERANCE", "MAX_GRADE", "reference_metric"]

DEFAULT_QUERIES = 300
DEFAULT_TOLERANCE = 1e-9
#: The top grade of generated judgments (grades 0-3, TREC's usual scale).
MAX_GRADE = 3
_SHRINK_EXAMPLES = 400
#: The calls of a case's predicate hypothesis may make, generating and shrinking.
_HYPOTHESIS_CALLS = 100
#: How many of the smallest failing queries are asked alone for a case's start.
_ALONE_TRIES = 50


def reference_metric(spec: Any) -> Metric:
    """The built-in ``spec`` names, if ``agree`` can use it as a reference: a metric of one
    ranking and one grade per document (no aspects, no other systems' runs)."""
    from axiometer.metrics.base import BuiltinMetric
    from axiometer.metrics.resolve import resolve
    metric = resolve(spec).metric
    where = f"metric {metric.name!r}"
    if not isinstance(metric, BuiltinMetric):
        raise InputError("the reference must be a built-in metric (nDCG@10, AP, RR, P@5, ...)", source=where)
    if metric.needs.aspects or metric.needs.context:
        raise InputError("agree compares metrics of one grade per document; this one reads "
                         + ("aspects" if metric.needs.aspects else "other systems' runs"), source=where)
    return metric


def _agrees(outcome: Outcome, reference: float | None, tolerance: float) -> bool:
    if reference is None:
        return True
    return not isinstance(outcome, Failure) and abs(outcome - reference) <= tolerance


class _Reference:
    """The reference's values on one query under many conventions, each computed once."""

    def __init__(self, metric: Metric, tolerance: float) -> None:
        self.metric, self.tolerance = metric, tolerance
        self.bases: dict[tuple[Query, str, str, str, str], tuple[float, int]] = {}

    def value(self, query: Query, convention: Convention) -> float | None:
        key = (query, convention["ties"], convention["precision"], convention["relevance"], convention["ideal"])
        base = self.bases.get(key)
        if base is None:
            base = self.bases[key] = base_value(self.metric, query, convention, MAX_GRADE)
        return adjusted(self.metric, query, convention, base)

    def agrees(self, query: Query, outcome: Outcome, convention: Convention) -> bool:
        return _agrees(outcome, self.value(query, convention), self.tolerance)


def _documents(cutoff: int | None) -> int:
    """The most documents a generated query holds: 8, or the cutoff plus 3 (at most 16)."""
    return min(16, max(8, (cutoff or 5) + 3))


def _generated(count: int, seed: int, cutoff: int | None) -> list[Query]:
    """``count`` queries hypothesis draws with ``seed`` (the same ones every run with that seed)."""
    found: list[Query] = []
    documents = _documents(cutoff)

    @hypothesis_seed(seed)
    @settings(max_examples=count, database=None, derandomize=False, phases=(Phase.generate,),
              suppress_health_check=list(HealthCheck), deadline=None)
    @given(queries(documents, MAX_GRADE))
    def collect(query: Query) -> None:
        found.append(query)

    collect()
    return found


def _survivors(reference: _Reference, candidates: Sequence[Convention], found: Sequence[Query],
               values: Sequence[Outcome]) -> list[Convention]:
    alive = list(candidates)
    for query, outcome in zip(found, values):
        alive = [c for c in alive if reference.agrees(query, outcome, c)]
        if not alive:
            break
    return alive


class _Spent(Exception):
    """Hypothesis used up its calls (:data:`_HYPOTHESIS_CALLS`)."""


def _shrunk(predicate: Callable[[Query], bool], seed: int, cutoff: int | None) -> Query | None:
    """What hypothesis finds and shrinks for ``predicate`` within :data:`_HYPOTHESIS_CALLS` calls;
    past them, the simplest failing query it had reached."""
    documents = _documents(cutoff)
    calls = [0]
    best: list[Query | None] = [None]

    def budgeted(query: Query) -> bool:
        calls[0] += 1
        if calls[0] > _HYPOTHESIS_CALLS:
            raise _Spent
        failed = predicate(query)
        if failed and (best[0] is None or complexity(query) < complexity(best[0])):
            best[0] = query
        return failed

    try:
        return find(queries(documents, MAX_GRADE), budgeted, random=random.Random(seed),
                    settings=settings(max_examples=_SHRINK_EXAMPLES, database=None, deadline=None,
                                      suppress_health_check=list(HealthCheck)))
    except (_Spent, Flaky):  # hypothesis reports the raise while it replays as flaky
        if calls[0] <= _HYPOTHESIS_CALLS:
            raise
        return best[0]
    except (NoSuchExample, Unsatisfiable):
        return None


Predicate = Callable[[Query, Outcome], bool]


def _predicates(reference: _Reference, own: Convention, chosen: Convention | None,
                everything: Sequence[Convention]) -> list[Predicate]:
    """What a case must show, most telling first (see the module docstring, step 4): under a
    convention, a query the convention explains and the reference's own do not; for a bug, a wrong
    value no convention explains, then a failure none explains, then any disagreement."""
    def against_own(query: Query, outcome: Outcome) -> bool:
        return not reference.agrees(query, outcome, own)

    if chosen is not None:
        return [lambda q, o: against_own(q, o) and reference.agrees(q, o, chosen)]

    def unexplained(query: Query, outcome: Outcome) -> bool:
        return against_own(query, outcome) and not any(reference.agrees(query, outcome, c) for c in everything)

    return [lambda q, o: not isinstance(o, Failure) and unexplained(q, o), unexplained, against_own]


def _case(impl: Implementation, reference: _Reference, own: Convention, chosen: Convention | None,
          everything: Sequence[Convention], found: Sequence[Query], values: Sequence[Outcome],
          seed: int) -> Case | None:
    """A minimal query on which ``impl`` and the reference's own conventions differ, with its values.
    A batch implementation may give a query another value alone (the property 'independence'), so a
    case is a query that fails when asked alone, as the values it shows are."""
    fallback: Query | None = None
    for differs in _predicates(reference, own, chosen, everything):
        known = sorted((i for i, (q, v) in enumerate(zip(found, values)) if differs(q, v)),
                       key=lambda i: (complexity(found[i]), i))
        if not known:
            continue

        def fails(query: Query, differs: Predicate = differs) -> bool:
            return differs(query, impl.values([query])[0])

        start = next((found[i] for i in known[:_ALONE_TRIES] if fails(found[i])), None)
        fallback = fallback or found[known[0]]
        if start is None:
            continue
        by_hypothesis = _shrunk(fails, seed, reference.metric.cutoff)
        starts = [start] + ([by_hypothesis] if by_hypothesis is not None else [])
        return _with_values(min((shrink(q, fails) for q in starts), key=complexity), impl, reference, own, chosen)
    return None if fallback is None else _with_values(fallback, impl, reference, own, chosen)


def _with_values(query: Query, impl: Implementation, reference: _Reference, own: Convention,
                 chosen: Convention | None) -> Case:
    outcome = impl.values([query])[0]
    exact = exact_value(reference.metric, query, own, MAX_GRADE)
    return Case(query, Values(outcome, reference.value(query, own), _exact_text(exact),
                              None if chosen is None else reference.value(query, chosen)))


def _exact_text(exact: Any) -> str | None:
    """An exact value as text: a fraction as it is, a sympy number simplified (``log(3)/log(18)``)."""
    if exact is None or isinstance(exact, (int, Fraction)):
        return None if exact is None else str(exact)
    import sympy
    return str(sympy.simplify(exact))


def agree(implementation: Any, metric: Any, *, queries: int = DEFAULT_QUERIES, seed: int = 0,
          tolerance: float = DEFAULT_TOLERANCE, conventions: Mapping[str, str] | None = None,
          form: str | None = None, case_seconds: float | None = DEFAULT_CASE_SECONDS) -> AgreementResult:
    """Whether ``implementation`` computes the built-in ``metric`` (see the module docstring).

    ``implementation``: ``module:function``, ``pytrec_eval:MEASURE``, ``ir_measures:MEASURE``,
    ``ranx:METRIC`` or a callable (:mod:`axiometer.agreement.implementations`); ``queries``: how many
    to generate; ``conventions``: axes to pin (``{"ideal": "run"}``); ``form``: a function's form;
    ``case_seconds``: a function's time limit per query (``None``: none), past which the run stops
    with :class:`~axiometer.agreement.implementations.TimedOut` naming the query.
    """
    started = time.perf_counter()
    reference_of = reference_metric(metric)
    impl = load_implementation(implementation, form, case_seconds)
    if queries < 1 or tolerance < 0:
        raise InputError("queries must be at least 1 and the tolerance not negative",
                         source=f"agree {impl.name} {reference_of.name}")
    candidates = conventions_for(reference_of, conventions)
    found = awkward_queries(reference_of.cutoff) + _generated(queries, seed, reference_of.cutoff)
    values = impl.values(found)
    reference = _Reference(reference_of, tolerance)
    alive = _survivors(reference, candidates, found, values)
    own = candidates[0] if conventions else min(candidates, key=Convention.cost)
    if own in alive:
        verdict, chosen = Agreement.AGREES, own
    elif alive:
        verdict, chosen = Agreement.AGREES_UNDER, min(alive, key=Convention.cost)
    else:
        verdict, chosen = Agreement.DIFFERS, None
    numbers = [(q, v) for q, v in zip(found, values) if not isinstance(v, Failure)]
    elsewhere = None
    if verdict is Agreement.DIFFERS and len(numbers) < len(found):
        rest = _survivors(reference, candidates, [q for q, _ in numbers], [v for _, v in numbers])
        elsewhere = min(rest, key=Convention.cost) if rest else None
    case = None if verdict is Agreement.AGREES else _case(
        impl, reference, own, chosen, candidates, found, values, seed)
    properties = check_properties(reference_of, impl, found, values, tolerance)
    return AgreementResult(impl.name, impl.provider, reference_of.name, verdict, chosen, case, properties,
                           len(found), len(candidates), tolerance, seed, time.perf_counter() - started,
                           elsewhere, tuple((conventions or {}).items()))
