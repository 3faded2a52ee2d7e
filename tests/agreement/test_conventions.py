"""Each convention ranks and scores a query as the implementations that follow it do (hand-computed)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.agreement.conventions import conventions_for, parse_conventions, ranking_under, tie_free
from axiometer.agreement.query import Query
from axiometer.agreement.reference import exact_value, reference_value
from axiometer.core import ValidationError
from axiometer.metrics.resolve import resolve

TIED = Query((("a", 1), ("b", 0), ("c", 0)), (("b", 1.0), ("a", 1.0), ("c", 2.0)))


@pytest.mark.parametrize("ties, order", [
    ("docid-desc", ["c", "b", "a"]), ("docid-asc", ["c", "a", "b"]),
    ("input", ["c", "b", "a"]), ("reverse-input", ["c", "a", "b"]),
])
def test_ties_are_ordered_as_each_convention_says(ties, order):
    assert ranking_under(TIED, ties, "float64") == order


def test_float32_makes_two_doubles_one_float_tie_which_the_id_then_breaks():
    query = Query((("a", 1), ("b", 0)), (("a", 1.0), ("b", 0.9999999999999999)))
    assert ranking_under(query, "docid-desc", "float64") == ["a", "b"]
    assert ranking_under(query, "docid-desc", "float32") == ["b", "a"]
    assert not tie_free(query) and tie_free(Query(query.judgments, (("a", 1.0), ("b", 0.5))))


def test_a_score_past_float32s_range_is_an_infinity_there():
    query = Query((("a", 1), ("b", 0)), (("a", 1e300), ("b", 1e299)))
    assert ranking_under(query, "docid-desc", "float32") == ["b", "a"]


def _convention(metric, **axes):
    return next(c for c in conventions_for(metric) if all(c[k] == v for k, v in axes.items()))


def test_the_reference_conventions_come_first_and_are_the_metrics_own():
    ndcg, err, p5 = (resolve(s).metric for s in ("nDCG@10", "ERR@10", "P@5"))
    assert conventions_for(ndcg)[0].is_reference and conventions_for(ndcg)[0]["relevance"] == "grade"
    assert conventions_for(err)[0]["relevance"] == "exponential"
    assert {c["relevance"] for c in conventions_for(p5)} == {"binary", "binary@2"}
    assert {c["cutoff"] for c in conventions_for(p5)} == {"fixed", "shorter"}
    assert {c["cutoff"] for c in conventions_for(ndcg)} == {"fixed"}
    assert {c["ideal"] for c in conventions_for(ndcg)} == {"judgments"}  # not searched unless asked


def test_p_at_k_divides_by_k_or_by_the_documents_retrieved():
    p5 = resolve("P@5").metric
    query = Query((("a", 1), ("b", 0)), (("a", 2.0), ("b", 1.0)))
    assert reference_value(p5, query, _convention(p5), 3) == 0.2                      # 1 / 5
    assert reference_value(p5, query, _convention(p5, cutoff="shorter"), 3) == 0.5    # 1 / min(5, 2)


def test_ap_at_k_divides_by_r_or_by_min_r_k():
    ap2 = resolve("AP@2").metric
    query = Query((("a", 1), ("b", 1), ("c", 1)), (("a", 2.0), ("b", 1.0)))
    assert exact_value(ap2, query, _convention(ap2), 3) == Fraction(2, 3)             # (1 + 1) / 3
    assert exact_value(ap2, query, _convention(ap2, cutoff="shorter"), 3) == 1        # (1 + 1) / 2


def test_a_query_with_no_relevant_document_is_zero_one_or_not_compared():
    ndcg = resolve("nDCG").metric
    query = Query((("a", 0),), (("a", 1.0),))
    values = {n: reference_value(ndcg, query, _convention(ndcg, norel=n), 3) for n in ("zero", "one", "none")}
    assert values == {"zero": 0.0, "one": 1.0, "none": None}


def test_gains_are_the_grade_two_to_the_grade_minus_one_or_binary():
    ndcg = resolve("nDCG").metric
    query = Query((("a", 1), ("b", 2)), (("a", 2.0), ("b", 1.0)))
    # DCG = g(a) + g(b)/log2(3); ideal = g(b) + g(a)/log2(3)
    grade = exact_value(ndcg, query, _convention(ndcg, relevance="grade"), 3)
    exponential = exact_value(ndcg, query, _convention(ndcg, relevance="exponential"), 3)
    binary = exact_value(ndcg, query, _convention(ndcg, relevance="binary"), 3)
    import sympy
    log3 = sympy.log(3, 2)
    assert sympy.simplify(grade - (1 + 2 / log3) / (2 + 1 / log3)) == 0
    assert sympy.simplify(exponential - (1 + 3 / log3) / (3 + 1 / log3)) == 0
    assert binary == 1


def test_the_ideal_from_the_run_leaves_out_relevant_documents_never_retrieved():
    ndcg = resolve("nDCG").metric
    query = Query((("a", 1), ("c", 1)), (("a", 1.0),))
    asked = next(c for c in conventions_for(ndcg, {"ideal": "run"}) if c.departures() == [("ideal", "run")])
    assert reference_value(ndcg, query, asked, 3) == 1.0
    assert reference_value(ndcg, query, conventions_for(ndcg)[0], 3) < 1.0


@pytest.mark.parametrize("items, error", [
    (["ties"], "expected AXIS=VALUE"), (["colour=red"], "expected AXIS=VALUE"),
    (["ties=random"], "ties is one of docid-desc, docid-asc, input, reverse-input"),
])
def test_a_bad_convention_names_the_axes_or_values_it_accepts(items, error):
    with pytest.raises(ValidationError, match=error):
        parse_conventions(items)


def test_the_ideal_convention_is_refused_for_a_metric_without_an_ideal():
    with pytest.raises(ValidationError, match="ideal ranking"):
        conventions_for(resolve("RR").metric, {"ideal": "run"})
