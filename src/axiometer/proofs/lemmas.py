"""Pri and Deep for every ranking length, from the weights of a metric with a static browsing model.

A metric whose score is ``Q(d) = (1/N) sum_{i <= K} W(i) g(r(d_i))`` — the C/W/L
view, as NRG reads it (:mod:`axiometer.metrics.browsing`): RBP, DCG@K,
nDCG@K, P@K — with weights ``W`` that do not depend on the gains and a
normaliser ``N`` that depends on the topic alone, satisfies (definitions §3,
"proved for every ranking length"):

- **Pri** (window mode) iff ``g`` is strictly increasing on ``[0, rho]`` and
  ``W(i) > W(j)`` for every ``i < j <= K``: a swap of ``i < j`` with
  ``r_j > r_i`` changes ``Q`` by ``(W(i) - W(j)) (g(r_j) - g(r_i)) / N``;
- **Deep** (window mode) iff ``g`` is strictly increasing and the drops
  ``W(i) - W(i+1)`` strictly decrease: ``Q(b) - Q(a) = (g(hi) - g(lo))
  ((W(i) - W(i+1)) - (W(j) - W(j+1))) / N``.

:func:`weight_lemma` verifies the premises for one metric: the gain's
monotonicity by z3 over the reals; the weights one by one up to a finite
``K`` (their values exact or in certified intervals), or for an unbounded
ranking from the weight's form (``p^(i-1)`` with ``0 < p < 1`` is strictly
decreasing with strictly decreasing drops; ``1/log2(i+1)`` is strictly
decreasing and strictly convex); ``N > 0`` and shared by both rankings (a
constant, or the topic's ideal score, which the case's relevant document
makes positive). It also checks that the metric's own formula equals its
browsing model on every ranking of up to 6 documents (z3), so a model that
misdescribes the metric is caught. An intent-aware metric on a one-aspect
case is its per-aspect metric (``sum_t w(t) M_t`` with one aspect of weight 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from axiometer.core import Ranking
from axiometer.metrics.base import BuiltinMetric, Metric
from axiometer.metrics.browsing import BrowsingModel, Geometric, HasBrowsingModel, LogDiscount
from axiometer.metrics.intent_aware import IntentAwareMetric
from axiometer.proofs.arithmetic import PROOF
from axiometer.proofs.paths import TooManyPaths, Undecidable, explore
from axiometer.proofs.reals import NotSymbolic, lift
from axiometer.proofs.topic import Symbols, symbolic_topic

__all__ = ["Lemma", "weight_lemma", "LEMMA_CONSTRAINTS", "browsing_model_of"]

#: The constraints a weight lemma decides.
LEMMA_CONSTRAINTS = ("Pri", "Deep")

#: Rankings on which the metric's formula is checked to equal its browsing model: up to 6 documents,
#: 4 where the normaliser is the ideal score (its sort of symbolic gains branches n! ways).
_AGREEMENT_DOCS = 6
_AGREEMENT_DOCS_IDEAL = 4


@dataclass(frozen=True)
class Lemma:
    """A lemma's verdict: ``holds`` (its premises verified) with its ``text``, or ``reason`` (not applied)."""

    holds: bool
    text: str = ""
    reason: str = ""


def browsing_model_of(metric: Metric) -> tuple[BuiltinMetric, BrowsingModel] | None:
    """The metric (an intent-aware one's per-aspect metric) and its browsing model, if it declares one."""
    inner = metric.per_aspect if isinstance(metric, IntentAwareMetric) else metric
    if not isinstance(inner, BuiltinMetric) or not isinstance(inner, HasBrowsingModel):
        return None
    return inner, inner.browsing_model()


def weight_lemma(metric: Metric, constraint: str, *, mode: str, rho: Fraction) -> Lemma | None:
    """Pri or Deep for every ranking length, if the metric has a static browsing model (else ``None``)."""
    found = browsing_model_of(metric) if constraint in LEMMA_CONSTRAINTS else None
    if found is None:
        return None
    inner, model = found
    key = (type(inner).__name__, inner.name, constraint, mode, rho)
    if key not in _DECIDED:  # a table checks one setting on several constraints, in one process
        _DECIDED[key] = _decide(inner, model, constraint, mode, rho)
    return _DECIDED[key]


#: Lemmas decided in this process, by (metric class, metric name, constraint, mode, rho), and the
#: premises Pri and Deep share (agreement, gain, normaliser: "" when they hold), by metric and rho.
_DECIDED: dict[tuple[Any, ...], Lemma] = {}
_SHARED: dict[tuple[Any, ...], str] = {}


