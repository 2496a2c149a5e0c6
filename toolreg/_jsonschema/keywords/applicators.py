"""The applicators: allOf, anyOf, oneOf, not, if/then/else, dependentSchemas, dependencies, propertyNames."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast, runtime_checkable

from ..errors import (
    ErrorFact,
    FrozenArray,
    Masked,
    ValidationError,
    Words,
    deferred_error,
    freeze,
    place_of,
    stands_at,
    trusted_error,
)
from ..findings import FAILED, Check, Failed, Place, Verdict, no_check, noted, run_branch, scratch, spend
from ..limits import WORK_PER_VALUE
from ..pointer import place_masked_pointer, place_pointer
from ..sites import Reading, Site
from ..values import json_equal, json_key
from ..wording import NAMES_SHOWN, show, show_within
from .objects import positions_in, present_in, requires

__all__ = ["BranchCheck", "KEPT_ERROR_STEPS"]


def property_names(value: Any, site: Site) -> Check:
    """Every property name of an object, as a string, matches the schema."""
    child = site.subschema(value)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if not isinstance(instance, dict):
            return
        spend(errors, len(instance))
        for name in instance:
            found = run_branch(child, name, path, errors)
            # The error stands at the object, as jsonschema places it; the name says which one.
            for error in found:
                hidden = error.masked()
                errors.append(
                    trusted_error(
                        place_of(error),
                        error.schema_path,
                        error.keyword,
                        f"property name {show(name)} {error.message}",
                        {**error.facts, "property_name": name},
                        (place_of(hidden), f"a property name {hidden.message}", dict(hidden.facts)),
                    )
                )

    return check


def property_names_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    return all(reading.fits(value, name) for name in instance)


def dependent_schemas(value: Any, site: Site) -> Check:
    """When the object has a named property, the object matches the schema given for it."""
    if not isinstance(value, dict):
        site.refuse("must be an object mapping property names to schemas")
    return _when_present([(name, site.in_place(schema, name)) for name, schema in value.items()])


def _when_present(rules: list[tuple[str, Check]]) -> Check:
    positions = positions_in(rules)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        if isinstance(instance, dict):
            for _, child in present_in(rules, positions, instance):
                spend(errors)
                child(instance, path, errors)

    return check


def dependencies(value: Any, site: Site) -> Check:
    """Draft-07: a property's list of properties it requires, or a schema the object then matches."""
    if not isinstance(value, dict):
        site.refuse("must be an object mapping property names to schemas or lists of property names")
    names: dict[str, list[str]] = {}
    schemas: list[tuple[str, Check]] = []
    for name, rule in value.items():
        if isinstance(rule, list):
            if not all(isinstance(item, str) for item in rule) or len(set(rule)) != len(rule):
                site.refuse("must list distinct property names", name)
            names[name] = rule
        else:
            schemas.append((name, site.in_place(rule, name)))
    required, dependent = requires(names, site), _when_present(schemas)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        required(instance, path, errors)
        dependent(instance, path, errors)

    return check


def all_of(value: Any, site: Site) -> Check:
    """The instance matches every schema; their errors are reported as they are."""
    branches = site.schemas(value, in_place=True)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        for branch in branches:
            spend(errors)
            branch(instance, path, errors)

    return check


# How much of the fitting branch's errors an anyOf or oneOf message quotes: they may quote their own.
_DETAILS_SHOWN = 3
_DETAILS_CHARS = 300


def all_of_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    return all(reading.fits(branch, instance) for branch in value)


def _branch_facts(outcomes: list[list[ValidationError]]) -> Any:
    # Each error shared, not copied (see ErrorFact): a nested error costs its size once, not once a level.
    return FrozenArray(FrozenArray(map(ErrorFact, found)) for found in outcomes)


def _details(found: list[ValidationError], here: Callable[[ValidationError], bool]) -> str:
    """The first few errors of a branch, each with its pointer unless ``here`` says it stands at the
    value itself, cut to :data:`_DETAILS_CHARS`."""
    said = []
    for error in found[:_DETAILS_SHOWN]:
        if here(error):
            said.append(error.message)
        else:  # a pointer may be as long as the instance: only what the message can show is kept
            said.append(f"at {error.path[:_DETAILS_CHARS]}: {error.message}")
    text = "; ".join(said)
    if len(found) > _DETAILS_SHOWN:
        text += f"; and {len(found) - _DETAILS_SHOWN} more"
    return text if len(text) <= _DETAILS_CHARS else text[: _DETAILS_CHARS - 1] + "…"


