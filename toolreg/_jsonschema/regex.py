"""ECMA-262 regular expressions, as JSON Schema's ``pattern`` requires: RE2 where exact, else ``regress``.

Most patterns are translated into RE2's syntax, atom by atom with ECMA-262's meaning spelled out
(``\\d`` is ``[0-9]``, ``.`` excludes the four line terminators, ``$`` is the end of the text), and run
by RE2, whose time is linear in the text; look-aheads right after a leading ``^`` become RE2 searches
of their own. What RE2 cannot express (other look-arounds, back-references, ``\\p{…}``, repeat
counts above 1000) runs on ``regress``, a backtracking engine, behind the guard in
:func:`backtracking_risk`.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from typing import Any

import re2
import regress

__all__ = ["Pattern", "RegexSyntaxError", "SHORT", "backtracking_risk", "to_re2", "translate"]

_SURROGATE = re.compile("[\ud800-\udfff]")
_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False
_RE2_OPTIONS.never_capture = True


class RegexSyntaxError(ValueError):
    """The source is not a valid ECMA-262 regular expression in Unicode mode."""


class Pattern:
    """A compiled pattern that answers one question: does it match anywhere in a string?

    ``linear`` says whether RE2 runs it (time linear in the text) or ``regress`` does.
    """

    __slots__ = ("source", "_backtracking", "_linear", "_short_ok", "_prepared")

    def __init__(self, source: str) -> None:
        self.source = source
        try:
            # Unicode mode: code points, not UTF-16 units, and \p{...} escapes. regress is the
            # judge of syntax, even for patterns RE2 then runs.
            backtracking = regress.Regex(source, "u")
        except regress.RegressError as error:
            raise RegexSyntaxError(str(error)) from None
        except (TypeError, ValueError, UnicodeError) as error:
            raise RegexSyntaxError(str(error)) from None
        self._backtracking = backtracking
        self._linear: Callable[[str], bool] | None = None
        self._short_ok = False
        # RE2's translation waits for the first search, or the first question of ``linear``: a
        # catalog's patterns cost only their syntax check when it is registered.
        self._prepared = False

    @property
    def linear(self) -> bool:
        """Whether RE2 runs this pattern (time linear in the text) rather than ``regress``."""
        if not self._prepared:
            self._prepare()
        return self._linear is not None

    def _prepare(self) -> None:
        translated = translate(self.source)
        # Past RE2's own limits (its memory budget) a pattern stays on regress, behind the guard.
        with contextlib.suppress(re2.error):
            if translated is not None:
                self._linear = _linear_search(re2.compile(translated[0], _RE2_OPTIONS))
                # regress answers a short string faster than RE2's binding can be called, and with
                # at most one choice of how often to repeat and no repeated group, a backtracking
                # search of n characters takes at most about n * n steps.
                self._short_ok = translated[1]
            elif (parts := _look_ahead_parts(self.source)) is not None:
                self._linear = parts
        self._prepared = True

    def engines(self) -> tuple[Callable[[str], object] | None, Callable[[str], bool] | None]:
        """What :meth:`search` runs, for a caller that writes the choice inline (the fast path):
        regress's ``find`` (a match, or None) for strings of at most :data:`SHORT` characters, or None
        when RE2 takes every string; and RE2's search, or None when regress takes every string. Both
        raise UnicodeError on a lone surrogate, which :meth:`search` itself stands in for."""
        if not self._prepared:
            self._prepare()
        if self._linear is None:
            return self._backtracking.find, None
        return (self._backtracking.find if self._short_ok else None), self._linear

    def search(self, text: str) -> bool:
        """True when the pattern matches somewhere in ``text`` (a search, not a full match)."""
        if not self._prepared:
            self._prepare()
        try:
            if self._linear is not None and (len(text) > SHORT or not self._short_ok):
                return self._linear(text)
            return self._backtracking.find(text) is not None
        except UnicodeError:
            # Both engines take UTF-8, which a lone surrogate (legal in a JSON string) lacks; U+FFFD
            # stands in for each, keeping the code-point count and matching no ASCII class.
            return self.search(_SURROGATE.sub("\ufffd", text))


# Strings up to this long go to regress when the pattern's shape keeps that quadratic at worst.
SHORT = 256
_UNANCHORED = getattr(getattr(getattr(re2, "_re2", None), "RE2", None), "Anchor", None)


def _linear_search(compiled: Any) -> Callable[[str], bool]:
    """RE2's search as one call: its matcher directly where the binding exposes it (the public
    ``search`` also builds a match object and maps byte offsets back, five times the cost)."""
    matcher = getattr(compiled, "_regexp", None)
    if matcher is None or _UNANCHORED is None:
        return lambda text: compiled.search(text) is not None
    anchor = _UNANCHORED.UNANCHORED

    def search(text: str) -> bool:
        encoded = text.encode("utf-8")
        return bool(matcher.Match(anchor, encoded, 0, len(encoded))[0][0] != -1)

    return search


def _look_ahead_parts(source: str) -> Callable[[str], bool] | None:
    """RE2 searches for a pattern that opens with ``^`` and look-aheads, such as zod's e-mail check
    ``^(?!\\.)(?!.*\\.\\.)…$``, or None when it has another shape.

    Such a pattern can only match at the start, where each look-ahead is a question of its own: the
    pattern matches when each ``(?=X)`` finds ``^X`` and no ``(?!X)`` does, and the rest after ``^``
    matches too.
    """
    try:
        if not source.startswith("^") or "|" in _top_level(source):
            return None
        conditions, index = [], 1
        while source.startswith(("(?=", "(?!"), index):
            end = _group_end(source, index)
            conditions.append((source[index + 2] == "=", source[index + 3 : end - 1]))
            index = end
    except IndexError:
        return None  # not a shape this reads; the backtracking engine and its guard take it
    if not conditions:
        return None
    parts = [(True, source[index:]), *conditions]
    searches = []
    for wanted, inner in parts:
        translated = translate(f"^(?:{inner})")
        if translated is None:
            return None
        searches.append((wanted, _linear_search(re2.compile(translated[0], _RE2_OPTIONS))))
    return lambda text: all(search(text) is wanted for wanted, search in searches)


def _outside_classes(source: str, start: int) -> Iterator[tuple[int, str, int]]:
    """Each character from ``start`` that is not in a class or an escape, with its index and the
    group depth after it (an opening ``(`` counts in, a closing ``)`` counts out)."""
    depth, index = 0, start
    while index < len(source):
        char = source[index]
        if char == "\\":
            index += 2
            continue
        if char == "[":
            index = _class_end(source, index)
            continue
        depth += (char == "(") - (char == ")")
        yield index, char, depth
        index += 1


def _top_level(source: str) -> str:
    """The characters of ``source`` outside groups, classes and escapes."""
    return "".join(char for _, char, depth in _outside_classes(source, 0) if depth == 0 and char != ")")


def _group_end(source: str, index: int) -> int:
    """The index just past the ``)`` that closes the group opened at ``index``."""
    for position, _, depth in _outside_classes(source, index):
        if depth == 0:
            return position + 1
    raise IndexError(index)  # unclosed


def _class_end(source: str, index: int) -> int:
    """The index just past the ``]`` that closes the class opened at ``index``."""
    index += 1
    if source[index : index + 1] == "^":
        index += 1
    # In ECMA-262 a "]" right after "[" or "[^" closes the class ("[]" matches nothing).
    while source[index] != "]":
        index += 2 if source[index] == "\\" else 1
    return index + 1


class _Untranslatable(Exception):
    """A construct RE2 cannot express with ECMA-262's meaning."""


