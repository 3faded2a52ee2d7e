"""Guarding a metric author's metric while it is checked: misbehaviour becomes data.

A built-in metric is trusted (fast, tested, deterministic). Anything else — a
wrapped function, an object implementing the protocol, the ir_measures
bridge, a user's subclass of a built-in — is wrapped once per check in a
:class:`GuardedMetric`, whose ``score`` raises :class:`Misbehaviour` naming the
input (topic, ranking, context) and what the metric did, in words:

- it raised (``ValueError: ...``);
- it returned something that is not a finite real number (``returned None``,
  ``returned nan, a non-finite value``, ``returned '0.5' (str), not a number``);
- it returned different values for the same input (every input is scored
  twice, on the same objects, and the two floats must be identical);
- it changed its input (the ranking, when a caller passes a list; the
  topic's judgments; the context) — the input is restored before reporting;
- it took longer than the per-case time limit on one evaluation
  (``signal.setitimer`` and a ``SIGALRM`` handler; only in a process's main
  thread, elsewhere :attr:`GuardedMetric.unlimited_reason` says why there is
  no limit). A timeout is *final*: the check ends with it, so a search does
  not call a slow metric again and again while shrinking;
- it called ``sys.exit`` (``SystemExit`` never leaves the guard), or raised
  another ``BaseException`` of its own (a ``KeyboardInterrupt`` leaves the
  guard only outside a supervised worker, where it may be the user's Ctrl-C).

In a supervised worker (:func:`supervise`, called by
:mod:`axiometer.runner.supervisor` in the process it forks) the guard also
records every input in a :class:`~axiometer.checking.case_slot.CaseSlot`
before the call, so the supervisor can name it if the metric ends the
process or ignores the alarm; there a ``KeyboardInterrupt`` is the metric's
own (the worker ignores Ctrl-C, which the supervisor handles) and a
``MemoryError`` means the worker's memory limit was reached.

The checks turn a :class:`Misbehaviour` into an ``error`` check; nothing here
lets a metric's exception escape uncaught.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from axiometer.checking.case_slot import CaseSlot
from axiometer.limits import DEFAULT_CASE_SECONDS
from axiometer.core import Context, Topic
from axiometer.metrics import MetricError
from axiometer.metrics.registry import is_builtin
from axiometer.metrics.adapter import adapt
from axiometer.metrics.base import BuiltinMetric, NotANumber, UndefinedScore

__all__ = ["GuardedMetric", "Misbehaviour", "CaseTimeout", "guard", "is_trusted", "describe_error",
           "context_text", "supervise", "time_limited", "TimeLimitReached"]

#: After the limit, the alarm repeats this often, so a metric that swallows it is stopped anyway.
_REPEAT_SECONDS = 0.05


class Misbehaviour(MetricError):
    """A guarded metric misbehaved on one input.

    ``behaviour`` says what it did; ``ranking``, ``topic`` and ``context`` are
    the input as it was before the call. ``final``: the check should end
    here rather than search on (a timeout).
    """

    final = False

    def __init__(self, behaviour: str, ranking: Sequence[str], topic: Topic,
                 context: Context | None) -> None:
        self.behaviour, self.ranking, self.topic, self.context = behaviour, ranking, topic, context
        super().__init__(behaviour + context_text(context))


class CaseTimeout(Misbehaviour):
    """The metric took longer than the per-case time limit on one input."""

    final = True


class _Alarm(BaseException):
    """Raised by the SIGALRM handler; a ``BaseException`` so ``except Exception`` in a metric lets it by."""


class _Supervision:
    """What :func:`supervise` set in this worker process."""

    def __init__(self, slot: CaseSlot, memory_mb: int | None) -> None:
        self.slot, self.memory_mb = slot, memory_mb


_SUPERVISION: _Supervision | None = None


def supervise(slot: CaseSlot, memory_mb: int | None) -> None:
    """Make this process a supervised worker: every guarded call records its input in ``slot``.

    Only for a process forked to run checks (it changes how a
    ``KeyboardInterrupt`` and a ``MemoryError`` read; see the module docstring).
    """
    global _SUPERVISION
    _SUPERVISION = _Supervision(slot, memory_mb)


def describe_error(error: BaseException) -> str:
    """An exception in words: a :class:`MetricError`'s own text, else ``Type: message``."""
    if isinstance(error, MetricError) and not isinstance(error, UndefinedScore):
        return str(error)
    if isinstance(error, SystemExit):
        return f"called sys.exit({error.code!r})"
    if isinstance(error, KeyboardInterrupt):
        return "raised KeyboardInterrupt (a metric's own: Ctrl-C does not reach a supervised worker)"
    if isinstance(error, MemoryError) and _SUPERVISION is not None and _SUPERVISION.memory_mb:
        return f"exceeded the worker's memory limit of {_SUPERVISION.memory_mb} MB (MemoryError)"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def context_text(*contexts: Context | None) -> str:
    """`` [context: (d1, d2); (d3)]`` for the contexts given (``|`` between two), or ``""``."""
    shown = [c for c in contexts if c is not None]
    if not shown:
        return ""
    parts = " | ".join("; ".join("(" + ", ".join(r) + ")" for r in c.rankings) or "empty" for c in shown)
    return f" [context: {parts}]"


