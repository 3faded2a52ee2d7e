"""Cases for the five diversity-oriented constraints (Amigó, Spina &
Carrillo-de-Albornoz, SIGIR 2018, section 3.3, Eqs. 6-10; definitions §3):
AspDiv, Red, MRed, Sat and AspRel, each as a hypothesis strategy and an
exhaustive small scope.

Every case satisfies its constraint's conditions by construction (no
filtering), so hypothesis shrinks a failing case to a small, readable one:
two or three documents, values like ``1/10``, aspects ``t1, t2``, the first
weights balanced. Documents of the base ranking ``a`` are ``d1, d2, ...`` in
ranking order; the documents a construction brings in have their own names:

- AspDiv: ``d3'`` replaces ``d3``;
- Red, MRed: ``a = P + x`` and ``b = P + y``;
- Sat: ``b = a + x``;
- AspRel: ``a`` holds ``x`` at position ``i``, ``b`` holds ``y`` there.

Red's and MRed's topics may also judge a few documents no ranking retrieves
(``u1, u2, ...``): the constraints quantify over rankings of any topic, and
metrics normalised per aspect (nDCG-IA, AP-IA) depend on how many relevant
documents each aspect has in the collection, which the paper's analysis of
those metrics mentions (section 4.2). AspRel's topics judge no other
document relevant to ``t`` or ``t'`` (definitions §3: "no other document is relevant
to t or t'").

Relevance values: where a constraint assumes relevance contribution (AspDiv,
MRed) they come from :func:`~axiometer.generators.building.levels` (at most
``rho``); elsewhere from :func:`unit_levels` (anywhere in ``(0, 1]``), or from
the levels at most ``rho`` under the nearby reading ``values_within_rho``.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType

from axiometer.core import CachedFraction, Ranking, Topic, cached
from axiometer.generators.building import doc_ids, levels, positive_levels
from axiometer.generators.case import Case, Scope, ScopeItem, ScopeMark, layered
from axiometer.generators.draw import Draw, case_strategy

__all__ = [
    "aspect_names", "unit_levels", "fine_levels", "value_levels", "multi_topic", "weights_from_parts",
    "aspect_diversity_cases", "aspect_diversity_small_scope",
    "redundancy_cases", "redundancy_small_scope",
    "monotonic_redundancy_cases", "monotonic_redundancy_small_scope",
    "saturation_cases", "saturation_small_scope",
    "aspect_relevance_cases", "aspect_relevance_small_scope",
]

Vector = tuple[Fraction, ...]
ZERO = cached(0)


# -- building blocks ----------------------------------------------------------

def aspect_names(m: int) -> tuple[str, ...]:
    """``t1 .. tm``."""
    return tuple(f"t{j}" for j in range(1, m + 1))


def unit_levels(rho: Fraction) -> tuple[Fraction, ...]:
    """Non-zero relevance values anywhere in ``(0, 1]``, simplest first: ``rho, 1/2, 1, rho/2, 9/10``."""
    return _unit_levels(rho)


@functools.lru_cache(maxsize=64)
def _unit_levels(rho: Fraction) -> tuple[Fraction, ...]:
    return tuple(map(cached, (rho, Fraction(1, 2), Fraction(1), rho / 2, Fraction(9, 10))))


def fine_levels(rho: Fraction) -> tuple[Fraction, ...]:
    """:func:`~axiometer.generators.building.levels` plus ``rho/100``: AspDiv's replaced document
    may gain far less than a later document holds, which is what a redundancy discount with a
    small ``alpha`` can outweigh (``rho/10`` is not small enough for alpha = 0.1)."""
    return (*levels(rho), cached(rho / 100))


def value_levels(scope: Scope) -> tuple[Fraction, ...]:
    """Non-zero values for constraints without relevance contribution (Red, Sat, AspRel).

    :func:`unit_levels`, or the levels at most ``rho`` under the nearby
    reading ``scope.values_within_rho``.
    """
    return positive_levels(scope.rho) if scope.values_within_rho else unit_levels(scope.rho)


def weights_from_parts(parts: Sequence[int]) -> Mapping[str, Fraction]:
    """Aspect weights proportional to ``parts``: ``(1, 2) -> {t1: 1/3, t2: 2/3}`` (read only:
    the same parts share one mapping)."""
    return _weights(tuple(parts))


@functools.lru_cache(maxsize=1024)
def _weights(parts: tuple[int, ...]) -> Mapping[str, Fraction]:
    total = sum(parts)
    return MappingProxyType({t: CachedFraction(p, total) for t, p in zip(aspect_names(len(parts)), parts)})


def multi_topic(vectors: Mapping[str, Sequence[Fraction]], weights: Mapping[str, Fraction]) -> Topic:
    """A topic judging exactly ``vectors`` (``doc -> r per aspect``, in the order of ``weights``);
    the generators build valid values, so no checks (:meth:`Topic.trusted`)."""
    return Topic.trusted({d: tuple(v) for d, v in vectors.items()}, tuple(weights),
                         tuple(weights.values()))


def _on(m: int, aspect: int | None, value: Fraction) -> Vector:
    """The vector relevant ``value`` to ``aspect`` only (all zeros for ``None``)."""
    vector: list[Fraction] = [ZERO] * m
    if aspect is not None:
        vector[aspect] = value
    return tuple(vector)


def _free_weights(draw: Draw, m: int) -> list[int]:
    """Weight parts for constraints that assume nothing about weights (shrinks to balanced)."""
    return [draw.integer(1, 3) for _ in range(m)]


def _room(scope: Scope) -> int:
    """How long a prefix may be when the document after it is the changed one (Red, MRed, Sat)."""
    return scope.last_position(scope.max_docs) - 1


def _describe(aspects: Sequence[str], indices: Sequence[int]) -> str:
    return ", ".join(aspects[j] for j in indices)


# -- AspDiv (Eq. 6) -------------------------------------------------------------

def _aspect_diversity_case(vectors: list[list[Fraction]], weights: Mapping[str, Fraction], i: int,
                           new: Sequence[Fraction]) -> Case:
    docs = doc_ids(len(vectors))
    replacement = f"{docs[i - 1]}'"
    aspects = tuple(weights)
    raised = [j for j, (old, value) in enumerate(zip(vectors[i - 1], new)) if value > old]
    judged = {d: tuple(v) for d, v in zip(docs, vectors)}
    judged[replacement] = tuple(new)
    b = list(docs)
    b[i - 1] = replacement
    return Case(multi_topic(judged, weights), Ranking.trusted(docs), Ranking.trusted(b), (i,),
                f"b = a with {docs[i - 1]} replaced by {replacement}, more relevant to "
                f"{_describe(aspects, raised)} and no less relevant to any aspect")


@case_strategy
def aspect_diversity_cases(draw: Draw, scope: Scope) -> Case:
    """AspDiv: ``b`` = ``a`` with ``d_i`` replaced by ``d_i'``, ``r(d_i', t) >= r(d_i, t)`` for
    every ``t`` and ``>`` for some ``t``; every value at most ``rho``; later documents unconstrained
    (none relevant to a raised aspect under ``scope.later_untouched``). ``d_i`` and ``d_i'`` take
    :func:`fine_levels`, so the gain can be far smaller than a later document's relevance."""
    last = scope.last_position(scope.max_docs)
    if last < 1:
        draw.reject()
    m = draw.integer(2, 3)
    weights = weights_from_parts(_free_weights(draw, m))
    grades = levels(scope.rho)

    def vector() -> list[Fraction]:
        return [draw.choice(grades) for _ in range(m)]

    before = draw.sized(0, last - 1, vector)
    i = len(before) + 1
    fine = fine_levels(scope.rho)
    old = [draw.choice(fine) for _ in range(m)]
    strictly = draw.integer(0, m - 1)  # one aspect the replacement is strictly better on
    old[strictly] = draw.choice([g for g in fine if g < scope.rho])
    new = [draw.choice([g for g in fine if (g > r if t == strictly else g >= r)])
           for t, r in enumerate(old)]
    after = draw.sized(0, scope.max_docs - i, vector)
    if scope.later_untouched:
        raised = [t for t in range(m) if new[t] > old[t]]
        after = [[ZERO if t in raised else r for t, r in enumerate(v)] for v in after]
    return _aspect_diversity_case([*before, old, *after], weights, i, new)


