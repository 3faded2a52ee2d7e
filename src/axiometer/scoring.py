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

Relative metrics (``metric.needs.context``) are scored in the campaign: each
evaluated run gets a context of *other* runs, chosen by ``prior``
(:data:`~axiometer.priors.PRIOR_MODES` or a list of prior runs; see :func:`score_runs`
and :mod:`axiometer.priors`). A
topic that a prior run lacks: that prior contributes nothing on that topic.
Built-in relative metrics score a topic's runs at once with
``score_systems``; rareness metrics add the evaluated run to the systems
they count themselves. Each relative metric's system ordering (per-run
means) is compared with each non-relative metric's by Kendall's tau-b.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING
from dataclasses import dataclass, field, replace
from itertools import repeat

import numpy as np

from axiometer.core import Context, ProgressCallback, Ranking, Topic, ValidationError
from axiometer.grades import GRADE_MAPPINGS, GradeConvention
from axiometer.judgments import GradeViews as _Views
from axiometer.metrics import BuiltinMetric, Metric, MetricError, RankingBatch
from axiometer.metrics.relative import RelativeMetric
from axiometer.metrics.resolve import resolve
from axiometer.readers import Qrels, Run
from axiometer.runfile import CompactRankings, JudgedIndex
from axiometer.limits import Limits
from axiometer.metrics.registry import is_builtin
from axiometer.priors import PRIOR_MODES, ContextRuns, Priors, choose_priors, group_of, read_groups, run_labels
from axiometer.views import Rows, Tabular

if TYPE_CHECKING:
    from axiometer.runner.contained import Contained

    #: The values a contained pass sends back: the metric's, per run label, one per topic.
    _Contained = Contained[dict[str, list[float]]]

__all__ = ["Score", "Mean", "Priors", "KendallTau", "ScoreResult", "score_runs", "run_labels",
           "kendall_tau_b", "group_of", "read_groups", "PRIOR_MODES", "DEFAULT_REFERENCE"]

#: The metric that ranks runs within a group when no non-relative metric is given.
DEFAULT_REFERENCE = "nDCG@10"


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
class KendallTau:
    """Kendall's tau-b between the run orderings of a relative and a non-relative metric.

    ``tau`` is ``None`` where tau-b is undefined: fewer than two runs, or one
    metric ties every run. ``concordant``/``discordant`` count run pairs;
    ``ties_relative``/``ties_metric`` the pairs each metric ties.
    """

    relative: str
    metric: str
    tau: float | None
    concordant: int
    discordant: int
    ties_relative: int
    ties_metric: int


@dataclass(frozen=True)
class ScoreResult(Tabular):
    """What :func:`score_runs` found; reports format it.

    ``runs``, ``metrics`` and ``topics`` give the order (run labels, metric
    names, qrels topic ids); ``scores`` holds the per-topic records (empty
    unless asked for), ``means`` one record per run and metric. ``missing``
    maps each run to the qrels topics it lacks (scored 0), ``ignored`` to its
    topics that the qrels lack. With relative metrics: ``relative`` names
    them, ``priors`` says how contexts were chosen and ``kendall`` compares
    the orderings, and ``bases`` maps each relative metric that builds on a
    base metric (its ``base`` parameter, ``NRG(base=nDCG@10)``) to that
    base's name. ``conventions`` says how each metric read the grades.
    """

    runs: tuple[str, ...]
    metrics: tuple[str, ...]
    topics: tuple[str, ...]
    scores: tuple[Score, ...]
    means: tuple[Mean, ...]
    missing: Mapping[str, tuple[str, ...]]
    ignored: Mapping[str, tuple[str, ...]]
    relative: tuple[str, ...] = ()
    priors: Priors | None = None
    kendall: tuple[KendallTau, ...] = ()
    #: How each metric read the grades, in :attr:`metrics` order: ``(metric, mapping, whose convention)``.
    conventions: tuple[tuple[str, str, str], ...] = ()
    bases: Mapping[str, str] = field(default_factory=dict)

    def mean(self, run: str, metric: str) -> float:
        """The mean of ``metric`` for ``run``."""
        for record in self.means:
            if record.run == run and record.metric == metric:
                return record.value
        raise KeyError((run, metric))

    def matrix(self, metric: str) -> np.ndarray:
        """``metric``'s per-topic values as a ``runs × topics`` array, in :attr:`runs` and
        :attr:`topics` order (what the significance tests and the meta-evaluation take).

        Needs the per-topic records (``score_runs(..., per_topic=True)``, the default).
        """
        if metric not in self.metrics:
            raise KeyError(metric)
        if not self.scores and self.runs and self.topics:
            raise ValueError("the result holds no per-topic scores (score with per_topic=True)")
        row = {run: i for i, run in enumerate(self.runs)}
        column = {topic: j for j, topic in enumerate(self.topics)}
        values = np.zeros((len(self.runs), len(self.topics)))
        for record in self.scores:
            if record.metric == metric:
                values[row[record.run], column[record.topic]] = record.value
        return values

    def to_rows(self) -> Rows:
        """One row per run x metric x topic with its value (a qrels topic the run lacks scores 0);
        without per-topic records (``per_topic=False``), one per run x metric with its mean and
        ``topic`` ``None``."""
        if self.scores or not self.means:
            return [{"run": s.run, "metric": s.metric, "topic": s.topic, "value": s.value} for s in self.scores]
        return [{"run": m.run, "metric": m.metric, "topic": None, "value": m.value} for m in self.means]


