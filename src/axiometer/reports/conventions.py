"""How a score report says which grade convention each metric read the qrels with.

``axiometer score`` reads each metric's grades as its reference implementation does
(:mod:`axiometer.grades`); every report (text, Markdown, HTML, JSON) says so, from
:attr:`axiometer.scoring.ScoreResult.conventions`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # reports only read the result
    from axiometer.scoring import ScoreResult

__all__ = ["conventions_lines", "MAPPING_TEXT"]

#: What each grade mapping does to a grade g, for the reports' "grades read" lines.
MAPPING_TEXT = {"linear": "r = g / gmax", "err": "r = (2^g - 1) / 2^gmax",
                "err-aspect": "r = (2^g - 1) / 2^gmax of the aspect", "binary": "r = 1 if g >= 1, else 0"}


def conventions_lines(result: ScoreResult) -> list[str]:
    """How each metric read the grades: a heading line, then one line per convention used
    (``linear (g / gmax: ...) as trec_eval: P@5, nDCG@10``), in order of first use; none without
    conventions (a result built by hand)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for metric, mapping, reference in result.conventions:
        groups.setdefault((mapping, reference), []).append(metric)
    if not groups:
        return []
    lines = ["Grades g read as relevance r, per metric: as its reference implementation reads them "
             "(--grades MAPPING reads all one way):"]
    for (mapping, reference), metrics in groups.items():
        who = "as --grades says" if reference == "--grades" else f"as {reference}"
        lines.append(f"{mapping} ({MAPPING_TEXT.get(mapping, mapping)}) {who}: {', '.join(metrics)}")
    return lines
