"""The vocabulary: one row for each keyword toolreg knows, and the one walk over a schema's subschemas."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Literal

from .errors import Words
from .evaluated import Note
from .findings import Check
from .formats import KNOWN_FORMATS
from .keywords import applicators, arrays, core, objects, scalars, unevaluated
from .pointer import Token
from .record import Record, fill
from .regex import UNCOUNTED_STEPS
from .sites import Accepts, Site
from .values import is_integer, is_number

__all__ = [
    "Keyword",
    "Speed",
    "Output",
    "Export",
    "WORDS",
    "VOCABULARY",
    "DIALECTS",
    "DEFAULT_DIALECT",
    "ANNOTATIONS",
    "REWRITES",
    "VOCABULARIES",
    "keywords",
    "keyword_order",
    "vocabulary_uri",
    "dialects_of",
    "is_annotation",
    "subschemas",
]

DRAFT_7, DRAFT_2019, DRAFT_2020 = "draft-07", "2019-09", "2020-12"
DEFAULT_DIALECT = DRAFT_2020
_ALL = frozenset({DRAFT_7, DRAFT_2019, DRAFT_2020})
_SINCE_2019 = frozenset({DRAFT_2019, DRAFT_2020})
_BEFORE_2020 = frozenset({DRAFT_7, DRAFT_2019})
_ONLY_2020, _ONLY_2019, _ONLY_7 = frozenset({DRAFT_2020}), frozenset({DRAFT_2019}), frozenset({DRAFT_7})

# What a schema's "$schema" may say, and the dialect each names. No "$schema" means 2020-12.
DIALECTS = {
    "https://json-schema.org/draft/2020-12/schema": DRAFT_2020,
    "https://json-schema.org/draft/2019-09/schema": DRAFT_2019,
    "http://json-schema.org/draft-07/schema": DRAFT_7,
    # Often written with https, which names the same draft.
    "https://json-schema.org/draft-07/schema": DRAFT_7,
}
DIALECTS.update({f"{uri}#": dialect for uri, dialect in list(DIALECTS.items())})


# What the quick check at registration (see ``fast.quick``) accepts as a keyword's value.
def _count(value: Any) -> bool:
    """A non-negative integer, 1.0 included, as compilation reads one."""
    return is_integer(value) and value >= 0


_TYPES = frozenset(scalars.JSON_TYPES)


def _type_names(value: Any) -> bool:
    if type(value) is str:
        return value in _TYPES
    return type(value) is list and bool(value) and _distinct_strings(value) and _TYPES.issuperset(value)


def _distinct_strings(value: Any) -> bool:
    return type(value) is list and all(type(item) is str for item in value) and len(set(value)) == len(value)


def _any(value: Any) -> bool:
    return True


def _array(value: Any) -> bool:
    return type(value) is list


def _boolean(value: Any) -> bool:
    return type(value) is bool


def _positive(value: Any) -> bool:
    return is_number(value) and value > 0


def _text(value: Any) -> bool:
    return type(value) is str


def _known_format(value: Any) -> bool:
    # Vouched for in either mode: under format assertion, compiling refuses any other name.
    return type(value) is str and value in KNOWN_FORMATS


def _schemas(value: Any) -> bool:
    return type(value) is list and bool(value)


def _named_schemas(value: Any) -> bool:
    return type(value) is dict


# What a keyword's own check spends of the work budget (its row's ``work``; see ``fast.work``), read from
# its plan (see ``schema.Node``): the most steps for each value its schema object applies to, and the
# most for each item or property of that value (a property's name included). The subschemas it
# applies in place cost one step each besides, counted from the schema's shape.
def _each_part(plan: Any) -> tuple[int, int]:
    return 0, 1


def _one_comparison(plan: Any) -> tuple[int, int]:
    # A step when the value is an array or object, compared whole.
    return 1, 0


def _missing_names(plan: Any) -> tuple[int, int]:
    return objects.MISSING_STEPS * len(plan), 0


def _missing_dependents(plan: Any) -> tuple[int, int]:
    return objects.MISSING_STEPS * sum(len(names) for names in plan.values()), 0


def _one_search(plan: Any) -> tuple[int, int]:
    # A search costs steps in its text's length (see regex.search_steps): code that counts none hands
    # a text longer than these many steps' worth to the reference walk.
    return UNCOUNTED_STEPS, 0


def _each_pattern(plan: Any) -> tuple[int, int]:
    # Each pattern is tried on each name here, and again by an additionalProperties beside it.
    return 0, 2 * len(plan)


Fast = Literal["inline", "nothing", "applied", "called", "whole"]


class Speed(Record):
    """What the speed layer (``fast/``) knows of a keyword. A row without one (``speed=None``) is
    answered by the reference walk wherever a schema uses it: the generator writes no fast path for
    the schema, the quick check at registration does not vouch for it (so registration compiles it),
    the glance, which answers only what the quick check vouched for, never sees it, and the work bound
    takes it as spending without bound (so both paths count every step, as they must where the bound
    knows nothing).

    ``fast`` is what the generated fast path (see ``fast.codegen``) does with it: ``"inline"`` tests it
    for the kind of value it speaks to; ``"nothing"`` has nothing to do (compilation checked it and
    it applies nothing, or a sibling applies it); ``"applied"`` applies its subschemas to the value
    itself; ``"called"`` calls its reference check on a value shown to be plain JSON; ``"whole"``
    calls its schema object's reference check whole.

    ``quick`` tests its value where the quick check at registration vouches for it (its subschemas,
    where ``holds`` says, are then vouched for in turn; ``None``: a schema using it is left to
    compilation at registration); ``accepts`` answers yes or no for it from its value alone, in a
    schema so vouched for, at a tool's first calls (see ``fast.glance``).

    ``work``: what its own check spends of the work budget besides a step for each subschema it
    applies in place, given its plan: the most steps for each value its schema object applies to, and
    for each item or property of that value (``fast.work`` bounds what any one value can cost from these;
    ``pattern``'s is the most a search may cost where code counts nothing, see ``regex.UNCOUNTED_STEPS``);
    ``apart`` that each of its subschemas applies to a different part (a name, a position); ``memo``
    that its check keeps what it works out in the validation's memo (see ``findings.Memo``), which the
    fast path then hands it.
    """

    __slots__ = ("fast", "quick", "accepts", "work", "apart", "memo")

    fast: Fast
    quick: Callable[[Any], bool] | None
    accepts: Accepts | None
    work: Callable[[Any], tuple[int, int]] | None
    apart: bool
    memo: bool

    def __init__(
        self,
        fast: Fast,
        quick: Callable[[Any], bool] | None = None,
        accepts: Accepts | None = None,
        work: Callable[[Any], tuple[int, int]] | None = None,
        apart: bool = False,
        memo: bool = False,
    ) -> None:
        fill(self, fast, quick, accepts, work, apart, memo)


class Output(Record):
    """What the standard output (see ``output``) reads of a keyword that holds subschemas; a row
    without one has none of these. ``evaluates`` says whether its annotation names the property
    ``"names"`` or the ``"items"`` it evaluated; ``judges`` that its verdict is its own judgement of its
    subschemas' results rather than "every one passes"; ``refuses_rest`` that it holds the schema for
    the parts nothing else covers, so a ``false`` one is one error of its own."""

    __slots__ = ("evaluates", "judges", "refuses_rest")

    evaluates: Literal["", "names", "items"]
    judges: bool
    refuses_rest: bool

    def __init__(
        self, evaluates: Literal["", "names", "items"] = "", judges: bool = False, refuses_rest: bool = False
    ) -> None:
        fill(self, evaluates, judges, refuses_rest)


class Export(Record):
    """What the provider exports know of a keyword; a row without one is taken by none of them.
    ``openai_strict`` says OpenAI's strict mode takes it (see ``_providers.openai_strict``)."""

    __slots__ = ("openai_strict",)

    openai_strict: bool

    def __init__(self, openai_strict: bool = False) -> None:
        fill(self, openai_strict)


class Keyword(Record):
    """Everything toolreg knows of one keyword: the spec's columns, which the reference walk reads, and
    groups for the speed layer, the standard output and the provider exports, each optional.

    ``build`` checks its value and builds its check; ``instance_type`` is the JSON type it speaks to
    (``None``: every value); ``holds`` where its subschemas are: ``""`` none, ``"schema"`` its value,
    ``"list"`` each item, ``"map"`` each value that is a schema, ``"schema-or-list"`` either of the first
    two; ``in_place`` says whether they apply to the instance itself rather than to a part of it;
    ``dialects`` the dialects that have it.

    ``words`` words the errors of a check that keeps only a part of the instance (see
    ``Site.words``), for the reference walk and the fast path alike; ``notes`` what it evaluates by
    itself of the value its schema object applies to, for ``unevaluated*`` (``contains`` notes the
    items it matched from its own check); ``reads_evaluated`` that it reads those notes, so it runs
    last in its schema object.

    ``spends_itself``: applying its schema object to a value spends a step of the work budget (the
    reference walk reads it too, see ``Site.counts_itself``); ``refers``: it leads to another schema
    object by URI, so a loop of schemas may pass through it; ``marks``: it adds to the index of URIs,
    anchors and references made before compilation.

    ``speed``, ``output`` and ``export``: see :class:`Speed`, :class:`Output` and :class:`Export`.
    """

    # Compared, hashed, shown and frozen as the frozen dataclass it was (see record.Record).
    __slots__ = (
        "name",
        "build",
        "instance_type",
        "holds",
        "in_place",
        "dialects",
        "words",
        "notes",
        "reads_evaluated",
        "spends_itself",
        "refers",
        "marks",
        "speed",
        "output",
        "export",
    )

    name: str
    build: Callable[[Any, Site], Check]
    instance_type: str | None
    holds: str
    in_place: bool
    dialects: frozenset[str]
    words: Callable[[Site, Any], Words] | None
    notes: Callable[[Site], Note] | None
    reads_evaluated: bool
    spends_itself: bool
    refers: bool
    marks: bool
    speed: Speed | None
    output: Output | None
    export: Export | None

    def __init__(
        self,
        name: str,
        build: Callable[[Any, Site], Check],
        instance_type: str | None = None,
        holds: str = "",
        in_place: bool = False,
        dialects: frozenset[str] = _ALL,
        words: Callable[[Site, Any], Words] | None = None,
        notes: Callable[[Site], Note] | None = None,
        reads_evaluated: bool = False,
        spends_itself: bool = False,
        refers: bool = False,
        marks: bool = False,
        speed: Speed | None = None,
        output: Output | None = None,
        export: Export | None = None,
    ) -> None:
        fill(
            self,
            name,
            build,
            instance_type,
            holds,
            in_place,
            dialects,
            words,
            notes,
            reads_evaluated,
            spends_itself,
            refers,
            marks,
            speed,
            output,
            export,
        )


# OpenAI's strict mode takes these; one row in three.
_STRICT = Export(openai_strict=True)
# What the standard output reads of the keywords that evaluate names or items, or judge their branches.
_NAMES, _ITEMS, _JUDGES = Output("names"), Output("items"), Output(judges=True)


# Rows run in this order, so errors come out in this order whatever the schema's key order.
VOCABULARY: tuple[Keyword, ...] = (
    Keyword("$id", core.id_, marks=True, speed=Speed("nothing")),
    Keyword("$anchor", core.anchor, dialects=_SINCE_2019, marks=True, speed=Speed("nothing")),
    Keyword("$dynamicAnchor", core.anchor, dialects=_ONLY_2020, marks=True, speed=Speed("nothing")),
    Keyword("$ref", core.ref, in_place=True, spends_itself=True, refers=True, marks=True,
            speed=Speed("applied", quick=_text, accepts=core.ref_accepts), export=_STRICT),
    Keyword("$dynamicRef", core.dynamic_ref, in_place=True, dialects=_ONLY_2020, spends_itself=True,
            refers=True, marks=True),
    Keyword("$recursiveAnchor", core.recursive_anchor, dialects=_ONLY_2019, marks=True),
    Keyword("$recursiveRef", core.recursive_ref, in_place=True, dialects=_ONLY_2019, spends_itself=True,
            refers=True, marks=True),
    Keyword("$vocabulary", core.vocabulary, dialects=_SINCE_2019, speed=Speed("nothing")),
    Keyword("type", scalars.type_, words=scalars.type_words,
            speed=Speed("inline", quick=_type_names, accepts=scalars.type_accepts), export=_STRICT),
    Keyword("enum", scalars.enum, words=scalars.enum_words,
            speed=Speed("inline", quick=_array, accepts=scalars.enum_accepts, work=_one_comparison),
            export=_STRICT),
    Keyword("const", scalars.const, words=scalars.const_words,
            speed=Speed("inline", quick=_any, accepts=scalars.const_accepts, work=_one_comparison),
            export=_STRICT),
    Keyword("multipleOf", scalars.multiple_of, "number", words=scalars.multiple_of_words,
            speed=Speed("inline", quick=_positive, accepts=scalars.multiple_of_accepts), export=_STRICT),
    Keyword("minimum", scalars.minimum, "number", words=scalars.number_bound_words,
            speed=Speed("inline", quick=is_number, accepts=scalars.minimum_accepts), export=_STRICT),
    Keyword("exclusiveMinimum", scalars.exclusive_minimum, "number", words=scalars.number_bound_words,
            speed=Speed("inline", quick=is_number, accepts=scalars.exclusive_minimum_accepts),
            export=_STRICT),
    Keyword("maximum", scalars.maximum, "number", words=scalars.number_bound_words,
            speed=Speed("inline", quick=is_number, accepts=scalars.maximum_accepts), export=_STRICT),
    Keyword("exclusiveMaximum", scalars.exclusive_maximum, "number", words=scalars.number_bound_words,
            speed=Speed("inline", quick=is_number, accepts=scalars.exclusive_maximum_accepts),
            export=_STRICT),
    Keyword("minLength", scalars.min_length, "string", words=scalars.length_words,
            speed=Speed("inline", quick=_count, accepts=arrays.min_size_accepts)),
    Keyword("maxLength", scalars.max_length, "string", words=scalars.length_words,
            speed=Speed("inline", quick=_count, accepts=arrays.max_size_accepts)),
    Keyword("pattern", scalars.pattern, "string", words=scalars.pattern_words,
            speed=Speed("inline", quick=_text, accepts=scalars.pattern_accepts, work=_one_search),
            export=_STRICT),
    Keyword("format", scalars.format_, "string", words=scalars.format_words,
            speed=Speed("nothing", quick=_known_format, accepts=scalars.format_accepts), export=_STRICT),
    Keyword("minItems", arrays.min_items, "array", words=arrays.size_words,
            speed=Speed("inline", quick=_count, accepts=arrays.min_size_accepts), export=_STRICT),
    Keyword("maxItems", arrays.max_items, "array", words=arrays.size_words,
            speed=Speed("inline", quick=_count, accepts=arrays.max_size_accepts), export=_STRICT),
    Keyword("uniqueItems", arrays.unique_items, "array", words=arrays.unique_items_words,
            speed=Speed("inline", quick=_boolean, accepts=arrays.unique_items_accepts, work=_each_part,
                        memo=True)),
    Keyword("prefixItems", arrays.prefix_items, "array", "list", dialects=_ONLY_2020,
            notes=arrays.prefix_items_note,
            speed=Speed("inline", quick=_schemas, accepts=arrays.prefix_items_accepts, work=_each_part,
                        apart=True),
            output=_ITEMS),
    Keyword("items", arrays.items, "array", "schema", dialects=_ONLY_2020, notes=arrays.every_item,
            speed=Speed("inline", quick=_any, accepts=arrays.items_accepts, work=_each_part),
            output=Output("items", refuses_rest=True), export=_STRICT),
    Keyword("items", arrays.legacy_items, "array", "schema-or-list", dialects=_BEFORE_2020,
            notes=arrays.legacy_items_note, output=_ITEMS),
    Keyword("additionalItems", arrays.additional_items, "array", "schema", dialects=_BEFORE_2020,
            output=Output("items", refuses_rest=True)),
    Keyword("contains", arrays.contains, "array", "schema", speed=Speed("called", work=_each_part),
            output=Output("items", judges=True)),
    Keyword("minContains", arrays.contains_bound, "array", dialects=_SINCE_2019, speed=Speed("nothing")),
    Keyword("maxContains", arrays.contains_bound, "array", dialects=_SINCE_2019, speed=Speed("nothing")),
    Keyword("minProperties", objects.min_properties, "object", words=arrays.size_words,
            speed=Speed("inline", quick=_count, accepts=arrays.min_size_accepts)),
    Keyword("maxProperties", objects.max_properties, "object", words=arrays.size_words,
            speed=Speed("inline", quick=_count, accepts=arrays.max_size_accepts)),
    Keyword("required", objects.required, "object", words=objects.required_words,
            speed=Speed("inline", quick=_distinct_strings, accepts=objects.required_accepts,
                        work=_missing_names),
            export=_STRICT),
    Keyword("dependentRequired", objects.dependent_required, "object", dialects=_SINCE_2019,
            words=objects.requires_words, speed=Speed("called", work=_missing_dependents)),
    Keyword("propertyNames", applicators.property_names, "object", "schema",
            speed=Speed("inline", quick=_any, accepts=applicators.property_names_accepts, work=_each_part)),
    Keyword("properties", objects.properties, "object", "map", notes=objects.named_properties,
            speed=Speed("inline", quick=_named_schemas, accepts=objects.properties_accepts, apart=True),
            output=_NAMES, export=_STRICT),
    Keyword("patternProperties", objects.pattern_properties, "object", "map",
            notes=objects.patterned_properties, speed=Speed("called", work=_each_pattern), output=_NAMES),
    Keyword("additionalProperties", objects.additional_properties, "object", "schema",
            words=objects.no_extra_words, notes=objects.every_property,
            speed=Speed("inline", quick=_any, accepts=objects.additional_properties_accepts,
                        work=_each_part),
            output=Output("names", refuses_rest=True), export=_STRICT),
    Keyword("dependentSchemas", applicators.dependent_schemas, "object", "map", True, _SINCE_2019,
            speed=Speed("called")),
    Keyword("dependencies", applicators.dependencies, "object", "map", True, _ONLY_7,
            words=objects.requires_words),
    Keyword("allOf", applicators.all_of, holds="list", in_place=True, spends_itself=True,
            speed=Speed("applied", quick=_schemas, accepts=applicators.all_of_accepts)),
    Keyword("anyOf", applicators.any_of, holds="list", in_place=True, spends_itself=True,
            speed=Speed("applied", quick=_schemas, accepts=applicators.any_of_accepts), output=_JUDGES,
            export=_STRICT),
    Keyword("oneOf", applicators.one_of, holds="list", in_place=True, spends_itself=True,
            speed=Speed("applied", quick=_schemas, accepts=applicators.one_of_accepts), output=_JUDGES),
    Keyword("not", applicators.not_, holds="schema", in_place=True, words=applicators.not_words,
            spends_itself=True, speed=Speed("applied", quick=_any, accepts=applicators.not_accepts),
            output=_JUDGES),
    Keyword("if", applicators.if_, holds="schema", in_place=True, spends_itself=True,
            speed=Speed("called")),
    Keyword("then", applicators.then_else, holds="schema", in_place=True, speed=Speed("nothing")),
    Keyword("else", applicators.then_else, holds="schema", in_place=True, speed=Speed("nothing")),
    Keyword("unevaluatedItems", unevaluated.unevaluated_items, "array", "schema", dialects=_SINCE_2019,
            reads_evaluated=True, speed=Speed("whole"), output=Output("items", refuses_rest=True)),
    Keyword("unevaluatedProperties", unevaluated.unevaluated_properties, "object", "schema",
            dialects=_SINCE_2019, words=unevaluated.unevaluated_words, reads_evaluated=True,
            speed=Speed("whole"), output=Output("names", refuses_rest=True)),
    Keyword("$defs", core.definitions, holds="map", dialects=_SINCE_2019,
            speed=Speed("nothing", quick=_named_schemas), export=_STRICT),
    Keyword("definitions", core.definitions, holds="map", speed=Speed("nothing", quick=_named_schemas),
            export=_STRICT),
)  # fmt: skip

_BY_DIALECT = {
    dialect: {row.name: row for row in VOCABULARY if dialect in row.dialects} for dialect in sorted(_ALL)
}


# The rows that hold subschemas, for the walker.
_HOLDING = {
    dialect: tuple(row for row in rows.values() if row.holds) for dialect, rows in _BY_DIALECT.items()
}


# How each keyword whose check keeps only a part of the instance words its errors (its row's ``words``).
WORDS: dict[str, Callable[[Site, Any], Words]] = {row.name: row.words for row in VOCABULARY if row.words}


def keywords(dialect: str = DEFAULT_DIALECT) -> dict[str, Keyword]:
    """The keywords of one dialect, by name, in the table's order."""
    return _BY_DIALECT[dialect]


_ORDER = {dialect: {name: index for index, name in enumerate(rows)} for dialect, rows in _BY_DIALECT.items()}


def keyword_order(dialect: str = DEFAULT_DIALECT) -> dict[str, int]:
    """Each keyword of one dialect by its place in the table, which is the order its errors come in."""
    return _ORDER[dialect]


def dialects_of(keyword: str) -> frozenset[str]:
    """The dialects that have ``keyword``; empty for a keyword outside the table."""
    return frozenset(dialect for dialect, rows in _BY_DIALECT.items() if keyword in rows)


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _discriminator(value: Any) -> bool:
    # OpenAPI's shape, as pydantic emits it: the tag's property name, and perhaps tag -> $ref.
    mapping = value.get("mapping", {}) if isinstance(value, dict) else None
    return (
        isinstance(value, dict)
        and isinstance(value.get("propertyName"), str)
        and set(value) <= {"propertyName", "mapping"}
        and isinstance(mapping, dict)
        and all(isinstance(target, str) for target in mapping.values())
    )


# Annotation keywords carry no assertion; each maps to what its value must be, and a test of it.
ANNOTATIONS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "title": ("a string", _string),
    "description": ("a string", _string),
    "$comment": ("a string", _string),
    "default": ("any JSON value", lambda value: True),
    "examples": ("an array", lambda value: isinstance(value, list)),
    "deprecated": ("a boolean", lambda value: isinstance(value, bool)),
    "readOnly": ("a boolean", lambda value: isinstance(value, bool)),
    "writeOnly": ("a boolean", lambda value: isinstance(value, bool)),
    # Which meta-schema, and so which dialect: the schema walk reads it (see _schema).
    "$schema": ("a string holding the URI of a meta-schema", _string),
    "contentEncoding": ("a string", _string),
    "contentMediaType": ("a string", _string),
    "contentSchema": ("a schema", lambda value: isinstance(value, (dict, bool))),
    # Not JSON Schema, but emitted widely: OpenAPI's example, pydantic's discriminator.
    "example": ("any JSON value", lambda value: True),
    "discriminator": (
        "an object with a 'propertyName' string and perhaps a 'mapping' of strings",
        _discriminator,
    ),
}


