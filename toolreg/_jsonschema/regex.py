"""ECMA-262 regular expressions, as JSON Schema's ``pattern`` requires, run by RE2 in linear time.

:mod:`.regex_syntax` reads a pattern; this module translates its tree into RE2's syntax with
ECMA-262's meaning spelled out (every literal a code point, ``\\d`` ``[0-9]``, ``.`` without the four
line terminators, ``$`` the end of the text, ``\\p{…}`` as RE2's categories and scripts), and RE2
searches the string as code points: a lone surrogate, legal in JSON, is one code point to both. A
pattern that opens with ``^`` and look-aheads becomes one anchored RE2 search for each.

What RE2 cannot express (other look-arounds, back-references, properties RE2 does not know) is
refused, unless the caller allows a backtracking engine: then ``regress`` runs a pattern only when
its tree shows that each place of the string costs at most :data:`MAX_STEPS` steps (a pattern
anchored by ``^`` may spend :data:`MAX_STEPS_AT_START` at the start instead; see
:func:`backtracking_cost`), and nothing in it can make ``regress`` misbehave.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from typing import Any

import re2
import regress

from .emoji_properties import EMOJI_PROPERTIES
from .regex_syntax import (
    MAX_CODE_POINT,
    Assertion,
    BackReference,
    CharSet,
    Disjunction,
    Group,
    Literal,
    LookAround,
    Node,
    Property,
    RegexSyntaxError,
    Repeat,
    complement,
    parse,
)

__all__ = [
    "Pattern",
    "RegexSyntaxError",
    "UnsupportedPattern",
    "is_regex",
    "to_re2",
    "backtracking_cost",
    "steps_at_each_place",
    "MAX_STEPS",
    "MAX_STEPS_AT_START",
    "MAX_PROGRAM",
    "PYTHON_MAX_TEXT",
    "Patterns",
    "SEARCH_STEP",
    "UNCOUNTED_STEPS",
    "CostlySearch",
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
# ``work``) takes each pattern applied to a value as spending this many, and the fast path and a
# registry's first calls hand a longer text to the reference walk, which counts.
UNCOUNTED_STEPS = 8
# What the backtracking engine costs a character, in instructions' worth: at most MAX_STEPS steps at
# each place of the string, 3.8 µs a character at worst.
_BACKTRACKING_SIZE = 256
# What one place of a pattern (a character, a set, an assertion; see _positions) costs at a
# character at most, in instructions' worth: RE2 follows each set as a tree of byte ranges, of which
# few hold at once (\p{L} is 1,200 instructions, and x\p{L}{200}y took 74 ns a place and a
# character; x(?:\p{L}|\p{M}){200}y 93 ns, the most measured).
_PLACE_SIZE = 6
# Up to this many instructions a program is taken as its own size.
_SMALL_PROGRAM = 64


def search_steps(length: int, size: int) -> int:
    """The steps of the work budget a search of a text of ``length`` characters costs, with a
    program of ``size`` instructions (``Pattern.size``)."""
    return length * size // SEARCH_STEP


def uncounted_length(size: int) -> int:
    """The longest text a program of ``size`` instructions searches within :data:`UNCOUNTED_STEPS`."""
    return ((UNCOUNTED_STEPS + 1) * SEARCH_STEP - 1) // size


def is_regex(text: str) -> bool:
    """Whether ``text`` is an ECMA-262 regular expression (format ``regex``): its syntax alone."""
    try:
        parse(text)
    except RegexSyntaxError:
        return False
    return True


_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False
_RE2_OPTIONS.never_capture = True
_ANCHOR = re2._re2.RE2.Anchor


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
        self.size = _BACKTRACKING_SIZE
        # A small pattern costs regress little to compile.
        self.cost = len(source)
        try:
            self.search, self.program, properties = _re2_search(
                tree, _MAX_TRANSLATION + 128 * len(source), room
            )
            # Each bounds what a search costs at a character: the larger bound of a pattern of
            # Unicode sets is its program. (A small program is its own bound: its places go uncounted,
            # as RE2 writes 60,000 alternatives of single characters as one set.)
            small = self.program <= _SMALL_PROGRAM
            self.size = max(1, self.program if small else min(self.program, _PLACE_SIZE * _places(tree)))
            self.cost = self.program + _PROPERTY_COST * properties
            return
        except _Untranslatable as untranslatable:
            self.backtracking = untranslatable.what
        refused = _backtracking_refusal(source, tree)
        if refused is not None:
            raise UnsupportedPattern(
                f"it uses {self.backtracking}, which RE2 cannot express, and a backtracking engine could "
                f"not be bounded on it: {refused}; write it another way"
            )
        self.search = _regress_search(tree)

    def hot_search(self) -> Callable[[str], bool]:
        """``search`` for code that calls it often (the fast path): for the simplest patterns, such
        as ``^[a-z]{3}-[0-9]{4}$``, Python's own engine answers on short text, in a third of the
        time a call into RE2 takes; longer text goes to ``search``. Made on request, since compiling
        the pattern again costs what a tool called once should not pay."""
        python_search, other = self.python_search(), self.search
        if python_search is None:
            return other

        def search(text: str) -> bool:
            if len(text) <= PYTHON_MAX_TEXT:
                return python_search(text) is not None
            return other(text)

        return search

    def python_search(self) -> Callable[[str], object] | None:
        """For the simplest patterns, Python's own ``search`` (a match or None), which means what
        ECMA-262 says on any text, and is given at most :data:`PYTHON_MAX_TEXT` characters; None for
        every other pattern. The generated code tests the length itself, sparing a call."""
        source = _python_source(parse(self.source)) if self.backtracking is None else None
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
            except _PastRoom:
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
            except _PastRoom:
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
        _PastRoom."""
        before = self.spent
        try:
            pattern = Pattern(source, room)
        except _PastRoom:
            raise
        except _TooLarge as refused:
            self.spent += min(room, _TOO_LARGE_COST)
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


