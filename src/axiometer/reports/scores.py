"""Reports of a :class:`~axiometer.scoring.ScoreResult`: text, Markdown, JSON.

- ``text``: the means as a table (runs as rows and metrics as columns, or
  metrics as rows when there are more metrics than runs), with
  ``per_topic`` a run / topic / metric / value listing before it, then one
  line per run that lacks qrels topics (scored 0) or has topics the qrels
  lack (ignored).
- ``markdown``: the same as GitHub-flavoured Markdown tables.
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

import json
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from axiometer.reports.conventions import conventions_lines

if TYPE_CHECKING:  # reports only read the result; importing scoring would load numpy and sympy
    from axiometer.scoring import ScoreResult

__all__ = ["REPORT_FORMATS", "SCORE_FORMATS", "format_scores"]

#: The formats of a campaign's report (``unanimity`` offers these too).
REPORT_FORMATS = ("text", "markdown", "json", "html")

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
    if format == "json":
        return _json(result, per_topic)
    if format == "trec":
        return _trec(result, per_topic)
    if format == "html":  # a page of its own (axiometer.reports.html)
        from axiometer.reports.html import scores_html

        return scores_html(result, per_topic)
    markdown = format == "markdown"
    table_format = "github" if markdown else "simple"
    parts = []
    if per_topic:
        rows = [(s.run, s.topic, s.metric, s.value) for s in result.scores]
        parts.append(tabulate(rows, headers=("run", "topic", "metric", "value"),
                              tablefmt=table_format, floatfmt=FLOAT_FORMAT,
                              disable_numparse=[0, 1, 2]))
    means = {(m.run, m.metric): m.value for m in result.means}
    topics = "topic" if len(result.topics) == 1 else "topics"
    title = f"Means over {len(result.topics)} qrels {topics}"
    parts.append(f"**{title}**" if markdown else f"{title}:")
    if len(result.metrics) > len(result.runs) and not result.relative:
        # Many metrics, few runs (the usual case): one row per metric keeps the table narrow.
        rows = [[metric, *(means[run, metric] for run in result.runs)] for metric in result.metrics]
        headers: tuple[str, ...] = ("metric", *result.runs)
    else:
        rows = [[run, *(means[run, metric] for metric in result.metrics)] for run in result.runs]
        headers = ("run", *result.metrics)
    parts.append(tabulate(rows, headers=headers, tablefmt=table_format,
                          floatfmt=FLOAT_FORMAT, disable_numparse=[0]))
    grades = conventions_lines(result)
    if grades:
        parts.append("\n".join(("- " if markdown else "  ") + line if i else line
                               for i, line in enumerate(grades)))
    if result.priors is not None:
        parts.extend(_relative_parts(result, markdown, table_format))
    notes = _notes(result)
    if notes:
        parts.append("\n".join(("- " if markdown else "") + note for note in notes))
    return "\n\n".join(parts) + "\n"


def _tau_text(tau: float | None) -> str:
    return "undefined" if tau is None else format(tau, FLOAT_FORMAT)


def _relative_parts(result: ScoreResult, markdown: bool, table_format: str) -> list[str]:
    """The prior sets and Kendall's tau-b, after the means table."""
    priors = result.priors
    assert priors is not None
    relative = ", ".join(result.relative)
    parts = [f"Relative metrics ({relative}); prior sets: {priors.description}."]
    if priors.mode == "best-per-group":
        rows = [(group, ", ".join(r for r in result.runs if priors.groups[r] == group), best,
                 result.mean(best, priors.best_by)) for group, best in priors.best.items()]
        parts.append(tabulate(rows, headers=("group", "runs", "best run", f"mean {priors.best_by}"),
                              tablefmt=table_format, floatfmt=FLOAT_FORMAT,
                              disable_numparse=[0, 1, 2]))
    if result.kendall:
        title = "Kendall's tau-b between the run orderings (by mean)"
        parts.append(f"**{title}**" if markdown else f"{title}:")
        rows = [(k.relative, k.metric, _tau_text(k.tau), k.concordant, k.discordant,
                 k.ties_relative, k.ties_metric) for k in result.kendall]
        parts.append(tabulate(rows, headers=("relative", "metric", "tau_b", "concordant",
                                             "discordant", "ties (relative)", "ties (metric)"),
                              tablefmt=table_format, disable_numparse=True))
        if any(k.tau is None for k in result.kendall):
            parts.append("undefined: one of the two metrics ties every run (or there are fewer "
                         "than two runs).")
    return parts


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


def _json(result: ScoreResult, per_topic: bool) -> str:
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
    # One record a line: readable, greppable, and still a single JSON document.
    return "[" + ",\n ".join(json.dumps(record) for record in records) + "]\n"


def _trec_line(measure: str, topic: str, value: str) -> str:
    """One line as trec_eval prints it (``printf("%-22s\\t%s\\t%6.4f\\n", ...)``)."""
    return f"{measure:<22}\t{topic}\t{value}\n"


def _trec(result: ScoreResult, per_topic: bool) -> str:
    """trec_eval's output, one block per run; the ``runid`` line names the run of the ``all``
    lines after it (and of the topic lines before it)."""
    values = {(s.run, s.topic, s.metric): s.value for s in result.scores}
    means = {(m.run, m.metric): m.value for m in result.means}
    topics = sorted(result.topics)  # trec_eval sorts query ids as strings (strcmp)
    lines = []
    for run in result.runs:
        if per_topic:
            lines.extend(_trec_line(metric, topic, f"{values[run, topic, metric]:6.4f}")
                         for topic in topics for metric in result.metrics)
        lines.append(_trec_line("runid", "all", run))
        lines.append(_trec_line("num_q", "all", str(len(result.topics))))
        lines.extend(_trec_line(metric, "all", f"{means[run, metric]:6.4f}")
                     for metric in result.metrics)
    return "".join(lines)
