"""The guard around a metric author's metric (issue 14).

Each test calls the guard directly in the test process (a supervised worker is this process after
:func:`supervise`, undone by monkeypatch), with the exact words the module docstring promises.
"""

from __future__ import annotations

import signal
import threading
import time
from fractions import Fraction

import pytest

import axiometer.checking.guard as guard_module
from axiometer.checking.case_slot import CaseSlot
from axiometer.checking.guard import (CaseTimeout, GuardedMetric, Misbehaviour, context_text, describe_error,
                                      guard, is_trusted, supervise)
from axiometer.core import Context, Ranking, Topic
from axiometer.metrics import MetricError, adapt, parse, wrap
from axiometer.metrics.base import UndefinedScore
from tests.axioms import harmonic

TOPIC = Topic.single({"a": 1, "b": Fraction(1, 2)})


def reciprocal_rank_sum(ranking, topic):
    return sum(float(topic.r(d)) / i for i, d in enumerate(ranking, 1))


@pytest.fixture
def unsupervised(monkeypatch):
    """This process is no supervised worker (and is none again after the test)."""
    monkeypatch.setattr(guard_module, "_SUPERVISION", None)


class Scored:
    """A protocol metric whose ``score`` runs ``behaviour(call number, ranking, topic, context)``."""

    name = "scored"

    def __init__(self, behaviour):
        self.behaviour, self.calls = behaviour, 0

    def score(self, ranking, topic, context=None):
        self.calls += 1
        return self.behaviour(self.calls, ranking, topic, context)


def misbehaviour(metric, ranking=("a", "b"), topic=TOPIC, context=None, seconds=2.0,
                 restored=True) -> Misbehaviour:
    """The misbehaviour scoring raises; it names the very input given, as it was before the call."""
    before = list(ranking)
    with pytest.raises(Misbehaviour) as raised:
        GuardedMetric(adapt(metric), seconds).score(ranking, topic, context)  # as guard() builds it
    error = raised.value
    assert error.ranking is ranking and (list(error.ranking) == before or not restored)
    assert error.topic is topic and error.context is context
    return error


ONE_SYSTEM = Context((("b",),))


# -- describe_error and context_text -------------------------------------------------------------

def test_describe_error_in_words(unsupervised):
    assert describe_error(MetricError("returned None (NoneType), not a number")) == \
        "returned None (NoneType), not a number"
    assert describe_error(UndefinedScore("log of 0")) == "UndefinedScore: log of 0"  # not a MetricError's own text
    assert describe_error(SystemExit(3)) == "called sys.exit(3)"
    assert describe_error(SystemExit("bye")) == "called sys.exit('bye')"
    assert describe_error(KeyboardInterrupt()) == \
        "raised KeyboardInterrupt (a metric's own: Ctrl-C does not reach a supervised worker)"
    assert describe_error(ValueError("bad input")) == "ValueError: bad input"
    assert describe_error(ValueError()) == "ValueError"       # no message: the type alone
    assert describe_error(MemoryError()) == "MemoryError"     # not supervised: no memory limit to name


def test_a_memory_error_names_the_worker_limit_only_under_one(unsupervised):
    slot = CaseSlot(4096)
    supervise(slot, 512)
    assert guard_module._SUPERVISION.slot is slot and guard_module._SUPERVISION.memory_mb == 512
    assert describe_error(MemoryError()) == "exceeded the worker's memory limit of 512 MB (MemoryError)"
    assert describe_error(ValueError("x")) == "ValueError: x"
    supervise(slot, None)  # a worker without a memory limit
    assert describe_error(MemoryError()) == "MemoryError"


def test_context_text():
    assert context_text() == "" and context_text(None) == ""
    first = Context((("d1", "d2"), ("d3",)))
    second = Context((("d4",),))
    assert context_text(first) == " [context: (d1, d2); (d3)]"
    assert context_text(first, second) == " [context: (d1, d2); (d3) | (d4)]"
    assert context_text(None, second) == " [context: (d4)]"
    assert context_text(Context()) == " [context: empty]"