# -- Python's engine, for the simplest patterns on short text ------------------------------------

# The longest text Python's engine is given: past a few hundred characters RE2's quicker stride
# outweighs the cost of calling it.
PYTHON_MAX_TEXT = 256
# Counts Python's engine takes as written (its own limit is near 2**32, below HUGE).
_PYTHON_MAX_COUNT = 65535


def _python_source(tree: Disjunction) -> str | None:
    """The pattern in Python's syntax, when it is ``^``, then literals, sets of code points and
    counts of one of them, with at most one count that varies, then ``$`` or nothing; else None.

    Anchored at the start, such a pattern is tried at one place, where backtracking has only the one
    varying count to undo, a character at a time: linear in the text, as RE2 is. On any text it
    means what ECMA-262 says: every literal and set is spelled out as code points (``\\d`` is
    ``[0-9]``, ``.`` leaves out the line terminators, a lone surrogate is one code point, as it is to
    RE2 here), no flag changes a set, and ``\\Z`` is the end of the text.
    """
    if len(tree.alternatives) != 1:
        return None
    terms = tree.alternatives[0]
    if not terms or not (isinstance(terms[0], Assertion) and terms[0].kind == "^"):
        return None
    out, varying = ["\\A"], 0
    for index, term in enumerate(terms[1:], start=1):
        if isinstance(term, Assertion) and term.kind == "$" and index == len(terms) - 1:
            out.append("\\Z")
            continue
        body, count = term, ""
        if isinstance(term, Repeat):
            body, low, high = term.body, term.low, term.high
            if term.lazy or max(low, high or 0) > _PYTHON_MAX_COUNT:
                return None
            varying += low != high
            count = f"{{{low},{'' if high is None else high}}}"
        if isinstance(body, Literal) and (not count or len(body.text) == 1):
            out.append("".join(_python_code_point(ord(character)) for character in body.text))
        elif isinstance(body, CharSet) and not body.properties:
            ranges = "".join(
                _python_code_point(low) + ("" if low == high else "-" + _python_code_point(high))
                for low, high in body.ranges
            )
            negated = body.negated
            if not ranges:  # no code point, or (negated) any
                ranges, negated = f"{_python_code_point(0)}-{_python_code_point(MAX_CODE_POINT)}", not negated
            out.append(f"[{'^' if negated else ''}{ranges}]")
        else:
            return None
        out.append(count)
    return None if varying > 1 else "".join(out)


def _python_code_point(code: int) -> str:
    return f"\\U{code:08x}"


def to_re2(source: str) -> str | None:
    """The pattern in RE2's syntax with ECMA-262's meaning (its main search, for one that opens with
    ``^`` and look-aheads), or None when RE2 cannot express it; RegexSyntaxError."""
    tree = parse(source)
    parts = _leading_look_aheads(tree)
    try:
        return _translate(tree if parts is None else parts[0], _MAX_TRANSLATION + 128 * len(source))
    except _Untranslatable:
        return None


# -- RE2 ----------------------------------------------------------------------------------------