# ECMA-262's WhiteSpace and LineTerminator code points: what \s means there (RE2's \s is narrower).
_SPACE = (
    "\\x{9}-\\x{d}\\x{20}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}"
    "\\x{3000}\\x{feff}"
)
_CLASS_ESCAPES = {"d": "0-9", "w": "0-9A-Za-z_", "s": _SPACE}
_CONTROL_ESCAPES = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_SYNTAX = frozenset("^$\\.*+?()[]{}|/")
_REPEAT = re.compile(r"\{(\d+)(,(\d*))?\}")
_RE2_MAX_REPEAT = 1000


def to_re2(source: str) -> str | None:
    """The same pattern in RE2's syntax with ECMA-262's meaning, or None where RE2 cannot say it.

    ``source`` must be valid in Unicode mode (``regress`` checks that first). Every literal becomes
    ``\\x{…}``, so no character means something else in RE2; groups stop capturing.
    """
    translated = translate(source)
    return None if translated is None else translated[0]


def translate(source: str) -> tuple[str, bool] | None:
    """:func:`to_re2`'s answer, and whether the pattern has at most one quantifier that chooses how
    often to repeat (``*``, ``+``, ``?``, ``{n,m}``) and no repeated group."""
    translator = _Translator(source)
    try:
        translated = translator.pattern()
    except (_Untranslatable, IndexError, ValueError):
        return None
    return translated, translator.choices <= 1 and not translator.repeated_group


