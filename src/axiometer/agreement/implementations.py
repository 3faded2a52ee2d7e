"""The implementation under test: a metric author's function or a peer's measure, behind one shape.

An :class:`Implementation` gives one :data:`Outcome` per :class:`Query`:
a float, or a :class:`Failure` saying what happened instead (it raised, it
returned NaN or no number, it left the query out of its output).

What ``agree IMPL`` accepts (:func:`load_implementation`):

- ``module:function``, a metric author's function in one of two forms:
  *per query*, ``fn(grades: dict[str, int], scores: dict[str, float]) ->
  float``; or *batch*, ``fn(qrels: dict[str, dict[str, int]], run:
  dict[str, dict[str, float]]) -> dict[str, float]``, pytrec_eval's and
  ir_measures' shape. The form is detected (a batch function returns a
  mapping for a one-query probe) unless given;
- ``pytrec_eval:MEASURE`` (``ndcg_cut_10``, ``map``, ``recip_rank``, ...);
- ``ir_measures:MEASURE`` (``nDCG@10``, ``RR``, ...), computed by the
  provider ir_measures picks; ``ir_measures/PROVIDER:MEASURE`` forces one;
- ``ranx:METRIC`` (``ndcg@10``, ``mrr``, ...).

A batch implementation sees every query at once (ids ``q0``, ``q1``, ...);
when that call raises, each query is tried alone, so the failure is pinned to
the query that causes it.
"""

from __future__ import annotations

import contextlib
import inspect
import math
import os
import re
import sys
import tempfile
import warnings
from collections.abc import Iterator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Protocol, Union

from axiometer.agreement.query import Query, query_text
from axiometer.checking.guard import TimeLimitReached, time_limited
from axiometer.core import InputError
from axiometer.limits import DEFAULT_CASE_SECONDS

__all__ = ["Failure", "Outcome", "Implementation", "load_implementation", "PEER_PREFIXES", "outcome_text", "quiet",
           "TimedOut"]


class TimedOut(InputError):
    """A metric author's implementation ran past its time limit on a query: the run stops there (a
    hang would cost the limit again on every query), naming the implementation and the query."""


@dataclass(frozen=True)
class Failure:
    """What an implementation gave instead of a number: ``kind`` ``raised``, ``nan``, ``not-a-number``
    or ``absent`` (the query is missing from a batch's output), and ``detail`` in words."""

    kind: str
    detail: str


Outcome = Union[float, Failure]


def outcome_text(outcome: Outcome) -> str:
    """A value as the shortest text that reads back as the same double, or the failure in words."""
    return outcome.detail if isinstance(outcome, Failure) else repr(outcome)


class Implementation(Protocol):
    """``name``: as given on the command line; ``provider``: who computes it, with versions."""

    name: str
    provider: str

    def values(self, queries: Sequence[Query]) -> list[Outcome]: ...


def _number(value: Any) -> Outcome:
    if isinstance(value, bool) or value is None:
        return Failure("not-a-number", f"returned {value!r}, not a number")
    try:
        number = float(value)
    except (TypeError, ValueError):
        return Failure("not-a-number", f"returned {type(value).__name__} {str(value)[:60]!r}, not a number")
    if math.isnan(number):
        return Failure("nan", "returned NaN")
    return number


_TEMPORARY = re.compile(re.escape(tempfile.gettempdir()) + r"/[^\s'\"\],]+")


