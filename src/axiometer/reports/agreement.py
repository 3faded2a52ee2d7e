"""Reports of ``agree`` and ``audit`` (:mod:`axiometer.agreement`): text, Markdown, LaTeX, HTML, JSON.

**agree** (:func:`agreement_document`), for someone reading a terminal:

- the verdict on one line (wrapped to the width): what was compared and
  whether it agrees, agrees under a named convention, or differs;
- the settings: who computes the implementation (with versions), how many
  queries were tried with which seed, how many conventions were searched,
  the tolerance and the time taken;
- the minimal case, when there is one: its judgments and its run as small
  tables, then the values on it (the implementation's, or what it did
  instead; the reference's with its exact form; the reference's under the
  convention; the difference);
- the properties, each with a mark (explained beside them), a failing one
  with the smallest query it fails on and what happened.

**audit** (:func:`audit_document`) is also a docs page (``docs/peer-audit.md``
is its Markdown): a title, a paragraph saying what it is with the command that
regenerates it, the settings, one table with a row per peer measure (the
verdict, the minimal case on one line, the failing properties), then a
write-up of every row that differs, fails a property or errors, with the
hand-written cause from :data:`axiometer.agreement.audit.CAUSES` where there
is one.

Every value prints as the shortest text that reads back as the same double
(``repr``): a report about disagreements in the last place must not round
them away. JSON is the result's ``to_dict()``. LaTeX holds the tables (the
minimal case, its values and the properties; the audit's table). Reports only
format; they never run an implementation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from axiometer.agreement.implementations import Failure, outcome_text
from axiometer.agreement.query import query_text, score_text
from axiometer.agreement.result import Agreement
from axiometer.reports.document import (
    Block, BulletList, Code, Definition, DefinitionList, Document, Inline, Inlines, JsonStyle, Paragraph,
    Preformatted, Row, Section, Span, Strong, Table, TableCell,
)
from axiometer.reports.numbers import DEFAULT_WIDTH, exact_text
from axiometer.reports.render import check_format, formats_of, render

if TYPE_CHECKING:
    from axiometer.agreement.query import Query
    from axiometer.agreement.result import AgreementResult, AuditResult, AuditRow, Case, PropertyCheck

__all__ = ["REPORT_FORMATS", "AUDIT_FORMATS", "REGENERATE", "agreement_document", "format_agreement",
           "audit_document", "format_audit", "query_text", "verdict_text"]

REPORT_FORMATS = formats_of("agree")
AUDIT_FORMATS = formats_of("audit")

#: The command that writes ``docs/peer-audit.md``, which the audit's report quotes.
REGENERATE = "axiometer audit --format markdown -o docs/peer-audit.md"

_WORDS = ("text", "markdown", "html")  # the formats that write sentences, not only tables
_LATEX = ("latex",)
_HOLDS, _FAILS = "✓", "✗"


# -- words ------------------------------------------------------------------------------------

def _plural(count: int, word: str, words: str = "") -> str:
    """``1 query``, ``49 queries`` (``words``: the plural, when it is not ``word`` + ``s``)."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"


def _failing(result: AgreementResult) -> list[PropertyCheck]:
    return [p for p in result.properties if not p.holds]


def _asked(result: AgreementResult) -> str:
    """The convention ``--convention`` asked for, in words, when the result agrees under it (the
    reference's own conventions otherwise: nothing to say)."""
    convention = result.convention
    if result.agree is not Agreement.AGREES or convention is None or convention.is_reference:
        return ""
    return convention.phrase()


def verdict_text(result: AgreementResult) -> str:
    """``agrees (on 49 queries)``, ``agrees under a convention: <phrase>``, ``differs: ...``; with the
    properties that fail, when any does."""
    asked = _asked(result)
    if result.agree is Agreement.AGREES:
        text = (f"agrees under the convention asked for: {asked}" if asked else "agrees") \
            + f" (on {_plural(result.queries, 'query', 'queries')})"
    elif result.agree is Agreement.AGREES_UNDER:
        text = f"agrees under a convention: {result.convention.phrase() if result.convention else ''}"
    else:
        text = "differs: no convention explains it (a bug)" + (", minimal case below" if result.case else "")
        if result.apart_from_failures is not None:
            text += ("; where it gives a number it agrees under "
                     + ("the reference's own conventions" if result.apart_from_failures.is_reference
                        else result.apart_from_failures.phrase()))
    failing = _failing(result)
    if failing:
        names = ", ".join(p.name for p in failing)
        text += f"; but {'a property fails' if len(failing) == 1 else 'properties fail'}: {names}"
    return text


