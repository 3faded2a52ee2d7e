"""What relative (novelty) metrics share: the context, reversions and stated bounds.

A relative metric scores a ranking *given other systems' rankings* for the
same topic (definitions §6): the "prior set" of NRG, the "existing systems"
of Fujii, the "other systems" whose retrieval makes a document common for
Türkmen et al. The :class:`~axiometer.core.Context` always holds the *other*
systems; a metric that counts the evaluated system too (rareness: "all
systems including the evaluated one") adds it itself.

Besides ``score``/``exact``, a relative metric declares what its paper claims,
so that the properties of :mod:`axiometer.axioms` can check the claims:

- :meth:`RelativeMetric.reversions`: "alpha = 0 gives P@k", "an empty prior
  set gives the base metric" (property Rev);
- :meth:`RelativeMetric.stated_bounds`: the ranges the paper states (Bounded);
- ``counts_unique``: the score is the number of unique relevant
  contributions (Unique);

and scores a whole campaign at once with :meth:`RelativeMetric.score_systems`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from axiometer.core import Context, Ranking, Topic
from axiometer.metrics.base import BuiltinMetric, ExactScorer, Metric, Needs, MetricDefaults

__all__ = ["Reversion", "StatedBound", "RelativeMetric", "InContext", "systems_retrieving"]


@dataclass(frozen=True)
class Reversion:
    """A claim "``metric`` equals ``base``" (property Rev).

    ``context``: ``"any"`` (the two agree on every context, e.g. alpha = 0) or
    ``"empty"`` (they agree when the context is empty, e.g. NRG with no prior
    set). ``metric`` is the relative metric at the reverting setting; ``base``
    an ordinary metric, scored without context.
    """

    text: str
    source: str
    metric: Metric
    base: Metric
    context: str = "any"


@dataclass(frozen=True)
class StatedBound:
    """A range a paper states for a quantity (property Bounded).

    ``quantity``: ``"score"`` (the metric's value) or ``"rarity"`` (the value
    of :meth:`RelativeMetric.rarities` for each retrieved document).
    ``low``/``high`` map ``S`` (the number of systems, the evaluated one
    included) to an exact bound; ``None`` means unbounded on that side. A
    paper's stated maximum ("reaches 2(S-1)/S") is a bound too: a value beyond
    it is a counterexample to the paper.
    """

    claim: str
    source: str
    quantity: str
    low: Callable[[int], Fraction] | None
    high: Callable[[int], Fraction] | None
    low_open: bool = False
    high_open: bool = False


class RelativeMetric(BuiltinMetric):
    """Base class of metrics that need a context (``needs.context`` is true)."""

    needs: Needs = Needs(aspects=False, graded=False, context=True)
    counts_unique: ClassVar[bool] = False

    def reversions(self) -> tuple[Reversion, ...]:
        """The reversion claims of this metric's paper (none by default)."""
        return ()

    def stated_bounds(self) -> tuple[StatedBound, ...]:
        """The ranges this metric's paper states (none by default)."""
        return ()

    def rarities(self, ranking: Sequence[str], topic: Topic, context: Context, A: Any) -> dict[str, Any]:
        """Per-document rarity of the documents the metric sees (rareness metrics only)."""
        raise NotImplementedError(f"{self.family} has no rarity")

    def score_systems(self, topic: Topic, rankings: Sequence[Sequence[str]],
                      priors: Sequence[Sequence[int]]) -> np.ndarray:
        """Scores of every system of a campaign on one topic.

        ``rankings[i]`` is system ``i``'s ranking; ``priors[i]`` the indices of
        the systems forming its context. The default loops over :meth:`score`;
        metrics override it with a vectorised path.
        """
        ranked = [r if isinstance(r, Ranking) else Ranking(r) for r in rankings]
        return np.array([self.score(ranked[i], topic, Context(tuple(ranked[j] for j in priors[i])))
                         for i in range(len(ranked))], dtype=np.float64)


def systems_retrieving(doc: str, context: Context, depth: int | None) -> int:
    """How many of the context's rankings retrieve ``doc`` in their first ``depth`` positions."""
    return sum(1 for ranking in context.rankings
               if doc in (ranking if depth is None else ranking[:depth]))


class InContext(MetricDefaults):
    """A relative metric with its context fixed: an ordinary metric of ``(ranking, topic)``.

    The intrinsic checks (definitions §6: "the ten constraints and the
    intrinsic checks also apply to a relative metric under a fixed context")
    score a whole domain of rankings against one context. The name says which:
    ``NRG(base=nDCG@10) | s1 = r2 r1 o1``.
    """

    def __init__(self, metric: Metric, context: Context) -> None:
        self.metric = metric
        self.context = context
        self.family = metric.family
        self.cutoff = metric.cutoff
        self.param_info = metric.param_info
        self.params = metric.params
        self.grades_convention = metric.grades_convention
        inner = metric.needs
        self.needs = Needs(aspects=inner.aspects, graded=inner.graded, context=False)
        shown = "; ".join(f"s{i} = {' '.join(r) or '(empty)'}" for i, r in enumerate(context.rankings, 1))
        self.name = f"{metric.name} | {shown or 'no other system'}"

    @property
    def exact(self) -> ExactScorer | None:
        """The metric's exact scorer in this context; ``None`` if it has none."""
        return None if self.metric.exact is None else self._exact

    def score(self, ranking: Sequence[str], topic: Topic, context: Context | None = None) -> float:
        return self.metric.score(ranking, topic, self.context)

    def _exact(self, ranking: Sequence[str], topic: Topic, context: Context | None = None) -> Any:
        assert self.metric.exact is not None  # only handed out when it is not
        return self.metric.exact(ranking, topic, self.context)

    def replace(self, cutoff: Any = ..., **params: Any) -> "InContext":
        return InContext(self.metric.replace(cutoff, **params), self.context)

    def __repr__(self) -> str:
        return self.name
