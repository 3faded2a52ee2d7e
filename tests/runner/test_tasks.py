"""The runner's typed tasks and the executors they run on.

Each kind of work is a task class whose ``run()`` gives a typed result and whose ``failed()``
gives the same type when the work could not finish; every place a task runs (this process,
local worker processes, supervised workers, a given executor) is a
``concurrent.futures.Executor``, and which one ran a table's tasks changes nothing in its result.
"""

from __future__ import annotations

import concurrent.futures
import os
import pickle
from dataclasses import dataclass

import pytest

from axiometer.axioms import PROPERTIES, get
from axiometer.checking import Budget, check
from axiometer.checking.boundary import ParamRange
from axiometer.core import to_fraction
from axiometer.metrics import Needs, parse, wrap
from axiometer.results import Check, ErrorInfo, Explanation
from axiometer.runner import run_table
from axiometer.runner.executors import InProcess, WorkerProcesses
from axiometer.runner.supervisor import Supervisor, WorkerLost, can_supervise
from axiometer.runner.tasks import (BoundaryTask, CheckTask, ExplainTask, Interrupted, Located, Task,
                                    run_supervised, run_task)
from tests.cli_run import timeless

SMALL = Budget(cases=25, small_scope=60, seconds=60.0, horizon=64)


def reciprocal_gain(ranking, topic):
    return sum(float(topic.r(d)) / i for i, d in enumerate(ranking, 1))


#: A metric author's metric (not a built-in): supervised when isolated; it pickles (a module function).
AUTHORED = wrap(reciprocal_gain, "reciprocal", needs=Needs(aspects=False, graded=True))


# -- the tasks ----------------------------------------------------------------------------------

def test_a_check_task_gives_the_check_that_check_gives():
    task = CheckTask(parse("P@10"), "Pri", None, SMALL, 3)
    assert task.run() == check(parse("P@10"), get("Pri"), budget=SMALL, seed=3)
    assert task.run().verdict == "violated"


def test_a_failed_check_task_is_an_error_check_of_its_cell_in_the_constraints_own_mode():
    task = CheckTask(parse("RBP"), "Pri", None, SMALL, 0)
    failed = task.failed("it broke", None, note="raised outside the metric's evaluation")
    assert isinstance(failed, Check)
    assert (failed.constraint, failed.metric, failed.verdict) == ("Pri", "RBP(p=0.8)", "error")
    assert failed.mode == get("Pri").default_mode and failed.params == (("p", 0.8),)
    assert failed.error == ErrorInfo("it broke") and failed.note == "raised outside the metric's evaluation"
    named = ErrorInfo("the metric ended its worker", None, ("d1", "d2"))
    assert task.failed("ignored", named).error == named
    assert CheckTask(parse("RBP"), "Pri", "truncate", SMALL, 0).failed("x", None).mode == "truncate"


def test_an_explain_task_gives_text_and_its_failure_says_why_there_is_none():
    violated = check(parse("P@10"), get("Pri"), budget=SMALL, seed=0)
    task = ExplainTask(parse("P@10"), "Pri", violated, (violated,), SMALL, 0)
    explanation = task.run()
    assert explanation is None or isinstance(explanation, Explanation)
    # A failed explanation is text only: no nearby reading makes the cell hold.
    assert task.failed("the worker died", None) == Explanation("(no explanation: the worker died)", None)


def test_an_explain_task_of_a_property_fails_with_a_type_error_not_an_explanation():
    violated = check(parse("P@10"), get("Pri"), budget=SMALL, seed=0)
    property_id = PROPERTIES[0].id
    task = ExplainTask(parse("P@10"), property_id, violated, (), SMALL, 0)
    with pytest.raises(TypeError, match="not a constraint"):
        task.run()
    assert run_task(task) == Explanation(f"(no explanation: TypeError: {property_id} is not a constraint: "
                                         "only a constraint has nearby readings)", None)


def test_a_boundary_task_gives_located_boundaries_or_a_failure_line():
    span = ParamRange("p", to_fraction(0.5), to_fraction(0.99))
    task = BoundaryTask(parse("RBP"), "Pri", span, (0.5, 0.8, 0.99), None, SMALL, 0)
    located = task.run()
    assert isinstance(located, Located) and located.failure is None
    assert located.boundaries == ()  # RBP satisfies Pri at every p: no verdict changes
    assert task.failed("the worker died", None) == Located(failure="boundaries of p not located: the worker died")


def test_tasks_pickle_so_they_travel_to_workers():
    violated = check(parse("P@10"), get("Pri"), budget=SMALL, seed=0)
    span = ParamRange("p", to_fraction(0.5), to_fraction(0.99))
    for task in (CheckTask(parse("RBP"), "Pri", None, SMALL, 1),
                 ExplainTask(parse("P@10"), "Pri", violated, (violated,), SMALL, 1),
                 BoundaryTask(parse("RBP"), "Pri", span, (0.5,), None, SMALL, 1, over=("q", 1))):
        assert pickle.loads(pickle.dumps(task)) == task


