"""Pictures of results, drawn with matplotlib: one function per picture, each returning a ``Figure``.

- :func:`threshold_curve` (one DeepTh or CloseTh check) and
  :func:`threshold_curves` (several): ``D(n) = Q(a_n) - Q(b_n)`` against
  ``n`` on a log scale, one line per ``rc``, with the zero line, the sign
  changes, the witness or the counterexample's ``n``, and a strip per
  ``rc`` of where the constraint holds (DeepTh asks ``D > 0``, CloseTh
  ``D < 0``), marked with the sign of ``D``; checks with the same curve
  (:func:`same_curve`: DeepTh's and CloseTh's of one setting) share a panel
  (definitions §3.5; ``Check.curve``; :mod:`.threshold`).
- :func:`verdict_strip` (one varying parameter), :func:`verdict_grid` (two)
  and :func:`verdict_region` (whichever fits): a cell's checks over its
  parameter grid, one box per setting coloured by verdict, with the
  verdict's mark in the box (the text report's marks; :mod:`.verdicts`).
- :func:`boundary_strip`, :func:`boundary_curve` and :func:`boundary_region`:
  where a cell's verdict changes along one parameter, or the boundary of one
  parameter over another (:mod:`.boundaries`).
- :func:`attained_values`: an intrinsic classification's distinct values on
  a number line, each a stem as tall as the number of outputs sharing it
  (ties), the gaps between neighbours coloured equal or unequal (definitions
  §4; :mod:`.attained`).
- :func:`relative_scatter`: per run, a relative metric's mean against its
  base metric's mean, labelled by run (as in the NRG paper's figures;
  :mod:`.scatter`).
- :func:`tau_curve_figure`: Kendall's tau against a swept parameter
  (Türkmen et al., Fig. 2; :mod:`.tau`).

:func:`to_svg` turns a figure into an inline ``<svg>`` element (no XML
prolog, ids made unique, no external reference; a page's picture writes
its text as text, a file's draws its glyphs as paths from matplotlib's
bundled DejaVu Sans), :func:`save` writes ``.svg`` or ``.png`` (:mod:`.svg`,
the one writer). What every picture shares, the style and the verdicts'
marks, is :mod:`.style`; the colours, one meaning each and the same as the
pages' style sheet, are :mod:`axiometer.reports.palette`. matplotlib is
imported on the first picture only, and figures are drawn on their own Agg
canvas: pyplot and the process-wide backend are never touched. Like every
report, this package reads result objects only.
"""

from axiometer.reports.plots.attained import attained_values
from axiometer.reports.plots.boundaries import boundary_caption, boundary_curve, boundary_region, boundary_strip
from axiometer.reports.plots.scatter import relative_scatter
from axiometer.reports.plots.style import VERDICT_STYLE
from axiometer.reports.plots.svg import PICTURE_FORMATS, save, to_svg
from axiometer.reports.plots.tau import TAU_THRESHOLD, tau_curve_figure
from axiometer.reports.plots.threshold import same_curve, threshold_curve, threshold_curves
from axiometer.reports.plots.verdicts import verdict_grid, verdict_region, verdict_strip

__all__ = ["threshold_curve", "threshold_curves", "same_curve", "verdict_strip", "verdict_grid", "verdict_region",
           "boundary_strip", "boundary_curve", "boundary_region", "boundary_caption",
           "attained_values", "relative_scatter", "to_svg", "save", "VERDICT_STYLE", "PICTURE_FORMATS",
           "tau_curve_figure", "TAU_THRESHOLD"]
