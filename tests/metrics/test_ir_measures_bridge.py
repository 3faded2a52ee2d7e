"""The ir_measures bridge (``ir_measures:nDCG@10``): scores, qrels, errors,
pickling, and its matrix against the built-in's.

The built-ins are checked against trec_eval on their own
(tests/peers/test_trec_eval.py); here the bridge must give the same values
through ir_measures, on generated multi-aspect topics with exact fractional
relevance, within 1e-9. Expected grades are worked out by hand in the tests'
comments, not read from the bridge.
"""

from __future__ import annotations

import itertools
import math
import pickle
import sys
from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import given

pytest.importorskip("ir_measures")
pytest.importorskip("pytrec_eval")

from axiometer.checking import Budget
from axiometer.core import InputError, Ranking, Topic, ValidationError
from axiometer.metrics import MetricError, ir_measures_bridge as bridge_module, parse
from axiometer.metrics.ir_measures_bridge import (
    MAX_GRADE,
    IrMeasuresMetric,
    ir_measures_metric,
    qrels_grades,
    run_scores,
)
from axiometer.runner import run_table
from axiometer.metrics.ir_measures_bridge import PREFIX
from tests.strategies import diversity_cases
from tests.errors import one_line_error

TOLERANCE = 1e-9

#: ir_measures measure -> our built-in spec computing the same thing.
PAIRS = {"nDCG@10": "nDCG@10", "nDCG@5": "nDCG@5", "nDCG": "nDCG", "P@10": "P@10", "P@5": "P@5",
         "AP": "AP", "AP@10": "AP@10", "RR": "RR", "Rprec": "Rprec", "Bpref": "bpref"}
BRIDGES = {measure: ir_measures_metric(measure) for measure in PAIRS}
BUILTINS = {measure: parse(spec) for measure, spec in PAIRS.items()}


# -- scores ----------------------------------------------------------------------------

@given(diversity_cases(max_docs=10, max_aspects=3, max_rankings=3))
def test_scores_equal_the_builtins(case):
    """Multi-aspect topics (err, linear, binary, per-aspect and drawn-fraction mappings),
    judged and unjudged documents, rankings of any length including empty ones."""
    topic, rankings = case
    for ranking in rankings:
        for measure, bridge in BRIDGES.items():
            ours = BUILTINS[measure].score(ranking, topic)
            theirs = bridge.score(ranking, topic)
            assert abs(ours - theirs) <= TOLERANCE, (measure, ranking, ours, theirs)


def test_hand_computed_ndcg():
    """r = (a 1/10, b 1/20, c 0) -> grades 2, 1, 0. Ranking [b, x, a]:
    DCG@10 = 1/log2(2) + 2/log2(4) = 2, ideal = 2 + 1/log2(3)."""
    topic = Topic.single({"a": Fraction(1, 10), "b": Fraction(1, 20), "c": 0})
    expected = 2 / (2 + 1 / math.log2(3))
    assert abs(BRIDGES["nDCG@10"].score(Ranking(["b", "x", "a"]), topic) - expected) <= TOLERANCE
    # P@5: two relevant documents (a, b) over five positions.
    assert BRIDGES["P@5"].score(Ranking(["b", "x", "a"]), topic) == pytest.approx(2 / 5, abs=1e-12)


def test_empty_ranking_and_topic_without_judgments_score_zero():
    judged = Topic.single({"a": Fraction(1, 2)})
    unjudged = Topic.single({})
    for bridge in BRIDGES.values():
        assert bridge.score(Ranking(), judged) == 0.0
        assert bridge.score(Ranking(["a"]), unjudged) == 0.0
        assert bridge.score(Ranking(), unjudged) == 0.0


def test_needs_and_exactness():
    """Single aspect, no context, float only (ties decided by the stated tolerance)."""
    bridge = BRIDGES["nDCG@10"]
    assert not bridge.needs.context and not bridge.needs.aspects
    assert bridge.exact_available is False


# -- qrels and runs --------------------------------------------------------------------

