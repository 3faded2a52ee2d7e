"""The README's Python guide runs and prints what it says it prints."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_metric_author_guide_runs_as_written():
    text = README.read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, "README.md", "exec"), {})
    first = out.getvalue().splitlines()[0]
    promised = re.search(r"# (DHits\S* \S+)", block).group(1)
    assert first == promised