class _Untranslatable(Exception):
    """A construct RE2 cannot express with ECMA-262's meaning; ``what`` names it and where it is."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def _re2_search(tree: Disjunction, budget: int, room: int | None) -> tuple[Callable[[str], bool], int, int]:
    """RE2's searches for ``tree``, as one function, the size of their programs, and how many
    property sets RE2 read for them; _Untranslatable, or UnsupportedPattern when RE2 refuses the
    translation (a count past its limits, its memory budget, ``room``) or it is longer than
    ``budget``."""
    parts = _leading_look_aheads(tree)
    if parts is None:
        translated = _translate(tree, budget)
        properties = _check_properties([translated])
        if not _has_not_boundary(tree):
            compiled = _compiled(translated, room)
            return _search(compiled, _ANCHOR.UNANCHORED), compiled.ProgramSize(), properties
        # RE2 may start a search between the bytes of one character, where \B holds: a search
        # anchored behind a lazy run of whole characters starts only between characters.
        compiled = _compiled(f"(?s:.)*?(?:{translated})", room)
        return _search(compiled, _ANCHOR.ANCHOR_START), compiled.ProgramSize(), properties
    rest, conditions = parts
    # The rest and each look-ahead share one budget, and one allowance of property sets.
    translations: list[str] = []
    for part in (rest, *(look.body for look in conditions)):
        translations.append(_translate(part, budget - sum(map(len, translations))))
    properties = _check_properties(translations)
    wanted = [True, *(not look.negative for look in conditions)]
    programs = []
    for translated in translations:
        programs.append(_compiled(translated, room))
        room = None if room is None else room - programs[-1].ProgramSize()
    searches = [
        (want, _search(compiled, _ANCHOR.ANCHOR_START))
        for want, compiled in zip(wanted, programs, strict=True)
    ]
    size = sum(compiled.ProgramSize() for compiled in programs)
    return (lambda text: all(search(text) is want for want, search in searches)), size, properties


def _leading_look_aheads(tree: Disjunction) -> tuple[Disjunction, list[LookAround]] | None:
    """For a pattern that opens with ``^`` and look-aheads, such as zod's e-mail check
    ``^(?!\\.)(?!.*\\.\\.)…$``: the rest of it, and the look-aheads; else None.

    Such a pattern can only match at the start, where each look-ahead is a question of its own: it
    matches when each ``(?=X)`` finds X at the start and no ``(?!X)`` does, and the rest matches there.
    """
    if len(tree.alternatives) != 1:
        return None
    terms = tree.alternatives[0]
    if not terms or not (isinstance(terms[0], Assertion) and terms[0].kind == "^"):
        return None
    looks: list[LookAround] = []
    for term in terms[1:]:
        if not isinstance(term, LookAround) or term.behind:
            break
        looks.append(term)
    if not looks:
        return None
    return Disjunction(tree.position, [terms[1 + len(looks) :]]), looks


def _check_properties(translations: list[str]) -> int:
    """How many property sets RE2 would read; UnsupportedPattern past :data:`_MAX_PROPERTIES`."""
    properties = sum(translated.count("\\p{") + translated.count("\\P{") for translated in translations)
    if properties > _MAX_PROPERTIES:
        raise UnsupportedPattern(
            f"RE2 would read {properties} Unicode property sets in it (each \\p{{…}}, six or seven for "
            f"\\p{{C}} or \\p{{Cn}}), more than the {_MAX_PROPERTIES} allowed; write fewer"
        )
    return properties


class _TooLarge(UnsupportedPattern):
    """RE2 stopped building a program past its memory budget, having built what it could."""


class _PastRoom(UnsupportedPattern):
    """RE2 stopped building a program past the room it was given (see Pattern)."""


def _compiled(translated: str, room: int | None = None) -> Any:
    """RE2's program for a translation; UnsupportedPattern, saying why, if RE2 refuses it, and
    _PastRoom where it needs much more than ``room`` instructions."""
    if room is not None and room < _DEFAULT_ROOM:
        # A trial within a memory budget that lets RE2 build about ``room`` instructions before it
        # gives up, at a cost in them; then the program itself, with the default budget, whose
        # searches keep more states.
        options = re2.Options()
        options.log_errors, options.never_capture = False, True
        options.max_mem = _MEMORY_PER_INSTRUCTION * max(room, 0) + _LEAST_MEMORY
        trial = re2._re2.RE2(translated.encode(), options)
        if not trial.ok() and "too large" in trial.error().decode(errors="replace"):
            raise _PastRoom(f"RE2 would build more than the {max(room, 0)} instructions left for it")
    compiled = re2._re2.RE2(translated.encode(), _RE2_OPTIONS)
    if not compiled.ok():
        error = compiled.error().decode(errors="replace")
        refused = _TooLarge if "too large" in error else UnsupportedPattern
        raise refused(_re2_refusal(error))
    return compiled


def _search(compiled: Any, anchor: Any) -> Callable[[str], bool]:
    """RE2's matcher called directly (the ``re2`` module's ``search`` also builds a match object
    and maps byte offsets back, five times the cost), on the string's code points in UTF-8, lone
    surrogates included."""
    match = compiled.Match

    def search(text: str) -> bool:
        encoded = text.encode("utf-8", "surrogatepass")
        return bool(match(anchor, encoded, 0, len(encoded))[0][0] != -1)

    return search


def _re2_refusal(error: str) -> str:
    if "repetition" in error:
        return (
            "RE2 repeats a part at most 1000 times, counting nested repeats together "
            f"({error}); write a smaller count"
        )
    if "too large" in error:
        return f"it is too large for RE2's memory budget ({error}); write a smaller pattern"
    return f"RE2 refuses it: {error}"


def _places(tree: Node) -> int:
    """How many places the pattern has, with each count's copies written out as RE2 writes them: a
    character or a set (each part RE2 writes of it), an assertion, and one for each alternative."""
    found: dict[int, int] = {}
    for node in _children_first(tree):
        if isinstance(node, Literal):
            count = len(node.text)
        elif isinstance(node, CharSet):
            count = _class(node).count("|") + 1  # "|" stands between parts only: in a set it is \x{7c}
        elif isinstance(node, (Group, LookAround)):
            count = found[id(node.body)]
        elif isinstance(node, Repeat):
            count = found[id(node.body)] * max(1, node.low + 1 if node.high is None else node.high)
        elif isinstance(node, Disjunction):
            terms = [term for alternative in node.alternatives for term in alternative]
            count = len(node.alternatives) + sum(found[id(term)] for term in terms)
        else:
            count = 1  # an assertion
        found[id(node)] = min(count, _MANY_PLACES)
    return found[id(tree)]


# Past this many places the count stops: a search of any text would cost more than any budget.
_MANY_PLACES = 1 << 40


def _has_not_boundary(tree: Node) -> bool:
    return any(isinstance(node, Assertion) and node.kind == "B" for node in _walk(tree))


# The most instructions the RE2 programs of one schema's patterns may hold together: compiling takes
# about half a microsecond and 10 bytes each, and a 10-character pattern such as \p{L}{400} makes
# 478,000, so a hundred of them took 30 s and 470 MB to register. (The patterns of every schema of a
# registry share Limits.max_pattern_program; see Patterns.)
MAX_PROGRAM = 500_000
# RE2 takes up to 0.2 ms and 30 KB to read each property set (\p{L} is 650 ranges), whatever its
# memory budget says: 30,000 of them took 5 s and 1 GB.
_MAX_PROPERTIES = 1000
# What reading one property set costs, in instructions' worth (see Pattern.cost).
_PROPERTY_COST = 500
# What a program RE2 gives up on past its memory budget costs, in instructions' worth: building up to
# its budget takes about 0.06 s.
_TOO_LARGE_COST = 100_000
# RE2 gives two thirds of its memory budget (8 MB by default) to compiling, and a quarter of that to
# instructions, 8 bytes each, before it makes the program (which may hold a few times as many): so
# about 48 bytes of budget let it build one, and the default budget about this many.
_MEMORY_PER_INSTRUCTION = 48
_DEFAULT_ROOM = (8 << 20) // _MEMORY_PER_INSTRUCTION
# What RE2 needs before it builds anything.
_LEAST_MEMORY = 2048
# RE2 repeats an atom at most this many times in one count.
_RE2_MAX_REPEAT = 1000
# A translation may be this long, and 128 characters for each of the source's: past that, its counts
# above 1000, written out as copies (or its sets of properties), make it too large for RE2.
_MAX_TRANSLATION = 1 << 20


def _translate(tree: Node, budget: int) -> str:
    """``tree`` in RE2's syntax, or _Untranslatable; written with an explicit stack, not recursion.
    UnsupportedPattern past ``budget`` characters."""
    out: list[str] = []
    size = 0
    stack: list[Node | str] = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            size += len(item)
            if size > budget:
                raise UnsupportedPattern(
                    f"written out for RE2 (counts above 1000 as copies) it is longer than {budget} "
                    "characters; write smaller counts or a shorter pattern"
                )
        elif isinstance(item, Literal):
            stack.append(_NOT_ALPHANUMERIC.sub(_escaped, item.text))
        elif isinstance(item, CharSet):
            stack.append(_class(item))
        elif isinstance(item, Assertion):
            stack.append({"^": "\\A", "$": "\\z", "b": "\\b", "B": "\\B"}[item.kind])
        elif isinstance(item, Disjunction):
            pieces: list[Node | str] = []
            for index, terms in enumerate(item.alternatives):
                if index:
                    pieces.append("|")
                pieces.extend(terms)
            stack.extend(reversed(pieces))
        elif isinstance(item, Group):
            stack.extend((")", item.body, "(?:"))
        elif isinstance(item, Repeat):
            stack.extend(reversed(_repeated(item)))
        elif isinstance(item, LookAround):
            where = f"{item.opener}…) at position {item.position}"
            raise _Untranslatable(
                f"a look-behind {where}"
                if item.behind
                else f"a look-ahead {where} (RE2 runs look-aheads only right after a leading ^)"
            )
        elif isinstance(item, BackReference):
            raise _Untranslatable(f"a back-reference at position {item.position}")
    return "".join(out)


def _repeated(repeat: Repeat) -> list[Node | str]:
    """``repeat`` as RE2 counts, each at most 1000: past that, copies one after another."""
    low, high = repeat.low, repeat.high
    counts: list[tuple[int, int | None]]
    if (high if high is not None else low) <= _RE2_MAX_REPEAT:
        counts = [(low, high)]
    else:
        copies = low // _RE2_MAX_REPEAT + (0 if high is None else (high - low) // _RE2_MAX_REPEAT) + 2
        if copies * 16 > _MAX_TRANSLATION:
            raise UnsupportedPattern(
                f"{repeat.text!r} at position {repeat.position} counts more than RE2 can be given; "
                "write a smaller count"
            )
        counts = [(_RE2_MAX_REPEAT, _RE2_MAX_REPEAT)] * (low // _RE2_MAX_REPEAT)
        counts.append((low % _RE2_MAX_REPEAT, low % _RE2_MAX_REPEAT))
        if high is None:
            counts.append((0, None))
        else:
            spare = high - low
            counts += [(0, _RE2_MAX_REPEAT)] * (spare // _RE2_MAX_REPEAT)
            counts.append((0, spare % _RE2_MAX_REPEAT))
    single = isinstance(repeat.body, (CharSet, Group)) or (
        isinstance(repeat.body, Literal) and len(repeat.body.text) == 1
    )
    pieces: list[Node | str] = []
    for least, most in counts:
        if most != 0:
            pieces += (
                [repeat.body, _quantifier(least, most)]
                if single
                else ["(?:", repeat.body, ")", _quantifier(least, most)]
            )
    return pieces


def _quantifier(low: int, high: int | None) -> str:
    if high is None:
        return {0: "*", 1: "+"}.get(low, f"{{{low},}}")
    if (low, high) == (0, 1):
        return "?"
    return f"{{{low}}}" if low == high else f"{{{low},{high}}}"


# ASCII letters and digits mean themselves in RE2; every other character is written as a code point.
_NOT_ALPHANUMERIC = re.compile("[^0-9A-Za-z]")


def _escaped(found: re.Match[str]) -> str:
    return _literal(ord(found.group()))


def _literal(code: int) -> str:
    return f"\\x{{{code:x}}}"


def _range(low: int, high: int) -> str:
    return _literal(low) if low == high else f"{_literal(low)}-{_literal(high)}"


_NOTHING = "[^\\x{0}-\\x{10ffff}]"
_ANYTHING = "[\\x{0}-\\x{10ffff}]"
# RE2's \p{C} leaves out the unassigned code points (Cn), which ECMA-262's holds; so Cn is what
# none of these seven holds, and C what none of the first six holds.
_ASSIGNED = ("\\p{L}", "\\p{M}", "\\p{N}", "\\p{P}", "\\p{S}", "\\p{Z}", "\\p{C}")


def _class(charset: CharSet) -> str:
    """A set of code points in RE2's syntax.

    Each property is RE2's own class items (``\\p{Greek}``) or the complement of a union of them
    (``Cn``); a class holding a complement becomes an alternation of RE2 classes.
    """
    union = [_range(low, high) for low, high in charset.ranges]
    complements: list[tuple[str, ...]] = []
    for found in charset.properties:
        items, complemented = _property(found)
        if complemented:
            if items not in complements:
                complements.append(items)
        else:
            union += items
    if not charset.negated:
        parts = ([f"[{''.join(union)}]"] if union else []) + [f"[^{''.join(items)}]" for items in complements]
        if not parts:
            return _NOTHING
        return parts[0] if len(parts) == 1 else f"(?:{'|'.join(parts)})"
    if not complements:
        return f"[^{''.join(union)}]" if union else _ANYTHING
    # Outside the union and inside every complemented union: inside one item of each.
    parts = [
        "[^" + "".join(item.replace("\\p", "\\P") for item in chosen) + "".join(union) + "]"
        for chosen in itertools.product(*complements)
    ]
    return parts[0] if len(parts) == 1 else f"(?:{'|'.join(parts)})"


def _property(found: Property) -> tuple[tuple[str, ...], bool]:
    """RE2 class items for a property, and whether the property is what they leave out."""
    negated, value = found.negated, found.value
    if found.kind == "gc":
        if value == "C":
            return _ASSIGNED[:6], not negated
        if value == "Cn":
            return _ASSIGNED, not negated
        if value == "LC":
            return ("\\p{Lm}", "\\p{Lo}", "\\P{L}") if negated else ("\\p{Lu}", "\\p{Ll}", "\\p{Lt}"), False
        return (f"\\{'P' if negated else 'p'}{{{value}}}",), False
    if found.kind == "binary" and value == "Any":
        return () if negated else (_range(0, MAX_CODE_POINT),), False
    if found.kind == "binary" and value == "ASCII":
        return (_range(0x80, MAX_CODE_POINT) if negated else _range(0, 0x7F),), False
    if found.kind == "binary" and value == "Assigned":
        return _ASSIGNED, negated
    if found.kind == "binary" and value in EMOJI_PROPERTIES:  # spelt out: RE2 has no emoji data
        ranges = list(EMOJI_PROPERTIES[value])
        return tuple(_range(low, high) for low, high in (complement(ranges) if negated else ranges)), False
    if (
        found.kind == "sc"
        and value != "Unknown"
        and re2._re2.RE2(f"\\p{{{value}}}".encode(), _RE2_OPTIONS).ok()
    ):
        return (f"\\{'P' if negated else 'p'}{{{value}}}",), False
    raise _Untranslatable(f"{found.text}, a property RE2 does not know")


def _walk(tree: Node) -> Iterator[Node]:
    """Every node of ``tree``, parents first, without recursion."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Disjunction):
            for terms in reversed(node.alternatives):
                stack.extend(reversed(terms))
        elif isinstance(node, (Group, LookAround, Repeat)):
            stack.append(node.body)


