"""Print the figures issue 25 tracks for the package's code: probes, Any, sizes, tests by tool.

    python benchmarks/code_shape.py                 # this checkout
    python benchmarks/code_shape.py --rev 654029e   # another revision (read with git show)

Figures (each a count of source lines or files, read as text or with :mod:`ast`):

- ``getattr`` probes of a metric: ``getattr(metric, ...)``, ``getattr(self.metric, ...)``,
  ``getattr(resolved.metric, ...)``, ``getattr(base, ...)``, ``getattr(m, ...)``;
- ``Any`` annotations (``: Any``) and among them ``metric: Any``;
- verdicts written as string literals (``"satisfied"``, ``"violated"``, ``"witness"``, ``"n/a"``,
  ``"not run"``);
- functions longer than 80 lines, modules longer than 700 lines (the largest five listed);
- test files named after the mutation tool (``*_mutants.py``).
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
from collections.abc import Iterator

PROBE = re.compile(r"getattr\((?:self\.metric|resolved\.metric|metric|base|m)\b")
ANY = re.compile(r":\s*Any\b")
METRIC_ANY = re.compile(r"\bmetric:\s*Any\b")
VERDICT = re.compile(r'"(?:satisfied|violated|witness|n/a|not run)"')


def files(rev: str | None, folder: str) -> Iterator[tuple[str, str]]:
    """(path, text) of every ``.py`` file under ``folder``, in the work tree or at ``rev``."""
    if rev is None:
        listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                                 folder], capture_output=True, text=True, check=True).stdout
        for path in sorted(listed.split()):
            if path.endswith(".py"):
                with open(path, encoding="utf-8") as handle:
                    yield path, handle.read()
        return
    listed = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, folder],
                            capture_output=True, text=True, check=True).stdout
    for path in sorted(listed.split()):
        if path.endswith(".py"):
            yield path, subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True,
                                       text=True, check=True).stdout


def long_functions(text: str, limit: int = 80) -> list[tuple[str, int]]:
    """(name, lines) of every function longer than ``limit`` lines."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > limit:
                found.append((node.name, length))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", help="a git revision (default: the work tree)")
    options = parser.parse_args()
    sources = list(files(options.rev, "src/axiometer"))
    count = {name: sum(len(pattern.findall(text)) for _, text in sources)
             for name, pattern in (("probes", PROBE), ("any", ANY), ("metric_any", METRIC_ANY),
                                   ("verdicts", VERDICT))}
    longs = [(path, name, n) for path, text in sources for name, n in long_functions(text)]
    sizes = sorted(((len(text.splitlines()), path) for path, text in sources), reverse=True)
    tests = [path for path, _ in files(options.rev, "tests") if path.endswith("_mutants.py")]
    print(f"getattr probes of a metric:        {count['probes']}")
    print(f"': Any' annotations:               {count['any']} (metric: Any {count['metric_any']})")
    print(f"verdicts as string literals:       {count['verdicts']}")
    print(f"functions over 80 lines:           {len(longs)}")
    for path, name, n in longs:
        print(f"    {path}: {name} ({n} lines)")
    print(f"modules over 700 lines:            {sum(1 for n, _ in sizes if n > 700)}")
    print("largest modules:                   " + ", ".join(f"{p} ({n})" for n, p in sizes[:5]))
    print(f"test files named after mutmut:     {len(tests)}")


if __name__ == "__main__":
    main()
