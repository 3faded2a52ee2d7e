"""The metric protocol, declared parameters, and the base of built-in metrics.

A *metric* is any object with

- ``name``: its canonical spec string (``"nDCG@10"``, ``"RBP(p=0.8)"``);
- ``param_info``: the declared parameters (:class:`Param`: type, default,
  range, description, the paper's grid) and ``params``, their values;
- ``cutoff``: ``k`` or ``None``;
- ``needs``: what it uses (:class:`Needs`: aspects, graded relevance, context);
- ``score(ranking, topic, context=None) -> float``.

Built-in metrics (subclasses of :class:`BuiltinMetric`) write their formula
once against an arithmetic (see :mod:`axiometer.metrics.arithmetic`) and so
offer both ``score`` (float64) and ``exact`` (``Fraction`` or sympy), plus a
vectorised ``score_batch`` over many rankings of one topic.

A metric author's plain function ``f(ranking, topic) -> float`` becomes a
metric with :func:`wrap`; a metric author's object, which need declare only
``name`` and ``score``, gets every other member of :class:`Metric` from
:class:`axiometer.metrics.adapter.UserMetric`, once, when it is resolved.
Below :func:`axiometer.metrics.resolve.resolve` every metric has the one
shape, :class:`Metric` (:class:`ExactMetric` when ``exact`` is not ``None``).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from numbers import Real
from typing import Any, ClassVar, Protocol, TypeGuard, runtime_checkable

import numpy as np

from axiometer.core import AxiometerError, Context, Ranking, Topic, ValidationError
from axiometer.grades import AXIOMETER_DEFAULT, GradeConvention
from axiometer.metrics.arithmetic import EXACT, FLOAT, Arithmetic, ExactValue
from axiometer.metrics.spec import format_value

__all__ = [
    "Param",
    "Needs",
    "Metric",
    "ExactMetric",
    "ExactScorer",
    "MetricDefaults",
    "MetricError",
    "NotANumber",
    "UndefinedScore",
    "BuiltinMetric",
    "RelevantNormalisedMetric",
    "FunctionMetric",
    "RankingBatch",
    "wrap",
    "format_value",
    "score_value",
]


class MetricError(AxiometerError):
    """A metric misbehaved: it raised, or returned something that is not a finite number."""


class NotANumber(MetricError):
    """A metric returned something that is not a finite real number (:func:`score_value`)."""


class UndefinedScore(MetricError):
    """The metric's own formula is undefined on this input, and the metric says so.

    Raised by a built-in on purpose (Fujii's U with ``policy='error'`` where a
    log is undefined; the revised rarity ``R'`` with one system), never a
    silent nan or inf. The Finite property counts it as "not real-valued here".
    """


@dataclass(frozen=True)
class Param:
    """A declared metric parameter (cf. ir_measures' ``ParamInfo``).

    ``low``/``high`` bound the range; ``low_open``/``high_open`` make a bound
    strict. ``grid`` is the set of values the source paper tested (definitions
    §2), used by the checks as the default parameter grid.
    """

    name: str
    type: type
    default: Any
    description: str
    low: int | float | Fraction | None = None
    high: int | float | Fraction | None = None
    low_open: bool = False
    high_open: bool = False
    choices: tuple[Any, ...] | None = None
    grid: tuple[Any, ...] = ()
    #: ``False``: left out of the metric's name and ``params`` at its default (``rel``: ``P@10``, not
    #: ``P(rel=1)@10``), so adding such a parameter renames nothing.
    shown_at_default: bool = True
    #: ``False``: a setting of how the metric reads its input, not of the formula: the checks keep the
    #: given value instead of walking a grid or locating boundaries over it.
    varies: bool = True

    def range_text(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.low is None and self.high is None:
            return "any " + self.type.__name__
        left = "(" if self.low_open else "["
        right = ")" if self.high_open else "]"
        low = "-inf" if self.low is None else repr(self.low)
        high = "inf" if self.high is None else repr(self.high)
        return f"{self.type.__name__} in {left}{low}, {high}{right}"

    def validate(self, value: Any, metric: str = "") -> Any:
        """Coerce ``value`` to the declared type, or raise a :class:`ValidationError`."""
        where = f"{metric}: " if metric else ""
        if self.choices is not None:
            if value not in self.choices:
                raise ValidationError(
                    f"{where}parameter {self.name}={value!r} must be {self.range_text()}")
            return value
        if self.type in (int, float):
            ok = isinstance(value, (int, float, Fraction)) and not isinstance(value, bool)
            if self.type is int and isinstance(value, float) and not value.is_integer():
                ok = False
            if not ok or (isinstance(value, float) and not math.isfinite(value)):
                raise ValidationError(
                    f"{where}parameter {self.name} must be a {self.type.__name__}, got {value!r}")
            value = int(value) if self.type is int else value
            below = self.low is not None and (value <= self.low if self.low_open else value < self.low)
            above = self.high is not None and (value >= self.high if self.high_open else value > self.high)
            if below or above:
                raise ValidationError(
                    f"{where}parameter {self.name}={value!r} is outside its range, {self.range_text()}")
            return value
        if not isinstance(value, self.type):
            raise ValidationError(
                f"{where}parameter {self.name} must be a {self.type.__name__}, got {value!r}")
        return value


@dataclass(frozen=True)
class Needs:
    """What a metric uses from its input.

    ``aspects``: it distinguishes aspects (diversity metrics); ``graded``: it
    distinguishes relevance grades (otherwise it sees the binary view);
    ``context``: it scores relative to other systems' rankings.
    """

    aspects: bool = False
    graded: bool = True
    context: bool = False


#: An exact scorer: ``exact(ranking, topic, context=None)``, a ``Fraction`` or a sympy expression.
ExactScorer = Callable[..., ExactValue]


@runtime_checkable
class Metric(Protocol):
    """The one shape of a metric below :func:`axiometer.metrics.resolve.resolve` (see the module
    docstring): built-ins, wrapped functions, ir_measures measures and a metric author's objects
    (behind :class:`axiometer.metrics.adapter.UserMetric`) all have every member.

    ``family``: the name without ``(params)@k`` (a function's name); ``exact``: the exact scorer,
    ``None`` for a float-only metric; ``reversions``/``stated_bounds``/``counts_unique``: what a
    relative metric's paper claims (:mod:`axiometer.metrics.relative`; none by default);
    ``grades_convention``: how scoring reads grades for it, ``None``: as trec_eval does (``linear``).
    """

    @property
    def family(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def cutoff(self) -> int | None: ...
    @property
    def needs(self) -> Needs: ...
    @property
    def param_info(self) -> tuple[Param, ...]: ...
    @property
    def params(self) -> Mapping[str, Any]: ...
    @property
    def exact(self) -> ExactScorer | None: ...
    @property
    def counts_unique(self) -> bool: ...
    @property
    def grades_convention(self) -> GradeConvention | None: ...

    def score(self, ranking: Sequence[str], topic: Topic, context: Context | None = None) -> float:
        ...

    def replace(self, cutoff: Any = ..., **params: Any) -> Metric:
        """The same metric with some parameters (or the cutoff) changed."""
        ...

    def reversions(self) -> tuple[Any, ...]:
        """:class:`~axiometer.metrics.relative.Reversion` claims (property Rev)."""
        ...

    def stated_bounds(self) -> tuple[Any, ...]:
        """:class:`~axiometer.metrics.relative.StatedBound` claims (property Bounded)."""
        ...


class ExactMetric(Metric, Protocol):
    """A metric with an exact path: ``exact`` is a scorer, never ``None``."""

    def exact(self, ranking: Sequence[str], topic: Topic, context: Context | None = None) -> ExactValue:
        ...


class MetricDefaults:
    """The base of axiometer's own metric classes: what a metric claims when it claims nothing
    (the :class:`Metric` members a relative metric's paper fills in): no reversion, no stated
    bound, not a count of unique documents. :func:`axiometer.metrics.adapter.adapt` passes an
    instance on as it is."""

    counts_unique: ClassVar[bool] = False

    def reversions(self) -> tuple[Any, ...]:
        return ()

    def stated_bounds(self) -> tuple[Any, ...]:
        return ()


def _metric_name(family: str, params: Mapping[str, Any], cutoff: int | None) -> str:
    inner = ",".join(f"{k}={format_value(v)}" for k, v in params.items())
    return family + (f"({inner})" if inner else "") + (f"@{cutoff}" if cutoff is not None else "")


class RankingBatch:
    """Many rankings of one topic as dense arrays, for vectorised scoring.

    ``gains[s, i, t]`` is ``r(d_{i+1}, t)`` of ranking ``s`` (zero past its
    end), ``lengths[s]`` its length, ``weights[t]`` the aspect weights.
    ``single`` is the aspect-blind view ``max_t``. ``judged_gains`` and
    ``judged_single`` hold the same values for every judged document of the
    topic (what ideal rankings are built from), as floats computed once per
    batch. Build once per topic and score every metric on it.
    """

    __slots__ = ("topic", "gains", "lengths", "weights", "_single", "judged", "_judged_gains",
                 "_judged_single")

    def __init__(self, topic: Topic, gains: np.ndarray, lengths: np.ndarray,
                 judged: np.ndarray | None = None) -> None:
        self.topic = topic
        self.gains = gains
        self.lengths = lengths
        self.weights = np.array([float(w) for w in topic.weights])
        self.judged = judged
        self._single: np.ndarray | None = None
        self._judged_gains: np.ndarray | None = None
        self._judged_single: np.ndarray | None = None

    @staticmethod
    def _relevance_table(topic: Topic) -> np.ndarray:
        """Row 0: the zero vector of unjudged documents; row i: ``topic.documents[i-1]``."""
        table = np.zeros((len(topic.documents) + 1, len(topic.aspects)))
        if topic.documents:
            table[1:] = np.array([topic.vector(d) for d in topic.documents], dtype=float)
        return table

    @classmethod
    def from_rankings(cls, rankings: Sequence[Sequence[str]], topic: Topic,
                      depth: int | None = None) -> "RankingBatch":
        """Look every document up once; ``depth`` truncates (default: the longest ranking).

        Each document costs one dict lookup (``map`` over all rankings chained,
        collected by ``np.fromiter``), the floor for string ids in Python;
        gains and the single-aspect view are then numpy gathers from a
        per-topic table, so ``single`` is ready without a max over aspects.
        """
        from itertools import chain, repeat

        n_rankings = len(rankings)
        lengths = np.fromiter(map(len, rankings), dtype=np.int64, count=n_rankings)
        if depth is None:
            depth = int(lengths.max()) if n_rankings else 0
        lengths = np.minimum(lengths, depth)
        row_of = {d: i for i, d in enumerate(topic.documents, 1)}.get
        kept = (r if len(r) == n else r[:n] for r, n in zip(rankings, lengths.tolist()))
        found = np.fromiter(map(row_of, chain.from_iterable(kept), repeat(0)),
                            dtype=np.int64, count=int(lengths.sum()))
        return cls.from_rows(found, lengths, topic, depth)

    @classmethod
    def from_rows(cls, found: np.ndarray, lengths: np.ndarray, topic: Topic,
                  depth: int | None = None) -> "RankingBatch":
        """The batch of rankings given by their judged rows: ``found`` holds, ranking after
        ranking, each document's row in ``topic.documents`` plus one (0: unjudged), ``lengths``
        each ranking's length (at most ``depth``, default the largest).

        What :meth:`from_rankings` builds after its lookups; campaign scoring finds the rows of
        runs read in bulk without a Python string per document
        (:class:`axiometer.runfile.JudgedIndex`).
        """
        lengths = np.asarray(lengths, dtype=np.int64)
        if depth is None:
            depth = int(lengths.max()) if len(lengths) else 0
        table = cls._relevance_table(topic)
        single_table = table.max(axis=1) if table.shape[1] else np.zeros(len(table))
        rows = np.zeros((len(lengths), depth), dtype=np.int64)
        # Boolean assignment fills row-major, i.e. ranking by ranking, in rank order.
        rows[np.arange(depth)[None, :] < lengths[:, None]] = found
        batch = cls(topic, table[rows], lengths, rows > 0)
        batch._single = single_table[rows]
        batch._judged_gains = table[1:]
        batch._judged_single = single_table[1:]
        return batch

    @property
    def judged_gains(self) -> np.ndarray:
        """``r(d, t)`` of every judged document (``topic.documents`` order), shape ``(judged, aspects)``."""
        if self._judged_gains is None:
            self._judged_gains = self._relevance_table(self.topic)[1:]
        return self._judged_gains

    @property
    def judged_single(self) -> np.ndarray:
        """``r(d) = max_t r(d, t)`` of every judged document, shape ``(judged,)``."""
        if self._judged_single is None:
            gains = self.judged_gains
            self._judged_single = gains.max(axis=1) if gains.shape[1] else np.zeros(len(gains))
        return self._judged_single

    @property
    def depth(self) -> int:
        return self.gains.shape[1]

    @property
    def single(self) -> np.ndarray:
        """``r(d_i) = max_t r(d_i, t)``, shape ``(rankings, depth)``."""
        if self._single is None:
            self._single = self.gains.max(axis=2) if self.gains.shape[2] else np.zeros(self.gains.shape[:2])
        return self._single

    def positions_valid(self) -> np.ndarray:
        """Boolean mask ``(rankings, depth)``: position ``i`` exists in ranking ``s``."""
        return np.arange(self.depth)[None, :] < self.lengths[:, None]


class BuiltinMetric(MetricDefaults):
    """Base class of the built-in metrics.

    A subclass declares ``family`` (its spec name), ``title`` (how papers
    write it), ``param_info``, ``cutoff_rule`` (``"none"``, ``"optional"`` or
    ``"required"``), ``default_cutoff`` (used when a required cutoff is not
    given), ``needs``, ``normalised`` and ``grades_convention`` (how scoring reads grades for it, by
    default); and implements :meth:`compute`, the
    formula written once against an arithmetic ``A``. It may override
    :meth:`score_batch` with a vectorised version (the default loops).
    """

    family: ClassVar[str]
    title: ClassVar[str]
    param_info: ClassVar[tuple[Param, ...]] = ()
    cutoff_rule: ClassVar[str] = "optional"
    default_cutoff: ClassVar[int | None] = None
    exact_available: ClassVar[bool] = True
    # needs, normalised and grades_convention are class defaults, not ClassVars: a metric
    # built over another (NRG over its base) sets them per instance from that base.
    needs: Needs = Needs()
    normalised: bool = False
    #: How ``axiometer score`` reads integer grades for this metric unless ``--grades`` says otherwise:
    #: its reference implementation's convention (:mod:`axiometer.grades`).
    grades_convention: GradeConvention = AXIOMETER_DEFAULT

    def __init__(self, cutoff: int | None = None, **params: Any) -> None:
        declared = {p.name: p for p in self.param_info}
        unknown = sorted(set(params) - set(declared))
        if unknown:
            known = ", ".join(declared) or "none"
            raise ValidationError(
                f"{self.family}: unknown parameter {unknown[0]!r} (parameters: {known})")
        values = {}
        for p in self.param_info:
            values[p.name] = p.validate(params.get(p.name, p.default), self.family)
        if cutoff is None and self.cutoff_rule == "required":
            cutoff = self.default_cutoff
        if cutoff is not None:
            if self.cutoff_rule == "none":
                raise ValidationError(f"{self.family} takes no cutoff (@k)")
            if isinstance(cutoff, bool) or not isinstance(cutoff, int) or cutoff < 1:
                raise ValidationError(f"{self.family}: cutoff must be a positive integer, got {cutoff!r}")
        # A parameter declared shown_at_default=False (rel) is absent at its default, as if undeclared.
        self.params: Mapping[str, Any] = {k: v for k, v in values.items()
                                          if declared[k].shown_at_default or v != declared[k].default}
        self.cutoff: int | None = cutoff
        # Numeric parameters are always written out (RBP(p=0.8) says its p);
        # a string option at its default (RBU's form='paper') is not.
        shown = {k: v for k, v in self.params.items()
                 if not (declared[k].type is str and v == declared[k].default)}
        self.name: str = _metric_name(self.family, shown, cutoff)
        for key, value in values.items():
            object.__setattr__(self, key, value)
        self.validate_params()

    def validate_params(self) -> None:
        """Hook for cross-parameter checks; raise :class:`ValidationError`."""

    # -- evaluation -----------------------------------------------------------
    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Any:
        """The formula, written once for both arithmetics."""
        raise NotImplementedError

    def _check_context(self, context: Context | None) -> None:
        if self.needs.context and context is None:
            raise ValidationError(f"{self.name} needs a context (other systems' rankings)")

    def score(self, ranking: Sequence[str], topic: Topic, context: Context | None = None) -> float:
        """float64 score: a finite number (:func:`score_value`, the one check of a metric's value)."""
        self._check_context(context)
        return score_value(self.compute(ranking, topic, FLOAT, context))

    def exact(self, ranking: Sequence[str], topic: Topic, context: Context | None = None) -> ExactValue:
        """Exact score: a ``Fraction``, or a sympy expression where logarithms appear."""
        self._check_context(context)
        return EXACT.result(self.compute(ranking, topic, EXACT, context))

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        """Scores of every ranking in ``batch``; built-ins override with numpy."""
        raise NotImplementedError(f"{self.family} has no batched path")

    def window(self, ranking: Sequence[str]) -> Sequence[str]:
        """The positions the metric sees: ``ranking[:k]`` (all of it without a cutoff)."""
        return ranking if self.cutoff is None else ranking[: self.cutoff]

    # -- identity -------------------------------------------------------------
    def replace(self, cutoff: Any = ..., **params: Any) -> "BuiltinMetric":
        """The same metric with some parameters (or the cutoff) changed."""
        merged = {**self.params, **params}
        return type(self)(self.cutoff if cutoff is ... else cutoff, **merged)

    def __repr__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BuiltinMetric) and type(other) is type(self) and other.name == self.name

    def __hash__(self) -> int:
        return hash((type(self), self.name))


#: The relevance level of a metric with a binary view (P, RR, AP, R-precision, bpref).
REL_PARAM = Param("rel", int, 1, "relevance level: a document is relevant iff its grade >= rel "
                  "(trec_eval's -l, ir_measures' rel); a topic built from relevance values grades "
                  "them 1, 2, ... in increasing order", low=1, shown_at_default=False, varies=False)


def level_of(metric: BuiltinMetric) -> int:
    """The metric's relevance level (``rel``; 1 when it has none: ``params`` leaves ``rel`` out at
    its default, 1)."""
    return int(metric.params.get("rel", 1))


def batch_needs_level_one(metric: BuiltinMetric) -> None:
    """Refuse the batched path above relevance level 1 (its arrays hold relevance, not grades):
    ``NotImplementedError`` sends scoring to the per-ranking path."""
    if level_of(metric) > 1:
        raise NotImplementedError("the batched path reads relevance level 1 only")


class RelevantNormalisedMetric(BuiltinMetric):
    """A built-in metric normalised by ``R``, the topic's number of relevant documents.

    definitions §2's rule "a normaliser of 0 gives 0", checked once for every
    such metric: :meth:`compute` and :meth:`score_batch` score 0 on a topic
    with ``R = 0`` and otherwise hand ``R > 0`` to the formula, which a
    subclass implements as :meth:`compute_relevant` (against an arithmetic
    ``A``) and :meth:`score_batch_relevant` (vectorised).
    """

    def compute(self, ranking: Sequence[str], topic: Topic, A: Arithmetic,
                context: Context | None = None) -> Any:
        R = topic.count_at(level_of(self))
        if R == 0:
            return A.zero
        return self.compute_relevant(ranking, topic, A, R)

    def score_batch(self, batch: RankingBatch) -> np.ndarray:
        batch_needs_level_one(self)
        R = batch.topic.R
        if R == 0:
            return np.zeros(len(batch.lengths))
        return self.score_batch_relevant(batch, R)

    def compute_relevant(self, ranking: Sequence[str], topic: Topic, A: Arithmetic, R: int) -> Any:
        """The formula for a topic with ``R > 0`` relevant documents, written once for both arithmetics."""
        raise NotImplementedError

    def score_batch_relevant(self, batch: RankingBatch, R: int) -> np.ndarray:
        """Scores of every ranking in ``batch``, whose topic has ``R > 0`` relevant documents."""
        raise NotImplementedError(f"{self.family} has no batched path")


def batch_cutoff(batch: RankingBatch, cutoff: int | None) -> int:
    """How many columns of ``batch`` a metric with ``cutoff`` sees."""
    return batch.depth if cutoff is None else min(cutoff, batch.depth)


def score_value(value: Any) -> float:
    """``value`` as a float score, or a :class:`MetricError` saying in words what was returned.

    Real numbers are accepted (``int``, ``float``, ``Fraction``, numpy scalars,
    ``Decimal``, a 0-d numeric numpy array); ``bool``, strings, ``None`` and
    anything else are not, nor is a non-finite value. The message starts with
    ``returned``, so a caller can prefix who returned it.
    """
    if type(value) is float and math.isfinite(value):  # the common case, fast
        return value
    if isinstance(value, bool) or isinstance(value, (str, bytes)) or not (
            isinstance(value, (Real, Decimal))
            or (isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf")):
        raise NotANumber(f"returned {value!r} ({type(value).__name__}), not a number")
    try:
        number = float(value)
    except OverflowError:
        raise NotANumber(f"returned {value!r}, too large for a float") from None
    if not math.isfinite(number):
        raise NotANumber(f"returned {number!r}, a non-finite value")
    return number


class FunctionMetric(MetricDefaults):
    """A metric author's function behind the protocol (see :func:`wrap`): float-only (no ``exact``);
    its return value is validated here, once (:func:`score_value`)."""

    exact_available = False
    exact: None = None
    grades_convention: GradeConvention | None = None

    def __init__(self, function: Callable[..., Any], name: str, cutoff: int | None,
                 param_info: tuple[Param, ...], params: Mapping[str, Any], needs: Needs) -> None:
        self.function = function
        self.family = name
        self.cutoff = cutoff
        self.param_info = param_info
        self.params = dict(params)
        self.needs = needs
        self.name = _metric_name(name, self.params, cutoff)
        try:
            signature = inspect.signature(function)
        except (TypeError, ValueError):  # a builtin without a signature, e.g. max
            raise ValidationError(f"{name}: its signature cannot be read (a built-in function?); "
                                  "wrap it in a Python function (ranking, topic)") from None
        accepted = signature.parameters
        has_var_kw = any(p.kind is p.VAR_KEYWORD for p in accepted.values())
        self._takes_context = "context" in accepted or has_var_kw
        self._cutoff_arg = next((a for a in ("k", "cutoff") if a in accepted), None)
        missing = [p for p in self.params if p not in accepted and not has_var_kw]
        if missing:
            raise ValidationError(
                f"{self.name}: the function does not accept declared parameter {missing[0]!r}")

    def score(self, ranking: Sequence[str], topic: Topic, context: Context | None = None) -> float:
        """Call the function and insist on a finite real number.

        With a cutoff, the function receives the cutoff as ``k``/``cutoff``
        if it takes such an argument; otherwise it is handed ``ranking[:k]``.
        """
        value = self.call(ranking, topic, context)
        try:
            return score_value(value)
        except NotANumber as error:
            raise NotANumber(f"{self.name} {error}") from None

    def call(self, ranking: Sequence[str], topic: Topic, context: Context | None = None) -> Any:
        """The function's own return value, unchecked (a proof hands it symbolic relevance values)."""
        if self.needs.context and context is None:
            raise ValidationError(f"{self.name} needs a context (other systems' rankings)")
        kwargs = dict(self.params)
        if self.cutoff is not None:
            if self._cutoff_arg:
                kwargs[self._cutoff_arg] = self.cutoff
            else:
                ranking = Ranking(ranking[: self.cutoff])
        if self._takes_context:
            kwargs["context"] = context
        return self.function(ranking, topic, **kwargs)

    def replace(self, cutoff: Any = ..., **params: Any) -> "FunctionMetric":
        """The same function with some parameters (or the cutoff) changed; values are validated."""
        declared = {p.name: p for p in self.param_info}
        merged = dict(self.params)
        for key, value in params.items():
            merged[key] = declared[key].validate(value, self.family) if key in declared else value
        return FunctionMetric(self.function, self.family, self.cutoff if cutoff is ... else cutoff,
                              self.param_info, merged, self.needs)

    def __repr__(self) -> str:
        return self.name


def wrap(function: Callable[..., Any], name: str | None = None, *, cutoff: int | None = None,
         params: Mapping[str, Any] | None = None, param_info: Sequence[Param] = (),
         needs: Needs | None = None) -> FunctionMetric:
    """Turn ``f(ranking, topic[, context][, **params]) -> float`` into a metric.

    ``params`` are the values passed to ``f`` as keyword arguments; declare
    them with ``param_info`` to give their ranges. ``needs`` defaults to a
    graded, aspect-aware metric without context (the most that the checks can
    feed it); say less if the metric uses less.

    >>> def my_p1(ranking, topic):
    ...     return float(bool(ranking) and topic.rel(ranking[0]))
    >>> wrap(my_p1).name
    'my_p1'
    """
    declared = tuple(param_info)
    values = {p.name: p.default for p in declared}
    values.update(params or {})
    for p in declared:
        values[p.name] = p.validate(values[p.name], name or function.__name__)
    return FunctionMetric(function, name or str(getattr(function, "__name__", "metric")), cutoff,
                          declared, values, needs or Needs(aspects=True, graded=True))


def is_exact_capable(metric: Metric) -> TypeGuard[ExactMetric]:
    """Whether ``metric`` offers ``exact(...)`` (built-ins do; wrapped functions do not)."""
    return metric.exact is not None
