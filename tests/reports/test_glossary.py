"""The glossary's terms come from the data (:mod:`axiometer.reports.table.glossary`), and they are the
terms the reports listed when they chose them by scanning their own text.

The patterns below are that scan, kept here only, as an independent oracle: on real results of
several metrics, modes, properties, proofs, explanations and boundaries, the terms the data gives
are the terms the patterns find in the lines each report shows (a table's details, a check report
of one constraint, the HTML page with its settings and boundaries). Each term flips with the data
that decides it, on hand-built results; every constraint's and property's case notes and every
nearby reading's words name the terms the glossary knows them by (a new constraint whose cases
name one fails here until the glossary knows it); and the facts a note or a scope text states about
the small scope, restated as data where the text is written, agree with those texts.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache

import pytest

import axiometer
from axiometer.axioms import CONSTRAINTS, PROPERTIES
from axiometer.axioms.oracle import SearchResult, search_evidence
from axiometer.checking.budget import QUICK, Budget
from axiometer.checking.explain import DISJOINT_CONTEXT_TEXT, OTHER_MODE_TEXT, declared_reading, value_set_text
from axiometer.metrics import wrap
from axiometer.metrics.resolve import resolve
from axiometer.reports.table import format_check
from axiometer.reports.table.cells import axiom_infos, boundary_lines, cell_lines, check_lines, header_lines
from axiometer.reports.table.glossary import TERMS, terms_used
from axiometer.generators.case import Scope, ScopeMark, cases_of
from axiometer.results import (Cell, Check, Counterexample, Decided, Evidence, NearbyReading, Outcome, Strength,
                               TableResult, TopicRecord, Verdict, Witness)
from axiometer.runner.table import run_table
from tests.checking.test_explain import clear_relevance_counts
from tests.checking.test_search import case, clock, holds, is_failure, search_cases  # noqa: F401 (clock: a fixture)

#: The scan the reports made of their own lines, term by term (the oracle; nowhere else now).
PATTERNS: dict[str, re.Pattern[str]] = {
    "rc": re.compile(r"\brc\b"),
    "n, m, D": re.compile(r"\b[nm] = \d|\b[nm]=\d|sign of D|\bD\(n\)"),
    "rmax": re.compile(r"\brmax\b"),
    "rho": re.compile(r"\brho\b"),
    "proved": re.compile(r"\bproved\b"),
    "small scope": re.compile(r"small.scope"),
    "window / truncate mode": re.compile(r"window mode|truncate mode"),
    "decided on floats": re.compile(r"decided on floats"),
    "P, x, y": re.compile(r"\bP \+ [xy]\b"),
    "explanation": re.compile(r"explanation:|holds when|holds for"),
}


def scanned(lines: Sequence[str]) -> list[str]:
    """The terms the patterns find in ``lines``, in the glossary's order."""
    text = "\n".join(lines)
    return [term for term, _ in TERMS if PATTERNS[term].search(text)]


def from_data(entries: Sequence[Cell | Check], **shown: object) -> list[str]:
    """The terms the data gives (:func:`terms_used`), in the glossary's order."""
    return [term for term, _ in terms_used(entries, **shown)]


# -- the lines each report shows (what it scanned) ---------------------------------------------------

def details(result: TableResult, entries: Sequence[Cell | Check]) -> list[str]:
    """A table's or a check report's details: each cell in full, a check alone without its mode line."""
    infos = axiom_infos(result)
    lines: list[str] = []
    for entry in entries:
        info = infos.get(entry.constraint)
        lines += (cell_lines(entry, info=info) if isinstance(entry, Cell) else
                  [f"{entry.metric} × {entry.constraint}: {entry.verdict}", *check_lines(entry, "  ", info)[1:]])
    return lines


def page(result: TableResult) -> list[str]:
    """The HTML page: the run's settings, every cell in full and every boundary."""
    return [*header_lines(result), *details(result, result.cells),
            *(line for cell in result.cells for line in boundary_lines(cell))]


# -- real results ------------------------------------------------------------------------------------

