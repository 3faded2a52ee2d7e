"""Parametric analysis: where a metric's intrinsic classification changes (definitions §4).

For a built-in metric with a numeric parameter (RBP's ``p``, RBU's ``p`` and
``e``), :func:`analyse` makes the parameter a ``sympy.Symbol`` ``x`` and
scores every output of a finite domain symbolically, so each score is an
expression in ``x`` (a polynomial for RBP: ``(1 - p) sum_i p^(i-1) r_i``).
Then, over the parameter's declared range (``Param.low``/``high``,
open or closed):

- **exceptional values** (the metric is not injective there): two outputs
  ``a``, ``b`` with different expressions tie exactly at the real roots of
  the numerator of ``Q_a(x) - Q_b(x)``. Each numerator is factored over the
  rationals; an irreducible factor's real roots are found exactly
  (``Poly.real_roots``: radicals such as ``(-1 + sqrt(5))/2`` where they
  exist, else ``CRootOf``). Distinct monic irreducible factors share no
  root, so deduplicating the factors deduplicates the roots exactly; the
  first pair (by domain order) whose difference has the factor is the
  witness. Outputs with the *same* expression tie for every value: then the
  metric is injective for no value (``always_tied``).
- **interval values** (``interval/metric``, as
  :func:`axiometer.intrinsic.classify.classify` decides it: injective with
  equally spaced sorted values): between consecutive exceptional values no
  two outputs tie, so the order of the distinct expressions is constant; it
  is read exactly at a rational point of the sub-range. With the sorted
  expressions ``e_0 < ... < e_{m-1}`` the values are equally spaced iff
  every ``(e_{j+1} - e_j) - (e_1 - e_0)`` vanishes, i.e. at the real roots in
  the sub-range of the gcd of those numerators (the whole sub-range when all
  vanish identically, or ``m <= 2``). A closed end of the range that is not
  exceptional is checked directly, exactly. At an exceptional value the
  metric has a tie, so it is not ``interval/metric`` there.

For RBP on binary rankings of length 3 this gives the single exceptional
value ``p = (sqrt(5) - 1)/2`` ((1, 0, 0) and (0, 1, 1): ``1 = p + p^2``) and
the single interval value ``p = 1/2`` (definitions §4).

How a score becomes symbolic (:func:`symbolic_score`): a shallow copy of the
metric gets the symbol as its parameter attribute (and in ``params``), and
its ``compute`` runs in sympy arithmetic (:mod:`axiometer.metrics.symbolic`),
which passes sympy objects through and reads every number exactly. This
needs no change to the metrics: any built-in whose formula only does
arithmetic on the parameter works; one that branches on the parameter's
value (or converts it to float) fails with a :class:`ParametricError`.

Scope: scores must be rational functions of the parameter with rational
coefficients (RBP, RBU, and any rational built-in); a metric whose scores
involve logarithms (alpha-nDCG's log2 discounts) is refused with a clear
error. The number of outputs is bounded (``max_outputs``), since all pairs of
distinct expressions are compared.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import sympy

from axiometer.core import AxiometerError, Number, Topic, to_fraction
from axiometer.generators.domains import Domain, SetsDomain
from axiometer.metrics.symbolic import SymbolicError
from axiometer.metrics.symbolic import symbolic_score as _symbolic_score
from axiometer.metrics.adapter import adapt
from axiometer.metrics.base import BuiltinMetric, Metric, Param, format_value
from axiometer.results import ParametricResult

__all__ = ["MAX_OUTPUTS", "ParametricError", "analyse", "numeric_param", "symbolic_score"]

#: Default bound on the domain size (all pairs of distinct expressions are compared).
MAX_OUTPUTS = 128

_Frac = tuple[sympy.Poly, sympy.Poly]  # numerator, denominator in the symbol


class ParametricError(AxiometerError):
    """The parametric analysis cannot be done for this metric, parameter or domain."""


def numeric_param(metric: Metric, param: str | None) -> Param:
    """The declared numeric (int/float, not a choice) parameter ``param`` of ``metric``.

    ``param=None`` picks the metric's only numeric parameter. Raises
    :class:`ParametricError` when there is none, several, or no such one.
    """
    name = metric.name if isinstance(metric, BuiltinMetric) else (adapt(metric).name or repr(metric))
    if not isinstance(metric, BuiltinMetric):
        raise ParametricError(
            f"{name}: parametric analysis needs a built-in metric, whose formula can be evaluated "
            "with a symbolic parameter; a wrapped function cannot")
    numeric = [p for p in metric.param_info if p.type in (int, float) and p.choices is None and p.varies]
    if not numeric:
        raise ParametricError(f"{name} has no numeric parameter to analyse")
    names = ", ".join(p.name for p in numeric)
    if param is None:
        if len(numeric) > 1:
            raise ParametricError(f"{name} has several numeric parameters ({names}): say which")
        return numeric[0]
    for p in numeric:
        if p.name == param:
            return p
    raise ParametricError(f"{name} has no numeric parameter {param!r} (numeric parameters: {names})")


def symbolic_score(metric: BuiltinMetric, param: str, symbol: sympy.Symbol,
                   ranking: Sequence[str], topic: Topic) -> sympy.Expr:
    """``metric``'s score of ``ranking`` with parameter ``param`` replaced by ``symbol``
    (:func:`axiometer.metrics.symbolic.symbolic_score`), failing as a :class:`ParametricError`."""
    try:
        return _symbolic_score(metric, param, symbol, ranking, topic)
    except SymbolicError as error:
        raise ParametricError(str(error)) from error


def _as_fraction(expr: sympy.Expr, x: sympy.Symbol, where: str) -> _Frac:
    """``expr`` as numerator and denominator polynomials in ``x`` with rational coefficients."""
    numerator, denominator = sympy.fraction(sympy.cancel(sympy.together(expr)))
    try:
        polys = (sympy.Poly(numerator, x), sympy.Poly(denominator, x))
    except sympy.PolynomialError as error:
        raise ParametricError(f"{where}: the score {expr} is not a rational function of {x}") from error
    for poly in polys:
        if not (poly.domain.is_ZZ or poly.domain.is_QQ):
            raise ParametricError(
                f"{where}: the score {expr} has non-rational coefficients (e.g. logarithms); "
                "parametric analysis handles rational functions of the parameter with rational "
                "coefficients")
    return polys


def _key(frac: _Frac) -> tuple[Any, ...]:
    """A canonical key of a rational function: monic denominator, coefficients as rationals."""
    numerator, denominator = frac
    lead = denominator.LC()
    return (tuple(c / lead for c in numerator.all_coeffs()),
            tuple(c / lead for c in denominator.all_coeffs()))


def _difference(a: _Frac, b: _Frac) -> _Frac:
    return a[0] * b[1] - b[0] * a[1], a[1] * b[1]


def _value(frac: _Frac, point: sympy.Rational) -> sympy.Rational:
    return frac[0].eval(point) / frac[1].eval(point)


def _numeric(value: sympy.Expr) -> sympy.Float:
    return sympy.N(value, 50)


def _text(value: sympy.Expr) -> str:
    return str(value) if value.is_Rational else str(sympy.together(value))


def _shown(value: sympy.Expr) -> str:
    """``1/2``, or ``(-1 + sqrt(5))/2 ≈ 0.618034`` for an irrational value."""
    return _text(value) if value.is_Rational else f"{_text(value)} ≈ {float(_numeric(value)):.6g}"


def _exact(value: Number) -> sympy.Rational:
    """A declared bound (an int, float or Fraction, as :class:`Param` types it), read exactly."""
    return sympy.Rational(str(to_fraction(value)))


class _Range:
    """The declared range of a parameter, with exact bounds (``None``: unbounded)."""

    def __init__(self, param: Param) -> None:
        self.low = None if param.low is None else _exact(param.low)
        self.high = None if param.high is None else _exact(param.high)
        self.low_open = param.low_open or self.low is None
        self.high_open = param.high_open or self.high is None

    def __contains__(self, value: sympy.Expr) -> bool:
        if self.low is not None and (value <= self.low if self.low_open else value < self.low):
            return False
        return self.high is None or (value < self.high if self.high_open else value <= self.high)

    def text(self) -> str:
        low = "-inf" if self.low is None else str(self.low)
        high = "inf" if self.high is None else str(self.high)
        return f"{'(' if self.low_open else '['}{low}, {high}{')' if self.high_open else ']'}"


def _between(a: sympy.Expr | None, b: sympy.Expr | None) -> sympy.Rational:
    """A rational strictly between ``a`` and ``b`` (``None``: unbounded), ``a < b``."""
    if a is None and b is None:
        return sympy.Integer(0)
    if a is None:
        assert b is not None
        return sympy.Integer(int(sympy.floor(_numeric(b))) - 1)
    if b is None:
        candidate = sympy.Integer(int(sympy.floor(_numeric(a))) + 1)
        while not candidate > a:
            candidate += 1
        return candidate
    low = _numeric(a)
    q = 2
    while True:
        candidate = sympy.Rational(int(sympy.floor(low * q)) + 1, q)
        if a < candidate < b:
            return candidate
        q *= 2


def _real_roots(poly: sympy.Poly) -> list[tuple[sympy.Poly, sympy.Expr]]:
    """The real roots of ``poly``, each with its monic irreducible factor over the rationals."""
    roots: list[tuple[sympy.Poly, sympy.Expr]] = []
    for factor, _ in poly.factor_list()[1]:
        if factor.degree() >= 1:
            monic = factor.monic()
            roots.extend((monic, root) for root in monic.real_roots())
    return roots


def analyse(metric: Any, param: str | None, domain: Domain, *, interval: bool = True,
            max_outputs: int = MAX_OUTPUTS) -> ParametricResult:
    """Where ``metric``'s classification on ``domain`` changes as ``param`` runs over its range.

    ``param`` names a numeric parameter (``None``: the only one). Returns the
    exceptional values (ties between outputs with different expressions),
    outputs tied for every value, and, with ``interval=True``, the values
    (or sub-ranges) at which the metric is ``interval/metric``; see the
    module docstring for the method. Raises :class:`ParametricError` for a
    metric without a numeric parameter, a wrapped function, a context
    metric, a sets domain, a domain of more than ``max_outputs`` outputs, or
    scores that are not rational functions of the parameter.
    """
    declared = numeric_param(metric, param)
    name = declared.name
    _check_analysable(metric, domain, max_outputs)
    x = sympy.Symbol(name, real=True)
    label = _label(metric, name)
    span = _Range(declared)
    reps, firsts, always_tied = _expressions(metric, name, x, domain, label)
    found, always_tied = _exceptional(reps, firsts, domain, span, always_tied)
    exceptional = tuple((_text(root), float(_numeric(root)), domain.label(i), domain.label(j))
                        for root, (i, j) in found)
    interval_values: list[sympy.Expr] = []
    interval_ranges: list[str] = []
    if interval and not always_tied and reps:
        interval_values, interval_ranges = _interval_values(reps, [root for root, _ in found], span)
    summary = _summary(name, span, always_tied, [root for root, _ in found],
                       (interval_values, interval_ranges) if interval else None)
    return ParametricResult(
        metric=label, parameter=name, range=span.text(), domain=domain.name, size=domain.size,
        distinct_expressions=len(reps), exceptional=exceptional, always_tied=always_tied,
        interval=tuple((_text(v), float(_numeric(v))) for v in interval_values),
        interval_ranges=tuple(interval_ranges), interval_analysed=interval and not always_tied,
        summary=summary)


def _check_analysable(metric: Any, domain: Domain, max_outputs: int) -> None:
    """Raise :class:`ParametricError` for a context metric, a sets domain or too large a domain."""
    if metric.needs.context:
        raise ParametricError(f"{metric.name} scores against other systems (a context): "
                              "parametric analysis needs a metric of one output")
    if isinstance(domain, SetsDomain):
        raise ParametricError(f"parametric analysis scores rankings; {domain.name} is a domain of "
                              "contingency counts")
    if domain.size > max_outputs:
        raise ParametricError(
            f"{domain.name} has {domain.size} outputs, more than the parametric analysis's limit of "
            f"{max_outputs} (all pairs of distinct score expressions are compared); use a smaller "
            "domain or raise max_outputs")


def _label(metric: Any, name: str) -> str:
    """The metric's name with the analysed parameter as its symbol: ``RBP(p=p)``, ``RBU(p=0.8,e=e)@10``."""
    shown_params = ",".join(f"{k}={k if k == name else format_value(v)}" for k, v in metric.params.items()
                            if not (isinstance(v, str) and v == next(
                                p.default for p in metric.param_info if p.name == k)))
    return metric.family + (f"({shown_params})" if shown_params else "") + \
        (f"@{metric.cutoff}" if metric.cutoff is not None else "")