def _raised(error: BaseException) -> Failure:
    """The failure an exception is; temporary file names (different every call) read ``TMPFILE``."""
    text = str(error).splitlines()[0][:160] if str(error) else ""
    text = _TEMPORARY.sub("TMPFILE", text)
    return Failure("raised", f"raised {type(error).__name__}" + (f": {text}" if text else ""))


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """File descriptors 1 and 2 pointed at the null device while an implementation runs: what it or a
    program it starts prints (gdeval's perl script warns on every empty run) stays out of the report
    and the terminal."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1), os.dup2(null, 2)
        yield
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os.dup2(saved[0], 1), os.dup2(saved[1], 2)
        for fd in (*saved, null):
            os.close(fd)


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "?"


class _Hung(Exception):
    """A batch call ran past its limit (turned into :class:`TimedOut` with its queries)."""

    def __init__(self, seconds: float | None) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class _Batch:
    """An implementation that scores ``qrels``/``run`` dicts of many queries at once."""

    name: str
    provider: str

    def batch(self, qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]]) -> Mapping[str, Any]:
        raise NotImplementedError

    def values(self, queries: Sequence[Query]) -> list[Outcome]:
        ids = [f"q{i}" for i in range(len(queries))]
        with quiet():
            try:
                found = self._call(ids, queries)
            except _Hung as hung:
                raise _timed_out(self.name, hung.seconds, queries) from None
            except Exception:  # pin the failure to its query: each alone
                return [self._alone(query) for query in queries]
        return [_number(found[i]) if i in found else _absent() for i in ids]

    def _call(self, ids: list[str], queries: Sequence[Query]) -> Mapping[str, Any]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a peer's deprecation and numba notes are not results
            return self.batch({i: q.grades() for i, q in zip(ids, queries)},
                              {i: q.scores() for i, q in zip(ids, queries)})

    def _alone(self, query: Query) -> Outcome:
        try:
            found = self._call(["q0"], [query])
        except _Hung as hung:
            raise _timed_out(self.name, hung.seconds, [query]) from None
        except Exception as error:
            return _raised(error)
        return _number(found["q0"]) if "q0" in found else _absent()


def _absent() -> Failure:
    return Failure("absent", "gave no value (the query is missing from its output)")


def _timed_out(name: str, seconds: float | None, queries: Sequence[Query]) -> TimedOut:
    where = query_text(queries[0]) if len(queries) == 1 else f"a batch of {len(queries)} queries"
    return TimedOut(f"took longer than {seconds:g} s on {where} (a hang?); --case-seconds sets the limit "
                    f"for one query", source=f"implementation {name!r}")


class QueryFunction:
    """A metric author's per-query function ``fn(grades, scores) -> float``, each call within
    ``seconds`` (``None``: no limit)."""

    def __init__(self, function: Callable[..., Any], name: str,
                 seconds: float | None = DEFAULT_CASE_SECONDS) -> None:
        self.function, self.name, self.provider = function, name, f"{name} (per query)"
        self.seconds = seconds

    def values(self, queries: Sequence[Query]) -> list[Outcome]:
        with quiet():
            return [self._one(query) for query in queries]

    def _one(self, query: Query) -> Outcome:
        try:
            with time_limited(self.seconds):
                return _number(self.function(query.grades(), query.scores()))
        except TimeLimitReached:
            raise _timed_out(self.name, self.seconds, [query]) from None
        except Exception as error:
            return _raised(error)


class BatchFunction(_Batch):
    """A metric author's batch function ``fn(qrels, run) -> {query: value}``, each call within
    ``seconds`` per query (``None``: no limit)."""

    def __init__(self, function: Callable[..., Any], name: str,
                 seconds: float | None = DEFAULT_CASE_SECONDS) -> None:
        self.function, self.name, self.provider = function, name, f"{name} (batch)"
        self.seconds = seconds

    def batch(self, qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]]) -> Mapping[str, Any]:
        seconds = None if self.seconds is None else self.seconds * max(1, len(qrels))
        try:
            with time_limited(seconds):
                found = self.function(qrels, run)
        except TimeLimitReached:
            raise _Hung(seconds) from None
        if not isinstance(found, Mapping):
            raise TypeError(f"returned {type(found).__name__}, not a mapping of query ids to values")
        return found


class PytrecEval(_Batch):
    """``pytrec_eval:MEASURE``: trec_eval's own code, one evaluator per call."""

    def __init__(self, measure: str) -> None:
        import pytrec_eval
        self.module, self.measure = pytrec_eval, measure
        self.name = f"pytrec_eval:{measure}"
        self.provider = f"pytrec_eval-terrier {_version('pytrec_eval-terrier')}"
        base = measure.split("_")[0] if "_cut_" not in measure else measure.rsplit("_", 1)[0]
        if measure not in pytrec_eval.supported_measures and base not in pytrec_eval.supported_measures:
            raise InputError(f"pytrec_eval has no measure {measure!r} (ndcg_cut_10, map, recip_rank, P_5, "
                             f"recall_5, Rprec, bpref, ...)", source=f"implementation {self.name!r}")

    def batch(self, qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]]) -> Mapping[str, Any]:
        evaluator = self.module.RelevanceEvaluator(qrels, {self.measure})
        return {qid: values[self.measure] for qid, values in evaluator.evaluate(run).items()}


