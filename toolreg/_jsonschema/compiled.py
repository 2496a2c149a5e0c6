"""What compilation returns: a schema checked and compiled, as one frozen value (``Compiled``), and each
schema object as the fast path reads it (``Node``). The walk that makes them (``schema._Compiler``) stays
private to ``schema``; what it hands over is described here (``Walked``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, NoReturn, Protocol

from .findings import Check, Path
from .limits import Limits
from .pointer import to_pointer
from .record import Record, fill
from .references import base_at, schema_in
from .regex import Pattern
from .settings import Settings
from .sites import Compiler, Site
from .vocabulary import Keyword

__all__ = ["Allowance", "Compiled", "Node", "Walked", "frozen"]


class Node(Record):
    """A schema object as compilation read it, which is all the fast path reads: ``boolean`` for a
    ``true`` or ``false`` schema, else ``keywords``, each keyword the dialect checks here in the
    table's order with its plan. A keyword holding subschemas has their locations (one; a tuple;
    or, for an object of them, a tuple of (name, location)); ``$ref`` its target's location;
    ``type`` a tuple of names; ``pattern`` the compiled pattern; any other its checked value,
    a list as a tuple.
    """

    # Compared, shown and frozen as the frozen dataclass it was (see record.Record).
    __slots__ = ("location", "pointer", "boolean", "keywords")

    location: Path
    pointer: str
    boolean: bool | None
    keywords: Mapping[str, Any]

    def __init__(
        self, location: Path, pointer: str, boolean: bool | None, keywords: Mapping[str, Any]
    ) -> None:
        fill(self, location, pointer, boolean, keywords)


# The work bound a validator hands a compiled schema (``fast.work.within_allowance``): whether no instance
# can make its walk spend more steps than the allowance for each of its values.
Allowance = Callable[["Compiled"], bool]


class Walked(Compiler, Protocol):
    """The walk over a schema, done, as a compiled schema is made from it: what a keyword function may
    ask of it (``sites.Compiler``, which a site for the fast path's errors asks too) and the tables
    it filled (see ``schema._Compiler``)."""

    root: Any
    settings: Settings
    used: set[str]
    checks: dict[str, Check]
    keyword_checks: dict[tuple[str, str], Check]
    in_place: list[tuple[Path, Path, str | None]]
    resources: dict[str, Path]
    resource_roots: dict[str, str]
    dynamic_anchors: dict[str, dict[str, Path]]
    recursive_anchors: dict[str, Path]
    order: dict[str, int]
    bases: dict[Path, str]
    loaded: dict[str, Any]
    own_patterns: dict[str, Pattern]
    dynamic: bool

    # The rows themselves (sites.Compiler promises only what a site reads of them).
    @property
    def keywords(self) -> Mapping[str, Keyword]: ...


class _Fields:
    """The fields of a :class:`Compiled` as it is made, which take plain assignments (see
    :func:`frozen`)."""

    __slots__ = (
        "root",
        "settings",
        "limits",
        "dialect",
        "keywords",
        "ignored",
        "asserts_formats",
        "dynamic",
        "annotates",
        "used",
        "checks",
        "keyword_checks",
        "ref_targets",
        "in_place",
        "resources",
        "resource_roots",
        "dynamic_anchors",
        "recursive_anchors",
        "allowance",
        "_walk",
        "_order",
        "_bases",
        "_loaded",
        "_patterns",
        "_nodes",
        "_within",
        "_derived",
    )

    root: Any
    settings: Settings
    # settings.limits, read by every walk.
    limits: Limits
    dialect: str
    keywords: Mapping[str, Keyword]
    ignored: frozenset[str]
    asserts_formats: bool
    # Whether resources are entered for $dynamicRef, and whether subschemas note what they evaluate.
    dynamic: bool
    annotates: bool
    used: frozenset[str]
    checks: Mapping[str, Check]
    keyword_checks: Mapping[tuple[str, str], Check]
    ref_targets: Mapping[str, Path]
    in_place: tuple[tuple[Path, Path, str | None], ...]
    resources: Mapping[str, Path]
    resource_roots: Mapping[str, str]
    dynamic_anchors: Mapping[str, Mapping[str, Path]]
    recursive_anchors: Mapping[str, Path]
    allowance: Allowance | None
    _walk: Walked
    _order: Mapping[str, int]
    _bases: Mapping[Path, str]
    _loaded: Mapping[str, Any]
    _patterns: Mapping[str, Pattern]
    _nodes: dict[str, Node]
    _within: list[bool]
    _derived: dict[str, Any]

    def __init__(self, walk: Walked, allowance: Allowance | None) -> None:
        self.root = walk.root
        self.settings = walk.settings
        self.limits = walk.limits
        self.dialect = walk.dialect
        self.keywords = MappingProxyType(walk.keywords)
        self.ignored = walk.ignored
        self.asserts_formats = walk.asserts_formats
        self.dynamic = walk.dynamic
        self.annotates = walk.annotates
        self.used = frozenset(walk.used)
        # The walk's own tables, seen through read-only views: its checks read them as they run (a
        # $dynamicRef's anchors among them), and nothing writes to them once it is done.
        self.checks = MappingProxyType(walk.checks)
        self.keyword_checks = MappingProxyType(walk.keyword_checks)
        self.ref_targets = MappingProxyType(walk.ref_targets)
        self.in_place = tuple(walk.in_place)
        self.resources = MappingProxyType(walk.resources)
        self.resource_roots = MappingProxyType(walk.resource_roots)
        self.dynamic_anchors = MappingProxyType(walk.dynamic_anchors)
        self.recursive_anchors = MappingProxyType(walk.recursive_anchors)
        self.allowance = allowance
        # Read by its own methods alone, so held as they are: the walk itself (which the reference
        # checks hold too, and a site for the fast path's errors stands on, as theirs do), and its
        # tables of keywords' places, base URIs, documents read and patterns.
        self._walk = walk
        self._order = walk.order
        self._bases = walk.bases
        self._loaded = walk.loaded
        self._patterns = walk.own_patterns
        self._nodes: dict[str, Node] = {}
        self._within: list[bool] = []
        self._derived: dict[str, Any] = {}


class Compiled(_Fields):
    """A schema checked and compiled, what :func:`compile_schema` returns: one frozen value holding what
    validation, the fast path and the standard output read of it.

    ``root`` is the schema snapshot, private (every check reads it as plain JSON; ``Validator.schema``
    hands out copies); ``checks`` holds the check of each schema object by its pointer (``""`` is the
    root's); ``keyword_checks`` each keyword's check by its schema object's pointer and its name (and
    :meth:`site` a site that words its errors); ``ref_targets`` where each reference leads
    (``$dynamicRef`` and ``$recursiveRef``: where they lead from outside every resource that moves
    them); ``in_place`` each schema applied to the value of another (source, target, and the pointer
    of the reference that applies it, if one does); ``used`` every keyword compiled; ``keywords`` the
    rows of those the schema's dialect and vocabularies check, and ``ignored`` those its vocabularies
    leave out; ``resources``, ``resource_roots``, ``dynamic_anchors`` and ``recursive_anchors`` where
    its resources and anchors are (see ``references``); ``allowance`` the work bound (see
    :meth:`kept_errors_cost`).

    Every field is set as compilation ends and never again: assigning or deleting one raises
    AttributeError, and each mapping but ``checks`` is a read-only view (``checks`` is the walk's own
    table, where tests put a root check that fails once, to see a walk judge again from a copy). Two
    memos fill as they are asked for, from the fields alone, so that the value reads the same before
    and after: each schema object's :class:`Node` (which registration need not pay for) and the work
    bound's answer; and what readers derive from the fields (see :meth:`derived`).
    """

    # Its fields are _Fields's: a Compiled is made one (see frozen).
    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"a compiled schema is frozen: cannot assign to {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"a compiled schema is frozen: cannot delete {name!r}")

    def within_allowance(self) -> bool:
        """The work bound's answer for this schema (False where none was handed in), worked out once."""
        found = self._within
        if not found:
            allowance = self.allowance
            found.append(allowance is not None and allowance(self))
        return found[0]

    def kept_errors_cost(self) -> bool:
        """Whether the errors failing branches of anyOf and oneOf keep past their first cost steps:
        where the work bound cannot show the schema within the allowance for each value (in 2020-12,
        where the generated code counts them too, so that both paths stop alike; in the older
        dialects, where a registry's glance, whose bound reads the schema without the charge, would
        not answer either); never where no bound was handed in (a schema compiled to be checked only)."""
        return self.allowance is not None and not self.within_allowance()

    def schema_at(self, location: Path) -> Any:
        return schema_in(self.root, self._loaded, location)

    def base_of(self, location: Path) -> str:
        """The base URI in force at a schema object."""
        return base_at(self._bases, location)

    def site(self, keyword: str, location: Path, pointer: str) -> Site:
        """A site of ``keyword`` in the schema object at ``location`` (whose pointer is ``pointer``),
        which words its errors as its reference check's does: for the errors the fast path finds."""
        return Site(keyword, location, self.schema_at(location), self._walk, pointer)

    def pattern(self, source: str) -> Pattern:
        """The compiled pattern of one of the schema's ``pattern`` or ``patternProperties`` sources."""
        return self._patterns[source]

    def own_patterns(self) -> Mapping[str, Pattern]:
        """Every compiled pattern of the schema, by source."""
        return MappingProxyType(self._patterns)

    def derived(self, name: str, make: Callable[[Compiled], Any]) -> Any:
        """``make(self)``, made at the first call for ``name`` and kept: what a reader works out from
        the fields alone (the standard output's traced walk). Two threads may both make it; one is kept."""
        found = self._derived.get(name)
        if found is None:
            found = self._derived[name] = make(self)
        return found

    def node(self, location: Path) -> Node:
        """The intermediate form of the compiled schema object at ``location``, made on first request
        (the fast path asks; registration alone need not pay for it)."""
        pointer = to_pointer(location)
        found = self._nodes.get(pointer)
        if found is not None:
            return found
        schema = self.schema_at(location)
        if isinstance(schema, bool):
            found = Node(location, pointer, schema, MappingProxyType({}))
        else:
            present = [name for name in self._order if name in schema]
            if "$ref" in schema and self.dialect == "draft-07":
                present = ["$ref"]
            found = Node(
                location,
                pointer,
                None,
                MappingProxyType({name: self._plan(name, schema[name], location) for name in present}),
            )
        self._nodes[pointer] = found
        return found

    def _plan(self, name: str, value: Any, location: Path) -> Any:
        holds = self.keywords[name].holds
        here = location + (name,)
        if holds == "schema" or (holds == "schema-or-list" and not isinstance(value, list)):
            return here
        if holds in ("list", "schema-or-list"):
            return tuple(here + (index,) for index in range(len(value)))
        if holds == "map":
            return tuple(
                (key, here + (key,)) for key, item in value.items() if isinstance(item, (dict, bool))
            )
        if name == "$ref":
            return self.ref_targets[to_pointer(here)]
        if name == "type":
            return (value,) if isinstance(value, str) else tuple(value)
        if name == "pattern":
            return self.pattern(value)
        return tuple(value) if isinstance(value, list) else value


def frozen(walk: Walked, allowance: Allowance | None) -> Compiled:
    """What ``walk`` made, with the work bound ``allowance`` (see Compiled.kept_errors_cost), frozen."""
    # Filled in as _Fields, then made a Compiled, which refuses every assignment: setting its fields
    # past that (object.__setattr__) would cost a small schema's compilation a quarter more.
    made = _Fields(walk, allowance)
    made.__class__ = Compiled
    assert isinstance(made, Compiled)
    return made
