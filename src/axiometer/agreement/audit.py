"""``audit``: every installed peer measure that corresponds to a built-in, against the reference.

:data:`CORRESPONDENCES` lists, per peer, its measure names and the built-in
each corresponds to. A peer is *installed* when its package imports; through
ir_measures, each installed provider that supports a measure gives one row
(``ir_measures/pytrec_eval``, ``ir_measures/gdeval``, ...). A row whose
implementation cannot be built or fails on every query is an error row with
the peer's message, not a dropped row.

:data:`CAUSES` holds what a finding's numbers cannot say: why a peer
differs, found by reading its code, written by hand; the audit's report
prints it under the row.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence

from axiometer.agreement.agree import DEFAULT_QUERIES, agree
from axiometer.agreement.result import AuditResult, AuditRow
from axiometer.core import AxiometerError, InputError

__all__ = ["CAUSES", "CORRESPONDENCES", "PROVIDERS", "audit", "audit_rows"]

#: ir_measures' measure name -> the built-in it corresponds to.
IR_MEASURES: tuple[tuple[str, str], ...] = (
    ("P@5", "P@5"), ("P@10", "P@10"), ("R@10", "R@10"), ("AP", "AP"), ("AP@10", "AP@10"), ("RR", "RR"),
    ("RR@10", "RR@10"), ("nDCG", "nDCG"), ("nDCG@10", "nDCG@10"), ("Rprec", "Rprec"), ("Bpref", "bpref"),
    ("ERR@10", "ERR@10"), ("RBP(rel=1)", "RBP"),
)
#: ranx's metric name -> the built-in it corresponds to.
RANX: tuple[tuple[str, str], ...] = (
    ("precision@5", "P@5"), ("precision@10", "P@10"), ("recall@10", "R@10"), ("map", "AP"), ("map@10", "AP@10"),
    ("mrr", "RR"), ("mrr@10", "RR@10"), ("ndcg", "nDCG"), ("ndcg@10", "nDCG@10"), ("ndcg_burges@10", "nDCG@10"),
    ("r-precision", "Rprec"), ("bpref", "bpref"), ("rbp.8", "RBP"),
)
CORRESPONDENCES: dict[str, tuple[tuple[str, str], ...]] = {"ir_measures": IR_MEASURES, "ranx": RANX}
#: The peers, in the order the audit lists them.
PROVIDERS = ("ir_measures", "ranx")

#: The cause of a finding, written by hand after reading the peer's code: ``(provider, measure)``
#: as an :class:`AuditRow` names them (``("ir_measures/pytrec_eval", "RR")``) -> one or two sentences
#: (what the peer's code does, with the file or function that does it). The audit's report prints it
#: in the row's write-up; a row without one is reported from its numbers alone.
CAUSES: dict[tuple[str, str], str] = {
    ("ir_measures/ranx", "*"): (
        "ir_measures 0.4 hands ranx its qrels as a pandas DataFrame, and ranx's Qrels.from_df asserts that the "
        "query-id column has dtype 'object'; pandas 3 gives text columns its own 'str' dtype, so the assertion "
        "fails on every input (an incompatibility of ir_measures' ranx provider with pandas 3, not a metric "
        "bug; ranx called directly, the rows below, works)."),
    ("ir_measures/gdeval", "*"): (
        "ir_measures writes the run to a file and runs gdeval.pl on it; a run with no line for any query is an "
        "empty file, on which the script stops with 'format error on line 1' and exit status 25. A query "
        "with an empty run among others is left out of its output."),
    ("ranx", "*"): (
        "Run({'q': {}}) raises in ranx's Run constructor, which takes max(len(id)) over the document ids "
        "(ranx/data_structures/run.py) and finds none; among other queries the empty one is scored 0. "
        "Ties are not broken by document id: ranx orders a run with numpy's argsort (ranx/data_structures/"
        "common.py, sort_dict_by_value), whose default sort keeps the line order of equal scores on runs as "
        "short as these and promises no order on longer ones."),
    ("ranx", "bpref"): (
        "ranx's _bpref divides by min(n_rels, n_non_rels) (ranx/metrics/bpref.py): with no judged non-relevant "
        "document that is 0/0, NaN, where trec_eval's bpref is 1 for a relevant document ranked first "
        "(judgments a:1; run a=1.0: ranx NaN, the reference 1.0). Among the generated queries some such "
        "queries came out 0.0 instead, and NaN alone (the property independence)."),
    ("ranx", "rbp.8"): (
        "ranx's _rank_biased_precision sums p^(i-1) times the raw grade (ranx/metrics/rank_biased_precision.py), "
        "so a grade above 1 gives RBP above 1; Moffat & Zobel's RBP takes gains in [0, 1] (this is the value "
        "ranx's issue tracker reports as exceeding its maximum)."),
}


def _installed(package: str) -> bool:
    return importlib.util.find_spec(package) is not None


def _ir_measures_pairs(measures: Sequence[str] | None) -> list[tuple[str, str, str]]:
    """``(provider label, implementation, built-in)`` for each installed ir_measures provider that
    supports a corresponding measure."""
    import ir_measures
    rows = []
    for name, provider in ir_measures.providers.registry.items():
        if name in ("compat", "runtime", "accuracy", "judged") or not provider.is_available():
            continue  # these compute other measures (or none of a ranking's quality)
        for measure, builtin in IR_MEASURES:
            if measures and builtin not in measures:
                continue
            try:
                supported = provider.supports(ir_measures.parse_measure(measure))
            except Exception:
                supported = False
            if supported:
                rows.append((f"ir_measures/{name}", f"ir_measures/{name}:{measure}", builtin))
    return rows


def audit_rows(providers: Sequence[str] | None = None,
               measures: Sequence[str] | None = None) -> list[tuple[str, str, str]]:
    """The rows an audit runs: ``(provider, implementation, built-in)``; ``providers`` and ``measures``
    (built-in names) narrow them. A peer that is not installed has no rows."""
    chosen = list(providers or PROVIDERS)
    unknown = [p for p in chosen if p not in PROVIDERS]
    if unknown:
        raise InputError(f"unknown provider {unknown[0]!r}; known: {', '.join(PROVIDERS)}", source="audit")
    rows: list[tuple[str, str, str]] = []
    for provider in chosen:
        if not _installed(provider):
            continue
        if provider == "ir_measures":
            rows += _ir_measures_pairs(measures)
        else:
            rows += [(provider, f"{provider}:{m}", b) for m, b in CORRESPONDENCES[provider]
                     if not measures or b in measures]
    return rows


def audit(providers: Sequence[str] | None = None, measures: Sequence[str] | None = None, *,
          queries: int = DEFAULT_QUERIES, seed: int = 0,
          progress: Callable[[int, int, str], None] | None = None) -> AuditResult:
    """Run ``agree`` on every row of :func:`audit_rows`; ``progress(done, total, row)`` after each."""
    rows = audit_rows(providers, measures)
    results = []
    for done, (provider, implementation, builtin) in enumerate(rows, 1):
        measure = implementation.split(":", 1)[1]
        try:
            found = agree(implementation, builtin, queries=queries, seed=seed)
            results.append(AuditRow(provider, measure, builtin, found))
        except AxiometerError as error:
            results.append(AuditRow(provider, measure, builtin, None, str(error)))
        if progress is not None:
            progress(done, len(rows), implementation)
    return AuditResult(tuple(results), queries, seed)
