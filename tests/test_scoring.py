"""Campaign scoring: missing and ignored topics, means, the batched path
against the per-ranking path, and the fallbacks."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from axiometer.core import InputError, Ranking, ValidationError
from axiometer.grades import ranking_from_scores, topic_from_grades
from axiometer.metrics import TABLE_ROWS, MetricError, Needs, parse, wrap
from axiometer.metrics.precision import PrecisionAtK
from axiometer.metrics.relative import RelativeMetric
from axiometer.metrics.rareness import RareP
from axiometer.readers import Qrels, Run, read_qrels
from axiometer.scoring import (
    KendallTau,
    Mean,
    Score,
    ScoreResult,
    group_of,
    kendall_tau_b,
    read_groups,
    score_runs,
)
from axiometer.scoring import score_runs as score
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


def test_matrix_holds_the_per_topic_values_runs_by_topics():
    result = score_runs(SMALL_QRELS, [RUN_A, RUN_B], ["P@2", "RR"])
    # Rows A, B; columns q1, q2, q3 (the values of the test above; B: one relevant first everywhere).
    assert result.matrix("RR").tolist() == [[1.0, 0.5, 0.0], [1.0, 1.0, 1.0]]
    assert result.matrix("P@2").tolist() == [[0.5, 0.5, 0.0], [0.5, 0.5, 0.5]]
    with pytest.raises(KeyError):
        result.matrix("AP")
    with pytest.raises(ValueError, match="per_topic=True"):
        score_runs(SMALL_QRELS, [RUN_A], ["RR"], per_topic=False).matrix("RR")


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
    result = score_runs(qrels, runs, metrics, grades=mapping)   # every metric reads `mapping`
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

    monkeypatch.setattr(PrecisionAtK, "score", no_single_scores)
    result = score_runs(SMALL_QRELS, [RUN_A], ["P@2"])
    assert result.mean("A", "P@2") == pytest.approx(1 / 3, abs=1e-15)


class UnbatchedPrecision(PrecisionAtK):
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


def _broken_batch(batch):
    """A batched path that loses a ranking."""
    return _PRECISION_BATCH(PrecisionAtK(2), batch)[:-1]


def _nan_batch(batch):
    """A batched path that produces NaN."""
    return _PRECISION_BATCH(PrecisionAtK(2), batch) * float("nan")


_PRECISION_BATCH = PrecisionAtK.score_batch


def test_a_batch_of_the_wrong_length_is_an_error(monkeypatch):
    # The built-in class itself is patched: a subclass is a metric author's, scored ranking by ranking.
    monkeypatch.setattr(PrecisionAtK, "score_batch", lambda self, batch: _broken_batch(batch))
    with pytest.raises(MetricError, match=r"P@2 gave \[0\.5\] for 2 rankings of topic 'q1'"):
        score_runs(SMALL_QRELS, [RUN_A, RUN_B], [PrecisionAtK(2)])


def test_a_non_finite_value_is_an_error(monkeypatch):
    monkeypatch.setattr(PrecisionAtK, "score_batch", lambda self, batch: _nan_batch(batch))
    with pytest.raises(MetricError, match=r"P@2 gave \[nan\] for 1 rankings"):
        score_runs(SMALL_QRELS, [RUN_A], [PrecisionAtK(2)])


class OwnScorePrecision(PrecisionAtK):
    """A metric author's subclass of a built-in that changes its score (and inherits score_batch)."""

    def score(self, ranking, topic, context=None):
        return 1.0


def test_a_subclass_of_a_built_in_is_scored_by_its_own_score_not_the_inherited_batch():
    result = score_runs(SMALL_QRELS, [RUN_A, RUN_B], [OwnScorePrecision(2)])
    # Every ranking present scores 1 (RUN_A misses q3, which scores 0: 2/3).
    assert result.mean("B", "P@2") == 1.0
    assert result.mean("A", "P@2") == pytest.approx(2 / 3, abs=1e-15)


