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

Every oracle also says what it means (:meth:`Oracle.info`, an
:class:`~axiometer.results.AxiomInfo`: name, plain meaning, relation,
conditions, source), which the reports print beside its verdicts;
:data:`CONDITIONS` explains each condition name in words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from axiometer.generators.case import Case
from axiometer.results import AxiomInfo, Check, Outcome

__all__ = ["Oracle", "Searcher", "SearchResult", "CONDITIONS"]

#: What each condition name of a constraint or property asks of its cases, in words
#: (definitions §3.1 for the constraints' conditions, §6.4 for the properties').
CONDITIONS: Mapping[str, str] = {
    "single aspect": "the topic has one aspect (|T| = 1), so relevance is one number per document",
    "balanced aspects": "every aspect has the same weight, w(t) = 1/|T|",
    "two balanced aspects": "the topic has exactly two aspects t and t', each of weight 1/2",
    "binary": "every r(d, t) is 0 or one constant rc in (0, 1)",
    "no aspect overlap": "every document is relevant (r > 0) to at most one aspect",
    "relevance contribution": "every non-zero relevance is at most rho (default 1/10): no single document "
                              "fully satisfies the user, so there is always room for more",
    "graded": "relevance values are graded: any values in (0, rho], not one constant",
    "unequal weights": "the two aspects involved have different weights, w(t') > w(t)",
    "relative metric": "the metric scores a ranking against other systems' rankings (a context of "
                       "0 to 3 other systems here); n/a for any other metric",
    "within the cutoff": "the positions the case changes, in the ranking and in the other systems' "
                         "rankings, lie within the metric's cutoff k",
    "declares a reversion": "the metric names a setting at which it is its base metric; n/a otherwise",
    "states bounds": "the metric states the range its values lie in; n/a otherwise",
    "claims unique counting": "the metric claims to count unique relevant contributions; n/a otherwise",
}


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

    def info(self) -> AxiomInfo:
        """What the axiom means: its name, plain meaning, relation, conditions and source."""
