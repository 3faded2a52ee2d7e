"""Cases for the relative (novelty) properties: a topic, rankings and the other systems' rankings.

definitions §6. Every case carries a :class:`~axiometer.core.Context` (the
OTHER systems' rankings, 0..3 of them); the prior-position cases give ``b``
its own context (``context_b``), where one prior ranking has a document moved.
Cases are built so that each property's conditions hold by construction (no
filtering), and documents are named ``d1, d2, ...``: the evaluated ranking
``a`` is ``d1..dn`` in order, and documents only other systems retrieve
(and Rarity's replacement) are numbered after them in order of first
appearance, so that shrunk counterexamples read easily.

The *window* ``k`` is ``scope.max_position`` (the metric's cutoff; ``None``:
unbounded). It plays both roles the properties need: positions of the
evaluated ranking the construction touches stay ``<= k``, and "retrieved by a
prior ranking within its cutoff" means within its first ``k`` positions
(rareness counts within ``k``, NRG's prior depth is its base's ``K``).

- :func:`relative_cases` / :func:`relative_small_scope`: any ranking in any
  context (Rev, Unique, Finite, Bounded);
- :func:`extreme_small_scope`: the extremes of the stated ranges (all-relevant
  rankings filling the window, retrieved by nobody else or by everybody) and
  the awkward contexts (empty, empty rankings, the evaluated ranking itself);
- :func:`rarity_cases` / :func:`rarity_small_scope`: a retrieved relevant
  document replaced by an equally relevant one retrieved, within ``k``, by
  strictly fewer other systems;
- :func:`prior_move_cases` / :func:`prior_move_small_scope`: a relevant
  document the evaluated ranking retrieves within ``k`` moved inside one prior
  ranking (PriorSens: to another position within ``k``; PriorMono: deeper, or
  out). The documents the move shifts are non-relevant fillers, so the move
  changes nothing else a relevance-based metric could see.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any


from axiometer.core import Context, Ranking
from axiometer.generators.building import single_topic
from axiometer.generators.case import Case, Scope, ScopeItem, layered
from axiometer.generators.draw import CaseStrategy, Draw, case_strategy

__all__ = ["LEVELS", "MAX_PRIORS", "relative_cases", "relative_small_scope", "extreme_small_scope",
           "rarity_cases", "rarity_small_scope", "prior_move_cases", "prior_sensitivity_cases",
           "prior_monotonicity_cases", "prior_move_small_scope",
           "window", "longest_ranking"]

#: Relevance values of the relative cases, simplest first (binary 1, then a second grade).
LEVELS: tuple[Fraction, ...] = (Fraction(0), Fraction(1), Fraction(1, 2))
POSITIVE: tuple[Fraction, ...] = LEVELS[1:]
#: At most this many other systems in a context.
MAX_PRIORS = 3
#: Documents only other systems may retrieve, besides the evaluated ranking's own.
EXTRA = 3
#: The longest evaluated ranking the random search builds (it reaches ``k + 2`` up to this).
LONGEST = 16


def window(scope: Scope) -> int | None:
    """The window ``k`` (``None``: no cutoff)."""
    return scope.max_position


def longest_ranking(scope: Scope) -> int:
    """How long the random search's rankings get: past the window by 2, so cutoffs show."""
    k = window(scope)
    return min(LONGEST, max(scope.max_docs, (k or 0) + 2))


def _case(a: Sequence[str], b: Sequence[str], values: dict[str, Fraction],
          context: Sequence[Sequence[str]], context_b: Sequence[Sequence[str]] | None,
          changed: tuple[int, ...], note: str) -> Case:
    """Rename provisional ids to ``d1, d2, ...`` by first appearance and build the case.

    ``values`` gives ``r`` of every provisional id (fillers: 0); the topic
    judges exactly the documents that appear. ``note`` may name provisional
    ids in braces (``{x}``), replaced by their final names.
    """
    names: dict[str, str] = {}
    for ranking in (a, b, *context, *(context_b or ())):
        for doc in ranking:
            if doc not in names:
                names[doc] = f"d{len(names) + 1}"

    def rename(ranking: Sequence[str]) -> Ranking:
        return Ranking(names[d] for d in ranking)

    topic = single_topic({names[d]: values[d] for d in names})
    ctx = Context(tuple(rename(r) for r in context))
    ctx_b = None if context_b is None else Context(tuple(rename(r) for r in context_b))
    return Case(topic, rename(a), rename(b), changed, note.format(**names), ctx, ctx_b)