def test_a_misbehaviour_keeps_the_input_and_shows_the_context():
    context = Context((("b",),))
    error = Misbehaviour("raised", ("a",), TOPIC, context)
    assert (error.behaviour, error.ranking, error.topic, error.context) == ("raised", ("a",), TOPIC, context)
    assert str(error) == "raised [context: (b)]" and not error.final
    assert CaseTimeout("slow", ("a",), TOPIC, None).final and str(CaseTimeout("slow", (), TOPIC, None)) == "slow"


# -- what is trusted -----------------------------------------------------------------------------

def test_only_registered_builtins_are_trusted():
    builtin = parse("P@2")
    assert is_trusted(builtin) and guard(builtin) is builtin
    assert not is_trusted(harmonic())  # a BuiltinMetric of an unregistered family
    assert not is_trusted(type("MyP", (type(builtin),), {})(2))   # a subclass of a registered one
    assert not is_trusted(wrap(reciprocal_rank_sum)) and not is_trusted(object())
    guarded = guard(wrap(reciprocal_rank_sum), 0.75)
    assert isinstance(guarded, GuardedMetric) and guarded.case_seconds == 0.75 and guard(guarded) is guarded
    assert guard(wrap(reciprocal_rank_sum)).case_seconds == 2.0  # DEFAULT_CASE_SECONDS


def test_the_guarded_metric_is_the_metric_but_for_score_and_exact():
    class WithExact(Scored):
        title = "with exact"

        def exact(self, ranking, topic, context=None):
            if len(ranking) > 1:
                raise ZeroDivisionError("no")
            return Fraction(len(ranking), 3)

    metric = WithExact(lambda n, r, t, c: 0.5)
    guarded = GuardedMetric(metric)
    assert guarded.title == "with exact" and guarded.metric is metric and not guarded.called
    assert repr(guarded) == f"guarded({metric!r})"
    assert guarded.exact(("a",), TOPIC) == Fraction(1, 3) and guarded.called is True
    assert guarded.exact(("a",), TOPIC, ONE_SYSTEM) == Fraction(1, 3)
    with pytest.raises(Misbehaviour) as raised:
        guarded.exact(("a", "b"), TOPIC, ONE_SYSTEM)
    assert str(raised.value) == "ZeroDivisionError: no [context: (b)]"
    assert (raised.value.ranking, raised.value.topic, raised.value.context) == (("a", "b"), TOPIC, ONE_SYSTEM)
    with pytest.raises(AttributeError):
        GuardedMetric(object()).exact
    copy = GuardedMetric.__new__(GuardedMetric)  # as copy and pickle build one: no metric yet
    with pytest.raises(AttributeError) as raised:
        copy.metric
    assert raised.value.args == ("metric",)


def test_the_time_limit_needs_the_main_thread_and_setitimer(monkeypatch):
    assert GuardedMetric(Scored(None)).unlimited_reason is None
    found = []
    thread = threading.Thread(target=lambda: found.append(GuardedMetric(Scored(None)).unlimited_reason))
    thread.start()
    thread.join()
    assert found == ["no per-case time limit outside the main thread"]
    monkeypatch.delattr(signal, "setitimer")
    assert GuardedMetric(Scored(None)).unlimited_reason == \
        "no per-case time limit on this platform (no signal.setitimer)"
    assert GuardedMetric(Scored(None), None).unlimited_reason is None  # no limit asked for: no reason


# -- scoring -------------------------------------------------------------------------------------

def test_a_good_score_is_a_float_scored_twice_with_or_without_context():
    seen = []

    def behaviour(n, ranking, topic, context):
        seen.append(context)
        return Fraction(1, 4)

    metric = Scored(behaviour)
    guarded = GuardedMetric(adapt(metric))  # as guard() builds it: the adapter checks the value
    value = guarded.score(Ranking(["a", "b"]), TOPIC)
    assert value == 0.25 and type(value) is float and metric.calls == 2
    context = Context((("b",),))
    assert guarded.score(("a",), TOPIC, context) == 0.25
    assert seen == [None, None, context, context]
    two_arguments = GuardedMetric(wrap(lambda ranking, topic: len(ranking) / 4))  # takes no context
    assert two_arguments.score(("a", "b"), TOPIC) == 0.5


