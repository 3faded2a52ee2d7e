"""Mutation testing per area: how many small bugs planted in the code the area's tests catch.

Issue 14, item 1. Not a test and not part of ``.ci/run`` (too slow): a script that prints figures.

    python benchmarks/mutation.py --area readers            # one area
    python benchmarks/mutation.py --area generators --keep  # keep the throwaway copy to browse it
    python benchmarks/mutation.py --list                    # the areas, their modules and test files
    python benchmarks/mutation.py --rerun COPY              # a kept copy's survivors against today's tests

The tool is mutmut 3 (``pip install -e '.[mutation]'`` in a venv of its own; the ``mutation`` extra is
not part of ``test``, CI never installs it). mutmut mutates every function of the chosen modules with
"trampolines" in a ``mutants/`` copy and runs, for each mutant, only the tests that reached the mutated
function, in forked workers. It never writes to ``src/``; even so this script does not run it in the work
tree: it exports the committed ``HEAD`` (``git archive``) into a throwaway directory and runs mutmut there,
so other work in the tree is neither touched nor measured. Commit (or pass ``--source worktree``) first.

Hypothesis runs under the ``ci`` profile (derandomized, 60 examples): a mutant is killed or survives the
same way on every run.

Figures: killed / survived / timeout / other / total, and the score
``(killed + timeout + segfault) / (total - equivalent - skipped)`` (a "segfault" is the test run
ended by a signal: a mutant that loops filling memory until the process is killed is detected as
surely as one that fails an assertion). Survivors are listed as ``file:line`` with the
mutated line. Equivalent mutants (no input can tell them from the code) are listed in
``benchmarks/mutation_areas/<area>.toml``, each with a reason, and left out of the score; an
entry whose mutated line no longer matches is reported as stale and not excluded.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import fnmatch
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Area:
    mutate: tuple[str, ...]   # glob patterns (fnmatch: ``*`` also crosses ``/``) of the modules to mutate
    tests: tuple[str, ...]    # the test files (or folders, or node ids) that cover them, run per mutant
    note: str = ""
    deselect: tuple[str, ...] = ()  # test ids that cannot run under mutmut (each with its reason in the file)


# The areas of issue 14, one file each in benchmarks/mutation_areas/<area>.toml:
#   note = "..."                      # what the area is
#   mutate = ["src/axiometer/readers.py", ...]   # fnmatch globs (``*`` also crosses ``/``)
#   tests = ["tests/test_readers.py", ...]        # the test files (or folders, or node ids) for these modules
#   [[deselect]]                                  # a test that cannot run under mutmut, and why
#   test = "tests/x.py::test_y"
#   reason = "..."
#   [equivalent."axiometer.readers.x_content_lines__mutmut_35"]
#   contains = 'decode("UTF-8")'                 # text the mutated line must contain (guards a stale name)
#   reason = "codec names are case-insensitive"  # why no input tells the mutant from the code
# An area's equivalent mutants may be split over more files, ``<area>.<part>.toml`` (say one per module).
# A mutant that only a test elsewhere would catch (a CLI test, the fuzz tests) counts as a survivor on
# purpose: the per-module tests are the specification of the module. mutmut's names are positional
# inside a function, so ``contains`` catches an entry an edit has moved.
AREAS_DIR = ROOT / "benchmarks" / "mutation_areas"


def load_areas() -> tuple[dict[str, Area], dict[str, tuple[str, str]]]:
    """The areas, and every area's equivalent mutants: name -> (text of the mutated line, reason)."""
    areas: dict[str, Area] = {}
    equivalent: dict[str, tuple[str, str]] = {}
    for path in sorted(AREAS_DIR.glob("*.toml")):
        with open(path, "rb") as f:
            table = tomllib.load(f)
        if "." not in path.stem:  # <area>.<part>.toml holds more equivalent mutants of <area>, nothing else
            areas[path.stem] = Area(tuple(table["mutate"]), tuple(table["tests"]), table.get("note", ""),
                                tuple(entry["test"] for entry in table.get("deselect", [])))
        for name, entry in table.get("equivalent", {}).items():
            equivalent[name] = (entry["contains"], entry["reason"])
    return areas, equivalent


