"""The table runner: parameter grids, summaries of parameter dependence,
determinism (same seed, any number of jobs), interruption, error cells,
projection, the other cutoff mode and explanations.

Hand-built metrics whose verdict is known from their formula (not from our
code) check that the runner reports what the checks find; RBP's CloseTh at
p = 0.5 versus p = 0.8 is definitions §3's stated parameter fact."""

from __future__ import annotations

import json
import os
import pickle
import signal
import threading
import time
from fractions import Fraction

import pytest

from axiometer.results import Explanation, NearbyReading, record

from axiometer.axioms import get, suggest
from axiometer.axioms.constraints.base import Constraint
from axiometer.checking import Budget
from axiometer.core import InputError
from axiometer.metrics import Needs, Param, parse, wrap
from axiometer import runner
from axiometer.runner import describe_grid, parameter_grid, run_table
from tests.cli_run import timeless

#: Small but without time pressure: a check must never stop on its clock in these tests,
#: or determinism would depend on the machine's speed.
SMALL = Budget(cases=25, small_scope=60, seconds=60.0, horizon=64)


# -- hand-built metrics (module level, so that worker processes can unpickle them) --------

def signed_reciprocal_gain(ranking, topic, w):
    """``w * sum_i r(d_i) / i``: for ``w > 0`` moving a more relevant document up strictly
    raises it (Pri satisfied); for ``w < 0`` strictly lowers it (Pri violated)."""
    return w * sum(float(topic.r(d)) / i for i, d in enumerate(ranking, 1))


SIGNED = wrap(signed_reciprocal_gain, "signed", params={"w": 1.0},
              param_info=[Param("w", float, 1.0, "direction", grid=(-1.0, -0.5, 0.5, 1.0))],
              needs=Needs(aspects=False, graded=True))


def product_sign_gain(ranking, topic, u, v):
    """``u * v * sum_i r(d_i) / i``: Pri holds exactly when ``u * v > 0``."""
    return u * v * sum(float(topic.r(d)) / i for i, d in enumerate(ranking, 1))


PRODUCT = wrap(product_sign_gain, "product", params={"u": 1.0, "v": 1.0},
               param_info=[Param("u", float, 1.0, "first sign", grid=(-1.0, 1.0)),
                           Param("v", float, 1.0, "second sign", grid=(-1.0, 1.0, 2.0))],
               needs=Needs(aspects=False, graded=True))


def raises_on_long_rankings(ranking, topic):
    """Raises on any ranking of two or more documents."""
    if len(ranking) >= 2:
        raise ValueError("cannot score long rankings")
    return float(sum(topic.r(d) for d in ranking))


FAULTY = wrap(raises_on_long_rankings, "faulty", needs=Needs(aspects=False, graded=True))


RUN_PID = os.getpid()


def interrupting(ranking, topic):
    """Ctrl-C arriving while this metric is evaluated: SIGINT to the run's process (this test's),
    whether the metric runs there or in a supervised worker."""
    os.kill(RUN_PID, signal.SIGINT)
    time.sleep(10)
    return 0.0


INTERRUPTING = wrap(interrupting, "interrupting", needs=Needs(aspects=False, graded=True))


def slow_gain(ranking, topic):
    time.sleep(0.02)
    return sum(float(topic.r(d)) / i for i, d in enumerate(ranking, 1))


SLOW = wrap(slow_gain, "slow", needs=Needs(aspects=False, graded=True))


def verdicts(result):
    return {(c.row, c.constraint): c.verdict for c in result.cells}


# -- grids --------------------------------------------------------------------------