def test_progress_is_reported_per_topic():
    calls = []
    score_runs(SMALL_QRELS, [RUN_A], ["P@2"], progress=lambda *call: calls.append(call))
    assert calls == [("scoring", 1, 3), ("scoring", 2, 3), ("scoring", 3, 3)]


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
     ValidationError, ("relative is a relative metric: it needs other systems' rankings as "
                       "context; give several runs or a prior set")),
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
    result = score_runs(qrels, runs, metrics, grades=qrels.mapping)
    assert len(result.scores) == 2 * 50 * 20 and result.missing == {"forward": (), "backward": ()}
    by_key = {(s.run, s.topic, s.metric): s.value for s in result.scores}
    for run in runs:
        for qid, topic in qrels.topics.items():
            for metric in metrics:
                assert by_key[run.tag, qid, metric.name] == pytest.approx(
                    metric.score(run.rankings[qid], topic), abs=1e-12), (metric.name, qid)


# -- relative metrics in a campaign ------------------------------------------------

def novel(ranking, topic, context=None):
    """Relevant documents that no context ranking retrieves (a toy relative metric)."""
    seen = {d for r in context.rankings for d in r}
    return float(sum(1 for d in ranking if topic.rel(d) and d not in seen))


NOVEL = wrap(novel, needs=Needs(context=True))


class NovelCount(RelativeMetric):
    """``novel`` as a built-in relative metric, so scoring takes ``score_systems``."""

    family = "NovelCount"
    title = "novel"

    def compute(self, ranking, topic, A, context=None):
        seen = {d for r in context.rankings for d in r}
        return A.num(sum(1 for d in self.window(ranking) if topic.rel(d) and d not in seen))


REL_QRELS = make_qrels({"q1": {"a": {"*": 1}, "b": {"*": 1}, "c": {"*": 1}, "n": {"*": 0}},
                        "q2": {"x": {"*": 1}}})
UOG_A = make_run("uog_a", {"q1": ["a", "b"], "q2": ["x"]})
UOG_B = make_run("uog_b", {"q1": ["a"]})  # lacks q2
ICT_1 = make_run("ict-1", {"q1": ["c", "b"], "q2": ["y"]})
CAMPAIGN = [UOG_A, UOG_B, ICT_1]


def means(result, metric):
    return tuple(result.mean(run, metric) for run in result.runs)


def test_all_others_context_by_hand():
    result = score(REL_QRELS, CAMPAIGN, ["P@2", NOVEL], prior="all-others")
    # uog_a: q1 (a, b) both retrieved by others -> 0; q2 (x): only ict-1 has q2 (uog_b
    #   contributes nothing there), it retrieves y -> x is novel -> 1; mean 1/2.
    # uog_b: q1 (a) retrieved by uog_a -> 0; q2 missing -> 0; mean 0.
    # ict-1: q1 (c, b): c retrieved by nobody else -> 1; q2 (y) not relevant -> 0; mean 1/2.
    assert means(result, "novel") == (0.5, 0.0, 0.5)
    # P@2: uog_a (1 + 1/2)/2 = 3/4, uog_b (1/2 + 0)/2 = 1/4, ict-1 (1 + 0)/2 = 1/2.
    assert means(result, "P@2") == (0.75, 0.25, 0.5)
    assert result.relative == ("novel",) and result.metrics == ("P@2", "novel")
    assert result.priors.mode == "all-others"
    assert result.priors.contexts == {"uog_a": ("uog_b", "ict-1"), "uog_b": ("uog_a", "ict-1"),
                                      "ict-1": ("uog_a", "uog_b")}
    # Kendall: novel (1/2, 0, 1/2) vs P@2 (3/4, 1/4, 1/2): pairs (uog_a, uog_b) concordant,
    # (uog_a, ict-1) tied in novel, (uog_b, ict-1) concordant: tau_b = 2 / sqrt((3-1)(3-0)).
    assert result.kendall == (KendallTau("novel", "P@2", 2 / math.sqrt(6), 2, 0, 1, 0),)


