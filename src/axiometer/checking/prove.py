"""Proving a universal constraint for every real relevance value, after the search (definitions §3, "proved").

:func:`prove` first tries a lemma that covers every ranking length (Pri and
Deep of a metric with a static browsing model, :mod:`axiometer.proofs.lemmas`);
otherwise it decides the constraint on every case structure up to
``Budget.proof_docs`` documents (:mod:`axiometer.proofs`): every relevance
value any real in ``(0, rho]``, the metric's own code run on symbols. It
ends in one of three ways (a :class:`ProofAttempt`):

- **proved**: every structure holds; the check's evidence becomes
  ``proved`` with the :class:`~axiometer.evidence.Proof` (scope, procedure,
  structures, paths, time);
- **refuted**: z3 found values that break a structure; they are put into
  an ordinary case and decided again by the exact path the search uses, and
  the check becomes a violation with that counterexample (its note says the
  solver found it);
- **not proved**: the metric cannot run on symbols, a structure was not
  decided, or the time ran out; the search's verdict stands and
  ``Check.unproved`` says why.

:func:`with_proof` applies an attempt to a check. Only the universal
constraints with structures (:func:`~axiometer.proofs.scopes.structures_for`) and Sat's witness
are proved here.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from axiometer.axioms.constraints.base import Constraint
from axiometer.axioms.constraints.threshold import threshold_grid
from axiometer.evidence import Evidence, Proof, Strength
from axiometer.core import Ranking, Topic
from axiometer.generators.building import doc_ids
from axiometer.generators.case import Case
from axiometer.generators.relevance import swap
from axiometer.metrics.base import BuiltinMetric, Metric
from axiometer.proofs.decide import decide_structure, symbolic_score
from axiometer.proofs.lemmas import weight_lemma
from axiometer.proofs.thresholds import ThresholdProof, closeness_witness, deepness_witness, failing_rcs
from axiometer.proofs.scopes import structures_for
from axiometer.results import Check, Counterexample, Decided, Outcome, Verdict, Witness

__all__ = ["ProofAttempt", "prove", "prove_threshold", "with_proof", "PROCEDURE"]

PROCEDURE = "z3 nonlinear real arithmetic on every path of the metric's code"

#: One structure may branch into at most this many paths (within the proof's budget).
STRUCTURE_PATHS = 256


@dataclass(frozen=True)
class ProofAttempt:
    """How a proof ended: ``proof`` (proved), ``counterexample`` (refuted) or ``reason`` (neither)."""

    seconds: float
    proof: Proof | None = None
    counterexample: Counterexample | None = None
    reason: str = ""


def _scope(docs: int, aspects: int) -> str:
    return f"every case of up to {docs} documents and {aspects} aspect{'s' if aspects != 1 else ''}"


def prove(metric: Metric, constraint: Constraint, *, mode: str, rho: Fraction, max_docs: int,
          seconds: float, judge: Callable[[Case], Outcome], run: Any = None, paths: int = 1000,
          horizon: int = 1024, keep_formula: bool = False, rmax: Fraction | None = None,
          structures: bool = True) -> ProofAttempt | None:
    """Decide ``constraint`` on every structure up to ``max_docs`` documents (``None``: it has none).

    ``metric`` is run on symbols (through ``run``, the guard's time limit, for a metric
    author's); ``judge`` re-decides a refuting case exactly, as the search does (on the
    guarded metric). At most ``paths`` paths of its code are explored (the budget that decides,
    the same on every machine); ``seconds`` is a safety limit.
    """
    last = metric.cutoff if mode == "window" else None
    cases = structures_for(constraint.id, rho, max_docs, last, rmax)
    if cases is None:
        return None
    start = time.monotonic()
    lemma = weight_lemma(metric, constraint.id, mode=mode, rho=rho)
    if lemma is not None and lemma.holds:
        elapsed = time.monotonic() - start
        return ProofAttempt(elapsed, proof=Proof(
            scope="every ranking length", procedure=f"lemma: {lemma.text}", structures=0, paths=0,
            seconds=round(elapsed, 3), rho=rho))
    probed = constraint.id == "Pri" and not isinstance(metric, BuiltinMetric)
    if probed:  # past the structures' size, first, at every setting: it does not depend on the budget
        refuted = _long_swaps(metric, constraint.relation.holds, judge, rho, last, horizon, start)
        if refuted is not None:
            return refuted
    if not structures:
        return ProofAttempt(time.monotonic() - start, reason=(
            "a table decides case structures at the metric's default setting only "
            "(--prove-every-setting: at every setting)"))
    return _decide_structures(metric, constraint, cases, judge, run, _Allowance(paths, start + seconds),
                              keep_formula, probed, horizon, last, rho, start)


@dataclass
class _Allowance:
    """What a proof may still spend: ``paths`` of the metric's code (the budget), and a safety ``deadline``."""

    paths: int
    deadline: float

    def ran_out(self, structures: int) -> str:
        """The reason a proof gives when its budget of paths ran out after ``structures``."""
        return (f"the proof's budget ({self.paths} paths of the metric's code) ran out after {structures} "
                "case structures")

    def exhausted(self, paths: int, structures: int) -> str:
        """Why the proof stops before the next structure ("" when it may go on)."""
        if paths >= self.paths:
            return self.ran_out(structures)
        if time.monotonic() > self.deadline:
            return f"the proof's safety time limit ran out after {structures} case structures"
        return ""