AREAS, _ = load_areas()


STATUS_BY_WORD = {"killed": "killed", "survived": "survived", "timeout": "timeout",
                  "no tests": "no tests", "skipped": "skipped", "suspicious": "suspicious",
                  "segfault": "segfault", "not checked": "not checked",
                  # a mutant in flight when the run was stopped: unfinished, so checked again
                  "check was interrupted by user": "not checked"}


def export(source: str, dest: Path) -> None:
    """A clean copy of the project in ``dest``: the committed HEAD, or the work tree's files as they are."""
    if source == "head":
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "HEAD"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    else:
        files = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others",
                                "--exclude-standard"], check=True, capture_output=True).stdout
        for name in filter(None, files.decode().split("\0")):
            src = ROOT / name
            if src.is_file():
                (dest / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest / name)


def tests_text(tests: tuple[str, ...]) -> str:
    """An area's tests in one line: files and folders as named, node ids counted per file."""
    counts: dict[str, int] = {}
    for test in tests:
        path, _, node = test.partition("::")
        counts[test if not node else path] = counts.get(test if not node else path, 0) + bool(node)
    return ", ".join(t if not n else f"{n} test{'s' * (n > 1)} of {t}" for t, n in counts.items())


def configure(dest: Path, area: Area) -> None:
    """mutmut's settings for this area, appended to the copy's pyproject.toml (never to the real one)."""
    def toml_list(items):
        return "[" + ", ".join(f'"{x}"' for x in items) + "]"
    deselect = [arg for test in area.deselect for arg in ("--deselect", test)]
    # A test file yet to be written is skipped; a node id (file::test) counts when its file is there.
    present = [t for t in area.tests if (dest / t.split("::")[0]).exists()]
    if len(present) < len(area.tests):
        print("  (not written yet: " + ", ".join(t for t in area.tests if t not in present) + ")")
    project = dest / "pyproject.toml"
    text = project.read_text(encoding="utf-8")
    text = text.split("\n[tool.mutmut]\n")[0]  # ours, appended last: replaced on a --rerun
    with open(project, "w", encoding="utf-8") as f:
        f.write(text + "\n[tool.mutmut]\n"
                'source_paths = ["src/axiometer"]\n'
                f"only_mutate = {toml_list(area.mutate)}\n"
                f"pytest_add_cli_args_test_selection = {toml_list(present)}\n"
                f'pytest_add_cli_args = {toml_list(["-p", "no:cacheprovider", "-q", *deselect])}\n'
                "use_git_change_detection = false\n")


def _mutmut_section(pyproject: str) -> str:
    return pyproject.split("\n[tool.mutmut]\n", 1)[-1]


