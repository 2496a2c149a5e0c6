"""One JSON value from a log's text, read strictly: NaN and Infinity refused, a lone surrogate refused,
and each failure worded with its column, as a log's problems are reported.
"""

from __future__ import annotations

import json
import json.scanner
import re
from collections.abc import Callable
from typing import Any


class NotJSON(ValueError):
    """NaN, Infinity and -Infinity: Python reads them, JSON has none."""


def _reject_constant(name: str) -> Any:
    raise NotJSON(f"{name} is not JSON")


DECODER = json.JSONDecoder(parse_constant=_reject_constant)
WHITESPACE = " \t\n\r"


# The C scanner json.loads runs, called without the two Python functions around it (a tenth of a
# short line's reading).
_SCAN: Callable[[str, int], tuple[Any, int]] = json.scanner.make_scanner(DECODER)  # type: ignore[arg-type]


def parsed(text: str) -> tuple[Any, str | None]:
    """One line's JSON value, or None and why it is none."""
    try:
        start = len(text) - len(text.lstrip(WHITESPACE)) if text[:1] in WHITESPACE else 0
        value, end = _SCAN(text, start)
    except StopIteration as stop:  # no value where one must start
        return None, f"not JSON: Expecting value at column {stop.value + 1}"
    except json.JSONDecodeError as error:
        return None, f"not JSON: {error.msg} at column {error.colno}"
    except NotJSON as error:
        return None, f"not JSON: {error}"
    except RecursionError:
        return None, "not JSON Python can read: nested too deeply"
    except ValueError:  # an integer past Python's digit limit
        return None, "not JSON Python can read: an integer with too many digits"
    if end != len(text) and text[end:].strip(WHITESPACE):
        extra = len(text) - len(text[end:].lstrip(WHITESPACE))
        return None, f"not JSON: Extra data at column {extra + 1}"
    return value, None


_SURROGATE = re.compile("[\ud800-\udfff]")


def line_value(text: str, decoded: bool = False) -> tuple[Any, str | None]:
    """One line's JSON value, or None and why it is none; a lone surrogate (``\\ud800`` escaped, which
    Python reads) makes no Unicode text, and would break every report that shows it. Text ``decoded``
    from UTF-8 holds none unescaped."""
    value, reason = parsed(text)
    escaped = "\\u" in text and ("\\ud" in text or "\\uD" in text)
    if reason is None and (escaped or (not decoded and _SURROGATE.search(text))):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError as error:
            return None, f"not Unicode text: a lone surrogate U+{ord(error.object[error.start]):04X}"
    return value, reason


def error_reason(error: BaseException) -> str:
    """Why a value of an array document could not be read, worded as a line's reason is."""
    if isinstance(error, json.JSONDecodeError):
        return f"not JSON: {error.msg}"
    if isinstance(error, NotJSON):
        return f"not JSON: {error}"
    if isinstance(error, RecursionError):
        return "not JSON Python can read: nested too deeply"
    return "not JSON Python can read: an integer with too many digits"