def is_trusted(metric: Any) -> bool:
    """A registered built-in (exactly its registered class): checked without a guard."""
    return isinstance(metric, BuiltinMetric) and is_builtin(metric)


def guard(metric: Any, case_seconds: float | None = DEFAULT_CASE_SECONDS, *, twice: bool = True) -> Any:
    """``metric`` itself if it is trusted or guarded already, else a :class:`GuardedMetric` of it
    in the metric shape (a metric author's object adapted: :func:`axiometer.metrics.adapt`)."""
    if isinstance(metric, GuardedMetric) or is_trusted(metric):
        return metric
    return GuardedMetric(adapt(metric), case_seconds, twice=twice)


def _limit_unavailable() -> str | None:
    if not hasattr(signal, "setitimer"):
        return "no per-case time limit on this platform (no signal.setitimer)"
    if threading.current_thread() is not threading.main_thread():
        return "no per-case time limit outside the main thread"
    return None


class _Snapshot:
    """The mutable parts of one input, to detect (and undo) a metric's changes.

    A :class:`~axiometer.core.Ranking` is a tuple and cannot change; a list
    passed by a caller can. A :class:`Topic` keeps its judgments in dicts; a
    :class:`Context` is frozen, but ``object.__setattr__`` gets past that.
    """

    __slots__ = ("ranking", "ranking_items", "topic", "topic_state", "context", "context_state")

    def __init__(self, ranking: Sequence[str], topic: Topic, context: Context | None) -> None:
        self.ranking, self.topic, self.context = ranking, topic, context
        self.ranking_items = None if isinstance(ranking, tuple) else list(ranking)
        self.topic_state = self._topic_state(topic)
        self.context_state = None if context is None else (context.rankings, context.labels)

    @staticmethod
    def _topic_state(topic: Topic) -> tuple[Any, ...]:
        # Shallow copies suffice: the dicts' values are numbers and tuples.
        return (topic.topic_id, topic.aspects, topic.weights, topic.R, dict(topic._vectors),
                dict(topic._single), dict(topic._aspect_index))

    def changed(self) -> str | None:
        """What the call changed (``"the ranking"``, ...), restoring it; ``None`` if nothing."""
        what = []
        if self.ranking_items is not None and list(self.ranking) != self.ranking_items:
            what.append("the ranking")
            try:
                self.ranking[:] = self.ranking_items  # type: ignore[index]
            except Exception:  # not a mutable sequence after all: nothing to restore
                pass
        if self._topic_state(self.topic) != self.topic_state:
            what.append("the topic's judgments")
            names = ("topic_id", "aspects", "weights", "R", "_vectors", "_single", "_aspect_index")
            for name, value in zip(names, self.topic_state):
                object.__setattr__(self.topic, name, dict(value) if isinstance(value, dict) else value)
        state = self.context_state  # None exactly when there is no context
        if self.context is not None and state is not None and (self.context.rankings,
                                                               self.context.labels) != state:
            what.append("the context")
            object.__setattr__(self.context, "rankings", state[0])
            object.__setattr__(self.context, "labels", state[1])
        return " and ".join(what) or None


