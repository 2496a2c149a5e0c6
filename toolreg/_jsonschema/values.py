"""The JSON data model: which Python values are JSON, their JSON type names, and JSON equality."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "json_type",
    "is_integer",
    "is_number",
    "json_equal",
    "json_key",
    "json_key_within",
    "json_size",
    "ValueKeys",
    "exact_number",
    "int_text",
    "find_non_json",
    "survey",
    "json_copy",
    "plain_copy",
    "snapshot",
    "NotJSON",
]


def is_number(value: object) -> bool:
    """A JSON number: an int that is not a bool, or a finite float."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and math.isfinite(value)


def is_integer(value: object) -> bool:
    """A JSON integer: a number with no fractional part, so ``1.0`` counts."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and value.is_integer()


def json_type(value: object) -> str | None:
    """The JSON type name of one value (not its contents), or None for a non-JSON value.

    Integral numbers are reported as ``"integer"``: it is the most precise name,
    and every integer is also a ``"number"``.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, str):
        return "string"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return "integer" if value.is_integer() else "number"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return None


def json_equal(left: Any, right: Any) -> bool:
    """Equality as JSON sees it: ``1 == 1.0`` but ``1 != True``, deep for containers."""
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if is_number(left) or is_number(right):
        return is_number(left) and is_number(right) and left == right
    if isinstance(left, list):
        return (
            isinstance(right, list)
            and len(left) == len(right)
            and all(json_equal(a, b) for a, b in zip(left, right, strict=True))
        )
    if isinstance(left, dict):
        return (
            isinstance(right, dict)
            and left.keys() == right.keys()
            and all(json_equal(value, right[key]) for key, value in left.items())
        )
    if isinstance(left, str):
        return isinstance(right, str) and left == right
    return left is None and right is None


