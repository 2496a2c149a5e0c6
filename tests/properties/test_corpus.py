"""Real tool catalogs: every standard schema that is valid 2020-12 registers; the invalid ones are refused."""

import json
import os
import re
from collections import defaultdict
from pathlib import Path

import jsonschema
import pytest

import toolreg
from tests import accept_any
from tests.conftest import untraced
from tests.paths import ROOT

# The cross-checks and real catalogs: `make test` runs them, `make quick` leaves them out.
pytestmark = pytest.mark.slow

CORPUS = Path(os.environ.get("TOOLREG_CORPUS") or ROOT.parent / "shared" / "tool-schemas" / "corpus.jsonl")
RECORDS = (
    [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()] if CORPUS.is_file() else []
)
STANDARD = [record for record in RECORDS if record.get("dialect") != "nonstandard"]
needs_corpus = pytest.mark.skipif(
    not RECORDS, reason=f"tool-schema corpus not found at {CORPUS}; set TOOLREG_CORPUS"
)

# What each invalid schema in the corpus must be told to write instead.
HINTS = {
    "items": "prefixItems",
    "exclusiveMinimum": "is a number in 2020-12",
    "exclusiveMaximum": "is a number",
}


def catalog_of(record):
    return f"{record['source'].split(':')[0]} {record.get('server', '')}".strip()


def tool_name(name, taken):
    """The corpus's names are not all toolreg names ("get-user", "listTools"): a readable stand-in."""
    base = re.sub(r"[^a-z0-9_.]+", "_", name.lower()).strip("._") or "tool"
    base = re.sub(r"\.{2,}", ".", base)
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}_{number}", number + 1
    return candidate


def meta_verdicts(schemas):
    """Whether each schema is valid 2020-12 by jsonschema's meta-schema, by its JSON text: asked once
    for each distinct schema (a tenth of the corpus repeats another)."""
    meta = jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA)
    verdicts = {}
    for schema in schemas:
        text = json.dumps(schema)
        if text not in verdicts:
            verdicts[text] = meta.is_valid(schema)
    return verdicts


@pytest.fixture(scope="module")
def registered():
    """Each catalog in its own registry; the tools counted and the refusals kept."""
    registries = defaultdict(toolreg.ToolRegistry)
    counts = defaultdict(lambda: [0, 0, 0])  # tools, registered, refused
    refused = []
    valid_2020_12 = untraced(meta_verdicts, [record["schema"] for record in STANDARD])
    for record in STANDARD:
        catalog, valid = catalog_of(record), valid_2020_12[json.dumps(record["schema"])]
        registry = registries[catalog]
        counts[catalog][0] += 1
        try:
            registry.register(tool_name(record["name"], registry.names()), record["schema"], accept_any)
        except toolreg.SchemaError as error:
            counts[catalog][2] += 1
            refused.append((record, valid, error))
        else:
            counts[catalog][1] += 1
            assert valid, f"{catalog} {record['name']}: invalid 2020-12 but registered"
    return registries, counts, refused


@needs_corpus
def test_every_valid_standard_schema_registers_and_the_invalid_are_refused_with_a_hint(registered, capsys):
    _, counts, refused = registered
    with capsys.disabled():
        print(f"\ncorpus: {len(STANDARD)} standard tool schemas in {len(counts)} catalogs")
        for catalog, (tools, accepted, rejected) in sorted(counts.items()):
            if rejected:
                print(f"  {catalog}: {accepted} of {tools} registered, {rejected} refused")
        whole = sum(1 for _, _, rejected in counts.values() if not rejected)
        print(f"  every tool registered in {whole} of {len(counts)} catalogs")
        for record, _, error in refused:
            print(f"  refused {catalog_of(record)} {record['name']}: {error}")
    for record, valid, error in refused:
        assert not valid, f"{catalog_of(record)} {record['name']}: valid 2020-12 but refused: {error}"
        assert error.keyword in HINTS and HINTS[error.keyword] in str(error), str(error)
    assert len(refused) == 3
    assert sum(accepted for _, accepted, _ in counts.values()) == len(STANDARD) - 3


@pytest.mark.no_cover
@needs_corpus
def test_registered_catalogs_validate_calls_without_surprises(registered):
    registries, _, _ = registered
    checked = 0
    for registry in registries.values():
        for name in registry.names():
            for call in ({}, {"unexpected": [1, None]}, {"path": 3.5}):
                result = registry.validate(name, call)
                assert isinstance(result, toolreg.Ok) or all(
                    isinstance(error, toolreg.ValidationError) for error in result
                )
                checked += 1
    assert checked == 3 * (len(STANDARD) - 3)