def _metric_objects(metrics: Sequence[Metric | str], case_seconds: float | None) -> list[Metric]:
    """The metrics resolved; a metric author's behind the guard (scored once per ranking, within the
    per-case time limit, any misbehaviour a :class:`MetricError`)."""
    objects = [resolve(m).ranking_metric() for m in metrics]
    if not all(map(is_builtin, objects)):
        # Imported only then: the guard comes with the checking engine (hypothesis, sympy).
        from axiometer.checking.guard import guard
        objects = [guard(o, case_seconds, twice=False) for o in objects]
    names = [m.name for m in objects]
    for i, metric in enumerate(objects):
        if names.index(metric.name) != i:
            raise ValidationError(f"metric {metric.name} is given twice")
    return objects


def _checked(metric: Metric, values: list[float], count: int, topic: Topic) -> list[float]:
    # A wrong count would silently pair values with the wrong runs; NaN would poison the means.
    if len(values) != count or not all(map(math.isfinite, values)):
        raise MetricError(f"{metric.name} gave {values!r} for {count} rankings of topic "
                          f"{topic.topic_id!r}")
    return values


class _TopicRankings:
    """The runs' rankings of one topic, for scoring: a :class:`RankingBatch` built from the runs'
    judged rows, and the :class:`Ranking` objects only when a metric scores ranking by ranking.

    Runs read with ``read_run(..., compact=True)`` keep their ids as bytes; their rows are found
    in bulk (:class:`~axiometer.runfile.JudgedIndex`) and no Python string is made for them.
    """

    def __init__(self, topic_id: str, mappings: list[Mapping[str, Ranking]],
                 indexes: dict[str, tuple[tuple[str, ...], JudgedIndex]]) -> None:
        self.topic_id, self.mappings, self.indexes = topic_id, mappings, indexes
        self.count = len(mappings)
        self._rankings: list[Ranking] | None = None

    def rankings(self) -> list[Ranking]:
        if self._rankings is None:
            self._rankings = [mapping[self.topic_id] for mapping in self.mappings]
        return self._rankings

    def batch(self, topic: Topic) -> RankingBatch:
        """The batch of every ranking under ``topic`` (one grade mapping's view of the topic)."""
        if len(self.mappings) == 1 and isinstance(self.mappings[0], CompactRankings):
            # One run: no splitting and joining (a million small topics pay for every call).
            found = self._index(topic).rows(self.mappings[0].documents(self.topic_id))
            return RankingBatch.from_rows(found, np.array([len(found)]), topic, len(found))
        compact = [m for m in self.mappings if isinstance(m, CompactRankings)]
        if not compact:
            return RankingBatch.from_rankings(self.rankings(), topic)
        ids = [m.documents(self.topic_id) for m in compact]
        rows = iter(np.split(self._index(topic).rows(np.concatenate(ids)),
                             np.cumsum([len(i) for i in ids])[:-1]))
        row_of = None
        parts = []
        for mapping in self.mappings:
            if isinstance(mapping, CompactRankings):
                parts.append(next(rows))
            else:  # a run the line reader read (or one built in memory): looked up as before
                if row_of is None:
                    row_of = {d: i for i, d in enumerate(topic.documents, 1)}.get
                ranking = mapping[self.topic_id]
                parts.append(np.fromiter(map(row_of, ranking, repeat(0)), dtype=np.int64,
                                         count=len(ranking)))
        return RankingBatch.from_rows(np.concatenate(parts), np.array([len(p) for p in parts]), topic)

    def _index(self, topic: Topic) -> JudgedIndex:
        # One index per topic, shared by the grade mappings' views while their documents agree
        # (they do: each view lists the qrels' documents in file order). Only the topic being
        # scored keeps one: a pass scores each topic once, and a million topics' indexes would
        # otherwise stay in memory to the end.
        documents = topic.documents
        known = self.indexes.get(self.topic_id)
        if known is None or known[0] != documents:
            self.indexes.clear()
            known = self.indexes[self.topic_id] = (documents, JudgedIndex(documents))
        return known[1]