def _expressions(metric: Any, name: str, x: sympy.Symbol, domain: Domain,
                 label: str) -> tuple[list[_Frac], list[int], tuple[str, ...]]:
    """Every output's symbolic score, deduplicated: the distinct expressions (in domain order of
    their first outputs), each one's first output, and two outputs with the same expression (if any)."""
    classes: dict[tuple[Any, ...], list[int]] = {}
    fracs: dict[tuple[Any, ...], _Frac] = {}
    for index in range(domain.size):
        ranking, topic = domain.output(index)
        expr = symbolic_score(metric, name, x, ranking, topic)
        extra = expr.free_symbols - {x}
        if extra:
            raise ParametricError(f"{label} on {domain.label(index)}: score has other symbols {extra}")
        frac = _as_fraction(expr, x, f"{label} on {domain.label(index)}")
        key = _key(frac)
        classes.setdefault(key, []).append(index)
        fracs.setdefault(key, frac)
    keys = list(classes)  # in domain order of first members
    always_tied: tuple[str, ...] = ()
    tied_class = next((c for c in classes.values() if len(c) > 1), None)
    if tied_class is not None:
        always_tied = (domain.label(tied_class[0]), domain.label(tied_class[1]))
    return [fracs[k] for k in keys], [classes[k][0] for k in keys], always_tied


