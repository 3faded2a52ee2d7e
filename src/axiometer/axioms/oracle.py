"""The oracle protocol: what every constraint and relative property offers the checking engine.

An *oracle* is an axiom that can be checked on a metric: one of the ten
constraints (:mod:`axiometer.axioms.constraints`) or one of the relative
properties (:mod:`axiometer.axioms.properties`). Each knows what its verdict
means — a universal relation fails on one case, a threshold is read from the
sign of ``D(n)`` along a grid, Sat searches for ``rmax``, an existential
property needs one witness — and implements :meth:`Oracle.check`.

How cases are looked for is the engine's business
(:mod:`axiometer.checking`): it hands the oracle a :class:`Searcher`, which
runs the exhaustive small scope and the shrinking random search within the
budget, derives per-check seeds, and turns a misbehaving metric into an error
outcome naming the input. The dependency points one way: the oracles define
this protocol, the engine implements it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from axiometer.generators.case import Case
from axiometer.results import Check, Outcome

__all__ = ["Oracle", "Searcher", "SearchResult"]


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the target's outcome and case (``None``: none), the counts, a note."""

    outcome: Outcome | None
    case: Case | None
    cases: int     # generated cases evaluated (random search)
    small: int     # small-scope cases evaluated
    note: str


class Searcher(Protocol):
    """What the checking engine offers an oracle for one check."""

    tolerance: float   # a float-only metric's ties are decided within it
    horizon: int       # the threshold constraints' largest n

    def seed(self, *parts: str) -> int:
        """A per-search seed derived from the run's seed and ``parts`` (stable across runs)."""

    def find(self, small_scope: Iterable[Case] | None, strategy: Callable[[], Any] | None,
             judge: Callable[[Case], Outcome], is_target: Callable[[Outcome], bool],
             seed: int) -> SearchResult:
        """The small scope, then a shrinking random search, for a case whose outcome is a target."""

    def error(self, metric: Any, case: Case, error: Exception) -> Outcome:
        """An error outcome naming the input on which ``metric`` misbehaved."""


class Oracle(Protocol):
    """A checkable axiom: a constraint or a relative property."""

    id: str
    name: str
    family: str          # "relevance", "diversity" or "relative"
    kind: str            # how it is decided, for reports: "universal", "threshold", ...
    default_mode: str    # the cutoff mode when none is asked for
    readings: tuple      # nearby readings tried to explain a violation

    def check(self, metric: Any, search: Searcher, *, mode: str | None, rho: Fraction,
              rcs: tuple[Fraction, ...], scope_changes: dict[str, Any] | None) -> Check:
        """The verdict on ``metric`` at one parameter setting."""
