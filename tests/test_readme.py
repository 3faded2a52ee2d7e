"""The README's Python guide runs and prints what it says it prints."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_metric_author_guide_runs_as_written():
    text = README.read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 2
    namespace: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], "README.md", "exec"), namespace)
    first = out.getvalue().splitlines()[0]
    assert first == re.search(r"# (DHits\S* \S+)", blocks[0]).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[1], "README.md", "exec"), namespace)
    promised = re.search(r"# DHits: (.*), with the evidence", blocks[1]).group(1)
    marks = dict(part.split(" ") for part in promised.split(", "))
    row = next(line.split() for line in out.getvalue().splitlines() if line.startswith("DHits "))
    assert dict(zip(["Pri", "Deep", "DeepTh", "CloseTh", "Conf"], row[1:])) == marks
