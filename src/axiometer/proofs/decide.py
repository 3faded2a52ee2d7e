"""Deciding a constraint's relation on one case structure, for every real value (definitions §3, "proved").

:func:`symbolic_score` runs a metric on a :class:`~axiometer.proofs.topic.SymbolicTopic`:
a built-in's formula in :data:`~axiometer.proofs.arithmetic.PROOF`, a metric
author's function or object as it is (its ``topic.r`` hands out symbols).
:func:`decide_structure` explores every path of "does ``Q(b) REL Q(a)``
hold" (:func:`~axiometer.proofs.paths.explore`): all paths returning ``True``
prove the structure; a path returning ``False`` gives a model, the values of
a counterexample. A metric that cannot run on symbols, a path z3 cannot
decide, or too many paths leave the structure undecided, with the reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from axiometer.core import Ranking
from axiometer.metrics.base import BuiltinMetric, FunctionMetric, Metric
from axiometer.metrics.adapter import UserMetric
from axiometer.proofs.arithmetic import PROOF
from axiometer.proofs.paths import TooManyPaths, Undecidable, explore
from axiometer.proofs.reals import NotSymbolic, lift
from axiometer.proofs.structure import Structure
from axiometer.proofs.topic import SymbolicTopic

__all__ = ["symbolic_score", "guarded_score", "StructureVerdict", "decide_structure", "sign"]


def symbolic_score(metric: Metric, ranking: Ranking, topic: SymbolicTopic) -> Any:
    """``metric``'s value on ``ranking`` with the topic's symbols (a Real or a constant).

    Raises :class:`~axiometer.proofs.reals.NotSymbolic` for a metric whose
    value cannot be computed on symbols (scored by another library, or needing a context).
    """
    if metric.needs.context:
        raise NotSymbolic("a relative metric's context is not part of a structure")
    if isinstance(metric, BuiltinMetric):
        return metric.compute(ranking, topic, PROOF, None)
    if isinstance(metric, FunctionMetric):
        return metric.call(ranking, topic)
    if isinstance(metric, UserMetric):
        return metric.inner.score(ranking, topic)
    raise NotSymbolic(f"{metric.name} is scored outside Python arithmetic ({type(metric).__name__})")


def guarded_score(metric: Metric, ranking: Ranking, topic: SymbolicTopic, run: Any = None) -> Any:
    """:func:`symbolic_score` as a :class:`~axiometer.proofs.reals.Real`, called through ``run(score,
    ranking, topic)`` (the checking engine's guard around a metric author's code) when given."""
    def score(ranking: Ranking, topic: SymbolicTopic) -> Any:
        return symbolic_score(metric, ranking, topic)

    return lift(score(ranking, topic) if run is None else run(score, ranking, topic))


def sign(value: Any) -> int:
    """The sign of a value, decided on the path (a :class:`~axiometer.proofs.reals.Real` branches)."""
    value = lift(value)
    if value > 0:
        return 1
    return -1 if value < 0 else 0


@dataclass(frozen=True)
class StructureVerdict:
    """One structure decided: ``holds`` (True: proved; False: ``values`` break it; None: ``reason``)."""

    holds: bool | None
    values: dict[str, Fraction] | None = None
    reason: str = ""
    paths: int = 0
    solver_calls: int = 0
    formula: str = ""   # the last formula z3 found unsatisfiable (the relation's failure), SMT-LIB 2
    too_many: bool = False   # undecided because the code has more paths than allowed


def decide_structure(metric: Metric, structure: Structure, holds: Callable[[int], bool], *,
                     max_paths: int = 256, deadline: float | None = None, keep_formula: bool = False,
                     run: Callable[[Callable[[Ranking, SymbolicTopic], Any], Ranking, SymbolicTopic], Any]
                     | None = None) -> StructureVerdict:
    """Does ``holds(sign(Q(b) - Q(a)))`` hold for every value of the structure's symbols?

    ``keep_formula``: the verdict carries the last formula z3 found unsatisfiable, in SMT-LIB.
    ``run(score, ranking, topic)`` calls ``score`` (a metric author's code under the checking
    engine's guard: its time limit and input checks); by default it is called directly.
    """
    topic = structure.topic

    def relation() -> bool:
        return holds(sign(guarded_score(metric, structure.b, topic, run)
                          - guarded_score(metric, structure.a, topic, run)))

    try:
        exploration = explore(relation, structure.base, max_paths=max_paths, deadline=deadline,
                              keep_formula=keep_formula)
    except NotSymbolic as error:
        return StructureVerdict(None, reason=str(error))
    except TooManyPaths as error:
        return StructureVerdict(None, reason=f"not decided on {structure.note}: {error}", too_many=True)
    except Undecidable as error:
        return StructureVerdict(None, reason=f"not decided on {structure.note}: {error}")
    except Exception as error:  # a metric author's code may raise anything on a symbolic value
        return StructureVerdict(None, reason=f"the metric cannot run on symbolic values "
                                             f"({type(error).__name__}: {error})")
    calls, count = exploration.solver_calls, len(exploration.paths)
    for path in exploration.paths:
        if not path.value:
            return StructureVerdict(False, structure.symbols.values(path.model), paths=count,
                                    solver_calls=calls)
    return StructureVerdict(True, paths=count, solver_calls=calls, formula=exploration.formula)
