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
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy

from axiometer.metrics.decide import DEFAULT_TOLERANCE, SCREEN, evaluate, exact_sign
from axiometer.checking.guard import GuardedMetric, guard
from axiometer.core import Topic
from axiometer.generators.context import fixed_context
from axiometer.generators.domains import CountsDomain, Domain, RankingsDomain, SetsDomain, UsersDomain
from axiometer.metrics import MetricError, is_exact_capable
from axiometer.metrics.base import BuiltinMetric
from axiometer.metrics.set_based import ContingencyMeasure, ExactCountsMeasure, SetMeasure, UserMeasure
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
    if isinstance(domain, CountsDomain) and isinstance(metric, SetMeasure):
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
    if isinstance(domain, SetsDomain) and isinstance(metric, ContingencyMeasure):
        tp, fp = domain.tp, domain.fp
        try:
            scores = np.asarray(metric.score_counts(tp, fp, domain.R - tp, domain.N - domain.R - fp), dtype=float)
            return _finite(metric, domain, scores)
        except Exception:  # fall back to the per-output path, which names the input
            pass
    if isinstance(domain, UsersDomain) and isinstance(metric, UserMeasure):
        try:
            scores = np.asarray(metric.score_counts(np.full(size, domain.U), domain.rk, domain.ru,
                                                    domain.wanted_array, domain.examined), dtype=float)
            return _finite(metric, domain, scores)
        except Exception:  # fall back to the per-output path, which names the input
            pass
    # A built-in's batched path, also a metric author's subclass of one (its batches run without the
    # guard's per-case limit; a batch that raises falls back to the guarded per-output path).
    batched = metric.metric if isinstance(metric, GuardedMetric) else metric
    if isinstance(domain, RankingsDomain) and isinstance(batched, BuiltinMetric) and not metric.needs.context:
        scores = np.empty(size)
        try:
            for start in range(0, size, CHUNK):
                stop = min(size, start + CHUNK)
                scores[start:stop] = np.asarray(batched.score_batch(domain.batch(start, stop)), dtype=np.float64)
        except Exception:  # no batched path, or it failed: the per-output path finds the input
            pass
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
    """Giner's ``dQ(x, y) = |Q(x) - Q(y)|`` from the two scores. A symbolic difference (logarithms,
    roots) is negated when :func:`exact_sign` finds it negative: sympy's own ``Abs`` decides the sign
    through its assumptions system, which took 44 of the 47 s of Giner's nDCG row."""
    difference = a - b
    if isinstance(difference, sympy.Basic):
        return -difference if exact_sign(difference) < 0 else difference
    return abs(difference)


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


class _NotPseudometric(Exception):
    """A step of :func:`classify` found the metric is not a pseudometric: the outputs that show it
    and the note that says how."""

    def __init__(self, records: tuple[OutputRecord, ...], note: str) -> None:
        self.records, self.note = records, note
        super().__init__(note)


@dataclass
class _Classifier:
    """What every step of :func:`classify` reads: the metric (guarded, in its context), the domain,
    the exact evaluation if any, and the screen within which near values are decided."""

    metric: Any
    domain: Domain
    name: str
    exact_function: ExactFunction | None
    #: Float differences within this (relative) are near: re-decided exactly, or equal by tolerance.
    screen: float
    #: The tolerance the result states (``None`` when near values were decided exactly).
    stated_tolerance: float | None
    max_exact: int
    #: The exact values the result's records show, within the budget ``max_exact``.
    ex: _Exact

    @property
    def exact_mode(self) -> bool:
        return self.exact_function is not None


def _classifier(metric: Any, domain: Domain, tolerance: float | None, exact: ExactFunction | None,
                max_exact: int) -> _Classifier:
    """The metric as :func:`classify` scores it, its exact evaluation and the screen (see there)."""
    if not isinstance(domain, CountsDomain):
        # A metric author's metric runs behind the guard: a time limit per output, no input changes.
        metric = guard(metric)
    if not isinstance(domain, CountsDomain) and metric.needs.context and domain.size:
        # A relative metric is classified under one fixed context of other systems (definitions §6).
        metric = InContext(metric, fixed_context(domain.output(0)[1]))
    # A ranking metric's exact is its scorer or None; a measure of counts may have an exact method.
    own_exact = (isinstance(metric, ExactCountsMeasure) if isinstance(domain, CountsDomain)
                 else is_exact_capable(metric))
    exact_function = exact if exact is not None else (metric.exact if own_exact else None)
    if exact_function is not None:
        screen = SCREEN if tolerance is None else max(SCREEN, tolerance)
        stated_tolerance = None
    else:
        screen = DEFAULT_TOLERANCE if tolerance is None else tolerance
        stated_tolerance = screen
    return _Classifier(metric, domain, _metric_name(metric, domain), exact_function, screen, stated_tolerance,
                       max_exact, _Exact(exact_function, domain, max_exact))


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
    c = _classifier(metric, domain, tolerance, exact, max_exact)
    try:
        scores = score_domain(c.metric, domain)
    except DomainScoreError as error:
        ranking, _ = domain.output(error.index)
        record = OutputRecord(error.index, domain.label(error.index), tuple(ranking), error.value)
        return _not_pseudometric(c, (record,), str(error))
    try:
        pseudo = _pseudometric(c, scores)
    except _NotPseudometric as found:
        return _not_pseudometric(c, found.records, found.note)
    classes, injective_exact = _value_classes(c, scores)
    metric_verdict = _metric_verdict(c, scores, classes, injective_exact)
    interval = _interval_verdict(c, scores, classes)
    return _result(c, scores, classes, (pseudo, metric_verdict, interval))