def _decide_structures(metric: Metric, constraint: Constraint, cases: Any, judge: Callable[[Case], Outcome],
                       run: Any, allowance: _Allowance, keep_formula: bool, probed: bool, horizon: int,
                       last: int | None, rho: Fraction, start: float) -> ProofAttempt:
    """Every structure decided in turn, within ``allowance``: proved, refuted or not proved."""
    count = paths = aspects = docs = 0
    formula = ""
    for structure in cases:
        stop = allowance.exhausted(paths, count)
        if stop:
            return ProofAttempt(time.monotonic() - start, reason=stop)
        left = allowance.paths - paths
        verdict = decide_structure(metric, structure, constraint.relation.holds, deadline=allowance.deadline,
                                   run=run, keep_formula=keep_formula, max_paths=min(STRUCTURE_PATHS, left))
        if verdict.holds is None:
            reason = verdict.reason
            if verdict.too_many and left < STRUCTURE_PATHS:
                reason = allowance.ran_out(count)
            return ProofAttempt(time.monotonic() - start, reason=reason)
        if verdict.holds is False:
            assert verdict.values is not None
            return _refuted(metric, constraint.relation.holds, judge, structure.case(verdict.values), start)
        count += 1
        paths += verdict.paths
        formula = verdict.formula or formula
        aspects, docs = max(aspects, structure.aspects), max(docs, structure.docs)
    procedure = PROCEDURE
    if probed:
        procedure += (f"; and one relevant document moved up one rank in rankings of up to "
                      f"{min(horizon, last or horizon)} documents, decided as the search decides")
    elapsed = time.monotonic() - start
    proof = Proof(scope=_scope(docs, max(aspects, 1)), procedure=procedure, structures=count,
                  paths=paths, seconds=round(elapsed, 3), rho=rho, max_docs=docs, aspects=max(aspects, 1),
                  formulas=(formula,) if formula else ())
    return ProofAttempt(elapsed, proof=proof)


#: Every rank up to this one is probed by :func:`_long_swaps`; past it, the ranks before each power of two.
DENSE_SWAP_RANKS = 256


def _swap_ranks(end: int) -> list[int]:
    """The ranks ``i`` whose swap with ``i + 1`` is probed: every one below :data:`DENSE_SWAP_RANKS`,
    then ``2^k - 1`` up to ``end``."""
    ranks = list(range(1, min(end, DENSE_SWAP_RANKS)))
    power = DENSE_SWAP_RANKS * 2
    while power <= end:
        ranks.append(power - 1)
        power *= 2
    return ranks


