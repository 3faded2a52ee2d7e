"""The page's own parts of a scores report (``axiometer score --format html``).

The means as a table (runs x metrics), the notes and the grades each metric
read; with relative metrics, the prior sets, Kendall's tau-b and each
relative metric against its base metric per run (a scatter, when it names
one, ``base=``, and that was scored too); with ``per_topic``, every topic's
values. The text and Markdown report is :func:`axiometer.reports.scores.scores_document`'s
other blocks.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from axiometer.reports.conventions import conventions_lines
from axiometer.reports.document import (
    ONE_LINE, Block, BulletList, Figure, Paragraph, Row, Section, Table, TableCell,
)
from axiometer.reports.numbers import number

if TYPE_CHECKING:  # reports only read the result; importing scoring would load numpy and sympy
    from axiometer.scoring import ScoreResult

__all__ = ["page_blocks"]

HTML = ("html",)
#: A mean as the text report prints it: 6 significant digits, decimals rather than fractions so
#: that a column compares at a glance.
_MEAN = ".6g"


def _base_metric(result: ScoreResult, relative: str) -> str | None:
    """The base metric a relative metric builds on (``NRG(base=nDCG@10)``: ``result.bases``), when
    it was scored too."""
    base = result.bases.get(relative)
    return base if base in result.metrics else None


def _table(headers: tuple[str, ...], rows: list[tuple[object, ...]], numeric: tuple[int, ...]) -> Table:
    return Table(headers=tuple(TableCell((h,), header=True) for h in headers), numeric=numeric,
                 rows=tuple(Row(tuple(TableCell((str(v),)) for v in row)) for row in rows))


def _means(result: ScoreResult, notes: list[str]) -> Section:
    means = {(m.run, m.metric): m.value for m in result.means}
    children: list[Block] = [
        Paragraph(parts=(f"Mean over {len(result.topics)} qrels topic{'s' if len(result.topics) != 1 else ''} "
                         "(a topic missing from a run scores 0; run topics absent from the qrels are ignored).",)),
        _table(("run", *result.metrics), [(run, *(format(means[run, m], _MEAN) for m in result.metrics))
                                          for run in result.runs],
               tuple(range(1, len(result.metrics) + 1)))]
    if notes:
        children.append(BulletList(items=tuple((n,) for n in notes)))
    grades = conventions_lines(result)
    if grades:
        children.append(Section(title=(), level=3, tag="", lines=ONE_LINE, children=(
            Paragraph(parts=(grades[0],)), BulletList(items=tuple((g,) for g in grades[1:])))))
    return Section(title=("Means",), level=2, id="means", toc="Means", children=tuple(children))


def _relative(result: ScoreResult) -> Section:
    from axiometer.reports import plots

    assert result.priors is not None
    children: list[Block] = [Paragraph(parts=(f"{', '.join(result.relative)} score each run against other runs; "
                                              f"prior sets: {result.priors.description}.",))]
    if result.kendall:
        headers = ("relative", "metric", "tau-b", "concordant", "discordant", "ties (relative)", "ties (metric)")
        table = _table(headers,
                       [(k.relative, k.metric, "undefined" if k.tau is None else number(k.tau), k.concordant,
                         k.discordant, k.ties_relative, k.ties_metric) for k in result.kendall], (2, 3, 4, 5, 6))
        children.append(Section(title=("Kendall's tau-b between the run orderings (by mean)",), level=3, tag="",
                                children=(table,)))
        if any(k.tau is None for k in result.kendall):
            children.append(Paragraph(parts=("undefined: one of the two metrics ties every run (or there are fewer "
                                             "than two runs).",), css="muted"))
    for index, relative in enumerate(result.relative, 1):
        base = _base_metric(result, relative)
        if base is not None:
            children.append(Figure(draw=partial(plots.relative_scatter, result, relative, base),
                                   prefix=f"scatter-{index}",
                                   caption=f"{relative} against {base}: one point per run (its mean over "
                                           "the topics)."))
    return Section(title=("Relative metrics",), level=2, id="relative", toc="Relative metrics",
                   children=tuple(children))


def page_blocks(result: ScoreResult, per_topic: bool, notes: list[str]) -> list[Block]:
    """The page's sections, shown in HTML only (``notes``: the runs that lack topics or hold topics
    the qrels lack, as the text says them)."""
    blocks: list[Section] = [_means(result, notes)]
    if result.priors is not None:
        blocks.append(_relative(result))
    if per_topic and result.scores:
        blocks.append(Section(title=("Per topic",), level=2, id="per-topic", toc="Per topic", children=(
            _table(("run", "topic", "metric", "value"),
                   [(s.run, s.topic, s.metric, format(s.value, _MEAN)) for s in result.scores], (3,)),)))
    return [replace(block, formats=HTML) for block in blocks]
