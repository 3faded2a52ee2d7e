"""Mutation gaps of :mod:`axiometer.checking.explain` (issue 14): the order of the readings and
what each reuses, and the wording of parameter dependence on partial grids.

The reading-order tests replace ``run_check`` by a recorder that answers from a table, so they
pin which checks :func:`explain` runs (definitions §3: nearest reading first, the same seed,
budget, rho and tolerance for every reading) without running any search: they take milliseconds.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from axiometer.axioms import get
from axiometer.axioms.constraints.threshold import DEFAULT_RCS
from axiometer.checking import Budget
from axiometer.checking import explain as explain_module
from axiometer.checking.explain import dependence_condition, explain, value_set_text
from axiometer.metrics import wrap
from axiometer.results import Check, Counterexample, Decided, TopicRecord

SEED = 7
RHO = Fraction(1, 5)
TOLERANCE = 1e-7


def _flat(ranking, topic) -> float:
    return 0.0


def _violated(mode: str, rc: str | None = "1/100") -> Check:
    """A DeepTh violation as the engine reports it: the counterexample names the failing ``rc``
    (shown in ``extra``, as data in ``rc``)."""
    extra = (("rc", rc),) if rc is not None else ()
    example = Counterexample(topic=TopicRecord(aspects=("a",), weights=("1",), judgments=()),
                             a=("d1",), b=("d2",), score_a=0.0, score_b=0.0, relation="D(n) > 0",
                             note="", decided=Decided.EXACT, extra=extra,
                             rc=Fraction(rc) if rc is not None else None)
    return Check(constraint="DeepTh", metric="flat@10", params=(), verdict="violated", mode=mode,
                 counterexample=example)


class Recorder:
    """Stands in for ``run_check``: records every call's keywords; holds only where ``holding`` says."""

    def __init__(self, holding=lambda kwargs: False) -> None:
        self.calls: list[dict] = []
        self.holding = holding

    def __call__(self, metric, constraint, **kwargs) -> Check:
        self.calls.append(kwargs)
        verdict = "satisfied" if self.holding(kwargs) else "violated"
        return Check(constraint=constraint.id, metric=metric.name, params=(), verdict=verdict,
                     mode=kwargs.get("mode") or "default")


def _explain(monkeypatch, recorder: Recorder, *, mode: str, cutoff: int | None, horizon: int,
             rcs=DEFAULT_RCS, failing: str | None = "1/100") -> str | None:
    monkeypatch.setattr(explain_module, "run_check", recorder)
    metric = wrap(_flat, "flat", cutoff=cutoff)
    budget = Budget(cases=10, small_scope=10, horizon=horizon)
    return explain(metric, get("DeepTh"), _violated(mode, failing), budget=budget, seed=SEED, rho=RHO,
                   tolerance=TOLERANCE, rcs=rcs)


# -- DeepTh's readings: the other mode, a doubled horizon, each rc alone --------------------------------

@pytest.mark.parametrize("mode, cutoff, horizon, longer", [
    # Window mode at k = 10: the grid stops at n = 5 (2n <= k); horizon 5 already reaches it,
    # so doubling it changes nothing and is not tried; horizon 4 stops short of n = 5 (2 * 4 < 10).
    ("window", 10, 5, False),
    ("window", 10, 4, True),
    # Truncate mode, or no cutoff: the grid runs to the horizon, so a longer one may reach further.
    ("truncate", 10, 5, True),
    ("truncate", None, 5, True),
])
def test_deepth_tries_a_doubled_horizon_only_where_the_grid_can_grow(monkeypatch, mode, cutoff, horizon,
                                                                     longer):
    recorder = Recorder()
    assert _explain(monkeypatch, recorder, mode=mode, cutoff=cutoff, horizon=horizon) is None
    calls = list(recorder.calls)  # a copy: the checks below of every call need the ones popped here
    if cutoff is not None:  # reading 1: the other cutoff mode, with the check's own settings
        first = calls.pop(0)
        assert first["mode"] == {"window": "truncate", "truncate": "window"}[mode]
        assert first["budget"].horizon == horizon
    if longer:  # reading 5a: the same check at twice the horizon
        doubled = calls.pop(0)
        assert doubled["budget"].horizon == 2 * horizon
        assert doubled["rcs"] == DEFAULT_RCS
    # Reading 5b: each rc alone, but not 1/100, at which the check itself already failed.
    assert [c["rcs"] for c in calls] == [(Fraction(1, 20),), (Fraction(1, 10),)]
    for call in recorder.calls:
        # Every reading is the same check otherwise: same seed, rho and tolerance; the threshold
        # readings also in the check's mode.
        assert (call["seed"], call["rho"], call["tolerance"]) == (SEED, RHO, TOLERANCE)
    assert all(call["mode"] == mode for call in recorder.calls[1 if cutoff is not None else 0:])
    for call in calls:
        assert call["budget"].horizon == horizon


