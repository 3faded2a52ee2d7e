"""Metric references, resolved in one place: what every command and the API accept.

:func:`resolve` turns a reference into one :class:`Resolved`. ``axiometer
table``, ``check``, ``score``, ``unanimity`` and ``intrinsic``,
:func:`axiometer.check`, the pytest plugin, the table runner, scoring, the
published-table comparison, Giner's table and NRG's ``base=`` all resolve
their metrics here, so each accepts what the others accept. A reference is one of

- a built-in spec string, ``"nDCG@10"``, ``"RBP(p=0.9)"``, ``"F(beta=2)"``, of
  any family in the registry (:func:`axiometer.metrics.registry.parse`), its
  name in any case (``"ndcg@10"``; the resolved name is spelled as registered,
  ``"nDCG@10"``: :func:`axiometer.metrics.registry.spelled`);
- ``"ir_measures:MEASURE"``, the measure as ir_measures (trec_eval) computes it
  (:mod:`axiometer.metrics.ir_measures_bridge`, imported only when asked for);
- ``"package.module:attribute"`` (also ``module:Class.attribute``), the module
  (``package.py`` or ``package/``) loaded from the current directory, so a
  metric author's own module is found where they stand; the directory is put
  after the installed packages on ``sys.path``, so a file there named like
  one of axiometer's dependencies cannot replace it. The
  attribute is a metric object (it has ``score`` and ``name``), a class of
  such objects (instantiated without arguments), or a plain function
  ``f(ranking, topic[, context][, **params]) -> float``, wrapped with
  :func:`axiometer.metrics.wrap`;
- in Python, also a metric object or a function itself (or a :class:`Resolved`).

Every reference resolves to a metric of one shape, the
:class:`~axiometer.metrics.base.Metric` protocol: a built-in, a wrapped
function and an ir_measures measure implement it themselves, a metric
author's object is adapted once (:class:`~axiometer.metrics.adapter.UserMetric`),
so nothing below asks a metric what it has.

``params`` give parameter values: a scalar fixes a value, a :class:`Grid` is a
grid the table walks (the cell's mark is the verdict at the metric's own
setting), and a :class:`Range` ``(low, high)`` is a continuous range: the table walks
the parameter's grid inside it and its ends, then locates the values where a
verdict changes (:mod:`axiometer.checking.boundary`). A list is shorthand for a
grid, a tuple ``(low, high)`` for a range. Every bad reference is one :class:`~axiometer.core.InputError`
line naming the reference and what went wrong; nothing here prints a traceback.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import inspect
import os
import re
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
import dataclasses
from dataclasses import dataclass, field
from numbers import Real
from typing import TYPE_CHECKING, Any, TypeVar, Union

from axiometer.core import InputError, ValidationError
from axiometer.metrics.adapter import UserMetric, adapt
from axiometer.metrics.base import Metric, Needs, Param, format_value, wrap
from axiometer.metrics.registry import build, read_spec, scores_of, spelled
from axiometer.metrics.spec import ParsedSpec

if TYPE_CHECKING:
    from axiometer.metrics.set_based import SetMeasure

__all__ = ["Resolved", "resolve", "with_params", "Grid", "Range", "IR_MEASURES_PREFIX", "import_reference",
           "parameters", "RANGES_ATTRIBUTE"]

#: The prefix of a reference to an ir_measures measure.
IR_MEASURES_PREFIX = "ir_measures:"

_DOTTED = r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*"
_IMPORT_REF = re.compile(rf"^({_DOTTED}):({_DOTTED})$")


@dataclass(frozen=True)
class Grid:
    """Parameter values a table walks: ``Grid([0.5, 0.9])`` (a list is shorthand for one)."""

    values: tuple[Any, ...]

    def __init__(self, values: Sequence[Any]) -> None:
        object.__setattr__(self, "values", tuple(values))


@dataclass(frozen=True)
class Range:
    """A continuous range ``low < high`` to locate a parameter's boundaries in: ``Range(0.5, 0.99)``
    (a tuple ``(low, high)`` is shorthand for one)."""

    low: Any
    high: Any


#: The attribute :func:`parameters` sets on a metric author's function: its declared ranges.
RANGES_ATTRIBUTE = "axiometer_ranges"

_F = TypeVar("_F", bound=Callable[..., Any])


def parameters(**ranges: Range | tuple[Any, Any]) -> Callable[[_F], _F]:
    """Declare once the range of a metric author's keyword parameters (issue 27).

    >>> @parameters(b=(0, 1))
    ... def discounted(ranking, topic, b=0.5):
    ...     return sum(topic.r(d) * b ** i for i, d in enumerate(ranking))
    >>> discounted.axiometer_ranges
    {'b': (0, 1)}

    A check then walks ``b``'s range ends beside the function's own ``b`` (the mark is the verdict
    at the function's own value, ``~`` when another differs), and ``axiometer check
    mymodule:discounted --boundaries`` locates where each verdict changes as ``b`` moves over
    ``[0, 1]``, as ``--param b=0..1`` does for one run; a value given with ``--param`` must lie in
    the range.
    Each range is ``(low, high)`` or a :class:`Range`, with ``low < high``, both ends included;
    the function's default for the parameter must lie in it.
    """
    checked = {name: _range(name, value, "@axiometer.parameters") for name, value in ranges.items()}

    def declare(function: _F) -> _F:
        setattr(function, RANGES_ATTRIBUTE, checked)
        return function
    return declare


#: What a parameter is given in ``params``: a value, a grid or a range (see the module docstring).
ParamValue = Union[Grid, Range, list[Any], tuple[Any, ...], Any]


@dataclass(frozen=True)
class Resolved:
    """A resolved metric reference: the metric and what a table or a score needs of it.

    ``metric``: the metric at its own setting (a built-in's values written in
    its spec, a function's defaults; a grid is not applied), in the one shape
    :class:`~axiometer.metrics.base.Metric` (a set measure, which scores ``set``, is
    the measure itself: :meth:`ranking_metric` refuses it). ``name``: its
    display name, the row title of a table: a built-in spec as written
    (``"RBP(p=0.5)"``; parameters given in ``params`` are written into it),
    otherwise the metric's family (``"signed"``, ``"RBP"``; a table titles two
    objects of one family by their full names). ``fixed``: the parameters
    written in the spec, which a table keeps while the others vary over their
    grids. ``grids``: parameter grids to walk, by family and name
    (``{"RBP.p": (0.5, 0.9)}``), or ``None``. ``ranges``: continuous ranges
    ``(low, high)`` to locate boundaries in, keyed the same way, or ``None``. ``spec``: the spec string of a
    built-in given as one (then ``name``), ``None`` for a metric object or a
    function. ``scores``: what a built-in scores, as registered (``ranking``,
    ``relative`` or ``set``, see :mod:`axiometer.metrics.registry`); a metric
    object or function scores rankings (``relative`` if it needs a context).
    """

    metric: Metric | SetMeasure
    name: str
    fixed: frozenset[str] = frozenset()
    grids: Mapping[str, tuple[Any, ...]] | None = None
    spec: str | None = None
    scores: str = "ranking"
    ranges: Mapping[str, tuple[Any, Any]] | None = None
    #: The spec as read (a built-in given as a spec without parameters), for :func:`with_params`.
    parsed: ParsedSpec | None = field(default=None, compare=False, repr=False)

    def for_rankings(self) -> Resolved:
        """This resolution, if its metric scores rankings, as ``table``, ``check`` and ``score`` need.

        A set measure (``recall``, ``F(beta=2)``) scores a retrieved set's
        counts instead: an :class:`~axiometer.core.InputError` that says so.
        """
        self.ranking_metric()
        return self

    def ranking_metric(self) -> Metric:
        """The metric, if it scores rankings (:meth:`for_rankings`'s error otherwise)."""
        if self.scores == "set":
            raise InputError(f"{self.name} is a set measure: it scores a retrieved set's counts, not "
                             "a ranking ('axiometer intrinsic' classifies it)",
                             source=f"metric {self.name!r}")
        return self.metric  # type: ignore[return-value]  # scores 'set' is the only SetMeasure


def resolve(ref: Any, *, params: Mapping[str, ParamValue] | None = None, cutoff: int | None = None,
            name: str | None = None, needs: Needs | Mapping[str, bool] | None = None) -> Resolved:
    """Resolve ``ref`` (see the module docstring) with its parameters, cutoff, name and needs.

    ``params``: ``{"p": 0.5}`` fixes a value, ``{"p": Grid([0.5, 0.9])}`` (or
    ``[0.5, 0.9]``) gives a grid, ``{"p": Range(0.5, 0.99)}`` (or ``(0.5, 0.99)``) a
    range; ``cutoff``, ``name`` and ``needs`` as in :func:`axiometer.metrics.wrap`
    (``name`` and ``needs`` only for a plain function). A :class:`Resolved`
    is returned as it is. Raises :class:`~axiometer.core.InputError`, one line.
    """
    if isinstance(ref, Resolved):
        _only_for_functions(ref.name, params=params, cutoff=cutoff, name=name, needs=needs,
                            why="the reference is resolved already")
        return ref
    given = {key: _typed(value) for key, value in (params or {}).items()}
    if isinstance(ref, str):
        text = ref.strip()
        if text.startswith(IR_MEASURES_PREFIX):
            _only_for_functions(text, params=given, cutoff=cutoff, name=name, needs=needs,
                                why="an ir_measures measure takes its parameters in the measure "
                                    "(e.g. 'ir_measures:nDCG@10')")
            measure = text[len(IR_MEASURES_PREFIX):].strip()
            metric = _ir_measures(measure, text)
            return Resolved(metric, metric.family, scores=_scores_of(metric))
        if ":" in text and not any(ch in text.split(":", 1)[0] for ch in "()'\"="):
            # `module:attr`; a colon inside a spec's quoted value ("X(form='a:b')") is not one.
            return _from_object(import_reference(text), text, given, cutoff, name, needs)
        return _builtin(text, given, cutoff, name, needs)
    return _from_object(ref, _describe(ref), given, cutoff, name, needs)


def _scores_of(metric: Metric) -> str:
    """What a metric scores: its family's registered ``scores`` if it is an instance of a registered
    class, else ``relative`` if it needs a context, else ``ranking``."""
    return scores_of(metric) or ("relative" if metric.needs.context else "ranking")


def _typed(value: Any) -> Any:
    """A ``params`` value with its shorthand made explicit: a list is a :class:`Grid`, a tuple of
    two a :class:`Range` (checked where it is used, :func:`_range`); other values are kept."""
    if isinstance(value, list):
        return Grid(value)
    if isinstance(value, tuple) and len(value) == 2:
        return Range(*value)
    return value


# -- built-in specs --------------------------------------------------------------

def _builtin(spec: str, params: dict[str, Any], cutoff: int | None, name: str | None,
             needs: Any) -> Resolved:
    _only_for_functions(spec, name=name, needs=needs,
                        why="a built-in metric has its own name and needs")
    source = f"metric {spec!r}"
    parsed = read_spec(spec)  # tokenized once; the family looked up once, in its registered spelling
    assert parsed.scores is not None  # read_spec says which family, and so what it scores
    metric = build(parsed, source)  # the spec's own errors first, with their column
    if not params and cutoff is None:
        text = spelled(spec, parsed)
        return Resolved(metric, text, frozenset(parsed.params), None, text, parsed.scores, parsed=parsed)
    return _with_params(metric, parsed, parsed.scores, spec, params, cutoff)


def with_params(resolved: Resolved, params: Mapping[str, ParamValue]) -> Resolved:
    """``resolved`` with ``params`` given besides its spec, as :func:`resolve` gives them: the
    spec is not read again (``axiometer table --param`` sets each row's own parameters so). A
    reference that is no built-in spec without parameters is resolved again from its metric."""
    parsed = resolved.parsed
    if parsed is None:
        return resolve(resolved.metric, params=params)
    given = {key: _typed(value) for key, value in params.items()}
    return _with_params(resolved.metric, parsed, resolved.scores, parsed.written, given, None)


def _with_params(metric: Metric | SetMeasure, parsed: ParsedSpec, scores: str, spec: str, params: dict[str, Any],
                 cutoff: int | None) -> Resolved:
    """The built-in ``parsed`` with ``params`` and ``cutoff`` given besides its spec: fixed values
    join the spec's own (built from the parsed spec, never printed and parsed again), grids and
    ranges are validated against the declared parameters and kept for the table."""
    name_of_family = parsed.family
    if cutoff is not None and (isinstance(cutoff, bool) or not isinstance(cutoff, int) or cutoff < 1):
        raise InputError(f"expected a positive integer cutoff, got {cutoff!r}", source=f"metric {spec!r}")
    declared = {p.name: p for p in metric.param_info}
    fixed = dict(parsed.params)
    grids: dict[str, tuple[Any, ...]] = {}
    ranges: dict[str, tuple[Any, Any]] = {}
    for key, value in params.items():
        param = declared.get(key)
        if param is None:
            known = ", ".join(declared) or "none"
            raise InputError(f"{name_of_family} has no parameter {key!r} (parameters: {known})",
                             source=f"metric {spec!r}")
        if key in fixed:
            raise InputError(f"parameter {key} is written in the spec already; give it in one place",
                             source=f"metric {spec!r}")
        values = _values(value)
        if _is_range(value):
            if param.type not in (int, float) or param.choices is not None:
                raise InputError(f"parameter {key} is not numeric: give values, not a range",
                                 source=f"metric {spec!r}")
            values = _range(key, value, spec)
            # An end at an open bound of the declared range is allowed: it is probed just inside.
            values = tuple(v for v, bound, is_open in ((values[0], param.low, param.low_open),
                                                       (values[1], param.high, param.high_open))
                           if not (is_open and bound is not None and v == bound))
        try:
            for v in values:
                param.validate(v, name_of_family)
        except ValidationError as error:
            raise InputError(str(error), source=f"metric {spec!r}") from None
        if _is_range(value):
            ranges[f"{name_of_family}.{key}"] = _range(key, value, spec)
        elif _is_grid(value):
            grids[f"{name_of_family}.{key}"] = values
        else:
            fixed[key] = value
    # Fixed values join the spec's, as if typed: a parameter written in a spec is
    # fixed, the others vary over their grid (axiometer.runner.parameter_grid).
    given = dataclasses.replace(parsed, params=fixed, cutoff=cutoff if cutoff is not None else parsed.cutoff)
    metric = build(given, f"metric {spec!r}")
    text = given.text()
    return Resolved(metric, text, frozenset(fixed), grids or None, text, scores, ranges or None)


# -- objects and functions ---------------------------------------------------------

def _from_object(obj: Any, ref: str, params: dict[str, Any], cutoff: int | None,
                 name: str | None, needs: Any) -> Resolved:
    if inspect.isclass(obj) and hasattr(obj, "score"):
        try:
            obj = obj()
        except Exception as error:  # the user's constructor: report it, do not crash
            raise InputError(f"cannot create an instance of class {obj.__name__} without arguments "
                             f"({type(error).__name__}: {error}); name an instance instead",
                             source=f"metric {ref!r}") from None
    if hasattr(obj, "score"):
        return _metric_object(obj, ref, params, cutoff, name, needs)
    if callable(obj):
        return _function(obj, ref, params, cutoff, name, needs)
    raise InputError(f"{ref!r} is not callable (it is {_article(type(obj).__name__)})")


def _metric_object(obj: Any, ref: str, params: dict[str, Any], cutoff: int | None,
                   name: str | None, needs: Any) -> Resolved:
    metric = adapt(obj)
    if not isinstance(metric.name, str):
        raise InputError(f"{ref!r} has a score method but no name (the metric protocol needs both)")
    _only_for_functions(ref, name=name, needs=needs,
                        why="a metric object has its own name and needs")
    if scores_of(obj) == "set":  # a set measure scores counts: kept as it is, for `intrinsic`
        return Resolved(obj, obj.name, scores="set")
    fixed = {k: v for k, v in params.items() if not _is_grid(v) and not _is_range(v)}
    if fixed or cutoff is not None:
        if isinstance(metric, UserMetric) and not metric.replaceable:
            raise InputError(f"{ref!r} has no replace(), so its parameters and cutoff cannot be set")
        changes: dict[str, Any] = dict(fixed)
        if cutoff is not None:
            changes["cutoff"] = cutoff
        try:
            metric = metric.replace(**changes)
        except (ValidationError, TypeError, KeyError) as error:
            raise InputError(f"cannot set {', '.join(changes)}: {error}", source=f"metric {ref!r}") from None
    name_of_family = metric.family
    declared = {p.name for p in metric.param_info}
    grids = {}
    ranges = {}
    for key, value in params.items():
        if _is_grid(value) or _is_range(value):
            if key not in declared:
                raise InputError(f"{metric.name} declares no parameter {key!r} to vary "
                                 f"(declared: {', '.join(sorted(declared)) or 'none'})",
                                 source=f"metric {ref!r}")
            if _is_range(value):
                ranges[f"{name_of_family}.{key}"] = _range(key, value, ref)
            else:
                grids[f"{name_of_family}.{key}"] = _values(value)
    # Every parameter of an object varies over its grid, so its row is named by its family.
    return Resolved(metric, name_of_family, frozenset(), grids or None, scores=_scores_of(metric),
                    ranges=ranges or None)


def _function(function: Callable[..., Any], ref: str, params: dict[str, Any], cutoff: int | None,
              name: str | None, needs: Any) -> Resolved:
    try:
        signature_defaults = {p.name: p.default for p in inspect.signature(function).parameters.values()
                              if p.default is not inspect.Parameter.empty}
    except (TypeError, ValueError):  # builtins without a signature
        signature_defaults = {}
    bounds = getattr(function, RANGES_ATTRIBUTE, None) or {}
    declared = _declared_by_function(bounds, params, signature_defaults, ref)
    ranges = {}
    for key, value in params.items():
        if _is_range(value):
            # A range: its ends are the grid, its default the function's own value inside it.
            low, high = _range(key, value, ref)
            own = signature_defaults.get(key)
            inside = isinstance(own, Real) and not isinstance(own, bool) and low <= own <= high
            declared.append(Param(key, float, own if inside else low, "given by the caller",
                                  low=low, high=high, grid=(low, high)))
            ranges[key] = (low, high)
            continue
        values = _values(value)
        if not values:
            raise InputError(f"parameter {key} has no values", source=f"metric {ref!r}")
        # The cell's mark is the verdict at the metric's own setting: the function's
        # default when the grid holds it, else the first value given.
        own = signature_defaults.get(key)
        default = own if _is_grid(value) and own in values else values[0]
        low, high = bounds.get(key, (None, None))
        declared.append(Param(key, _value_type(values), default, "given by the caller", low=low, high=high,
                              grid=values if _is_grid(value) else ()))
    if isinstance(needs, Mapping):
        try:
            needs = Needs(**needs)
        except TypeError as error:
            raise InputError(f"bad needs: {error}", source=f"metric {ref!r}") from None
    try:
        metric = wrap(function, name, cutoff=cutoff, param_info=declared, needs=needs)
    except ValidationError as error:
        raise InputError(str(error), source=f"metric {ref!r}") from None
    family_name = metric.family
    return Resolved(metric, family_name, scores=_scores_of(metric),
                    ranges={f"{family_name}.{k}": v for k, v in ranges.items()} or None)


def _declared_by_function(bounds: Mapping[str, tuple[Any, Any]], params: Mapping[str, Any],
                          defaults: Mapping[str, Any], ref: str) -> list[Param]:
    """The parameters a function declared with :func:`parameters` and the caller did not give: each
    at the function's default, which must be a number in its range; its grid is the range's ends
    (a table checks them beside the default, so a verdict that changes shows ``~``, and
    ``--boundaries`` locates the change in the range), as for a range given in ``params``."""
    declared = []
    for key, (low, high) in bounds.items():
        if key in params:
            continue
        own = defaults.get(key, inspect.Parameter.empty)
        if own is inspect.Parameter.empty:
            raise InputError(f"@axiometer.parameters declares {key}, which is not a keyword parameter "
                             "with a default", source=f"metric {ref!r}")
        if not (isinstance(own, Real) and not isinstance(own, bool) and low <= own <= high):
            raise InputError(f"parameter {key}: its default {own!r} is not a number in the declared "
                             f"range {format_value(low)}..{format_value(high)}", source=f"metric {ref!r}")
        declared.append(Param(key, float, own, "declared with @axiometer.parameters", low=low, high=high,
                              grid=(low, high)))
    return declared


def _is_grid(value: Any) -> bool:
    return isinstance(value, Grid)


def _is_range(value: Any) -> bool:
    return isinstance(value, (Range, tuple))  # a tuple left is not two values: a bad range


def _range(key: str, value: Range | tuple[Any, ...], ref: str) -> tuple[Any, Any]:
    """A ``(low, high)`` range of two numbers with ``low < high``; else one error line."""
    ends = (value.low, value.high) if isinstance(value, Range) else value
    if len(ends) != 2 or not all(isinstance(v, Real) and not isinstance(v, bool) for v in ends):
        raise InputError(f"parameter {key}: a range is a tuple (low, high) of two numbers, got "
                         f"{ends!r} (give a grid of values as a list)", source=f"metric {ref!r}")
    low, high = ends
    if not low < high:
        raise InputError(f"parameter {key}: the range {format_value(low)}..{format_value(high)} "
                         "needs low < high", source=f"metric {ref!r}")
    return low, high


def _values(value: Any) -> tuple[Any, ...]:
    return value.values if isinstance(value, Grid) else (value,)


def _value_type(values: Sequence[Any]) -> type:
    """A declared parameter's type, from its values: bool, int, float (any real), str, else object."""
    if all(isinstance(v, bool) for v in values):
        return bool
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return int
    if all(isinstance(v, Real) and not isinstance(v, bool) for v in values):
        return float
    if all(isinstance(v, str) for v in values):
        return str
    return object


def _only_for_functions(ref: str, *, why: str, **given: Any) -> None:
    """Options that make sense only for a plain function (or a built-in) must not be silently dropped."""
    named = [key for key, value in given.items() if value not in (None, {}, ())]
    if named:
        raise InputError(f"{named[0]}= cannot be given here: {why}", source=f"metric {ref!r}")


def _describe(obj: Any) -> str:
    """How a Python object is named in errors: its qualified name, its name, else a short repr."""
    named = obj.__qualname__ if inspect.isclass(obj) or inspect.isroutine(obj) else adapt(obj).name
    if isinstance(named, str):
        return named
    text = repr(obj)
    return text if len(text) <= 60 else text[:57] + "..."


def _article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


# -- importing ----------------------------------------------------------------------

def import_reference(ref: str, what: str = "metric") -> Any:
    """The object ``module:attr`` names, the module from the current directory (see :func:`_import_module`);
    ``what`` names the argument in errors (``metric``, ``implementation``)."""
    match = _IMPORT_REF.match(ref)
    if match is None:
        raise InputError("expected 'package.module:attribute' (or a built-in spec such as 'nDCG@10', "
                         "or 'ir_measures:MEASURE')", source=f"{what} {ref!r}")
    module_name, attribute = match.groups()
    module = _import_module(module_name, ref, what)
    obj: Any = module
    parts = attribute.split(".")
    for depth, part in enumerate(parts):
        if not hasattr(obj, part):
            names = [n for n in dir(obj) if not n.startswith("_")]
            close = difflib.get_close_matches(part, names, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            owner = (f"module {module_name!r}" if depth == 0
                     else repr(f"{module_name}:{'.'.join(parts[:depth])}"))
            raise InputError(f"{owner} has no attribute {part!r}{hint}{_shadowed(module)}",
                             source=f"{what} {ref!r}")
        obj = getattr(obj, part)
    return obj


def _shadowed(module: Any) -> str:
    """A note when the module imported is not the file of that name in the current directory."""
    local = os.path.join(os.getcwd(), *module.__name__.split("."))
    candidates = (local + ".py", os.path.join(local, "__init__.py"))
    found = getattr(module, "__file__", None)
    if found is None or not any(os.path.exists(c) for c in candidates):
        return ""
    if any(os.path.exists(c) and os.path.samefile(found, c) for c in candidates):
        return ""
    return (f" (the module was imported from {found}, not from the current directory: another "
            f"module of that name was found or loaded first; rename yours)")


def _import_module(module_name: str, ref: str, what: str = "metric") -> Any:
    directory = os.getcwd()
    # The user's directory goes after the installed packages (issue 29): a file there named like one
    # of axiometer's own dependencies (hypothesis.py) cannot replace it. The module the reference
    # names is loaded from the directory all the same (_load_local), whatever else has its name. It
    # stays on the path: the module may import its siblings later, and workers unpickle by name.
    if directory not in sys.path:
        sys.path.append(directory)
    importlib.invalidate_caches()  # a module written a moment ago (tests, notebooks) is found
    try:
        _load_local(module_name.split(".")[0], directory)
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        missing = error.name or ""
        if missing and (module_name == missing or module_name.startswith(missing + ".")):
            raise InputError(f"module {missing!r} not found (searched the current directory "
                             f"{directory} and the installed packages)",
                             source=f"{what} {ref!r}") from None
        raise InputError(_raised(module_name, error, directory), source=f"{what} {ref!r}") from None
    except (Exception, SystemExit) as error:  # whatever the user's module raises at import
        raise InputError(_raised(module_name, error, directory), source=f"{what} {ref!r}") from None


def _load_local(name: str, directory: str) -> None:
    """Import the top-level module ``name`` from ``directory`` (``name.py`` or the package ``name/``)
    when it is there and not imported yet; else leave it to the import system."""
    if name in sys.modules:
        return
    package = os.path.join(directory, name, "__init__.py")
    path = package if os.path.isfile(package) else os.path.join(directory, name + ".py")
    if not os.path.isfile(path):
        return
    locations = [os.path.dirname(package)] if path == package else None
    spec = importlib.util.spec_from_file_location(name, path, submodule_search_locations=locations)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise


def _raised(module_name: str, error: BaseException, directory: str) -> str:
    """``importing 'm' raised ValueError: boom (at /dir/m.py:3)``: type, message and where."""
    where = _where(error, directory)
    message = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return f"importing {module_name!r} raised {message}" + (f" (at {where})" if where else "")


def _where(error: BaseException, directory: str) -> str | None:
    """The file and line that raised: the user's code (under ``directory``) if possible."""
    if isinstance(error, SyntaxError) and error.filename:
        return f"{error.filename}:{error.lineno}"
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if not f.filename.startswith("<") and not _in_importlib(f.filename)]
    if not frames:
        return None
    prefix = os.path.join(os.path.abspath(directory), "")
    own = [f for f in frames if os.path.abspath(f.filename).startswith(prefix)]
    frame = (own or frames)[-1]
    return f"{frame.filename}:{frame.lineno}"


def _in_importlib(filename: str) -> bool:
    """Is ``filename`` part of the standard library's import machinery (not a user's file whose
    path merely contains the word)?"""
    return os.path.dirname(os.path.abspath(filename)) == _IMPORTLIB_DIR


_IMPORTLIB_DIR = os.path.dirname(os.path.abspath(importlib.__file__))


def _ir_measures(measure: str, ref: str) -> Any:
    if not measure:
        raise InputError("give a measure after 'ir_measures:', e.g. 'ir_measures:nDCG@10'",
                         source=f"metric {ref!r}")
    # Imported here: the bridge (and ir_measures, which it loads on first use) only when asked for.
    from axiometer.metrics.ir_measures_bridge import ir_measures_metric

    return ir_measures_metric(measure)

