"""One case construction, two ways to run it: fast seeded sampling, and hypothesis (to shrink).

A constraint's random cases are built by a function ``build(draw, scope) -> Case`` that makes
its choices through a :class:`Draw`: every choice is, in the end, a bounded integer
(:meth:`Draw.integer`), with helpers for the usual shapes (an option of a list, a list of
drawn length, a permutation, distinct indices). :func:`case_strategy` turns such a function
into a :class:`CaseStrategy`, which runs it

- under hypothesis (``strategy(scope)``: a ``SearchStrategy[Case]``, each bounded integer one
  ``st.integers(lo, hi)``, built once and cached), for the pytest plugin and for shrinking; and
- with a seeded :class:`random.Random` (``strategy.sample(rng, scope)``), about a microsecond
  a choice instead of hypothesis's tens: the random search of a check draws its cases this way
  (:func:`~axiometer.checking.search.search_cases`).

Both make the same choices in the same order, so the integers a fast draw recorded are a
hypothesis choice sequence for the same case: :func:`shrink_from` hands them to hypothesis
(as a saved example, replayed and then shrunk), which shrinks the case as it would have
shrunk one it found itself. Choices shrink towards their lower bound, so a construction lists
its options simplest first.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import Any, Generic, NoReturn, TypeVar

from hypothesis import HealthCheck, Phase, find, reject, settings
from hypothesis import strategies as st
from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes
from hypothesis.errors import NoSuchExample, Unsatisfiable
from hypothesis.internal.entropy import deterministic_PRNG

__all__ = ["Draw", "CaseStrategy", "BoundStrategy", "bound", "case_strategy", "Rejected", "shrink_from"]

T = TypeVar("T")
C = TypeVar("C")


class Rejected(Exception):
    """A fast draw's construction found no case for its choices (hypothesis: a rejected example)."""


class Draw:
    """The choices a construction makes; every helper is built on :meth:`integer`."""

    def integer(self, lo: int, hi: int) -> int:
        """An integer in ``[lo, hi]`` (shrinks towards ``lo``)."""
        raise NotImplementedError

    def reject(self) -> NoReturn:
        """No case for these choices (a window too short for the construction, say)."""
        raise NotImplementedError

    def choice(self, options: Sequence[T]) -> T:
        """One of ``options`` (shrinks towards the first)."""
        return options[self.integer(0, len(options) - 1)]

    def boolean(self) -> bool:
        """``False`` or ``True`` (shrinks towards ``False``)."""
        return self.integer(0, 1) == 1

    def sized(self, lo: int, hi: int, element: Callable[[], T]) -> list[T]:
        """A list of ``lo .. hi`` elements, each ``element()`` (shrinks towards ``lo`` of them)."""
        return [element() for _ in range(self.integer(lo, hi))]

    def distinct(self, pool: int, lo: int, hi: int) -> list[int]:
        """``lo .. hi`` distinct indices below ``pool``, in the order drawn (shrinks towards
        ``[0, 1, ...]``)."""
        remaining = list(range(pool))
        count = self.integer(min(lo, pool), min(hi, pool))
        return [remaining.pop(self.integer(0, len(remaining) - 1)) for _ in range(count)]

    def permutation(self, items: Sequence[T]) -> list[T]:
        """``items`` in a drawn order (shrinks towards the order given)."""
        out = list(items)
        for i in range(len(out) - 1):
            j = self.integer(i, len(out) - 1)
            out[i], out[j] = out[j], out[i]
        return out


class _RandomDraw(Draw):
    """Choices from a seeded :class:`random.Random`, recorded (a hypothesis choice sequence)."""

    __slots__ = ("_random", "choices")

    def __init__(self, rng: random.Random) -> None:
        self._random = rng.random
        self.choices: list[int] = []

    def integer(self, lo: int, hi: int) -> int:
        value = lo + int(self._random() * (hi - lo + 1))
        self.choices.append(value)
        return value

    def choice(self, options: Sequence[T]) -> T:
        # integer(0, len - 1) inlined: the commonest choice, a few million per table
        value = int(self._random() * len(options))
        self.choices.append(value)
        return options[value]

    def reject(self) -> NoReturn:
        raise Rejected


@functools.lru_cache(maxsize=4096)
def _integers(lo: int, hi: int) -> st.SearchStrategy[int]:
    return st.integers(lo, hi)


