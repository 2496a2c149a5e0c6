"""The wording the keywords share: values shown as JSON, counted nouns, bounds, and extra properties."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import Words, freeze, writable
from .values import int_text

__all__ = [
    "show",
    "show_within",
    "show_values",
    "QUOTED_CHARS",
    "NAMES_SHOWN",
    "counted",
    "BOUND_WORDS",
    "extra_words",
]


def show(value: Any) -> str:
    """A value as JSON text, for messages: ``"a"``, ``null``, ``[1, 2]``, never a Python repr."""
    kind = type(value)
    if kind is int:
        return int_text(value)
    if kind is float:
        return repr(value)  # what json.dumps writes for a finite float, without its overhead
    # Imported at the first message that quotes a value: a valid instance needs none, and json costs
    # the import.
    import json

    return json.dumps(writable(value), ensure_ascii=False, sort_keys=True)


# How much of one value a message quotes: the whole value stays in the error's facts. A message is
# worded for every error, and a keyword applied to each of many values would otherwise copy a large
# enum or const of the schema into each of their messages.
QUOTED_CHARS = 200
# How many of a schema's names (properties allowed, a union's tags) a message lists.
NAMES_SHOWN = 20


def show_within(value: Any, chars: int = QUOTED_CHARS) -> str:
    """A value as JSON text, for messages, cut to about ``chars`` characters with "…" (a string is
    cut before it is written, so a long one costs no more than its first characters)."""
    return _within(value, chars)[0]


def _within(value: Any, chars: int) -> tuple[str, bool]:
    if type(value) is str and len(value) > chars:
        return show(value[:chars])[:-1] + '…"', True
    text = show(value)
    return (text, False) if len(text) <= chars else (text[: chars - 1] + "…", True)


def show_values(values: Sequence[Any]) -> str:
    """A list of values as JSON text, for messages: whole when short, else its first values within
    about :data:`QUOTED_CHARS` characters (at least one) and how many more there are."""
    shown: list[str] = []
    used, whole = 2, True
    for value in values:
        text, cut = _within(value, QUOTED_CHARS // 2)
        used += len(text) + 2
        if used > QUOTED_CHARS + 2 and shown:
            whole = False
            break
        shown.append(text)
        whole = whole and not cut
    if whole:
        return "[" + ", ".join(shown) + "]"
    if len(shown) < len(values):
        shown.append(f"… {len(values) - len(shown)} more")
    return f"{len(values)} values [{', '.join(shown)}]"


def counted(number: int, noun: str, plural: str = "") -> str:
    """``1 item``, ``2 items``: the number and the noun that fits it."""
    return f"{number} {noun}" if number == 1 else f"{number} {plural or noun + 's'}"


# How each bound's message says its limit.
BOUND_WORDS = {
    "minimum": "at least",
    "maximum": "at most",
    "exclusiveMinimum": "greater than",
    "exclusiveMaximum": "less than",
    "minLength": "at least",
    "maxLength": "at most",
    "minItems": "at least",
    "maxItems": "at most",
    "minProperties": "at least",
    "maxProperties": "at most",
}


def extra_words(extra: Sequence[str], why: str, masked_why: str, facts: dict[str, Any]) -> Words:
    """The words of one error naming every property the object must not have."""
    names = ", ".join(map(show, extra))
    noun = "property" if len(extra) == 1 else "properties"
    return Words(
        f"must not have the {noun} {names}{why}",
        facts={"extra": freeze(extra), **facts},
        masked_message=f"has {counted(len(extra), 'property', 'properties')} {masked_why}",
    )
