"""ECMA-262 regular expressions, as JSON Schema's ``pattern`` requires, through ``regress``."""

from __future__ import annotations

import re

import regress

__all__ = ["Pattern", "RegexSyntaxError"]

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