def _not_pseudometric(c: _Classifier, records: tuple[OutputRecord, ...], note: str) -> IntrinsicResult:
    return IntrinsicResult(c.name, c.domain.name, c.domain.size, "not a pseudometric",
                           (PropertyVerdict("pseudometric", False, True, records, note),),
                           tolerance=c.stated_tolerance, exact=True, note=note)


def _pseudometric(c: _Classifier, scores: np.ndarray) -> PropertyVerdict:
    """The pseudometric verdict when it holds: deterministic, ``dQ`` symmetric with the triangle
    inequality (sampled), equal judgments interchangeable. Raises :class:`_NotPseudometric`."""
    sample = _spread(c.domain.size, DETERMINISM_SAMPLE)
    # Its own cache, so that the sampled checks do not change which records show exact values.
    sampled_exact = _Exact(c.exact_function, c.domain, min(c.max_exact, DETERMINISM_SAMPLE))
    _check_determinism(c, sample, sampled_exact)
    triples, triples_exact = _check_dq(c, scores, sample, sampled_exact)
    sampled = (f"deterministic on {len(sample)} sampled outputs (each scored twice, identical values); "
               f"dQ = |Q(x) - Q(y)| symmetric and satisfying the triangle inequality on {triples} sampled "
               f"triples ({triples_exact} exactly" + (")" if triples_exact == triples else
                                                      f", {triples - triples_exact} on floats within {c.screen:g})"))
    # A triple checked on floats was decided within the band.
    pseudo_exact = _check_relabelling(c, scores) and triples_exact == triples
    return PropertyVerdict("pseudometric", True, pseudo_exact, (),
                           "finite on every output" + (", invariant under relabelling equally judged "
                                                       "documents (sampled)"
                                                       if isinstance(c.domain, RankingsDomain) else "")
                           + "; " + sampled)


