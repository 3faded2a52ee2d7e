"""The case structures of AspDiv, Red, MRed, Sat and AspRel (several aspects, real values).

Each function yields every structure of its constraint up to the given size,
shortest first (by the length of the longer ranking), with the positions the
construction changes inside the window ``last`` (the metric's cutoff in
window mode; ``None``: unbounded) — the cases of the generators of
:mod:`axiometer.generators.diversity`, with every relevance value a real
symbol instead of a level from a list (definitions §3b). Which document is
relevant to which aspect is part of the structure, in every combination the
constraint allows; every positive value is its own symbol unless the
constraint makes two equal (Red's ``rc``, ``r(x, t) = r(y, t')``, an
unchanged aspect of AspDiv's replaced document). Aspect weights are symbols
too where the constraint says nothing about them (AspDiv, Sat, AspRel): any
positive reals summing to 1, with AspRel's ``w(t') > w(t)``; Red and MRed
assume balanced aspects. Every ordering of the aspects' roles is enumerated
(``t = t1`` and ``t = t2`` alike), so a metric's aspect order is covered too.

Red's and MRed's topics also judge documents no ranking retrieves
(``u1, u2, ...``, up to ``max_unretrieved``), as the generators do: they
change each aspect's number of relevant documents, which metrics normalised
per aspect (nDCG-IA, AP-IA) depend on. Which aspects they are relevant to is
part of the structure; being unretrieved, only the multiset of their patterns
matters.

Source: Amigó, Spina & Carrillo-de-Albornoz, SIGIR 2018, section 3.3, Eqs. 6-10.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from axiometer.core import Ranking
from axiometer.generators.building import doc_ids
from axiometer.generators.diversity import aspect_names
from axiometer.proofs.structure import Cell, Structure, aspect_structure

__all__ = ["aspect_diversity_structures", "redundancy_structures", "monotonic_redundancy_structures",
           "saturation_structures", "aspect_relevance_structures"]

#: How the replaced document's value on one aspect changes in AspDiv: (old, new).
_KEPT_ZERO, _RAISED_FROM_ZERO, _KEPT, _RAISED = "0 -> 0", "0 -> r'", "r -> r", "r -> r' > r"
_CHANGES = (_KEPT_ZERO, _RAISED_FROM_ZERO, _KEPT, _RAISED)

#: One document's values, one cell per aspect.
Row = tuple[Cell, ...]


def _window(n: int, last: int | None) -> int:
    return n if last is None else min(n, last)


def _room(max_prefix: int, last: int | None) -> int:
    """The longest prefix whose next position (the changed one) lies inside the window."""
    return max_prefix if last is None else min(max_prefix, last - 1)


def _name(doc: str, aspect: str) -> str:
    return f"r({doc},{aspect})"


def _on(aspects: Sequence[str], index: int | None, cell: Cell) -> Row:
    """The row relevant (``cell``) to the aspect ``index`` only (no aspect for ``None``)."""
    return tuple(cell if j == index else None for j in range(len(aspects)))


def _structure(cells: dict[str, Row], aspects: tuple[str, ...], a: Ranking, b: Ranking,
               changed: tuple[int, ...], note: str, high: Fraction, **options: Any) -> Structure:
    """:func:`aspect_structure`, its note ending with the aspects and which of them each judged
    document is relevant to (``d1 t1+t3, d2 -``), so that a structure left undecided can be named."""
    pattern = ", ".join(f"{doc} " + ("+".join(t for t, c in zip(aspects, row) if c is not None) or "-")
                        for doc, row in cells.items())
    described = f"{note} [T = {{{', '.join(aspects)}}}; relevant: {pattern}]"
    return aspect_structure(cells, aspects, a, b, changed, described, high, **options)


def _free_weights(aspects: Sequence[str]) -> tuple[str, ...] | None:
    """Weight symbols ``w(t)`` for a constraint that assumes nothing about weights (one aspect: 1)."""
    return None if len(aspects) == 1 else tuple(f"w({t})" for t in aspects)


# -- AspDiv (Eq. 6) -------------------------------------------------------------

def _dominating(m: int) -> Iterator[tuple[str, ...]]:
    """Per aspect, how ``d_i`` becomes ``d'``: ``r(d', t) >= r(d_i, t)`` everywhere, ``>`` somewhere."""
    for changes in itertools.product(_CHANGES, repeat=m):
        if any(c in (_RAISED_FROM_ZERO, _RAISED) for c in changes):
            yield changes


def _replaced_rows(old: str, new: str, aspects: Sequence[str],
                   changes: Sequence[str]) -> tuple[Row, Row, list[tuple[str, str]]]:
    """The rows of ``d_i`` and ``d'``, and the pairs ``(new, old)`` of symbols with ``new > old``."""
    old_row: list[Cell] = []
    new_row: list[Cell] = []
    raised: list[tuple[str, str]] = []
    for aspect, change in zip(aspects, changes):
        before = None if change in (_KEPT_ZERO, _RAISED_FROM_ZERO) else _name(old, aspect)
        after = {_KEPT_ZERO: None, _KEPT: before}.get(change, _name(new, aspect))
        old_row.append(before)
        new_row.append(after)
        if change == _RAISED:
            raised.append((_name(new, aspect), _name(old, aspect)))
    return tuple(old_row), tuple(new_row), raised