# -- any ranking in any context -------------------------------------------------------------------

def _general(values_a: Sequence[Fraction], values_extra: Sequence[Fraction],
             priors: Sequence[Sequence[int]], note: str = "a generated context") -> Case:
    """``a = a0..a(n-1)``; prior entries index the pool ``a0.., e0..``."""
    a = [f"a{i}" for i in range(len(values_a))]
    pool = a + [f"e{j}" for j in range(len(values_extra))]
    values = dict(zip(pool, [*values_a, *values_extra]))
    context = [[pool[i] for i in prior] for prior in priors]
    return _case(a, a, values, context, None, (), note)


@case_strategy
def relative_cases(draw: Draw, scope: Scope) -> Case:
    """Any ranking (``0 .. k+2`` documents) in any context of ``0..3`` prior rankings.

    The priors draw from the evaluated ranking's documents and ``EXTRA``
    others, up to ``k + 2`` each, so documents past a prior's cutoff occur.
    Shrinks to the empty ranking in the empty context.
    """
    longest = longest_ranking(scope)
    values_a = draw.sized(0, longest, lambda: draw.choice(LEVELS))
    values_extra = [draw.choice(LEVELS) for _ in range(EXTRA)]
    pool = len(values_a) + EXTRA
    priors = draw.sized(0, MAX_PRIORS, lambda: draw.distinct(pool, 0, min(pool, longest)))
    return _general(values_a, values_extra, priors)


def _small_contexts(n: int) -> list[tuple[str, list[list[int]]]]:
    """The small scope's contexts over a pool ``a0..a(n-1), e0`` (``e0`` relevant)."""
    a = list(range(n))
    e = n
    contexts: list[tuple[str, list[list[int]]]] = [
        ("the empty context", []),
        ("a context of one empty ranking", [[]]),
        ("the evaluated ranking itself as the context", [a]),
        ("one other system retrieving only a document a lacks", [[e]]),
        ("the evaluated ranking twice", [a, a]),
        ("three systems: a, another's document, an empty ranking", [a, [e], []]),
    ]
    if n >= 1:
        contexts.append(("the first document retrieved by another system", [a[:1]]))
    if n >= 2:
        contexts.append(("the evaluated ranking reversed", [a[::-1]]))
        contexts.append(("systems retrieving the first and the last document", [a[:1], a[-1:]]))
    return contexts


def relative_small_scope(scope: Scope, max_docs: int = 3) -> Iterator[ScopeItem]:
    """Every binary ranking of ``0..max_docs`` documents in each of the small contexts; shortest first,
    a :class:`ScopeMark` after each length. With ``scope.grow``, longer rankings follow."""
    def layer(n: int) -> Iterator[Case]:
        for values in itertools.product(LEVELS[:2], repeat=n):
            for text, priors in _small_contexts(n):
                yield _general(values, (Fraction(1),), priors, f"context: {text}")

    return layered(layer, 0, max_docs, scope)


def extreme_small_scope(scope: Scope) -> Iterator[Case]:
    """The extremes of the stated ranges, for ``S = 1..4`` systems.

    A ranking of relevant documents filling the window (``k``, or
    ``scope.max_docs`` without a cutoff), one longer, and one of non-relevant
    documents; each retrieved by nobody else (the other systems retrieve
    non-relevant fillers only, or nothing) and by everybody.
    """
    k = window(scope) or scope.max_docs
    # S = 2 first: a claim broken there reads better than at the degenerate S = 1 (no other system).
    for systems in (*range(2, MAX_PRIORS + 2), 1):
        others = systems - 1
        for length, value in ((k, Fraction(1)), (k + 1, Fraction(1)), (k, Fraction(0))):
            values = [value] * length
            if not others:
                yield _general(values, (), [], f"{length} documents with r = {value}, S = 1 (no other system)")
                continue
            fillers = [Fraction(0)] * others
            yield _general(values, fillers, [[length + j] for j in range(others)],
                           f"{length} documents with r = {value}, S = {systems}, "
                           "retrieved by no other system (the others retrieve one non-relevant document)")
            yield _general(values, (), [[] for _ in range(others)],
                           f"{length} documents with r = {value}, S = {systems}, the others retrieve nothing")
            yield _general(values, (), [list(range(length))] * others,
                           f"{length} documents with r = {value}, S = {systems}, "
                           "every other system retrieves the same ranking")


# -- Rarity -----------------------------------------------------------------------------------------

