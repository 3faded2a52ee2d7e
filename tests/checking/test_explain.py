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

import pytest

from axiometer.checking import explain as explain_module
from axiometer.axioms import get
from axiometer.checking import Budget, check
from axiometer.checking.explain import OTHER_MODE_TEXT, dependence_condition, explain
from axiometer.metrics import parse, wrap
from axiometer.results import Check

#: Small budgets: the suite stays fast; every search here is deterministic (seeded).
BUDGET = Budget(cases=60, small_scope=400, seconds=20.0, horizon=256)
SEED = 3


def _explain(metric, constraint_id: str, *, mode: str | None = None, budget: Budget = BUDGET,
             grid: tuple[Check, ...] = ()) -> tuple[Check, str | None]:
    """Check, confirm the violation the test is about, and explain it."""
    constraint = get(constraint_id)
    violated = check(metric, constraint, mode=mode, budget=budget, seed=SEED)
    assert violated.verdict == "violated", f"premise: {metric.name} should violate {constraint_id}"
    return violated, explain(metric, constraint, violated, budget=budget, seed=SEED, grid_checks=grid)


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
    _, text = _explain(metric, "DeepTh", mode="window")
    assert text == OTHER_MODE_TEXT["truncate"]
    assert text == "holds in truncate mode (the cutoff acts as a threshold)"


def test_a_swap_past_the_cutoff_is_explained_by_window_mode():
    # DCG@3 in truncate mode: swapping positions 3 and 4 moves nothing the metric
    # sees (one of them is past k), so Q(b) = Q(a); inside the window it holds.
    metric = wrap(dcg, "dcg", cutoff=3)
    violated, text = _explain(metric, "Pri", mode="truncate")
    assert _swapped(violated)[1] > 3
    assert text == "holds when the changed positions stay within the cutoff (window mode)"


def test_later_relevant_documents_are_explained_by_the_priority_reading():
    reading = get("Pri").readings[0]
    assert reading.scope == {"later_untouched": True}
    violated, text = _explain(LATER_SENSITIVE, "Pri")
    # The counterexample has a relevant document after the swapped positions.
    later = violated.counterexample.a[_swapped(violated)[1]:]
    relevance = dict(violated.counterexample.topic.judgments)
    assert any(Fraction(relevance[d][0]) > 0 for d in later)
    assert text == f"holds when {reading.text}"


def test_large_relevance_values_are_explained_by_a_smaller_rho():
    untouched = check(CONTRIBUTION_SENSITIVE, get("Pri"), budget=BUDGET, seed=SEED,
                      scope_changes={"later_untouched": True})
    assert untouched.verdict == "violated", "premise: fails even with nothing relevant later"
    _, text = _explain(CONTRIBUTION_SENSITIVE, "Pri")
    assert text == "holds when relevance contribution is tighter (rho = 1/100)"


def test_a_patient_metric_is_explained_by_a_longer_horizon():
    metric = wrap(rbp_099, "rbp_099")
    _, text = _explain(metric, "DeepTh")
    assert text == "holds with horizon 512"


def test_closeness_failing_for_one_rc_is_explained_by_the_other_rc_values():
    metric = wrap(clear_relevance_counts, "clear_relevance_counts")
    violated, text = _explain(metric, "CloseTh")
    assert dict(violated.counterexample.extra)["rc"] == "1/100"
    assert text == "holds for rc >= 1/20"


def test_rbp_closeness_at_p_one_half_is_explained_by_the_other_patience_values():
    # definitions §3: CloseTh holds for RBP at p = 0.8 but not at p = 0.5.
    base = parse("RBP(p=0.5)")
    grid = tuple(check(base.replace(p=p), get("CloseTh"), budget=BUDGET, seed=SEED) for p in (0.8, 0.9, 0.99))
    assert all(c.holds for c in grid)
    _, text = _explain(base, "CloseTh", grid=grid)
    assert text == "holds for p >= 0.8"


def test_a_metric_violating_under_every_reading_gets_no_explanation():
    metric = wrap(reversed_dcg, "reversed_dcg", cutoff=5)
    other_settings = (check(wrap(reversed_dcg, "reversed_dcg_again", cutoff=5), get("Pri"), budget=BUDGET,
                            seed=SEED),)
    _, text = _explain(metric, "Pri", grid=other_settings)
    assert text is None


def test_precision_deepness_threshold_in_window_mode_is_explained_by_truncation():
    # Built-in P@10 (definitions §7: DeepTh "satisfied" holds only by truncation).
    _, text = _explain(parse("P@10"), "DeepTh", mode="window")
    assert text == "holds in truncate mode (the cutoff acts as a threshold)"


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