def _long_swaps(metric: Metric, holds: Callable[[int], bool], judge: Callable[[Case], Outcome],
                rho: Fraction, last: int | None, horizon: int, start: float) -> ProofAttempt | None:
    """Pri past the structures' size, for a metric author's metric: one relevant document (``rho``)
    moved up from rank ``i + 1`` to ``i``, for every ``i`` below 256 and before each power of two up
    to the horizon (or the cutoff). A weight that stops decreasing at rank 11 or 251 shows here; the
    first failing case is a counterexample."""
    end = horizon if last is None else min(horizon, last)
    for i in _swap_ranks(end):  # not stopped by the clock: the same cases on every machine
        docs = doc_ids(i + 1)
        topic = Topic.trusted({docs[i]: (rho,)}, ("*",), (1,))
        case = Case(topic, Ranking.trusted(docs), swap(docs, i, i + 1), (i, i + 1),
                    f"b = a with positions {i} and {i + 1} swapped (r(d{i + 1}) > r(d{i}) = 0)")
        found = _confirmed(metric, holds, case, judge(case))
        if found is not None:
            found = dataclasses.replace(found, note=(
                f"{found.note}; found by moving one relevant document up one rank in "
                f"rankings of up to {end} documents"))
            return ProofAttempt(time.monotonic() - start, counterexample=found)
    return None


def _refuted(metric: Metric, holds: Callable[[int], bool], judge: Callable[[Case], Outcome], case: Case,
             start: float) -> ProofAttempt:
    """The solver's values, decided again as the search decides a case; a refutation only if that
    agrees (:func:`_confirmed`)."""
    outcome = judge(case)
    elapsed = time.monotonic() - start
    found = _confirmed(metric, holds, case, outcome)
    if found is None:
        why = outcome.error.message if outcome.error is not None else "the ordinary path does not confirm it"
        return ProofAttempt(elapsed, reason=f"z3 found values breaking a case, but {why}")
    how = "exactly" if found.decided is Decided.EXACT else "on floats"
    found = dataclasses.replace(found, note=f"{found.note}; values found by z3, a real-arithmetic solver, "
                                            f"and decided again {how}")
    return ProofAttempt(elapsed, counterexample=found)


def _confirmed(metric: Metric, holds: Callable[[int], bool], case: Case, outcome: Outcome) -> Counterexample | None:
    """The outcome's counterexample if the failure is the metric's, not the float tolerance's: decided
    exactly, or from the metric's own rational values, or by floats that fail without any tolerance
    (two floats within the tolerance but in the right order are no counterexample)."""
    found = outcome.counterexample
    if outcome.holds or found is None:
        return None
    if found.decided is Decided.EXACT:
        return found
    exact = _exact_difference(metric, case)
    if exact is not None:
        return None if holds((exact > 0) - (exact < 0)) else dataclasses.replace(found, decided=Decided.EXACT)
    difference = found.score_b - found.score_a
    return None if holds((difference > 0) - (difference < 0)) else found


def _exact_difference(metric: Metric, case: Case) -> Fraction | None:
    """``Q(b) - Q(a)`` from the metric's own values when both are rational (a function computing in
    ``Fraction`` on the case's rational values), else ``None``."""
    try:
        values = [symbolic_score(metric, ranking, case.topic) for ranking in (case.a, case.b)]  # type: ignore[arg-type]
    except Exception:
        return None
    if all(isinstance(v, (int, Fraction)) and not isinstance(v, bool) for v in values):
        return Fraction(values[1]) - Fraction(values[0])
    return None


def with_proof(check: Check, attempt: ProofAttempt | None) -> Check:
    """The check with a proof attempt applied (see the module docstring); unchanged for ``None``."""
    if attempt is None:
        return check
    seconds = round(attempt.seconds, 3)
    if attempt.counterexample is not None and check.verdict is Verdict.WITNESS:  # Sat's rmax, refuted
        return dataclasses.replace(check, proof_seconds=seconds, unproved=(
            f"z3 found a case that breaks this rmax ({attempt.counterexample.note}); a smaller rmax may hold"))
    if attempt.counterexample is not None:
        return dataclasses.replace(check, verdict=Verdict.VIOLATED, counterexample=attempt.counterexample,
                                   evidence=None, proof_seconds=seconds,
                                   exact=attempt.counterexample.decided is Decided.EXACT)
    if attempt.proof is not None and check.evidence is not None:
        evidence: Any = dataclasses.replace(check.evidence, strength=Strength.PROVED, proof=attempt.proof)
        return dataclasses.replace(check, evidence=evidence, proof_seconds=seconds)
    return dataclasses.replace(check, proof_seconds=seconds, unproved=attempt.reason)