def aspect_diversity_structures(rho: Fraction, max_docs: int, max_aspects: int,
                                last: int | None) -> Iterator[Structure]:
    """AspDiv: ``a = d1..dn``; ``b`` = ``a`` with ``d_i`` replaced by ``d_i'``, ``r(d_i', t) >=
    r(d_i, t)`` for every ``t`` and ``>`` for some; every value in ``(0, rho]`` (relevance
    contribution), the other documents relevant or not to each aspect; weights free."""
    for n in range(1, max_docs + 1):
        for m in range(1, max_aspects + 1):
            for i in range(1, _window(n, last) + 1):
                for changes in _dominating(m):
                    for pattern in itertools.product(itertools.product((False, True), repeat=m),
                                                     repeat=n - 1):
                        yield aspect_diversity_structure(rho, n, i, changes, pattern)


def aspect_diversity_structure(rho: Fraction, n: int, i: int, changes: Sequence[str],
                               pattern: Sequence[Sequence[bool]]) -> Structure:
    """One AspDiv structure: ``n`` documents, ``d_i`` replaced; ``changes`` (one of ``0 -> 0``,
    ``0 -> r'``, ``r -> r``, ``r -> r' > r`` per aspect) says how, ``pattern`` which aspects each
    other document (in ranking order) is relevant to."""
    docs = doc_ids(n)
    aspects = aspect_names(len(changes))
    old, new = docs[i - 1], f"{docs[i - 1]}'"
    old_row, new_row, raised = _replaced_rows(old, new, aspects, changes)
    rows = iter(pattern)
    cells: dict[str, Row] = {
        doc: old_row if doc == old
        else tuple(_name(doc, t) if on else None for t, on in zip(aspects, next(rows)))
        for doc in docs}
    cells[new] = new_row
    note = f"b = a with {old} replaced by {new}, per aspect " + ", ".join(
        f"{t}: {c}" for t, c in zip(aspects, changes))

    def order(s: dict[str, Any]) -> list[Any]:
        return [s[up] > s[down] for up, down in raised]

    b = Ranking.trusted((*docs[:i - 1], new, *docs[i:]))
    return _structure(cells, aspects, Ranking.trusted(docs), b, (i,), note, rho,
                      weights=_free_weights(aspects), conditions=order)


# -- Red (Eq. 7) and MRed (Eq. 8): a = P + x, b = P + y --------------------------

