"""Hostile inputs through the CLI (issue 16): exit code, time, whether the JSON parses, what came out.

Run from the repository root (see ``benchmarks/README.md``)::

    .venv/bin/python benchmarks/hostile.py --source src                       # this tree
    git worktree add --detach /tmp/before-issue16 708c95a                     # the code before issue 16
    git worktree add --detach /tmp/after-issue16 HEAD                         # the committed code
    .venv/bin/python benchmarks/hostile.py --source /tmp/before-issue16/src --save before.json
    .venv/bin/python benchmarks/hostile.py --source /tmp/after-issue16/src --save after.json
    .venv/bin/python benchmarks/hostile.py --combine before.json after.json   # one table, side by side

Each input is one ``python -m axiometer ...`` command run with ``--source DIR`` first on
``PYTHONPATH`` (the script checks that ``axiometer`` is imported from there and says so) and with
the working directory the repository holding this script, so that ``tests.hostile.metrics:NAME``
imports from it whatever the source (the metrics are the same for every source; only axiometer's
code differs). The inputs:

- every metric of ``tests.hostile.metrics.BEHAVIOUR`` and ``good`` (the reference), as
  ``check tests.hostile.metrics:NAME --quick --format json``, with the default jobs and with
  ``--jobs 1`` (default limits: no ``--case-seconds``/``--worker-mb``, which older code lacks);
- bad files and specs, scored or checked with ``--format json``: a qrels and a run starting with a
  UTF-8 BOM (their scores compared with the same files without it), a 20-digit grade, a grade of
  1e9, ``--gmax 1000000000000``, a control character in a document id, a spec nested 200 deep,
  ``nDCG@`` with Arabic-Indic digits, an unknown metric name of 20,000 characters, a run sharing
  no topic with the qrels, ``--runs DIR`` holding a subdirectory;
- a real Ctrl-C: SIGINT to the process group of a ``check`` of the ``slow`` metric after 3 s.

Issue 29's rows (the second audit): every hostile metric through ``score`` (it ran them
unsupervised), a metric object with ``name`` and ``score``, a burst of three SIGINTs at once, ``-o``
to a directory, ``--runs DIR`` holding a dangling symlink, a FIFO and a symlink loop, ``check
module:function`` from a directory holding a ``hypothesis.py``, ``--qrels /dev/zero``, a run file
of 64 MB of blank lines, ``--jobs 100000`` and malformed ``--executor`` addresses.

Every command runs in a new session (``start_new_session``) under ``RLIMIT_AS`` (``--memory-limit``,
default 4 GB, soft and hard, so a 2 GB allocation or a runaway ``2 ** grade`` in old code cannot
hurt the machine); on ``--timeout`` the whole process group is killed. Processes of the session
still alive once the command has exited (a worker the command left behind) are counted in the
outcome, then killed. The tiny files are written to a temporary directory.
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import json
import os
import platform
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
METRICS_MODULE = "tests.hostile.metrics"
CUT = 90

QRELS = "q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq2 0 d4 1\nq2 0 d5 0\nq2 0 d6 3\n"
RUN = ("q1 Q0 d3 1 3.0 runA\nq1 Q0 d1 2 2.0 runA\nq1 Q0 d2 3 1.0 runA\n"
       "q2 Q0 d5 1 3.0 runA\nq2 Q0 d6 2 2.0 runA\nq2 Q0 d4 3 1.0 runA\n")
RUN_B = ("q1 Q0 d1 1 3.0 runB\nq1 Q0 d3 2 2.0 runB\nq1 Q0 d9 3 1.0 runB\n"
         "q2 Q0 d6 1 3.0 runB\nq2 Q0 d4 2 2.0 runB\nq2 Q0 d5 3 1.0 runB\n")
RUN_OTHER_TOPICS = "q7 Q0 d1 1 3.0 runX\nq7 Q0 d3 2 2.0 runX\nq8 Q0 d6 1 3.0 runX\n"
BOM = "\ufeff"


@dataclass
class Input:
    id: str                     # what --only matches (fnmatch), with group
    label: str                  # the row's first column
    argv: list[str]             # after 'python -m axiometer'
    shown: str                  # the command as printed (paths by their file names)
    group: str = ""
    json: bool = True           # whether --format json was asked
    kind: str = "plain"         # check | score | ctrl-c | ctrl-c-burst | plain
    compare_with: str = ""      # score rows: the id of the row whose numbers these should equal
    cwd: str = ""               # the working directory (default: the repository)


@dataclass
class Result:
    id: str
    label: str
    command: str
    exit: str
    seconds: float
    parsed: str                 # yes | no | empty (nothing on stdout) | - (no JSON asked)
    stdout_bytes: int
    stderr_bytes: int
    outcome: str
    left: int = 0               # processes of the session alive after the command exited
    values: dict = field(default_factory=dict)


def cut(text: str, size: int = CUT) -> str:
    """One line of at most ``size`` characters; a word over 30 characters (an echoed spec) cut to 24."""
    text = " ".join(text.split())
    text = re.sub(r"(\S{24})\S{7,}", r"\1…", text)
    return text if len(text) <= size else text[:size - 1] + "…"


def size(count: int) -> str:
    if count < 1000:
        return f"{count} B"
    if count < 1_000_000:
        return f"{count / 1000:.1f} kB"
    return f"{count / 1_000_000:.1f} MB"


def write_files(directory: Path) -> dict[str, Path]:
    """The tiny qrels and runs of the file inputs (two topics, a few documents)."""
    files = {
        "q.txt": QRELS,
        "a.run": RUN,
        "q_bom.txt": BOM + QRELS,
        "a_bom.run": BOM + RUN,
        "q_grade20.txt": QRELS.replace("q2 0 d6 3", "q2 0 d6 99999999999999999999"),
        "q_grade1e9.txt": QRELS.replace("q2 0 d6 3", "q2 0 d6 1000000000"),
        "q_ctrl.txt": QRELS.replace("q1 0 d3 1", "q1 0 d\x013 1"),
        "other.run": RUN_OTHER_TOPICS,
        "runs/a.run": RUN,
        "runs/b.run": RUN_B,
        "runs/sub/c.run": RUN,
        "odd/a.run": RUN,
        "odd/b.run": RUN_B,
        "shadow/hypothesis.py": "raise ImportError('the hypothesis.py of the working directory was imported')\n",
        "shadow/mymetric.py": "def good(ranking, topic):\n"
                              "    return sum(topic.r(d) / i for i, d in enumerate(ranking, 1))\n",
    }
    paths = {}
    for name, text in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        paths[name] = path
    odd = directory / "odd"
    (odd / "dangling.run").symlink_to(odd / "missing.run")
    (odd / "loop.run").symlink_to(odd / "loop.run")
    os.mkfifo(odd / "fifo.run")
    with open(directory / "blank.run", "wb") as blank:   # 64 MB of blank lines
        blank.write(b"\n" * (64 << 20))
    paths["blank.run"] = directory / "blank.run"
    paths["odd"] = odd
    return paths


def inputs(files: dict[str, Path]) -> list[Input]:
    from tests.hostile.metrics import BEHAVIOUR

    rows = []
    for name in ["good", *BEHAVIOUR]:
        argv = ["check", f"{METRICS_MODULE}:{name}", "--quick", "--format", "json"]
        rows.append(Input(name, name, argv, "check …:" + name + " --quick --format json", name, kind="check"))
        rows.append(Input(name + "-jobs1", name + " (--jobs 1)", argv + ["--jobs", "1"],
                          "check …:" + name + " --quick --format json --jobs 1", name, kind="check"))

    def score(id_, label, qrels, run, *extra, metrics=("nDCG@10", "AP"), compare="", runs=None):
        argv = ["score", "--qrels", str(files[qrels])]
        shown = f"score --qrels {qrels}"
        if runs:
            argv += ["--runs", str(files["runs/a.run"].parent)]
            shown += " --runs runs/"
        else:
            argv += ["--run", str(files[run])]
            shown += f" --run {run}"
        for metric in metrics:
            argv += ["--metric", metric]
            shown += f" --metric {metric if len(metric) < 40 else repr(metric[:12] + '…')}"
        argv += [*extra, "--format", "json"]
        shown += "".join(f" {e}" for e in extra) + " --format json"
        return Input(id_, label, argv, shown, id_, kind="score", compare_with=compare)

    nested = "P@10"
    for _ in range(200):
        nested = f"NRG(base={nested})"
    long_name = "x" * 20_000
    rows += [
        score("plain", "plain qrels and run (reference)", "q.txt", "a.run"),
        score("bom-qrels", "qrels with a UTF-8 BOM", "q_bom.txt", "a.run", compare="plain"),
        score("bom-run", "run with a UTF-8 BOM", "q.txt", "a_bom.run", compare="plain"),
        score("grade-20-digits", "qrels grade 99999999999999999999", "q_grade20.txt", "a.run"),
        score("grade-1e9", "qrels grade 1000000000", "q_grade1e9.txt", "a.run"),
        score("gmax", "--gmax 1000000000000", "q.txt", "a.run", "--gmax", "1000000000000"),
        score("control-char", "control character (\\x01) in a qrels doc id", "q_ctrl.txt", "a.run"),
        Input("nested-200", "spec nested 200 deep NRG(base=NRG(base=…P@10…))",
              ["check", nested, "--quick", "--format", "json"],
              "check 'NRG(base=NRG(base=…P@10…))' (200 deep) --quick --format json", "nested-200"),
        score("arabic-digits", "nDCG@١٠ (Arabic-Indic digits)", "q.txt", "a.run", metrics=("nDCG@١٠",)),
        score("long-name", "unknown metric name of 20,000 characters", "q.txt", "a.run", metrics=(long_name,)),
        score("no-shared-topic", "run sharing no topic with the qrels", "q.txt", "other.run", metrics=("P@5",)),
        score("runs-subdir", "--runs DIR holding a subdirectory", "q.txt", None, metrics=("P@5",), runs=True),
        Input("ctrl-c", "real Ctrl-C (SIGINT to the group after 3 s), slow metric",
              ["check", f"{METRICS_MODULE}:slow", "--quick", "--format", "json"],
              "check …:slow --quick --format json, SIGINT after 3 s", "ctrl-c", kind="ctrl-c"),
    ]
    return rows + issue29_inputs(files, score)


def issue29_inputs(files: dict[str, Path], score: Any) -> list[Input]:
    """The second audit's inputs (issue 29)."""
    from tests.hostile.metrics import BEHAVIOUR

    rows = [score(f"score-{name}", f"score with {name}", "q.txt", "a.run", metrics=(f"{METRICS_MODULE}:{name}",))
            for name in ["good", *BEHAVIOUR]]
    rows[0].compare_with = ""
    q, a = str(files["q.txt"]), str(files["a.run"])
    slow = ["check", f"{METRICS_MODULE}:slow", "--quick", "--format", "json"]
    rows += [
        score("score-object", "score with an object having name and score", "q.txt", "a.run",
              metrics=(f"{METRICS_MODULE}:named_object",)),
        Input("ctrl-c-burst", "a burst of Ctrl-C (3 SIGINTs at once after 3 s), slow metric", slow,
              "check …:slow --quick --format json, 3 SIGINTs after 3 s", "ctrl-c-burst", kind="ctrl-c-burst"),
        Input("output-dir", "-o naming a directory", ["score", q, a, "P@5", "-o", str(files["odd"])],
              "score q.txt a.run P@5 -o odd/", "output-dir", json=False),
        Input("runs-odd", "--runs DIR with a dangling link, a FIFO and a link loop",
              ["score", "--qrels", q, "--runs", str(files["odd"]), "--metric", "P@5", "--format", "json"],
              "score --qrels q.txt --runs odd/ --metric P@5 --format json", "runs-odd", kind="score"),
        Input("shadow", "check mymetric:good from a directory holding a hypothesis.py",
              ["check", "mymetric:good", "--quick", "--constraints", "Pri", "--format", "json"],
              "(cd shadow) check mymetric:good --quick --constraints Pri --format json", "shadow",
              kind="check", cwd=str(files["shadow/mymetric.py"].parent)),
        Input("dev-zero", "--qrels /dev/zero", ["score", "--qrels", "/dev/zero", "--run", a, "--metric", "P@5"],
              "score --qrels /dev/zero --run a.run --metric P@5", "dev-zero", json=False),
        Input("blank-run", "a run of 64 MB of blank lines",
              ["score", "--qrels", q, "--run", str(files["blank.run"]), "--metric", "P@5"],
              "score --qrels q.txt --run blank.run --metric P@5", "blank-run", json=False),
        Input("jobs-100000", "--jobs 100000", ["check", "P@5", "--quick", "--constraints", "Pri", "--jobs", "100000",
                                              "--format", "json"],
              "check P@5 --quick --constraints Pri --jobs 100000 --format json", "jobs-100000", kind="check"),
    ]
    for address in ["dask://[::1", "dask://host:notaport", "dask://", "tcp://"]:
        rows.append(Input(f"executor {address}", f"--executor {address}",
                          ["check", "P@5", "--quick", "--constraints", "Pri", "--executor", address],
                          f"check P@5 --quick --constraints Pri --executor {address}", "executor", json=False))
    return rows


