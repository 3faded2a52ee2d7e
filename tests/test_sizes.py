"""Sizes a reader can hold in their head, enforced: no function over 80 lines, no module over 700.

A function's length is from its ``def`` line to its last line (decorators not counted), read with
:mod:`ast`; a module's is its number of lines. Both limits are the team's (the README's
"Layout"): a longer function is split into steps with names, a longer module into modules that
each hold one concept.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "axiometer"

#: The limits: a function's lines, a module's lines.
FUNCTION_LINES = 80
MODULE_LINES = 700


def long_functions(source: str, limit: int = FUNCTION_LINES) -> list[tuple[str, int, int]]:
    """(name, first line, length) of every function in ``source`` longer than ``limit`` lines."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > limit:
                found.append((node.name, node.lineno, length))
    return found


def test_no_function_is_longer_than_80_lines() -> None:
    found = [f"{path.relative_to(PACKAGE.parent)}:{line}: {name} has {length} lines"
             for path in sorted(PACKAGE.rglob("*.py"))
             for name, line, length in long_functions(path.read_text(encoding="utf-8"))]
    assert found == []


def test_no_module_is_longer_than_700_lines() -> None:
    found = [f"{path.relative_to(PACKAGE.parent)} has {n} lines"
             for path in sorted(PACKAGE.rglob("*.py"))
             if (n := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES]
    assert found == []


def test_the_rule_catches_a_long_function_and_not_a_short_one() -> None:
    """The test of the test: 81 lines are found (with the line they start on), 80 are not."""
    body = "".join(f"    x{i} = {i}\n" for i in range(79))
    assert long_functions(f"def fits():\n{body}") == []
    nested = f"class C:\n    def method(self):\n" + "".join(f"    {line}\n" for line in
                                                            (body + "    y = 0\n").splitlines())
    assert long_functions(nested) == [("method", 2, 81)]
