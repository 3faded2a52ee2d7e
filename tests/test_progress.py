"""Progress that tells the truth: the runner reports each phase with a total
fixed before its first update, every long computation reports through the one
callback type (:class:`axiometer.core.ProgressCallback`) as it documents, and
the bar (tqdm, on stderr) shows elapsed time and an estimate of the time left,
only on a terminal."""

from __future__ import annotations

import inspect
import io
import re
import time

import pytest

from axiometer.cli import main
from axiometer.core import ProgressCallback, in_phase
from axiometer.meta import Sweep, meta_evaluate
from axiometer.meta.rank_correlation import tau_curve
from axiometer.meta.stability import stability
from axiometer.progress import Progress
from axiometer.readers import read_qrels, read_run
from axiometer.runner import run_table
from axiometer.runner.pool import PHASES, TaskPool
from axiometer.scoring import score_runs
from axiometer.significance import compare, compare_matrices, randomization_test
from tests.meta.campaign import TOPICS, write_campaign


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def screen(text: str) -> str:
    """What a terminal shows on the bar's line: the text after the last carriage return that wrote something."""
    return [part for part in text.split("\r") if part][-1] if text.strip() else ""


# -- the runner's reports ----------------------------------------------------------------

def phase_calls(calls: list[tuple[str, int, int]], phase: str) -> list[tuple[int, int]]:
    return [(done, total) for name, done, total in calls if name == phase]


@pytest.mark.parametrize("jobs", [1, 2])
def test_each_phase_total_is_fixed_before_its_first_update(jobs):
    calls: list[tuple[str, int, int]] = []
    result = run_table(["P@10", "RR", "RBP"], ["Pri", "Conf"], quick=True, jobs=jobs,
                       progress=lambda *call: calls.append(call))

    # Phases come in order: every checking report before the first explaining one.
    names = [name for name, _, _ in calls]
    assert names == sorted(names, key=PHASES.index) and set(names) <= set(PHASES)

    # Checking: the whole grid, counted before any check runs. P@10 and RR have no
    # free parameter (one setting each); RBP's quick grid is p = 0.8, 0.5, 0.99.
    grid = (1 + 1 + 3) * 2
    checking = phase_calls(calls, "checking")
    assert checking[0] == (0, grid)
    assert checking == [(done, grid) for done in range(grid + 1)]
    assert sum(len(cell.checks) for cell in result.cells) == grid

    # Explaining: Pri and Conf are window-mode constraints, so each violated cell asks
    # for two follow-ups (its explanation and its truncate-mode verdict), and no other
    # cell asks for any. The total is fixed from the first report on; the ones that
    # finished while checks still ran are counted in it.
    violated = sum(cell.verdict == "violated" for cell in result.cells)
    assert violated >= 2
    explaining = phase_calls(calls, "explaining")
    assert {total for _, total in explaining} == {2 * violated}
    assert explaining[-1] == (2 * violated, 2 * violated)
    first = explaining[0][0]
    assert [done for done, _ in explaining] == list(range(first, 2 * violated + 1))
    assert sum(cell.other_mode is not None for cell in result.cells) == violated


def test_a_table_without_violations_has_no_second_phase():
    calls: list[tuple[str, int, int]] = []
    run_table(["RBP"], ["Pri"], quick=True, jobs=1, progress=lambda *call: calls.append(call))
    assert calls == [("checking", done, 3) for done in range(4)]


# -- one callback type for every long computation ------------------------------------

