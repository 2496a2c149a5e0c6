"""The writer's blocks for each kind of value: type, enum and const, then the keywords that speak to
the kind (the bounds of numbers and strings, pattern, items, properties, required, …).

The generated code tells the kinds apart by exact Python type, and tests each keyword inline where
its verdict is a comparison; for the keywords whose verdict takes more (``multipleOf``,
``uniqueItems``, a closed object's extra names, …) it calls their reference check instead. Either way
every error is the reference's, in the reference's order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..compiled import Node
from ..findings import Path
from ..keywords.objects import MISSING_STEPS
from ..regex import PYTHON_MAX_TEXT, SEARCH_STEP, uncounted_length
from ..vocabulary import keywords
from .source import Block
from .writer import IN_PLACE, TYPED_KEYWORDS, Writer

__all__ = ["Generator"]

# The kinds of value the generated code tells apart, each by its exact Python type.
_KINDS = {
    "object": "{t} is dict",
    "array": "{t} is list",
    "string": "{t} is str",
    "int": "{t} is int",
    "float": "{t} is float",
    "boolean": "{t} is bool",
    "null": "{v} is None",
}
# A properties, prefixItems or required list longer than this is looped over rather than written out,
# so that a small value costs the size of the value rather than that of the schema.
_INLINE_TABLE = 16
# A numeric bound fails when this comparison of the value with the limit holds.
_BOUND_FAILS = {"minimum": "<", "exclusiveMinimum": "<=", "maximum": ">", "exclusiveMaximum": ">="}


def _json_type(kind: str) -> str:
    """The JSON type of a kind: an int or a float is a number (a whole float an integer, too)."""
    return "number" if kind in ("int", "float") else kind


# The keywords that speak to each kind.
_KEYWORDS_OF = {
    kind: frozenset(name for name in TYPED_KEYWORDS if keywords()[name].instance_type == _json_type(kind))
    for kind in _KINDS
}


def _kinds_of_type(name: str) -> tuple[str, ...]:
    return ("int", "float") if name in ("integer", "number") else (name,)


def _kinds_of_value(value: Any) -> tuple[str, ...]:
    """The kinds a value equal to this constant may have (1.0 equals 1); none for an array or object."""
    if value is None:
        return ("null",)
    if isinstance(value, bool):
        return ("boolean",)
    if isinstance(value, (int, float)):
        return ("int", "float")
    return ("string",) if isinstance(value, str) else ()


def _string_enum(plan: Mapping[str, Any]) -> bool:
    """An "enum" of strings only, which the generated code tests inline by exact type."""
    options = plan.get("enum", ())
    return bool(options) and all(isinstance(option, str) for option in options)


class Generator(Writer):
    """The whole writer: a schema object's blocks (``Writer``) and those of each kind of value."""

    def emit_kinds(self, node: Node, value: str, kind: str, path: list[str], depth: int) -> None:
        """A branch for each kind of value (see _KINDS) a valid value may have, the declared types or
        those enum and const allow, first (one test finds what a valid call holds), and for each
        kind a keyword here speaks to: in each, what type, enum and const say of that kind, then the
        keywords that speak to it. One branch more for every other kind, which type, enum and const
        refuse alike; a value of no JSON type leaves the answer to the reference walk."""
        line, plan = self.line, node.keywords
        if not {"type", "enum", "const"} & plan.keys() and not TYPED_KEYWORDS & plan.keys():
            if not IN_PLACE & plan.keys():
                # Without a $ref or combinator, which walk the whole value with the same care.
                line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")
            return
        likely = [kind for name in plan.get("type", ()) for kind in _kinds_of_type(name)]
        for option in [*plan.get("enum", ()), *([plan["const"]] if "const" in plan else [])]:
            # 1 and 1.0 are equal in JSON: a number's value may be either kind.
            likely.extend(_kinds_of_value(option))
        own = [
            name
            for name in dict.fromkeys([*likely, *_KINDS])
            if name in likely or _KEYWORDS_OF[name] & plan.keys()
        ]
        others = [name for name in _KINDS if name not in own]
        allowed = self.source.constant(frozenset(plan["enum"])) if _string_enum(plan) else ""
        for number, name in enumerate(own):
            line(depth, f"{'if' if number == 0 else 'elif'} {_KINDS[name].format(t=kind, v=value)}:")
            start = len(self.block)
            self.emit_kind(node, name, value, kind, path, depth + 1, allowed)
            if len(self.block) == start:
                line(depth + 1, "pass")
        if others:
            tests = " or ".join(_KINDS[name].format(t=kind, v=value) for name in others)
            line(depth, f"{'elif' if own else 'if'} {tests}:")
            self.emit_other_kinds(node, value, kind, path, depth + 1, allowed)
        line(depth, "else:")
        line(depth + 1, "raise NotPlainJSON")

    def emit_other_kinds(
        self, node: Node, value: str, kind: str, path: list[str], depth: int, allowed: str
    ) -> None:
        """A value of a kind that no type here declares, no enum or const allows and no keyword here
        speaks to: type and a string enum or scalar const fail; another enum or const is asked."""
        line, plan = self.line, node.keywords
        if self.yes_no and (
            "type" in plan
            or (allowed and "enum" in plan)
            or ("const" in plan and _kinds_of_value(plan["const"]))
        ):
            line(depth, self.answers.failed)  # whatever the value holds
            return
        if IN_PLACE & plan.keys():
            line(depth, f"if {kind} is float and {value} - {value} != 0: raise NotPlainJSON  # NaN or ∞")
        else:
            line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")
        if "type" in plan:
            self.fail(node, "type", f"{kind} if {kind} is dict or {kind} is list else {value}", path, depth)
        if "enum" in plan:
            if allowed:
                self.fail(node, "enum", "None", path, depth)
            else:
                self.report(node, "enum", value, path, depth)
        if "const" in plan:
            if _kinds_of_value(plan["const"]):
                self.fail(node, "const", "None", path, depth)
            else:
                self.report(node, "const", value, path, depth)

    def emit_kind(
        self, node: Node, name: str, value: str, kind: str, path: list[str], depth: int, allowed: str
    ) -> None:
        """The checks for a value known to be of the kind ``name``, in the table's order."""
        line, plan = self.line, node.keywords
        if name == "float":
            line(depth, f"if {value} - {value} != 0: raise NotPlainJSON  # NaN or an infinity")
        if "type" in plan:
            kept = kind if name in ("object", "array") else value
            if name == "float" and "number" not in plan["type"] and "integer" in plan["type"]:
                line(depth, f"if not {value}.is_integer():")  # 1.0 is an integer
                self.fail(node, "type", kept, path, depth + 1)
            elif not any(name in _kinds_of_type(declared) for declared in plan["type"]):
                self.fail(node, "type", kept, path, depth)
        if "enum" in plan:
            if not allowed:
                self.report(node, "enum", value, path, depth)
            elif name == "string":
                line(depth, f"if {value} not in {allowed}:")
                self.fail(node, "enum", "None", path, depth + 1)
            else:
                self.fail(node, "enum", "None", path, depth)
        if "const" in plan:
            expected = plan["const"]
            if not _kinds_of_value(expected):
                self.report(node, "const", value, path, depth)
            elif name not in _kinds_of_value(expected):
                self.fail(node, "const", "None", path, depth)
            elif name != "null":
                # JSON's equality within one type: 1 == 1.0, and true is only true.
                test = (
                    f"{value} is {expected}"
                    if name == "boolean"
                    else f"{value} == {self.source.constant(expected)}"
                )
                line(depth, f"if not ({test}):")
                self.fail(node, "const", "None", path, depth + 1)
        emitters: dict[str, Callable[[Node, str, list[str], int], None]] = {
            "string": self.emit_string,
            "int": self.emit_number,
            "float": self.emit_number,
            "array": self.emit_array,
            "object": self.emit_object,
        }
        if _KEYWORDS_OF.get(name, frozenset()) & plan.keys():
            emitters[name](node, value, path, depth)
        elif name in ("object", "array") and not IN_PLACE & plan.keys():
            line(depth, f"if not {self.plain(value, path)}: raise NotPlainJSON")

    def emit_string(self, node: Node, value: str, path: list[str], depth: int) -> None:
        line, plan = self.line, node.keywords
        pattern = plan.get("pattern")
        python_search = pattern.python_search() if pattern is not None else None
        size = f"len({value})"
        # A name for the length where more than one test reads it: the bounds', and the search's (two
        # where the code counts; with Python's engine a short text meets one of them).
        searches = 0 if pattern is None else 1 + self.counts
        if ("minLength" in plan) + ("maxLength" in plan) + searches > 1:
            size = self.source.fresh("n")
            line(depth, f"{size} = len({value})")
        self.emit_size_bounds(node, value, path, depth, ("minLength", "maxLength"), size)
        if pattern is not None:
            # The search's steps, spent before it runs, as the reference check spends them (a short
            # text costs none); where the code counts nothing, a text that costs more than the work
            # bound took a search to cost is left to the reference walk (long_text), tested only
            # past the short texts Python's engine answers.
            test = f"{self.source.constant(pattern.search)}({value})"
            longest = uncounted_length(pattern.size)
            if self.counts:
                line(depth, f"if {size} > {(SEARCH_STEP - 1) // pattern.size}:")
                self.spend(depth + 1, f"{size} * {pattern.size} // {SEARCH_STEP}")
            else:
                test = f"({test} if {size} <= {longest} else long_text())"
            if python_search is not None:
                # Python's engine answers short text of the simplest patterns in a third of the
                # time a call into RE2 takes (see regex.python_engine), tested here, in line.
                short = f"{self.source.constant(python_search)}({value})"
                if not self.counts and longest < PYTHON_MAX_TEXT:
                    short = f"({short} if {size} <= {longest} else long_text())"
                test = f"({short} is not None if {size} <= {PYTHON_MAX_TEXT} else {test})"
            line(depth, f"if not {test}:")
            self.fail(node, "pattern", "None", path, depth + 1)

    def emit_size_bounds(
        self,
        node: Node,
        value: str,
        path: list[str],
        depth: int,
        keywords: tuple[str, str],
        length: str | None = None,
    ) -> None:
        """minLength, minItems, minProperties and their max twins: ``len`` against a limit."""
        size = length or f"len({value})"
        for keyword, fails in zip(keywords, ("<", ">"), strict=True):
            if keyword in node.keywords:
                limit = self.source.constant(int(node.keywords[keyword]))
                self.line(depth, f"if {size} {fails} {limit}:")
                self.fail(node, keyword, size, path, depth + 1)

    def emit_number(self, node: Node, value: str, path: list[str], depth: int) -> None:
        if "multipleOf" in node.keywords:
            self.report(node, "multipleOf", value, path, depth)
        for keyword, fails in _BOUND_FAILS.items():
            if keyword in node.keywords:
                limit = self.source.constant(node.keywords[keyword])
                self.line(depth, f"if {value} {fails} {limit}:")
                self.fail(node, keyword, value, path, depth + 1)

    def emit_array(self, node: Node, value: str, path: list[str], depth: int) -> None:
        line, plan = self.line, node.keywords
        length = self.source.fresh("n")
        items_false = "items" in plan and self.compiled.node(plan["items"]).boolean is False
        if {"minItems", "maxItems", "prefixItems"} & plan.keys() or items_false:
            line(depth, f"{length} = len({value})")
        self.emit_size_bounds(node, value, path, depth, ("minItems", "maxItems"), length)
        # prefixItems and items: one step for each item whose schema does not count itself (see
        # Site.counts_itself), as the reference checks spend them.
        if plan.get("uniqueItems") is True:
            self.count_items(depth, value)  # its reference check goes over every item
            self.report(node, "uniqueItems", value, path, depth)
        prefix = plan.get("prefixItems", ())
        if len(prefix) > _INLINE_TABLE:
            self.emit_prefix_table(node, prefix, value, length, path, depth)
        for index, location in enumerate(prefix) if len(prefix) <= _INLINE_TABLE else ():
            item = self.source.fresh("x")
            line(depth, f"if {length} > {index}:")
            if self.counts and not self.counts_itself(location):
                self.spend(depth + 1)
            line(depth + 1, f"{item} = {value}[{index}]")
            self.emit(location, item, [*path, str(index)], depth + 1)
        start = len(prefix)
        items = self.compiled.node(plan["items"]) if "items" in plan else None
        counted = self.counts and items is not None and not items_false
        if counted and not self.counts_itself(plan["items"]) and start:
            line(depth, f"if {length} > {start}:")
            self.spend(depth + 1, f"{length} - {start}")
        elif counted and not self.counts_itself(plan["items"]):
            self.spend(depth, f"len({value})")
        if items_false and self.yes_no:
            line(depth, f"if {length} > {start}: {self.answers.failed}")
            self.hand_over(node, ("contains",), value, path, depth)
            return
        position, item = self.source.fresh("i"), self.source.fresh("x")
        # The loop's body first, so that its head can be chosen from what the body reads.
        with self.writing(Block()) as body:
            if start:
                line(depth + 1, f"{item} = {value}[{position}]")
            if items is not None and items.boolean is False:
                line(depth + 1, f"if not {self.plain(item, [*path, position])}: raise NotPlainJSON")
            elif items is not None:
                self.emit(items.location, item, [*path, position], depth + 1)
            else:
                line(depth + 1, f"if not {self.plain(item, [*path, position])}: raise NotPlainJSON")
        if _calls(body):
            self.count_items(depth, value)
        if start:
            line(depth, f"for {position} in range({start}, {length}):")
        elif position in body.reads:
            line(depth, f"for {position}, {item} in enumerate({value}):")
        else:
            # No path is made below (a yes/no answer makes none): a loop without positions costs less.
            line(depth, f"for {item} in {value}:")
        self.block.extend(body)
        if items is not None and items.boolean is False:
            line(depth, f"if {length} > {start}:")
            self.report(node, "items", value, path, depth + 1)
        self.hand_over(node, ("contains",), value, path, depth)

    def emit_object(self, node: Node, value: str, path: list[str], depth: int) -> None:
        line, plan = self.line, node.keywords
        self.emit_size_bounds(node, value, path, depth, ("minProperties", "maxProperties"))
        names = [self.source.constant(name) for name in plan.get("required", ())]
        if len(names) == 1:
            line(depth, f"if {names[0]} not in {value}:")
            self.missing(node, names[0], path, depth + 1)
        elif len(names) > _INLINE_TABLE:
            missing = self.source.fresh("k")
            line(depth, f"for {missing} in {self.source.constant(tuple(plan['required']))}:")
            line(depth + 1, f"if {missing} not in {value}:")
            self.missing(node, missing, path, depth + 2)
        elif names:
            # One test for a call that has them all; then which are missing, in the schema's order.
            line(depth, f"if not ({' and '.join(f'{name} in {value}' for name in names)}):")
            for name in names:
                line(depth + 1, f"if {name} not in {value}:")
                self.missing(node, name, path, depth + 2)
        self.hand_over(node, ("dependentRequired",), value, path, depth)
        if "propertyNames" in plan:
            key = self.source.fresh("k")
            line(depth, f"for {key} in {value}:")
            line(depth + 1, f"if type({key}) is not str: raise NotPlainJSON")
            self.count_items(depth, value)  # its reference check applies its schema to every name
            self.report(node, "propertyNames", value, path, depth)
        required, properties = frozenset(plan.get("required", ())), plan.get("properties", ())
        if len(properties) > _INLINE_TABLE:
            self.emit_property_table(node, value, path, depth)
            properties = ()
        # Where the names outside properties matter, the properties found are counted: an object
        # with as many names as that has no other, and its names need no second look (a set test
        # of every name costs a small valid call a fifth of its time).
        found = self.source.fresh("m") if properties and "patternProperties" not in plan else None
        if found is not None:
            line(depth, f"{found} = 0")
        for name, location in properties:
            constant, child = self.source.constant(name), self.source.fresh("x")
            if name in required:
                # A valid call has it, so a subscript finds it at once; only a wrong call pays for
                # the exception.
                line(depth, "try:")
                line(depth + 1, f"{child} = {value}[{constant}]")
                line(depth, "except KeyError:")
                line(depth + 1, "pass")
                line(depth, "else:")
            else:
                # Two lookups cost less than a call of get; were the name taken away between them,
                # by another thread, the KeyError hands the answer to the reference walk.
                line(depth, f"if {constant} in {value}:")
                line(depth + 1, f"{child} = {value}[{constant}]")
            if found is not None:
                line(depth + 1, f"{found} += 1")
            self.emit(location, child, [*path, constant], depth + 1)
        if "patternProperties" in plan:
            # additionalProperties leaves what the patterns match: its reference check knows them.
            later = ("patternProperties", "additionalProperties", "dependentSchemas")
            self.hand_over(node, later, value, path, depth)
            return
        if found is None:
            self.emit_extra(node, value, path, depth)
        else:
            line(depth, f"if len({value}) != {found}:")
            self.emit_extra(node, value, path, depth + 1)
        self.hand_over(node, ("dependentSchemas",), value, path, depth)

    def missing(self, node: Node, name: str, path: list[str], depth: int) -> None:
        """A required property found missing: one step, as the reference check spends for each."""
        if self.counts:
            self.spend(depth, str(MISSING_STEPS))
        self.fail(node, "required", name, path, depth)

    def emit_property_table(self, node: Node, value: str, path: list[str], depth: int) -> None:
        """``properties`` naming more than a few: each present property's schema is a function of its
        own, and a loop finds them, looking up the names of the object or of the table, whichever
        has fewer (as ``keywords.objects.present_in`` does), in the table's order."""
        line, table = self.line, self.node_table(f"{node.pointer}/properties", node.keywords["properties"])
        names = [name for name, _ in node.keywords["properties"]]
        positions = self.source.constant({name: position for position, name in enumerate(names)})
        order, position = self.source.fresh("o"), self.source.fresh("j")
        name, function, child = self.source.fresh("k"), self.source.fresh("g"), self.source.fresh("x")
        line(depth, f"if len({value}) < {len(names)}:")
        line(depth + 1, f"{order} = sorted({positions}[k] for k in {value} if k in {positions})")
        line(depth, "else:")
        line(depth + 1, f"{order} = range({len(names)})")
        line(depth, f"for {position} in {order}:")
        line(depth + 1, f"{name}, {function} = {table}[{position}]")
        line(depth + 1, f"if {name} in {value}:")
        line(depth + 2, f"{child} = {value}[{name}]")
        self.unless(depth + 2, self.call(function, child, [*path, name]))

    def emit_prefix_table(
        self, node: Node, prefix: tuple[Path, ...], value: str, length: str, path: list[str], depth: int
    ) -> None:
        """``prefixItems`` of more than a few schemas: a loop over the items the array has, each
        schema a function of its own, spending at once what the reference check spends."""
        line, table = self.line, self.node_table(f"{node.pointer}/prefixItems", enumerate(prefix))
        if self.counts:
            steps, total = [0], 0
            for location in prefix:
                total += not self.counts_itself(location)
                steps.append(total)
            self.spend(depth, f"{self.source.constant(tuple(steps))}[min({length}, {len(prefix)})]")
        position, function = self.source.fresh("j"), self.source.fresh("g")
        line(depth, f"for {position} in range(min({length}, {len(prefix)})):")
        line(depth + 1, f"{function} = {table}[{position}][1]")
        self.unless(depth + 1, self.call(function, f"{value}[{position}]", [*path, position]))

    def node_table(self, pointer: str, entries: Any) -> str:
        """A tuple of (name or index, function of the schema) for each entry of the keyword at
        ``pointer``, as a global of the generated module, written after the functions it names, once
        (validate's front writes the root's body again)."""
        if pointer in self.table_names:
            return self.table_names[pointer]
        table = self.table_names[pointer] = self.source.fresh("T")
        pairs = ", ".join(
            f"({self.source.constant(key)}, {self.function_for(location)})" for key, location in entries
        )
        self.tables.append(f"{table} = ({pairs},)")
        return table

    def emit_extra(self, node: Node, value: str, path: list[str], depth: int) -> None:
        """additionalProperties, for a schema without patternProperties."""
        line, plan = self.line, node.keywords
        known = self.source.constant(frozenset(name for name, _ in plan.get("properties", ())))
        extra = self.compiled.node(plan["additionalProperties"]) if "additionalProperties" in plan else None
        if extra is not None and extra.boolean is False and self.yes_no:
            line(depth, f"if not {known}.issuperset({value}):")
            if self.counts:
                self.spend(depth + 1, f"len({value}.keys() - {known})")  # as the reference check would
            line(depth + 1, self.answers.failed)
            return
        if extra is not None and extra.boolean is False:
            key = self.source.fresh("k")
            line(depth, f"if not {known}.issuperset({value}):")
            self.count_items(depth + 1, value)
            line(depth + 1, f"for {key}, {self.source.fresh('x')} in {value}.items():")
            unplain = f"type({key}) is not str or not {self.plain(f'{value}[{key}]', [*path, key])}"
            line(depth + 2, f"if {key} not in {known} and ({unplain}):")
            line(depth + 3, "raise NotPlainJSON")
            self.report(node, "additionalProperties", value, path, depth + 1)
            return
        key, item = self.source.fresh("k"), self.source.fresh("x")
        self.count_items(depth, value)
        line(depth, f"for {key}, {item} in {value}.items():")
        line(depth + 1, f"if {key} not in {known}:")
        line(depth + 2, f"if type({key}) is not str: raise NotPlainJSON")
        if extra is None:
            line(depth + 2, f"if not {self.plain(item, [*path, key])}: raise NotPlainJSON")
            return
        if self.counts:
            self.spend(depth + 2)  # one step for each name it applies its schema to
        # The name is the instance's, not the schema's: a masked error hides it.
        self.emit(extra.location, item, [*path, f"K({key})"], depth + 2)


def _calls(body: Block) -> bool:
    """Whether a loop's body may call Python code for an item: a generated function (which takes the
    allowance), the test of plain JSON or a reference check (which take the errors). A body that
    tests each item inline makes no call, so it cannot cross a chunk's end and its items are not
    counted (see ``room``): an array of strings costs nothing more."""
    return "allow" in body.reads or any("plain(" in text or "errors" in text for _, text in body.lines)
