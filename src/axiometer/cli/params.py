"""``--param``: parameter values, grids and ranges as ``check``, ``table`` and ``plot`` take them.

The text of each option is read once, here, into values: a scalar, a
:class:`~axiometer.metrics.resolve.Grid` or a
:class:`~axiometer.metrics.resolve.Range`, which
:func:`~axiometer.metrics.resolve.resolve` builds the metric from (never
printed into a spec string and parsed again).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from axiometer.core import InputError

__all__ = ["PARAM_HELP", "param_options"]

#: ``--param`` help shared by ``check`` and ``table``.
PARAM_HELP = ("a parameter's value (p=0.5), its grid (p=0.5,0.8,0.9) or a continuous range "
              "(p=0.5..0.99: the grid inside it and its ends, then the exact values where a verdict "
              "changes); numbers are read as int, decimal or fraction such as 1/2, anything else as "
              "a string; repeat for several parameters")


def _param_value(text: str) -> int | float | Fraction | str:
    """One ``--param`` value: an int, a decimal, a fraction ``a/b``, else the text (quotes removed)."""
    text = text.strip()
    for read in (int, _fraction_text, float):
        try:
            value = read(text)
        except (ValueError, ZeroDivisionError):
            continue
        if not isinstance(value, float) or math.isfinite(value):
            return value
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _fraction_text(text: str) -> Fraction:
    if "/" not in text:
        raise ValueError(text)
    return Fraction(text)


def param_options(options: Sequence[str], qualified: bool = False) -> dict[str, object]:
    """``--param p=0.5`` fixes p; ``--param p=0.1,0.5,0.9`` gives p a grid (a
    :class:`~axiometer.metrics.resolve.Grid`); ``--param p=0.5..0.99`` a continuous range (a
    :class:`~axiometer.metrics.resolve.Range`). With ``qualified`` (``table``), a name may be
    ``FAMILY.NAME`` (``RBP.p``) to set one metric's parameter only."""
    # Imported here: the metrics load numpy, which `axiometer --help` need not.
    from axiometer.metrics.resolve import Grid, Range

    params: dict[str, object] = {}
    for option in options:
        name, equals, values = option.partition("=")
        name = name.strip()
        parts_of_name = name.split(".") if qualified else [name]
        if not equals or len(parts_of_name) > 2 or not all(n.isidentifier() for n in parts_of_name):
            raise InputError("expected NAME=VALUE, NAME=V1,V2,... or NAME=LOW..HIGH", source="--param",
                             token=option)
        if name in params:
            raise InputError(f"parameter {name} is given twice", source="--param", token=option)
        if ".." in values:
            low, _, high = values.partition("..")
            first, last = _param_value(low), _param_value(high)
            if isinstance(first, str) or isinstance(last, str):
                raise InputError(f"a range needs two numbers, LOW..HIGH (e.g. {name}=0.5..0.99)",
                                 source="--param", token=option)
            if not first < last:
                raise InputError(f"the range of {name} needs LOW < HIGH", source="--param", token=option)
            params[name] = Range(first, last)
            continue
        parts = [_param_value(v) for v in values.split(",")]
        if any(p == "" for p in parts):
            raise InputError(f"parameter {name} has an empty value", source="--param", token=option)
        params[name] = Grid(parts) if len(parts) > 1 else parts[0]
    return params
