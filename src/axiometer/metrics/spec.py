"""Spec strings in ir_measures' syntax: ``nDCG@10``, ``RBP(p=0.9)``,
``alpha_nDCG(alpha=0.5)@20``, ``RBU(p=0.8,e=0.03,form='reference')``.

Grammar (a tokenizer and a recursive-descent parser; nothing is ``eval``-ed)::

    spec   := NAME [ '(' [ param { ',' param } ] ')' ] [ '@' INT ]
    param  := NAME '=' value
    value  := NUMBER | NUMBER '/' NUMBER | STRING | NAME | spec

Numbers are ints or decimals (``0.8``, ``1e-3``); ``1/2`` gives an exact
``Fraction``. Strings are quoted with ``'`` or ``"``; a bare word is a string
too (``form=reference``). A nested spec (``NRG(base=RBP(p=0.8))``,
``NRG(base=nDCG@10)``) is returned as its text, for the family to parse. Errors are :class:`~axiometer.core.InputError`
naming the offending token and its column. Building the family a spec names
is the registry's job (:func:`axiometer.metrics.registry.parse`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from axiometer.core import InputError

__all__ = ["ParsedSpec", "parse_spec", "format_value"]

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<number>[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<string>'[^']*'|"[^"]*")
  | (?P<punct>[()@,=/])
""", re.VERBOSE | re.ASCII)  # only ASCII digits are digits: 'nDCG@١٠' is not nDCG@10

#: The deepest nesting of metrics in a spec (``NRG(base=NRG(base=...))``) and the longest number.
MAX_NESTING = 16
MAX_NUMBER = 30