# A tagged union: the property whose constant value chooses the branch, and each value's branch.
Tag = tuple[str, tuple[tuple[Any, int], ...]]


def _tag_of(found: list[Tag | None], branches: Any, site: Site) -> Tag | None:
    if not found:
        found.append(_union_tag(branches, site))
    return found[0]


def _union_tag(branches: Any, site: Site) -> Tag | None:
    """The tag of a union whose every branch (or the schema its ``$ref`` names) is an object schema
    giving one property a constant, different in each: pydantic's and zod's discriminated unions.
    A ``discriminator.propertyName`` beside the union names it; else the first such property by name."""
    if not isinstance(branches, list) or len(branches) < 2:
        return None
    constants: list[dict[str, Any]] = []
    for index, branch in enumerate(branches):
        if isinstance(branch, dict) and "$ref" in branch:
            target = site.compiler.ref_targets.get(f"{site.pointer}/{index}/$ref")
            branch = site.compiler.schema_at(target) if target is not None else None
        properties = branch.get("properties") if isinstance(branch, dict) else None
        if not isinstance(properties, dict):
            return None
        constants.append(
            {
                name: rule["const"] if "const" in rule else rule["enum"][0]
                for name, rule in properties.items()
                if isinstance(rule, dict)
                and ("const" in rule or (isinstance(rule.get("enum"), list) and len(rule["enum"]) == 1))
            }
        )
    common = sorted(set.intersection(*(set(found) for found in constants)))
    discriminator = site.schema.get("discriminator")
    named = discriminator.get("propertyName") if isinstance(discriminator, dict) else None
    for name in [named, *common] if named in common else common:
        values = [found[name] for found in constants]
        if len({json_key(value) for value in values}) == len(values):
            return name, tuple((value, index) for index, value in enumerate(values))
    return None


def _no_branch_matched(
    site: Site,
    path: Place,
    outcomes: list[list[ValidationError]],
    rule: str,
    tag: Tag | None = None,
    instance: Any = None,
) -> ValidationError:
    """One error for the instance, with every branch's errors, and what would fit: the branch its tag
    chooses or its type fits (whose errors are named), the tag's values, or the types allowed."""
    message = f"must match {rule} of the {len(outcomes)} schemas in {site.keyword}"
    facts: dict[str, Any] = {"branches": _branch_facts(outcomes)}
    index, said, quoted = _chosen_branch(site, path, outcomes, tag, instance, facts)

    def masked() -> Masked:
        # Built only when asked for: a masked copy at every level of a nested anyOf would double it.
        hidden = [[error.masked() for error in found] for found in outcomes]
        shown = {**facts, "branches": _branch_facts(hidden)}
        if index is None:
            return (None, message + said, shown)
        here = place_masked_pointer(path) or place_pointer(path)
        return (None, f"{message}{said}{_details(hidden[index], lambda error: error.path == here)}", shown)

    text = message + said + quoted  # `masked` reads `message` later, so it keeps its first value
    if index is not None:
        text += _details(outcomes[index], lambda error: stands_at(error, path))
    return trusted_error(path, site.pointer, site.keyword, text, facts, masked)


