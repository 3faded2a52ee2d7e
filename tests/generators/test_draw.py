"""generators.draw: one construction run two ways, fast from a seeded random and by hypothesis, making
the same choices, so that a fast draw's choices replay under hypothesis and shrink (issue 15)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import find
from hypothesis import strategies as st

from axiometer.axioms import CONSTRAINTS
from axiometer.generators.case import Scope
from axiometer.generators.draw import (BoundStrategy, CaseStrategy, Draw, _RandomDraw, bound, case_strategy,
                                       shrink_from)


@case_strategy
def numbers(draw: Draw, scope: int) -> tuple:
    """A list of 1..scope integers in [0, 100], a choice, a flag, distinct indices, a permutation."""
    values = draw.sized(1, scope, lambda: draw.integer(0, 100))
    if draw.integer(0, 9) == 9:
        draw.reject()
    return (tuple(values), draw.choice("abc"), draw.boolean(), tuple(draw.distinct(5, 1, 3)),
            tuple(draw.permutation("xyz")))


def test_the_decorator_keeps_the_constructions_name_and_docstring():
    # Built here, in the test, not at import: a mutant of the constructor must meet a test.
    def pairs(draw: Draw, scope: int | list[int]) -> tuple:
        """Two integers up to ``scope`` (or its largest)."""
        top = scope if isinstance(scope, int) else max(scope)
        return draw.integer(0, top), draw.integer(0, top)

    strategy = case_strategy(pairs)
    assert isinstance(strategy, CaseStrategy) and strategy.build is pairs
    assert strategy.__name__ == strategy.__qualname__ == "pairs" and strategy.__doc__ == pairs.__doc__
    assert repr(strategy) == "<case strategy pairs>"
    assert strategy(3) is strategy(3) and strategy(3) is not strategy(4)  # one strategy per scope
    assert find(strategy(3), lambda case: case[0] == 3) == (3, 0)
    assert find(strategy([2]), lambda case: case[1] == 2) == (0, 2)  # an unhashable scope: built each time
    case, choices = strategy.sample(random.Random(1), 3)
    assert case == tuple(choices) and all(0 <= v <= 3 for v in case)


def test_a_bound_strategy_draws_at_its_scope():
    fast = bound(numbers, 2)
    assert isinstance(fast, BoundStrategy) and fast() is numbers(2)
    assert fast.sample(random.Random(7)) == numbers.sample(random.Random(7), 2)
    plain = bound(lambda scope: st.just(scope), 5)  # a strategy function without fast draws
    assert not isinstance(plain, BoundStrategy) and find(plain(), lambda v: True) == 5


def test_a_fast_draw_records_every_choice_within_its_bounds():
    draw = _RandomDraw(random.Random(3))
    seen = [draw.integer(2, 4) for _ in range(300)] + [draw.choice("ab") for _ in range(100)]
    assert set(seen[:300]) == {2, 3, 4} and set(seen[300:]) == {"a", "b"}
    assert draw.choices[:300] == seen[:300] and set(draw.choices[300:]) == {0, 1}
    assert len(draw.choices) == 400


def test_the_same_seed_draws_the_same_cases_and_rejections_give_none():
    first = [numbers.sample(random.Random(7), 4) for _ in range(1)]
    rng_a, rng_b = random.Random(11), random.Random(11)
    a = [numbers.sample(rng_a, 4) for _ in range(200)]
    b = [numbers.sample(rng_b, 4) for _ in range(200)]
    assert a == b and first == [numbers.sample(random.Random(7), 4)]
    rejected = [case for case, _ in a if case is None]
    assert 5 <= len(rejected) <= 40  # about one in ten
    for case, _ in a:
        if case is not None:
            values, letter, flag, indices, order = case
            assert 1 <= len(values) <= 4 and all(0 <= v <= 100 for v in values)
            assert letter in "abc" and isinstance(flag, bool) and sorted(order) == list("xyz")
            assert 1 <= len(indices) <= 3 and len(set(indices)) == len(indices) and max(indices) < 5


def test_a_fast_draw_replays_under_hypothesis_as_the_same_case():
    rng = random.Random(5)
    replayed = 0
    for _ in range(30):
        case, choices = numbers.sample(rng, 4)
        if case is None:
            continue
        # The only target is the case itself: the shrink can only confirm the replay.
        assert shrink_from(numbers(4), choices, lambda c, case=case: c == case) == case
        replayed += 1
    assert replayed >= 20


def test_a_target_found_fast_shrinks_to_the_minimal_one():
    rng = random.Random(1)
    while True:
        case, choices = numbers.sample(rng, 6)
        if case is not None and sum(case[0]) >= 150:
            break

    def big(c) -> bool:
        return sum(c[0]) >= 150

    minimal = shrink_from(numbers(6), choices, big)
    # Fewest values, each as small as possible, every other choice at its first option.
    assert minimal == ((50, 100), "a", False, (0,), ("x", "y", "z"))


def test_a_seed_past_32_bits_still_shrinks():
    """The engine's per-check seeds are 64-bit; hypothesis seeds its PRNG from 32 bits."""
    case, choices = numbers.sample(random.Random(5), 4)
    while case is None:
        case, choices = numbers.sample(random.Random(len(choices) + 5), 4)
    for seed in (2**32 + 5, 2**63 - 1):
        assert shrink_from(numbers(4), choices, lambda c, case=case: c == case, seed=seed) == case


def test_permutations_reach_every_order():
    """Fisher-Yates with every swap, the last two positions' included: all n! orders."""
    rng = random.Random(0)
    for items in ("ab", "abc"):
        seen = {tuple(_RandomDraw(rng).permutation(items)) for _ in range(400)}
        assert len(seen) == math.factorial(len(items))


def test_shrink_from_returns_none_when_the_replay_is_no_target():
    case, choices = numbers.sample(random.Random(2), 3)
    while case is None:
        case, choices = numbers.sample(random.Random(len(choices)), 3)
    assert shrink_from(numbers(3), choices, lambda c: False) is None


@pytest.mark.parametrize("constraint", [c for c in CONSTRAINTS if isinstance(c.strategy, CaseStrategy)],
                         ids=lambda c: c.id)
def test_every_constraints_fast_draws_replay_under_hypothesis(constraint):
    scope = Scope(rmax=Fraction(1, 2)) if constraint.id == "Sat" else Scope()
    rng = random.Random(0)
    replayed = 0
    for _ in range(6):
        case, choices = constraint.strategy.sample(rng, scope)
        if case is None:
            continue
        again = shrink_from(constraint.strategy(scope), choices,
                            lambda c, case=case: (c.topic, c.a, c.b) == (case.topic, case.a, case.b))
        assert again is not None and (again.topic, again.a, again.b) == (case.topic, case.a, case.b)
        replayed += 1
    assert replayed >= 3
