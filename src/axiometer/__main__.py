"""``python -m axiometer``: the same command line as the ``axiometer`` script.

``python -m`` puts the working directory first on ``sys.path`` (unless ``-P``), so a
``hypothesis.py`` or ``numpy.py`` there would replace axiometer's own dependencies. The entry is
dropped before anything else is imported: a metric module in the working directory is still found
(``module:function`` looks there after the installed packages; docs/cli.md), as with the
``axiometer`` script, which never had it.
"""

import os
import sys

if sys.path and not getattr(sys.flags, "safe_path", False) and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from axiometer.cli import main  # noqa: E402 - after the working directory left sys.path

if __name__ == "__main__":
    sys.exit(main())