def _chosen_branch(
    site: Site,
    path: Place,
    outcomes: list[list[ValidationError]],
    tag: Tag | None,
    instance: Any,
    facts: dict[str, Any],
) -> tuple[int | None, str, str]:
    """The branch whose errors to name (or None), what to say before them, and the words that repeat
    the instance; ``facts`` gains ``branch``, ``tag`` and ``tags``, or ``expected_type``."""
    keyword = site.keyword
    if tag is not None and isinstance(instance, dict):
        name, choices = tag
        values = site.once(("tag", name), lambda: _either(choices))
        facts.update(tag=name, tags=freeze([value for value, _ in choices]))
        if name not in instance:
            return None, f"; missing the tag {show(name)}, one of {values}", ""
        chosen = [index for value, index in choices if json_equal(value, instance[name])]
        if not chosen:
            return (
                None,
                f"; the tag {show(name)} must be one of {values}",
                (f", is {show(instance[name])}" if _short(instance[name]) else ""),
            )
        facts["branch"] = chosen[0]
        return (
            chosen[0],
            f"; the one for {show(name)}: {show(choices[chosen[0]][0])} ({keyword}/{chosen[0]}) says: ",
            "",
        )
    # A branch "fits the type" when it has no type error at the instance itself: for the common
    # anyOf [T, {"type": "null"}], the model needs T's errors, not "expected null".
    type_errors = [[e for e in found if e.keyword == "type" and stands_at(e, path)] for found in outcomes]
    fitting = [index for index, found in enumerate(type_errors) if not found]
    if len(fitting) == 1:
        facts["branch"] = fitting[0]
        return fitting[0], f"; the one for its type ({keyword}/{fitting[0]}) says: ", ""
    if not fitting:
        names: list[str] = []
        for found in type_errors:
            for error in found:
                declared = error.facts.get("expected_type")
                for item in declared if isinstance(declared, tuple) else (declared,):
                    if isinstance(item, str) and item not in names:
                        names.append(item)
        actual = type_errors[0][0].facts.get("actual_type")
        facts["expected_type"] = freeze(names)
        said, quoted = f": expected {' or '.join(names)}, got {actual}", ""
        # A branch's hint holds for the union: the quotes to drop, or the property to leave out.
        hints = {error.facts.get("hint") for found in type_errors for error in found}
        if "omit" in hints:
            said, facts["hint"] = f"{said}; leave the property out rather than send null", "omit"
        elif "unquote" in hints and isinstance(instance, str):
            quoted, facts["hint"] = f"; write {instance} without the quotes", "unquote"
        return None, said, quoted
    return None, "", ""


def _either(choices: tuple[tuple[Any, int], ...]) -> str:
    """A union's tag values for its messages: "a", "b" or "c", the first :data:`NAMES_SHOWN` of many."""
    shown = [show_within(value) for value, _ in choices[:NAMES_SHOWN]]
    if len(choices) > NAMES_SHOWN:
        return f"{', '.join(shown)} or {len(choices) - NAMES_SHOWN} more"
    return f"{', '.join(shown[:-1])} or {shown[-1]}"


def _short(value: Any) -> bool:
    return (
        isinstance(value, (int, float, bool))
        or value is None
        or (isinstance(value, str) and len(value) <= 40)
    )


# How anyOf or oneOf judges what its branches found: the error at ``path``, or None where it passes.
Judge = Callable[[Place, list[list[ValidationError]], Any], "ValidationError | None"]


@runtime_checkable
class BranchCheck(Protocol):
    """The check of anyOf or oneOf: it runs every branch, then ``judge`` reads their errors. The fast
    path runs the branches itself and hands ``judge`` what they found, so nothing is walked twice."""

    judge: Judge

    def __call__(self, instance: Any, path: Place, errors: list[ValidationError]) -> None: ...


# What each error a failing branch of anyOf or oneOf keeps past its first costs, in steps of the work
# budget, where the schema's shape does not bound its work already (see ``Compiler.kept_errors_cost``): what a
# value of the instance earns, so the errors branches keep are about one for each value at most. The
# first is paid for by the step spent applying the branch, so a union of branches that each fail once
# (``anyOf [T, null]``) costs what it did. (Each error costs a microsecond and a few hundred bytes: a
# thousand branches each failing at 100,000 properties kept 5 million of them, 18 s and 1.5 GB,
# before the budget ran out fifty branches in.)
KEPT_ERROR_STEPS = WORK_PER_VALUE


def _branch_check(branches: list[Check], judge: Judge, site: Site, *, until_one: bool = False) -> BranchCheck:
    """A function, not an object with ``__call__``: calling an object costs Python's recursion limit
    twice what calling a function does, and a value nested ``max_depth`` deep through a union at each
    level must fit in it (see ``Limits.max_depth``). ``until_one``: anyOf is settled by its first
    passing branch; the rest are read only when none passes, when a schema around collects what
    each passing branch evaluates, or when the walk is traced for the standard output."""
    costs: list[bool] = []  # kept_errors_cost, read at the first branch that keeps several errors
    compiler = site.compiler  # the compiled schema, once it is done

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        first_only = until_one and noted(errors, instance) is None and not getattr(errors, "traces", False)
        outcomes: list[list[ValidationError]] = []
        # Each branch's errors on a list of its own (run_branch, written in place: one frame fewer).
        for branch in branches:
            spend(errors)
            found = scratch(errors)
            try:
                branch(instance, path, found)
            except Failed:
                found = [FAILED]
            outcomes.append(found)
            if len(found) > 1:  # never in a yes/no answer, whose branch keeps FAILED alone
                if not costs:
                    costs.append(compiler.kept_errors_cost())
                if costs[0]:
                    spend(errors, KEPT_ERROR_STEPS * (len(found) - 1))
            if first_only and not found:
                break
        if isinstance(errors, Verdict):
            # A yes/no answer needs no words: anyOf fails when none passes, oneOf unless one does.
            passed = sum(not found for found in outcomes)
            if passed == 0 or (passed > 1 and not until_one):
                raise Failed
            return
        error = judge(path, outcomes, instance)
        if error is not None:
            errors.append(error)

    judged = cast(BranchCheck, check)
    judged.judge = judge
    return judged


