"""The ir_measures bridge (`axiometer.metrics.ir_measures_bridge`): exact error lines, the grade
limit's edge, the run's scores, the evaluator cache, identity and pickling. Issue 14 (metrics area,
m1); values worked out by hand in the comments.
"""

from __future__ import annotations

import pickle
from fractions import Fraction
from types import SimpleNamespace

import pytest

pytest.importorskip("ir_measures")
pytest.importorskip("pytrec_eval")

from axiometer.core import Topic, ValidationError
from axiometer.metrics import MetricError
from axiometer.metrics.ir_measures_bridge import (
    MAX_GRADE,
    PREFIX,
    IrMeasuresMetric,
    ir_measures_metric,
    qrels_grades,
    run_scores,
)
from axiometer.metrics import ir_measures_bridge as bridge_module
from tests.errors import one_line_error

KNOWN = "AP, Bpref, infAP, IPrec, nDCG, NumQ, NumRel, NumRet, P, R, Rprec, RR, SetAP, SetF, SetP, SetR, Success"


def error_of(measure: str) -> str:
    return one_line_error(ir_measures_metric, measure)


@pytest.mark.parametrize("measure, expected", [
    ("Foo@10", f"ir_measures:Foo@10: unknown ir_measures measure 'Foo'; known: {KNOWN}"),
    (" Foo@10 ", f"ir_measures: Foo@10 : unknown ir_measures measure 'Foo'; known: {KNOWN}"),
    ("nDCG(foo=1)@10", "ir_measures:nDCG(foo=1)@10: invalid ir_measures measure 'nDCG(foo=1)@10': "
                       "unsupported params found: ['foo']"),
    ("P(rel=2)@10", "ir_measures:P(rel=2)@10: rel=2 is not supported: the bridge's grades are r(d) scaled "
                    "per topic, so only relevance level 1 (r > 0) has a fixed meaning"),
    ("nDCG(gains={0:0,1:5})@10", "ir_measures:nDCG(gains={0:0,1:5})@10: gains=... is not supported: the "
                                 "bridge's grades are r(d) scaled per topic, so a gain table keyed by grade "
                                 "has no fixed meaning"),
    ("ERR@10", "ir_measures:ERR@10: ir_measures computes ERR@10 without trec_eval; the bridge takes the "
               "measures ir_measures computes with trec_eval (pytrec_eval): nDCG, P, AP, RR, Rprec, R, "
               "Bpref, Success, ..."),
    ("", "an ir_measures measure is needed after 'ir_measures:', e.g. ir_measures:nDCG@10"),
    ("  ", "an ir_measures measure is needed after 'ir_measures:', e.g. ir_measures:nDCG@10"),
    ("ir_measures:", "an ir_measures measure is needed after 'ir_measures:', e.g. ir_measures:nDCG@10"),
])
def test_error_lines(measure, expected):
    assert error_of(measure) == expected


def test_a_parse_error_is_one_line_naming_the_stripped_measure():
    text = error_of(" nDCG@x ")
    assert text.startswith("ir_measures: nDCG@x : cannot parse ir_measures measure 'nDCG@x': ")
    assert "; " in text          # ir_measures' several lines joined by '; '


def test_rel_1_is_the_binary_view_and_allowed():
    assert ir_measures_metric("P(rel=1)@10").name == "ir_measures:P@10"


def test_missing_packages(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "ir_measures", None)
    assert error_of("nDCG@10") == "ir_measures:nDCG@10: the ir_measures bridge needs the ir-measures package: pip install ir-measures"


def test_missing_pytrec_eval(monkeypatch):
    import ir_measures

    monkeypatch.setattr(ir_measures.pytrec_eval, "is_available", lambda: False)
    assert error_of("nDCG@10") == "ir_measures:nDCG@10: the ir_measures bridge needs pytrec_eval: pip install pytrec-eval-terrier"


def test_names_cutoffs_needs_and_default():
    ndcg = ir_measures_metric(f"{PREFIX}nDCG@5")
    assert (ndcg.name, ndcg.family, ndcg.measure_text, ndcg.cutoff) == (
        "ir_measures:nDCG@5", "ir_measures:nDCG@5", "nDCG@5", 5)
    assert ndcg.params == {} and ndcg.param_info == () and ndcg.exact_available is False
    assert (ndcg.needs.aspects, ndcg.needs.graded, ndcg.needs.context) == (False, True, False)
    for binary in ("P@5", "RR", "AP", "Rprec", "Bpref", "R@5", "Success@3", "SetP", "IPrec@0.5", "infAP"):
        assert ir_measures_metric(binary).needs.graded is False, binary
    assert ir_measures_metric("NumRet").needs.graded is True
    assert ir_measures_metric("Rprec").cutoff is None and ir_measures_metric("nDCG").cutoff is None
    assert ndcg._default == 0.0 and type(ndcg._default) is float


