"""What the generators build: a :class:`Case` (a topic and two rankings) within a :class:`Scope`."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from axiometer.core import Context, Ranking, Topic

__all__ = ["Case", "Scope", "DEFAULT_RHO"]

#: "Relevance contribution": every non-zero ``r`` is at most ``rho`` (definitions §3).
DEFAULT_RHO = Fraction(1, 10)


@dataclass(frozen=True)
class Case:
    """A topic and two rankings built from it.

    ``changed`` lists the 1-based positions the construction touches (swapped,
    replaced or appended), which the ``window`` cutoff mode keeps ``<= k``;
    ``note`` says in words how ``b`` was built.

    Relative metrics score against other systems: ``context`` is the context
    both rankings are scored in, unless ``context_b`` gives ``b`` its own
    (the relative properties move a document inside a prior ranking). Both
    are ``None`` for the ordinary constraints on ordinary metrics.
    """

    topic: Topic
    a: Ranking
    b: Ranking
    changed: tuple[int, ...]
    note: str
    context: Context | None = None
    context_b: Context | None = None

    @property
    def context_of_b(self) -> Context | None:
        """The context ``b`` is scored in."""
        return self.context if self.context_b is None else self.context_b


@dataclass(frozen=True)
class Scope:
    """What the generators may build.

    ``max_position``: the last position a construction may change (the
    metric's cutoff in ``window`` mode; ``None``: unbounded). ``rho``: the
    bound of relevance contribution. ``rmax``: Sat's candidate. ``max_docs``:
    the longest ranking to build in the random search. ``later_untouched``: the
    nearby reading "no later document touches the changed aspects" (explanations).
    ``values_within_rho``: the nearby reading "relevance values stay at most
    ``rho``" for the constraints that do not assume relevance contribution
    (Red's ``rc``, AspRel's and Sat's values other than ``rmax``).
    ``between_untouched``: the nearby reading "no relevant document lies between
    the swapped positions" (Pri, where redundancy discounts hit the documents in between).
    ``context_disjoint``: for a relative metric, the nearby reading "the other
    systems retrieve none of the case's documents" (only ``o1``, ``o2``).
    """

    max_position: int | None = None
    rho: Fraction = DEFAULT_RHO
    rmax: Fraction | None = None
    max_docs: int = 8
    later_untouched: bool = False
    values_within_rho: bool = False
    between_untouched: bool = False
    context_disjoint: bool = False

    def with_(self, **changes: Any) -> "Scope":
        return replace(self, **changes)

    def last_position(self, default: int) -> int:
        """The last position a construction may touch: ``min(max_position, default)``."""
        return default if self.max_position is None else min(self.max_position, default)


