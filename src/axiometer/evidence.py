"""What a satisfied or witness verdict rests on: its strength, the cases decided, and its proof.

:class:`Strength` ranks the evidence (definitions §3): ``proved`` (decided for
every real value over a stated scope, or for every ranking length, by a
complete procedure; definitions §3, "proved"), ``exhaustive`` (every case of
the declared small scope), ``searched`` (part of it plus a random search),
``sampled`` (random cases only). :class:`Evidence` holds the counts and, for
a proved verdict, the :class:`Proof`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from axiometer.core import TextEnum
from axiometer.views import Rows, Tabular

__all__ = ["Strength", "STRENGTHS", "Evidence", "Proof", "NOT_IN_JSON"]

#: Metadata of a field that restates a display text as data: :func:`axiometer.results.record` leaves it out.
NOT_IN_JSON = {"json": False}


class Strength(TextEnum):
    """How strong a satisfied or witness verdict is (definitions §3); members strongest first."""

    PROVED = "proved"
    EXHAUSTIVE = "exhaustive"
    SEARCHED = "searched"
    SAMPLED = "sampled"


#: The strengths, strongest first.
STRENGTHS: tuple[Strength, ...] = tuple(Strength)


@dataclass(frozen=True)
class Proof(Tabular):
    """What a proved verdict is proved for, by what, and at what cost (definitions §3, "proved").

    ``scope`` completes "proved for ...": ``"every ranking length"`` (a lemma
    whose premises were verified for the metric) or ``"every case of up to 6
    documents and 1 aspect"`` (every case structure of that size decided);
    in both, every relevance value is any real in ``(0, rho]``.
    ``procedure`` names how (``"z3 nonlinear real arithmetic on every path of
    the metric's code"``, or the lemma); ``structures`` counts the case
    structures decided, ``paths`` the paths of the metric's code among them,
    ``seconds`` the time. ``formulas``: decided formulas in SMT-LIB 2 (each
    ``(assert ...)`` lines whose unsatisfiability is the proof), for another
    solver to re-check; kept only when asked for (``--details``, JSON).
    """

    scope: str
    procedure: str
    structures: int
    paths: int
    seconds: float
    rho: Fraction
    max_docs: int | None = None
    aspects: int | None = None
    formulas: tuple[str, ...] = ()

    def to_rows(self) -> Rows:
        """One row: the proved fact (``proved for SCOPE and every relevance value in (0, rho]``), how
        it was proved and at what cost; ``rho`` as a float, ``formulas`` counted."""
        return [{"proved_for": self.scope, "rho": float(self.rho), "procedure": self.procedure,
                 "structures": self.structures, "paths": self.paths, "seconds": self.seconds,
                 "max_docs": self.max_docs, "aspects": self.aspects, "formulas": len(self.formulas)}]


@dataclass(frozen=True)
class Evidence(Tabular):
    """What stands behind a verdict: the exhaustive scope covered, the random cases, exactness.

    ``strength`` is ``PROVED`` (``proof`` says for what), ``EXHAUSTIVE``
    (the whole declared small scope of the constraint was decided; for
    DeepTh/CloseTh every ``n`` of the grid for every ``rc``), ``SEARCHED``
    (part of the small scope, complete up to ``exhaustive_scope``, plus a
    random search) or ``SAMPLED`` (random cases only). ``exhaustive_scope``
    says in words what was enumerated completely (e.g. "every case with up
    to 4 documents, relevance values 0, 1/50, 1/20, 1/10, 1 aspect");
    ``exhaustive_cases`` and ``random_cases`` count the cases decided;
    ``exact``: every decision was exact (no float tolerance).
    ``small_scope_named``: ``exhaustive_scope`` speaks of the small scope by name ("the budget of
    400 small-scope cases stopped it"), a restatement of its text as data, not in the JSON.
    """

    strength: Strength
    exhaustive_scope: str
    exhaustive_cases: int
    random_cases: int
    exact: bool
    proof: Proof | None = None
    small_scope_named: bool = field(default=False, metadata=NOT_IN_JSON)

    def to_rows(self) -> Rows:
        """One row: what the verdict rests on (strength, scope searched, cases, exactness) and, when it
        is proved, the proof's columns (:meth:`Proof.to_rows`; empty otherwise)."""
        proof = self.proof.to_rows()[0] if self.proof else dict.fromkeys(_PROOF_COLUMNS)
        return [{"strength": str(self.strength), "exhaustive_scope": self.exhaustive_scope,
                 "exhaustive_cases": self.exhaustive_cases, "random_cases": self.random_cases,
                 "exact": self.exact, **proof}]


#: The columns of a proof's row, which an evidence without a proof leaves empty.
_PROOF_COLUMNS = ("proved_for", "rho", "procedure", "structures", "paths", "seconds", "max_docs", "aspects",
                  "formulas")