class _OneByOne(RareP):
    """RareP as a metric author's subclass: not trusted, so scored ranking by ranking, guarded."""


def test_built_in_relative_metrics_score_a_topic_at_once(monkeypatch):
    calls = []
    original = RareP.score_systems

    def spy(self, topic, rankings, priors):
        calls.append((topic.topic_id, [list(r) for r in rankings], [list(p) for p in priors]))
        return original(self, topic, rankings, priors)

    monkeypatch.setattr(RareP, "score_systems", spy)
    result = score(REL_QRELS, CAMPAIGN, ["P@2", "RareP@2"], prior="all-others")
    # The same values as ranking by ranking: a subclass (a metric author's) is scored that way.
    one_by_one = score(REL_QRELS, CAMPAIGN, ["P@2", _OneByOne(2)], prior="all-others")
    name = "RareP(alpha=0.5)@2"
    assert means(result, name) == means(one_by_one, name) and any(means(result, name))
    # q2: only uog_a (index 0) and ict-1 (index 1) hold it; each other's context.
    assert calls == [("q1", [["a", "b"], ["a"], ["c", "b"]], [[1, 2], [0, 2], [0, 1]]),
                     ("q2", [["x"], ["y"]], [[1], [0]])]


def test_a_relative_metric_over_a_base_names_that_base_as_data():
    result = score(REL_QRELS, CAMPAIGN, ["nDCG@10", "NRG(base=nDCG@10)", NOVEL])
    # NRG's base parameter, by name; a relative metric without a base names none.
    assert result.bases == {"NRG(base=nDCG@10)": "nDCG@10"}
    assert result.relative == ("NRG(base=nDCG@10)", "novel")


def test_best_per_group_from_the_tags_by_hand():
    result = score(REL_QRELS, CAMPAIGN, ["P@2", NOVEL], prior="best-per-group")
    priors = result.priors
    # Groups from the tags: uog_a, uog_b -> uog; ict-1 -> ict. Best by mean P@2 (the first
    # non-relative metric): uog_a (3/4) beats uog_b (1/4).
    assert priors.groups == {"uog_a": "uog", "uog_b": "uog", "ict-1": "ict"}
    assert priors.best == {"ict": "ict-1", "uog": "uog_a"} and priors.best_by == "P@2"
    assert priors.contexts == {"uog_a": ("ict-1",), "uog_b": ("ict-1",), "ict-1": ("uog_a",)}
    # uog_a vs ict-1: q1 a novel (1), q2 x novel (1) -> 1. uog_b vs ict-1: q1 a -> 1, q2
    # missing -> 0 -> 1/2. ict-1 vs uog_a: q1 c -> 1, q2 y not relevant -> 0 -> 1/2.
    assert means(result, "novel") == (1.0, 0.5, 0.5)


def test_best_per_group_from_a_mapping_ties_go_to_the_first_tag():
    twin = make_run("zz", {"q1": ["a", "b"], "q2": ["x"]})  # the same P@2 as uog_a
    result = score(REL_QRELS, [twin, UOG_A, ICT_1], [NOVEL], prior="best-per-group",
                   groups={"zz": "g", "uog_a": "g", "ict-1": "h"}, best_by="P@2")
    assert result.priors.best == {"g": "uog_a", "h": "ict-1"}  # 3/4 each: 'uog_a' < 'zz'
    assert result.priors.contexts["ict-1"] == ("uog_a",)
    # Only relative metrics given: the best-by metric is scored and shown too.
    assert result.metrics == ("P@2", "novel")


def test_best_by_defaults_to_ndcg_without_plain_metrics():
    result = score(REL_QRELS, CAMPAIGN, [NOVEL], prior="best-per-group")
    assert result.priors.best_by == "nDCG@10" and result.metrics == ("nDCG@10", "novel")
    assert [k.metric for k in result.kendall] == ["nDCG@10"]