def test_what_the_metric_did_in_words(unsupervised):
    def raises(n, r, t, c):
        raise ValueError("cannot score")

    error = misbehaviour(Scored(raises), context=Context((("b",),)))
    assert str(error) == "ValueError: cannot score [context: (b)]"
    assert error.behaviour == "ValueError: cannot score" and error.ranking == ("a", "b")
    assert error.topic is TOPIC and isinstance(error.__cause__, ValueError)
    assert str(misbehaviour(Scored(lambda n, r, t, c: None), context=ONE_SYSTEM)) == \
        "returned None (NoneType), not a number [context: (b)]"
    assert misbehaviour(Scored(lambda n, r, t, c: None)).__cause__ is None

    def exits(n, r, t, c):
        raise SystemExit(2)

    assert str(misbehaviour(Scored(exits))) == "called sys.exit(2)"
    assert misbehaviour(Scored(lambda n, r, t, c: 0.5 if n == 1 else 0.25), context=ONE_SYSTEM).behaviour == \
        "returned 0.5 then 0.25 for the same input (non-deterministic)"

    def second_raises(n, r, t, c):
        if n == 2:
            raise KeyError("k")
        return 0.5

    assert misbehaviour(Scored(second_raises), context=ONE_SYSTEM).behaviour == \
        "KeyError: 'k' on a second evaluation of the same input (the first returned 0.5)"


def test_an_undefined_score_passes_through_unless_the_input_was_changed():
    def undefined(n, r, t, c):
        raise UndefinedScore("log 0")

    with pytest.raises(UndefinedScore, match="log 0") as raised:
        GuardedMetric(Scored(undefined)).score(("a",), TOPIC)
    assert not isinstance(raised.value, Misbehaviour)

    def changes_then_undefined(n, ranking, t, c):
        ranking.append("b")
        raise UndefinedScore("log 0")

    ranking = ["a"]
    error = misbehaviour(Scored(changes_then_undefined), ranking=ranking, context=ONE_SYSTEM)
    assert error.behaviour == "changed its input: the ranking" and ranking == ["a"]


def test_a_keyboard_interrupt_is_the_users_unless_supervised(unsupervised):
    def interrupted(n, r, t, c):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        GuardedMetric(Scored(interrupted)).score(("a",), TOPIC)
    supervise(CaseSlot(4096), None)
    try:
        described = str(misbehaviour(Scored(interrupted)))
    except KeyboardInterrupt:  # escaping, it would end the whole test run instead of failing this test
        pytest.fail("a supervised worker let the metric's KeyboardInterrupt escape")
    assert described == "raised KeyboardInterrupt (a metric's own: Ctrl-C does not reach a supervised worker)"


def test_a_supervised_call_records_its_input_before_and_its_end_after(unsupervised):
    slot = CaseSlot(4096)
    supervise(slot, 256)
    context = Context((("b",),))
    during = []

    def behaviour(n, ranking, topic, ctx):
        during.append((slot.started > 0, slot.case()))
        return 0.5

    assert GuardedMetric(Scored(behaviour)).score(("b", "a"), TOPIC, context) == 0.5
    assert during == [(True, (("b", "a"), TOPIC, context))] * 2
    assert slot.started == 0.0 and slot.case() == (("b", "a"), TOPIC, context)

    def out_of_memory(n, r, t, c):
        raise MemoryError

    assert str(misbehaviour(Scored(out_of_memory))) == \
        "exceeded the worker's memory limit of 256 MB (MemoryError)"
    assert slot.started == 0.0  # left even when the metric raised


# -- changing the input --------------------------------------------------------------------------

