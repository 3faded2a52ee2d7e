"""The simulated scenarios of Amigó, Spina & Carrillo-de-Albornoz (SIGIR 2018, section 6.3), as
seeded transformations of a campaign.

The paper reruns its Metric Unanimity experiment after changing the TREC
campaign in ways that exercise particular constraints:

- ``graded`` (MRed): every judged relevance ``r(d, t)`` becomes a uniform
  random value in ``[0, r(d, t)]`` (``r(d) <- rand(0..r(d))``); zeros stay 0;
- ``weights`` (AspRel): every aspect weight becomes a uniform random value,
  normalised so that a topic's weights sum to 1 (``w(t) <- rand(0..1)``);
  the draws are in ``(0, 1]``, so no weight is 0; a one-aspect topic keeps
  weight 1;
- ``truncate`` (Conf): every ranking is cut at a uniform random length in
  ``0..|d|`` (both ends included; a cut at 0 leaves an empty ranking, which
  scores as one);
- ``truncate50``: every ranking is cut at a uniform random length ``L`` in
  ``0..50`` and keeps its first ``min(L, |d|)`` documents.

The paper's second column of Table 2 applies the first three together;
:func:`simulate` applies any sequence of scenarios in the order given.

``graded`` transforms the relevance values (``Qrels.topics``: the integer
grades read with the qrels' ``mapping``); the integer ``grades`` stay as
read, and so does each topic's integer grade per document, which relevance
levels (``P(rel=2)@10``) read. Simulated relevance is no longer an integer grade, so no metric can
read it by its own reference convention: every metric must read the
simulated ``topics`` (score with ``grades=qrels.mapping``;
:attr:`Simulation.grades` names it), as in the paper, where one relevance
``r(d, t)`` serves all metrics. ``weights`` changes both ``Qrels.topics``
and ``Qrels.weights``, so every metric's view of the grades carries the new
weights.

Seeds: each scenario draws from its own generator,
``numpy.random.default_rng([seed, k])`` with ``k`` its index in
:data:`SCENARIOS`, so a scenario's draws do not depend on which other
scenarios run with it; within a scenario, values are drawn topic by topic in
the qrels' order (documents and aspects in the topic's order) or run by run
and topic by topic in the runs' order. The same seed and input give the same
campaign; the input objects are never modified.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from axiometer.core import Ranking, Topic, ValidationError
from axiometer.readers import Qrels, Run

__all__ = ["SCENARIOS", "SCENARIO_TEXT", "Simulation", "simulate", "simulate_graded", "simulate_weights",
           "simulate_truncate", "TRUNCATE50"]

#: The scenarios, in the paper's order.
SCENARIOS = ("graded", "weights", "truncate", "truncate50")

#: What each scenario does, as reports say it.
SCENARIO_TEXT = {
    "graded": "each judged relevance r(d,t) replaced by a uniform random value in [0, r(d,t)]",
    "weights": "aspect weights drawn uniformly in (0, 1] and normalised to sum 1 per topic",
    "truncate": "each ranking cut at a uniform random length in 0..|d|",
    "truncate50": "each ranking cut at a uniform random length L in 0..50 (min(L, |d|) documents kept)",
}

#: ``truncate50``'s largest length.
TRUNCATE50 = 50


@dataclass(frozen=True)
class Simulation:
    """The scenarios applied, in order, with the seed they drew from. ``grades``: with ``graded``,
    the mapping whose simulated relevance every metric must read (``score_runs(..., grades=...)``);
    ``None`` otherwise (each metric reads the grades as usual)."""

    scenarios: tuple[str, ...]
    seed: int
    grades: str | None = None

    @property
    def description(self) -> str:
        return "; ".join(SCENARIO_TEXT[s] for s in self.scenarios)


def _rng(scenario: str, seed: int) -> np.random.Generator:
    return np.random.default_rng([seed, SCENARIOS.index(scenario)])


def _grades(topic: Topic) -> dict[str, int]:
    """The topic's integer grades (single view), which relevance levels (``P(rel=2)@10``) read: a
    scenario changes relevance values or weights, never the judged grades."""
    return {doc: topic.grade(doc) for doc in topic.documents}


def simulate_graded(qrels: Qrels, seed: int = 0) -> Qrels:
    """``qrels`` with every judged ``r(d, t) > 0`` replaced by a uniform value in ``[0, r(d, t)]``."""
    rng = _rng("graded", seed)
    topics = {}
    for qid, topic in qrels.topics.items():
        judgments = {}
        for doc in topic.documents:
            vector = np.array([float(r) for r in topic.vector(doc)])
            drawn = vector * rng.random(len(vector))  # uniform in [0, r); 0 stays 0
            judgments[doc] = dict(zip(topic.aspects, drawn.tolist()))
        topics[qid] = Topic(judgments, dict(zip(topic.aspects, topic.weights)), topic.topic_id, _grades(topic))
    return dataclasses.replace(qrels, topics=topics)


def simulate_weights(qrels: Qrels, seed: int = 0) -> Qrels:
    """``qrels`` with each topic's aspect weights drawn uniformly in ``(0, 1]`` and normalised."""
    rng = _rng("weights", seed)
    topics, weights = {}, {}
    for qid, topic in qrels.topics.items():
        drawn = 1.0 - rng.random(len(topic.aspects))  # (0, 1]: no weight is 0
        normalised = (drawn / drawn.sum()).tolist()
        new_weights = dict(zip(topic.aspects, normalised))
        judgments = {doc: dict(zip(topic.aspects, topic.vector(doc))) for doc in topic.documents}
        topics[qid] = Topic(judgments, new_weights, topic.topic_id, _grades(topic))
        weights[qid] = new_weights
    return dataclasses.replace(qrels, topics=topics, weights=weights)


def simulate_truncate(runs: Sequence[Run], seed: int = 0, limit: int | None = None) -> list[Run]:
    """Each ranking of each run cut at a uniform random length: in ``0..|d|`` without ``limit``
    (``truncate``), else ``L`` in ``0..limit`` keeping ``min(L, |d|)`` documents (``truncate50``)."""
    rng = _rng("truncate" if limit is None else "truncate50", seed)
    cut = []
    for run in runs:
        rankings = {}
        for qid, ranking in run.rankings.items():
            top = len(ranking) if limit is None else limit
            length = int(rng.integers(0, top + 1))
            rankings[qid] = Ranking(ranking[:length]) if length < len(ranking) else ranking
        cut.append(dataclasses.replace(run, rankings=rankings))
    return cut


def simulate(qrels: Qrels, runs: Sequence[Run], scenarios: Sequence[str], seed: int = 0
             ) -> tuple[Qrels, list[Run], Simulation]:
    """The campaign after each of ``scenarios`` in turn (a scenario may not repeat); score it with
    ``grades=simulation.grades`` when that is not ``None``."""
    unknown = [s for s in scenarios if s not in SCENARIOS]
    if unknown:
        raise ValidationError(f"unknown scenario {unknown[0]!r}; known: {', '.join(SCENARIOS)}")
    if len(set(scenarios)) != len(scenarios):
        raise ValidationError("a scenario is given twice")
    runs = list(runs)
    for scenario in scenarios:
        if scenario == "graded":
            qrels = simulate_graded(qrels, seed)
        elif scenario == "weights":
            qrels = simulate_weights(qrels, seed)
        else:
            runs = simulate_truncate(runs, seed, TRUNCATE50 if scenario == "truncate50" else None)
    return qrels, runs, Simulation(tuple(scenarios), seed, qrels.mapping if "graded" in scenarios else None)
