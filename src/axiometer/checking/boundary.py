"""Where a verdict changes along a numeric parameter: bisection with exact probes, then a closed form.

A cell's verdict may depend on a parameter (RBP's CloseTh holds for ``p =
0.8`` and fails for ``p = 0.5``). :func:`locate` finds the values where it
changes (definitions §3, "Boundaries"):

1. **Probes.** The metric is checked (:func:`axiometer.checking.check.check`,
   every decision exact for a built-in) at the given values of the
   parameter inside its range, at the range's ends (an open end is probed
   a thousandth of the range inside it) and at :data:`SUBDIVISIONS` evenly
   spaced values, the other parameters fixed.
2. **Bisection.** Between neighbouring probes with different verdicts, the
   interval is halved — at the shortest decimal in its middle half, so probes
   stay readable (``p = 0.7549``) — until it is at most :data:`WIDTH` = 1e-6
   wide; without a closed form (step 3), then until every value in it rounds alike to
   :data:`SHOWN_DIGITS` significant digits (at most :data:`MORE_HALVINGS` more probes), so
   the value a report prints is correctly rounded (``0.2``, not ``0.199999``). Every check of one cell shares its seed (the metric's family, not its
   setting), so every probe meets the same random cases.
3. **Closed form.** For a built-in, the *decisive case* — the counterexample
   found on the violated side, or for DeepTh/CloseTh the pair ``(a_n, b_n)``
   whose ``D(n)`` changes sign across the bracket — is scored with the
   parameter as a sympy symbol (:func:`axiometer.metrics.symbolic.symbolic_score`),
   so ``Q(b) - Q(a)`` is an expression in it: a polynomial in ``p`` for RBP, a
   polynomial in ``1 - alpha`` with logarithmic coefficients for alpha-nDCG.
   Its root in the bracket is found exactly where sympy can (the irreducible
   rational factor that vanishes there: ``"root of p**3 + p**2 - 1"``, radicals
   for degree 2) and to 15 digits otherwise. The bisection checks the closed
   form: they must agree to 1e-6, and the :class:`~axiometer.results.Boundary`
   says whether they do.
4. **Sides.** A side is *certain* when a concrete case decided every probe on
   it: a counterexample (violated), or CloseTh's witness pair (an existential
   shown by one instance). Any other side rests on "no counterexample found",
   and carries its probe's evidence. At the boundary value itself the
   decisive case ties, so a strict relation fails there: the value belongs to
   the violated side (to the holding side for Sat's ``>=``); an exactly
   rational root is checked directly instead.

A two-parameter cell's boundary curve is :func:`locate` of one parameter at
each grid value of the other (:mod:`axiometer.runner.table` runs them as tasks).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import sympy

from axiometer.axioms.constraints.base import Constraint
from axiometer.axioms.constraints.threshold import ThresholdConstraint
from axiometer.axioms.oracle import Oracle
from axiometer.checking.budget import Budget
from axiometer.checking.check import check
from axiometer.checking.guard import guard
from axiometer.checking.search import Search
from axiometer.core import InputError, Ranking, Topic, to_fraction
from axiometer.generators.case import Case
from axiometer.metrics.decide import DEFAULT_TOLERANCE
from axiometer.metrics.base import BuiltinMetric, Metric, format_value
from axiometer.metrics.symbolic import SymbolicError, symbolic_score
from axiometer.results import Boundary, Certain, Check, Counterexample, RootForm, Side, TopicRecord, Verdict

__all__ = ["WIDTH", "SHOWN_DIGITS", "SUBDIVISIONS", "ParamRange", "CellProbe", "declared_range", "locate", "probe_values",
           "shortest_between"]

#: The largest bracket a boundary is located to (definitions §3).
WIDTH = Fraction(1, 10**6)
#: Significant digits a report prints a boundary with (``reports.numbers.SIGNIFICANT``: a test
#: keeps the two equal); the bracket is narrowed until every value in it rounds alike to them.
SHOWN_DIGITS = 6
#: The most probes spent narrowing a bracket for :data:`SHOWN_DIGITS` (a boundary within
#: 1e-6/2**12 of a rounding midpoint is printed as its bracket's midpoint rounds).
MORE_HALVINGS = 12
#: Evenly spaced probes added inside a range, so a change between two grid values far apart is seen.
SUBDIVISIONS = 8
#: How far inside an open end of a range it is probed, as a fraction of the range's width.
OPEN_END = Fraction(1, 1000)
#: A closed form longer than this prints as its degree only ("root of a degree-40 polynomial").
_LONGEST_FORM = 160
#: The longest ranking scored symbolically for a closed form: longer ones make expressions
#: sympy takes minutes over (EU's CloseTh at m = 1024), and the bisection stands alone then.
SYMBOLIC_DOCS = 64
#: Larger differences are solved numerically without first simplifying them for print.
_SIMPLIFY_OPS = 200

#: ``probe(value) -> Check``: the cell's check with the parameter at ``value``.
Probe = Callable[[Fraction], Check]
#: Passes of :func:`locate` while probes keep learning counterexamples that overturn earlier probes.
_PASSES = 4


class CellProbe:
    """A cell's checks along one parameter, with a memory of counterexamples.

    ``probe(value)`` checks ``oracle`` on ``metric`` with ``name = value``
    (:func:`axiometer.checking.check.check`, cached per value). For a
    universal constraint, every counterexample found at one value is
    re-decided, exactly, at every other value whose search found none: a
    random search can miss at one setting the case it found at the next, and
    a "satisfied" probe that a known case breaks is violated. ``learned``
    counts the counterexamples remembered, so :func:`locate` can tell when
    its probes changed under it.
    """

    def __init__(self, metric: Metric, oracle: Oracle, name: str, *, mode: str | None, budget: Budget,
                 seed: int) -> None:
        self.metric, self.oracle, self.name = metric, oracle, name
        # A bisection probes dozens of values: their proofs are the cheap ones (lemmas, thresholds for
        # every n and rc), as at a table's non-default settings; case structures take seconds each.
        self.mode, self.budget, self.seed = mode, dataclasses.replace(budget, proof_structures=False), seed
        self.searched: dict[Fraction, Check] = {}
        self.known: list[Case] = []
        self.remembers = type(oracle) is Constraint  # universal: one failing case decides the verdict

    @property
    def learned(self) -> int:
        return len(self.known)

    def __call__(self, value: Fraction) -> Check:
        metric = self.metric.replace(**{self.name: _plain(value)})
        if value not in self.searched:
            result = check(metric, self.oracle, mode=self.mode, budget=self.budget, seed=self.seed)
            self.searched[value] = result
            if result.verdict == Verdict.VIOLATED and result.counterexample is not None:
                self.learn(result.counterexample)
        return self._with_known(metric, self.searched[value])

    def learn(self, example: Counterexample) -> None:
        """Remember a counterexample found elsewhere (e.g. a :class:`Boundary`'s), to re-decide at
        every value."""
        if self.remembers and example.context_a is None:
            self.known.append(Case(_topic(example.topic), Ranking(example.a), Ranking(example.b), (),
                                   example.note))

    def _with_known(self, metric: Metric, result: Check) -> Check:
        if result.verdict != Verdict.SATISFIED or not self.known:
            return result
        search = Search(self.budget, self.seed, DEFAULT_TOLERANCE)
        guarded = guard(metric, self.budget.case_seconds)
        for case in self.known:
            outcome = self.oracle.judge(guarded, case, search)  # type: ignore[attr-defined]
            if not outcome.holds and outcome.counterexample is not None:
                return dataclasses.replace(
                    result, verdict=Verdict.VIOLATED, counterexample=outcome.counterexample, evidence=None,
                    note="; ".join(n for n in (result.note, "a counterexample found at another value of "
                                               f"{self.name}, re-decided here") if n))
        return result


def _plain(value: Fraction) -> Any:
    """A probe value as the metric's parameter: an int, the float of a short decimal (exact: a
    float is read back as its shortest decimal, definitions §5), else the ``Fraction`` itself
    (an exact rational root such as 3/19, which no float holds)."""
    if value.denominator == 1:
        return int(value)
    return float(value) if to_fraction(float(value)) == value else value


@dataclass(frozen=True)
class ParamRange:
    """A numeric parameter's range ``[low, high]``; an open end is excluded (and probed just inside)."""

    name: str
    low: Fraction
    high: Fraction
    low_open: bool = False
    high_open: bool = False

    def __post_init__(self) -> None:
        if not self.low < self.high:
            raise InputError(f"the range of {self.name} must have low < high, "
                             f"got {format_value(self.low)}..{format_value(self.high)}")

    def contains(self, value: Any) -> bool:
        value = to_fraction(value)
        above = value > self.low if self.low_open else value >= self.low
        below = value < self.high if self.high_open else value <= self.high
        return above and below

    def ends(self) -> tuple[Fraction, Fraction]:
        """The outermost values probed: the ends, or just inside an open end."""
        inside = (self.high - self.low) * OPEN_END
        return (self.low + inside if self.low_open else self.low,
                self.high - inside if self.high_open else self.high)