def _topic_scores(metric: Metric, rankings: _TopicRankings, topic: Topic,
                  batch: RankingBatch | None) -> list[float]:
    values = None
    if batch is not None and isinstance(metric, BuiltinMetric):
        try:
            values = [float(v) for v in metric.score_batch(batch)]
        except NotImplementedError:
            pass
    if values is None and isinstance(metric, BuiltinMetric):
        values = [float(metric.score(ranking, topic)) for ranking in rankings.rankings()]
    elif values is None:
        values = [_user_score(metric, ranking, topic) for ranking in rankings.rankings()]
    return _checked(metric, values, rankings.count, topic)


def _user_score(metric: Metric, ranking: Ranking, topic: Topic) -> float:
    """A metric author's score of one ranking (``metric`` guarded: :func:`_metric_objects`); whatever
    goes wrong is a :class:`MetricError` naming the topic and the ranking (one line, no traceback)."""
    try:
        return metric.score(ranking, topic)
    except MetricError as error:
        from axiometer.checking.guard import describe_error
        from axiometer.runner.contained import input_text

        what = str(error)
        cause = error.__cause__
        if cause is not None and describe_error(cause).startswith(type(cause).__name__):
            what = f"raised {what}"   # "ValueError: ..." is what it raised
        what = what.removeprefix(f"{metric.name} ")
        raise MetricError(f"{metric.name} {what}{input_text(topic.topic_id, ranking)}") from None


# -- Kendall's tau -------------------------------------------------------------

def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> KendallTau:
    """Kendall's tau-b of two score lists over the same items (``relative``/``metric`` left empty).

    ``tau_b = (C - D) / sqrt((n0 - n1)(n0 - n2))`` with ``n0 = n(n-1)/2``
    pairs, ``C``/``D`` the concordant/discordant pairs and ``n1``/``n2`` the
    pairs tied in ``x``/``y`` (Kendall 1945). Ties are equal values (means
    are compared as computed). Undefined (``tau=None``) when a denominator
    factor is 0. O(n^2): campaigns have tens to hundreds of runs.
    """
    if len(x) != len(y):
        raise ValidationError(f"kendall_tau_b: {len(x)} values against {len(y)}")
    n = len(x)
    concordant = discordant = ties_x = ties_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = (x[i] > x[j]) - (x[i] < x[j]), (y[i] > y[j]) - (y[i] < y[j])
            ties_x += dx == 0
            ties_y += dy == 0
            if dx and dy:
                concordant += dx == dy
                discordant += dx != dy
    pairs = n * (n - 1) // 2
    denominator = (pairs - ties_x) * (pairs - ties_y)
    tau = (concordant - discordant) / math.sqrt(denominator) if denominator else None
    return KendallTau("", "", tau, concordant, discordant, ties_x, ties_y)


# -- the reference metric of best-per-group -------------------------------------