def test_grid_is_the_papers_grid_plus_the_table_extras_with_the_cutoff_fixed():
    settings = parameter_grid(parse("RBU(p=0.8,e=0.05)@10"))
    # p: the paper's {0.8, 0.9, 0.99} plus 0.5 (definitions §3: CloseTh at p = 0.5); e: {0.001, 0.05, 0.1, 0.5}.
    assert {s["p"] for s in settings} == {0.5, 0.8, 0.9, 0.99}
    assert {s["e"] for s in settings} == {0.001, 0.05, 0.1, 0.5}
    assert len(settings) == 16 and settings[0] == {"p": 0.8, "e": 0.05, "form": "paper"}
    assert {s["form"] for s in settings} == {"paper"}
    nrbp = parameter_grid(parse("NRBP(alpha=0.5,beta=0.5)"))
    assert {s["beta"] for s in nrbp} == {0.5, 0.8, 0.9, 0.99}  # ndeval's beta = 0.5 added
    assert {s["alpha"] for s in nrbp} == {0.1, 0.25, 0.5, 0.75}
    assert parameter_grid(parse("nDCG@10")) == ({},)


def test_quick_grid_is_the_default_setting_plus_each_parameters_extremes():
    settings = parameter_grid(parse("EU(alpha=0.5,e=0.05)"), quick=True)
    assert settings == ({"alpha": 0.5, "e": 0.05}, {"alpha": 0.1, "e": 0.05}, {"alpha": 0.75, "e": 0.05},
                        {"alpha": 0.5, "e": 0.001}, {"alpha": 0.5, "e": 0.5})


def test_fixed_parameters_and_user_grids():
    metric = parse("RBU(p=0.9,e=0.05)@10")
    settings = parameter_grid(metric, fixed={"p"}, grids={"e": (0.01, 0.02)})
    assert [(s["p"], s["e"]) for s in settings] == [(0.9, 0.05), (0.9, 0.01), (0.9, 0.02)]
    # A family-qualified grid wins over a plain one; the setting's own value is always kept.
    settings = parameter_grid(parse("RBP(p=0.8)"), grids={"p": (0.3,), "RBP.p": (0.6, 0.7)})
    assert [s["p"] for s in settings] == [0.8, 0.6, 0.7]


def test_explicit_spec_parameters_fix_the_grid():
    fixed = run_table(["RBP(p=0.5)"], ["Pri"], budget=SMALL, jobs=1).cells[0]
    assert [c.params for c in fixed.checks] == [(("p", 0.5),)]
    free = run_table(["RBP"], ["Pri"], budget=SMALL, jobs=1).cells[0]
    assert sorted(dict(c.params)["p"] for c in free.checks) == [0.5, 0.8, 0.9, 0.99]
    assert free.metric == "RBP(p=0.8)" and free.default_check.params == (("p", 0.8),)


def test_default_rows_are_the_20_table_rows():
    result = run_table(constraints=["CloseTh"], quick=True, jobs=1,
                       budget=Budget(cases=1, small_scope=1, seconds=30, horizon=8))
    assert len(result.rows) == 20 and result.rows[0] == "P@k" and result.rows[-1] == "RBU@k"
    assert result.cell("RBP", "CloseTh").metric == "RBP(p=0.8)"


# -- summaries ---------------------------------------------------------------------------

def test_summary_wording_on_a_metric_whose_verdict_flips_at_a_known_value():
    cell = run_table([SIGNED], ["Pri"], budget=SMALL, jobs=1).cells[0]
    assert [dict(c.params)["w"] for c in cell.checks] == [1.0, -1.0, -0.5, 0.5]
    assert cell.verdict == "satisfied"  # the default setting, w = 1
    assert cell.summary == "satisfied for w >= 0.5; violated for w <= -0.5"
    violated = [c for c in cell.checks if c.verdict == "violated"]
    assert violated and all(c.counterexample is not None for c in violated)


def test_summary_with_two_parameters_lists_the_failing_settings():
    cell = run_table([PRODUCT], ["Pri"], budget=SMALL, jobs=1).cells[0]
    failing = {(dict(c.params)["u"], dict(c.params)["v"]) for c in cell.checks if c.verdict == "violated"}
    assert failing == {(-1.0, 1.0), (-1.0, 2.0), (1.0, -1.0)}  # u * v < 0
    # Neither parameter decides alone: the minority verdict's settings, then "otherwise".
    assert cell.summary.endswith("; satisfied otherwise") or cell.summary.endswith("; violated otherwise")
    assert "u = -1.0 with v >= 1.0" in cell.summary or "v >= 1.0 with u = -1.0" in cell.summary