def _dominating(grades: Sequence[Fraction], m: int) -> Iterator[tuple[Vector, Vector]]:
    """Pairs ``(old, new)`` with ``new >= old`` on every aspect and ``>`` on some."""
    for old in itertools.product(grades, repeat=m):
        for new in itertools.product(grades, repeat=m):
            if new != old and all(n >= o for n, o in zip(new, old)):
                yield old, new


def aspect_diversity_small_scope(scope: Scope, max_docs: int = 3) -> Iterator[ScopeItem]:
    """Every AspDiv case on two balanced aspects with up to ``max_docs`` documents: the replaced
    document and its replacement over ``{0, rho/100, rho}`` per aspect (a small gain next to a
    large later value is what a redundancy discount can outweigh), the others over ``{0, rho}``;
    shortest first, a :class:`ScopeMark` after each length. With ``scope.grow``, longer rankings
    follow."""
    weights = weights_from_parts((1, 1))
    changed_grades = (ZERO, scope.rho / 100, scope.rho)
    other_vectors = list(itertools.product((ZERO, scope.rho), repeat=2))

    def layer(n: int) -> Iterator[Case]:
        for i in range(1, scope.last_position(n) + 1):
            for old, new in _dominating(changed_grades, 2):
                raised = [t for t in range(2) if new[t] > old[t]]
                for others in itertools.product(other_vectors, repeat=n - 1):
                    vectors = [list(v) for v in others[:i - 1]] + [list(old)] + \
                              [list(v) for v in others[i - 1:]]
                    if scope.later_untouched and any(
                            vector[t] for vector in vectors[i:] for t in raised):
                        continue
                    yield _aspect_diversity_case(vectors, weights, i, new)

    return layered(layer, 1, max_docs, scope)


