"""Constraint 9, Aspect relevance saturation (Sat) — Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, Eq. 9.

Condition: no aspect overlap (relevance values anywhere in ``(0, 1]``;
relevance contribution does not apply, ``rmax`` is large).
Case: ``a`` ends with ``d_n``, ``r(d_n, t) = rmax``; ``b = a + x`` with
``r(x, t) > 0`` (``x`` relevant to ``t`` only) (definitions §3).
Relation: ``Q(a) >= Q(b)`` for every case, for some ``rmax``: the check tries
the candidates ``1, 0.99, 0.9, 0.75, 0.5`` (largest first) and the witness is
the largest for which no case breaks the relation; the appended position
``n + 1`` lies inside the window.

Search coverage (tested in tests/generators/test_search_coverage.py):
a single aspect and two or more; unequal weights (random search only: the small scope's aspects
are balanced); a document before ``d_n`` relevant to ``t`` too, and one relevant to another aspect;
``x`` as relevant as ``rmax = 1`` and less relevant.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from fractions import Fraction

from axiometer.axioms.constraints.base import A_GE_B, Constraint, check_result, no_case
from axiometer.axioms.constraints.conditions import saturation_case
from axiometer.axioms.oracle import Searcher, search_evidence
from axiometer.generators.case import Scope
from axiometer.generators.diversity import saturation_cases, saturation_small_scope
from axiometer.metrics.base import Metric
from axiometer.results import Check, Outcome, Verdict, Witness

__all__ = ["SATURATION", "SaturationConstraint", "RMAX_CANDIDATES"]

#: Sat's ``rmax`` candidates, largest first (definitions §3).
RMAX_CANDIDATES = (Fraction(1), Fraction(99, 100), Fraction(9, 10), Fraction(3, 4), Fraction(1, 2))


@dataclass(frozen=True, repr=False)
class SaturationConstraint(Constraint):
    """Sat's procedure: the universal search for each ``rmax`` candidate, largest first."""

    def decide(self, metric: Metric, mode: str, scope: Scope, search: Searcher, seed: int) -> Check:
        """Witness: the largest ``rmax`` for which no case breaks the relation; else violated.

        The witness's evidence is that of the search behind it (the witness ``rmax``'s); the
        counts add up every candidate's search.
        """
        total_cases = total_small = 0
        last: Outcome | None = None
        for rmax in RMAX_CANDIDATES:
            extra = (("rmax", str(rmax)),)
            found = self.search_failure(metric, scope.with_(rmax=rmax), search, seed, extra)
            outcome = found.outcome or Outcome(True)
            total_cases += found.cases
            total_small += found.small
            if outcome.holds and found.cases == 0 and found.small == 0:
                return no_case(metric, self, mode, scope)
            if outcome.error is not None:
                return check_result(metric, self, mode, outcome, total_cases, total_small, "",
                                    search.tolerance)
            if outcome.holds:
                # The witness's small scope stopped by the time budget says so (the random
                # search's notes are not reported for Sat).
                note = found.reach.note if found.reach is not None else ""
                return check_result(metric, self, mode, outcome, total_cases, total_small, note,
                                    search.tolerance,
                                    evidence=functools.partial(search_evidence, found,
                                                               prefix=f"rmax = {rmax}: "),
                                    verdict=Verdict.WITNESS, witness=Witness(
                                        f"rmax = {rmax}", "the largest candidate for which no case breaks "
                                        f"{self.relation.text}", rmax=rmax),
                                    small_scope_noted=found.small_scope_noted)
            last = outcome
        assert last is not None
        if last.counterexample is not None:  # the smallest candidate's, as data beside its text
            last = Outcome(False, dataclasses.replace(last.counterexample, rmax=RMAX_CANDIDATES[-1]),
                           last.error, last.final)
        return check_result(metric, self, mode, last, total_cases, total_small,
                            "no rmax candidate holds; counterexample at the smallest", search.tolerance)


SATURATION = SaturationConstraint(
    id="Sat",
    name="Aspect relevance saturation",
    wording="Assuming no aspect overlap, there exists a finite relevance value rmax large enough "
            "such that: r(d_n, t) = rmax and r(d_{n+1}, t) > 0 => Q(d) >= Q(d, d_{n+1}).",
    conditions=("no aspect overlap",),
    group="diversity",
    form="saturation",
    relation=A_GE_B,
    strategy=saturation_cases,
    small_scope=saturation_small_scope,
    satisfies_conditions=saturation_case,
    meaning="A metric that violates it keeps rewarding documents on an aspect that a highly "
            "relevant document already satisfied.",
    source="Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, section 3.3, Constraint 9 (Aspect "
           "Relevance Saturation), Eq. 9",
    expectation="should score no higher than a: it only adds a document on an aspect already "
                "satisfied",
    construction="a ends with a document of relevance rmax to aspect t; b is a with one more "
                 "document, relevant to t only, appended; rmax is tried at 1, 0.99, 0.9, 0.75 "
                 "and 0.5, largest first.",
    relation_text="Q(a) >= Q(b) on every case, for some rmax",
    example_metrics=("ERR_IA@10", "RBP_IA(p=0.8)"),
)