def is_annotation(keyword: str) -> bool:
    """An annotation of the table, or an extension (``x-…``, as OpenAPI and MCP name theirs)."""
    return keyword in ANNOTATIONS or keyword.startswith("x-")


# Forms from elsewhere, and features toolreg leaves out, with what to write instead.
REWRITES = {
    "nullable": "'nullable' is OpenAPI, not JSON Schema; add \"null\" to a type list instead",
    "additionalItems": "'additionalItems' is 2019-09 and draft-07 (declare one of them in '$schema' to "
    "use it); in 2020-12 'items' applies after 'prefixItems'",
    "dependencies": "'dependencies' is draft-07 (declare it in '$schema' to use it); 2020-12 splits it "
    "into 'dependentRequired' and 'dependentSchemas'",
    "prefixItems": "'prefixItems' is 2020-12; in the dialect this schema declares, 'items' takes the "
    "array of schemas",
    "$defs": "'$defs' is 2019-09 and 2020-12; draft-07, which this schema declares, keeps schemas in "
    "'definitions'",
    "$recursiveRef": "'$recursiveRef' is 2019-09 (declare it in '$schema' to use it); 2020-12 has "
    "'$dynamicRef' instead",
    "$recursiveAnchor": "'$recursiveAnchor' is 2019-09 (declare it in '$schema' to use it); 2020-12 has "
    "'$dynamicAnchor' instead",
}


