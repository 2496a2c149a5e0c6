"""``python -m toolreg``: the command line, the same as the ``toolreg`` script."""

import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