class Recorder:
    """A :class:`ProgressCallback` that keeps every call and checks its arguments' types."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int, int]] = []

    def __call__(self, phase: str, done: int, total: int, /) -> None:
        assert type(phase) is str and phase, phase
        assert type(done) is int and type(total) is int, (phase, done, total)  # not numpy's, not bool
        self.calls.append((phase, done, total))

    def phases(self) -> list[str]:
        """The phases in the order they were reported, each once, after checking the documented
        contract: phases one after the other, never interleaved; within a phase a fixed total,
        ``0 <= done <= total``, ``done`` never decreasing, and the last report ``done == total``."""
        order: list[str] = []
        for phase, _, _ in self.calls:
            if not order or order[-1] != phase:
                assert phase not in order, f"{phase!r} reported again after another phase"
                order.append(phase)
        for phase in order:
            counts = [(done, total) for name, done, total in self.calls if name == phase]
            assert len({total for _, total in counts}) == 1, (phase, counts)
            total = counts[0][1]
            dones = [done for done, _ in counts]
            assert 0 <= dones[0] and dones == sorted(dones) and dones[-1] == total, (phase, counts)
        return order

    def totals(self) -> dict[str, int]:
        return {phase: total for phase, _, total in self.calls}


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    qrels, runs = write_campaign(tmp_path_factory.mktemp("campaign"))
    return read_qrels(qrels), [read_run(r) for r in runs]


def test_a_table_run_reports_its_checks_through_the_one_callback():
    progress = Recorder()
    run_table(["RBP"], ["Pri"], quick=True, jobs=1, progress=progress)
    assert progress.phases() == ["checking"] and progress.calls[0] == ("checking", 0, 3)


def test_scoring_reports_each_topic_of_each_pass_as_one_phase(campaign):
    qrels, runs = campaign
    plain = Recorder()
    score_runs(qrels, runs, ["P@3"], progress=plain)
    assert plain.phases() == ["scoring"] and plain.calls == [("scoring", n, 6) for n in range(1, 7)]
    relative = Recorder()  # a relative metric: a second pass over the topics, in the same phase
    score_runs(qrels, runs, ["P@3", "RareP@3"], progress=relative)
    assert relative.phases() == ["scoring"] and relative.totals() == {"scoring": 2 * len(TOPICS)}


def test_the_meta_evaluation_reports_its_phases_in_order(campaign):
    qrels, runs = campaign
    progress = Recorder()
    meta_evaluate(qrels, runs, ["P@3", "AP"], permutations=50, trials=20, seed=1,
                  sweep=Sweep("RareP@3", "alpha", (0, 0.5), "P@3"), progress=progress)
    assert progress.phases() == ["scoring", "significance tests", "stability", "tau curve"]
    assert progress.totals() == {"scoring": 6, "significance tests": 2, "stability": 2, "tau curve": 12}
    assert ("significance tests", 0, 2) in progress.calls  # reported as the phase starts


def test_a_comparison_reports_a_phase_per_metric(campaign):
    qrels, runs = campaign
    progress = Recorder()
    compare(score_runs(qrels, runs, ["P@3", "AP"]), permutations=50, resamples=20, progress=progress)
    assert progress.phases() == ["testing P@3 (1/2)", "testing AP (2/2)"]
    assert progress.totals() == {"testing P@3 (1/2)": 6, "testing AP (2/2)": 6}  # 6 pairs, 1 block


def test_the_steps_report_under_their_own_phase_names(campaign):
    qrels, runs = campaign
    matrix = score_runs(qrels, runs, ["P@3"]).matrix("P@3")
    tested, stable, curve = Recorder(), Recorder(), Recorder()
    randomization_test(matrix, permutations=50, progress=tested)
    stability(matrix, trials=20, progress=stable)
    tau_curve(qrels, runs, "RareP@3", "alpha", (0, 0.5), "P@3", progress=curve)
    assert tested.phases() == ["randomization test"] and tested.totals() == {"randomization test": 6}
    assert stable.phases() == ["stability"] and stable.totals() == {"stability": 6}
    assert curve.phases() == ["tau curve"] and curve.totals() == {"tau curve": 12}


def test_in_phase_renames_the_phase_and_keeps_the_counts():
    calls: list[tuple[str, int, int]] = []
    renamed = in_phase(lambda *call: calls.append(call), "tau curve")
    assert renamed is not None and in_phase(None, "tau curve") is None
    renamed("scoring", 3, 12)
    assert calls == [("tau curve", 3, 12)]


@pytest.mark.parametrize("entry", [run_table, score_runs, meta_evaluate, compare_matrices, randomization_test,
                                   stability, tau_curve, TaskPool.__init__], ids=lambda f: f.__qualname__)
def test_every_entry_point_takes_the_one_callback_type(entry):
    annotation = inspect.signature(entry).parameters["progress"].annotation  # a string: postponed
    assert eval(annotation, entry.__globals__) == ProgressCallback | None


# -- the bar ---------------------------------------------------------------------------

def test_forced_on_a_terminal_it_shows_the_count_elapsed_time_and_time_left():
    stream = FakeTerminal()
    progress = Progress(stream, delay=0.0, tick=None)
    progress.update("checking", 0, 4)
    assert screen(stream.getvalue()).startswith("checking: 0/4 ")
    time.sleep(0.2)  # past tqdm's minimum interval between redraws
    progress.update("checking", 2, 4)
    line = screen(stream.getvalue())
    assert re.search(r"^checking: 2/4 \|.*\|  50% \[00:00 elapsed, 00:0\d left\]$", line), line
    progress.close()
    assert screen(stream.getvalue()).strip() == ""  # erased: the report starts on a clean line


def test_a_new_phase_gets_its_own_bar_and_total():
    stream = FakeTerminal()
    with Progress(stream, delay=0.0, tick=None) as progress:
        progress.update("reading runs", 3, 3)
        progress.update("scoring", 1, 8)
        assert screen(stream.getvalue()).startswith("scoring: 1/8 ")
    assert screen(stream.getvalue()).strip() == ""


def test_a_complete_phase_is_erased_and_no_longer_redrawn():
    stream = FakeTerminal()
    progress = Progress(stream, delay=0.0, tick=0.05)  # never closed, as a caller may forget
    progress.update("reading runs", 0, 2)
    progress.update("reading runs", 2, 2)
    written = stream.getvalue()
    assert screen(written).strip() == ""
    time.sleep(0.3)
    assert stream.getvalue() == written


def test_the_clock_moves_while_no_task_finishes():
    stream = FakeTerminal()
    with Progress(stream, delay=0.0, tick=0.05) as progress:
        progress.update("checking", 1, 4)
        time.sleep(1.3)
        assert "00:01 elapsed" in screen(stream.getvalue())
    assert screen(stream.getvalue()).strip() == ""


def test_quiet_on_a_terminal_until_the_delay_has_passed():
    stream = FakeTerminal()
    with Progress(stream, delay=60.0, tick=0.05) as progress:
        progress.update("checking", 1, 4)
        time.sleep(0.2)
        progress.update("checking", 2, 4)
    assert stream.getvalue() == ""


def test_quiet_when_not_a_terminal():
    stream = io.StringIO()
    with Progress(stream, delay=0.0, tick=0.05) as progress:
        progress.update("checking", 1, 4)
        time.sleep(0.2)
    assert stream.getvalue() == "" and not progress.enabled


def test_the_cli_writes_no_progress_to_a_pipe(capsys):
    status = main(["check", "RBP", "--constraints", "Pri", "Conf", "--quick", "--jobs", "1"])
    out, err = capsys.readouterr()
    assert status in (0, 1) and "RBP" in out
    assert err == "" and "\r" not in out
