"""The one registry of metric families: ranking-based, relative and set-based alike.

Each family registers itself where it is defined, as ir_measures' measures
do: a module calls :func:`register` once, at its end, naming its families in
the order they are listed, or decorates a class with it::

    register(DCG, NDCG)                                   # dcg.py
    register(NRG, UniqueContributions, scores="relative") # nrg.py
    register(Recall, SetPrecision, ..., scores="set")     # set_based.py

    @register                                             # a new module
    class TopHeavy(BuiltinMetric): ...

A family is registered under its spec name: a ranking metric's ``family``
(``"nDCG"``), a set measure's ``name`` (``"recall"``). The registry imports
the family modules on the first lookup, not before, so ``import
axiometer.metrics`` stays cheap: first :data:`FAMILY_MODULES`, whose order is
the families' order (:func:`families`, and so the unknown-metric message),
then every other module of :mod:`axiometer.metrics` (module name order), so a
family in a new module is found without editing anything here.

What a family scores (``scores``, one of :data:`SCORES`): ``ranking``
metrics score a ranking; ``relative`` ones score a ranking against other
systems' rankings (a context, definitions §6); ``set`` measures score a
retrieved set's counts (Giner's set-based and user-oriented measures,
definitions §4).

Names are looked up as ir_measures users type them (:func:`lookup`): exactly,
else case-insensitively when one family matches (``ndcg@10`` is ``nDCG@10``;
two families differing only by case would make the name ambiguous, an
error naming both). The family keeps its registered spelling in every
report (:func:`spelled`). Parameter names are case-sensitive: they are the
papers' symbols, where case can carry meaning (Rnorm's ``N`` is a number of
documents), and ir_measures reads them so too (``RBP(P=0.5)`` is an error
there); a parameter that differs from a declared one only by case is named
in the error. An unknown name gets one suggestion (:func:`suggest`): the
family it names when case, ``-``, ``_`` and ``#`` are ignored (``ERR-IA``,
``alpha-nDCG``, ``D#-nDCG``, a family's title such as ``S-Recall``), a
trec_eval or ir_measures name (``map``, ``P_10``, ``ndcg_cut_10``,
``recip_rank``, ``MRR``), else the closest family name ignoring case
(:func:`difflib.get_close_matches`).
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from axiometer.core import InputError, ValidationError, cut
from axiometer.metrics.base import Param
from axiometer.metrics.spec import _TOKEN, ParsedSpec, TokenStream, parse_spec

__all__ = ["register", "parse", "build", "scores_of", "families", "family", "is_builtin", "scores_of_family", "describe",
           "by_scores", "SCORES",
           "FAMILY_MODULES", "lookup", "suggest", "read_spec", "spelled", "PEER_NAMES"]

#: What a family scores: a ranking, a ranking against other systems' rankings, a set's counts
#: (see the module docstring).
SCORES = ("ranking", "relative", "set")

#: The modules of the built-in families, in the order :func:`families` lists them; a family
#: registered by any other module of ``axiometer.metrics`` comes after these.
FAMILY_MODULES: tuple[str, ...] = (
    "precision", "reciprocal_rank", "average_precision", "dcg", "err", "rbp", "intent_aware",
    "subtopic_recall", "alpha_ndcg", "nrbp", "dsharp", "expected_utility", "cube_test", "rbu",
    "r_precision", "recall_at_k", "sliding_ratio", "normalised_recall", "sakai", "bpref", "expected_search_length",
    "weighted_precision", "nrg", "rareness", "fujii", "set_based",
)


class _Family(NamedTuple):
    name: str
    cls: type[Any]
    scores: str
    number: int  # registration order


_REGISTERED: dict[str, _Family] = {}
_loaded = False


def register(*classes: type[Any], scores: str = "ranking") -> Any:
    """Register each class as a family that scores ``scores``, under its spec name (``family``,
    else ``name``).

    Called at the end of a family module with its families in the order they
    are listed (``register(DCG, NDCG)``), or as a class decorator
    (``@register``, ``@register(scores="relative")``); returns the (first)
    class, or without classes the decorator. Registering a second class under
    a taken name is a ``TypeError``.
    """
    if scores not in SCORES:
        raise TypeError(f"unknown scores={scores!r}; known: {', '.join(SCORES)}")
    if not classes:
        return lambda cls: register(cls, scores=scores)
    for cls in classes:
        name = getattr(cls, "family", None) or cls.name
        known = _REGISTERED.get(name)
        if known is not None and known.cls is not cls:
            raise TypeError(f"metric family {name!r} is registered twice "
                            f"({known.cls.__qualname__} and {cls.__qualname__})")
        if known is None:
            _REGISTERED[name] = _Family(name, cls, scores, len(_REGISTERED))
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


def families(scores: str | None = None) -> tuple[str, ...]:
    """The spec names of the families that score ``scores``; by default those that score rankings
    (``ranking`` and ``relative``), the metrics ``axiometer table``, ``check`` and ``score`` take."""
    wanted = ("ranking", "relative") if scores is None else (scores,)
    if scores is not None and scores not in SCORES:
        raise ValueError(f"unknown scores={scores!r}; known: {', '.join(SCORES)}")
    return tuple(f.name for f in _registered() if f.scores in wanted)


def family(name: str) -> type[Any]:
    """The class of the family ``name`` (whatever it scores); ``KeyError`` if none is registered."""
    _load()
    return _REGISTERED[name].cls


def is_builtin(metric: object) -> bool:
    """``metric`` is a registered built-in that scores rankings: an object of exactly the class
    registered for its family, which scores ``ranking`` or ``relative`` (a subclass a metric author
    made, or an object that only names a family, is not). Its scores depend on nothing but its
    name and the input, so they may be trusted, shared and cached."""
    return scores_of(metric) in ("ranking", "relative")


def scores_of(metric: object) -> str | None:
    """What the family ``metric`` is an object of scores (``ranking``, ``relative`` or ``set``):
    ``metric`` of exactly its registered class (not a subclass); ``None`` for any other object."""
    _load()
    return next((f.scores for f in _REGISTERED.values() if type(metric) is f.cls), None)


def scores_of_family(name: str) -> str:
    """What the family ``name`` scores: ``ranking``, ``relative`` or ``set``."""
    _load()
    return _REGISTERED[name].scores


def describe(name: str) -> str:
    """One line naming a family's parameters, ranges, defaults and cutoff rule."""
    cls = family(name)
    parts = [f"{p.name}: {p.range_text()}, default {p.default!r}" for p in _declared(cls).values()]
    # A set measure takes no cutoff; a ranking metric says which it takes (BuiltinMetric.cutoff_rule).
    rule, default = ("none", None) if scores_of_family(name) == "set" else (cls.cutoff_rule, cls.default_cutoff)
    cutoff = {"none": "no cutoff", "optional": "optional cutoff @k",
              "required": f"cutoff @k (default {default})"}[rule]
    return f"{name} takes " + ("; ".join(parts) + "; " if parts else "no parameters; ") + cutoff


