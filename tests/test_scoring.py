"""Campaign scoring: missing and ignored topics, means, the batched path
against the per-ranking path, and the fallbacks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from axiometer.core import InputError, Ranking, ValidationError
from axiometer.grades import ranking_from_scores, topic_from_grades
from axiometer.metrics import MetricError, Needs, TABLE_ROWS, parse, wrap
from axiometer.metrics.precision import Precision
from axiometer.readers import Qrels, Run, read_qrels
from axiometer.scoring import Mean, Score, ScoreResult, score_runs
from tests.paths import QRELS_2014
from tests.strategies import grade_tables, scored_run


def make_qrels(grades: dict, mapping: str = "linear") -> Qrels:
    topics = {qid: topic_from_grades(qid, table, mapping=mapping) for qid, table in grades.items()}
    return Qrels(topics, grades, {q: dict(zip(t.aspects, t.weights)) for q, t in topics.items()},
                 "trec", "<test>", mapping)


def make_run(tag: str, rankings: dict[str, list[str]]) -> Run:
    return Run(tag, {qid: Ranking(docs) for qid, docs in rankings.items()}, f"<{tag}>")


SMALL_QRELS = make_qrels({"q1": {"a": {"*": 1}, "b": {"*": 1}, "c": {"*": 0}},
                          "q2": {"x": {"*": 1}},
                          "q3": {"y": {"*": 1}}})
RUN_A = make_run("A", {"q1": ["a", "c", "b"], "q2": ["z", "x"], "q4": ["a"]})  # lacks q3; q4 unknown
RUN_B = make_run("B", {"q3": ["y"], "q1": ["b"], "q2": ["x"]})


def test_missing_topics_score_zero_and_means_are_over_qrels_topics():
    result = score_runs(SMALL_QRELS, [RUN_A, RUN_B], ["P@2", "RR"])
    assert isinstance(result, ScoreResult)
    assert result.runs == ("A", "B") and result.metrics == ("P@2", "RR")
    assert result.topics == ("q1", "q2", "q3")
    assert result.missing == {"A": ("q3",), "B": ()}
    assert result.ignored == {"A": ("q4",), "B": ()}
    a = {(s.topic, s.metric): s.value for s in result.scores if s.run == "A"}
    # A: q1 (a, c, b): P@2 = 1/2, RR = 1; q2 (z, x): P@2 = 1/2, RR = 1/2; q3 missing: 0, 0.
    assert a == {("q1", "P@2"): 0.5, ("q1", "RR"): 1.0, ("q2", "P@2"): 0.5, ("q2", "RR"): 0.5,
                 ("q3", "P@2"): 0.0, ("q3", "RR"): 0.0}
    # Means over the three qrels topics: A P@2 = (1/2 + 1/2 + 0)/3 = 1/3, RR = (1 + 1/2 + 0)/3 = 1/2;
    # B has one relevant document first everywhere: P@2 = 1/2, RR = 1.
    assert result.mean("A", "P@2") == pytest.approx(1 / 3, abs=1e-15)
    assert result.mean("A", "RR") == 0.5
    assert result.mean("B", "P@2") == 0.5 and result.mean("B", "RR") == 1.0
    assert Mean("B", "RR", 1.0) in result.means
    assert Score("B", "q3", "P@2", 0.5) in result.scores
    # Records come run by run, topic by topic (qrels order), metric by metric.
    assert [(s.run, s.topic, s.metric) for s in result.scores[:4]] == [
        ("A", "q1", "P@2"), ("A", "q1", "RR"), ("A", "q2", "P@2"), ("A", "q2", "RR")]


def test_without_per_topic_only_the_means_are_kept():
    full = score_runs(SMALL_QRELS, [RUN_A, RUN_B], ["P@2"])
    lean = score_runs(SMALL_QRELS, [RUN_A, RUN_B], ["P@2"], per_topic=False)
    assert lean.scores == () and lean.means == full.means and lean.missing == full.missing


def test_a_topic_no_run_has_scores_zero_everywhere():
    result = score_runs(SMALL_QRELS, [make_run("C", {"q1": ["a"]})], ["P@1", "nDCG@3"])
    assert [s.value for s in result.scores if s.topic != "q1"] == [0.0] * 4
    assert result.missing == {"C": ("q2", "q3")}


@st.composite
def campaigns(draw):
    grades = draw(grade_tables(max_topics=3, max_docs=10, max_aspects=4, max_grade=4))
    runs = []
    for i in range(draw(st.integers(1, 3))):
        scored = draw(scored_run(grades))
        rankings = {qid: ranking_from_scores(pairs) for qid, pairs in scored.items() if pairs}
        if draw(st.booleans()):
            rankings["unjudged-topic"] = Ranking(["u1"])
        runs.append(Run(f"run{i}", rankings, f"<run{i}>"))
    return grades, runs


@settings(max_examples=30)
@given(campaigns(), st.sampled_from(["linear", "err", "err-aspect", "binary"]))
def test_batched_path_equals_per_ranking_scores(case, mapping):
    """Every table metric, through score_runs (one RankingBatch per topic), equals
    metric.score on each ranking, and 0 where a run lacks the topic."""
    grades, runs = case
    qrels = make_qrels(grades, mapping)
    metrics = [parse(spec) for _, spec in TABLE_ROWS]
    result = score_runs(qrels, runs, metrics)
    scores = {(s.run, s.topic, s.metric): s.value for s in result.scores}
    assert len(scores) == len(runs) * len(qrels.topics) * len(metrics)
    for run in runs:
        for qid, topic in qrels.topics.items():
            for metric in metrics:
                expected = metric.score(run.rankings[qid], topic) if qid in run.rankings else 0.0
                assert scores[run.tag, qid, metric.name] == pytest.approx(expected, abs=1e-12), \
                    (metric.name, run.tag, qid)
        assert result.missing[run.tag] == tuple(q for q in qrels.topics if q not in run.rankings)
    for mean in result.means:
        values = [scores[mean.run, qid, mean.metric] for qid in qrels.topics]
        assert mean.value == pytest.approx(sum(values) / len(values), abs=1e-12)


def test_built_ins_take_the_batched_path(monkeypatch):
    def no_single_scores(*args, **kwargs):
        raise AssertionError("score() called although score_batch exists")

    monkeypatch.setattr(Precision, "score", no_single_scores)
    result = score_runs(SMALL_QRELS, [RUN_A], ["P@2"])
    assert result.mean("A", "P@2") == pytest.approx(1 / 3, abs=1e-15)


class UnbatchedPrecision(Precision):
    """P@k without a vectorised path."""

    def score_batch(self, batch):
        raise NotImplementedError


def test_fallback_for_unbatched_and_wrapped_metrics():
    def first_is_relevant(ranking, topic):
        return float(bool(ranking) and topic.rel(ranking[0]))

    metrics = [UnbatchedPrecision(2), wrap(first_is_relevant)]
    result = score_runs(SMALL_QRELS, [RUN_A, RUN_B], metrics)
    # As hand-computed above, P@2: A = 1/3, B = 1/2. First relevant: A: q1 yes, q2 no, q3 missing
    # -> 1/3; B: yes on all three -> 1.
    assert result.mean("A", "P@2") == pytest.approx(1 / 3, abs=1e-15)
    assert result.mean("B", "P@2") == 0.5
    assert result.mean("A", "first_is_relevant") == pytest.approx(1 / 3, abs=1e-15)
    assert result.mean("B", "first_is_relevant") == 1.0


class BrokenBatchPrecision(Precision):
    """A batched path that loses a ranking."""

    def score_batch(self, batch):
        return super().score_batch(batch)[:-1]


def test_a_batch_of_the_wrong_length_is_an_error():
    with pytest.raises(MetricError, match=r"P@2 gave \[0\.5\] for 2 rankings of topic 'q1'"):
        score_runs(SMALL_QRELS, [RUN_A, RUN_B], [BrokenBatchPrecision(2)])


class NanBatchPrecision(Precision):
    """A batched path that produces NaN."""

    def score_batch(self, batch):
        return super().score_batch(batch) * float("nan")


def test_a_non_finite_value_is_an_error():
    with pytest.raises(MetricError, match=r"P@2 gave \[nan\] for 1 rankings"):
        score_runs(SMALL_QRELS, [RUN_A], [NanBatchPrecision(2)])


def test_progress_is_reported_per_topic():
    calls = []
    score_runs(SMALL_QRELS, [RUN_A], ["P@2"], progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_shared_tags_are_told_apart_by_file():
    first, second = make_run("same", {"q1": ["a"]}), make_run("same", {"q1": ["c"]})
    second = Run(second.tag, second.rankings, "other.run")
    result = score_runs(SMALL_QRELS, [first, second], ["P@1"])
    assert result.runs == ("<same>", "other.run")
    assert result.mean("<same>", "P@1") == pytest.approx(1 / 3, abs=1e-15)  # a is relevant
    assert result.mean("other.run", "P@1") == 0.0  # c is not


@pytest.mark.parametrize("runs, metrics, error, message", [
    ([RUN_A, RUN_A], ["P@2"], ValidationError, "run 'A' from <A> is given twice"),
    ([RUN_A], ["P@10", "P"], ValidationError, "metric P@10 is given twice"),
    ([RUN_A], [wrap(lambda r, t, context=None: 0.0, "relative", needs=Needs(context=True))],
     ValidationError, "relative is a relative metric (it needs other systems' rankings"),
    ([RUN_A], ["nDCG@0"], InputError, "metric 'nDCG@0'"),
])
def test_rejected_inputs(runs, metrics, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        score_runs(SMALL_QRELS, runs, metrics)


def test_real_qrels_with_every_table_metric():
    """The real 2014 judgments (up to 7 aspects, grades 0-4): two runs, one
    ranking each topic's judged documents in file order and one in reverse,
    100 deep; the batched values equal metric.score on every topic."""
    qrels = read_qrels(QRELS_2014)
    runs = [Run(tag, {qid: Ranking(order(topic.documents)[:100]) for qid, topic in qrels.topics.items()},
                f"<{tag}>") for tag, order in (("forward", list), ("backward", lambda d: d[::-1]))]
    metrics = [parse(spec) for _, spec in TABLE_ROWS]
    result = score_runs(qrels, runs, metrics)
    assert len(result.scores) == 2 * 50 * 20 and result.missing == {"forward": (), "backward": ()}
    by_key = {(s.run, s.topic, s.metric): s.value for s in result.scores}
    for run in runs:
        for qid, topic in qrels.topics.items():
            for metric in metrics:
                assert by_key[run.tag, qid, metric.name] == pytest.approx(
                    metric.score(run.rankings[qid], topic), abs=1e-12), (metric.name, qid)
