"""DeepTh and CloseTh compare the same pairs ``(a_n, b_n)``: the second of them in a process reuses the
first's comparisons for a registered built-in (issue 15), and gives the check it would give alone."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import axiometer.axioms.constraints.threshold as threshold
from axiometer.axioms import get
from axiometer.checking import Budget
from axiometer.checking import check as check_with_proofs
from axiometer.metrics import parse, wrap


def check(metric: Any, oracle: Any, **options: Any) -> Any:
    """The check as the search decides it (``proof_docs=0``): these tests pin down the grid of ``n``
    and ``rc``; proofs for every ``n`` and ``rc`` are tested in tests/checking/test_prove.py."""
    budget = options.pop("budget", Budget())
    return check_with_proofs(metric, oracle, budget=dataclasses.replace(budget, proof_docs=0), **options)

BUDGET = Budget(horizon=64)


@pytest.fixture
def counted(monkeypatch):
    """Count the comparisons the threshold procedure makes; start with an empty cache."""
    calls = []
    real = threshold.compare

    def compare(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(threshold, "compare", compare)
    monkeypatch.setattr(threshold, "_COMPARED", type(threshold._COMPARED)())
    return calls


def test_closeth_after_deepth_reuses_every_comparison_of_a_builtin(counted):
    metric = parse("RBP(p=0.9)")
    deep = check(metric, get("DeepTh"), budget=BUDGET, seed=0)
    assert len(counted) == 33 * 3  # the grid 1..32, 64 for each of the three rc
    close = check(metric, get("CloseTh"), budget=BUDGET, seed=0)
    assert len(counted) == 33 * 3
    assert (deep.verdict, close.verdict) == ("witness", "witness")


def test_a_shared_grid_gives_the_check_a_fresh_one_gives(counted, monkeypatch):
    metric = parse("RBP(p=0.99)")
    check(metric, get("DeepTh"), budget=BUDGET, seed=0)
    shared = check(metric, get("CloseTh"), budget=BUDGET, seed=0)
    monkeypatch.setattr(threshold, "_COMPARED", type(threshold._COMPARED)())
    alone = check(metric, get("CloseTh"), budget=BUDGET, seed=0)
    assert shared == alone
    check(metric, get("CloseTh"), budget=BUDGET, seed=0)
    deep_shared = check(metric, get("DeepTh"), budget=BUDGET, seed=0)
    monkeypatch.setattr(threshold, "_COMPARED", type(threshold._COMPARED)())
    assert deep_shared == check(metric, get("DeepTh"), budget=BUDGET, seed=0)


def test_another_setting_or_a_metric_authors_function_is_compared_again(counted):
    check(parse("RBP(p=0.9)"), get("DeepTh"), budget=BUDGET, seed=0)
    check(parse("RBP(p=0.8)"), get("CloseTh"), budget=BUDGET, seed=0)
    assert len(counted) == 2 * 33 * 3

    def rbp_like(ranking, topic):
        return sum(float(topic.r(d)) * 0.5 ** i for i, d in enumerate(ranking))

    counted.clear()
    mine = wrap(rbp_like, "rbp_like")
    check(mine, get("DeepTh"), budget=BUDGET, seed=0)
    check(mine, get("CloseTh"), budget=BUDGET, seed=0)
    assert len(counted) == 2 * 33 * 3


def test_the_cache_keeps_only_the_last_few_grids(counted):
    for p in ("0.5", "0.6", "0.7", "0.8"):  # 4 settings x 3 rc = 12 grids > 8 entries
        check(parse(f"RBP(p={p})"), get("DeepTh"), budget=BUDGET, seed=0)
    assert len(threshold._COMPARED) == threshold._COMPARED_ENTRIES == 8
    counted.clear()
    check(parse("RBP(p=0.5)"), get("CloseTh"), budget=BUDGET, seed=0)  # evicted: compared again
    assert len(counted) == 33 * 3
    counted.clear()
    check(parse("RBP(p=0.8)"), get("CloseTh"), budget=BUDGET, seed=0)  # the most recent: reused
    assert counted == []