def declared_range(metric: Metric, name: str) -> ParamRange | None:
    """The range ``metric`` declares for its numeric parameter ``name`` (``None``: not numeric).

    A bound the metric leaves open-ended (EU's effort ``e >= 0``) ends at twice
    the largest value of the parameter's grid, or at 1 without a grid.
    """
    for param in metric.param_info:
        if param.name != name:
            continue
        if param.type not in (int, float) or param.choices is not None or not param.varies:
            return None
        grid = [to_fraction(v) for v in param.grid]
        low = to_fraction(param.low) if param.low is not None else min(grid or [Fraction(0)]) - 1
        high = to_fraction(param.high) if param.high is not None else 2 * max(grid or [Fraction(1, 2)])
        return ParamRange(name, low, high, param.low_open and param.low is not None,
                          param.high_open and param.high is not None)
    return None


def _rounds_alike(low: Fraction, high: Fraction) -> bool:
    """Whether the ends of a bracket (and so every value between them) print alike to
    :data:`SHOWN_DIGITS` significant digits."""
    return f"{float(low):.{SHOWN_DIGITS}g}" == f"{float(high):.{SHOWN_DIGITS}g}"


def shortest_between(low: Fraction, high: Fraction) -> Fraction:
    """The decimal with the fewest digits in the middle half of ``(low, high)`` (readable probes)."""
    quarter = (high - low) / 4
    lo, hi = low + quarter, high - quarter
    digits = 0
    while True:
        step = Fraction(1, 10**digits)
        candidate = round((lo + hi) / 2 / step) * step
        if lo <= candidate <= hi:
            return Fraction(candidate)
        digits += 1


