"""Constraint 5, Confidence (Conf) — Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, Eq. 5.

"Adding non-relevant documents decreases the score": ``Q(d) > Q(d, d_nonrel)``.
Conditions: single aspect, relevance contribution (``r <= rho``). Case: ``a``
any ranking, ``b`` = ``a`` with one judged non-relevant document (``r = 0``)
appended. Relation: ``Q(a) > Q(b)``. Changed position ``len(a)+1`` (the
window keeps it ``<= k``: in ``truncate`` mode a document appended past the
cutoff is invisible and every cutoff metric ties).

``a`` may be empty (Eq. 5 quantifies over every ranking; definitions §3 says
"any"): returning nothing must beat returning one non-relevant document. A
metric that scores every non-relevant tail 0 fails already there, which is
the smallest counterexample. No nearby reading is declared: the case has no
later documents and no relevance value to shrink, so none of the
readings (later documents untouched, smaller ``rho``) changes it; the other
cutoff mode and other parameters are tried by the runner.

Search coverage (tested in tests/generators/test_search_coverage.py, random search and small scope):
``a`` empty; ``a`` ending with a relevant document; ``a`` of non-relevant documents only; graded
``a`` (two different positive values).
"""

from __future__ import annotations

from axiometer.axioms.constraints.base import A_GT_B, Constraint
from axiometer.axioms.constraints.conditions import single_aspect_contribution
from axiometer.generators.case import Case, Scope
from axiometer.generators.relevance import confidence_cases, confidence_small_scope

__all__ = ["CONFIDENCE", "confidence_conditions"]


def confidence_conditions(case: Case, scope: Scope) -> bool:
    """Whether ``case`` is a Conf case within ``scope``: single aspect, ``r <= rho``,
    ``b = a + (x,)`` with ``x`` judged and ``r(x) = 0``, changed position ``len(b)``
    inside the window."""
    b, a = tuple(case.b), tuple(case.a)
    if not single_aspect_contribution(case, scope):
        return False
    if len(b) != len(a) + 1 or b[:-1] != a or case.changed != (len(b),):
        return False
    appended = b[-1]
    return case.topic.is_judged(appended) and case.topic.r(appended) == 0


CONFIDENCE = Constraint(
    id="Conf",
    name="Confidence",
    wording="Adding non-relevant documents decreases the score: Q(d) > Q(d, d_nonrel).",
    conditions=("single aspect", "relevance contribution"),
    group="relevance",
    form="universal",
    relation=A_GT_B,
    strategy=confidence_cases,
    small_scope=confidence_small_scope,
    satisfies_conditions=confidence_conditions,
    meaning="A metric that violates it does not penalise padding a ranking with non-relevant "
            "documents at the end.",
    source="Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, section 3.2, Constraint 5 "
           "(Confidence), Eq. 5",
    expectation="should score lower than a: it only appends a non-relevant document",
    construction="a is any ranking (possibly empty); b is a with one judged non-relevant "
                 "document appended.",
    example_metrics=("RBU(p=0.8,e=0.05)@10", "RBP(p=0.8)"),
)
