"""The abbreviations a report's evidence uses, and what each means, chosen from the data.

A table or check report explains, under "Terms used below" (the page: "Abbreviations"),
the terms its evidence uses (:func:`terms_used`). Which ones is decided from the
typed results it shows, never by reading the text it prints: the cells and checks
whose details it gives (the lines of :func:`~axiometer.reports.table.cells.cell_lines`
and :func:`~axiometer.reports.table.cells.check_lines`, a cell's checks being
:func:`~axiometer.reports.table.cells.shown_checks`), and on the HTML page also the
run's settings (:func:`~axiometer.reports.table.cells.header_lines`) and the boundaries
located (:func:`~axiometer.reports.table.cells.boundary_lines`). What decides each term:

- ``rc``: a DeepTh or CloseTh witness (it serves every ``rc``) or counterexample (its
  ``rc``); a Red counterexample, whose case gives x's ``rc``, and Red's proof formula
  (binary relevance, the symbol ``rc``); the nearby readings that name it (each ``rc``
  on its own; Red's declared reading, ``rc <= rho``); a threshold boundary's decisive case.
- ``n, m, D``: a DeepTh or CloseTh witness (its ``n`` or ``m``, the sign of ``D`` per
  ``rc``) or counterexample (its ``n`` or ``m``, the sign of ``D`` along the grid); a
  threshold boundary's decisive case.
- ``rmax``: a Sat witness (its ``rmax``) or counterexample (every Sat case names the
  ``rmax`` of its last document); a Sat boundary's decisive case.
- ``rho``: the run's ``rho`` setting (the page's header), and the nearby readings that
  bound relevance by it (a tighter rho; Red's declared reading).
- ``proved``: a shown check or boundary side that rests on a proof (strength
  ``proved``), a holding check whose proof did not succeed (``not proved: ...``), a
  cell proved at its default setting only.
- ``small scope``: a satisfied check's small-scope cases; an evidence whose scope names
  the small scope (:attr:`Evidence.small_scope_named <axiometer.results.Evidence>`); a
  check's note that speaks of it (:attr:`Check.small_scope_noted
  <axiometer.results.Check>`); a boundary side's small-scope cases; the page's budget
  line (:attr:`TableResult.small_scope_budget <axiometer.results.TableResult>`).
- ``window / truncate mode``: a shown check's own line (its mode), a cell's verdict in
  the other cutoff mode, the other-mode nearby reading.
- ``decided on floats``: a counterexample compared on floats (:class:`~axiometer.results.Decided`),
  an evidence or boundary side whose ties were decided on floats (``exact`` false).
- ``P, x, y``: a Red or MRed counterexample (their cases are ``a = P + x``, ``b = P + y``).
- ``explanation``: a cell with an explanation (a nearby reading, or why there is none).

A metric author's own text (an error message, what the metric printed, a parameter's
name) is shown as it is and explains nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from axiometer.reports.table.cells import decision_shown, shown_checks
from axiometer.reports.table.proofs import check_proved, formulas, unproved_setting
from axiometer.results import (HOLDS, Boundary, Cell, Check, Counterexample, Decided, Evidence, NearbyReading,
                               Side, Strength, TableResult, Verdict, Witness)

__all__ = ["TERMS", "terms_used"]

RC, NMD, RMAX, RHO, PROVED = "rc", "n, m, D", "rmax", "rho", "proved"
SMALL, MODE, FLOATS, PXY, EXPLANATION = ("small scope", "window / truncate mode", "decided on floats", "P, x, y",
                                         "explanation")

#: ``(term, meaning)`` for every term a report may explain, in the order it lists them.
TERMS: tuple[tuple[str, str], ...] = (
    (RC, "the relevance of the case's relevant documents under binary relevance (DeepTh and "
         "CloseTh try 1/100, 1/20 and 1/10, and every one must hold)"),
    (NMD, "DeepTh/CloseTh's pair a_n = one relevant document then 2n-1 non-relevant ones, b_n = n "
          "non-relevant then n relevant (m for CloseTh); D = Q(a) - Q(b), its sign listed along "
          "the grid of n (DeepTh holds when D > 0 from some n on; CloseTh when D < 0 at some m)"),
    (RMAX, "Sat's relevance of the last document of a: Sat holds when some rmax (tried 1, 0.99, 0.9, "
           "0.75, 0.5) keeps Q(a) >= Q(b) for every appended x; 'no rmax candidate holds' means "
           "each of them failed"),
    (RHO, "the largest non-zero relevance in cases of constraints that assume the paper's "
          "relevance contribution (r ≪ 1)"),
    (PROVED, "decided for every real relevance value in (0, rho], not only the values searched: every "
             "case structure up to the stated size decided by a complete procedure for real arithmetic, "
             "or every ranking length by a lemma; the metric's floating-point rounding is not part of "
             "it. 'not proved' says why a proof tried did not succeed (the search's verdict stands)"),
    (SMALL, "every case up to a small size, enumerated exhaustively, besides the random cases"),
    (MODE, "window: every position a case changes lies within the metric's cutoff k; truncate: the "
           "metric sees the whole ranking, so documents past k are cut off"),
    (FLOATS, "the scores were compared as floats within the stated tolerance (no exact value), "
             "not exactly"),
    (PXY, "Red and MRed's cases: a prefix P, then one document x (in a) or y (in b)"),
    (EXPLANATION, "a nearby reading of the constraint (a narrower case, a parameter, the other cutoff "
                  "mode) under which the metric satisfies it"),
)

#: The cutoff modes a check's line names ("window mode", "truncate mode").
_MODES = frozenset({"window", "truncate"})
#: What a constraint's cases say in their note, beyond a counterexample's typed fields: Red's
#: and MRed's are ``a = P + x, b = P + y`` (Red's with x's ``rc``), Sat's name their ``rmax``.
_CASE_TERMS: Mapping[str, frozenset[str]] = {"Red": frozenset({RC, PXY}), "MRed": frozenset({PXY}),
                                             "Sat": frozenset({RMAX})}
#: What a constraint's proof formula declares: Red's structures are binary, their relevance the symbol ``rc``.
_FORMULA_TERMS: Mapping[str, frozenset[str]] = {"Red": frozenset({RC})}
#: What a constraint's declared nearby reading says: Red's bounds its ``rc`` by ``rho``.
_READING_TERMS: Mapping[str, frozenset[str]] = {"Red": frozenset({RC, RHO})}
#: What the other nearby readings say: each ``rc`` alone, a tighter ``rho``, the other cutoff mode.
_NEARBY_TERMS: Mapping[NearbyReading, frozenset[str]] = {
    NearbyReading.SINGLE_RC: frozenset({RC}), NearbyReading.TIGHTER_RHO: frozenset({RHO}),
    NearbyReading.OTHER_MODE: frozenset({MODE})}
#: What a boundary's decisive case names: a threshold's pair (``n = 6, rc = 1/10``), Sat's ``rmax``.
_DECISIVE_TERMS: Mapping[str, frozenset[str]] = {"DeepTh": frozenset({RC, NMD}), "CloseTh": frozenset({RC, NMD}),
                                                 "Sat": frozenset({RMAX})}


def terms_used(entries: Iterable[Cell | Check], header: TableResult | None = None,
               boundaries: bool = False) -> list[tuple[str, str]]:
    """``(term, meaning)`` for every term of :data:`TERMS` that the shown evidence uses, in that order.

    ``entries``: the cells and checks whose details are shown (a check alone is shown without its
    first line, the one naming its mode); ``header``: the result whose settings are shown too;
    ``boundaries``: the cells' boundaries are shown too (the page).
    """
    used = set(_header_terms(header)) if header is not None else set()
    for entry in entries:
        if isinstance(entry, Check):
            used |= _check_terms(entry, mode_line=False)
            continue
        used |= _cell_terms(entry)
        if boundaries:
            used |= _boundary_terms(entry)
    return [(term, meaning) for term, meaning in TERMS if term in used]


def _header_terms(result: TableResult) -> set[str]:
    """The run's settings: ``rho`` when it states the relevance contribution, ``small scope`` when
    its budget states small-scope cases."""
    used = {RHO} if "rho" in dict(result.settings) else set()
    if result.small_scope_budget is not None:
        used.add(SMALL)
    return used


def _cell_terms(cell: Cell) -> set[str]:
    """What a cell shows: its verdict in the other cutoff mode, its explanation (and what the
    nearby reading names), the note on a setting not proved, and each of its shown checks."""
    used: set[str] = set()
    default = cell.default_check
    if cell.other_mode is not None and default is not None and default.mode in _MODES:
        used.add(MODE)
    if cell.explanation:
        used |= {EXPLANATION, *_reading_terms(cell)}
    if unproved_setting(cell) is not None:
        used.add(PROVED)
    for check in shown_checks(cell):
        used |= _check_terms(check)
    return used


def _reading_terms(cell: Cell) -> frozenset[str]:
    """What the nearby reading an explanation states names: the constraint's declared reading
    (:data:`_READING_TERMS`), or one of the others (:data:`_NEARBY_TERMS`); nothing when there is none."""
    if cell.reading is None:
        return frozenset()
    if cell.reading is NearbyReading.CONSTRAINT:
        return _READING_TERMS.get(cell.constraint, frozenset())
    return _NEARBY_TERMS.get(cell.reading, frozenset())


def _check_terms(check: Check, mode_line: bool = True) -> set[str]:
    """What a check shows: its mode (``mode_line``), its counterexample, witness or case counts,
    what its verdict rests on, why it is not proved, its proof's formula and its note."""
    used = {MODE} if mode_line and check.mode in _MODES else set()
    if check.counterexample is not None:
        used |= _counterexample_terms(check.constraint, check.counterexample)
    elif check.witness is not None:
        used |= _witness_terms(check.witness)
    elif check.error is None and check.verdict == Verdict.SATISFIED and check.small_scope:
        used.add(SMALL)  # "no counterexample in ... small-scope cases"
    if check.evidence is not None:
        used |= _evidence_terms(check.evidence)
    if check.holds and check.unproved and not check_proved(check):
        used.add(PROVED)  # "not proved: ..."
    if formulas(check):
        used |= _FORMULA_TERMS.get(check.constraint, frozenset())
    if check.small_scope_noted:
        used.add(SMALL)
    return used


