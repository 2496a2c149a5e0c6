"""RFC 6901 JSON Pointers: building them from path tokens and reading them back; places in an instance."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = [
    "Token",
    "Place",
    "InstanceKey",
    "Document",
    "ARRAY_INDEX",
    "to_pointer",
    "masked_pointer",
    "escape",
    "unescape",
    "split",
    "walk_tokens",
    "place_tokens",
    "place_pointer",
    "place_masked_pointer",
    "names_a_key",
]

Token = str | int
# A place in an instance: ``()`` is the root, ``(parent, token)`` one step below ``parent``. A step
# shares its parent rather than copying it, so a walk makes one small tuple for each value it enters
# and a thousand errors deep in a long-named object share the names above them; the pointer is written
# only when it is read (:func:`place_pointer`).
Place = tuple[()] | tuple["Place", Token]
# An array index as a pointer writes it: no sign, no leading zero.
ARRAY_INDEX = re.compile(r"0|[1-9][0-9]*")


class InstanceKey(str):
    """A property name the instance chose (under ``additionalProperties``), not one the schema named:
    a masked error shows it as ``*``."""

    __slots__ = ()


class Document(str):
    """The first token of a location in another schema document, given by its URI: the pointer of
    ``(Document(uri), "type")`` is ``uri#/type``."""

    __slots__ = ()


def escape(token: Token) -> str:
    """One reference token, with ``~`` and ``/`` escaped (``~`` first, as RFC 6901 requires)."""
    return str(token).replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    """The inverse of :func:`escape` (``~1`` first, so ``~01`` reads back as ``~1``)."""
    return token.replace("~1", "/").replace("~0", "~")


def to_pointer(tokens: Iterable[Token]) -> str:
    """``("user", "email")`` becomes ``/user/email``; no tokens is the root, ``""``."""
    parts, document = [], ""
    for token in tokens:
        if type(token) is Document:
            document = f"{token}#"
            continue
        text = token if type(token) is str else str(token)
        # Most names need no escaping; testing first keeps pointers cheap on the error path.
        if "~" in text or "/" in text:
            text = text.replace("~", "~0").replace("/", "~1")
        parts.append(text)
    return document + ("/" + "/".join(parts) if parts else "")


def masked_pointer(tokens: tuple[Token, ...]) -> str | None:
    """The pointer with each :class:`InstanceKey` as ``*``; None when the path holds none."""
    for token in tokens:
        if type(token) is InstanceKey:
            return to_pointer("*" if type(token) is InstanceKey else token for token in tokens)
    return None


def split(pointer: str) -> list[str]:
    """The unescaped tokens of a pointer; raises ValueError unless it is ``""`` or starts with ``/``."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"a JSON Pointer starts with '/': {pointer!r}")
    return [unescape(token) for token in pointer[1:].split("/")]


def walk_tokens(document: Any, tokens: Iterable[str]) -> tuple[bool, Any]:
    """Whether ``tokens`` lead somewhere in ``document``, and the value there (None where not): a key
    of an object, or an array index as a pointer writes it within the array's length."""
    value = document
    for token in tokens:
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and ARRAY_INDEX.fullmatch(token) and int(token) < len(value):
            value = value[int(token)]
        else:
            return False, None
    return True, value


def place_tokens(place: Place) -> tuple[Token, ...]:
    """The tokens from the root down to ``place``: ``(((), "user"), "email")`` is ``("user", "email")``."""
    tokens: list[Token] = []
    while place:
        place, token = place
        tokens.append(token)
    tokens.reverse()
    return tuple(tokens)


def place_pointer(place: Place) -> str:
    """The JSON Pointer of ``place``: ``(((), "user"), "email")`` is ``/user/email``."""
    return to_pointer(place_tokens(place)) if place else ""


def place_masked_pointer(place: Place) -> str | None:
    """The pointer of ``place`` with each :class:`InstanceKey` as ``*``; None when it holds none."""
    return masked_pointer(place_tokens(place)) if names_a_key(place) else None


def names_a_key(place: Place) -> bool:
    """Whether the way to ``place`` passes through a name the instance chose (an :class:`InstanceKey`)."""
    while place:
        place, token = place
        if type(token) is InstanceKey:
            return True
    return False