def _rarity_case(values_a: Sequence[Fraction], i: int, prior_rest: Sequence[Sequence[str]],
                 x_at: Sequence[int | None], y_at: Sequence[int | None],
                 deep: Sequence[str | None], k: int | None, extra_values: dict[str, Fraction]) -> Case:
    """``a`` with ``x = a(i-1)``; ``b`` = ``a`` with ``x`` replaced by ``y`` (``r(y) = r(x)``).

    ``x_at[j]``/``y_at[j]``: 1-based position of ``x``/``y`` within prior ``j``'s
    first ``k`` (``None``: not there). ``deep[j]``: ``"x"``/``"y"`` puts that
    document at position ``k + 1`` of prior ``j`` (retrieved, but past the cutoff).
    """
    a = [f"a{m}" for m in range(len(values_a))]
    x = a[i - 1]
    values = dict(zip(a, values_a))
    values.update(extra_values)
    values["y"] = values[x]
    b = list(a)
    b[i - 1] = "y"
    context = []
    for j, rest in enumerate(prior_rest):
        prior = [d for d in rest if d not in (x, "y")]
        for doc, at in sorted(((x, x_at[j]), ("y", y_at[j])), key=lambda t: t[1] or 0):
            if at is not None:
                prior.insert(min(at, len(prior) + 1) - 1, doc)
        if k is not None:
            # Equal positions push the second document inserted past k. Moving it back to k would
            # push whatever sits at k out, the other of x and y included: swap it with the last
            # document within the cutoff that is neither.
            for doc in (x, "y"):
                if doc in prior and prior.index(doc) >= k:
                    slot = max(m for m in range(k) if prior[m] not in (x, "y"))
                    at = prior.index(doc)
                    prior[slot], prior[at] = prior[at], prior[slot]
        if deep[j] is not None and k is not None:
            while len(prior) < k:
                filler = f"f{j}_{len(prior)}"
                values[filler] = Fraction(0)
                prior.append(filler)
            prior = prior[:k] + [x if deep[j] == "x" else "y"]
        context.append(prior)
    cx = sum(p is not None for p in x_at)
    cy = sum(p is not None for p in y_at)
    return _case(a, b, values, context, None, (i,),
                 f"b = a with {{{x}}} at position {i} replaced by {{y}} (equally relevant); "
                 f"within the cutoff {cx} other system(s) retrieve {{{x}}}, {cy} retrieve {{y}}")


def _pool_docs(n: int, indices: Sequence[int]) -> list[str]:
    pool = [f"a{m}" for m in range(n)] + [f"e{j}" for j in range(EXTRA)]
    return [pool[m] for m in indices]


@case_strategy
def rarity_cases(draw: Draw, scope: Scope) -> Case:
    """Rarity: ``x`` relevant at position ``i <= k`` of ``a``; ``y`` equally relevant, not in ``a``.

    ``M = 1..3`` other systems; ``x`` is retrieved within the cutoff by
    ``cx >= 1`` of them, ``y`` by ``cy < cx`` (chosen priors, positions
    ``<= k``); a prior not counting a document may still hold it just past
    the cutoff (position ``k + 1``). Shrinks to ``a = (x)``, one prior ``(x)``.
    """
    k = window(scope)
    n = draw.integer(1, max(1, scope.max_docs))
    i = draw.integer(1, n if k is None else min(n, k))
    values_a = [draw.choice(LEVELS) for _ in range(n)]
    values_a[i - 1] = draw.choice(POSITIVE)
    extra_values = {f"e{j}": draw.choice(LEVELS) for j in range(EXTRA)}
    m = draw.integer(1, MAX_PRIORS)
    cx = draw.integer(1, m)
    depth = scope.max_docs if k is None else k
    x_holders = set(draw.permutation(range(m))[:cx])
    # With a window of 1 a prior holds only one document within the cutoff: y goes elsewhere.
    candidates = [j for j in range(m) if depth > 1 or j not in x_holders]
    cy = draw.integer(0, min(cx - 1, len(candidates)))
    y_holders = set(draw.permutation(candidates)[:cy])
    pool = n + EXTRA
    prior_rest, x_at, y_at, deep = [], [], [], []
    for j in range(m):
        rest = draw.distinct(pool, 0, min(pool, depth))
        prior_rest.append(_pool_docs(n, rest))
        x_at.append(draw.integer(1, depth) if j in x_holders else None)
        y_at.append(draw.integer(1, depth) if j in y_holders else None)
        choices = [None] + (["x"] if j not in x_holders else []) + (["y"] if j not in y_holders else [])
        deep.append(draw.choice(choices) if k is not None else None)
    return _rarity_case(values_a, i, prior_rest, x_at, y_at, deep, k, extra_values)


