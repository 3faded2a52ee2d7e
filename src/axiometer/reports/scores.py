"""Reports of a :class:`~axiometer.scoring.ScoreResult`: text, Markdown, LaTeX, JSON, HTML, trec_eval's lines.

- ``text``: the means as a table (runs as rows and metrics as columns, or
  metrics as rows when there are more metrics than runs), with
  ``per_topic`` a run / topic / metric / value listing before it, then one
  line per run that lacks qrels topics (scored 0) or has topics the qrels
  lack (ignored).
- ``markdown``: the same as GitHub-flavoured Markdown tables.
- ``latex``: booktabs tables a paper can ``\\input``: the means (one row per metric, one
  column per run, numbers as the text prints them), with ``per_topic`` one table per metric
  (one row per topic, one column per run) before it, and with relative metrics Kendall's tau-b.
- ``json``: a list of objects ``{"run", "topic", "metric", "value"}``, the
  per-topic records (with ``per_topic``) followed by the means, which have
  no ``"topic"`` and say how the metric read the grades (``"grades"``: the
  mapping, ``"grades_as"``: whose convention). With relative metrics two objects follow, ``{"priors":
  {...}}`` (how each run's context was chosen) and ``{"kendall_tau":
  [...]}`` (one object per relative and non-relative metric); they have no
  ``"run"``.

- ``trec``: trec_eval's lines, ``measure<TAB>topic<TAB>value`` with the
  measure name padded to 22 columns and 4 decimals (its ``%-22s\t%s\t%6.4f``),
  our metric names; per run, with ``per_topic`` the topics' lines first
  (sorted as trec_eval sorts query ids, every metric of a topic together, as
  ``trec_eval -q``), then the ``all`` lines: ``runid`` (the run's label),
  ``num_q`` (the qrels topics, as ``trec_eval -c`` counts them) and the means.
  Notes, priors and Kendall's tau are not part of it.

With relative metrics the means table has one row per run (base and
relative metrics side by side), followed by the prior sets and Kendall's
tau-b between the orderings.

Reports only format; they never compute a score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from axiometer.reports.conventions import conventions_lines
from axiometer.reports.document import (
    Block, BulletList, Document, Group, Inline, JsonStyle, Math, Number, Paragraph, Row, Strong, Table, TableCell,
)
from axiometer.reports.render import formats_of, render
from axiometer.reports.score_page import page_blocks

if TYPE_CHECKING:  # reports only read the result; importing scoring would load numpy and sympy
    from axiometer.scoring import ScoreResult

__all__ = ["REPORT_FORMATS", "SCORE_FORMATS", "format_scores", "scores_document"]

#: The formats of a campaign's report.
REPORT_FORMATS = formats_of("scores")
_TEXT = ("text", "markdown")

#: Every format :func:`format_scores` writes: the report formats and trec_eval's lines (``score``'s).
SCORE_FORMATS = (*REPORT_FORMATS, "trec")

#: Significant digits shown in text and Markdown: never float noise, enough to tell runs apart
#: (trec_eval prints 4 decimals, which hides differences below 0.0001); JSON keeps full precision.
#: Means are decimals, not fractions, so that a column compares at a glance.
SIGNIFICANT = 6
FLOAT_FORMAT = f".{SIGNIFICANT}g"


def format_scores(result: ScoreResult, format: str = "text", per_topic: bool = False) -> str:
    """``result`` in one of :data:`SCORE_FORMATS`; ``per_topic`` adds the
    per-topic values (the result must hold them)."""
    if format not in SCORE_FORMATS:
        raise ValueError(f"unknown report format {format!r}; known: {', '.join(SCORE_FORMATS)}")
    if per_topic and not result.scores and result.runs and result.metrics:
        raise ValueError("the result holds no per-topic scores (score with per_topic=True)")
    if format == "trec":  # trec_eval's lines are data for its readers, not a report
        return _trec(result, per_topic)
    return render(scores_document(result, per_topic), format, 0)


def _heading(title: str) -> list[Block]:
    """A table's title: bold in Markdown, ending with a colon in text."""
    return [Paragraph(parts=(Strong((title,)),), nowrap=_TEXT, formats=("markdown",)),
            Paragraph(parts=(f"{title}:",), nowrap=_TEXT, formats=("text",))]


