"""Set-based and user-oriented measures of Giner's Tables 2–3 (definitions §4).

A set-based measure scores a *set* of retrieved documents through its
contingency counts, a :class:`Contingency` ``(TP, FP, FN, TN)`` in a collection
of ``N = TP + FP + FN + TN`` documents with ``R = TP + FN`` relevant ones.
Korfhage's user-oriented measures score the same set against what one user
knows, a :class:`UserCounts` ``(U, Rk, Ru)`` (plus, for recall effort, the
relevant documents wanted and the documents examined to find them).

Every measure is written once, against an arithmetic ``A``
(:mod:`axiometer.metrics.arithmetic`): a ratio of sums of counts is one
declaration, its class line naming it and giving the ratio
(``ratio=("tp", "tp + fn")`` is recall) and its docstring the formula and the
source; the others implement :meth:`SetMeasure.formula`. Each evaluates three
ways:

- :meth:`SetMeasure.exact` — a ``Fraction`` (all these formulas are rational;
  float parameters are read exactly with :func:`axiometer.core.to_fraction`);
- :meth:`SetMeasure.score` — float64;
- :meth:`SetMeasure.score_counts` — float64 over numpy integer arrays of
  counts, for enumerating a whole domain at once.

**Edge case.** A ratio whose denominator is 0 (``0/0``: precision of the
empty set, recall with no relevant document, ...) is 0 — definitions §2's
rule, "a normaliser of 0 gives 0", the rule every axiometer metric follows.

Sources: the definitions are the standard ones restated in definitions §4 (the
extraction of Giner, "An Intrinsic Framework of Information Retrieval
Evaluation Measures", lost its formulas); each class names the source it follows.
Korfhage: *Information Storage and Retrieval* (Wiley, 1997), chapter 8.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import reduce
from numbers import Integral
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from axiometer.core import Topic, ValidationError
from axiometer.metrics.arithmetic import EXACT, FLOAT, FloatArithmetic
from axiometer.metrics.base import Param, format_value
from axiometer.metrics.registry import by_scores, families, family, register

__all__ = [
    "SET_MEASURES",
    "ExactCountsMeasure",
    "Accuracy",
    "Contingency",
    "ContingencyMeasure",
    "CoverageRatio",
    "ErrorRate",
    "FMeasure",
    "Fallout",
    "FalseDiscoveryRate",
    "FalseOmissionRate",
    "Generality",
    "InversePrecision",
    "InverseRecall",
    "MissRate",
    "NoveltyRatio",
    "Recall",
    "RecallEffort",
    "RelativeRecall",
    "SetMeasure",
    "SetPrecision",
    "Specificity",
    "UserCounts",
    "UserMeasure",
    "Utility",
    "set_measure",
]


def _count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ValidationError(f"{name} must be an integer count, got {value!r}")
    if value < 0:
        raise ValidationError(f"{name} = {value} is negative; counts must be >= 0")
    return int(value)


def _check_counts(cls: type, values: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Numpy arrays of non-negative integer counts, or a :class:`ValidationError`."""
    arrays = {}
    for name, value in values.items():
        array = np.asarray(value)
        if array.dtype.kind not in "iu":
            raise ValidationError(f"{cls.__name__}: {name} must be an integer array, got dtype {array.dtype}")
        if array.size and array.min() < 0:
            raise ValidationError(f"{cls.__name__}: {name} has a negative count ({array.min()})")
        # int64 holds every count below 2**63; a larger unsigned one would wrap negative there
        arrays[name] = array.astype(np.int64) if array.size == 0 or array.max() < 2 ** 63 else array.astype(float)
    return arrays


