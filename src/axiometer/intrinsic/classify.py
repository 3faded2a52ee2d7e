"""Giner's intrinsic classification of a metric on a domain (definitions §4).

On a finite domain of outputs, a metric ``Q`` induces ``dQ(x, y) = |Q(x) - Q(y)|``:

- **pseudometric**: ``Q`` is finite and real on the whole domain, deterministic
  (up to :data:`DETERMINISM_SAMPLE` outputs spread over the domain are scored
  twice more and must give identical values; the exact evaluation, where
  there is one, is repeated on a quarter of them), and does not
  depend on which of several equally judged documents is retrieved (checked
  on a sample of a rankings domain by renumbering such documents). ``dQ`` is
  then symmetric and satisfies the triangle inequality by construction;
  definitions §4 asks for both to be checked anyway, which is done on sampled
  triples of those outputs, exactly where exact values exist (within the
  exact budget), else on floats within the screen.
- **metric**: ``Q`` is also injective on the domain. The float scores are
  sorted; adjacent values within the screen (:data:`~axiometer.metrics.decide.SCREEN`,
  relative) are re-decided exactly (``Fraction``, or sympy through
  :func:`~axiometer.metrics.decide.exact_sign`). The counterexample is the
  smallest colliding pair (by domain order: shorter, then lexicographically
  first grade sequences); the report also gives the largest collision class
  and the resolution, distinct values / domain size.
- **interval scale**: a metric whose sorted distinct values are equally
  spaced. Adjacent gaps whose difference is beyond the screen are unequal;
  the rest are decided exactly. The counterexample is three consecutive
  values with unequal gaps.

Category: ``interval/metric``, ``ordinal/metric``, ``ordinal/pseudometric``
or ``not a pseudometric``. A metric without ``exact`` (a wrapped function) is
classified with an explicit tolerance, the tie band, which the result states;
a caller may instead supply an exact evaluation (``exact=``), e.g. RBP with a
symbolic irrational ``p``, which the built-in reads as a rational.

Decisions taken from a float difference far beyond rounding (beyond the
screen) are sound, as in :mod:`axiometer.metrics.decide`; a verdict is marked
not exact only when a near-tie was settled by the float tolerance (a
float-only metric, or the exact-evaluation budget ``max_exact`` ran out).
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from axiometer.metrics.decide import DEFAULT_TOLERANCE, SCREEN, evaluate, exact_sign
from axiometer.checking.guard import guard
from axiometer.core import Topic
from axiometer.generators.context import fixed_context
from axiometer.generators.domains import CountsDomain, Domain, RankingsDomain, SetsDomain, UsersDomain
from axiometer.metrics import MetricError, is_exact_capable
from axiometer.metrics.relative import InContext
from axiometer.results import IntrinsicResult, OutputRecord, PropertyVerdict

__all__ = ["classify", "score_domain", "DomainScoreError", "CATEGORIES"]

CATEGORIES = ("interval/metric", "ordinal/metric", "ordinal/pseudometric", "not a pseudometric")

#: Rows scored per batch: bounds the memory of a 2^20-output domain.
CHUNK = 1 << 16
#: Outputs sampled for the relabelling (equal-judgment) check.
RELABEL_SAMPLE = 32
#: Outputs sampled (spread over the domain) for the determinism check and the dQ triples
#: (``2 *`` this many triples: lowest, each, highest by score; and as many scattered).
DETERMINISM_SAMPLE = 64
#: ``IntrinsicResult.values`` lists the distinct values (for the number-line picture) up to this many.
VALUES_KEPT = 2000

ExactFunction = Callable[[Sequence[str], Topic], Any]


class DomainScoreError(MetricError):
    """The metric raised or returned a non-finite value on output ``index`` of the domain."""

    def __init__(self, index: int, message: str, value: float = math.nan) -> None:
        self.index, self.value = index, value
        super().__init__(message)


def _apply(function: Callable[..., Any], domain: Domain, index: int) -> Any:
    """``function`` on output ``index``: ``f(counts)`` on a sets/users domain, else ``f(ranking, topic)``."""
    if isinstance(domain, CountsDomain):
        return function(domain.counts(index))
    ranking, topic = domain.output(index)
    return function(ranking, topic)


def _metric_name(metric: Any, domain: Domain) -> str:
    if isinstance(domain, CountsDomain) and hasattr(metric, "spec"):
        return str(metric.spec)  # a set measure's full name, e.g. "F(beta=2)"
    return repr(metric) if metric.name is None else str(metric.name)  # an adapted object may have none


def _score_one(metric: Any, domain: Domain, index: int) -> float:
    try:
        if isinstance(domain, CountsDomain):
            value = float(metric.score(domain.counts(index)))
            if not math.isfinite(value):
                raise MetricError(f"returned a non-finite value {value!r}")
            return value
        ranking, topic = domain.output(index)
        return evaluate(metric, ranking, topic)
    except Exception as error:  # the metric's own failure is the finding
        raise DomainScoreError(
            index, f"{_metric_name(metric, domain)} on {domain.label(index)}: {error}") from error


def score_domain(metric: Any, domain: Domain) -> np.ndarray:
    """Float scores of every output, batched for a built-in metric on a rankings domain.

    The batched path builds one :class:`~axiometer.metrics.RankingBatch` per
    :data:`CHUNK` rows straight from the domain's grade array; a metric
    without ``score_batch`` (or whose batch raises) is scored output by
    output. Raises :class:`DomainScoreError` naming the first output on which
    the metric raised or was not finite.
    """
    size = domain.size
    if isinstance(domain, SetsDomain) and hasattr(metric, "score_counts"):
        tp, fp = domain.tp, domain.fp
        try:
            if "tp" in inspect.signature(metric.score_counts).parameters:
                scores = np.asarray(metric.score_counts(tp, fp, domain.R - tp, domain.N - domain.R - fp),
                                    dtype=float)
                return _finite(metric, domain, scores)
        except Exception:  # fall back to the per-output path, which names the input
            pass
    if isinstance(domain, UsersDomain) and hasattr(metric, "score_counts"):
        try:
            if "Rk" in inspect.signature(metric.score_counts).parameters:
                scores = np.asarray(metric.score_counts(np.full(size, domain.U), domain.rk, domain.ru,
                                                        domain.wanted_array, domain.examined), dtype=float)
                return _finite(metric, domain, scores)
        except Exception:  # fall back to the per-output path, which names the input
            pass
    batched = (isinstance(domain, RankingsDomain) and hasattr(metric, "score_batch")
               and not metric.needs.context)
    if batched:
        scores = np.empty(size)
        try:
            for start in range(0, size, CHUNK):
                stop = min(size, start + CHUNK)
                scores[start:stop] = np.asarray(metric.score_batch(domain.batch(start, stop)), dtype=float)
        except Exception:  # no batched path, or it failed: the per-output path finds the input
            batched = False
        else:
            return _finite(metric, domain, scores)
    return np.fromiter((_score_one(metric, domain, i) for i in range(size)), dtype=float, count=size)


def _finite(metric: Any, domain: Domain, scores: np.ndarray) -> np.ndarray:
    bad = np.flatnonzero(~np.isfinite(scores))
    if len(bad):
        i = int(bad[0])
        raise DomainScoreError(
            i, f"{_metric_name(metric, domain)} returned {float(scores[i])!r} on {domain.label(i)}",
            float(scores[i]))  # float(): "inf", not numpy's "np.float64(inf)"
    return scores


class _Exact:
    """Exact values of outputs, cached, with a budget of evaluations."""

    def __init__(self, function: ExactFunction | None, domain: Domain, budget: int) -> None:
        self.function, self.domain, self.budget = function, domain, budget
        self.cache: dict[int, Any] = {}

    def can(self, count: int = 1) -> bool:
        return self.function is not None and len(self.cache) + count <= self.budget

    def __call__(self, index: int) -> Any:
        if index not in self.cache:
            assert self.function is not None
            self.cache[index] = _apply(self.function, self.domain, index)
        return self.cache[index]

    def text(self, index: int) -> str | None:
        return str(self.cache[index]) if index in self.cache else None


def _dq(a: Any, b: Any) -> Any:
    """Giner's ``dQ(x, y) = |Q(x) - Q(y)|`` from the two scores."""
    return abs(a - b)