def test_grades_at_the_limit():
    # Denominator 2^20 = MAX_GRADE: L = 2^20 is allowed (grade 1); one more is refused.
    assert qrels_grades(Topic.single({"a": Fraction(1, MAX_GRADE), "b": Fraction(1, 2)})) == {
        "a": 1, "b": MAX_GRADE // 2}
    with pytest.raises(MetricError) as error:
        qrels_grades(Topic.single({"a": Fraction(1, MAX_GRADE + 1)}))
    assert str(error.value) == (f"the topic's relevance values need integer grades up to {MAX_GRADE + 1} "
                                f"(lcm of their denominators), above the bridge's limit {MAX_GRADE}")
    # No relevant document: L = 1, every grade 0. Grades 3/4, 5/6: L = 12 -> 9, 10.
    assert qrels_grades(Topic.single({"a": 0, "b": 0})) == {"a": 0, "b": 0}
    assert qrels_grades(Topic.single({"a": Fraction(3, 4), "b": Fraction(5, 6)})) == {"a": 9, "b": 10}


def test_run_scores_are_n_down_to_1():
    assert run_scores(["a", "c", "b"]) == {"a": 3.0, "c": 2.0, "b": 1.0}
    assert run_scores([]) == {}


def test_scores_by_hand():
    topic = Topic.single({"a": 1, "b": Fraction(1, 2), "c": 0})
    # P@5 of (c, a, x, b): two relevant documents (a, b) in five positions.
    assert ir_measures_metric("P@5").score(["c", "a", "x", "b"], topic) == pytest.approx(0.4, abs=1e-12)
    # RR: first relevant at rank 2.
    assert ir_measures_metric("RR").score(["c", "a", "x", "b"], topic) == 0.5
    # NumRet: four documents retrieved.
    assert ir_measures_metric("NumRet").score(["c", "a", "x", "b"], topic) == 4.0
    value = ir_measures_metric("RR").score(["a"], topic)
    assert value == 1.0 and type(value) is float
    # A topic without judgments: the default (0), not trec_eval's complaint.
    assert ir_measures_metric("NumRet").score(["a"], Topic.single({})) == 0.0


def test_the_evaluator_cache_is_per_topic_and_cleared_when_full(monkeypatch):
    monkeypatch.setattr(bridge_module, "_CACHE_SIZE", 3)
    metric = ir_measures_metric("RR")
    topics = [Topic.single({f"d{i}": 1}) for i in range(4)]
    for i, topic in enumerate(topics[:3]):
        assert metric.score([f"d{i}"], topic) == 1.0
    assert len(metric._evaluators) == 3
    cached = metric._evaluators[topics[0]]
    assert metric._evaluator(topics[0]) is cached           # reused, not rebuilt
    assert metric.score(["x", "d3"], topics[3]) == 0.5     # a fourth topic: the cache starts again
    assert list(metric._evaluators) == [topics[3]]


def test_identity_pickling_and_replace():
    metric = ir_measures_metric("nDCG@10")
    assert metric == ir_measures_metric("ir_measures:nDCG@10") and metric != ir_measures_metric("nDCG@5")
    assert metric != "ir_measures:nDCG@10"
    assert hash(metric) == hash(ir_measures_metric("nDCG@10")) == hash((IrMeasuresMetric, "ir_measures:nDCG@10"))
    assert repr(metric) == "ir_measures:nDCG@10"
    assert metric.__reduce__() == (ir_measures_metric, ("nDCG@10",))
    assert pickle.loads(pickle.dumps(metric)).name == "ir_measures:nDCG@10"
    assert metric.replace(cutoff=5) == ir_measures_metric("nDCG@5")
    with pytest.raises(ValidationError) as error:
        metric.replace(p=0.5)
    assert str(error.value) == ("ir_measures:nDCG@10: declares no parameters; write them in the measure "
                                "(e.g. ir_measures:RBP(p=0.9))")
    with pytest.raises(ValidationError) as error:
        ir_measures_metric("Rprec").replace(cutoff=5)
    assert str(error.value) == "ir_measures:Rprec takes no cutoff (@k)"


def test_a_several_line_parse_error_becomes_one_line(monkeypatch):
    import ir_measures

    def parse_measure(text):
        raise ValueError("first line \n\n   second line\n")

    monkeypatch.setattr(ir_measures, "parse_measure", parse_measure)
    assert error_of("Odd@1") == "ir_measures:Odd@1: cannot parse ir_measures measure 'Odd@1': first line; second line"


def test_an_empty_ranking_is_a_query_missing_from_the_run():
    # NumQ counts the run's queries: 1 with a ranking, 0 (ir_measures' fill-in) without one.
    topic = Topic.single({"a": 1, "b": 0})
    assert ir_measures_metric("NumQ").score(["a"], topic) == 1.0
    assert ir_measures_metric("NumQ").score([], topic) == 0.0


def test_a_measure_reporting_other_than_one_value_for_the_query_is_a_metric_error(monkeypatch):
    """One query in, one value out; anything else is ir_measures misbehaving, said in one line."""
    metric = ir_measures_metric("RR")
    twice = SimpleNamespace(iter_calc=lambda run: [SimpleNamespace(query_id="1", value=1.0)] * 2)
    monkeypatch.setattr(metric, "_evaluator", lambda topic: twice)
    with pytest.raises(MetricError) as caught:
        metric.score(["d1"], Topic.single({"d1": 1}))
    assert str(caught.value) == "ir_measures:RR: ir_measures returned 2 values for one query"