@dataclass(frozen=True)
class Contingency:
    """The contingency counts of a retrieved set: ``TP, FP, FN, TN >= 0``.

    ``N = TP + FP + FN + TN`` (collection size), ``R = TP + FN`` (relevant
    documents), ``retrieved = TP + FP``.
    """

    tp: int
    fp: int
    fn: int
    tn: int

    def __post_init__(self) -> None:
        for f in fields(self):
            object.__setattr__(self, f.name, _count(f.name.upper(), getattr(self, f.name)))

    @property
    def N(self) -> int:
        return self.tp + self.fp + self.fn + self.tn

    @property
    def R(self) -> int:
        return self.tp + self.fn

    @property
    def retrieved(self) -> int:
        return self.tp + self.fp

    @classmethod
    def of(cls, retrieved_docs: Iterable[str], topic: Topic, collection_size: int) -> Contingency:
        """The counts of ``retrieved_docs`` for ``topic`` in a collection of ``N`` documents.

        Relevant means ``topic.rel(d)`` (``r(d) > 0``); ``R = topic.R``. The
        collection must hold every relevant and every retrieved document:
        ``N >= R + FP``, else a :class:`ValidationError`.
        """
        docs = list(retrieved_docs)
        unique = set(docs)
        if len(unique) != len(docs):
            repeated = min(d for d in unique if docs.count(d) > 1)
            raise ValidationError(f"retrieved set lists document {repeated!r} twice")
        n = _count("collection_size", collection_size)
        tp = sum(1 for d in unique if topic.rel(d))
        fp = len(unique) - tp
        fn = topic.R - tp
        tn = n - tp - fp - fn
        if tn < 0:
            raise ValidationError(
                f"collection_size {n} is too small: the topic has {topic.R} relevant documents "
                f"and {fp} non-relevant ones were retrieved (N >= {tp + fp + fn})")
        return cls(tp, fp, fn, tn)

    @classmethod
    def from_counts(cls, N: int, R: int, tp: int, fp: int) -> Contingency:
        """The counts of a set with ``tp`` relevant and ``fp`` non-relevant documents
        in a collection of ``N`` documents with ``R`` relevant (the ``sets`` domain's
        coordinates)."""
        return cls(tp, fp, R - tp, N - R - fp)


@dataclass(frozen=True)
class UserCounts:
    """Korfhage's user-relative counts (all ``>= 0``).

    ``U``: relevant documents known to the user; ``Rk``: known relevant
    documents retrieved (``Rk <= U``); ``Ru``: relevant documents retrieved that
    the user did not know. For recall effort: ``wanted`` relevant documents the
    user wants and ``examined`` documents examined to find them
    (``wanted <= examined``; both 0 when not used).
    """

    U: int
    Rk: int
    Ru: int
    wanted: int = 0
    examined: int = 0

    def __post_init__(self) -> None:
        for f in fields(self):
            object.__setattr__(self, f.name, _count(f.name, getattr(self, f.name)))
        if self.Rk > self.U:
            raise ValidationError(f"Rk = {self.Rk} known relevant retrieved exceeds U = {self.U} known")
        if self.wanted > self.examined:
            raise ValidationError(
                f"wanted = {self.wanted} relevant documents cannot be found among "
                f"examined = {self.examined} documents")


class _ArrayArithmetic(FloatArithmetic):
    """float64 arithmetic over numpy arrays, with 0/0 -> 0 (definitions §2)."""

    @staticmethod
    def num(value: Any) -> Any:
        return np.asarray(value, dtype=np.float64) if isinstance(value, np.ndarray) else float(value)

    @staticmethod
    def ratio(numerator: Any, denominator: Any) -> np.ndarray:
        numerator, denominator = np.broadcast_arrays(
            np.asarray(numerator, dtype=np.float64), np.asarray(denominator, dtype=np.float64))
        out = np.zeros(numerator.shape, dtype=np.float64)
        return np.divide(numerator, denominator, out=out, where=denominator != 0)


_ARRAY = _ArrayArithmetic()


@runtime_checkable
class ExactCountsMeasure(Protocol):
    """A measure of counts with an exact value (every :class:`SetMeasure`; a metric author's measure
    of counts may have one too): what :func:`axiometer.intrinsic.classify.classify` decides ties with."""

    def exact(self, c: Any) -> Any: ...


