"""What validation reports: errors as immutable values (the exceptions the core raises are in
``exceptions``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

# Importable from here too: the layers above the core and the pattern engine name them from errors.
from .exceptions import LimitsError, OutputFormatError, SchemaError, ToolregError
from .pointer import Place, names_a_key, place_masked_pointer, place_pointer, place_tokens
from .values import int_text

__all__ = [
    "Ok",
    "OK",
    "Result",
    "Masked",
    "INSTANCE_FACTS",
    "ValidationError",
    "ErrorFact",
    "FrozenArray",
    "freeze",
    "thaw",
    "writable",
    "trusted_error",
    "deferred_error",
    "place_of",
    "stands_at",
    "worded_error",
    "Words",
    "Wording",
    "ToolregError",
    "SchemaError",
    "LimitsError",
    "OutputFormatError",
]


class Ok(tuple["ValidationError", ...]):
    """A valid result: the empty list of errors. It is falsy, has length 0 and compares equal to
    ``[]``, so ``if errors := validate(...)`` reports and ``if not errors`` proceeds."""

    __slots__ = ()

    def __new__(cls) -> Ok:
        return OK

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (tuple, list)) and not other

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(())

    def __repr__(self) -> str:
        return "Ok()"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Ok, ())


OK: Ok = tuple.__new__(Ok)
# What every validate returns: Ok, or the non-empty list of errors in their fixed order.
Result = Ok | list["ValidationError"]


class FrozenArray(tuple[Any, ...]):
    """A JSON array in an error's facts: a tuple, which :meth:`ValidationError.to_dict` makes a list."""

    __slots__ = ()


def freeze(value: Any) -> Any:
    """A read-only copy of a JSON value: arrays become :class:`FrozenArray`, objects read-only mappings."""
    kind = type(value)
    if kind is FrozenArray:
        return value  # frozen all the way down already
    if kind is list or kind is tuple:
        return FrozenArray(map(freeze, value))
    if kind is dict or kind is MappingProxyType:
        return MappingProxyType({key: freeze(item) for key, item in value.items()})
    return value


def thaw(value: Any) -> Any:
    """The plain JSON value again: lists and dicts, fresh, so a caller may change them."""
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    return value


def writable(value: Any) -> Any:
    """:func:`thaw`, with every integer too long for Python to write as text (past 4,300 digits) given
    as the words for its size instead ("an integer of about 5000 digits"), so ``json.dumps`` takes it."""
    if isinstance(value, int) and not isinstance(value, bool):
        text = int_text(value)
        return int(value) if text[-1].isdigit() else text
    if isinstance(value, tuple | list):
        return [writable(item) for item in value]
    if isinstance(value, Mapping):
        return {key: writable(item) for key, item in value.items()}
    return value


# Facts that repeat what the instance held, rather than what the schema wants; a masked error has none.
INSTANCE_FACTS = frozenset({"actual", "length", "property_name", "extra", "duplicates"})
# An error's form with nothing from the instance: its path (a pointer, or a place; None: the error's
# own, with the names the instance chose as ``*``), message and facts.
Masked = tuple["str | Place | None", str, Mapping[str, Any]]
# Stored as it is, or as a function that makes it when first asked for (an anyOf's branches).
MaskedLater = Masked | Callable[[], Masked]
_NO_FACTS: Mapping[str, Any] = MappingProxyType({})


class Words(NamedTuple):
    """What one error says: ``message`` then ``quoted`` (the words that repeat the instance, such as
    ", is 0"), and its facts, frozen. A masked error keeps ``message`` and drops :data:`INSTANCE_FACTS`,
    unless ``masked_message`` or ``masked_facts`` say otherwise (where the instance shows elsewhere)."""

    message: str
    quoted: str = ""
    facts: Mapping[str, Any] = _NO_FACTS
    masked_message: str | None = None
    masked_facts: Mapping[str, Any] | None = None


class Wording(Protocol):
    """A keyword at one place in a schema, which words the errors it finds (``sites.Site``)."""

    @property
    def pointer(self) -> str: ...

    @property
    def keyword(self) -> str: ...

    def words(self, kept: Any) -> Words: ...


class _Worded:
    """The site of an error made with its words already written."""

    __slots__ = ("pointer", "keyword")

    def __init__(self, pointer: str, keyword: str) -> None:
        self.pointer, self.keyword = pointer, keyword

    def words(self, kept: Any) -> Words:
        raise AssertionError("an error made with its words is shown already")


# An error as shown: its message and facts, and its masked form (or what makes it). The pointer is
# written apart, from the error's place, when read.
_Shown = tuple[str, Mapping[str, Any], "MaskedLater | None"]
# A pointer up to this long is kept once written; a longer one (the names of an instance's keys can be
# as long as the instance) is written again each time it is read, so that a thousand errors deep in
# long names cost their places, never a copy of the names each (see ``pointer.Place``).
_KEPT_POINTER = 256