def _headline(result: AgreementResult) -> Inlines:
    return (Strong((result.implementation, " against ", result.metric, ": ", verdict_text(result))),)


def _settings(result: AgreementResult) -> str:
    return (f"computed by {result.provider}; {_plural(result.queries, 'query', 'queries')} "
            f"tried (hand-written, then generated with seed {result.seed}); "
            f"{_plural(result.searched, 'convention')} searched; tolerance {result.tolerance!r}; "
            f"{result.seconds:.1f} seconds")


def _meaning(result: AgreementResult) -> str:
    """What the verdict means, for someone who has not read docs/conventions.md."""
    if result.agree is Agreement.AGREES:
        return (f"On every query tried its value is within the tolerance of the reference's, axiometer's "
                f"exact {result.metric}" + (", under the convention asked for." if _asked(result) else "."))
    if result.agree is Agreement.AGREES_UNDER:
        return (f"A convention is a choice {result.metric}'s definition leaves open (tie-breaking, score "
                f"precision, gains, the value of a query with no relevant document, cutoffs). Under the "
                f"one named, the reference agrees with the implementation on every query tried; under the "
                f"reference's own, it does not. The case below is a query where that choice matters.")
    return (f"On some query the implementation's value is not the reference's under any convention searched "
            f"(tie-breaking, score precision, gains, the value of a query with no relevant document, "
            f"cutoffs), so no choice {result.metric}'s definition leaves open explains it.")


# -- the minimal case ---------------------------------------------------------------------------

def _header(*names: str) -> tuple[TableCell, ...]:
    return tuple(TableCell((name,), header=True) for name in names)


def _case_intro(case: Case, result: AgreementResult) -> str:
    found = "shrunk by hypothesis, then by dropping and simplifying whatever did not matter"
    what = f"the implementation differs from the reference under {result.baseline}"
    if result.agree is Agreement.AGREES_UNDER:
        what += ", and agrees with it under the convention named above"
    return f"Minimal case: a query on which {what}; {found}."


def _query_tables(query: Query, caption: str) -> list[Block]:
    """The judgments ``(document, grade)`` and the run ``(document, score)`` in its line order, as two
    small tables (a paragraph for an empty one)."""
    blocks: list[Block] = [Paragraph(parts=("Judgments:",), formats=_WORDS)]
    blocks.append(Table(headers=_header("document", "grade"),
                        rows=tuple(Row((TableCell((d,)), TableCell((str(g),)))) for d, g in query.judgments),
                        caption=(f"{caption}: the judgments.",), align="lr", tight=("text",))
                  if query.judgments else Paragraph(parts=("(none)",), formats=_WORDS, tight=("text",)))
    blocks.append(Paragraph(parts=("Run, in the order of its lines:",), formats=_WORDS))
    blocks.append(Table(headers=_header("document", "score"),
                        rows=tuple(Row((TableCell((d,)), TableCell((score_text(s),)))) for d, s in query.run),
                        caption=(f"{caption}: the run, in the order of its lines.",), align="lr",
                        tight=("text",))
                  if query.run else Paragraph(parts=("(empty: no document retrieved)",), formats=_WORDS,
                                              tight=("text",)))
    return blocks


def _values(result: AgreementResult, case: Case) -> list[tuple[Inlines, str]]:
    """What each side gives on the case, as ``(name, value)``."""
    values = case.values
    reference = "no value (not compared)" if values.reference is None else repr(values.reference)
    if values.reference_exact is not None:
        reference += f" (exactly {exact_text(values.reference_exact)})"
    rows: list[tuple[Inlines, str]] = [
        (("implementation",), outcome_text(values.implementation)),
        ((f"reference ({result.metric}, {result.baseline})",), reference)]
    if result.agree is Agreement.AGREES_UNDER:
        rows.append((("reference under the convention",), "no value (not compared)"
                     if values.under_convention is None else repr(values.under_convention)))
    difference = values.difference
    rows.append((("difference (implementation - reference)",),
                 repr(difference) if difference is not None else
                 "none: the implementation gave no number" if isinstance(values.implementation, Failure)
                 else "none: the reference gives no value"))
    return rows