class SetMeasure:
    """Base of the measures here: declared parameters, three evaluations.

    A measure is a subclass of :class:`ContingencyMeasure` or
    :class:`UserMeasure` (which set ``counts``), declared with its ``name``
    (its spec name in the metric registry) and ``title`` as class keywords. A ratio
    of sums of counts is declared whole with the keyword ``ratio``,
    ``(numerator, denominator)``, each a sum of count names, added left to
    right and divided with ``A.ratio`` (so 0/0 is 0)::

        class Recall(ContingencyMeasure, name="recall", title="Recall", ratio=("tp", "tp + fn")):
            '''Recall ``TP / (TP + FN)`` ...; Source: ...'''

    Any other measure declares ``param_info`` and implements :meth:`formula`
    once for every arithmetic.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    counts: ClassVar[type[Contingency] | type[UserCounts]]
    param_info: ClassVar[tuple[Param, ...]] = ()
    ratio: ClassVar[tuple[str, str] | None] = None
    _ratio_terms: ClassVar[tuple[tuple[str, ...], tuple[str, ...]]] = ((), ())

    def __init_subclass__(cls, *, name: str | None = None, title: str | None = None,
                          ratio: tuple[str, str] | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if name is not None:
            cls.name = name
        if title is not None:
            cls.title = title
        if ratio is not None:
            known = [f.name for f in fields(cls.counts)]
            terms = tuple(tuple(t.strip() for t in side.split("+")) for side in ratio)
            unknown = [t for side in terms for t in side if t not in known]
            if len(terms) != 2 or unknown:
                raise TypeError(f"{cls.__name__}: ratio must be (numerator, denominator), sums of "
                                f"the {cls.counts.__name__} counts {', '.join(known)}; got {ratio!r}")
            cls.ratio, cls._ratio_terms = ratio, terms

    def __init__(self, **params: Any) -> None:
        declared = {p.name: p for p in self.param_info}
        unknown = sorted(set(params) - set(declared))
        if unknown:
            raise ValidationError(
                f"{self.name}: unknown parameter {unknown[0]!r} "
                f"(parameters: {', '.join(declared) or 'none'})")
        self.params: dict[str, Any] = {
            p.name: p.validate(params.get(p.name, p.default), self.name) for p in self.param_info}

    @property
    def spec(self) -> str:
        """``name(param=value,...)``, e.g. ``F(beta=2)``."""
        inner = ",".join(f"{k}={format_value(v)}" for k, v in self.params.items())
        return self.name + (f"({inner})" if inner else "")

    def formula(self, A: Any, *_: Any, **counts: Any) -> Any:
        """The formula, written once for :data:`FLOAT`, :data:`EXACT` and arrays
        (by default the declared ``ratio``).

        Called with every count by name; a measure's own formula names its counts
        (``formula(self, A, tp, fp, fn, tn)``), which the catch-all ``*_, **counts`` here lets a
        type checker accept as an override. Nothing is passed positionally."""
        if self.ratio is None:
            raise NotImplementedError
        numerator, denominator = (reduce(operator.add, (counts[t] for t in side))
                                  for side in self._ratio_terms)
        return A.ratio(numerator, denominator)

    def _counts_of(self, c: Any) -> dict[str, int]:
        if not isinstance(c, self.counts):
            raise ValidationError(f"{self.name} scores {self.counts.__name__}, got {type(c).__name__}")
        return {f.name: getattr(c, f.name) for f in fields(c)}

    def _param(self, A: Any, name: str) -> Any:
        return A.num(self.params[name])

    def exact(self, c: Any) -> Fraction:
        """The exact value, a ``Fraction``."""
        value = self.formula(EXACT, **{k: EXACT.num(v) for k, v in self._counts_of(c).items()})
        return EXACT.result(value)

    def score(self, c: Any) -> float:
        """The float64 value."""
        return float(self.formula(FLOAT, **{k: FLOAT.num(v) for k, v in self._counts_of(c).items()}))

    def _score_arrays(self, **counts: Any) -> np.ndarray:
        arrays = _check_counts(type(self), counts)
        try:
            arrays = dict(zip(arrays, np.broadcast_arrays(*arrays.values())))
        except ValueError as error:
            raise ValidationError(f"{self.name}: count arrays do not broadcast ({error})") from None
        self._check_arrays(arrays)
        value = self.formula(_ARRAY, **{k: v.astype(np.float64) for k, v in arrays.items()})
        return np.broadcast_to(np.asarray(value, dtype=np.float64),
                               next(iter(arrays.values())).shape).copy()

    def _check_arrays(self, arrays: Mapping[str, np.ndarray]) -> None:
        """Cross-count checks for the vectorised path (the dataclasses check scalars)."""

    def __repr__(self) -> str:
        return self.spec

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash((type(self), self.spec))


class ContingencyMeasure(SetMeasure):
    """A measure of a retrieved set's contingency counts."""

    counts = Contingency

    def score_counts(self, tp: Any, fp: Any, fn: Any, tn: Any) -> np.ndarray:
        """Scores of every ``(tp[i], fp[i], fn[i], tn[i])`` (numpy integer arrays, broadcast)."""
        return self._score_arrays(tp=tp, fp=fp, fn=fn, tn=tn)


