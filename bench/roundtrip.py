"""``python -m bench.roundtrip``: is a call broken as models break calls mended from the feedback alone?

Correct calls are built for the real tool schemas of the shared corpus (``TOOLREG_CORPUS``, else
``../shared/tool-schemas/corpus.jsonl``), one per schema the builder can satisfy. Each call is then
broken in one way at a time, as models do, and a mechanical fixer that reads only the structured
feedback (each error's path, keyword and facts, never the schema) tries to mend it. A break whose fix
the schema determines (the value to drop quotes from, a property to leave out or rename, a bound to
meet, the allowed value nearest to the one sent) counts as repaired when the mended call validates.
A wrong type or a missing required property is reported too, but its fix is not determined: only
the model knows the value it meant.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import toolreg

Call = dict[str, Any]
# Each kind of break, and whether the schema determines its fix.
BREAKS: dict[str, bool] = {
    "number as string": True,
    "null for optional": True,
    "extra key": True,
    "misspelled key": True,
    "out of enum": True,
    "wrong tag": True,
    "too long": True,
    "out of range": True,
    "wrong type": False,
    "missing required": False,
}


def corpus_path() -> Path:
    configured = os.environ.get("TOOLREG_CORPUS")
    if configured:
        return Path(configured)
    return Path(__file__).resolve().parent.parent.parent / "shared" / "tool-schemas" / "corpus.jsonl"


# -- correct calls -------------------------------------------------------------------------------


def example(schema: Any, depth: int = 0) -> Any:
    """A value the schema accepts, built from its common keywords; None when it cannot tell."""
    if not isinstance(schema, dict) or depth > 8:
        return None
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    for union in ("anyOf", "oneOf"):
        if isinstance(schema.get(union), list):
            for branch in schema[union]:
                found = example(branch, depth + 1)
                if found is not None:
                    return found
            return None
    declared = schema.get("type")
    kind = declared[0] if isinstance(declared, list) and declared else declared
    if kind == "object" or (kind is None and "properties" in schema):
        properties = schema.get("properties", {})
        if not isinstance(properties, dict):
            return None
        value = {}
        for name in schema.get("required", []):
            if name in properties:
                value[name] = example(properties[name], depth + 1)
        # One optional property too, so that there is something optional to break.
        optional = [name for name in properties if name not in value]
        if optional:
            value[optional[0]] = example(properties[optional[0]], depth + 1)
        return value
    if kind == "array":
        item = example(schema.get("items", {"type": "string"}), depth + 1)
        return [item] * max(1, int(schema.get("minItems", 1))) if item is not None else []
    if kind == "string":
        low = int(schema.get("minLength", 1))
        return "a" * max(low, 1) if "pattern" not in schema and "format" not in schema else None
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0))
        return int(low) + 1 if isinstance(low, (int, float)) and not isinstance(low, bool) else 1
    if kind == "boolean":
        return True
    return None


def correct_calls(limit: int) -> Iterator[tuple[str, dict[str, Any], Call]]:
    """(name, schema, call) for schemas of the corpus that register and whose built call is valid."""
    path = corpus_path()
    seen = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        schema = record.get("schema")
        if record.get("dialect") == "nonstandard" or not isinstance(schema, dict):
            continue
        try:
            validator = toolreg.compile(schema)
        except toolreg.SchemaError:
            continue
        call = example(schema)
        if not isinstance(call, dict) or not call or validator.validate(call):
            continue
        yield record.get("name", "tool"), schema, call
        seen += 1
        if seen >= limit:
            return


# -- breaking them -------------------------------------------------------------------------------


def _properties(schema: dict[str, Any]) -> dict[str, Any]:
    properties = schema.get("properties", {})
    return properties if isinstance(properties, dict) else {}


def breaks(schema: dict[str, Any], call: Call, rng: random.Random) -> Iterator[tuple[str, Call]]:
    """Each way this call can be broken at its top level, as models break calls."""
    properties, required = _properties(schema), set(schema.get("required", []))
    closed = schema.get("additionalProperties") is False
    for name, value in call.items():
        rule = properties.get(name, {}) if isinstance(properties.get(name), dict) else {}
        types = rule.get("type")
        types = types if isinstance(types, list) else [types]
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            yield "number as string", {**call, name: json.dumps(value)}
        if isinstance(value, bool):
            yield "number as string", {**call, name: json.dumps(value)}
        if name not in required and "null" not in types:
            yield "null for optional", {**call, name: None}
        if name in required:
            yield "missing required", {key: item for key, item in call.items() if key != name}
            if closed and len(name) > 3:
                yield (
                    "misspelled key",
                    {(key[:-1] if key == name else key): item for key, item in call.items()},
                )
        if isinstance(rule.get("enum"), list) and isinstance(value, str):
            yield "out of enum", {**call, name: value.upper() if value.upper() != value else value + "s"}
        if "const" in rule and isinstance(value, str):
            yield "wrong tag", {**call, name: value + "_"}
        if isinstance(rule.get("maxLength"), int) and isinstance(value, str):
            yield "too long", {**call, name: "a" * (rule["maxLength"] + 5)}
        for bound, step in (("maximum", 7), ("minimum", -7)):
            if isinstance(rule.get(bound), (int, float)) and isinstance(value, (int, float)):
                yield "out of range", {**call, name: rule[bound] + step}
        if types and types[0] == "string" and isinstance(value, str):
            yield "wrong type", {**call, name: rng.randint(2, 99)}
    if closed:
        yield "extra key", {**call, "unexpected_option": True}


# -- mending them from the feedback alone -------------------------------------------------------


def _at(call: Any, pointer: str) -> tuple[Any, str] | None:
    """The container and the key a one-level-deep pointer names (the breaks are at the top level)."""
    tokens = pointer.split("/")[1:]
    if len(tokens) != 1 or not isinstance(call, dict):
        return None
    key = tokens[0].replace("~1", "/").replace("~0", "~")
    return (call, key) if key in call else None  # an earlier fix may have left it out


def mend(call: Call, items: list[dict[str, Any]]) -> Call:
    """The call with every fix the feedback's structured items determine applied."""
    mended = dict(call)
    for item in items:
        keyword, facts, place = item["keyword"], item, _at(mended, item["path"])
        if keyword in ("type", "anyOf", "oneOf") and "hint" in facts and place is not None:
            container, key = place
            if facts.get("hint") == "unquote":
                container[key] = json.loads(container[key])
            elif facts.get("hint") == "omit":
                del container[key]
        elif keyword == "additionalProperties" and item["path"] == "":
            missing = [i["missing"] for i in items if i["keyword"] == "required" and i["path"] == ""]
            for extra in facts.get("extra", []):
                value = mended.pop(extra)
                nearest = difflib.get_close_matches(
                    extra, missing or facts.get("allowed", []), n=1, cutoff=0.6
                )
                if nearest:
                    mended[nearest[0]] = value
        elif keyword in ("enum", "const") and place is not None:
            container, key = place
            allowed = facts.get("allowed", [facts.get("const")])
            texts = [option for option in allowed if isinstance(option, str)]
            nearest = difflib.get_close_matches(str(container[key]), texts, n=1, cutoff=0.0)
            if nearest:
                container[key] = nearest[0]
        elif keyword == "maxLength" and place is not None:
            container, key = place
            container[key] = container[key][: facts["limit"]]
        elif keyword in ("minimum", "maximum") and place is not None:
            container, key = place
            container[key] = facts["limit"]
        elif keyword in ("oneOf", "anyOf") and "tag" in facts:
            tag = facts["tag"]
            if isinstance(mended.get(tag), str):
                options = [option for option in facts["tags"] if isinstance(option, str)]
                nearest = difflib.get_close_matches(mended[tag], options, n=1, cutoff=0.0)
                if nearest:
                    mended[tag] = nearest[0]
    return mended


