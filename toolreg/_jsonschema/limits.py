"""Limits on what toolreg takes in: how deep an instance nests, how deep and how large a schema is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .exceptions import LimitsError
from .record import Record, fill

__all__ = [
    "Limits",
    "DEFAULT_LIMITS",
    "WORK_PER_VALUE",
    "LimitsLike",
    "as_limits",
    "budget",
    "values_at_a_glance",
]


class Limits(Record):
    """Bounds that keep every answer clear and every walk within Python's stack.

    ``max_depth``: an instance nested deeper (``[[[…]]]``, one level per array or object) gets one
    ``depth`` error at the first container past it, and no other error. ``max_schema_depth``: a schema
    document nested deeper, as JSON, is refused at registration; ``max_schema_size``: so is one with
    more subschemas. Tool arguments and schemas seen in real catalogs nest fewer than 10 levels.
    ``allow_backtracking_patterns``: a ``pattern`` that RE2 cannot express (a look-behind, a
    look-ahead other than right after a leading ``^``, a back-reference, a property RE2 does not
    know) is refused unless this is set; set, such a pattern runs on a backtracking engine only if
    it is small and every count in it has a most, so that a search costs at most 100 steps
    (``regex.MAX_STEPS``) at each place of the string (``(?<!\\d)\\d{3}`` passes, ``(?<=a+)b`` never
    does); see ``regex.backtracking_cost``.
    ``max_work``: how many steps of work one validation may take beyond :data:`WORK_PER_VALUE` (50)
    for each value in the instance; past it the answer is one ``limit`` error (``is_valid``: False). A
    step is each subschema applied in place (a branch of ``allOf``, ``anyOf`` or ``oneOf``, the
    schema of ``not``, ``if``, ``then``, ``else`` or ``dependentSchemas``, each ``$ref`` or
    ``$dynamicRef`` followed); each item or property name a keyword goes through (``contains``,
    ``uniqueItems``, ``propertyNames``, ``unevaluatedItems``, ``unevaluatedProperties``), applies its
    schema to or reports (``additionalProperties``), or applies a schema to that spends no step itself
    (``items``, ``prefixItems``); each pattern of ``patternProperties`` tried on each name, and for
    ``additionalProperties`` beside it; each array or object ``enum`` or ``const`` compares; and two
    for each name ``required`` or ``dependentRequired`` finds missing; and each search of a pattern,
    or test of an asserted ``format``, one for each 2,048 characters of its text times the size of
    its program, in instructions (``regex.search_steps``; a format's test is run once for each string
    however often it applies; ``patternProperties``'s searches of the names alike).
    Both paths spend them at the same places. A ``$ref`` graph that branches at every step, or a
    thousand branches each going through a long array, would otherwise take time exponential in, or
    the product of, the schema's size and the instance's.
    ``max_pattern_program``: how many instructions of RE2's programs the patterns of one registry (its
    tools' schemas together), or of one schema compiled alone, may cost to compile, each pattern
    counted once (``regex.Patterns``); the pattern that passes it, and every new one after it, is
    refused (a :class:`~toolreg.SchemaError` at its pointer) without being compiled. Each schema's own
    patterns may hold at most 500,000 (``regex.MAX_PROGRAM``) whatever this says: the default, 600,000,
    is one schema's and a little more, over a thousand times what real catalogs' patterns hold.
    ``max_output_bytes``: how long the JSON text of one standard output (``Validator.output``) or of
    the errors ``toolreg validate --json`` prints may be; past it the answer is one ``limit`` error
    instead. Each unit of the output is counted as it is recorded, its strings at their length as
    ``json.dumps`` writes them and 160 for the rest of it, so the text of every format is at most this.
    A field out of range raises :class:`~toolreg.LimitsError`.
    """

    # Compared, hashed, shown and frozen as the frozen dataclass it was (see record.Record).
    __slots__ = (
        "max_depth",
        "max_schema_depth",
        "max_schema_size",
        "allow_backtracking_patterns",
        "max_work",
        "max_pattern_program",
        "max_output_bytes",
    )
    __match_args__ = (
        "max_depth",
        "max_schema_depth",
        "max_schema_size",
        "allow_backtracking_patterns",
        "max_work",
        "max_pattern_program",
        "max_output_bytes",
    )

    max_depth: int
    max_schema_depth: int
    max_schema_size: int
    allow_backtracking_patterns: bool
    max_work: int
    max_pattern_program: int
    max_output_bytes: int

    def __init__(
        self,
        max_depth: int = 128,
        max_schema_depth: int = 128,
        max_schema_size: int = 10_000,
        allow_backtracking_patterns: bool = False,
        max_work: int = 10_000,
        max_pattern_program: int = 600_000,
        max_output_bytes: int = 10_000_000,
    ) -> None:
        fill(
            self,
            max_depth,
            max_schema_depth,
            max_schema_size,
            allow_backtracking_patterns,
            max_work,
            max_pattern_program,
            max_output_bytes,
        )
        if not isinstance(self.allow_backtracking_patterns, bool):
            raise LimitsError(
                f"Limits.allow_backtracking_patterns must be a bool, not {self.allow_backtracking_patterns!r}"
            )
        for name in (
            "max_depth",
            "max_schema_depth",
            "max_schema_size",
            "max_work",
            "max_pattern_program",
            "max_output_bytes",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise LimitsError(f"Limits.{name} must be a positive int, not {value!r}")

    def __replace__(self, **changes: Any) -> Limits:
        # copy.replace (Python 3.13) takes these as it took the frozen dataclass they were.
        return type(self)(**{name: getattr(self, name) for name in self.__slots__} | changes)


DEFAULT_LIMITS = Limits()
# What each value of an instance adds to max_work: real schemas apply a few dozen subschemas in place
# to one value; a union of hundreds of branches over every item of a long array reaches the limit.
WORK_PER_VALUE = 50


def budget(limits: Limits, values: int) -> int:
    """The work budget of one validation of an instance of ``values`` values."""
    return limits.max_work + WORK_PER_VALUE * values


def values_at_a_glance(instance: Any) -> int:
    """How many values ``instance`` holds at least, known without walking it: itself and its items."""
    return 1 + len(instance) if type(instance) is dict or type(instance) is list else 1


# Every ``limits=`` argument takes a Limits, or a mapping of some of its fields over the defaults.
LimitsLike = Limits | Mapping[str, Any]
_FIELDS = list(Limits.__slots__)


def as_limits(limits: object) -> Limits:
    """``limits`` as a :class:`Limits`: one already, or a mapping such as ``{"max_depth": 32}``."""
    if isinstance(limits, Limits):
        return limits
    if not isinstance(limits, Mapping):
        raise LimitsError(
            f"limits must be a toolreg.Limits or a mapping of its fields, not {type(limits).__name__}"
        )
    for name in limits:
        if name not in _FIELDS:
            import difflib  # here: only the hint for a misspelt field needs it, and it costs the import

            nearest = difflib.get_close_matches(str(name), _FIELDS, n=1)
            hint = f"; did you mean {nearest[0]!r}?" if nearest else f"; the fields are {', '.join(_FIELDS)}"
            raise LimitsError(f"limits has no field {name!r}{hint}")
    return Limits(**limits)