def probe_values(span: ParamRange, given: Iterable[Any] = ()) -> tuple[Fraction, ...]:
    """The first probes: the given values inside the range, its ends and :data:`SUBDIVISIONS` steps."""
    low, high = span.ends()
    values = {low, high}
    values.update(to_fraction(v) for v in given if span.contains(v))
    step = (high - low) / SUBDIVISIONS
    values.update(shortest_between(low + i * step - step / 4, low + i * step + step / 4)
                  for i in range(1, SUBDIVISIONS))
    return tuple(sorted(v for v in values if low <= v <= high))


# -- locating --------------------------------------------------------------------------

def proven(check_: Check, oracle: Oracle) -> bool:
    """Did a concrete case decide this check (a counterexample, or CloseTh's witness pair)?"""
    if check_.verdict == Verdict.VIOLATED:
        return check_.counterexample is not None
    if check_.verdict == Verdict.WITNESS and isinstance(oracle, ThresholdConstraint):
        return oracle.threshold is not None and oracle.threshold.rule == "sometimes negative"
    return False


def locate(metric: Metric, oracle: Oracle, span: ParamRange, probe: Probe,
           given: Iterable[Any] = (), fixed: tuple[tuple[str, Any], ...] = ()) -> tuple[Boundary, ...]:
    """The boundaries of ``oracle``'s verdict on ``metric`` along ``span`` (see the module docstring).

    ``probe(value)`` checks the cell with the parameter at ``value``;
    ``given`` are values to probe first (the table's grid); ``fixed`` names
    the other parameters' values for the report.
    """
    first = probe_values(span, given)
    for _ in range(_PASSES):
        learned = getattr(probe, "learned", 0)
        checks = {value: probe(value) for value in first}
        values = sorted(checks)
        boundaries = []
        for left, right in zip(values, values[1:]):
            if checks[left].verdict == checks[right].verdict:
                continue
            boundaries.append(_bisect(metric, oracle, span, probe, (left, checks[left]),
                                      (right, checks[right]), fixed))
        if getattr(probe, "learned", 0) == learned:
            break  # no probe learned a case that could overturn another: the verdicts are settled
    return tuple(boundaries)