def _check_determinism(c: _Classifier, sample: Sequence[int], sampled_exact: _Exact) -> None:
    """Each sampled output scored twice more gives identical values (and, for the first quarter, its
    exact evaluation too). Raises :class:`_NotPseudometric`."""
    domain, name = c.domain, c.name
    for i in sample:
        try:
            first, second = _score_one(c.metric, domain, i), _score_one(c.metric, domain, i)
        except DomainScoreError as error:
            ranking, _ = domain.output(error.index)
            raise _NotPseudometric((OutputRecord(i, domain.label(i), tuple(ranking), error.value),),
                                   str(error)) from error
        if first != second:  # identical values required, not merely close ones
            ranking, _ = domain.output(i)
            records = (OutputRecord(i, domain.label(i), tuple(ranking), first),
                       OutputRecord(i, domain.label(i), tuple(ranking), second))
            raise _NotPseudometric(records, f"{name} is not deterministic: {domain.label(i)} scored "
                                            f"{first!r}, then {second!r}")
        if c.exact_function is not None and i in sample[:DETERMINISM_SAMPLE // 4]:
            again = _apply(c.exact_function, domain, i)
            if not _equal(sampled_exact(i), again):
                ranking, _ = domain.output(i)
                records = (OutputRecord(i, domain.label(i), tuple(ranking), first, str(sampled_exact(i))),
                           OutputRecord(i, domain.label(i), tuple(ranking), second, str(again)))
                raise _NotPseudometric(records, f"{name}'s exact evaluation is not deterministic: "
                                                f"{domain.label(i)} gave {sampled_exact(i)}, then {again}")


def _check_dq(c: _Classifier, scores: np.ndarray, sample: Sequence[int],
              sampled_exact: _Exact) -> tuple[int, int]:
    """``dQ`` symmetric and satisfying the triangle inequality on sampled triples, exactly while the
    budget lasts. Returns (triples checked, how many exactly); raises :class:`_NotPseudometric`."""
    triples, triples_exact = 0, 0
    m = len(sample)
    # The sample by float score: (lowest, each, highest) puts y between x and z, where the triangle is
    # tight; plus m triples scattered over the sample.
    by_score = sorted(sample, key=lambda k: (float(scores[k]), k))
    candidates = [(by_score[0], by_score[j], by_score[-1]) for j in range(m)]
    candidates += [(sample[j], sample[(7 * j + 3) % m], sample[(13 * j + 5) % m]) for j in range(m)]
    for x, y, z in candidates:
        use_exact = c.exact_mode and (sampled_exact.can(len({x, y, z} - set(sampled_exact.cache))))
        q = [sampled_exact(x), sampled_exact(y), sampled_exact(z)] if use_exact else [float(scores[x]), float(scores[y]), float(scores[z])]
        d_xy, d_yx, d_yz, d_xz = _dq(q[0], q[1]), _dq(q[1], q[0]), _dq(q[1], q[2]), _dq(q[0], q[2])
        if use_exact:
            symmetric = _equal(d_xy, d_yx)
            triangle = exact_sign(d_xz - d_xy - d_yz) <= 0
            triples_exact += 1
        else:
            band = c.screen * max(1.0, *(abs(v) for v in q))
            symmetric = abs(d_xy - d_yx) <= band
            triangle = d_xz - d_xy - d_yz <= band
        triples += 1
        if not (symmetric and triangle):
            records = tuple(_record(c.domain, scores, sampled_exact, k) for k in (x, y, z))
            broken = "dQ(x, y) != dQ(y, x)" if not symmetric else "dQ(x, z) > dQ(x, y) + dQ(y, z)"
            raise _NotPseudometric(records, f"{c.name}: {broken} for x = {records[0].label}, "
                                            f"y = {records[1].label}, z = {records[2].label}")
    return triples, triples_exact


def _check_relabelling(c: _Classifier, scores: np.ndarray) -> bool:
    """On a sample of a rankings domain, renumbering documents of equal judgment leaves the score
    unchanged. Returns whether every near difference was decided exactly; raises
    :class:`_NotPseudometric`."""
    domain, exact_function = c.domain, c.exact_function
    decided_exactly = True
    if not isinstance(domain, RankingsDomain) or not domain.size:
        return decided_exactly
    for i in _spread(domain.size, RELABEL_SAMPLE):
        original, topic = domain.output(i)
        other = domain.ranking(i, relabel=True)
        if other == original:
            continue
        try:
            value = evaluate(c.metric, other, topic)
        except Exception as error:
            record = OutputRecord(i, domain.label(i), tuple(other), math.nan)
            raise _NotPseudometric((record,), f"{c.name} on {list(other)}: {error}") from error
        diff = value - scores[i]
        if diff == 0:
            continue
        if abs(diff) <= c.screen * max(1.0, abs(value), abs(scores[i])):
            if exact_function is None:
                decided_exactly = False
                continue
            if exact_sign(exact_function(other, topic) - c.ex(i)) == 0:
                continue
        records = (_record(domain, scores, c.ex, i),
                   OutputRecord(i, domain.label(i), tuple(other), float(value)))
        raise _NotPseudometric(records, f"{c.name} scores two rankings of the same grade sequence "
                                        f"{domain.label(i)} differently: relabelling documents of "
                                        "equal judgment changes it")
    return decided_exactly


def _value_classes(c: _Classifier, scores: np.ndarray) -> tuple[list[list[int]], bool]:
    """The distinct values in ascending order, each a class (the domain indices scoring it, ascending),
    and whether every near-equal run was split exactly (else the run is one value, by tolerance)."""
    size, ex = c.domain.size, c.ex
    order = np.argsort(scores, kind="stable")
    ordered = scores[order]
    if size > 1:
        scale = np.maximum(1.0, np.maximum(np.abs(ordered[:-1]), np.abs(ordered[1:])))
        close = np.abs(np.diff(ordered)) <= c.screen * scale
    else:
        close = np.zeros(0, dtype=bool)
    edges = np.diff(np.concatenate(([0], close.astype(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)  # run of close gaps [s, e)
    injective_exact = True
    classes: list[list[int]] = []
    position = 0

    def exact_cmp(a: list[int], b: list[int]) -> int:
        return exact_sign(ex(a[0]) - ex(b[0]))

    for s, e in zip(starts.tolist(), ends.tolist()):
        classes.extend([int(order[j])] for j in range(position, s))
        members = [int(i) for i in order[s:e + 1]]
        position = e + 1
        if c.exact_mode and ex.can(len(members)):
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
    return classes, injective_exact


def _largest(classes: Sequence[list[int]]) -> list[int]:
    """The largest class of tied outputs (the first by domain order among the largest)."""
    return max(classes, key=lambda k: (len(k), -k[0])) if classes else []


def _metric_verdict(c: _Classifier, scores: np.ndarray, classes: Sequence[list[int]],
                    injective_exact: bool) -> PropertyVerdict:
    """Injectivity: the smallest colliding pair (by domain order) if two outputs share a value."""
    ties = [k for k in classes if len(k) > 1]
    distinct, size = len(classes), c.domain.size
    if not ties:
        return PropertyVerdict("metric", True, injective_exact, (),
                               f"injective: {distinct} distinct values on {size} outputs")
    largest = _largest(classes)
    pair_class = min(ties, key=lambda k: (k[1], k[0]))
    pair = (_record(c.domain, scores, c.ex, pair_class[0]), _record(c.domain, scores, c.ex, pair_class[1]))
    how = "exactly" if injective_exact or (c.exact_mode and pair_class[0] in c.ex.cache) else \
        f"within tolerance {c.screen:g}"
    return PropertyVerdict(
        "metric", False, injective_exact, pair,
        f"{pair[0].label} and {pair[1].label} score the same ({how}); {len(ties)} values shared by "
        f"several outputs, the largest by {len(largest)}; {distinct} distinct values on {size} outputs")


def _interval_verdict(c: _Classifier, scores: np.ndarray, classes: Sequence[list[int]]) -> PropertyVerdict:
    """Equally spaced distinct values, or the first three consecutive ones with unequal gaps."""
    ex = c.ex
    reps = [k[0] for k in classes]
    values = scores[reps] if reps else np.zeros(0)
    interval_exact = True
    unequal_at: int | None = None  # i: the gaps (v[i-1], v[i]) and (v[i], v[i+1]) differ
    for i in range(1, len(reps) - 1):
        second = values[i + 1] - 2 * values[i] + values[i - 1]
        band = c.screen * max(1.0, abs(values[i - 1]), abs(values[i + 1]))
        if abs(second) > band:
            unequal_at = i
            break
        if c.exact_mode and ex.can(3):
            if exact_sign(ex(reps[i + 1]) - 2 * ex(reps[i]) + ex(reps[i - 1])) != 0:
                unequal_at = i
                break
        else:
            interval_exact = False
    if unequal_at is not None:
        triple = tuple(_record(c.domain, scores, ex, reps[j]) for j in (unequal_at - 1, unequal_at, unequal_at + 1))
        # The values are the counterexample's scores, which a report prints in its number style.
        return PropertyVerdict("interval", False, True, triple,
                               "three consecutive distinct values have unequal gaps")
    return PropertyVerdict("interval", True, interval_exact, (),
                           f"the {len(classes)} distinct values are equally spaced"
                           + ("" if interval_exact else f" (within tolerance {c.screen:g})"))


def _result(c: _Classifier, scores: np.ndarray, classes: Sequence[list[int]],
            verdicts: tuple[PropertyVerdict, PropertyVerdict, PropertyVerdict]) -> IntrinsicResult:
    """The category the three verdicts give, with the values attained and the largest tie."""
    pseudo, metric_verdict, interval = verdicts
    if not metric_verdict.holds:
        category = "ordinal/pseudometric"
    elif interval.holds:
        category = "interval/metric"
    else:
        category = "ordinal/metric"
    # A float-only metric has no exact values: nothing about it was decided exactly.
    all_exact = c.exact_mode and pseudo.exact and metric_verdict.exact and interval.exact
    note = ("ties and gaps decided exactly" if c.exact_mode and all_exact else
            f"float-only: ties and equal gaps decided within tolerance {c.screen:g}" if not c.exact_mode else
            f"exact budget of {c.max_exact} evaluations reached: some near-ties settled within {c.screen:g}")
    size, distinct, largest = c.domain.size, len(classes), _largest(classes)
    return IntrinsicResult(
        c.name, c.domain.name, size, category, verdicts,
        distinct=distinct, resolution=distinct / size if size else None,
        largest_class_size=len(largest),
        largest_class=tuple(_record(c.domain, scores, c.ex, i) for i in largest[:5]),
        exact=all_exact, tolerance=c.stated_tolerance, note=note,
        values=tuple((float(scores[k[0]]), len(k)) for k in classes) if distinct <= VALUES_KEPT else ())
