"""Normalized Residual Gain (NRG) and unique contributions.

Clarke et al., "Evaluating Relative Retrieval Effectiveness with Normalized
Residual Gain", SIGIR-AP 2024 (``seeds/nrg2024_normalized_residual_gain.txt``).
A base metric is a browsing model (:mod:`axiometer.metrics.browsing`, eq. 1)
``S(R) = (1/N) sum_{i<=K} G(d_i) seen(i)``. Given prior rankings
``R_1..R_M`` (the context), a document's *residual gain* is what is left
after the searcher may have seen it in each prior ranking (eq. 3)::

    G(d | prior) = G(d) prod_j (1 - seen(pos(d, R_j)))

with ``seen(pos) = 0`` when ``d`` is not in the top ``K`` of ``R_j`` (prior
positions beyond K are ignored). NRG substitutes it for ``G`` (eq. 4)::

    NRG(R | prior) = (1/N) sum_{i<=K} G(d_i | prior) seen(i)

Conventions (docs/relative-nrg.md):

- ``norm='base'``: the base's own normaliser. For nDCG the ideal ranking sorts
  *all judged documents of the topic* by residual gain ("this ideal ranking
  should be derived by sorting items according to residual gain", section 2)
  and keeps K; an ideal of 0 (no residual gain left anywhere) gives 0. RBP
  keeps its constant ``1 - p``, P@K its ``1/K``.
- ``norm='none'``: the raw ``sum_i G(d_i | prior) seen(i)``.
- Ties in the ideal are irrelevant (only the multiset of the K largest
  residual gains enters its sum). Exactly, values with logarithms are
  ordered at 50 significant digits.

Unique contributions (Appendix B): ``G = rel(d)``, ``seen(i) = 1`` to the
pooling depth K, ``N = 1``: the number of relevant documents in the ranking's
top K that no prior ranking has in its top K.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np

from axiometer.core import Context, InputError, Ranking, Topic, ValidationError, cut
from axiometer.metrics.arithmetic import Arithmetic, Value
from axiometer.metrics.base import Needs, Param
from axiometer.metrics.browsing import BrowsingModel, HasBrowsingModel, binary_gain, constant_factor, flat
from axiometer.metrics.registry import register
from axiometer.metrics.relative import RelativeMetric, Reversion, StatedBound
from axiometer.metrics.resolve import resolve

__all__ = ["NRG", "UniqueContributions", "residual_factors"]

_SOURCE = "Clarke et al., Normalized Residual Gain, SIGIR-AP 2024"


def residual_factors(model: BrowsingModel, context: Context | None, A: Arithmetic) -> dict[str, Any]:
    """``prod_j (1 - seen(pos(d, R_j)))`` for every document in some prior's top K.

    Documents absent from every prior's top K have factor 1 and are not listed.
    """
    factors: dict[str, Any] = {}
    for prior in (context.rankings if context is not None else ()):
        for pos, doc in enumerate(model.window(prior), 1):
            left = A.one - model.seen(pos, A)
            factors[doc] = factors[doc] * left if doc in factors else left
    return factors


def _residual_score(model: BrowsingModel, norm: str, ranking: Sequence[str], topic: Topic,
                    A: Arithmetic, context: Context | None) -> Value:
    """Eq. 4 (``norm='base'``) or its raw sum (``norm='none'``)."""
    factors = residual_factors(model, context, A)

    def residual(doc: str) -> Any:
        gain = model.gain(doc, topic, A)
        factor = factors.get(doc)
        return gain if factor is None or not gain else gain * factor

    raw = model.raw((residual(d) for d in model.window(ranking)), A)
    if norm == "none":
        return raw
    return model.normalise(raw, lambda: (residual(d) for d in topic.documents), A)


def _score_systems(model: BrowsingModel, norm: str, topic: Topic,
                   rankings: Sequence[Sequence[str]], priors: Sequence[Sequence[int]]) -> np.ndarray:
    """Every system's residual score at once (float64).

    Only the documents in some ranking's top K matter: they are numbered
    ``0..U-1``; ``position[s, u]`` is ``u``'s rank in system ``s``'s top K
    (0: absent). The residual factor of system ``i`` is the product over its
    priors of ``1 - seen(position)``, computed as ``exp(sum log)`` with a
    separate count of zero factors (a document at a prior's rank where
    ``seen = 1`` has no residual gain). Judged documents outside every top K
    keep their full gain, so the ideal is the top K of (those gains, common
    to all systems) together with each system's residual gains of the top-K
    documents.
    """
    n = len(rankings)
    if n == 0:
        return np.zeros(0)
    rankings = [r if isinstance(r, Ranking) else Ranking(r) for r in rankings]  # duplicates: clear error
    windows = [model.window(r) for r in rankings]
    index: dict[str, int] = {}
    for window in windows:
        for doc in window:
            index.setdefault(doc, len(index))
    depth = max((len(w) for w in windows), default=0)
    seen = np.concatenate(([0.0], model.seen_array(depth)))  # seen[0] = 0: "not in the top K"
    position = np.zeros((n, len(index) + 1), dtype=np.int64)  # last column: padding, gain 0
    columns = np.full((n, depth), len(index), dtype=np.int64)
    for s, window in enumerate(windows):
        cols = [index[d] for d in window]
        columns[s, :len(cols)] = cols
        position[s, cols] = np.arange(1, len(cols) + 1)
    left = 1.0 - seen[position]
    if (left < 0.0).any():
        raise ValidationError(f"{model.name}: seen(i) > 1 at some rank; seen must be a probability")
    zero = left <= 0.0
    logs = np.log(np.where(zero, 1.0, left))
    member = np.zeros((n, n))
    for i, prior in enumerate(priors):
        member[i, list(prior)] = 1.0
    factor = np.exp(member @ logs) * ((member @ zero) == 0)
    docs = list(index)
    gains = np.concatenate((model.gain_array(docs, topic), [0.0]))
    residual = gains[None, :] * factor  # (systems, U + 1)
    raw = np.take_along_axis(residual, columns, axis=1) @ seen[1:depth + 1]
    if norm == "none":
        return raw
    if model.normaliser != "ideal":
        return raw * model.factor()
    outside = [d for d in topic.documents if d not in index]
    rest = -np.sort(-model.gain_array(outside, topic))
    judged = [index[d] for d in topic.documents if d in index]
    k = model.depth
    if k is not None:
        rest = rest[:k]
    candidates = np.concatenate((np.broadcast_to(rest, (n, len(rest))), residual[:, judged]), axis=1)
    best = -np.sort(-candidates, axis=1)
    if k is not None:
        best = best[:, :k]
    ideal = best @ model.seen_array(best.shape[1])
    out = np.zeros(n)
    np.divide(raw, ideal, out=out, where=ideal > 0)
    return out


class _ResidualGainMetric(RelativeMetric):
    """What NRG and unique contributions share: a browsing model and residual gains."""

    model: BrowsingModel
    norm: str

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Value:
        return _residual_score(self.model, self.norm, ranking, topic, A, context)

    def score_systems(self, topic: Topic, rankings: Sequence[Sequence[str]],
                      priors: Sequence[Sequence[int]]) -> np.ndarray:
        """Vectorised (numpy); equals the loop over :meth:`score` within 1e-12."""
        return _score_systems(self.model, self.norm, topic, rankings, priors)


class NRG(_ResidualGainMetric):
    """NRG(R | prior) = (1/N) sum_{i<=K} G(d_i | prior) seen(i), with
    G(d | prior) = G(d) prod_j (1 - seen(pos(d, R_j))) (NRG paper, section 2, eqs. 3-4).

    ``base``: a metric spec with a browsing model (``nDCG@10`` by default,
    ``DCG@k``, ``RBP(p=...)``, ``P@k``), or, through :meth:`over`, any metric
    object with a ``browsing_model()`` method. ``norm='base'`` divides by the
    base's normaliser (nDCG: the ideal ranking of the topic's judged documents
    sorted by residual gain, depth K; an ideal of 0 gives 0); ``norm='none'``
    gives the raw sum. NRG has no cutoff of its own: its ``cutoff`` is the
    base's K (also the depth to which prior rankings count). An empty prior
    set gives the base metric (eq. 4 reduces to eq. 1).
    Source: Clarke et al., SIGIR-AP 2024, eqs. 1-4.
    """

    family = "NRG"
    title = "NRG"
    cutoff_rule = "none"
    param_info = (
        Param("base", str, "nDCG@10", "the base metric (a spec with a browsing model), e.g. RBP(p=0.8)"),
        Param("norm", str, "base", "'base': the base's normaliser (ideal over residual gains); "
              "'none': the raw residual score", choices=("base", "none")),
    )

    base: str

    def __init__(self, cutoff: int | None = None, **params: Any) -> None:
        given = params.get("base", self.param_info[0].default)
        base_metric: Any = None
        if not isinstance(given, str):
            if not hasattr(given, "name"):
                raise ValidationError(f"NRG: base must be a metric spec or a metric, got {given!r}")
            base_metric = given
            params = {**params, "base": str(given.name)}
        super().__init__(cutoff, **params)
        if base_metric is None:
            base_metric = _parse_base(self.base)
        model = _model_of(base_metric)
        self.base_metric = base_metric
        # Scored from the base's gains: read the grades as the base's reference does.
        self.grades_convention = getattr(base_metric, "grades_convention", self.grades_convention)
        self.model = model
        self.cutoff = model.depth
        self.params = {"base": model.name, "norm": self.norm}
        self.base = model.name
        self.needs = Needs(aspects=False, graded=model.graded, context=True)
        self.normalised = self.norm == "base" and model.unit_range
        self.name = f"NRG(base={model.name}" + ("" if self.norm == "base" else f",norm={self.norm!r}") + ")"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # The browsing model holds closures, which do not pickle; the table runner ships
        # metrics to its worker processes, so an NRG travels as its base metric and norm.
        return (_rebuilt, (type(self), {"base": self.base_metric, "norm": self.norm}))

    @classmethod
    def over(cls, metric: Any, norm: str = "base") -> "NRG":
        """NRG over any metric object exposing ``browsing_model()`` (e.g. a metric author's own)."""
        return cls(base=metric, norm=norm)

    def replace(self, cutoff: Any = ..., **params: Any) -> "NRG":
        """The same NRG with ``base``/``norm`` changed (the cutoff belongs to the base)."""
        if cutoff is not ... and cutoff != self.cutoff:
            raise ValidationError("NRG takes no cutoff (@k); set the base's, e.g. NRG(base=nDCG@5)")
        merged = {"base": self.base_metric, "norm": self.norm, **params}
        return type(self)(**merged)

    def reversions(self) -> tuple[Reversion, ...]:
        if self.norm != "base":
            return ()  # the raw sum reduces to eq. 1 without N, not to the base metric
        return (Reversion(
            "an empty prior set gives the base metric", f"{_SOURCE}, section 2: 'If M = 0, we "
            "have G(d|R) = G(d), and so Equation 4 reduces to Equation 1'",
            self, self.base_metric, context="empty"),)

    def stated_bounds(self) -> tuple[StatedBound, ...]:
        if not self.normalised:
            return ()
        return (StatedBound(
            "normalised NRG lies in [0, 1]", f"{_SOURCE}, section 2, eq. 1: N is 'a normalization "
            "factor, typically intended to map the metric into a value in the range [0, 1]'",
            "score", lambda S: Fraction(0), lambda S: Fraction(1)),)


class UniqueContributions(_ResidualGainMetric):
    """Unique@K = sum_{i<=K} rel(d_i) prod_j [d_i not in the top K of R_j]:
    relevant documents in the top K that no prior ranking has in its top K.

    NRG with ``G = rel(d)``, ``seen(i) = 1`` to the pooling depth K, ``N = 1``
    ("exactly the number [of] unique contributions a ranking makes to the
    pool"). A cutoff is required (``Unique`` means ``Unique@10``).
    Source: Clarke et al., SIGIR-AP 2024, Appendix B.
    """

    family = "Unique"
    title = "unique contributions@K"
    cutoff_rule = "required"
    default_cutoff = 10
    needs = Needs(aspects=False, graded=False, context=True)
    counts_unique: ClassVar[bool] = True
    norm = "base"

    def __init__(self, cutoff: int | None = None, **params: Any) -> None:
        super().__init__(cutoff, **params)
        self.model = BrowsingModel(self.name, binary_gain, flat(self.cutoff), self.cutoff,
                                   constant_factor(1), unit_range=False, graded=False)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # As NRG's: the browsing model's closures do not pickle, the cutoff rebuilds it.
        return (_rebuilt, (type(self), {"cutoff": self.cutoff}))


def _rebuilt(cls: type, arguments: dict[str, Any]) -> Any:
    """``cls(**arguments)``: how a pickled NRG or Unique is made again (see their ``__reduce__``)."""
    return cls(**arguments)


class _BaseError(ValidationError):
    """A ``base=`` that is not a valid metric (raised once, at the innermost bad base)."""


def _parse_base(spec: str) -> Any:
    """The base metric a ``base=`` reference names, resolved as every command resolves one."""
    try:
        return resolve(spec).metric
    except InputError as error:
        if isinstance(error.__cause__ or error.__context__, _BaseError):
            raise  # a nested base's own error: said once, not wrapped at every level
        raise _BaseError(f"NRG: base {cut(spec, 60)!r} is not a valid metric "
                         f"({cut(error.problem, 160)})") from None


def _model_of(metric: Any) -> BrowsingModel:
    if not isinstance(metric, HasBrowsingModel):
        raise ValidationError(
            f"NRG: base {metric.name} has no browsing model (gain, seen(i), normaliser of NRG "
            "eq. 1); bases with one: nDCG, DCG, RBP, P, or a metric with a browsing_model() method")
    model = metric.browsing_model()
    if not isinstance(model, BrowsingModel):
        raise ValidationError(f"NRG: {metric.name}.browsing_model() returned {type(model).__name__},"
                              " not a BrowsingModel")
    return model


register(NRG, UniqueContributions, scores="relative")
