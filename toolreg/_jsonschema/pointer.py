"""RFC 6901 JSON Pointers: building them from path tokens and reading them back."""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "Token",
    "InstanceKey",
    "Document",
    "ARRAY_INDEX",
    "to_pointer",
    "masked_pointer",
    "escape",
    "unescape",
    "split",
]

Token = str | int
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