def _exceptional(reps: Sequence[_Frac], firsts: Sequence[int], domain: Domain, span: _Range,
                 always_tied: tuple[str, ...]) -> tuple[list[tuple[sympy.Expr, tuple[int, int]]], tuple[str, ...]]:
    """The real roots in range of the pairwise differences, ascending, each with the first pair of
    outputs (domain indices) that tie there; and ``always_tied``, or two different expressions of one
    function (tied everywhere) when it is empty."""
    factors: dict[tuple[Any, ...], tuple[int, int]] = {}
    factor_polys: dict[tuple[Any, ...], sympy.Poly] = {}
    differences: set[tuple[Any, ...]] = set()
    for a in range(len(reps)):
        for b in range(a + 1, len(reps)):
            numerator, denominator = _difference(reps[a], reps[b])
            if numerator.is_zero:  # same function written differently: tied everywhere
                if not always_tied:
                    always_tied = (domain.label(firsts[a]), domain.label(firsts[b]))
                continue
            seen = (tuple(numerator.monic().all_coeffs()), tuple(denominator.monic().all_coeffs()))
            if seen in differences:  # RBP's differences repeat (they depend on grade differences)
                continue
            differences.add(seen)
            for factor, _ in numerator.factor_list()[1]:
                if factor.degree() < 1:
                    continue
                monic = factor.monic()
                if denominator.rem(monic).is_zero:  # its roots are poles, not ties
                    continue
                fkey = tuple(monic.all_coeffs())
                if fkey not in factors:
                    factors[fkey] = (firsts[a], firsts[b])
                    factor_polys[fkey] = monic
    found: list[tuple[sympy.Expr, tuple[int, int]]] = []
    for fkey, monic in factor_polys.items():
        for root in monic.real_roots():
            if root in span:
                found.append((root, factors[fkey]))
    found.sort(key=lambda item: _numeric(item[0]))
    return found, always_tied


