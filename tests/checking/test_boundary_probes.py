"""How a boundary is searched (issue 14): a cell's checks along one parameter (CellProbe) with its
memory of counterexamples, in the cell's mode and seed; the declared ranges and the values probed;
``locate``'s first pass and another only after learning something.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
import sympy

from axiometer.axioms import get
from axiometer.checking.boundary import (_LONGEST_FORM, _SIMPLIFY_OPS, CellProbe, ParamRange, _log_form,
                                         declared_range, locate, probe_values, shortest_between)
from axiometer.checking.budget import Budget
from axiometer.core import InputError
from axiometer.metrics import adapt, parse
from axiometer.metrics.resolve import resolve
from axiometer.results import Check, Counterexample, TopicRecord
from tests.checking import HALF, harmonic_sum, increasing_sum, long_rankings_reversed, probed_check


# -- CellProbe: a cell's checks along one parameter, with a memory of counterexamples -----------------

#: Four non-relevant documents, then d5 with r = 1/10; b moves d5 to the top. With increasing
#: weights Q(a) = 5/10 > Q(b) = 1/10: a Pri violation no search of up to 3 documents meets.
FIVE = Counterexample(topic=TopicRecord(aspects=("*",), weights=("1",),
                                        judgments=tuple((f"d{i}", ("0",)) for i in range(1, 5))
                                        + (("d5", ("1/10",)),)),
                      a=("d1", "d2", "d3", "d4", "d5"), b=("d5", "d2", "d3", "d4", "d1"), score_a=0.5,
                      score_b=0.1, relation="Q(b) > Q(a)", note="b = a with positions 1 and 5 swapped",
                      decided="exact")
#: A search too small to meet FIVE, and no proof: the proof's long-ranking Pri probe, which runs at
#: every probed value, would find it (as it should), and these tests pin what the probe remembers.
TINY = Budget(cases=1, small_scope=30, proof_docs=0)


def _long_probe(constraint: str = "Pri") -> CellProbe:
    from axiometer.metrics.resolve import resolve
    metric = resolve(long_rankings_reversed, params={"s": (0, 1)}).metric
    return CellProbe(metric, get(constraint), "s", mode=None, budget=TINY, seed=0)


def test_a_counterexample_found_elsewhere_is_re_decided_at_every_value():
    probe = _long_probe()
    searched = probe(Fraction(1, 2))
    assert searched.verdict == "satisfied" and probe.learned == 0  # 30 cases of up to 3 documents
    probe.learn(FIVE)
    assert probe.learned == 1
    redecided = probe(Fraction(1, 2))  # the search is not run again; the known case decides
    assert redecided.verdict == "violated" and redecided.evidence is None
    assert redecided.counterexample.a == FIVE.a and redecided.counterexample.b == FIVE.b
    assert redecided.counterexample.note == FIVE.note  # how b was built, as the case said
    assert redecided.note.endswith("a counterexample found at another value of s, re-decided here")
    assert probe.searched[Fraction(1, 2)] is searched  # the search's own result is kept as it was


def test_only_a_universal_constraints_plain_counterexample_is_remembered():
    # A threshold constraint's verdict is no "for every case": one case found elsewhere decides nothing.
    probe = _long_probe("DeepTh")
    probe.learn(FIVE)
    assert probe.learned == 0
    # A relative metric's counterexample holds only under its context: not re-decided elsewhere.
    probe = _long_probe()
    probe.learn(replace(FIVE, context_a=(("x",),)))
    assert probe.learned == 0


def test_a_violated_probe_teaches_the_others():
    probe = _long_probe()
    probe.budget = Budget(cases=50, small_scope=400)  # enough to reach 5 documents
    assert probe(Fraction(1, 5)).verdict == "violated" and probe.learned == 1
    probe.budget = TINY
    assert probe(Fraction(4, 5)).verdict == "violated"  # the search alone would say satisfied


def test_probe_values_reach_the_metric_as_ints_short_decimals_or_exact_fractions():
    probe = _long_probe()
    values = {v: dict(probe(v).params)["s"] for v in (Fraction(1), Fraction(4, 5), Fraction(3, 19))}
    assert values == {Fraction(1): 1, Fraction(4, 5): 0.8, Fraction(3, 19): Fraction(3, 19)}
    assert type(values[Fraction(1)]) is int and type(values[Fraction(4, 5)]) is float


# -- ranges and probes ----------------------------------------------------------------------------------

def test_a_range_must_be_increasing_one_line():
    import pytest
    from axiometer.core import InputError
    with pytest.raises(InputError) as error:
        ParamRange("p", Fraction(9, 10), Fraction(1, 2))
    assert str(error.value) == "the range of p must have low < high, got 0.9..0.5"
    with pytest.raises(InputError, match="got 0.5..0.5"):
        ParamRange("p", Fraction(1, 2), Fraction(1, 2))


def test_a_range_contains_its_closed_ends_only():
    closed_low = ParamRange("p", Fraction(0), Fraction(1), low_open=False, high_open=True)
    assert [closed_low.contains(v) for v in (-0.1, 0, 0.5, 1, 1.5)] == [False, True, True, False, False]
    open_low = ParamRange("p", Fraction(0), Fraction(1), low_open=True, high_open=False)
    assert [open_low.contains(v) for v in (-0.1, 0, 0.5, 1, 1.5)] == [False, False, True, True, False]
    # An open end is probed a thousandth of the range's width inside it.
    assert ParamRange("e", Fraction(0), Fraction(2), high_open=True).ends() == (Fraction(0), Fraction(1998, 1000))
    assert ParamRange("a", Fraction(1, 2), Fraction(1), low_open=True).ends() == (Fraction(1001, 2000), Fraction(1))


def test_declared_ranges_of_built_ins():
    from axiometer.checking.boundary import ParamRange as R
    assert declared_range(parse("RBP"), "p") == R("p", Fraction(0), Fraction(1), True, True)
    assert declared_range(parse("EU"), "alpha") == R("alpha", Fraction(0), Fraction(1), False, True)
    # EU's effort has no upper bound: twice the largest grid value, 2 x 0.5.
    assert declared_range(parse("EU"), "e") == R("e", Fraction(0), Fraction(1), False, False)
    # Not numeric, not varied by the checks, or not a parameter at all: no range.
    assert declared_range(parse("RBU@10"), "form") is None
    assert declared_range(parse("P@10"), "rel") is None
    assert declared_range(parse("RBP"), "q") is None
    assert declared_range(parse("NRG"), "base") is None  # a string without choices, varied by no check
    assert declared_range(adapt(object()), "p") is None  # an object declaring no parameters at all


def test_declared_ranges_without_bounds_come_from_the_grid():
    from axiometer.metrics import wrap
    from axiometer.metrics.base import Param
    # No low: the grid's smallest value minus 1; no high: twice its largest. A bound that is not
    # given cannot be open.
    def scored(ranking, topic, **params):
        return harmonic_sum(ranking, topic)

    gridded = wrap(scored, "g", params={"g": 0.5}, param_info=[
        Param("g", float, 0.5, "a weight", low_open=True, high_open=True, grid=(0.2, 0.6))])
    assert declared_range(gridded, "g") == ParamRange("g", Fraction(-4, 5), Fraction(6, 5))
    bare = wrap(scored, "b", params={"b": 0}, param_info=[Param("b", int, 0, "a shift")])
    assert declared_range(bare, "b") == ParamRange("b", Fraction(-1), Fraction(1))
    capped = wrap(scored, "c", params={"c": 2}, param_info=[
        Param("c", int, 2, "a count", high=10, low_open=True, high_open=True, grid=(2, 4))])
    assert declared_range(capped, "c") == ParamRange("c", Fraction(1), Fraction(10), False, True)


def test_probes_of_a_closed_range():
    # [0, 1]: the ends and the shortest decimal within 1/32 of each i/8 (rounding half to even on
    # ties: 0.125 -> 0.12, 0.375 -> 0.38), plus the given values inside the range.
    span = ParamRange("p", Fraction(0), Fraction(1))
    assert probe_values(span, (0.3, 1.2, 0)) == tuple(Fraction(v) for v in (
        "0", "0.12", "0.25", "0.3", "0.38", "0.5", "0.62", "0.75", "0.88", "1"))


@pytest.mark.parametrize("low, high, middle", [
    ("0", "1", "0.5"),
    ("0.1", "0.2", "0.15"),      # middle half [0.125, 0.175]: 0.2 (one digit) lies outside
    ("0", "1/3", "0.2"),         # middle half [1/12, 1/4]
    ("3", "7", "5"),
    ("0.754877", "0.754879", "0.754878"),
    ("0.6", "2.2", "1"),         # middle half [1, 1.8]: its lower end itself, an integer
    ("-0.2", "1.4", "1"),        # middle half [0.2, 1]: its upper end itself
    ("0.85", "1.55", "1.2"),     # middle half [1.025, 1.375]: 1 lies outside (inside the middle 3/5)
])
def test_the_shortest_decimal_in_the_middle_half(low, high, middle):
    from axiometer.checking.boundary import shortest_between
    assert shortest_between(Fraction(low), Fraction(high)) == Fraction(middle)


def test_a_log_form_is_written_out_up_to_its_length_and_size_limits():
    """_log_form writes the equation while it fits: at most _LONGEST_FORM characters (a form of
    exactly 160 is written), at most _SIMPLIFY_OPS operations (a numerator of exactly 200 is
    expanded and, too long to print, told by its degree); past them, a summary."""
    alpha = sympy.Symbol("alpha")
    at_limit = alpha * sympy.log(2) - sympy.Integer(10**144 + 7)  # its form: 160 characters
    text = _log_form(at_limit, alpha)
    assert text == f"root of {sympy.sstr(at_limit)} = 0" and len(sympy.sstr(at_limit)) == _LONGEST_FORM
    past = alpha * sympy.log(2) - sympy.Integer(10**145 + 7)
    assert _log_form(past, alpha) == ("root of a degree-1 polynomial in y = 1 - alpha with "
                                      "logarithmic coefficients")

    def series(terms: int) -> sympy.Expr:
        return sum(sympy.log(m + 2) * alpha**m for m in range(terms))

    assert sympy.count_ops(series(51)) == _SIMPLIFY_OPS
    assert _log_form(series(51), alpha).startswith("root of a degree-50 polynomial in y = 1 - alpha")
    assert _log_form(series(52), alpha) == "root of a score difference with logarithmic coefficients"


# -- locate: the values probed first, and another pass only after learning something ----------------------

class _StepProbe:
    """Violated below 1/2, satisfied from 1/2 on; ``learns`` on its first call if asked to."""

    def __init__(self, learned: int = 0, learns: bool = False):
        self.learned, self.learns, self.calls = learned, learns, []

    def __call__(self, value: Fraction) -> Check:
        if self.learns and not self.calls:
            self.learned += 1
        self.calls.append(value)
        return probed_check("violated" if value < HALF else "satisfied")


def _first_pass(probe: _StepProbe) -> list[Fraction]:
    return list(probe_values(ParamRange("s", Fraction(0), Fraction(1)), [Fraction("0.123")]))


def test_locate_probes_the_given_values_first():
    probe = _StepProbe()
    (boundary,) = locate(object(), get("Pri"), ParamRange("s", Fraction(0), Fraction(1)), probe,
                         given=[Fraction("0.123"), Fraction(7)])  # 7 lies outside the range: not probed
    first = _first_pass(probe)
    assert Fraction("0.123") in first and probe.calls[:len(first)] == first
    # The step is at 0.5, which belongs to the upper side; with no closed form the bracket narrows
    # past 1e-6 until both its ends print as 0.5 (correctly rounded to 6 digits).
    assert Fraction(7) not in probe.calls and boundary.bracket[1] == "0.5"
    assert Fraction("0.4999995") <= Fraction(boundary.bracket[0]) < Fraction("0.5")


@pytest.mark.parametrize("learned, learns, passes", [(0, False, 1), (3, False, 1), (0, True, 2), (3, True, 2)])
def test_locate_passes_again_only_after_a_probe_learned_a_case(learned, learns, passes):
    probe = _StepProbe(learned, learns)
    locate(object(), get("Pri"), ParamRange("s", Fraction(0), Fraction(1)), probe, given=[Fraction("0.123")])
    first = _first_pass(probe)
    assert [v for v in probe.calls if v == Fraction("0.123")] == [Fraction("0.123")] * passes
    assert probe.calls[:len(first)] == first


def test_probes_start_at_the_ranges_low_end_not_before_it():
    """The subdivisions are the seven inner eighths: none near the low end itself, where a short
    decimal just above it (0.13 next to 0.127) would be one more probe than the range asked for."""
    values = probe_values(ParamRange("p", Fraction("0.127"), Fraction("0.927")))
    assert len(values) == 9 and Fraction("0.13") not in values
    assert values[:2] == (Fraction("0.127"), Fraction("0.23"))


# -- CellProbe: its checks in the cell's mode and seed; what re-deciding a known case keeps ----------------

def test_a_probes_checks_run_in_the_cells_mode():
    for mode in ("window", "truncate"):
        probe = CellProbe(parse("RBP@4"), get("DeepTh"), "p", mode=mode, budget=Budget(horizon=8), seed=0)
        assert probe(HALF).mode == mode


def test_a_probes_checks_use_the_cells_seed():
    """The random search's case count depends on the seed (22 cases at seed 7, 28 at seed 0, for the
    violation of five documents): the probe's check is the cell's, seed included."""
    from axiometer.checking import check
    budget = Budget(cases=50, small_scope=30)
    probe = _long_probe()
    probe.budget = budget
    probe.seed = 7
    at_seven = check(probe.metric.replace(s=0.5), get("Pri"), budget=budget, seed=7)
    at_zero = check(probe.metric.replace(s=0.5), get("Pri"), budget=budget, seed=0)
    assert at_seven.cases != at_zero.cases  # the seed shows
    assert probe(HALF).cases == at_seven.cases


def test_a_re_decided_result_keeps_the_searchs_note_first():
    probe = _long_probe()
    probe.learn(FIVE)
    redecided = probe._with_known(probe.metric.replace(s=0.5), probed_check("satisfied", note="time budget (1 s) reached"))
    assert redecided.verdict == "violated"
    assert redecided.note == ("time budget (1 s) reached; a counterexample found at another value of s, "
                              "re-decided here")


def test_only_a_satisfied_result_is_re_decided():
    probe = _long_probe()
    probe.learn(FIVE)
    violated = probed_check("violated", FIVE)
    assert probe._with_known(probe.metric.replace(s=0.5), violated) is violated


def slow_on_five(ranking, topic, s=0.5):
    """Increasing weights (Pri fails on FIVE), but a second per ranking of five documents or more."""
    if len(ranking) >= 5:
        import time
        time.sleep(1)
    return increasing_sum(ranking, topic)


def test_a_known_case_the_metric_takes_too_long_on_overturns_nothing():
    """Re-deciding a known case runs the metric under the case time limit: past it, the case decides
    nothing (no counterexample, a timeout), and the searched result stands."""
    from axiometer.metrics.resolve import resolve
    metric = resolve(slow_on_five, params={"s": (0, 1)}).metric
    probe = CellProbe(metric, get("Pri"), "s", mode=None, budget=Budget(cases=1, small_scope=30, case_seconds=0.05),
                      seed=0)
    probe.learn(FIVE)
    searched = probed_check("satisfied")
    assert probe._with_known(metric.replace(s=0.5), searched) is searched
