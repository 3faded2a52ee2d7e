"""What ``agree`` and ``audit`` find, as typed results (their JSON is :meth:`to_dict`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from axiometer.agreement.conventions import Convention
from axiometer.agreement.implementations import Failure, Outcome
from axiometer.agreement.query import Query
from axiometer.views import Rows, Tabular

__all__ = ["Agreement", "Values", "Case", "PropertyCheck", "AgreementResult", "AuditRow", "AuditResult"]


class Agreement(Enum):
    """The verdict on an implementation: it agrees with the reference on every generated query; it
    agrees once the reference is put in a named convention; or no convention explains it (a bug)."""

    AGREES = "agrees"
    AGREES_UNDER = "agrees under a convention"
    DIFFERS = "differs"


def _outcome(outcome: Outcome) -> Any:
    return {"failure": outcome.kind, "detail": outcome.detail} if isinstance(outcome, Failure) else outcome


@dataclass(frozen=True)
class Values:
    """On one query: the implementation's outcome, the reference's value (float and exact text,
    ``None``: not compared) and, when it agrees under a convention, the reference's value there."""

    implementation: Outcome
    reference: float | None
    reference_exact: str | None
    under_convention: float | None = None

    @property
    def difference(self) -> float | None:
        if isinstance(self.implementation, Failure) or self.reference is None:
            return None
        return self.implementation - self.reference

    def to_dict(self) -> dict[str, Any]:
        return {"implementation": _outcome(self.implementation), "reference": self.reference,
                "reference_exact": self.reference_exact, "reference_under_convention": self.under_convention,
                "difference": self.difference}


@dataclass(frozen=True)
class Case:
    """A minimal query on which the implementation and the reference differ, with the values (shrunk
    by hypothesis and then by :mod:`axiometer.agreement.shrink`)."""

    query: Query
    values: Values


@dataclass(frozen=True)
class PropertyCheck:
    """A property every implementation must have: ``name``, the ``statement``, whether it ``holds``
    on every query tried, and where not, a ``query`` and what happened (``detail``)."""

    name: str
    statement: str
    holds: bool
    query: Query | None = None
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "statement": self.statement, "holds": self.holds,
                "case": self.query.to_dict() if self.query else None, "detail": self.detail}


@dataclass(frozen=True)
class AgreementResult(Tabular):
    """One implementation against one built-in metric.

    ``convention``: the preferred convention under which it agrees on every query (the reference's
    own when it agrees outright; ``None`` when it differs); ``case``: a minimal disagreement with
    the reference's own conventions (``None`` when it agrees outright); ``searched``: how many
    conventions were tried; ``queries``: how many queries (generated and hand-written);
    ``apart_from_failures``: when it differs because it fails on some queries (raises, NaN, no
    value), the preferred convention under which it agrees on all the others, if one does;
    ``stated``: the conventions the caller pinned (``conventions=``), which then replace the
    reference's own as the baseline a case is compared with.
    """

    implementation: str
    provider: str
    metric: str
    agree: Agreement
    convention: Convention | None
    case: Case | None
    properties: tuple[PropertyCheck, ...]
    queries: int
    searched: int
    tolerance: float
    seed: int
    seconds: float
    apart_from_failures: Convention | None = None
    stated: tuple[tuple[str, str], ...] = ()

    @property
    def baseline(self) -> str:
        """What the case compares against, in words: the conventions stated, or the reference's own."""
        return "the conventions stated" if self.stated else "its own conventions"

    @property
    def ok(self) -> bool:
        """It agrees (outright or under a convention) and has every property."""
        return self.agree is not Agreement.DIFFERS and all(p.holds for p in self.properties)

    def to_dict(self) -> dict[str, Any]:
        return {
            "implementation": self.implementation, "provider": self.provider, "metric": self.metric,
            "agree": self.agree.value,
            "convention": None if self.convention is None else {
                "axes": self.convention.to_dict(), "departures": dict(self.convention.departures()),
                "description": self.convention.phrase()},
            "apart_from_failures": None if self.apart_from_failures is None else {
                "axes": self.apart_from_failures.to_dict(),
                "departures": dict(self.apart_from_failures.departures()),
                "description": self.apart_from_failures.phrase()},
            "case": None if self.case is None else self.case.query.to_dict(),
            "values": None if self.case is None else self.case.values.to_dict(),
            "properties": [p.to_dict() for p in self.properties],
            "stated": dict(self.stated),
            "queries": self.queries, "conventions_searched": self.searched, "tolerance": self.tolerance,
            "seed": self.seed, "seconds": round(self.seconds, 3),
        }

    def to_rows(self) -> Rows:
        """One row per property, beside the verdict: whether it agrees, under which convention (in
        words), and the minimal case's difference (implementation - reference; ``None``: none)."""
        head = {"implementation": self.implementation, "metric": self.metric, "agree": self.agree.value,
                "convention": self.convention.phrase() if self.convention else None,
                "difference": self.case.values.difference if self.case else None}
        return [{**head, "property": p.name, "statement": p.statement, "holds": p.holds, "detail": p.detail}
                for p in self.properties]


@dataclass(frozen=True)
class AuditRow:
    """One peer measure against the built-in it corresponds to: the result, or ``error`` when the
    measure could not be run at all (the peer's message)."""

    provider: str
    measure: str
    metric: str
    result: AgreementResult | None
    error: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"provider": self.provider, "measure": self.measure, "metric": self.metric,
                "error": self.error or None, "result": self.result.to_dict() if self.result else None}


@dataclass(frozen=True)
class AuditResult(Tabular):
    """Every installed peer measure that corresponds to a built-in, in provider order."""

    rows: tuple[AuditRow, ...]
    queries: int
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return {"audit": [row.to_dict() for row in self.rows], "queries": self.queries, "seed": self.seed}

    def to_rows(self) -> Rows:
        """One row per peer measure: its verdict against the built-in (``None``: it could not run, and
        ``error`` says why), the convention it agrees under, the properties it fails."""
        return [{"provider": row.provider, "measure": row.measure, "metric": row.metric,
                 "agree": row.result.agree.value if row.result else None,
                 "convention": row.result.convention.phrase() if row.result and row.result.convention else None,
                 "failing": [p.name for p in row.result.properties if not p.holds] if row.result else [],
                 "error": row.error or None} for row in self.rows]
