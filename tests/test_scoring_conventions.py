"""Each metric reads the grades as its reference implementation does (issue 12, item 1).

The qrels below have grades 0-3 on two aspects; each metric's value from ``score_runs`` without
``grades`` must equal the metric on the topic built with its reference's mapping (trec_eval:
linear; ndeval: binary; ERR: err; RBU: err-aspect; ir_measures RBP(rel=1): binary), and
``grades=...`` must force one mapping on all. nDCG@10 agrees with trec_eval (pytrec_eval) by default.
"""

from __future__ import annotations

import pytest
import pytrec_eval

from axiometer.grades import topic_from_grades
from axiometer.metrics import parse, wrap
from axiometer.readers import Qrels, Run
from axiometer.core import Ranking
from axiometer.reports.scores import format_scores
from axiometer.scoring import score_runs

GRADES = {"q1": {"a": {"t1": 3}, "b": {"t1": 1, "t2": 2}, "c": {"t2": 1}, "d": {"t1": 0}},
          "q2": {"x": {"t1": 2}, "y": {"t2": 3}, "z": {"t1": 1}}}
RANKINGS = {"q1": ["c", "d", "b", "a"], "q2": ["z", "y", "x"]}

#: metric -> the mapping its reference reads grades with
EXPECTED = {"nDCG@10": "linear", "P@3": "linear", "AP": "linear", "ERR@10": "err", "ERR_IA@10": "err",
            "alpha_nDCG@10": "binary", "P_IA@3": "binary", "RBU@10": "err-aspect",
            "RBP(p=0.8)": "binary", "EU": "err"}


def qrels(mapping: str = "err") -> Qrels:
    topics = {q: topic_from_grades(q, table, mapping=mapping) for q, table in GRADES.items()}
    return Qrels(topics, GRADES, {q: dict(zip(t.aspects, t.weights)) for q, t in topics.items()},
                 "trec-diversity", "<test>", mapping)


RUN = Run("r", {q: Ranking(docs) for q, docs in RANKINGS.items()}, "<r>")


def direct(spec: str, mapping: str) -> dict[str, float]:
    metric = parse(spec)
    return {q: metric.score(RUN.rankings[q], topic) for q, topic in qrels(mapping).topics.items()}


def test_every_metric_reads_the_grades_as_its_reference_does():
    result = score_runs(qrels(), [RUN], list(EXPECTED))
    values = {(s.topic, s.metric): s.value for s in result.scores}
    used = {metric: mapping for metric, mapping, _ in result.conventions}
    for spec, mapping in EXPECTED.items():
        name = parse(spec).name
        assert used[name] == mapping, name
        for q, expected in direct(spec, mapping).items():
            assert values[q, name] == pytest.approx(expected, abs=1e-12), (name, q)
    # The mapping matters: nDCG@10 under err differs from under linear on these grades.
    assert direct("nDCG@10", "err") != direct("nDCG@10", "linear")


def test_grades_forces_one_mapping_on_every_metric():
    result = score_runs(qrels(), [RUN], list(EXPECTED), grades="err")
    values = {(s.topic, s.metric): s.value for s in result.scores}
    assert {mapping for _, mapping, _ in result.conventions} == {"err"}
    assert {who for _, _, who in result.conventions} == {"--grades"}
    for spec in EXPECTED:
        for q, expected in direct(spec, "err").items():
            assert values[q, parse(spec).name] == pytest.approx(expected, abs=1e-12)


def test_a_function_reads_the_grades_as_trec_eval_does_whatever_the_qrels_reading():
    # Issue 27: a metric author's function used to read the qrels' own (err) mapping by default.
    counted = wrap(lambda ranking, topic: float(sum(topic.r(d) for d in ranking[:1])), "first")
    linear = qrels("linear")
    for mapping in ("linear", "err"):
        result = score_runs(qrels(mapping), [RUN], [counted])
        assert result.conventions == (("first", "linear", "trec_eval, the default for a metric that is not "
                                                          "built in"),)
        assert result.mean("r", "first") == pytest.approx(
            sum(linear.topics[q].r(RANKINGS[q][0]) for q in GRADES) / 2, abs=1e-15)
    forced = score_runs(qrels(), [RUN], [counted], grades="err")
    assert forced.conventions == (("first", "err", "--grades"),)
    assert forced.mean("r", "first") == pytest.approx(
        sum(qrels("err").topics[q].r(RANKINGS[q][0]) for q in GRADES) / 2, abs=1e-15)


def test_the_report_says_how_each_metric_read_the_grades_before_any_score():
    counted = wrap(lambda ranking, topic: float(sum(topic.r(d) for d in ranking[:1])), "first")
    text = format_scores(score_runs(qrels(), [RUN], [counted, "ERR@10"]), "text")
    lines = text.splitlines()
    assert lines[0].startswith("Grades g read as relevance r, per metric")
    assert lines[1:3] == ["  linear (r = g / gmax) as trec_eval, the default for a metric that is not built in: first",
                          "  err (r = (2^g - 1) / 2^gmax) as ERR (Chapelle et al. 2009): ERR@10"]


def test_ndcg_agrees_with_trec_eval_without_any_option():
    """The issue's first complaint: the default nDCG@10 was ERR-mapped, not trec_eval's."""
    single = {q: {d: max(per.values()) for d, per in table.items()} for q, table in GRADES.items()}
    run = {q: {d: float(len(docs) - i) for i, d in enumerate(docs)} for q, docs in RANKINGS.items()}
    peer = pytrec_eval.RelevanceEvaluator(single, {"ndcg_cut_10", "P_3", "map"}).evaluate(run)
    result = score_runs(qrels(), [RUN], ["nDCG@10", "P@3", "AP"])
    for q in GRADES:
        values = {s.metric: s.value for s in result.scores if s.topic == q}
        assert values["nDCG@10"] == pytest.approx(peer[q]["ndcg_cut_10"], abs=1e-12)
        assert values["P@3"] == pytest.approx(peer[q]["P_3"], abs=1e-12)
        assert values["AP"] == pytest.approx(peer[q]["map"], abs=1e-12)


def test_nrg_reads_the_grades_as_its_base_does():
    assert parse("NRG(base=nDCG@10)").grades_convention.mapping == "linear"
    assert parse("NRG(base=RBP(p=0.8))").grades_convention.mapping == "binary"


def test_an_unknown_forced_mapping_is_one_error():
    with pytest.raises(Exception, match="unknown grade mapping 'gain'"):
        score_runs(qrels(), [RUN], ["P@3"], grades="gain")