def prove_threshold(metric: Metric, constraint: Constraint, check: Check, *, rho: Fraction,
                    horizon: int, run: Any = None, recheck: Callable[[Fraction], Check] | None = None) -> Check:
    """DeepTh's witness for every ``n >= N`` and CloseTh's for every ``rc``, over the search's verdict.

    A DeepTh violation the search made at its horizon becomes the proved witness (``N`` past the
    horizon: RBP with ``p = 0.999`` needs ``n >= 6904``); a proof that contradicts a counterexample
    the search found inside its grid leaves the search's verdict, saying so.
    """
    start = time.monotonic()
    if constraint.id == "DeepTh":
        found = deepness_witness(metric, check.mode, rho, run)
    elif constraint.id == "CloseTh" and check.verdict is Verdict.WITNESS and check.witness is not None:
        first = check.witness.threshold or 1
        found = closeness_witness(metric, [m for m in threshold_grid(horizon) if m >= first][:8], rho, run)
    else:
        return check
    if found.value is None and constraint.id == "CloseTh" and recheck is not None and check.witness is not None:
        violated = _violated_between(metric, check, rho, horizon, run, recheck)
        if violated is not None:
            return dataclasses.replace(violated, proof_seconds=round(time.monotonic() - start, 3))
    seconds = round(time.monotonic() - start, 3)
    if found.value is None:
        return dataclasses.replace(check, proof_seconds=seconds,
                                   unproved=found.reason if check.holds else check.unproved)
    example = check.counterexample
    if example is not None and example.threshold is not None and example.threshold >= found.value:
        return dataclasses.replace(check, proof_seconds=seconds, unproved=(
            f"the proof's n >= {found.value} disagrees with the search's counterexample at n = {example.threshold}"))
    return _proved_witness(check, found, rho, seconds)


def _violated_between(metric: Metric, check: Check, rho: Fraction, horizon: int, run: Any,
                      recheck: Callable[[Fraction], Check]) -> Check | None:
    """CloseTh's witness for the search's ``rc`` values fails at some ``rc`` between them: the value z3
    finds for the search's own ``m``, searched as the search searches its own three. One search, not
    one per candidate ``m``: a boundary probes dozens of settings, and each search walks every ``n``
    up to the horizon (EU's exact scores took minutes a probe with eight)."""
    first = check.witness.threshold if check.witness is not None and check.witness.threshold else 1
    for rc in failing_rcs(metric, [m for m in threshold_grid(horizon) if m >= first][:1], rho, run):
        result = recheck(rc)
        if result.verdict is Verdict.VIOLATED:
            return dataclasses.replace(result, note=f"{result.note}; rc = {rc} found by z3 between the "
                                                    "values the search tries")
    return None


def _proved_witness(check: Check, found: ThresholdProof, rho: Fraction, seconds: float) -> Check:
    """The check as a witness ``found.value`` proved for every rc (and, for DeepTh, every n past it)."""
    assert found.value is not None
    symbol = "n" if check.constraint == "DeepTh" else "m"
    scope = (f"every n >= {found.value} and every rc in (0, {rho}]" if symbol == "n"
             else f"every rc in (0, {rho}]")
    proof = Proof(scope=scope, procedure=found.how, structures=1, paths=0, seconds=seconds, rho=rho)
    previous = check.witness
    witness = Witness(f"{symbol} = {found.value}", f"for every rc in (0, {rho}]",
                      previous.signs if previous is not None else None, found.by_truncation,
                      threshold=found.value, rcs=previous.rcs if previous is not None else (),
                      signs_by_rc=previous.signs_by_rc if previous is not None else ())
    evidence = Evidence(Strength.PROVED, scope, 0, 0, True, proof=proof)
    return dataclasses.replace(check, verdict=Verdict.WITNESS, witness=witness, counterexample=None,
                               evidence=evidence, proof_seconds=seconds, note="", small_scope_noted=False,
                               exact=True, tolerance=None)