def _halve(probe: Probe, low: tuple[Fraction, Check], high: tuple[Fraction, Check], below: list[Check],
           above: list[Check]) -> tuple[tuple[Fraction, Check], tuple[Fraction, Check], list[Check]]:
    """One bisection step: the bracket's side the middle probe joins moves there (``below`` grows
    in place; ``above`` is returned, restarted by a third verdict)."""
    middle = shortest_between(low[0], high[0])
    result = probe(middle)
    if result.verdict == low[1].verdict:
        below.append(result)
        return (middle, result), high, above
    # The high side's verdict, or a third one: the change lies below the middle.
    return low, (middle, result), [result] if result.verdict != above[0].verdict else above + [result]


def _bisect(metric: Metric, oracle: Oracle, span: ParamRange, probe: Probe, low: tuple[Fraction, Check],
            high: tuple[Fraction, Check], fixed: tuple[tuple[str, Any], ...]) -> Boundary:
    below, above = [low[1]], [high[1]]
    while high[0] - low[0] > WIDTH:
        low, high, above = _halve(probe, low, high, below, above)
    closed = _closed_form(metric, oracle, span.name, low, high)
    # Without a closed form the bisection's value is what a report prints: narrow it until it is
    # printed correctly rounded (0.2, not the 1e-6 bracket's 0.199999).
    for _ in range(MORE_HALVINGS if closed is None else 0):
        if _rounds_alike(low[0], high[0]):
            break
        low, high, above = _halve(probe, low, high, below, above)
    certain = Certain.of(all(proven(c, oracle) for c in below), all(proven(c, oracle) for c in above))
    midpoint = (low[0] + high[0]) / 2
    at_value = None
    value = float(midpoint)
    note = ""
    agrees = None
    form = closed_value = None
    root_form = None
    case = ""
    if closed is not None:
        form, root_form, root, case = closed
        closed_value = float(sympy.N(root, 20))
        agrees = abs(closed_value - float(midpoint)) <= float(WIDTH)
        if agrees:
            value = closed_value
            at_value = _side_of_root(oracle, root, low, high, probe)
        else:
            note = (f"the closed form's root {closed_value:.9g} lies outside the bisection's bracket: "
                    "the bisection's value is reported")
    elif isinstance(metric, BuiltinMetric):
        note = "no closed form: the decisive case's score difference has no root sympy finds in the bracket"
    return Boundary(
        param=span.name, value=value, bracket=(format_value(low[0]), format_value(high[0])),
        below=low[1].verdict, above=high[1].verdict, certain=certain, closed_form=form,
        closed_value=closed_value, agrees=agrees, at_value=at_value, fixed=fixed,
        probes=len(below) + len(above), case=case, evidence_below=low[1].evidence,
        evidence_above=high[1].evidence, note=note, root_form=root_form,
        counterexample=next((c.counterexample for c in (low[1], high[1]) if c.verdict == Verdict.VIOLATED), None))