#: Quick budgets; the formulas kept, as --details keeps them; no proofs where they are not the point.
FORMULAS = dataclasses.replace(QUICK, proof_formulas=True)
SEARCH_ONLY = dataclasses.replace(QUICK, proof_docs=0)


def _raises_on_long_rankings(ranking, topic):
    """A metric author's metric that raises on any ranking of two documents or more."""
    if len(ranking) > 1:
        raise ValueError("cannot score more than one document")
    return float(sum(topic.r(d) for d in ranking))


def _float_dcg(ranking, topic):
    """A float-only metric (no exact value): its comparisons and ties are decided on floats."""
    return sum(float(topic.r(d)) / math.log2(i + 2) for i, d in enumerate(ranking))


def _table(metrics: Sequence[object], constraints: Sequence[str] | None = None, budget: Budget = SEARCH_ONLY,
           **options: object) -> TableResult:
    return run_table(list(metrics), constraints, quick=True, budget=budget, jobs=1, **options)


#: Each result a report can show, built once (each in a second or two).
RESULTS: dict[str, Callable[[], TableResult]] = {
    "RBP: its thresholds proved, its diversity cases broken":
        lambda: axiometer.check("RBP", ["DeepTh", "CloseTh", "Conf", "Red", "MRed", "Sat"], budget=FORMULAS).table,
    "P@5, both cutoff modes": lambda: axiometer.check("P@5", budget="quick").table,
    "ERR@10 in window mode": lambda: axiometer.check("ERR@10", budget=FORMULAS, mode="window").table,
    "nDCG@10 in truncate mode, explained by window mode": lambda: _table(["nDCG@10"], ["Pri", "Deep", "Conf"],
                                                                         mode="truncate"),
    "Sat's witness, its small scope run out or stopped by its budget":
        lambda: _table(["ERR_IA@3", "ERR_IA@10"], ["Sat", "MRed"]),
    "NRBP: CloseTh explained by other parameter values, Red proved at its default setting only":
        lambda: _table(["NRBP"], ["CloseTh", "Red"], FORMULAS),
    "alpha-nDCG@10's AspDiv explained by its declared reading": lambda: _table(["alpha_nDCG@10"], ["AspDiv"]),
    "CloseTh explained by each rc alone":
        lambda: _table([wrap(clear_relevance_counts, "clear_relevance_counts")], ["CloseTh"], isolate=False),
    "RareP@10's properties, Bounded's claims one after another": lambda: _table(["RareP@10"], row_set="relative"),
    "a metric that raises": lambda: _table([_raises_on_long_rankings], ["Pri", "DeepTh", "Sat"], isolate=False),
    "a float-only metric": lambda: _table([_float_dcg], ["Pri", "Deep", "Red"], isolate=False),
    "RBP's CloseTh boundary over p": lambda: _table([resolve("RBP", params={"p": (0.5, 0.99)})], ["CloseTh"],
                                                    FORMULAS),
    "a quick table of a few rows": lambda: _table(["P@10", "RR", "ERR_IA@10"], ["Pri", "DeepTh", "AspDiv", "Sat"]),
}


@cache
def result(name: str) -> TableResult:
    return RESULTS[name]()


@pytest.mark.parametrize("name", RESULTS)
def test_a_table_lists_the_terms_its_details_use(name):
    table = result(name)
    assert from_data(table.cells) == scanned(details(table, table.cells))


@pytest.mark.parametrize("name", RESULTS)
def test_a_check_of_one_constraint_lists_the_terms_its_cell_uses(name):
    table = result(name)
    for cell in table.cells:
        assert from_data([cell]) == scanned(details(table, [cell])), f"{cell.row} × {cell.constraint}"


@pytest.mark.parametrize("name", RESULTS)
def test_the_page_lists_the_terms_its_settings_evidence_and_boundaries_use(name):
    table = result(name)
    assert from_data(table.cells, header=table, boundaries=True) == scanned(page(table))


#: Results with a check whose reason for not being proved names its mode ("not proved: in window mode n
#: stops at k/2"): shown alone (format_check of Check objects, never the command line's), such a check
#: has no line naming its mode, and no data restates the reason's words, so the mode is not explained.
MODE_IN_A_REASON = {"ERR@10 in window mode"}


