"""A built-in metric's score with one parameter left as a sympy symbol.

:func:`symbolic_score` runs a built-in's own ``compute`` on a shallow copy
whose parameter attribute (and ``params`` entry) is a ``sympy.Symbol``, in
:class:`~axiometer.metrics.arithmetic.SymbolicArithmetic`: the score comes back
as an expression in the symbol, e.g. ``(1 - p)(r_1 + r_2 p + ...)`` for RBP, a
polynomial in ``(1 - alpha)`` with logarithmic coefficients for alpha-nDCG.
This needs no change to a metric whose formula only does arithmetic on the
parameter; one that branches on it (alpha-nDCG's greedy ideal ranking) takes
its branch at ``anchor``, the parameter value the expression is wanted near.

Two analyses use it: the parametric intrinsic analysis
(:mod:`axiometer.intrinsic.parametric`, definitions §4) and the closed forms
of parameter boundaries (:mod:`axiometer.checking.boundary`, definitions §3).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import sympy

from axiometer.core import AxiometerError, Topic
from axiometer.metrics.arithmetic import SymbolicArithmetic
from axiometer.metrics.base import BuiltinMetric

__all__ = ["SymbolicError", "symbolic_score", "with_symbol"]


class SymbolicError(AxiometerError):
    """The metric's formula cannot be evaluated with a symbolic parameter."""


def with_symbol(metric: BuiltinMetric, param: str, symbol: sympy.Symbol) -> BuiltinMetric:
    """A shallow copy of ``metric`` whose parameter ``param`` is ``symbol`` (attribute and ``params``)."""
    clone = copy.copy(metric)
    object.__setattr__(clone, param, symbol)
    clone.params = {**metric.params, param: symbol}
    return clone


def symbolic_score(metric: BuiltinMetric, param: str, symbol: sympy.Symbol, ranking: Sequence[str],
                   topic: Topic, anchor: Any = None) -> sympy.Expr:
    """``metric``'s score of ``ranking`` with parameter ``param`` replaced by ``symbol``.

    ``anchor``: the value of ``param`` at which the formula's own decisions
    are taken (None: the formula must not branch on the parameter). Raises
    :class:`SymbolicError` when the formula cannot run symbolically.
    """
    arithmetic = SymbolicArithmetic({symbol: anchor} if anchor is not None else None)
    try:
        value = with_symbol(metric, param, symbol).compute(ranking, topic, arithmetic, None)
    except Exception as error:
        raise SymbolicError(
            f"{metric.family}: the formula cannot be evaluated with a symbolic {param} "
            f"({type(error).__name__}: {error})") from error
    return arithmetic.result(value)