def test_a_changed_input_is_named_and_restored():
    def everything(n, ranking, topic, context):
        ranking.reverse()
        object.__setattr__(topic, "R", 7)
        topic._vectors["a"] = (0,)
        object.__setattr__(context, "rankings", ())
        object.__setattr__(context, "labels", ())
        return 0.5

    topic = Topic.single({"a": 1, "b": Fraction(1, 2)})
    context = Context((("b",),))
    ranking = ["a", "b"]
    error = misbehaviour(Scored(everything), ranking=ranking, topic=topic, context=context)
    assert error.behaviour == "changed its input: the ranking and the topic's judgments and the context"
    assert ranking == ["a", "b"]
    assert topic.R == 2 and topic.vector("a") == (1,) and topic.r("b") == Fraction(1, 2)
    assert context.rankings == (Ranking(["b"]),) and context.labels == ("s1",)
    # Restored to copies: the topic works on, and changing it again is seen again.
    assert GuardedMetric(Scored(lambda n, r, t, c: t.r("a"))).score(("a",), topic) == 1.0

    def relabels(n, ranking, topic, context):
        object.__setattr__(context, "labels", ("x",))
        return 0.5

    assert misbehaviour(Scored(relabels), context=context).behaviour == "changed its input: the context"
    assert context.labels == ("s1",)

    def renames(n, ranking, topic, context):
        object.__setattr__(topic, "topic_id", "other")
        return 0.5

    assert misbehaviour(Scored(renames), topic=topic).behaviour == "changed its input: the topic's judgments"
    assert topic.topic_id == ""


def test_a_change_outranks_the_error_it_came_with():
    def changes_then_raises(n, ranking, t, c):
        ranking.pop()
        raise ValueError("then failed")

    ranking = ["a", "b"]
    assert misbehaviour(Scored(changes_then_raises), ranking=ranking).behaviour == \
        "changed its input: the ranking"
    assert ranking == ["a", "b"]


def test_a_tuple_ranking_is_not_snapshotted_and_a_fixed_size_sequence_is_not_restored():
    class Odd(list):
        """A list whose slice assignment fails: reported, left as it is."""

        def __setitem__(self, key, value):
            raise TypeError("fixed")

    def drops(n, ranking, t, c):
        list.pop(ranking)
        return 0.5

    ranking = Odd(["a", "b"])
    assert misbehaviour(Scored(drops), ranking=ranking, restored=False).behaviour == "changed its input: the ranking"
    assert list(ranking) == ["a"]
    assert GuardedMetric(Scored(lambda n, r, t, c: 0.5)).score(("a", "b"), TOPIC) == 0.5
    # A tuple cannot change: no copy of it is kept (the per-case cost of a list's snapshot).
    assert guard_module._Snapshot(("a", "b"), TOPIC, None).ranking_items is None
    assert guard_module._Snapshot(["a", "b"], TOPIC, None).ranking_items == ["a", "b"]


# -- the time limit ------------------------------------------------------------------------------

def sleeper(seconds, swallow=0):
    """Sleeps ``seconds`` (interrupted by an alarm), swallowing the first ``swallow`` alarms."""
    def behaviour(n, r, t, c):
        end = time.monotonic() + seconds
        swallowed = 0
        while time.monotonic() < end:
            try:
                time.sleep(max(end - time.monotonic(), 0))
            except BaseException:
                if swallowed >= swallow:
                    raise
                swallowed += 1
        return 0.5
    return behaviour


def timed_timeout(metric, seconds) -> tuple[CaseTimeout, float]:
    start = time.monotonic()
    with pytest.raises(CaseTimeout) as raised:
        GuardedMetric(metric, seconds).score(("a", "b"), TOPIC)
    return raised.value, time.monotonic() - start


def test_a_timeout_is_final_and_restores_the_signal_state():
    previous = signal.getsignal(signal.SIGALRM)
    error, elapsed = timed_timeout(Scored(sleeper(3)), 0.1)
    assert error.behaviour == "took longer than 0.1 s on one case (the per-case time limit)" and error.final
    assert 0.1 <= elapsed < 1.0
    assert signal.getsignal(signal.SIGALRM) is previous and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_timeout_on_the_second_evaluation_stays_a_timeout():
    metric = Scored(lambda n, r, t, c: 0.5 if n == 1 else sleeper(3)(n, r, t, c))
    error, _ = timed_timeout(metric, 0.1)
    assert type(error) is CaseTimeout and "second evaluation" not in error.behaviour