def _unretrieved(kinds: int, most: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of up to ``most`` unretrieved documents, each of one of ``kinds`` patterns."""
    for k in range(most + 1):
        yield from itertools.combinations_with_replacement(range(kinds), k)


def _prefix_structure(prefix: Sequence[Row], x: Row, y: Row,
                      unretrieved: Sequence[Row], aspects: tuple[str, ...], note: str,
                      high: Fraction, high_open: bool, conditions: Any = None) -> Structure:
    """``a = P + x``, ``b = P + y``; the topic judges ``P`` (``d1, d2, ...``), ``x``, ``y``, ``u1, ...``."""
    docs = doc_ids(len(prefix))
    cells: dict[str, Row] = dict(zip(docs, prefix))
    cells["x"], cells["y"] = x, y
    cells.update(zip(doc_ids(len(unretrieved), "u"), unretrieved))
    return _structure(cells, aspects, Ranking.trusted((*docs, "x")), Ranking.trusted((*docs, "y")),
                      (len(prefix) + 1,), note, high, high_open=high_open, conditions=conditions)


def redundancy_structures(rho: Fraction, max_prefix: int, last: int | None, *, max_aspects: int = 3,
                          max_unretrieved: int = 3, within_rho: bool = False) -> Iterator[Structure]:
    """Red: balanced aspects (2 to ``max_aspects``), no overlap, binary: every relevant value is the
    one symbol ``rc`` in ``(0, 1)`` (the constraint's binary relevance; ``(0, rho]`` under the
    nearby reading ``within_rho``). ``P`` has more documents relevant to ``t`` than to ``t'``
    (each document relevant to one aspect or none); ``x`` relevant to ``t`` only, ``y`` to ``t'``
    only; up to ``max_unretrieved`` unretrieved documents, each relevant to one aspect."""
    high, high_open = (rho, False) if within_rho else (Fraction(1), True)
    for length in range(1, _room(max_prefix, last) + 1):
        for m in range(2, max_aspects + 1):
            aspects = aspect_names(m)
            for t, t2 in itertools.permutations(range(m), 2):
                for labels in itertools.product((None, *range(m)), repeat=length):
                    if labels.count(t) <= labels.count(t2):
                        continue
                    note = (f"a = P + x, b = P + y; P has {labels.count(t)} document(s) relevant to "
                            f"{aspects[t]} and {labels.count(t2)} to {aspects[t2]}; x relevant (rc) to "
                            f"{aspects[t]} only, y to {aspects[t2]} only")
                    prefix = [_on(aspects, label, "rc") for label in labels]
                    for kinds in _unretrieved(m, max_unretrieved):
                        yield _prefix_structure(prefix, _on(aspects, t, "rc"), _on(aspects, t2, "rc"),
                                                [_on(aspects, k, "rc") for k in kinds], aspects, note,
                                                high, high_open)


def _monotonic_prefix(aspects: tuple[str, ...], t: int, both: Sequence[bool]) -> tuple[
        list[Row], list[tuple[str, str]]]:
    """``P``'s rows: ``r(d, t) > 0``, and ``r(d, t') > 0`` too where ``both``; pairs ``(high, low)``."""
    rows: list[Row] = []
    greater: list[tuple[str, str]] = []
    for doc, two in zip(doc_ids(len(both)), both):
        on_t, on_t2 = _name(doc, aspects[t]), _name(doc, aspects[1 - t])
        row = [on_t, on_t2] if two else [on_t, None]
        rows.append(tuple(row) if t == 0 else tuple(reversed(row)))
        if two:
            greater.append((on_t, on_t2))
    return rows, greater


def monotonic_redundancy_structures(rho: Fraction, max_prefix: int, last: int | None, *,
                                    max_unretrieved: int = 3) -> Iterator[Structure]:
    """MRed: two balanced aspects, every value in ``(0, rho]``; a non-empty ``P`` with ``r(d, t) >
    r(d, t')`` for every ``d`` in ``P`` (so ``r(d, t) > 0``; ``r(d, t')`` is 0 or a smaller
    symbol); ``x`` relevant to ``t`` only, ``y`` to ``t'`` only, one symbol ``r(x, t) = r(y, t')``;
    up to ``max_unretrieved`` unretrieved documents relevant to ``t``, ``t'`` or both."""
    aspects = aspect_names(2)
    for length in range(1, _room(max_prefix, last) + 1):
        for t in (0, 1):
            t2 = 1 - t
            shared = _name("x", aspects[t])
            x, y = _on(aspects, t, shared), _on(aspects, t2, shared)
            for both in itertools.product((False, True), repeat=length):
                prefix, greater = _monotonic_prefix(aspects, t, both)
                note = (f"a = P + x, b = P + y; every document of P is more relevant to {aspects[t]} "
                        f"than to {aspects[t2]}; r(x, {aspects[t]}) = r(y, {aspects[t2]}), x relevant "
                        f"to {aspects[t]} only, y to {aspects[t2]} only")

                def order(s: dict[str, Any], greater: list[tuple[str, str]] = greater) -> list[Any]:
                    return [s[high] > s[low] for high, low in greater]

                for kinds in _unretrieved(3, max_unretrieved):
                    unretrieved = [tuple(_name(u, aspect) if k in (j, 2) else None
                                         for j, aspect in enumerate(aspects))
                                   for u, k in zip(doc_ids(len(kinds), "u"), kinds)]
                    yield _prefix_structure(prefix, x, y, unretrieved, aspects, note, rho, False, order)