def any_of(value: Any, site: Site) -> Check:
    """The instance matches at least one schema; otherwise one error carrying every branch's errors."""

    branches = site.schemas(value, in_place=True)
    tags: list[Tag | None] = []  # the union's tag, read at its first failure

    def judge(path: Place, outcomes: list[list[ValidationError]], instance: Any) -> ValidationError | None:
        return (
            _no_branch_matched(site, path, outcomes, "at least one", _tag_of(tags, value, site), instance)
            if all(outcomes)
            else None
        )

    return _branch_check(branches, judge, site, until_one=True)


def any_of_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    return any(reading.fits(branch, instance) for branch in value)


def one_of(value: Any, site: Site) -> Check:
    """The instance matches exactly one schema; the error says which matched, or what each wanted."""

    branches = site.schemas(value, in_place=True)
    tags: list[Tag | None] = []  # the union's tag, read at its first failure

    def judge(path: Place, outcomes: list[list[ValidationError]], instance: Any) -> ValidationError | None:
        matched = [index for index, found in enumerate(outcomes) if not found]
        if not matched:
            return _no_branch_matched(
                site, path, outcomes, "exactly one", _tag_of(tags, value, site), instance
            )
        if len(matched) == 1:
            return None
        which = ", ".join(map(str, matched))
        message = f"must match exactly one of the {len(outcomes)} schemas in oneOf, matches {which}"
        return site.failure(path, message, matched=freeze(matched))

    return _branch_check(branches, judge, site)


def one_of_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    # Exactly one: a first match and no second, reading no branch past the second.
    matches = (True for branch in value if reading.fits(branch, instance))
    return next(matches, False) and not next(matches, False)


def not_(value: Any, site: Site) -> Check:
    """The instance does not match the schema."""
    child = site.in_place(value, hands_on=False)

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        spend(errors)
        if not run_branch(child, instance, path, errors):
            errors.append(deferred_error(site, path, None))

    return check


def not_accepts(value: Any, instance: Any, schema: dict[str, Any], reading: Reading) -> bool:
    return not reading.fits(value, instance)


def not_words(site: Site, kept: None) -> Words:
    return Words("must not match the schema in 'not'")


def if_(value: Any, site: Site) -> Check:
    """When the instance matches ``if``, it must match ``then``; otherwise ``else``. Their errors
    say which way the condition went."""
    condition = site.in_place(value)
    branches = {}
    for keyword in ("then", "else"):
        if keyword in site.schema:
            branches[keyword] = site.in_place_sibling(keyword)
    then, otherwise = branches.get("then"), branches.get("else")

    def check(instance: Any, path: Place, errors: list[ValidationError]) -> None:
        spend(errors)
        held = not run_branch(condition, instance, path, errors)
        branch = then if held else otherwise
        if branch is None:
            return
        spend(errors)
        because = "it matches" if held else "it does not match"
        for error in run_branch(branch, instance, path, errors):
            hidden = error.masked()
            errors.append(
                trusted_error(
                    place_of(error), error.schema_path, error.keyword,
                    f"{error.message} (as {because} the 'if' schema)",
                    {**error.facts, "if_matched": held},
                    (place_of(hidden), f"{hidden.message} (as {because} the 'if' schema)",
                     {**hidden.facts, "if_matched": held}),
                )
            )  # fmt: skip

    return check


def then_else(value: Any, site: Site) -> Check:
    """``then`` and ``else``: compiled and applied by ``if``; without an ``if`` they do nothing."""
    if "if" not in site.schema:
        site.subschema(value)  # still checked
    return no_check