def test_prior_runs_from_files_are_not_scored_and_a_run_is_not_its_own_prior():
    external = make_run("ext", {"q1": ["b", "c"]})  # lacks q2
    result = score(REL_QRELS, [UOG_A, ICT_1], ["P@2", NOVEL], prior=[external, ICT_1])
    assert result.runs == ("uog_a", "ict-1")
    assert result.priors.mode == "files"
    assert result.priors.contexts == {"uog_a": ("ext", "ict-1"), "ict-1": ("ext",)}
    # uog_a: q1 a novel against {b, c} -> 1; q2: only ict-1 (y) -> x novel -> 1; mean 1.
    # ict-1: q1 (c, b) both in ext -> 0; q2 y not relevant -> 0; mean 0.
    assert means(result, "novel") == (1.0, 0.0)


def test_the_default_prior_is_all_others():
    assert score(REL_QRELS, CAMPAIGN, [NOVEL]).priors.mode == "all-others"


def test_a_relative_metric_error_names_the_topic():
    def undefined(ranking, topic, context=None):
        raise MetricError("log of 0")

    with pytest.raises(MetricError, match=r"undefined on topic 'q1': log of 0"):
        score(REL_QRELS, CAMPAIGN, [wrap(undefined, needs=Needs(context=True))])


@pytest.mark.parametrize("runs, kwargs, message", [
    ([UOG_A], {}, "novel is a relative metric: it needs other systems' rankings as context"),
    ([UOG_A], {"prior": "all-others"}, "run 'uog_a' has no prior runs under the all-others prior "
                                       "(it is the only run)"),
    ([UOG_A, UOG_B], {"prior": "best-per-group"},
     "run 'uog_a' has no prior runs under the best-per-group prior (its group 'uog' is the only"),
    ([UOG_A], {"prior": [UOG_A]}, "the prior runs are this run itself"),
    (CAMPAIGN, {"prior": "best"}, "unknown prior 'best'; give all-others or best-per-group"),
    (CAMPAIGN, {"prior": "best-per-group", "groups": {"uog_a": "g", "uog_b": "g", "ict-1": "h",
                                                      "other": "h"}},
     "groups name unknown run 'other'"),
    (CAMPAIGN, {"prior": "best-per-group", "groups": {"uog_a": "g", "uog_b": "g"}},
     "run 'ict-1' has no group"),
    (CAMPAIGN, {"prior": "best-per-group", "best_by": NOVEL}, "best-by metric novel is relative"),
    (CAMPAIGN, {"prior": [Run("uog_a", {"q1": Ranking(["c"])}, "old/uog_a.run")]},
     "prior run 'uog_a' from old/uog_a.run has the tag of evaluated run 'uog_a' from <uog_a> but "
     "other rankings"),
])
def test_bad_contexts_are_clear_errors(runs, kwargs, message):
    with pytest.raises(ValidationError, match=message.replace("(", r"\(").replace(")", r"\)")):
        score(REL_QRELS, runs, [NOVEL], **kwargs)


def test_a_prior_without_relative_metrics_is_an_error():
    with pytest.raises(ValidationError, match="a prior set only matters for relative metrics"):
        score(REL_QRELS, CAMPAIGN, ["P@2"], prior="all-others")


def test_kendall_tau_b_by_hand():
    # x = (1, 2, 3, 4), y = (1, 3, 2, 2). Pairs: (1,2) C, (1,3) C, (1,4) C, (2,3) D, (2,4) D,
    # (3,4) tied in y. tau_b = (3 - 2) / sqrt((6 - 0)(6 - 1)) = 1/sqrt(30).
    tau = kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 2])
    assert (tau.concordant, tau.discordant, tau.ties_relative, tau.ties_metric) == (3, 2, 0, 1)
    assert tau.tau == pytest.approx(1 / math.sqrt(30), abs=1e-15)
    assert kendall_tau_b([1, 2, 3], [3, 2, 1]).tau == -1.0
    assert kendall_tau_b([1, 1, 1], [1, 2, 3]).tau is None  # one ordering ties everything
    assert kendall_tau_b([5.0], [1.0]).tau is None
    with pytest.raises(ValidationError):
        kendall_tau_b([1, 2], [1])


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=2, max_size=12))
def test_kendall_tau_b_agrees_with_scipy(pairs):
    scipy_stats = pytest.importorskip("scipy.stats")
    x, y = zip(*pairs)
    ours = kendall_tau_b(x, y).tau
    theirs = scipy_stats.kendalltau(x, y, variant="b").statistic
    if ours is None:
        assert math.isnan(theirs)
    else:
        assert ours == pytest.approx(theirs, abs=1e-12)
        assert kendall_tau_b(y, x).tau == pytest.approx(ours, abs=1e-15)  # symmetric


