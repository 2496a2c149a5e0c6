"""Where a keyword stands in its schema: what its function may ask of the schema walk, and its errors."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NoReturn, Protocol

from .errors import ValidationError, Words, worded_error
from .evaluated import collected
from .exceptions import SchemaError
from .findings import Check, Path, Place
from .limits import Limits
from .pointer import Token, to_pointer
from .regex import Pattern, RegexSyntaxError, UnsupportedPattern
from .values import ValueKeys, is_integer, is_number
from .wording import show

__all__ = ["Accepts", "Compiler", "Reading", "Row", "Site", "pattern_of"]


class Row(Protocol):
    """What a site reads of its keyword's row in the vocabulary (see ``vocabulary.Keyword``)."""

    @property
    def words(self) -> Callable[[Site, Any], Words] | None: ...

    @property
    def spends_itself(self) -> bool: ...


class Reading(Protocol):
    """What a keyword's ``accepts`` (see ``vocabulary.Keyword``) may ask of the yes/no reading of a
    schema snapshot at a tool's first calls (see ``fast.glance``)."""

    asserts_formats: bool
    # Keys with JSON's equality for the values of the one instance being read.
    keys: ValueKeys

    def fits(self, schema: Any, instance: Any) -> bool: ...

    def target(self, ref: str) -> Any: ...

    def pattern(self, source: str) -> Pattern: ...

    def remembered(self, value: Any, make: Callable[[Any], Any]) -> Any:
        """``make(value)``, made once for this part of the schema and kept for every later reading."""


# A keyword's yes/no answer, read off its value without compiling it: (its value, the instance, the
# schema object holding it, the reading), the instance being plain JSON of the row's instance_type.
Accepts = Callable[[Any, Any, dict[str, Any], Reading], bool]


class Compiler(Protocol):
    """What a keyword function may ask of the schema walk (see ``schema``)."""

    limits: Limits
    dialect: str

    def compile(self, schema: Any, location: Path, pointer: str | None = None) -> Check: ...

    def applies_in_place(self, source: Path, target: Path) -> None: ...

    def reference(self, ref: str, location: Path) -> Check: ...

    def dynamic_reference(self, ref: str, location: Path) -> Check: ...

    def recursive_reference(self, location: Path) -> Check: ...

    def schema_at(self, location: Path) -> Any: ...

    ref_targets: dict[str, Path]

    def pattern_and_risk(self, source: str) -> tuple[Pattern, str | None]: ...

    @property
    def asserts_formats(self) -> bool: ...

    # Whether the schema reads what is evaluated (it holds unevaluatedItems or unevaluatedProperties).
    annotates: bool
    # The keywords its meta-schema's vocabularies leave out: annotations here.
    ignored: frozenset[str]

    # The rows of the keywords this schema's dialect and vocabularies check, by name.
    @property
    def keywords(self) -> Mapping[str, Row]: ...

    # Whether the errors failing branches of anyOf and oneOf keep past their first cost steps (see
    # ``keywords.applicators.KEPT_ERROR_STEPS``); asked once the schema is compiled.
    def kept_errors_cost(self) -> bool: ...