class _HypothesisDraw(Draw):
    """Choices drawn by hypothesis inside a composite strategy."""

    __slots__ = ("_draw",)

    def __init__(self, draw: st.DrawFn) -> None:
        self._draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return self._draw(_integers(lo, hi))

    def reject(self) -> NoReturn:
        reject()
        raise AssertionError("unreachable")  # reject() raises


class CaseStrategy(Generic[C]):
    """A construction ``build(draw, scope)`` that runs under hypothesis or with a seeded random.

    ``strategy(scope)``: the hypothesis strategy (one per scope, built once).
    ``strategy.sample(rng, scope)``: one fast draw: the case (``None`` when the construction
    rejected its choices) and the choices made.
    """

    def __init__(self, build: Callable[[Draw, Any], C], name: str) -> None:
        self.build = build
        self.__name__ = self.__qualname__ = name
        self.__doc__ = build.__doc__
        self._strategies: dict[Any, st.SearchStrategy[C]] = {}

    def __call__(self, scope: Any) -> st.SearchStrategy[C]:
        try:
            return self._strategies[scope]
        except KeyError:
            build = self.build

            @st.composite
            def cases(draw: st.DrawFn) -> C:
                return build(_HypothesisDraw(draw), scope)

            strategy = self._strategies[scope] = cases()
            return strategy
        except TypeError:  # an unhashable scope: no cache
            build = self.build
            return st.composite(lambda draw: build(_HypothesisDraw(draw), scope))()

    def sample(self, rng: random.Random, scope: Any) -> tuple[C | None, list[int]]:
        draw = _RandomDraw(rng)
        try:
            return self.build(draw, scope), draw.choices
        except Rejected:
            return None, draw.choices

    def __repr__(self) -> str:
        return f"<case strategy {self.__name__}>"


class BoundStrategy(Generic[C]):
    """A :class:`CaseStrategy` at one scope, as a check's search takes it: called, the hypothesis
    strategy; :meth:`sample`, one fast draw."""

    __slots__ = ("strategy", "scope")

    def __init__(self, strategy: CaseStrategy[C], scope: Any) -> None:
        self.strategy, self.scope = strategy, scope

    def __call__(self) -> st.SearchStrategy[C]:
        return self.strategy(self.scope)

    def sample(self, rng: random.Random) -> tuple[C | None, list[int]]:
        return self.strategy.sample(rng, self.scope)


def bound(strategy: Callable[[Any], Any], scope: Any) -> Callable[[], Any]:
    """``strategy`` at ``scope`` for a search: a :class:`BoundStrategy` for a :class:`CaseStrategy`
    (fast draws), else a plain function returning the hypothesis strategy."""
    if isinstance(strategy, CaseStrategy):
        return BoundStrategy(strategy, scope)
    return lambda: strategy(scope)


def case_strategy(build: Callable[[Draw, Any], C]) -> CaseStrategy[C]:
    """Decorator: ``build(draw, scope) -> Case`` as a :class:`CaseStrategy` of the same name."""
    return CaseStrategy(build, build.__name__)


def shrink_from(strategy: st.SearchStrategy[C], choices: Sequence[int],
                is_target: Callable[[C], bool], seed: int = 0) -> C | None:
    """Hypothesis's shrink of the case the fast draw ``choices`` built (a target of ``is_target``).

    The choices are saved as an example of a throwaway in-memory database under the key of a
    ``find`` that only replays saved examples and shrinks (no generation): hypothesis replays
    them, sees the target, and shrinks it as it shrinks its own finds. Deterministic: a
    replay draws nothing at random, and the shrinker's own random choices come from ``seed``
    (hypothesis would otherwise seed them afresh, and two runs could shrink to different
    cases). ``None`` if the replay is not a target (the metric is not deterministic).
    """
    database = InMemoryExampleDatabase()
    key = b"axiometer-shrink"
    # The secondary corpus: hypothesis shrinks what it replays from there (an example under the
    # primary key counts as shrunk already).
    database.save(key + b".secondary", choices_to_bytes(list(choices)))
    try:
        # find(random=...) would set a seed, and a seeded hypothesis test skips its database (our
        # replay); deterministic_PRNG seeds the random hypothesis would draw the shrinker's from.
        with deterministic_PRNG(seed % 2**32):
            return find(strategy, is_target, database_key=key, settings=settings(
                database=database, phases=(Phase.reuse, Phase.shrink), max_examples=1,
                deadline=None, suppress_health_check=list(HealthCheck), report_multiple_bugs=False))
    except (NoSuchExample, Unsatisfiable):
        return None