@pytest.mark.parametrize("outcomes, expected", [
    ([({"p": 0.5}, "violated"), ({"p": 0.8}, "witness"), ({"p": 0.9}, "witness")],
     "witness for p >= 0.8; violated for p = 0.5"),
    ([({"a": 0.1}, "witness"), ({"a": 0.25}, "violated"), ({"a": 0.5}, "violated")],
     "witness for a = 0.1; violated for a >= 0.25"),
    ([({"a": 1}, "satisfied"), ({"a": 2}, "violated"), ({"a": 3}, "violated"), ({"a": 4}, "satisfied")],
     "satisfied for a in {1, 4}; violated for 2 <= a <= 3"),
    ([({"a": 1}, "satisfied"), ({"a": 2}, "satisfied")], "satisfied"),
    ([({}, "n/a")], "n/a"),
    ([({"a": 1, "b": 1}, "satisfied"), ({"a": 1, "b": 2}, "error"), ({"a": 2, "b": 1}, "satisfied"),
      ({"a": 2, "b": 2}, "satisfied")], "error for a = 1 with b = 2; satisfied otherwise"),
    # One parameter decides although two vary: the other is left out.
    ([({"a": 1, "b": 1}, "violated"), ({"a": 1, "b": 2}, "violated"), ({"a": 2, "b": 1}, "satisfied"),
      ({"a": 2, "b": 2}, "satisfied")], "satisfied for a = 2; violated for a = 1"),
])
def test_describe_grid(outcomes, expected):
    assert describe_grid(outcomes) == expected


def test_rbp_closeness_threshold_depends_on_p_as_spec_states():
    """definitions §3: CloseTh holds for RBP at p = 0.8 but not at p = 0.5."""
    cell = run_table(["RBP"], ["CloseTh"], budget=SMALL, jobs=1).cells[0]
    by_p = {dict(c.params)["p"]: c.verdict for c in cell.checks}
    assert by_p[0.8] == "witness" and by_p[0.5] == "violated"
    assert cell.verdict == "witness" and "violated for p = 0.5" in cell.summary


# -- determinism ------------------------------------------------------------------------------

def test_same_seed_same_json_and_jobs_do_not_matter():
    specs = ["P@10", "RBP", SIGNED]
    constraints = ["Pri", "CloseTh"]
    first = run_table(specs, constraints, seed=7, budget=SMALL, jobs=1).to_dict()
    again = run_table(specs, constraints, seed=7, budget=SMALL, jobs=1).to_dict()
    parallel = run_table(specs, constraints, seed=7, budget=SMALL, jobs=2).to_dict()
    text = json.dumps(timeless(first), sort_keys=True)  # the same bytes but for the proofs' times
    assert text == json.dumps(timeless(again), sort_keys=True)
    assert text == json.dumps(timeless(parallel), sort_keys=True)
    assert first["seed"] == 7 and first["interrupted"] is False


def test_a_different_seed_changes_only_the_search_not_the_verdicts():
    a = run_table(["P@10", "nDCG@10"], ["Pri"], seed=1, budget=SMALL, jobs=1)
    b = run_table(["P@10", "nDCG@10"], ["Pri"], seed=2, budget=SMALL, jobs=1)
    assert verdicts(a) == verdicts(b) == {("P@10", "Pri"): "violated", ("nDCG@10", "Pri"): "satisfied"}


def test_every_builtin_row_pickles_so_its_tasks_run_in_the_pool():
    # Tasks carry metric objects resolved once in the parent; NRG and Unique hold closures
    # and travel by their __reduce__.
    from axiometer.metrics import RELATIVE_ROWS, TABLE_ROWS

    for _, spec in (*TABLE_ROWS, *RELATIVE_ROWS):
        metric = parse(spec)
        again = pickle.loads(pickle.dumps(metric))
        assert type(again) is type(metric) and again.name == metric.name and again.params == metric.params


