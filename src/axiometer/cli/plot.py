"""``axiometer plot``: the report's pictures as files (SVG or PNG, by the suffix of ``-o``).

- ``axiometer plot threshold SPEC -o curve.svg``: DeepTh and CloseTh on one
  metric setting, run through the engine (:func:`axiometer.checking.check`),
  drawn from their ``D(n)`` curves (:func:`axiometer.reports.plots.threshold_curves`).
- ``axiometer plot region SPEC CONSTRAINT --param p=0.5,0.6,0.7 -o strip.svg``:
  one cell of the table over a parameter grid (:func:`axiometer.runner.run_table`),
  drawn as a strip (one varying parameter) or a grid (two)
  (:func:`axiometer.reports.plots.verdict_region`).
- ``axiometer plot boundaries SPEC CONSTRAINT -o curve.png``: the same cell
  run with its boundaries located (as ``table --boundaries``; a range
  ``--param p=0.5..0.99`` limits one), drawn as the boundary curve of a
  two-parameter cell, else as the verdict along each parameter with its
  boundaries marked (:func:`axiometer.reports.plots.boundary_region`).

``-o FILE`` is required: the picture goes to a file whose suffix (``.svg``
or ``.png``) chooses the format, checked before any check runs. Bad input
(an unknown metric, constraint or parameter, a suffix) is one error line
and exit status 2, as everywhere in the CLI.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from axiometer.cli.output import EXIT_INTERRUPTED

from axiometer.cli.params import param_options

from axiometer.cli.run_options import JOBS_PER_CORE, jobs_count, run_checks
from axiometer.core import InputError

__all__ = ["add_parser", "run_threshold", "run_region", "run_boundaries"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Declare ``plot`` with its three pictures, ``threshold``, ``region`` and ``boundaries``."""
    parser = subparsers.add_parser(
        "plot", help="draw a picture: the DeepTh/CloseTh curve, a cell's verdicts over a parameter grid, "
                     "or where they change",
        description="Draw one of the report's pictures to a file; -o FILE is required and its suffix, "
                    ".svg or .png, chooses the format.")
    pictures = parser.add_subparsers(title="pictures", metavar="PICTURE")
    pictures.required = True

    threshold = pictures.add_parser(
        "threshold", help="D(n) = Q(a_n) - Q(b_n) against n for DeepTh and CloseTh",
        description="Check DeepTh and CloseTh on one metric setting and draw D(n) = Q(a_n) - Q(b_n) "
                    "against n (log scale), one line per rc, with the sign changes and the witness or "
                    "the counterexample marked (a_n: one relevant document then 2n-1 non-relevant; "
                    "b_n: n non-relevant then n relevant; definitions §3.5).")
    threshold.add_argument("spec", metavar="SPEC",
                           help="a metric at one setting: 'RBP(p=0.8)', 'nDCG@10', 'mymodule:my_metric'")
    _output_options(threshold)
    threshold.set_defaults(command=run_threshold, parser=threshold)

    region = pictures.add_parser(
        "region", help="one constraint's verdict at every setting of a parameter grid",
        description="Check one constraint on a metric at every setting of its parameter grid and draw "
                    "one box per setting coloured and marked by verdict: a strip for one varying "
                    "parameter, a grid for two. Without --param the metric's default grid is used.")
    _cell_options(region, "NAME=V1,V2,...", "a parameter's grid (or one value, to fix it); repeat for a "
                                            "second parameter (a grid of boxes)")
    region.set_defaults(command=run_region, parser=region)

    boundaries = pictures.add_parser(
        "boundaries", help="where one constraint's verdict changes along the metric's parameters",
        description="Check one constraint on a metric over its parameter grid with the boundaries "
                    "located (as table --boundaries: bisection to 1e-6, a closed form where sympy finds "
                    "one) and draw them: for two varying parameters, the boundary of the first at each "
                    "value of the second, the regions shaded by verdict; for one, the verdict along it "
                    "with each boundary marked and its closed form under it. The grid's checks are "
                    "drawn with their marks. Every numeric parameter that neither SPEC nor --param "
                    "fixes is searched, over its declared range or the range --param gives it "
                    "(p=0.5..0.99).")
    _cell_options(boundaries, "NAME=LOW..HIGH|V1,V2,...", "a parameter's range (p=0.5..0.99: the "
                  "boundaries inside it), grid or one value (to fix it); repeat for a second parameter")
    boundaries.set_defaults(command=run_boundaries, parser=boundaries)


def _cell_options(parser: argparse.ArgumentParser, param_metavar: str, param_help: str) -> None:
    """SPEC, CONSTRAINT, --param, --jobs and --executor: one cell of the table (``region``, ``boundaries``)."""
    parser.add_argument("spec", metavar="SPEC", help="a metric family or spec: 'RBP', 'RBU@10'")
    parser.add_argument("constraint", metavar="CONSTRAINT",
                        help="a constraint or property id: Pri, CloseTh, Sat, PriorMono, ...")
    parser.add_argument("--param", metavar=param_metavar, action="append", default=[], help=param_help)
    parser.add_argument("--jobs", type=jobs_count, default=None, metavar="N",
                        help=f"worker processes (default: all cores; 1 runs in this process; at most "
                             f"{JOBS_PER_CORE} per core)")
    parser.add_argument("--executor", metavar="URL", default=None,
                        help="run the cell's checks on a Dask cluster: dask://HOST:PORT "
                             "(docs/distributed.md)")
    _output_options(parser)