def case_blocks(result: AgreementResult, caption: str = "The minimal case") -> list[Block]:
    """The minimal case of ``result``: what it is, its tables, its values (none when it has no case)."""
    case = result.case
    if case is None:
        return []
    values = _values(result, case)
    return [Paragraph(parts=(_case_intro(case, result),), formats=_WORDS, hang=0),
            *_query_tables(case.query, caption),
            Paragraph(parts=("Values on this query:",), formats=_WORDS),
            DefinitionList(items=tuple(Definition(name, (Paragraph(parts=(value,)),)) for name, value in values),
                           style="fields", css="fields", formats=_WORDS, tight=("text",)),
            Table(headers=_header("", "value"), rows=tuple(Row((TableCell(name), TableCell((value,))))
                                                           for name, value in values),
                  caption=(f"{caption}: the values.",), formats=_LATEX)]


# -- the properties -----------------------------------------------------------------------------

def _mark(holds: bool) -> Inline:
    return Span((_HOLDS if holds else _FAILS,), "holds" if holds else "fails")


def _property_item(check: PropertyCheck) -> Inlines:
    if check.holds:
        return (_mark(True), " ", Strong((check.name,)), f": {check.statement}")
    where = f"; fails on {query_text(check.query)}" if check.query is not None else "; fails"
    return (_mark(False), " ", Strong((check.name,)), f": {check.statement}{where}: {check.detail}")


_LEGEND = DefinitionList(items=(Definition((_mark(True),), (Paragraph(parts=("holds on every query tried",)),)),
                                Definition((_mark(False),), (Paragraph(parts=(
                                    "fails: the smallest query it fails on, and what happened",)),))),
                         title=("Properties",), style="inline", formats=_WORDS)


def property_blocks(checks: Sequence[PropertyCheck]) -> list[Block]:
    """The legend of the marks, then each property with its mark."""
    return [_LEGEND, BulletList(items=tuple(_property_item(c) for c in checks), formats=_WORDS, tight=("text",))]


def _properties_table(result: AgreementResult) -> Table:
    return Table(headers=_header("", "property", "statement", "fails on"), formats=_LATEX,
                 rows=tuple(Row((TableCell((_mark(p.holds),)), TableCell((p.name,)), TableCell((p.statement,)),
                                 TableCell(("" if p.holds else (f"{query_text(p.query)}: " if p.query else "")
                                            + p.detail,))))
                            for p in result.properties),
                 caption=(f"Properties of {result.implementation}: {_HOLDS} holds on every query tried, "
                          f"{_FAILS} fails.",), align="llp{5.5cm}p{5.5cm}")


# -- agree's document ---------------------------------------------------------------------------

def agreement_document(result: AgreementResult) -> Document:
    """The verdict, the settings, the minimal case and the properties of one ``agree``."""
    blocks: list[Block] = [
        Paragraph(parts=_headline(result), hang=4),
        Paragraph(parts=(_settings(result) + ".",), label="Settings", formats=_WORDS, tight=("text",)),
        Paragraph(parts=(_meaning(result),), formats=_WORDS, hang=0),
        *case_blocks(result),
        *property_blocks(result.properties),
        _properties_table(result),
    ]
    return Document(title="", page_title=f"{result.implementation} against {result.metric}", blocks=tuple(blocks),
                    preamble=(f"Needs \\usepackage{{booktabs}} and amssymb. Made by axiometer agree; "
                              f"seed {result.seed}.",),
                    data=result.to_dict, json=JsonStyle(indent=2))


def format_agreement(result: AgreementResult, format: str = "text", width: int = DEFAULT_WIDTH) -> str:
    """``result`` as ``text``, ``markdown``, ``latex``, ``html`` or ``json``; text lines wrapped to
    ``width`` columns."""
    check_format("agree", format)
    return render(agreement_document(result), format, width)


# -- audit ------------------------------------------------------------------------------------

def _row_verdict(row: AuditRow) -> str:
    result = row.result
    if result is None:
        return f"error: {row.error}"
    if result.agree is Agreement.AGREES_UNDER and result.convention is not None:
        return f"agrees under: {result.convention.phrase()}"
    elsewhere = result.apart_from_failures
    if result.agree is Agreement.DIFFERS and elsewhere is not None:
        return ("differs only where it fails; elsewhere it agrees"
                + ("" if elsewhere.is_reference else f" under: {elsewhere.phrase()}"))
    return result.agree.value


