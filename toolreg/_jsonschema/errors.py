"""What validation reports: errors as immutable values; the root exception and the core's own."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

from .pointer import masked_pointer, to_pointer
from .values import int_text

__all__ = [
    "Ok",
    "OK",
    "Result",
    "Masked",
    "INSTANCE_FACTS",
    "ValidationError",
    "FrozenArray",
    "freeze",
    "thaw",
    "trusted_error",
    "deferred_error",
    "worded_error",
    "Words",
    "Wording",
    "ToolregError",
    "SchemaError",
    "LimitsError",
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


# Facts that repeat what the instance held, rather than what the schema wants; a masked error has none.
INSTANCE_FACTS = frozenset({"actual", "length", "property_name", "extra", "duplicates"})
# An error's form with nothing from the instance: its path, message and facts.
Masked = tuple[str, str, Mapping[str, Any]]
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


# An error as shown: its pointer, message and facts, and its masked form (or what makes it).
_Shown = tuple[str, str, Mapping[str, Any], "MaskedLater | None"]


class ValidationError:
    """One reason an instance does not match its schema; an immutable value.

    ``path`` points into the instance and ``schema_path`` at the failing keyword, both as RFC 6901
    JSON Pointers; ``facts`` holds what a caller needs to fix the value (``expected_type``,
    ``missing``, ``limit`` …), read-only all the way down (arrays as tuples). Equal errors compare equal.
    :meth:`masked` gives the same error with nothing the instance held.

    A validation keeps only where each error stands (the keyword's site and the path) and what it
    needs of the instance (a length, a number, the names that are missing), never the caller's
    containers; its pointer, message and facts are written from those when first read.
    """

    __slots__ = ("_parts", "_shown")

    # The keyword's site, the path as tokens and the kept part of the instance; then, once read, the
    # error as shown.
    _parts: tuple[Wording, tuple[str | int, ...], Any]
    _shown: _Shown

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
        return self._show()[0]

    @property
    def schema_path(self) -> str:
        return self._parts[0].pointer

    @property
    def keyword(self) -> str:
        return self._parts[0].keyword

    @property
    def message(self) -> str:
        return self._show()[1]

    @property
    def facts(self) -> Mapping[str, Any]:
        return self._show()[2]

    def _show(self) -> _Shown:
        try:
            return self._shown
        except AttributeError:
            pass
        site, location, kept = self._parts
        rendered = _render(location, site.words(kept))
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
        masked = None if hidden is None else (*hidden[:2], thaw(hidden[2]))
        arguments = (self.path, self.schema_path, self.keyword, self.message, thaw(self.facts))
        return (_rebuild, (*arguments, masked))

    def masked(self) -> ValidationError:
        """The same error with nothing the instance held: property names the instance chose are
        ``*`` in the path, quoted values and names leave the message, and facts that repeat the
        instance (``actual``, ``length``, ``extra`` …) are dropped."""
        hidden = self._hidden()
        if hidden is None:
            facts = {key: value for key, value in self.facts.items() if key not in INSTANCE_FACTS}
            return trusted_error(self.path, self.schema_path, self.keyword, self.message, facts)
        path, message, hidden_facts = hidden
        return trusted_error(path, self.schema_path, self.keyword, message, dict(hidden_facts))

    def _hidden(self) -> Masked | None:
        masked = self._show()[3]
        return masked() if callable(masked) else masked

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict: the four fields, then the facts."""
        return {
            "path": self.path,
            "schema_path": self.schema_path,
            "keyword": self.keyword,
            "message": self.message,
            **thaw(self.facts),
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


def _render(location: tuple[str | int, ...], words: Words) -> _Shown:
    """An error as shown: its pointer, its message, its facts, and its masked form where that differs
    from dropping the quoted words and :data:`INSTANCE_FACTS`."""
    pointer, hidden = to_pointer(location), masked_pointer(location)
    message, quoted, facts, masked_message, masked_facts = words
    masked: Masked | None = None
    if quoted or hidden is not None or masked_message is not None or masked_facts is not None:
        if masked_facts is None:
            masked_facts = {key: value for key, value in facts.items() if key not in INSTANCE_FACTS}
        shown = message if masked_message is None else masked_message
        masked = (pointer if hidden is None else hidden, shown, MappingProxyType(dict(masked_facts)))
    if type(facts) is not MappingProxyType:
        facts = MappingProxyType(dict(facts))
    return (pointer, message + quoted, facts, masked)


def worded_error(
    schema_path: str, keyword: str, path: tuple[str | int, ...], words: Words
) -> ValidationError:
    """An error of the keyword at ``schema_path``, at ``path`` (tokens), with its words written now."""
    error = _new_error(ValidationError)
    _set_parts(error, (_Worded(schema_path, keyword), (), None))
    _set_shown(error, _render(path, words))
    return error


def deferred_error(site: Wording, path: tuple[str | int, ...], kept: Any) -> ValidationError:
    """An error of the keyword at ``site``, at ``path`` (tokens), worded when first read from ``kept``:
    the immutable part of the instance its words need (a length, a number, a tuple of names)."""
    error = _new_error(ValidationError)
    _set_parts(error, (site, path, kept))
    return error


def trusted_error(
    path: str,
    schema_path: str,
    keyword: str,
    message: str,
    facts: dict[str, Any],
    masked: MaskedLater | None = None,
) -> ValidationError:
    """An error from toolreg's own checks with its words written, whose facts are frozen already.

    ``masked`` is the error's path, message and facts with nothing from the instance, where they
    differ from dropping :data:`INSTANCE_FACTS`, or a function that makes them when first asked for.
    """
    error = _new_error(ValidationError)
    _fill(error, path, schema_path, keyword, message, facts, masked)
    return error


def _fill(
    error: ValidationError,
    path: str,
    schema_path: str,
    keyword: str,
    message: str,
    facts: dict[str, Any],
    masked: MaskedLater | None,
) -> None:
    # Slot descriptors, since __setattr__ refuses.
    _set_parts(error, (_Worded(schema_path, keyword), (), None))
    _set_shown(error, (path, message, MappingProxyType(facts), masked))


_new_error = object.__new__
_set_parts = vars(ValidationError)["_parts"].__set__
_set_shown = vars(ValidationError)["_shown"].__set__


class ToolregError(Exception):
    """The root of every exception toolreg raises on purpose."""


class SchemaError(ToolregError, ValueError):
    """A schema toolreg refuses; ``schema_path`` points at the offending keyword."""

    def __init__(self, message: str, *, schema_path: str = "", keyword: str | None = None) -> None:
        where = f"at {schema_path!r}" if schema_path else "at the schema root"
        super().__init__(f"{message} ({where})")
        self.reason = message
        self.schema_path = schema_path
        self.keyword = keyword


class LimitsError(ToolregError, ValueError):
    """A ``limits`` argument that is neither a :class:`~toolreg.Limits` nor a mapping of its fields,
    or a field that is not a positive whole number (or a bool, for the flag)."""


class OutputFormatError(ToolregError, ValueError):
    """An output format toolreg does not write; ``format`` is the name asked for."""

    def __init__(self, format: str, known: tuple[str, ...]) -> None:  # noqa: A002 - the parameter's name
        super().__init__(f"unknown output format {format!r}; toolreg writes {', '.join(map(repr, known))}")
        self.format = format
