"""Domain strings for the intrinsic framework (definitions §4): ``rankings(n=4,grades=2)``.

Grammar (a tokenizer and a recursive-descent parser, as in
:mod:`axiometer.metrics.spec`; nothing is ``eval``-ed)::

    domain := NAME '(' [ arg { ',' arg } ] ')'
    arg    := NAME '=' value
    value  := INT | NAME | '{' grade { ',' grade } '}'
    grade  := NUMBER [ '/' NUMBER ]

- ``rankings(n=N, grades=G, lengths=exact|upto, R=K)`` builds
  :func:`~axiometer.generators.domains.rankings`. ``grades`` is a set of
  relevance values in [0, 1] (``{0,1/2,1}``; decimals are read exactly,
  ``0.1 -> 1/10``) or a count ``g >= 2`` meaning the ``g`` equally spaced
  levels ``{0, 1/(g-1), ..., 1}`` (``grades=2`` is binary, the default).
- ``sets(N=N, R=K, size=S, nonrel=F)`` builds
  :func:`~axiometer.generators.domains.sets`.
- ``users(U=U, unknown=K, wanted=W, examined=E)`` builds
  :func:`~axiometer.generators.domains.users` (Korfhage's user counts).

Errors are one-line :class:`~axiometer.core.InputError` naming the bad token
and its column. The cursor is :class:`axiometer.metrics.spec.TokenStream`; only
the token set differs (braces for grade sets, no strings or ``@``).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from axiometer.core import InputError, ValidationError
from axiometer.generators.domains import RankingsDomain, SetsDomain, UsersDomain, rankings, sets, users
from axiometer.metrics.spec import Token, TokenStream

__all__ = ["DOMAIN_PARAMS", "parse_domain"]

#: Each domain's parameters by the domain's name, in order; the required ones first.
DOMAIN_PARAMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "rankings": (("n",), ("grades", "lengths", "R")),
    "sets": (("N", "R"), ("size", "nonrel")),
    "users": (("U", "unknown"), ("wanted", "examined")),
}
_EXAMPLES = {"rankings": "rankings(n=4,grades=2)", "sets": "sets(N=20,R=5,size=8)",
             "users": "users(U=5,unknown=5)"}

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<number>[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[(){},=/])
""", re.VERBOSE)


class _Parser(TokenStream):
    def __init__(self, text: str) -> None:
        super().__init__(text, _TOKEN, f"domain {text!r}")

    def parse(self) -> tuple[str, dict[str, tuple[Token, Any]]]:
        """The domain's name and each parameter's value, with a token spanning the value's text."""
        head = self.take()
        if head.category != "name":
            raise self.fail("a domain name (" + ", ".join(DOMAIN_PARAMS) + ")", head)
        if head.text not in DOMAIN_PARAMS:
            raise self.error(f"unknown domain {head.text!r} at column {head.column}; "
                             f"known: {', '.join(DOMAIN_PARAMS)}")
        required, optional = DOMAIN_PARAMS[head.text]
        self.expect("(", f"'(' after {head.text!r}")
        args: dict[str, tuple[Token, Any]] = {}
        if self.peek().text != ")":
            while True:
                key = self.take()
                if key.category != "name":
                    raise self.fail("a parameter name", key)
                if key.text not in required + optional:
                    raise self.error(f"unknown parameter {key.text!r} of {head.text} at column "
                                     f"{key.column}; parameters: {', '.join(required + optional)}")
                if key.text in args:
                    raise self.error(f"parameter {key.text!r} given twice at column {key.column}")
                self.expect("=", f"'=' after parameter {key.text!r}")
                start = self.peek()
                value = self.value()
                text = self.text[start.column - 1:self.peek().column - 1].strip()
                args[key.text] = (Token("value", text, start.column), value)
                if self.peek().text == ",":
                    self.take()
                    continue
                break
        self.expect(")", "',' or ')'")
        if self.peek().category != "end":
            raise self.fail("the end of the domain")
        missing = [name for name in required if name not in args]
        if missing:
            raise self.error(f"{head.text} needs {', '.join(missing)}; e.g. {_EXAMPLES[head.text]}")
        return head.text, args

    def value(self) -> Any:
        token = self.take()
        if token.category == "name":
            return token.text
        if token.category == "number":
            return self.fraction(token)
        if token.category == "punct" and token.text == "{":
            grades = [self.fraction(self.take())]
            while self.peek().text == ",":
                self.take()
                grades.append(self.fraction(self.take()))
            self.expect("}", "',' or '}' in the grade set")
            return grades
        raise self.fail("a value (an integer, a word or a grade set {...})", token)

    def fraction(self, token: Token) -> Fraction:
        """A number token, with an optional ``/ NUMBER``, read exactly."""
        if token.category != "number":
            raise self.fail("a number", token)
        value = Fraction(token.text)
        if self.peek().text == "/":
            self.take()
            denominator = self.take()
            if denominator.category != "number" or Fraction(denominator.text) == 0:
                raise self.fail("a non-zero denominator after '/'", denominator)
            value /= Fraction(denominator.text)
        return value


def _integer(parser: _Parser, name: str, token: Token, value: Any) -> int:
    if not isinstance(value, Fraction) or value.denominator != 1 or value < 0:
        raise parser.error(f"{name} must be a non-negative integer at column {token.column}, "
                           f"found {token.text!r}")
    return int(value)


def _grades(parser: _Parser, token: Token, value: Any) -> list[Fraction]:
    if isinstance(value, list):
        return value
    if isinstance(value, Fraction) and value.denominator == 1 and value >= 2:
        count = int(value)
        return [Fraction(i, count - 1) for i in range(count)]
    raise parser.error(f"grades must be a count >= 2 or a set such as {{0,1/2,1}} at column "
                       f"{token.column}, found {token.text!r}")


def parse_domain(text: str) -> RankingsDomain | SetsDomain | UsersDomain:
    """Build the domain a string describes: ``parse_domain("sets(N=20,R=5,size=8)")``.

    Raises :class:`~axiometer.core.InputError` naming the bad token (and the
    domain builders' own checks, e.g. ``R`` above ``N``, as one line).
    """
    if not isinstance(text, str) or not text.strip():
        raise InputError("empty domain; expected e.g. 'rankings(n=4,grades=2)' or 'sets(N=20,R=5,size=8)'")
    parser = _Parser(text.strip())
    domain, args = parser.parse()
    try:
        if domain == "rankings":
            keywords: dict[str, Any] = {}
            for name, (token, value) in args.items():
                if name == "grades":
                    keywords["grades"] = _grades(parser, token, value)
                elif name == "lengths":
                    if value not in ("exact", "upto"):
                        raise parser.error(f"lengths must be exact or upto at column {token.column}, "
                                           f"found {token.text!r}")
                    keywords["lengths"] = value
                else:
                    keywords[name] = _integer(parser, name, token, value)
            return rankings(**keywords)
        counts = {name: _integer(parser, name, token, value) for name, (token, value) in args.items()}
        return sets(**counts) if domain == "sets" else users(**counts)
    except ValidationError as error:
        raise InputError(str(error), source=parser.source) from None
