"""Tests of :mod:`axiometer.checking.explain`: explanations of violations and
the wording of parameter dependence.

Each hand-built metric below violates a constraint under exactly one family
of readings, for a reason shown by a line of algebra in its docstring
(independent of the checker); the test first confirms the premise with
:func:`check` (so a broken premise fails loudly rather than passing by
accident) and then that :func:`explain` names that reading.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from dataclasses import replace

import pytest

from axiometer.checking import explain as explain_module
from axiometer.axioms import get
from axiometer.checking import Budget, check
from axiometer.checking.explain import (OTHER_MODE_TEXT, declared_reading, dependence_condition, explain,
                                       value_set_text)
from axiometer.metrics import parse, wrap
from axiometer.results import Check, Counterexample, Decided, NearbyReading, TopicRecord
from axiometer.axioms.constraints.threshold import DEFAULT_RCS

#: Small budgets: the suite stays fast; every search here is deterministic (seeded).
BUDGET = Budget(cases=60, small_scope=400, seconds=20.0, horizon=256)
SEED = 3


def _explain(metric, constraint_id: str, *, mode: str | None = None, budget: Budget = BUDGET,
             grid: tuple[Check, ...] = ()) -> tuple[Check, str | None, NearbyReading | None]:
    """Check, confirm the violation the test is about, and explain it: its text and its reading."""
    constraint = get(constraint_id)
    violated = check(metric, constraint, mode=mode, budget=budget, seed=SEED)
    assert violated.verdict == "violated", f"premise: {metric.name} should violate {constraint_id}"
    explanation = explain(metric, constraint, violated, budget=budget, seed=SEED, grid_checks=grid)
    if explanation is None:
        return violated, None, None
    return violated, explanation.text, explanation.reading


def _swapped(violated: Check) -> tuple[int, int]:
    """The positions ``i < j`` a Pri counterexample swapped (from its note)."""
    found = re.search(r"positions (\d+) and (\d+) swapped", violated.counterexample.note)
    assert found, violated.counterexample.note
    return int(found.group(1)), int(found.group(2))


# -- hand-built metrics --------------------------------------------------------------------------

def _values(ranking, topic) -> list[Fraction]:
    return [Fraction(topic.r(d)) for d in ranking]


def precision(ranking, topic, k: int) -> float:
    """P@k."""
    return sum(1 for r in _values(ranking[:k], topic) if r > 0) / k


def dcg(ranking, topic) -> float:
    """``sum_i r(d_i) / i`` (harmonic discount): satisfies Pri whenever the swapped positions are seen."""
    return float(sum(r / i for i, r in enumerate(_values(ranking, topic), 1)))


def reversed_dcg(ranking, topic) -> float:
    """``-sum_i r(d_i) / i``: every Pri swap lowers it, under every reading and every mode."""
    return -dcg(ranking, topic)


def prefix_interaction(base: Callable[[int], Fraction], weight: Callable[[int], Fraction],
                       strength: Fraction) -> Callable:
    """``Q(d) = sum_q base(q) r_q + strength * sum_q r_q * sum_{p<q} weight(p) r_p``.

    For the Pri swap of positions ``i < j`` (``r_j > r_i``) a line of algebra gives
    ``Q(b) - Q(a) = (r_j - r_i) [ base(i) - base(j)
    - strength * sum_{i<p<j} r_p (weight(p) - weight(i))
    - strength * sum_{q>j} r_q (weight(j) - weight(i)) ]``:
    documents between the swapped positions and documents after them work
    against the swap, each with its own factor.
    """
    def q(ranking, topic) -> float:
        total, prefix = Fraction(0), Fraction(0)
        for position, r in enumerate(_values(ranking, topic), 1):
            total += base(position) * r + strength * r * prefix
            prefix += weight(position) * r
        return float(total)
    return q


#: Holds Pri only when nothing after the swap is relevant. With ``base(p) = -10^p/40``,
#: ``weight(p) = 10^p``: the between term is at most ``rho * 10^j / 9 < (10^j - 10^i) / 80``
#: for rho = 1/10, below ``base(i) - base(j) = (10^j - 10^i)/40``; one later document with
#: ``r >= 1/20`` makes the later term ``>= (10^j - 10^i)/20`` and the swap loses.
LATER_SENSITIVE = wrap(prefix_interaction(lambda p: -Fraction(10 ** p, 40), lambda p: Fraction(10 ** p),
                                          Fraction(1)), "later_sensitive")

#: Holds Pri only for small relevance values. With ``base(p) = 1/p``, ``weight(p) = p``,
#: ``strength = 3/2``: e.g. ``i = 2, j = 6`` with relevant documents in between at 1/10 gives
#: ``1/3 - 3/2 * (1/10) * (1 + 2 + 3) < 0`` even with nothing later; the interaction is
#: second order in ``r``, so at ``rho = 1/100`` the first-order term wins on every case of
#: up to 8 documents.
CONTRIBUTION_SENSITIVE = wrap(prefix_interaction(lambda p: Fraction(1, p), lambda p: Fraction(p),
                                                 Fraction(3, 2)), "contribution_sensitive")


def rbp_099(ranking, topic) -> float:
    """RBP with p = 0.99: ``D(n) = Q(a_n) - Q(b_n) > 0`` iff ``p^n (1 - p^n) < 1 - p``, i.e. n >= 459."""
    p = 0.99
    return (1 - p) * sum(p ** i * float(r) for i, r in enumerate(_values(ranking, topic)))


def clear_relevance_counts(ranking, topic) -> float:
    """Position-blind for relevance >= 1/20 (counts them), harmonic below.

    CloseTh: with ``rc >= 1/20``, ``Q(b_m) = m rc > rc = Q(a_m)`` for m >= 2;
    with ``rc = 1/100``, ``Q(b_m) = rc sum_{i=m+1}^{2m} 1/i < rc ln 2 < Q(a_m)``.
    """
    return float(sum(r if r >= Fraction(1, 20) else r / i
                     for i, r in enumerate(_values(ranking, topic), 1)))


# -- one reading each ---------------------------------------------------------------------------

def test_a_threshold_reached_only_by_truncation_is_explained_by_truncate_mode():
    # P@10 in window mode sees n <= 5: D(5) = 1/10 - 5/10 < 0. Truncated, b_n has
    # nothing relevant in the top 10 once n >= 10, so D(n) = 1/10 > 0.
    metric = wrap(precision, "precision", cutoff=10)
    _, text, reading = _explain(metric, "DeepTh", mode="window")
    assert text == OTHER_MODE_TEXT["truncate"]
    assert text == "holds in truncate mode (the cutoff acts as a threshold)"
    assert reading is NearbyReading.OTHER_MODE


def test_a_swap_past_the_cutoff_is_explained_by_window_mode():
    # DCG@3 in truncate mode: swapping positions 3 and 4 moves nothing the metric
    # sees (one of them is past k), so Q(b) = Q(a); inside the window it holds.
    metric = wrap(dcg, "dcg", cutoff=3)
    violated, text, reading = _explain(metric, "Pri", mode="truncate")
    assert _swapped(violated)[1] > 3
    assert text == "holds when the changed positions stay within the cutoff (window mode)"
    assert reading is NearbyReading.OTHER_MODE


def test_later_relevant_documents_are_explained_by_the_priority_reading():
    reading = get("Pri").readings[0]
    assert reading.scope == {"later_untouched": True}
    violated, text, found = _explain(LATER_SENSITIVE, "Pri")
    # The counterexample has a relevant document after the swapped positions.
    later = violated.counterexample.a[_swapped(violated)[1]:]
    relevance = dict(violated.counterexample.topic.judgments)
    assert any(Fraction(relevance[d][0]) > 0 for d in later)
    assert text == f"holds when {reading.text}"
    assert found is NearbyReading.CONSTRAINT


def test_a_declared_reading_that_only_tightens_rho_is_a_tighter_relevance_contribution():
    readings = {c: [declared_reading(r) for r in get(c).readings] for c in ("Pri", "AspDiv", "Red", "MRed")}
    assert readings["AspDiv"] == [NearbyReading.CONSTRAINT, NearbyReading.TIGHTER_RHO]  # "... (a smaller rho)"
    assert readings["MRed"] == [NearbyReading.TIGHTER_RHO]
    assert readings["Red"] == [NearbyReading.CONSTRAINT]  # relevance values within rho: not rho itself
    assert set(readings["Pri"]) == {NearbyReading.CONSTRAINT}


def test_large_relevance_values_are_explained_by_a_smaller_rho():
    untouched = check(CONTRIBUTION_SENSITIVE, get("Pri"), budget=BUDGET, seed=SEED,
                      scope_changes={"later_untouched": True})
    assert untouched.verdict == "violated", "premise: fails even with nothing relevant later"
    _, text, reading = _explain(CONTRIBUTION_SENSITIVE, "Pri")
    assert text == "holds when relevance contribution is tighter (rho = 1/100)"
    assert reading is NearbyReading.TIGHTER_RHO


def test_a_patient_metric_is_explained_by_a_longer_horizon():
    metric = wrap(rbp_099, "rbp_099")
    _, text, reading = _explain(metric, "DeepTh")
    assert text == "holds with horizon 512"
    assert reading is NearbyReading.LONGER_HORIZON


def test_closeness_failing_for_one_rc_is_explained_by_the_other_rc_values():
    metric = wrap(clear_relevance_counts, "clear_relevance_counts")
    violated, text, reading = _explain(metric, "CloseTh")
    assert dict(violated.counterexample.extra)["rc"] == "1/100"
    assert text == "holds for rc >= 1/20"
    assert reading is NearbyReading.SINGLE_RC  # not a parameter of the metric


def test_rbp_closeness_at_p_one_half_is_explained_by_the_other_patience_values():
    # definitions §3: CloseTh holds for RBP at p = 0.8 but not at p = 0.5.
    base = parse("RBP(p=0.5)")
    grid = tuple(check(base.replace(p=p), get("CloseTh"), budget=BUDGET, seed=SEED) for p in (0.8, 0.9, 0.99))
    assert all(c.holds for c in grid)
    _, text, reading = _explain(base, "CloseTh", grid=grid)
    assert text == "holds for p >= 0.8"
    assert reading is NearbyReading.PARAMETERS


def test_a_metric_violating_under_every_reading_gets_no_explanation():
    metric = wrap(reversed_dcg, "reversed_dcg", cutoff=5)
    other_settings = (check(wrap(reversed_dcg, "reversed_dcg_again", cutoff=5), get("Pri"), budget=BUDGET,
                            seed=SEED),)
    _, text, reading = _explain(metric, "Pri", grid=other_settings)
    assert text is None and reading is None


def test_precision_deepness_threshold_in_window_mode_is_explained_by_truncation():
    # Built-in P@10 (definitions §7: DeepTh "satisfied" holds only by truncation).
    _, text, reading = _explain(parse("P@10"), "DeepTh", mode="window")
    assert text == "holds in truncate mode (the cutoff acts as a threshold)"
    assert reading is NearbyReading.OTHER_MODE


# -- behaviour --------------------------------------------------------------------------------------

def test_only_violations_are_explained():
    metric = parse("nDCG@10")
    satisfied = check(metric, get("Pri"), budget=BUDGET, seed=SEED)
    assert satisfied.verdict == "satisfied"
    assert explain(metric, get("Pri"), satisfied, budget=BUDGET, seed=SEED) is None


def test_explanations_are_deterministic_and_stop_at_the_first_reading_that_holds(monkeypatch):
    metric = parse("P@10")
    constraint = get("DeepTh")
    violated = check(metric, constraint, mode="window", budget=BUDGET, seed=SEED)
    calls: list[dict] = []
    real = explain_module.run_check

    def counting(*args, **kwargs):
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(explain_module, "run_check", counting)
    first = explain(metric, constraint, violated, budget=BUDGET, seed=SEED)
    assert [c["mode"] for c in calls] == ["truncate"]  # the first reading held: nothing else was run
    assert explain(metric, constraint, violated, budget=BUDGET, seed=SEED) == first

    # A caller that already has the other mode's check saves that run.
    calls.clear()
    other = real(metric, constraint, mode="truncate", budget=BUDGET, seed=SEED)
    assert explain(metric, constraint, violated, budget=BUDGET, seed=SEED, other_mode_check=other) == first
    assert calls == []


# -- dependence_condition -------------------------------------------------------------------------------

def _check(verdict: str, metric: str = "M", **params) -> Check:
    return Check(constraint="CloseTh", metric=metric, params=tuple(params.items()), verdict=verdict,
                 mode="truncate")


def _grid(name: str, outcomes: dict) -> list[Check]:
    return [_check(verdict, f"M({name}={value})", **{name: value}) for value, verdict in outcomes.items()]


def test_dependence_monotone_upwards():
    checks = _grid("p", {0.5: "violated", 0.8: "witness", 0.9: "witness", 0.99: "satisfied"})
    assert dependence_condition(checks) == "p >= 0.8"


def test_dependence_monotone_downwards_in_any_order():
    checks = _grid("alpha", {0.5: "violated", 0.1: "witness", 0.75: "violated", 0.25: "witness"})
    assert dependence_condition(checks) == "alpha <= 0.25"


def test_dependence_non_monotone_lists_the_values():
    checks = _grid("p", {0.5: "satisfied", 0.8: "violated", 0.9: "satisfied", 0.99: "violated"})
    assert dependence_condition(checks) == "p in {0.5, 0.9}"


def test_dependence_on_an_inner_value_or_interval():
    one = _grid("p", {0.5: "violated", 0.8: "satisfied", 0.9: "violated"})
    assert dependence_condition(one) == "p = 0.8"
    two = _grid("p", {0.5: "violated", 0.8: "satisfied", 0.9: "satisfied", 0.99: "violated"})
    assert dependence_condition(two) == "0.8 <= p <= 0.9"


def test_dependence_on_one_of_two_parameters():
    checks = [_check("satisfied" if alpha <= 0.25 else "violated", f"M(a={alpha},b={beta})", alpha=alpha,
                     beta=beta) for alpha in (0.1, 0.25, 0.5) for beta in (0.5, 0.9)]
    assert dependence_condition(checks) == "alpha <= 0.25"


def test_dependence_on_a_partial_grid_names_the_deciding_parameter():
    # --quick's grid: the own setting, then one parameter at a time at its extremes.
    settings = {(0.5, 0.5): "violated", (0.1, 0.5): "violated", (0.75, 0.5): "violated",
                (0.5, 0.99): "witness"}
    checks = [_check(verdict, f"M({alpha},{beta})", alpha=alpha, beta=beta)
              for (alpha, beta), verdict in settings.items()]
    assert dependence_condition(checks) == "beta = 0.99"  # one grid value: no threshold claimed


def test_dependence_on_two_parameters_as_a_box():
    checks = [_check("satisfied" if alpha <= 0.25 and e >= 0.05 else "violated", f"M({alpha},{e})",
                     alpha=alpha, e=e) for alpha in (0.1, 0.25, 0.5) for e in (0.001, 0.05, 0.1)]
    assert dependence_condition(checks) == "alpha <= 0.25 and e >= 0.05"


def test_dependence_on_two_parameters_with_a_moving_threshold_is_grouped():
    # NRBP's CloseTh shape: the patience needed grows with alpha.
    needed = {0.1: 0.8, 0.25: 0.8, 0.5: 0.9, 0.75: 0.99}
    checks = [_check("witness" if beta >= needed[alpha] else "violated", f"M({alpha},{beta})", alpha=alpha,
                     beta=beta) for alpha in needed for beta in (0.5, 0.8, 0.9, 0.99)]
    # Grouped by beta (shorter than by alpha: "alpha <= 0.25 with beta >= 0.8, ..."): beta = 0.8
    # holds for alpha in {0.1, 0.25}, beta = 0.9 for alpha <= 0.5, beta = 0.99 for every alpha.
    assert dependence_condition(checks) == \
        "beta = 0.8 with alpha <= 0.25, beta = 0.9 with alpha <= 0.5, beta = 0.99"


def test_dependence_on_two_parameters_otherwise_lists_the_settings():
    holding = {(0.1, 0.5), (0.5, 0.9)}
    checks = [_check("satisfied" if (alpha, beta) in holding else "violated", f"M({alpha},{beta})",
                     alpha=alpha, beta=beta) for alpha in (0.1, 0.5) for beta in (0.5, 0.9)]
    assert dependence_condition(checks) == "(alpha, beta) in {(0.1, 0.5), (0.5, 0.9)}"


def test_dependence_reads_the_cutoff_from_the_metric_name():
    checks = [_check("violated", "P@5"), _check("witness", "P@10"), _check("witness", "P@20")]
    assert dependence_condition(checks) == "k >= 10"


@pytest.mark.parametrize("values", [(Fraction(1, 100), Fraction(1, 20), Fraction(1, 10))])
def test_dependence_prints_exact_values_as_fractions(values):
    checks = [_check("violated" if v == values[0] else "witness", f"M(rc={v})", rc=v) for v in values]
    assert dependence_condition(checks) == "rc >= 1/20"


def test_dependence_when_every_or_no_setting_holds():
    held = _grid("p", {0.8: "satisfied", 0.9: "witness", 0.99: "satisfied"})
    assert dependence_condition(held) == "every setting tried"
    assert dependence_condition(_grid("p", {0.8: "violated", 0.9: "error"})) == "no setting tried"
    assert dependence_condition([_check("violated")]) is None


# The order of the readings and what each reuses, and the wording of parameter dependence on
# partial grids (issue 14).
#
# The reading-order tests replace ``run_check`` by a recorder that answers from a table, so they
# pin which checks :func:`explain` runs (definitions §3: nearest reading first, the same seed,
# budget, rho and tolerance for every reading) without running any search: they take milliseconds.

READING_SEED = 7
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


def _explain_recorded(monkeypatch, recorder: Recorder, *, mode: str, cutoff: int | None, horizon: int,
             rcs=DEFAULT_RCS, failing: str | None = "1/100") -> str | None:
    monkeypatch.setattr(explain_module, "run_check", recorder)
    metric = wrap(_flat, "flat", cutoff=cutoff)
    budget = Budget(cases=10, small_scope=10, horizon=horizon)
    explanation = explain(metric, get("DeepTh"), _violated(mode, failing), budget=budget, seed=READING_SEED,
                          rho=RHO, tolerance=TOLERANCE, rcs=rcs)
    return None if explanation is None else explanation.text


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
    assert _explain_recorded(monkeypatch, recorder, mode=mode, cutoff=cutoff, horizon=horizon) is None
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
        assert (call["seed"], call["rho"], call["tolerance"]) == (READING_SEED, RHO, TOLERANCE)
    assert all(call["mode"] == mode for call in recorder.calls[1 if cutoff is not None else 0:])
    for call in calls:
        assert call["budget"].horizon == horizon


def test_the_doubled_horizon_that_holds_is_the_explanation(monkeypatch):
    recorder = Recorder(lambda kwargs: kwargs["budget"].horizon == 8)
    assert _explain_recorded(monkeypatch, recorder, mode="truncate", cutoff=None, horizon=4) == "holds with horizon 8"
    assert [c["budget"].horizon for c in recorder.calls] == [8]  # the first reading that holds ends it


def test_two_rc_values_are_tried_one_at_a_time(monkeypatch):
    # With rcs = (1/100, 1/20) and the check failing at 1/100, 1/20 alone is tried and holds.
    rcs = (Fraction(1, 100), Fraction(1, 20))
    recorder = Recorder(lambda kwargs: kwargs["rcs"] == (Fraction(1, 20),))
    text = _explain_recorded(monkeypatch, recorder, mode="truncate", cutoff=None, horizon=4, rcs=rcs)
    assert text == "holds for rc = 1/20"
    assert [c["rcs"] for c in recorder.calls] == [rcs, (Fraction(1, 20),)]
    # One rc only: the check was that rc alone already, so it is not run again (the recorder would
    # say it holds: the counterexample names no rc here, so nothing else would skip it).
    recorder = Recorder(lambda kwargs: kwargs["rcs"] == (Fraction(1, 20),) and kwargs["budget"].horizon == 4)
    assert _explain_recorded(monkeypatch, recorder, mode="truncate", cutoff=None, horizon=4,
                    rcs=(Fraction(1, 20),), failing=None) is None
    assert [c["rcs"] for c in recorder.calls] == [(Fraction(1, 20),)]  # the doubled horizon only


def test_without_a_named_rc_every_rc_is_tried_alone(monkeypatch):
    # A counterexample that names no rc (or a check without one) skips none of them.
    recorder = Recorder()
    assert _explain_recorded(monkeypatch, recorder, mode="truncate", cutoff=None, horizon=4, failing=None) is None
    assert [c["rcs"] for c in recorder.calls[1:]] == [(rc,) for rc in DEFAULT_RCS]
    monkeypatch.setattr(explain_module, "run_check", recorder := Recorder())
    no_example = replace(_violated("truncate"), counterexample=None)
    budget = Budget(cases=10, small_scope=10, horizon=4)
    explain(wrap(_flat, "flat"), get("DeepTh"), no_example, budget=budget, seed=READING_SEED)
    assert [c["rcs"] for c in recorder.calls[1:]] == [(rc,) for rc in DEFAULT_RCS]


# -- dependence_condition -------------------------------------------------------------------------------

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

SMALL_BUDGET = Budget(cases=10, small_scope=10, horizon=16)


def _pri_violation(mode: str = "window", metric: str = "M(p=0.5)") -> Check:
    return Check(constraint="Pri", metric=metric, params=(("p", 0.5),), verdict="violated", mode=mode)


def _run(monkeypatch, recorder, metric, constraint: str, check: Check, rho=RHO, **kwargs) -> str | None:
    monkeypatch.setattr(explain_module, "run_check", recorder)
    explanation = explain(metric, get(constraint), check, budget=SMALL_BUDGET, seed=READING_SEED, rho=rho,
                          tolerance=TOLERANCE, rcs=(Fraction(1, 20),), **kwargs)
    return None if explanation is None else explanation.text


def _same_settings(calls) -> None:
    """Every reading is one more check with the violated check's budget, seed, tolerance and rcs."""
    for call in calls:
        assert (call["budget"], call["seed"], call["tolerance"], call["rcs"]) == \
            (SMALL_BUDGET, READING_SEED, TOLERANCE, (Fraction(1, 20),))


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
