"""DeepTh and CloseTh for every ``rc`` in ``(0, rho]`` and, for DeepTh, every ``n`` (definitions §3, "proved").

The pair of both constraints (:func:`~axiometer.generators.relevance.threshold_pair`):
``a_n`` is one relevant document then ``2n - 1`` non-relevant ones, ``b_n`` is
``n`` non-relevant then ``n`` relevant, every relevant document of value ``rc``.
Here ``rc`` is a real symbol:

- :func:`closeness_witness`: CloseTh's ``m`` proved, ``Q(b_m) > Q(a_m)`` for
  every ``rc`` (z3 on every path of the metric's code at that ``m``);
- :func:`deepness_witness`: DeepTh's ``N`` with ``D(n) = Q(a_n) - Q(b_n) > 0``
  for every ``n >= N`` and every ``rc``, from a metric's static browsing model
  ``Q = (1/N_t) sum_i W(i) g(r(d_i))`` (:mod:`axiometer.proofs.lemmas`), where
  ``D(n) > 0`` iff ``W(1) > sum_{i=n+1}^{2n} W(i)``: past a cutoff ``K`` the
  sum is 0 (every ``n >= K``); for ``W(i) = p^(i-1)`` it is
  ``p^n (1 - p^n) / (1 - p)``, so with ``x = p^n`` the condition is
  ``x^2 - x + (1 - p) > 0``, true for every ``x`` below the smaller root
  ``x0`` (every ``x`` when ``p < 3/4``), and ``p^n`` decreases: every
  ``n >= N`` with ``p^N < x0`` (decided exactly with integers, and the
  polynomial's sign on ``(0, p^N]`` by z3).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import z3

from axiometer.core import Ranking
from axiometer.generators.building import doc_ids
from axiometer.metrics.base import Metric
from axiometer.metrics.browsing import BrowsingModel, Geometric
from axiometer.proofs.arithmetic import PROOF
from axiometer.proofs.decide import guarded_score
from axiometer.proofs.lemmas import browsing_model_of
from axiometer.proofs.locality import reads_only_top
from axiometer.proofs.paths import TooManyPaths, Undecidable, explore
from axiometer.proofs.reals import NotSymbolic, lift
from axiometer.proofs.topic import SymbolicTopic, Symbols, symbolic_topic

__all__ = ["ThresholdProof", "closeness_witness", "deepness_witness", "failing_rcs", "symbolic_pair"]


@dataclass(frozen=True)
class ThresholdProof:
    """A proved threshold ``value`` (CloseTh's ``m``, DeepTh's ``N``) and how, or ``reason`` (none)."""

    value: int | None
    how: str = ""
    reason: str = ""
    by_truncation: bool = False


def symbolic_pair(n: int, rho: Fraction) -> tuple[SymbolicTopic, Ranking, Ranking, Symbols]:
    """The threshold pair of size ``n`` with ``rc`` a real symbol in ``(0, rho]``."""
    symbols = Symbols()
    rc = symbols.real("rc", Fraction(0), rho)
    relevant, nonrelevant = doc_ids(n, "r"), doc_ids(2 * n - 1, "n")
    topic = symbolic_topic({d: (rc,) for d in relevant}, ("*",), (1,))
    a = Ranking.trusted((relevant[0], *nonrelevant))
    b = Ranking.trusted((*nonrelevant[:n], *relevant))
    return topic, a, b, symbols


def _always(metric: Metric, n: int, rho: Fraction, b_wins: bool, run: Any = None) -> bool:
    """Is ``Q(b_n) > Q(a_n)`` (``b_wins``) or ``Q(a_n) > Q(b_n)`` for every ``rc``? ``run(score,
    ranking, topic)`` calls the metric's code (under the checking engine's guard), if given."""
    return _failing_rc(metric, n, rho, b_wins, run) is None


def _failing_rc(metric: Metric, n: int, rho: Fraction, b_wins: bool, run: Any) -> Fraction | None:
    """An ``rc`` (z3's model) at which the relation of :func:`_always` fails at ``n``, or ``None``."""
    topic, a, b, symbols = symbolic_pair(n, rho)

    def relation() -> bool:
        qa, qb = guarded_score(metric, a, topic, run), guarded_score(metric, b, topic, run)
        return bool(qb > qa) if b_wins else bool(qa > qb)

    for path in explore(relation, symbols.base).paths:
        if not path.value:
            return symbols.values(path.model)["rc"]
    return None


def failing_rcs(metric: Metric, candidates: Iterable[int], rho: Fraction, run: Any = None) -> list[Fraction]:
    """For each CloseTh candidate ``m``, an ``rc`` in ``(0, rho]`` at which ``Q(b_m) > Q(a_m)``
    fails (z3's model), where there is one: values for the search to try besides its own three."""
    found: list[Fraction] = []
    for m in candidates:
        try:
            rc = _failing_rc(metric, m, rho, True, run)
        except Exception:  # undecided, or the metric fails on symbols: no value to offer
            return found
        if rc is not None and rc not in found:
            found.append(rc)
    return found


def closeness_witness(metric: Metric, candidates: Iterable[int], rho: Fraction, run: Any = None) -> ThresholdProof:
    """The first ``m`` of ``candidates`` with ``Q(b_m) > Q(a_m)`` for every ``rc`` in ``(0, rho]``."""
    tried = []
    try:
        for m in candidates:
            tried.append(m)
            if _always(metric, m, rho, b_wins=True, run=run):
                return ThresholdProof(m, how=f"Q(b_m) > Q(a_m) at m = {m} for every rc in (0, {rho}], "
                                             "decided by z3 on every path of the metric's code")
    except (NotSymbolic, TooManyPaths, Undecidable) as error:
        return ThresholdProof(None, reason=str(error))
    except Exception as error:  # a metric author's code may raise anything on a symbolic value
        return ThresholdProof(None, reason=f"the metric cannot run on symbolic values "
                                           f"({type(error).__name__}: {error})")
    return ThresholdProof(None, reason=f"no m of {_listed(tried)} holds for every rc in (0, {rho}]")


def _listed(values: list[int]) -> str:
    return ", ".join(map(str, values[:6])) + (", ..." if len(values) > 6 else "")


def deepness_witness(metric: Metric, mode: str, rho: Fraction, run: Any = None) -> ThresholdProof:
    """DeepTh's ``N`` for every ``n >= N`` and every ``rc``: from the metric's static browsing model, or
    from its cutoff when it reads nothing past its top K (:mod:`~axiometer.proofs.locality`)."""
    found = browsing_model_of(metric)
    if found is None:
        return _local_past_cutoff(metric, mode, rho, run)
    inner, model = found
    try:
        if not _gain_positive(model, rho):
            return ThresholdProof(None, reason="the gain of a relevant document is not positive")
        if model.depth is not None:
            return _past_cutoff(inner, model, mode, rho)
        if isinstance(model.seen, Geometric):
            return _geometric(Fraction(model.seen.p))
    except (NotSymbolic, TooManyPaths, Undecidable) as error:
        return ThresholdProof(None, reason=str(error))
    return ThresholdProof(None, reason="the weights' sum over n+1..2n has no closed form here")


def _gain_positive(model: BrowsingModel, rho: Fraction) -> bool:
    symbols = Symbols()
    rc = symbols.real("rc", Fraction(0), rho)
    topic = symbolic_topic({"d": (rc,)}, ("*",), (1,))
    return all(path.value for path in explore(lambda: lift(model.gain("d", topic, PROOF)) > 0,
                                              symbols.base).paths)


def _past_cutoff(metric: Metric, model: BrowsingModel, mode: str, rho: Fraction) -> ThresholdProof:
    """Cutoff ``K``, truncate mode: every ``n >= K`` holds (``b_n`` has nothing in the top K); below
    ``K`` each ``n`` is decided for every ``rc``, from ``K - 1`` down, to find the first ``N``."""
    depth = model.depth
    assert depth is not None
    if mode != "truncate":
        return ThresholdProof(None, reason="in window mode n stops at k/2: no n past the cutoff")
    start = depth
    while start > 1 and _always(metric, start - 1, rho, b_wins=False):
        start -= 1
    return ThresholdProof(start, how=f"D(n) > 0 for every n >= {depth} (b_n has no relevant document "
                                     f"in the top {depth}, a_n has one at rank 1) and for n = {start}.."
                                     f"{depth - 1} by z3, for every rc in (0, {rho}]",
                          by_truncation=2 * start > depth)


def _local_past_cutoff(metric: Metric, mode: str, rho: Fraction, run: Any) -> ThresholdProof:
    """Cutoff ``K``, truncate mode, a metric that reads nothing past its top K: ``D(n) = D(K)`` for every
    ``n >= K`` (the same inputs, so the same path), decided for every ``rc`` at ``n = K``; below ``K``
    each ``n`` is decided, from ``K - 1`` down, to find the first ``N``."""
    depth = metric.cutoff
    if depth is None:
        return ThresholdProof(None, reason="D(n) has no closed form in n for this metric (no static browsing "
                                           "model, no cutoff): the witness rests on the grid of n")
    if mode != "truncate":
        return ThresholdProof(None, reason="in window mode n stops at k/2: no n past the cutoff")
    topic, a, b, symbols = symbolic_pair(depth, rho)
    local = reads_only_top(lambda ranking, topic: guarded_score(metric, ranking, topic, run), (a, b),
                           topic, symbols, depth)
    if local:
        return ThresholdProof(None, reason=f"the metric is not shown to read only its top {depth} ({local}): "
                                           "the witness rests on the grid of n")
    try:
        if not _always(metric, depth, rho, b_wins=False, run=run):
            return ThresholdProof(None, reason=f"D(n) = D({depth}) for every n >= {depth}, and D({depth}) > 0 "
                                               "fails for some rc")
        start = depth
        while start > 1 and _always(metric, start - 1, rho, b_wins=False, run=run):
            start -= 1
    except (NotSymbolic, TooManyPaths, Undecidable) as error:
        return ThresholdProof(None, reason=str(error))
    except Exception as error:  # a metric author's code may raise anything on a symbolic value
        return ThresholdProof(None, reason=f"the metric cannot run on symbolic values "
                                           f"({type(error).__name__}: {error})")
    return ThresholdProof(start, how=f"the metric reads nothing past its top {depth}, so D(n) = D({depth}) for "
                                     f"every n >= {depth}; D(n) > 0 for n = {start}..{depth} by z3, for every "
                                     f"rc in (0, {rho}]", by_truncation=2 * start > depth)


def _geometric(p: Fraction) -> ThresholdProof:
    """``W(i) = p^(i-1)``: the first ``N`` with ``x^2 - x + (1 - p) > 0`` for every ``x`` in ``(0, p^N]``."""
    if p < Fraction(3, 4):
        return ThresholdProof(1, how=f"with x = p^n, D(n) > 0 iff x^2 - x + (1 - p) > 0, which has no real "
                                     f"root for p = {p} < 3/4: every n >= 1")
    root = (1 - math.sqrt(1 - 4 * float(1 - p))) / 2  # the smaller root, a guess refined exactly below
    n = max(1, int(math.log(root) / math.log(float(p))) - 2)
    while not _positive_below(p, n):
        n += 1
    while n > 1 and _positive_below(p, n - 1):
        n -= 1
    return ThresholdProof(n, how=f"with x = p^n, D(n) > 0 iff x^2 - x + (1 - p) > 0; z3 proves it for every "
                                 f"x in (0, p^{n}] and p^n decreases in n: every n >= {n}, every rc")


def _positive_below(p: Fraction, n: int) -> bool:
    """Is ``x^2 - x + (1 - p) > 0`` for every ``x`` in ``(0, u]`` with ``u >= p^n`` a rational bound?"""
    bound = _upper_bound(p, n)
    x = z3.Real("x")
    solver = z3.Solver()
    solver.add(x > 0, x <= z3.RealVal(bound), x * x - x + z3.RealVal(1 - p) <= 0)
    return solver.check() == z3.unsat


def _upper_bound(p: Fraction, n: int) -> Fraction:
    """A short rational ``u >= p^n``: exact for small ``n``, else ``p^n`` rounded up to 256 significant bits."""
    exact = p ** n
    if n <= 64:
        return exact
    bits = 256 + max(0, exact.denominator.bit_length() - exact.numerator.bit_length())
    return Fraction(-(-(exact.numerator << bits) // exact.denominator), 1 << bits)