def _table(headers: Sequence[str], rows: Sequence[Sequence[str | int | float]], numeric: Sequence[int] = ()) -> Table:
    """Strings as text, numbers as numbers; ``numeric`` columns are read as numbers (aligned on the
    decimal point, 6 significant digits)."""
    def cell(value: str | int | float) -> TableCell:
        if isinstance(value, str):
            return TableCell((value,))
        return TableCell((Number(value, format(value, FLOAT_FORMAT)),))

    return Table(headers=tuple(TableCell((h,), header=True) for h in headers), simple=True, numeric=tuple(numeric),
                 float_format=FLOAT_FORMAT, rows=tuple(Row(tuple(cell(v) for v in row)) for row in rows))


def _text_blocks(result: ScoreResult, per_topic: bool) -> list[Block]:
    """The text and Markdown report: the grades read, the per-topic values, the means, the relative
    metrics and the notes."""
    blocks: list[Block] = []
    # First, how each metric read the grades and why (issue 27): a newcomer reads the top lines.
    grades = conventions_lines(result)
    if grades:
        blocks += [Paragraph(parts=(grades[0],), nowrap=_TEXT),
                   BulletList(items=tuple((g,) for g in grades[1:]), nowrap=_TEXT, tight=_TEXT)]
    if per_topic:
        blocks.append(_table(("run", "topic", "metric", "value"),
                             [(s.run, s.topic, s.metric, s.value) for s in result.scores], (3,)))
    means = {(m.run, m.metric): m.value for m in result.means}
    topics = "topic" if len(result.topics) == 1 else "topics"
    blocks += _heading(f"Means over {len(result.topics)} qrels {topics}")
    if len(result.metrics) > len(result.runs) and not result.relative:
        # Many metrics, few runs (the usual case): one row per metric keeps the table narrow.
        rows: list[list[str | float]] = [[metric, *(means[run, metric] for run in result.runs)]
                                         for metric in result.metrics]
        headers: tuple[str, ...] = ("metric", *result.runs)
    else:
        rows = [[run, *(means[run, metric] for metric in result.metrics)] for run in result.runs]
        headers = ("run", *result.metrics)
    blocks.append(_table(headers, rows, range(1, len(headers))))
    if result.priors is not None:
        blocks += _relative_blocks(result)
    notes = _notes(result)
    if notes:
        blocks.append(BulletList(items=tuple((n,) for n in notes), marker="", nowrap=_TEXT))
    return [Group(children=tuple(blocks), formats=_TEXT)]


def _tau_text(tau: float | None) -> str:
    return "undefined" if tau is None else format(tau, FLOAT_FORMAT)


def _tau_note(result: ScoreResult) -> list[str]:
    """The LaTeX Kendall table's note: the relative metrics and their prior sets, and what an
    undefined tau means (the text's sentences)."""
    assert result.priors is not None
    note = [f"Relative metrics ({', '.join(result.relative)}); prior sets: {result.priors.description}."]
    if any(k.tau is None for k in result.kendall):
        note.append(_UNDEFINED)
    return note


_UNDEFINED = "undefined: one of the two metrics ties every run (or there are fewer than two runs)."