def _spread(size: int, count: int) -> list[int]:
    """Up to ``count`` distinct indices spread evenly over ``0..size-1`` (first and last included)."""
    if size <= 0:
        return []
    return sorted({int(i) for i in np.linspace(0, size - 1, min(size, count))})


def _equal(a: Any, b: Any) -> bool:
    return a == b if not hasattr(a, "free_symbols") and not hasattr(b, "free_symbols") else exact_sign(a - b) == 0


def _record(domain: Domain, scores: np.ndarray, exact: _Exact, index: int) -> OutputRecord:
    ranking, _ = domain.output(index)
    return OutputRecord(index, domain.label(index), tuple(ranking), float(scores[index]), exact.text(index))


def classify(metric: Any, domain: Domain, tolerance: float | None = None,
             exact: ExactFunction | None = None, max_exact: int = 20000) -> IntrinsicResult:
    """Classify ``metric`` on ``domain``: pseudometric, metric (injective), interval scale.

    ``exact`` overrides the metric's own exact evaluation (a function
    ``(ranking, topic) -> Fraction | sympy.Expr``; on a sets domain,
    ``(contingency) -> ...``). On a :class:`~axiometer.generators.domains.SetsDomain`
    the metric is a set measure of :mod:`axiometer.metrics.set_based`
    (``score``/``exact`` of a ``Contingency``, vectorised ``score_counts``). Without any exact
    evaluation, ties and equal gaps are decided within ``tolerance``
    (default :data:`~axiometer.metrics.decide.DEFAULT_TOLERANCE`, relative),
    which the result states. With one, ``tolerance`` (if given) widens the
    screen of candidates sent to exact evaluation; at most ``max_exact``
    outputs are evaluated exactly, after which near-ties are settled on
    floats and the result says so.
    """
    if not isinstance(domain, CountsDomain):
        # A metric author's metric runs behind the guard: a time limit per output, no input changes.
        metric = guard(metric)
    if not isinstance(domain, CountsDomain) and metric.needs.context and domain.size:
        # A relative metric is classified under one fixed context of other systems (definitions §6).
        metric = InContext(metric, fixed_context(domain.output(0)[1]))
    # A ranking metric's exact is its scorer or None; a measure of counts may have an exact method.
    own_exact = hasattr(metric, "exact") if isinstance(domain, CountsDomain) else is_exact_capable(metric)
    exact_function = exact if exact is not None else (metric.exact if own_exact else None)
    exact_mode = exact_function is not None
    if exact_mode:
        screen = SCREEN if tolerance is None else max(SCREEN, tolerance)
        stated_tolerance = None
    else:
        screen = DEFAULT_TOLERANCE if tolerance is None else tolerance
        stated_tolerance = screen
    name = _metric_name(metric, domain)
    ex = _Exact(exact_function, domain, max_exact)

    def not_pseudometric(records: tuple[OutputRecord, ...], note: str) -> IntrinsicResult:
        return IntrinsicResult(name, domain.name, domain.size, "not a pseudometric",
                               (PropertyVerdict("pseudometric", False, True, records, note),),
                               tolerance=stated_tolerance, exact=True, note=note)

    try:
        scores = score_domain(metric, domain)
    except DomainScoreError as error:
        ranking, _ = domain.output(error.index)
        record = OutputRecord(error.index, domain.label(error.index), tuple(ranking), error.value)
        return not_pseudometric((record,), str(error))

    # -- pseudometric: deterministic, dQ symmetric with the triangle inequality --
    sample = _spread(domain.size, DETERMINISM_SAMPLE)
    # Its own cache, so that the sampled checks do not change which records show exact values.
    sampled_exact = _Exact(exact_function, domain, min(max_exact, DETERMINISM_SAMPLE))
    for i in sample:
        try:
            first, second = _score_one(metric, domain, i), _score_one(metric, domain, i)
        except DomainScoreError as error:
            ranking, _ = domain.output(error.index)
            return not_pseudometric((OutputRecord(i, domain.label(i), tuple(ranking), error.value),), str(error))
        if first != second:  # identical values required, not merely close ones
            ranking, _ = domain.output(i)
            records = (OutputRecord(i, domain.label(i), tuple(ranking), first),
                       OutputRecord(i, domain.label(i), tuple(ranking), second))
            return not_pseudometric(records, f"{name} is not deterministic: {domain.label(i)} scored "
                                             f"{first!r}, then {second!r}")
        if exact_mode and i in sample[:DETERMINISM_SAMPLE // 4]:
            again = _apply(exact_function, domain, i)
            if not _equal(sampled_exact(i), again):
                ranking, _ = domain.output(i)
                records = (OutputRecord(i, domain.label(i), tuple(ranking), first, str(sampled_exact(i))),
                           OutputRecord(i, domain.label(i), tuple(ranking), second, str(again)))
                return not_pseudometric(records, f"{name}'s exact evaluation is not deterministic: "
                                                 f"{domain.label(i)} gave {sampled_exact(i)}, then {again}")
    triples, triples_exact = 0, 0
    m = len(sample)
    # The sample by float score: (lowest, each, highest) puts y between x and z, where the triangle is
    # tight; plus m triples scattered over the sample.
    by_score = sorted(sample, key=lambda k: (float(scores[k]), k))
    candidates = [(by_score[0], by_score[j], by_score[-1]) for j in range(m)]
    candidates += [(sample[j], sample[(7 * j + 3) % m], sample[(13 * j + 5) % m]) for j in range(m)]
    for x, y, z in candidates:
        use_exact = exact_mode and (sampled_exact.can(len({x, y, z} - set(sampled_exact.cache))))
        q = [sampled_exact(x), sampled_exact(y), sampled_exact(z)] if use_exact else [float(scores[x]), float(scores[y]), float(scores[z])]
        d_xy, d_yx, d_yz, d_xz = _dq(q[0], q[1]), _dq(q[1], q[0]), _dq(q[1], q[2]), _dq(q[0], q[2])
        if use_exact:
            symmetric = _equal(d_xy, d_yx)
            triangle = exact_sign(d_xz - d_xy - d_yz) <= 0
            triples_exact += 1
        else:
            band = screen * max(1.0, *(abs(v) for v in q))
            symmetric = abs(d_xy - d_yx) <= band
            triangle = d_xz - d_xy - d_yz <= band
        triples += 1
        if not (symmetric and triangle):
            records = tuple(_record(domain, scores, sampled_exact, k) for k in (x, y, z))
            broken = "dQ(x, y) != dQ(y, x)" if not symmetric else "dQ(x, z) > dQ(x, y) + dQ(y, z)"
            return not_pseudometric(records, f"{name}: {broken} for x = {records[0].label}, "
                                             f"y = {records[1].label}, z = {records[2].label}")
    sampled = (f"deterministic on {m} sampled outputs (each scored twice, identical values); "
               f"dQ = |Q(x) - Q(y)| symmetric and satisfying the triangle inequality on {triples} sampled "
               f"triples ({triples_exact} exactly" + (")" if triples_exact == triples else
                                                      f", {triples - triples_exact} on floats within {screen:g})"))

    # -- pseudometric: equal judgments are interchangeable --------------------
    pseudo_exact = triples_exact == triples  # a triple checked on floats was decided within the band
    if isinstance(domain, RankingsDomain) and domain.size:
        for i in _spread(domain.size, RELABEL_SAMPLE):
            original, topic = domain.output(i)
            other = domain.ranking(i, relabel=True)
            if other == original:
                continue
            try:
                value = evaluate(metric, other, topic)
            except Exception as error:
                record = OutputRecord(i, domain.label(i), tuple(other), math.nan)
                return not_pseudometric((record,), f"{name} on {list(other)}: {error}")
            diff = value - scores[i]
            if diff == 0:
                continue
            if abs(diff) <= screen * max(1.0, abs(value), abs(scores[i])):
                if not exact_mode:
                    pseudo_exact = False
                    continue
                if exact_sign(exact_function(other, topic) - ex(i)) == 0:
                    continue
            records = (_record(domain, scores, ex, i),
                       OutputRecord(i, domain.label(i), tuple(other), float(value)))
            return not_pseudometric(records, f"{name} scores two rankings of the same grade sequence "
                                             f"{domain.label(i)} differently: relabelling documents of "
                                             "equal judgment changes it")
    pseudo = PropertyVerdict("pseudometric", True, pseudo_exact, (),
                             "finite on every output" + (", invariant under relabelling equally judged "
                                                         "documents (sampled)"
                                                         if isinstance(domain, RankingsDomain) else "")
                             + "; " + sampled)

    # -- metric: injectivity ---------------------------------------------------
    size = domain.size
    order = np.argsort(scores, kind="stable")
    ordered = scores[order]
    if size > 1:
        scale = np.maximum(1.0, np.maximum(np.abs(ordered[:-1]), np.abs(ordered[1:])))
        close = np.abs(np.diff(ordered)) <= screen * scale
    else:
        close = np.zeros(0, dtype=bool)
    edges = np.diff(np.concatenate(([0], close.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)  # run of close gaps [s, e)
    injective_exact = True
    # The distinct values in ascending order, each a class (list of domain indices, ascending).
    classes: list[list[int]] = []
    position = 0

    def exact_cmp(a: list[int], b: list[int]) -> int:
        return exact_sign(ex(a[0]) - ex(b[0]))

    for s, e in zip(starts.tolist(), ends.tolist()):
        classes.extend([int(order[j])] for j in range(position, s))
        members = [int(i) for i in order[s:e + 1]]
        position = e + 1
        if exact_mode and ex.can(len(members)):
            groups: list[list[int]] = []
            for i in members:
                for group in groups:
                    if _equal(ex(i), ex(group[0])):
                        group.append(i)
                        break
                else:
                    groups.append([i])
            groups.sort(key=functools.cmp_to_key(exact_cmp))
        else:  # float tolerance decides: the near-equal run is one value
            groups = [members]
            injective_exact = False
        classes.extend(sorted(group) for group in groups)
    classes.extend([int(order[j])] for j in range(position, size))

    ties = [c for c in classes if len(c) > 1]
    distinct = len(classes)
    largest = max(classes, key=lambda c: (len(c), -c[0])) if classes else []
    if ties:
        pair_class = min(ties, key=lambda c: (c[1], c[0]))
        pair = (_record(domain, scores, ex, pair_class[0]), _record(domain, scores, ex, pair_class[1]))
        how = "exactly" if injective_exact or (exact_mode and pair_class[0] in ex.cache) else \
            f"within tolerance {screen:g}"
        metric_verdict = PropertyVerdict(
            "metric", False, injective_exact, pair,
            f"{pair[0].label} and {pair[1].label} score the same ({how}); {len(ties)} values shared by "
            f"several outputs, the largest by {len(largest)}; {distinct} distinct values on {size} outputs")
    else:
        metric_verdict = PropertyVerdict("metric", True, injective_exact, (),
                                         f"injective: {distinct} distinct values on {size} outputs")

    # -- interval: equally spaced distinct values ------------------------------
    reps = [c[0] for c in classes]
    values = scores[reps] if reps else np.zeros(0)
    interval_exact = True
    unequal_at: int | None = None  # i: the gaps (v[i-1], v[i]) and (v[i], v[i+1]) differ
    for i in range(1, len(reps) - 1):
        second = values[i + 1] - 2 * values[i] + values[i - 1]
        band = screen * max(1.0, abs(values[i - 1]), abs(values[i + 1]))
        if abs(second) > band:
            unequal_at = i
            break
        if exact_mode and ex.can(3):
            if exact_sign(ex(reps[i + 1]) - 2 * ex(reps[i]) + ex(reps[i - 1])) != 0:
                unequal_at = i
                break
        else:
            interval_exact = False
    if unequal_at is not None:
        triple = tuple(_record(domain, scores, ex, reps[j]) for j in (unequal_at - 1, unequal_at, unequal_at + 1))
        interval = PropertyVerdict("interval", False, True, triple,
                                   f"consecutive values {triple[0].score!r}, {triple[1].score!r}, "
                                   f"{triple[2].score!r} have unequal gaps")
    else:
        interval = PropertyVerdict("interval", True, interval_exact, (),
                                   f"the {distinct} distinct values are equally spaced"
                                   + ("" if interval_exact else f" (within tolerance {screen:g})"))

    if not metric_verdict.holds:
        category = "ordinal/pseudometric"
    elif interval.holds:
        category = "interval/metric"
    else:
        category = "ordinal/metric"
    # A float-only metric has no exact values: nothing about it was decided exactly.
    all_exact = exact_mode and pseudo.exact and metric_verdict.exact and interval.exact
    note = ("ties and gaps decided exactly" if exact_mode and all_exact else
            f"float-only: ties and equal gaps decided within tolerance {screen:g}" if not exact_mode else
            f"exact budget of {max_exact} evaluations reached: some near-ties settled within {screen:g}")
    return IntrinsicResult(
        name, domain.name, size, category, (pseudo, metric_verdict, interval),
        distinct=distinct, resolution=distinct / size if size else None,
        largest_class_size=len(largest),
        largest_class=tuple(_record(domain, scores, ex, i) for i in largest[:5]),
        exact=all_exact, tolerance=stated_tolerance, note=note,
        values=tuple((float(scores[c[0]]), len(c)) for c in classes) if distinct <= VALUES_KEPT else ())