def test_unpicklable_metrics_and_constraints_run_in_process():
    local = wrap(lambda ranking, topic: sum(float(topic.r(d)) / i for i, d in enumerate(ranking, 1)),
                 "local", needs=Needs(aspects=False, graded=True))
    result = run_table([local, "P@10"], ["Pri"], budget=SMALL, jobs=2)
    assert verdicts(result) == {("local", "Pri"): "satisfied", ("P@10", "Pri"): "violated"}


# -- interruption ------------------------------------------------------------------------------

@pytest.mark.usefixtures("sigint_raises")
@pytest.mark.parametrize("isolate", [True, False])
@pytest.mark.parametrize("jobs", [1, 2])
def test_an_interrupted_run_returns_a_valid_partial_table(jobs, isolate):
    result = run_table(["P@10", INTERRUPTING, "nDCG@10"], ["Pri"], budget=SMALL, jobs=jobs, isolate=isolate)
    assert result.interrupted
    assert result.cell("interrupting", "Pri").verdict == "not run"
    assert any(c.verdict == "not run" for c in result.cells)
    assert {c.verdict for c in result.cells} <= {"violated", "satisfied", "not run"}
    data = json.loads(json.dumps(result.to_dict()))
    assert data["interrupted"] is True and len(data["cells"]) == 3
    if jobs == 1 and not isolate:  # in order: the first row finished, the rest did not run
        # (supervised, the interrupting metric's worker starts beside the first row's check)
        assert [c.verdict for c in result.cells] == ["violated", "not run", "not run"]


@pytest.mark.usefixtures("sigint_raises")
def test_ctrl_c_stops_the_workers_and_keeps_what_finished():
    """A real SIGINT to this process while the pool works: a partial result, promptly."""
    specs = ["P@10", SLOW, *(wrap(slow_gain, f"slow{i}", needs=Needs(aspects=False)) for i in range(6))]
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        result = run_table(specs, ["Pri", "Deep"] if _has("Deep") else ["Pri"],
                           budget=Budget(cases=400, small_scope=400, seconds=60, horizon=64), jobs=2)
    finally:
        timer.cancel()
    assert result.interrupted
    assert time.monotonic() - start < 20  # the slow checks alone would take minutes
    assert any(c.verdict == "not run" for c in result.cells)
    json.dumps(result.to_dict())


def _has(constraint_id: str) -> bool:
    try:
        get(constraint_id)
    except KeyError:
        return False
    return True


# -- errors, projection, other mode, explanations -------------------------------------------

def test_a_metric_that_raises_gives_an_error_cell_with_its_input_and_the_run_completes():
    result = run_table([FAULTY, "P@10"], ["Pri", "CloseTh"], budget=SMALL, jobs=1)
    assert not result.interrupted
    for constraint in ("Pri", "CloseTh"):
        cell = result.cell("faulty", constraint)
        assert cell.verdict == "error"
        error = cell.default_check.error
        assert "ValueError" in error.message and "cannot score long rankings" in error.message
        assert error.ranking is not None and len(error.ranking) >= 2 and error.topic is not None
    assert result.cell("P@10", "Pri").verdict == "violated"


def test_an_unknown_constraint_id_suggests_the_closest_one_or_none():
    with pytest.raises(InputError, match=r"unknown constraint 'Prio'; did you mean 'Pri'\? known: Pri, "):
        run_table(["P@10"], ["Prio"])
    with pytest.raises(InputError, match=r"unknown constraint 'aspdv'; did you mean 'AspDiv'\?"):
        run_table(["P@10"], ["aspdv"])
    assert suggest("PRIORSENSE") == "PriorSens" and suggest("Nope") is None


