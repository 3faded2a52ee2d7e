"""agree(): wrong implementations are caught with a minimal case, right ones agree, peers' conventions are named."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from axiometer.agreement.agree import MAX_GRADE, agree
from axiometer.agreement.conventions import conventions_for
from axiometer.agreement.implementations import Failure, load_implementation
from axiometer.agreement.reference import reference_value
from axiometer.agreement.result import Agreement
from axiometer.core import InputError
from axiometer.metrics.resolve import resolve
from tests.agreement import implementations as written


def _explained_by_no_convention(function, spec, query) -> bool:
    """Independently of agree: no convention's reference value matches the function on ``query``."""
    metric = resolve(spec).metric
    outcome = load_implementation(function).values([query])[0]
    for convention in conventions_for(metric):
        expected = reference_value(metric, query, convention, MAX_GRADE)
        if expected is None or (not isinstance(outcome, Failure) and abs(outcome - expected) <= 1e-9):
            return False
    return True


@pytest.mark.parametrize("function, spec", [
    (written.ap_over_retrieved_relevant, "AP"),
    (written.ndcg_ideal_from_run, "nDCG"),
    (written.rr_from_zero, "RR"),
])
def test_an_implementation_written_wrong_differs_with_a_minimal_case_of_at_most_three_documents(function, spec):
    result = agree(function, spec)
    assert result.agree is Agreement.DIFFERS and result.convention is None
    assert result.case is not None and result.case.query.size <= 3
    assert _explained_by_no_convention(function, spec, result.case.query)
    assert not result.ok


def test_a_correct_ndcg_agrees_outright_and_has_every_property():
    result = agree(written.ndcg, "nDCG")
    assert result.agree is Agreement.AGREES and result.case is None
    assert result.convention is not None and result.convention.is_reference
    assert all(check.holds for check in result.properties) and result.ok


def test_pytrec_eval_reciprocal_rank_agrees_once_scores_are_float32_and_shows_a_float32_tie():
    result = agree("ir_measures:RR", "RR", queries=150)  # the provider ir_measures picks: pytrec_eval
    assert "provider pytrec_eval" in result.provider
    assert result.agree is Agreement.AGREES_UNDER
    assert result.convention is not None and dict(result.convention.departures()) == {"precision": "float32"}
    scores = [score for _, score in result.case.query.run]
    assert len(set(scores)) == len(scores)                                   # distinct as doubles
    assert len({float(np.float32(s)) for s in scores}) < len(scores)         # equal in float32
    assert result.case.values.implementation == result.case.values.under_convention
    assert result.case.values.implementation != result.case.values.reference


def test_the_ideal_from_the_run_is_not_assumed_but_explains_the_learning_to_rank_ndcg_when_asked_for():
    asked = agree(written.ndcg_ideal_from_run, "nDCG", conventions={"ideal": "run"}, queries=100)
    assert asked.agree is Agreement.AGREES
    assert dict(asked.convention.departures()) == {"ideal": "run"}
    assert agree(written.ndcg_ideal_from_run, "nDCG", queries=100).agree is Agreement.DIFFERS


def test_the_same_seed_gives_the_same_result():
    first = agree(written.rr_from_zero, "RR", queries=30, seed=3).to_dict()
    again = agree(written.rr_from_zero, "RR", queries=30, seed=3).to_dict()
    first.pop("seconds"), again.pop("seconds")
    assert first == again


def _nan_without_relevant(grades, scores):
    relevant = [d for d, g in grades.items() if g > 0]
    return written.ndcg(grades, scores) if relevant else math.nan


def _first_judged_line(grades, scores):
    first = next(iter(grades))
    return 1.0 if grades[first] > 0 else 0.0


def _noisy(grades, scores):
    return written.ndcg(grades, scores) * (1 - random.random() * 1e-3)


def _over_one(grades, scores):
    return 2 * written.ndcg(grades, scores)


def _reads_ids(grades, scores):
    return written.ndcg(grades, scores) if "a" not in scores else 0.5


@pytest.mark.parametrize("function, broken", [
    (_nan_without_relevant, "defined"), (_first_judged_line, "reordering"), (_noisy, "determinism"),
    (_over_one, "range"), (_reads_ids, "renaming"),
])
def test_each_property_fails_for_an_implementation_built_to_break_it(function, broken):
    result = agree(function, "nDCG", queries=80)
    failed = {check.name: check for check in result.properties if not check.holds}
    assert broken in failed and failed[broken].query is not None and failed[broken].detail


def test_the_properties_hold_for_a_correct_implementation_even_of_another_metric():
    result = agree(written.ndcg, "nDCG@5", queries=80)  # nDCG without a cutoff: differs, with every property
    assert result.agree is Agreement.DIFFERS
    assert [c.name for c in result.properties if not c.holds] == []


def _batch_that_fails_on_empty_runs(qrels, run):
    if any(not docs for docs in run.values()):
        raise ValueError("max() arg is an empty sequence")
    return {qid: written.ndcg(qrels[qid], run[qid]) for qid in qrels}


def test_a_batch_function_is_detected_and_its_failure_is_pinned_to_the_query_that_causes_it():
    result = agree(_batch_that_fails_on_empty_runs, "nDCG", queries=60)
    assert result.provider.endswith("(batch)")
    defined = next(c for c in result.properties if c.name == "defined")
    assert not defined.holds and defined.query.run == () and "ValueError" in defined.detail
    assert result.agree is Agreement.DIFFERS and result.case.query.run == ()


@pytest.mark.parametrize("spec, why", [("alpha_nDCG@10", "aspects"), ("NRG", "other systems"),
                                       ("mymodule_that_is_not_there:f", "not found")])
def test_a_reference_that_is_not_a_single_aspect_built_in_is_one_clear_error(spec, why):
    with pytest.raises(InputError, match=why):
        agree(written.ndcg, spec, queries=5)


def test_an_unknown_peer_measure_is_one_clear_error():
    with pytest.raises(InputError, match="pytrec_eval has no measure 'ndgc_cut_10'"):
        agree("pytrec_eval:ndgc_cut_10", "nDCG@10", queries=5)


def _hangs_on_graded(grades, scores):
    if any(g > 1 for g in grades.values()):
        while True:
            pass
    return written.ndcg(grades, scores)


def test_an_implementation_that_hangs_stops_the_run_with_the_query_it_hung_on():
    with pytest.raises(InputError, match=r"took longer than 0.2 s on judgments .*:[23]; run .*\(a hang\?\)"):
        agree(_hangs_on_graded, "nDCG", queries=20, case_seconds=0.2)


def _batch_that_hangs(qrels, run):
    while True:
        pass


def test_a_batch_implementation_that_hangs_is_stopped_too():
    with pytest.raises(InputError, match=r"took longer than .* on a batch of \d+ queries"):
        agree(_batch_that_hangs, "nDCG", queries=5, case_seconds=0.05, form="batch")