def json_key(value: Any) -> Any:
    """A hashable stand-in with JSON's equality: equal keys exactly when :func:`json_equal` holds."""
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, (int, float)):
        # Python hashes numbers by their value modulo 2**61 - 1, so a model could send a thousand
        # distinct numbers that all collide; bytes and strings hash with a per-process secret.
        # Integral floats take the int's form, so 1 and 1.0 meet and 2**53 + 1 does not meet 2**53.
        if isinstance(value, int) or value.is_integer():
            whole = int(value)
            return ("number", whole.to_bytes(whole.bit_length() // 8 + 1, "little", signed=True))
        return ("number", value.hex())
    if isinstance(value, str):
        return ("string", value)
    if isinstance(value, list):
        return ("array", tuple(json_key(item) for item in value))
    if isinstance(value, dict):
        return ("object", frozenset((key, json_key(item)) for key, item in value.items()))
    return ("null", None)


def json_size(value: Any) -> int:
    """How many values ``value`` holds, itself included."""
    if isinstance(value, list):
        return 1 + sum(map(json_size, value))
    if isinstance(value, dict):
        return 1 + sum(map(json_size, value.values()))
    return 1


class _TooLarge(Exception):
    pass


def json_key_within(value: Any, most: int) -> Any:
    """:func:`json_key` of ``value``, or None when it holds more than ``most`` values: then it equals
    no value that small, and keying it whole would cost its size rather than ``most``."""
    left = [most]

    def key(item: Any) -> Any:
        left[0] -= 1
        if left[0] < 0:
            raise _TooLarge
        if isinstance(item, list):
            return ("array", tuple(map(key, item)))
        if isinstance(item, dict):
            return ("object", frozenset((name, key(child)) for name, child in item.items()))
        return json_key(item)

    try:
        return key(value)
    except _TooLarge:
        return None


class ValueKeys:
    """Keys with JSON's equality for the values of one instance, as :func:`json_key` makes them, but
    with each array or object keyed once by a number that stands for its value: keying a container
    again, or one that holds it, costs its length, never its size.

    It remembers containers by identity, so it lives for one validation of one instance, which
    keeps them alive and unchanged meanwhile.
    """

    __slots__ = ("_numbers", "_values")

    def __init__(self) -> None:
        self._numbers: dict[int, int] = {}  # id of a container -> the number of its value
        self._values: dict[Any, int] = {}  # a container's value, by its items' keys -> its number

    def key(self, value: Any) -> Any:
        if isinstance(value, (list, dict)):
            number = self._numbers.get(id(value))
            return self._number(value) if number is None else number
        return json_key(value)  # a tuple: never equal to a container's number

    def _number(self, value: list[Any] | dict[str, Any]) -> int:
        shape: Any
        if isinstance(value, list):
            shape = ("array", tuple(self.key(item) for item in value))
        else:
            shape = ("object", frozenset((name, self.key(item)) for name, item in value.items()))
        number = self._numbers[id(value)] = self._values.setdefault(shape, len(self._values))
        return number


def exact_number(value: int | float) -> Fraction:
    """The number a JSON text means: ``0.07`` is 7/100, not the binary float nearest to it.

    ``repr`` gives the shortest decimal that reads back as the same float, which is what a JSON
    parser was given (or a text equivalent to it).
    """
    # Imported here: only multipleOf and the catalog comparison need it, and it costs the import
    # (fractions imports decimal).
    from fractions import Fraction

    if isinstance(value, int):
        return Fraction(int(value))
    # float's own repr, not a subclass's (numpy's float64 writes "np.float64(0.1)").
    return Fraction(float.__repr__(value))


def int_text(number: int) -> str:
    """An integer as JSON writes it or, for one too long for Python to write (past 4,300 digits, a
    guard of Python's own against slow conversions, or fewer if the process lowered it), words for
    its size: "an integer of about 5000 digits"."""
    if number.bit_length() < 14_000:
        try:
            return str(int(number))
        except ValueError:
            pass  # sys.set_int_max_str_digits set a lower limit
    sign = "a negative" if number < 0 else "an"
    return f"{sign} integer of about {int(number.bit_length() * 0.30103)} digits"


class NotJSON(ValueError):
    """Raised by :func:`json_copy`, and by :func:`snapshot` with ``problem``, the first place that is
    not JSON as ``(path, keyword, reason)``."""

    problem: Problem | None = None


def json_copy(value: Any, max_depth: int = 10**9) -> Any:
    """A deep copy of a JSON value made of exact built-in types; raises NotJSON for anything else.

    It walks once where ``copy.deepcopy`` and a separate check would walk twice. A subclass of a
    JSON type, a cycle or very deep nesting also raise NotJSON: the caller falls back to
    :func:`find_non_json`, which takes subclasses as JSON and needs no Python stack.
    """
    try:
        return _copy(value, max_depth)
    except RecursionError:
        raise NotJSON("too deep, or a cycle") from None


def _copy(value: Any, depth_left: int) -> Any:
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float and math.isfinite(value):
        return value
    if depth_left <= 0:
        raise NotJSON("too deep")
    if kind is dict:
        copied = {}
        for key, item in value.items():
            if type(key) is not str:
                raise NotJSON(key)
            copied[key] = _copy(item, depth_left - 1)
        return copied
    if kind is list:
        return [_copy(item, depth_left - 1) for item in value]
    raise NotJSON(kind.__name__)


def snapshot(value: Any, max_depth: int) -> Any:
    """A copy of a JSON value made of the exact built-in types, whatever subclasses it was built of;
    raises NotJSON, with the first ``problem``, where it is not JSON or nests deeper than ``max_depth``."""
    try:
        return json_copy(value, max_depth)
    except NotJSON:
        pass  # a subclass, a cycle, a non-JSON value or depth: the walk below says which
    problems = find_non_json(value, max_depth)
    if not problems:
        try:
            return plain_copy(value)
        except RecursionError:
            # A max_depth raised past what this Python's stack allows: as deep, said as depth.
            problems = [((), "depth", "nested deeper than Python's recursion limit lets it be copied")]
    error = NotJSON(problems[0][2])
    error.problem = problems[0]
    raise error


def plain_copy(value: Any) -> Any:
    """A copy of a JSON value built of subclasses of its types (an ``IntEnum``, an ``OrderedDict``)
    made of the exact built-in types; :func:`find_non_json` must have found nothing in it."""
    # The built-in types' own methods, never a subclass's: a hostile override cannot run here.
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, list):
        return [plain_copy(item) for item in list.__iter__(value)]
    # From one copy of its items, taken whole: another thread changing it cannot break the copy.
    return {str.__str__(key): plain_copy(item) for key, item in list(dict.items(value))}


# Where a container stands, as a chain back to the root: (parent, token, depth); the root is None.
# Only containers get a link, so a walk costs memory in the number of containers open along one
# path, never the size of the value times its depth.
_Place = tuple[Any, str | int, int] | None


def _path_of(place: _Place) -> tuple[str | int, ...]:
    tokens: list[str | int] = []
    while place is not None:
        place, token, _ = place
        tokens.append(token)
    return tuple(reversed(tokens))


Problem = tuple[tuple[str | int, ...], str, str]


def find_non_json(value: object, max_depth: int | None = None) -> list[Problem]:
    """Every place in ``value`` that is not JSON, as ``(path, keyword, reason)``, in document order;
    see :func:`survey`."""
    return survey(value, max_depth)[0]


_EXACT = frozenset({dict, list, str, int, float, bool, type(None)})


# Up to how many values survey first counts by a plain recursive reading, which a small value of the
# exact types (a tool call's arguments, mostly) passes at a third of the walk's cost.
_SMALL = 64


def survey(value: object, max_depth: int | None = None) -> tuple[list[Problem], int, bool]:
    """Every place in ``value`` that is not JSON, as ``(path, keyword, reason)``, in document order;
    how many values it holds (itself included); and whether all are of the exact built-in types
    (no ``OrderedDict``, no ``IntEnum``). It reads containers with the built-in types' own methods.

    The keyword is ``json``, or ``depth`` for a container nested deeper than ``max_depth``
    levels, which is not entered. The walk keeps its own stack of the containers it is inside,
    each read one child at a time, so depth costs memory rather than Python frames and a flat
    array of a million numbers costs no copy of it; a container met again on its own path is
    reported as a cycle. A small value of the exact types is first counted by a plain recursion (at
    most ``_SMALL`` values, so as many frames), which answers the same at a third of the cost.
    """
    try:
        values = _small_plain(value, _SMALL if max_depth is None else min(max_depth, _SMALL), _SMALL)
    except (RecursionError, RuntimeError):
        values = None  # a caller deep in its own stack, or another thread changing a container
    if values is not None:
        return [], values, True
    return _walk_survey(value, max_depth)


def _small_plain(value: Any, depth_left: int, most: int) -> int | None:
    """How many values ``value`` holds if it is JSON of the exact types within ``depth_left`` levels
    and holds at most ``most``; None for any other (which survey's walk then reads)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return 1
    if kind is float:
        return 1 if value - value == 0 else None  # not NaN or an infinity
    if depth_left <= 0 or most < 1:  # so it never takes more than _SMALL frames
        return None
    if kind is dict:
        if not all(type(key) is str for key in value):
            return None
        items = value.values()
    elif kind is list:
        items = value
    else:
        return None
    values = 1
    for item in items:
        found = _small_plain(item, depth_left - 1, most - values)
        if found is None:
            return None
        values += found
        if values > most:
            return None
    return values


def _walk_survey(value: object, max_depth: int | None) -> tuple[list[Problem], int, bool]:
    """:func:`survey`'s walk, for any value whatever its size, depth or kinds."""
    problems: list[Problem] = []
    values, exact = 0, True
    # The containers the walk is inside: each one's place, how deep its children sit, their
    # iterator, whether it is an object, and its id (met again while open, it contains itself).
    inside: list[tuple[_Place, int, Iterator[tuple[Any, object]], bool, int]] = []
    open_containers: set[int] = set()
    parent: _Place = None
    token: Any = ""
    depth, item = 0, value
    while True:
        values += 1
        kind = type(item)
        if kind not in _EXACT:
            exact = False
        if kind is str or kind is int or kind is bool or item is None:
            pass  # the common scalars, in one test each
        elif isinstance(item, (list, dict)):
            place = None if depth == 0 else (parent, token, depth)
            if max_depth is not None and depth >= max_depth:
                problems.append((_path_of(place), "depth", f"nested deeper than {max_depth} levels"))
            elif id(item) in open_containers:
                problems.append((_path_of(place), "json", "a container that contains itself"))
            else:
                open_containers.add(id(item))
                # A dict is read from one copy of its items, taken whole: another thread changing
                # it cannot break the walk. A list's own iterator tolerates that already.
                keyed = isinstance(item, dict)
                children: Iterator[tuple[Any, object]]
                if isinstance(item, dict):
                    children = iter(list(dict.items(item)))
                else:
                    children = enumerate(list.__iter__(item))
                inside.append((place, depth + 1, children, keyed, id(item)))
        elif json_type(item) is None:
            where = _path_of(None if depth == 0 else (parent, token, depth))
            if isinstance(item, float):
                problems.append((where, "json", f"{item} is not a JSON number"))
            else:
                problems.append((where, "json", f"a value of Python type {type(item).__name__}"))
        # The next value in document order: the next child of the innermost open container.
        while inside:
            parent, depth, children, keyed, container = inside[-1]
            following = next(children, None)
            if following is None:
                inside.pop()
                open_containers.discard(container)
                continue
            token, item = following
            if not keyed or isinstance(token, str):
                break
            problems.append(
                (_path_of(parent), "json", f"an object key of Python type {type(token).__name__}")
            )
        else:
            return problems, values, exact