def _output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", metavar="FILE", required=True,
                        help="the picture's file (required): FILE.svg or FILE.png")
    parser.add_argument("--seed", type=int, default=0, metavar="N",
                        help="the seed every check's random search derives from (default: 0)")
    parser.add_argument("--mode", choices=("window", "truncate"), default=None,
                        help="cutoff mode (default: the constraint's own: truncate for DeepTh/CloseTh, "
                             "window otherwise)")


def _picture_path(output: str) -> Path:
    """``-o``'s path, with its suffix checked before anything runs."""
    from axiometer.reports.plots import PICTURE_FORMATS

    path = Path(output)
    if path.suffix.lower() not in PICTURE_FORMATS:
        problem = f"unknown picture format {path.suffix!r}" if path.suffix else "no suffix to choose the format"
        raise InputError(f"{problem}; use {' or '.join(PICTURE_FORMATS)}", source=output)
    return path


def run_threshold(args: argparse.Namespace) -> int:
    """Check DeepTh and CloseTh on ``SPEC`` and draw both curves; returns the exit status."""
    path = _picture_path(args.output)
    from axiometer.axioms import get
    from axiometer.checking import check
    from axiometer.metrics.resolve import resolve
    from axiometer.reports.plots import save, threshold_curves

    metric = resolve(args.spec).ranking_metric()
    checks = [check(metric, get(cid), mode=args.mode, seed=args.seed) for cid in ("DeepTh", "CloseTh")]
    drawable = [c for c in checks if c.curve]
    if not drawable:  # both n/a or error: there is no D(n) to draw
        reasons = "; ".join(f"{c.constraint}: {c.verdict}" + (f" ({c.note})" if c.note else "")
                            + (f" ({c.error.message})" if c.error else "") for c in checks)
        raise InputError(f"no D(n) curve to draw for {metric.name}: {reasons}", source=args.spec)
    save(threshold_curves(drawable), path)
    verdicts = ", ".join(f"{c.constraint} {c.verdict}" + (f" ({c.witness.value})" if c.witness else "")
                         for c in checks)
    print(f"wrote {path}: {metric.name}: {verdicts}")
    return 0


def _run_cell(args: argparse.Namespace, boundaries: bool):
    """One cell of the table, SPEC x CONSTRAINT over the grid ``--param`` gives (the table's own run,
    progress bar included); ``boundaries`` locates where its verdict changes."""
    from axiometer.axioms import get
    from axiometer.metrics.resolve import resolve

    try:
        constraint = get(args.constraint)
    except KeyError as error:
        raise InputError(str(error.args[0]), source="CONSTRAINT") from None
    resolved = resolve(args.spec, params=param_options(args.param))
    # The grid is exactly the one given (plus the metric's default setting, which the cell's
    # verdict is read at).
    args.constraints, args.quick, args.boundaries = [constraint.id], False, boundaries
    return run_checks(args, [resolved])


def run_region(args: argparse.Namespace) -> int:
    """Check one constraint over the metric's grid and draw the strip or grid; returns the exit status."""
    path = _picture_path(args.output)
    from axiometer.reports.plots import save, verdict_region

    result = _run_cell(args, boundaries=False)
    cell = result.cells[0]
    varying = {name for check in cell.checks for name, _ in check.params
               if len({repr(dict(c.params).get(name)) for c in cell.checks}) > 1}
    if not 1 <= len(varying) <= 2:
        hint = ("give a parameter several values: --param NAME=V1,V2,..." if not varying else
                f"fix all but one or two of {', '.join(sorted(varying))} with --param NAME=VALUE")
        raise InputError(f"{cell.row} × {cell.constraint}: {len(varying)} parameters vary; a picture "
                         f"draws one or two ({hint})", source=args.spec)
    save(verdict_region(cell), path)
    print(f"wrote {path}: {cell.row} × {cell.constraint}: {cell.summary}")
    return EXIT_INTERRUPTED if result.interrupted else 0


def run_boundaries(args: argparse.Namespace) -> int:
    """Check one constraint with its boundaries located and draw them; returns the exit status."""
    path = _picture_path(args.output)
    from axiometer.reports.numbers import number
    from axiometer.reports.plots import boundary_region, save

    result = _run_cell(args, boundaries=True)
    cell = result.cells[0]
    if not (cell.boundaries or cell.curves):
        if len({c.verdict for c in cell.checks}) <= 1:
            why = (f"the verdict is {cell.summary} at every setting checked (a boundary is located between "
                   "settings whose verdicts differ: try a finer grid or a wider range with --param)")
        else:
            why = f"the verdicts differ ({cell.summary}) but no numeric parameter's boundary was located"
        raise InputError(f"{cell.row} × {cell.constraint}: no boundary to draw: {why}", source=args.spec)
    save(boundary_region(cell), path)
    found = [f"{b.param} = {number(b.value)} ({b.below} below, {b.above} above)" for b in cell.boundaries]
    found += [f"the boundary of {c.param} at {sum(1 for _, bs in c.points if bs)} of {len(c.points)} values "
              f"of {c.over}" for c in cell.curves]
    print(f"wrote {path}: {cell.row} × {cell.constraint}: {'; '.join(found)}")
    return EXIT_INTERRUPTED if result.interrupted else 0