def _relative_blocks(result: ScoreResult) -> list[Block]:
    """The prior sets and Kendall's tau-b, after the means table."""
    priors = result.priors
    assert priors is not None
    relative = ", ".join(result.relative)
    blocks: list[Block] = [Paragraph(parts=(f"Relative metrics ({relative}); prior sets: {priors.description}.",),
                                     nowrap=_TEXT)]
    if priors.mode == "best-per-group" and priors.best_by is not None:  # best-per-group names its metric
        blocks.append(_table(("group", "runs", "best run", f"mean {priors.best_by}"),
                             [(group, ", ".join(r for r in result.runs if priors.groups[r] == group), best,
                               result.mean(best, priors.best_by)) for group, best in priors.best.items()], (3,)))
    if result.kendall:
        blocks += _heading("Kendall's tau-b between the run orderings (by mean)")
        blocks.append(_table(("relative", "metric", "tau_b", "concordant", "discordant", "ties (relative)",
                              "ties (metric)"),
                             [(k.relative, k.metric, _tau_text(k.tau), k.concordant, k.discordant,
                               k.ties_relative, k.ties_metric) for k in result.kendall]))
        if any(k.tau is None for k in result.kendall):
            blocks.append(Paragraph(parts=(_UNDEFINED,), nowrap=_TEXT))
    return blocks


def scores_document(result: ScoreResult, per_topic: bool = False) -> Document:
    """Scored runs: the text report's blocks and the page's (:mod:`axiometer.reports.score_page`)."""
    runs = "run" if len(result.runs) == 1 else "runs"
    return Document(title="", page_title="Scores", blocks=(*_text_blocks(result, per_topic),
                                                            *_latex_tables(result, per_topic),
                                                            *page_blocks(result, per_topic, _notes(result))),
                    page_subtitle=(f"{len(result.runs)} {runs}, {len(result.metrics)} metrics, "
                                   f"{len(result.topics)} qrels topics",),
                    data=lambda: _json(result, per_topic), json=JsonStyle(ascii=True, finite=False, lines=True),
                    preamble=("Generated by axiometer (axiometer score --format latex).",
                              "Requires \\usepackage{booktabs}."))


_LATEX = ("latex",)


def _latex_table(caption: str, label: str, headers: Sequence[Inline], rows: Sequence[Sequence[str]],
                 note: Sequence[str] = (), names: int = 1) -> Table:
    """A booktabs table, its first ``names`` columns left-aligned and the others (numbers)
    right-aligned; :mod:`axiometer.reports.render.latex` escapes the names."""
    return Table(headers=tuple(TableCell((h,), header=True) for h in headers),
                 rows=tuple(Row(tuple(TableCell((c,)) for c in row)) for row in rows), caption=(caption,),
                 label=label, align="l" * names + "r" * (len(headers) - names),
                 note=tuple(Paragraph(parts=(n,)) for n in note), formats=_LATEX)


def _latex_tables(result: ScoreResult, per_topic: bool) -> list[Block]:
    """The LaTeX report: with ``per_topic`` a table per metric (topics by runs), then the means
    (metrics by runs) and, with relative metrics, Kendall's tau-b; numbers as the text prints them."""
    tables: list[Block] = []
    if per_topic:
        values = {(s.run, s.topic, s.metric): s.value for s in result.scores}
        tables += [_latex_table(f"{metric} per topic.", f"tab:axiometer-scores-topics-{k}", ("Topic", *result.runs),
                                [[topic, *(format(values[run, topic, metric], FLOAT_FORMAT) for run in result.runs)]
                                 for topic in result.topics])
                   for k, metric in enumerate(result.metrics, 1)]
    means = {(m.run, m.metric): m.value for m in result.means}
    topics = "topic" if len(result.topics) == 1 else "topics"
    tables.append(_latex_table(f"Means over {len(result.topics)} qrels {topics}.", "tab:axiometer-scores",
                               ("Metric", *result.runs),
                               [[metric, *(format(means[run, metric], FLOAT_FORMAT) for run in result.runs)]
                                for metric in result.metrics],
                               [" ".join(f"{n}." for n in _notes(result))] if _notes(result) else ()))
    if result.kendall:
        tables.append(_latex_table("Kendall's tau-b between the run orderings (by mean).", "tab:axiometer-scores-tau",
                                   ("Relative", "Metric", Math("\\tau_b", "tau_b"), "Concordant", "Discordant", "Ties (relative)",
                                    "Ties (metric)"),
                                   [[k.relative, k.metric, _tau_text(k.tau), str(k.concordant), str(k.discordant),
                                     str(k.ties_relative), str(k.ties_metric)] for k in result.kendall],
                                   _tau_note(result), names=2))
    return tables


