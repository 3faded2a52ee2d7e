"""Reports of a :class:`~axiometer.scoring.ScoreResult`: text, Markdown, JSON.

- ``text``: the means as a table (runs as rows and metrics as columns, or
  metrics as rows when there are more metrics than runs), with
  ``per_topic`` a run / topic / metric / value listing before it, then one
  line per run that lacks qrels topics (scored 0) or has topics the qrels
  lack (ignored).
- ``markdown``: the same as GitHub-flavoured Markdown tables.
- ``json``: a list of objects ``{"run", "topic", "metric", "value"}``, the
  per-topic records (with ``per_topic``) followed by the means, which have
  no ``"topic"``.

Reports only format; they never compute a score.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

if TYPE_CHECKING:  # reports only read the result; importing scoring would load numpy and sympy
    from axiometer.scoring import ScoreResult

__all__ = ["REPORT_FORMATS", "format_scores"]

REPORT_FORMATS = ("text", "markdown", "json")

#: Decimals shown in text and Markdown (trec_eval prints 4); JSON keeps full precision.
DECIMALS = 4


def format_scores(result: ScoreResult, format: str = "text", per_topic: bool = False) -> str:
    """``result`` as ``text``, ``markdown`` or ``json``; ``per_topic`` adds the
    per-topic values (the result must hold them)."""
    if format not in REPORT_FORMATS:
        raise ValueError(f"unknown report format {format!r}; known: {', '.join(REPORT_FORMATS)}")
    if per_topic and not result.scores and result.runs and result.metrics:
        raise ValueError("the result holds no per-topic scores (score with per_topic=True)")
    if format == "json":
        return _json(result, per_topic)
    markdown = format == "markdown"
    table_format = "github" if markdown else "simple"
    parts = []
    if per_topic:
        rows = [(s.run, s.topic, s.metric, s.value) for s in result.scores]
        parts.append(tabulate(rows, headers=("run", "topic", "metric", "value"),
                              tablefmt=table_format, floatfmt=f".{DECIMALS}f",
                              disable_numparse=[0, 1, 2]))
    means = {(m.run, m.metric): m.value for m in result.means}
    topics = "topic" if len(result.topics) == 1 else "topics"
    title = f"Means over {len(result.topics)} qrels {topics}"
    parts.append(f"**{title}**" if markdown else f"{title}:")
    if len(result.metrics) > len(result.runs):
        # Many metrics, few runs (the usual case): one row per metric keeps the table narrow.
        rows = [[metric, *(means[run, metric] for run in result.runs)] for metric in result.metrics]
        headers: tuple[str, ...] = ("metric", *result.runs)
    else:
        rows = [[run, *(means[run, metric] for metric in result.metrics)] for run in result.runs]
        headers = ("run", *result.metrics)
    parts.append(tabulate(rows, headers=headers, tablefmt=table_format,
                          floatfmt=f".{DECIMALS}f", disable_numparse=[0]))
    notes = _notes(result)
    if notes:
        parts.append("\n".join(("- " if markdown else "") + note for note in notes))
    return "\n\n".join(parts) + "\n"


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
    records.extend({"run": m.run, "metric": m.metric, "value": m.value} for m in result.means)
    # One record a line: readable, greppable, and still a single JSON document.
    return "[" + ",\n ".join(json.dumps(record) for record in records) + "]\n"
