"""Scoring runs against qrels: every run, every metric, every qrels topic.

Conventions (those of ``trec_eval -c``):

- a qrels topic missing from a run scores 0 on every metric for that run and
  is counted in :attr:`ScoreResult.missing`;
- run topics absent from the qrels are ignored and counted in
  :attr:`ScoreResult.ignored`;
- means are over the qrels topics (missing ones included, as zeros).

Built-in metrics are scored with their vectorised ``score_batch`` on one
:class:`~axiometer.metrics.RankingBatch` per topic holding every run's
ranking; a metric without a batched path, or one that is not built in (a
:func:`~axiometer.metrics.wrap`-ped function), is scored ranking by ranking.
Scoring never prints: reports format the :class:`ScoreResult`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from axiometer.core import Ranking, Topic, ValidationError
from axiometer.metrics import BuiltinMetric, Metric, MetricError, RankingBatch, parse
from axiometer.readers import Qrels, Run

__all__ = ["Score", "Mean", "ScoreResult", "score_runs", "run_labels"]

#: ``progress(done, total)`` is called after each qrels topic.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Score:
    """One run's value of one metric on one topic."""

    run: str
    topic: str
    metric: str
    value: float


@dataclass(frozen=True)
class Mean:
    """One run's mean of one metric over the qrels topics."""

    run: str
    metric: str
    value: float


@dataclass(frozen=True)
class ScoreResult:
    """What :func:`score_runs` found; reports format it.

    ``runs``, ``metrics`` and ``topics`` give the order (run labels, metric
    names, qrels topic ids); ``scores`` holds the per-topic records (empty
    unless asked for), ``means`` one record per run and metric. ``missing``
    maps each run to the qrels topics it lacks (scored 0), ``ignored`` to its
    topics that the qrels lack.
    """

    runs: tuple[str, ...]
    metrics: tuple[str, ...]
    topics: tuple[str, ...]
    scores: tuple[Score, ...]
    means: tuple[Mean, ...]
    missing: Mapping[str, tuple[str, ...]]
    ignored: Mapping[str, tuple[str, ...]]

    def mean(self, run: str, metric: str) -> float:
        """The mean of ``metric`` for ``run``."""
        for record in self.means:
            if record.run == run and record.metric == metric:
                return record.value
        raise KeyError((run, metric))


def run_labels(runs: Sequence[Run]) -> list[str]:
    """A name per run: its tag, or its file where several runs share a tag."""
    tags = [run.tag for run in runs]
    labels = [run.tag if tags.count(run.tag) == 1 else run.source for run in runs]
    for i, (label, run) in enumerate(zip(labels, runs)):
        if labels.index(label) != i:
            raise ValidationError(f"run {run.tag!r} from {run.source} is given twice")
    return labels


def _metric_objects(metrics: Sequence[Metric | str]) -> list[Metric]:
    objects = [parse(m) if isinstance(m, str) else m for m in metrics]
    names = [m.name for m in objects]
    for i, metric in enumerate(objects):
        if names.index(metric.name) != i:
            raise ValidationError(f"metric {metric.name} is given twice")
        if metric.needs.context:
            raise ValidationError(f"{metric.name} is a relative metric (it needs other systems' "
                                  "rankings as context); scoring runs does not support those yet")
    return objects


def _topic_scores(metric: Metric, rankings: list[Ranking], topic: Topic,
                  batch: RankingBatch | None) -> list[float]:
    values = None
    if batch is not None and isinstance(metric, BuiltinMetric):
        try:
            values = [float(v) for v in metric.score_batch(batch)]
        except NotImplementedError:
            pass
    if values is None:
        values = [float(metric.score(ranking, topic)) for ranking in rankings]
    # A wrong count would silently pair values with the wrong runs; NaN would poison the means.
    if len(values) != len(rankings) or not all(map(math.isfinite, values)):
        raise MetricError(f"{metric.name} gave {values!r} for {len(rankings)} rankings of topic "
                          f"{topic.topic_id!r}")
    return values


def score_runs(qrels: Qrels, runs: Sequence[Run], metrics: Sequence[Metric | str],
               per_topic: bool = True, progress: Progress | None = None) -> ScoreResult:
    """Score every run on every qrels topic with every metric.

    ``metrics`` are metric objects or spec strings (``"nDCG@10"``). Runs are
    labelled by tag (by file where tags collide). Relative metrics (those
    needing a context) are rejected with a :class:`ValidationError`.
    ``progress(done, total)`` is called after each qrels topic.
    """
    metric_list = _metric_objects(metrics)
    labels = run_labels(runs)
    topic_ids = tuple(qrels.topics)
    if not topic_ids:
        raise ValidationError(f"{qrels.source}: the qrels hold no topics")
    batched = any(isinstance(m, BuiltinMetric) for m in metric_list)
    # values[run][metric] lists the per-topic values in qrels topic order.
    values: dict[str, dict[str, list[float]]] = {
        label: {m.name: [] for m in metric_list} for label in labels}
    for done, (topic_id, topic) in enumerate(qrels.topics.items(), 1):
        present = [(label, run.rankings[topic_id])
                   for label, run in zip(labels, runs) if topic_id in run.rankings]
        rankings = [ranking for _, ranking in present]
        batch = RankingBatch.from_rankings(rankings, topic) if batched and rankings else None
        for metric in metric_list:
            found = dict(zip((label for label, _ in present),
                             _topic_scores(metric, rankings, topic, batch)))
            for label in labels:
                # trec_eval -c: a qrels topic missing from a run scores 0.
                values[label][metric.name].append(found.get(label, 0.0))
        if progress is not None:
            progress(done, len(topic_ids))
    scores = tuple(Score(label, topic_id, m.name, values[label][m.name][i])
                   for label in labels for i, topic_id in enumerate(topic_ids)
                   for m in metric_list) if per_topic else ()
    means = tuple(Mean(label, m.name, math.fsum(values[label][m.name]) / len(topic_ids))
                  for label in labels for m in metric_list)
    qrels_topics = set(topic_ids)
    missing = {label: tuple(t for t in topic_ids if t not in run.rankings)
               for label, run in zip(labels, runs)}
    ignored = {label: tuple(t for t in run.rankings if t not in qrels_topics)
               for label, run in zip(labels, runs)}
    return ScoreResult(tuple(labels), tuple(m.name for m in metric_list), topic_ids,
                       scores, means, missing, ignored)
