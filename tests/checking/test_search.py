"""The search for cases (issue 14).

The searches here run on hand-made cases whose outcome is set by a test's ``judge``, so what the
search must return (which case, how many cases, which note, how far the small scope got) follows
from its docstring alone. Time is a fake clock where the time budget matters.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

import axiometer.checking.search as search_module
from axiometer.axioms.oracle import Layer
from axiometer.checking.budget import Budget, cell_seed
from axiometer.checking.guard import CaseTimeout, Misbehaviour
from axiometer.checking.search import Search, error_outcome, search_cases, search_settings_for
from axiometer.core import Context, Ranking, Topic
from axiometer.generators.case import Case, ScopeMark
from axiometer.results import Outcome, record_topic

TOPIC = Topic.single({"d1": Fraction(1, 10), "d2": Fraction(1, 20), "d3": 0})
TWO_ASPECTS = Topic({"d1": {"x": Fraction(1, 2)}, "d2": {"y": 1}})


def case(size: int, topic: Topic = TOPIC, b_size: int | None = None) -> Case:
    docs = [f"d{i}" for i in range(1, max(size, b_size or 0) + 1)]
    return Case(topic, Ranking(docs[:size]), Ranking(docs[:b_size if b_size is not None else size]),
                (1,), f"size {size}")


def holds(item: Case) -> Outcome:
    return Outcome(True)


def fails(item: Case) -> Outcome:
    return Outcome(False)


def is_failure(outcome: Outcome) -> bool:
    return not outcome.holds


class Clock:
    """A fake ``time`` module: ``monotonic()`` is whatever the test set."""

    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(search_module, "time", fake)
    return fake


# -- the small scope -----------------------------------------------------------------------------

def test_a_small_scope_target_is_returned_at_once():
    items = [case(1), case(2), case(3)]
    judged = []

    def judge(item):
        judged.append(item)
        return Outcome(item is not items[1])

    found = search_cases(items, None, judge, is_failure, Budget(cases=5, small_scope=10), 1)
    assert judged == items[:2]  # nothing after the target
    assert found.case is items[1] and not found.outcome.holds
    assert (found.cases, found.small, found.note) == (0, 2, "found in the small scope")
    reach = found.reach
    assert (reach.stopped, reach.complete, reach.layers, reach.declared) == ("target", False, (), None)
    assert reach.partial == Layer(2, 2, (Fraction(0), Fraction(1, 20), Fraction(1, 10)), (1,), ((1, 1), (2, 1)))
    assert reach.budget == 10 and reach.cases == 2 and reach.note == ""


def test_a_small_scope_that_runs_out_is_one_complete_layer():
    items = [case(1), case(3, TOPIC, b_size=2), case(2, TWO_ASPECTS)]
    found = search_cases(items, None, holds, is_failure, Budget(cases=5, small_scope=10), 1)
    assert (found.outcome, found.case, found.cases, found.small, found.note) == (None, None, 0, 3, "")
    reach = found.reach
    assert reach.complete and reach.stopped == "" and reach.partial is None and reach.declared is None
    # Every document of every topic met, each aspect count met; sizes are the longer ranking's.
    assert reach.layers == (Layer(3, 3, (Fraction(0), Fraction(1, 20), Fraction(1, 10), Fraction(1, 2),
                                         Fraction(1)), (1, 2), ((1, 1), (2, 1), (3, 1))),)


def test_the_small_scope_budget_stops_the_enumeration():
    items = iter([case(1), case(2), case(3), case(4)])
    judged = []
    found = search_cases(items, None, lambda c: judged.append(c) or Outcome(True), is_failure,
                         Budget(cases=5, small_scope=2), 1)
    assert found.small == 2 and len(judged) == 2 and found.note == ""
    reach = found.reach
    assert (reach.stopped, reach.complete, reach.layers, reach.budget) == ("budget", False, (), 2)
    assert reach.partial.cases == 2 and reach.partial.docs == 2


def test_marks_close_layers_and_the_last_declared_one_completes_the_scope():
    items = [case(1), ScopeMark(1, 2), case(2), case(2), ScopeMark(2, 2), case(3), ScopeMark(3, 2)]
    found = search_cases(items, None, holds, is_failure, Budget(cases=5, small_scope=4), 1)
    reach = found.reach
    assert found.small == 4 and reach.declared == 2 and reach.complete  # marks are not cases
    assert [(layer.docs, layer.cases) for layer in reach.layers] == [(1, 1), (2, 2), (3, 1)]
    assert reach.stopped == "" and reach.partial is None
    # A budget that ends inside the declared scope: the layers reached, the rest partial.
    found = search_cases(items, None, holds, is_failure, Budget(cases=5, small_scope=2), 1)
    reach = found.reach
    assert [(layer.docs, layer.cases) for layer in reach.layers] == [(1, 1)]
    assert (reach.stopped, reach.complete, reach.partial.cases, reach.declared) == ("budget", False, 1, 2)
    # Growth past the declared scope, stopped by the budget: the declared scope is complete.
    found = search_cases(items, None, holds, is_failure, Budget(cases=5, small_scope=3), 1)
    assert found.reach.complete and found.reach.stopped == "budget" and len(found.reach.layers) == 2


def test_the_time_budget_stops_the_small_scope(clock):
    def judge(item):
        clock.now += 1.0  # each case takes a second
        return Outcome(True)

    items = [case(1), case(2), case(3), case(4)]
    found = search_cases(items, None, judge, is_failure, Budget(cases=5, small_scope=10, seconds=2.0), 1)
    # Cases start at 0, 1 and 2 s (2 s is not past the 2 s budget); the fourth would start at 3 s.
    assert found.small == 3
    assert found.note == "small scope stopped by the time budget (2 s) after 3 cases"
    assert found.reach.stopped == "time" and found.reach.note == found.note and not found.reach.complete


# -- the random search ---------------------------------------------------------------------------

def sizes() -> st.SearchStrategy[Case]:
    return st.integers(1, 50).map(case)


def test_the_random_search_shrinks_to_the_smallest_target():
    judged = []

    def judge(item):
        judged.append(item)
        return Outcome(len(item.a) < 4)

    found = search_cases(None, sizes, judge, is_failure, Budget(cases=50, small_scope=10), 7)
    assert len(found.case.a) == 4 and not found.outcome.holds  # the smallest case failing is of size 4
    assert found.small == 0 and found.reach is None and found.note == ""
    assert found.cases == len(judged) - 1 > 0  # every case the predicate judged, and the final re-judging
    assert judged[-1] is found.case and found.outcome.error is None


def test_the_small_scope_before_the_random_search_is_counted():
    found = search_cases([case(1), case(2)], sizes, lambda c: Outcome(len(c.a) < 3), is_failure,
                         Budget(cases=50, small_scope=10), 7)
    assert found.small == 2 and found.reach.complete and len(found.case.a) == 3 and found.cases > 0


def test_no_target_in_the_random_search():
    judged = []
    found = search_cases([case(1)], sizes, lambda c: judged.append(c) or Outcome(True), is_failure,
                         Budget(cases=10, small_scope=10), 7)
    assert (found.outcome, found.case, found.small, found.note) == (None, None, 1, "")
    assert found.cases == len(judged) - 1 and 0 < found.cases <= 10  # the budget's random cases at most
    assert found.reach.complete


def test_the_same_seed_gives_the_same_search():
    def run(seed):
        judged = []
        search_cases(None, sizes, lambda c: judged.append(len(c.a)) or Outcome(True), is_failure,
                     Budget(cases=10), seed)
        return judged

    assert run(3) == run(3) != run(4)


def test_a_final_outcome_ends_the_search():
    timeout = Outcome(False, final=True)
    calls = []

    def judge(item):
        calls.append(item)
        return timeout if len(item.a) >= 10 else Outcome(True)

    found = search_cases([case(1)], sizes, judge, is_failure, Budget(cases=100, small_scope=10), 7)
    assert found.outcome is timeout and found.case is None and found.small == 1
    assert found.note == "" and found.reach is not None and found.reach.complete
    assert found.cases == len(calls) - 1  # nothing judged after the timeout; the small-scope case first
    assert all(len(c.a) < 10 for c in calls[1:-1]) and len(calls[-1].a) >= 10


def test_the_time_budget_ends_the_random_search(clock):
    def slow(item):
        clock.now += 5.0  # each case takes the whole budget
        return Outcome(True)

    # Random cases start at 0 s and at 5 s (not past the 5 s budget); the third would start at 10 s.
    found = search_cases(None, sizes, slow, is_failure, Budget(cases=50, seconds=5.0), 7)
    assert (found.outcome, found.case, found.cases) == (None, None, 2)
    assert found.note == "time budget (5 s) reached" and found.reach is None  # no small scope

    found = search_cases([case(1), case(2), case(3)], sizes, slow, is_failure,
                         Budget(cases=50, small_scope=10, seconds=5.0), 7)
    assert found.small == 2 and found.cases == 2
    assert found.reach.stopped == "time"
    assert found.note == ("small scope stopped by the time budget (5 s) after 2 cases; "
                          "time budget (5 s) reached")


def test_shrinking_stopped_by_the_time_budget_keeps_the_smallest_target_so_far(clock):
    targets = []

    def judge(item):
        failing = len(item.a) >= 4
        if failing:
            targets.append(item)
            if len(targets) == 3:
                clock.now += 10.0  # time runs out after the third target
        return Outcome(not failing)

    found = search_cases(None, sizes, judge, is_failure, Budget(cases=50, seconds=5.0), 7)
    assert found.note == "shrinking stopped by the time budget (5 s)"
    assert found.case is targets[2]  # the last found, which shrinking made the smallest
    assert not found.outcome.holds and found.outcome.error is None


def test_a_target_that_is_none_on_replay_is_reported_as_non_determinism(monkeypatch):
    state = {"replaying": False}

    def judge(item):  # fails on two or more documents, until the search is over
        return Outcome(True) if state["replaying"] else Outcome(len(item.a) < 2)

    original_find = search_module.find

    def find_then_switch(*args, **kwargs):
        minimal = original_find(*args, **kwargs)
        state["replaying"] = True
        return minimal

    monkeypatch.setattr(search_module, "find", find_then_switch)
    found = search_cases(None, sizes, judge, is_failure, Budget(cases=20), 7)
    assert len(found.case.a) == 2
    assert found.outcome.error.message == "non-deterministic: the same input gave two outcomes"
    assert found.outcome.error.ranking == ("d1", "d2") and found.outcome.holds is False
    assert found.outcome.error.topic == record_topic(TOPIC)


def test_the_random_search_settings_follow_the_budget_whatever_the_profile():
    # Under hypothesis' default profile (a 200 ms deadline, a database on disk), as a user's run has it.
    current = settings._current_profile
    settings.load_profile("default")
    try:
        chosen = search_settings_for(Budget(cases=37))
    finally:
        settings.load_profile(current)
    assert chosen.max_examples == 37 and chosen.database is None and chosen.deadline is None
    assert tuple(chosen.phases) == (Phase.generate, Phase.shrink) and not chosen.derandomize
    assert set(chosen.suppress_health_check) == set(HealthCheck) and not chosen.report_multiple_bugs


# -- the searcher and its error outcomes ---------------------------------------------------------

def test_the_searcher_carries_the_budget_and_derives_seeds():
    budget = Budget(cases=3, small_scope=4, horizon=64)
    searcher = Search(budget, 11, 1e-9)
    assert (searcher.budget, searcher.run_seed, searcher.tolerance, searcher.horizon) == (budget, 11, 1e-9, 64)
    assert searcher.seed("Pri", "P@2") == cell_seed(11, "Pri", "P@2") != searcher.seed("Pri", "P@3")
    found = searcher.find([case(1), case(2)], None, lambda c: Outcome(len(c.a) < 2), is_failure, 5)
    assert found.small == 2 and len(found.case.a) == 2


class RaisesOn:
    """A metric that raises on rankings of ``size`` documents."""

    def __init__(self, size: int) -> None:
        self.size = size

    def score(self, ranking, topic, context=None):
        if len(ranking) == self.size:
            raise ValueError(f"no {self.size}")
        return float(sum(topic.r(d) for d in ranking))  # needs the topic and the ranking


def test_an_error_outcome_names_the_ranking_that_raises():
    both = Case(TOPIC, Ranking(["d1"]), Ranking(["d1", "d2"]), (2,), "append",
                Context((("d3",),)), Context((("d2",),)))
    searcher = Search(Budget(), 1, 0.0)
    outcome = searcher.error(RaisesOn(2), both, ValueError("no 2"))
    assert outcome.holds is False and not outcome.final and outcome.counterexample is None
    assert outcome.error.message == "ValueError: no 2 [context: (d3) | (d2)]"
    assert outcome.error.ranking == ("d1", "d2") and outcome.error.topic == record_topic(TOPIC)
    outcome = error_outcome(RaisesOn(1), both, ValueError("no 1"))   # a raises: a is named
    assert outcome.error.ranking == ("d1",)
    one_context = Case(TOPIC, Ranking(["d2"]), Ranking(["d1", "d2"]), (1,), "swap", Context((("d3",),)))
    outcome = error_outcome(RaisesOn(1), one_context, ValueError("no 1"))
    assert outcome.error.message == "ValueError: no 1 [context: (d3)]" and outcome.error.ranking == ("d2",)
    plain = case(2)
    assert error_outcome(RaisesOn(2), plain, ValueError("no 2")).error.message == "ValueError: no 2"


def test_a_context_metric_is_replayed_in_the_case_context():
    class NeedsContext:
        def score(self, ranking, topic, context=None):
            if context is None:
                raise TypeError("a context is needed")
            if "d2" in ranking:
                raise ValueError("d2")
            return 0.5

    item = Case(TOPIC, Ranking(["d1"]), Ranking(["d2"]), (1,), "replace", Context((("d3",),)))
    assert error_outcome(NeedsContext(), item, ValueError("d2")).error.ranking == ("d2",)


def test_a_misbehaviour_is_its_own_record_of_the_input():
    context = Context((("d3",),))
    error = CaseTimeout("took longer than 1 s on one case (the per-case time limit)", ["d2", "d1"], TWO_ASPECTS,
                        context)
    outcome = error_outcome(RaisesOn(99), case(1), error)
    assert outcome.holds is False and outcome.final
    assert outcome.error.message == "took longer than 1 s on one case (the per-case time limit) [context: (d3)]"
    assert outcome.error.ranking == ("d2", "d1") and outcome.error.topic == record_topic(TWO_ASPECTS)
    outcome = error_outcome(RaisesOn(99), case(1), Misbehaviour("returned None", ("d1",), TOPIC, None))
    assert not outcome.final and outcome.error.message == "returned None"


def test_a_budget_of_no_random_cases_checks_the_small_scope_alone():
    # Budget(cases=0) crashed inside hypothesis ("max_examples=0 must be at least one").
    from axiometer.axioms import get
    from axiometer.checking import Budget, check
    from axiometer.metrics import parse

    result = check(parse("nDCG@10"), get("Pri"), budget=Budget(cases=0, small_scope=50), seed=0)
    assert (result.verdict, result.cases, result.small_scope) == ("satisfied", 0, 50)
    assert result.evidence.random_cases == 0


# -- the fast draws (a strategy offering ``sample``, as generators.draw's do) --------------------------

class FastDraws:
    """A strategy with fast draws: ``sample(rng)`` gives a case (or ``None``, a rejected draw) and
    its choices. Calling it for a hypothesis strategy fails the test: no target, no shrinking."""

    def __init__(self, rejected: bool = False) -> None:
        self.rejected, self.calls = rejected, 0

    def sample(self, rng):
        self.calls += 1
        return (None if self.rejected else case(2)), [rng.randrange(10)]

    def __call__(self):
        raise AssertionError("no target was found: hypothesis has nothing to shrink")


class Targets(FastDraws):
    """Fast draws whose target goes on to be shrunk: calling it gives the (stand-in) strategy."""

    def __call__(self):
        return "the strategy"


def test_fast_draws_are_used_when_the_strategy_offers_them():
    draws = FastDraws()
    found = search_cases(None, draws, holds, is_failure, Budget(cases=7), 1)
    assert (found.outcome, found.cases, draws.calls) == (None, 7, 7)


def test_rejected_draws_end_after_ten_attempts_per_case():
    from axiometer.checking.search import _ATTEMPTS
    draws = FastDraws(rejected=True)
    found = search_cases([case(1)], draws, holds, is_failure, Budget(cases=7, small_scope=5), 1)
    assert draws.calls == _ATTEMPTS * 7 == 70
    assert (found.outcome, found.cases, found.small) == (None, 0, 1)


def test_the_time_budget_ends_the_fast_draws(clock):
    def slow(item):
        clock.now += 5.0  # each case takes the whole budget
        return Outcome(True)

    # The small scope's two cases start at 0 s and 5 s of its budget (not past it) and it runs out;
    # the random search's start at 0 s and 5 s of its own; the third would start at 10 s.
    draws = FastDraws()
    found = search_cases([case(1), case(2)], draws, slow, is_failure, Budget(cases=50, small_scope=10, seconds=5.0), 7)
    assert (found.outcome, found.small, found.cases, draws.calls) == (None, 2, 2, 2)
    assert found.note == "time budget (5 s) reached"
    assert found.reach.complete and found.reach.stopped == ""


def test_a_small_scope_and_fast_draws_both_stopped_by_time_say_so_both(clock):
    def slow(item):
        clock.now += 5.0
        return Outcome(True)

    draws = FastDraws()
    found = search_cases([case(1), case(2), case(3)], draws, slow, is_failure,
                         Budget(cases=50, small_scope=10, seconds=5.0), 7)
    assert (found.small, found.cases, draws.calls) == (2, 2, 2)
    assert found.note == ("small scope stopped by the time budget (5 s) after 2 cases; "
                          "time budget (5 s) reached")
    assert found.reach.stopped == "time"


def test_a_final_outcome_among_the_fast_draws_ends_the_search_with_its_counts():
    timeout = Outcome(False, final=True)
    judged = []

    def judge(item):
        judged.append(item)
        return timeout if len(judged) == 3 else Outcome(True)  # the small scope's case, then two draws

    found = search_cases([case(1)], FastDraws(), judge, is_failure, Budget(cases=50, small_scope=10), 7)
    assert (found.outcome, found.case, found.cases, found.small, found.note) == (timeout, None, 2, 1, "")
    assert found.reach is not None and found.reach.complete


def test_the_fast_draws_target_is_shrunk_with_the_searchs_seed(monkeypatch):
    shrinks = []

    def shrink_from(strategy, choices, predicate, seed=0):
        shrinks.append((strategy, choices, seed))
        return case(1)

    monkeypatch.setattr(search_module, "shrink_from", shrink_from)
    found = search_cases(None, Targets(), fails, is_failure, Budget(cases=50), 7)
    (strategy, choices, seed), = shrinks
    assert (strategy, seed, found.case, found.cases) == ("the strategy", 7, case(1), 1)


def test_a_fast_draws_target_that_is_none_on_replay_is_non_determinism(monkeypatch):
    """The fast draws found a target; hypothesis's replay of its choices found none (the metric
    answered differently the second time): an error naming the case first found, with the counts."""
    monkeypatch.setattr(search_module, "shrink_from", lambda strategy, choices, predicate, seed=0: None)
    found = search_cases([case(1)], Targets(), lambda item: Outcome(len(item.a) != 2), is_failure,
                         Budget(cases=50, small_scope=10), 7)
    assert found.outcome.error.message == "non-deterministic: the same input gave two outcomes"
    assert found.outcome.error.ranking == case(2).a and found.case == case(2)
    assert (found.cases, found.small, found.note) == (1, 1, "") and found.reach.complete


def test_a_target_found_after_a_small_scope_stopped_by_time_keeps_its_note(clock):
    """The small scope's cases take 5 s each and hold; the random search's fail at once and are
    shrunk: the result, a shrunk target, still says the small scope was cut short."""
    def judge(item):
        if len(item.a) == 1:  # the small scope's cases
            clock.now += 5.0
            return Outcome(True)
        return Outcome(len(item.a) < 4)

    found = search_cases([case(1), case(1), case(1)], sizes, judge, is_failure,
                         Budget(cases=50, small_scope=10, seconds=5.0), 7)
    assert len(found.case.a) == 4 and found.small == 2
    assert found.note == "small scope stopped by the time budget (5 s) after 2 cases"