def mutmut(dest: Path, *args: str, capture: bool = True) -> subprocess.CompletedProcess:
    env = dict(os.environ, HYPOTHESIS_PROFILE="ci", PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    return subprocess.run([sys.executable, "-m", "mutmut", *args], cwd=dest, env=env, text=True,
                          capture_output=capture)


def results(dest: Path) -> dict[str, str]:
    out = mutmut(dest, "results", "--all", "true").stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s+(\S+): (.+)$", line)
        if m:
            found[m.group(1)] = STATUS_BY_WORD.get(m.group(2).strip(), m.group(2).strip())
    return found


_DIFFS = """
import json, sys
from mutmut.mutation.diff_apply import get_diff_for_mutant
print(json.dumps({name: get_diff_for_mutant(name) for name in sys.argv[1:]}))
"""


def diffs(dest: Path, names: list[str]) -> dict[str, str]:
    """Every mutant's diff. Read straight from mutmut's mutated files and their ``.spans`` line index
    (seconds for a thousand mutants; mutmut's own ``get_diff_for_mutant`` re-reads every result file
    and parses with libcst per mutant: minutes). Falls back to mutmut when its files are not there."""
    found, missing = {}, []
    spans_by_path: dict[Path, tuple[dict, list[str]] | None] = {}
    for name in names:
        diff = _diff_from_spans(dest, name, spans_by_path)
        if diff is None:
            missing.append(name)
        else:
            found[name] = diff
    if missing:
        run = subprocess.run([sys.executable, "-c", _DIFFS, *missing], cwd=dest, text=True, capture_output=True)
        if run.returncode == 0:
            found.update(json.loads(run.stdout.strip().splitlines()[-1]))
        else:  # mutmut's internals moved
            found.update({name: mutmut(dest, "show", name).stdout for name in missing})
    return found


def _diff_from_spans(dest: Path, name: str, cache: dict) -> str | None:
    module, _, generated = name.rpartition(".")
    rel = None
    for candidate in (Path("src", *module.split(".")).with_suffix(".py"),
                      Path("src", *module.split("."), "__init__.py")):
        if (dest / "mutants" / candidate).is_file():
            rel = candidate
            break
    if rel is None:
        return None
    if rel not in cache:
        try:
            index = json.loads((dest / "mutants" / (str(rel) + ".spans")).read_text(encoding="utf-8"))
            lines = (dest / "mutants" / rel).read_text(encoding="utf-8").splitlines()
            cache[rel] = (index["spans"], lines)
        except (OSError, ValueError, KeyError):
            cache[rel] = None
    if cache[rel] is None:
        return None
    spans, lines = cache[rel]
    stem = generated.split("__mutmut_")[0]
    original_name = stem.split("ǁ")[-1] if stem.startswith("xǁ") else stem[2:]
    texts = []
    for generated_name in (stem + "__mutmut_orig", generated):
        if generated_name not in spans:
            return None
        start, end = spans[generated_name]
        texts.append([line.replace(generated_name, original_name) for line in lines[start - 1:end]])
    return "\n".join(difflib.unified_diff(texts[0], texts[1], fromfile=str(rel), tofile=str(rel), lineterm=""))


def locate(dest: Path, name: str, diff: str) -> tuple[str, int | None, str, str]:
    """file, line, original line, mutated line of one mutant (from its diff)."""
    path = next((l[4:].strip() for l in diff.splitlines() if l.startswith("--- ")), "?")
    removed = [l[1:] for l in diff.splitlines() if l.startswith("-") and not l.startswith("---")]
    added = [l[1:] for l in diff.splitlines() if l.startswith("+") and not l.startswith("+++")]
    before = removed[0].strip() if removed else ""
    after = added[0].strip() if added else "(line removed)"
    line = None
    src = dest / path
    if src.is_file() and removed:
        text, tree = _parsed(src)
        start = function_start(tree, name)
        lines = text.splitlines()
        # The diff is of the function's text: its hunk says where in the function the removed
        # line is, which tells apart lines written alike (two identical returns, say).
        offset = _removed_offset(diff)
        line = _matching_line(lines, max(start - 1, 0), _old_side(diff), before,
                              None if offset is None else start - 1 + offset)
    return path, line, before, after


def still_equivalent(entry: tuple[str, str], where: tuple[str, int | None, str, str]) -> bool:
    """Does an equivalent entry ``(contains, reason)`` still describe the mutant located at
    ``where``? (mutmut's names are positions in a function: an edit can move them.)"""
    return entry[0] in where[3]


def _old_side(diff: str) -> tuple[list[str], int]:
    """The hunk's old-side lines (context and removed, stripped) and the first removed one's index."""
    block, first = [], -1
    for text in diff.splitlines():
        if text.startswith(("---", "+++", "@@", "+")):
            continue
        if text.startswith("-") and first < 0:
            first = len(block)
        if text.startswith(("-", " ")):
            block.append(text[1:].strip())
    return block, first


def _matching_line(lines: list[str], begin: int, old: tuple[list[str], int], before: str,
                   expected: int | None) -> int | None:
    """1-based line of ``before`` from ``begin`` on (``expected``: its 0-based index by the hunk).

    ``expected`` itself when the line there is ``before``. mutmut's text of a function can run a
    line or two off the file's (its signature rendered afresh), so else: where the hunk's old side
    matches the file (nearest ``expected`` when several do); else the first line alike.
    """
    stripped = [l.strip() for l in lines]
    if expected is not None and 0 <= expected < len(lines) and stripped[expected] == before:
        return expected + 1
    block, first = old
    matches = [i + first for i in range(begin, len(lines) - len(block) + 1)
               if first >= 0 and stripped[i:i + len(block)] == block]
    if matches:
        best = min(matches, key=lambda i: abs(i - expected) if expected is not None else i)
        return best + 1
    return next((i + 1 for i in range(begin, len(lines)) if stripped[i] == before), None)


def _removed_offset(diff: str) -> int | None:
    """How many lines after the function's first the diff's first removed line is, or ``None``."""
    position = None
    for text in diff.splitlines():
        hunk = re.match(r"@@ -(\d+)", text)
        if hunk:
            position = int(hunk.group(1)) - 1
        elif position is not None and text.startswith("-") and not text.startswith("---"):
            return position
        elif position is not None and text.startswith(" "):
            position += 1
    return None


@functools.lru_cache(maxsize=None)
def _parsed(path: Path) -> tuple[str, ast.Module]:
    text = path.read_text(encoding="utf-8")
    return text, ast.parse(text)


def function_start(tree: ast.Module, name: str) -> int:
    """The first line of the function a mutant name points at (``x_f__mutmut_3``, ``xǁCǁm__mutmut_3``)."""
    core = name.rsplit(".", 1)[-1].split("__mutmut_")[0]
    if core.startswith("xǁ"):
        _, cls, func = core.split("ǁ")
    else:
        cls, func = None, core[2:]
    for node in ast.walk(tree):
        if cls and isinstance(node, ast.ClassDef) and node.name == cls:
            for sub in node.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) and sub.name == func:
                    return min([sub.lineno] + [d.lineno for d in sub.decorator_list])
        if not cls and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == func:
            return min([node.lineno] + [d.lineno for d in node.decorator_list])
    return 1