class TimeLimitReached(Exception):
    """A call ran past the limit :func:`time_limited` set."""


@contextlib.contextmanager
def time_limited(seconds: float | None) -> Iterator[None]:
    """Run the body under a wall-clock limit: past ``seconds`` it is interrupted (repeatedly, if it
    swallows the alarm) and :class:`TimeLimitReached` is raised. With ``seconds=None``, outside the
    main thread or without ``setitimer`` the body runs unlimited. What the guard does around one
    metric call, for code that calls something else (``agree``'s implementations)."""
    if seconds is None or threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "setitimer"):
        yield
        return
    limit = _TimeLimit(seconds)
    limit.arm()
    try:
        try:
            yield
        finally:
            limit.disarm()
    except _Alarm:
        limit.disarm()  # idempotent; the alarm may have landed inside the first call
        raise TimeLimitReached(f"took longer than {seconds:g} s") from None


class _TimeLimit:
    """Raise :class:`_Alarm` in this (main) thread ``seconds`` after :meth:`arm`, repeating until :meth:`disarm`.

    ``fired`` records that the limit was reached (a metric may swallow the
    alarm and return). An outer timer (pytest-timeout's, say) is restored on
    disarming, less the time spent here; if it falls due first, its own
    handler runs.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.fired = self.active = False
        self.start = 0.0
        self.previous: Any = None
        self.outer: tuple[float, float] = (0.0, 0.0)

    def _on_alarm(self, signum: int, frame: Any) -> None:
        if not self.active:
            return
        elapsed = time.monotonic() - self.start
        if self.outer[0] and elapsed >= self.outer[0]:
            # The outer timer fell due first: its business, not ours. It is spent (not restored
            # on disarming); our own limit is re-armed for the time left.
            self.outer = (0.0, 0.0)
            signal.setitimer(signal.ITIMER_REAL, max(self.seconds - elapsed, 1e-3), _REPEAT_SECONDS)
            if callable(self.previous):
                self.previous(signum, frame)
            return
        self.fired = True
        raise _Alarm

    def arm(self) -> None:
        self.start = time.monotonic()
        self.previous = signal.signal(signal.SIGALRM, self._on_alarm)
        self.active = True
        self.outer = signal.setitimer(signal.ITIMER_REAL, self.seconds, _REPEAT_SECONDS)
        if self.outer[0] and self.outer[0] < self.seconds:
            signal.setitimer(signal.ITIMER_REAL, self.outer[0], _REPEAT_SECONDS)

    def disarm(self) -> None:
        """Idempotent: an alarm that lands inside it leaves it to be called again."""
        if not self.active:
            return
        self.active = False  # first: from here on the handler raises nothing
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)
        outer_delay, outer_interval = self.outer
        if outer_delay:
            remaining = outer_delay - (time.monotonic() - self.start)
            signal.setitimer(signal.ITIMER_REAL, max(remaining, 1e-3), outer_interval)


class GuardedMetric:
    """A metric author's metric behind the guard (see the module docstring).

    Everything but ``score`` (and ``exact``, if the metric has one) is the
    metric's own attribute. ``case_seconds=None`` sets no time limit.
    """

    def __init__(self, metric: Any, case_seconds: float | None = DEFAULT_CASE_SECONDS, *,
                 twice: bool = True) -> None:
        self.metric = metric
        self.case_seconds = case_seconds
        self.twice = twice
        self.called = False
        reason = None if case_seconds is None else _limit_unavailable()
        #: Why there is no per-case time limit although one was asked for (``None``: there is one).
        self.unlimited_reason = reason

    def __getattr__(self, name: str) -> Any:
        if name == "metric":  # not set yet (copying, unpickling): no recursion
            raise AttributeError(name)
        if name == "exact":
            inner = self.metric.exact
            if inner is None:
                return None
            return lambda ranking, topic, context=None: self._call(inner, ranking, topic, context)
        return getattr(self.metric, name)

    def __repr__(self) -> str:
        return f"guarded({self.metric!r})"

    def _limit_text(self) -> str:
        return f"{self.case_seconds:g} s"

    def _call(self, function: Callable[..., Any], ranking: Sequence[str], topic: Topic,
              context: Context | None, recorded: bool = True) -> Any:
        """One call with the time limit and the mutation check: the value returned, or a :class:`Misbehaviour`.

        ``recorded``: a supervised worker records the case for its crash report (a symbolic
        topic of a proof cannot be recorded, and is not)."""
        self.called = True
        snapshot = _Snapshot(ranking, topic, context)
        error: BaseException | None = None
        value: Any = None
        limit = (_TimeLimit(self.case_seconds)
                 if self.case_seconds is not None and self.unlimited_reason is None else None)
        supervision = _SUPERVISION if recorded else None
        if supervision is not None:
            supervision.slot.enter(ranking, topic, context)
        try:
            try:
                if limit is not None:
                    limit.arm()
                value = function(ranking, topic, context) if context is not None else function(ranking, topic)
            finally:
                if limit is not None:
                    limit.disarm()
                if supervision is not None:
                    supervision.slot.leave()
        except _Alarm:
            if limit is not None:
                limit.disarm()  # in case the alarm landed inside disarm itself
        except UndefinedScore:
            changed = snapshot.changed()
            if changed is None:
                raise  # the metric says its formula is undefined here: the properties skip such cases
            raise Misbehaviour(f"changed its input: {changed}", ranking, topic, context) from None
        except Exception as raised:  # a user's metric may raise anything
            error = raised
        except SystemExit as raised:  # sys.exit in a metric ends the metric's check, not the run
            error = raised
        except KeyboardInterrupt as raised:
            if supervision is None:
                raise  # in this process it may be the user's Ctrl-C: the run stops
            error = raised  # a supervised worker ignores Ctrl-C: this one is the metric's
        except BaseException as raised:  # noqa: BLE001 - a metric's own BaseException subclass
            error = raised
        timed_out = limit is not None and limit.fired
        changed = snapshot.changed()
        if timed_out:
            raise CaseTimeout(f"took longer than {self._limit_text()} on one case (the per-case time "
                              "limit)", ranking, topic, context)
        if changed is not None:
            raise Misbehaviour(f"changed its input: {changed}", ranking, topic, context)
        if error is not None:
            # A value that is no number is what the metric returned, not an exception it raised.
            raise Misbehaviour(describe_error(error), ranking, topic, context) from (
                None if isinstance(error, NotANumber) else error)
        return value

    def limited(self, function: Callable[[Any, Any], Any], ranking: Sequence[str], topic: Topic) -> Any:
        """``function(ranking, topic)`` under the same time limit and input checks as a score (a
        proof runs the metric's code on symbols through it); a :class:`Misbehaviour` on failure."""
        return self._call(function, ranking, topic, None, recorded=False)

    def _checked(self, ranking: Sequence[str], topic: Topic, context: Context | None) -> float:
        # The metric's own score checks its value (metrics.base.score_value): a non-number it
        # returns is a MetricError raised inside the call, a Misbehaviour here.
        value: float = self._call(self.metric.score, ranking, topic, context)
        return value

    def score(self, ranking: Sequence[str], topic: Topic, context: Context | None = None) -> float:
        """The metric's score, scored twice (once if not ``twice``: scoring runs, where the
        checks' determinism test is not wanted); raises :class:`Misbehaviour` on any misbehaviour."""
        first = self._checked(ranking, topic, context)
        if not self.twice:
            return first
        try:
            second = self._checked(ranking, topic, context)
        except CaseTimeout:
            raise
        except Misbehaviour as error:
            raise Misbehaviour(f"{error.behaviour} on a second evaluation of the same input (the first "
                               f"returned {first!r})", ranking, topic, context) from None
        if second != first:
            raise Misbehaviour(f"returned {first!r} then {second!r} for the same input (non-deterministic)",
                               ranking, topic, context)
        return first