def test_the_doubled_horizon_that_holds_is_the_explanation(monkeypatch):
    recorder = Recorder(lambda kwargs: kwargs["budget"].horizon == 8)
    assert _explain(monkeypatch, recorder, mode="truncate", cutoff=None, horizon=4) == "holds with horizon 8"
    assert [c["budget"].horizon for c in recorder.calls] == [8]  # the first reading that holds ends it


def test_two_rc_values_are_tried_one_at_a_time(monkeypatch):
    # With rcs = (1/100, 1/20) and the check failing at 1/100, 1/20 alone is tried and holds.
    rcs = (Fraction(1, 100), Fraction(1, 20))
    recorder = Recorder(lambda kwargs: kwargs["rcs"] == (Fraction(1, 20),))
    text = _explain(monkeypatch, recorder, mode="truncate", cutoff=None, horizon=4, rcs=rcs)
    assert text == "holds for rc = 1/20"
    assert [c["rcs"] for c in recorder.calls] == [rcs, (Fraction(1, 20),)]
    # One rc only: the check was that rc alone already, so it is not run again (the recorder would
    # say it holds: the counterexample names no rc here, so nothing else would skip it).
    recorder = Recorder(lambda kwargs: kwargs["rcs"] == (Fraction(1, 20),) and kwargs["budget"].horizon == 4)
    assert _explain(monkeypatch, recorder, mode="truncate", cutoff=None, horizon=4,
                    rcs=(Fraction(1, 20),), failing=None) is None
    assert [c["rcs"] for c in recorder.calls] == [(Fraction(1, 20),)]  # the doubled horizon only


def test_without_a_named_rc_every_rc_is_tried_alone(monkeypatch):
    # A counterexample that names no rc (or a check without one) skips none of them.
    recorder = Recorder()
    assert _explain(monkeypatch, recorder, mode="truncate", cutoff=None, horizon=4, failing=None) is None
    assert [c["rcs"] for c in recorder.calls[1:]] == [(rc,) for rc in DEFAULT_RCS]
    monkeypatch.setattr(explain_module, "run_check", recorder := Recorder())
    no_example = replace(_violated("truncate"), counterexample=None)
    budget = Budget(cases=10, small_scope=10, horizon=4)
    explain(wrap(_flat, "flat"), get("DeepTh"), no_example, budget=budget, seed=SEED)
    assert [c["rcs"] for c in recorder.calls[1:]] == [(rc,) for rc in DEFAULT_RCS]


# -- dependence_condition -------------------------------------------------------------------------------

def _check(verdict: str, metric: str, **params) -> Check:
    return Check(constraint="CloseTh", metric=metric, params=tuple(params.items()), verdict=verdict,
                 mode="truncate")


def test_one_setting_has_no_dependence():
    # Nothing varies across one check (or several at the same setting): no condition to state.
    assert dependence_condition([_check("violated", "M(p=0.5)", p=0.5)]) is None
    assert dependence_condition([_check("violated", "M(p=0.5)", p=0.5),
                                 _check("satisfied", "M'(p=0.5)", p=0.5)]) is None


