"""docs/relative.md's Python example runs and prints what it says (the NRG example of definitions §6)."""

import contextlib
import io
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "relative.md"


def test_relative_docs_example_prints_what_it_promises():
    block = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block, str(DOC), "exec"), {})
    printed = out.getvalue().splitlines()
    promised = re.findall(r"# (\S+)$", block, re.M)
    assert len(printed) == len(promised) == 2
    for value, promise in zip(printed, promised):
        assert value.startswith(promise.rstrip(".")), (value, promise)
