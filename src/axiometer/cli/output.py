"""Writing a report and failing: what every command shares.

Writing a report to stdout or ``-o FILE`` (:func:`write`), the width and the
details of a text report (:func:`text_width`, :func:`report_layout`), and
the exit statuses with the one-line failure (:func:`fail`).
"""

from __future__ import annotations

import argparse
import sys

from axiometer.outputs import write_atomically

__all__ = ["EXIT_ERROR", "EXIT_INTERRUPTED", "write", "fail", "text_width", "report_layout"]

#: Exit status of a usage or input error (argparse's convention).
EXIT_ERROR = 2

#: The exit status of a run stopped by Ctrl-C (128 + SIGINT), also when a partial table is printed.
EXIT_INTERRUPTED = 130


def write(report: str, output: str | None) -> None:
    """Write ``report`` to the file ``output`` (``-o FILE``; whole or not at all, the previous file kept
    on failure: :func:`~axiometer.outputs.write_atomically`) and say so on stdout, as ``plot`` does
    (``wrote r.html (1,234,567 bytes)``: a silent success looked like nothing happened); or
    write it to stdout when no file is given."""
    if output:
        written = write_atomically(output, report)
        print(f"wrote {output} ({written:,} bytes)")
    else:
        sys.stdout.write(report)


def fail(message: str) -> int:
    """Print ``axiometer: error: <message>`` as one line on stderr; returns :data:`EXIT_ERROR`."""
    one_line = " ".join(message.split())
    print(f"axiometer: error: {one_line}", file=sys.stderr)
    return EXIT_ERROR


def text_width(args: argparse.Namespace) -> int:
    """The width a text report's lines fit: the terminal's for stdout (``COLUMNS`` first),
    :data:`~axiometer.reports.numbers.DEFAULT_WIDTH` columns for ``-o FILE`` or a pipe."""
    from axiometer.reports.numbers import DEFAULT_WIDTH, terminal_width

    return DEFAULT_WIDTH if getattr(args, "output", None) else terminal_width()


def report_layout(args: argparse.Namespace) -> tuple[bool, int]:
    """Whether a table or check report prints its details (``--details``, or ``-o FILE``: a file
    holds the full report) and the width its lines fit (:func:`text_width`)."""
    return bool(args.details or args.output), text_width(args)
