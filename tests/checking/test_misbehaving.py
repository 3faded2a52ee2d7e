"""Misbehaving metrics (issue 6, item 5): each misbehaviour gives an ``error`` check or cell that
names the input and the behaviour in words, while the rest of the run completes.

The misbehaving functions misbehave only on rankings of two or more documents (which every
constraint builds in its small scope), so a test can replay the reported input and see the
misbehaviour again: the named input is the real one, not just any input.
"""

from __future__ import annotations

import itertools
import json
import re
import signal
import threading
import time
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from axiometer.axioms import get
from axiometer.checking import Budget, check
from axiometer.checking.guard import CaseTimeout, GuardedMetric, Misbehaviour, guard, is_trusted
from axiometer.core import Context, Ranking, Topic
from axiometer.metrics import Needs, parse, wrap
from axiometer.reports.table import format_check, format_table
from axiometer.runner import run_table
from tests.axioms import topic_from_record

LIMIT = 0.5
BUDGET = Budget(cases=15, small_scope=40, seconds=5.0, horizon=32, case_seconds=LIMIT)
CONSTRAINTS = ["Pri", "Deep", "DeepTh"]  # universal ones and a threshold (its own code path)


def harmonic(ranking, topic):
    """A well-behaved metric: ``sum_i r(d_i) / i``."""
    return sum(float(topic.r(d)) / i for i, d in enumerate(ranking, 1))


def raises(ranking, topic):
    if len(ranking) >= 2:
        raise ValueError("cannot score long rankings")
    return harmonic(ranking, topic)


def returns_none(ranking, topic):
    return None if len(ranking) >= 2 else harmonic(ranking, topic)


def returns_nan(ranking, topic):
    return float("nan") if len(ranking) >= 2 else harmonic(ranking, topic)


def returns_inf(ranking, topic):
    return float("inf") if len(ranking) >= 2 else harmonic(ranking, topic)


def returns_minus_inf(ranking, topic):
    return float("-inf") if len(ranking) >= 2 else harmonic(ranking, topic)


def returns_string(ranking, topic):
    return "0.5" if len(ranking) >= 2 else harmonic(ranking, topic)


def returns_list(ranking, topic):
    return [0.5] if len(ranking) >= 2 else harmonic(ranking, topic)


_calls = itertools.count()


def flips(ranking, topic):
    """0.5 and 0.25 on alternate calls, whatever the input."""
    return 0.5 if next(_calls) % 2 == 0 else 0.25


def empties_the_topic(ranking, topic):
    if len(ranking) >= 2:
        topic._vectors.clear()  # reaches past Topic's immutability
    return harmonic(ranking, topic)


def rejudges(ranking, topic):
    if len(ranking) >= 2:
        object.__setattr__(topic, "_single", {d: 1 for d in topic.documents})
    return harmonic(ranking, topic)


def spins(ranking, topic):
    if len(ranking) >= 2:
        while True:
            pass
    return harmonic(ranking, topic)


def sleeps(ranking, topic):
    if len(ranking) >= 2:
        time.sleep(60)
    return harmonic(ranking, topic)


def swallows_everything(ranking, topic):
    """Catches every ``Exception`` while it spins: the time limit must get past that."""
    if len(ranking) >= 2:
        while True:
            try:
                time.sleep(60)
            except Exception:
                pass
    return harmonic(ranking, topic)


def swallows_the_alarm_once(ranking, topic):
    """Catches even a ``BaseException`` once, then sleeps on: the alarm repeats until the call ends."""
    if len(ranking) >= 2:
        try:
            time.sleep(60)
        except BaseException:
            pass
        time.sleep(60)
    return harmonic(ranking, topic)


def swallows_and_returns(ranking, topic):
    """Catches the alarm and returns a number: too late is still too late."""
    if len(ranking) >= 2:
        try:
            time.sleep(60)
        except BaseException:
            return 0.25
    return harmonic(ranking, topic)


