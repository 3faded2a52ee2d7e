"""RBU against the authors' reference implementation (Java, SIGIR 2018 code
release) on the TREC 2014 Web diversity judgments and two generated runs.

The reference prints 4 decimals. The criterion is ``|ours - printed| <= 0.00005``:
the printed number is the reference's double rounded to 4 decimals, so the
true value lies within half a unit of the last printed place whatever the
rounding rule (Java's ``%.4f`` rounds half up on the decimal expansion;
Python's ``round`` is half-even on the binary value) and whatever the loop
order's last-bit differences; comparing ``round(ours, 4)`` would make a value
on a rounding boundary depend on those. (All 200 values also print
identically with ``f"{ours:.4f}"``.) See docs/conventions-rbu.md.
"""

from __future__ import annotations


import pytest

from axiometer.metrics.rbu import RBU
from axiometer.readers import read_qrels, read_run
from tests.paths import QRELS_2014, RBU_REFERENCE

QRELS = QRELS_2014
REFERENCE = RBU_REFERENCE
HALF_UNIT = 0.00005  # half a unit in the 4th printed decimal
SETTINGS = [("0.8", "0.03"), ("0.9", "0.1")]


def printed_values(run: str, p: str, e: str) -> dict[str, float]:
    """``topic -> RBU`` from the reference's two-column output (a header line, then TSV)."""
    lines = (REFERENCE / f"run{run}.p{p}.e{e}.tsv").read_text().splitlines()
    assert lines[0].split("\t") == ["topic", "RBU"]
    return {topic: float(value) for topic, value in (line.split("\t") for line in lines[1:] if line)}


@pytest.fixture(scope="module")
def qrels():
    # err-aspect: r = (2^g - 1) / 2^gmax(t), gmax(t) the largest grade judged for aspect t.
    return read_qrels(QRELS, mapping="err-aspect")


@pytest.mark.parametrize("p, e", SETTINGS)
@pytest.mark.parametrize("run", ["A", "B"])
def test_matches_reference_on_every_topic(qrels, run, p, e):
    rankings = read_run(REFERENCE / f"run{run}.trec").rankings
    reference = printed_values(run, p, e)
    assert len(reference) == 50 and set(reference) == set(qrels.topics)
    metric = RBU(p=float(p), e=float(e), form="reference")
    misses = {topic: (metric.score(rankings[topic], qrels.topics[topic]), printed)
              for topic, printed in reference.items()
              if abs(metric.score(rankings[topic], qrels.topics[topic]) - printed) > HALF_UNIT}
    assert not misses


def test_the_reference_needs_its_form_and_its_mapping(qrels):
    """The comparison can fail: the paper form (a factor p/(1-p) larger) and the global-gmax
    ``err`` mapping both miss the printed values."""
    rankings = read_run(REFERENCE / "runA.trec").rankings
    reference = printed_values("A", "0.8", "0.03")
    global_gmax = read_qrels(QRELS, mapping="err")

    def misses(metric, topics) -> int:
        return sum(abs(metric.score(rankings[t], topics[t]) - v) > HALF_UNIT for t, v in reference.items())

    assert misses(RBU(p=0.8, e=0.03, form="paper"), qrels.topics) > 40
    assert misses(RBU(p=0.8, e=0.03, form="reference"), global_gmax.topics) > 40