def test_a_parameter_named_k_is_not_overwritten_by_the_cutoff():
    # A metric author's parameter k (a saturation constant, say) at cutoff 10: the cutoff read from
    # the name ("@10") does not replace it, so the condition is on the parameter's own values.
    checks = [_check("violated", "M(k=1)@10", k=1), _check("witness", "M(k=2)@10", k=2),
              _check("witness", "M(k=3)@10", k=3)]
    assert dependence_condition(checks) == "k >= 2"


def test_grouping_on_a_partial_grid_compares_each_group_with_its_own_settings():
    # A partial grid: alpha = 0.1 tried at beta 0.5 (fails) and 0.9 (holds); alpha = 0.5 at beta
    # 0.5 and 0.99 (both hold). No parameter decides alone (alpha = 0.1 and beta = 0.5 both hold
    # and fail), and the holding settings are no box ((0.1, 0.5) lies in {0.1, 0.5} x
    # {0.5, 0.9, 0.99} but fails). Grouped by alpha: alpha = 0.1 holds at beta = 0.9 of the betas
    # it was tried with; alpha = 0.5 holds at every beta it was tried with, so it needs no "with"
    # (40 characters). Grouped by beta: "beta in {0.5, 0.99} with alpha = 0.5, beta = 0.9" (48);
    # the list of the three holding settings is longer still.
    grid = {(0.1, 0.5): "violated", (0.1, 0.9): "satisfied", (0.5, 0.5): "satisfied",
            (0.5, 0.99): "satisfied"}
    checks = [_check(verdict, f"M({alpha},{beta})", alpha=alpha, beta=beta)
              for (alpha, beta), verdict in grid.items()]
    assert dependence_condition(checks) == "alpha = 0.1 with beta = 0.9, alpha = 0.5"


# -- the universal constraints' readings, in order ------------------------------------------------------

BUDGET = Budget(cases=10, small_scope=10, horizon=16)


def _pri_violation(mode: str = "window", metric: str = "M(p=0.5)") -> Check:
    return Check(constraint="Pri", metric=metric, params=(("p", 0.5),), verdict="violated", mode=mode)


def _run(monkeypatch, recorder, metric, constraint: str, check: Check, rho=RHO, **kwargs) -> str | None:
    monkeypatch.setattr(explain_module, "run_check", recorder)
    return explain(metric, get(constraint), check, budget=BUDGET, seed=SEED, rho=rho, tolerance=TOLERANCE,
                   rcs=(Fraction(1, 20),), **kwargs)


def _same_settings(calls) -> None:
    """Every reading is one more check with the violated check's budget, seed, tolerance and rcs."""
    for call in calls:
        assert (call["budget"], call["seed"], call["tolerance"], call["rcs"]) == \
            (BUDGET, SEED, TOLERANCE, (Fraction(1, 20),))


def test_pri_readings_are_tried_nearest_first(monkeypatch):
    # A cutoff metric in window mode: the other mode, Pri's two declared readings, then the two
    # tighter rhos (Pri assumes a relevance contribution), each in the check's own mode.
    recorder = Recorder()
    metric = wrap(_flat, "flat", cutoff=5)
    assert _run(monkeypatch, recorder, metric, "Pri", _pri_violation()) is None
    later, between = ({"later_untouched": True}, {"between_untouched": True})
    assert [(c["mode"], c.get("scope_changes"), c["rho"]) for c in recorder.calls] == [
        ("truncate", None, RHO), ("window", later, RHO), ("window", between, RHO),
        ("window", None, Fraction(1, 100)), ("window", None, Fraction(1, 1000))]
    _same_settings(recorder.calls)


