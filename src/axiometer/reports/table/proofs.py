"""What a proof says in every report: whether a check or a cell is proved, for what, and why not.

A check is proved when it holds and its evidence has strength ``proved``
(:func:`check_proved`); a cell when it holds and its default setting, the
one its mark shows, is proved (:func:`proved`: the ``ᵖ`` flag of the
matrix; a table decides case structures at that setting only, definitions
§3.12), and its note names another setting that holds without a proof.
:func:`proof_text` words a :class:`~axiometer.evidence.Proof` ("proved for
every case of up to 6 documents and 1 aspect and every relevance value in
(0, 1/10], by ..."), :func:`proof_note` what a holding cell's proofs say in
one phrase (proved for what, or "not proved: REASON" from
:attr:`Check.unproved <axiometer.results.Check>`), and :func:`formula_lines`
the first formula a proof decided (SMT-LIB 2), when it was kept. Everything
is read from the data (definitions §3.12), never from a text.
"""

from __future__ import annotations

from axiometer.reports.numbers import number
from axiometer.results import HOLDS, Cell, Check, Proof, Strength

__all__ = ["check_proved", "proved", "proof_text", "unproved_setting", "proof_note", "formulas", "formula_heading",
           "formula_lines"]


def check_proved(check: Check) -> bool:
    """Whether the check holds and what it rests on is a proof (strength ``proved``)."""
    return check.holds and check.evidence is not None and check.evidence.strength == Strength.PROVED


def proved(cell: Cell) -> bool:
    """Whether the cell holds and its default setting (the one its mark shows) is proved."""
    default = cell.default_check
    return cell.verdict in HOLDS and default is not None and check_proved(default)


def _count(n: int, one: str) -> str:
    return f"{n} {one}{'' if n == 1 else 's'}"


def proof_text(proof: Proof, short: bool = False) -> str:
    """What a proof covers, in words: ``proved for every case of up to 6 documents and 1 aspect and
    every relevance value in (0, 1/10], by z3 nonlinear real arithmetic on every path of the
    metric's code (702 structures, 1911 paths)`` (``short``: what it covers, without how). The
    proof's time is in the JSON (``proof_seconds``), not in the text: a report is the same bytes
    at the same seed."""
    text = f"proved for {proof.scope} and every relevance value in (0, {number(proof.rho)}]"
    if short:
        return text
    counts = [_count(proof.structures, "structure")] if proof.structures else []
    if proof.paths:
        counts.append(_count(proof.paths, "path"))
    return f"{text}, by {proof.procedure}" + (f" ({', '.join(counts)})" if counts else "")


def unproved_setting(cell: Cell) -> Check | None:
    """For a cell whose default setting is proved, the first other setting where it holds without
    a proof; else ``None``."""
    default = cell.default_check
    if default is None or not check_proved(default):
        return None
    return next((check for check in cell.checks if check.holds and not check_proved(check)), None)


def proof_note(cell: Cell) -> str:
    """What a holding cell's proofs say, in one phrase: ``proved for ... and every relevance value in
    (0, 1/10]`` (:func:`proved`; followed by ``; not proved at RBP(p=0.5): REASON`` when another
    setting holds without a proof) or ``not proved: REASON`` (its default setting, with the reason
    :attr:`Check.unproved <axiometer.results.Check>` gives); empty when no proof was tried, or the
    cell does not hold."""
    default = cell.default_check
    if cell.verdict not in HOLDS or default is None:
        return ""
    if proved(cell):
        proof = default.evidence.proof if default.evidence is not None else None
        text = proof_text(proof, short=True) if proof is not None else "proved"
        other = unproved_setting(cell)
        if other is None:
            return text
        return f"{text}; not proved at {other.metric}" + (f": {other.unproved}" if other.unproved else "")
    if default.unproved:
        return f"not proved: {default.unproved}"
    return "not proved" if default.proof_seconds is not None else ""


def formulas(check: Check) -> tuple[str, ...]:
    """The formulas (SMT-LIB 2) a proved check's proof decided, when they were kept; else none."""
    proof = check.evidence.proof if check.evidence is not None else None
    return proof.formulas if proof is not None and check_proved(check) else ()


def formula_heading(check: Check) -> str:
    """What the printed formula is: the first case structure's, of how many (the JSON has all)."""
    count = len(formulas(check))
    more = f"; the JSON has all {count}" if count > 1 else ""
    return f"the formula decided for the first case structure (SMT-LIB 2; unsat is the proof{more})"


def formula_lines(check: Check, indent: str) -> list[str]:
    """The first formula a proof decided, under its heading (none unless the proof kept them)."""
    kept = formulas(check)
    if not kept:
        return []
    return [f"{indent}{formula_heading(check)}:", *(f"{indent}  {line}" for line in kept[0].splitlines())]