class _Translator:
    def __init__(self, source: str) -> None:
        self.source = source
        self.index = 0
        self.choices = 0
        self.repeated_group = False

    def peek(self, length: int = 1) -> str:
        return self.source[self.index : self.index + length]

    def take(self) -> str:
        char = self.source[self.index]
        self.index += 1
        return char

    def pattern(self) -> str:
        translated = self.disjunction()
        if self.index != len(self.source):
            raise _Untranslatable(self.index)
        return translated

    def disjunction(self) -> str:
        alternatives = [self.alternative()]
        while self.peek() == "|":
            self.index += 1
            alternatives.append(self.alternative())
        return "|".join(alternatives)

    def alternative(self) -> str:
        terms = []
        while self.index < len(self.source) and self.peek() not in "|)":
            terms.append(self.term())
        return "".join(terms)

    def term(self) -> str:
        char = self.take()
        if char == "^":
            return "\\A"
        if char == "$":
            return "\\z"
        if char == "\\" and self.peek() in ("b", "B"):
            return "\\" + self.take()  # ASCII word boundaries in both, without the i flag
        atom = self.atom(char)
        quantifier = self.quantifier()
        self.repeated_group = self.repeated_group or (char == "(" and quantifier not in ("", "{0}", "{1}"))
        return atom + quantifier

    def atom(self, char: str) -> str:
        if char == ".":
            return "[^\\x{a}\\x{d}\\x{2028}\\x{2029}]"
        if char == "(":
            if self.peek(2) in ("?=", "?!") or self.peek(3) in ("?<=", "?<!"):
                raise _Untranslatable("look-around")
            if self.peek(2) == "?:":
                self.index += 2
            elif self.peek(2) == "?<":
                self.index = self.source.index(">", self.index) + 1
            inner = self.disjunction()
            if self.take() != ")":
                raise _Untranslatable("unclosed group")
            return f"(?:{inner})"
        if char == "[":
            return self.character_class()
        if char == "\\":
            escaped = self.escape(in_class=False)
            assert isinstance(escaped, str)  # outside a class every escape is spelled out
            return escaped
        if char in _SYNTAX:
            raise _Untranslatable(char)
        return _literal(ord(char))

    def quantifier(self) -> str:
        char = self.peek()
        if char in ("*", "+", "?"):
            self.index += 1
            text = char
            self.choices += 1
        elif char == "{":
            match = _REPEAT.match(self.source, self.index)
            if match is None:
                raise _Untranslatable("brace")
            if any(int(number) > _RE2_MAX_REPEAT for number in (match.group(1), match.group(3)) if number):
                raise _Untranslatable("a repeat count above RE2's 1000")
            self.index = match.end()
            text = match.group()
            fixed = match.group(2) is None or match.group(3) == match.group(1)
            self.choices += not fixed
        else:
            return ""
        if self.peek() == "?":
            self.index += 1  # lazy or greedy, a search finds a match either way
        return text

    def character_class(self) -> str:
        negated = self.peek() == "^"
        if negated:
            self.index += 1
        parts = []
        while self.peek() != "]":
            low = self.class_atom()
            if self.peek() == "-" and self.peek(2) != "-]":
                self.index += 1
                high = self.class_atom()
                if not (isinstance(low, int) and isinstance(high, int)):
                    raise _Untranslatable("a class escape in a range")
                parts.append(f"{_literal(low)}-{_literal(high)}")
            else:
                parts.append(_literal(low) if isinstance(low, int) else low)
        self.index += 1
        if not parts:
            # [] matches nothing and [^] anything; RE2 has no empty class.
            return "[\\x{0}-\\x{10ffff}]" if negated else "[^\\x{0}-\\x{10ffff}]"
        return f"[{'^' if negated else ''}{''.join(parts)}]"

    def class_atom(self) -> int | str:
        """A code point, or the inside of a class for an escape such as ``\\d``."""
        char = self.take()
        if char != "\\":
            return _checked(ord(char))
        if self.peek() == "b":
            self.index += 1
            return 0x08  # backspace, inside a class
        if self.peek() == "-":
            self.index += 1
            return ord("-")
        return self.escape(in_class=True)

    def escape(self, *, in_class: bool) -> int | str:
        char = self.take()
        lower = char.lower()
        if lower in _CLASS_ESCAPES:
            inside = _CLASS_ESCAPES[lower]
            if char.islower():
                return inside if in_class else f"[{inside}]"
            if in_class:
                raise _Untranslatable("a negated class escape inside a class")
            return f"[^{inside}]"
        code: int
        if char in _CONTROL_ESCAPES:
            code = _CONTROL_ESCAPES[char]
        elif char == "c":
            code = ord(self.take()) % 32
        elif char == "0":
            code = 0
        elif char == "x":
            code = int(self.source[self.index : self.index + 2], 16)
            self.index += 2
        elif char == "u":
            code = self.unicode_escape()
        elif char in _SYNTAX:
            code = ord(char)
        else:
            raise _Untranslatable(f"\\{char}")  # back-references, \k<name>, \p{...}
        return code if in_class else _literal(code)

    def unicode_escape(self) -> int:
        if self.peek() == "{":
            end = self.source.index("}", self.index)
            code = int(self.source[self.index + 1 : end], 16)
            self.index = end + 1
            return _checked(code)
        code = int(self.source[self.index : self.index + 4], 16)
        self.index += 4
        if 0xD800 <= code < 0xDC00 and self.peek(2) == "\\u":
            low = int(self.source[self.index + 2 : self.index + 6], 16)
            if 0xDC00 <= low < 0xE000:
                self.index += 6
                return 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        return _checked(code)