# -- regress ------------------------------------------------------------------------------------

# A backtracking search tries the pattern at each place of the string; at one place it may take at
# most this many steps (a step: one atom, assertion or branch tried), so a string of n characters
# costs at most (n + 1) times this many. Of 17,696 random patterns let through (tests/guard_fuzz.py),
# the slowest took 3.8 µs a character on a loaded machine, most under 0.5 µs.
MAX_STEPS = 100
# A pattern whose every alternative opens with ^ fails at once at every other place, so it may spend
# this many at the start (a few milliseconds at most).
MAX_STEPS_AT_START = 10_000
# Small patterns only: regress's compiler recurses on nesting and has crashed on huge alternations.
_MAX_BACKTRACKING_SOURCE = 500
_MAX_BACKTRACKING_DEPTH = 10
_MAX_BACKTRACKING_BRANCHES = 50
# regress reads UTF-8, which has no lone surrogates: each U+D800+k goes to regress as U+F0000+k, a
# private-use code point, when the pattern treats the two blocks alike.
_SURROGATES = (0xD800, 0xDFFF)
_STAND_INS = (0xF0000, 0xF07FF)
_STAND_IN_TABLE = {code: _STAND_INS[0] + code - _SURROGATES[0] for code in range(0xD800, 0xE000)}
_SURROGATE = re.compile("[\ud800-\udfff]")


