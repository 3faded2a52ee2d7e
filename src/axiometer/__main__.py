"""``python -m axiometer``: the same command line as the ``axiometer`` script."""

import sys

from axiometer.cli import main

if __name__ == "__main__":
    sys.exit(main())
