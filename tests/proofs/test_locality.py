"""DeepTh for every n from a cutoff: a metric that reads nothing past its top K (issue 26)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from axiometer.axioms.constraints.deepness_threshold import DEEPNESS_THRESHOLD
from axiometer.checking import Budget, check
from axiometer.evidence import Strength
from axiometer.metrics import wrap
from axiometer.metrics.resolve import resolve
from axiometer.proofs.thresholds import deepness_witness
from axiometer.results import Verdict

RHO = Fraction(1, 10)


def top_heavy(ranking, topic):
    """Reads the top k it is given (wrap slices the ranking to the cutoff) and nothing else."""
    return sum(topic.r(d) / i ** 2 for i, d in enumerate(ranking, start=1))


def counts_relevant(ranking, topic):
    """Its top k, divided by the number of relevant documents: it reads the whole topic."""
    return sum(topic.r(d) / i for i, d in enumerate(ranking, start=1)) / max(1, len(topic.relevant))


def reads_past_k(ranking, topic, k):
    """Takes k, and looks one document past it."""
    bonus = topic.r(ranking[k]) if len(ranking) > k else 0
    return sum(topic.r(d) / i for i, d in enumerate(ranking[:k], start=1)) + bonus


def private_peek(ranking, topic):
    """Reads the topic's private table of judgments."""
    return sum(topic.r(d) / i for i, d in enumerate(ranking, start=1)) + 0 * len(topic._vectors)


@pytest.mark.parametrize("spec", ["ERR@10", "RBU(p=0.8,e=0.05)@10", "CT@10", "ERR_IA@10"])
def test_a_builtin_reading_only_its_top_k_has_deepth_proved_for_every_n(spec):
    found = deepness_witness(resolve(spec).metric, "truncate", RHO)
    assert found.value is not None and "reads nothing past its top 10" in found.how


def test_the_proved_witness_is_the_searched_one_and_holds_for_every_n():
    budget = Budget(cases=60, small_scope=80, seconds=5.0, proof_docs=3)
    result = check(resolve("ERR@10").metric, DEEPNESS_THRESHOLD, budget=budget, mode="truncate")
    searched = check(resolve("ERR@10").metric, DEEPNESS_THRESHOLD, budget=Budget(cases=60, small_scope=80,
                                                                                 proof_docs=0), mode="truncate")
    assert result.verdict is Verdict.WITNESS and result.evidence.strength is Strength.PROVED
    assert result.witness.threshold == searched.witness.threshold
    assert result.evidence.proof.scope.startswith(f"every n >= {result.witness.threshold}")


def test_a_wrapped_function_with_a_cutoff_reading_only_its_judgments_is_local():
    found = deepness_witness(wrap(top_heavy, cutoff=3), "truncate", RHO)
    assert found.value == 1


@pytest.mark.parametrize("function, read", [(counts_relevant, "relevant"), (reads_past_k, "length"),
                                            (private_peek, "private field _vectors")])
def test_a_metric_that_reads_past_its_top_k_is_not_proved_and_says_what_it_read(function, read):
    found = deepness_witness(wrap(function, cutoff=3), "truncate", RHO)
    assert found.value is None and "not shown to read only its top 3" in found.reason and read in found.reason


def test_a_metric_without_a_cutoff_or_in_window_mode_gets_no_locality_proof():
    assert "no cutoff" in deepness_witness(wrap(top_heavy), "truncate", RHO).reason
    assert "window mode" in deepness_witness(wrap(top_heavy, cutoff=3), "window", RHO).reason