def _regress_search(tree: Disjunction) -> Callable[[str], bool]:
    """regress's search for ``tree``, which :func:`_backtracking_refusal` accepted."""
    try:
        compiled = regress.Regex(_ecma_source(tree), "u")
    except regress.RegressError as error:
        raise UnsupportedPattern(f"the backtracking engine refuses it: {error}") from None
    find = compiled.find

    def search(text: str) -> bool:
        if not text.isascii() and _SURROGATE.search(text):
            text = text.translate(_STAND_IN_TABLE)
        return find(text) is not None

    return search


def _ecma_source(tree: Node) -> str:
    """``tree`` written again in plain Unicode-mode syntax (literals as ``\\u{…}``), as regress reads it."""
    out: list[str] = []
    stack: list[Node | str] = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, Literal):
            out.append("".join(f"\\u{{{ord(char):x}}}" for char in item.text))
        elif isinstance(item, CharSet):
            ranges = "".join(
                f"\\u{{{low:x}}}" if low == high else f"\\u{{{low:x}}}-\\u{{{high:x}}}"
                for low, high in item.ranges
            )
            properties = "".join(found.text for found in item.properties)
            out.append(f"[{'^' if item.negated else ''}{ranges}{properties}]")
        elif isinstance(item, Assertion):
            out.append(item.kind if item.kind in "^$" else "\\" + item.kind)
        elif isinstance(item, BackReference):
            out.append(f"\\{item.numbers[0]}" if item.name is None else f"\\k<{item.name}>")
        elif isinstance(item, Disjunction):
            pieces: list[Node | str] = []
            for index, terms in enumerate(item.alternatives):
                if index:
                    pieces.append("|")
                pieces.extend(terms)
            stack.extend(reversed(pieces))
        elif isinstance(item, Group):
            opener = "(?:" if item.number is None else "(" if item.name is None else f"(?<{item.name}>"
            stack.extend((")", item.body, opener))
        elif isinstance(item, LookAround):
            stack.extend((")", item.body, item.opener))
        elif isinstance(item, Repeat):
            count = f"{{{item.low},{item.high}}}{'?' if item.lazy else ''}"
            stack.extend((count, ")", item.body, "(?:"))
    return "".join(out)


