"""Bounded resources through the CLI (issue 29, item 2): wall time, CPU time and peak memory of
``axiometer score`` on inputs built to exhaust it, and how many processes ``--jobs 100000`` starts.

Run from the repository root (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/resources.py                                   # this checkout's src
    git worktree add --detach /tmp/before-resources 0f2c5ac                    # the code before the work
    .venv/bin/python benchmarks/resources.py --source /tmp/before-resources/src   # and that tree beside it
    .venv/bin/python benchmarks/resources.py --only 'malformed-*' --size 64    # a quick look

The inputs, written to a temporary directory (``--keep DIR`` writes them there and reuses them):

- ``malformed-blank``: a run file of ``--size`` MB (default 256) of blank lines;
- ``malformed-binary``: a run file of ``--size`` MB of random bytes;
- ``malformed-last-line``: ``--size`` MB of well-formed run lines, then one with the score ``high``;
- ``qrels-dev-zero``: ``--qrels /dev/zero`` (where it exists);
- ``well-formed``: with ``--well-formed MB``, a well-formed run of that size (topics of 1,000
  documents), scored with P@10 against a two-topic qrels;
- ``topics-P@10`` and ``topics-nDCG@10+AP``: ``--topics`` (default 1,000,000) topics of one judged
  document each, and a run ranking that document for each (48 MB of input at a million), scored
  with P@10, and with nDCG@10 and AP;
- ``jobs``: ``table --quick --no-proofs --metrics RBP nDCG@10 --jobs 100000`` (a worker process per
  check of the first wave: 41 here before this work); the processes of its session are counted every 50
  ms, and the largest count is shown.

Each command is ``python -m axiometer ...`` with the tree first on ``PYTHONPATH`` (checked: the
script says where ``axiometer`` is imported from), run by a small launcher that forks it in a new
session under ``RLIMIT_AS`` (``--memory-limit``, default 8 GB: the code before this work needed 11.6
GB for the blank file and would take the machine with it) and reads its rusage with ``os.wait4``:
peak MB is the command's own maximum resident set size (the launcher's ~10 MB included: Linux
carries a parent's high-water mark across ``fork`` and ``exec``, which is why the benchmark does
not start the commands itself), CPU s its user plus system time. Wall s is what a user waits
(on a shared machine it exceeds the CPU time: the commands use one core). On ``--timeout`` (default
900 s) the session is killed. ``outcome`` is the error line, or the means, or a traceback's last
line.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import platform
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Forks the command in a new session under RLIMIT_AS, waits for it, and writes its rusage as the
#: last line of stderr; argv: memory limit in bytes (0: none), then the command.
LAUNCHER = """\
import os, resource, sys
limit = int(sys.argv[1])
pid = os.fork()
if pid == 0:
    os.setsid()
    if limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
sys.stderr.write("\\nRESOURCES-BENCH %d %d %.3f %.3f\\n" % (pid, usage.ru_maxrss, usage.ru_utime, usage.ru_stime))
sys.exit(os.waitstatus_to_exitcode(status))
"""


@dataclass
class Case:
    id: str
    what: str
    argv: list[str]                # after 'python -m axiometer'
    count_processes: bool = False


@dataclass
class Outcome:
    case: str
    tree: str
    exit: str
    wall: float
    cpu: float
    peak_mb: float
    processes: int
    outcome: str


def input_paths(directory: Path, size_mb: int, topics: int, well_formed_mb: int) -> dict[str, Path]:
    """Where each input is written: named by its size, so that ``--keep DIR`` reuses a file only
    for the same size."""
    names = {"qrels": "q.txt", "blank": f"blank-{size_mb}MB.run", "binary": f"binary-{size_mb}MB.run",
             "last-line": f"last-line-{size_mb}MB.run", "well-formed": f"well-formed-{well_formed_mb}MB.run",
             "topics-qrels": f"qrels-{topics}-topics.txt", "topics-run": f"run-{topics}-topics.run"}
    return {key: directory / name for key, name in names.items()}


def write_inputs(directory: Path, size_mb: int, topics: int, well_formed_mb: int) -> dict[str, Path]:
    """The input files (each written once: one already there is reused)."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = input_paths(directory, size_mb, topics, well_formed_mb)
    paths["qrels"].write_text("q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n")
    if not paths["blank"].exists():
        with open(paths["blank"], "wb") as handle:
            for _ in range(size_mb):
                handle.write(b"\n" * (1 << 20))
    if not paths["binary"].exists():
        with open(paths["binary"], "wb") as handle:
            for _ in range(size_mb):
                handle.write(os.urandom(1 << 20))
    if not paths["last-line"].exists():
        _write_run(paths["last-line"], size_mb << 20, b"q1 Q0 zzz 1 high tag\n")
    if well_formed_mb and not paths["well-formed"].exists():
        _write_run(paths["well-formed"], well_formed_mb << 20, b"")
    if not paths["topics-qrels"].exists() or not paths["topics-run"].exists():
        with open(paths["topics-qrels"], "w") as qrels, open(paths["topics-run"], "w") as run:
            for start in range(0, topics, 100_000):
                numbers = range(start, min(start + 100_000, topics))
                qrels.write("".join(f"q{i} 0 d{i} 1\n" for i in numbers))
                run.write("".join(f"q{i} Q0 d{i} 1 1.0 tag\n" for i in numbers))
    return paths