# -- Red (Eq. 7) ----------------------------------------------------------------

def _prefix_case(prefix: Sequence[Vector], x: Vector, y: Vector, unretrieved: Sequence[Vector],
                 weights: Mapping[str, Fraction], note: str) -> Case:
    """``a = P + x``, ``b = P + y``; the topic judges ``P``, ``x``, ``y`` and ``u1, u2, ...``."""
    docs = doc_ids(len(prefix))
    judged = dict(zip(docs, prefix))
    judged["x"] = x
    judged["y"] = y
    judged.update(zip(doc_ids(len(unretrieved), "u"), unretrieved))
    position = len(prefix) + 1
    return Case(multi_topic(judged, weights), Ranking.trusted((*docs, "x")), Ranking.trusted((*docs, "y")),
                (position,), note)


def _redundancy_case(labels: Sequence[int | None], m: int, t: int, t2: int, rc: Fraction,
                     unretrieved: Sequence[int]) -> Case:
    aspects = aspect_names(m)
    count_t, count_t2 = labels.count(t), labels.count(t2)
    note = (f"a = P + x, b = P + y; P has {count_t} document(s) relevant to {aspects[t]} and "
            f"{count_t2} to {aspects[t2]}; x relevant (rc = {rc}) to {aspects[t]} only, "
            f"y to {aspects[t2]} only")
    return _prefix_case([_on(m, label, rc) for label in labels], _on(m, t, rc), _on(m, t2, rc),
                        [_on(m, u, rc) for u in unretrieved], weights_from_parts((1,) * m), note)


def _distinct_pair(draw: Draw, m: int) -> tuple[int, int]:
    """Two distinct aspect indices ``(t, t')`` (shrinks to ``(0, 1)``)."""
    t = draw.integer(0, m - 1)
    return t, draw.choice([j for j in range(m) if j != t])


def _rc_levels(scope: Scope) -> tuple[Fraction, ...]:
    """Red's binary constant: ``rc`` in ``(0, 1)``."""
    return tuple(v for v in value_levels(scope) if v < 1)