def test_grades_are_proportional_to_r_with_the_lcm_of_denominators():
    # Denominators 10, 20, 50: L = lcm = 100, so 1/10 -> 10, 1/20 -> 5, 1/50 -> 2.
    topic = Topic.single({"a": Fraction(1, 10), "b": Fraction(1, 20), "c": 0, "d": Fraction(1, 50)})
    assert qrels_grades(topic) == {"a": 10, "b": 5, "c": 0, "d": 2}


def test_grades_use_the_single_aspect_view_and_read_floats_exactly():
    # max over aspects: d1 -> 3/10 (the float 0.3 read as 3/10), d2 -> 1/4; L = lcm(10, 4) = 20.
    topic = Topic({"d1": {"t1": 0.3, "t2": 0.1}, "d2": {"t1": 0, "t2": Fraction(1, 4)},
                   "d3": {"t1": 0}})
    assert qrels_grades(topic) == {"d1": 6, "d2": 5, "d3": 0}


def test_binary_topic_gets_grade_one_and_unjudged_documents_are_absent():
    topic = Topic.single({"a": 1, "b": 0})
    assert qrels_grades(topic) == {"a": 1, "b": 0}
    assert qrels_grades(Topic.single({"z": 0})) == {"z": 0}


def test_grade_limit_is_an_error_not_an_allocation():
    # Denominators 1009 and 1013 (primes) and 1019: L = 1009 * 1013 * 1019 > 2**20.
    topic = Topic.single({"a": Fraction(1, 1009), "b": Fraction(1, 1013), "c": Fraction(1, 1019)})
    assert 1009 * 1013 * 1019 > MAX_GRADE
    with pytest.raises(MetricError, match=f"grades up to {1009 * 1013 * 1019} "):
        BRIDGES["nDCG@10"].score(Ranking(["a"]), topic)


def test_run_scores_strictly_decrease_in_ranking_order():
    # Ids chosen so that docno order would differ from the ranking's (trec_eval's tie rule).
    scores = run_scores(["a", "c", "b"])
    assert list(scores) == ["a", "c", "b"]
    values = list(scores.values())
    assert all(x > y for x, y in itertools.pairwise(values))


def test_order_is_the_rankings_not_the_docnos():
    """With ties, trec_eval would order by docno descending (z before a); strictly
    decreasing scores keep ours: relevant 'a' first gives RR 1, second gives 1/2."""
    topic = Topic.single({"a": 1, "z": 0})
    assert BRIDGES["RR"].score(Ranking(["a", "z"]), topic) == 1.0
    assert BRIDGES["RR"].score(Ranking(["z", "a"]), topic) == 0.5


# -- names and errors ------------------------------------------------------------------

def test_names_cutoffs_and_prefix():
    bridge = ir_measures_metric("ir_measures:nDCG@10")
    assert bridge.name == "ir_measures:nDCG@10" and bridge.cutoff == 10
    assert ir_measures_metric("AP").cutoff is None
    assert ir_measures_metric("MAP").name == "ir_measures:AP"  # ir_measures' alias
    assert ir_measures_metric("P@5").needs.graded is False
    assert ir_measures_metric("nDCG@5").needs.graded is True


@pytest.mark.parametrize("measure, fragment", [
    ("Foo@10", "unknown ir_measures measure 'Foo'; known: AP, Bpref"),
    ("nDCG@x", "cannot parse ir_measures measure 'nDCG@x'"),
    ("nDCG(foo=1)@10", "invalid ir_measures measure"),
    ("P(rel=2)@10", "rel=2 is not supported"),
    ("nDCG(gains={0:0,1:5})@10", "gains=... is not supported"),
    ("ERR@10", "without trec_eval"),
    ("alpha_nDCG@10", "without trec_eval"),
    ("", "an ir_measures measure is needed"),
])
def test_bad_measures_are_one_line_input_errors(measure, fragment):
    with pytest.raises(InputError) as raised:
        ir_measures_metric(measure)
    message = str(raised.value)
    assert fragment in message
    assert "\n" not in message
    if measure:
        assert message.startswith(f"ir_measures:{measure}: ")