def _write_run(path: Path, size: int, last: bytes) -> None:
    """Well-formed run lines (topics of 1,000 documents, scores decreasing) up to ``size`` bytes,
    whole lines only, then ``last``."""
    with open(path, "wb") as handle:
        written, i = 0, 0
        while True:
            block = b"".join(b"q%d Q0 doc-%08d %d %d.5 tag\n" % ((i + j) // 1000, i + j, j % 1000 + 1,
                                                                   1000 - j % 1000) for j in range(10_000))
            if written + len(block) > size:
                block = block[:block.rfind(b"\n", 0, size - written) + 1]
            handle.write(block)
            written, i = written + len(block), i + 10_000
            if written + 40 > size or not block:
                break
        handle.write(last)


def cases(paths: dict[str, Path], topics: int, size_mb: int, well_formed_mb: int = 0) -> list[Case]:
    """The commands, in the order they run."""
    q = str(paths["qrels"])
    rows = [
        Case("malformed-blank", f"run of {size_mb} MB of blank lines", ["score", q, str(paths["blank"]), "P@10"]),
        Case("malformed-binary", f"run of {size_mb} MB of random bytes", ["score", q, str(paths["binary"]), "P@10"]),
        Case("malformed-last-line", f"run of {size_mb} MB, its last line bad",
             ["score", q, str(paths["last-line"]), "P@10"]),
    ]
    if Path("/dev/zero").exists():
        rows.append(Case("qrels-dev-zero", "--qrels /dev/zero", ["score", "--qrels", "/dev/zero", "--run",
                                                                  str(paths["last-line"]), "--metric", "P@10"]))
    if well_formed_mb:
        rows.append(Case("well-formed", f"well-formed run of {well_formed_mb} MB",
                         ["score", q, str(paths["well-formed"]), "P@10"]))
    qrels, run = str(paths["topics-qrels"]), str(paths["topics-run"])
    rows += [
        Case("topics-P@10", f"{topics:,} one-document topics, P@10", ["score", qrels, run, "P@10"]),
        Case("topics-nDCG@10+AP", f"{topics:,} one-document topics, nDCG@10 and AP",
             ["score", qrels, run, "nDCG@10 AP"]),
        Case("jobs", "table --quick --no-proofs --metrics RBP nDCG@10 --jobs 100000",
             ["table", "--quick", "--no-proofs", "--metrics", "RBP", "nDCG@10", "--jobs", "100000"],
             count_processes=True),
    ]
    return rows


def session_size(sid: int) -> int:
    """How many processes are in session ``sid`` now."""
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            count += int(fields[3]) == sid  # after the name: state, ppid, pgrp, session
    return count