#: (function, what the error says, whether replaying the named input misbehaves again).
BEHAVIOURS = {
    "raises": (raises, "ValueError: cannot score long rankings", True),
    "None": (returns_none, "returned None (NoneType), not a number", True),
    "nan": (returns_nan, "returned nan, a non-finite value", True),
    "inf": (returns_inf, "returned inf, a non-finite value", True),
    "-inf": (returns_minus_inf, "returned -inf, a non-finite value", True),
    "string": (returns_string, "returned '0.5' (str), not a number", True),
    "list": (returns_list, "returned [0.5] (list), not a number", True),
    "non-deterministic": (flips, re.compile(r"returned (0\.5 then 0\.25|0\.25 then 0\.5) for the same input"),
                          False),
    "mutates the topic": (empties_the_topic, "changed its input: the topic's judgments", True),
    "mutates the topic's view": (rejudges, "changed its input: the topic's judgments", True),
    "spins": (spins, f"took longer than {LIMIT:g} s on one case", True),
    "sleeps": (sleeps, f"took longer than {LIMIT:g} s on one case", True),
    "swallows exceptions": (swallows_everything, f"took longer than {LIMIT:g} s on one case", True),
    "swallows the alarm once": (swallows_the_alarm_once, f"took longer than {LIMIT:g} s on one case", True),
    "swallows the alarm and returns": (swallows_and_returns, f"took longer than {LIMIT:g} s on one case",
                                       True),
}
SLOW = (spins, sleeps, swallows_everything, swallows_the_alarm_once, swallows_and_returns)


def says(message: str, expected) -> bool:
    return bool(expected.search(message)) if isinstance(expected, re.Pattern) else expected in message


def assert_names_the_input(error, function, replays: bool) -> None:
    """The error shows a topic and a ranking, and that input (rebuilt from the report) misbehaves."""
    assert error.topic is not None and error.ranking is not None
    assert len(error.ranking) >= 2  # the misbehaving functions behave on shorter rankings
    if replays and function not in SLOW:
        topic = topic_from_record(error.topic)
        with pytest.raises(Misbehaviour):
            GuardedMetric(wrap(function), LIMIT).score(Ranking(error.ranking), topic)


@pytest.mark.parametrize("behaviour", list(BEHAVIOURS))
def test_check_gives_an_error_naming_the_input_and_the_behaviour(behaviour):
    function, expected, replays = BEHAVIOURS[behaviour]
    result = check(wrap(function), get("Pri"), budget=BUDGET)
    assert result.verdict == "error" and not result.holds
    assert says(result.error.message, expected), result.error.message
    assert_names_the_input(result.error, function, replays)
    text = format_check(result)
    assert says(text, expected) and "on ranking " + " ".join(result.error.ranking) in text
    assert json.loads(format_check(result, "json"))  # every format renders an error check
    assert result.error.message in format_check(result, "markdown")


@pytest.mark.parametrize("behaviour", list(BEHAVIOURS))
def test_run_table_completes_with_an_error_row_and_every_other_cell_computed(behaviour):
    function, expected, replays = BEHAVIOURS[behaviour]
    bad = wrap(function, "bad")
    result = run_table([bad, wrap(harmonic, "good"), "P@10"], CONSTRAINTS, budget=BUDGET, jobs=1)
    assert not result.interrupted
    for constraint in CONSTRAINTS:
        cell = result.cell("bad", constraint)
        assert cell.verdict == "error"
        error = cell.default_check.error
        assert says(error.message, expected), error.message
        assert_names_the_input(error, function, replays)
        # harmonic: Pri and Deep hold (1/i decreasing, gains add), DeepTh has a witness
        assert result.cell("good", constraint).verdict in ("satisfied", "witness")
        assert result.cell("P@10", constraint).verdict not in ("error", "not run")
    assert says(format_table(result, "text"), expected)
    cells = json.loads(format_table(result, "json"))["cells"]
    assert len(cells) == 3 * len(CONSTRAINTS)
    assert {c["verdict"] for c in cells if c["row"] == "bad"} == {"error"}
    for fmt in ("markdown", "latex", "html"):
        assert "bad" in format_table(result, fmt)


def test_a_hanging_metric_in_worker_processes_gives_error_cells():
    """The pool path: module-level functions pickle, so their checks run in workers (SIGALRM works there)."""
    result = run_table([wrap(spins, "spins"), wrap(harmonic, "good")], ["Pri", "Deep"], budget=BUDGET, jobs=2)
    assert not result.interrupted
    for constraint in ("Pri", "Deep"):
        assert "took longer than 0.5 s" in result.cell("spins", constraint).default_check.error.message
        assert result.cell("good", constraint).verdict == "satisfied"