def _reference(best_by: Metric | str | None, metric_list: list[Metric]) -> Metric:
    if best_by is not None:
        reference = resolve(best_by).ranking_metric()
    else:
        plain = [m for m in metric_list if not m.needs.context]
        reference = plain[0] if plain else resolve(DEFAULT_REFERENCE).ranking_metric()
    if reference.needs.context:
        raise ValidationError(f"best-by metric {reference.name} is relative; runs are ranked by "
                              "an ordinary metric")
    return reference


# -- scoring -------------------------------------------------------------------

def score_runs(qrels: Qrels, runs: Sequence[Run], metrics: Sequence[Metric | str],
               per_topic: bool = True, progress: ProgressCallback | None = None, *,
               prior: str | Sequence[Run] | None = None, groups: Mapping[str, str] | None = None,
               best_by: Metric | str | None = None, grades: str | None = None,
               gmax: int | None = None, limits: Limits = Limits()) -> ScoreResult:
    """Score every run on every qrels topic with every metric.

    Each metric reads the qrels' integer grades by its reference
    implementation's convention (``grades_convention``, :mod:`axiometer.grades`:
    trec_eval's for P, RR, AP, R-precision, bpref, DCG and nDCG, ndeval's for
    its measures, ERR's, the RBU reference's, ir_measures' RBP); a metric that
    is not built in reads them as trec_eval does (``linear``: its ``topic.r(d)``
    is ``g / gmax``, so a gain proportional to the grade, what a trec_eval user
    expects; :data:`NOT_BUILT_IN`), unless it declares a ``grades_convention``.
    ``grades`` (a mapping of :data:`axiometer.grades.GRADE_MAPPINGS`) makes
    every metric read them that way; ``gmax`` is the scale maximum the
    ``linear`` and ``err`` readings use (default: the largest grade).

    ``metrics`` are metric references, each resolved by
    :func:`axiometer.metrics.resolve.resolve` as ``axiometer check`` resolves
    one: spec strings (``"nDCG@10"``), ``"module:attr"``,
    ``"ir_measures:MEASURE"``, metric objects or plain functions; so is
    ``best_by``. Runs are labelled by tag (by file where tags collide).
    ``progress`` (:class:`~axiometer.core.ProgressCallback`) gets one phase, ``"scoring"``, reported
    after each qrels topic of each pass: ``total`` is the number of topics, twice that with a
    relative metric (a second pass scores the relative metrics in their contexts).

    Relative metrics get each run's context from ``prior``:

    - ``"all-others"`` (the default when there are several runs): every
      other run;
    - ``"best-per-group"``: the best run of each other group, by the mean
      of ``best_by`` (default: the first non-relative metric, else
      nDCG@10; ties go to the smallest label); ``groups`` maps run labels to
      groups (default :func:`group_of` of each label);
    - a sequence of runs: they form every run's context (a run is left out
      of its own: same file, or same tag and rankings); they are not scored.

    Without a non-relative metric the reference metric (``best_by`` or
    nDCG@10) is scored too, so that orderings can be compared; so is
    ``best_by`` under ``best-per-group``. A run whose context is empty is a
    :class:`ValidationError`.

    A metric author's metric (anything not built in) is contained as ``axiometer check`` contains
    it (:mod:`axiometer.runner.contained`, within ``limits``): each of its passes runs in a
    supervised worker while the built-in metrics score here; with ``limits.isolate`` false (or on a
    platform without ``fork``) it scores in this process, still guarded. Whatever it does wrong is
    one :class:`MetricError`.
    """
    metric_list = _metric_objects(metrics, limits.case_seconds)
    relative = [m for m in metric_list if m.needs.context]
    labels = run_labels(runs)
    topic_ids = tuple(qrels.topics)
    if not topic_ids:
        raise ValidationError(f"{qrels.source}: the qrels hold no topics")
    contexts = _context_setting(runs, metric_list, relative, prior, groups, best_by)
    plain = [m for m in metric_list if not m.needs.context]
    conventions = {m.name: _convention(m, grades, qrels) for m in metric_list}
    scoring = _Scoring(runs, labels, topic_ids, _Views(qrels, gmax), conventions,
                       {label: {m.name: [] for m in metric_list} for label in labels},
                       progress, len(topic_ids) * (2 if relative else 1))
    with _containment(plain, limits) as contained:
        _score_plain(scoring, plain, contained)
    priors = None
    if contexts is not None:
        prior_set, reference = contexts
        priors, context_runs = choose_priors(prior_set, runs, labels, groups, reference.name, scoring.mean)
        with _containment(relative, limits) as contained:
            _score_relative(scoring, relative, context_runs, contained)
    return _score_result(scoring, metric_list, relative, plain, priors, per_topic)


