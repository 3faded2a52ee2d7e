"""Metrics behind one protocol, and the registry of built-in metrics.

One metric family per module (``precision.py``, ``dcg.py``, ``rbu.py``, ...),
each class declaring its parameters and citing its paper in the docstring,
each module registering its families in the one registry
(:mod:`axiometer.metrics.registry`: ranking, relative and set-based).
:func:`parse` turns a spec string into a metric; :data:`TABLE_ROWS` lists the
20 rows of the SIGIR 2018 table with their default specs.

Family modules are imported on the first lookup, so ``import axiometer.metrics``
stays cheap.
"""

from __future__ import annotations

from axiometer.metrics.base import (
    BuiltinMetric,
    ExactMetric,
    FunctionMetric,
    Metric,
    MetricError,
    Needs,
    Param,
    RankingBatch,
    is_exact_capable,
    wrap,
)
from axiometer.metrics.adapter import UserMetric, adapt
from axiometer.metrics.registry import describe, families, family, parse
from axiometer.metrics.resolve import Grid, Range, parameters
from axiometer.metrics.spec import parse_spec

__all__ = [
    "BuiltinMetric", "FunctionMetric", "Metric", "ExactMetric", "UserMetric", "adapt", "Grid", "Range",
    "parameters", "MetricError", "Needs", "Param",
    "RankingBatch", "wrap", "is_exact_capable", "parse", "families", "family",
    "describe", "TABLE_ROWS", "RELATIVE_ROWS", "table_metrics", "parse_spec",
]

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

#: The relative metrics' matrix (``axiometer table --rows relative``): (row title, default spec).
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


def table_metrics() -> list[tuple[str, BuiltinMetric]]:
    """The 20 metrics of the SIGIR 2018 table at their default parameters."""
    return [(title, parse(spec)) for title, spec in TABLE_ROWS]
