"""Constraint 9, Aspect relevance saturation (Sat) — Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, Eq. 9.

Condition: no aspect overlap (relevance values anywhere in ``(0, 1]``;
relevance contribution does not apply, ``rmax`` is large).
Case: ``a`` ends with ``d_n``, ``r(d_n, t) = rmax``; ``b = a + x`` with
``r(x, t) > 0`` (``x`` relevant to ``t`` only) (SPEC section 3).
Relation: ``Q(a) >= Q(b)`` for every case, for some ``rmax``: the check tries
the candidates ``1, 0.99, 0.9, 0.75, 0.5`` (largest first) and the witness is
the largest for which no case breaks the relation; the appended position
``n + 1`` lies inside the window.
"""

from axiometer.axioms.base import A_GE_B, Constraint
from axiometer.axioms.conditions import saturation_case
from axiometer.generators.diversity import saturation_cases, saturation_small_scope

SATURATION = Constraint(
    id="Sat",
    name="Aspect relevance saturation",
    wording="Assuming no aspect overlap, there exists a finite relevance value rmax large enough "
            "such that: r(d_n, t) = rmax and r(d_{n+1}, t) > 0 => Q(d) >= Q(d, d_{n+1}).",
    conditions=("no aspect overlap",),
    family="diversity",
    kind="saturation",
    relation=A_GE_B,
    strategy=saturation_cases,
    small_scope=saturation_small_scope,
    satisfies_conditions=saturation_case,
)