def _side_of_root(oracle: Oracle, root: sympy.Expr, low: tuple[Fraction, Check],
                  high: tuple[Fraction, Check], probe: Probe) -> Side | None:
    """Which side the boundary value belongs to: checked directly at a rational root, else
    reasoned from the tie (a strict relation fails there; Sat's ``>=`` holds)."""
    if root.is_Rational:
        verdict = probe(Fraction(int(root.p), int(root.q))).verdict
        return Side.BELOW if verdict == low[1].verdict else Side.ABOVE if verdict == high[1].verdict else None
    strict = not (isinstance(oracle, Constraint) and not isinstance(oracle, ThresholdConstraint)
                  and oracle.relation.holds(0))
    violated = [side for side, c in ((Side.BELOW, low[1]), (Side.ABOVE, high[1])) if c.verdict == Verdict.VIOLATED]
    if len(violated) != 1:
        return None
    other = Side.ABOVE if violated[0] is Side.BELOW else Side.BELOW
    return violated[0] if strict else other


# -- closed forms ------------------------------------------------------------------------

def _closed_form(metric: Metric, oracle: Oracle, param: str, low: tuple[Fraction, Check],
                 high: tuple[Fraction, Check]) -> tuple[str, RootForm, sympy.Expr, str] | None:
    """``(text, form, root, case)`` for the decisive case's root in the bracket, or ``None``."""
    if not isinstance(metric, BuiltinMetric) or metric.needs.context:
        return None
    symbol = sympy.Symbol(param, real=True)
    anchor = (low[0] + high[0]) / 2
    for topic, a, b, case in _decisive_cases(oracle, low[1], high[1]):
        if max(len(a), len(b)) > SYMBOLIC_DOCS:
            continue
        try:
            difference = (symbolic_score(metric, param, symbol, b, topic, anchor)
                          - symbolic_score(metric, param, symbol, a, topic, anchor))
            root = _root_in(difference, symbol, low[0], high[0])
        except SymbolicError:
            return None
        except (ArithmeticError, RecursionError, ValueError, TypeError):
            continue  # sympy could not solve this case: the bisection's value stands
        if root is not None:
            text, form, value = root
            return text, form, value, case
    return None


def _decisive_cases(oracle: Oracle, low: Check, high: Check) -> Iterable[tuple[Topic, Sequence[str],
                                                                                 Sequence[str], str]]:
    """The cases whose score difference may change sign across the bracket, likeliest first."""
    if isinstance(oracle, ThresholdConstraint) and oracle.threshold is not None:
        # The (rc, n) whose D(n) has different signs at the two ends.
        curves_low, curves_high = dict(low.curve), dict(high.curve)
        changes = []
        for rc, values in curves_low.items():
            other = dict(curves_high.get(rc, ()))
            for n, d in values:
                if n in other and _sign(d) != _sign(other[n]):
                    changes.append((n, rc))
        symbol = oracle.threshold.symbol
        for n, rc in sorted(changes, key=lambda change: (change[0], Fraction(change[1]))):
            topic, a, b = oracle.threshold.build(n, Fraction(rc))
            yield topic, a, b, f"{symbol} = {n}, rc = {rc}"
    for side in (low, high):
        example = side.counterexample
        if example is not None and example.context_a is None:
            where = ", ".join(f"{k} = {v}" for k, v in example.extra if k != "signs")
            yield (_topic(example.topic), example.a, example.b,
                   "the counterexample at " + side.metric + (f" ({where})" if where else ""))


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def _topic(record: TopicRecord) -> Topic:
    """A topic back from its record (exact strings)."""
    judgments = {doc: {aspect: Fraction(r) for aspect, r in zip(record.aspects, values)}
                 for doc, values in record.judgments}
    weights = {aspect: Fraction(w) for aspect, w in zip(record.aspects, record.weights)}
    return Topic(judgments, weights)


