"""One query's judgments and run, as an implementation under test receives them.

A :class:`Query` keeps the lines of its qrels (``doc -> grade``) and of its
run (``doc -> score``) in file order, because the order is an input too: an
implementation that breaks ties by input order sees it, and the reordering
property (:mod:`axiometer.agreement.properties`) changes it on purpose.
Scores are Python floats (IEEE double) exactly as a run file's text reads.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Query", "score_text", "query_text"]


def score_text(score: float) -> str:
    """A score as the shortest text that reads back as the same double (``repr``)."""
    return repr(float(score))


@dataclass(frozen=True)
class Query:
    """``judgments``: ``(doc, grade)`` in qrels order (grade 0: judged non-relevant); ``run``:
    ``(doc, score)`` in run order. A document appears at most once in each."""

    judgments: tuple[tuple[str, int], ...]
    run: tuple[tuple[str, float], ...]

    def grades(self) -> dict[str, int]:
        """``doc -> grade``, in qrels order."""
        return dict(self.judgments)

    def scores(self) -> dict[str, float]:
        """``doc -> score``, in run order."""
        return dict(self.run)

    @property
    def size(self) -> int:
        """How many distinct documents the query names (judged or retrieved)."""
        return len({d for d, _ in self.judgments} | {d for d, _ in self.run})

    def relevant(self, level: int = 1) -> int:
        """How many judged documents have grade ``>= level``."""
        return sum(1 for _, g in self.judgments if g >= level)

    def renamed(self, names: Mapping[str, str]) -> Query:
        """The same query with every document renamed through ``names``."""
        return Query(tuple((names.get(d, d), g) for d, g in self.judgments),
                     tuple((names.get(d, d), s) for d, s in self.run))

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``judgments`` as ``[[doc, grade], ...]``, ``run`` as ``[[doc, score], ...]``
        (a score that is not finite as the string ``repr`` gives)."""
        return {"judgments": [[d, g] for d, g in self.judgments],
                "run": [[d, s if math.isfinite(s) else repr(s)] for d, s in self.run]}

    def lines(self, qid: str = "q1") -> tuple[list[str], list[str]]:
        """The query as a TREC qrels file's and run file's lines (``qid 0 doc grade`` and
        ``qid Q0 doc rank score tag``; rank is the line's position, which trec_eval ignores)."""
        qrels = [f"{qid} 0 {d} {g}" for d, g in self.judgments]
        run = [f"{qid} Q0 {d} {i} {score_text(s)} impl" for i, (d, s) in enumerate(self.run, 1)]
        return qrels, run


def query_text(query: Query) -> str:
    """A query on one line: ``judgments a:1, b:0; run a=1.0, 9=1.0`` (the run in its line order,
    each score as ``repr`` gives it)."""
    judged = ", ".join(f"{d}:{g}" for d, g in query.judgments) or "(none)"
    ran = ", ".join(f"{d}={score_text(s)}" for d, s in query.run) or "(empty)"
    return f"judgments {judged}; run {ran}"