def kill_session(sid: int) -> None:
    try:
        os.killpg(sid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run(case: Case, source: Path, limit_mb: int, timeout: float) -> Outcome:
    env = {**os.environ, "COLUMNS": "100", "PYTHONPATH": str(source)}
    command = [sys.executable, "-S", "-c", LAUNCHER, str(limit_mb << 20), sys.executable, "-m", "axiometer",
               *case.argv]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        launcher = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        largest, sid, killed = 0, None, False
        while launcher.poll() is None:
            if time.perf_counter() - start > timeout:
                sid = sid or _child_of(launcher.pid)
                if sid:
                    kill_session(sid)
                killed = True
                launcher.wait()
                break
            if case.count_processes:
                sid = sid or _child_of(launcher.pid)
                if sid:
                    largest = max(largest, session_size(sid))
            time.sleep(0.05)
        wall = time.perf_counter() - start
        if sid:
            kill_session(sid)  # workers a command left behind
        out.seek(0), err.seek(0)
        stdout, stderr = out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
    found = re.search(r"RESOURCES-BENCH (\d+) (\d+) ([\d.]+) ([\d.]+)\s*$", stderr)
    peak, cpu = (int(found[2]) / 1024, float(found[3]) + float(found[4])) if found else (float("nan"),) * 2
    stderr = stderr[:found.start()] if found else stderr
    status = launcher.returncode
    exit_text = "timeout" if killed else (signal.Signals(-status).name if status < 0 else str(status))
    return Outcome(case.id, str(source), exit_text, wall, cpu, peak, largest,
                   _outcome(stdout, stderr, killed, timeout))


def _child_of(pid: int) -> int | None:
    """The launcher's child, which leads its own session."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None
    return int(children[0]) if children else None


def _outcome(stdout: str, stderr: str, killed: bool, timeout: float) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    if killed:
        return f"killed after {timeout:g} s"
    if any(line.startswith("Traceback") for line in lines):
        return "traceback: " + _cut(lines[-1])
    errors = [line for line in lines if line.startswith("axiometer: error")]
    notes = [line for line in lines if line.startswith("axiometer: note")]
    if errors:
        return _cut(errors[0])
    means = re.findall(r"^(\S+)\s+([0-9.]+)\s*$", stdout, re.M)
    said = "; ".join(_cut(n, 110) for n in notes)
    shown = ", ".join(f"{name} {value}" for name, value in means[:3]) if means else _cut(stdout.strip(), 60)
    return f"{said}; {shown}" if said else shown


def _cut(text: str, size: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= size else text[:size - 1] + "…"


def machine() -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"Python {platform.python_version()}, {os.cpu_count()} cores, {platform.machine()}, "
            f"load average {load:.1f} at the start")


def imported_from(source: Path) -> str:
    done = subprocess.run([sys.executable, "-c", "import axiometer; print(axiometer.__file__)"], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(source)}, capture_output=True, text=True, timeout=60)
    return done.stdout.strip() or done.stderr.strip()


def table(outcomes: list[Outcome], cases_by_id: dict[str, Case], labels: dict[str, str]) -> str:
    head = ["input", "tree", "exit", "wall s", "CPU s", "peak MB", "processes", "outcome"]
    rows = [[cases_by_id[o.case].what, labels[o.tree], o.exit, f"{o.wall:.1f}", f"{o.cpu:.1f}", f"{o.peak_mb:,.0f}",
             str(o.processes) if cases_by_id[o.case].count_processes else "-", o.outcome] for o in outcomes]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head) - 1)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths)) + "  " + head[-1],
             "  ".join("-" * w for w in widths) + "  " + "-" * 7]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1] for r in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=None, metavar="DIR",
                        help="a baseline src directory, run beside this checkout's src")
    parser.add_argument("--size", type=int, default=256, metavar="MB", help="malformed run files' size (default: 256)")
    parser.add_argument("--topics", type=int, default=1_000_000, metavar="N",
                        help="one-document topics (default: 1,000,000)")
    parser.add_argument("--well-formed", type=int, default=0, metavar="MB",
                        help="also score a well-formed run of MB megabytes (default: 0, none; 2048 takes "
                             "about 4 GB here, the code before this work 23 GB)")
    parser.add_argument("--memory-limit", type=int, default=8192, metavar="MB",
                        help="RLIMIT_AS of each command (default: 8192; 0: none)")
    parser.add_argument("--timeout", type=float, default=900, metavar="S", help="seconds per command (default: 900)")
    parser.add_argument("--only", nargs="+", metavar="ID", help="cases to run (shell patterns; see --list)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="write the inputs to DIR and reuse them")
    parser.add_argument("--save", type=Path, metavar="FILE", help="also write the rows to FILE as JSON")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    args = parser.parse_args()

    trees = [ROOT / "src"] + ([args.source.resolve()] if args.source else [])
    for tree in trees:
        where = imported_from(tree)
        if not where.startswith(str(tree) + os.sep):
            print(f"python -m axiometer would not run {tree}: axiometer is imported from {where}", file=sys.stderr)
            return 2
    labels = {str(ROOT / "src"): "this checkout"}
    if args.source:
        commit = subprocess.run(["git", "-C", str(args.source), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip() or "?"
        labels[str(args.source.resolve())] = f"--source ({commit})"
    with tempfile.TemporaryDirectory(prefix="axiometer-resources-") as scratch:
        directory = args.keep or Path(scratch)
        selected = cases(input_paths(directory, args.size, args.topics, args.well_formed), args.topics, args.size,
                         args.well_formed)
        if args.list:
            print("\n".join(f"{c.id:22} {c.what}" for c in selected))
            return 0
        if args.only:
            selected = [c for c in selected if any(fnmatch.fnmatchcase(c.id, p) for p in args.only)]
            if not selected:
                parser.error("--only selects no case (see --list)")
        start = time.perf_counter()
        paths = write_inputs(directory, args.size, args.topics, args.well_formed)
        print(f"inputs written in {time.perf_counter() - start:.1f} s to {directory}"
              f"{'' if args.keep else ' (removed at the end)'}")
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip() or "?"
        limit = f"RLIMIT_AS {args.memory_limit} MB" if args.memory_limit else "no RLIMIT_AS"
        print(f"this checkout: {ROOT / 'src'} (commit {commit}); {machine()}; {limit}; timeout {args.timeout:g} s",
              flush=True)
        outcomes = []
        for case in cases(paths, args.topics, args.size, args.well_formed):
            if case.id not in {c.id for c in selected}:
                continue
            for tree in trees:
                outcome = run(case, tree, args.memory_limit, args.timeout)
                outcomes.append(outcome)
                print(f"  {case.id:20} {labels[str(tree)]:18} exit {outcome.exit:>7} {outcome.wall:7.1f} s "
                      f"{outcome.peak_mb:8,.0f} MB  {outcome.outcome}", file=sys.stderr, flush=True)
        print()
        print(table(outcomes, {c.id: c for c in selected}, labels))
        if args.save:
            args.save.write_text(json.dumps([o.__dict__ for o in outcomes], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