# The vocabularies of 2020-12 by the last segment of their URI, and the keywords of each: a custom
# meta-schema's "$vocabulary" may leave some out. 2019-09 has "unevaluated" inside "applicator" and one
# "format" vocabulary; draft-07 has none.
VOCABULARIES: dict[str, frozenset[str]] = {
    "core": frozenset(
        ("$id", "$schema", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef",
         "$recursiveAnchor", "$vocabulary", "$comment", "$defs")
    ),
    "applicator": frozenset(
        ("prefixItems", "items", "additionalItems", "contains", "additionalProperties", "properties",
         "patternProperties", "dependentSchemas", "propertyNames", "if", "then", "else", "allOf", "anyOf",
         "oneOf", "not")
    ),
    "unevaluated": frozenset(("unevaluatedItems", "unevaluatedProperties")),
    "validation": frozenset(
        ("type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum",
         "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems",
         "maxContains", "minContains", "maxProperties", "minProperties", "required", "dependentRequired")
    ),
    "meta-data": frozenset(
        ("title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples")
    ),
    "format-annotation": frozenset(("format",)),
    "format-assertion": frozenset(("format",)),
    "content": frozenset(("contentEncoding", "contentMediaType", "contentSchema")),
}  # fmt: skip
_VOCABULARY_NAMES = {
    DRAFT_2020: tuple(VOCABULARIES),
    DRAFT_2019: ("core", "applicator", "validation", "meta-data", "format", "content"),
}