def _backtracking_refusal(source: str, tree: Disjunction) -> str | None:
    """Why a backtracking engine could not be bounded on ``tree``, or None when it can.

    Sound, so strict: every repeat has a most and repeats something that cannot match the empty
    string, every back-reference names a group of bounded length without back-references, and
    :func:`backtracking_cost` at one place of the string is at most :data:`MAX_STEPS`, or, when every
    alternative opens with ``^`` (every other place fails at once), :data:`MAX_STEPS_AT_START`.
    """
    if len(source) > _MAX_BACKTRACKING_SOURCE:
        return f"it is longer than {_MAX_BACKTRACKING_SOURCE} characters"
    branches = 0
    depth_of: dict[int, int] = {id(tree): 0}
    holds_reference: set[int] = set()
    groups: dict[int, Group] = {}
    enclosing: dict[int, list[int]] = {id(tree): []}  # the groups around each node, by number
    for node in _walk(tree):
        depth, around = depth_of[id(node)], enclosing[id(node)]
        if depth > _MAX_BACKTRACKING_DEPTH:
            return f"groups and repeats nest more than {_MAX_BACKTRACKING_DEPTH} deep"
        children: list[Node] = []
        if isinstance(node, Disjunction):
            branches += len(node.alternatives)
            if branches > _MAX_BACKTRACKING_BRANCHES:
                return f"more than {_MAX_BACKTRACKING_BRANCHES} alternatives"
            children = [term for terms in node.alternatives for term in terms]
        elif isinstance(node, (Group, LookAround, Repeat)):
            children = [node.body]
            depth += 1
            if isinstance(node, Group) and node.number is not None:
                groups[node.number] = node
                around = [*around, node.number]
        elif isinstance(node, BackReference):
            if set(node.numbers) & set(around):
                return f"the back-reference at position {node.position} stands inside its own group"
            holds_reference.update(around)
        elif isinstance(node, (Literal, CharSet)):
            found = _tells_surrogates_apart(node)
            if found:
                return found
        for child in children:
            depth_of[id(child)] = depth
            enclosing[id(child)] = around
    for node in _walk(tree):
        if isinstance(node, BackReference) and set(node.numbers) & holds_reference:
            return f"the back-reference at position {node.position} names a group that holds one"
        if isinstance(node, BackReference) and any(
            _may_match_a_surrogate(groups[number]) for number in node.numbers if number in groups
        ):
            # The stand-ins make a lone surrogate and a private-use character alike; a back-reference
            # compares the two, and would find them equal.
            return (
                f"the back-reference at position {node.position} names a group that may match a lone "
                "surrogate, which regress sees as a private-use character"
            )
    try:
        lengths = {number: _facts(group, {}).longest for number, group in groups.items()}
        cost = backtracking_cost(tree, lengths)
    except _Unbounded as unbounded:
        return str(unbounded)
    anchored = all(
        terms and isinstance(terms[0], Assertion) and terms[0].kind == "^" for terms in tree.alternatives
    )
    if anchored and cost > MAX_STEPS_AT_START:
        return (
            f"a search may take {cost} or more steps at the start of the string, past the "
            f"{MAX_STEPS_AT_START} allowed (alternatives and counts multiply)"
        )
    if not anchored and cost > MAX_STEPS:
        return (
            f"a search may take {cost} or more steps at each place of the string, past the "
            f"{MAX_STEPS} allowed (alternatives and counts multiply; a pattern that opens with ^ "
            f"may take {MAX_STEPS_AT_START})"
        )
    return None


