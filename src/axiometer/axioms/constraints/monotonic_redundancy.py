"""Constraint 8, Monotonic redundancy (MRed) — Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, Eq. 8.

Conditions: two balanced aspects ``T = {t, t'}``, relevance contribution
(every non-zero ``r <= rho``).
Case: a non-empty prefix ``P`` with ``r(d_i, t) > r(d_i, t')`` for every
``d_i`` in ``P``; ``x`` relevant to ``t`` only, ``y`` to ``t'`` only,
``0 < r(x, t) = r(y, t')``; ``a = P + x``, ``b = P + y`` (definitions §3).
Relation: ``Q(b) > Q(a)``; the changed position ``len(P) + 1`` lies inside the window.

Unlike Red, the prefix documents may be relevant to both aspects, so a
metric that only counts earlier relevant documents (alpha-nDCG's
``(1 - alpha)^c(i, t)``) ties where graded redundancy (ERR-IA's
``prod (1 - r)``) does not.

Search coverage (tested in tests/generators/test_search_coverage.py, random search and small
scope): a prefix of two or more documents; ``r(x, t)`` below a prefix document's value on ``t``,
and at least every value of the prefix; an unretrieved document relevant to ``t'``; prefix
documents relevant to both aspects (tests/generators/test_diversity.py).
"""

from fractions import Fraction

from axiometer.axioms.constraints.base import B_GT_A, Constraint, Reading
from axiometer.axioms.constraints.conditions import monotonic_redundancy_case
from axiometer.generators.diversity import monotonic_redundancy_cases, monotonic_redundancy_small_scope

MONOTONIC_REDUNDANCY = Constraint(
    id="MRed",
    name="Monotonic redundancy",
    wording="Assuming two balanced aspects (T = {t, t'}), relevance contribution, and being d and "
            "d' documents exclusively relevant to each aspect, 0 < r(d, t) = r(d', t') and "
            "r(d, t') = r(d', t) = 0: for all d_i in d, r(d_i, t) > r(d_i, t') => "
            "Q(d, d') > Q(d, d).",
    conditions=("two balanced aspects", "relevance contribution"),
    group="diversity",
    form="universal",
    relation=B_GT_A,
    strategy=monotonic_redundancy_cases,
    small_scope=monotonic_redundancy_small_scope,
    satisfies_conditions=monotonic_redundancy_case,
    readings=(Reading("relevance values are at most 1/100 (a smaller rho)", {"rho": Fraction(1, 100)}),),
    meaning="A metric that violates it misses graded redundancy: it need not prefer the aspect "
            "earlier documents covered less.",
    source="Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, section 3.3, Constraint 8 "
           "(Monotonic Redundancy), Eq. 8",
    expectation="should score higher than a: its last document covers the aspect every earlier "
                "document covered less",
    construction="a non-empty prefix P in which every document is more relevant to t than to "
                 "t'; a = P + x, b = P + y, x relevant to t only, y to t' only, as much as x.",
    example_metrics=("ERR_IA@10", "NRBP(alpha=0.5,beta=0.5)"),
)