def rarity_small_scope(scope: Scope, max_docs: int = 3) -> Iterator[ScopeItem]:
    """Rarity cases with ``1..max_docs`` binary documents and one or two other systems; shortest first,
    a :class:`ScopeMark` after each length. With ``scope.grow``, longer rankings follow.

    Other systems retrieve only ``x``/``y`` (at positions 1 or 2, either first)
    or also the evaluated ranking's documents; ``y`` is retrieved by a subset
    of ``x``'s holders (the first or the last of them): with at most two other
    systems and ``cy < cx``, a system holding ``y`` but not ``x`` is left to the
    random search.
    """
    k = window(scope)

    def layer(n: int) -> Iterator[Case]:
        last = n if k is None else min(n, k)
        for i in range(1, last + 1):
            for rest_values in itertools.product(LEVELS[:2], repeat=n - 1):
                values_a = list(rest_values[: i - 1]) + [Fraction(1)] + list(rest_values[i - 1:])
                a_docs = [f"a{m}" for m in range(n) if m != i - 1]
                for m in (1, 2):
                    for cx in range(1, m + 1):
                        for cy in range(cx):
                            for y_first in ((True, False) if cy else (True,)):
                                holders_y = set(range(cy)) if y_first else set(range(m - cy, m))
                                if k == 1 and holders_y & set(range(cx)):
                                    continue  # one position within the cutoff holds x or y, not both
                                shared = holders_y & set(range(cx))
                                for y_ahead, with_rest in itertools.product(
                                        (False, True) if shared and k != 1 else (False,), (False, True)):
                                    # A prior holding both ranks x first, or y first (y then looks
                                    # "seen" at rank 1 to a position-aware metric).
                                    rest = [a_docs if with_rest else [] for _ in range(m)]
                                    x_at = [(2 if y_ahead and j in shared else 1) if j < cx else None
                                            for j in range(m)]
                                    y_at = [(1 if y_ahead or j not in shared else 2) if j in holders_y
                                            else None for j in range(m)]
                                    yield _rarity_case(values_a, i, rest, x_at, y_at, [None] * m, k, {})

    return layered(layer, 1, max_docs, scope)


# -- PriorSens / PriorMono ----------------------------------------------------------------------------

def _prior_move_case(values_a: Sequence[Fraction], i: int, p: int, q: int | None,
                     prefix: Sequence[str], suffix: Sequence[str], others: Sequence[Sequence[str]],
                     target: int, extra_values: dict[str, Fraction]) -> Case:
    """``x = a(i-1)`` at position ``p`` of prior ``target``; in ``b``'s context it is at ``q``.

    The prior is ``prefix + [x at p] + suffix`` with non-relevant fillers
    between ``p`` and ``q`` (the documents the move shifts); ``q = None``
    replaces ``x`` by a non-relevant filler (moved out of the prior).
    """
    a = [f"a{m}" for m in range(len(values_a))]
    x = a[i - 1]
    values = dict(zip(a, values_a))
    values.update(extra_values)
    shift = 0 if q is None else abs(q - p)
    fillers = [f"f{m}" for m in range(max(shift, 1))]
    for filler in fillers:
        values[filler] = Fraction(0)
    prefix = [d for d in prefix if d != x][: (p if q is None else min(p, q)) - 1]
    suffix = [d for d in suffix if d != x and d not in prefix]
    if q is None:
        before, after = prefix + [x] + suffix, prefix + [fillers[0]] + suffix
        how = f"replaced by the non-relevant {{{fillers[0]}}} (moved out of it)"
    elif q > p:
        before = prefix + [x] + fillers[:shift] + suffix
        after = prefix + fillers[:shift] + [x] + suffix
        how = f"moved from position {p} to {q}"
    else:
        before = prefix + fillers[:shift] + [x] + suffix
        after = prefix + [x] + fillers[:shift] + suffix
        how = f"moved from position {p} to {q}"
    context = [list(prior) for prior in others]
    context.insert(target, before)
    context_b = [list(prior) for prior in others]
    context_b.insert(target, after)
    between = "" if q is None else f" (the {shift} document(s) it passes are non-relevant)"
    return _case(a, a, values, context, context_b, (i,),
                 f"a = b; b is scored with {{{x}}} (a's position {i}) in prior s{target + 1} {how}"
                 f"{between}")


