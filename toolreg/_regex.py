"""ECMA-262 regular expressions, as JSON Schema's ``pattern`` requires, through ``regress``."""

from __future__ import annotations

import re

import regress

__all__ = ["Pattern", "RegexSyntaxError", "backtracking_risk"]

_SURROGATE = re.compile("[\ud800-\udfff]")


class RegexSyntaxError(ValueError):
    """The source is not a valid ECMA-262 regular expression in Unicode mode."""


class Pattern:
    """A compiled pattern that answers one question: does it match anywhere in a string?"""

    __slots__ = ("source", "_regex")

    def __init__(self, source: str) -> None:
        self.source = source
        try:
            # Unicode mode: code points, not UTF-16 units, and \p{...} escapes.
            self._regex = regress.Regex(source, "u")
        except regress.RegressError as error:
            raise RegexSyntaxError(str(error)) from None
        except (TypeError, ValueError, UnicodeError) as error:
            raise RegexSyntaxError(str(error)) from None

    def search(self, text: str) -> bool:
        """True when the pattern matches somewhere in ``text`` (a search, not a full match)."""
        try:
            return self._regex.find(text) is not None
        except UnicodeError:
            # regress takes UTF-8, which a lone surrogate (legal in a JSON string) lacks; U+FFFD
            # stands in for each, keeping the code-point count and matching no ASCII class.
            return self._regex.find(_SURROGATE.sub("\ufffd", text)) is not None


# A quantifier: *, +, ?, {n}, {n,}, {n,m}, each perhaps lazy.
_QUANTIFIER = re.compile(r"\*\??|\+\??|\?\??|\{(\d+)(,(\d*))?\}\??")


class _Group:
    """What the risk check keeps of one group while reading it."""

    def __init__(self) -> None:
        self.repeated: list[str | None] = []  # sources of repeated atoms; None for a repeated group
        self.delimiters: list[str] = []  # literal characters every pass must match, at this level
        self.alternation = False


def backtracking_risk(source: str) -> str | None:
    """Name the construct that can make a backtracking engine take exponential time, or None.

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
    if source[index : index + 1] == "]":
        index += 1
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