def _root_in(difference: sympy.Expr, symbol: sympy.Symbol, low: Fraction,
             high: Fraction) -> tuple[str, RootForm, sympy.Expr] | None:
    """The root of ``difference`` in ``[low - W, high + W]`` as (closed-form text, how it names the
    root, root), or ``None``."""
    lo = sympy.Rational(low.numerator, low.denominator) - sympy.Rational(1, 10**6)
    hi = sympy.Rational(high.numerator, high.denominator) + sympy.Rational(1, 10**6)
    numerator, _ = sympy.fraction(sympy.together(difference))
    if not numerator.has(symbol):
        return None
    if not numerator.atoms(sympy.Function):
        # Rational coefficients (RBP, NRBP, RBU: no logarithm): factor and isolate the root exactly.
        poly = sympy.Poly(sympy.expand(numerator), symbol)
        if poly.domain.is_ZZ or poly.domain.is_QQ:
            for factor, _ in sympy.factor_list(poly)[1]:
                if factor.degree() < 1:
                    continue
                for (left, right), _ in factor.intervals(inf=lo, sup=hi, eps=sympy.Rational(1, 10**12)):
                    root = _exact_root(factor, symbol, left, right)
                    return (*_form(factor, symbol, root), root)
            return None
    # Logarithmic (or other) coefficients: a numerical root where the sign changes, 15+ digits.
    f = sympy.lambdify(symbol, numerator, "mpmath")
    with mpmath.workdps(30):
        a, b = mpmath.mpf(lo.p) / lo.q, mpmath.mpf(hi.p) / hi.q
        fa, fb = f(a), f(b)
        if fa == 0 or fb == 0 or mpmath.sign(fa) == mpmath.sign(fb):
            return None
        root = mpmath.findroot(f, (a, b), solver="anderson")
        if not a <= root <= b:
            return None
        value = sympy.Float(root, 20)
    return _log_form(numerator, symbol), RootForm.IMPLICIT, value


def _log_form(numerator: sympy.Expr, symbol: sympy.Symbol) -> str:
    """How an equation with logarithmic coefficients prints: in the parameter or in ``y = 1 - x``
    (alpha-nDCG, NRBP, EU are polynomials in ``1 - alpha``), whichever is shorter; a long one as
    its degree."""
    if sympy.count_ops(numerator) > _SIMPLIFY_OPS:
        return "root of a score difference with logarithmic coefficients"
    y = sympy.Symbol("y")
    forms = [(sympy.factor_terms(sympy.collect(sympy.expand(numerator), symbol)), "")]
    in_y = sympy.factor_terms(sympy.collect(sympy.expand(numerator.subs(symbol, 1 - y)), y))
    forms.append((in_y, f", y = 1 - {symbol}"))
    text, where = min(((sympy.sstr(form), where) for form, where in forms), key=lambda f: len(f[0]))
    if len(text) <= _LONGEST_FORM:
        return f"root of {text} = 0{where}"
    if in_y.is_polynomial(y):
        return (f"root of a degree-{sympy.degree(in_y, y)} polynomial in y = 1 - {symbol} with "
                "logarithmic coefficients")
    return "root of a score difference with logarithmic coefficients"


def _exact_root(factor: sympy.Poly, symbol: sympy.Symbol, left: Any, right: Any) -> sympy.Expr:
    """The root of an irreducible rational factor in ``[left, right]``: radicals up to degree 2, else CRootOf."""
    if factor.degree() == 1:
        return sympy.solve(factor.as_expr(), symbol)[0]
    for index, root in enumerate(sympy.Poly(factor, symbol).real_roots()):
        if left <= root <= right if root.is_Rational else (
                sympy.N(root - left, 30) >= 0 and sympy.N(right - root, 30) >= 0):
            return root
    raise ArithmeticError("an isolating interval without its root")  # sympy's intervals are exact


def _form(factor: sympy.Poly, symbol: sympy.Symbol, root: sympy.Expr) -> tuple[str, RootForm]:
    """How a root is printed: its radicals (degree <= 2, explicit) or "root of <its irreducible
    polynomial>" (implicit)."""
    if factor.degree() <= 2:
        return sympy.sstr(root), RootForm.EXPLICIT
    _, primitive = sympy.Poly(factor, symbol).clear_denoms()
    primitive = primitive.primitive()[1]
    if primitive.LC() < 0:
        primitive = -primitive
    text = sympy.sstr(primitive.as_expr())
    if len(text) > _LONGEST_FORM:
        return f"root of a degree-{factor.degree()} polynomial with rational coefficients", RootForm.IMPLICIT
    return f"root of {text}", RootForm.IMPLICIT