@case_strategy
def redundancy_cases(draw: Draw, scope: Scope) -> Case:
    """Red: binary (``rc``), balanced, no overlap; ``P`` has more documents relevant to ``t`` than
    to ``t'``; ``a = P + x``, ``b = P + y``, ``x`` relevant to ``t`` only, ``y`` to ``t'`` only."""
    room = _room(scope)
    if room < 1:
        draw.reject()
    m = draw.integer(2, 3)
    t, t2 = _distinct_pair(draw, m)
    count_t2 = draw.integer(0, (room - 1) // 2)
    count_t = draw.integer(count_t2 + 1, room - count_t2)
    others = [None, *(j for j in range(m) if j not in (t, t2))]
    rest = draw.sized(0, room - count_t - count_t2, lambda: draw.choice(others))
    labels = draw.permutation([t] * count_t + [t2] * count_t2 + rest)
    rc = draw.choice(_rc_levels(scope))
    unretrieved = draw.sized(0, 3, lambda: draw.integer(0, m - 1))
    return _redundancy_case(labels, m, t, t2, rc, unretrieved)


def _grown_room(scope: Scope) -> int | None:
    """The longest prefix growth may reach: the changed position ``len(P) + 1`` stays inside the
    window (``None``: no window, no end)."""
    return None if scope.max_position is None else scope.max_position - 1


def redundancy_small_scope(scope: Scope, max_prefix: int = 5,
                           max_mixed: int = 3) -> Iterator[ScopeItem]:
    """Every Red case on two aspects (``t = t1``, ``t' = t2``) with ``rc`` in the two simplest
    levels and no or one unretrieved relevant document, whose prefix has up to ``max_mixed``
    documents (relevant to ``t``, ``t'`` or neither) or up to ``max_prefix`` documents all
    relevant (long enough to fill both aspects with ``rc = 1/2``); shortest first, a
    :class:`ScopeMark` after each prefix length (of ``len(P) + 1`` documents). With
    ``scope.grow``, longer all-relevant prefixes follow."""
    def layer(length: int) -> Iterator[Case]:
        kinds = (0, None, 1) if length <= max_mixed else (0, 1)
        for labels in itertools.product(kinds, repeat=length):
            if labels.count(0) <= labels.count(1):
                continue
            for rc in _rc_levels(scope)[:2]:
                for unretrieved in ((), (1,), (0,)):
                    yield _redundancy_case(labels, 2, 0, 1, rc, unretrieved)

    return layered(layer, 1, min(_room(scope), max_prefix), scope, size=lambda n: n + 1,
                   last=_grown_room(scope))


# -- MRed (Eq. 8) ---------------------------------------------------------------

def _monotonic_case(prefix: Sequence[tuple[Fraction, Fraction]], t: int, value: Fraction,
                    unretrieved: Sequence[Vector]) -> Case:
    """``prefix`` holds ``(r(d, t), r(d, t'))`` pairs; ``x`` and ``y`` have ``value``."""
    t2 = 1 - t
    aspects = aspect_names(2)

    def vector(on_t: Fraction, on_t2: Fraction) -> Vector:
        return (on_t, on_t2) if t == 0 else (on_t2, on_t)

    note = (f"a = P + x, b = P + y; every document of P is more relevant to {aspects[t]} than to "
            f"{aspects[t2]}; r(x, {aspects[t]}) = r(y, {aspects[t2]}) = {value}, "
            f"x relevant to {aspects[t]} only, y to {aspects[t2]} only")
    return _prefix_case([vector(*pair) for pair in prefix], vector(value, ZERO),
                        vector(ZERO, value), unretrieved, weights_from_parts((1, 1)), note)


@case_strategy
def monotonic_redundancy_cases(draw: Draw, scope: Scope) -> Case:
    """MRed: two balanced aspects, every value at most ``rho``; non-empty ``P`` with
    ``r(d, t) > r(d, t')`` for every ``d`` in ``P``; ``a = P + x``, ``b = P + y``,
    ``0 < r(x, t) = r(y, t')``, ``x`` relevant to ``t`` only, ``y`` to ``t'`` only."""
    room = _room(scope)
    if room < 1:
        draw.reject()
    t = draw.integer(0, 1)
    grades = levels(scope.rho)
    highs = positive_levels(scope.rho)

    def pair() -> tuple[Fraction, Fraction]:
        high = draw.choice(highs)
        return high, draw.choice([g for g in grades if g < high])

    prefix = draw.sized(1, room, pair)
    value = draw.choice(highs)
    unretrieved = draw.sized(0, 3, lambda: (draw.choice(grades), draw.choice(grades)))
    return _monotonic_case(prefix, t, value, unretrieved)


def monotonic_redundancy_small_scope(scope: Scope, max_prefix: int = 3) -> Iterator[ScopeItem]:
    """Every MRed case with ``t = t1``, a prefix of up to ``max_prefix`` documents over
    ``{0, rho/2, rho}``, ``r(x, t)`` in ``{rho, rho/2}``, and no or one unretrieved document
    relevant (``rho``) to ``t'``; shortest first, a :class:`ScopeMark` after each prefix length
    (of ``len(P) + 1`` documents). With ``scope.grow``, longer prefixes follow."""
    grades = (ZERO, scope.rho / 2, scope.rho)
    pairs = [(high, low) for high in grades for low in grades if high > low]

    def layer(length: int) -> Iterator[Case]:
        for prefix in itertools.product(pairs, repeat=length):
            for value in (scope.rho, scope.rho / 2):
                for unretrieved in ((), ((ZERO, scope.rho),)):
                    yield _monotonic_case(prefix, 0, value, unretrieved)

    return layered(layer, 1, min(_room(scope), max_prefix), scope, size=lambda n: n + 1,
                   last=_grown_room(scope))


# -- Sat (Eq. 9) ----------------------------------------------------------------

def _saturation_case(labels: Sequence[tuple[int | None, Fraction]], m: int, t: int, rmax: Fraction,
                     x_value: Fraction, weights: Mapping[str, Fraction]) -> Case:
    """``a = d1 .. dn`` (``d1 .. d_{n-1}`` from ``labels``, ``dn`` relevant ``rmax`` to ``t``);
    ``b = a + x``."""
    aspects = tuple(weights)
    vectors = [_on(m, aspect, value) for aspect, value in labels] + [_on(m, t, rmax)]
    docs = doc_ids(len(vectors))
    judged = dict(zip(docs, vectors))
    judged["x"] = _on(m, t, x_value)
    return Case(multi_topic(judged, weights), Ranking.trusted(docs), Ranking.trusted((*docs, "x")),
                (len(docs) + 1,),
                f"b = a + x; the last document of a, {docs[-1]}, has r({docs[-1]}, {aspects[t]}) = "
                f"rmax = {rmax}; x is relevant ({x_value}) to {aspects[t]} only")


def _rmax(scope: Scope) -> Fraction:
    return Fraction(1) if scope.rmax is None else scope.rmax


@case_strategy
def saturation_cases(draw: Draw, scope: Scope) -> Case:
    """Sat: no overlap; ``a`` ends with ``d_n``, ``r(d_n, t) = rmax`` (``scope.rmax``, default 1);
    ``b = a + x`` with ``x`` relevant to ``t`` only. The other values lie in ``(0, 1]``."""
    room = _room(scope)
    if room < 1:
        draw.reject()
    m = draw.integer(1, 3)
    weights = weights_from_parts(_free_weights(draw, m))
    t = draw.integer(0, m - 1)
    values = value_levels(scope)
    aspects = [None, *range(m)]
    labels = draw.sized(0, room - 1, lambda: (draw.choice(aspects), draw.choice(values)))
    return _saturation_case(labels, m, t, _rmax(scope), draw.choice(values), weights)


def saturation_small_scope(scope: Scope, max_prefix: int = 3) -> Iterator[ScopeItem]:
    """Every Sat case on one or two balanced aspects with ``t = t1``, up to ``max_prefix``
    documents in ``a``, the documents before ``d_n`` relevant (``1/2``) to one aspect or to none,
    and ``r(x, t)`` in the three simplest values: first every case on one aspect, then every
    case on two, shortest first in each, then one :class:`ScopeMark` (of ``max_prefix + 1``
    documents: ``b = a + x``). With ``scope.grow``, longer ``a`` follow, one length at a time
    (one aspect, then two), each with its mark."""
    values = value_levels(scope)
    rmax = _rmax(scope)
    room = min(_room(scope), max_prefix)

    def cases(m: int, n: int) -> Iterator[Case]:
        weights = weights_from_parts((1,) * m)
        choices = [(None, ZERO)] + [(aspect, values[1]) for aspect in range(m)]
        for labels in itertools.product(choices, repeat=n - 1):
            for x_value in values[:3]:
                yield _saturation_case(labels, m, 0, rmax, x_value, weights)

    # The declared scope keeps its order (every one-aspect case first): no mark inside it.
    for m in (1, 2):
        for n in range(1, room + 1):
            yield from cases(m, n)
    if room >= 1:
        yield ScopeMark(room + 1, room + 1)
    if scope.grow:
        last = _grown_room(scope)
        n = room + 1
        while last is None or n <= last:
            count = 0
            for m in (1, 2):
                for case in cases(m, n):
                    count += 1
                    yield case
            if count == 0:
                return
            yield ScopeMark(n + 1, room + 1)
            n += 1


# -- AspRel (Eq. 10) ------------------------------------------------------------

def _aspect_relevance_case(labels: Sequence[tuple[int | None, Fraction]], i: int, m: int, t: int,
                           t2: int, value: Fraction, parts: Sequence[int]) -> Case:
    """``labels`` describe every position but ``i``; ``a`` holds ``x`` at ``i``, ``b`` holds ``y``."""
    weights = weights_from_parts(parts)
    aspects = tuple(weights)
    vectors = [_on(m, aspect, v) for aspect, v in labels]
    names = list(doc_ids(len(vectors) + 1))
    names[i - 1] = "x"
    others = [d for d in names if d != "x"]
    judged = dict(zip(others, vectors))
    judged["x"] = _on(m, t, value)
    judged["y"] = _on(m, t2, value)
    b = [("y" if d == "x" else d) for d in names]
    return Case(multi_topic(judged, weights), Ranking.trusted(names), Ranking.trusted(b), (i,),
                f"b = a with x replaced by y at position {i}; r(x, {aspects[t]}) = "
                f"r(y, {aspects[t2]}) = {value}, w({aspects[t2]}) = {weights[aspects[t2]]} > "
                f"w({aspects[t]}) = {weights[aspects[t]]}; no other document is relevant to either")


@case_strategy
def aspect_relevance_cases(draw: Draw, scope: Scope) -> Case:
    """AspRel: no overlap; ``a`` holds ``x`` (relevant to ``t`` only) at position ``i``; ``b``
    holds ``y`` there, ``r(y, t') = r(x, t)``, ``w(t') > w(t)``; no other document is relevant
    to ``t`` or ``t'``."""
    m = draw.integer(2, 3)
    t, t2 = _distinct_pair(draw, m)
    others = [j for j in range(m) if j not in (t, t2)]
    parts = [1] * m
    parts[t] = draw.integer(1, 3)
    parts[t2] = parts[t] + draw.integer(1, 3)  # w(t') > w(t) by construction
    for j in others:
        parts[j] = draw.integer(1, 4)
    last = scope.last_position(scope.max_docs)
    if last < 1:
        draw.reject()
    values = value_levels(scope)
    aspects = [None, *others]

    def label() -> tuple[int | None, Fraction]:
        return draw.choice(aspects), draw.choice(values)

    before = draw.sized(0, last - 1, label)
    value = draw.choice(values)
    after = draw.sized(0, scope.max_docs - len(before) - 1, label)
    return _aspect_relevance_case([*before, *after], len(before) + 1, m, t, t2, value, parts)


def aspect_relevance_small_scope(scope: Scope, max_docs: int = 3) -> Iterator[ScopeItem]:
    """Every AspRel case with up to ``max_docs`` documents on two aspects (weights 1/3 and 2/3,
    either way round) or three (weights 1/4, 1/2, 1/4, the others possibly relevant to ``t3``),
    with ``r(x, t)`` in the two simplest values; shortest first, a :class:`ScopeMark` after each
    length. With ``scope.grow``, longer rankings follow."""
    values = value_levels(scope)
    settings = [(2, 0, 1, (1, 2)), (2, 1, 0, (2, 1)), (3, 0, 1, (1, 2, 1))]

    def layer(n: int) -> Iterator[Case]:
        for m, t, t2, parts in settings:
            choices = [(None, ZERO)] + [(aspect, values[0]) for aspect in range(m)
                                        if aspect not in (t, t2)]
            for i in range(1, scope.last_position(n) + 1):
                for labels in itertools.product(choices, repeat=n - 1):
                    for value in values[:2]:
                        yield _aspect_relevance_case(labels, i, m, t, t2, value, parts)

    return layered(layer, 1, max_docs, scope)
