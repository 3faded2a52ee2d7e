"""The reports' colours: one colour-blind-safe palette, one meaning per colour.

The colours are Okabe and Ito's (2008), which stay apart under the common
colour-vision deficiencies. A colour says one thing wherever it is drawn: the
HTML pages' style sheet (:mod:`axiometer.reports.render.html`, the matrix cells,
badges and legends) and every picture (:mod:`axiometer.reports.plots`: the
verdict strips and grids, the boundary pictures, the threshold curves) read
them here, so a violated cell in the matrix, a violated box in a strip and a
point of a curve where the constraint fails are one colour.

- :data:`HOLDS`: the constraint holds (satisfied ``✓`` or a witness ``W``:
  the mark tells which), or holds at that point of a curve;
- :data:`FAILS`: violated (a counterexample), or fails at that point;
- :data:`ERROR`: the metric misbehaved;
- :data:`NOT_APPLICABLE` and :data:`NOT_RUN`: no verdict.

Colours that carry no verdict (one line per ``rc``, a run's points, a tie)
come from :data:`SERIES`, which holds none of the verdicts' colours.
"""

from __future__ import annotations

from dataclasses import dataclass

from axiometer.results import Verdict

__all__ = ["verdict_class", "Swatch", "HOLDS", "FAILS", "ERROR", "NOT_APPLICABLE", "NOT_RUN", "VERDICT_SWATCH", "SWATCHES",
           "SERIES", "GRID", "MUTED"]


@dataclass(frozen=True)
class Swatch:
    """One meaning's colour: ``fill`` (a cell, a box, a strip's run, a mark on a curve), ``ink`` (a
    mark drawn on ``fill``, chosen for contrast), the style sheet's class ``name``, the colour's
    ``colour`` name (as a caption says it) and what it means, as a legend says it."""

    name: str
    fill: str
    ink: str
    colour: str
    meaning: str


HOLDS = Swatch("holds", "#0072B2", "#FFFFFF", "blue", "holds: satisfied (✓) or a witness found (W)")
FAILS = Swatch("fails", "#D55E00", "#000000", "vermillion", "fails: violated, a counterexample found (✗)")
ERROR = Swatch("error", "#CC79A7", "#000000", "reddish purple", "error: the metric misbehaved (E)")
NOT_APPLICABLE = Swatch("na", "#DDDDDD", "#000000", "grey", "not applicable (n/a)")
NOT_RUN = Swatch("not-run", "#FFFFFF", "#000000", "white", "not run: interrupted (–)")

#: Every swatch, in legend order.
SWATCHES = (HOLDS, FAILS, ERROR, NOT_APPLICABLE, NOT_RUN)

#: Each verdict's swatch: satisfied and witness both hold (their marks differ, not their colour).
VERDICT_SWATCH: dict[Verdict, Swatch] = {
    Verdict.SATISFIED: HOLDS, Verdict.WITNESS: HOLDS, Verdict.VIOLATED: FAILS, Verdict.ERROR: ERROR,
    Verdict.NA: NOT_APPLICABLE, Verdict.NOT_RUN: NOT_RUN,
}

#: Colours with no verdict's meaning (black, then Okabe-Ito's orange, sky blue, bluish green): lines
#: and points that only need telling apart, each also told apart by its dashes or marker.
SERIES = ("#000000", "#E69F00", "#56B4E9", "#009E73")
#: Grid lines, and text that says less (a muted caption, a dotted outline).
GRID = "#DDDDDD"
MUTED = "#6B6F76"


def verdict_class(verdict: Verdict) -> str:
    """A verdict's class in the pages' style sheet: the verdict itself, ``na`` and ``not-run`` for
    the two a class cannot spell (a class holds no ``/`` or space)."""
    return {Verdict.NA: "na", Verdict.NOT_RUN: "not-run"}.get(verdict, str(verdict))