def _tells_surrogates_apart(node: Literal | CharSet) -> str | None:
    """Why ``node`` would answer a lone surrogate and its stand-in differently, if it would."""
    if isinstance(node, Literal):
        if any(_in_block(ord(char), _SURROGATES) or _in_block(ord(char), _STAND_INS) for char in node.text):
            return (
                f"the character at position {node.position} is a surrogate or private-use one (regress "
                "sees a lone surrogate as a private-use character)"
            )
        return None
    # Each set must hold all of both blocks or none of either.
    held = _blocks_held(node)
    if held[0] != held[1] or "some" in held:
        return (
            f"the set at position {node.position} tells surrogates from private-use characters (regress "
            "sees a lone surrogate as a private-use character)"
        )
    return None


def _blocks_held(node: CharSet) -> list[str]:
    """``all``, ``some`` or ``none`` of the surrogates (first) and of their stand-ins (second) in
    ``node``, a set without negation's effect on the answer: negated, it holds none where it says all."""
    held = [_held_by_ranges(node.ranges, block) for block in (_SURROGATES, _STAND_INS)]
    for found in node.properties:
        for index, whole in enumerate(_PROPERTY_BLOCKS.get((found.kind, found.value), (False, False))):
            if whole != found.negated:
                held[index] = "all"
    return held


def _may_match_a_surrogate(group: Group) -> bool:
    """Whether ``group`` holds a set that matches a lone surrogate (no literal may be one)."""
    for node in _walk(group):
        if isinstance(node, CharSet) and (_blocks_held(node)[0] == "all") != node.negated:
            return True
    return False


# The properties that hold all of the surrogates (first) or of their stand-ins (second): every
# other property holds none of either.
_PROPERTY_BLOCKS = {
    ("gc", "Cs"): (True, False),
    ("gc", "Co"): (False, True),
    ("gc", "C"): (True, True),
    ("binary", "Any"): (True, True),
    ("binary", "Assigned"): (True, True),
    ("sc", "Unknown"): (True, True),
    ("scx", "Unknown"): (True, True),
}


def _in_block(code: int, block: tuple[int, int]) -> bool:
    return block[0] <= code <= block[1]


def _held_by_ranges(ranges: list[tuple[int, int]], block: tuple[int, int]) -> str:
    """``all``, ``some`` or ``none`` of ``block`` in sorted, disjoint, unjoinable ``ranges``."""
    start, end = block
    for low, high in ranges:
        if low <= start and high >= end:
            return "all"
        if low <= end and high >= start:
            return "some"
    return "none"


class _Unbounded(Exception):
    """A shape whose backtracking cost has no bound; the message names it."""


class _Facts:
    """What the bound knows of one part: the shortest and longest text it matches (in code points),
    the steps a backtracking engine may take on it at one place, and the ways it can succeed there
    (each way, the rest of the pattern is tried again)."""

    __slots__ = ("shortest", "longest", "steps", "ways")

    def __init__(self, shortest: int, longest: int, steps: int, ways: int) -> None:
        self.shortest = shortest
        self.longest = longest
        self.steps = steps
        self.ways = ways


def backtracking_cost(tree: Node, lengths: dict[int, int]) -> int:
    """An upper bound on the steps a backtracking search of ``tree`` takes at one place of the
    string (at most :data:`MAX_STEPS_AT_START` + 1: past it the count stops), given the longest text
    of each
    group a back-reference names; _Unbounded for a repeat without a most, or of the empty string."""
    return _facts(tree, lengths).steps