def _interval_values(reps: Sequence[_Frac], points: Sequence[sympy.Expr],
                     span: _Range) -> tuple[list[sympy.Expr], list[str]]:
    """The values, and the sub-ranges between the exceptional ``points`` (and poles), at which the
    distinct expressions are equally spaced; the values ascending."""
    interval_values: list[sympy.Expr] = []
    interval_ranges: list[str] = []
    # A score's pole (a real root of its denominator) splits a sub-range too: the sample point
    # must not be one, where the scores are undefined and cannot be ordered.
    poles = [root for f in reps for _, root in _real_roots(f[1]) if root in span]
    cuts = sorted({*points, *poles}, key=_numeric)
    bounds: list[sympy.Expr | None] = [span.low, *cuts, span.high]
    for a, b in itertools.pairwise(bounds):
        if a is not None and b is not None and not a < b:
            continue  # an exceptional value at a closed end: empty sub-range
        common = _equal_gaps(reps, _between(a, b))
        if common is None or common.is_zero:
            interval_ranges.append(f"({'-inf' if a is None else _text(a)}, {'inf' if b is None else _text(b)})")
            continue
        for monic, root in _real_roots(common):
            inside = (a is None or root > a) and (b is None or root < b)
            if inside and not any(f[1].rem(monic).is_zero for f in reps):
                interval_values.append(root)
    for end, is_open in ((span.low, span.low_open), (span.high, span.high_open)):
        if end is None or is_open or any(end == root for root in points):
            continue
        values = sorted(_value(f, end) for f in reps if f[1].eval(end) != 0)
        gaps = {values[j + 1] - values[j] for j in range(len(values) - 1)}
        if len(values) == len(reps) and len(gaps) <= 1:
            interval_values.append(end)
    interval_values.sort(key=_numeric)
    return interval_values, interval_ranges