# -- a timeout ends the check: shrinking does not call the slow metric again ---------------------

_slow_calls: list[int] = []


def slow_on_long(ranking, topic):
    if len(ranking) >= 4:
        _slow_calls.append(len(ranking))
        time.sleep(60)
    return harmonic(ranking, topic)


def test_one_timeout_ends_the_search():
    _slow_calls.clear()
    # No small scope: the random search meets the slow case and must stop there, not shrink it.
    budget = Budget(cases=50, small_scope=0, seconds=60.0, case_seconds=0.2)
    result = check(wrap(slow_on_long), get("Pri"), budget=budget)
    assert result.verdict == "error" and "took longer than 0.2 s" in result.error.message
    assert len(_slow_calls) == 1
    assert len(result.error.ranking) == _slow_calls[0]


@pytest.mark.parametrize("constraint", ["Sat", "CloseTh"])
def test_a_timeout_in_saturation_and_closeness_is_an_error(constraint):
    result = check(wrap(sleeps), get(constraint), budget=BUDGET)
    assert result.verdict == "error" and "took longer than 0.5 s" in result.error.message


# -- relative metrics: the context is part of the input ------------------------------------------

def drops_the_context(ranking, topic, context):
    if context.rankings:
        object.__setattr__(context, "rankings", ())
    return harmonic(ranking, topic)


def context_sleeps(ranking, topic, context):
    if context.rankings:
        time.sleep(60)
    return harmonic(ranking, topic)


@pytest.mark.parametrize("function, expected", [
    (drops_the_context, "changed its input: the context"),
    (context_sleeps, "took longer than 0.5 s on one case"),
])
@pytest.mark.parametrize("constraint", ["Pri", "Rarity"])
def test_a_relative_metric_error_names_the_context(function, expected, constraint):
    result = check(wrap(function, needs=Needs(context=True)), get(constraint), budget=BUDGET)
    assert result.verdict == "error"
    assert expected in result.error.message and "[context: (" in result.error.message
    assert result.error.topic is not None and result.error.ranking is not None


def test_a_relative_row_with_a_misbehaving_metric_completes():
    bad = wrap(drops_the_context, "bad", needs=Needs(context=True))
    result = run_table([bad, "NRG(base=P@10)"], ["Pri", "Rarity"], row_set="relative", budget=BUDGET, jobs=1)
    assert {c.verdict for c in result.cells if c.row == "bad"} == {"error"}
    assert all(c.verdict not in ("error", "not run") for c in result.cells if c.row != "bad")
    assert json.loads(format_table(result, "json"))


# -- the ranking: a tuple in a check; a list passed by a caller is watched and restored -----------

def appends(ranking, topic):
    ranking.append("extra")
    return 0.0


def test_a_ranking_list_changed_by_the_metric_is_reported_and_restored():
    topic = Topic.single({"a": Fraction(1, 10)})
    given = ["a", "b"]
    with pytest.raises(Misbehaviour, match="changed its input: the ranking"):
        GuardedMetric(wrap(appends)).score(given, topic)
    assert given == ["a", "b"]


def test_in_a_check_the_ranking_cannot_be_changed_and_trying_is_an_error():
    result = check(wrap(appends), get("Pri"), budget=BUDGET)
    assert result.verdict == "error" and "AttributeError" in result.error.message


def test_a_changed_topic_is_restored_for_the_rest_of_the_run():
    topic = Topic.single({"a": Fraction(1, 10), "b": Fraction(1, 20)})
    before = (topic.documents, topic.r("a"), topic.r("b"), hash(topic))
    with pytest.raises(Misbehaviour, match="the topic's judgments"):
        GuardedMetric(wrap(empties_the_topic)).score(Ranking(["a", "b"]), topic)
    assert (topic.documents, topic.r("a"), topic.r("b"), hash(topic)) == before


# -- no false alarms ----------------------------------------------------------------------------

class ProtocolMetric:
    """A well-behaved metric object implementing the protocol (not a function)."""

    name = "protocol"
    cutoff = None
    needs = Needs(aspects=False)
    param_info = ()
    params: dict = {}

    def score(self, ranking, topic, context=None):
        return harmonic(ranking, topic)


_memo: dict = {}


