"""Reports of Metric Unanimity (:mod:`axiometer.unanimity`): text, Markdown, JSON.

One row per metric: MU (log2 of the exact ratio; a short exact fraction or
6 significant digits, :func:`axiometer.reports.numbers.number`), the exact
ratio ``P(m,M) / (P(m) P(M))``, the three probabilities as fractions, and
the pair counts. An undefined MU reads ``undefined`` and a line below the
table says why. The text's header (what was counted, and what ``m_ij``,
``M_ij`` and MU are) is wrapped to the width given. JSON keeps the exact
values as strings (``"4/3"``) beside the float MU (``null`` where undefined).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from axiometer.reports.numbers import DEFAULT_WIDTH, number, wrap, wrap_lines

if TYPE_CHECKING:
    from axiometer.unanimity import Unanimity

__all__ = ["REPORT_FORMATS", "format_unanimity"]

REPORT_FORMATS = ("text", "markdown", "json")


def _counted(results: Sequence[Unanimity]) -> str:
    first = results[0]
    topics = "topic" if first.topics == 1 else "topics"
    return (f"Metric Unanimity of {len(results)} metrics, each against the other "
            f"{len(first.others)}: {first.pairs} ordered pairs of system outputs (pairs within a "
            f"topic, pooled over {first.topics} {topics})")


#: What the table's symbols are.
_DEFINITION = ("m_ij: the metric scores si >= sj (a tie counts 1/2); M_ij: every other metric "
               "scores si >= sj; MU = log2(P(m_ij, M_ij) / (P(m_ij) P(M_ij))).")


def _header(results: Sequence[Unanimity]) -> str:
    return f"{_counted(results)}; {_DEFINITION}"


def format_unanimity(results: Sequence[Unanimity], format: str = "text", source: str = "",
                     width: int = DEFAULT_WIDTH) -> str:
    """``results`` (one per metric) as ``text``, ``markdown`` or ``json``; ``source`` says
    where the scores came from; text lines wrapped to ``width``."""
    if format not in REPORT_FORMATS:
        raise ValueError(f"unknown report format {format!r}; known: {', '.join(REPORT_FORMATS)}")
    if not results:
        raise ValueError("no metric unanimity results to report")
    if format == "json":
        return json.dumps({"source": source, "description": _header(results),
                           "metrics": [_record(r) for r in results]}, indent=1) + "\n"
    markdown = format == "markdown"
    rows = [(r.metric, "undefined" if r.mu is None else number(r.mu),
             "undefined" if r.ratio is None else str(r.ratio), str(r.p_joint), str(r.p_m),
             str(r.p_M), r.unanimous, r.pairs) for r in results]
    table = tabulate(rows, headers=("metric", "MU", "ratio", "P(m,M)", "P(m)", "P(M)",
                                    "unanimous pairs", "pairs"),
                     tablefmt="github" if markdown else "simple", disable_numparse=True)
    counted = _counted(results) + (f"; scores from {source}" if source else "") + "."
    header = "\n".join(wrap(counted, width, hang=2) + wrap(_DEFINITION, width, hang=2))
    parts = [header, table]
    notes = [f"{r.metric}: MU undefined: {r.undefined}" for r in results if r.undefined]
    if notes:
        parts.append("\n".join(wrap_lines((("- " if markdown else "") + note for note in notes), width)))
    return "\n\n".join(parts) + "\n"


def _record(r: Unanimity) -> dict[str, Any]:
    return {"metric": r.metric, "others": list(r.others), "mu": r.mu,
            "ratio": None if r.ratio is None else str(r.ratio),
            "p_joint": str(r.p_joint), "p_m": str(r.p_m), "p_M": str(r.p_M),
            "pairs": r.pairs, "unanimous": r.unanimous, "topics": r.topics,
            "undefined": r.undefined}