def format_value(value: Any) -> str:
    """How a parameter value is written in a spec string."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, Fraction):
        return str(value) if value.denominator == 1 else f"{float(value)!r}"
    return repr(value)


@dataclass(frozen=True)
class Token:
    category: str  # the lexer's group: "name", "number", "string", "punct", or "end"
    text: str
    column: int  # 1-based


@dataclass(frozen=True)
class ParsedSpec:
    """A parsed spec string: family name, parameter values and cutoff.

    :func:`parse_spec` keeps the ``tokens`` it read (for
    :func:`~axiometer.metrics.registry.spelled`, which so need not tokenize
    again); :func:`~axiometer.metrics.registry.read_spec` adds the
    registered family: ``family`` in its registered spelling, its class
    ``cls`` and what it ``scores``, which :func:`~axiometer.metrics.registry.build`
    builds from without looking the family up again. :meth:`text` prints the
    canonical spec.
    """

    family: str
    params: dict[str, Any]
    cutoff: int | None
    tokens: tuple[Token, ...] = field(default=(), compare=False, repr=False)
    written: str = field(default="", compare=False, repr=False)  # the spec as typed (stripped)
    cls: type | None = field(default=None, compare=False, repr=False)
    scores: str | None = field(default=None, compare=False, repr=False)

    def text(self) -> str:
        """The canonical spec: ``FAMILY(k=v,...)@k``, values as :func:`format_value` writes them."""
        inner = ",".join(f"{k}={format_value(v)}" for k, v in self.params.items())
        return self.family + (f"({inner})" if inner else "") + (f"@{self.cutoff}" if self.cutoff is not None else "")


class TokenStream:
    """The tokens of one string and the cursor a recursive-descent parser needs.

    ``pattern`` is a verbose regex of named groups (``space`` is skipped);
    ``source`` names the string in errors (``metric 'nDCG@x'``). Every error is
    an :class:`InputError` naming the token and its 1-based column. The domain
    strings of :mod:`axiometer.generators.domain_spec` use it with their own pattern.
    """

    def __init__(self, text: str, pattern: re.Pattern[str], source: str) -> None:
        self.text = text
        self.source = source
        self.tokens: list[Token] = []
        position = 0
        while position < len(text):
            match = pattern.match(text, position)
            if match is None:
                raise InputError(f"unexpected character {text[position]!r} at column {position + 1}",
                                 source=source)
            if match.lastgroup != "space":
                self.tokens.append(Token(match.lastgroup or "", match.group(), position + 1))
            position = match.end()
        self.tokens.append(Token("end", "", len(text) + 1))
        self.index = 0

    def peek(self) -> Token:
        return self.tokens[self.index]

    def take(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def error(self, problem: str) -> InputError:
        return InputError(problem, source=self.source)

    def fail(self, expected: str, token: Token | None = None) -> InputError:
        token = token or self.peek()
        found = "the end" if token.category == "end" else repr(token.text)
        return self.error(f"expected {expected} at column {token.column}, found {found}")

    def expect(self, text: str, what: str) -> Token:
        token = self.peek()
        if token.category != "punct" or token.text != text:
            raise self.fail(what)
        return self.take()


class _Parser(TokenStream):
    def __init__(self, spec: str) -> None:
        super().__init__(spec, _TOKEN, f"metric {spec!r}")

    def parse(self) -> ParsedSpec:
        parsed = self.spec()
        if self.peek().category != "end":
            raise self.fail("the end of the spec (or '(' / '@')")
        return ParsedSpec(parsed.family, parsed.params, parsed.cutoff, tuple(self.tokens), self.text)

    def spec(self) -> ParsedSpec:
        head = self.take()
        if head.category != "name":
            raise self.fail("a metric name", head)
        params: dict[str, Any] = {}
        if self.peek().text == "(":
            self.take()
            if self.peek().text != ")":
                while True:
                    key = self.take()
                    if key.category != "name":
                        raise self.fail("a parameter name", key)
                    if key.text in params:
                        raise self.error(f"parameter {key.text!r} given twice at column {key.column}")
                    self.expect("=", f"'=' after parameter {key.text!r}")
                    params[key.text] = self.value()
                    if self.peek().text == ",":
                        self.take()
                        continue
                    break
            self.expect(")", "',' or ')'")
        cutoff = None
        if self.peek().text == "@":
            self.take()
            token = self.take()
            if token.category != "number" or not token.text.isdigit() or int(token.text) < 1:
                raise self.fail("a positive integer cutoff after '@'", token)
            cutoff = int(token.text)
        return ParsedSpec(head.text, params, cutoff)

    def value(self) -> Any:
        token = self.peek()
        if token.category == "name" and self.tokens[self.index + 1].text in ("(", "@"):
            # A nested metric, e.g. NRG(base=RBP(p=0.8)): its text, for the family to parse.
            start = token.column - 1
            self.spec()
            return self.text[start:self.peek().column - 1].strip()
        token = self.take()
        if token.category == "string":
            return token.text[1:-1]
        if token.category == "name":
            return token.text
        if token.category != "number":
            raise self.fail("a value (number, string or metric)", token)
        number = _number(token.text)
        if self.peek().text == "/":
            self.take()
            denominator = self.take()
            if denominator.category != "number" or _number(denominator.text) == 0:
                raise self.fail("a non-zero denominator after '/'", denominator)
            return Fraction(token.text) / Fraction(denominator.text)
        return number


def _number(text: str) -> int | float:
    if re.fullmatch(r"[-+]?[0-9]+", text):
        return int(text)
    return float(text)


def _nesting(spec: str) -> int:
    """The deepest parenthesis nesting of ``spec`` outside quoted strings."""
    depth = deepest = 0
    quote = ""
    for char in spec:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth -= 1
    return deepest


def parse_spec(spec: str) -> ParsedSpec:
    """Parse a spec string into family, parameters and cutoff (no validation of names)."""
    if not isinstance(spec, str) or not spec.strip():
        raise InputError("empty metric spec; expected e.g. 'nDCG@10'")
    if _nesting(spec) > MAX_NESTING:
        raise InputError(f"metrics nested deeper than {MAX_NESTING} levels", source=f"metric {spec!r}")
    for number in re.findall(r"[0-9.eE+-]{%d,}" % (MAX_NUMBER + 1), spec):
        raise InputError(f"a number longer than {MAX_NUMBER} characters", source=f"metric {spec!r}",
                         token=number)
    return _Parser(spec.strip()).parse()