def _context_setting(runs: Sequence[Run], metric_list: list[Metric], relative: Sequence[Metric],
                     prior: str | Sequence[Run] | None, groups: Mapping[str, str] | None,
                     best_by: Metric | str | None) -> tuple[str | Sequence[Run], Metric] | None:
    """The relative metrics' prior set (``all-others`` by default) and reference metric, ``None``
    without a relative metric. The reference is put first in ``metric_list`` when it must be scored."""
    if not relative and (prior is not None or groups is not None or best_by is not None):
        raise ValidationError("a prior set only matters for relative metrics, and none is given")
    if not relative:
        return None
    if prior is None:
        if len(runs) < 2:
            raise ValidationError(
                f"{relative[0].name} is a relative metric: it needs other systems' rankings "
                "as context; give several runs or a prior set")
        prior = "all-others"
    reference = _reference(best_by, metric_list)
    if all(m.needs.context for m in metric_list) or (
            prior == "best-per-group" and reference.name not in {m.name for m in metric_list}):
        metric_list.insert(0, reference)
    return prior, reference


@dataclass
class _Scoring:
    """What both passes of :func:`score_runs` share: the runs and their labels, the qrels topics,
    the grade views and conventions, the values so far (label -> metric -> one per topic done),
    and the progress (``total`` steps: a topic per pass)."""

    runs: Sequence[Run]
    labels: list[str]
    topic_ids: tuple[str, ...]
    views: _Views
    conventions: dict[str, GradeConvention]
    values: dict[str, dict[str, list[float]]]
    progress: ProgressCallback | None
    total: int

    def mean(self, label: str, name: str) -> float:
        return math.fsum(self.values[label][name]) / len(self.topic_ids)




def _containment(metrics: Sequence[Metric], limits: Limits) -> AbstractContextManager[_Contained | None]:
    """Where a metric author's metrics among ``metrics`` score: a :class:`Contained` when there
    is one and ``limits.isolate`` (and ``fork``), else nothing (they score in this process)."""
    if not limits.isolate or all(map(is_builtin, metrics)):
        return nullcontext()
    from axiometer.runner.contained import Contained
    from axiometer.runner.supervisor import can_supervise

    return Contained(limits) if can_supervise() else nullcontext()


def _contained_pass(scoring: _Scoring, metrics: Sequence[Metric],
                    one_pass: Callable[[_Scoring, Sequence[Metric]], None],
                    contained: _Contained | None) -> Sequence[Metric]:
    """Start each metric author's metric's ``one_pass`` in a worker of its own; the others, to score here.

    A worker scores a copy of ``scoring`` (its own values, ``tick`` as progress) and sends back the
    metric's values per run, which :func:`_contained_values` adds to ``scoring``."""
    if contained is None:
        return metrics
    for metric in metrics:
        if not is_builtin(metric):  # a metric author's (guarded by _metric_objects)
            def compute(tick: Callable[[], None], metric: Metric = metric) -> dict[str, list[float]]:
                own = replace(scoring, values={label: {metric.name: []} for label in scoring.labels},
                              progress=lambda *_: tick())
                one_pass(own, [metric])
                return {label: own.values[label][metric.name] for label in scoring.labels}
            contained.start(metric.name, compute)
    return [m for m in metrics if is_builtin(m)]