def run_area(name: str, area: Area, args) -> int:
    work = Path(tempfile.mkdtemp(prefix=f"axiometer-mutation-{name}-", dir=args.workdir))
    try:
        export(args.source, work)
        configure(work, area)
        print(f"area {name}: {area.note}\n  mutate: {', '.join(area.mutate)}\n"
              f"  tests:  {tests_text(area.tests)}\n  copy:   {work}", flush=True)
        started = time.monotonic()
        run = mutmut(work, "run", "--max-children", str(args.jobs), capture=True)
        elapsed = time.monotonic() - started
        (work / "mutmut-run.log").write_text(run.stdout + run.stderr, encoding="utf-8")
        status = results(work)
        if not status or all(s == "not checked" for s in status.values()):
            print(f"mutmut checked no mutant (exit {run.returncode}); the end of its output "
                  f"({work / 'mutmut-run.log'}):\n" + (run.stdout + run.stderr)[-3000:])
            return 2
        return report(name, work, status, elapsed)
    finally:
        if args.keep:
            print(f"kept the copy: {work} (cd there and `{sys.executable} -m mutmut browse`)")
        else:
            shutil.rmtree(work, ignore_errors=True)


def report(name: str, work: Path, status: dict[str, str], elapsed: float,
           only: list[str] | None = None) -> int:
    """Print the area's figures and survivors; with ``only`` (mutmut-name globs) also the figures of
    the matching mutants, and list only their survivors."""
    def matches(mutant: str) -> bool:
        return not only or any(fnmatch.fnmatch(mutant, pattern) for pattern in only)

    _, EQUIVALENT = load_areas()
    equivalent, stale, survivors = [], [], []
    alive = sorted(m for m, s in status.items() if s in ("survived", "no tests", "suspicious"))
    diff_by_name = diffs(work, [m for m in alive if matches(m) or m in EQUIVALENT])
    for mutant in alive:
        where = locate(work, mutant, diff_by_name[mutant]) if mutant in diff_by_name else None
        if mutant in EQUIVALENT and where is not None:
            if still_equivalent(EQUIVALENT[mutant], where):
                equivalent.append((mutant, where, EQUIVALENT[mutant][1]))
                continue
            stale.append(mutant)
        if where is not None and matches(mutant):
            survivors.append((mutant, status[mutant], where))
    excluded = {mutant for mutant, _, _ in equivalent}
    took = f" in {elapsed:.0f} s" if elapsed else ""
    print("\n" + _figures(f"{name}: {len(status)} mutants{took}", status, excluded))
    if only:
        print(_figures(f"  of which matching {' '.join(only)}: {sum(map(matches, status))}",
                       {m: s for m, s in status.items() if matches(m)}, excluded))
    if survivors:
        print(f"\nsurvivors ({len(survivors)}):")
        for mutant, s, (path, line, before, after) in survivors:
            tag = "" if s == "survived" else f" [{s}]"
            print(f"  {path}:{line if line else '?'}  {before}\n      -> {after}    ({mutant}){tag}")
    shown = [e for e in equivalent if matches(e[0])]
    if shown:
        print(f"\nequivalent, excluded ({len(shown)}):")
        for mutant, (path, line, before, after), reason in shown:
            print(f"  {path}:{line}  {before} -> {after}: {reason}")
    if stale:
        print("\nstale EQUIVALENT entries (the mutated line changed; not excluded): " + ", ".join(stale))
    return 0