def _compact_case(result: AgreementResult | None) -> str:
    """The minimal case on one line: ``judgments a:1; run a=0.9999999999999999, 9=1.0 → 1.0 vs
    reference 0.5``."""
    if result is None or result.case is None:
        return ""
    values = result.case.values
    reference = "no value" if values.reference is None else repr(values.reference)
    return f"{query_text(result.case.query)} → {outcome_text(values.implementation)} vs reference {reference}"


def _failing_names(result: AgreementResult | None) -> str:
    if result is None:
        return ""
    return ", ".join(p.name for p in _failing(result)) or "none"


def _written_up(row: AuditRow) -> bool:
    """A row the page explains under the table: it differs, fails a property or could not run."""
    return row.result is None or row.result.agree is Agreement.DIFFERS or bool(_failing(row.result))


def _audit_table(result: AuditResult, formats: tuple[str, ...], align: str = "") -> Table:
    """One row per peer measure: the peer and its version, the measure, the built-in, the verdict,
    the minimal case on one line and the failing properties."""
    rows = tuple(Row((TableCell((row.provider,)), TableCell((row.result.provider if row.result else "",)),
                      TableCell((Code(row.measure),)), TableCell((row.metric,)), TableCell((_row_verdict(row),)),
                      TableCell((_compact_case(row.result),)), TableCell((_failing_names(row.result),))))
                 for row in result.rows)
    return Table(headers=_header("peer", "version", "measure", "built-in", "verdict", "minimal case",
                                 "failing properties"),
                 rows=rows, formats=formats, align=align,
                 caption=("Each peer measure against axiometer's built-in as the exact reference.",))


def _audit_text_table(result: AuditResult) -> Table:
    """The table for a terminal: the long cells (the convention, the case) share the last column,
    which wraps; the versions are listed above it."""
    def last(row: AuditRow) -> str:
        parts = [_row_verdict(row) if row.result is None or row.result.agree is Agreement.AGREES_UNDER
                 else row.result.agree.value]
        if row.result is not None and row.result.case is not None:
            parts.append(f"case: {_compact_case(row.result)}")
        return "; ".join(parts)

    rows = tuple(Row((TableCell((row.provider,)), TableCell((row.measure,)), TableCell((row.metric,)),
                      TableCell((_failing_names(row.result),)), TableCell((last(row),))))
                 for row in result.rows)
    return Table(headers=_header("peer", "measure", "built-in", "failing", "verdict; minimal case"), rows=rows,
                 formats=("text",))


def _audit_settings(result: AuditResult) -> list[str]:
    """The queries, the tolerance and every peer's version (the rows that ran say it)."""
    ran = [row.result for row in result.rows if row.result is not None]
    tolerances = sorted({found.tolerance for found in ran})
    lines = [f"Queries: {_plural(result.queries, 'generated query', 'generated queries')} per measure "
             f"(seed {result.seed}), after the hand-written ones"
             + (f"; tolerance {', '.join(repr(t) for t in tolerances)}" if tolerances else "") + "."]
    versions = dict.fromkeys(f"{row.provider}: {row.result.provider}" for row in result.rows if row.result)
    if versions:
        lines.append("Versions: " + "; ".join(versions) + ".")
    return lines


def _intro() -> Inlines:
    return ("Each measure of an installed peer library (ir_measures with each provider it runs, and ranx) "
            "that corresponds to one of axiometer's built-in metrics, checked as ", Code("axiometer agree"),
            " checks an implementation: on the same queries (hand-written awkward ones, then generated ones), "
            "against the built-in as the exact reference, searching every convention the peers are known to "
            "differ on (tie-breaking, score precision, gains, queries with no relevant document, cutoffs). "
            "A verdict says whether the peer agrees outright, agrees once a named convention is assumed, or "
            "differs in a way no convention explains; a peer's disagreement is a finding about the peer. "
            "Every value prints as the shortest text that reads back as the same double. This page is "
            "generated; this command regenerates it:")


