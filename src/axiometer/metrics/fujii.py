"""Fujii & Ishikawa's novelty-based utility U(x).

Fujii & Ishikawa, "A Novelty-based Evaluation Method for Information
Retrieval", LREC 2000 (``seeds/fujii_novelty_evaluation.txt``, section 2):

    U(x)     = sum_{d relevant} U_d(x)                     (eq. 2)
    U_d(x)   = log2( P(d|x) / P(d) )                       (eq. 1)
    P(d)     = (1/|E|) sum_{y in E} P(d|y)                 (eq. 3, uniform P(S=y))
    P(d|y)   = (N_y - rank_y(d) + 1) / N_y                 (eq. 4)

``E`` is the set of *existing systems excluding x*: the
:class:`~axiometer.core.Context`. ``N_y`` is the length of ``y``'s list (cut
at ``k`` when the metric has a cutoff, for every list alike; IREX runs were
top 300), and ``P(d|y) = 0`` when ``y`` does not retrieve ``d``. The sum runs
over every relevant document of the topic (``r(d) > 0``), retrieved by ``x``
or not. The paper writes "log" from an information-theoretic point of view;
we take base 2 (bits). The base only scales U, so no comparison depends on it.

The log is undefined when ``P(d|x) = 0`` (x does not retrieve d) or
``P(d) = 0`` (no other system retrieves d; always so with an empty context).
``policy`` says what to do, never a nan or inf:

- ``'error'`` (default): :class:`UndefinedScore` naming the document and the
  zero probability;
- ``'skip'``: that document's term is left out of the sum;
- ``'epsilon'``: each zero probability is replaced by ``epsilon``
  (both zero gives ``log2(eps/eps) = 0``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from axiometer.core import Context, Topic
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import Param, UndefinedScore, _metric_name
from axiometer.metrics.registry import register
from axiometer.metrics.relative import RelativeMetric

__all__ = ["FujiiU"]


def _read_probability(ranking: Sequence[str], doc: str, A: Arithmetic) -> Value:
    """P(d|y) = (N - rank + 1) / N: the chance a reader's stopping threshold reaches ``doc`` (eq. 4)."""
    n = len(ranking)
    try:
        rank = ranking.index(doc) + 1
    except ValueError:
        return A.zero
    return A.num(n - rank + 1) / A.num(n)


class FujiiU(RelativeMetric):
    """U(x) = sum_{d relevant} log2( P(d|x) / P(d) ), P(d|y) = (N_y - rank_y(d) + 1) / N_y.

    ``P(d)`` is the mean of ``P(d|y)`` over the context (the other systems).
    A zero probability makes a term undefined; ``policy`` = ``'error'``
    (default; :class:`UndefinedScore`), ``'skip'`` (leave the term out) or
    ``'epsilon'`` (replace each zero by ``epsilon``, default 1e-6). Log base 2
    (the paper's "log"; the base only scales U). Optional cutoff: every list
    is cut at ``k``. Binary relevance; no stated bounds, no reversion.

    Source: Fujii & Ishikawa, LREC 2000, section 2, eqs. 1-4.
    """

    family = "FujiiU"
    title = "U(x)"
    param_info = (
        Param("policy", str, "error", "what an undefined log (a zero probability) does",
              choices=("error", "skip", "epsilon"), grid=("error", "skip", "epsilon")),
        Param("epsilon", float, 1e-6, "replaces a zero probability when policy='epsilon'",
              low=0, high=1, low_open=True, high_open=True, grid=(1e-6,)),
    )

    policy: str
    epsilon: float

    def __init__(self, cutoff: int | None = None, **params: Any) -> None:
        super().__init__(cutoff, **params)
        if self.policy != "epsilon":
            # epsilon is inert under the other policies: keep it out of the name.
            shown = {} if self.policy == "error" else {"policy": self.policy}
            self.name = _metric_name(self.family, shown, self.cutoff)

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        context = context or Context()
        x = tuple(self.window(ranking))
        others = [tuple(self.window(y)) for y in context.rankings]
        epsilon = A.num(self.epsilon)
        total = A.zero
        for d in topic.relevant:
            p_x = _read_probability(x, d, A)
            p_d = (sum((_read_probability(y, d, A) for y in others), A.zero) / A.num(len(others))
                   if others else A.zero)
            if p_x and p_d:
                total = total + A.log2(p_x / p_d)
                continue
            if self.policy == "skip":
                continue
            if self.policy == "error":
                raise UndefinedScore(f"{self.name}: log(P(d|x)/P(d)) is undefined for relevant "
                                     f"document {d!r}: {self._why(p_x, p_d, len(others))}")
            total = total + A.log2((p_x or epsilon) / (p_d or epsilon))
        return total

    @staticmethod
    def _why(p_x: Any, p_d: Any, systems: int) -> str:
        reasons = []
        if not p_x:
            reasons.append("P(d|x) = 0 (the evaluated ranking does not retrieve it)")
        if not p_d:
            reasons.append("P(d) = 0 (" + ("the context of other systems is empty" if not systems
                                           else "no other system retrieves it") + ")")
        return " and ".join(reasons) + "; use policy='skip' or policy='epsilon'"


register(FujiiU, scores="relative")