class ValidationError:
    """One reason an instance does not match its schema; an immutable value.

    ``path`` points into the instance and ``schema_path`` at the failing keyword, both as RFC 6901
    JSON Pointers; ``facts`` holds what a caller needs to fix the value (``expected_type``,
    ``missing``, ``limit`` …), read-only all the way down (arrays as tuples). Equal errors compare equal.
    :meth:`masked` gives the same error with nothing the instance held.

    A validation keeps only where each error stands (the keyword's site and the place in the
    instance) and what it needs of the instance (a length, a number, the names that are missing),
    never the caller's containers; its message and facts are written from those when first read, its
    pointer each time it is read (kept when short).
    """

    __slots__ = ("_parts", "_shown", "_pointer")

    # The keyword's site, the place (or its pointer, written already) and the kept part of the
    # instance; then, once read, the error as shown, and its pointer if short.
    _parts: tuple[Wording, Place | str, Any]
    _shown: _Shown
    _pointer: str

    def __init__(
        self,
        path: str,
        schema_path: str,
        keyword: str,
        message: str,
        facts: Mapping[str, Any] | None = None,
        *,
        masked: Masked | None = None,
    ) -> None:
        frozen = {key: freeze(item) for key, item in (facts or {}).items()}
        if masked is not None:
            masked = (masked[0], masked[1], MappingProxyType({k: freeze(v) for k, v in masked[2].items()}))
        _fill(self, path, schema_path, keyword, message, frozen, masked)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"ValidationError is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"ValidationError is immutable; cannot delete {name!r}")

    @property
    def path(self) -> str:
        where = self._parts[1]
        if isinstance(where, str):
            return where
        try:
            return self._pointer
        except AttributeError:
            pass
        pointer = place_pointer(where)
        if len(pointer) <= _KEPT_POINTER:
            _set_pointer(self, pointer)  # two threads may both write it: they write equal values
        return pointer

    @property
    def schema_path(self) -> str:
        return self._parts[0].pointer

    @property
    def keyword(self) -> str:
        return self._parts[0].keyword

    @property
    def message(self) -> str:
        return self._show()[0]

    @property
    def facts(self) -> Mapping[str, Any]:
        return self._show()[1]

    def _show(self) -> _Shown:
        try:
            return self._shown
        except AttributeError:
            pass
        site, place, kept = self._parts
        assert not isinstance(place, str)  # an error made with its pointer is shown from the start
        rendered = _render(place, site.words(kept))
        _set_shown(self, rendered)  # two threads may both write it: they write equal values
        return rendered

    def _key(self) -> tuple[str, str, str, str]:
        return (self.path, self.schema_path, self.keyword, self.message)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ValidationError):
            return NotImplemented
        return self._key() == other._key() and dict(self.facts) == dict(other.facts)

    def __hash__(self) -> int:
        return hash(self._key())  # facts left out: equal errors still hash alike

    def __repr__(self) -> str:
        fields = [f"{name}={getattr(self, name)!r}" for name in ("path", "schema_path", "keyword", "message")]
        fields += [f"{key}={_repr(value)}" for key, value in self.facts.items()]
        return f"ValidationError({', '.join(fields)})"

    def __reduce__(self) -> tuple[Any, ...]:
        hidden = self._hidden()
        masked = None
        if hidden is not None:
            path = hidden[0] if isinstance(hidden[0], str) else place_pointer(hidden[0])
            masked = (path, hidden[1], thaw(hidden[2]))
        arguments = (self.path, self.schema_path, self.keyword, self.message, thaw(self.facts))
        return (_rebuild, (*arguments, masked))

    def masked(self) -> ValidationError:
        """The same error with nothing the instance held: property names the instance chose are
        ``*`` in the path, quoted values and names leave the message, and facts that repeat the
        instance (``actual``, ``length``, ``extra`` …) are dropped."""
        hidden = self._hidden()
        if hidden is None:
            facts = {key: value for key, value in self.facts.items() if key not in INSTANCE_FACTS}
            return trusted_error(self._parts[1], self.schema_path, self.keyword, self.message, facts)
        path, message, hidden_facts = hidden
        return trusted_error(path, self.schema_path, self.keyword, message, dict(hidden_facts))

    def _hidden(self) -> tuple[str | Place, str, Mapping[str, Any]] | None:
        """The masked form, its path the pointer with the instance's names as ``*`` (or the place,
        where it holds none)."""
        masked = self._show()[2]
        if callable(masked):
            masked = masked()
        if masked is None:
            return None
        path, message, facts = masked
        if path is not None:
            return path, message, facts
        place = self._parts[1]
        return (place if isinstance(place, str) else place_masked_pointer(place) or place), message, facts

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict: the four fields, then the facts (an integer too long for Python
        to write as text, past 4,300 digits, given as the words for its size, as the message does)."""
        return {
            "path": self.path,
            "schema_path": self.schema_path,
            "keyword": self.keyword,
            "message": self.message,
            **writable(self.facts),
        }


def _repr(value: Any) -> str:
    """``repr`` of a fact, with an integer too long for Python to write named by its size."""
    try:
        return repr(value)
    except ValueError:  # an int past Python's limit on digits, here or inside
        pass
    if isinstance(value, int):
        return f"<{int_text(value)}>"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key!r}: {_repr(item)}" for key, item in value.items()) + "}"
    return "(" + ", ".join(map(_repr, value)) + ("," if len(value) == 1 else "") + ")"


def _rebuild(
    path: str, schema_path: str, keyword: str, message: str, facts: Any, masked: Masked | None
) -> ValidationError:
    return ValidationError(path, schema_path, keyword, message, facts, masked=masked)


def _render(place: Place, words: Words) -> _Shown:
    """An error as shown: its message, its facts, and its masked form where that differs from
    dropping the quoted words and :data:`INSTANCE_FACTS` (its path written from the place when read)."""
    message, quoted, facts, masked_message, masked_facts = words
    masked: Masked | None = None
    if quoted or masked_message is not None or masked_facts is not None or names_a_key(place):
        if masked_facts is None:
            masked_facts = {key: value for key, value in facts.items() if key not in INSTANCE_FACTS}
        shown = message if masked_message is None else masked_message
        masked = (None, shown, MappingProxyType(dict(masked_facts)))
    if type(facts) is not MappingProxyType:
        facts = MappingProxyType(dict(facts))
    return (message + quoted, facts, masked)


def worded_error(schema_path: str, keyword: str, path: Place, words: Words) -> ValidationError:
    """An error of the keyword at ``schema_path``, at the place ``path``, with its words written now."""
    error = _new_error(ValidationError)
    _set_parts(error, (_Worded(schema_path, keyword), path, None))
    _set_shown(error, _render(path, words))
    return error


def deferred_error(site: Wording, path: Place, kept: Any) -> ValidationError:
    """An error of the keyword at ``site``, at the place ``path``, worded when first read from
    ``kept``: the immutable part of the instance its words need (a length, a number, a tuple of names)."""
    error = _new_error(ValidationError)
    _set_parts(error, (site, path, kept))
    return error


def trusted_error(
    path: str | Place,
    schema_path: str,
    keyword: str,
    message: str,
    facts: dict[str, Any],
    masked: MaskedLater | None = None,
) -> ValidationError:
    """An error from toolreg's own checks with its words written, whose facts are frozen already,
    at ``path``: a pointer, or a place written when read.

    ``masked`` is the error's path, message and facts with nothing from the instance, where they
    differ from dropping :data:`INSTANCE_FACTS`, or a function that makes them when first asked for.
    """
    error = _new_error(ValidationError)
    _fill(error, path, schema_path, keyword, message, facts, masked)
    return error


def _fill(
    error: ValidationError,
    path: str | Place,
    schema_path: str,
    keyword: str,
    message: str,
    facts: dict[str, Any],
    masked: MaskedLater | None,
) -> None:
    # Slot descriptors, since __setattr__ refuses.
    _set_parts(error, (_Worded(schema_path, keyword), path, None))
    _set_shown(error, (message, MappingProxyType(facts), masked))


def place_of(error: ValidationError) -> str | Place:
    """Where ``error`` stands, as its place (its pointer unwritten) or, for an error made with its
    pointer, that pointer: what an error built from it (reworded, renamed) stands at too."""
    return error._parts[1]


def stands_at(error: ValidationError, place: Place) -> bool:
    """Whether ``error`` stands at ``place``, found without writing its pointer where it has a place."""
    where = error._parts[1]
    if where is place:
        return True
    if isinstance(where, str):
        return where == place_pointer(place)
    return place_tokens(where) == place_tokens(place)


_new_error = object.__new__
_set_parts = vars(ValidationError)["_parts"].__set__
_set_shown = vars(ValidationError)["_shown"].__set__
_set_pointer = vars(ValidationError)["_pointer"].__set__


class ErrorFact(Mapping[str, Any]):
    """An error as a read-only JSON object (``path``, ``schema_path``, ``keyword``, ``message``, then
    its facts), as an ``anyOf`` error's ``branches`` hold them: it shares the error rather than
    copying it, so an error nested in branches at every level costs its own size once, and its path
    is written only when read."""

    __slots__ = ("_error",)
    _error: ValidationError

    _FIELDS = ("path", "schema_path", "keyword", "message")

    def __init__(self, error: ValidationError) -> None:
        object.__setattr__(self, "_error", error)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"ErrorFact is immutable; cannot set {name!r}")

    def __getitem__(self, key: str) -> Any:
        error: ValidationError = self._error
        facts = error.facts
        if key in facts:
            return facts[key]
        if key in self._FIELDS:
            return getattr(error, key)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        facts = self._error.facts
        yield from (name for name in self._FIELDS if name not in facts)
        yield from facts

    def __len__(self) -> int:
        facts = self._error.facts
        return len(facts) + sum(name not in facts for name in self._FIELDS)

    def __repr__(self) -> str:
        return repr(dict(self))
