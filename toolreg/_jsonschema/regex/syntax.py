"""ECMA-262 pattern syntax read into a tree, in one pass without recursion: the one judge of a pattern.

The grammar is ECMA-262's in Unicode mode (the ``u`` flag: code points, ``\\p{…}``, strict escapes),
plus one thing from Annex B that real catalogs rely on: an escaped ASCII punctuation character or
space (``\\-``, ``\\_``, ``\\:``, ``\\@`` …) stands for itself, as it does without the ``u`` flag.
Escaped letters that ECMA-262 does not define (``\\a``, ``\\A``, ``\\Z``, ``\\e`` …) and other
dialects' syntax (``(?P<n>…)``, ``(?i)``, ``(?#…)``) are refused.

:func:`parse` reads a pattern in time linear in its length, with an explicit stack for groups, so
a pattern nested thousands of groups deep is read like any other; it never compiles or runs one.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from .properties import BINARY_PROPERTIES, GENERAL_CATEGORIES, SCRIPTS

__all__ = [
    "RegexSyntaxError",
    "parse",
    "Node",
    "Literal",
    "CharSet",
    "Property",
    "Assertion",
    "BackReference",
    "Group",
    "LookAround",
    "Repeat",
    "Disjunction",
    "MAX_CODE_POINT",
    "complement",
    "merged_ranges",
    "walk",
    "children_first",
]

MAX_CODE_POINT = 0x10FFFF


class RegexSyntaxError(ValueError):
    """The source is not an ECMA-262 regular expression in Unicode mode; the message says where."""


class Node:
    """A part of a pattern; ``position`` is the index in the source where it starts."""

    __slots__ = ("position",)

    def __init__(self, position: int) -> None:
        self.position = position


class Literal(Node):
    """Code points that stand for themselves, one after another: a run of plain characters (``abc``),
    or one escape (``\\x61``, ``\\u{1F600}``, ``\\-``)."""

    __slots__ = ("text",)

    def __init__(self, position: int, text: str) -> None:
        super().__init__(position)
        self.text = text


class Property:
    """A ``\\p{…}`` or ``\\P{…}``: ``kind`` is ``gc``, ``sc``, ``scx`` or ``binary``; ``value`` the
    canonical name (a General_Category's short name, a script's long name); ``text`` as written."""

    __slots__ = ("kind", "value", "negated", "text")

    def __init__(self, kind: str, value: str, negated: bool, text: str) -> None:
        self.kind = kind
        self.value = value
        self.negated = negated
        self.text = text


class CharSet(Node):
    """One code point out of a set: a class (``[a-z\\d]``), ``.``, or an escape such as ``\\d`` or
    ``\\p{L}``. The set is the union of ``ranges`` (inclusive pairs) and ``properties``, or its
    complement when ``negated``."""

    __slots__ = ("ranges", "properties", "negated")

    def __init__(
        self, position: int, ranges: list[tuple[int, int]], properties: list[Property], negated: bool
    ) -> None:
        super().__init__(position)
        self.ranges = ranges
        self.properties = properties
        self.negated = negated


class Assertion(Node):
    """``^``, ``$``, ``\\b`` or ``\\B`` (``kind`` is the character after any backslash)."""

    __slots__ = ("kind",)

    def __init__(self, position: int, kind: str) -> None:
        super().__init__(position)
        self.kind = kind


class BackReference(Node):
    """``\\1`` or ``\\k<name>``: the text its capturing group matched. ``numbers`` are the groups it
    may name, from 1 (a name may stand on groups in different alternatives)."""

    __slots__ = ("numbers", "name")

    def __init__(self, position: int, name: str | None) -> None:
        super().__init__(position)
        self.numbers: tuple[int, ...] = ()
        self.name = name


class Disjunction(Node):
    """Alternatives, each a sequence of terms; one alternative when there is no ``|``."""

    __slots__ = ("alternatives",)

    def __init__(self, position: int, alternatives: list[list[Node]]) -> None:
        super().__init__(position)
        self.alternatives = alternatives


class Group(Node):
    """``(…)``, ``(?<name>…)`` or ``(?:…)``; ``number`` is None for the last."""

    __slots__ = ("number", "name", "body")

    def __init__(self, position: int, number: int | None, name: str | None, body: Disjunction) -> None:
        super().__init__(position)
        self.number = number
        self.name = name
        self.body = body


class LookAround(Node):
    """``(?=…)``, ``(?!…)``, ``(?<=…)`` or ``(?<!…)``."""

    __slots__ = ("behind", "negative", "body")

    def __init__(self, position: int, behind: bool, negative: bool, body: Disjunction) -> None:
        super().__init__(position)
        self.behind = behind
        self.negative = negative
        self.body = body

    @property
    def opener(self) -> str:
        return "(?" + ("<" if self.behind else "") + ("!" if self.negative else "=")


class Repeat(Node):
    """``body`` repeated from ``low`` to ``high`` times (None: no most); ``position`` is the
    quantifier's. A count past :data:`HUGE` is read as :data:`HUGE`."""

    __slots__ = ("body", "low", "high", "lazy", "text")

    def __init__(self, position: int, body: Node, low: int, high: int | None, lazy: bool, text: str) -> None:
        super().__init__(position)
        self.body = body
        self.low = low
        self.high = high
        self.lazy = lazy
        self.text = text