#: At most this many topic ids are listed in a note.
LISTED_TOPICS = 10


def _topic_list(topics: tuple[str, ...]) -> str:
    shown = ", ".join(topics[:LISTED_TOPICS])
    return shown + (", ..." if len(topics) > LISTED_TOPICS else "")


def _notes(result: ScoreResult) -> list[str]:
    """One line per run that lacks qrels topics or holds topics the qrels lack."""
    notes = []
    for run in result.runs:
        missing, ignored = result.missing.get(run, ()), result.ignored.get(run, ())
        if missing:
            notes.append(f"{run}: missing {len(missing)} of the {len(result.topics)} qrels topics, "
                         f"scored 0 ({_topic_list(missing)})")
        if ignored:
            noun = "topic" if len(ignored) == 1 else "topics"
            notes.append(f"{run}: ignored {len(ignored)} run {noun} absent from the qrels "
                         f"({_topic_list(ignored)})")
    return notes


def _json(result: ScoreResult, per_topic: bool) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    if per_topic:
        records.extend({"run": s.run, "topic": s.topic, "metric": s.metric, "value": s.value}
                       for s in result.scores)
    # Each mean says how its metric read the grades: the mapping and whose convention it is.
    read = {metric: (mapping, reference) for metric, mapping, reference in result.conventions}
    records.extend({"run": m.run, "metric": m.metric, "value": m.value,
                    **({"grades": read[m.metric][0], "grades_as": read[m.metric][1]}
                       if m.metric in read else {})} for m in result.means)
    if result.priors is not None:
        p = result.priors
        priors: dict[str, Any] = {"mode": p.mode, "description": p.description,
                                  "relative_metrics": list(result.relative),
                                  "contexts": {run: list(c) for run, c in p.contexts.items()}}
        if p.mode == "best-per-group":
            priors.update(groups=dict(p.groups), best=dict(p.best), best_by=p.best_by,
                          groups_from=p.groups_from)
        records.append({"priors": priors})
        records.append({"kendall_tau": [
            {"relative": k.relative, "metric": k.metric, "tau_b": k.tau,
             "concordant": k.concordant, "discordant": k.discordant,
             "ties_relative": k.ties_relative, "ties_metric": k.ties_metric}
            for k in result.kendall]})
    return records  # written one record a line: readable, greppable, and still one JSON document


def _trec_line(measure: str, topic: str, value: str) -> str:
    """One line as trec_eval prints it (``printf("%-22s\\t%s\\t%6.4f\\n", ...)``)."""
    return f"{measure:<22}\t{topic}\t{value}\n"


def _trec(result: ScoreResult, per_topic: bool) -> str:
    """trec_eval's output, one block per run; the ``runid`` line names the run of the ``all``
    lines after it (and of the topic lines before it)."""
    values = {(s.run, s.topic, s.metric): s.value for s in result.scores}
    means = {(m.run, m.metric): m.value for m in result.means}
    topics = sorted(result.topics)  # trec_eval sorts query ids as strings (strcmp)
    lines: list[str] = []
    for run in result.runs:
        if per_topic:
            lines.extend(_trec_line(metric, topic, f"{values[run, topic, metric]:6.4f}")
                         for topic in topics for metric in result.metrics)
        lines.append(_trec_line("runid", "all", run))
        lines.append(_trec_line("num_q", "all", str(len(result.topics))))
        lines.extend(_trec_line(metric, "all", f"{means[run, metric]:6.4f}")
                     for metric in result.metrics)
    return "".join(lines)
