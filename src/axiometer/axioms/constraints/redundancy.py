"""Constraint 7, Redundancy (Red) — Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, Eq. 7.

Conditions: binary relevance (``r(d, t) in {0, rc}``, ``rc`` in ``(0, 1)``),
balanced aspects, no aspect overlap.
Case: a prefix ``P`` has more documents relevant to ``t`` than to ``t'``;
``x`` is relevant (``rc``) to ``t`` only, ``y`` to ``t'`` only;
``a = P + x``, ``b = P + y`` (definitions §3).
Relation: ``Q(b) > Q(a)``; the changed position ``len(P) + 1`` lies inside the window.

``rc`` is not bounded by ``rho`` (the paper assumes no relevance contribution
here); a saturating metric (CT) can tie once both aspects are full, which
the nearby reading "relevance values stay at most rho" separates.

Search coverage (tested in tests/generators/test_search_coverage.py, random search and small scope):
a prefix with documents relevant to ``t'`` too, and one relevant to no aspect; an unretrieved
document relevant to ``t`` or ``t'`` (per-aspect normalisation); ``rc`` above ``rho``; prefixes
filling both aspects with ``rc = 1/2`` (tests/generators/test_diversity.py).
"""

from axiometer.axioms.constraints.base import B_GT_A, Constraint, Reading
from axiometer.axioms.constraints.conditions import redundancy_case
from axiometer.generators.diversity import redundancy_cases, redundancy_small_scope

REDUNDANCY = Constraint(
    id="Red",
    name="Redundancy",
    wording="Assuming binary relevance, balanced aspects and no aspect overlap, and being d and "
            "d' documents relevant to different aspects, r(d, t) = r(d', t') = rc: "
            "|{d_i in d : r(d_i, t) = rc}| > |{d_i in d : r(d_i, t') = rc}| => "
            "Q(d, d') > Q(d, d).",
    conditions=("binary", "balanced aspects", "no aspect overlap"),
    group="diversity",
    form="universal",
    relation=B_GT_A,
    strategy=redundancy_cases,
    small_scope=redundancy_small_scope,
    satisfies_conditions=redundancy_case,
    readings=(Reading("relevance values stay at most rho (rc <= rho)", {"values_within_rho": True}),),
    meaning="A metric that violates it does not prefer a document on a less covered aspect to "
            "one on an aspect covered more often.",
    source="Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, section 3.3, Constraint 7 "
           "(Redundancy), Eq. 7",
    expectation="should score higher than a: its last document covers the aspect the earlier "
                "documents covered less often",
    construction="a prefix P has more documents relevant to aspect t than to t'; a = P + x "
                 "with x relevant (rc) to t only, b = P + y with y relevant (rc) to t' only.",
    example_metrics=("ERR_IA@10", "RBP_IA(p=0.8)"),
)
