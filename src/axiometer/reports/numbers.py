"""Numbers and lines as every text report prints them.

- :func:`number`: a value without float noise — an exact fraction when it
  is a short one (``1/10``, ``16/125``), else 6 significant digits
  (``0.128`` for ``0.12799999999999997``); :func:`numbers_apart` gives two
  values that differ enough digits to show that they differ.
- :func:`boundary_value`: where a verdict changes, as a reader should read
  it: an exact rational as a fraction (``1/6``), any other value correctly
  rounded to 6 significant digits (``0.2``, never a bisection bracket's
  truncated end ``0.199999``).
- :func:`denoise`: the same rounding for numbers inside a sentence written
  elsewhere (a classifier's note).
- :func:`exact_text`: sympy's text of an exact value (``(-1 + sqrt(5))/2``)
  as a reader writes it (``(√5 − 1)/2``).
- :func:`terminal_width` and :func:`wrap`: the width a report is laid out
  for (the terminal's, or :data:`DEFAULT_WIDTH` when not writing to one) and
  long lines wrapped to it with a hanging indent.
"""

from __future__ import annotations

import math
import re
import shutil
import textwrap
from collections.abc import Iterable
from fractions import Fraction

from axiometer.results import Boundary, RootForm

__all__ = ["DEFAULT_WIDTH", "NBSP", "SIGNIFICANT", "number", "decimal", "numbers_apart", "boundary_value",
           "denoise", "exact_text",
           "terminal_width", "wrap", "wrap_lines"]

#: Significant digits of a number that is not a short fraction.
SIGNIFICANT = 6
#: A fraction is short when its denominator is at most this (``limit_denominator``'s bound).
_DENOMINATOR = 1000
#: ... and its text at most this long (``439/2640`` is, ``12345/67891`` is not).
_SHORT = 9
#: The width a report is laid out for when stdout is not a terminal (a file, a pipe).
DEFAULT_WIDTH = 100
#: A space :func:`wrap` never breaks a line at (it prints as a plain space).
NBSP = "\u00a0"


def _short_fraction(value: Fraction) -> bool:
    return len(str(value)) <= _SHORT


def number(value: float | int | Fraction | str | None, digits: int = SIGNIFICANT) -> str:
    """``value`` as text: an integer as such, a short exact fraction (``1/10``), else ``digits``
    significant digits; a float is read as the short fraction it rounds to only when it is that
    fraction's nearest float (so ``0.1`` is ``1/10`` but ``0.12799999999999997`` is ``0.128``).

    Text (an exact value a metric computed, ``"16/125"``, ``"(-1 + sqrt(5))/2"``) passes
    through :func:`exact_text`; ``None`` and non-finite floats read ``undefined``.
    """
    if value is None:
        return "undefined"
    if isinstance(value, str):
        return exact_text(value)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return f"undefined ({value})"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        return str(value) if _short_fraction(value) else _decimal(float(value), digits)
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    short = Fraction(value).limit_denominator(_DENOMINATOR)
    if float(short) == value and _short_fraction(short):
        return str(short)
    return _decimal(value, digits)


def _decimal(value: float, digits: int) -> str:
    text = f"{value:.{digits}g}"
    return "0" if text in ("0", "-0") else text


def decimal(value: float | int | Fraction, digits: int = SIGNIFICANT) -> str:
    """``value`` as a decimal of ``digits`` significant digits, never a fraction (``0.0625``,
    ``0.0833333``): for a report whose numbers read in one style (issue 27)."""
    if isinstance(value, (int, Fraction)) and Fraction(value).denominator == 1:
        return str(int(value))
    return _decimal(float(value), digits)


def numbers_apart(a: float, b: float) -> tuple[str, str]:
    """``number(a)`` and ``number(b)``, with more significant digits when 6 would print two
    different values alike (the digits that decide ``Q(a) < Q(b)``)."""
    digits = SIGNIFICANT
    text_a, text_b = number(a, digits), number(b, digits)
    while a != b and text_a == text_b and digits < 17:
        digits += 2
        text_a, text_b = number(a, digits), number(b, digits)
    return text_a, text_b


def boundary_value(boundary: Boundary) -> str:
    """A boundary's value as text (issue 27): an explicit closed form that is a rational number
    as that fraction (``1/6``, not ``0.166667``); any other value, a closed form's root or a
    bisection's, as its :data:`SIGNIFICANT` significant digits correctly rounded (the bisection
    narrows its bracket until every value in it rounds alike, :data:`axiometer.checking.boundary.
    SHOWN_DIGITS`), so a boundary at 0.2 prints ``0.2``."""
    if boundary.closed_form is not None and boundary.agrees:
        if boundary.root_form is RootForm.EXPLICIT:
            try:
                exact = Fraction(boundary.closed_form.replace(" ", ""))
            except ValueError:  # radicals: not a rational
                pass
            else:
                return str(exact)
    return decimal(boundary.value)


#: A decimal written with more digits than a reader needs: float noise in someone's sentence.
_NOISY = re.compile(r"(?<![\w.])-?\d+\.\d{7,}(?:e[-+]?\d+)?(?![\w.])")


def denoise(text: str) -> str:
    """``text`` with every decimal of more than 6 fraction digits rounded by :func:`number`
    (``0.12799999999999997`` -> ``0.128``, ``0.30000000000000004`` -> ``0.3``)."""
    return _NOISY.sub(lambda match: number(float(match.group(0))), text)


_SQRT = re.compile(r"sqrt\((\d+)\)")
_MINUS_FIRST = re.compile(r"\(-(\d+) \+ (√\d+)\)")


def exact_text(text: str) -> str:
    """sympy's text of an exact value as a reader writes it: ``sqrt(5)`` -> ``√5``, and a
    leading negative term last (``(-1 + sqrt(5))/2`` -> ``(√5 − 1)/2``); other text unchanged."""
    pretty = _SQRT.sub(r"√\1", text)
    return _MINUS_FIRST.sub(r"(\2 − \1)", pretty)


# -- layout --------------------------------------------------------------------------

def terminal_width() -> int:
    """The terminal's width (``COLUMNS`` first, as :func:`shutil.get_terminal_size` reads it), or
    :data:`DEFAULT_WIDTH` when stdout is not a terminal."""
    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns


_LEAD = re.compile(r"^(\s*(?:- )?)")


def wrap(line: str, width: int, hang: int = 4) -> list[str]:
    """``line`` wrapped to ``width`` columns: its indentation kept, continuation lines indented
    ``hang`` more (a Markdown bullet's continuation aligned under its text). Words are never
    broken, so a single word longer than the width stays whole; a :data:`NBSP` joins words that
    stay on one line (``Q(a) = 0``) and prints as a space."""
    if len(line) <= width:
        return [line.replace(NBSP, " ")]
    match = _LEAD.match(line)
    lead = match.group(1) if match else ""  # the pattern matches every line: both its parts are optional
    rest = line[len(lead):]
    subsequent = " " * len(lead) if lead.endswith("- ") else " " * (len(lead) + hang)
    lines = textwrap.wrap(rest, width=max(width, len(subsequent) + 20), initial_indent=lead,
                          subsequent_indent=subsequent, break_long_words=False,
                          break_on_hyphens=False) or [line]
    return [part.replace(NBSP, " ") for part in lines]


def wrap_lines(lines: Iterable[str], width: int, hang: int = 4) -> list[str]:
    """Every line of ``lines`` wrapped by :func:`wrap`."""
    return [part for line in lines for part in wrap(line, width, hang)]