@dataclass(frozen=True)
class Raising(Task[str]):
    """A task whose work raises ``error``."""

    error: BaseException

    def run(self) -> str:
        raise self.error

    def failed(self, message: str, error: ErrorInfo | None, note: str = "") -> str:
        return f"failed: {message} ({note})"


def test_run_task_never_raises_an_error_becomes_the_tasks_failed_result():
    assert run_task(Raising(ValueError("bad"))) == "failed: ValueError: bad (raised outside the metric's evaluation)"
    assert run_task(CheckTask(parse("P@10"), "Nope", None, SMALL, 0)).verdict == "error"  # unknown here


def test_a_keyboard_interrupt_is_interrupted_here_and_the_metrics_own_in_a_supervised_worker():
    assert isinstance(run_task(Raising(KeyboardInterrupt())), Interrupted)
    assert run_supervised(Raising(KeyboardInterrupt())) == "failed: the metric raised KeyboardInterrupt ()"


# -- the executors ------------------------------------------------------------------------------

def _drive(executor: concurrent.futures.Executor, future: concurrent.futures.Future) -> None:
    """Run a caller-driven executor until ``future`` is done."""
    for _ in range(200):
        if future.done():
            return
        if isinstance(executor, InProcess):
            executor.step()
        elif isinstance(executor, Supervisor):
            executor.step(0.05)
    future.result(timeout=60)


def _executors() -> list[concurrent.futures.Executor]:
    found: list[concurrent.futures.Executor] = [InProcess(), WorkerProcesses(2),
                                                concurrent.futures.ProcessPoolExecutor(2)]
    if can_supervise():
        found.append(Supervisor(2))
    return found


def test_every_executor_gives_a_task_the_same_result():
    task = CheckTask(parse("P@10"), "Pri", None, SMALL, 7)
    expected = run_task(task)
    for executor in _executors():
        try:
            future = executor.submit(run_task, task)
            _drive(executor, future)
            assert future.result() == expected, type(executor).__name__
        finally:
            executor.shutdown()


def test_in_process_runs_nothing_until_stepped_then_one_call_a_step_in_order():
    executor = InProcess()
    ran: list[int] = []
    futures = [executor.submit(ran.append, i) for i in range(3)]
    assert ran == [] and not any(f.done() for f in futures)
    assert executor.step() and ran == [0] and futures[0].done()
    failing = executor.submit(int, "x")
    while executor.step():
        pass
    assert ran == [0, 1, 2] and isinstance(failing.exception(), ValueError)


@pytest.mark.skipif(not can_supervise(), reason="no fork on this platform")
def test_a_supervised_worker_that_dies_completes_its_future_with_worker_lost():
    supervisor = Supervisor(1)
    dies = supervisor.submit(os._exit, 7)
    raises = supervisor.submit(int, "x")
    try:
        for future in (dies, raises):
            for _ in range(200):
                supervisor.step(0.05)
                if future.done():
                    break
    finally:
        supervisor.shutdown()
    lost = dies.exception()
    assert isinstance(lost, WorkerLost) and lost.error is None
    assert lost.message == ("the metric ended its worker process with exit status 7 (os._exit(7) or a crash); "
                            "no metric call was in progress")
    assert isinstance(raises.exception(), WorkerLost)
    assert raises.exception().message.startswith("the task raised ValueError: invalid literal")


class Broken(concurrent.futures.Executor):
    """An executor that loses every task (a cluster whose workers went away)."""

    def submit(self, fn, /, *args, **kwargs):
        future: concurrent.futures.Future = concurrent.futures.Future()
        future.set_exception(ConnectionError("worker gone"))
        return future


def test_a_task_the_executor_lost_is_an_error_cell_and_the_run_completes():
    result = run_table(["P@10"], ["Pri"], budget=SMALL, executor=Broken())
    assert not result.interrupted
    cell = result.cell("P@10", "Pri")
    assert cell.verdict == "error"
    assert cell.default_check.error.message == "the executor failed to run it: ConnectionError: worker gone"


def test_every_executor_gives_a_table_the_same_bytes():
    """This process, local workers with supervised ones, a given executor: one table."""
    metrics, constraints = ["P@10", "RBP", AUTHORED], ["Pri", "Conf", "CloseTh"]
    here = run_table(metrics, constraints, budget=SMALL, seed=4, jobs=1, isolate=False).to_dict()
    assert {cell["verdict"] for cell in here["cells"]} >= {"satisfied", "violated"}
    assert any(cell.get("explanation") or cell.get("other_mode") for cell in here["cells"])
    pooled = run_table(metrics, constraints, budget=SMALL, seed=4, jobs=2).to_dict()
    with concurrent.futures.ProcessPoolExecutor(2) as executor:
        given = run_table(metrics, constraints, budget=SMALL, seed=4, executor=executor).to_dict()
    assert timeless(pooled) == timeless(here)  # the same bytes but for the proofs' times
    assert timeless(given) == timeless(here)