def test_unknown_constraint_bad_spec_and_duplicates_are_input_errors():
    with pytest.raises(InputError, match="unknown constraint 'Nope'"):
        run_table(["P@10"], ["Nope"])
    with pytest.raises(InputError, match="RBP"):
        run_table(["RBP(q=1)"], ["Pri"])
    with pytest.raises(InputError, match="given twice"):
        run_table(["P@10", "P@10"], ["Pri"])
    with pytest.raises(InputError, match="mode"):
        run_table(["P@10"], ["Pri"], mode="sideways")


def test_projected_is_an_aspect_blind_metric_on_a_diversity_constraint():
    # A diversity-group constraint built here (Pri's cases), so the test does not depend on
    # which diversity constraints are registered; it also exercises unregistered constraints.
    diversity = Constraint(**{**get("Pri").__dict__, "id": "PriD", "group": "diversity"})
    result = run_table(["nDCG@10", "nDCG_IA@10"], [diversity, "Pri"], budget=SMALL, jobs=2)
    assert result.cell("nDCG@10", "PriD").projected
    assert not result.cell("nDCG_IA@10", "PriD").projected
    assert not result.cell("nDCG@10", "Pri").projected


def test_violated_cells_get_the_other_mode_and_an_explanation(monkeypatch):
    calls = []

    def fake_explain(metric, constraint, check, *, budget, seed, grid_checks):
        calls.append((metric.name, constraint.id, check.verdict, len(grid_checks), seed))
        return Explanation("holds when nothing is swapped", NearbyReading.CONSTRAINT)

    monkeypatch.setattr(runner.tasks, "explain", fake_explain)
    result = run_table(["P@10", "nDCG@10", SIGNED], ["Pri"], seed=5, budget=SMALL, jobs=1)
    violated = result.cell("P@10", "Pri")
    assert violated.other_mode in ("violated", "satisfied")
    assert violated.explanation == "holds when nothing is swapped"
    assert violated.reading is NearbyReading.CONSTRAINT  # which reading, passed on as data
    assert "reading" not in record(violated)  # the JSON keeps its one shape
    satisfied = result.cell("nDCG@10", "Pri")
    assert satisfied.other_mode is None and satisfied.explanation is None
    # The default setting of SIGNED holds: no explanation even though other settings fail.
    assert result.cell("signed", "Pri").explanation is None
    assert calls == [("P@10", "Pri", "violated", 1, 5)]
    assert dict(result.settings)["explanations"] == "computed"


def test_mode_override_reaches_every_check():
    result = run_table(["P@10"], ["Pri", "CloseTh"], mode="window", budget=SMALL, jobs=1)
    assert result.mode == "window"
    assert {c.mode for cell in result.cells for c in cell.checks} == {"window"}
    # P@10 in window mode: only n with 2n <= 10 remain, and the witness needs no truncation.
    closeness = result.cell("P@10", "CloseTh").default_check
    assert closeness.verdict == "witness" and not closeness.witness.by_truncation


def test_quick_uses_the_quick_budget():
    result = run_table(["RBP"], ["Pri"], quick=True, jobs=1)
    assert "40 random" in result.budget
    assert len(result.cells[0].checks) == 3  # p = 0.8, then the extremes 0.5 and 0.99
    assert dict(result.settings)["rho"] == str(Fraction(1, 10))


def test_a_witness_by_truncation_also_gets_the_window_verdict():
    # nDCG@10's DeepTh witness (n = 7) has b's relevant documents past k = 10; in the
    # window (2n <= 10) D(n) < 0 for n = 3..5, so window mode is violated.
    result = run_table(["nDCG@10", "RR"], ["DeepTh"], budget=SMALL, jobs=1)
    truncated = result.cell("nDCG@10", "DeepTh")
    assert truncated.verdict == "witness" and truncated.default_check.witness.by_truncation
    assert truncated.other_mode == "violated"
    plain = result.cell("RR", "DeepTh")  # witness n = 1, no cutoff: nothing to add
    assert plain.verdict == "witness" and plain.other_mode is None
