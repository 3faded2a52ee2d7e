"""Checks run on a real Dask cluster give the local pool's result, byte for byte (issue 15).

A ``distributed.LocalCluster`` with two worker processes stands for a cluster: the runner
only sees ``concurrent.futures.Executor`` (``Client.get_executor()``), and the CLI connects
to the cluster's scheduler by its address (``--executor dask://HOST:PORT``).
"""

from __future__ import annotations

import concurrent.futures
import json
import warnings

import pytest
from distributed import Client, LocalCluster

from axiometer.checking import Budget
from axiometer.reports.table import format_table
from axiometer.runner import run_table
from tests.cli_run import run_cli
from tests.cli_run import timeless

# Time never binds at this budget, so the result depends on the seed alone (a time budget that
# binds under load would end a search at a different case on each machine).
BUDGET = Budget(cases=30, small_scope=60, seconds=600, horizon=256, proof_paths=100)
METRICS = ["P@10", "RBP", "ERR_IA@20"]
CONSTRAINTS = ["Pri", "Conf", "DeepTh", "AspDiv"]


@pytest.fixture(scope="module")
def cluster():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the cluster's own start-up chatter
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as local_cluster:
            yield local_cluster


def test_a_table_on_the_cluster_is_the_local_pools_table(cluster):
    local = format_table(run_table(METRICS, CONSTRAINTS, budget=BUDGET, jobs=2), "json")
    with Client(cluster, set_as_default=False) as client:
        remote = format_table(run_table(METRICS, CONSTRAINTS, budget=BUDGET,
                                        executor=client.get_executor()), "json")
        ran = client.run(lambda: 1)  # both workers were there to take the checks
    assert len(ran) == 2
    assert timeless(json.loads(remote)) == timeless(json.loads(local))  # but for the proofs' times
    verdicts = {cell["verdict"] for cell in json.loads(local)["cells"]}
    assert {"satisfied", "violated"} <= verdicts  # the run decided something either way


def test_the_cli_runs_a_check_on_the_cluster_by_its_address(cluster, capsys, tmp_path):
    host_port = cluster.scheduler_address.removeprefix("tcp://")
    local, remote = tmp_path / "local.json", tmp_path / "remote.json"
    status, _, err = run_cli(capsys, "check", "RBP", "--constraints", "Pri", "Conf", "--jobs", "2",
                             "--format", "json", "-o", local)
    assert status == 0, err
    status, _, err = run_cli(capsys, "check", "RBP", "--constraints", "Pri", "Conf",
                             "--executor", f"dask://{host_port}", "--format", "json", "-o", remote)
    assert status == 0, err
    assert (timeless(json.loads(remote.read_text(encoding="utf-8")))
            == timeless(json.loads(local.read_text(encoding="utf-8"))))


def test_an_unreachable_scheduler_is_one_error_line(capsys, monkeypatch):
    import axiometer.runner.executors as executors

    monkeypatch.setattr(executors, "CONNECT_SECONDS", 1)
    status, out, err = run_cli(capsys, "check", "P@10", "--quick", "--executor", "dask://127.0.0.1:1")
    assert status == 2 and out == ""
    assert err.strip().splitlines() == [
        "axiometer: error: --executor 'dask://127.0.0.1:1': no Dask scheduler answered at "
        "tcp://127.0.0.1:1 within 1 s (OSError)"]


@pytest.mark.parametrize("url, problem", [
    ("http://host:8786", "expected dask://HOST:PORT (a Dask scheduler's address)"),
    ("dask://", "expected dask://HOST:PORT (a Dask scheduler's address)"),
    ("dask://host:port", "the port is not a number from 1 to 65535"),
])
def test_a_malformed_executor_url_is_one_error_line(capsys, url, problem):
    status, out, err = run_cli(capsys, "check", "P@10", "--quick", "--executor", url)
    assert status == 2 and out == ""
    assert err.strip() == f"axiometer: error: --executor {url!r}: {problem}"


class _LosingExecutor(concurrent.futures.ThreadPoolExecutor):
    """An executor whose every task is lost, as when a cluster's worker dies under it."""

    def submit(self, fn, /, *args, **kwargs):
        future: concurrent.futures.Future = concurrent.futures.Future()
        future.set_exception(ConnectionError("worker tcp://10.0.0.7:4242 died"))
        return future


def test_a_task_the_executor_loses_is_an_error_cell_and_the_run_completes():
    with _LosingExecutor() as executor:
        result = run_table(["P@10"], ["Pri", "Conf"], budget=BUDGET, executor=executor)
    assert [cell.verdict for cell in result.cells] == ["error", "error"]
    assert result.cells[0].checks[0].error.message == (
        "the executor failed to run it: ConnectionError: worker tcp://10.0.0.7:4242 died")
    assert not result.interrupted