def _contained_values(scoring: _Scoring, contained: _Contained | None, first: int) -> None:
    """Wait for the contained metrics' workers (progress: steps ``first`` on) and add their values."""
    if contained is None or not contained.started:
        return
    total = len(scoring.topic_ids)

    def progress(steps: int) -> None:
        if scoring.progress is not None:
            scoring.progress("scoring", first + min(steps, total), scoring.total)

    for name, by_label in contained.results(progress).items():
        for label in scoring.labels:
            scoring.values[label][name] = by_label[label]


def _score_plain(scoring: _Scoring, plain: Sequence[Metric], contained: _Contained | None = None) -> None:
    """The first pass: every non-relative metric on every topic, batched per grade mapping; a metric
    author's in a worker of its own (``contained``), the built-in ones here meanwhile."""
    plain = _contained_pass(scoring, plain, _score_plain, contained)
    _score_builtin(scoring, plain, contained)
    _contained_values(scoring, contained, 0)


def _score_builtin(scoring: _Scoring, plain: Sequence[Metric], contained: _Contained | None) -> None:
    """:func:`_score_plain` of the metrics scored in this process."""
    by_mapping: dict[str, list[Metric]] = {}
    for metric in plain:
        by_mapping.setdefault(scoring.conventions[metric.name].mapping, []).append(metric)
    indexes: dict[str, tuple[tuple[str, ...], JudgedIndex]] = {}
    labels, values = scoring.labels, scoring.values
    for done, topic_id in enumerate(scoring.topic_ids, 1):
        present = [(label, run.rankings)
                   for label, run in zip(labels, scoring.runs) if topic_id in run.rankings]
        rankings = _TopicRankings(topic_id, [mapping for _, mapping in present], indexes)
        for mapping, group in by_mapping.items():
            topic = scoring.views.topic(mapping, topic_id)
            batched = present and any(isinstance(m, BuiltinMetric) for m in group)
            batch = rankings.batch(topic) if batched else None
            for metric in group:
                scores = _topic_scores(metric, rankings, topic, batch)
                if len(present) == len(labels):  # every run holds the topic (a million small topics)
                    for label, value in zip(labels, scores):
                        values[label][metric.name].append(value)
                    continue
                found = dict(zip((label for label, _ in present), scores))
                for label in labels:
                    # trec_eval -c: a qrels topic missing from a run scores 0.
                    values[label][metric.name].append(found.get(label, 0.0))
        if contained is not None:
            contained.poll()
        if scoring.progress is not None:
            shown = min(done, contained.steps) if contained is not None and contained.started else done
            scoring.progress("scoring", shown, scoring.total)


def _score_relative(scoring: _Scoring, relative: Sequence[Metric], context_runs: ContextRuns,
                    contained: _Contained | None = None) -> None:
    """The second pass: every relative metric on every topic, each run in its context (a metric
    author's in a worker of its own, as in :func:`_score_plain`)."""
    def one_pass(own: _Scoring, metrics: Sequence[Metric]) -> None:
        _score_relative(own, metrics, context_runs)

    relative = _contained_pass(scoring, relative, one_pass, contained)
    _score_relative_here(scoring, relative, context_runs)
    _contained_values(scoring, contained, len(scoring.topic_ids))


def _score_relative_here(scoring: _Scoring, relative: Sequence[Metric], context_runs: ContextRuns) -> None:
    """:func:`_score_relative` of the metrics scored in this process."""
    topic_ids = scoring.topic_ids
    for done, topic_id in enumerate(topic_ids, len(topic_ids) + 1):
        for metric in relative:
            topic = scoring.views.topic(scoring.conventions[metric.name].mapping, topic_id)
            found = _relative_scores(metric, topic_id, topic, scoring.labels, scoring.runs, context_runs)
            for label in scoring.labels:
                scoring.values[label][metric.name].append(found.get(label, 0.0))
        if scoring.progress is not None:
            scoring.progress("scoring", done, scoring.total)