def _checked(code: int) -> int:
    if 0xD800 <= code < 0xE000:
        raise _Untranslatable("a lone surrogate, which UTF-8 cannot hold")
    return code


def _literal(code: int) -> str:
    return f"\\x{{{code:x}}}"


# A quantifier: *, +, ?, {n}, {n,}, {n,m}, each perhaps lazy.
_QUANTIFIER = re.compile(r"(\*|\+|\?|\{(\d+)(,(\d*))?\})\??")
# Past this many ways of matching one place, or this many copies of a counted atom, a pattern's
# cost on a backtracking engine is no longer a small constant.
_MAX_WAYS = 10_000
_MAX_COUNT = 32


class _Shape:
    """What the backtracking check knows of one part of a pattern.

    ``degree``: at one starting place, a backtracking search of n characters takes about
    ``ways * n ** degree`` steps; ``ways``: how many ways it can match one place (alternatives,
    optional atoms); ``varies``: whether it chooses among ways or lengths at all; ``bounded``:
    whether the text it matches has a bounded length; ``literals``: characters every match of it
    must hold, in sequence at its top level; ``repeated``: the atoms it repeats.
    """

    __slots__ = ("degree", "ways", "varies", "bounded", "literals", "repeated", "nested")

    def __init__(self, *, degree: int = 0, ways: int = 1, varies: bool = False, bounded: bool = True) -> None:
        self.degree = degree
        self.ways = ways
        self.varies = varies
        self.bounded = bounded
        self.literals: list[str] = []
        self.repeated: list[str] = []
        self.nested = False  # holds a look-around or back-reference: its cost is not in its atoms


class _Risk(Exception):
    """A shape a backtracking engine can take too long on; its message names the construct."""