def _decide(inner: BuiltinMetric, model: BrowsingModel, constraint: str, mode: str, rho: Fraction) -> Lemma:
    if mode != "window" and model.depth is not None:
        return Lemma(False, reason="in truncate mode a swap past the cutoff changes nothing; the lemma "
                                   "speaks of window mode")
    try:
        shared = (type(inner).__name__, inner.name, rho)  # Pri and Deep share these premises
        if shared not in _SHARED:
            _SHARED[shared] = _agreement(inner, model, rho) or _gain_increasing(model, rho) or _normaliser(model)
        problem = _SHARED[shared] or _weights(model, constraint)
    except (NotSymbolic, TooManyPaths, Undecidable) as error:
        return Lemma(False, reason=f"the lemma's premises could not be verified ({error})")
    if problem:
        return Lemma(False, reason=problem)
    return Lemma(True, text=_statement(model, constraint))


def _statement(model: BrowsingModel, constraint: str) -> str:
    reach = f"1..{model.depth}" if model.depth is not None else "every position"
    if constraint == "Pri":
        return (f"Q = (1/N) sum W(i) g(r(d_i)) with g strictly increasing and W strictly decreasing on "
                f"{reach}: a swap changes Q by (W(i) - W(j)) (g(r_j) - g(r_i)) / N > 0")
    return (f"Q = (1/N) sum W(i) g(r(d_i)) with g strictly increasing and the drops W(i) - W(i+1) "
            f"strictly decreasing on {reach}: Q(b) - Q(a) = (g(hi) - g(lo)) (drop(i) - drop(j)) / N > 0")


def _holds_everywhere(question: Any, symbols: Symbols) -> bool:
    """Does ``question()`` return True on every path (under the symbols' conditions)?"""
    return all(path.value for path in explore(question, symbols.base).paths)


def _agreement(metric: BuiltinMetric, model: BrowsingModel, rho: Fraction) -> str:
    """"" when the metric's formula equals ``(1/N) sum W(i) g(d_i)`` on every ranking of its documents
    (6; 4 with an ideal normaliser), every relevance value in ``[0, rho]``."""
    symbols = Symbols()
    size = _AGREEMENT_DOCS_IDEAL if model.normaliser == "ideal" else _AGREEMENT_DOCS
    docs = [f"d{k}" for k in range(1, size + 1)]
    values = {d: (symbols.real(f"r({d})", Fraction(0), rho, low_open=False),) for d in docs}
    topic = symbolic_topic(values, ("*",), (1,))

    def equal() -> bool:
        for n in range(size + 1):
            ranking = Ranking.trusted(docs[:n])
            formula = lift(metric.compute(ranking, topic, PROOF, None))
            browsing = lift(model.score(ranking, topic, PROOF))
            if formula != browsing:
                return False
        return True

    if _holds_everywhere(equal, symbols):
        return ""
    return f"the metric's formula differs from its browsing model ({model.name}) on some ranking"


def _gain_increasing(model: BrowsingModel, rho: Fraction) -> str:
    """"" when ``g(x) < g(y)`` for every ``0 <= x < y <= rho``."""
    for low_relevant in (False, True):
        symbols = Symbols()
        y = symbols.real("y", Fraction(0), rho)
        x: Any = symbols.real("x", Fraction(0), rho) if low_relevant else 0
        if low_relevant:
            symbols.require(x.expr < y.expr)
        topic = symbolic_topic({"x": (x,), "y": (y,)}, ("*",), (1,))
        if not _holds_everywhere(lambda: lift(model.gain("y", topic, PROOF)) > model.gain("x", topic, PROOF),
                                 symbols):
            return "the gain is not strictly increasing in the relevance value"
    return ""


def _normaliser(model: BrowsingModel) -> str:
    """"" when ``1/N`` is a positive constant or ``N`` the topic's ideal score (positive here)."""
    if model.normaliser == "ideal":
        return ""
    assert callable(model.normaliser)
    factor = model.normaliser(PROOF)
    return "" if isinstance(factor, Fraction) and factor > 0 else "the normaliser is not a positive constant"


def _weights(model: BrowsingModel, constraint: str) -> str:
    """"" when the weights decrease (Pri) or their drops decrease (Deep) over the model's reach."""
    seen = model.seen
    if model.depth is None:
        if isinstance(seen, Geometric) and 0 < Fraction(seen.p) < 1:
            return ""
        if isinstance(seen, LogDiscount):
            return ""
        return "the weights' form is not one whose monotonicity is known for every position"
    depth = model.depth
    symbols = Symbols()

    def decreasing() -> bool:
        weights = [lift(seen(i, PROOF)) for i in range(1, depth + 2)]
        if constraint == "Pri":
            return all(weights[i] > weights[i + 1] for i in range(depth - 1))
        drops = [weights[i] - weights[i + 1] for i in range(depth)]
        return all(drops[i] > drops[i + 1] for i in range(depth - 2))

    if _holds_everywhere(decreasing, symbols):
        return ""
    what = "weights" if constraint == "Pri" else "drops between consecutive weights"
    return f"the {what} do not strictly decrease within the cutoff"

