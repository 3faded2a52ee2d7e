"""Reports of Metric Unanimity (:mod:`axiometer.unanimity`): text, Markdown, JSON, HTML.

One row per metric: MU (log2 of the exact ratio; a short exact fraction or
6 significant digits, :func:`axiometer.reports.numbers.number`), the exact
ratio ``P(m,M) / (P(m) P(M))``, the three probabilities as fractions, and
the pair counts. An undefined MU reads ``undefined`` and a line below the
table says why. The text's header (what was counted, and what ``m_ij``,
``M_ij`` and MU are) is wrapped to the width given. JSON keeps the exact
values as strings (``"4/3"``) beside the float MU (``null`` where undefined).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from axiometer.reports.document import (
    Block, BulletList, Document, JsonStyle, Number, Paragraph, Row, Table, TableCell,
)
from axiometer.reports.numbers import DEFAULT_WIDTH, number
from axiometer.reports.render import check_format, formats_of, render

if TYPE_CHECKING:
    from axiometer.unanimity import Unanimity

__all__ = ["REPORT_FORMATS", "format_unanimity", "unanimity_document"]

REPORT_FORMATS = formats_of("unanimity")
_TEXT = ("text", "markdown")


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


def _count(n: int) -> TableCell:
    """A count, as a number (a column of counts aligns right)."""
    return TableCell((Number(n, str(n)),))


def unanimity_document(results: Sequence[Unanimity], source: str = "") -> Document:
    """What was counted and what the symbols mean, one row per metric, and why an MU is undefined."""
    if not results:
        raise ValueError("no metric unanimity results to report")
    counted = _counted(results) + (f"; scores from {source}" if source else "") + "."
    rows = [(r.metric, "undefined" if r.mu is None else number(r.mu),
             "undefined" if r.ratio is None else str(r.ratio), str(r.p_joint), str(r.p_m), str(r.p_M))
            for r in results]
    table = Table(headers=tuple(TableCell((h,), header=True) for h in (
                      "metric", "MU", "ratio", "P(m,M)", "P(m)", "P(M)", "unanimous pairs", "pairs")),
                  rows=tuple(Row((*(TableCell((text,)) for text in row), _count(r.unanimous), _count(r.pairs)))
                             for row, r in zip(rows, results)),
                  simple=True)
    blocks: list[Block] = [Paragraph(parts=(counted,), hang=2),
                           Paragraph(parts=(_DEFINITION,), hang=2, tight=_TEXT), table]
    notes = [f"{r.metric}: MU undefined: {r.undefined}" for r in results if r.undefined]
    if notes:
        blocks.append(BulletList(items=tuple((note,) for note in notes), marker=""))
    return Document(title="", page_title="Metric Unanimity", blocks=tuple(blocks),
                    json=JsonStyle(indent=1, ascii=True, finite=False),
                    data=lambda: {"source": source, "description": _header(results),
                                  "metrics": [_record(r) for r in results]})


def format_unanimity(results: Sequence[Unanimity], format: str = "text", source: str = "",
                     width: int = DEFAULT_WIDTH) -> str:
    """``results`` (one per metric) as ``text``, ``markdown``, ``json`` or ``html``; ``source`` says
    where the scores came from; text lines wrapped to ``width``."""
    check_format("unanimity", format)
    return render(unanimity_document(results, source), format, width)


def _record(r: Unanimity) -> dict[str, Any]:
    return {"metric": r.metric, "others": list(r.others), "mu": r.mu,
            "ratio": None if r.ratio is None else str(r.ratio),
            "p_joint": str(r.p_joint), "p_m": str(r.p_m), "p_M": str(r.p_M),
            "pairs": r.pairs, "unanimous": r.unanimous, "topics": r.topics,
            "undefined": r.undefined}
