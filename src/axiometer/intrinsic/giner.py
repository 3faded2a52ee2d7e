"""Giner's Tables 2–3 against our intrinsic classification (definitions §4 and §7).

Giner argues each measure on the domain its own formula suggests, so no single
domain reproduces his whole table. :func:`run_giner` therefore classifies every
measure of his Tables 2–3 (the published categories are data,
``axiometer/data/giner.tsv``, transcribed from definitions §7's ``giner``
paragraph) on each canonical domain of what it scores
(:func:`~axiometer.intrinsic.classify.classify`), records each domain's category
and counterexample, and says which domains (if any) reproduce the published
category. Where none does, :attr:`GinerRow.explanation` explains the difference
by the domain and its counterexample: a weaker category than Giner's names the
property that fails and the outputs that break it; a stronger one names the
property that holds on the domain, whose outputs do not contain the case his
argument rests on.

Canonical domains (:func:`canonical_domains`): for set measures
``sets(20, 5, size=8)``, ``sets(20, 5, nonrel=0)``, ``sets(20, 5)``; for rank
measures binary ``rankings(n=4)`` (R = 4: this is ``rankings(n=4, R=4)``, the
default R of a binary domain being n), binary ``rankings(n=6)`` (do the
verdicts persist on longer rankings?) and graded
``rankings(n=3, grades={0, 1/2, 1})``. Korfhage's user-oriented
measures score user counts ``(U, Rk, Ru)`` on ``users(U=5, unknown=5)`` (every
``Rk in 0..5``, ``Ru in 0..5``) and ``users(U=5, unknown=5, wanted=2, examined=8)``
(the same crossed with ``examined in 2..8``); recall effort (``wanted /
examined``) only on the second, as on the first it is the constant 0/0 = 0.

RBP appears at ``p = 1/2`` (interval on binary rankings) and ``p = 0.8``
(Giner: "not a metric in general"; at 0.8 it is injective on binary
rankings — the exceptional ``p`` at which two rankings tie is found by the
parametric analysis, not here).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from importlib import resources
from typing import Any

from axiometer.intrinsic.classify import CATEGORIES, classify
from axiometer.core import InputError
from axiometer.generators.domains import Domain, RankingsDomain, SetsDomain, UsersDomain, rankings, sets, users
from axiometer.metrics.resolve import resolve
from axiometer.results import GinerEntry, GinerRow, GinerTable, IntrinsicResult, OutputRecord

__all__ = ["GinerEntry", "GinerRow", "GinerTable", "load_giner", "run_giner", "canonical_domains",
           "DATA_FILE", "SCORES"]

#: The bundled data file of published categories, in ``axiometer/data``.
DATA_FILE = "giner.tsv"
#: What a measure of the tables scores (the data file's ``kind`` column): set (contingency counts),
#: user (Korfhage's user counts), rank (rankings); it is classified on the domains of that.
SCORES = ("set", "user", "rank")


def load_giner() -> tuple[GinerEntry, ...]:
    """Read ``axiometer/data/giner.tsv`` (comment lines start with ``#``; tab-separated)."""
    text = (resources.files("axiometer") / "data" / DATA_FILE).read_text(encoding="utf-8")
    lines = [line.split("\t") for line in text.splitlines() if line.strip() and not line.startswith("#")]
    header, body = lines[0], lines[1:]
    if header != ["measure", "kind", "spec", "published", "condition"]:
        raise InputError(f"unexpected header {header!r}", source=DATA_FILE)
    entries = []
    for number, fields in enumerate(body, 2):
        if len(fields) != 5 or fields[1] not in SCORES or (fields[3] != "-" and fields[3] not in CATEGORIES):
            raise InputError(f"malformed row {fields!r}", source=f"{DATA_FILE} data row {number}")
        measure, scores, spec, published, condition = fields
        entries.append(GinerEntry(measure, scores, spec, None if published == "-" else published,
                                  None if condition == "-" else condition))
    return tuple(entries)


def canonical_domains() -> tuple[Domain, ...]:
    """The set (N = 20, R = 5), user-count and rank domains the comparison uses by default."""
    return (sets(20, 5, size=8), sets(20, 5, nonrel=0), sets(20, 5),
            users(5, 5), users(5, 5, wanted=2, examined=8),
            rankings(4), rankings(6), rankings(3, grades=(0, Fraction(1, 2), 1)))


def _metric(entry: GinerEntry, domain: Domain) -> Any:
    """The entry's measure, resolved as every command resolves one (a rank measure's ``{n}``: the domain's n)."""
    if entry.scores in ("set", "user"):
        return resolve(entry.spec).metric
    assert isinstance(domain, RankingsDomain)
    return resolve(entry.spec.replace("{n}", str(domain.n))).metric


def _records(records: Sequence[OutputRecord]) -> str:
    return ", ".join(f"{r.label} = {r.exact if r.exact is not None else format(r.score, '.6g')}"
                     for r in records)


#: Category strength: interval/metric > ordinal/metric > ordinal/pseudometric > not a pseudometric.
_RANK = {c: len(CATEGORIES) - i for i, c in enumerate(CATEGORIES)}


def _explain(result: IntrinsicResult, entry: GinerEntry) -> str:
    """Why ``result``'s category differs from the published one, with the domain's counterexample."""
    published = entry.published
    assert published is not None
    ours = result.category
    head = f"on {result.domain}: {ours}"
    if _RANK[ours] < _RANK[published]:  # weaker: a property Giner grants fails here
        failed = next(p for p in result.properties if not p.holds)
        where = f"; counterexample {_records(failed.counterexample)}" if failed.counterexample else ""
        return f"{head}, not {published}: {failed.name} fails ({failed.note}){where}"
    # stronger: a property Giner denies holds on this domain
    denied = "metric" if published == "ordinal/pseudometric" else "interval"
    verdict = result.property(denied)
    note = verdict.note if verdict is not None else ""
    why = ("Giner's category is for the measure in general: some parameter values make outputs tie, "
           "which the parametric analysis finds" if entry.condition == "in general" else
           "this domain does not contain the outputs Giner's argument rests on")
    return f"{head}, stronger than {published}: {denied} holds here ({note}); {why}"


#: User measures that read ``wanted``/``examined``: evaluated only on users domains that vary them.
_NEEDS_EFFORT = {"recall_effort": True}


def _row(entry: GinerEntry, domains: Sequence[Domain]) -> GinerRow:
    wanted = {"set": SetsDomain, "user": UsersDomain, "rank": RankingsDomain}[entry.scores]
    chosen = [d for d in domains if isinstance(d, wanted)]
    if _NEEDS_EFFORT.get(entry.spec):  # wanted / examined is 0/0 = 0 on a domain without the effort
        chosen = [d for d in chosen if isinstance(d, UsersDomain) and d.examined_max is not None]
    results = tuple(classify(_metric(entry, d), d) for d in chosen)
    if not results:
        return GinerRow(entry, (), (), skipped=f"no {entry.scores} domain given")
    reproduced = tuple(r.domain for r in results if r.category == entry.published)
    explanation: tuple[str, ...] = ()
    if entry.published and not reproduced:
        explanation = tuple(_explain(r, entry) for r in results)
    return GinerRow(entry, results, reproduced, explanation)


def run_giner(domains: Iterable[Domain] | None = None,
              measures: Iterable[str] | None = None) -> GinerTable:
    """Classify every measure of Giner's Tables 2–3 on each domain of what it scores.

    ``domains`` defaults to :func:`canonical_domains`; sets domains serve the
    set measures, users domains Korfhage's user measures, rankings domains the
    rank measures. ``measures`` restricts
    the rows to those names (``giner.tsv``'s ``measure`` column), in the
    file's order; an unknown name is an :class:`~axiometer.core.InputError`.
    """
    chosen = tuple(canonical_domains() if domains is None else domains)
    entries = load_giner()
    if measures is not None:
        names = list(measures)
        known = {e.measure for e in entries}
        unknown = [m for m in names if m not in known]
        if unknown:
            raise InputError(f"unknown Giner measure {unknown[0]!r}; known: {', '.join(e.measure for e in entries)}")
        entries = tuple(e for e in entries if e.measure in names)
    rows = tuple(_row(e, chosen) for e in entries)
    return GinerTable(tuple(d.name for d in chosen if isinstance(d, SetsDomain))
                      + tuple(d.name for d in chosen if isinstance(d, UsersDomain)),
                      tuple(d.name for d in chosen if isinstance(d, RankingsDomain)), rows,
                      tuple(d.name for d in chosen if isinstance(d, UsersDomain)))
