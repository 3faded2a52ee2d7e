"""Run the user-facing commands whose output a refactoring must not change, and save each output.

Issue 25 ("one shape for a metric, a verdict and a report") promises the same bytes before and
after for these commands. Run the script once on the old code and once on the new, then compare
the two folders with ``diff -r``:

    python benchmarks/same_output.py --rev 654029e /tmp/before   # a git worktree of that revision
    python benchmarks/same_output.py /tmp/after                  # the code installed here
    diff -r /tmp/before /tmp/after
    python benchmarks/same_output.py /tmp/after --only check-rbp.txt check-rbp.json  # just these

Each command runs as ``python -m axiometer ...`` with ``PYTHONPATH`` pointing at the revision's
``src/`` (or the installed package without ``--rev``), with a fixed terminal width, from a scratch
folder, so the outputs differ only where the code does. It prints one line per command: its name,
its exit status and its time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: (name, arguments). Every output goes to ``NAME`` in the output folder; ``-o`` outputs too.
COMMANDS: list[tuple[str, list[str]]] = [
    ("table-seed1.json", ["table", "--seed", "1", "--format", "json"]),
    ("table-compare.txt", ["table", "--compare", "amigo2018"]),
    ("table-compare.md", ["table", "--compare", "amigo2018", "--format", "markdown"]),
    ("table-compare.tex", ["table", "--compare", "amigo2018", "--format", "latex"]),
    ("table-compare.html", ["table", "--compare", "amigo2018", "--format", "html"]),
    ("check-rbp.txt", ["check", "RBP", "--details"]),
    ("check-rbp.md", ["check", "RBP", "--details", "--format", "markdown"]),
    ("check-rbp.json", ["check", "RBP", "--format", "json"]),
    ("check-rbp.html", ["check", "RBP", "--format", "html"]),
    ("check-rbp.tex", ["check", "RBP", "--format", "latex"]),
    ("check-rbp-boundary.txt", ["check", "RBP", "--param", "p=0.5..0.99",
                                "--constraints", "CloseTh", "--details"]),
    ("intrinsic-giner.txt", ["intrinsic", "--table", "giner"]),
    ("intrinsic-giner.md", ["intrinsic", "--table", "giner", "--format", "markdown"]),
    ("intrinsic-giner.json", ["intrinsic", "--table", "giner", "--format", "json"]),
    ("intrinsic-giner.html", ["intrinsic", "--table", "giner", "--format", "html"]),
    ("intrinsic-giner.tex", ["intrinsic", "--table", "giner", "--format", "latex"]),
    ("intrinsic-ap.txt", ["intrinsic", "AP", "--domain", "rankings(n=4,grades=2)"]),
    ("intrinsic-ap.md", ["intrinsic", "AP", "--domain", "rankings(n=4,grades=2)",
                         "--format", "markdown"]),
    ("intrinsic-ap.json", ["intrinsic", "AP", "--domain", "rankings(n=4,grades=2)",
                           "--format", "json"]),
    ("intrinsic-ap.html", ["intrinsic", "AP", "--domain", "rankings(n=4,grades=2)",
                           "--format", "html"]),
    ("intrinsic-rbp-param.txt", ["intrinsic", "RBP", "--domain", "rankings(n=3,grades=2)",
                                 "--param", "p"]),
    ("score-example.txt", ["score", "--example"]),
    ("score-example.json", ["score", "--example", "--format", "json"]),
    ("score-example.md", ["score", "--example", "--format", "markdown"]),
    ("score-example.html", ["score", "--example", "--format", "html"]),
    ("score-example.tex", ["score", "--example", "--format", "latex"]),
    ("compare-example.txt", ["compare", "--example"]),
    ("compare-example.md", ["compare", "--example", "--format", "markdown"]),
    ("compare-example.tex", ["compare", "--example", "--format", "latex"]),
    ("compare-example.html", ["compare", "--example", "--format", "html"]),
    ("compare-example.json", ["compare", "--example", "--format", "json"]),
    ("meta-example.txt", ["meta", "--example", "--metric", "nDCG@10 P@10 AP RBP"]),
    ("meta-example.md", ["meta", "--example", "--metric", "nDCG@10 P@10 AP RBP",
                         "--format", "markdown"]),
    ("meta-example.json", ["meta", "--example", "--metric", "nDCG@10 P@10 AP RBP",
                           "--format", "json"]),
    ("meta-example.html", ["meta", "--example", "--metric", "nDCG@10 P@10 AP RBP",
                           "--format", "html"]),
    ("unanimity-example.txt", ["unanimity", "--example"]),
    ("unanimity-example.tex", ["unanimity", "--example", "--format", "latex"]),
]


def worktree(rev: str) -> Path:
    """A throwaway git worktree of ``rev`` (detached), made beside the system's temp files."""
    path = Path(tempfile.mkdtemp(prefix="axiometer-same-output-"))
    subprocess.run(["git", "worktree", "add", "--detach", str(path), rev], check=True,
                   capture_output=True)
    return path


def run_all(out: Path, src: Path | None, only: set[str]) -> int:
    """Run every command (or those named in ``only``); return how many exited non-zero."""
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, COLUMNS="120", LINES="60", PYTHONHASHSEED="0")
    env.pop("CI", None)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    failures = 0
    with tempfile.TemporaryDirectory() as scratch:
        for name, args in COMMANDS:
            if only and name not in only:
                continue
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "axiometer", *args], cwd=scratch,
                                  env=env, capture_output=True, text=True)
            (out / name).write_text(done.stdout + (done.stderr and "\n--- stderr\n" + done.stderr))
            failures += done.returncode != 0
            print(f"{name:28} exit {done.returncode}  {time.perf_counter() - started:6.1f} s",
                  flush=True)
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write the outputs into")
    parser.add_argument("--rev", help="run this git revision (a worktree) instead of the "
                        "installed package")
    parser.add_argument("--only", nargs="*", default=[], help="run these outputs only")
    options = parser.parse_args()
    src = worktree(options.rev) / "src" if options.rev else None
    return 1 if run_all(options.out, src, set(options.only)) else 0


if __name__ == "__main__":
    sys.exit(main())
