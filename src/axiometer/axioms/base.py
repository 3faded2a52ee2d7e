"""What a constraint is: a generator of cases plus a relation (SPEC section 3).

A :class:`Case` is a topic and two system outputs ``a`` and ``b`` built from
it; a :class:`Constraint` declares its id, name, the paper's wording, its
conditions, how its cases are generated (a hypothesis strategy and an
exhaustive small scope, both from :mod:`axiometer.generators`), and the
relation ``Q(b) REL Q(a)`` it asserts. Three kinds:

- ``universal``: the relation must hold on every case (Pri, Deep, Conf,
  AspDiv, Red, MRed, AspRel);
- ``threshold``: DeepTh and CloseTh, decided by a search over ``n`` on a grid
  (:class:`ThresholdRule`);
- ``saturation``: Sat, a search for ``rmax``.

Each constraint lives in its own module of :mod:`axiometer.axioms`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from axiometer.core import Ranking, Topic
from axiometer.generators.case import DEFAULT_RHO, Case, Scope

__all__ = ["Case", "Scope", "Relation", "Constraint", "ThresholdRule", "Reading",
           "B_GT_A", "A_GT_B", "A_GE_B", "DEFAULT_RHO"]

@dataclass(frozen=True)
class Relation:
    """``Q(b) > Q(a)``, ``Q(a) > Q(b)`` or ``Q(a) >= Q(b)``, decided from the sign of ``Q(b) - Q(a)``."""

    text: str
    holds: Callable[[int], bool]  # sign of Q(b) - Q(a) -> does the relation hold?


B_GT_A = Relation("Q(b) > Q(a)", lambda sign: sign > 0)
A_GT_B = Relation("Q(a) > Q(b)", lambda sign: sign < 0)
A_GE_B = Relation("Q(a) >= Q(b)", lambda sign: sign <= 0)


@dataclass(frozen=True)
class ThresholdRule:
    """DeepTh/CloseTh: ``build(n, rc) -> (topic, a_n, b_n)`` and what must hold of ``D(n) = Q(a_n) - Q(b_n)``.

    ``rule`` is ``"eventually positive"`` (DeepTh: ``D(n) > 0`` on the whole
    final stretch of the grid) or ``"sometimes negative"`` (CloseTh: some
    ``n`` with ``Q(b_n) > Q(a_n)``). ``last_changed(n)`` is the last position
    the pair differs at (``2n``), used by the window mode and to flag
    witnesses reached "by truncation".
    """

    build: Callable[[int, Fraction], tuple[Topic, Ranking, Ranking]]
    rule: str
    symbol: str  # "n" or "m"


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
    conditions: tuple[str, ...]                    # SPEC's condition names
    family: str                                    # "relevance" or "diversity"
    kind: str                                      # "universal", "threshold" or "saturation"
    relation: Relation = B_GT_A
    strategy: Callable[[Scope], Any] | None = None           # Scope -> SearchStrategy[Case]
    small_scope: Callable[[Scope], Iterable[Case]] | None = None
    satisfies_conditions: Callable[[Case, Scope], bool] | None = None  # for tests of the generators
    threshold: ThresholdRule | None = None
    readings: tuple[Reading, ...] = field(default=())
    default_mode: str = "window"                   # "window" for universal, "truncate" for thresholds

    def __repr__(self) -> str:
        return f"<constraint {self.id}: {self.name}>"
