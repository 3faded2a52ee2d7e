"""A catalogue of hostile metrics (issue 16): each misbehaves on rankings of two or more documents
and scores shorter ones as :func:`good` does, so that the cells whose cases never reach two
documents must come out as :func:`good`'s.

``BEHAVIOUR[name]`` is what the error cell must say (a substring); ``None`` for a metric whose
cells are not errors (it only prints).
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time

LEAKED: list[bytes] = []


def good(ranking, topic):
    """Reciprocal-rank discounted gain: the sum of r(d_i) / i (the README's metric)."""
    return sum(topic.r(d) / i for i, d in enumerate(ranking, start=1))


def raises(ranking, topic):
    if len(ranking) >= 2:
        raise ValueError("hostile: cannot score this")
    return good(ranking, topic)


def wrong_type(ranking, topic):
    return "0.5" if len(ranking) >= 2 else good(ranking, topic)


def returns_nan(ranking, topic):
    return float("nan") if len(ranking) >= 2 else good(ranking, topic)


def returns_inf(ranking, topic):
    return float("inf") if len(ranking) >= 2 else good(ranking, topic)


def non_deterministic(ranking, topic):
    return random.random() if len(ranking) >= 2 else good(ranking, topic)


def mutates_input(ranking, topic):
    if len(ranking) >= 2:
        topic._vectors.clear()
    return good(ranking, topic)


def slow(ranking, topic):
    if len(ranking) >= 2:
        time.sleep(30)
    return good(ranking, topic)


def infinite_loop(ranking, topic):
    while len(ranking) >= 2:
        pass
    return good(ranking, topic)


def loop_under_bare_except(ranking, topic):
    while len(ranking) >= 2:
        try:
            time.sleep(1)
        except:  # noqa: E722 - the point: it swallows the alarm
            pass
    return good(ranking, topic)


def infinite_recursion(ranking, topic, depth=0):
    if len(ranking) >= 2:
        return infinite_recursion(ranking, topic, depth + 1)
    return good(ranking, topic)


def allocates_2gb(ranking, topic):
    if len(ranking) >= 2:
        block = b"x" * (2 << 30)
        return float(len(block))
    return good(ranking, topic)


def leaks(ranking, topic):
    # bytes(n) is allocated zeroed by the system (calloc) and never touched, so a call costs no time
    # however busy the machine is: the leak reaches the memory limit (RLIMIT_AS counts address
    # space), never the 0.5 s per-case limit first. bytearray(n) would memset its 100 MB, 0.15 s a
    # call unloaded and past 0.5 s under load.
    if len(ranking) >= 2:
        LEAKED.append(bytes(100 << 20))
    return good(ranking, topic)


def prints(ranking, topic):
    print("hostile output " * 700)  # about 10 kB a call
    print("and on stderr", file=sys.stderr)
    return good(ranking, topic)


def exits(ranking, topic):
    if len(ranking) >= 2:
        sys.exit(0)
    return good(ranking, topic)


def hard_exit(ranking, topic):
    if len(ranking) >= 2:
        os._exit(7)
    return good(ranking, topic)


def ignores_alarm(ranking, topic):
    if len(ranking) >= 2:
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        time.sleep(30)
    return good(ranking, topic)


def crashes(ranking, topic):
    if len(ranking) >= 2:
        os.kill(os.getpid(), signal.SIGSEGV)
    return good(ranking, topic)


def keyboard_interrupt(ranking, topic):
    if len(ranking) >= 2:
        raise KeyboardInterrupt
    return good(ranking, topic)


def forks_then_crashes(ranking, topic):
    # The child keeps whatever the worker had open (a result pipe, once) and outlives it.
    if len(ranking) >= 2:
        if os.fork() == 0:
            time.sleep(40)
            os._exit(0)
        os.kill(os.getpid(), signal.SIGSEGV)
    return good(ranking, topic)


class HostileBaseException(BaseException):
    """Not an Exception: ``except Exception`` lets it by."""


def raises_base_exception(ranking, topic):
    if len(ranking) >= 2:
        raise HostileBaseException("hostile")
    return good(ranking, topic)


class NamedScorer:
    """Not hostile, only unusual: an object with ``name`` and ``score`` (no ``needs``, no ``params``),
    which ``check`` adapts; ``score`` must take it too."""

    name = "named_object"

    def score(self, ranking, topic):
        return good(ranking, topic)


named_object = NamedScorer()


#: What each hostile metric's error cells say (a substring of the message).
BEHAVIOUR = {
    "raises": "ValueError: hostile: cannot score this",
    "wrong_type": "not a number",
    "returns_nan": "non-finite",
    "returns_inf": "non-finite",
    "non_deterministic": "non-deterministic",
    "mutates_input": "changed its input: the topic's judgments",
    "slow": "took longer than 0.5 s",
    "infinite_loop": "took longer than 0.5 s",
    "loop_under_bare_except": "ignored the alarm; the worker was killed",
    "infinite_recursion": "RecursionError",
    "allocates_2gb": "memory limit of 300 MB",
    "leaks": "memory limit of 300 MB",
    "prints": None,
    "exits": "called sys.exit(0)",
    "hard_exit": "ended its worker process with exit status 7",
    "ignores_alarm": "ignored the alarm; the worker was killed",
    "crashes": "killed by SIGSEGV",
    "keyboard_interrupt": "raised KeyboardInterrupt",
    "forks_then_crashes": "a child process it started was still running and was killed",
    "raises_base_exception": "HostileBaseException: hostile",
}