@pytest.mark.parametrize("tag, group", [
    ("uog_a", "uog"), ("ICT-2", "ICT"), ("run003", "run"), ("uogTrA44x", "uogTrA44x"),
    ("2014", "2014"), ("_x1", "_x"), ("a_b-c", "a"),
])
def test_group_of_a_tag(tag, group):
    assert group_of(tag) == group


def test_read_groups(tmp_path):
    good = tmp_path / "groups.txt"
    good.write_text("# run group\nuog_a  g1\n\nict-1 g2\n")
    assert read_groups(good, ["uog_a", "ict-1"]) == {"uog_a": "g1", "ict-1": "g2"}
    for text, message in [("uog_a g1 extra\n", ":1: expected 2 columns (run_tag group), found 3"),
                          ("uog_a g1\nuog_a g2\n", ":2: run 'uog_a' is given a group twice "
                                                   "(first at line 1)"),
                          ("uog_a g1\nnope g2\n", ":2: unknown run 'nope' (runs: uog_a, ict-1)"),
                          ("# nothing\n", ": empty file: no run groups")]:
        good.write_text(text)
        with pytest.raises(InputError) as error:
            read_groups(good, ["uog_a", "ict-1"])
        assert str(error.value) == f"{good}{message}"


@pytest.mark.parametrize("metric", [NOVEL, NovelCount()], ids=["wrapped", "score_systems"])
def test_each_run_gets_its_own_context_on_both_paths(metric):
    name = metric.name
    best = score(REL_QRELS, CAMPAIGN, [metric], prior="best-per-group", best_by="P@2")
    assert means(best, name) == (1.0, 0.5, 0.5)  # as test_best_per_group_from_the_tags_by_hand
    # Prior files that are evaluated runs too: uog_a sees uog_b and ict-1; uog_b and ict-1
    # see each other. uog_a: q1 a, b seen -> 0, q2 x novel -> 1: 1/2. uog_b: q1 a not in
    # ict-1's (c, b) -> 1, q2 missing: 1/2. ict-1: q1 c, b not in uog_b's (a) -> 2, q2 y
    # not relevant -> 0: 1.
    files = score(REL_QRELS, CAMPAIGN, [metric], prior=[UOG_B, ICT_1])
    assert files.priors.contexts == {"uog_a": ("uog_b", "ict-1"), "uog_b": ("ict-1",),
                                     "ict-1": ("uog_b",)}
    assert means(files, name) == (0.5, 0.5, 1.0)


def test_tidy_rows_are_one_per_run_metric_and_topic_or_the_means_without_topics():
    full = score_runs(SMALL_QRELS, [RUN_A, RUN_B], ["P@2", "RR"])
    rows = full.to_rows()
    assert len(rows) == len(full.runs) * len(full.metrics) * len(full.topics) == len(full.scores)
    assert {(r["run"], r["metric"], r["topic"], r["value"]) for r in rows} == {
        (s.run, s.metric, s.topic, s.value) for s in full.scores}
    lean = score_runs(SMALL_QRELS, [RUN_A, RUN_B], ["P@2"], per_topic=False)
    assert [(r["run"], r["topic"], r["value"]) for r in lean.to_rows()] == [(m.run, None, m.value) for m in lean.means]
    frame = full.to_pandas()
    assert frame.groupby(["run", "metric"])["value"].mean().to_dict() == {
        (m.run, m.metric): pytest.approx(m.value) for m in full.means}
