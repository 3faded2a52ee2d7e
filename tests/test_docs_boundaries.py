"""docs/boundaries-sigir2018.md, which `axiometer table --boundaries --format markdown` generates, lists
a boundary for every parameter-dependent (~) cell of its own matrix, and docs/boundaries.md gives the
command that regenerates it."""

from __future__ import annotations

import re
from pathlib import Path

from axiometer.reports.table.build import SHORT_IDS

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_every_parameter_dependent_cell_has_its_boundaries_listed():
    text = (DOCS / "boundaries-sigir2018.md").read_text(encoding="utf-8")
    header, *rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    full = {short: constraint for constraint, short in SHORT_IDS.items()}  # the matrix's short headers
    columns = [full.get(c.strip(), c.strip()) for c in header.strip("|").split("|")]
    dependent = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        dependent += [f"{cells[0]} × {column}" for column, mark in zip(columns[1:], cells[1:]) if "~" in mark]
    assert len(dependent) >= 8
    section = text[text.index("### Boundaries"):]
    listed = set(re.findall(r"^- (.+? × \w+):", section, re.M))
    assert set(dependent) <= listed, set(dependent) - listed
    assert "disagrees" not in section


def test_the_page_gives_the_command_that_regenerates_the_list():
    page = (DOCS / "boundaries.md").read_text(encoding="utf-8")
    assert "axiometer table --boundaries --format markdown > docs/boundaries-sigir2018.md" in page
