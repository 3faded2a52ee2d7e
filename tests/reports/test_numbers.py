"""Numbers and lines as the text reports print them (axiometer.reports.numbers): short exact
fractions or 6 significant digits, never float noise; sympy's exact text as a reader writes it;
long lines wrapped to the width with a hanging indent."""

from __future__ import annotations

import math
import os
from fractions import Fraction

import pytest

from axiometer.reports.numbers import (
    DEFAULT_WIDTH, denoise, exact_text, number, numbers_apart, terminal_width, wrap,
)


@pytest.mark.parametrize("value, text", [
    (0.1, "1/10"),                        # the float nearest 1/10
    (0.12799999999999997, "0.128"),       # float noise: not 16/125's float, so 6 digits
    (16 / 125, "16/125"),
    (1 / 3, "1/3"),
    (0.0625, "1/16"),
    (2.0, "2"), (0.0, "0"), (-0.0, "0"), (7, "7"),
    (math.pi, "3.14159"),
    (1e-20, "1e-20"),
    (0.6180339887498949, "0.618034"),
    (Fraction(439, 2640), "439/2640"),    # short enough to read
    (Fraction(12345, 67891), "0.181836"),  # 12345/67891 = 0.18183853...
    (Fraction(6, 3), "2"),
    (float("nan"), "undefined (nan)"), (None, "undefined"),
    ("(-1 + sqrt(5))/2", "(√5 − 1)/2"),
])
def test_number(value, text):
    assert number(value) == text


def test_numbers_apart_shows_the_digits_that_differ():
    assert numbers_apart(0.1, 0.1) == ("1/10", "1/10")
    assert numbers_apart(0.123456789, 0.1234567) == ("0.12345679", "0.1234567")
    a, b = numbers_apart(1.0, 1.0 + 2 ** -52)
    assert a != b and float(a) == 1.0 and float(b) == 1.0 + 2 ** -52


def test_denoise_rounds_only_noisy_decimals():
    assert denoise("values 0.0, 0.12799999999999997, 0.15999999999999998 have gaps") == \
        "values 0.0, 0.128, 0.16 have gaps"
    assert denoise("alpha = 0.5, tolerance 1e-09, d12") == "alpha = 0.5, tolerance 1e-09, d12"
    assert denoise("0.30000000000000004") == "0.3"  # not 3/10's float: rounded, not read as 3/10


def test_exact_text():
    assert exact_text("sqrt(2)/2") == "√2/2"
    assert exact_text("1/2") == "1/2"


def test_wrap_keeps_the_indent_and_hangs_continuations():
    line = "  " + " ".join(["word"] * 30)
    lines = wrap(line, 40)
    assert all(len(part) <= 40 for part in lines) and len(lines) > 1
    assert lines[0].startswith("  word") and all(part.startswith("      word") for part in lines[1:])
    assert " ".join(" ".join(lines).split()) == " ".join(line.split())  # nothing lost
    bullet = wrap("- " + " ".join(["word"] * 30), 40)
    assert all(part.startswith("  word") for part in bullet[1:])  # Markdown: under the bullet's text
    assert wrap("short", 40) == ["short"]
    assert wrap("x" * 50, 40) == ["x" * 50]  # a word is never broken


def test_terminal_width_reads_columns_else_the_default(monkeypatch):
    monkeypatch.setenv("COLUMNS", "123")
    assert terminal_width() == 123
    monkeypatch.delenv("COLUMNS")

    def not_a_terminal(fd):
        raise OSError("not a terminal")

    monkeypatch.setattr(os, "get_terminal_size", not_a_terminal)
    assert terminal_width() == DEFAULT_WIDTH


def test_a_boundary_prints_a_rational_closed_form_as_its_fraction_and_others_correctly_rounded():
    from axiometer.checking.boundary import SHOWN_DIGITS
    from axiometer.reports.numbers import SIGNIFICANT, boundary_value
    from axiometer.results import Boundary, Certain, RootForm, Verdict

    def at(value, bracket, **closed):
        return Boundary(param="b", value=value, bracket=bracket, below=Verdict.SATISFIED,
                        above=Verdict.VIOLATED, certain=Certain.NEITHER, **closed)

    # The bisection narrows a bracket until it rounds alike to the digits a report prints.
    assert SHOWN_DIGITS == SIGNIFICANT
    assert boundary_value(at(1 / 6, ("0.1666666", "0.1666668"), closed_form="1/6", closed_value=1 / 6,
                             agrees=True, root_form=RootForm.EXPLICIT)) == "1/6"
    assert boundary_value(at(2 / 7, ("0.2857142", "0.2857143"), closed_form="2/7", closed_value=2 / 7,
                             agrees=True, root_form=RootForm.EXPLICIT)) == "2/7"
    root = 0.7548776662466927
    assert boundary_value(at(root, ("0.754877", "0.754878"), closed_form="root of p**3 + p**2 - 1",
                             closed_value=root, agrees=True, root_form=RootForm.IMPLICIT)) == "0.754878"
    assert boundary_value(at(0.19999985, ("0.1999998", "0.1999999"))) == "0.2"
    assert boundary_value(at(1 / 6 + 1e-8, ("0.1666666", "0.1666668"))) == "0.166667"
