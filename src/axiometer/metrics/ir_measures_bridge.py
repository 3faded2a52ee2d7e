"""The ir_measures bridge: check a measure as ir_measures computes it.

``ir_measures_metric("nDCG@10")`` is a metric (the protocol of
:mod:`axiometer.metrics.base`) whose score is what ``ir_measures`` reports for
one query through its pytrec_eval provider (trec_eval underneath): nDCG, P,
AP, RR, Rprec, R, Bpref, Success, ... Measures ir_measures computes with
other tools are refused (see ``docs/ir-measures.md``). Each
``(topic, ranking)`` becomes

- **qrels**: integer grades proportional to the single-aspect view
  ``r(d) = max_t r(d, t)``: ``grade = r(d) * L`` with ``L`` the least common
  multiple of the denominators of the topic's non-zero ``r`` values, read
  exactly (:func:`axiometer.core.to_fraction`). Gain ratios are preserved
  exactly (trec_eval's nDCG gain is the grade) and ``grade >= 1`` is exactly
  the binary view ``r(d) > 0``. Judged documents with ``r = 0`` get grade 0;
  unjudged documents are absent.
- **a run**: strictly decreasing scores in ranking order, so trec_eval's
  own order (score descending, then docno descending) is the ranking's.

What the bridge can and cannot express is in ``docs/ir-measures.md``. The
``ir_measures`` package is imported lazily (it is in the ``test`` extra);
a missing package or an unknown measure is one clear :class:`InputError`.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from axiometer.core import Context, InputError, Topic, ValidationError, to_fraction
from axiometer.grades import GradeConvention
from axiometer.metrics.base import MetricError, Needs, MetricDefaults, Param

__all__ = [
    "MAX_GRADE",
    "PREFIX",
    "IrMeasuresMetric",
    "ir_measures_metric",
    "qrels_grades",
    "run_scores",
]

#: How a measure is named in axiometer (``ir_measures:nDCG@10``).
PREFIX = "ir_measures:"

#: The largest grade handed to ir_measures. trec_eval allocates one counter per
#: grade level (0..max grade) for every query, so an enormous ``L`` (values such
#: as ``0.123456789``) would allocate gigabytes; such a topic is an error instead.
MAX_GRADE = 1 << 20

#: The query id of every call. Not ``"no_query"``: trec_eval's per-query cache
#: is keyed by query id and reset to that string between evaluations.
_QID = "1"

#: Measures that see relevance as binary (``grade >= rel``); all others may use grades.
_BINARY = frozenset({"P", "RR", "AP", "Rprec", "Bpref", "R", "Success", "SetP", "SetR", "SetF",
                     "SetAP", "IPrec", "infAP", "NumRel", "NumRelRet", "Judged"})

#: Evaluators kept per metric object (one per topic); cleared when full.
_CACHE_SIZE = 256


def _import_ir_measures(spec: str) -> Any:
    try:
        import ir_measures
    except ImportError:
        raise InputError("the ir_measures bridge needs the ir-measures package:"
                         " pip install ir-measures", source=spec) from None
    return ir_measures


def _one_line(error: BaseException) -> str:
    return "; ".join(part.strip() for part in str(error).splitlines() if part.strip())


def _known_measures(ir_measures: Any) -> str:
    """The measures ir_measures computes with trec_eval, the bridge's own."""
    names = sorted({m.NAME for m in ir_measures.pytrec_eval.SUPPORTED_MEASURES}, key=str.lower)
    return ", ".join(names)


def _parse(measure: str) -> tuple[Any, Any]:
    """``(ir_measures module, Measure)``, or an :class:`InputError` naming the measure."""
    spec = PREFIX + measure
    ir_measures = _import_ir_measures(spec)
    if not isinstance(measure, str) or not measure.strip():
        raise InputError(f"an ir_measures measure is needed after {PREFIX!r},"
                         f" e.g. {PREFIX}nDCG@10")
    try:
        parsed = ir_measures.parse_measure(measure.strip())
    except NameError as error:  # "measure not found: Foo"
        name = str(error).rpartition(":")[2].strip() or measure.strip()
        raise InputError(f"unknown ir_measures measure {name!r}; known:"
                         f" {_known_measures(ir_measures)}", source=spec) from None
    except (ValueError, SyntaxError, TypeError) as error:
        raise InputError(f"cannot parse ir_measures measure {measure.strip()!r}:"
                         f" {_one_line(error)}", source=spec) from None
    provider = ir_measures.pytrec_eval
    try:
        supported = provider.supports(parsed)
    except (AssertionError, ValueError, TypeError, KeyError) as error:  # ir_measures asserts
        raise InputError(f"invalid ir_measures measure {measure.strip()!r}: {_one_line(error)}",
                         source=spec) from None
    if not supported:
        # Other providers either compute gains exponential in the grade (gdeval's
        # ERR, nDCG(dcg='exp-log2')), which our per-topic grade scale would change,
        # round their output (gdeval: 5 decimals), or need several aspects (pyndeval).
        raise InputError(f"ir_measures computes {parsed} without trec_eval; the bridge takes the"
                         " measures ir_measures computes with trec_eval (pytrec_eval): nDCG, P, AP,"
                         " RR, Rprec, R, Bpref, Success, ...", source=spec)
    if not provider.is_available():
        raise InputError("the ir_measures bridge needs pytrec_eval: pip install pytrec-eval-terrier",
                         source=spec)
    # Grades are r(d) scaled per topic, so a grade threshold or a gain table
    # keyed by grade would mean something different on every topic.
    rel = _param(parsed, "rel")
    if rel is not None and rel != 1:
        raise InputError(f"rel={rel!r} is not supported: the bridge's grades are r(d) scaled per"
                         " topic, so only relevance level 1 (r > 0) has a fixed meaning", source=spec)
    gains = _param(parsed, "gains")
    if gains is not None:
        raise InputError("gains=... is not supported: the bridge's grades are r(d) scaled per"
                         " topic, so a gain table keyed by grade has no fixed meaning", source=spec)
    return ir_measures, parsed


