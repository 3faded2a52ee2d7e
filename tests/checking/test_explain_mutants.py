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
from axiometer.checking.explain import dependence_condition, explain
from axiometer.metrics import wrap
from axiometer.results import Check, Counterexample, TopicRecord

SEED = 7
RHO = Fraction(1, 5)
TOLERANCE = 1e-7


def _flat(ranking, topic) -> float:
    return 0.0


def _violated(mode: str, rc: str | None = "1/100") -> Check:
    """A DeepTh violation as the engine reports it: the counterexample names the failing ``rc``."""
    extra = (("rc", rc),) if rc is not None else ()
    example = Counterexample(topic=TopicRecord(aspects=("a",), weights=("1",), judgments=()),
                             a=("d1",), b=("d2",), score_a=0.0, score_b=0.0, relation="D(n) > 0",
                             note="", decided="exact", extra=extra)
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
    calls = recorder.calls
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
    for call in recorder.calls[1:] if cutoff is not None else recorder.calls:
        # Every threshold reading is the same check: same mode, seed, rho and tolerance.
        assert (call["mode"], call["seed"], call["rho"], call["tolerance"]) == (mode, SEED, RHO, TOLERANCE)
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
