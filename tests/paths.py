"""Where the repository is, for test modules at any depth below ``tests/``; the data the tests read
from outside it (the official suite, the corpus, the catalog history) lies in ``shared/`` beside it."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