class IrMeasures(_Batch):
    """``ir_measures[/PROVIDER]:MEASURE``: the measure as ir_measures computes it."""

    def __init__(self, measure: str, provider: str | None) -> None:
        import ir_measures
        where = f"implementation {'ir_measures' + ('/' + provider if provider else '')}:{measure}"
        try:
            self.measure = ir_measures.parse_measure(measure)
        except Exception as error:
            raise InputError(f"ir_measures cannot read measure {measure!r}: {error}", source=where) from None
        self.name = where.split(" ", 1)[1]
        self.chosen = self._provider(ir_measures, provider, where)
        self.provider = (f"ir_measures {_version('ir_measures')}, provider {self.chosen.NAME}"
                         + _provider_version(self.chosen.NAME))

    def _provider(self, ir_measures: Any, name: str | None, where: str) -> Any:
        registry = ir_measures.providers.registry
        names = [name] if name else list(registry)
        if name and name not in registry:
            raise InputError(f"ir_measures has no provider {name!r}; known: {', '.join(registry)}", source=where)
        for candidate in names:
            provider = registry[candidate]
            if provider.is_available() and provider.supports(self.measure):
                return provider
        raise InputError(f"no installed ir_measures provider computes {self.measure}", source=where)

    def batch(self, qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]]) -> Mapping[str, Any]:
        evaluator = self.chosen.evaluator([self.measure], qrels)
        return {m.query_id: m.value for m in evaluator.iter_calc(run)}


def _provider_version(provider: str) -> str:
    distribution = {"pytrec_eval": "pytrec_eval-terrier", "ranx": "ranx", "pyndeval": "pyndeval"}.get(provider)
    return f" {_version(distribution)}" if distribution else ""


class Ranx(_Batch):
    """``ranx:METRIC``: ranx's numba code (its first call in a process compiles for some seconds)."""

    def __init__(self, metric: str) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import ranx
        self.module, self.metric = ranx, metric
        self.name, self.provider = f"ranx:{metric}", f"ranx {_version('ranx')}"

    def batch(self, qrels: dict[str, dict[str, int]], run: dict[str, dict[str, float]]) -> Mapping[str, Any]:
        ranx_run = self.module.Run(run)
        self.module.evaluate(self.module.Qrels(qrels), ranx_run, self.metric)
        return dict(ranx_run.scores[self.metric])


#: The peers ``agree`` reads by prefix, before ``module:function``.
PEER_PREFIXES = ("pytrec_eval:", "ir_measures:", "ir_measures/", "ranx:")


def load_implementation(ref: Any, form: str | None = None,
                        seconds: float | None = DEFAULT_CASE_SECONDS) -> Implementation:
    """The implementation ``ref`` names (see the module docstring), or a callable as it is;
    ``form``: ``query`` or ``batch`` for a function (detected when ``None``); ``seconds``: a
    function's time limit per query (a peer's measure has none: its first call may compile)."""
    if isinstance(ref, str) and ref.startswith(PEER_PREFIXES):
        return _peer(ref)
    if isinstance(ref, str):
        from axiometer.metrics.resolve import import_reference
        function, name = import_reference(ref, "implementation"), ref
    else:
        function, name = ref, getattr(ref, "__qualname__", repr(ref))
    if not callable(function):
        raise InputError(f"{name} is {type(function).__name__}, not a function", source=f"implementation {name!r}")
    chosen = form or _form(function, seconds)
    if chosen not in ("query", "batch"):
        raise InputError(f"form {chosen!r}: expected 'query' or 'batch'", source=f"implementation {name!r}")
    return QueryFunction(function, name, seconds) if chosen == "query" else BatchFunction(function, name, seconds)


def _peer(ref: str) -> Implementation:
    prefix, _, measure = ref.partition(":")
    if not measure:
        raise InputError("expected a measure after ':' (pytrec_eval:ndcg_cut_10, ir_measures:nDCG@10, ranx:ndcg@10)",
                         source=f"implementation {ref!r}")
    package = prefix.split("/")[0]
    try:
        if package == "pytrec_eval":
            return PytrecEval(measure)
        if package == "ranx":
            return Ranx(measure)
        return IrMeasures(measure, prefix.partition("/")[2] or None)
    except ImportError as error:
        raise InputError(f"{package} is not installed ({error.name}): pip install 'axiometer[test]'",
                         source=f"implementation {ref!r}") from None


def _form(function: Callable[..., Any], seconds: float | None) -> str:
    """``batch`` when the first parameter is annotated as a nested mapping or a one-query probe
    returns a mapping (within ``seconds``); ``query`` otherwise."""
    try:
        first = next(iter(inspect.signature(function).parameters.values()), None)
    except (TypeError, ValueError):
        first = None
    note = str(first.annotation) if first is not None and first.annotation is not inspect.Parameter.empty else ""
    if note.count("dict") + note.count("Mapping") >= 2:
        return "batch"
    try:
        with quiet(), time_limited(seconds):
            probe = function({"q0": {"d1": 1}}, {"q0": {"d1": 1.0}})
    except (Exception, TimeLimitReached):
        return "query"
    return "batch" if isinstance(probe, Mapping) else "query"
