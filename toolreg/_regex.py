"""ECMA-262 regular expressions, as JSON Schema's ``pattern`` requires: RE2 where exact, else ``regress``.

Most patterns are translated into RE2's syntax, atom by atom with ECMA-262's meaning spelled out
(``\\d`` is ``[0-9]``, ``.`` excludes the four line terminators, ``$`` is the end of the text), and run
by RE2, whose time is linear in the text. What RE2 cannot express (look-arounds, back-references,
``\\p{…}``, repeat counts above 1000) runs on ``regress``, a backtracking engine, behind the guard in
:func:`backtracking_risk`.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any

import re2
import regress

__all__ = ["Pattern", "RegexSyntaxError", "backtracking_risk", "to_re2", "translate"]

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

    __slots__ = ("source", "linear", "_backtracking", "_linear", "_short_ok")

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
        translated = translate(source)
        # Past RE2's own limits (its memory budget) a pattern stays on regress, behind the guard.
        with contextlib.suppress(re2.error):
            if translated is not None:
                self._linear = _linear_search(re2.compile(translated[0], _RE2_OPTIONS))
                # regress answers a short string faster than RE2's binding can be called, and with
                # at most one choice of how often to repeat and no repeated group, a backtracking
                # search of n characters takes at most about n * n steps.
                self._short_ok = translated[1]
        self.linear = self._linear is not None

    def search(self, text: str) -> bool:
        """True when the pattern matches somewhere in ``text`` (a search, not a full match)."""
        try:
            if self._linear is not None and (len(text) > _SHORT or not self._short_ok):
                return self._linear(text)
            return self._backtracking.find(text) is not None
        except UnicodeError:
            # Both engines take UTF-8, which a lone surrogate (legal in a JSON string) lacks; U+FFFD
            # stands in for each, keeping the code-point count and matching no ASCII class.
            return self.search(_SURROGATE.sub("\ufffd", text))


# Strings up to this long go to regress when the pattern's shape keeps that quadratic at worst.
_SHORT = 256
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
_QUANTIFIER = re.compile(r"\*\??|\+\??|\?\??|\{(\d+)(,(\d*))?\}\??")


class _Group:
    """What the risk check keeps of one group while reading it."""

    def __init__(self) -> None:
        self.repeated: list[str | None] = []  # sources of repeated atoms; None for a repeated group
        self.delimiters: list[str] = []  # literal characters every pass must match, at this level
        self.alternation = False


def backtracking_risk(source: str) -> str | None:
    """Name the construct that can make a backtracking engine take exponential time, or None; a
    pattern the check cannot read is named as a risk, never let through."""
    try:
        return _exponential_shape(source)
    except (IndexError, ValueError, regress.RegressError):
        return "a construct the backtracking check cannot read"


def _exponential_shape(source: str) -> str | None:
    """The shapes :func:`backtracking_risk` looks for.

    Flagged: a group repeated (``*``, ``+``, ``{n,m}`` with m above 1) that holds an alternation
    (``(a|ab)*``) or a repeated atom (``(a+)+``, ``(\\w+\\s?)*``), unless each pass must match a
    literal character that none of its repeated atoms can match (``(-[a-z]+)*``, ``([a-z]+\\.)+``):
    then a string splits among the passes in one way only. Otherwise it splits in exponentially
    many, and a backtracking engine tries each when the match fails. The check is conservative:
    it may flag a safe pattern, and it does not look for polynomial shapes (``\\d*\\d*x``).
    """
    groups, index = [_Group()], 0
    while index < len(source):
        char, start = source[index], index
        if char == "\\":
            index += 2
        elif char == "[":
            index = _class_end(source, index)
        elif char == "(":
            groups.append(_Group())
            index += 1 + _group_prefix(source, index)
            continue
        elif char == ")":
            inner = groups.pop()
            index += 1
            match = _QUANTIFIER.match(source, index)
            if match and _repeats(match):
                if inner.alternation:
                    return f"an alternation inside a group repeated by {match.group()!r}"
                if inner.repeated and not _delimited(inner):
                    return f"a repeated atom inside a group repeated by {match.group()!r}"
            if match:
                index = match.end()
            if match and _repeats(match):
                groups[-1].repeated.append(None)
            else:
                groups[-1].repeated.extend(inner.repeated)
            continue
        elif char == "|":
            groups[-1].alternation = True
            index += 1
            continue
        elif char in "^$":
            index += 1
            continue
        else:
            index += 1
        atom = source[start:index]
        match = _QUANTIFIER.match(source, index)
        if match:
            index = match.end()
            if _repeats(match):
                groups[-1].repeated.append(atom)
        elif atom != "." and (len(atom) == 1 or (atom[0] == "\\" and not atom[1].isalnum())):
            groups[-1].delimiters.append(atom[-1])
    return None


def _delimited(group: _Group) -> bool:
    """Some literal every pass must match can be matched by none of the repeated atoms."""
    if None in group.repeated:
        return False
    return any(
        all(regress.Regex(f"^(?:{atom})$", "u").find(delimiter) is None for atom in group.repeated if atom)
        for delimiter in group.delimiters
    )


def _class_end(source: str, index: int) -> int:
    index += 1
    if source[index : index + 1] == "^":
        index += 1
    # In ECMA-262 a "]" right after "[" or "[^" closes the class ("[]" matches nothing).
    while index < len(source) and source[index] != "]":
        index += 2 if source[index] == "\\" else 1
    return index + 1


def _group_prefix(source: str, index: int) -> int:
    """The length of ``?:``, ``?=``, ``?!``, ``?<=``, ``?<!`` or ``?<name>`` after a ``(``."""
    if source[index + 1 : index + 2] != "?":
        return 0
    if source[index + 2 : index + 3] in (":", "=", "!"):
        return 2
    if source[index + 2 : index + 4] in ("<=", "<!"):
        return 3
    closing = source.find(">", index)
    return closing - index if closing != -1 else 1


def _repeats(match: re.Match[str]) -> bool:
    """More than one copy of the atom: not ``?`` nor ``{0,1}``."""
    text = match.group()
    if text[0] in "*+":
        return True
    if text[0] == "?":
        return False
    upper = match.group(3) if match.group(2) is not None else match.group(1)
    return not upper or int(upper) > 1