# Larger than any count a string can need; counts beyond it mean the same as it.
HUGE = 2**32

# A run of characters that stand for themselves: everything but the syntax characters.
_PLAIN = re.compile(r"[^\^$\\.*+?()\[\]{}|]+")
# Escaped, each stands for itself: ECMA-262's syntax characters and "/" in Unicode mode, and the
# rest of ASCII's punctuation and the space, as Annex B reads them without the u flag.
_IDENTITY_ESCAPES = frozenset("^$\\.*+?()[]{}|/") | frozenset("-_:\"'@#%=!<>,~&` ;")
_CONTROL_ESCAPES = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_HEX = frozenset("0123456789abcdefABCDEF")
_DIGITS = frozenset("0123456789")
_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
# What may follow "(?" in other dialects' inline flags: (?i), (?x), (?-i), (?aiLmsux) …
_INLINE_FLAGS = frozenset("aiLmsuxU-")

# ECMA-262's \d, \w and \s (WhiteSpace and LineTerminator), and what "." leaves out.
DIGIT = [(0x30, 0x39)]
WORD = [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]
SPACE = [
    (0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A), (0x2028, 0x2029),
    (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF),
]  # fmt: skip
LINE_TERMINATORS = [(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]

# Escapes of other dialects, named in the refusal.
_FOREIGN_ESCAPES = {
    "A": "\\A is not ECMA-262; the start of the text is ^",
    "Z": "\\Z is not ECMA-262; the end of the text is $",
    "z": "\\z is not ECMA-262; the end of the text is $",
    "a": "\\a is not ECMA-262; the bell character is \\x07",
    "e": "\\e is not ECMA-262; the escape character is \\x1b",
    "h": "\\h is not ECMA-262; write [ \\t] for a space or tab",
    "Q": "\\Q…\\E quoting is not ECMA-262; escape each character instead",
    "G": "\\G is not ECMA-262",
}


def complement(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The code points outside sorted, disjoint ``ranges``."""
    outside, start = [], 0
    for low, high in ranges:
        if low > start:
            outside.append((start, low - 1))
        start = high + 1
    if start <= MAX_CODE_POINT:
        outside.append((start, MAX_CODE_POINT))
    return outside


_CLASS_ESCAPES = {
    "d": DIGIT,
    "D": complement(DIGIT),
    "w": WORD,
    "W": complement(WORD),
    "s": SPACE,
    "S": complement(SPACE),
}


class _Open:
    """A group being read: what opened it, its finished alternatives and the terms of the current one."""

    __slots__ = ("position", "kind", "number", "name", "alternatives", "terms", "alternative_start")

    def __init__(self, position: int, kind: str, number: int | None = None, name: str | None = None) -> None:
        self.position = position
        self.kind = kind  # "group", "(?=", "(?!", "(?<=", "(?<!" or "" for the whole pattern
        self.number = number
        self.name = name
        self.alternatives: list[list[Node]] = []
        self.terms: list[Node] = []
        self.alternative_start = position  # where the current alternative began

    def close(self) -> Disjunction:
        return Disjunction(self.position, [*self.alternatives, self.terms])


def parse(source: str) -> Disjunction:
    """The tree of ``source``; RegexSyntaxError, naming what and where, unless it is ECMA-262."""
    return _Parser(source).pattern()


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source
        self.index = 0
        self.groups = 0  # capturing groups opened so far
        self.names: dict[str, list[int]] = {}  # each name's groups, by number
        self.last_named: dict[str, int] = {}  # where each name's last group opened
        self.references: list[tuple[BackReference, str]] = []  # resolved once every group is known
        self.stack = [_Open(-1, "")]  # the groups open now, the whole pattern first
        self.opened = [-1]  # where each of them opened

    def peek(self, offset: int = 0) -> str:
        index = self.index + offset
        return self.source[index] if index < len(self.source) else ""

    def fail(self, message: str, position: int | None = None) -> RegexSyntaxError:
        where = self.index if position is None else position
        return RegexSyntaxError(f"{message} (at position {where})")

    def pattern(self) -> Disjunction:
        source, stack = self.source, self.stack
        while self.index < len(source):
            frame = stack[-1]
            plain = _PLAIN.match(source, self.index)
            if plain is not None:
                frame.terms.append(Literal(self.index, plain.group()))
                self.index = plain.end()
                continue
            char = source[self.index]
            if char == "|":
                frame.alternatives.append(frame.terms)
                frame.terms = []
                frame.alternative_start = self.index
                self.index += 1
            elif char == "(":
                opened = self.opening()
                stack.append(opened)
                self.opened.append(opened.position)
            elif char == ")":
                if len(stack) == 1:
                    raise self.fail("')' closes no group")
                self.index += 1
                stack.pop()
                self.opened.pop()
                stack[-1].terms.append(self.closed(frame))
            elif char in "*+?{":
                self.quantifier(frame.terms)
            elif char in "}]":
                raise self.fail(f"a lone {char!r} (escape it as \\{char})")
            elif char == "[":
                frame.terms.append(self.character_class())
            elif char == "\\":
                frame.terms.append(self.atom_escape())
            elif char in "^$":
                frame.terms.append(Assertion(self.index, char))
                self.index += 1
            else:
                frame.terms.append(CharSet(self.index, LINE_TERMINATORS, [], True))  # "."
                self.index += 1
        if len(stack) > 1:
            raise self.fail("an unclosed group", stack[-1].position)
        for reference, name in self.references:
            self.resolve(reference, name)
        whole = stack[0].close()
        whole.position = 0
        return whole

    def opening(self) -> _Open:
        """The group opened at ``(``, read up to its body."""
        start = self.index
        self.index += 1
        if self.peek() != "?":
            self.groups += 1
            return _Open(start, "group", self.groups)
        following = self.peek(1)
        for kind in ("(?:", "(?=", "(?!", "(?<=", "(?<!"):
            if self.source.startswith(kind, start):
                self.index = start + len(kind)
                return _Open(start, "group" if kind == "(?:" else kind)
        if following == "<":
            self.index += 2
            name = self.group_name()
            if self.both_may_match(name):
                raise self.fail(f"a second group named {name!r} where both may match", start)
            self.groups += 1
            self.names.setdefault(name, []).append(self.groups)
            self.last_named[name] = start
            return _Open(start, "group", self.groups, name)
        if following == "P":
            raise self.fail("Python's (?P…) syntax is not ECMA-262: write (?<name>…) and \\k<name>", start)
        if following == "#":
            raise self.fail("a (?#…) comment is not ECMA-262", start)
        if following and following in _INLINE_FLAGS:
            raise self.fail("inline flags such as (?i) are not ECMA-262", start)
        raise self.fail("'(?' must be followed by ':', '=', '!', '<=', '<!' or '<name>'", start)

    def both_may_match(self, name: str) -> bool:
        """Whether a group named ``name`` opened here could match along with the last one so named:
        unless they sit in different alternatives of the innermost group holding both, they could
        (ECMA-262 allows a name twice only in different alternatives). Checking the last one is
        enough: had an earlier one clashed with this, the last would clash with one of them."""
        previous = self.last_named.get(name)
        if previous is None:
            return False
        # The innermost group open now that was already open at the previous one: it holds both.
        holder = self.stack[bisect.bisect_right(self.opened, previous) - 1]
        return holder.position == previous or holder.alternative_start <= previous

    def closed(self, frame: _Open) -> Node:
        body = frame.close()
        if frame.kind == "group":
            return Group(frame.position, frame.number, frame.name, body)
        return LookAround(frame.position, "<" in frame.kind, "!" in frame.kind, body)

    def quantifier(self, terms: list[Node]) -> None:
        start = self.index
        char = self.source[start]
        low: int
        high: int | None
        if char == "{":
            bounds = self.braces()
            if bounds is None:
                raise self.fail("a '{' that starts no count such as {2} or {1,3} (escape it as \\{)")
            low, high = bounds
        else:
            self.index += 1
            low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[char]
        lazy = self.peek() == "?"
        if lazy:
            self.index += 1
        text = self.source[start : self.index]
        if not terms or not _quantifiable(terms[-1]):
            raise self.fail(f"{text!r} has nothing to repeat", start)
        last = terms[-1]
        if isinstance(last, Literal) and len(last.text) > 1:
            # A quantifier repeats the last character of a run only.
            terms[-1] = Literal(last.position, last.text[:-1])
            last = Literal(start - 1, last.text[-1])
            terms.append(last)
        terms[-1] = Repeat(start, last, low, high, lazy, text)

    def braces(self) -> tuple[int, int | None] | None:
        """``{n}``, ``{n,}`` or ``{n,m}`` from ``{`` on, or None (leaving the index) if not one."""
        start = self.index
        self.index += 1
        low_digits = self.digits()
        if not low_digits:
            self.index = start
            return None
        high_digits: str | None = low_digits
        if self.peek() == ",":
            self.index += 1
            high_digits = self.digits() or None
        if self.peek() != "}":
            self.index = start
            return None
        self.index += 1
        if high_digits is not None and _number_key(high_digits) < _number_key(low_digits):
            raise self.fail("a count whose most is below its least", start)
        return _count(low_digits), None if high_digits is None else _count(high_digits)

    def digits(self) -> str:
        start = self.index
        while self.peek() in _DIGITS:  # peek() is "" at the end, in no set
            self.index += 1
        return self.source[start : self.index]

    def atom_escape(self) -> Node:
        """An escape outside a class, from its backslash."""
        start = self.index
        self.index += 1
        char = self.peek()
        if not char:
            raise self.fail("a '\\' at the end of the pattern", start)
        if char in "bB":
            self.index += 1
            return Assertion(start, char)
        if char in "123456789":
            digits = self.digits()
            reference = BackReference(start, None)
            self.references.append((reference, digits))
            return reference
        if char == "k":
            self.index += 1
            if self.peek() != "<":
                raise self.fail("\\k must be followed by <name>", start)
            self.index += 1
            name = self.group_name()
            reference = BackReference(start, name)
            self.references.append((reference, name))
            return reference
        found = self.class_escape(start)
        if isinstance(found, int):
            return Literal(start, chr(found))
        ranges, properties = found
        return CharSet(start, ranges, properties, False)

    def class_escape(self, start: int) -> int | tuple[list[tuple[int, int]], list[Property]]:
        """What an escape means inside a class or out: a code point, or a set (``\\d``, ``\\p{…}``).
        The index is just past the backslash."""
        char = self.peek()
        self.index += 1
        if char in _CLASS_ESCAPES:
            return _CLASS_ESCAPES[char], []
        if char in "pP":
            return [], [self.property(start, negated=char == "P")]
        if char in _CONTROL_ESCAPES:
            return _CONTROL_ESCAPES[char]
        if char == "c":
            letter = self.peek()
            if letter not in _ASCII_LETTERS:
                raise self.fail("\\c must be followed by an ASCII letter", start)
            self.index += 1
            return ord(letter) % 32
        if char == "0":
            if self.peek() in _DIGITS:
                raise self.fail("\\0 followed by a digit (an octal escape) is not allowed", start)
            return 0
        if char == "x":
            hex_digits = self.source[self.index : self.index + 2]
            if len(hex_digits) < 2 or not _HEX.issuperset(hex_digits):
                raise self.fail("\\x must be followed by two hex digits", start)
            self.index += 2
            return int(hex_digits, 16)
        if char == "u":
            return self.unicode_escape(start)
        if char in _IDENTITY_ESCAPES:
            return ord(char)
        if char in _FOREIGN_ESCAPES:
            raise self.fail(_FOREIGN_ESCAPES[char], start)
        raise self.fail(f"\\{char} is not an escape ECMA-262 defines", start)

    def unicode_escape(self, start: int) -> int:
        """``\\u{…}``, ``\\uXXXX`` or a surrogate pair ``\\uD83D\\uDE00``, from after the ``u``."""
        if self.peek() == "{":
            end = self.source.find("}", self.index)
            hex_digits = self.source[self.index + 1 : end] if end > 0 else ""
            stripped = hex_digits.lstrip("0") or "0"
            if (
                not hex_digits
                or not _HEX.issuperset(hex_digits)
                or len(stripped) > 6
                or int(stripped, 16) > MAX_CODE_POINT
            ):
                raise self.fail("\\u{…} must hold a code point in hex, at most 10FFFF", start)
            self.index = end + 1
            return int(stripped, 16)
        code = self.four_hex_digits(start)
        if 0xD800 <= code <= 0xDBFF and self.source.startswith("\\u", self.index):
            saved = self.index
            self.index += 2
            hex_digits = self.source[self.index : self.index + 4]
            if (
                len(hex_digits) == 4
                and _HEX.issuperset(hex_digits)
                and 0xDC00 <= int(hex_digits, 16) <= 0xDFFF
            ):
                self.index += 4
                return 0x10000 + ((code - 0xD800) << 10) + (int(hex_digits, 16) - 0xDC00)
            self.index = saved
        return code

    def four_hex_digits(self, start: int) -> int:
        hex_digits = self.source[self.index : self.index + 4]
        if len(hex_digits) < 4 or not _HEX.issuperset(hex_digits):
            raise self.fail("\\u must be followed by four hex digits or {…}", start)
        self.index += 4
        return int(hex_digits, 16)

    def property(self, start: int, *, negated: bool) -> Property:
        """``{…}`` after ``\\p`` or ``\\P``."""
        if self.peek() != "{":
            raise self.fail("\\p and \\P must be followed by {…}", start)
        end = self.source.find("}", self.index)
        inside = self.source[self.index + 1 : end] if end > 0 else ""
        if end < 0:
            raise self.fail("an unclosed \\p{", start)
        self.index = end + 1
        text = self.source[start : self.index]
        name, equals, value = inside.partition("=")
        found: tuple[str, str] | None = None
        if not equals:
            if name in GENERAL_CATEGORIES:
                found = ("gc", GENERAL_CATEGORIES[name])
            elif name in BINARY_PROPERTIES:
                found = ("binary", BINARY_PROPERTIES[name])
        elif name in ("General_Category", "gc") and value in GENERAL_CATEGORIES:
            found = ("gc", GENERAL_CATEGORIES[value])
        elif name in ("Script", "sc", "Script_Extensions", "scx") and value in SCRIPTS:
            found = ("scx" if name in ("Script_Extensions", "scx") else "sc", SCRIPTS[value])
        if found is None:
            raise self.fail(f"{text} names no Unicode property ECMA-262 knows", start)
        return Property(found[0], found[1], negated, text)

    def group_name(self) -> str:
        """A group's name, from after ``<`` to past ``>`` (escapes such as ``\\u0061`` allowed)."""
        start = self.index
        name: list[str] = []
        while self.peek() != ">":
            char = self.peek()
            if not char:
                raise self.fail("a group name without its '>'", start)
            if char == "\\":
                position = self.index
                self.index += 1
                if self.peek() != "u":
                    raise self.fail("a group name may only hold \\u escapes", position)
                self.index += 1
                code = self.unicode_escape(position)
                char = chr(code)
            else:
                self.index += 1
            valid = (char in "$_" or char.isidentifier()) if not name else ("a" + char).isidentifier()
            if not valid and not (name and char in "$\u200c\u200d"):
                raise self.fail(f"{char!r} cannot be part of a group name", start)
            name.append(char)
        self.index += 1
        if not name:
            raise self.fail("an empty group name", start)
        return "".join(name)

    def resolve(self, reference: BackReference, written: str) -> None:
        if reference.name is not None:
            numbers = self.names.get(reference.name)
            if numbers is None:
                raise self.fail(f"\\k<{reference.name}> names no group", reference.position)
            reference.numbers = tuple(numbers)
            return
        if _number_key(written) > _number_key(str(self.groups)):
            raise self.fail(
                f"\\{written} refers to a group the pattern does not have (it has {self.groups})",
                reference.position,
            )
        reference.numbers = (int(written),)

    def character_class(self) -> CharSet:
        """``[…]`` from its ``[``; in ECMA-262 a ``]`` right after ``[`` or ``[^`` closes it."""
        start = self.index
        self.index += 1
        negated = self.peek() == "^"
        if negated:
            self.index += 1
        ranges: list[tuple[int, int]] = []
        properties: list[Property] = []
        while self.peek() != "]":
            if not self.peek():
                raise self.fail("an unclosed '['", start)
            atom_start = self.index
            low = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.index += 1
                high = self.class_atom()
                if not (isinstance(low, int) and isinstance(high, int)):
                    raise self.fail("a range with a class escape such as \\d at an end", atom_start)
                if high < low:
                    raise self.fail("a range out of order", atom_start)
                ranges.append((low, high))
            elif isinstance(low, int):
                ranges.append((low, low))
            else:
                ranges.extend(low[0])
                properties.extend(low[1])
        self.index += 1
        return CharSet(start, merged_ranges(ranges), properties, negated)

    def class_atom(self) -> int | tuple[list[tuple[int, int]], list[Property]]:
        char = self.source[self.index]
        if char != "\\":
            self.index += 1
            return ord(char)
        start = self.index
        self.index += 1
        escaped = self.peek()
        if escaped == "b":
            self.index += 1
            return 0x08  # backspace, inside a class
        if escaped == "-":
            self.index += 1
            return ord("-")
        if escaped == "B" or (escaped in _DIGITS and escaped != "0") or escaped == "k":
            raise self.fail(f"\\{escaped} cannot stand inside a class", start)
        if not escaped:
            raise self.fail("a '\\' at the end of the pattern", start)
        return self.class_escape(start)


def _quantifiable(term: Node) -> bool:
    # In Unicode mode assertions and look-arounds take no quantifier, nor does a quantified term.
    return not isinstance(term, (Assertion, LookAround, Repeat))


def _number_key(digits: str) -> tuple[int, str]:
    """Orders decimal numbers of any length exactly (Python's int refuses over 4,300 digits)."""
    stripped = digits.lstrip("0") or "0"
    return len(stripped), stripped


def _count(digits: str) -> int:
    stripped = digits.lstrip("0") or "0"
    return HUGE if len(stripped) > 10 else min(int(stripped), HUGE)


def merged_ranges(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``ranges`` sorted, with overlapping and touching ones joined."""
    merged: list[tuple[int, int]] = []
    for low, high in sorted(ranges):
        if merged and low <= merged[-1][1] + 1:
            if high > merged[-1][1]:
                merged[-1] = (merged[-1][0], high)
        else:
            merged.append((low, high))
    return merged


def walk(tree: Node) -> Iterator[Node]:
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


def children_first(tree: Node) -> Iterator[Node]:
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