def _param(measure: Any, name: str) -> Any:
    """A measure parameter's value (given or default), ``None`` when it has none."""
    if name not in measure.SUPPORTED_PARAMS:
        return None
    value = measure[name]
    not_provided = sys.modules["ir_measures.measures.base"]._NOT_PROVIDED
    return None if value is not_provided else value


def qrels_grades(topic: Topic) -> dict[str, int]:
    """Integer grades proportional to ``r(d)``: ``r(d) * L``, ``L`` the lcm of the denominators.

    Every judged document appears (grade 0 for ``r(d) = 0``). Raises
    :class:`MetricError` if a grade would exceed :data:`MAX_GRADE`.
    """
    values = {doc: to_fraction(topic.r(doc)) for doc in topic.documents}
    scale = math.lcm(*(v.denominator for v in values.values() if v > 0)) if topic.R else 1
    if scale > MAX_GRADE:
        raise MetricError(f"the topic's relevance values need integer grades up to {scale}"
                          f" (lcm of their denominators), above the bridge's limit {MAX_GRADE}")
    # v * scale is an integer: scale is a multiple of v's denominator.
    return {doc: v.numerator * (scale // v.denominator) for doc, v in values.items()}


def run_scores(ranking: Sequence[str]) -> dict[str, float]:
    """Strictly decreasing scores ``n, n-1, ..., 1`` in ranking order."""
    n = len(ranking)
    return {doc: float(n - i) for i, doc in enumerate(ranking)}


class IrMeasuresMetric(MetricDefaults):
    """An ir_measures measure behind the metric protocol (see the module docstring).

    Float-only (``exact_available = False``): its near-ties are decided by the
    checker's stated tolerance. Pickles as its measure string; the
    per-topic evaluators are rebuilt lazily in each process.
    """

    exact_available = False
    exact: None = None
    param_info: tuple[Param, ...] = ()
    grades_convention: GradeConvention | None = None

    def __init__(self, measure: str) -> None:
        ir_measures, parsed = _parse(measure)
        self._ir_measures = ir_measures
        self.measure = parsed
        self.measure_text = str(parsed)
        self.name = PREFIX + self.measure_text
        # The measure's parameters are written in its name, none varies: the
        # family is the full name (the row title in a table).
        self.family = self.name
        cutoff = _param(parsed, "cutoff")
        self.cutoff: int | None = cutoff if isinstance(cutoff, int) else None
        self.params: Mapping[str, Any] = {}
        self.needs = Needs(aspects=False, graded=parsed.NAME not in _BINARY, context=False)
        self._default = float(getattr(parsed, "DEFAULT", 0.0))
        self._evaluators: dict[Topic, Any] = {}

    def _evaluator(self, topic: Topic) -> Any:
        evaluator = self._evaluators.get(topic)
        if evaluator is None:
            if len(self._evaluators) >= _CACHE_SIZE:
                self._evaluators.clear()
            evaluator = self._ir_measures.pytrec_eval.evaluator([self.measure],
                                                                {_QID: qrels_grades(topic)})
            self._evaluators[topic] = evaluator
        return evaluator

    def score(self, ranking: Sequence[str], topic: Topic, context: Context | None = None) -> float:
        """What ir_measures reports for ``ranking`` on ``topic`` (one query)."""
        if not topic.documents:
            # A query without judgments: ir_measures reports the measure's
            # default for it; trec_eval itself is not given an empty qrels list.
            return self._default
        evaluator = self._evaluator(topic)
        # An empty ranking is a query missing from the run: ir_measures fills in
        # the measure's default (0), as trec_eval's -c would.
        run = {_QID: run_scores(ranking)} if len(ranking) else {}
        values = [m.value for m in evaluator.iter_calc(run) if m.query_id == _QID]
        if len(values) != 1:
            raise MetricError(f"{self.name}: ir_measures returned {len(values)} values for one query")
        return float(values[0])

    def replace(self, cutoff: Any = ..., **params: Any) -> IrMeasuresMetric:
        """Itself without changes; another cutoff gives the measure at that cutoff."""
        if params:
            raise ValidationError(
                f"{self.name}: declares no parameters; write them in the measure"
                f" (e.g. ir_measures:RBP(p=0.9))")
        if cutoff is ... or cutoff == self.cutoff:
            return self
        if "cutoff" not in self.measure.SUPPORTED_PARAMS:
            raise ValidationError(f"{self.name} takes no cutoff (@k)")
        return IrMeasuresMetric(str(self.measure(cutoff=cutoff)))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # Only the measure string travels; evaluators hold C state that does not pickle.
        return (ir_measures_metric, (self.measure_text,))

    def __repr__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, IrMeasuresMetric) and other.name == self.name

    def __hash__(self) -> int:
        return hash((IrMeasuresMetric, self.name))


def ir_measures_metric(measure: str) -> IrMeasuresMetric:
    """The ir_measures measure ``measure`` (``"nDCG@10"``, ``"P@5"``, ``"AP"``) as a metric.

    A leading ``ir_measures:`` is accepted. Raises a one-line
    :class:`InputError` for an unknown measure or a missing ir-measures package.

    >>> ir_measures_metric("nDCG@10").name   # doctest: +SKIP
    'ir_measures:nDCG@10'
    """
    if isinstance(measure, str) and measure.startswith(PREFIX):
        measure = measure[len(PREFIX):]
    return IrMeasuresMetric(measure)
