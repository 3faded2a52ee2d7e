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

import pytest
from hypothesis import given

pytest.importorskip("ir_measures")
pytest.importorskip("pytrec_eval")

from axiometer.checking import Budget
from axiometer.core import InputError, Ranking, Topic, ValidationError
from axiometer.metrics import MetricError, parse
from axiometer.metrics.ir_measures_bridge import (
    MAX_GRADE,
    IrMeasuresMetric,
    ir_measures_metric,
    qrels_grades,
    run_scores,
)
from axiometer.runner import run_table
from tests.strategies import diversity_cases

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