def backtracking_risk(source: str) -> str | None:
    """Name what can make a backtracking engine take more than linear time on ``source``, or None.

    Sound, and so conservative: a pattern passes only when a search of n characters provably takes
    about ``n`` steps times a constant it can bound. A pattern the check cannot read is a risk.
    """
    try:
        shape, anchored = _Shapes(source).pattern()
    except _Risk as risk:
        return str(risk)
    except (IndexError, ValueError, regress.RegressError):
        return "time it cannot bound: a construct the check cannot read"
    degree = shape.degree + (0 if anchored else 1)
    if degree > 1:
        where = "" if anchored else ", tried at each place of the string"
        return f"time that grows as the string's length to the power {degree}{where}"
    return None


class _Shapes:
    """A reader of ECMA-262 pattern syntax (already valid: ``regress`` read it first) into shapes."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.index = 0
        self.groups: list[_Shape | None] = []  # capturing groups in order; None while still open
        self.names: dict[str, list[int]] = {}
        self.references: list[list[int]] = []  # the groups each back-reference may name

    def peek(self, length: int = 1) -> str:
        return self.source[self.index : self.index + length]

    def pattern(self) -> tuple[_Shape, bool]:
        anchored = [True]
        shape = self.disjunction(anchored)
        if self.index != len(self.source):
            raise ValueError(self.index)
        # A back-reference costs the length of what its group matched, known once all are read.
        for targets in self.references:
            if not all(
                0 <= target < len(self.groups) and _bounded(self.groups[target]) for target in targets
            ):
                shape.degree += 1
        return shape, anchored[0]

    def disjunction(self, anchored: list[bool] | None = None) -> _Shape:
        alternatives = [self.alternative(anchored)]
        while self.peek() == "|":
            self.index += 1
            alternatives.append(self.alternative(anchored))
        if len(alternatives) == 1:
            return alternatives[0]
        shape = _Shape(
            degree=max(part.degree for part in alternatives),
            ways=sum(part.ways for part in alternatives),
            varies=True,
            bounded=all(part.bounded for part in alternatives),
        )
        shape.repeated = [atom for part in alternatives for atom in part.repeated]
        shape.nested = any(part.nested for part in alternatives)
        return _capped(shape)

    def alternative(self, anchored: list[bool] | None) -> _Shape:
        if anchored is not None and self.peek() != "^":
            anchored[0] = False  # a search tries this alternative at every place of the string
        shape = _Shape()
        while self.index < len(self.source) and self.peek() not in "|)":
            part = self.term()
            shape.degree += part.degree
            shape.ways *= part.ways
            shape.varies = shape.varies or part.varies
            shape.bounded = shape.bounded and part.bounded
            shape.literals += part.literals
            shape.repeated += part.repeated
            shape.nested = shape.nested or part.nested
            _capped(shape)
        return shape

    def term(self) -> _Shape:
        start = self.index
        shape = self.atom()
        atom = self.source[start : self.index]
        match = _QUANTIFIER.match(self.source, self.index)
        if match is None:
            return shape
        self.index = match.end()
        low, high = _bounds(match)
        if high == 1 or high == 0:
            optional = _Shape(
                degree=shape.degree, ways=shape.ways + (low == 0), varies=True, bounded=shape.bounded
            )
            optional.nested = shape.nested
            optional.repeated = shape.repeated
            return _capped(optional)
        if not shape.varies and shape.degree == 0 and not shape.nested:
            # One atom of one length repeated: a counted run costs its count, an open one the string.
            if high is not None and high - low <= _MAX_COUNT:
                counted = _Shape(ways=high - low + 1, varies=high != low)
            else:
                counted = _Shape(degree=1, varies=True, bounded=high is not None)
            counted.repeated = [atom]
            return _capped(counted)
        if high is not None and high <= _MAX_COUNT and shape.degree == 0 and not shape.nested:
            counted = _Shape(ways=sum(shape.ways**count for count in range(low, high + 1)), varies=True)
            counted.repeated = shape.repeated
            return _capped(counted)
        if shape.nested:
            repeat = match.group()
            raise _Risk(
                f"time it cannot bound: a look-around or back-reference in a group repeated by {repeat!r}"
            )
        if not _delimited(shape):
            kind = "an alternation" if shape.ways > 1 else "a repeated atom"
            raise _Risk(f"exponential time: {kind} inside a group repeated by {match.group()!r}")
        # Each pass must match a literal none of its repeated atoms can: a string splits into passes
        # one way only, so the passes add their costs instead of multiplying them.
        looped = _Shape(degree=max(1, shape.degree), varies=True, bounded=False)
        looped.repeated = [*shape.repeated, atom]
        return looped

    def atom(self) -> _Shape:
        char = self.source[self.index]
        self.index += 1
        if char in "^$":
            return _Shape()
        if char == "\\":
            return self.escape()
        if char == "[":
            self.index = _class_end(self.source, self.index - 1)
            return _Shape()
        if char == "(":
            return self.group()
        shape = _Shape()
        if char != ".":
            shape.literals.append(char)
        return shape

    def escape(self) -> _Shape:
        char = self.source[self.index]
        self.index += 1
        shape = _Shape()
        references = len(self.references)
        if char in "pP" and self.peek() == "{":
            self.index = self.source.index("}", self.index) + 1
        elif char == "k" and self.peek() == "<":
            end = self.source.index(">", self.index)
            name = self.source[self.index + 1 : end]
            self.index = end + 1
            self.references.append(self.names.get(name, []) or [-1])
        elif char.isdigit() and char != "0":
            start = self.index - 1
            while self.peek().isdigit():
                self.index += 1
            self.references.append([int(self.source[start : self.index]) - 1])
        elif char == "x":
            self.index += 2
        elif char == "u":
            self.index = self.source.index("}", self.index) + 1 if self.peek() == "{" else self.index + 4
        elif char == "c":
            self.index += 1
        elif not char.isalnum():
            shape.literals.append(char)  # an escaped syntax character stands for itself
        if len(self.references) > references:
            # What it matches is as long as its group's text: unbounded, to be safe.
            shape.nested = True
            shape.bounded = False
        return shape

    def group(self) -> _Shape:
        look_around = self.peek(2) in ("?=", "?!") or self.peek(3) in ("?<=", "?<!")
        capturing = self.peek() != "?" or (self.peek(2) == "?<" and not look_around)
        if look_around:
            self.index += 2 if self.peek(2) in ("?=", "?!") else 3
        elif self.peek(2) == "?:":
            self.index += 2
        number = len(self.groups)
        if capturing:
            self.groups.append(None)
            if self.peek(2) == "?<":
                end = self.source.index(">", self.index)
                self.names.setdefault(self.source[self.index + 2 : end], []).append(number)
                self.index = end + 1
        inner = self.disjunction()
        if self.source[self.index] != ")":
            raise ValueError(self.index)
        self.index += 1
        if capturing:
            self.groups[number] = inner
        if look_around:
            # Matched afresh wherever the search reaches it, and zero-width itself.
            around = _Shape(degree=inner.degree, ways=1, varies=False, bounded=True)
            around.nested = True
            return around
        return inner


def _bounds(match: re.Match[str]) -> tuple[int, int | None]:
    """The least and most copies a quantifier allows; None for no most."""
    text = match.group(1)
    if text in ("*", "+", "?"):
        return {"*": (0, None), "+": (1, None), "?": (0, 1)}[text]
    low = int(match.group(2))
    if match.group(3) is None:
        return low, low
    return low, int(match.group(4)) if match.group(4) else None


def _bounded(group: _Shape | None) -> bool:
    return group is not None and group.bounded


def _capped(shape: _Shape) -> _Shape:
    if shape.ways > _MAX_WAYS:
        raise _Risk(f"exponential time: more than {_MAX_WAYS} ways to match one place")
    return shape


def _delimited(shape: _Shape) -> bool:
    """Some literal every pass must match can be matched by none of the repeated atoms."""
    return any(
        all(regress.Regex(f"^(?:{atom})$", "u").find(literal) is None for atom in shape.repeated)
        for literal in shape.literals
    )