class UserMeasure(SetMeasure):
    """A Korfhage user-oriented measure of :class:`UserCounts`."""

    counts = UserCounts

    def score_counts(self, U: Any, Rk: Any, Ru: Any, wanted: Any = 0, examined: Any = 0) -> np.ndarray:
        """Scores of every ``(U[i], Rk[i], Ru[i], wanted[i], examined[i])`` (integer arrays)."""
        return self._score_arrays(U=U, Rk=Rk, Ru=Ru, wanted=wanted, examined=examined)

    def _check_arrays(self, arrays: Mapping[str, np.ndarray]) -> None:
        if np.any(arrays["Rk"] > arrays["U"]):
            raise ValidationError(f"{self.name}: some Rk exceeds U")
        if np.any(arrays["wanted"] > arrays["examined"]):
            raise ValidationError(f"{self.name}: some wanted exceeds examined")


# -- contingency measures ------------------------------------------------------
class Recall(ContingencyMeasure, name="recall", title="Recall", ratio=("tp", "tp + fn")):
    """Recall ``TP / (TP + FN)`` = TP / R; 0 when R = 0 (0/0 rule).

    Source: the standard definition (van Rijsbergen, *Information Retrieval*,
    1979, ch. 7), as definitions §4 restates it.
    """


class SetPrecision(ContingencyMeasure, name="precision", title="Precision", ratio=("tp", "tp + fp")):
    """Precision ``TP / (TP + FP)``; 0 for the empty set (0/0 rule).

    Source: van Rijsbergen (1979), ch. 7, as definitions §4 restates it.
    """


class Fallout(ContingencyMeasure, name="fallout", title="Fallout", ratio=("fp", "fp + tn")):
    """Fallout ``FP / (FP + TN)``; 0 when there is no non-relevant document (0/0 rule).

    Source: van Rijsbergen (1979), ch. 7, as definitions §4 restates it.
    """


class MissRate(ContingencyMeasure, name="miss_rate", title="Miss rate", ratio=("fn", "tp + fn")):
    """Miss rate ``FN / (TP + FN)`` (1 - recall when R > 0); 0 when R = 0 (0/0 rule).

    Source: the standard confusion-matrix definition (false negative rate), as
    definitions §4 restates it.
    """


class Accuracy(ContingencyMeasure, name="accuracy", title="Accuracy",
               ratio=("tp + tn", "tp + fp + fn + tn")):
    """Accuracy ``(TP + TN) / N``; 0 when N = 0 (0/0 rule).

    Source: the standard confusion-matrix definition, as definitions §4 restates it.
    """


class ErrorRate(ContingencyMeasure, name="error_rate", title="Error rate",
                ratio=("fp + fn", "tp + fp + fn + tn")):
    """Error rate ``(FP + FN) / N``; 0 when N = 0 (0/0 rule).

    Source: the standard confusion-matrix definition, as definitions §4 restates it.
    """


class InverseRecall(ContingencyMeasure, name="inverse_recall", title="Inverse recall",
                    ratio=("tn", "fp + tn")):
    """Inverse recall ``TN / (FP + TN)`` (recall of the non-relevant class);
    0 when there is no non-relevant document (0/0 rule).

    Source: Powers, "Evaluation: from precision, recall and F-measure to ROC,
    informedness, markedness and correlation" (2011), as definitions §4 restates it.
    """


class Specificity(InverseRecall, name="specificity", title="Specificity"):
    """Specificity ``TN / (FP + TN)``: the same formula as inverse recall
    (true negative rate); 0/0 gives 0.

    Source: the standard confusion-matrix definition, as definitions §4 restates it.
    """


class InversePrecision(ContingencyMeasure, name="inverse_precision", title="Inverse precision",
                       ratio=("tn", "tn + fn")):
    """Inverse precision ``TN / (TN + FN)`` (precision of the non-retrieved set);
    0 when everything is retrieved (0/0 rule).

    Source: Powers (2011), as definitions §4 restates it.
    """


class FalseDiscoveryRate(ContingencyMeasure, name="FDR", title="False discovery rate",
                         ratio=("fp", "tp + fp")):
    """False discovery rate ``FP / (TP + FP)``; 0 for the empty set (0/0 rule).

    Source: Benjamini & Hochberg (1995), as definitions §4 restates it.
    """


class FalseOmissionRate(ContingencyMeasure, name="FOR", title="False omission rate",
                        ratio=("fn", "tn + fn")):
    """False omission rate ``FN / (TN + FN)``; 0 when everything is retrieved (0/0 rule).

    Source: the standard confusion-matrix definition, as definitions §4 restates it.
    """