@pytest.mark.parametrize("name", [name for name in RESULTS if name not in MODE_IN_A_REASON])
def test_a_check_shown_alone_lists_the_terms_its_lines_use(name):
    table = result(name)
    for shown in (check for cell in table.cells for check in cell.checks):
        assert from_data([shown]) == scanned(details(table, [shown])), f"{shown.metric} × {shown.constraint}"


def test_the_text_report_lists_those_terms_before_the_details():
    table = result("RBP: its thresholds proved, its diversity cases broken")
    text = format_check(table, "text", width=1000)
    listed = text[text.index("Terms used below:"):text.index("\nRBP × ")]
    assert [term for term, _ in TERMS if f"\n  {term}: " in listed] == from_data(table.cells)
    assert "rc" in from_data(table.cells) and "P, x, y" in from_data(table.cells)


# -- each term flips with its data -------------------------------------------------------------------

TOPIC = TopicRecord(aspects=("*",), weights=("1",), judgments=(("d1", ("0",)), ("d2", ("1/10",))))
PAIR = Counterexample(topic=TOPIC, a=("d1", "d2"), b=("d2", "d1"), score_a=0.1, score_b=0.1,
                      relation="Q(b) > Q(a)", note="b = a with positions 1 and 2 swapped", decided=Decided.EXACT)
SEARCHED = Evidence(Strength.SEARCHED, "every case of up to 3 documents", 120, 40, True)


def check(constraint: str = "Pri", verdict: Verdict = Verdict.SATISFIED, **fields: object) -> Check:
    return Check(constraint=constraint, metric="m", params=(), verdict=verdict,
                 **{"mode": "window", **fields})


def cell(*checks: Check, **fields: object) -> Cell:
    return Cell(row="m", metric="m", constraint=checks[0].constraint, verdict=checks[0].verdict,
                summary=str(checks[0].verdict), checks=checks, **fields)


#: A run that says nothing of itself: hand-built entries are shown as its details.
NO_HEADER = TableResult(rows=("m",), constraints=(), cells=(), seed=0, mode="default", budget="")


def terms(*entries: Cell | Check, header: TableResult | None = None) -> list[str]:
    """The data's terms for ``entries`` (with ``header``: as the page shows them, under that run's
    settings), once the oracle has found the same ones in the lines they show."""
    if header is None:
        found, shown = from_data(entries), details(NO_HEADER, entries)
    else:
        found = from_data(entries, header=header, boundaries=True)
        shown = page(dataclasses.replace(header, cells=entries))
    assert found == scanned(shown)
    return found


def test_rc_and_n_m_d_are_explained_by_a_threshold_witness_only():
    witness = Witness("n = 6", "for every rc tried", threshold=6, rcs=(Fraction(1, 10),))
    assert {"rc", "n, m, D"} <= set(terms(check("DeepTh", Verdict.WITNESS, witness=witness)))
    plain = Witness("Q 0 -> 1", "a = ('d1',)")
    assert not {"rc", "n, m, D"} & set(terms(check("PriorSens", Verdict.WITNESS, witness=plain)))


def test_n_m_d_follows_a_counterexample_s_grid_point():
    threshold = dataclasses.replace(PAIR, extra=(("rc", "1/10"), ("m", "3")), rc=Fraction(1, 10), threshold=3)
    assert "n, m, D" in terms(check("CloseTh", Verdict.VIOLATED, counterexample=threshold))
    assert "n, m, D" not in terms(check("CloseTh", Verdict.VIOLATED, counterexample=PAIR))


def test_rmax_follows_sat_s_witness():
    witness = Witness("rmax = 1", "the largest candidate for which no case breaks Q(a) >= Q(b)", rmax=Fraction(1))
    assert "rmax" in terms(check("Sat", Verdict.WITNESS, witness=witness))
    assert "rmax" not in terms(check("Sat", Verdict.WITNESS, witness=Witness("Q 0 -> 1")))


