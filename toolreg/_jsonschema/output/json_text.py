"""JSON text written a piece at a time within a bound of bytes."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from ..values import int_text
from .recording import TooLarge

# The JSON text of a string, as ``json.dumps`` writes it by default (ASCII, with escapes).
_json_string = json.encoder.encode_basestring_ascii

__all__ = ["bounded_json"]


def bounded_json(value: Any, most_bytes: int, *, indent: int | None = None) -> str:
    """``json.dumps(value, indent=indent)`` of a JSON value whose arrays may be tuples and whose
    objects any mapping, written a piece at a time with its own stack, each mapping read only when
    it is written: TooLarge as soon as the text passes ``most_bytes``, so a value whose text would
    be gigabytes (errors holding long pointers, nested in branches) costs at most that. An integer
    too long for Python to write as text is written as the words for its size, as ``to_dict`` does."""
    pieces: list[str] = []
    size = 0
    for piece in _json_pieces(value, indent):
        size += len(piece)
        if size > most_bytes:
            raise TooLarge
        pieces.append(piece)
    return "".join(pieces)


def _json_pieces(value: Any, indent: int | None) -> Iterator[str]:
    separator = ", " if indent is None else ","
    # The containers open: their items left (name and value; the name None in an array), whether
    # one was written, and the closing bracket.
    stack: list[tuple[Iterator[tuple[str | None, Any]], list[bool], str]] = []
    item: Any = value
    while True:
        if isinstance(item, Mapping):
            stack.append((iter(item.items()), [False], "}"))
            yield "{"
        elif isinstance(item, list | tuple):
            stack.append((((None, part) for part in item), [False], "]"))
            yield "["
        else:
            yield _json_scalar(item)
        while stack:
            items, written, closing = stack[-1]
            following = next(items, None)
            if following is None:
                stack.pop()
                if written[0] and indent is not None:
                    yield "\n" + " " * (indent * len(stack))
                yield closing
                continue
            if written[0]:
                yield separator
            written[0] = True
            if indent is not None:
                yield "\n" + " " * (indent * len(stack))
            name, item = following
            if name is not None:
                yield _json_string(name) + ": "
            break
        else:
            return


def _json_scalar(value: Any) -> str:
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, str):
        return _json_string(value)
    if isinstance(value, int):
        text = int_text(value)
        return text if text[-1].isdigit() else _json_string(text)
    if isinstance(value, float):
        return json.dumps(value)
    raise TypeError(f"not a JSON value: {type(value).__name__}")
