"""The one registry of metric families: ranking-based, relative and set-based alike.

Each family registers itself where it is defined, as ir_measures' measures
do: a module calls :func:`register` once, at its end, naming its families in
the order they are listed, or decorates a class with it::

    register(DCG, NDCG)                                   # dcg.py
    register(NRG, UniqueContributions, kind="relative")   # nrg.py
    register(Recall, Precision, ..., kind="set")          # set_based.py

    @register                                             # a new module
    class TopHeavy(BuiltinMetric): ...

A family is registered under its spec name: a ranking metric's ``family``
(``"nDCG"``), a set measure's ``name`` (``"recall"``). The registry imports
the family modules on the first lookup, not before, so ``import
axiometer.metrics`` stays cheap: first :data:`FAMILY_MODULES`, whose order is
the families' order (:func:`families`, and so the unknown-metric message),
then every other module of :mod:`axiometer.metrics` (module name order), so a
family in a new module is found without editing anything here.

Kinds (:data:`KINDS`): ``ranking`` metrics score a ranking; ``relative``
ones score a ranking against other systems' rankings (a context,
definitions §6); ``set`` measures score a retrieved set's counts (Giner's
set-based and user-oriented measures, definitions §4).
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from axiometer.core import InputError, ValidationError, cut
from axiometer.metrics.spec import ParsedSpec, parse_spec

__all__ = ["register", "parse", "families", "family", "kind", "describe", "by_kind", "KINDS",
           "FAMILY_MODULES"]

#: The kinds of family (see the module docstring).
KINDS = ("ranking", "relative", "set")

#: The modules of the built-in families, in the order :func:`families` lists them; a family
#: registered by any other module of ``axiometer.metrics`` comes after these.
FAMILY_MODULES: tuple[str, ...] = (
    "precision", "reciprocal_rank", "average_precision", "dcg", "err", "rbp", "intent_aware",
    "subtopic_recall", "alpha_ndcg", "nrbp", "dsharp", "expected_utility", "cube_test", "rbu",
    "r_precision", "sliding_ratio", "normalised_recall", "sakai", "bpref", "expected_search_length",
    "weighted_precision", "nrg", "rareness", "fujii", "set_based",
)


class _Family(NamedTuple):
    name: str
    cls: type
    kind: str
    number: int  # registration order


_REGISTERED: dict[str, _Family] = {}
_loaded = False


def register(*classes: type, kind: str = "ranking") -> Any:
    """Register each class as a family of ``kind``, under its spec name (``family``, else ``name``).

    Called at the end of a family module with its families in the order they
    are listed (``register(DCG, NDCG)``), or as a class decorator
    (``@register``, ``@register(kind="relative")``); returns the (first)
    class, or without classes the decorator. Registering a second class under
    a taken name is a ``TypeError``.
    """
    if kind not in KINDS:
        raise TypeError(f"unknown kind {kind!r}; known: {', '.join(KINDS)}")
    if not classes:
        return lambda cls: register(cls, kind=kind)
    for cls in classes:
        name = getattr(cls, "family", None) or cls.name
        known = _REGISTERED.get(name)
        if known is not None and known.cls is not cls:
            raise TypeError(f"metric family {name!r} is registered twice "
                            f"({known.cls.__qualname__} and {cls.__qualname__})")
        if known is None:
            _REGISTERED[name] = _Family(name, cls, kind, len(_REGISTERED))
    return classes[0]


def _load() -> None:
    """Import every family module once, so that each has registered its families:
    :data:`FAMILY_MODULES` first, then any other module of the package."""
    global _loaded
    if _loaded:
        return
    _loaded = True  # a module that looks a family up while it is imported sees those loaded so far
    import pkgutil  # here, not at the top: only the first lookup needs it

    try:
        package = importlib.import_module("axiometer.metrics")
        others = sorted(info.name for info in pkgutil.iter_modules(package.__path__)
                        if info.name not in FAMILY_MODULES)
        for module in (*FAMILY_MODULES, *others):
            importlib.import_module(f"axiometer.metrics.{module}")
    except BaseException:
        _loaded = False  # the next lookup tries again (and raises again)
        raise


def _order(family: _Family) -> tuple[int, str, int]:
    """:data:`FAMILY_MODULES` first, in their order; other modules by name; then registration order."""
    module = family.cls.__module__
    short = module.rpartition(".")[2] if module.startswith("axiometer.metrics.") else module
    if short in FAMILY_MODULES:
        return (FAMILY_MODULES.index(short), "", family.number)
    return (len(FAMILY_MODULES), module, family.number)


def _registered() -> list[_Family]:
    _load()
    return sorted(_REGISTERED.values(), key=_order)


def families(kind: str | None = None) -> tuple[str, ...]:
    """The spec names of the families of ``kind``; by default those that score rankings
    (``ranking`` and ``relative``), the metrics ``axiometer table``, ``check`` and ``score`` take."""
    wanted = ("ranking", "relative") if kind is None else (kind,)
    if kind is not None and kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; known: {', '.join(KINDS)}")
    return tuple(f.name for f in _registered() if f.kind in wanted)


def family(name: str) -> type:
    """The class of the family ``name`` (any kind); ``KeyError`` if none is registered."""
    _load()
    return _REGISTERED[name].cls


def kind(name: str) -> str:
    """The kind of the family ``name``: ``ranking``, ``relative`` or ``set``."""
    _load()
    return _REGISTERED[name].kind


def describe(name: str) -> str:
    """One line naming a family's parameters, ranges, defaults and cutoff rule."""
    cls = family(name)
    parts = [f"{p.name}: {p.range_text()}, default {p.default!r}" for p in cls.param_info]
    rule = getattr(cls, "cutoff_rule", "none")
    cutoff = {"none": "no cutoff", "optional": "optional cutoff @k",
              "required": f"cutoff @k (default {getattr(cls, 'default_cutoff', None)})"}[rule]
    return f"{name} takes " + ("; ".join(parts) + "; " if parts else "no parameters; ") + cutoff