def _equal_gaps(reps: Sequence[_Frac], sample: sympy.Rational) -> sympy.Poly | None:
    """In the order the expressions take at ``sample``, the gcd of the numerators of every
    ``(e_{j+1} - e_j) - (e_1 - e_0)``: zero where the gaps are equal throughout, ``None`` for at
    most two expressions (equally spaced throughout too)."""
    order = sorted(range(len(reps)), key=lambda i: _value(reps[i], sample))
    ordered = [reps[i] for i in order]
    if len(ordered) <= 2:
        return None
    first_gap = _difference(ordered[1], ordered[0])
    common: sympy.Poly | None = None
    for j in range(1, len(ordered) - 1):
        gap = _difference(ordered[j + 1], ordered[j])
        condition = _difference(gap, first_gap)[0]
        common = condition if common is None else common.gcd(condition)
    return common


def _summary(name: str, span: _Range, always_tied: tuple[str, ...], roots: Sequence[sympy.Expr],
             interval: tuple[Sequence[sympy.Expr], Sequence[str]] | None) -> str:
    """The analysis in one line: where the metric is injective, and (when ``interval`` was analysed:
    its values and sub-ranges) where it is an interval scale."""
    where = f"{name} in {span.text()}"
    if always_tied:
        summary = (f"never a metric on this domain: {always_tied[0]} and {always_tied[1]} tie for "
                   f"every {where}")
    elif roots:
        summary = (f"metric for every {where} except {{"
                   + ", ".join(_shown(root) for root in roots) + "}")
    else:
        summary = f"metric for every {where}"
    if interval is not None and not always_tied:
        interval_values, interval_ranges = interval
        if interval_ranges:
            summary += "; interval for every " + name + " in " + " and ".join(interval_ranges)
            if interval_values:
                summary += " and at " + ", ".join(_shown(v) for v in interval_values)
        elif interval_values:
            summary += f"; interval only at {name} = " + ", ".join(_shown(v) for v in interval_values)
        else:
            summary += f"; interval for no {name}"
    return summary