class Site:
    """Where a keyword stands in its schema, how to compile the subschemas below it, and how to word
    the errors it finds (with the ``words`` of its row, from what the check kept)."""

    __slots__ = ("keyword", "schema", "compiler", "_within", "_within_pointer", "_once")

    def __init__(
        self, keyword: str, within: Path, schema: dict[str, Any], compiler: Compiler, within_pointer: str
    ) -> None:
        # The schema object's location and pointer: the keyword's own are made only when asked for.
        self.keyword, self.schema, self.compiler = keyword, schema, compiler
        self._within, self._within_pointer = within, within_pointer
        # What its errors' words share, made once (see ``once``).
        self._once: dict[Any, Any] = {}

    @property
    def location(self) -> Path:
        return self._within + (self.keyword,)

    @property
    def pointer(self) -> str:
        # A keyword's name needs no escaping in a pointer: none holds "~" or "/".
        return f"{self._within_pointer}/{self.keyword}"

    @property
    def value(self) -> Any:
        """The keyword's value in the schema snapshot."""
        return self.schema[self.keyword]

    def words(self, kept: Any) -> Words:
        words = self.compiler.keywords[self.keyword].words
        assert words is not None, self.keyword  # a check keeps a part of the instance only for its words
        if kept is None:
            # Words from the schema alone (an enum's, a pattern's) are the same for every error:
            # made once, so a thousand errors share one message and one frozen copy of the value.
            return self.once(None, lambda: words(self, None))  # type: ignore[no-any-return]
        return words(self, kept)

    def once(self, key: Any, make: Callable[[], Any]) -> Any:
        """What ``make`` returns, made at the first call for ``key`` and shared by every later one
        (two threads may both make it: equal values, one kept)."""
        try:
            return self._once[key]
        except KeyError:
            made = self._once[key] = make()
            return made

    def counts_itself(self, schema: Any) -> bool:
        """Whether applying ``schema`` spends a step already (it applies a subschema in place, through a
        keyword its dialect and vocabularies check), so that ``items`` or ``prefixItems`` applying it
        to an item need not spend one more for the item."""
        rows = self.compiler.keywords
        return isinstance(schema, dict) and any(key in rows and rows[key].spends_itself for key in schema)

    def refuse(self, reason: str, *below: Token) -> NoReturn:
        raise SchemaError(
            f"{self.keyword!r} {reason}",
            schema_path=to_pointer(self.location + below),
            keyword=self.keyword,
        )

    def subschema(self, schema: Any, *below: Token) -> Check:
        """A subschema that applies to a part of the instance (a property, an item, a name)."""
        return self.compiler.compile(schema, self.location + below, self.pointer_to(below))

    def pointer_to(self, below: tuple[Token, ...]) -> str:
        if len(below) == 1 and type(below[0]) is str and "~" not in below[0] and "/" not in below[0]:
            return f"{self.pointer}/{below[0]}"  # a property name, most often, that needs no escaping
        return self.pointer + to_pointer(below)

    def in_place(self, schema: Any, *below: Token, hands_on: bool = True) -> Check:
        """A subschema that applies to the instance itself, as in allOf, anyOf, oneOf and not; in a
        schema that reads what is evaluated, it hands its notes on if ``hands_on`` (see Evaluated)."""
        self.compiler.applies_in_place(self._within, self.location + below)
        check = self.compiler.compile(schema, self.location + below, self.pointer_to(below))
        return collected(check, hands_on=hands_on) if self.compiler.annotates else check

    def non_negative_integer(self, value: Any) -> int:
        if not is_integer(value) or value < 0:
            self.refuse(f"must be a non-negative integer, not {show(value)}")
        return int(value)

    def number(self, value: Any) -> int | float:
        if not is_number(value):
            self.refuse(f"must be a number, not {show(value)}")
        return value  # type: ignore[no-any-return]

    def in_place_sibling(self, keyword: str) -> Check:
        """The subschema of a sibling keyword (``then`` beside ``if``), applied to the same value."""
        location = self._within + (keyword,)
        self.compiler.applies_in_place(self._within, location)
        pointer = f"{self._within_pointer}/{keyword}"
        check = self.compiler.compile(self.schema[keyword], location, pointer)
        return collected(check) if self.compiler.annotates else check

    def schemas(self, value: Any, *, in_place: bool) -> list[Check]:
        if not isinstance(value, list) or not value:
            self.refuse("must be a non-empty array of schemas")
        compile_one = self.in_place if in_place else self.subschema
        return [compile_one(schema, index) for index, schema in enumerate(value)]

    def failure(
        self,
        path: Place,
        message: str,
        *,
        quoted: str = "",
        masked_message: str | None = None,
        masked_facts: dict[str, Any] | None = None,
        **facts: Any,
    ) -> ValidationError:
        """An error at ``path``; every fact must be a JSON scalar or :func:`freeze`-d.

        The message is ``message`` then ``quoted``, the words that repeat the instance (", is 0");
        its masked form (:meth:`ValidationError.masked`) keeps ``message`` alone, or
        ``masked_message`` where the instance shows elsewhere in it.
        """
        words = Words(message, quoted, facts, masked_message, masked_facts)
        return worded_error(self.pointer, self.keyword, path, words)


def pattern_of(value: Any, site: Site, *below: Token) -> Pattern:
    """``value`` compiled as an ECMA-262 pattern, or refused with the reason."""
    if not isinstance(value, str):
        site.refuse("must be a string holding an ECMA-262 regular expression", *below)
    try:
        pattern, risk = site.compiler.pattern_and_risk(value)
    except RegexSyntaxError as error:
        site.refuse(f"is not a valid ECMA-262 regular expression: {error}", *below)
    except UnsupportedPattern as error:
        site.refuse(f"cannot be run: {error}", *below)  # the pointer names the pattern
    if risk and not site.compiler.limits.allow_backtracking_patterns:
        site.refuse(
            f"uses {risk}, which RE2 cannot express; write it another way, or accept it with "
            "Limits(allow_backtracking_patterns=True), which runs it on a backtracking engine (it is "
            "small enough for one to be bounded)",
            *below,
        )
    return pattern