def parse(spec: str, parsed: ParsedSpec | None = None) -> Any:
    """Build the family a spec string names, e.g. ``parse("nDCG@10")``, ``parse("F(beta=2)")``.

    ``parsed``: ``spec`` already parsed by :func:`~axiometer.metrics.spec.parse_spec`
    (it is not parsed again). Raises :class:`~axiometer.core.InputError`
    naming the bad token, listing the known metrics (those that score
    rankings) or the family's parameters.
    """
    if parsed is None:
        parsed = parse_spec(spec)
    source = f"metric {spec!r}"
    _load()
    found = _REGISTERED.get(parsed.family)
    if found is None:
        known = families()
        close = difflib.get_close_matches(parsed.family, list(known), n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise InputError(f"unknown metric {cut(parsed.family, 60)!r}; {hint}known metrics: " + ", ".join(known),
                         source=source)
    if found.kind == "set":
        if parsed.cutoff is not None:
            raise InputError(f"a set measure takes no cutoff '@{parsed.cutoff}'", source=source)
        try:
            return found.cls(**parsed.params)
        except ValidationError as error:
            raise InputError(str(error), source=source) from None
    try:
        return found.cls(parsed.cutoff, **parsed.params)
    except ValidationError as error:
        raise InputError(f"{error}; {describe(parsed.family)}", source=source) from None


class _KindView(Mapping[str, type]):
    """The registered families of one kind, by spec name: a live, read-only view of the registry."""

    def __init__(self, kind: str) -> None:
        self._kind = kind

    def __getitem__(self, name: str) -> type:
        if name not in families(self._kind):
            raise KeyError(name)
        return family(name)

    def __iter__(self) -> Iterator[str]:
        return iter(families(self._kind))

    def __len__(self) -> int:
        return len(families(self._kind))

    def __repr__(self) -> str:
        return f"<{self._kind} families: {', '.join(self)}>"


def by_kind(kind: str) -> Mapping[str, type]:
    """The families of ``kind`` by spec name, as a read-only mapping that reads the registry."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; known: {', '.join(KINDS)}")
    return _KindView(kind)