@pytest.mark.parametrize("holding, text", [
    (lambda c: c.get("scope_changes") == {"between_untouched": True},
     "holds when no relevant document lies between the swapped positions"),
    (lambda c: c["rho"] == Fraction(1, 1000), "holds when relevance contribution is tighter (rho = 1/1000)"),
])
def test_the_first_reading_that_holds_is_the_explanation(monkeypatch, holding, text):
    recorder = Recorder(holding)
    assert _run(monkeypatch, recorder, wrap(_flat, "flat"), "Pri", _pri_violation()) == text
    assert holding(recorder.calls[-1]) and not any(holding(c) for c in recorder.calls[:-1])


def test_only_tighter_rhos_than_the_checks_own_are_tried(monkeypatch):
    # rho = 1/100 already: only 1/1000 is tighter. rho = 1/1000: none is.
    recorder = Recorder()
    _run(monkeypatch, recorder, wrap(_flat, "flat"), "Pri", _pri_violation(), rho=Fraction(1, 100))
    assert [c["rho"] for c in recorder.calls] == [Fraction(1, 100)] * 2 + [Fraction(1, 1000)]
    recorder = Recorder()
    _run(monkeypatch, recorder, wrap(_flat, "flat"), "Pri", _pri_violation(), rho=Fraction(1, 1000))
    assert [c["rho"] for c in recorder.calls] == [Fraction(1, 1000)] * 2


def test_a_declared_smaller_rho_reading_is_not_tried_again(monkeypatch):
    # MRed declares "relevance values are at most 1/100" as a reading (scope rho = 1/100); the
    # tighter-rho step then tries only 1/1000. A constraint without the contribution condition
    # (Red) tries no tighter rho at all.
    recorder = Recorder()
    violation = replace(_pri_violation(), constraint="MRed")
    assert _run(monkeypatch, recorder, wrap(_flat, "flat"), "MRed", violation) is None
    assert [(c.get("scope_changes"), c["rho"]) for c in recorder.calls] == [
        ({"rho": Fraction(1, 100)}, RHO), (None, Fraction(1, 1000))]
    recorder = Recorder()
    _run(monkeypatch, recorder, wrap(_flat, "flat"), "Red", replace(violation, constraint="Red"))
    assert [c.get("scope_changes") for c in recorder.calls] == [{"values_within_rho": True}]


def test_a_relative_metric_is_tried_with_other_systems_that_retrieve_none_of_the_cases_documents(
        monkeypatch):
    from axiometer.metrics import Needs
    metric = wrap(lambda ranking, topic, context: 0.0, "relative", needs=Needs(context=True))
    recorder = Recorder(lambda c: c.get("scope_changes") == {"context_disjoint": True})
    text = _run(monkeypatch, recorder, metric, "Pri", _pri_violation())
    assert text == "holds when the other systems retrieve none of the case's documents"
    assert [(c["mode"], c["rho"]) for c in recorder.calls] == [("window", RHO)]
    _same_settings(recorder.calls)
    # A metric that is not relative skips that reading.
    recorder = Recorder(lambda c: c.get("scope_changes") == {"context_disjoint": True})
    assert _run(monkeypatch, recorder, wrap(_flat, "flat"), "Pri", _pri_violation()) is None


def test_an_other_mode_check_of_the_wrong_mode_is_run_again(monkeypatch):
    recorder = Recorder(lambda c: c["mode"] == "truncate")
    stale = Check(constraint="Pri", metric="M(p=0.5)", params=(), verdict="satisfied", mode="window")
    text = _run(monkeypatch, recorder, wrap(_flat, "flat", cutoff=5), "Pri", _pri_violation(),
                other_mode_check=stale)
    assert text == "holds in truncate mode (the cutoff acts as a threshold)"
    assert [c["mode"] for c in recorder.calls] == ["truncate"]