def memoised(ranking, topic):
    key = (tuple(ranking), topic)
    if key not in _memo:
        _memo[key] = harmonic(ranking, topic)
    return _memo[key]


@pytest.mark.parametrize("metric", [
    wrap(harmonic),
    wrap(lambda ranking, topic: sum(1 for d in ranking[:3] if topic.rel(d)), name="count_int"),
    wrap(lambda ranking, topic: np.float64(harmonic(ranking, topic)), name="numpy_float"),
    wrap(lambda ranking, topic: np.float32(harmonic(ranking, topic)), name="numpy_float32"),
    wrap(lambda ranking, topic: np.int64(sum(1 for d in ranking[:3] if topic.rel(d))), name="numpy_int"),
    wrap(lambda ranking, topic: sum((Fraction(topic.r(d)) / i for i, d in enumerate(ranking, 1)),
                                    Fraction(0)), name="fraction"),
    wrap(lambda ranking, topic: Decimal(repr(harmonic(ranking, topic))), name="decimal"),
    wrap(lambda ranking, topic: np.array(harmonic(ranking, topic)), name="zero_d_array"),
    wrap(memoised),
    ProtocolMetric(),
], ids=lambda m: m.name)
def test_well_behaved_metrics_get_no_error(metric):
    for constraint in ("Pri", "Conf", "DeepTh"):
        result = check(metric, get(constraint), budget=BUDGET)
        assert result.verdict != "error", (constraint, result.error)


def test_builtins_are_trusted_and_everything_else_is_guarded():
    builtin = parse("nDCG@10")
    assert is_trusted(builtin) and guard(builtin) is builtin
    assert isinstance(guard(wrap(harmonic)), GuardedMetric)
    assert isinstance(guard(ProtocolMetric()), GuardedMetric)
    subclass = type("MyNDCG", (type(builtin),), {})(10)  # a user's subclass of a built-in
    assert isinstance(guard(subclass), GuardedMetric)
    guarded = guard(wrap(harmonic))
    assert guard(guarded) is guarded and guarded.name == "harmonic"


# -- the time limit's plumbing -------------------------------------------------------------------

def test_an_outer_timer_survives_the_check():
    def outer(signum, frame):
        raise AssertionError("the outer timer must not fire during this test")

    previous = signal.signal(signal.SIGALRM, outer)
    signal.setitimer(signal.ITIMER_REAL, 100.0)
    try:
        check(wrap(harmonic), get("Pri"), budget=BUDGET)
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
        handler = signal.getsignal(signal.SIGALRM)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert 90.0 < remaining <= 100.0 and handler is outer


def test_outside_the_main_thread_there_is_no_limit_and_the_note_says_so():
    found = []
    thread = threading.Thread(target=lambda: found.append(check(wrap(harmonic), get("Pri"), budget=BUDGET)))
    thread.start()
    thread.join()
    assert found[0].verdict == "satisfied"
    assert "no per-case time limit outside the main thread" in found[0].note


def test_no_limit_when_case_seconds_is_none():
    result = check(wrap(harmonic), get("Pri"), budget=Budget(cases=10, small_scope=20, case_seconds=None))
    assert result.verdict == "satisfied" and "time limit" not in result.note


def test_a_timeout_is_a_case_timeout():
    topic = Topic.single({"a": Fraction(1, 10), "b": Fraction(1, 10)})
    context = Context((Ranking(["b"]),))
    with pytest.raises(CaseTimeout) as raised:
        GuardedMetric(wrap(context_sleeps, needs=Needs(context=True)), 0.2).score(Ranking(["a"]), topic, context)
    assert raised.value.final and raised.value.context is context
    assert str(raised.value).endswith("[context: (b)]")


def test_an_outer_timer_due_first_fires_its_own_handler_once():
    fired = []
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: fired.append(signum))
    signal.setitimer(signal.ITIMER_REAL, 0.1)
    try:
        with pytest.raises(CaseTimeout):  # the outer alarm at 0.1 s is not the metric's timeout
            GuardedMetric(wrap(sleeps), 0.4).score(Ranking(["a", "b"]), Topic.single({"a": 1}))
        assert signal.getitimer(signal.ITIMER_REAL)[0] == 0.0  # spent, not restored
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert fired == [signal.SIGALRM]
