"""A metric author's object behind the :class:`~axiometer.metrics.base.Metric` protocol.

The protocol asks only ``name`` and ``score`` of a metric author's object
(docs/api.md); everything else it may leave out. :class:`UserMetric` reads
what the object declares once, here, and gives each member it lacks its
default, so that the code below :func:`axiometer.metrics.resolve.resolve`
knows every member of every metric and probes none:

========================  =============================================
member                    when the object does not declare it
========================  =============================================
``family``                its ``name``
``cutoff``                ``None``
``needs``                 ``Needs()``: graded, no aspects, no context
``param_info``/``params`` none
``exact``                 ``None``, also unless ``exact_available`` is true
``replace``               none: :attr:`UserMetric.replaceable` is false
``reversions`` ...        no claims (:class:`~axiometer.metrics.base.MetricDefaults`)
``grades_convention``     ``None``: as trec_eval (``linear``)
``base``                  ``None`` (a relative metric's base metric)
========================  =============================================

Its ``score`` insists on a finite real number (:func:`~axiometer.metrics.base.score_value`),
the one check of a metric author's return value; the error text starts with ``returned``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from axiometer.core import Context, Topic
from axiometer.grades import GradeConvention
from axiometer.metrics.base import ExactScorer, Metric, MetricDefaults, Needs, Param, score_value

__all__ = ["UserMetric", "adapt"]

#: What a metric author's object may leave out, with its default.
_OPTIONAL: Mapping[str, Any] = {
    "name": None, "family": None, "cutoff": None, "needs": None, "param_info": (), "params": {},
    "exact_available": False, "exact": None, "replace": None, "reversions": None,
    "stated_bounds": None, "counts_unique": False, "grades_convention": None, "base": None,
}


class UserMetric:
    """A metric author's object with every member of the protocol (see the module docstring).

    ``inner`` is the object itself. Equal to another adapter of an equal object; its ``repr`` is
    the object's.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        # The one place an object's optional members are looked up.
        declared = {member: getattr(inner, member, default) for member, default in _OPTIONAL.items()}
        #: ``None`` only for an object that is no metric (:func:`~axiometer.metrics.resolve.resolve` refuses it).
        self.name: str = declared["name"]
        self.family: str = declared["family"] or self.name
        self.cutoff: int | None = declared["cutoff"]
        self.needs: Needs = _needs(declared["needs"])
        self.param_info: tuple[Param, ...] = tuple(declared["param_info"])
        self.params: Mapping[str, Any] = declared["params"]
        self.counts_unique: bool = bool(declared["counts_unique"])
        convention = declared["grades_convention"]
        self.grades_convention: GradeConvention | None = (
            convention if isinstance(convention, GradeConvention) else None)
        self._exact_available = bool(declared["exact_available"]) and declared["exact"] is not None
        #: Whether the object has ``replace()``, so that its parameters and cutoff can be set.
        self.replaceable = declared["replace"] is not None
        self._claims = declared["reversions"] is not None, declared["stated_bounds"] is not None
        #: The metric a relative metric builds on, if it names one (its cutoff is the prior depth).
        self.base: Metric | None = adapt(declared["base"]) if declared["base"] is not None else None

    @property
    def exact(self) -> ExactScorer | None:
        """The object's ``exact`` if it declares ``exact_available``, else ``None``."""
        return self._exact if self._exact_available else None

    def score(self, ranking: Sequence[str], topic: Topic, context: Context | None = None) -> float:
        """The object's score (called without a context when there is none), a finite float."""
        score = self.inner.score
        return score_value(score(ranking, topic, context) if context is not None else score(ranking, topic))

    def _exact(self, ranking: Sequence[str], topic: Topic, context: Context | None = None) -> Any:
        exact = self.inner.exact
        return exact(ranking, topic, context) if context is not None else exact(ranking, topic)

    def replace(self, cutoff: Any = ..., **params: Any) -> Metric:
        """The object's ``replace(...)``, adapted; a ``TypeError`` if it has none."""
        if not self.replaceable:
            raise TypeError(f"{self.name} has no replace()")
        return adapt(self.inner.replace(**params) if cutoff is ... else
                     self.inner.replace(cutoff=cutoff, **params))

    def reversions(self) -> tuple[Any, ...]:
        """The object's reversion claims, their metrics adapted."""
        if not self._claims[0]:
            return ()
        return tuple(dataclasses.replace(r, metric=adapt(r.metric), base=adapt(r.base))
                     for r in self.inner.reversions())

    def stated_bounds(self) -> tuple[Any, ...]:
        return tuple(self.inner.stated_bounds()) if self._claims[1] else ()

    def rarities(self, ranking: Sequence[str], topic: Topic, context: Context, A: Any) -> dict[str, Any]:
        """The object's per-document rarities (a rarity bound it states is checked on them)."""
        return dict(self.inner.rarities(ranking, topic, context, A))

    def __repr__(self) -> str:
        return repr(self.inner)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UserMetric) and other.inner == self.inner

    def __hash__(self) -> int:
        return hash(self.inner)


def _needs(declared: Any) -> Needs:
    """A declared ``needs`` as :class:`Needs`: ``Needs()`` if none, each flag it lacks at its default."""
    if declared is None or isinstance(declared, Needs):
        return declared or Needs()
    return Needs(**{f.name: bool(getattr(declared, f.name, f.default)) for f in dataclasses.fields(Needs)})


def adapt(metric: Any) -> Metric:
    """``metric`` in the one shape: a built-in, a wrapped function, an ir_measures measure or an
    object already adapted as it is, any other object behind a :class:`UserMetric`."""
    if isinstance(metric, (MetricDefaults, UserMetric)):
        return metric  # type: ignore[return-value]  # axiometer's own classes implement the protocol
    return UserMetric(metric)