def measure(limit: int, seed: int) -> dict[str, tuple[int, int]]:
    """Each kind of break: (calls broken, calls mended from the feedback alone)."""
    rng = random.Random(seed)
    tried, mended_ok = Counter[str](), Counter[str]()
    for _, schema, call in correct_calls(limit):
        validator = toolreg.compile(schema)
        for kind, broken in breaks(schema, call, rng):
            errors = validator.validate(broken)
            if not errors:
                continue  # not a break for this schema (an open object takes an extra key)
            tried[kind] += 1
            items = [dict(item) for item in toolreg.format_errors(errors, max_errors=1000).items]
            try:
                mended = mend(broken, items)
            except (KeyError, TypeError, ValueError):
                continue
            if not validator.validate(mended):
                mended_ok[kind] += 1
    return {kind: (tried[kind], mended_ok[kind]) for kind in BREAKS if tried[kind]}


def report(results: dict[str, tuple[int, int]]) -> str:
    lines = [
        "| break | schema determines the fix | calls broken | mended from the feedback | rate |",
        "|---|---|---:|---:|---:|",
    ]
    for kind, (tried, mended) in results.items():
        determined = "yes" if BREAKS[kind] else "no"
        lines.append(f"| {kind} | {determined} | {tried} | {mended} | {mended / tried:.0%} |")
    determined = [results[kind] for kind in results if BREAKS[kind]]
    tried = sum(count for count, _ in determined)
    mended = sum(count for _, count in determined)
    if tried:
        lines.append(
            f"\nBreaks whose fix the schema determines: {mended} of {tried} mended from the feedback alone "
            f"({mended / tried:.1%}); the feedback was not sufficient for {tried - mended}."
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None, print_to: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.roundtrip", description=__doc__)
    parser.add_argument("--schemas", type=int, default=1000, help="how many corpus schemas to use")
    parser.add_argument("--seed", type=int, default=20261203)
    options = parser.parse_args(argv)
    if not corpus_path().is_file():
        print_to(f"tool-schema corpus not found at {corpus_path()}: SKIPPED (set TOOLREG_CORPUS)")
        return 0
    print_to(report(measure(options.schemas, options.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