def test_the_alarm_repeats_until_the_metric_stops():
    # The metric swallows the first alarm and sleeps on: the alarm repeats every 0.05 s and the
    # second one ends the call, long before the metric's 2 s are up.
    error, elapsed = timed_timeout(Scored(sleeper(2, swallow=1)), 0.1)
    assert 0.1 <= elapsed < 1.0
    # Swallowing every alarm and returning a number is still too late.
    error, elapsed = timed_timeout(Scored(sleeper(0.3, swallow=100)), 0.1)
    assert error.final and 0.3 <= elapsed < 1.0


def test_a_later_outer_timer_is_kept_less_the_time_spent():
    def outer(signum, frame):
        raise AssertionError("the outer timer must not fire here")

    previous = signal.signal(signal.SIGALRM, outer)
    signal.setitimer(signal.ITIMER_REAL, 50.0, 7.0)
    try:
        _, elapsed = timed_timeout(Scored(sleeper(3)), 0.2)
        remaining, interval = signal.getitimer(signal.ITIMER_REAL)
        handler = signal.getsignal(signal.SIGALRM)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert 0.2 <= elapsed < 1.0
    assert 49.0 < remaining <= 50.0 - elapsed and interval == 7.0 and handler is outer


def test_an_outer_timer_due_soon_after_the_call_is_restored_as_due():
    fired = []
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: fired.append(signum))
    signal.setitimer(signal.ITIMER_REAL, 0.6)
    try:
        _, elapsed = timed_timeout(Scored(sleeper(3)), 0.2)
        remaining, _ = signal.getitimer(signal.ITIMER_REAL)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert fired == [] and 0.0 < remaining <= 0.6 - elapsed


def test_an_earlier_outer_timer_fires_its_handler_on_time_and_the_limit_still_holds():
    start = time.monotonic()
    fired = []

    def outer(signum, frame):
        fired.append((signum, frame is not None, time.monotonic() - start))

    previous = signal.signal(signal.SIGALRM, outer)
    signal.setitimer(signal.ITIMER_REAL, 0.2, 10.0)
    try:
        # The outer alarm at 0.2 s is its handler's business; the metric's own limit, 0.5 s from
        # the start, is re-armed for the 0.3 s left and ends the call then, not before, not later.
        _, elapsed = timed_timeout(Scored(sleeper(3)), 0.5)
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # the outer timer is spent
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert [(signum, has_frame) for signum, has_frame, _ in fired] == [(signal.SIGALRM, True)]
    assert 0.2 <= fired[0][2] < 0.45
    assert 0.5 <= elapsed < 0.9


def test_after_an_earlier_outer_timer_the_limit_still_repeats():
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: None)
    signal.setitimer(signal.ITIMER_REAL, 0.1)
    try:
        # The outer alarm at 0.1 s re-arms the limit for the time left; the metric swallows the
        # limit's first alarm, and the repeat 0.05 s later ends the call, long before its 3 s.
        _, elapsed = timed_timeout(Scored(sleeper(3, swallow=1)), 0.3)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert 0.3 <= elapsed < 1.5


def test_arming_under_an_earlier_one_shot_outer_timer_fires_at_the_outer_time():
    """An outer timer without a repeat interval, due before the limit: the alarm is set for the outer
    timer's time (its handler runs when it expected), not postponed to the limit's."""
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: None)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    limit = guard_module._TimeLimit(5.0)
    try:
        limit.arm()
        delay, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 0 < delay <= 0.2
    finally:
        limit.disarm()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_an_alarm_landing_inside_disarm_raises_nothing(monkeypatch):
    """disarm's first act makes the handler inert: an alarm delivered while it restores the timers
    (simulated: the handler runs at its first setitimer call) does not escape as a timeout."""
    limit = guard_module._TimeLimit(5.0)
    limit.arm()
    real_setitimer = signal.setitimer

    def alarm_first(which, seconds, *interval):
        limit._on_alarm(signal.SIGALRM, None)
        return real_setitimer(which, seconds, *interval)

    monkeypatch.setattr(guard_module.signal, "setitimer", alarm_first)
    try:
        limit.disarm()
    finally:
        monkeypatch.undo()
        real_setitimer(signal.ITIMER_REAL, 0)
    assert not limit.fired and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
