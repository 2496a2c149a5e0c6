"""A compiled pattern (:class:`Pattern`), and the patterns of one schema or registry compiled within
one allowance (:class:`Patterns`): RE2 where it can express the pattern, the bounded backtracking
engine where the caller allows it and the tree shows it bounded, and a refusal that says why
otherwise."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from .backtracking import backtracking_refusal, regress_search
from .costs import BACKTRACKING_SIZE, PLACE_SIZE, SMALL_PROGRAM, UnsupportedPattern
from .python_engine import python_source
from .re2_engine import (
    MAX_PROGRAM,
    MAX_TRANSLATION,
    PROPERTY_COST,
    TOO_LARGE_COST,
    PastRoom,
    TooLarge,
    Untranslatable,
    places,
    re2_search,
)
from .syntax import RegexSyntaxError, parse

__all__ = ["Pattern", "Patterns", "is_regex"]


def is_regex(text: str) -> bool:
    """Whether ``text`` is an ECMA-262 regular expression (format ``regex``): its syntax alone."""
    try:
        parse(text)
    except RegexSyntaxError:
        return False
    return True


class Pattern:
    """A compiled pattern that answers one question: ``search(text)``, does it match anywhere?

    ``backtracking`` is None when RE2 runs it; otherwise it names what RE2 cannot express (``a
    look-behind at position 3``), and ``regress`` runs it within the bound its tree shows. ``size``
    is what a search costs at each character, in instructions (see :func:`search_steps`); ``cost``
    what compiling it cost, in instructions' worth (see :class:`Patterns`). Given ``room``, RE2 stops
    building a program of more instructions than about that many, at a cost in ``room``.
    Raises RegexSyntaxError for a source that is not ECMA-262, UnsupportedPattern for one that
    toolreg cannot run within its bounds.
    """

    __slots__ = ("source", "backtracking", "search", "program", "size", "cost")

    def __init__(self, source: str, room: int | None = None) -> None:
        self.source = source
        tree = parse(source)
        self.backtracking: str | None = None
        self.search: Callable[[str], bool]
        # The size of RE2's programs for it, in instructions (0 on the backtracking engine): what
        # compiling it cost, about half a microsecond and 10 bytes each (see MAX_PROGRAM).
        self.program = 0
        self.size = BACKTRACKING_SIZE
        # A small pattern costs regress little to compile.
        self.cost = len(source)
        try:
            self.search, self.program, properties = re2_search(
                tree, MAX_TRANSLATION + 128 * len(source), room
            )
            # Each bounds what a search costs at a character: the larger bound of a pattern of
            # Unicode sets is its program. (A small program is its own bound: its places go uncounted,
            # as RE2 writes 60,000 alternatives of single characters as one set.)
            small = self.program <= SMALL_PROGRAM
            self.size = max(1, self.program if small else min(self.program, PLACE_SIZE * places(tree)))
            self.cost = self.program + PROPERTY_COST * properties
            return
        except Untranslatable as untranslatable:
            self.backtracking = untranslatable.what
        refused = backtracking_refusal(source, tree)
        if refused is not None:
            raise UnsupportedPattern(
                f"it uses {self.backtracking}, which RE2 cannot express, and a backtracking engine could "
                f"not be bounded on it: {refused}; write it another way"
            )
        self.search = regress_search(tree)

    def python_search(self) -> Callable[[str], object] | None:
        """For the simplest patterns, Python's own ``search`` (a match or None), which means what
        ECMA-262 says on any text, and is given at most :data:`PYTHON_MAX_TEXT` characters; None for
        every other pattern. The generated code tests the length itself, sparing a call."""
        source = python_source(parse(self.source)) if self.backtracking is None else None
        return None if source is None else re.compile(source).search


class Patterns:
    """The patterns of one schema, or of every schema of one registry, each compiled once and kept,
    within one allowance of what compiling them may cost, in instructions of RE2's programs
    (``Limits.max_pattern_program``): each pattern's :attr:`Pattern.cost`, and for one RE2 gave up
    on as too large, what it built first. The pattern that passes the allowance is refused, and so
    is every new one after it, without being compiled: a catalog of thousands of costly patterns
    costs what the allowance does, once. A refusal is kept with its reason."""

    __slots__ = ("allowance", "spent", "_found")

    def __init__(self, allowance: int) -> None:
        self.allowance = allowance
        self.spent = 0
        self._found: dict[str, tuple[Pattern, str | None] | str] = {}

    @classmethod
    def holding(cls, patterns: Mapping[str, Pattern], allowance: int) -> Patterns:
        """A cache that holds ``patterns``, compiled already, with what they cost spent."""
        held = cls(allowance)
        held._found = {source: (pattern, pattern.backtracking) for source, pattern in patterns.items()}
        held.spent = sum(pattern.cost for pattern in patterns.values())
        return held

    def guarded(self, source: str, room: int | None = None) -> tuple[Pattern, str | None]:
        """The compiled pattern and, if only a backtracking engine can run it, what needs one (None
        when RE2 runs it); RegexSyntaxError or UnsupportedPattern. A new pattern is built within
        ``room`` instructions too, what its schema has left of :data:`MAX_PROGRAM`: a pattern past
        that is refused for that schema alone. (Two threads may both compile a new pattern, each
        spending; equal results, one kept.)"""
        found = self._found.get(source)
        if found is None:
            found = self._compiled(source, room)
        if type(found) is str:
            raise UnsupportedPattern(found)
        return found  # type: ignore[return-value]

    def _compiled(self, source: str, room: int | None) -> tuple[Pattern, str | None] | str:
        """The pattern compiled within the allowance, or why it is refused, each kept but a refusal
        for one schema's room; RegexSyntaxError (not kept: reading a pattern costs time in its
        length only)."""
        before = self.spent
        left = self.allowance - before
        if left <= 0:
            refused = (
                f"the patterns compiled before it spent the {self.allowance} instructions of RE2 "
                "programs that the patterns of one registry (or of one schema compiled alone) may cost "
                "together (Limits.max_pattern_program); raise it, or write fewer or smaller patterns"
            )
        elif room is not None and room <= left:
            try:
                found = self._within(source, room)
            except PastRoom:
                self.spent += room  # what it built first
                return (
                    "with the patterns before it, RE2's programs for this schema would hold more than "
                    f"the {MAX_PROGRAM} instructions one schema may; write fewer or smaller patterns"
                )
            self._found[source] = found
            return found
        else:
            try:
                found = self._within(source, left)
            except PastRoom:
                self.spent = self.allowance  # what it built first
                refused = (
                    f"the patterns compiled before it cost {before} of the {self.allowance} instructions "
                    "of RE2 programs that the patterns of one registry (or of one schema compiled "
                    "alone) may cost together (Limits.max_pattern_program), and RE2's program for it "
                    "would pass them; raise it, or write fewer or smaller patterns"
                )
            else:
                self._found[source] = found
                return found
        self._found[source] = refused
        return refused

    def _within(self, source: str, room: int) -> tuple[Pattern, str | None] | str:
        """The pattern built within ``room`` and spent from the allowance, or why it is refused;
        PastRoom."""
        before = self.spent
        try:
            pattern = Pattern(source, room)
        except PastRoom:
            raise
        except TooLarge as refused:
            self.spent += min(room, TOO_LARGE_COST)
            return str(refused)
        except UnsupportedPattern as refused:
            return str(refused)
        self.spent += pattern.cost
        if self.spent > self.allowance:
            return (
                f"it costs {pattern.cost} instructions of RE2 program, and the patterns compiled before "
                f"it {before}, past the {self.allowance} that the patterns of one registry (or of one "
                "schema compiled alone) may cost together (Limits.max_pattern_program); raise it, or "
                "write fewer or smaller patterns"
            )
        return pattern, pattern.backtracking
