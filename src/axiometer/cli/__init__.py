"""The ``axiometer`` command line.

Each command is a module of this package (``score``, ``table``, ``check``,
``intrinsic``, ``unanimity``, ``axioms``, ``metrics``, ``plot``, ``meta``,
``compare``, ``agree``, ``audit``) with two functions: ``add_parser(subparsers)`` declares its
options and ``run(args)`` runs it, returning the exit status.
What several commands share lives in a module named by what it holds:
:mod:`~axiometer.cli.output` (writing a report, failing),
:mod:`~axiometer.cli.run_options` (``table`` and ``check``),
:mod:`~axiometer.cli.params` (``--param``) and
:mod:`~axiometer.cli.campaign_options` (the campaign commands' input). A new
command registers in :data:`_COMMANDS`.

Every :class:`~axiometer.core.AxiometerError` (a bad spec string, a bad file
line, a duplicate document) ends the program with one line on stderr,
``axiometer: error: <where>: <problem>``, and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from axiometer import __version__
from axiometer.cli import (
    agree, audit, axioms, check, compare, intrinsic, meta, metrics, plot, score, table, unanimity,
)
from axiometer.cli.output import EXIT_ERROR, EXIT_INTERRUPTED, fail
from axiometer.core import AxiometerError
from axiometer.outputs import check_writable
from axiometer.progress import Progress

__all__ = ["main", "Progress", "EXIT_ERROR", "EXIT_INTERRUPTED"]

#: Every command's ``add_parser``, in the order ``axiometer --help`` lists them.
_COMMANDS: tuple[Callable[[argparse._SubParsersAction], None], ...] = (
    score.add_parser, table.add_parser, check.add_parser, intrinsic.add_parser, unanimity.add_parser,
    axioms.add_parser, metrics.add_parser, plot.add_parser, meta.add_parser, compare.add_parser,
    agree.add_parser, audit.add_parser)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="axiometer",
        description="Check information-retrieval evaluation metrics against formal axioms.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for add in _COMMANDS:
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "command"):
        parser.print_help(sys.stderr)
        return EXIT_ERROR
    try:
        if getattr(args, "output", None):  # an unwritable -o FILE fails before the work, not after it
            check_writable(args.output)
        status: int = args.command(args)
        # Notes for a successful run only (where --example's files are), so that a failed run's
        # stderr is its one error line.
        for note in getattr(args, "closing_notes", []) if status == 0 else []:
            print(note, file=sys.stderr)
        return status
    except AxiometerError as error:
        return fail(str(error))
    except OSError as error:  # writing -o FILE, reading an unreadable example
        where = f"{error.filename}: " if error.filename else ""
        return fail(f"{where}{error.strerror or error}")
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
