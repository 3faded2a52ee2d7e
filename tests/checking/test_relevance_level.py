"""``rel=N`` in a check: a generated case's relevance values are graded 1, 2, ... in increasing order,
and a metric at level N counts only documents of grade >= N as relevant (issue 12, item 2)."""

from __future__ import annotations

from fractions import Fraction

import axiometer
from axiometer.core import Topic
from axiometer.metrics import parse


def test_a_topic_of_relevance_values_grades_them_in_order():
    topic = Topic.single({"a": Fraction(1, 10), "b": Fraction(1, 20), "c": 0, "d": Fraction(1, 10)})
    assert [topic.grade(d) for d in "abcdz"] == [2, 1, 0, 2, 0]
    assert topic.count_at(1) == 3 and topic.count_at(2) == 2 and topic.count_at(3) == 0
    # P(rel=2)@2 counts a and d only; P@2 every positive document.
    assert parse("P(rel=2)@2").score(("b", "a"), topic) == 0.5
    assert parse("P@2").score(("b", "a"), topic) == 1.0


def test_rel_changes_the_verdict_where_every_case_has_one_relevance_level():
    """DeepTh's cases hold one positive value rc: at level 1 P@10 has a witness (a relevant document
    deep enough counts); at level 2 nothing is relevant, P(rel=2)@10 is constant and there is none."""
    assert axiometer.check("P@10", ["DeepTh"], budget="quick").verdicts == {"DeepTh": "witness"}
    assert axiometer.check("P(rel=2)@10", ["DeepTh"], budget="quick").verdicts == {"DeepTh": "violated"}


def test_rel_is_not_a_grid_parameter():
    """The checks keep the given level: no grid over rel, no boundaries located over it."""
    report = axiometer.check("AP(rel=2)", ["Pri"], budget="quick", boundaries=True)
    cell = report.cell("Pri")
    assert [dict(c.params) for c in cell.checks] == [{"rel": 2}] and cell.boundaries == ()


def test_intent_aware_metrics_read_each_aspects_own_grades():
    from axiometer.grades import topic_from_grades

    # d1: grade 2 on t1, 1 on t2; d2: grade 1 on t1, 3 on t2; balanced weights 1/2.
    topic = topic_from_grades("q", {"d1": {"t1": 2, "t2": 1}, "d2": {"t1": 1, "t2": 3}}, mapping="linear")
    ranking = ("d1", "d2")
    # Level 2: t1 counts d1 only, t2 d2 only. P_t@2 = 1/2 each: P-IA = 1/2.
    assert parse("P_IA(rel=2)@2").score(ranking, topic) == 0.5
    # RR_t: t1 hits at 1, t2 at 2: (1 + 1/2) / 2. AP_t: t1 (1/1)/1, t2 (1/2)/1: (1 + 1/2) / 2.
    assert parse("RR_IA(rel=2)").score(ranking, topic) == 0.75
    assert parse("AP_IA(rel=2)").score(ranking, topic) == 0.75
    # Level 3: only d2 on t2.
    assert parse("P_IA(rel=3)@2").score(ranking, topic) == 0.25
    # Level 1 (the default): both documents count on both aspects.
    assert parse("P_IA@2").score(ranking, topic) == 1.0


def test_rnorm_pnorm_and_esl_take_a_relevance_level_too():
    from axiometer.grades import topic_from_grades

    topic = topic_from_grades("q", {"a": {"x": 2}, "b": {"x": 1}, "c": {"x": 0}, "d": {"x": 3}},
                              mapping="linear")
    ranking = ("b", "c", "a", "d")
    # Level 2: a and d relevant at ranks 3 and 4; R = 2, N = 10: 1 - ((3 + 4) - (1 + 2)) / (2 * 8).
    assert parse("Rnorm(N=10,rel=2)").score(ranking, topic) == 0.75
    assert parse("Rnorm(N=10)").score(ranking, topic) != 0.75   # level 1 counts b too
    # ESL: non-relevant documents examined before the s-th relevant one: b and c.
    assert parse("ESL(rel=2)").score(ranking, topic) == 2.0
    assert parse("ESL(s=2,rel=2)").score(ranking, topic) == 2.0
    assert parse("ESL").score(ranking, topic) == 0.0
