"""Metrics behind one protocol, and the registry of built-in metrics.

One metric family per module (``precision.py``, ``dcg.py``, ``rbu.py``, ...),
each class declaring its parameters and citing its paper in the docstring.
:func:`parse` turns a spec string into a metric; :data:`TABLE_ROWS` lists the
20 rows of the SIGIR 2018 table with their default specs.

Families are imported lazily, so ``import axiometer.metrics`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

from axiometer.metrics.base import (
    BuiltinMetric,
    FunctionMetric,
    Metric,
    MetricError,
    Needs,
    Param,
    RankingBatch,
    is_exact_capable,
    wrap,
)
from axiometer.metrics.spec import ParsedSpec, build, parse_spec

__all__ = [
    "BuiltinMetric", "FunctionMetric", "Metric", "MetricError", "Needs", "Param",
    "RankingBatch", "wrap", "is_exact_capable", "parse", "families", "family",
    "describe", "TABLE_ROWS", "RELATIVE_ROWS", "table_metrics", "parse_spec",
]

# spec name -> (module, class). One family per module, found by its name.
_FAMILIES: dict[str, tuple[str, str]] = {
    "P": ("precision", "Precision"),
    "RR": ("reciprocal_rank", "ReciprocalRank"),
    "AP": ("average_precision", "AveragePrecision"),
    "DCG": ("dcg", "DCG"),
    "nDCG": ("dcg", "NDCG"),
    "ERR": ("err", "ERR"),
    "RBP": ("rbp", "RBP"),
    "P_IA": ("intent_aware", "PrecisionIA"),
    "RR_IA": ("intent_aware", "ReciprocalRankIA"),
    "AP_IA": ("intent_aware", "AveragePrecisionIA"),
    "nDCG_IA": ("intent_aware", "NDCGIA"),
    "ERR_IA": ("intent_aware", "ERRIA"),
    "nERR_IA": ("intent_aware", "NERRIA"),
    "RBP_IA": ("intent_aware", "RBPIA"),
    "StRecall": ("subtopic_recall", "SubtopicRecall"),
    "SRR": ("subtopic_recall", "SubtopicReciprocalRank"),
    "alpha_DCG": ("alpha_ndcg", "AlphaDCG"),
    "alpha_nDCG": ("alpha_ndcg", "AlphaNDCG"),
    "NRBP": ("nrbp", "NRBP"),
    "nNRBP": ("nrbp", "NNRBP"),
    "DSharp_nDCG": ("dsharp", "DSharpNDCG"),
    "EU": ("expected_utility", "ExpectedUtility"),
    "CT": ("cube_test", "CubeTest"),
    "RBU": ("rbu", "RBU"),
    "Rprec": ("r_precision", "RPrecision"),
    "SR": ("sliding_ratio", "SlidingRatio"),
    "MSR": ("sliding_ratio", "ModifiedSlidingRatio"),
    "Rnorm": ("normalised_recall", "Rnorm"),
    "Pnorm": ("normalised_recall", "Pnorm"),
    "R_measure": ("sakai", "RMeasure"),
    "Q_measure": ("sakai", "QMeasure"),
    "bpref": ("bpref", "Bpref"),
    "ESL": ("expected_search_length", "ExpectedSearchLength"),
    "wRprec": ("weighted_precision", "WeightedRPrecision"),
    "AWP": ("weighted_precision", "AverageWeightedPrecision"),
    # Relative (novelty) metrics: they need a context of other systems (definitions §6).
    "NRG": ("nrg", "NRG"),
    "Unique": ("nrg", "UniqueContributions"),
    "RareP": ("rareness", "RareP"),
    "RareAP": ("rareness", "RareAP"),
    "RareP_rev": ("rareness", "RevisedRareP"),
    "FujiiU": ("fujii", "FujiiU"),
}

#: The 20 rows of the SIGIR 2018 constraint table: (row title, default spec).
TABLE_ROWS: tuple[tuple[str, str], ...] = (
    ("P@k", "P@10"),
    ("RR", "RR"),
    ("AP", "AP"),
    ("nDCG@k", "nDCG@10"),
    ("ERR@k", "ERR@10"),
    ("RBP", "RBP(p=0.8)"),
    ("P-IA@k", "P_IA@10"),
    ("RR-IA@k", "RR_IA"),
    ("AP-IA", "AP_IA"),
    ("nDCG-IA@k", "nDCG_IA@10"),
    ("ERR-IA@k", "ERR_IA@10"),
    ("RBP-IA", "RBP_IA(p=0.8)"),
    ("S-Recall@k", "StRecall@10"),
    ("S-RR@100%", "SRR"),
    ("NRBP", "NRBP(alpha=0.5,beta=0.5)"),
    ("D#-Measure@k", "DSharp_nDCG(gamma=0.5)@10"),
    ("alpha-nDCG@k", "alpha_nDCG(alpha=0.5)@10"),
    ("EU", "EU(alpha=0.5,e=0.05)"),
    ("CT@k", "CT(alpha=0.5)@10"),
    ("RBU@k", "RBU(p=0.8,e=0.05)@10"),
)

#: The relative metrics' matrix (``axiometer table --family relative``): (row title, default spec).
RELATIVE_ROWS: tuple[tuple[str, str], ...] = (
    ("P@K_rare", "RareP(alpha=0.5)@10"),
    ("AP_rare", "RareAP(alpha=0.5)@10"),
    ("P'@K_rare", "RareP_rev(alpha=0.5)@10"),
    ("U(x)", "FujiiU(policy='skip')"),
    ("NRG(nDCG@K)", "NRG(base=nDCG@10)"),
    ("NRG(RBP)", "NRG(base=RBP(p=0.8))"),
    ("NRG(P@K)", "NRG(base=P@10)"),
    ("raw NRG(nDCG@K)", "NRG(base=nDCG@10,norm='none')"),
    ("unique contributions", "Unique@10"),
)


def families() -> tuple[str, ...]:
    """The spec names of every built-in family."""
    return tuple(_FAMILIES)


def family(name: str) -> type[BuiltinMetric]:
    """The class of a built-in family, by spec name."""
    module, cls = _FAMILIES[name]
    return getattr(importlib.import_module(f"axiometer.metrics.{module}"), cls)


def describe(name: str) -> str:
    """One line naming a family's parameters, ranges, defaults and cutoff rule."""
    cls = family(name)
    parts = [f"{p.name}: {p.range_text()}, default {p.default!r}" for p in cls.param_info]
    cutoff = {"none": "no cutoff", "optional": "optional cutoff @k",
              "required": f"cutoff @k (default {cls.default_cutoff})"}[cls.cutoff_rule]
    return f"{name} takes " + ("; ".join(parts) + "; " if parts else "no parameters; ") + cutoff


class _Lazy(dict):
    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        return family(key) if key in _FAMILIES else default


def parse(spec: str, parsed: ParsedSpec | None = None) -> BuiltinMetric:
    """Build a built-in metric from a spec string, e.g. ``parse("nDCG@10")``.

    ``parsed``: ``spec`` already parsed by :func:`parse_spec`, so that a caller
    that needs the parsed parameters too (:func:`axiometer.metrics.resolve.resolve`)
    parses the string once. Raises :class:`~axiometer.core.InputError` naming
    the bad token, listing the known metrics or the family's parameters.
    """
    return build(spec, _Lazy.fromkeys(_FAMILIES), describe, parsed)


def table_metrics() -> list[tuple[str, BuiltinMetric]]:
    """The 20 metrics of the SIGIR 2018 table at their default parameters."""
    return [(title, parse(spec)) for title, spec in TABLE_ROWS]