def _prior_move(draw: Draw, scope: Scope, deeper: bool) -> Case:
    """A relevant ``x`` at position ``i <= k`` of ``a``, at position ``p <= k`` of one prior.

    ``deeper=False`` (PriorSens): ``x`` moves to another position ``q <= k``
    of that prior. ``deeper=True`` (PriorMono): it moves deeper, ``q > p``
    (possibly past ``k``), or out of the prior. The prior's first
    ``min(p, q) - 1`` positions and what follows hold pool documents; other
    priors (``0..2``) are any rankings over the pool, ``x`` included.
    """
    k = window(scope)
    depth = scope.max_docs if k is None else k
    if not deeper and depth < 2:
        draw.reject()  # no second position within the cutoff
    n = draw.integer(1, max(1, scope.max_docs))
    i = draw.integer(1, n if k is None else min(n, k))
    values_a = [draw.choice(LEVELS) for _ in range(n)]
    values_a[i - 1] = draw.choice(POSITIVE)
    extra_values = {f"e{j}": draw.choice(LEVELS) for j in range(EXTRA)}
    # Drawn as (position, distance) so that shrinking reaches p = 1, q = 2.
    if deeper:
        p = draw.integer(1, depth)
        step = draw.integer(1, depth + 2 - p)  # drawn either way: a fixed number of choices
        q = None if draw.boolean() else p + step
    else:
        low = draw.integer(1, depth - 1)
        high = draw.integer(low + 1, depth)
        p, q = (high, low) if draw.boolean() else (low, high)
    pool = n + EXTRA
    prefix = _pool_docs(n, draw.distinct(pool, 0, min(pool, depth)))
    suffix = _pool_docs(n, draw.distinct(pool, 0, 3))
    count = draw.integer(0, MAX_PRIORS - 1)
    others = [_pool_docs(n, draw.distinct(pool, 0, min(pool, depth + 1))) for _ in range(count)]
    target = draw.integer(0, count)
    needed = (p if q is None else min(p, q)) - 1
    prefix = [d for d in prefix if d != f"a{i - 1}"]
    # Pad the prefix with non-relevant documents so that x sits exactly at position p (b: q).
    pads = [f"g{m}" for m in range(max(0, needed - len(prefix)))]
    for pad in pads:
        extra_values[pad] = Fraction(0)
    return _prior_move_case(values_a, i, p, q, prefix + pads, suffix, others, target, extra_values)


#: PriorSens's random cases (``x`` moves within the cutoff) and PriorMono's (it moves deeper or out).
prior_sensitivity_cases = CaseStrategy(lambda draw, scope: _prior_move(draw, scope, False),
                                       "prior_sensitivity_cases")
prior_monotonicity_cases = CaseStrategy(lambda draw, scope: _prior_move(draw, scope, True),
                                        "prior_monotonicity_cases")


def prior_move_cases(scope: Scope, deeper: bool) -> Any:
    """The hypothesis strategy of :func:`_prior_move`'s cases (PriorMono's with ``deeper``)."""
    return (prior_monotonicity_cases if deeper else prior_sensitivity_cases)(scope)


def prior_move_small_scope(scope: Scope, deeper: bool, max_docs: int = 3) -> Iterator[ScopeItem]:
    """Prior moves with ``1..max_docs`` binary documents, ``x`` at positions ``p, q <= 3`` of one prior
    (filled with non-relevant documents), alone or beside ``a`` itself; shortest first, a
    :class:`ScopeMark` after each length. With ``scope.grow``, longer rankings follow."""
    k = window(scope)
    depth = min(3, scope.max_docs if k is None else k)

    def layer(n: int) -> Iterator[Case]:
        last = n if k is None else min(n, k)
        for i in range(1, last + 1):
            for rest_values in itertools.product(LEVELS[:2], repeat=n - 1):
                values_a = list(rest_values[: i - 1]) + [Fraction(1)] + list(rest_values[i - 1:])
                a = [f"a{m}" for m in range(n)]
                for p in range(1, depth + 1):
                    if deeper:
                        moves: list[int | None] = [None, *range(p + 1, depth + 2)]
                    else:
                        moves = [q for q in range(1, depth + 1) if q != p]
                    for q in moves:
                        needed = (p if q is None else min(p, q)) - 1
                        pads = [f"g{m}" for m in range(needed)]
                        pad_values = {pad: Fraction(0) for pad in pads}
                        for others in ([], [a]):
                            yield _prior_move_case(values_a, i, p, q, pads, [], others, 0, pad_values)

    return layered(layer, 1, max_docs, scope)