def test_rho_is_explained_when_the_run_states_its_rho():
    table = TableResult(rows=("m",), constraints=("Pri",), cells=(), seed=0, mode="default", budget="40 random cases",
                        settings=(("rho", "1/10"),))
    assert "rho" in terms(cell(check()), header=table)
    assert "rho" not in terms(cell(check()), header=dataclasses.replace(table, settings=()))


def test_proved_follows_the_strength_of_the_evidence():
    assert "proved" not in terms(check(evidence=SEARCHED))
    assert "proved" in terms(check(evidence=dataclasses.replace(SEARCHED, strength=Strength.PROVED)))
    assert "proved" in terms(check(evidence=SEARCHED, unproved="z3 could not decide a structure"))


def test_small_scope_follows_the_small_scope_cases_and_what_the_notes_say():
    assert "small scope" not in terms(check(cases=40))
    assert "small scope" in terms(check(cases=40, small_scope=120))
    found = check(verdict=Verdict.VIOLATED, counterexample=PAIR, cases=40, small_scope=120)
    assert "small scope" not in terms(found)
    assert "small scope" in terms(dataclasses.replace(found, note="found in the small scope", small_scope_noted=True))


def test_small_scope_follows_a_witness_s_scope_and_the_run_s_budget():
    scope = dataclasses.replace(SEARCHED, exhaustive_scope="rmax = 1: every case of up to 3 documents")
    witness = check("Sat", Verdict.WITNESS, witness=Witness("rmax = 1", rmax=Fraction(1)), small_scope=21,
                    evidence=scope)
    assert "small scope" not in terms(witness)
    named = dataclasses.replace(scope, exhaustive_scope="rmax = 1: ... (the budget of 120 small-scope cases "
                                "stopped the growth)", small_scope_named=True)
    assert "small scope" in terms(dataclasses.replace(witness, evidence=named))
    table = TableResult(rows=("m",), constraints=("Pri",), cells=(), seed=0, mode="default", budget="40 random cases")
    assert "small scope" not in terms(cell(check()), header=table)
    budget = dataclasses.replace(table, budget=QUICK.describe(), small_scope_budget=QUICK.small_scope)
    assert "small scope" in terms(cell(check()), header=budget)


def test_the_mode_is_explained_where_a_check_s_line_names_it():
    assert "window / truncate mode" in terms(cell(check(mode="truncate")))
    assert "window / truncate mode" not in terms(check(mode="truncate"))  # a check alone has no mode line


def test_decided_on_floats_follows_how_a_counterexample_was_decided():
    violated = check(verdict=Verdict.VIOLATED, counterexample=PAIR)
    assert "decided on floats" not in terms(violated)
    floats = dataclasses.replace(PAIR, decided=Decided.FLOAT)
    assert "decided on floats" in terms(dataclasses.replace(violated, counterexample=floats))
    assert "decided on floats" in terms(check(evidence=dataclasses.replace(SEARCHED, exact=False)))


def test_p_x_y_follows_a_redundancy_counterexample():
    red = dataclasses.replace(PAIR, note="a = P + x, b = P + y; x relevant (rc = 1/10) to t1 only, y to t2 only")
    assert "P, x, y" in terms(check("Red", Verdict.VIOLATED, counterexample=red))
    assert "P, x, y" not in terms(check("Pri", Verdict.VIOLATED, counterexample=PAIR))


def test_explanation_follows_a_cell_s_explanation():
    violated = check(verdict=Verdict.VIOLATED, counterexample=PAIR)
    assert "explanation" not in terms(cell(violated))
    explained = cell(violated, explanation="holds for p >= 0.8", reading=NearbyReading.PARAMETERS)
    assert "explanation" in terms(explained)


def _case_notes() -> list[tuple[str, str]]:
    """``(constraint or property, note)`` for each note the first cases of every small scope write."""
    notes: list[tuple[str, str]] = []
    for oracle in (*CONSTRAINTS, *PROPERTIES):
        if oracle.small_scope is not None:
            cases = itertools.islice(cases_of(oracle.small_scope(Scope())), 200)
            notes += [(oracle.id, note) for note in dict.fromkeys(case.note for case in cases)]
    return notes


@pytest.mark.parametrize(("constraint", "note"), _case_notes(),
                         ids=lambda value: value if value in {o.id for o in (*CONSTRAINTS, *PROPERTIES)} else "")