def session_processes(sid: int) -> list[int]:
    done = subprocess.run(["pgrep", "-s", str(sid)], capture_output=True, text=True)
    return [int(pid) for pid in done.stdout.split()]


def kill_session(sid: int) -> None:
    try:
        os.killpg(sid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    for pid in session_processes(sid):   # anything that left the group but not the session
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class Runner:
    def __init__(self, source: Path, timeout: float, memory_gb: float) -> None:
        self.source, self.timeout, self.memory_gb = source, timeout, memory_gb
        self.env = {**os.environ, "COLUMNS": "100", "PYTHONUNBUFFERED": "1",
                    "PYTHONPATH": os.pathsep.join([str(source), *filter(None, [os.environ.get("PYTHONPATH")])])}

    def _limit(self) -> None:
        # Ctrl-C as a terminal's foreground job gets it, whatever this script inherited (run as a
        # background job, SIGINT is ignored, and the Ctrl-C rows would test nothing).
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if self.memory_gb:
            limit = int(self.memory_gb * (1 << 30))
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    def imported_from(self) -> str:
        done = subprocess.run([sys.executable, "-c", "import axiometer; print(axiometer.__file__)"],
                              cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=60)
        return done.stdout.strip() or done.stderr.strip()

    def run(self, item: Input) -> tuple[int | None, float, bytes, bytes, int]:
        """(exit status or None on timeout, seconds, stdout, stderr, processes left in the session)."""
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            start = time.perf_counter()
            process = subprocess.Popen([sys.executable, "-m", "axiometer", *item.argv], cwd=item.cwd or ROOT,
                                       env=self.env,
                                       stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                       start_new_session=True, preexec_fn=self._limit)
            sid = process.pid
            status: int | None = None
            try:
                if item.kind in ("ctrl-c", "ctrl-c-burst"):
                    try:
                        process.wait(3)
                    except subprocess.TimeoutExpired:
                        for _ in range(3 if item.kind == "ctrl-c-burst" else 1):
                            os.killpg(sid, signal.SIGINT)
                status = process.wait(self.timeout)
            except subprocess.TimeoutExpired:
                kill_session(sid)
                process.wait()
            seconds = time.perf_counter() - start
            left = session_processes(sid)
            deadline = time.monotonic() + 2.0   # a pool may still be ending its workers
            while left and time.monotonic() < deadline:
                time.sleep(0.1)
                left = session_processes(sid)
            if left:
                kill_session(sid)
            out.seek(0), err.seek(0)
            return status, seconds, out.read(), err.read(), len(left)


def exit_text(status: int | None) -> str:
    if status is None:
        return "killed"
    if status < 0:
        try:
            return f"{signal.Signals(-status).name}"
        except ValueError:
            return str(status)
    return str(status)


def stderr_line(stderr: str) -> str:
    """The error line: a traceback's last line, else the first non-empty line."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    if not lines:
        return ""
    if any(line.startswith("Traceback (most recent call last)") for line in lines):
        return "traceback: " + lines[-1].strip()
    return lines[0].strip()


def check_outcome(report: dict) -> str:
    cells = report.get("cells", [])
    errors = [cell for cell in cells if cell.get("verdict") == "error"]
    verdicts: dict[str, int] = {}
    for cell in cells:
        verdicts[cell.get("verdict")] = verdicts.get(cell.get("verdict"), 0) + 1
    if report.get("interrupted"):
        head = "interrupted; "
    else:
        head = ""
    if not errors:
        shown = ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items(), key=lambda kv: -kv[1]))
        return head + f"no error cells ({shown})"
    message = (errors[0].get("error") or {}).get("message", "")
    return head + f"{len(errors)} error cells: {cut(message)}"


def score_outcome(report: list) -> tuple[str, dict]:
    values = {f"{row['run']} {row['metric']}": row["value"] for row in report}
    shown = ", ".join(f"{key if len({r['run'] for r in report}) > 1 else key.split(' ', 1)[1]} "
                      f"{value:.4f}" for key, value in values.items())
    return shown or "no scores", values


def describe(item: Input, status: int | None, seconds: float, stdout: bytes, stderr: bytes, left: int,
             timeout: float, results: dict[str, Result], directory: str) -> Result:
    """The row of one command: its error line or report summarised, the files named without the temporary directory."""
    text_out = stdout.decode("utf-8", "replace")
    text_err = stderr.decode("utf-8", "replace").replace(directory + os.sep, "")
    report, parsed = None, "-"
    if item.json and not stdout:
        parsed = "empty"
    elif item.json:
        try:
            report = json.loads(text_out)
            parsed = "yes"
        except ValueError:
            parsed = "no"
    values: dict = {}
    error = stderr_line(text_err)
    if status is None:
        outcome = f"timed out after {timeout:g} s"
        if error:
            outcome += f"; stderr: {cut(error, 60)}"
    elif report is not None and item.kind in ("check", "ctrl-c", "ctrl-c-burst") and isinstance(report, dict):
        outcome = check_outcome(report)
        if error and status != 0:
            outcome += f"; stderr: {cut(error, 60)}"
    elif report is not None and isinstance(report, list):
        outcome, values = score_outcome(report)
        if item.compare_with and item.compare_with in results:
            reference = results[item.compare_with].values
            if reference:
                same = values == reference
                outcome += ": equal to the no-BOM scores" if same else ": differ from the no-BOM scores (" + \
                    ", ".join(f"{v:.4f}" for v in reference.values()) + ")"
        if error:
            outcome += f"; stderr: {cut(error, 70)}"
    elif parsed == "no" and stdout:
        outcome = f"stdout is not JSON, it starts {cut(text_out, 40)!r}"
        if error:
            outcome += f"; stderr: {cut(error, 40)}"
    elif error:
        outcome = cut(error)
    else:
        outcome = "no output on stdout or stderr"
    if item.id == "long-name":
        outcome += f" (stderr {len(text_err):,} characters)"
    if left:
        outcome += f"; {left} process(es) of the session left running (killed)"
    elif item.kind in ("ctrl-c", "ctrl-c-burst"):
        outcome += "; no process of the session left"
    outcome = outcome.replace("axiometer: error: ", "error: ").replace("axiometer: note: ", "note: ")
    return Result(item.id, item.label, item.shown, exit_text(status), round(seconds, 2), parsed,
                  len(stdout), len(stderr), outcome, left, values)


def escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(results: list[Result], form: str) -> str:
    header = ["input", "command", "exit", "time", "JSON", "stdout", "outcome"]
    rows = [[r.label, r.command, r.exit, f"{r.seconds:.1f} s", r.parsed, size(r.stdout_bytes), r.outcome]
            for r in results]
    if form == "markdown":
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(escape(c) if i != 1 else f"`{escape(c)}`" for i, c in enumerate(row)) + " |"
                  for row in rows]
        return "\n".join(lines)
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header) - 1)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)) + "  outcome",
             "  ".join("-" * w for w in widths) + "  -------"]
    lines += ["  ".join(str(c).ljust(w) for c, w in zip(row, widths)) + "  " + row[-1] for row in rows]
    return "\n".join(lines)


def side_by_side(before: dict, after: dict) -> str:
    """One markdown table: input | before | after (exit, time, JSON, stdout size, outcome)."""
    def cell(r: dict | None) -> str:
        if r is None:
            return "not run"
        parsed = {"yes": ", JSON ok", "no": ", JSON broken", "empty": "", "-": ""}[r["parsed"]]
        ended = (f"killed at {r['seconds']:.0f} s" if r["exit"] == "killed"
                 else f"exit {r['exit']}, {r['seconds']:.1f} s")
        mark = " †" if "MemoryError" in r["outcome"] and "worker's memory limit" not in r["outcome"] else ""
        return escape(f"{ended}{parsed}, stdout {size(r['stdout_bytes'])}: {r['outcome']}{mark}")
    names_b = {r["id"]: r for r in before["results"]}
    names_a = {r["id"]: r for r in after["results"]}
    order = [r["id"] for r in after["results"]] + [i for i in names_b if i not in names_a]
    lines = ["| input | command | before | after |", "|---|---|---|---|"]
    # † marks a MemoryError that is the benchmark's RLIMIT_AS, not a limit of axiometer's.
    for id_ in order:
        row = names_a.get(id_) or names_b[id_]
        lines.append(f"| {escape(row['label'])} | `{escape(row['command'])}` | {cell(names_b.get(id_))} | "
                     f"{cell(names_a.get(id_))} |")
    return "\n".join(lines)


def machine() -> str:
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / (1 << 30)
    return (f"{os.cpu_count()} cores, {memory:.1f} GB RAM, Python {platform.python_version()}, "
            f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=ROOT / "src",
                        help="a src directory put first on PYTHONPATH (default: this repository's src)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per command (default: 60)")
    parser.add_argument("--format", choices=["markdown", "text"], default="text")
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help="inputs to run: ids or metric names, shell patterns allowed (a metric name "
                             "selects both its rows)")
    parser.add_argument("--memory-limit", type=float, default=4, metavar="GB",
                        help="RLIMIT_AS of each command, soft and hard (default: 4; 0: none)")
    parser.add_argument("--save", type=Path, help="also write the results to this JSON file")
    parser.add_argument("--combine", nargs=2, type=Path, metavar=("BEFORE", "AFTER"),
                        help="print one markdown table of two --save files side by side and exit")
    parser.add_argument("--list", action="store_true", help="list the input ids and exit")
    args = parser.parse_args()

    if args.combine:
        before, after = (json.loads(path.read_text()) for path in args.combine)
        for name, saved in (("before", before), ("after", after)):
            print(f"{name}: {saved['source']} ({saved['commit']}), {saved['machine']}, {saved['memory']}, "
                  f"timeout {saved['timeout']:g} s")
        print()
        print(side_by_side(before, after))
        print()
        print("† a MemoryError raised by the benchmark's RLIMIT_AS on the command, not by a limit of axiometer's")
        return 0

    sys.path.insert(0, str(ROOT))   # tests.hostile.metrics, from this repository whatever --source is
    with tempfile.TemporaryDirectory(prefix="axiometer-hostile-") as directory:
        files = write_files(Path(directory))
        items = inputs(files)
        if args.list:
            print("\n".join(f"{item.id:24} {item.label}" for item in items))
            return 0
        if args.only:
            items = [item for item in items
                     if any(fnmatch.fnmatchcase(item.id, p) or fnmatch.fnmatchcase(item.group, p) for p in args.only)]
            if not items:
                parser.error("--only selects no input (see --list)")
            wanted = {item.compare_with for item in items} - {item.id for item in items} - {""}
            items = [item for item in inputs(files) if item.id in wanted] + items
        source = args.source.resolve()
        runner = Runner(source, args.timeout, args.memory_limit)
        imported = runner.imported_from()
        if not imported.startswith(str(source) + os.sep):
            print(f"python -m axiometer would not run {source}: axiometer is imported from {imported}",
                  file=sys.stderr)
            return 2
        commit = subprocess.run(["git", "-C", str(source), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip() or "?"
        memory = f"RLIMIT_AS {args.memory_limit:g} GB" if args.memory_limit else "no RLIMIT_AS"
        print(f"source {source} (commit {commit}): axiometer imported from {imported}")
        print(f"{machine()}; cwd {ROOT}; timeout {args.timeout:g} s; {memory}", flush=True)
        results: dict[str, Result] = {}
        for item in items:
            status, seconds, stdout, stderr, left = runner.run(item)
            results[item.id] = describe(item, status, seconds, stdout, stderr, left, args.timeout, results,
                                        directory)
            r = results[item.id]
            print(f"  {item.id:24} exit {r.exit:>7} {r.seconds:6.1f} s  {r.outcome}", file=sys.stderr, flush=True)
    print()
    print(table(list(results.values()), args.format))
    if args.save:
        args.save.write_text(json.dumps({"source": str(source), "commit": commit, "machine": machine(),
                                         "memory": memory, "timeout": args.timeout,
                                         "results": [asdict(r) for r in results.values()]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