def vocabulary_uri(dialect: str) -> dict[str, tuple[str, ...]]:
    """Each vocabulary URI of ``dialect`` and the names in :data:`VOCABULARIES` it stands for."""
    names = _VOCABULARY_NAMES.get(dialect, ())
    stands_for = {"applicator": ("applicator", "unevaluated"), "format": ("format-annotation",)}
    return {
        f"https://json-schema.org/draft/{dialect}/vocab/{name}": (
            stands_for.get(name, (name,)) if dialect == DRAFT_2019 else (name,)
        )
        for name in names
    }


def subschemas(schema: Any, dialect: str = DEFAULT_DIALECT) -> Iterator[tuple[tuple[Token, ...], Any]]:
    """Each subschema directly below ``schema``, with the tokens that lead to it, in table order."""
    if not isinstance(schema, dict):
        return
    for row in _HOLDING[dialect]:
        name = row.name
        if name not in schema:
            continue
        value = schema[name]
        if row.holds == "schema" or (row.holds == "schema-or-list" and not isinstance(value, list)):
            yield (name,), value
        elif row.holds in ("list", "schema-or-list") and isinstance(value, list):
            for index, item in enumerate(value):
                yield (name, index), item
        elif row.holds == "map" and isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, (dict, bool)):
                    yield (name, key), item
