"""Conf (Confidence, SIGIR 2018 Eq. 5): appending a non-relevant document lowers ``Q``.

``b = a + (x,)`` with ``r(x) = 0``; ``Q(a) > Q(b)``. For
``Q = sum_{i<=n} w(i) r(d_i) - e n`` the difference is exactly ``Q(a) - Q(b) = e``,
so ``e > 0`` satisfies Conf and ``e = 0`` ties (violates) on every case; a
metric that rewards length (``+ e n``) violates with the wrong sign.

Paper verdicts (section 4): only EU and RBU satisfy Conf; nDCG@k and the
other metrics ignore non-relevant documents. ``a`` may be empty, so the
smallest counterexample is ``a = ()``, ``b = (d1)``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.axioms import CONSTRAINT_IDS, get
from axiometer.checking import Budget, check
from axiometer.axioms.constraints.confidence import confidence_conditions
from axiometer.core import Ranking, Topic
from axiometer.generators.case import Case, Scope, cases_of
from axiometer.metrics import TABLE_ROWS, parse, wrap
from tests.axioms import harmonic, replay

CONF = get("Conf")
# These tests pin the search's verdicts (against the paper, and on metrics built to satisfy or violate
# the constraint); proofs of the same cells are tested in tests/proofs, tests/checking/test_prove*.py
# and through the tables (tests/cli/test_table.py, tests/reports/test_browser.py), so the search runs
# here without them.
BUDGET = Budget(cases=60, small_scope=200, seconds=10, proof_docs=0)


def test_registered_after_closeness_threshold():
    ids = list(CONSTRAINT_IDS)
    assert ids.index("CloseTh") + 1 == ids.index("Conf")
    assert CONF.relation.text == "Q(a) > Q(b)" and CONF.default_mode == "window"
    assert CONF.relation.holds(-1) and not CONF.relation.holds(0) and not CONF.relation.holds(1)


def test_the_condition_predicate_rejects_what_is_not_a_conf_case():
    topic = Topic.single({"d1": Fraction(1, 10), "d2": 0})
    scope = Scope()
    good = Case(topic, Ranking(["d1"]), Ranking(["d1", "d2"]), (2,), "")
    assert confidence_conditions(good, scope)
    assert not confidence_conditions(Case(topic, Ranking(["d2"]), Ranking(["d2", "d1"]), (2,), ""), scope)
    assert not confidence_conditions(Case(topic, Ranking(["d1"]), Ranking(["d1", "u"]), (2,), ""), scope)
    assert not confidence_conditions(good, Scope(max_position=1))
    assert not confidence_conditions(Case(topic, Ranking(["d1"]), Ranking(["d2", "d1"]), (2,), ""), scope)


def test_effort_satisfies():
    result = check(harmonic(effort=Fraction(1, 1000)), CONF, budget=BUDGET, seed=1)
    assert result.verdict == "satisfied" and result.cases > 0 and result.small_scope > 0


def test_no_effort_ties_on_the_smallest_case():
    metric = harmonic()
    result = check(metric, CONF, budget=BUDGET, seed=1)
    ce = result.counterexample
    assert result.verdict == "violated" and (ce.a, ce.b) == ((), ("d1",))
    assert ce.topic.relevance("d1") == ("0",) and replay(metric, ce) == (0, 0)
    # Shrinking alone (no small scope) lands on the same case.
    shrunk = check(metric, CONF, budget=Budget(cases=100, small_scope=0, seconds=10), seed=1)
    assert (shrunk.counterexample.a, shrunk.counterexample.b) == ((), ("d1",))


def test_rewarding_length_violates_with_the_wrong_sign():
    def longer_is_better(ranking, topic):
        return sum(float(topic.r(d)) / i for i, d in enumerate(ranking, 1)) + 0.01 * len(ranking)
    metric = wrap(longer_is_better)
    result = check(metric, CONF, budget=BUDGET, seed=1)
    qa, qb = replay(metric, result.counterexample)
    assert result.verdict == "violated" and qb > qa and result.exact is False


@pytest.mark.parametrize("spec", ["EU(alpha=0.5,e=0.05)", "EU(alpha=0.1,e=0.001)",
                                  "RBU(p=0.8,e=0.05)@10", "RBU(p=0.99,e=0.001)@10"])
def test_paper_satisfied(spec):
    assert check(parse(spec), CONF, budget=BUDGET, seed=1).verdict == "satisfied"


@pytest.mark.parametrize("title", [t for t, _ in TABLE_ROWS if t not in ("EU", "RBU@k")])
def test_paper_violated_by_every_other_table_metric(title):
    metric = parse(dict(TABLE_ROWS)[title])
    result = check(metric, CONF, budget=BUDGET, seed=1)
    assert result.verdict == "violated"
    qa, qb = replay(metric, result.counterexample)
    assert not qa > qb


def test_cutoff_past_the_appended_position_is_invisible_in_truncate_mode():
    metric = parse("RBU(p=0.8,e=0.05)@3")
    assert check(metric, CONF, budget=BUDGET, mode="window").verdict == "satisfied"
    result = check(metric, CONF, budget=BUDGET, mode="truncate")
    assert result.verdict == "violated" and len(result.counterexample.b) > 3


def test_the_empty_ranking_is_the_first_small_scope_case():
    assert tuple(next(iter(cases_of(CONF.small_scope(Scope())))).a) == ()


# Conf's condition predicate (confidence.py): b must be a with one judged non-relevant document appended.

TOPIC = Topic.single({"r1": Fraction(1, 10), "n1": 0, "n2": 0})


def test_b_must_extend_a():
    assert confidence_conditions(Case(TOPIC, ("r1",), ("r1", "n2"), (2,), ""), Scope())
    # Same lengths as an append and the right changed position, but b does not start with a.
    assert not confidence_conditions(Case(TOPIC, ("r1",), ("n1", "n2"), (2,), ""), Scope())
