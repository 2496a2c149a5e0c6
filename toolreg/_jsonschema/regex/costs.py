"""What a search costs in the work budget (``Limits.max_work``), and the two exceptions for a pattern or
a search past what toolreg allows."""

from __future__ import annotations

__all__ = [
    "UnsupportedPattern",
    "CostlySearch",
    "SEARCH_STEP",
    "UNCOUNTED_STEPS",
    "BACKTRACKING_SIZE",
    "PLACE_SIZE",
    "SMALL_PROGRAM",
    "search_steps",
    "uncounted_length",
]


class UnsupportedPattern(ValueError):
    """A valid ECMA-262 pattern that toolreg cannot run within its bounds; the message says why."""


class CostlySearch(Exception):
    """A search (or a format's test) of a text long enough to cost more steps of the work budget
    than code that counts none may take (see :data:`UNCOUNTED_STEPS`): the reference walk, which
    counts them, must answer."""


# -- what a search costs ------------------------------------------------------------------------

# A search costs steps of the work budget (``Limits.max_work``) in proportion to its text's length
# times the size of what runs it, in instructions: RE2's time is linear in the text, but where it
# cannot keep its states (x\w{30}y on a string of x's and a's) it pays up to about 20 ns for each
# instruction at each character. One step is this many instructions by characters (40 µs at worst),
# so a search of a short text costs none, and the budget's 10,000 steps cover 0.4 s of searching.
SEARCH_STEP = 2048
# The most steps one search may cost where the code running it counts none: the work bound (see
# ``fast.work``) takes each pattern applied to a value as spending this many, and the fast path and a
# registry's first calls hand a longer text to the reference walk, which counts.
UNCOUNTED_STEPS = 8
# What the backtracking engine costs a character, in instructions' worth: at most MAX_STEPS steps at
# each place of the string, 3.8 µs a character at worst.
BACKTRACKING_SIZE = 256
# What one place of a pattern (a character, a set, an assertion; see _positions) costs at a
# character at most, in instructions' worth: RE2 follows each set as a tree of byte ranges, of which
# few hold at once (\p{L} is 1,200 instructions, and x\p{L}{200}y took 74 ns a place and a
# character; x(?:\p{L}|\p{M}){200}y 93 ns, the most measured).
PLACE_SIZE = 6
# Up to this many instructions a program is taken as its own size.
SMALL_PROGRAM = 64


def search_steps(length: int, size: int) -> int:
    """The steps of the work budget a search of a text of ``length`` characters costs, with a
    program of ``size`` instructions (``Pattern.size``)."""
    return length * size // SEARCH_STEP


def uncounted_length(size: int) -> int:
    """The longest text a program of ``size`` instructions searches within :data:`UNCOUNTED_STEPS`."""
    return ((UNCOUNTED_STEPS + 1) * SEARCH_STEP - 1) // size