def _legend() -> BulletList:
    return BulletList(items=(
        ("verdict: ", Strong(("agrees",)), " on every query tried; ", Strong(("agrees under",)),
         " the convention named (and not under the reference's own); ", Strong(("differs",)),
         ": under no convention searched; ", Strong(("error",)), ": the measure could not be run.",),
        ("minimal case: a smallest query on which the peer differs from the reference's own conventions, as "
         "judgments document:grade and the run document=score in the order of its lines, then → the "
         "peer's value vs the reference's.",),
        ("failing properties: properties every implementation must have (a value in range; a number on "
         "every query, alone or among others; the same value under renaming, reordering, a second call, and "
         "asked alone) that fail on some query; the write-ups below say where.",)), marker="  ", formats=_WORDS)


def _writeup(row: AuditRow, causes: Mapping[tuple[str, str], str], level: int, index: int) -> Section:
    """A row that differs, fails a property or errors, explained: the peer, the verdict, the cause
    when one is known, the minimal case with its values, the failing properties."""
    result = row.result
    # A user's names as text, not code: a wrapped line must not start inside a code span (a line
    # starting "<script" there would open an HTML block in Markdown).
    children: list[Block] = [Paragraph(parts=(
        f"Peer {row.provider}" + (f" ({result.provider})" if result else "") + f", measure {row.measure}, "
        f"against the built-in {row.metric}: ", Strong((_row_verdict(row),)), "."), hang=0)]
    found = [causes.get((row.provider, row.measure)), causes.get((row.provider, "*"))]
    cause = " ".join(text for text in found if text)
    if cause:
        children.append(Paragraph(parts=(cause,), label="Cause", hang=2))
    if result is not None:
        children += case_blocks(result, caption=f"{row.measure} by {row.provider}")
        failing = _failing(result)
        if failing:
            children.append(Paragraph(parts=("Failing properties:",), formats=_WORDS))
            children.append(BulletList(items=tuple(_property_item(p) for p in failing), tight=("text",)))
    return Section(title=(row.measure, " by ", row.provider), level=level, id=f"finding-{index}",
                   toc=f"{row.measure} by {row.provider}", children=tuple(children), colon=True, formats=_WORDS)


def audit_document(result: AuditResult, command: str = REGENERATE,
                   causes: Mapping[tuple[str, str], str] | None = None) -> Document:
    """The audit as a docs page: what it is and ``command`` (which regenerates it), the settings,
    the table, then a write-up of each finding, with its cause from ``causes`` (default:
    :data:`axiometer.agreement.audit.CAUSES`)."""
    if causes is None:
        from axiometer.agreement.audit import CAUSES
        causes = CAUSES
    findings = [row for row in result.rows if _written_up(row)]
    blocks: list[Block] = [
        Paragraph(parts=_intro(), formats=_WORDS, hang=0),
        Preformatted(content=(command,), wrap=False, formats=_WORDS),
        BulletList(items=tuple((line,) for line in _audit_settings(result)), marker="", formats=_WORDS),
        _audit_text_table(result), _audit_table(result, ("markdown", "html")),
        _audit_table(result, _LATEX, "llllp{3.5cm}p{4.5cm}l"), _legend()]
    if findings:
        blocks.append(Section(title=("Findings",), level=2, id="findings", toc="Findings", formats=_WORDS, children=(
            Paragraph(parts=(f"{_plural(len(findings), 'measure')} differ, fail a property or could not be run:"
                             if len(findings) > 1 else "One measure differs, fails a property or could not be run:",),
                      hang=0),
            *(_writeup(row, causes, 3, k) for k, row in enumerate(findings, 1)))))
    else:
        blocks.append(Paragraph(parts=("No measure differs, fails a property or errors.",), formats=_WORDS))
    return Document(title="Peer audit", page_title="Peer audit", level=1, blocks=tuple(blocks),
                    preamble=("Needs \\usepackage{booktabs} and amssymb. Made by axiometer audit; "
                              f"seed {result.seed}.",),
                    data=result.to_dict, json=JsonStyle(indent=2))


def format_audit(result: AuditResult, format: str = "text", width: int = DEFAULT_WIDTH,
                 command: str = REGENERATE) -> str:
    """``result`` as ``text``, ``markdown``, ``latex``, ``html`` or ``json``; ``command`` is the
    command line the page says regenerates it."""
    check_format("audit", format)
    return render(audit_document(result, command), format, width)
