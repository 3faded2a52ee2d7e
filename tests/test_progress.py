"""Progress that tells the truth: the runner reports each phase with a total
fixed before its first update, and the bar (tqdm, on stderr) shows elapsed
time and an estimate of the time left, only on a terminal."""

from __future__ import annotations

import io
import re
import time

import pytest

from axiometer.cli import main
from axiometer.progress import Progress
from axiometer.runner import run_table
from axiometer.runner.pool import PHASES


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