def _facts(tree: Node, lengths: dict[int, int]) -> _Facts:
    """:class:`_Facts` of ``tree``, children before parents, without recursion."""
    backward = _read_backward(tree)
    found: dict[int, _Facts] = {}
    for node in _children_first(tree):
        if isinstance(node, Literal):
            facts = _Facts(len(node.text), len(node.text), _capped(len(node.text)), 1)
        elif isinstance(node, CharSet):
            facts = _Facts(1, 1, 1, 1)
        elif isinstance(node, Assertion):
            facts = _Facts(0, 0, 1, 1)
        elif isinstance(node, BackReference):
            longest = max(lengths.get(number, 0) for number in node.numbers)
            facts = _Facts(0, longest, 1 + longest, 1)
        elif isinstance(node, Group):
            facts = found[id(node.body)]
        elif isinstance(node, LookAround):
            # Atomic: once it holds, a search never comes back into it.
            facts = _Facts(0, 0, 1 + found[id(node.body)].steps, 1)
        elif isinstance(node, Repeat):
            facts = _repeat_facts(node, found[id(node.body)])
        else:
            assert isinstance(node, Disjunction)
            alternatives = [
                _sequence([found[id(term)] for term in terms], backward=id(node) in backward)
                for terms in node.alternatives
            ]
            facts = _Facts(
                min(part.shortest for part in alternatives),
                max(part.longest for part in alternatives),
                _capped(1 + sum(part.steps for part in alternatives)),
                _capped(sum(part.ways for part in alternatives)),
            )
        found[id(node)] = facts
    return found[id(tree)]


def _read_backward(tree: Node) -> set[int]:
    """The alternations inside a look-behind (and no look-ahead within it): a backtracking engine
    matches them from right to left, so their last part is tried first."""
    backward_at = {id(tree): False}
    backward = set()
    for node in _walk(tree):
        here = backward_at[id(node)]
        if isinstance(node, Disjunction):
            if here:
                backward.add(id(node))
            for terms in node.alternatives:
                backward_at.update((id(term), here) for term in terms)
        elif isinstance(node, (Group, Repeat)):
            backward_at[id(node.body)] = here
        elif isinstance(node, LookAround):
            backward_at[id(node.body)] = node.behind
    return backward


def _sequence(parts: list[_Facts], *, backward: bool = False) -> _Facts:
    """Parts one after another, matched left to right (right to left ``backward``): each way
    through the part tried first tries the rest again."""
    steps, ways, shortest, longest = 0, 1, 0, 0
    for part in parts if backward else reversed(parts):
        steps = _capped(part.steps + part.ways * steps)
        ways = _capped(part.ways * ways)
        shortest += part.shortest
        longest = _capped(longest + part.longest)
    return _Facts(shortest, longest, max(steps, 1), ways)


def _repeat_facts(repeat: Repeat, body: _Facts) -> _Facts:
    """``body`` from ``low`` to ``high`` times: ``low`` copies, then ``high - low`` nested options."""
    if repeat.high is None:
        raise _Unbounded(f"{repeat.text!r} at position {repeat.position} repeats without a most")
    if body.shortest == 0:
        raise _Unbounded(
            f"{repeat.text!r} at position {repeat.position} repeats a part that can match the empty string"
        )
    steps, ways = 1, 1
    for _ in range(repeat.high - repeat.low):
        steps = _capped(1 + body.steps + body.ways * steps)
        ways = _capped(1 + body.ways * ways)
        if steps > MAX_STEPS_AT_START:
            break
    for _ in range(repeat.low):
        steps = _capped(body.steps + body.ways * steps)
        ways = _capped(body.ways * ways)
        if steps > MAX_STEPS_AT_START:
            break
    return _Facts(body.shortest * repeat.low, _capped(body.longest * repeat.high), steps, ways)


def _capped(number: int) -> int:
    return min(number, MAX_STEPS_AT_START + 1)


def _children_first(tree: Node) -> Iterator[Node]:
    """Every node of ``tree``, each after all of its own, without recursion."""
    stack: list[tuple[Node, bool]] = [(tree, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            yield node
            continue
        stack.append((node, True))
        if isinstance(node, Disjunction):
            stack.extend((term, False) for terms in node.alternatives for term in terms)
        elif isinstance(node, (Group, LookAround, Repeat)):
            stack.append((node.body, False))


def steps_at_each_place(source: str) -> int:
    """The bound :func:`backtracking_cost` puts on a backtracking search of ``source`` at one place
    of the string (for a pattern that only a backtracking engine can run); RegexSyntaxError,
    UnsupportedPattern."""
    tree = parse(source)
    refused = _backtracking_refusal(source, tree)
    if refused is not None:
        raise UnsupportedPattern(refused)
    groups = {
        node.number: node for node in _walk(tree) if isinstance(node, Group) and node.number is not None
    }
    return backtracking_cost(tree, {number: _facts(group, {}).longest for number, group in groups.items()})