def _score_result(scoring: _Scoring, metric_list: Sequence[Metric], relative: Sequence[Metric],
                  plain: Sequence[Metric], priors: Priors | None, per_topic: bool) -> ScoreResult:
    """The scores (per topic if asked), the means, the relative metrics' tau against the others, and
    the topics each run misses or has beyond the qrels."""
    labels, topic_ids, values, mean = scoring.labels, scoring.topic_ids, scoring.values, scoring.mean
    scores = tuple(Score(label, topic_id, m.name, values[label][m.name][i])
                   for label in labels for i, topic_id in enumerate(topic_ids)
                   for m in metric_list) if per_topic else ()
    means = tuple(Mean(label, m.name, mean(label, m.name)) for label in labels for m in metric_list)
    kendall = tuple(
        _named(kendall_tau_b([mean(label, r.name) for label in labels],
                             [mean(label, b.name) for label in labels]), r.name, b.name)
        for r in relative for b in plain)
    qrels_topics = set(topic_ids)
    missing = {label: tuple(t for t in topic_ids if t not in run.rankings)
               for label, run in zip(labels, scoring.runs)}
    ignored = {label: tuple(t for t in run.rankings if t not in qrels_topics)
               for label, run in zip(labels, scoring.runs)}
    conventions = scoring.conventions
    return ScoreResult(tuple(labels), tuple(m.name for m in metric_list), topic_ids,
                       scores, means, missing, ignored, tuple(m.name for m in relative),
                       priors, kendall,
                       tuple((m.name, conventions[m.name].mapping, conventions[m.name].reference)
                             for m in metric_list),
                       {m.name: m.params["base"] for m in relative if isinstance(m.params.get("base"), str)})


#: How a metric that is not built in (and declares no ``grades_convention``) reads the grades:
#: trec_eval's reading, the one a trec_eval user expects of their own measure (issue 27; the
#: qrels' own ``err`` reading surprised them).
NOT_BUILT_IN = GradeConvention("linear", "trec_eval, the default for a metric that is not built in")


def _convention(metric: Metric, forced: str | None, qrels: Qrels) -> GradeConvention:
    """How ``metric`` reads the grades: ``forced`` (``--grades``) for all, else the metric's reference
    convention, else (a metric that is not built in) :data:`NOT_BUILT_IN`."""
    if forced is not None:
        if forced not in GRADE_MAPPINGS:
            raise ValidationError(f"unknown grade mapping {forced!r}; known: {', '.join(GRADE_MAPPINGS)}")
        return GradeConvention(forced, "--grades")
    convention = metric.grades_convention
    if convention is not None:
        return convention
    if isinstance(metric, (BuiltinMetric, RelativeMetric)):
        return GradeConvention(qrels.mapping, "the qrels were read")
    return NOT_BUILT_IN


def _named(tau: KendallTau, relative: str, metric: str) -> KendallTau:
    return KendallTau(relative, metric, tau.tau, tau.concordant, tau.discordant,
                      tau.ties_relative, tau.ties_metric)


def _relative_scores(metric: Metric, topic_id: str, topic: Topic, labels: list[str],
                     runs: Sequence[Run], context_runs: ContextRuns) -> dict[str, float]:
    """A relative metric's value for every run holding ``topic_id``, each in its own context."""
    evaluated = [(label, run.rankings[topic_id])
                 for label, run in zip(labels, runs) if topic_id in run.rankings]
    try:
        systems = metric.score_systems if isinstance(metric, RelativeMetric) else None
        index = {label: i for i, (label, _) in enumerate(evaluated)}
        known = set(labels)
        if systems is not None and all(o in known for label, _ in evaluated
                                       for o, _ in context_runs[label]):
            # Every context run is an evaluated run: one vectorised call per topic. A context
            # run lacking the topic is not in `index` and so contributes nothing.
            priors = [[index[o] for o, _ in context_runs[label] if o in index]
                      for label, _ in evaluated]
            raw = [float(v) for v in systems(topic, [r for _, r in evaluated], priors)]
        else:
            raw = []
            for label, ranking in evaluated:
                present = [(o, run.rankings[topic_id]) for o, run in context_runs[label]
                           if topic_id in run.rankings]
                context = Context(tuple(r for _, r in present), tuple(o for o, _ in present))
                raw.append(float(metric.score(ranking, topic, context)))
    except MetricError as error:
        raise MetricError(f"{metric.name} on topic {topic_id!r}: {error}") from None
    values = _checked(metric, raw, len(evaluated), topic)
    return dict(zip((label for label, _ in evaluated), values))