def test_only_the_same_cells_other_settings_explain_by_parameter(monkeypatch):
    # The other settings' checks count only for the same constraint and mode, once per metric name
    # (the violated check's own name included). Of the grid below only M(p=0.8) is such a
    # setting, and it holds: "p = 0.8" (one value, no threshold claimed). Counting the
    # truncate-mode or Deep checks would read "p >= 0.8"; the repeated names would mix verdicts.
    grid = (Check(constraint="Pri", metric="M(p=0.5)", params=(("p", 0.5),), verdict="satisfied", mode="window"),
            Check(constraint="Pri", metric="M(p=0.8)", params=(("p", 0.8),), verdict="satisfied", mode="window"),
            Check(constraint="Pri", metric="M(p=0.8)", params=(("p", 0.8),), verdict="violated", mode="window"),
            Check(constraint="Pri", metric="M(p=0.99)", params=(("p", 0.99),), verdict="satisfied",
                  mode="truncate"),
            Check(constraint="Deep", metric="M(p=0.9)", params=(("p", 0.9),), verdict="satisfied", mode="window"))
    recorder = Recorder()
    assert _run(monkeypatch, recorder, wrap(_flat, "flat"), "Pri", _pri_violation(), grid_checks=grid) == \
        "holds for p = 0.8"
    # No other setting holds: no parameter reading.
    assert _run(monkeypatch, Recorder(), wrap(_flat, "flat"), "Pri", _pri_violation(),
                grid_checks=grid[2:3]) is None
    # Another metric at the same setting holds: nothing varies, so no parameter to name.
    same = replace(grid[0], metric="M'(p=0.5)")
    assert _run(monkeypatch, Recorder(), wrap(_flat, "flat"), "Pri", _pri_violation(), grid_checks=(same,)) is None


# -- value_set_text: one parameter's holding values --------------------------------------------------------

@pytest.mark.parametrize("values, holding, text", [
    ([0.5, 0.8, 0.9], {0.8}, "p = 0.8"),                       # one value: no threshold claimed
    ([0.5, 0.8, 0.5], {0.5}, "p = 0.5"),                       # a value tried twice is one value
    ([0.9, 0.5, 0.8], {0.8, 0.9}, "p >= 0.8"),                 # numeric values are sorted first
    ([0.5, 0.8, 0.9], {0.5, 0.8}, "p <= 0.8"),
    ([0.5, 0.8, 0.9], {0.5, 0.8, 0.9}, "every p tried"),
    ([0.5, 0.8, 0.9, 0.99], {0.8, 0.9}, "0.8 <= p <= 0.9"),
    ([0.5, 0.8, 0.9, 0.99], {0.5, 0.9}, "p in {0.5, 0.9}"),
    ([0.5, 0.8, 0.9], {0.5, 0.9}, "p in {0.5, 0.9}"),           # both ends but not between: no "every"
    ([0.5, 0.8, 0.9], {0.8, 0.9, 0.95}, "p >= 0.8"),           # a holding value never tried is ignored
    ([5, 10, 20], {10, 20}, "p >= 10"),
    ([Fraction(1, 10), Fraction(1, 100), Fraction(1, 20)], {Fraction(1, 20), Fraction(1, 10)}, "p >= 1/20"),
])
def test_numeric_holding_values(values, holding, text):
    assert value_set_text("p", values, holding) == text


def test_numpy_numbers_read_as_numbers():
    # A grid a user built with numpy: its integers print as numbers, not as np.int64(10).
    import numpy as np  # a core dependency
    assert value_set_text("k", [np.int64(5), np.int64(10)], {np.int64(10)}) == "k = 10"
    assert value_set_text("k", [np.int64(5), np.int64(10), np.int64(20)],
                          {np.int64(10), np.int64(20)}) == "k >= 10"


def test_other_values_are_listed_in_the_order_tried():
    # Strings (and booleans, which are no numbers here) have no order to read a threshold from.
    assert value_set_text("gain", ["lin", "exp", "log"], {"log", "lin"}) == "gain in {'lin', 'log'}"
    assert value_set_text("gain", ["lin", "exp", "log"], {"exp"}) == "gain = 'exp'"
    assert value_set_text("flag", [True, False], {False, True}) == "flag in {True, False}"  # not "every"
    assert value_set_text("p", [0.9, "auto", 0.5], {0.9, 0.5}) == "p in {0.9, 0.5}"