def test_missing_ir_measures_names_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "ir_measures", None)  # makes `import ir_measures` fail
    with pytest.raises(InputError) as raised:
        ir_measures_metric("nDCG@10")
    assert "pip install ir-measures" in str(raised.value)
    assert "\n" not in str(raised.value)


# -- protocol: replace, pickling -------------------------------------------------------

def test_replace():
    bridge = BRIDGES["nDCG@10"]
    assert bridge.replace() is bridge and bridge.replace(cutoff=10) is bridge
    assert bridge.replace(cutoff=5).name == "ir_measures:nDCG@5"
    with pytest.raises(ValidationError, match="declares no parameters"):
        bridge.replace(p=0.5)
    with pytest.raises(ValidationError, match="takes no cutoff"):
        ir_measures_metric("Rprec").replace(cutoff=5)


def test_pickle_round_trip_after_use():
    bridge = ir_measures_metric("nDCG@10")
    topic = Topic.single({"a": Fraction(1, 10), "b": Fraction(1, 20)})
    before = bridge.score(Ranking(["b", "a"]), topic)  # the evaluator cache is filled
    copy = pickle.loads(pickle.dumps(bridge))
    assert isinstance(copy, IrMeasuresMetric) and copy == bridge and copy.name == bridge.name
    assert copy.score(Ranking(["b", "a"]), topic) == before


# -- the matrix against the built-in's (docs/ir-measures.md) ----------------------------

SMALL = Budget(cases=20, small_scope=60, seconds=60.0, horizon=64)
COLUMNS = ["Pri", "DeepTh", "Conf", "Sat", "Red"]


@pytest.mark.parametrize("measure", ["nDCG@10", "AP"])
def test_matrix_matches_the_builtin(measure):
    """Same verdicts and the same counterexamples; the documented differences only:
    the bridge is float-only (ties within 1e-9, ``decided='float'``, a stated
    tolerance) and its scores may differ from ours by rounding (well under 1e-9)."""
    ours = run_table([PAIRS[measure]], COLUMNS, seed=3, budget=SMALL, jobs=1)
    theirs = run_table([ir_measures_metric(measure)], COLUMNS, seed=3, budget=SMALL, jobs=1)
    assert theirs.rows == (f"ir_measures:{measure}",)
    for a, b in zip(ours.cells, theirs.cells, strict=True):
        assert (a.constraint, a.verdict) == (b.constraint, b.verdict)
        check_a, check_b = a.default_check, b.default_check
        assert check_a.exact is True and check_b.exact is False and check_b.tolerance == 1e-9
        if check_a.counterexample is not None:
            x, y = check_a.counterexample, check_b.counterexample
            assert (x.topic, x.a, x.b) == (y.topic, y.a, y.b)
            assert abs(x.score_a - y.score_a) <= TOLERANCE and abs(x.score_b - y.score_b) <= TOLERANCE


def test_runner_process_pool_gives_the_same_matrix():
    """The bridge pickles, so the runner sends it to its workers."""
    bridge = ir_measures_metric("P@10")
    here = run_table([bridge], ["Pri", "Conf"], seed=1, budget=SMALL, jobs=1)
    pooled = run_table([bridge], ["Pri", "Conf"], seed=1, budget=SMALL, jobs=2)
    assert here.to_dict() == pooled.to_dict()


def test_python_api_accepts_the_prefixed_name():
    api = pytest.importorskip("axiometer.api")
    report = api.check("ir_measures:nDCG@10", ["Pri", "Conf"], budget=SMALL)
    table = run_table([ir_measures_metric("nDCG@10")], ["Pri", "Conf"], seed=0, budget=SMALL, jobs=1)
    assert report.verdicts == {cell.constraint: cell.verdict for cell in table.cells}
    assert report.verdicts == {"Pri": "satisfied", "Conf": "violated"}  # definitions §7: nDCG keeps Pri


# The ir_measures bridge (`axiometer.metrics.ir_measures_bridge`): exact error lines, the grade
# limit's edge, the run's scores, the evaluator cache, identity and pickling. Issue 14 (metrics area,
# m1); values worked out by hand in the comments.

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