def _counterexample_terms(constraint: str, cx: Counterexample) -> set[str]:
    """A counterexample: what its case names (:data:`_CASE_TERMS`), its threshold pair (``rc``, ``n`` or
    ``m``, the signs of ``D``), Sat's ``rmax``, and how its comparison was decided."""
    used = set(_CASE_TERMS.get(constraint, frozenset()))
    if cx.rc is not None:
        used.add(RC)
    if cx.threshold is not None or cx.signs:
        used.add(NMD)
    if cx.rmax is not None:
        used.add(RMAX)
    if cx.decided == Decided.FLOAT and decision_shown(cx):
        used.add(FLOATS)
    return used


def _witness_terms(witness: Witness) -> set[str]:
    """A witness: a threshold's ``n`` or ``m``, which serves every ``rc`` (and the signs of ``D``
    per ``rc``); Sat's ``rmax``."""
    used = {RC, NMD} if witness.threshold is not None or witness.signs_by_rc else set()
    if witness.rmax is not None:
        used.add(RMAX)
    return used


def _evidence_terms(evidence: Evidence, short: bool = False) -> set[str]:
    """What :func:`~axiometer.reports.table.cells.evidence_text` says (``short``: a boundary side's
    form): a proof; the small scope, when it counts small-scope cases (``short``) or its scope names
    it; how ties were decided, when it says so (not after a proof alone)."""
    used = {PROVED} if evidence.strength == Strength.PROVED else set()
    proof = evidence.proof if evidence.strength == Strength.PROVED else None
    if proof is not None and short:
        return used
    if evidence.exhaustive_cases and (short or evidence.small_scope_named):
        used.add(SMALL)
    searched = evidence.exhaustive_cases or evidence.random_cases
    if not evidence.exact and (proof is None or searched):
        used.add(FLOATS)  # "ties decided on floats"
    return used


def _boundary_terms(cell: Cell) -> set[str]:
    """A cell's boundaries: what each side that is not certain rests on, and the decisive case its
    closed form was solved on (:data:`_DECISIVE_TERMS`)."""
    used: set[str] = set()
    for boundary in cell.boundaries:
        for side in Side:
            used |= _side_terms(boundary, side)
        if boundary.closed_form is not None and boundary.agrees:
            used |= _DECISIVE_TERMS.get(cell.constraint, frozenset())
    return used


def _side_terms(boundary: Boundary, side: Side) -> set[str]:
    """A side of a boundary: a holding side decided by no concrete case says what it rests on."""
    verdict = boundary.below if side is Side.BELOW else boundary.above
    evidence = boundary.evidence_below if side is Side.BELOW else boundary.evidence_above
    if side in boundary.certain.sides or verdict not in HOLDS or evidence is None:
        return set()
    return _evidence_terms(evidence, short=True)