def _figures(head: str, status: dict[str, str], equivalent: set[str]) -> str:
    """``head: killed K, survived S (E of them equivalent), timeout T, ...; score X% of N``."""
    counts: dict[str, int] = {}
    for s in status.values():
        counts[s] = counts.get(s, 0) + 1
    eq = sum(1 for m in status if m in equivalent)
    killed, timeout = counts.get("killed", 0), counts.get("timeout", 0)
    scored = len(status) - eq - counts.get("skipped", 0) - counts.get("not checked", 0)
    # A segfault is the test run ended by a signal (say, a loop filling memory): the tests did not pass.
    score = (killed + timeout + counts.get("segfault", 0)) / scored if scored else 0.0
    others = {k: v for k, v in counts.items() if k not in ("killed", "survived", "timeout")}
    return (f"{head}: killed {killed}, survived {counts.get('survived', 0)} ({eq} of them equivalent), "
            f"timeout {timeout}" + "".join(f", {k} {v}" for k, v in sorted(others.items()))
            + f"; score {score:.1%} of {scored} (equivalent mutants excluded)")


def combine(parts: list[str]) -> int:
    """One area's figures from several kept copies, each answering for the mutants its globs match
    (``COPY=GLOB,GLOB``): several people each tested their modules' survivors in a copy of their own."""
    status: dict[str, str] = {}
    names = set()
    owner: dict[str, str] = {}
    for part in parts:
        copy_text, _, globs_text = part.partition("=")
        copy, globs = Path(copy_text), [g for g in globs_text.split(",") if g]
        names.add(area_of(copy))
        for mutant, state in results(copy).items():
            if any(fnmatch.fnmatch(mutant, g) for g in globs):
                if mutant in owner:
                    raise SystemExit(f"mutation.py: {mutant} is claimed by {owner[mutant]} and {copy}")
                owner[mutant] = str(copy)
                status[mutant] = state
            else:
                status.setdefault(mutant, "unclaimed")
    if len(names) != 1:
        raise SystemExit(f"mutation.py: --combine takes copies of one area, got {', '.join(sorted(names))}")
    unclaimed = sorted(m for m, s in status.items() if s == "unclaimed")
    if unclaimed:
        raise SystemExit(f"mutation.py: {len(unclaimed)} mutants matched no part's globs, e.g. {unclaimed[0]}")
    (name,) = names
    for part in parts:
        copy = Path(part.partition("=")[0])
        print(_figures(f"  {copy.name}", {m: s for m, s in status.items() if owner[m] == str(copy)},
                       {m for m in status if m in load_areas()[1]
                        and status[m] in ("survived", "no tests", "suspicious")}))
    return report(name, Path(parts[0].partition("=")[0]), status, 0.0)


