"""One realistic result of every kind the reports render, each built by a small real run of the
library, and the same result with hostile text in place of every name and id a user gives.

Each :class:`Sample` is made once: a constraint table of a user's metric (counterexamples, an error
cell, a witness, a boundary, the published comparison), one metric's check, Giner's table, an
intrinsic classification with its parametric analysis, scores of three runs (with a relative metric,
so the page has its scatter), their comparison, a meta-evaluation, Metric Unanimity, a user's
implementation against a built-in (``agree``: a minimal case, a failing property) and an audit of
peers (a finding whose implementation raised, an error row). Every name
and id a user chooses (a metric's name, the message it raises, topic, document and run ids, where
the scores came from) is a *sentinel*: a token found nowhere else in the result, so that
:meth:`Sample.hostile` can put any text in its place, inside every string of the result that holds
it (``NRG(base=zqmetric)`` as well as ``zqmetric``), as a user's files or metric would have. Giner's
table names no user's text; its measures' names (as ``giner.tsv`` has them) stand in, as a table
built in Python may name them anything.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from axiometer.reports.document import Document

#: The sentinels, each standing for one name or id a user gives; none is a substring of another.
METRIC, MESSAGE, PRINTED, OTHER_METRIC = "zqmetric", "zqmessage", "zqprinted", "zqother"
TOPICS = ("zqtopic1", "zqtopic2", "zqtopic3", "zqtopic9")
DOCUMENTS = ("zqdoc1", "zqdoc2", "zqdoc3", "zqdoc4", "zqdoc9")
RUNS = ("zqruna", "zqrunb", "zqrunc")
SOURCE = "zqsource"
PEER, MEASURES = "zqpeer", ("zqmeasa", "zqmeasb", "zqmeasc")


@dataclass(frozen=True)
class Sample:
    """A result, the sentinels in it, and how its report is built (a document per format's use)."""

    kind: str                               # the key of REPORT_FORMATS its report has
    result: Any
    sentinels: tuple[str, ...]
    document: Callable[[Any, int], Document]  # (result, width) -> its report's document
    #: Sentinels the report quotes in a form of its own (what a metric printed: its first characters,
    #: line breaks as ``\n``), so that they read back as written only in the JSON.
    quoted: tuple[str, ...] = ()

    def __repr__(self) -> str:  # short where a failing example is printed
        return f"<{self.kind} sample>"

    def hostile(self, texts: Sequence[str]) -> Any:
        """The result with ``texts[i]`` wherever ``sentinels[i]`` stood."""
        pairs = sorted(zip(self.sentinels, texts), key=lambda pair: -len(pair[0]))

        def replace(text: str) -> str:
            for sentinel, hostile in pairs:
                text = text.replace(sentinel, hostile)
            return text

        return substituted(self.result, replace)


def substituted(value: Any, replace: Callable[[str], str]) -> Any:
    """``value`` with ``replace`` applied to every string in it (dataclasses, tuples, lists, mappings
    and arrays of strings rebuilt; enums, numbers and everything else kept)."""
    if isinstance(value, Enum):
        return value
    if isinstance(value, str):
        return replace(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **{f.name: substituted(getattr(value, f.name), replace)
                                             for f in dataclasses.fields(value) if f.init})
    if isinstance(value, tuple):
        return tuple(substituted(v, replace) for v in value)
    if isinstance(value, list):
        return [substituted(v, replace) for v in value]
    if isinstance(value, dict):
        return {substituted(k, replace): substituted(v, replace) for k, v in value.items()}
    return value


# -- the runs ------------------------------------------------------------------------------------

def _metric(ranking: Sequence[str], topic: Any) -> float:
    """A user's metric: the ranking's length over ten; it prints, and raises past two documents (an
    error cell)."""
    print(PRINTED)
    if len(ranking) > 2:
        raise ValueError(MESSAGE)
    return len(ranking) / 10


def _other(ranking: Sequence[str], topic: Any) -> float:
    """Another user's metric, which never raises: a counterexample for every constraint it fails."""
    return len(ranking) / 10


@functools.cache
def _table() -> Any:
    """Two users' metrics (counterexamples, an error cell) and RBP over a range of p (a witness, a
    boundary with its closed form and picture), as one table."""
    from axiometer.checking import run_budget
    from axiometer.metrics.resolve import resolve
    from axiometer.runner import run_table

    quick = run_budget(True)
    users = run_table([resolve(_metric, name=METRIC), resolve(_other, name=OTHER_METRIC)], ["Pri", "Red", "DeepTh"],
                      seed=0, budget=quick, quick=True, jobs=1)  # supervised: what the metric prints is kept
    rbp = run_table([resolve("RBP", params={"p": (0.1, 0.99)})], ["CloseTh"], seed=0, budget=quick, quick=True,
                    isolate=False, jobs=1, boundaries=True)
    return dataclasses.replace(users, rows=(*users.rows, *rbp.rows), constraints=(*users.constraints, *rbp.constraints),
                               cells=(*users.cells, *rbp.cells), axioms=(*users.axioms, *rbp.axioms))


def _campaign(directory: Path) -> tuple[Any, list[Any]]:
    """Qrels of three topics and three runs: one lacks a topic, one holds a topic the qrels lack."""
    from axiometer.readers import read_qrels, read_run

    t1, t2, t3, t9 = TOPICS
    d1, d2, d3, d4, d9 = DOCUMENTS
    a, b, c = RUNS
    files = {
        "qrels": f"{t1} 0 {d1} 1\n{t1} 0 {d2} 0\n{t1} 0 {d3} 2\n{t2} 0 {d1} 1\n{t2} 0 {d4} 1\n{t3} 0 {d2} 1\n",
        "a": f"{t1} Q0 {d1} 1 3 {a}\n{t1} Q0 {d2} 2 2 {a}\n{t2} Q0 {d4} 1 1 {a}\n{t3} Q0 {d2} 1 1 {a}\n",
        "b": f"{t1} Q0 {d3} 1 3 {b}\n{t1} Q0 {d1} 2 2 {b}\n{t2} Q0 {d9} 1 1 {b}\n{t9} Q0 {d2} 1 1 {b}\n",
        "c": f"{t1} Q0 {d2} 1 3 {c}\n{t2} Q0 {d1} 2 2 {c}\n{t3} Q0 {d2} 1 1 {c}\n{t3} Q0 {d1} 2 0 {c}\n",
    }
    for name, text in files.items():
        (directory / name).write_text(text, encoding="utf-8")
    return read_qrels(directory / "qrels"), [read_run(directory / name) for name in "abc"]


@functools.cache
def _scored(directory: Path) -> tuple[Any, Any, list[Any]]:
    from axiometer.metrics.resolve import resolve
    from axiometer.scoring import score_runs

    qrels, runs = _campaign(directory)
    result = score_runs(qrels, runs, ["P@2", "nDCG@3", resolve(_other, name=METRIC), "NRG(base=nDCG@3)"],
                        per_topic=True)
    return result, qrels, runs


# -- the samples ---------------------------------------------------------------------------------

_CAMPAIGN = (*TOPICS, *DOCUMENTS, *RUNS, METRIC)


def table_sample() -> Sample:
    from axiometer.axioms.published import compare_with_published
    from axiometer.reports.table.build import table_document

    result = _table()
    return Sample("table", (result, compare_with_published(result)), (METRIC, OTHER_METRIC, MESSAGE, PRINTED),
                  lambda r, width: table_document(r[0], r[1], details=True, width=width), quoted=(PRINTED,))


def check_sample() -> Sample:
    from axiometer.reports.table.build import check_document
    from axiometer.reports.table.cells import header_lines

    table = _table()
    one = dataclasses.replace(table, rows=table.rows[:1], cells=tuple(c for c in table.cells if c.row == METRIC))
    return Sample("check", one, (METRIC, MESSAGE, PRINTED),
                  lambda r, width: check_document(list(r.cells), header_lines(r), details=True, width=width,
                                                  axioms=r.axioms, table=r), quoted=(PRINTED,))


@functools.cache
def _giner() -> Any:
    from axiometer.generators.domains import rankings, sets
    from axiometer.intrinsic.giner import run_giner

    return run_giner(domains=(sets(6, 2), rankings(3)),
                     measures=("fallout", "F-measure", "recall effort", "Prec@k", "RBP (p = 0.8)"))


def giner_sample() -> Sample:
    from axiometer.reports.giner import giner_document

    return Sample("giner", _giner(), ("fallout", "F-measure", "Prec@k", "RBP (p = 0.8)"),
                  lambda r, width: giner_document(r))


@functools.cache
def _intrinsic() -> tuple[Any, Any]:
    from axiometer.generators.domain_spec import parse_domain
    from axiometer.intrinsic.classify import classify
    from axiometer.intrinsic.parametric import analyse
    from axiometer.metrics.resolve import resolve

    domain = parse_domain("rankings(n=3,grades=2)")
    return classify(resolve(_other, name=METRIC).metric, domain), analyse(resolve("RBP").metric, "p", domain)


def intrinsic_sample() -> Sample:
    from axiometer.reports.intrinsic import intrinsic_document, parametric_sentences

    result, parametric = _intrinsic()
    # The parametric analysis rides along under the metric's name, as the page of one metric shows it.
    parametric = dataclasses.replace(parametric, metric=METRIC)
    return Sample("intrinsic", (result, parametric), (METRIC,),
                  lambda r, width: intrinsic_document(r[0], r[1], parametric_sentences(r[1])))


def scores_sample(directory: Path) -> Sample:
    from axiometer.reports.scores import scores_document

    result = _scored(directory)[0]
    return Sample("scores", result, _CAMPAIGN, lambda r, width: scores_document(r, per_topic=True))


def compare_sample(directory: Path) -> Sample:
    from axiometer.reports.compare import comparison_document
    from axiometer.significance import compare

    comparison = compare(_scored(directory)[0], permutations=200, resamples=200)
    return Sample("compare", comparison, _CAMPAIGN, lambda r, width: comparison_document(r))


def meta_sample(directory: Path) -> Sample:
    from axiometer.meta import meta_evaluate
    from axiometer.metrics.resolve import resolve
    from axiometer.reports.meta import meta_document

    _, qrels, runs = _scored(directory)
    result = meta_evaluate(qrels, runs, ["P@2", resolve(_other, name=METRIC)], permutations=100, trials=10)
    return Sample("meta", (result, SOURCE), (*_CAMPAIGN, SOURCE), lambda r, width: meta_document(*r))


def unanimity_sample(directory: Path) -> Sample:
    from axiometer.reports.unanimity import unanimity_document
    from axiometer.unanimity import metric_unanimity

    results = tuple(metric_unanimity(_scored(directory)[0]))
    return Sample("unanimity", (results, SOURCE), (*_CAMPAIGN, SOURCE), lambda r, width: unanimity_document(*r))


def _wrong_rr(grades: dict[str, int], scores: dict[str, float]) -> float:
    """A user's RR, one rank off; it raises on a query with no relevant document (a failing property)."""
    if not any(g > 0 for g in grades.values()):
        raise ValueError(MESSAGE)
    ranked = sorted(scores, key=lambda d: (scores[d], d), reverse=True)
    return next((1 / (i + 2) for i, d in enumerate(ranked) if grades.get(d, 0) > 0), 0.0)


def _raising_rr(grades: dict[str, int], scores: dict[str, float]) -> float:
    """A user's RR counting ranks from 0: it raises where the first relevant document is first."""
    ranked = sorted(scores, key=lambda d: (scores[d], d), reverse=True)
    for i, d in enumerate(ranked):
        if grades.get(d, 0) > 0:
            if i == 0:
                raise ZeroDivisionError(MESSAGE)
            return 1 / i
    return 0.0


def _right_rr(grades: dict[str, int], scores: dict[str, float]) -> float:
    ranked = sorted(scores, key=lambda d: (scores[d], d), reverse=True)
    return next((1 / i for i, d in enumerate(ranked, 1) if grades.get(d, 0) > 0), 0.0)


def _named(result: Any, name: str, provider: str) -> Any:
    """``result`` of a function, as if ``name`` computed it, its minimal case's documents the sentinels."""
    case = result.case
    ids = sorted({d for d, _ in case.query.judgments} | {d for d, _ in case.query.run})
    case = dataclasses.replace(case, query=case.query.renamed(dict(zip(ids, DOCUMENTS))))
    return dataclasses.replace(result, implementation=name, provider=provider, case=case)


@functools.cache
def _agreements() -> tuple[Any, Any, Any]:
    from axiometer.agreement.agree import agree

    return (agree(_wrong_rr, "RR", queries=20), agree(_raising_rr, "RR", queries=20),
            agree(_right_rr, "RR", queries=20))


def agree_sample() -> Sample:
    from axiometer.reports.agreement import agreement_document

    result = _named(_agreements()[0], METRIC, f"{METRIC} (per query)")
    return Sample("agree", result, (METRIC, MESSAGE, *DOCUMENTS), lambda r, width: agreement_document(r))


def audit_sample() -> Sample:
    from axiometer.agreement.result import AuditResult, AuditRow
    from axiometer.reports.agreement import audit_document

    _, raising, right = _agreements()
    a, b, c = MEASURES
    rows = (AuditRow(PEER, a, "RR", _named(raising, f"{PEER}:{a}", f"{PEER} 1.0")),
            AuditRow(PEER, b, "RR", dataclasses.replace(right, implementation=f"{PEER}:{b}", provider=f"{PEER} 1.0")),
            AuditRow(PEER, c, "P@5", None, MESSAGE))
    return Sample("audit", AuditResult(rows, 20, 0), (PEER, *MEASURES, MESSAGE, *DOCUMENTS),
                  lambda r, width: audit_document(r))


#: Every sample, by the report it is written as: each key of REPORT_FORMATS once.
SAMPLES: dict[str, Callable[[Path], Sample]] = {
    "table": lambda directory: table_sample(), "check": lambda directory: check_sample(),
    "giner": lambda directory: giner_sample(), "intrinsic": lambda directory: intrinsic_sample(),
    "scores": scores_sample, "compare": compare_sample, "meta": meta_sample, "unanimity": unanimity_sample,
    "agree": lambda directory: agree_sample(), "audit": lambda directory: audit_sample(),
}