# -- names as users type them --------------------------------------------------------

#: trec_eval's, ndeval's and ir_measures' names for our families (matched on the lower-cased
#: name; ``\1`` is a cutoff written into the name): suggested, never accepted.
PEER_NAMES: tuple[tuple[str, str], ...] = (
    (r"p_?(\d+)", r"P@\1"),                 # trec_eval P_10 (-m P.10), P10 in older output
    (r"ndcg_cut_?(\d+)", r"nDCG@\1"),       # trec_eval ndcg_cut_10
    (r"map_cut_?(\d+)", r"AP@\1"),          # trec_eval map_cut_10
    (r"map|gm_map", "AP"),                   # trec_eval map, ir_measures MAP
    (r"mrr|recip_rank", "RR"),               # ir_measures MRR, trec_eval recip_rank
    (r"map[-_]?ia", "AP_IA"),                # ndeval MAP-IA, ir_measures MAP_IA
    (r"strec", "StRecall"),                  # ndeval strec@k
)


def _key(name: str) -> str:
    """A name with case, ``-``, ``_``, ``#`` (``sharp``) and spaces ignored: how a suggestion matches."""
    name = name.lower().replace("#", "sharp").replace("α", "alpha")
    return re.sub(r"[\s_-]", "", name)


def _by_key(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """``key -> family`` for the keys exactly one family has (``pairs``: ``(key, family)``, a key
    possibly more than once; a dict built first would keep only the last family of a key)."""
    found: dict[str, set[str]] = {}
    for key, name in pairs:
        found.setdefault(key, set()).add(name)
    return {key: next(iter(named)) for key, named in found.items() if len(named) == 1}


def suggest(name: str) -> str | None:
    """The family (or spec) an unknown metric name most likely means, ``None`` when nothing is close.

    In order: the family whose name equals ``name`` when case, ``-``, ``_``
    and ``#`` are ignored (``ERR-ia`` -> ``ERR_IA``), a peer's name
    (:data:`PEER_NAMES`: ``map`` -> ``AP``, ``ndcg_cut_10`` -> ``nDCG@10``),
    a family's title so compared (``S-Recall`` -> ``StRecall``), then the
    closest family name with case ignored (``NDGC`` -> ``nDCG``).
    """
    registered = _registered()
    key = _key(name)
    by_name = _by_key((_key(f.name), f.name) for f in registered)
    if key in by_name:
        return by_name[key]
    lowered = name.lower()
    for pattern, replacement in PEER_NAMES:
        match = re.fullmatch(pattern, lowered)
        if match:
            return match.expand(replacement)
    # A family registered by a metric author may have no title.
    titles = [(_key(re.split(r"[@(]", getattr(f.cls, "title", "") or "")[0]), f.name) for f in registered]
    by_title = _by_key((k, v) for k, v in titles if k and k not in by_name)
    if key in by_title:
        return by_title[key]
    lower = {f.name.lower(): f.name for f in registered}
    close = difflib.get_close_matches(lowered, list(lower), n=1)
    return lower[close[0]] if close else None


def _matches(name: str) -> list[_Family]:
    """The family named exactly ``name``, else every family equal to it ignoring case."""
    _load()
    found = _REGISTERED.get(name)
    if found is not None:
        return [found]
    return [f for f in _registered() if f.name.lower() == name.lower()]


def _find(name: str, source: str | None = None) -> _Family:
    """The family ``name`` names: exactly, else the one family equal to it ignoring case.

    An unknown name is an :class:`~axiometer.core.InputError` with one
    suggestion (:func:`suggest`) and the known metrics; a name that matches
    several families ignoring case (they differ only by case) is one naming them.
    """
    same = _matches(name)
    if len(same) == 1:
        return same[0]
    if same:
        both = " and ".join(repr(f.name) for f in same)
        raise InputError(f"metric name {cut(name, 60)!r} matches {both}, which differ only by case; "
                         "write one as it is spelled", source=source)
    close = suggest(name)
    hint = f"did you mean {cut(close, 60)!r}? " if close else ""
    raise InputError(f"unknown metric {cut(name, 60)!r}; {hint}known metrics: " + ", ".join(families()),
                     source=source)


def lookup(name: str) -> str:
    """The registered spelling of the family ``name`` (``"ndcg"`` -> ``"nDCG"``); see :func:`_find`."""
    return _find(name, source=f"metric {name!r}").name


def read_spec(spec: str) -> ParsedSpec:
    """:func:`~axiometer.metrics.spec.parse_spec`, with the family in its registered spelling.

    A name written as papers write it, which the spec syntax does not take
    (``ERR-IA@10``, ``alpha-nDCG@10``, ``D#-nDCG@10``), is the syntax error
    with a suggestion (``did you mean 'ERR_IA'?``). Raises
    :class:`~axiometer.core.InputError`, one line.
    """
    try:
        parsed = parse_spec(spec)
    except InputError as error:
        head = re.match(r"\s*([A-Za-zα][A-Za-z0-9_#α-]*)", spec) if isinstance(spec, str) else None
        close = suggest(head.group(1)) if head and re.search(r"[-#α]", head.group(1)) else None
        if close is None:
            raise
        raise InputError(f"{error.problem}; did you mean {cut(close, 60)!r}?", source=error.source,
                         line=error.line, token=error.token) from None
    found = _find(parsed.family, source=f"metric {spec!r}")
    return dataclasses.replace(parsed, family=found.name, cls=found.cls, scores=found.scores)


def spelled(spec: str, parsed: ParsedSpec | None = None) -> str:
    """``spec`` (stripped) with every metric name in it spelled as registered:
    ``"ndcg@10"`` -> ``"nDCG@10"``, ``"nrg(base=rbp(p=0.5))"`` -> ``"NRG(base=RBP(p=0.5))"``.

    A metric name is the spec's first name, a name followed by ``(`` or
    ``@``, or a bare word given to a parameter that takes any text (NRG's
    ``base=ndcg``); quoted strings and option words (``form=reference``) are
    kept. Names of no family, or of several, are kept as written; the rest
    of the text (spaces, number spellings) is untouched. ``parsed``: ``spec``
    as :func:`read_spec` read it, whose tokens and family are used (``spec``
    is then neither tokenized nor its family looked up again).
    """
    text = spec.strip()
    tokens = list(parsed.tokens) if parsed is not None and parsed.tokens else \
        TokenStream(text, _TOKEN, f"metric {spec!r}").tokens
    out: list[str] = []
    last = 0
    enclosing: list[type[Any] | None] = []  # the family class of each open '(' (None: not a family)

    def registered(name: str, first: bool) -> _Family | None:
        if first and parsed is not None and parsed.cls is not None and parsed.scores is not None:
            return _Family(parsed.family, parsed.cls, parsed.scores, 0)  # read_spec found it
        same = _matches(name)
        return same[0] if len(same) == 1 else None

    for i, token in enumerate(tokens[:-1]):
        after = tokens[i + 1].text
        if token.text == ")" and enclosing:
            enclosing.pop()
        if token.category != "name":
            continue
        head = i == 0 or after in ("(", "@")
        if not head and i >= 2 and tokens[i - 1].text == "=" and after in (",", ")", ""):
            param = _declared(enclosing[-1]).get(tokens[i - 2].text) if enclosing else None
            head = param is not None and param.type is str and param.choices is None
        if not head:
            continue
        found = registered(token.text, i == 0)
        if after == "(":
            enclosing.append(found.cls if found else None)
        if found is not None and found.name != token.text:
            start = token.column - 1
            out += [text[last:start], found.name]
            last = start + len(token.text)
    return "".join(out) + text[last:]


def _declared(cls: type[Any] | None) -> dict[str, Param]:
    """The parameters a family's class declares, by name (none for ``None``)."""
    return {p.name: p for p in cls.param_info} if cls is not None else {}


def parse(spec: str, parsed: ParsedSpec | None = None) -> Any:
    """Build the family a spec string names, e.g. ``parse("nDCG@10")``, ``parse("F(beta=2)")``.

    The family's name may be written in any case (``parse("ndcg@10")``, see
    :func:`lookup`). ``parsed``: ``spec`` already parsed by
    :func:`~axiometer.metrics.spec.parse_spec` or :func:`read_spec` (it is not
    parsed again). Raises :class:`~axiometer.core.InputError` naming the bad
    token, suggesting a family and listing the known metrics (those that
    score rankings), or listing the family's parameters.
    """
    if parsed is None or parsed.cls is None:
        parsed = read_spec(spec)
    return build(parsed, f"metric {spec!r}")


def build(parsed: ParsedSpec, source: str) -> Any:
    """The metric a spec read by :func:`read_spec` names (its family is not looked up again);
    ``source`` names the spec in errors (``metric 'RBP(p=2)'``). Raises
    :class:`~axiometer.core.InputError`, one line (see :func:`parse`)."""
    if parsed.cls is None or parsed.scores is None:
        raise TypeError("build() takes a spec read by read_spec()")
    found = _Family(parsed.family, parsed.cls, parsed.scores, 0)
    declared = list(_declared(found.cls))
    for key in parsed.params:
        same = [name for name in declared if name.lower() == key.lower()]
        if key not in declared and same:
            raise InputError(f"{found.name}: unknown parameter {cut(key, 60)!r}; did you mean {same[0]!r}? "
                             f"(parameter names are case-sensitive; {describe(found.name)})", source=source)
    if found.scores == "set":
        if parsed.cutoff is not None:
            raise InputError(f"a set measure takes no cutoff '@{parsed.cutoff}'", source=source)
        try:
            return found.cls(**parsed.params)
        except ValidationError as error:
            raise InputError(str(error), source=source) from None
    try:
        return found.cls(parsed.cutoff, **parsed.params)
    except ValidationError as error:
        raise InputError(f"{error}; {describe(found.name)}", source=source) from None


class _ScoresView(Mapping[str, type]):
    """The registered families that score one thing, by spec name: a live, read-only view of the registry."""

    def __init__(self, scores: str) -> None:
        self._scores = scores

    def __getitem__(self, name: str) -> type:
        if name not in families(self._scores):
            raise KeyError(name)
        return family(name)

    def __iter__(self) -> Iterator[str]:
        return iter(families(self._scores))

    def __len__(self) -> int:
        return len(families(self._scores))

    def __repr__(self) -> str:
        return f"<{self._scores} families: {', '.join(self)}>"


def by_scores(scores: str) -> Mapping[str, type]:
    """The families that score ``scores``, by spec name, as a read-only mapping that reads the registry."""
    if scores not in SCORES:
        raise ValueError(f"unknown scores={scores!r}; known: {', '.join(SCORES)}")
    return _ScoresView(scores)