def test_a_counterexample_lists_the_terms_its_case_s_note_names(constraint, note):
    broken = check(constraint, Verdict.VIOLATED, counterexample=dataclasses.replace(PAIR, note=note))
    assert "window / truncate mode" in terms(cell(broken))  # and the note's own terms: terms() compares them all


def _reading_texts() -> list[tuple[str, NearbyReading | None, str]]:
    """``(constraint, reading, text)`` for every nearby reading, in the words explain() writes."""
    texts: list[tuple[str, NearbyReading | None, str]] = [
        ("Pri", NearbyReading.OTHER_MODE, text) for text in OTHER_MODE_TEXT.values()]
    texts += [("Pri", NearbyReading.DISJOINT_CONTEXT, f"holds when {DISJOINT_CONTEXT_TEXT}"),
              ("Pri", NearbyReading.TIGHTER_RHO, "holds when relevance contribution is tighter (rho = 1/100)"),
              ("DeepTh", NearbyReading.LONGER_HORIZON, "holds with horizon 512"),
              ("CloseTh", NearbyReading.SINGLE_RC,
               "holds for " + value_set_text("rc", [Fraction(1, 100), Fraction(1, 20), Fraction(1, 10)],
                                             [Fraction(1, 20), Fraction(1, 10)])),
              ("CloseTh", NearbyReading.PARAMETERS, "holds for p >= 0.8"),
              ("Pri", None, "(no explanation: the worker was lost)")]
    texts += [(constraint.id, declared_reading(reading), f"holds when {reading.text}")
              for constraint in CONSTRAINTS for reading in constraint.readings]
    return texts


@pytest.mark.parametrize(("constraint", "reading", "text"), _reading_texts())
def test_an_explanation_lists_the_terms_its_reading_names(constraint, reading, text):
    explained = cell(check(constraint, Verdict.VIOLATED), explanation=text, reading=reading)
    assert "explanation" in terms(explained)  # and the reading's own terms: terms() compares them all


# -- what a note or a scope says of the small scope, restated where it is written ---------------------

#: A small scope that marks its layers: sizes 1 and 2 are declared, size 3 is growth past them.
MARKED = [case(1), ScopeMark(1, 2), case(2), case(2), ScopeMark(2, 2), case(3), ScopeMark(3, 2)]


def _searches(slow: Callable[[object], Outcome] | None = None) -> list[SearchResult]:
    """Small-scope searches that find their target, run out, or meet their case budget (inside the
    declared layers or past them), with and without marked layers; ``slow``, the time budget."""
    items = [case(1), case(2), case(3)]

    def target(item: object) -> Outcome:  # the second case is the one looked for
        return Outcome(item is not items[1])

    searched = [(items, target, 10), (items, holds, 10), (items, holds, 2), (MARKED, holds, 4),
                (MARKED, holds, 2), (MARKED, holds, 3)]
    if slow is not None:
        searched = [(items, slow, 10), (MARKED, slow, 10)]
    return [search_cases(list(cases), None, judge, is_failure, Budget(cases=5, small_scope=budget, seconds=2.0), 1)
            for cases, judge, budget in searched]


def test_a_search_notes_the_small_scope_exactly_when_its_note_names_it(clock):  # noqa: F811
    def slow(item: object) -> Outcome:
        clock.now += 1.0  # each case takes a second: the third ends the 2 s budget
        return Outcome(True)

    for found in [*_searches(), *_searches(slow)]:
        assert found.small_scope_noted == bool(PATTERNS["small scope"].search(found.note)), found.note


def test_an_evidence_names_the_small_scope_exactly_when_its_scope_does(clock):  # noqa: F811
    def slow(item: object) -> Outcome:
        clock.now += 1.0
        return Outcome(True)

    for found in [*_searches(), *_searches(slow)]:
        if found.outcome is None:  # no target: the verdict rests on this search
            evidence = search_evidence(found, True)
            scope = evidence.exhaustive_scope
            assert evidence.small_scope_named == bool(PATTERNS["small scope"].search(scope)), scope