def same_code(before: str, after: str) -> bool:
    """True when two versions of a module differ only in docstrings, comments and layout."""
    def code(text: str) -> str:
        tree = ast.parse(text)
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if (isinstance(body, list) and body and isinstance(body[0], ast.Expr)
                    and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str)):
                body[0].value.value = ""
        return ast.dump(tree)
    try:
        return code(before) == code(after)
    except SyntaxError:
        return False


def area_of(copy: Path) -> str:
    """The area a kept copy was made for (its directory is ``axiometer-mutation-<area>-<random>``)."""
    parts = copy.resolve().name.split("-")
    if len(parts) < 4 or parts[0] != "axiometer" or parts[2] not in AREAS:
        raise SystemExit(f"mutation.py: {copy} is not a copy kept by --keep (axiometer-mutation-<area>-...)")
    return parts[2]


def rerun(copy: Path, args) -> int:
    """Test the survivors of a kept copy again against the work tree's tests, as they are now.

    For writing the tests that kill survivors: seconds to minutes instead of a whole area's run. The
    area's own modules must be unchanged since the copy was made (mutmut's names and mutants belong to
    that code); other modules and every test file are copied from the work tree. mutmut collects the
    coverage of new tests itself and runs only the named mutants.
    """
    name = area_of(copy)
    area = AREAS[name]
    changed = []
    for path in sorted((ROOT / "src").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        kept = copy / rel
        if kept.is_file() and kept.read_bytes() == path.read_bytes():
            continue
        if any(fnmatch.fnmatch(rel, pattern) for pattern in area.mutate):
            if not (kept.is_file() and same_code(kept.read_text(encoding="utf-8"),
                                                 path.read_text(encoding="utf-8"))):
                changed.append(rel)  # a docstring or comment edit leaves the mutants as they were
        else:
            for target in (copy / rel, copy / "mutants" / rel):
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)
    if changed:
        print(f"mutation.py: the {name} area's code changed since {copy} was made ({', '.join(changed)}): "
              f"run --area {name} again", file=sys.stderr)
        return 2
    shutil.copytree(ROOT / "tests", copy / "tests", dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__"))
    project = copy / "pyproject.toml"
    before = project.read_text(encoding="utf-8")
    configure(copy, area)  # the area's test files as they are now (a new file must be run too)
    if _mutmut_section(project.read_text(encoding="utf-8")) != _mutmut_section(before):
        # A changed test list or deselection changes which tests answer for a mutant: mutmut then
        # resets every verdict and re-tests only the ones named here (the rest read "not checked").
        project.write_text(before, encoding="utf-8")
        print(f"mutation.py: the {name} area's test files or deselected tests changed since {copy} was "
              f"made (mutmut would reset every verdict): run --area {name} again", file=sys.stderr)
        return 2
    if (copy / "mutants").is_dir():
        shutil.copy2(copy / "pyproject.toml", copy / "mutants" / "pyproject.toml")
    # "not checked": a baseline run stopped early; its rest is checked here with today's tests.
    # "timeout" only when asked: mutmut's limit is wall-clock, so a run paused (SIGSTOP) or on a
    # loaded machine can time out a mutant the tests would have killed or let survive.
    again = ("survived", "no tests", "suspicious", "not checked") + (("timeout",) if args.timeouts else ())
    status_of = results(copy)
    alive = sorted(m for m, s in status_of.items() if s in again)
    if args.only:
        alive = [m for m in alive if any(fnmatch.fnmatch(m, pattern) for pattern in args.only)]
    # An equivalent mutant cannot be killed: not tested again (a stale entry, its line changed, is).
    listed = load_areas()[1]
    diff_by_name = diffs(copy, [m for m in alive if m in listed])
    alive = [m for m in alive if not (m in diff_by_name
                                      and still_equivalent(listed[m], locate(copy, m, diff_by_name[m]))
                                      and not (args.equivalents and status_of[m] == "not checked"))]
    if not alive:
        print("no survivor to test again")
        return report(name, copy, status_of, 0.0, args.only)
    print(f"testing {len(alive)} survivors of {name} again in {copy}", flush=True)
    started = time.monotonic()
    # mutmut resets every result when it fails before testing (a test that fails on the clean code,
    # say): keep the results and put them back then (not when it was stopped while testing: what it
    # tested by then is worth keeping).
    saved = {path: path.read_bytes() for path in (copy / "mutants").rglob("*.meta")}
    run = mutmut(copy, "run", "--max-children", str(args.jobs), *alive)
    (copy / "mutmut-rerun.log").write_text(run.stdout + run.stderr, encoding="utf-8")
    if run.returncode != 0:
        output = run.stdout + run.stderr
        if "Running mutation testing" not in output:  # it failed before testing: it reset them all
            for path, data in saved.items():
                path.write_bytes(data)
            print(f"mutmut failed before testing (exit {run.returncode}); the copy's results are as "
                  "before. The end of its output:\n" + output[-3000:])
            return 2
        print(f"mutmut stopped (exit {run.returncode}) while testing: what it tested is kept")
    return report(name, copy, results(copy), time.monotonic() - started, args.only)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--area", choices=sorted(AREAS), action="append",
                        help="an area to mutate (repeat for several)")
    parser.add_argument("--list", action="store_true", help="list the areas and exit")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="mutmut's --max-children")
    parser.add_argument("--source", choices=("head", "worktree"), default="head",
                        help="test the committed HEAD (default) or the work tree's files as they are")
    parser.add_argument("--workdir", default=None, help="where the throwaway copy goes (default: the temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the copy (to browse the mutants)")
    parser.add_argument("--report", metavar="COPY", type=Path,
                        help="report again on a copy kept by --keep, without running mutmut")
    parser.add_argument("--rerun", metavar="COPY", type=Path,
                        help="test a kept copy's survivors again with the work tree's tests (the area's "
                             "modules must be unchanged)")
    parser.add_argument("--equivalents", action="store_true",
                        help="with --rerun: also test the listed equivalent mutants this copy never ran "
                             "(listed from another copy's run), to see them survive here too")
    parser.add_argument("--timeouts", action="store_true",
                        help="with --rerun: test the timed-out mutants again too (mutmut's limit is "
                             "wall-clock: a paused or loaded run can time out a mutant)")
    parser.add_argument("--only", metavar="GLOB", action="append",
                        help="with --rerun: only the survivors whose mutmut name matches (repeatable); "
                             "with --rerun or --report: their figures, and only their survivors listed")
    parser.add_argument("--combine", metavar="COPY=GLOB,...", nargs="+",
                        help="one area's figures from several kept copies, each answering for the "
                             "mutants its globs match")
    args = parser.parse_args(argv)
    if args.list or not (args.area or args.rerun or args.report or args.combine):
        for name, area in AREAS.items():
            print(f"{name}: {area.note}\n  mutate: {', '.join(area.mutate)}\n  tests:  {tests_text(area.tests)}")
        return 0
    try:
        import mutmut  # noqa: F401
    except ImportError:
        print("mutmut is not installed: pip install -e '.[mutation]' (in a venv of its own)", file=sys.stderr)
        return 2
    if args.combine:
        return combine(args.combine)
    if args.rerun:
        return rerun(args.rerun, args)
    if args.report:
        status = results(args.report)
        return report(area_of(args.report), args.report, status, 0.0, args.only)
    return max(run_area(name, AREAS[name], args) for name in args.area)


if __name__ == "__main__":
    sys.exit(main())