class FMeasure(ContingencyMeasure, name="F", title="F-measure"):
    """F-measure ``F_beta = (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)``, ``b = beta``.

    ``beta = 1`` (default) is ``F1 = 2TP / (2TP + FP + FN)``, the harmonic mean
    of precision and recall. 0 when TP = FP = FN = 0 (0/0 rule).
    Source: van Rijsbergen (1979), ch. 7 (``F = 1 - E``), as definitions §4 restates it.
    """

    param_info = (Param("beta", float, 1, "weight of recall relative to precision",
                        low=0, low_open=True, grid=(0.5, 1, 2)),)

    def formula(self, A: Any, tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
        b2 = self._param(A, "beta") ** 2
        return A.ratio((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)


class Generality(ContingencyMeasure, name="generality", title="Generality",
                 ratio=("tp + fn", "tp + fp + fn + tn")):
    """Generality (prevalence) ``R / N = (TP + FN) / N``; 0 when N = 0 (0/0 rule).

    It does not depend on the retrieved set at all (constant on any domain with
    fixed R and N). Source: the standard definition (Salton & McGill, 1983), as
    definitions §4 restates it.
    """


class Utility(ContingencyMeasure, name="utility", title="Utility"):
    """Linear utility ``a TP - b FP - c FN + d TN`` with user weights ``a, b, c, d >= 0``.

    Defaults ``a = b = 1, c = d = 0`` (``TP - FP``: a retrieved relevant
    document gains 1, a retrieved non-relevant one costs 1). Not a ratio, so no
    0/0 case. Source: Lewis, "Evaluating and optimizing autonomous text
    classification systems" (SIGIR 1995), as definitions §4 restates it.
    """

    param_info = (
        Param("a", float, 1, "gain per retrieved relevant document (TP)", low=0),
        Param("b", float, 1, "cost per retrieved non-relevant document (FP)", low=0),
        Param("c", float, 0, "cost per missed relevant document (FN)", low=0),
        Param("d", float, 0, "gain per rejected non-relevant document (TN)", low=0),
    )

    def formula(self, A: Any, tp: Any, fp: Any, fn: Any, tn: Any) -> Any:
        a, b, c, d = (self._param(A, k) for k in "abcd")
        return a * tp - b * fp - c * fn + d * tn


# -- Korfhage's user-oriented measures ----------------------------------------
class CoverageRatio(UserMeasure, name="coverage_ratio", title="Coverage ratio", ratio=("Rk", "U")):
    """Coverage ratio ``Rk / U``: the share of the relevant documents the user
    knows that were retrieved; 0 when U = 0 (0/0 rule).

    Source: Korfhage (1997), ch. 8, as definitions §4 restates it.
    """


class NoveltyRatio(UserMeasure, name="novelty_ratio", title="Novelty ratio",
                   ratio=("Ru", "Rk + Ru")):
    """Novelty ratio ``Ru / (Rk + Ru)``: the share of the retrieved relevant
    documents that were new to the user; 0 when none was retrieved (0/0 rule).

    Source: Korfhage (1997), ch. 8, as definitions §4 restates it.
    """


class RelativeRecall(UserMeasure, name="relative_recall", title="Relative recall",
                     ratio=("Rk + Ru", "U + Ru")):
    """Relative recall ``(Rk + Ru) / (U + Ru)``: retrieved relevant documents
    over all relevant documents the user knows of after the search; 0 when
    ``U + Ru = 0`` (0/0 rule).

    Source: Korfhage (1997), ch. 8, as definitions §4 restates it.
    """


class RecallEffort(UserMeasure, name="recall_effort", title="Recall effort",
                   ratio=("wanted", "examined")):
    """Recall effort ``wanted / examined``: relevant documents the user wants
    over the documents examined to find them; 0 when nothing was examined
    (0/0 rule; ``wanted <= examined``).

    Source: Korfhage (1997), ch. 8, as definitions §4 restates it.
    """


# Every measure here by its readable name (``inverse_recall`` and ``specificity``
# are the same formula under Giner's two names), in the one metric registry.
register(Recall, SetPrecision, Fallout, MissRate, Accuracy, ErrorRate, InverseRecall,
         Specificity, InversePrecision, FalseDiscoveryRate, FalseOmissionRate, FMeasure,
         Generality, Utility, CoverageRatio, NoveltyRatio, RelativeRecall, RecallEffort, scores="set")

#: The set measures by name: a read-only view of the registry's ``set`` families.
SET_MEASURES: Mapping[str, type[SetMeasure]] = by_scores("set")


def set_measure(name: str, **params: Any) -> SetMeasure:
    """The measure registered as ``name`` with ``params``: ``set_measure("F", beta=2)``."""
    if name not in families("set"):
        raise ValidationError(f"unknown set measure {name!r}; known: {', '.join(families('set'))}")
    return family(name)(**params)