# -- Sat (Eq. 9) ----------------------------------------------------------------

def saturation_structures(rmax: Fraction, max_prefix: int, max_aspects: int, last: int | None, *,
                          rho: Fraction | None = None) -> Iterator[Structure]:
    """Sat for one ``rmax``: no overlap; ``a = d1..dn`` with ``r(dn, t) = rmax`` (a constant) and
    ``d1..d(n-1)`` each relevant to one aspect or none; ``b = a + x``, ``x`` relevant to ``t``
    only. Values in ``(0, 1]`` (in ``(0, rho]`` under the nearby reading ``values_within_rho``,
    ``rho`` given); weights free. ``max_prefix`` bounds ``len(a)``; the relation is ``Q(a) >= Q(b)``."""
    high = Fraction(1) if rho is None else rho
    for n in range(1, _room(max_prefix, last) + 1):
        docs = doc_ids(n)
        for m in range(1, max_aspects + 1):
            aspects = aspect_names(m)
            for t in range(m):
                for labels in itertools.product((None, *range(m)), repeat=n - 1):
                    cells: dict[str, Row] = {
                        doc: _on(aspects, label, None if label is None else _name(doc, aspects[label]))
                        for doc, label in zip(docs, labels)}
                    cells[docs[-1]] = _on(aspects, t, rmax)
                    cells["x"] = _on(aspects, t, _name("x", aspects[t]))
                    note = (f"b = a + x; the last document of a, {docs[-1]}, has r({docs[-1]}, "
                            f"{aspects[t]}) = rmax = {rmax}; x is relevant to {aspects[t]} only")
                    yield _structure(cells, aspects, Ranking.trusted(docs), Ranking.trusted((*docs, "x")),
                                     (n + 1,), note, high, weights=_free_weights(aspects))


# -- AspRel (Eq. 10) ------------------------------------------------------------

def aspect_relevance_structures(rho: Fraction, max_docs: int, max_aspects: int, last: int | None, *,
                                within_rho: bool = False) -> Iterator[Structure]:
    """AspRel: no overlap, weights free but ``w(t') > w(t)``; ``a`` holds ``x`` (relevant to
    ``t`` only) at position ``i``, ``b`` holds ``y`` there, one symbol ``r(x, t) = r(y, t')``;
    every other document relevant to one aspect other than ``t`` and ``t'``, or to none. Values
    in ``(0, 1]`` (``(0, rho]`` under the nearby reading ``within_rho``)."""
    high = rho if within_rho else Fraction(1)
    for n in range(1, max_docs + 1):
        for m in range(2, max_aspects + 1):
            aspects = aspect_names(m)
            weights = _free_weights(aspects)
            for t, t2 in itertools.permutations(range(m), 2):
                others = [j for j in range(m) if j not in (t, t2)]
                shared = _name("x", aspects[t])

                def heavier(s: dict[str, Any], t: int = t, t2: int = t2) -> list[Any]:
                    return [s[f"w({aspects[t2]})"] > s[f"w({aspects[t]})"]]

                for i in range(1, _window(n, last) + 1):
                    names = list(doc_ids(n - 1))
                    names.insert(i - 1, "x")
                    b = Ranking.trusted(["y" if d == "x" else d for d in names])
                    note = (f"b = a with x replaced by y at position {i}; r(x, {aspects[t]}) = "
                            f"r(y, {aspects[t2]}), w({aspects[t2]}) > w({aspects[t]}); no other "
                            f"document is relevant to either")
                    for labels in itertools.product((None, *others), repeat=n - 1):
                        cells: dict[str, Row] = {
                            doc: _on(aspects, label, None if label is None else _name(doc, aspects[label]))
                            for doc, label in zip(doc_ids(n - 1), labels)}
                        cells["x"], cells["y"] = _on(aspects, t, shared), _on(aspects, t2, shared)
                        yield _structure(cells, aspects, Ranking.trusted(names), b, (i,), note, high,
                                         weights=weights, conditions=heavier)
