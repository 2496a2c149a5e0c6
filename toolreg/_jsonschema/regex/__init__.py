"""ECMA-262 regular expressions, as JSON Schema's ``pattern`` and ``format: regex`` ask for them, in
time linear in the text: the pattern engine, which knows nothing else of JSON Schema.

- :mod:`.syntax` reads a pattern into a tree, the one judge of what is a pattern, with the Unicode
  property names of :mod:`.properties` and the emoji data of :mod:`.emoji` (generated);
- :mod:`.re2_engine` translates the tree into RE2's syntax with ECMA-262's meaning spelled out, and
  RE2 searches: most patterns run there;
- :mod:`.backtracking` runs what RE2 cannot express on ``regress``, only where the caller allows it
  and the tree shows each place of the string bounded;
- :mod:`.python_engine` writes the simplest patterns for Python's engine, which the generated code
  calls on short text;
- :mod:`.costs` says what a search costs in the work budget;
- :mod:`.pattern` puts them together: :class:`Pattern` compiles one, :class:`Patterns` the patterns
  of a schema or registry within one allowance;
- :mod:`.difference` finds the shortest text one pattern matches and another does not, for comparing
  catalogs (imported where it is used).
"""

from __future__ import annotations

from .backtracking import MAX_STEPS, MAX_STEPS_AT_START, backtracking_cost, steps_at_each_place
from .costs import (
    SEARCH_STEP,
    UNCOUNTED_STEPS,
    CostlySearch,
    UnsupportedPattern,
    search_steps,
    uncounted_length,
)
from .pattern import Pattern, Patterns, is_regex
from .python_engine import PYTHON_MAX_TEXT
from .re2_engine import MAX_PROGRAM, to_re2
from .syntax import RegexSyntaxError

__all__ = [
    "Pattern",
    "Patterns",
    "RegexSyntaxError",
    "UnsupportedPattern",
    "CostlySearch",
    "is_regex",
    "to_re2",
    "backtracking_cost",
    "steps_at_each_place",
    "MAX_STEPS",
    "MAX_STEPS_AT_START",
    "MAX_PROGRAM",
    "PYTHON_MAX_TEXT",
    "SEARCH_STEP",
    "UNCOUNTED_STEPS",
    "search_steps",
    "uncounted_length",
]
